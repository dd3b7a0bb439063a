#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A DevTools address that answers but will not talk, as Chrome 136+ does on
# the default profile: it accepts connections, reads them, never replies.
# Prints the port on the first line of stdout.
import socket
import threading

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []


def drain(c):
    try:
        while c.recv(4096):
            pass
    except OSError:
        pass


while True:
    c, _ = s.accept()
    held.append(c)
    threading.Thread(target=drain, args=(c,), daemon=True).start()
