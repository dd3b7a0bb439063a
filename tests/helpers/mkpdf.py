#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write small PDF documents for the PDF suites, by hand (no library).

    mkpdf.py KIND OUT

KIND is one of:
  doc       three pages, Title/Author/CreationDate/Keywords in the info
            dictionary, a large heading, paragraphs of several lines,
            non-ASCII text (WinAnsiEncoding: e acute, i diaeresis, euro)
  notitle   one page, no info dictionary: a 20-point heading line first
  pages:N   N pages, "Page K of N" on each (page limits)
  image     one page that only draws an image (a scan: no text layer)
  flow      two pages, a paragraph running from one onto the next,
            page numbers at the foot of each page
  blank     one page with nothing on it
  damaged   the doc document cut in half, its cross-reference table gone

Text is drawn with the standard Helvetica font, one Tj per line, in the
order a reader reads it.
"""
import sys
import zlib

HEAD = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"


def esc(s):
    b = s.encode("cp1252")
    return (b.replace(b"\\", b"\\\\").replace(b"(", b"\\(")
            .replace(b")", b"\\)"))


def text_stream(lines):
    """lines: (size, y, text) from the top of an A4 page, x = 72."""
    out = [b"BT"]
    for size, y, t in lines:
        out.append(b"/F1 %d Tf 1 0 0 1 72 %d Tm (%s) Tj" %
                   (size, 842 - y, esc(t)))
    out.append(b"ET")
    return b"\n".join(out)


def paragraphs(paras, top=120, size=11, lead=14, gap=10):
    """Lay paragraphs (lists of lines) out from top; (lines, next y)."""
    y, lines = top, []
    for p in paras:
        for line in p:
            lines.append((size, y, line))
            y += lead
        y += gap
    return lines, y


def build(pages, info=None, resources_image=False):
    """pages: content streams (bytes); returns the whole file."""
    objs = []  # object bodies, numbered from 1

    def add(body):
        objs.append(body)
        return len(objs)

    catalog = add(None)
    pages_obj = add(None)
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
               b"/Encoding /WinAnsiEncoding >>")
    image = None
    if resources_image:
        raw = bytes((x * 8) % 256 for y in range(32) for x in range(32))
        data = zlib.compress(raw)
        image = add(b"<< /Type /XObject /Subtype /Image /Width 32 "
                    b"/Height 32 /ColorSpace /DeviceGray "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d "
                    b">>\nstream\n" % len(data) + data + b"\nendstream")
    kids = []
    for content in pages:
        c = add(b"<< /Length %d >>\nstream\n" % len(content) + content +
                b"\nendstream")
        res = b"/Font << /F1 %d 0 R >>" % font
        if image:
            res += b" /XObject << /Im1 %d 0 R >>" % image
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox "
                        b"[0 0 595 842] /Resources << %s >> /Contents "
                        b"%d 0 R >>" % (pages_obj, res, c)))
    objs[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objs[pages_obj - 1] = (b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids)))
    info_obj = None
    if info:
        body = b"<< " + b" ".join(
            b"/%s (%s)" % (k.encode(), esc(v)) for k, v in info) + b" >>"
        info_obj = add(body)
    out = bytearray(HEAD)
    offs = []
    for i, body in enumerate(objs, 1):
        offs.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offs:
        out += b"%010d 00000 n \n" % o
    trailer = b"/Size %d /Root %d 0 R" % (len(objs) + 1, catalog)
    if info_obj:
        trailer += b" /Info %d 0 R" % info_obj
    out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def doc():
    p1, y = paragraphs([
        ["The harbour was quiet that morning, and the fishing boats",
         "rocked gently against the old stone pier while gulls circled",
         "overhead looking for scraps."],
        ["By noon the wind had turned, and the harbour master walked",
         "the length of the pier twice, checking every rope and every",
         "knot, because he had seen calm mornings turn wild."],
    ])
    page1 = text_stream([(22, 80, "Harbour Report")] + p1)
    p2, _ = paragraphs([
        ["Caf\u00e9 owners brought their chairs inside, a na\u00efve",
         "hope that the storm would pass; coffee still cost \u20ac2."],
        ["The second paragraph of page two stands on its own."],
    ], top=80)
    page2 = text_stream(p2)
    p3, _ = paragraphs([["The last page says goodbye."]], top=80)
    page3 = text_stream(p3)
    info = [("Title", "The Harbour Report"), ("Author", "Ada Lovelace"),
            ("Subject", "A storm over the harbour"),
            ("Keywords", "harbour, storm, boats"),
            ("CreationDate", "D:20240305100000Z")]
    return build([page1, page2, page3], info)


def make(kind):
    """The bytes of a document of this KIND (KeyError: no such kind)."""
    if kind == "doc":
        data = doc()
    elif kind == "notitle":
        p, _ = paragraphs([
            ["This document has no information dictionary, so its",
             "title comes from the heading line above this text."]])
        data = build([text_stream([(20, 80, "A Heading Line")] + p)])
    elif kind.startswith("pages:"):
        n = int(kind[6:])
        data = build([text_stream([(11, 80, "Page %d of %d" % (k, n))])
                      for k in range(1, n + 1)],
                     [("Title", "Many pages")])
    elif kind == "image":
        data = build([b"q 400 0 0 400 100 300 cm /Im1 Do Q"],
                     [("Title", "A scan")], resources_image=True)
    elif kind == "flow":
        # A sentence that runs from page 1 onto page 2; page numbers.
        p1, y = paragraphs([
            ["The first paragraph ends here."],
            ["The second paragraph starts on the first page and"]])
        p2, _ = paragraphs([["runs on to the second page."],
                            ["A third paragraph."]], top=80)
        data = build([text_stream(p1 + [(9, 800, "1")]),
                      text_stream(p2 + [(9, 800, "2")])])
    elif kind == "blank":
        data = build([b""])
    elif kind == "damaged":
        whole = doc()
        data = whole[:len(whole) // 2]
    else:
        raise KeyError(kind)
    return data


def main():
    kind, out = sys.argv[1], sys.argv[2]
    try:
        data = make(kind)
    except (KeyError, ValueError):
        sys.exit("mkpdf: unknown kind '%s'" % kind)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
