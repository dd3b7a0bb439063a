#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache stats: the counters programs keep in the cache directory
# (hits, misses, stores, evictions, errors, and each remote store's),
# --zero, the table on a terminal; cleanup -v naming each entry's URL.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch
load helpers/remote

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	unset URLKIT_CACHE_REMOTE
}
teardown() { common_teardown; }

rec() {
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$1" "${2:-content of $1}"
}

# counts: the counters of urlcache stats, as one compact object.
counts() {
	urlcache stats --compact |
	    jq -c '{hits, misses, stores, evictions, errors}'
}

@test "stats counts the hits, misses and stores of every urlfetch run" {
	run -0 counts
	json_eq "$output" '{"hits":0,"misses":0,"stores":0,"evictions":0,"errors":0}'
	# A miss and a store, a hit, another miss and store.
	run -0 urlfetch <<<"$B/article.html?st=1"
	run -0 urlfetch <<<"$B/article.html?st=1"
	run -0 urlfetch <<<"$B/article.html?st=2"
	run -0 counts
	json_eq "$output" '{"hits":1,"misses":2,"stores":2,"evictions":0,"errors":0}'
	# urlcache's own queries are not counted, nor is a run that does
	# not touch the entries.
	rec https://s.test/a | urlcache set
	run -0 urlcache get https://s.test/a
	run -1 urlcache get https://s.test/b
	run -0 urlcache list
	run -0 counts
	json_eq "$output" '{"hits":1,"misses":2,"stores":2,"evictions":0,"errors":0}'
}

@test "stats --zero shows the counters, then starts them again" {
	run -0 urlfetch <<<"$B/article.html?z=1"
	run -0 urlfetch <<<"$B/article.html?z=1"
	run -0 urlcache stats --zero --compact
	[ "$(field "$output" .hits)" = 1 ]
	[ "$(field "$output" .stores)" = 1 ]
	local before
	before=$(field "$output" .zeroed_at)
	run -0 urlcache stats --compact
	[ "$(field "$output" .hits)" = 0 ]
	[ "$(field "$output" .stores)" = 0 ]
	[[ "$(field "$output" .zeroed_at)" > "$before" ]]
	run -0 urlcache stats --zero -o "$T/out"
	[ "$(jq -r .zeroed_at "$T/out")" != null ]
}

@test "8 processes at once lose no count" {
	printf '%s\n' "$B/article.html?p=1" "$B/article.html?p=2" | urlfetch >/dev/null
	local i pids=()
	for i in 1 2 3 4 5 6 7 8; do
		printf '%s\n' "$B/article.html?p=1" "$B/article.html?p=2" |
		    urlfetch >/dev/null &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i"; done
	run -0 counts
	json_eq "$output" '{"hits":16,"misses":2,"stores":2,"evictions":0,"errors":0}'
}

@test "stats counts each remote store: hits, misses, stores, errors, corrupt" {
	redis_start
	local store="redis://127.0.0.1:$REDIS_PORT" u=$B/article.html?rs=1
	export URLKIT_CACHE_REMOTE=$store
	# c1: a miss everywhere, stored in both.
	URLKIT_CACHE_DIR=$T/c1 run -0 urlfetch <<<"$u"
	# c2: a remote hit, then a miss everywhere and a store.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlfetch <<<"$u"
	[ "$(field "$output" .cached)" = true ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlfetch <<<"$B/article.html?rs=2"
	# c3: the value made corrupt: counted, then fetched and stored.
	local k
	k=urlkit:$(urlcache path "$u" | sed 's|.*/||; s|\.json$||')
	rcli --raw get "$k" | sed 's/Harbour/Harbouz/' | head -c -1 >"$T/v"
	rcli -x set "$k" <"$T/v"
	URLKIT_CACHE_DIR=$T/c3 run -0 urlfetch <<<"$u"
	[ "$(field "$output" .cached)" = false ]
	# c2 again, the store gone: a get and a put that fail.
	redis_stop
	URLKIT_CACHE_DIR=$T/c2 run -0 --separate-stderr urlfetch <<<"$B/article.html?rs=3"
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache stats --compact
	json_eq "$(jq -c ".remote[\"$store\"]" <<<"$output")" \
	    '{"hits":0,"misses":1,"stores":1,"errors":0,"corrupt":0}'
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache stats --compact
	json_eq "$(jq -c ".remote[\"$store\"]" <<<"$output")" \
	    '{"hits":1,"misses":1,"stores":1,"errors":2,"corrupt":0}'
	[ "$(field "$output" .hits)" = 0 ]
	[ "$(field "$output" .misses)" = 3 ]
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache stats --compact
	json_eq "$(jq -c ".remote[\"$store\"]" <<<"$output")" \
	    '{"hits":0,"misses":1,"stores":1,"errors":0,"corrupt":1}'
}

@test "stats on a terminal is a table, as ccache -s" {
	command -v script >/dev/null || skip "script(1) not installed"
	run -0 urlfetch <<<"$B/article.html?tt=1"
	run -0 urlfetch <<<"$B/article.html?tt=1"
	run -0 script -qec "urlcache stats" /dev/null
	[[ $output == *"Cache directory:"*"$URLKIT_CACHE_DIR"* ]]
	[[ $output == *"Hits:"*"1 / 2 (50.00 %)"* ]]
	[[ $output == *"Stores:"*"1"* ]]
	[[ $output != *'{'* ]]
	# --compact is a record even there.
	run -0 script -qec "urlcache stats --compact" /dev/null
	[[ $output == '{"dir":'* ]]
}

@test "cleanup -v names the URL of each entry it removes, and counts evictions" {
	rec https://s.test/old1 | urlcache set
	rec https://s.test/old2 | urlcache set
	rec https://s.test/new | urlcache set
	touch -d yesterday "$(urlcache path https://s.test/old1)" \
	    "$(urlcache path https://s.test/old2)"
	run -0 urlcache cleanup -n
	[ "$(jq -r 'select(.kind == "entry") | .url' <<<"$output" | sort | paste -sd' ')" = \
	    "https://s.test/old1 https://s.test/old2" ]
	run -0 counts
	[ "$(field "$output" .evictions)" = 0 ]
	run -0 urlcache cleanup -v
	[ "$(jq -r 'select(.kind == "entry") | .url' <<<"$output" | sort | paste -sd' ')" = \
	    "https://s.test/old1 https://s.test/old2" ]
	run -0 counts
	[ "$(field "$output" .evictions)" = 2 ]
	# A corrupt entry has no URL to name.
	rec https://s.test/bad | urlcache set
	printf 'not json' >"$(urlcache path https://s.test/bad)"
	run -0 urlcache cleanup -v
	[ "$(jq -r 'select(.kind == "entry") | .url' <<<"$output")" = null ]
	[ "$(jq -r 'select(.kind == "entry") | .reason' <<<"$output")" = corrupt ]
}
