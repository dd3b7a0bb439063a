#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch extracts pages off the thread that drives the transfers
# (issue 15 item 9): heavy pages on one host never make the normal pages
# of another host time out.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=1
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}
teardown() { common_teardown; }

@test "faults extract thread: three heavy pages on one host, the slow normal pages of another host still arrive within -t" {
	# Each heavy page takes some 4 s of CPU to extract (5 MB of short
	# paragraphs); each normal page comes after 1 s.  Extracted on the
	# loop's thread, the first heavy page stalled every transfer past
	# the 3 s timeout: "timed out after 3 s" for the normal pages.
	start_server H python3 "$TOP/tests/helpers/heavy_server.py" heavy 5
	start_server N python3 "$TOP/tests/helpers/heavy_server.py" slow 1
	for i in 1 2 3; do
		printf 'http://127.0.0.1:%s/heavy%s\n' "$H_PORT" "$i"
	done >"$T/in"
	# Another host name for the same loopback, so that the per-host
	# limit (3) lets all six transfers run at once.
	for i in 1 2 3; do
		printf 'http://localhost:%s/normal%s\n' "$N_PORT" "$i"
	done >>"$T/in"
	run -0 --separate-stderr urlfetch -C -q -t 3 -j 6 -i "$T/in"
	[ "${#lines[@]}" -eq 6 ]
	[ "$(printf '%s\n' "${lines[@]}" | jq -s -c 'map([(.url | sub(".*/"; "")), .error, .title])')" = \
	    '[["heavy1",null,"Heavy"],["heavy2",null,"Heavy"],["heavy3",null,"Heavy"],["normal1",null,"A normal page"],["normal2",null,"A normal page"],["normal3",null,"A normal page"]]' ]
}

@test "faults extract thread: a repository step started while a page transfers does not make the page time out" {
	# The repository step runs to its end on the loop's thread; here it
	# takes 4 s (its server answers after 4 s, and not as git does).
	# Started while the page's transfer ran, it made the page report
	# "timed out after 3 s"; now it waits for the transfer to end.
	start_server N python3 "$TOP/tests/helpers/heavy_server.py" slow 1
	start_server G python3 "$TOP/tests/helpers/heavy_server.py" slow 4
	run -1 --separate-stderr bash -c '
		{ printf "http://localhost:%s/normal1\n" "$1"
		  sleep 0.5
		  printf "http://127.0.0.1:%s/repo.git\n" "$2"; } |
		    urlfetch -C -q -t 3' _ "$N_PORT" "$G_PORT"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -c '[.title, .error]' <<<"${lines[0]}")" = '["A normal page",null]' ]
	[ "$(jq -r .url_type <<<"${lines[1]}")" = github_repo ]
	[ "$(jq -r '.error | type' <<<"${lines[1]}")" = string ]
	grep -q '^req /repo.git/' "$T/G.log"
}

@test "faults extract thread: while four bodies wait for extraction, no new transfer starts" {
	# One transfer at a time (-j 1) of six heavy pages of 1 MB: each
	# transfer takes milliseconds, each extraction a second or more.
	# While the first is extracted, the second to fifth arrive and wait:
	# four bodies, so the sixth must not start until the worker takes
	# the second, instead of right after the fifth.
	start_server H python3 "$TOP/tests/helpers/heavy_server.py" heavy 1
	for i in 1 2 3 4 5 6; do
		printf 'http://127.0.0.1:%s/heavy%s\n' "$H_PORT" "$i"
	done >"$T/in"
	# Each record is stamped with the time it came out: the first comes
	# out when the worker has extracted the first body, and takes the
	# second from the queue.
	run -0 --separate-stderr bash -c 'set -o pipefail
		urlfetch -C -q -j 1 -i "$1" | while IFS= read -r l; do
			printf "%s %s\n" "$EPOCHREALTIME" "$l"
		done' _ "$T/in"
	[ "${#lines[@]}" -eq 6 ]
	[ "$(printf '%s\n' "${lines[@]}" | cut -d' ' -f2- | jq -s -c 'map(.error)')" = '[null,null,null,null,null,null]' ]
	out1=${lines[0]%% *}
	sent5=$(awk '$1 == "sent" && $2 == "/heavy5" { print $3 }' "$T/H.log")
	req6=$(awk '$1 == "req" && $2 == "/heavy6" { print $3 }' "$T/H.log")
	# The fifth body arrived while the first was still being extracted
	# (else the queue never held four and the test shows nothing).
	awk -v s="$sent5" -v o="$out1" 'BEGIN { exit !(s < o) }'
	# The sixth transfer started when the worker took the second body,
	# nearer the first record than the fifth body's arrival; not right
	# after the fifth body, as it did when the queue had no bound.  (A
	# ratio, not seconds: the machine's load stretches both.)
	awk -v s="$sent5" -v r="$req6" -v o="$out1" \
	    'BEGIN { exit !(r - s > (o - s) / 2) }'
}
