#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# An OpenAI-compatible chat-completions stand-in for urlsum's tests.
#
#   llm_server.py MODE LOG
#
# Binds 127.0.0.1 on a free port and prints the port as its first line.
# Every request to POST .../chat/completions is appended to LOG as one JSON
# line: {"path", "authorization", "inflight", "body"} (inflight: requests
# being answered when this one arrived, itself included).
# MODE: normal   answer at once
#       429      answer the first request 429 with Retry-After: 1, then normally
#       500      answer 500 every time
#       hang     read the request and never answer
#       slow     answer after 0.5 s
#       nul      answer at once, with a NUL inside the content
# The answer's content names the system prompt's first line and the length
# of the user message in characters, so tests can see what was sent.
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, log = sys.argv[1], sys.argv[2]
lock = threading.Lock()
state = {"count": 0, "inflight": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per response, sent at once: no Nagle delay between the
    # headers and the body.
    disable_nagle_algorithm = True
    wbufsize = 65536

    def log_message(self, *args):
        pass

    def reply(self, code, obj, headers=()):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(n)
        with lock:
            state["count"] += 1
            state["inflight"] += 1
            count, inflight = state["count"], state["inflight"]
        try:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            with lock, open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps({
                    "path": self.path,
                    "authorization": self.headers.get("Authorization"),
                    "inflight": inflight,
                    "body": body,
                }) + "\n")
            if not self.path.endswith("/chat/completions") or body is None:
                self.reply(404, {"error": {"message": "not found"}})
                return
            if mode == "hang":
                time.sleep(3600)
                return
            if mode == "500":
                self.reply(500, {"error": {"message": "internal failure"}})
                return
            if mode == "429" and count == 1:
                self.reply(429, {"error": {"message": "rate limited"}},
                           [("Retry-After", "1")])
                return
            if mode == "slow":
                time.sleep(0.5)
            msgs = body.get("messages", [])
            system = next((m["content"] for m in msgs
                           if m.get("role") == "system"), "")
            user = next((m["content"] for m in msgs
                         if m.get("role") == "user"), "")
            text = "stand-in summary of %d characters; prompt: %s" % (
                len(user), system.splitlines()[0] if system else "")
            if mode == "nul":
                text = "before\x00after"
            self.reply(200, {
                "id": "chatcmpl-%d" % count,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model") or "stand-in",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant",
                                         "content": text}}],
            })
        finally:
            with lock:
                state["inflight"] -= 1


class Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 drops connections past it


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
