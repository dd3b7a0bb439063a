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
	[[ $(cat "$T/err") == "urlcache: <stdin>:1: cannot write '"*"': No space left on device" ]]
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
