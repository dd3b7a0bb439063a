#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A DNS server that never answers, or answers late, for resolvers that
must wait.

    dns_blackhole.py ADDRESS [NAME=IPV4@SECONDS ...]

Binds UDP and TCP port 53 on ADDRESS (a loopback address such as
127.0.0.77; root only) and prints "ready".  A query for a NAME listed is
answered after SECONDS: its A record is IPV4, any other type has none.
Every other query is read and never answered.  Each query is logged to
stderr as "query NAME TYPE".  NAME=IPV4@SECONDS/N=IPV4B answers IPV4 to
the first N queries for NAME's A record and IPV4B to the ones after (a
name that rebinds).
"""
import socket
import struct
import sys
import threading
import time

addr = sys.argv[1]
answers = {}
rebind = {}
for a in sys.argv[2:]:
    name, rest = a.split("=", 1)
    name = name.lower().rstrip(".")
    if "/" in rest:
        rest, after = rest.split("/", 1)
        n, ip2 = after.split("=", 1)
        rebind[name] = [int(n), socket.inet_aton(ip2)]
    ip, secs = rest.split("@", 1)
    answers[name] = (socket.inet_aton(ip), float(secs))

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


def question(q):
    """The name, type and end offset of the first question of query q."""
    i, labels = 12, []
    while q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode("ascii", "replace"))
        i += 1 + q[i]
    qtype = struct.unpack("!H", q[i + 1:i + 3])[0]
    return ".".join(labels).lower(), qtype, i + 5


def answer(q, peer, ip, secs):
    time.sleep(secs)
    name, qtype, end = question(q)
    an = b""
    if qtype == 1:
        an = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + ip
    head = q[:2] + struct.pack("!HHHHH", 0x8180, 1, 1 if an else 0, 0, 0)
    udp.sendto(head + q[12:end] + an, peer)


threading.Thread(target=hold, daemon=True).start()
while True:
    q, peer = udp.recvfrom(4096)
    try:
        name, qtype, _ = question(q)
    except (IndexError, struct.error):
        continue
    sys.stderr.write("query %s %d\n" % (name, qtype))
    sys.stderr.flush()
    if name in answers:
        ip, secs = answers[name]
        if qtype == 1 and name in rebind:
            if rebind[name][0] > 0:
                rebind[name][0] -= 1
            else:
                ip = rebind[name][1]
        threading.Thread(target=answer, args=(q, peer, ip, secs),
                         daemon=True).start()
