#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a zip archive as a stream, so every entry has a data descriptor
(general purpose flag bit 3: sizes 0 in the local header, given only after
the data), the shape that keeps its sizes from a streaming reader.

    make_zip.py OUT PREFIX NAME=SPEC...

SPEC is zeros:MIB (that many MiB of NUL bytes), py:KIB (Python
definitions, about that many KiB) or text:STRING.
"""
import io
import sys
import zipfile


class Stream(io.RawIOBase):
    """A file that cannot seek or tell: zipfile then streams."""

    def __init__(self, f):
        self.f = f

    def writable(self):
        return True

    def write(self, b):
        return self.f.write(b)


def chunks(spec):
    kind, _, arg = spec.partition(":")
    if kind == "zeros":
        for _ in range(int(arg)):
            yield b"\0" * (1 << 20)
    elif kind == "py":
        n, i, line = int(arg) * 1024, 0, b""
        while n > 0:
            line = b"def generated_%d():\n    return %d\n" % (i, i)
            yield line
            n -= len(line)
            i += 1
    else:
        yield arg.encode()


with open(sys.argv[1], "wb") as f:
    with zipfile.ZipFile(Stream(f), "w", zipfile.ZIP_DEFLATED) as z:
        for a in sys.argv[3:]:
            name, _, spec = a.partition("=")
            with z.open(sys.argv[2] + name, "w", force_zip64=True) as w:
                for c in chunks(spec):
                    w.write(c)
