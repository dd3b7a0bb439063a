#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache against a cache directory someone else can write into: a
# fan-out folder that is a symbolic link is never followed (issue 15,
# item 18).
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	C=$URLKIT_CACHE_DIR
	U=https://example.com/linked
	REC=$(jq -nc --arg u "$U" '{url:$u,url_type:"web",title:"T",content:"x"}')
	KK=$(basename "$(dirname "$(urlcache path "$U")")")
	mkdir -p "$C" "$T/elsewhere"
}

teardown() {
	common_teardown
}

@test "set refuses a symlinked fan-out folder and writes nothing through it" {
	ln -s "$T/elsewhere" "$C/$KK"
	run -1 --separate-stderr urlcache set <<<"$REC"
	[[ $(jq -r .error <<<"$output") == *"'$C/$KK' is a symbolic link or not a directory: not followed" ]]
	[ -z "$(ls -A "$T/elsewhere")" ]
	# Another URL in a real fan-out folder is cached as ever.
	jq -nc '{url:"https://example.com/other",content:"y"}' | urlcache set
	run -0 --separate-stderr urlcache get https://example.com/other
}

@test "get, invalidate, clear and cleanup never reach an entry through a symlinked fan-out folder" {
	# An entry made in a real folder, which then moves elsewhere and is
	# linked back in its place.
	urlcache set <<<"$REC"
	mv "$C/$KK" "$T/elsewhere/$KK"
	ln -s "$T/elsewhere/$KK" "$C/$KK"
	f=$T/elsewhere/$KK/$(basename "$(urlcache path "$U")")
	[ -f "$f" ]
	run -1 --separate-stderr urlcache get "$U"
	[ "$(jq -r .cached <<<"$output")" = false ]
	run -0 --separate-stderr urlcache invalidate "$U"
	[ "$(jq -r .found <<<"$output")" = false ]
	[ -f "$f" ]
	run -0 --separate-stderr urlcache clear
	[ "$(jq -r .removed <<<"$output")" = 0 ]
	run -0 --separate-stderr urlcache --ttl 0 cleanup
	[ -f "$f" ]
	run -0 --separate-stderr urlcache list
	[ -z "$output" ]
}
