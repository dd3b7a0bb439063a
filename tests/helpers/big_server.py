#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server of large, distinct pages (issue 33, item 5).

    big_server.py KB    GET /N: an article of about KB kilobytes of text,
                        every paragraph naming N, so that no two pages
                        are alike

Binds 127.0.0.1 on a free port and prints the port as its first line.
"""
import http.server
import socketserver
import sys

KB = int(sys.argv[1])
WORDS = ("the harbour was quiet that morning and the fishing boats rocked "
         "gently against the old stone pier while gulls circled overhead ")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        n = self.path.strip("/")
        para = "<p>Page %s: %s</p>\n" % (n, WORDS * 60)
        count = max(1, KB * 1024 // len(para))
        body = ("<!DOCTYPE html><html><head><meta charset=utf-8><title>"
                "Page %s</title></head><body><article><h1>Page %s</h1>\n%s"
                "</article></body></html>" % (n, n, para * count)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


srv = Server(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
