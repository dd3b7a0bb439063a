#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The cache's remote stores (urlcache(1), REMOTE STORAGE) against a real
# redis-server on 127.0.0.1: entries shared between processes with
# separate cache directories, a store that dies or never answers, a
# corrupt entry, read-only and remote-only stores, expiry on both sides.
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

# rec URL [CONTENT]: a content record.
rec() {
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$1" "${2:-content of $1}"
}

# files DIR: how many entry files the cache directory DIR holds.
files() {
	if [ -d "$1" ]; then
		find "$1" -name '*.json' -type f | wc -l
	else
		echo 0
	fi
}

@test "two processes with separate cache directories share entries through Redis" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	URLKIT_CACHE_DIR=$T/c1 run -0 urlfetch <<<"$B/article.html?r=1"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?r=1')" = 1 ]
	[ "$(rcli dbsize)" = 1 ]
	# Another directory: served from the store, no request, and kept
	# locally.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlfetch <<<"$B/article.html?r=1"
	[ "$(field "$output" .cached)" = true ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(requests '/article.html?r=1')" = 1 ]
	[ "$(files "$T/c2")" = 1 ]
	# The same through urlcache, and --cache-remote in place of the
	# environment.
	unset URLKIT_CACHE_REMOTE
	rec https://r.test/a hello |
	    URLKIT_CACHE_DIR=$T/c3 urlcache --cache-remote "redis://127.0.0.1:$REDIS_PORT" set
	URLKIT_CACHE_DIR=$T/c4 run -0 urlcache \
	    --cache-remote "redis://127.0.0.1:$REDIS_PORT" get https://r.test/a
	[ "$(field "$output" .content)" = hello ]
	[ "$(field "$output" .cached)" = true ]
	# Without the store, c5 has nothing.
	URLKIT_CACHE_DIR=$T/c5 run -1 urlcache get https://r.test/a
}

@test "invalidate deletes the entry in the store too" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://r.test/i | URLKIT_CACHE_DIR=$T/c1 urlcache set
	[ "$(rcli dbsize)" = 1 ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache invalidate https://r.test/i
	[ "$(field "$output" .found)" = true ]
	[ "$(rcli dbsize)" = 0 ]
	URLKIT_CACHE_DIR=$T/c3 run -1 urlcache get https://r.test/i
}

@test "the store killed mid-run: every record written, the store skipped with one warning, exit 0" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	local line out=() i
	local pid rc
	coproc UF { urlfetch 2>"$T/err"; }
	pid=$UF_PID
	echo "$B/article.html?k=1" >&"${UF[1]}"
	read -r -t 30 line <&"${UF[0]}"
	out+=("$line")
	[ "$(rcli dbsize)" = 1 ]
	redis_stop
	for i in 2 3 4 5; do
		echo "$B/article.html?k=$i" >&"${UF[1]}"
		read -r -t 30 line <&"${UF[0]}"
		out+=("$line")
	done
	exec {UF[1]}>&-
	wait "$pid" && rc=0 || rc=$?
	[ "$rc" -eq 0 ]
	[ "${#out[@]}" -eq 5 ]
	for line in "${out[@]}"; do
		[ "$(field "$line" .error)" = null ]
		[ "$(field "$line" .title)" = "The Quiet Harbour" ]
	done
	# One warning, naming the store, however many records followed.
	[ "$(grep -c "cache remote 'redis://127.0.0.1:$REDIS_PORT': 3 errors in a row" "$T/err")" = 1 ]
	# The local cache has them all.
	[ "$(files "$URLKIT_CACHE_DIR")" = 5 ]
}

@test "a store that accepts and never answers costs its timeout, not the run" {
	start_server silent python3 "$BATS_TEST_DIRNAME/helpers/pw_silent.py"
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$silent_PORT"
	local t0=$SECONDS
	run -0 --separate-stderr urlfetch <<<"$B/article.html?s=1"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(field "$output" .cached)" = false ]
	# A get and a set, one second each (the default timeout).
	[ $((SECONDS - t0)) -le 6 ]
	# Four misses: three errors, then the store is skipped; exit 1 as
	# without a store.
	t0=$SECONDS
	run -1 --separate-stderr urlcache get https://n.test/1 https://n.test/2 \
	    https://n.test/3 https://n.test/4
	[ "$(jq -s 'map(select(.cached == false)) | length' <<<"$output")" = 4 ]
	[ $((SECONDS - t0)) -le 6 ]
	[[ $stderr == *"3 errors in a row"*"timed out"* ]] ||
	    [[ $stderr == *"3 errors in a row"*"temporarily unavailable"* ]]
	# operation-timeout shortens it.
	t0=$SECONDS
	URLKIT_CACHE_REMOTE="redis://127.0.0.1:$silent_PORT|operation-timeout=100" \
	    run -1 --separate-stderr urlcache get https://n.test/1 https://n.test/2 \
	    https://n.test/3
	[ $((SECONDS - t0)) -le 2 ]
}

@test "a corrupt entry in the store is ignored, never served" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://r.test/c hello | URLKIT_CACHE_DIR=$T/c1 urlcache set
	local k
	k=$(rcli --raw keys 'urlkit:*')
	[ -n "$k" ]
	# One byte changed in the content: still a valid record, but its
	# sum no longer matches.
	rcli --raw get "$k" | sed 's/hello/jello/' | head -c -1 >"$T/v"
	rcli -x set "$k" <"$T/v"
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache get https://r.test/c
	[ "$(field "$output" .cached)" = false ]
	[ "$(files "$T/c2")" = 0 ]
	# Cut short, and not ours at all.
	rcli set "$k" 'urlkit-entry 1 0123456789abcdef 999'
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache get https://r.test/c
	rcli set "$k" '{"url":"https://r.test/c","content":"x"}'
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache get https://r.test/c
	[ "$(files "$T/c2")" = 0 ]
}

@test "a read-only store is read, never written or deleted" {
	redis_start
	local rw="redis://127.0.0.1:$REDIS_PORT"
	rec https://r.test/o | URLKIT_CACHE_DIR=$T/c1 \
	    URLKIT_CACHE_REMOTE="$rw|read-only" urlcache set
	[ "$(rcli dbsize)" = 0 ]
	rec https://r.test/w | URLKIT_CACHE_DIR=$T/c1 \
	    URLKIT_CACHE_REMOTE="$rw" urlcache set
	[ "$(rcli dbsize)" = 1 ]
	export URLKIT_CACHE_REMOTE="$rw|read-only=true"
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache get https://r.test/w
	[ "$(field "$output" .cached)" = true ]
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache invalidate https://r.test/w
	[ "$(field "$output" .found)" = false ]
	[ "$(rcli dbsize)" = 1 ]
}

@test "a remote-only store keeps entries out of the cache directory" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT|remote-only"
	rec https://r.test/m hi | URLKIT_CACHE_DIR=$T/c1 urlcache set
	[ "$(files "$T/c1")" = 0 ]
	[ "$(rcli dbsize)" = 1 ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache get https://r.test/m
	[ "$(field "$output" .content)" = hi ]
	[ "$(files "$T/c2")" = 0 ]
}

@test "the TTL is the store's expiry, and a copy from the store expires with it" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://r.test/t | URLKIT_CACHE_DIR=$T/c1 urlcache --ttl 4 set
	local ms
	ms=$(rcli pttl "urlkit:$(URLKIT_CACHE_DIR=$T/c1 urlcache path https://r.test/t | sed 's|.*/||; s|\.json$||')")
	[ "$ms" -gt 2000 ] && [ "$ms" -le 4000 ]
	sleep 2
	# Copied into c2 two seconds into its life...
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache --ttl 4 get https://r.test/t
	[ "$(files "$T/c2")" = 1 ]
	sleep 2.3
	# ...and gone from both two seconds later, not four.
	[ "$(rcli dbsize)" = 0 ]
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache --ttl 4 get https://r.test/t
	# A record's own expires_at, when sooner, is the store's expiry.
	printf '{"url":"https://r.test/x","content":"c","expires_at":"%s"}\n' \
	    "$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%S.000Z)" |
	    URLKIT_CACHE_DIR=$T/c1 urlcache set
	ms=$(rcli pttl "$(rcli --raw keys 'urlkit:*')")
	[ "$ms" -gt 0 ] && [ "$ms" -le 4000 ]
}

@test "a password from a file, and never in a message" {
	REDIS_AUTH=s3cret-word
	redis_start --requirepass "$REDIS_AUTH"
	printf '%s\n' "$REDIS_AUTH" >"$T/pw"
	URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT|password-file=$T/pw" \
	    URLKIT_CACHE_DIR=$T/c1 run -0 urlcache set <<<"$(rec https://r.test/p)"
	[ "$(rcli dbsize)" = 1 ]
	URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT|password-file=$T/pw" \
	    URLKIT_CACHE_DIR=$T/c2 run -0 urlcache get https://r.test/p
	# A wrong one: misses, one warning, the password not in it.
	URLKIT_CACHE_REMOTE="redis://:wrong-word@127.0.0.1:$REDIS_PORT" \
	    URLKIT_CACHE_DIR=$T/c3 run -1 --separate-stderr urlcache get \
	    https://r.test/p https://r.test/q https://r.test/r
	[[ $stderr == *"'redis://:***@127.0.0.1:$REDIS_PORT': 3 errors in a row"* ]]
	[[ $stderr != *wrong-word* ]]
}

@test "a bad store is a usage error" {
	run -2 --separate-stderr urlcache --cache-remote 'redis://127.0.0.1:1|bogus' get https://r.test/
	[[ $stderr == *"unknown attribute 'bogus'"* ]]
	run -2 --separate-stderr urlcache --cache-remote 'ftp://127.0.0.1/' get https://r.test/
	[[ $stderr == *"not a store URL"* ]]
	run -2 --separate-stderr urlcache --cache-remote 'redis://127.0.0.1:99999' get https://r.test/
	URLKIT_CACHE_REMOTE='redis://127.0.0.1:1|connect-timeout=x' \
	    run -2 --separate-stderr urlcache get https://r.test/
	run -2 --separate-stderr urlfetch --cache-remote 'redis://127.0.0.1:1|bogus' https://r.test/
	[[ $stderr == *"--cache-remote: cache remote"*"unknown attribute 'bogus'"* ]]
}

@test "a bad URLKIT_CACHE_REMOTE is a usage error in every program that reads it" {
	local p
	printf '{"url":"https://r.test/u","url_type":"web","content":"c"}\n' \
	    >"$T/rec.json"
	export URLKIT_CACHE_REMOTE='ftp://127.0.0.1/'
	# Exit 2 before any work, one line naming the variable and the fault.
	run -2 --separate-stderr urlfetch "$B/article.html?bad=1"
	[ "$output" = "" ]
	[ "$stderr" = "urlfetch: URLKIT_CACHE_REMOTE: cache remote 'ftp://127.0.0.1/': not a store URL (redis://, http://, https://)" ]
	[ "$(requests '/article.html?bad=1')" = 0 ]
	run -2 --separate-stderr urlsum --offline "$T/rec.json"
	[ "$output" = "" ]
	[ "$stderr" = "urlsum: URLKIT_CACHE_REMOTE: cache remote 'ftp://127.0.0.1/': not a store URL (redis://, http://, https://)" ]
	run -2 --separate-stderr urlcache get https://r.test/u
	[ "$stderr" = "urlcache get: URLKIT_CACHE_REMOTE: cache remote 'ftp://127.0.0.1/': not a store URL (redis://, http://, https://)" ]
	# A bad attribute, in each.
	export URLKIT_CACHE_REMOTE='redis://127.0.0.1:1|connect-timeout=x'
	for p in urlfetch urlsum urlcache; do
		case $p in
		urlfetch) run -2 --separate-stderr urlfetch "$B/article.html?bad=2" ;;
		urlsum) run -2 --separate-stderr urlsum --offline "$T/rec.json" ;;
		urlcache) run -2 --separate-stderr urlcache get https://r.test/u ;;
		esac
		[ "${#lines[@]}" -eq 0 ]
		[[ $stderr == "$p"*": URLKIT_CACHE_REMOTE: "*"connect-timeout"* ]]
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	done
	# Without the cache the variable is not read: no error.
	run -0 --separate-stderr urlsum --offline -C "$T/rec.json"
	[ "$(field "$output" .summary_backend)" = offline ]
}

@test "urlsum --cache-remote: a summary kept in the store is served" {
	redis_start
	local s="redis://127.0.0.1:$REDIS_PORT"
	printf '{"url":"https://r.test/s","url_type":"web","title":"T","content":"Words about a harbour.","summary":"kept summary","summary_type":"BRIEF"}\n' |
	    URLKIT_CACHE_DIR=$T/c1 urlcache --cache-remote "$s" set
	[ "$(rcli dbsize)" = 1 ]
	printf '{"url":"https://r.test/s","url_type":"web","title":"T","content":"Words about a harbour."}\n' \
	    >"$T/rec.json"
	# Another directory: the summary comes from the store.
	URLKIT_CACHE_DIR=$T/c2 run -0 --separate-stderr urlsum --compact \
	    --offline --cache-remote "$s" "$T/rec.json"
	[ "$(field "$output" .summary)" = "kept summary" ]
	[ "$(field "$output" .summary_backend)" = cache ]
	# Without it, a third directory has none: the offline summary.
	URLKIT_CACHE_DIR=$T/c3 run -0 --separate-stderr urlsum --compact \
	    --offline "$T/rec.json"
	[ "$(field "$output" .summary_backend)" = offline ]
	# A bad store is a usage error, as in urlfetch and urlcache.
	run -2 --separate-stderr urlsum --cache-remote 'redis://127.0.0.1:1|bogus' \
	    "$T/rec.json"
	[[ $stderr == *"--cache-remote: cache remote"*"unknown attribute 'bogus'"* ]]
}

@test "clear empties the stores only with --remote, never a read-only one" {
	redis_start
	local rw="redis://127.0.0.1:$REDIS_PORT"
	# Two databases of one server: one writable, one read-only.
	local ro="redis://127.0.0.1:$REDIS_PORT/1|read-only"
	rec https://r.test/1 | URLKIT_CACHE_DIR=$T/c1 urlcache --cache-remote "$rw" set
	rec https://r.test/2 | URLKIT_CACHE_DIR=$T/c1 urlcache --cache-remote "$rw" set
	rec https://r.test/3 | URLKIT_CACHE_DIR=$T/c1 \
	    urlcache --cache-remote "redis://127.0.0.1:$REDIS_PORT/1" set
	# Someone else's keys in the same database stay.
	rcli set other:key v >/dev/null
	rcli set urlkit:short v >/dev/null
	[ "$(rcli dbsize)" = 4 ]
	[ "$(rcli -n 1 dbsize)" = 1 ]
	# Without --remote: the directory only, as ever, and no "remote".
	URLKIT_CACHE_DIR=$T/c1 run -0 --separate-stderr urlcache \
	    --cache-remote "$rw $ro" clear --compact
	[ "$output" = '{"removed":3}' ]
	[ "$(rcli dbsize)" = 4 ]
	# The entries are still served from the store.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache --cache-remote "$rw" get \
	    https://r.test/1
	# With --remote: urlkit's keys in the writable store, the read-only
	# one left alone and said so.
	URLKIT_CACHE_DIR=$T/c2 run -0 --separate-stderr urlcache \
	    --cache-remote "$rw $ro" clear --remote --compact
	[ "$(jq -c .remote <<<"$output")" = "[{\"store\":\"$rw\",\"removed\":2},{\"store\":\"redis://127.0.0.1:$REDIS_PORT/1\",\"left\":\"read-only: left alone\"}]" ]
	[ "$(field "$output" .removed)" = 1 ]
	[ "$(rcli dbsize)" = 2 ]
	[ "$(rcli get other:key)" = v ]
	[ "$(rcli -n 1 dbsize)" = 1 ]
	URLKIT_CACHE_DIR=$T/c3 run -1 urlcache --cache-remote "$rw" get \
	    https://r.test/1
	# A store that fails: an error in its object, exit 1.
	redis_stop
	URLKIT_CACHE_DIR=$T/c3 run -1 --separate-stderr urlcache \
	    --cache-remote "$rw" clear --remote --compact
	[ "$(jq -r '.remote[0].error' <<<"$output")" != null ]
	[[ $stderr == *"cache remote '$rw': connect:"* ]]
	# --remote with no store is a usage error.
	run -2 --separate-stderr urlcache clear --remote
	[[ $stderr == *"--remote: no remote store"* ]]
}

@test "8 writers and 8 readers on one key through Redis: every read whole" {
	redis_start
	# remote-only: no reader keeps a local copy, so every read is the
	# store's.
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT|remote-only"
	local big i j pids=() bad=0
	big=$(printf '%020000d' 0)
	rec https://r.test/one "w0-$big" | URLKIT_CACHE_DIR=$T/w0 urlcache set
	for i in 1 2 3 4 5 6 7 8; do
		(for j in 1 2 3 4 5 6 7 8 9 10; do
			rec https://r.test/one "w$i-$j-$big" |
			    URLKIT_CACHE_DIR=$T/w$i urlcache set
		done) &
		pids+=($!)
		(for j in 1 2 3 4 5 6 7 8 9 10; do
			URLKIT_CACHE_DIR=$T/r$i urlcache get https://r.test/one ||
			    echo "{\"miss\":$i}"
		done >"$T/read.$i") &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i" || bad=1; done
	[ "$bad" -eq 0 ]
	run -0 jq -s 'length' "$T"/read.*
	[ "$output" -eq 80 ]
	# Each read is one writer's whole record: its prefix, then all
	# 20000 digits.
	run -0 jq -s '[.[] | select(.cached != true or
	    (.content | test("^w[0-9]+(-[0-9]+)?-0{20000}$") | not))] | length' \
	    "$T"/read.*
	[ "$output" -eq 0 ]
	run -0 urlcache stats --compact
}

@test "clear --remote deletes thousands of entries in batches" {
	redis_start
	local i
	# 2500 names of urlkit's form, more than one SCAN reply or DEL batch.
	for ((i = 0; i < 2500; i++)); do
		printf 'SET urlkit:%016x v\r\n' "$i"
	done | rcli --pipe >/dev/null
	[ "$(rcli dbsize)" = 2500 ]
	run -0 --separate-stderr urlcache \
	    --cache-remote "redis://127.0.0.1:$REDIS_PORT" clear --remote --compact
	[ "$(jq '.remote[0].removed' <<<"$output")" = 2500 ]
	[ "$(rcli dbsize)" = 0 ]
}
