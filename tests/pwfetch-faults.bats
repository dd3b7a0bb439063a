#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# pwfetch's pages failing every way the network can, one browser for all
# of them, and SIGINT mid-run.  (SIGTERM and a browser that dies are in
# pwfetch.bats.)

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup() {
	common_setup
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	# The servers are on loopback; every other private address is
	# still refused.
	export URLKIT_ALLOW_PRIVATE=127.0.0.1,::1
}

teardown() {
	common_teardown
}

# No Chromium of ours running, and no profile left behind.
no_browser_left() {
	! pgrep -f "$T/tmp/" >/dev/null && [ -z "$(ls -A "$T/tmp")" ]
}

@test "reset, silence, no such name, a bad certificate, a private address: error records, one browser, the good page still read" {
	fault R reset
	fault H hang
	fault S page --tls
	fault P page
	run -1 --separate-stderr timeout 120 pwfetch fetch -t 3 \
	    "http://127.0.0.1:$R_PORT/a" "http://127.0.0.1:$H_PORT/b" \
	    http://nowhere.invalid/ "https://localhost:$S_PORT/p" \
	    "http://127.0.0.1:$P_PORT/p?kb=2" http://10.0.0.1/admin
	[ "${#lines[@]}" = 6 ]
	# The browser commits the first 4 KiB of the reset page; its load
	# never comes, so -t ends it.
	[ "$(jq -r .error <<<"${lines[0]}")" = "timeout after 3 s waiting for load" ]
	[ "$(jq -r .error <<<"${lines[1]}")" = "timeout after 3 s waiting for load" ]
	[ "$(jq -r .error <<<"${lines[2]}")" = net::ERR_NAME_NOT_RESOLVED ]
	[[ $(jq -r .error <<<"${lines[3]}") == net::ERR_CERT_* ]]
	jq -e '.error == null and .title == "Fault page"' <<<"${lines[4]}"
	[[ $(jq -r .error <<<"${lines[5]}") == *"10.0.0.1 refused (private network"* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c '^pwfetch fetch: ')" = 5 ]
	sleep 0.2
	no_browser_left
}

@test "SIGINT mid-run: whole records so far, the browser and its profile gone, exit 130" {
	fault P page
	fault H hang
	env --default-signal=INT pwfetch fetch -t 30 "http://127.0.0.1:$P_PORT/p?kb=200" \
	    "http://127.0.0.1:$H_PORT/never" >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 1 400); do
		[ -s "$T/out" ] && break
		sleep 0.05
	done
	wait_conn() { [ "$(conns H)" -ge 1 ]; }
	for _ in $(seq 1 200); do
		wait_conn && break
		sleep 0.05
	done
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" = 130 ]
	all_json "$T/out"
	[ "$(wc -l <"$T/out")" = 1 ]
	jq -e '.title == "Fault page"' "$T/out"
	sleep 0.2
	no_browser_left
}
