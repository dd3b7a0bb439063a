#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drive headless Chromium for toolack's web frontend tests, stdlib only.
#
#   toolack_chromium.py launch DIR URL [--allow-popups]
#       start Chromium on URL with its own user data dir DIR, print the
#       DevTools port (from DIR/DevToolsActivePort) and stay in the
#       foreground until killed (then Chromium is killed too)
#   toolack_chromium.py targets PORT
#       print the URL of every page target, one a line (/json/list)
#   toolack_chromium.py wait-target PORT PREFIX SECONDS
#       wait until a page target's URL starts with PREFIX; exit 1 if none
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

CHROMIUM = os.environ.get("URLKIT_CHROMIUM", "/usr/lib/chromium/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-port=0"]


def launch(d, url, allow):
    args = [CHROMIUM] + FLAGS + ["--user-data-dir=" + d]
    if allow:
        args.append("--disable-popup-blocking")
    args.append(url)
    log = open(os.path.join(d, "chromium.log"), "wb")
    p = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                         start_new_session=True)

    def stop(*_):
        try:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(timeout=5)
        except Exception:
            os.killpg(p.pid, signal.SIGKILL)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    f = os.path.join(d, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(f):
            lines = open(f).read().split("\n")
            if lines and lines[0].strip():
                print(lines[0].strip(), flush=True)
                break
        if p.poll() is not None:
            sys.exit("chromium exited with %d" % p.returncode)
        time.sleep(0.05)
    else:
        stop()
    while p.poll() is None:
        time.sleep(0.2)
    sys.exit(1)


def targets(port):
    with urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port,
                                timeout=5) as r:
        return [t.get("url", "") for t in json.load(r)
                if t.get("type") == "page"]


def main():
    cmd = sys.argv[1]
    if cmd == "launch":
        launch(sys.argv[2], sys.argv[3], "--allow-popups" in sys.argv[4:])
    elif cmd == "targets":
        for u in targets(sys.argv[2]):
            print(u)
    elif cmd == "wait-target":
        end = time.time() + float(sys.argv[4])
        while time.time() < end:
            if any(u.startswith(sys.argv[3]) for u in targets(sys.argv[2])):
                sys.exit(0)
            time.sleep(0.1)
        sys.exit(1)
    else:
        sys.exit("unknown command " + cmd)


main()
