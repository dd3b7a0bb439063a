#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server of the files of one directory (urlserve.bats).

    page_server.py DIR

Serves DIR's files (.txt as text/plain, .html as text/html, UTF-8) on
127.0.0.1, on a free port printed as the first line of stdout.
"""
import functools
import http.server
import socketserver
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {".txt": "text/plain; charset=utf-8",
                      ".html": "text/html; charset=utf-8",
                      "": "application/octet-stream"}

    def log_message(self, fmt, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    handler = functools.partial(Handler, directory=sys.argv[1])
    srv = Server(("127.0.0.1", 0), handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
