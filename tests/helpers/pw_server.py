#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Loopback pages for the pwfetch suites (and its benchmark).  Prints the
# port on the first line of stdout, then serves until killed.
#   /static            a plain article
#   /script            text written by a script during load
#   /late              an element added 300 ms after load
#   /from?host=H       a page with an image from host H
#   /idle?ms=N         a request 100 ms after load that takes N ms (700), then
#                      a paragraph saying it came back
#   /slow?ms=N         a page whose image takes N ms (load waits for it)
#   /img?ms=N          that image
#   /never             headers and half a page, then nothing
#   /setcookie         sets pw=1 and says so; with ?more=1 also pe=2
#                      (Max-Age 3600) and ph=3 (HttpOnly, SameSite=Strict)
#   /cookie            shows the Cookie header it got
#   /ws?to=H:P&n=N     a page that opens N WebSockets (1) to H:P (127.0.0.2:9)
#   /oom               a script that eats memory until the renderer dies
#   /count             how many times it has been asked for
#   /page/N            small numbered pages (the benchmark)
#   /utf8              UTF-8 text with no charset declared anywhere
#   /latin1            windows-1252 text declared in a <meta>
#   /download          a page that downloads /file.bin as it loads
#   /sec?bad=H:P&frame=ORIGIN
#                      a page whose dedicated worker, SharedWorker,
#                      Service Worker and iframe from ORIGIN (another site)
#                      each fetch, load an image from, beacon to and open a
#                      WebSocket to H:P (not with bad=H:P,nows); /frame,
#                      /worker.js the same
#   /linger?bad=H:P    a page whose SharedWorker (/linger.js) fetches
#                      http://H:P/linger every 100 ms for as long as it lives,
#                      after the page is done too
#   /storage           sets localStorage pw=1 and says so
# With --bind ADDR it listens on ADDR (127.0.0.2 for the refused server),
# and every connection and request is logged on stderr ("conn", "req
# PATH", and "upgrade PATH" for a WebSocket handshake), so a test can
# count what reached it.
import http.server
import socketserver
import sys
import threading
import time
import urllib.parse

ARTICLE = """<!DOCTYPE html>
<html><head><title>Static page</title>
<meta name="description" content="A static test page">
<meta name="author" content="Ada Lovelace"></head>
<body><article><h1>Static page</h1>
<p>The first paragraph of a static page, long enough to count as text that a
reader would want to keep, with a few more words to make it so.</p>
<p>A second paragraph, about the analytical engine and its tables of numbers,
again with enough words in it to be taken for the main text.</p>
</article></body></html>
"""

SCRIPT = """<!DOCTYPE html>
<html><head><title>Script page</title></head>
<body><div id="app">loading</div>
<script>
window.addEventListener('DOMContentLoaded', function () {
  document.getElementById('app').innerHTML =
    '<article><p id="built">Rendered by script: this paragraph was written ' +
    'by JavaScript after the document was parsed, so only a browser sees it.' +
    '</p></article>';
});
</script></body></html>
"""

LATE = """<!DOCTYPE html>
<html><head><title>Late page</title></head>
<body><p>waiting</p>
<script>
window.addEventListener('load', function () {
  setTimeout(function () {
    var p = document.createElement('p');
    p.id = 'late';
    p.textContent = 'Arrived late, after the load event.';
    document.body.appendChild(p);
  }, 300);
});
</script></body></html>
"""

IDLE = """<!DOCTYPE html>
<html><head><title>Idle page</title></head>
<body><p>loaded</p>
<script>
window.addEventListener('load', function () {
  setTimeout(function () {
    var ms = new URLSearchParams(location.search).get('ms') || '700';
    fetch('/img?ms=' + ms).then(function () {
      var p = document.createElement('p');
      p.id = 'fetched';
      p.textContent = 'Fetched after load.';
      document.body.appendChild(p);
    });
  }, 100);
});
</script></body></html>
"""

UTF8 = ("<!DOCTYPE html><html><head><title>Loading\u2026 caf\u00e9</title>"
        "</head><body><article><p>Loading\u2026 a page in UTF-8 with no "
        "charset declared: caf\u00e9, na\u00efve, \u00fcber, \u2014 and "
        "\u201cquotes\u201d.</p></article></body></html>")

DOWNLOAD = ("<!DOCTYPE html><html><head><title>Download</title></head><body>"
            "<p>A page that saves a file.</p><script>var a = document."
            "createElement('a'); a.href = '/file.bin'; a.download = "
            "'pwfetch-download.bin'; document.body.appendChild(a); a.click();"
            "</script></body></html>")

# What every context of /sec does to the refused address: a fetch, an
# image (pages only), a beacon and a WebSocket.
REACH = ("function reach(bad, who) {"
         " var ws = bad.indexOf(',nows') < 0; bad = bad.split(',')[0];"
         " try { fetch('http://' + bad + '/' + who, {mode: 'no-cors'})"
         ".catch(function () {}); } catch (e) {}"
         " try { if (typeof Image !== 'undefined') { var i = new Image();"
         " i.src = 'http://' + bad + '/' + who + '.png'; } } catch (e) {}"
         " try { if (typeof navigator.sendBeacon === 'function')"
         " navigator.sendBeacon('http://' + bad + '/' + who + '-beacon', 'x');"
         " } catch (e) {}"
         " try { if (ws) new WebSocket('ws://' + bad + '/' + who + '-ws'); }"
         " catch (e) {} }\n")


def sec_page(bad, frame):
    return ("<!DOCTYPE html><html><head><title>Workers</title></head><body>"
            "<article><p>A page whose workers and frames reach for an "
            "internal address.</p></article>"
            "<iframe src=\"%s/frame?bad=%s\"></iframe><script>%s"
            "new Worker('/worker.js?who=dedicated&bad=%s');"
            "new SharedWorker('/worker.js?who=shared&bad=%s');"
            "navigator.serviceWorker.register('/worker.js?who=service&bad=%s');"
            "</script></body></html>" % (frame, bad, REACH, bad, bad, bad))


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


LOG_LOCK = threading.Lock()


def log(line):
    """One line on stderr, whole: print() writes the text and the newline
    apart, and the server's threads then run lines into each other."""
    with LOG_LOCK:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    count = 0

    def log_message(self, *a):
        pass

    def send(self, body, ctype="text/html; charset=utf-8", extra=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def handle(self):
        if LOG:
            log("conn")
        super().handle()

    def do_POST(self):
        if LOG:
            log("req " + self.path)
        self.send_error(404)

    def do_GET(self):
        if LOG:
            log("req " + self.path)
            if self.headers.get("Upgrade", "").lower() == "websocket":
                log("upgrade " + self.path)
        u = urllib.parse.urlparse(self.path)
        q = urllib.parse.parse_qs(u.query)
        ms = int(q.get("ms", ["1000"])[0])
        if u.path == "/static":
            self.send(ARTICLE)
        elif u.path == "/script":
            self.send(SCRIPT)
        elif u.path == "/late":
            self.send(LATE)
        elif u.path == "/from":
            h = q.get("host", ["example.com"])[0]
            self.send("<!DOCTYPE html><html><head><title>From %s</title>"
                      "</head><body><p>A page with an image from %s.</p>"
                      "<img src=\"http://%s/x.png\"></body></html>"
                      % (h, h, h))
        elif u.path == "/idle":
            self.send(IDLE)
        elif u.path == "/slow":
            self.send("<!DOCTYPE html><html><head><title>Slow page</title>"
                      "</head><body><p>A slow page: its image takes %d ms."
                      "</p><img src=\"/img?ms=%d\"></body></html>" % (ms, ms))
        elif u.path == "/img":
            time.sleep(ms / 1000.0)
            self.send(PNG, "image/png")
        elif u.path == "/never":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"<html><head><title>Never</title></head><body>")
            self.wfile.flush()
            time.sleep(3600)
        elif u.path == "/setcookie":
            extra = [("Set-Cookie", "pw=1; Path=/")]
            if "more" in q:
                extra += [("Set-Cookie", "pe=2; Path=/; Max-Age=3600"),
                          ("Set-Cookie", "ph=3; Path=/; HttpOnly; "
                           "SameSite=Strict")]
            self.send("<html><head><title>set</title></head><body><p>cookie "
                      "set</p></body></html>", extra=extra)
        elif u.path == "/cookie":
            c = self.headers.get("Cookie", "none")
            self.send("<html><head><title>cookie</title></head><body>"
                      "<p id=\"c\">cookie: %s</p></body></html>" % c)
        elif u.path == "/oom":
            self.send("<html><head><title>oom</title></head><body><script>"
                      "var a = []; for (;;) a.push(new Array(1e6).fill(1.5));"
                      "</script></body></html>")
        elif u.path == "/ws":
            to = q.get("to", ["127.0.0.2:9"])[0]
            n = int(q.get("n", ["1"])[0])
            self.send("<html><head><title>ws</title></head><body><p id=\"w\">"
                      "a page with a WebSocket</p><script>for (var i = 0; "
                      "i < %d; i++) new WebSocket('ws://%s/' + (i || ''));"
                      "</script>"
                      "</body></html>" % (n, to))
        elif u.path == "/count":
            H.count += 1
            self.send("<html><head><title>count</title></head><body>"
                      "<p id=\"n\">count %d</p></body></html>" % H.count)
        elif u.path == "/utf8":
            self.send(UTF8.encode("utf-8"), "text/html")
        elif u.path == "/latin1":
            self.send("<html><head><meta charset=\"windows-1252\"><title>"
                      "Caf\u00e9</title></head><body><p>caf\u00e9 au lait"
                      "</p></body></html>".encode("cp1252"), "text/html")
        elif u.path == "/download":
            self.send(DOWNLOAD)
        elif u.path == "/file.bin":
            self.send(b"downloaded\n", "application/octet-stream",
                      extra=[("Content-Disposition",
                              "attachment; filename=pwfetch-download.bin")])
        elif u.path == "/sec":
            self.send(sec_page(q.get("bad", ["127.0.0.2:9"])[0],
                               q.get("frame", [""])[0]))
        elif u.path == "/frame":
            bad = q.get("bad", ["127.0.0.2:9"])[0]
            self.send("<html><body><p>frame</p><script>%sreach('%s', "
                      "'frame');</script></body></html>" % (REACH, bad))
        elif u.path == "/worker.js":
            bad = q.get("bad", ["127.0.0.2:9"])[0]
            who = q.get("who", ["worker"])[0]
            self.send("%sreach('%s', '%s');" % (REACH, bad, who),
                      "text/javascript")
        elif u.path == "/linger":
            bad = q.get("bad", ["127.0.0.2:9"])[0]
            self.send("<!DOCTYPE html><html><head><title>Linger</title>"
                      "</head><body><p>A page whose SharedWorker goes on."
                      "</p><script>new SharedWorker('/linger.js?bad=%s');"
                      "</script></body></html>" % bad)
        elif u.path == "/linger.js":
            bad = q.get("bad", ["127.0.0.2:9"])[0]
            self.send("setInterval(function () { fetch('http://%s/linger',"
                      " {mode: 'no-cors'}).catch(function () {}); }, 100);"
                      % bad, "text/javascript")
        elif u.path == "/storage":
            self.send("<html><head><title>storage</title></head><body>"
                      "<p>stored</p><script>localStorage.setItem('pw', '1');"
                      "</script></body></html>")
        elif u.path.startswith("/page/"):
            n = u.path[6:]
            self.send("<!DOCTYPE html><html><head><title>Page %s</title>"
                      "</head><body><article><h1>Page %s</h1><p>Paragraph "
                      "of page %s, with some words to make it an article of"
                      " its own.</p></article><script>document.body."
                      "insertAdjacentHTML('beforeend','<p>script %s</p>')"
                      "</script></body></html>" % (n, n, n, n))
        else:
            self.send_error(404)


class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


BIND = "127.0.0.1"
LOG = False
if len(sys.argv) == 3 and sys.argv[1] == "--bind":
    BIND, LOG = sys.argv[2], True
srv = S((BIND, 0), H)
print(srv.server_address[1], flush=True)
srv.serve_forever()
