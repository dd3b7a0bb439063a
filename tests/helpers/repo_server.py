#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loopback server for the repository suites.

repo_server.py ROOT [LOG] prints its port, then serves:
  /OWNER/REPO/tar.gz/REF      ROOT/archives/OWNER/REPO/REF.tar.gz (404 if none)
  /moved/OWNER/REPO/tar.gz/REF  302 to the path above (GitHub redirects)
  /hang/...                   accepts, never answers (a hung server)
  /git/NAME.git/...           git smart HTTP from ROOT/git (git http-backend)
Every request (method, path, Authorization) is appended to LOG
(default ROOT/requests.log).
"""
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1])
LOG = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "requests.log")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):
        pass

    def log_request_path(self):
        with open(LOG, "a") as f:
            auth = self.headers.get("Authorization", "")
            f.write("%s %s %s\n" % (self.command, self.path, auth))

    def do_GET(self):
        self.log_request_path()
        path = self.path.split("?", 1)[0]
        # /slow/...: the archive in two halves, 1.5 s apart, so that a run
        # lasts long enough for urlfetch's progress line to show.
        slow = path.startswith("/slow/")
        if slow:
            path = path[len("/slow"):]
        if path.startswith("/hang/"):
            time.sleep(3600)
            return
        if path.startswith("/git/"):
            return self.git()
        if path.startswith("/moved/"):
            self.send_response(302)
            self.send_header("Location", path[len("/moved"):])
            self.end_headers()
            return
        parts = path.strip("/").split("/")
        if len(parts) >= 4 and parts[2] == "tar.gz":
            ref = "/".join(parts[3:])
            f = os.path.join(ROOT, "archives", parts[0], parts[1],
                             ref.replace("/", "_") + ".tar.gz")
            if os.path.isfile(f):
                with open(f, "rb") as fh:
                    data = fh.read()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-gzip")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if slow:
                    self.wfile.write(data[:len(data) // 2])
                    self.wfile.flush()
                    time.sleep(1.5)
                    data = data[len(data) // 2:]
                self.wfile.write(data)
                return
        self.send_response(404)
        self.send_header("Content-Length", "9")
        self.end_headers()
        self.wfile.write(b"not found")

    def do_POST(self):
        self.log_request_path()
        if self.path.startswith("/hang/"):
            time.sleep(3600)
            return
        if self.path.startswith("/git/"):
            return self.git()
        self.send_response(404)
        self.end_headers()

    def git(self):
        path, _, query = self.path[len("/git"):].partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        env = dict(os.environ)
        env.update({
            "GIT_PROJECT_ROOT": os.path.join(ROOT, "git"),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_ADDR": "127.0.0.1",
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "safe.directory",
            "GIT_CONFIG_VALUE_0": "*",
        })
        if self.headers.get("Content-Encoding") == "gzip":
            env["HTTP_CONTENT_ENCODING"] = "gzip"
        proto = self.headers.get("Git-Protocol")
        if proto:
            env["GIT_PROTOCOL"] = proto
        out = subprocess.run(["git", "http-backend"], input=body, env=env,
                             stdout=subprocess.PIPE).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.split(b"\r\n"):
            k, _, v = line.decode().partition(":")
            if k.lower() == "status":
                status = int(v.strip().split()[0])
            elif k:
                headers.append((k, v.strip()))
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)


class Server(ThreadingHTTPServer):
    daemon_threads = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
