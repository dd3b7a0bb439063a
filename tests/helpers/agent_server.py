#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server for what an agent reads (links-out.bats,
negotiate.bats).

    agent_server.py [--llms]

Serves on 127.0.0.1, on a free port printed as the first line of stdout:

  /links/page.html   an article whose text links to /links/a.html and
                     /links/b.html, between a menu and a footer that link
                     elsewhere (the same URL twice, a mailto:, a #place), all
                     pages: /, /about, /legal
  /links/a.html, /links/b.html    two articles, "Page A" and "Page B"
  /links/base.html   an article with <base href="/links/sub/">
  /links/many.html   an article that links to 600 pages
  /md/doc            Markdown (with front matter) when the Accept header
                     asks for text/markdown, else HTML
  /alt/doc           HTML with <link rel="alternate" type="text/markdown">
                     to /alt/doc.md, which is Markdown
  /alt/gone          the same, to a Markdown version that is a 404
  /lt/guide          HTML; with --llms, /llms.txt lists /lt/guide.md
  /fake/doc          HTML served as text/markdown when asked for it
  /html/doc          HTML, nothing else

Every request is logged: GET /_log answers them, one "PATH ACCEPT" a
line (the log's own requests are not logged).  A query is logged and
otherwise ignored.
"""
import http.server
import socketserver
import sys
import threading

LOG = []
LOCK = threading.Lock()
LLMS = "--llms" in sys.argv[1:]


def article(title, body, head="", nav=True):
    menu = ('<nav><a href="/">Home</a> <a href="/about">About</a> '
            '<a href="/links/a.html">A again</a></nav>') if nav else ""
    return ("<!DOCTYPE html><html><head><meta charset=utf-8><title>%s"
            "</title>%s</head><body>%s<article><h1>%s</h1>%s</article>"
            "<footer><a href=\"/legal\">Legal notice</a> "
            "<a href=\"mailto:me@example.com\">Mail</a></footer>"
            "</body></html>" % (title, head, menu, title, body))


PROSE = ("<p>This paragraph is long enough for the extractor to take the "
         "article for the main text of the page, with words about "
         "harbours, boats and the weather of a quiet morning.</p>")

PAGES = {
    "/links/page.html": article(
        "Links page",
        PROSE + '<p>Read <a href="a.html">the first page</a> and then '
        '<a href="/links/b.html#part">the second page</a>, or go '
        '<a href="#top">to the top</a>.</p>' + PROSE),
    "/links/a.html": article("Page A", PROSE + "<p>Alpha text.</p>"),
    "/links/b.html": article("Page B", PROSE + "<p>Beta text.</p>"),
    "/links/base.html": article(
        "Base page", PROSE + '<p>See <a href="x.html">x</a>.</p>',
        head='<base href="/links/sub/">'),
    "/links/many.html": article(
        "Many links", PROSE + "<ul>" + "".join(
            '<li><a href="/n/%d">item number %d</a></li>' % (i, i)
            for i in range(600)) + "</ul>" + PROSE, nav=False),
    "/html/doc": article("HTML doc", PROSE),
    "/": article("Home page", PROSE),
    "/about": article("About page", PROSE),
    "/legal": article("Legal page", PROSE),
    "/lt/guide": article("Guide in HTML", PROSE),
    "/alt/doc": article(
        "Alt in HTML", PROSE,
        head='<link rel="alternate" type="text/markdown" href="doc.md">'),
    "/alt/gone": article(
        "Gone alt in HTML", PROSE,
        head='<link rel="alternate" type="text/markdown" href="gone.md">'),
    "/md/doc": article("Doc in HTML", PROSE),
    "/fake/doc": article("Fake in HTML", PROSE),
}

MARKDOWN = {
    "/md/doc": "---\ntitle: \"Doc in Markdown\"\nauthor: someone\n---\n"
               "# Doc\n\nServed as Markdown, with [a link](/links/a.html)."
               "\n",
    "/alt/doc.md": "# Alt in Markdown\n\nThe alternate's text.\n",
    "/lt/guide.md": "# Guide in Markdown\n\nThe guide's text from "
                    "llms.txt.\n",
}

LLMS_TXT = ("# Site\n\n> A site.\n\n## Docs\n\n"
            "- [Guide](/lt/guide.md): the guide\n"
            "- [Other](/lt/other.md): another\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send(self, code, ctype, body):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path
        if path == "/_log":
            with LOCK:
                text = "".join(l + "\n" for l in LOG)
            self.send(200, "text/plain", text)
            return
        accept = self.headers.get("Accept", "")
        with LOCK:
            LOG.append("%s %s" % (path, accept))
        path = path.split("?")[0]
        wants_md = "text/markdown" in accept
        if path == "/llms.txt" and LLMS:
            self.send(200, "text/plain; charset=utf-8", LLMS_TXT)
        elif path == "/md/doc" and wants_md:
            self.send(200, "text/markdown; charset=utf-8", MARKDOWN[path])
        elif path == "/fake/doc" and wants_md:
            self.send(200, "text/markdown; charset=utf-8", PAGES[path])
        elif path in MARKDOWN and path != "/md/doc":
            self.send(200, "text/markdown; charset=utf-8", MARKDOWN[path])
        elif path.split("#")[0] in PAGES:
            self.send(200, "text/html; charset=utf-8", PAGES[path])
        elif path.startswith("/n/"):
            self.send(200, "text/html; charset=utf-8",
                      article("Item " + path[3:], PROSE))
        else:
            self.send(404, "text/plain", "not found\n")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
