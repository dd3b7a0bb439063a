#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server that counts how many requests it serves at once.

    perhost_server.py SECONDS

Every request but /_stats waits SECONDS, then gets a short article.  A
request counts as running from its arrival until just before its answer
is sent, so that the client, which starts its next transfer only once an
answer has come, can never be seen running one more than it runs.
GET /_stats answers {"max": most at once, "served": requests answered}
since the last GET /_reset (neither is counted).

Binds 127.0.0.1 on a free port and prints the port as its first line.
Each request is served on a thread of its own.
"""
import http.server
import json
import socketserver
import sys
import threading
import time

DELAY = float(sys.argv[1])
BODY = ("<!DOCTYPE html><html><head><meta charset=utf-8>"
        "<title>A slow page</title></head><body><article>"
        "<h1>A slow page</h1>" +
        "<p>The harbour was quiet that morning, and the fishing boats "
        "rocked gently against the old stone pier while gulls circled "
        "overhead looking for scraps of the catch.</p>\n" * 3 +
        "</article></body></html>").encode()

lock = threading.Lock()
state = {"running": 0, "max": 0, "served": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, body, ctype):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def do_GET(self):
        if self.path == "/_stats":
            with lock:
                body = json.dumps({"max": state["max"],
                                   "served": state["served"]})
            return self.answer(body.encode(), "application/json")
        if self.path == "/_reset":
            with lock:
                state.update(running=0, max=0, served=0)
            return self.answer(b"ok", "text/plain")
        with lock:
            state["running"] += 1
            state["max"] = max(state["max"], state["running"])
        time.sleep(DELAY)
        with lock:
            state["running"] -= 1
            state["served"] += 1
        self.answer(BODY, "text/html; charset=utf-8")

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's backlog of 5 would hold a sixth connection back.
    request_queue_size = 128


srv = Server(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
