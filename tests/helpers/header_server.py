#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server whose response headers a test chooses.

    header_server.py

Binds 127.0.0.1 on a free port and prints the port as its first line.
Each request is logged to stderr as "req TARGET".  By path:

    /page?h=NAME:VALUE...  an HTML article (UTF-8, with a "café"), with
                           each h as a header (percent-encoded; Date is
                           always sent, Content-Type unless an h is one)
    /bighdr?kb=N           a header line of N KiB (default 200), then a page
    /driphdr?n=N           the status line, then one header line a second
                           for N seconds (default 8), then a page
"""
import socket
import sys
import threading
import time
import urllib.parse
from email.utils import formatdate

PAGE = ("<!doctype html><html><head><title>Headers</title></head><body>"
        "<article><h1>Headers at the café</h1>" +
        "<p>The harbour was quiet that morning, and the fishing boats rocked "
        "gently against the old stone pier while gulls circled overhead.</p>"
        * 8 + "</article></body></html>").encode("utf-8")


def read_request(c):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = c.recv(4096)
        if not chunk:
            return None
        data += chunk
    return data.split(b"\r\n", 1)[0].decode("latin-1").split(" ")[1]


def serve(c):
    try:
        target = read_request(c)
        if target is None:
            return
        print("req " + target, file=sys.stderr, flush=True)
        u = urllib.parse.urlsplit(target)
        q = urllib.parse.parse_qs(u.query)
        head = ["HTTP/1.1 200 OK", "Content-Type: text/html; charset=utf-8",
                "Content-Length: %d" % len(PAGE), "Connection: close",
                "Date: " + formatdate(usegmt=True)]
        if u.path == "/page":
            hs = q.get("h", [])
            if any(h.lower().startswith("content-type:") for h in hs):
                head = [h for h in head if not h.startswith("Content-Type:")]
            head += hs
        elif u.path == "/bighdr":
            head.append("X-Big: " + "a" * (1024 * int(q.get("kb", ["200"])[0])))
        elif u.path == "/driphdr":
            c.sendall(("\r\n".join(head) + "\r\n").encode())
            for i in range(int(q.get("n", ["8"])[0])):
                time.sleep(1)
                c.sendall(b"X-Drip-%d: x\r\n" % i)
            c.sendall(b"\r\n" + PAGE)
            return
        c.sendall(("\r\n".join(head) + "\r\n\r\n").encode("utf-8") + PAGE)
    except OSError:
        pass
    finally:
        c.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    print(s.getsockname()[1], flush=True)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


main()
