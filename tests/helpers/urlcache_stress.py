#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Stress helpers for tests/urlcache-stress.bats (stdlib only).

Records written by the stress writers carry their own proof of integrity:
content == url * k + "#" + str(w), so a reader can tell a whole entry from
half of one or from another URL's.

  gen WRITERS N DIR     records of writer W (1..WRITERS) on N URLs, in
                        chunks of 50: DIR/wW.C.jsonl
  urls N                the N URLs, one a line
  raw DIR SECONDS       read every entry file in a loop; print checked/bad
  get URLS SECONDS      run `urlcache get` on URLS in a loop; check output
  check DIR             check every entry file once; print entries/bad/temp
  crash DIR KILLS       SIGKILL `urlcache set` writers at random moments,
                        check every visible entry after each kill
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import time


def url_of(i):
    return "https://stress.test/page/%d?q=%d" % (i, i * 7)


def good(rec):
    try:
        return (isinstance(rec, dict)
                and rec["content"] == rec["url"] * rec["k"] + "#" + str(rec["w"]))
    except (KeyError, TypeError):
        return False


def key_of(url):
    return hashlib.sha256(url.encode()).hexdigest()[:16]


def scan(d):
    """Yield (kind, path, name) for entries and temporary files."""
    try:
        subs = os.listdir(d)
    except FileNotFoundError:
        return
    for s in subs:
        if len(s) != 2:
            continue
        p = os.path.join(d, s)
        try:
            names = os.listdir(p)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for n in names:
            if n.endswith(".json") and len(n) == 21:
                yield "entry", os.path.join(p, n), n
            elif n.startswith(".") and ".json.tmp." in n:
                yield "temp", os.path.join(p, n), n


def check_file(path, name):
    """1 good, 0 bad, None gone meanwhile."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    try:
        rec = json.loads(data)
    except ValueError:
        return 0
    if not good(rec) or key_of(rec["url"]) + ".json" != name:
        return 0
    return 1


def check_all(d):
    entries = bad = temp = 0
    for kind, path, name in scan(d):
        if kind == "temp":
            temp += 1
            continue
        r = check_file(path, name)
        if r is None:
            continue
        entries += 1
        if r == 0:
            bad += 1
            sys.stderr.write("bad entry: %s\n" % path)
    return entries, bad, temp


def main():
    cmd = sys.argv[1]
    if cmd == "gen":
        ws, n, d = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        for w in range(1, ws + 1):
            for c in range(0, n, 50):
                with open(os.path.join(d, "w%d.%d.jsonl" % (w, c // 50)),
                          "w") as out:
                    for i in range(c, min(c + 50, n)):
                        u = url_of(i)
                        kk = 3 * w + i % 3
                        out.write(json.dumps(
                            {"url": u, "k": kk, "w": w,
                             "content": u * kk + "#" + str(w)}) + "\n")
    elif cmd == "urls":
        for i in range(int(sys.argv[2])):
            print(url_of(i))
    elif cmd == "raw":
        d, end = sys.argv[2], time.time() + float(sys.argv[3])
        checked = bad = 0
        first = True
        while first or time.time() < end:  # at least one pass
            first = False
            for kind, path, name in scan(d):
                if kind != "entry":
                    continue
                r = check_file(path, name)
                if r is None:
                    continue
                checked += 1
                if r == 0:
                    bad += 1
                    sys.stderr.write("bad entry seen: %s\n" % path)
        print(json.dumps({"checked": checked, "bad": bad}))
    elif cmd == "get":
        with open(sys.argv[2]) as f:
            urls = f.read()
        wanted = urls.split()
        end = time.time() + float(sys.argv[3])
        hits = misses = bad = runs = 0
        while runs == 0 or time.time() < end:  # at least one run
            p = subprocess.run(["urlcache", "get"], input=urls.encode(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            runs += 1
            if p.returncode not in (0, 1):
                bad += 1
                sys.stderr.write("get exited %d: %s\n" %
                                 (p.returncode, p.stderr.decode()))
            lines = p.stdout.decode().splitlines()
            if len(lines) != len(wanted):
                bad += 1
                sys.stderr.write("get answered %d lines for %d URLs\n" %
                                 (len(lines), len(wanted)))
            for want, line in zip(wanted, lines):
                try:
                    rec = json.loads(line)
                except ValueError:
                    bad += 1
                    continue
                if rec.get("url") != want:
                    bad += 1
                    sys.stderr.write("foreign answer for %s\n" % want)
                elif rec.get("error"):
                    misses += 1
                elif good(rec) and rec.get("cached") is True:
                    hits += 1
                else:
                    bad += 1
                    sys.stderr.write("bad record for %s\n" % want)
        print(json.dumps({"runs": runs, "hits": hits, "misses": misses,
                          "bad": bad}))
    elif cmd == "check":
        e, b, t = check_all(sys.argv[2])
        print(json.dumps({"entries": e, "bad": b, "temp": t}))
    elif cmd == "crash":
        d, want = sys.argv[2], int(sys.argv[3])
        inp = os.path.join(os.path.dirname(d.rstrip("/")) or ".", "crash.jsonl")
        with open(inp, "w") as out:
            for i in range(20):
                u = url_of(i)
                kk = 2000 + i
                out.write(json.dumps({"url": u, "k": kk, "w": 0,
                                      "content": u * kk + "#0"}) + "\n")
        os.environ["URLKIT_CACHE_DIR"] = d
        rnd = random.Random(os.getpid())
        kills = tries = bad = midwrite = last_temp = 0
        # Time a run that does nothing and a full one, to aim the kills
        # at the writing.
        t0 = time.time()
        subprocess.run(["urlcache", "set"], stdin=subprocess.DEVNULL,
                       check=True)
        start = time.time() - t0
        t0 = time.time()
        with open(inp, "rb") as f:
            subprocess.run(["urlcache", "set"], stdin=f, check=True,
                           env=dict(os.environ, URLKIT_TEST_WRITE_DELAY="100"))
        full = max(time.time() - t0, start + 0.005)
        # At least `want` kills, and go on (within reason) until one has
        # been seen to leave a temporary file: proof the kills hit writes.
        # Slow writes down so that kills land inside them.
        env = dict(os.environ, URLKIT_TEST_WRITE_DELAY="100")
        # The aim adapts: one timed run on a loaded machine can be slow,
        # and sleeping up to its length lets most writers finish first.
        # A writer found done brings the latest moment in, a kill lets it
        # out again (never past the timed run, never before start-up).
        lo, hi = start * 0.8, full
        while (kills < want or midwrite < 1) and tries < 6 * want:
            tries += 1
            with open(inp, "rb") as f:
                p = subprocess.Popen(["urlcache", "set"], stdin=f, env=env)
                time.sleep(rnd.uniform(lo, hi))
                if p.poll() is None:
                    p.kill()
                    kills += 1
                    hi = min(full, hi * 1.1)
                else:
                    hi = max(lo + 0.002, hi * 0.8)
                p.wait()
            e, b, t = check_all(d)
            bad += b
            if t > last_temp:
                midwrite += 1
            last_temp = t
        print(json.dumps({"kills": kills, "tries": tries, "bad": bad,
                          "midwrite": midwrite, "temp_left": last_temp}))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
