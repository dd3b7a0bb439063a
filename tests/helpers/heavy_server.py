#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server of pages that are heavy to extract or slow to come.

    heavy_server.py heavy MB     every request: at once, an HTML page of MB
                                 megabytes of short paragraphs (one element
                                 per 33 bytes, just under extraction's limit
                                 of one per 32): seconds of CPU to extract,
                                 sent gzipped (some kilobytes), so that its
                                 transfer takes no time even on a loaded
                                 machine or under the sanitizers
    heavy_server.py slow SECONDS every request: after SECONDS, a normal
                                 article of a few paragraphs

Binds 127.0.0.1 on a free port and prints the port as its first line.
Each request is served on a thread of its own, and logged to stderr as
"req PATH TIME" when it arrives and "sent PATH TIME" when answered (TIME
in seconds since the epoch).
"""
import gzip
import http.server
import socketserver
import sys
import time

mode, arg = sys.argv[1], float(sys.argv[2])

UNIT = "<p>aaa, bbb, ccc, ddd, eee, fff.\n"
ARTICLE = ("<!DOCTYPE html><html><head><meta charset=utf-8>"
           "<title>A normal page</title></head><body><article>"
           "<h1>A normal page</h1>" +
           "<p>The harbour was quiet that morning, and the fishing boats "
           "rocked gently against the old stone pier while gulls circled "
           "overhead looking for scraps of the catch.</p>\n" * 5 +
           "</article></body></html>").encode()

if mode == "heavy":
    BODY = ("<!DOCTYPE html><html><head><meta charset=utf-8><title>Heavy"
            "</title></head><body>" +
            UNIT * int(arg * 1024 * 1024 / len(UNIT)) +
            "</body></html>").encode()
    BODY = gzip.compress(BODY, 6)
else:
    BODY = ARTICLE


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        sys.stderr.write("req %s %.3f\n" % (self.path, time.time()))
        sys.stderr.flush()
        if mode == "slow":
            time.sleep(arg)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if mode == "heavy":
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        try:
            self.wfile.write(BODY)
        except OSError:
            return
        sys.stderr.write("sent %s %.3f\n" % (self.path, time.time()))
        sys.stderr.flush()

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
