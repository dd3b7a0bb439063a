#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A TCP proxy on 127.0.0.1 (port printed first) to 127.0.0.1:PORT that
# cuts every open connection when it gets SIGUSR1: an event stream broken
# mid-stream, as a flaky network or a restarted proxy would break it.
import selectors
import signal
import socket
import sys

target = int(sys.argv[1])
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", 0))
ls.listen(64)
print(ls.getsockname()[1], flush=True)
sel = selectors.DefaultSelector()
sel.register(ls, selectors.EVENT_READ)
peers = {}
cut = False


def on_usr1(*_):
    global cut
    cut = True


signal.signal(signal.SIGUSR1, on_usr1)


def close(s):
    p = peers.pop(s, None)
    for x in (s, p):
        if x is None:
            continue
        peers.pop(x, None)
        try:
            sel.unregister(x)
        except Exception:
            pass
        x.close()


while True:
    try:
        events = sel.select(0.05)
    except InterruptedError:
        events = []
    if cut:
        cut = False
        for s in list(peers):
            close(s)
        sys.stderr.write("proxy: cut\n")
        sys.stderr.flush()
    for key, _ in events:
        s = key.fileobj
        if s is ls:
            c, _ = ls.accept()
            u = socket.create_connection(("127.0.0.1", target))
            peers[c] = u
            peers[u] = c
            sel.register(c, selectors.EVENT_READ)
            sel.register(u, selectors.EVENT_READ)
            continue
        if s not in peers:
            continue
        try:
            data = s.recv(65536)
        except OSError:
            data = b""
        if not data:
            close(s)
        else:
            try:
                peers[s].sendall(data)
            except OSError:
                close(s)
