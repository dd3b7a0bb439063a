#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The design pwfetch(1) did not keep, measured: the guard as CDP auto-attach.

    pwfetch-autoattach.py CHROMIUM URL [MODE]

Launches CHROMIUM headless over --remote-debugging-pipe and loads URL
(a tests/helpers/pw_server.py /sec page) with MODE:

    attach   Target.setAutoAttach (flatten, waitForDebuggerOnStart) on the
             browser and, recursively, on every session; the Fetch domain
             on every target that has one; a request whose host is
             127.0.0.2 failed, every other one continued
    none     no guard at all (the baseline)

Prints one JSON line: the seconds from Target.createTarget to the page's
load event, the targets attached to by type, and the requests failed.
Then waits 3 s so that workers have tried what they try.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

chromium, url = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "attach"
prof = tempfile.mkdtemp(prefix="pwbench.")
r_ours, w_theirs = os.pipe()  # Chromium writes fd 4
r_theirs, w_ours = os.pipe()  # Chromium reads fd 3


def child():
    os.dup2(r_theirs, 3)
    os.dup2(w_theirs, 4)


p = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                      "--remote-debugging-pipe", "--user-data-dir=" + prof,
                      "--no-first-run", "about:blank"],
                     preexec_fn=child, pass_fds=(3, 4),
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(r_theirs)
os.close(w_theirs)
buf = b""
nid = 0


def send(method, params=None, session=None):
    global nid
    nid += 1
    m = {"id": nid, "method": method, "params": params or {}}
    if session:
        m["sessionId"] = session
    os.write(w_ours, json.dumps(m).encode() + b"\0")
    return nid


DEADLINE = [0.0]


def messages():
    global buf
    import select
    while time.time() < DEADLINE[0]:
        while b"\0" in buf:
            line, buf = buf.split(b"\0", 1)
            yield json.loads(line)
        r, _, _ = select.select([r_ours], [], [],
                                max(0, DEADLINE[0] - time.time()))
        if not r:
            return
        d = os.read(r_ours, 1 << 20)
        if not d:
            return
        buf += d


AA = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}
types, failed, continued = {}, 0, 0
if mode == "attach":
    send("Target.setAutoAttach", AA)
t0 = time.time()
send("Target.createTarget", {"url": "about:blank"})
page_session, loaded, navigated = None, None, False
DEADLINE[0] = time.time() + 60
for m in messages():
    meth, pr, sess = m.get("method"), m.get("params", {}), m.get("sessionId")
    if meth == "Target.attachedToTarget":
        s, ti = pr["sessionId"], pr["targetInfo"]
        types[ti["type"]] = types.get(ti["type"], 0) + 1
        if mode == "attach":
            send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, s)
            send("Target.setAutoAttach", AA, s)
        if ti["type"] == "page" and page_session is None:
            page_session = s
            send("Page.enable", None, s)
        send("Runtime.runIfWaitingForDebugger", None, s)
        if s == page_session and not navigated and mode == "attach":
            navigated = True
            send("Page.navigate", {"url": url}, s)
    elif m.get("id") and "result" in m and "targetId" in m["result"] \
            and mode == "none":
        send("Target.attachToTarget", {"targetId": m["result"]["targetId"],
                                       "flatten": True})
    elif m.get("id") and "result" in m and "sessionId" in m["result"] \
            and mode == "none":
        page_session = m["result"]["sessionId"]
        send("Page.enable", None, page_session)
        send("Page.navigate", {"url": url}, page_session)
    elif meth == "Fetch.requestPaused":
        host = urllib.parse.urlsplit(pr["request"]["url"]).hostname
        if host == "127.0.0.2":
            failed += 1
            send("Fetch.failRequest", {"requestId": pr["requestId"],
                                       "errorReason": "AddressUnreachable"},
                 sess)
        else:
            continued += 1
            send("Fetch.continueRequest", {"requestId": pr["requestId"]},
                 sess)
    elif meth == "Page.loadEventFired" and sess == page_session and \
            loaded is None:
        loaded = time.time() - t0
        DEADLINE[0] = time.time() + 3
p.kill()
p.wait()
subprocess.run(["rm", "-rf", prof])
print(json.dumps({"mode": mode, "load_s": loaded, "targets": types,
                  "failed": failed, "continued": continued}))
