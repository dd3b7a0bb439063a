#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loopback HTTP server for the urlfetch suites.

Serves fixture pages and misbehaving endpoints on 127.0.0.1, on a free
port printed as the first line of stdout.  Every request is counted by
path and query: GET /_count/PATH?QUERY answers how many requests that
had (the counting endpoint itself is not counted; a test that counts uses
a query of its own, so /ratelimit?t=1 starts afresh too).  GET /_log
lists the requests with their conditional headers.

Stands in for GitHub too: /raw/OWNER/REPO/BRANCH/PATH (the raw host),
/api/repos/OWNER/REPO/issues/N (the API), /gh/OWNER/REPO/issues/N (the
web host).
"""
import gzip
import http.server
import json
import socketserver
import ssl
import sys
import threading
import time

import mkpdf

ARTICLE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>The Quiet Harbour</title>
<meta name="description" content="A short story about boats.">
<meta name="author" content="Ada Lovelace">
<meta property="article:published_time" content="2024-03-05T10:00:00Z">
<style>body { color: red; }</style>
<script>var tracking = "SCRIPT-NOISE";</script>
</head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/x">More</a></nav>
<article>
<h1>The Quiet Harbour</h1>
<p>The harbour was quiet that morning, and the fishing boats rocked gently
against the old stone pier while gulls circled overhead looking for
scraps. Nobody in the village remembered a calmer day.</p>
<p>By noon the wind had turned, and the harbour master walked the length of
the pier twice, checking every rope and every knot, because he had seen
calm mornings turn into wild afternoons more times than he could count.</p>
<p>Caf&eacute; owners brought their chairs inside &amp; waited.</p>
</article>
<footer>Copyright 2024 Example Footer</footer>
</body></html>
"""

DOCS = """<!DOCTYPE html><html><head><meta charset="utf-8">
<title>frobnicate - Frob 2.0 documentation</title>
<meta name="description" content="Reference for frobnicate.">
</head><body><div role="main"><h1>frobnicate()</h1>
<p>The frobnicate function takes a widget and returns it frobnicated,
according to the rules laid out in the widget specification, chapter
four, which every caller should read before calling it.</p>
<p>Call it as frobnicate(widget, level=3) to frobnicate at level three,
the default level chosen for most widgets in the standard library.</p>
</div></body></html>
"""

LATIN1 = ("<html><head><title>Caf\u00e9 cr\u00e8me</title></head><body>"
          "<article><p>Le caf\u00e9 cr\u00e8me est servi tr\u00e8s chaud "
          "dans une grande tasse, avec une mousse \u00e9paisse et "
          "onctueuse qui reste longtemps \u00e0 la surface du caf\u00e9."
          "</p><p>On le boit le matin, au comptoir, en lisant le journal "
          "du jour, pendant que la ville se r\u00e9veille lentement "
          "autour de soi.</p></article></body></html>\n")

META_CHARSET = LATIN1.replace(
    "<head>", '<head><meta http-equiv="Content-Type" '
    'content="text/html; charset=iso-8859-1">')

BLOCK = """<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><h1>Checking your browser before accessing example.com</h1>
<p>Please enable JavaScript and cookies to continue.</p>
<p>Attention Required! | Cloudflare. Ray ID: 7d1f2e3a4b5c6d7e</p>
<noscript>Please turn JavaScript on and reload the page.</noscript>
</body></html>
"""

ETAG_PAGE = ARTICLE.replace("The Quiet Harbour", "The Versioned Page")

RAW = {
    "octo/demo/master/src/hello.py": "def hello():\n    return 'hi'\n",
    "octo/demo/main/README.md": "# demo\n\nA demo repository.\n",
    "octo/demo/main/bin/blob.bin": "\x00\x01\x02binary",
}

ISSUE = {
    "title": "Crash when frobnicating",
    "state": "open",
    "user": {"login": "octocat"},
    "created_at": "2024-01-02T03:04:05Z",
    "labels": [{"name": "bug"}, {"name": "help wanted"}],
    "comments": 4,
    "body": "Steps to reproduce: frobnicate an empty widget.",
}

ISSUE_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<title>Web issue 8 - octo/demo</title></head><body><main>
<h1>Web issue 8</h1><p>This issue page came from the web host, because the
API did not answer for it, and urlfetch fell back to the web page as the
design says it should when the API is not there.</p></main></body></html>
"""

# Pages for the metadata and page-kind routes, /meta/NAME: (content
# type, headers, body).
HTML = "text/html; charset=utf-8"
META_PAGES = {
    "lang-header.html": (HTML, [("Content-Language", "de-DE, en")],
                         "<html><head><title>Seite</title></head><body>"
                         "<article><p>" + "Ein Satz ueber den Hafen. " * 12 +
                         "</p></article></body></html>"),
    # An app shell: its text comes from app.js, in a browser.
    "app-shell.html": (HTML, [], """<!DOCTYPE html><html lang="en"><head>
<title>Dashboard</title><script src="/meta/app.js"></script>
</head><body><noscript>You need to enable JavaScript to run this app.
</noscript><div id="root"></div></body></html>
"""),
    "app.js": ("application/javascript", [], """
document.addEventListener("DOMContentLoaded", function () {
  var p = document.createElement("p");
  p.textContent = "The dashboard shows the harbour's tides, the boats " +
    "that came in today, the ones still out at sea, and the weather " +
    "the harbour master expects for the night, so that nobody sails " +
    "out into a storm without knowing it is coming.";
  document.getElementById("root").appendChild(p);
});
"""),
    "binary.html": (HTML, [], b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" +
                    bytes(range(256)) * 4),
}

lock = threading.Lock()
counts = {}
log = []
bomb = None


def count_of(path):
    with lock:
        return counts.get(path, 0)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fixture/1"

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body=b"", ctype="text/html; charset=utf-8",
             headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def redirect(self, to):
        self.send(302, "", None, [("Location", to)])

    def do_GET(self):
        if self.path.startswith("http://"):
            # A proxy request: the absolute URL's path is what counts.
            self.path = "/" + self.path.split("/", 3)[3]
        path = self.path.split("?", 1)[0]
        if path.startswith("/_count/"):
            target = self.path[len("/_count"):]
            return self.send(200, str(count_of(target)), "text/plain")
        if path == "/_log":
            with lock:
                body = "\n".join(log) + "\n"
            return self.send(200, body, "text/plain")
        with lock:
            counts[self.path] = counts.get(self.path, 0) + 1
            n = counts[self.path]
            log.append("%s inm=%s ims=%s ua=%s" % (
                self.path, self.headers.get("If-None-Match"),
                self.headers.get("If-Modified-Since"),
                self.headers.get("User-Agent")))
        self.route(path, n)

    def route(self, path, n):
        if path in ("/article.html", "/"):
            return self.send(200, ARTICLE)
        if path.startswith("/docs/"):
            return self.send(200, DOCS)
        if path == "/slow":
            # A page that takes its time (benchmarks): ?ms=N, default 100.
            q = dict(kv.split("=", 1) for kv in
                     self.path.partition("?")[2].split("&") if "=" in kv)
            time.sleep(int(q.get("ms", "100")) / 1000.0)
            return self.send(200, ARTICLE)
        if path == "/text.txt":
            return self.send(200, "plain text line one\nline two\n",
                             "text/plain; charset=utf-8")
        if path == "/latin1-header.html":
            return self.send(200, LATIN1.encode("latin-1"),
                             "text/html; charset=iso-8859-1")
        if path == "/latin1-undeclared.html":
            return self.send(200, LATIN1.encode("latin-1"), "text/html")
        if path == "/meta-charset.html":
            return self.send(200, META_CHARSET.encode("latin-1"),
                             "text/html")
        if path == "/latin1.txt":
            return self.send(200, "caf\u00e9\n".encode("latin-1"),
                             "text/plain; charset=iso-8859-1")
        if path == "/loop/a":
            return self.redirect("/loop/b")
        if path == "/loop/b":
            return self.redirect("/loop/a")
        if path.startswith("/chain/"):
            k = int(path[len("/chain/"):])
            if k > 0:
                return self.redirect("/chain/%d" % (k - 1))
            return self.send(200, ARTICLE)
        if path == "/drip":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            try:
                for _ in range(600):
                    self.wfile.write(b"<p>x</p>")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            self.close_connection = True
            return
        if path == "/big":
            return self.send(200, "<p>" + "a" * (3 << 20) + "</p>")
        if path == "/big-chunked":
            # No Content-Length: only the byte count can stop it.
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for _ in range(64):
                    self.wfile.write(b"b" * 65536)
            except OSError:
                pass
            self.close_connection = True
            return
        if path == "/bomb":
            global bomb
            with lock:
                if bomb is None:
                    bomb = gzip.compress(b"<p>" + b"\0" * (40 << 20),
                                         compresslevel=9)
            return self.send(200, bomb, "text/html",
                             [("Content-Encoding", "gzip")])
        if path == "/gzip.html":
            return self.send(200, gzip.compress(ARTICLE.encode()),
                             "text/html; charset=utf-8",
                             [("Content-Encoding", "gzip")])
        if path == "/ratelimit":
            if n == 1:
                return self.send(429, "slow down", "text/plain",
                                 [("Retry-After", "1")])
            return self.send(200, ARTICLE)
        if path == "/ratelimit-long":
            return self.send(429, "slow down", "text/plain",
                             [("Retry-After", "3600")])
        if path == "/flaky":
            if n == 1:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            return self.send(200, ARTICLE)
        if path == "/etag.html":
            if self.headers.get("If-None-Match") == '"v1"':
                return self.send(304, b"", None, [("ETag", '"v1"')])
            return self.send(200, ETAG_PAGE, headers=[
                ("ETag", '"v1"'),
                ("Last-Modified", "Tue, 05 Mar 2024 10:00:00 GMT")])
        if path == "/blocked.html":
            return self.send(200, BLOCK)
        if path == "/forbidden":
            return self.send(403, BLOCK)
        if path.startswith("/status/"):
            return self.send(int(path[len("/status/"):]), "status page")
        if path == "/blob.zip":
            return self.send(200, b"PK\x03\x04\x14\x00\x00\x00",
                             "application/zip")
        if path == "/doc.pdf":
            return self.send(200, b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n",
                             "application/pdf")
        if path.startswith("/pdf/"):
            return self.pdf_route(path[len("/pdf/"):])
        if path.startswith("/meta/"):
            page = META_PAGES.get(path[len("/meta/"):])
            if page is None:
                return self.send(404, "<html><body>not found</body></html>")
            return self.send(200, page[2], page[0], page[1])
        if path == "/empty.html":
            return self.send(200, "<html><body><script>app()</script>"
                             "</body></html>")
        if path.startswith("/raw/"):
            key = path[len("/raw/"):]
            if key in RAW:
                return self.send(200, RAW[key], "text/plain; charset=utf-8")
            return self.send(404, "404: Not Found", "text/plain")
        if path == "/api/repos/octo/demo/issues/7":
            return self.send(200, json.dumps(ISSUE), "application/json")
        if path == "/api/repos/octo/demo/issues/9":
            pr = dict(ISSUE, title="Add frobnication", state="closed",
                      comments=0, labels=[], pull_request={"url": "x"},
                      merged_at="2024-02-02T00:00:00Z")
            return self.send(200, json.dumps(pr), "application/json")
        if path.startswith("/api/"):
            return self.send(404, '{"message":"Not Found"}',
                             "application/json")
        if path == "/gh/octo/demo/issues/8":
            return self.send(200, ISSUE_PAGE)
        return self.send(404, "<html><body>not found</body></html>")

    def pdf_route(self, name):
        """PDF documents made by mkpdf.py: /pdf/KIND.pdf as
        application/pdf; /pdf/KIND.bin as octet-stream, /pdf/KIND.none
        with no type (sniffed by their first bytes)."""
        kind, _, ext = name.rpartition(".")
        kind = kind.replace("-", ":")
        try:
            body = mkpdf.make(kind)
        except (KeyError, ValueError):
            return self.send(404, "<html><body>not found</body></html>")
        ctype = {"pdf": "application/pdf", "bin": "application/octet-stream",
                 "none": None}.get(ext, "application/pdf")
        return self.send(200, body, ctype)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 4 and sys.argv[1] == "--tls":
        # --tls CERT KEY: speak HTTPS with that (self-signed) certificate.
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(sys.argv[2], sys.argv[3])
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
