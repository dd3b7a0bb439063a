#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A UDP canary on the refused addresses (pwfetch-webrtc.bats).

    udp_canary.py [PORT]

Listens for UDP on 127.0.0.2 and on [::1], on one port (PORT, or one free
on both, tried from 3478 up), printed as the first line of stdout.  Each
datagram that arrives is a line "pkt ADDR:PORT LEN" on stderr, flushed at
once, so that a test counts them.  Nothing is ever answered: a STUN
binding request gets no response, as from a host that is not there.
"""
import selectors
import socket
import sys


def bind_both(port):
    a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    b = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    try:
        a.bind(("127.0.0.2", port))
        b.bind(("::1", port))
    except OSError:
        a.close()
        b.close()
        return None
    return a, b


def main():
    socks = None
    if len(sys.argv) > 1:
        socks = bind_both(int(sys.argv[1]))
    else:
        for port in range(3478, 3578):
            socks = bind_both(port)
            if socks:
                break
    if not socks:
        sys.exit("udp_canary: no port free on both addresses")
    sel = selectors.DefaultSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    print(socks[0].getsockname()[1], flush=True)
    while True:
        for key, _ in sel.select():
            data, addr = key.fileobj.recvfrom(65536)
            print("pkt %s:%d %d" % (addr[0], addr[1], len(data)),
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
