#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch keeps "\u0000" in what it takes from GitHub's API (issue 15
# item 14): an issue's title and body are not cut at it.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=1
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_GITHUB_TOKEN GITHUB_TOKEN
}
teardown() { common_teardown; }

@test "faults fetch nul: an issue whose title and body hold \\u0000 keeps them whole" {
	start_server A python3 -c '
import http.server, sys
BODY = (b"{\"title\":\"t\\u0000x\",\"body\":\"a\\u0000b\",\"state\":\"open\","
        b"\"user\":{\"login\":\"ada\"},\"labels\":[],\"comments\":0}")
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path == "/api/repos/octo/demo/issues/7"
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY) if ok else 0))
        self.end_headers()
        if ok:
            self.wfile.write(BODY)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()'
	export URLKIT_GITHUB_API_URL="http://127.0.0.1:$A_PORT/api"
	export URLKIT_GITHUB_URL="http://127.0.0.1:$A_PORT/gh"
	run -0 --separate-stderr urlfetch -C -q <<<https://github.com/octo/demo/issues/7
	[ "$(jq -c '[.title, .content, .github_info.source]' <<<"$output")" = '["t\u0000x","a\u0000b","api"]' ]
	# Written as \u0000, never as a raw NUL byte.
	[[ $output == *'"content":"a\u0000b"'* ]]
}
