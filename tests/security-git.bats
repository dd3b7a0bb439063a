#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The git route and redirects (issue 15, item 3): libgit2 must not follow
# a redirect from an allowed server to a refused address.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

setup_file() {
	make_repo "$BATS_FILE_TMPDIR/src"
	serve_repo "$BATS_FILE_TMPDIR/src" "$BATS_FILE_TMPDIR/srv"
}

setup() {
	repo_setup
	# Only 127.0.0.1 is allowed; 127.0.0.2 is the internal address.
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	# The refused server: counts what reaches it.
	start_server IN python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        print("req " + self.path, file=sys.stderr, flush=True)
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_GET
s = http.server.HTTPServer(("127.0.0.2", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()'
	# The allowed server: every request redirected there.
	start_server RD python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(302)
        self.send_header("Location", "http://127.0.0.2:" + sys.argv[1] + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_GET
s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()' "$IN_PORT"
}

teardown() {
	common_teardown
}

@test "git route: a redirect to a refused address is not followed" {
	run -1 --separate-stderr "$REPO" "http://127.0.0.1:$RD_PORT/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"cannot redirect from '127.0.0.1' to '127.0.0.2'"* ]]
	# Nothing reached the internal address.
	[ "$(grep -c '^req ' "$T/IN.log" || :)" = 0 ]
	# The same repository without a redirect is read as ever.
	run -0 --separate-stderr "$REPO" "http://127.0.0.1:$srv_PORT/git/tool.git"
	[ "$(jq -r .github_info.route <<<"$output")" = git ]
}
