#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""urlmap's loopback site: serves the files of DIR (argv[1]) on 127.0.0.1
(or argv[2]), "/" and ".../" as index.html.  Prints its port as its first
line.  DIR/_routes.json, when present, maps a path to what to answer
instead: {"status": N, "location": URL, "type": CONTENT_TYPE, "body": TEXT,
"delay": SECONDS}.  Every request is logged to DIR/_requests.log as
"<unix time> <path>" (" HEAD" after it for a HEAD request), so a test can count requests and
check the spacing of their times."""
import http.server
import json
import os
import socket
import sys
import threading
import time

ROOT = os.path.abspath(sys.argv[1])
ADDR = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
LOCK = threading.Lock()
TYPES = {".xml": "application/xml", ".gz": "application/gzip",
         ".txt": "text/plain; charset=utf-8", ".html": "text/html",
         ".json": "application/feed+json", ".rss": "application/rss+xml",
         ".atom": "application/atom+xml", ".md": "text/markdown"}


def routes():
    try:
        with open(os.path.join(ROOT, "_routes.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Headers and body are two writes: without this, Nagle's
        # algorithm and the client's delayed ACK cost 40 ms a request.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):
        pass

    def answer(self, status, ctype, body, extra=()):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        with LOCK, open(os.path.join(ROOT, "_requests.log"), "a") as f:
            f.write("%.6f %s%s\n" % (time.time(), self.path,
                                     " HEAD" if self.command == "HEAD" else ""))
        r = routes().get(self.path)
        if r is not None:
            time.sleep(r.get("delay", 0))
            if "location" in r:
                self.answer(r.get("status", 302), None, b"",
                            [("Location", r["location"])])
                return
            if "status" in r or "body" in r:
                self.answer(r.get("status", 200),
                            r.get("type", "text/html"),
                            r.get("body", "").encode())
                return
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path.endswith("/"):
            path += "index.html"
        full = os.path.normpath(os.path.join(ROOT, path.lstrip("/")))
        if not full.startswith(ROOT + os.sep) or not os.path.isfile(full):
            self.answer(404, "text/html", b"<html><body>not here</body></html>")
            return
        with open(full, "rb") as f:
            body = f.read()
        ext = os.path.splitext(full)[1]
        ctype = r.get("type") if r else None
        self.answer(200, ctype or TYPES.get(ext, "application/octet-stream"),
                    body)


srv = http.server.ThreadingHTTPServer((ADDR, 0), Handler)
srv.daemon_threads = True
print(srv.server_address[1], flush=True)
srv.serve_forever()
