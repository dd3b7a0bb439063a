#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile clients of urlserve -l, on loopback only (issue 33).

    mcp_flood.py stall URL N SECONDS
        N connections that each send a request line and a Host header,
        then nothing.  Prints "stalled N" once all are open, holds them
        up to SECONDS (less once the server has closed them all), then
        prints "closed K": how many the server had closed by then.
    mcp_flood.py inits URL TOKEN THREADS COUNT
        THREADS threads, each sending COUNT initialize requests on its
        own keep-alive connection.  Prints the statuses as JSON
        ({"200": n, "503": m, ...}).
    mcp_flood.py timed URL TOKEN
        initialize, then tools/call detect_urls in that session; prints
        the seconds the two took and the call's status, as JSON.

    mcp_flood.py fetches BASE N [OPTION...]
        urlserve OPTION... on a pipe: initialize, then fetch_url of
        BASE/1 ... BASE/N one after the other, then get_fetched_urls,
        then clear_fetched.  Prints as JSON urlserve's VmRSS in kB after
        initialize ("start"), after the fetches ("fetched") and after
        clear_fetched ("cleared"), and the URLs of the fetched set.
    mcp_flood.py queued SLOW N BYTES [OPTION...]
        urlserve -j 1 OPTION... on a pipe: a fetch_url of SLOW (a page
        that takes some seconds) to hold the one worker, then N
        detect_urls calls each with a text of BYTES bytes.  Once all are
        answered, prints as JSON urlserve's VmRSS in kB after initialize
        ("start"), its VmHWM (the peak, "peak"), and the error texts of
        the calls with how many had each ("errors").

Every loop is bounded in count and time; nothing is sent anywhere but
the URL given, which must be on 127.0.0.1.
"""
import http.client
import json
import socket
import sys
import threading
import time
import urllib.parse

INIT = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25",
                              "capabilities": {},
                              "clientInfo": {"name": "flood",
                                             "version": "1"}}})


def parse(url):
    u = urllib.parse.urlsplit(url)
    if u.hostname != "127.0.0.1":
        sys.exit("mcp_flood: loopback (127.0.0.1) only")
    return u.hostname, u.port, u.path


def stall(url, n, seconds):
    host, port, path = parse(url)
    socks = []
    for _ in range(n):
        s = socket.create_connection((host, port), timeout=10)
        s.sendall(("POST %s HTTP/1.1\r\nHost: %s:%d\r\n" %
                   (path, host, port)).encode())
        socks.append(s)
    print("stalled %d" % len(socks), flush=True)
    end = time.monotonic() + seconds
    closed = set()
    while time.monotonic() < end and len(closed) < len(socks):
        time.sleep(0.2)
        for i, s in enumerate(socks):
            if i in closed:
                continue
            s.setblocking(False)
            try:
                if s.recv(4096) == b"":
                    closed.add(i)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(i)
    print("closed %d" % len(closed), flush=True)
    for s in socks:
        s.close()


def headers(token, sid=None):
    h = {"Content-Type": "application/json",
         "Accept": "application/json, text/event-stream",
         "Authorization": "Bearer " + token}
    if sid:
        h["Mcp-Session-Id"] = sid
    return h


def inits(url, token, nthreads, count):
    host, port, path = parse(url)
    counts = {}
    lock = threading.Lock()

    def run():
        c = http.client.HTTPConnection(host, port, timeout=30)
        for _ in range(count):
            c.request("POST", path, INIT, headers(token))
            r = c.getresponse()
            r.read()
            with lock:
                k = str(r.status)
                counts[k] = counts.get(k, 0) + 1
        c.close()

    ts = [threading.Thread(target=run) for _ in range(nthreads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print(json.dumps(counts, sort_keys=True))


def timed(url, token):
    host, port, path = parse(url)
    t0 = time.monotonic()
    c = http.client.HTTPConnection(host, port, timeout=5)
    c.request("POST", path, INIT, headers(token))
    r = c.getresponse()
    r.read()
    sid = r.getheader("Mcp-Session-Id")
    call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "detect_urls", "arguments": {
                           "text": "see https://example.com/x"}}})
    c.request("POST", path, call, headers(token, sid))
    r = c.getresponse()
    body = r.read()
    print(json.dumps({"seconds": round(time.monotonic() - t0, 3),
                      "init": bool(sid), "status": r.status,
                      "urls": body.count(b"https://example.com/x") > 0}))


def rss(pid, field="VmRSS"):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


class Stdio:
    """urlserve on a pair of pipes, one JSON-RPC message a line."""

    def __init__(self, options):
        import subprocess
        self.p = subprocess.Popen(["urlserve"] + options,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)
        self.id = 0
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": json.loads(INIT)["params"]})
        self.read(0)

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg).encode() + b"\n")
        self.p.stdin.flush()

    def call(self, tool, args):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": "tools/call",
                   "params": {"name": tool, "arguments": args}})
        return self.id

    def read(self, want):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("mcp_flood: urlserve ended")
            m = json.loads(line)
            if m.get("id") == want:
                return m

    def close(self):
        self.p.stdin.close()
        self.p.stdout.read()
        return self.p.wait(timeout=60)


def fetches(base, n, options):
    s = Stdio(options)
    out = {"start": rss(s.p.pid)}
    for i in range(1, n + 1):
        s.read(s.call("fetch_url", {"url": "%s/%d" % (base, i),
                                    "max_tokens": 100}))
    out["fetched"] = rss(s.p.pid)
    m = s.read(s.call("get_fetched_urls", {}))
    out["urls"] = [u["url"] for u in
                   m["result"]["structuredContent"]["urls"]]
    s.read(s.call("clear_fetched", {}))
    out["cleared"] = rss(s.p.pid)
    out["status"] = s.close()
    print(json.dumps(out))


def queued(slow, n, size, options):
    s = Stdio(["-j", "1"] + options)
    out = {"start": rss(s.p.pid)}
    first = s.call("fetch_url", {"url": slow})
    text = "x" * size
    ids = [s.id + 1 + i for i in range(n)]

    # Written on a thread: urlserve may read no further until calls end.
    def write():
        for _ in range(n):
            s.call("detect_urls", {"text": text})

    t = threading.Thread(target=write)
    t.start()
    want = set(ids + [first])
    errors = {}
    while want:
        line = s.p.stdout.readline()
        if not line:
            break
        m = json.loads(line)
        if m.get("id") in want:
            want.discard(m["id"])
            r = m.get("result", {})
            if m.get("id") != first and r.get("isError"):
                k = r["content"][0]["text"]
                errors[k] = errors.get(k, 0) + 1
    t.join()
    out["peak"] = rss(s.p.pid, "VmHWM")
    out["errors"] = errors
    out["status"] = s.close()
    print(json.dumps(out))


def main():
    cmd = sys.argv[1]
    if cmd == "stall":
        stall(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    elif cmd == "inits":
        inits(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif cmd == "fetches":
        fetches(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    elif cmd == "queued":
        queued(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
               sys.argv[5:])
    elif cmd == "timed":
        timed(sys.argv[2], sys.argv[3])
    else:
        sys.exit("mcp_flood: unknown command " + cmd)


main()
