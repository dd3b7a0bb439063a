#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run the examples of the documentation and compare their output, as
rustdoc runs a crate's doc examples.

    examples.py list DOC...             print each example: where, commands
    examples.py run OUTDIR DOC...       run them; OUTDIR/NAME.rc and .log
    examples.py bless OUTDIR DOC...     run them and write what they print
                                        into DOC, to read over and commit

What is an example:
  README.md (Markdown): a ```console block.  Other blocks (```sh, indented
    code) are shown, never run: install steps, crontab lines.
  man pages (mdoc): a .Bd -literal block of the EXAMPLES section whose
    first line starts with "$ ".  Every other .Bd block there must follow
    a comment line '.\\" not run: REASON' (which keeps any block from
    running), or the run fails: no example is left out by accident.  Escapes allowed inside: \\e \\(em \\(aq \\& \\-.

In a block, a line starting with "$ " is a command; it goes on over the
lines that follow while a line ends with '\\', '|', '&&' or '||'.  The
other lines, up to the next command, are its expected output (standard
output and standard error as a terminal shows them).  Each block runs in
a bash of its own, in a scratch directory where examples/ and tests/ are
the checkout's; the blocks of one document share a fresh cache directory,
in order.  Every command of a block must give its output and the block
must exit 0 (an example that shows a failure ends with 'echo "exit $?"').
Before comparing, ports (:NNNN after a host) and RFC 3339 times are
normalised on both sides; nothing else.

Run under scripts/demo --serve, which starts the servers the examples
name through DEMO, DEMO_LLM, TOOLACK_URL and the URLKIT_GITHUB_ variables.
"""
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MARK = "\x1eexample-command "
BLOCK_TIMEOUT = 60


class Example:
    def __init__(self, doc, line):
        self.doc = doc
        self.line = line
        self.commands = []  # [(command text, [expected lines])]

    def where(self):
        return "%s:%d" % (os.path.relpath(self.doc, TOP), self.line)


def parse_block(doc, line, lines, out):
    """lines: the block's text lines; appends an Example to out."""
    ex = Example(doc, line)
    cmd = None
    for text in lines:
        if cmd is not None and cmd[-1].rstrip().endswith(("\\", "|", "&&", "||")):
            cmd.append(text)
            continue
        if text.startswith("$ "):
            cmd = [text[2:]]
            ex.commands.append((cmd, []))
        elif ex.commands:
            ex.commands[-1][1].append(text)
        else:
            raise SystemExit("%s:%d: an example must start with '$ '" % (doc, line))
    ex.commands = [("\n".join(c), o) for c, o in ex.commands]
    out.append(ex)


def markdown_examples(doc):
    out = []
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```console":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            parse_block(doc, start + 1, lines[start:j], out)
            i = j
        i += 1
    return out


ROFF = [("\\e", "\\"), ("\\(em", "\u2014"), ("\\(aq", "'"), ("\\&", ""),
        ("\\-", "-")]


def unroff(doc, n, text):
    res = []
    i = 0
    while i < len(text):
        if text[i] == "\\":
            for esc, rep in ROFF:
                if text.startswith(esc, i):
                    res.append(rep)
                    i += len(esc)
                    break
            else:
                raise SystemExit("%s:%d: escape %r in an example: allowed "
                                 "are %s" % (doc, n, text[i:i + 3],
                                             " ".join(e for e, _ in ROFF)))
        else:
            res.append(text[i])
            i += 1
    return "".join(res)


def man_examples(doc):
    out = []
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    in_ex = False
    not_run = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".Sh "):
            in_ex = line == ".Sh EXAMPLES"
        elif in_ex and line.startswith('.\\" not run:'):
            not_run = True
        elif in_ex and line.startswith(".Bd "):
            start = i + 1
            j = start
            while j < len(lines) and lines[j] != ".Ed":
                j += 1
            body = [unroff(doc, start + k + 1, t)
                    for k, t in enumerate(lines[start:j])]
            if not_run:
                pass
            elif body and body[0].startswith("$ "):
                parse_block(doc, start + 1, body, out)
            else:
                raise SystemExit("%s:%d: an example that is not run needs "
                                 "'.\\\" not run: REASON' before it"
                                 % (doc, start))
            not_run = False
            i = j
        elif in_ex and line.startswith((".Dl ", ".D1 ")):
            raise SystemExit("%s:%d: write examples as .Bd -literal blocks "
                             "of '$ ' commands" % (doc, i + 1))
        i += 1
    return out


def examples(doc):
    if doc.endswith(".md"):
        return markdown_examples(doc)
    return man_examples(doc)


PORT = re.compile(r"((?:127\.0\.0\.1|localhost|\[::1\]|[a-z0-9.-]+\.example)):\d+")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")


def normal(text):
    # Dates of the pages' own metadata are written as they are: only
    # times with seconds and a fraction or Z are the run's.
    text = PORT.sub(r"\1:PORT", text)
    return TIME.sub(lambda m: "TIME" if "." in m.group(0) else m.group(0), text)


def run_example(ex, work, env):
    script = []
    for k, (cmd, _) in enumerate(ex.commands):
        script.append("printf '%%s%d\\n' %s" % (k, shq(MARK)))
        script.append(cmd)
    # A session of its own, so that a timeout ends every process the
    # block started, not only its shell.
    p = subprocess.Popen(["bash", "-c", "\n".join(script) + "\n"],
                         cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=BLOCK_TIMEOUT)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = "timeout after %d s" % BLOCK_TIMEOUT
    got = out.decode("utf-8", "replace")
    parts = got.split(MARK)
    outs = {}
    for part in parts[1:]:
        k, _, rest = part.partition("\n")
        outs[int(k)] = rest
    report = []
    for k, (cmd, want) in enumerate(ex.commands):
        want_t = normal("\n".join(want).rstrip("\n"))
        got_t = normal(outs.get(k, "<not run>").rstrip("\n"))
        if want_t != got_t:
            report.append("%s: $ %s\n--- expected\n%s\n--- got\n%s\n"
                          % (ex.where(), cmd, want_t, got_t))
    if rc != 0:
        report.append("%s: the block exited %s\n" % (ex.where(), rc))
    ex.got = [outs.get(k, "").rstrip("\n") for k in range(len(ex.commands))]
    return report


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def roff(line):
    line = line.replace("\\", "\\e")
    return "\\&" + line if line.startswith((".", "'")) else line


def bless(doc, exs):
    """Write each example's output as the run gave it, for a person to
    read over before committing (examples.py bless OUTDIR DOC...)."""
    man = not doc.endswith(".md")
    end = ".Ed" if man else "```"
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for ex in reversed(exs):
        if not hasattr(ex, "got"):
            continue  # skipped
        start = ex.line - 1
        j = start
        while lines[j].strip() != end:
            j += 1
        body = []
        for (cmd, _), got in zip(ex.commands, ex.got):
            body += ["$ " + cmd.split("\n")[0]] + cmd.split("\n")[1:]
            if got:
                body += got.split("\n")
        if man:
            body = [roff(b) for b in body]
        lines[start:j] = body
    with open(doc, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def run_doc(doc, outdir):
    """Run DOC's examples; write OUTDIR/NAME.log and .rc; return 1 if
    any failed."""
    name = os.path.basename(doc)
    work = tempfile.mkdtemp(prefix="examples.")
    try:
        for d in ("examples", "tests"):
            os.symlink(os.path.join(TOP, d), os.path.join(work, d))
        env = dict(os.environ, URLKIT_CACHE_DIR=os.path.join(work, ".cache"),
                   HOME=work, NO_COLOR="1")
        report = []
        exs = examples(doc)
        ncmd = 0
        chromium = os.environ.get("URLKIT_CHROMIUM", "/usr/lib/chromium/chromium")
        skipped = 0
        for ex in exs:
            # pwfetch needs Chromium, which a machine may lack (pwfetch's
            # own suites skip then too).
            if not os.access(chromium, os.X_OK) and any(
                    re.search(r"\bpwfetch\b", c) for c, _ in ex.commands):
                skipped += 1
                continue
            t0 = time.monotonic()
            report += run_example(ex, work, env)
            print("# %s: %.1f s" % (ex.where(), time.monotonic() - t0),
                  file=sys.stderr)
            ncmd += len(ex.commands)
        with open(os.path.join(outdir, name + ".log"), "w") as f:
            f.write("%s: %d examples, %d commands, %d skipped (no Chromium)\n"
                    % (name, len(exs), ncmd, skipped))
            f.write("".join(report))
        with open(os.path.join(outdir, name + ".rc"), "w") as f:
            f.write("%d\n" % (1 if report else 0))
        if sys.argv[1] == "bless":
            bless(doc, exs)
        return 1 if report else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for doc in sys.argv[2:]:
            for ex in examples(doc):
                for cmd, _ in ex.commands:
                    print("%s: $ %s" % (ex.where(), cmd))
        return 0
    if len(sys.argv) < 4 or sys.argv[1] not in ("run", "bless"):
        print("usage: examples.py list DOC... | run|bless OUTDIR DOC...",
              file=sys.stderr)
        return 2
    outdir = sys.argv[2]
    # Documents run side by side (their blocks in order, each document
    # with its own scratch directory and cache): most of the time is
    # spent waiting on Chromium and the servers.  Those that start
    # Chromium most often go first, so that none is left alone at the end.
    docs = sorted(sys.argv[3:], key=lambda d: -sum(
        bool(re.search(r"\bpwfetch\b", c))
        for ex in examples(d) for c, _ in ex.commands))
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        bad = sum(pool.map(lambda d: run_doc(d, outdir), docs))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
