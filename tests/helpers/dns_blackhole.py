#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A DNS server that never answers, for a resolver that must time out.

    dns_blackhole.py ADDRESS

Binds UDP and TCP port 53 on ADDRESS (a loopback address such as
127.0.0.77; root only), prints "ready", and reads queries without ever
answering them until killed.  Each query is logged to stderr as "query".
"""
import socket
import sys
import threading

addr = sys.argv[1]
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind((addr, 53))
tcp = socket.socket()
tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
tcp.bind((addr, 53))
tcp.listen(16)
print("ready", flush=True)


def hold():
    held = []
    while True:
        c, _ = tcp.accept()
        held.append(c)


threading.Thread(target=hold, daemon=True).start()
while True:
    udp.recvfrom(4096)
    sys.stderr.write("query\n")
    sys.stderr.flush()
