#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The cache's packs (doc/CACHE.md): small entries moved by cleanup into
# DIR/KK/pack, and everything urlcache does with them.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	C=$URLKIT_CACHE_DIR
	S="python3 $TOP/tests/helpers/urlcache_stress.py"
}

teardown() {
	# Undo the immutable directory of the read-only test.
	[ -d "$C" ] && chattr -R -i "$C" 2>/dev/null
	common_teardown
}

# rec URL [CONTENT]: a content record.
rec() {
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$1" "${2:-content of $1}"
}

put() {
	rec "$@" | urlcache set
}

# same_dir N: N URLs whose keys share their first two digits (one fan-out
# directory), one a line.
same_dir() {
	python3 - "$1" <<'PY'
import hashlib, sys
n, got, i = int(sys.argv[1]), [], 0
while len(got) < n:
    u = "https://pack.test/%d" % i
    if hashlib.sha256(u.encode()).hexdigest()[:2] == "ab":
        got.append(u)
    i += 1
print("\n".join(got))
PY
}

@test "cleanup packs a fan-out directory from 16 small entries on; gets are as before" {
	same_dir 17 >"$T/urls"
	head -n 15 "$T/urls" | while read -r u; do put "$u"; done
	run -0 urlcache cleanup --compact
	jq -e '.packed == null and .entries == 15' <<<"$output"
	[ ! -e "$C/ab/pack" ]
	[ "$(ls "$C/ab" | grep -c '\.json$')" -eq 15 ]
	# The 16th small one, and a large one (over 4096 bytes), which stays.
	put "$(sed -n 16p "$T/urls")"
	put "$(sed -n 17p "$T/urls")" "$(head -c 5000 /dev/zero | tr '\0' x)"
	run -0 urlcache get -i "$T/urls"
	before=$output
	run -0 urlcache cleanup --compact
	jq -e '.packed == 16 and .entries == 17 and .removed == 0' <<<"$output"
	[ -f "$C/ab/pack" ]
	[ "$(ls "$C/ab" | grep -c '\.json$')" -eq 1 ]
	run -0 urlcache get -i "$T/urls"
	[ "$output" = "$before" ]
	run -0 urlcache path "$(head -n 1 "$T/urls")"
	[ "$output" = "$C/ab/pack" ]
	run -0 urlcache path "$(sed -n 17p "$T/urls")"
	[ "$output" = "$C/ab/$(basename "$output")" ]
	[[ $output == *.json ]]
	# Nothing to do: the pack is left as it is.
	ino=$(stat -c %i "$C/ab/pack")
	run -0 urlcache cleanup --compact
	jq -e '.removed == 0 and .entries == 17' <<<"$output"
	[ "$(stat -c %i "$C/ab/pack")" = "$ino" ]
}

@test "list, stats and get --changed-since see packed entries as loose ones" {
	put https://p.test/a
	put https://p.test/b
	put https://p.test/c "first"
	put https://p.test/c "second"
	run -0 urlcache list --compact
	list=$(jq -c '{url, key, cached_at, size, expired}' <<<"$output" | sort)
	run -0 urlcache stats --compact
	stats=$(jq -c '{entries, bytes, expired, oldest, newest}' <<<"$output")
	run -0 urlcache get --changed-since 1h --compact
	changed=$output
	run -0 urlcache cleanup --pack --compact
	jq -e '.packed == 3' <<<"$output"
	[ -z "$(find "$C" -name '*.json')" ]
	run -0 urlcache list --compact
	[ "$(jq -c '{url, key, cached_at, size, expired}' <<<"$output" | sort)" = "$list" ]
	run -0 urlcache stats --compact
	[ "$(jq -c '{entries, bytes, expired, oldest, newest}' <<<"$output")" = "$stats" ]
	run -0 urlcache get --changed-since 1h --compact
	[ "$output" = "$changed" ]
	jq -e '.url == "https://p.test/c" and .content == "second"' <<<"$output"
	# cleanup -v names a packed entry's URL.
	run -0 urlcache --ttl 1h cleanup -n --compact
	jq -e '.would_remove == 0' <<<"$output"
}

@test "a store over a packed entry wins, and invalidate never brings the packed copy back" {
	put https://s.test/ "version one"
	run -0 urlcache cleanup --pack --compact
	jq -e '.packed == 1' <<<"$output"
	rec https://s.test/ "version two" | urlcache set --pass >"$T/out"
	# The packed copy was the old version: the store saw a change.
	jq -e '.change == "changed"' "$T/out"
	run -0 urlcache get https://s.test/
	jq -e '.content == "version two"' <<<"$output"
	run -0 urlcache invalidate https://s.test/
	jq -e '.found' <<<"$output"
	run -1 urlcache get https://s.test/
	jq -e '.error == "not in the cache"' <<<"$output"
	# The rewrite drops the dead slot; still nothing.
	run -0 urlcache cleanup --compact
	jq -e '.entries == 0' <<<"$output"
	[ ! -e "$(dirname "$(urlcache path https://s.test/)")/pack" ]
	run -1 urlcache get https://s.test/
	# A packed entry alone: invalidate finds it.
	put https://s.test/x
	urlcache cleanup --pack >/dev/null
	run -0 urlcache invalidate https://s.test/x
	jq -e '.found' <<<"$output"
	run -1 urlcache get https://s.test/x
}

@test "a newer loose entry that expires takes its older packed copy with it" {
	for u in https://n.test/get https://n.test/cleanup; do
		put "$u" "version one"
	done
	urlcache cleanup --pack >/dev/null
	later=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
	for u in https://n.test/get https://n.test/cleanup; do
		printf '{"url":"%s","content":"version two","expires_at":"%s"}\n' \
		    "$u" "$later" | urlcache set
	done
	sleep 2.2
	# A get drops the expired loose entry, and the packed one too.
	run -1 urlcache get https://n.test/get
	run -1 urlcache get https://n.test/get
	# So does cleanup.
	run -0 urlcache cleanup --compact
	jq -e '.expired == 1 and .entries == 0' <<<"$output"
	run -1 urlcache get https://n.test/cleanup
	jq -e '.error == "not in the cache"' <<<"$output"
}

@test "a packed entry past the TTL or its expires_at is a miss, --stale keeps it, cleanup drops it" {
	put https://e.test/1
	put https://e.test/2
	later=$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
	printf '{"url":"https://e.test/3","content":"x","expires_at":"%s"}\n' \
	    "$later" | urlcache set
	urlcache cleanup --pack >/dev/null
	[ -z "$(find "$C" -name '*.json')" ]
	sleep 2.2
	run -1 urlcache get https://e.test/3
	run -0 urlcache --ttl 2 get --stale https://e.test/1
	jq -e '.expired == true and .content == "content of https://e.test/1"' <<<"$output"
	run -1 urlcache --ttl 2 get https://e.test/1
	run -0 urlcache --ttl 2 cleanup --compact
	jq -e '.expired == 1 and .entries == 0' <<<"$output"
	[ -z "$(find "$C" -name pack)" ]
}

@test "cleanup -s evicts packed entries by their recency, which a hit sets" {
	for i in 1 2 3 4; do put "https://l.test/$i" "0123456789"; done
	for i in 1 2 3 4; do
		touch -a -d "$((5 - i)) hours ago" "$(urlcache path "https://l.test/$i")"
	done
	urlcache cleanup --pack >/dev/null
	# l1 is the least recent: a hit makes it the most.
	run -0 urlcache get https://l.test/1
	size=$(urlcache list | jq -s '.[0].size')
	run -0 urlcache cleanup -s "$((2 * size))B" --compact
	jq -e '.evicted == 2 and .entries == 2' <<<"$output"
	run -0 urlcache get https://l.test/1 https://l.test/4
	run -1 urlcache get https://l.test/2
	run -1 urlcache get https://l.test/3
	[ "$(urlcache list | jq -s length)" -eq 2 ]
}

@test "a corrupt packed entry is a miss; a pack that does not hold together is no pack" {
	put https://c.test/1 "hello one"
	put https://c.test/2 "hello two"
	urlcache cleanup --pack >/dev/null
	p=$(urlcache path https://c.test/1)
	[ "$(basename "$p")" = pack ]
	python3 - "$p" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
i = b.find(b"hello one")
b[i] = ord("j")
open(p, "wb").write(b)
PY
	run -1 urlcache get https://c.test/1
	jq -e '.error == "not in the cache"' <<<"$output"
	run -0 urlcache cleanup --compact
	jq -e '.entries == 1' <<<"$output"
	# Cut short: its header no longer matches its size.
	p=$(urlcache path https://c.test/2)
	put https://c.test/3
	[ "$(basename "$p")" = pack ] || skip "c.test/2 and /3 share no directory"
	truncate -s -3 "$p"
	run -1 urlcache get https://c.test/2
	run -0 urlcache list --compact
	run -0 urlcache cleanup --compact
	jq -e '.corrupt == 1' <<<"$output"
	[ ! -e "$p" ]
	run -0 urlcache get https://c.test/3
}

@test "a rewrite killed before its rename loses nothing; cleanup removes its temporary file" {
	$S gen 1 300 "$T"
	cat "$T"/w1.*.jsonl | urlcache set
	$S urls 300 >"$T/urls"
	# Each pack written in 4 KiB pieces 0.2 s apart: the kill lands in one.
	URLKIT_TEST_WRITE_DELAY=200000 urlcache cleanup --pack >/dev/null 2>&1 &
	pid=$!
	# Killed once a pack is being written (slower under the sanitizers).
	for ((i = 0; i < 200; i++)); do
		[ -n "$(find "$C" -name '.pack.tmp.*')" ] && break
		sleep 0.05
	done
	kill -KILL "$pid"
	wait "$pid" || true
	[ -n "$(find "$C" -name '.pack.tmp.*')" ]
	run -0 $S get "$T/urls" 0
	jq -e '.hits == 300 and .bad == 0' <<<"$output"
	run -0 urlcache cleanup --pack --compact
	jq -e '.temp >= 1 and .corrupt == 0 and .entries == 300' <<<"$output"
	[ -z "$(find "$C" -name '.pack.tmp.*')" ]
	[ -z "$(find "$C" -name '*.json')" ]
	run -0 $S get "$T/urls" 0
	jq -e '.hits == 300 and .bad == 0' <<<"$output"
}

@test "8 writers, 4 readers and packing cleanups at once lose and tear no entry" {
	secs=4
	$S urls 200 >"$T/urls"
	$S gen 8 200 "$T"
	end=$(($(date +%s) + secs))
	for w in 1 2 3 4 5 6 7 8; do
		(
			while [ "$(date +%s)" -lt "$end" ]; do
				for c in 0 1 2 3; do
					urlcache set <"$T/w$w.$c.jsonl" ||
					    echo "writer $w: exit $?" >>"$T/fail"
				done
			done
		) &
	done
	for r in 1 2 3 4; do
		$S get "$T/urls" "$secs" >"$T/get$r" 2>>"$T/fail" &
	done
	for k in 1 2; do
		(
			while [ "$(date +%s)" -lt "$end" ]; do
				urlcache -q cleanup --pack ||
				    echo "cleanup: exit $?" >>"$T/fail"
			done
		) &
	done
	wait
	if [ -s "$T/fail" ]; then
		cat "$T/fail" >&2
		false
	fi
	cat "$T"/get? >&2
	[ "$(jq -s 'map(.bad) | add' "$T"/get?)" -eq 0 ]
	[ -n "$(find "$C" -name pack)" ]
	# Every URL is there, whole, packed or loose.
	run -0 $S get "$T/urls" 0
	jq -e '.hits == 200 and .bad == 0' <<<"$output"
	run -0 urlcache cleanup --pack --compact
	jq -e '.corrupt == 0 and .entries == 200' <<<"$output"
	run -0 $S get "$T/urls" 0
	jq -e '.hits == 200 and .bad == 0' <<<"$output"
}

@test "clear removes packed entries with the loose ones" {
	put https://x.test/1
	put https://x.test/2
	urlcache cleanup --pack >/dev/null
	put https://x.test/3
	run -0 urlcache clear --compact
	jq -e '.removed == 3' <<<"$output"
	[ -z "$(find "$C" -name pack -o -name '*.json')" ]
	run -1 urlcache get https://x.test/1
}

@test "a cache that cannot be written is left loose: cleanup --pack still succeeds" {
	put https://ro.test/1
	put https://ro.test/2
	chattr -R +i "$C" 2>/dev/null || skip "no chattr here"
	run -0 urlcache cleanup --pack --compact
	jq -e '.packed == null and .entries == 2 and .failed == null' <<<"$output"
	run -0 urlcache get https://ro.test/1 https://ro.test/2
	chattr -R -i "$C"
	[ -z "$(find "$C" -name pack)" ]
}

@test "urlfetch's lookup hits a packed entry, with no request" {
	# .invalid never resolves: only the cache can answer.
	put https://pack.invalid/doc "the cached words"
	urlcache cleanup --pack >/dev/null
	[ "$(basename "$(urlcache path https://pack.invalid/doc)")" = pack ]
	run -0 urlfetch https://pack.invalid/doc
	jq -e '.cached == true and .content == "the cached words"' <<<"$output"
	run -0 urlcache invalidate https://pack.invalid/doc
	run -1 --separate-stderr urlfetch https://pack.invalid/doc
	jq -e '.cached == false and (.error | length > 0)' <<<"$output"
}
