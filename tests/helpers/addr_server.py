#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback web server on a given address (127.0.0.2 for the guard
suites' internal host).  Prints its port as its first line; logs "conn"
for every connection on stderr; answers every GET with a small page."""
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def setup(self):
        print("conn %s" % (self.client_address[0],), file=sys.stderr,
              flush=True)
        super().setup()

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        body = (b"<html><head><title>Internal page</title></head><body>"
                b"<p>Only for the inside.</p></body></html>")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


srv = http.server.ThreadingHTTPServer((sys.argv[1], 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
