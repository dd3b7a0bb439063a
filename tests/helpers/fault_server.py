#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A loopback server that fails in one chosen way, for the fault suites.

    fault_server.py MODE [--tls CERT KEY]

Binds 127.0.0.1 on a free port and prints the port as its first line.
Every request, whatever its method and path, gets MODE:

    reset   the status line, headers with a Content-Length of 200000 and
            4 KiB of an HTML page, then a TCP reset (SO_LINGER 0)
    hang    accepted, and never read or answered
    page    a whole HTML page of ?kb=N kilobytes (default 64) of text, or
            with ?to=URL (percent-encoded) a redirect there

With --tls it speaks HTTPS with that (self-signed) certificate.  Each
accepted connection is logged to stderr as "conn N", so a test can tell
that a client got this far, and each request read as "req TARGET" (the
request line's target: the whole URL when it is asked as a proxy).
"""
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse

mode = sys.argv[1]
ctx = None
if len(sys.argv) == 5 and sys.argv[2] == "--tls":
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[3], sys.argv[4])

PARA = ("<p>The harbour was quiet that morning, and the fishing boats "
        "rocked gently against the old stone pier while gulls circled "
        "overhead looking for scraps of the catch.</p>\n")


def page(kb):
    head = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
            "<title>Fault page</title></head><body><article>\n")
    body = PARA * max(1, (kb * 1024) // len(PARA))
    return (head + body + "</article></body></html>\n").encode()


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for h in lines[1:]:
        k, _, v = h.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return lines[0].split(" ")[1] if " " in lines[0] else "/"


def serve(conn, n):
    sys.stderr.write("conn %d\n" % n)
    sys.stderr.flush()
    try:
        if ctx:
            conn = ctx.wrap_socket(conn, server_side=True)
        if mode == "hang":
            time.sleep(3600)
            return
        path = read_request(conn)
        if path is None:
            return
        sys.stderr.write("req %s\n" % path)
        sys.stderr.flush()
        if mode == "reset":
            body = page(8)[:4096]
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; "
                         b"charset=utf-8\r\nContent-Length: 200000\r\n\r\n"
                         + body)
            time.sleep(0.1)
            raw = conn.unwrap() if ctx else conn
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                           struct.pack("ii", 1, 0))
            raw.close()
            return
        q = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
        if "to" in q:
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: %s\r\n"
                         b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                         % q["to"][0].encode())
            return
        kb = 64
        if "kb=" in path:
            kb = int(path.split("kb=", 1)[1].split("&")[0])
        body = page(kb)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; "
                     b"charset=utf-8\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
    except (OSError, ssl.SSLError, ValueError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(128)
    print(srv.getsockname()[1], flush=True)
    n = 0
    while True:
        conn, _ = srv.accept()
        n += 1
        threading.Thread(target=serve, args=(conn, n), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
