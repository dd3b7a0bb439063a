#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache set on a full disk and under SIGTERM.  (Read-only caches and
# SIGKILL are in urlcache.bats and urlcache-stress.bats.)

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "set on a full disk (ENOSPC): the failed record is named, exit 3, the cache unharmed" {
	full_disk_ok || skip "no tmpfs without root and mount namespaces"
	export URLKIT_CACHE_DIR=$T/small/cache
	run -0 on_full_disk "$T/small" '
		echo "{\"url\":\"https://a.test/\",\"content\":\"kept\"}" | urlcache set
		cp "$(urlcache path https://a.test/)" "$T/entry"
		fill_disk "$1"
		python3 -c "import json
print(json.dumps({\"url\": \"https://b.test/\", \"content\": \"x\" * 100000}))
print(json.dumps({\"url\": \"https://c.test/\", \"content\": \"y\"}))" |
		    urlcache set >"$T/out" 2>"$T/err"
		echo $? >"$T/rc"
		cmp "$(urlcache path https://a.test/)" "$T/entry" && echo same >"$T/cmp"
		urlcache get https://a.test/ >"$T/get"
		find "$1" -name ".*.tmp.*" >"$T/tmp"'
	[ "$(cat "$T/rc")" = 3 ]
	jq -e '.line == 1 and .tool == "urlcache" and
	    (.error | test("No space left on device"))' "$T/out"
	[ "$(wc -l <"$T/out")" = 1 ]
	[[ $(cat "$T/err") == "urlcache set: <stdin>:1: cannot write '"*"': No space left on device" ]]
	[ "$(cat "$T/cmp")" = same ]
	jq -e '.content == "kept" and .cached == true' "$T/get"
	[ ! -s "$T/tmp" ]
}

@test "SIGTERM while set writes an entry: no temporary file, the entry whole or absent" {
	python3 -c 'import json; print(json.dumps({"url": "https://big.test/", "content": "z" * 200000}))' >"$T/big"
	URLKIT_TEST_WRITE_DELAY=50000 urlcache set <"$T/big" &
	pid=$!
	seen=
	for _ in $(seq 1 400); do
		seen=$(find "$T/cache" -name '.*.tmp.*' 2>/dev/null || :)
		[ -n "$seen" ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
	[ -n "$seen" ]
	st=0
	wait "$pid" || st=$?
	[ "$st" = 143 ]
	no_temp "$T/cache"
	# Whole, since the signal waited for the rename.
	run -0 urlcache get https://big.test/
	[ "$(jq -r '.content | length' <<<"$output")" = 200000 ]
}

@test "an entry past its expires_at (max-age, Expires): get does not serve it, cleanup removes it, list says expired" {
	# Within the TTL by its age, past the lifetime its response gave.
	printf '%s\n' \
	    '{"url":"http://127.0.0.1:9/old","content":"o","expires_at":"2001-01-01T00:00:00.000Z"}' \
	    '{"url":"http://127.0.0.1:9/new","content":"n","expires_at":"2099-01-01T00:00:00.000Z"}' \
	    '{"url":"http://127.0.0.1:9/plain","content":"p"}' |
	    urlcache set
	run -0 urlcache list
	[ "$(jq -r 'select(.url | endswith("/old")) | .expired' <<<"$output")" = true ]
	[ "$(jq -r 'select(.url | endswith("/new")) | .expired' <<<"$output")" = false ]
	run -0 urlcache get --stale http://127.0.0.1:9/old
	[ "$(jq -r .expired <<<"$output")" = true ]
	run -0 urlcache cleanup -n
	json_eq "$(jq -c '{would_remove, expired, entries}' <<<"${lines[-1]}")" '{"would_remove":1,"expired":1,"entries":2}'
	run -0 urlcache cleanup -v
	[ "$(jq -r 'select(.reason) | .reason + " " + .key' <<<"$output")" = "expired 9edebfa10a5cd84e" ]
	json_eq "$(jq -c 'select(.removed) | {removed, expired, entries}' <<<"$output")" '{"removed":1,"expired":1,"entries":2}'
	[ ! -e "$URLKIT_CACHE_DIR/9e/9edebfa10a5cd84e.json" ]
	run -0 urlcache get http://127.0.0.1:9/new http://127.0.0.1:9/plain
	[ "${#lines[@]}" -eq 2 ]
	# get without --stale answers a miss, and the entry goes with it.
	printf '%s\n' '{"url":"http://127.0.0.1:9/old","content":"o","expires_at":"2001-01-01T00:00:00.000Z"}' | urlcache set
	run -1 --separate-stderr urlcache get http://127.0.0.1:9/old
	json_eq "$output" '{"url":"http://127.0.0.1:9/old","error":"not in the cache","cached":false}'
	run -0 urlcache list
	[ "${#lines[@]}" -eq 2 ]
}
