#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The git route and redirects (issue 15, item 3): every redirect hop is
# judged by the guard before it is followed, as on the http route; libgit2
# clones the last URL and follows no redirect to another host itself; and
# the address libgit2 connects to is judged, whatever the name answers it.
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
	# The allowed redirecting server, by the path's first component:
	#   /in/REST    302 to the refused server's /REST
	#   /ok/REST    302 to the repository server's /REST (another port)
	#   /hop/REST   302 to /ok/REST on itself (a relative Location)
	#   /loop/REST  302 to itself, for ever
	#   /plain/REST 302 to the repository server's /REST less /info/refs
	# Every request is logged as "req PATH".
	start_server RD python3 -c "$REDIRECTOR" 127.0.0.1 "$IN_PORT" "$srv_PORT"
}

REDIRECTOR='
import http.server, sys
HOST, IN, OK = sys.argv[1:4]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        print("req " + self.path, file=sys.stderr, flush=True)
        kind, _, rest = self.path[1:].partition("/")
        loc = {"in": "http://127.0.0.2:%s/%s" % (IN, rest),
               "ok": "http://127.0.0.1:%s/%s" % (OK, rest),
               "hop": "/ok/" + rest,
               "loop": self.path,
               "plain": "http://127.0.0.1:%s/%s" % (OK, rest.partition("/info/refs")[0])}.get(kind)
        self.send_response(302 if loc else 404)
        if loc:
            self.send_header("Location", loc)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_GET
s = http.server.HTTPServer((HOST, 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()'

teardown() {
	common_teardown
}

@test "git route: a redirect to a refused address is judged and not followed" {
	run -1 --separate-stderr "$REPO" "http://127.0.0.1:$RD_PORT/in/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"redirected: 'http://127.0.0.2:$IN_PORT/git/tool.git': address 127.0.0.2 refused"* ]]
	# Nothing reached the internal address.
	[ "$(grep -c '^req ' "$T/IN.log" || :)" = 0 ]
	# The same repository without a redirect is read as ever.
	run -0 --separate-stderr "$REPO" "http://127.0.0.1:$srv_PORT/git/tool.git"
	[ "$(jq -r .github_info.route <<<"$output")" = git ]
}

@test "git route: a redirect to another allowed server is followed and cloned" {
	# From another allowed host (127.0.0.3, listed too) to the
	# repository on 127.0.0.1: a redirect to another host, which
	# libgit2 alone refuses.
	export URLKIT_ALLOW_PRIVATE=127.0.0.1,127.0.0.3
	start_server RD3 python3 -c "$REDIRECTOR" 127.0.0.3 "$IN_PORT" "$srv_PORT"
	run -0 --separate-stderr "$REPO" "http://127.0.0.3:$RD3_PORT/ok/git/tool.git"
	[ "$(jq -r .github_info.route <<<"$output")" = git ]
	[ "$(jq -r .title <<<"$output")" = tool ]
	[[ $(jq -r .symbol_map <<<"$output") == *helper_function* ]]
	# The redirect was asked once; the clone went to the repository.
	[ "$(grep -c '^req /ok/git/tool.git/info/refs?service=git-upload-pack$' "$T/RD3.log")" = 1 ]
	grep -q '^POST /git/tool.git/git-upload-pack' "$T/requests.log"
	# And to the refused address from there: refused.
	run -1 --separate-stderr "$REPO" "http://127.0.0.3:$RD3_PORT/in/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"address 127.0.0.2 refused"* ]]
	# Two hops, the first a relative Location.
	run -0 --separate-stderr "$REPO" "http://127.0.0.1:$RD_PORT/hop/git/tool.git/"
	[[ $(jq -r .symbol_map <<<"$output") == *helper_function* ]]
	# A Location without /info/refs names no repository (git refuses it too).
	run -1 --separate-stderr "$REPO" "http://127.0.0.1:$RD_PORT/plain/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"does not name a git repository"* ]]
	[ "$(grep -c '^req ' "$T/IN.log" || :)" = 0 ]
}

@test "git route: a redirect loop stops at the http route's hop limit" {
	run -1 --separate-stderr "$REPO" "http://127.0.0.1:$RD_PORT/loop/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"too many redirects (more than 10)"* ]]
	# The first request and ten redirects followed, as curl counts.
	[ "$(grep -c '^req /loop/' "$T/RD.log")" = 11 ]
}

@test "git route: a name that answers libgit2 with a refused address (DNS rebinding) is refused where the clone connects" {
	[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null ||
	    skip "needs root and mount namespaces (a resolv.conf of its own)"
	# The repository's port on the refused address: where a clone that
	# took the second answer would go.
	start_server IN2 python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        print("req " + self.path, file=sys.stderr, flush=True)
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_POST = do_GET
s = http.server.HTTPServer(("127.0.0.2", int(sys.argv[1])), H)
print(s.server_address[1], flush=True)
s.serve_forever()' "$srv_PORT"
	# rebind.test is 127.0.0.1 to the guard's look-up and the redirect
	# probe's (two A queries), 127.0.0.2 from then on.
	start_server D python3 "$TOP/tests/helpers/dns_blackhole.py" \
	    127.0.0.77 rebind.test=127.0.0.1@0/2=127.0.0.2
	printf 'nameserver 127.0.0.77\noptions timeout:5 attempts:1\n' \
	    >"$T/resolv.conf"
	run -1 --separate-stderr timeout 120 unshare -m bash -c '
		mount --bind "$1" /etc/resolv.conf || exit 99
		shift; exec "$@"' bash "$T/resolv.conf" \
	    "$REPO" "http://rebind.test:$srv_PORT/git/tool.git"
	[[ $(jq -r .error <<<"$output") == *"address 127.0.0.2 refused"* ]]
	# The name was asked again after the two allowed answers, and
	# nothing reached the refused address.
	[ "$(grep -c '^query rebind.test 1$' "$T/D.log")" -ge 3 ]
	[ "$(grep -c '^req ' "$T/IN2.log" || :)" = 0 ]
}
