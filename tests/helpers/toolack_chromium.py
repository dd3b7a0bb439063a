#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drive headless Chromium for toolack's web frontend tests, stdlib only.
#
#   toolack_chromium.py launch DIR URL [--allow-popups]
#       start Chromium on URL with its own user data dir DIR, print the
#       DevTools port (from DIR/DevToolsActivePort) and stay in the
#       foreground until killed (then Chromium is killed too)
#   toolack_chromium.py targets PORT
#       print the URL of every page target, one a line (/json/list)
#   toolack_chromium.py wait-target PORT PREFIX SECONDS
#       wait until a page target's URL starts with PREFIX; exit 1 if none
#   toolack_chromium.py count PORT URL
#       print how many page targets are at exactly URL
#   toolack_chromium.py reload PORT PREFIX
#       reload the page whose URL starts with PREFIX (Page.reload over the
#       DevTools WebSocket: a minimal RFC 6455 client, no Origin header)
#   toolack_chromium.py eval PORT PREFIX EXPR [--gesture]
#       evaluate EXPR in that page and print its value as JSON; with
#       --gesture as a user gesture (a click's activation: pop-ups open)
#   toolack_chromium.py wait-eval PORT PREFIX EXPR SECONDS
#       wait until EXPR is true in that page (an exception, or no page
#       yet, counts as not yet); exit 1 if it never is
#   toolack_chromium.py screenshot PORT PREFIX FILE
#       write a PNG of that page's viewport to FILE
import base64
import json
import socket
import os
import signal
import subprocess
import sys
import time
import urllib.request

CHROMIUM = os.environ.get("URLKIT_CHROMIUM", "/usr/lib/chromium/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-port=0"]


def launch(d, url, allow):
    args = [CHROMIUM] + FLAGS + ["--user-data-dir=" + d]
    if allow:
        args.append("--disable-popup-blocking")
    args.append(url)
    log = open(os.path.join(d, "chromium.log"), "wb")
    p = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                         start_new_session=True)

    def stop(*_):
        try:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=5)
        except Exception:
            os.killpg(p.pid, signal.SIGKILL)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    f = os.path.join(d, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(f):
            lines = open(f).read().split("\n")
            if lines and lines[0].strip():
                print(lines[0].strip(), flush=True)
                break
        if p.poll() is not None:
            sys.exit("chromium exited with %d" % p.returncode)
        time.sleep(0.05)
    else:
        stop()
    while p.poll() is None:
        time.sleep(0.2)
    sys.exit(1)


def targets(port):
    with urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port,
                                timeout=5) as r:
        return [t.get("url", "") for t in json.load(r)
                if t.get("type") == "page"]


def page_ws(port, prefix):
    with urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port,
                                timeout=5) as r:
        for t in json.load(r):
            if t.get("type") == "page" and t.get("url", "").startswith(prefix):
                return t["webSocketDebuggerUrl"]
    sys.exit("no page at " + prefix)


def ws_send(s, text):
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    if n < 126:
        head = bytes([0x81, 0x80 | n])
    elif n < 65536:
        head = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + n.to_bytes(8, "big")
    s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def recv_n(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            sys.exit("websocket closed")
        buf += chunk
    return buf


def ws_recv(s):
    msg = b""
    while True:
        b0, b1 = recv_n(s, 2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(recv_n(s, 2), "big")
        elif n == 127:
            n = int.from_bytes(recv_n(s, 8), "big")
        data = recv_n(s, n)
        op = b0 & 0x0F
        if op == 8:
            sys.exit("websocket closed by the browser")
        if op in (9, 10):
            continue
        msg += data
        if b0 & 0x80:
            return msg.decode()


def cdp(port, prefix, method, params=None):
    url = page_ws(port, prefix)
    path = "/" + url.split("/", 3)[3]
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
               % (path, port, key)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += recv_n(s, 1)
    if b" 101 " not in head.split(b"\r\n")[0]:
        sys.exit("websocket handshake refused: " + head.decode())
    ws_send(s, json.dumps({"id": 1, "method": method, "params": params or {}}))
    while True:
        m = json.loads(ws_recv(s))
        if m.get("id") == 1:
            s.close()
            return m


def evaluate(port, prefix, expr, gesture=False):
    m = cdp(port, prefix, "Runtime.evaluate",
            {"expression": expr, "returnByValue": True,
             "awaitPromise": True, "userGesture": gesture})
    if "error" in m:
        sys.exit(json.dumps(m["error"]))
    r = m["result"]
    if "exceptionDetails" in r:
        sys.exit("exception: " + json.dumps(r["exceptionDetails"]))
    return r["result"].get("value")


def main():
    cmd = sys.argv[1]
    if cmd == "launch":
        launch(sys.argv[2], sys.argv[3], "--allow-popups" in sys.argv[4:])
    elif cmd == "targets":
        for u in targets(sys.argv[2]):
            print(u)
    elif cmd == "wait-target":
        end = time.time() + float(sys.argv[4])
        while time.time() < end:
            if any(u.startswith(sys.argv[3]) for u in targets(sys.argv[2])):
                sys.exit(0)
            time.sleep(0.1)
        sys.exit(1)
    elif cmd == "count":
        print(sum(1 for u in targets(sys.argv[2]) if u == sys.argv[3]))
    elif cmd == "eval":
        print(json.dumps(evaluate(sys.argv[2], sys.argv[3], sys.argv[4],
                                  "--gesture" in sys.argv[5:])))
    elif cmd == "wait-eval":
        end = time.time() + float(sys.argv[5])
        while time.time() < end:
            try:
                if evaluate(sys.argv[2], sys.argv[3], sys.argv[4]) is True:
                    sys.exit(0)
            except SystemExit as e:
                # No page yet, or it is still loading: wait on.
                if e.code == 0:
                    raise
            time.sleep(0.1)
        sys.exit(1)
    elif cmd == "screenshot":
        m = cdp(sys.argv[2], sys.argv[3], "Page.captureScreenshot",
                {"format": "png"})
        if "error" in m:
            sys.exit(json.dumps(m["error"]))
        open(sys.argv[4], "wb").write(base64.b64decode(m["result"]["data"]))
    elif cmd == "reload":
        m = cdp(sys.argv[2], sys.argv[3], "Page.reload")
        if "error" in m:
            sys.exit(json.dumps(m["error"]))
    else:
        sys.exit("unknown command " + cmd)


main()
