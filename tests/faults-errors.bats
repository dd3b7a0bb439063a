#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Errors that say what happened (issue 15, item 19): a huge response
# header, headers that drip, an LLM reply over its limit, charsets no
# browser reads HTML in.  (toolack's negative timeoutSec is in
# toolack-security.bats.)
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	start_server H python3 "$TOP/tests/helpers/header_server.py"
	B="http://127.0.0.1:$H_PORT"
}

teardown() {
	common_teardown
}

@test "a 200 KB response header is said to be too large, not out of memory" {
	run -1 --separate-stderr urlfetch -C <<<"$B/bighdr?kb=200"
	[ "$(jq -r .error <<<"$output")" = "response header too large (over libcurl's limit of 100 KiB)" ]
	[[ $stderr != *"emory"* ]]
}

@test "headers dripping a line a second are slow, not silent" {
	run -1 --separate-stderr urlfetch -C -t 20 <<<"$B/driphdr?n=30"
	err=$(jq -r .error <<<"$output")
	[[ $err == "too slow: the response headers had not ended after 15 s ("*" bytes of headers received)" ]]
	[[ $err != *"nothing received"* ]]
}

@test "an LLM reply over 16 MiB is said to be too large" {
	start_server L python3 -c '
import http.server
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        n = 17 << 20
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(n))
        self.end_headers()
        chunk = b" " * 65536
        try:
            for _ in range(n // len(chunk)):
                self.wfile.write(chunk)
        except OSError:
            pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()'
	rec='{"url":"https://example.com/","url_type":"web","title":"T","content":"Some text to sum up."}'
	run -1 --separate-stderr urlsum -C --no-fallback -U "http://127.0.0.1:$L_PORT/v1" <<<"$rec"
	[ "$(jq -r .error <<<"$output")" = "LLM reply larger than 16 MiB" ]
	[[ $stderr != *"Failed writing"* ]]
}

@test "charset=utf-32 or IBM037 is not honoured: read as UTF-8, with charset_ignored" {
	for cs in utf-32 IBM037 UTF-7; do
		run -0 --separate-stderr urlfetch -C <<<"$B/page?h=Content-Type:%20text/html;%20charset=$cs"
		[ "$(jq -r .charset <<<"$output")" = utf-8 ]
		[ "$(jq -r .charset_ignored <<<"$output")" = "${cs,,}" ]
		[[ $(jq -r .content <<<"$output") == "Headers at the café"* ]]
	done
	# A charset browsers know is honoured, and nothing is said.
	run -0 --separate-stderr urlfetch -C <<<"$B/page?h=Content-Type:%20text/html;%20charset=latin2"
	[ "$(jq -r .charset <<<"$output")" = iso-8859-2 ]
	[ "$(jq -r .charset_ignored <<<"$output")" = null ]
}
