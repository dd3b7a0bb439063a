#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# pty_run.py OUT CMD...: run CMD with its standard error on a pseudo-
# terminal of 24x100 (standard input and output as given), append what it
# writes there to OUT as it comes, and exit with CMD's status.  SIGTERM
# and SIGINT go on to CMD: a test that kills this wrapper ends CMD too
# (a `toolack exec` left behind reconnected to a dead server for ever).
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios

out = sys.argv[1]
m, s = pty.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
p = subprocess.Popen(sys.argv[2:], stderr=s)
os.close(s)
for sig in (signal.SIGTERM, signal.SIGINT):
    signal.signal(sig, lambda n, _: p.send_signal(n))
with open(out, "ab", buffering=0) as f:
    while True:
        r, _, _ = select.select([m], [], [], 0.2)
        if not r:
            if p.poll() is not None:
                break
            continue
        try:
            b = os.read(m, 65536)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not b:
            break
        f.write(b)
sys.exit(p.wait())
