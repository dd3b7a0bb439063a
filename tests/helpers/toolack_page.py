#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A loopback HTTP server with one small page at every path, for the URL
# that toolack's web frontend opens in a new tab.  Prints its port first.
import http.server
import sys


class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>opened</title><p>opened</p>\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("page: " + (fmt % args) + "\n")


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
