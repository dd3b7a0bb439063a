#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# What changed since last time: content_hash on every content record,
# change new/same/changed against the cache's previous entry, --diff, and
# urlcache get --changed-since.  A loopback server serves $T/site, whose
# page the tests rewrite between runs.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=1
	unset URLKIT_CACHE_TTL URLKIT_CACHE_REMOTE
	mkdir "$T/site"
	printf 'line one\nline two\nline three\n' >"$T/site/p.txt"
	start_server site python3 "$TOP/tests/helpers/page_server.py" "$T/site"
	U="http://127.0.0.1:$site_PORT/p.txt"
}
teardown() { common_teardown; }

# page TEXT: the page's new content, its mtime a minute later than the
# last (the server's Last-Modified has whole seconds).
page() {
	printf '%s' "$1" >"$T/site/p.txt"
	touch -d "@$((${EPOCHSECONDS} + ${2:-60}))" "$T/site/p.txt"
}

# entry URL: the entry file's JSON.
entry() {
	cat "$(urlcache path "$1")"
}

@test "change: new, then same, then changed with -r; content_hash is sha256sum's" {
	run -0 urlfetch "$U"
	[ "$(jq -r .change <<<"$output")" = new ]
	h=$(jq -j .content <<<"$output" | sha256sum | cut -d' ' -f1)
	[ "$(jq -r .content_hash <<<"$output")" = "$h" ]
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = same ]
	[ "$(jq -r .content_hash <<<"$output")" = "$h" ]
	page $'line one\nline 2\nline three\n'
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = changed ]
	h2=$(jq -j .content <<<"$output" | sha256sum | cut -d' ' -f1)
	[ "$h2" != "$h" ]
	[ "$(jq -r .content_hash <<<"$output")" = "$h2" ]
	# No diff unless asked, and the previous version is the cache's.
	[ "$(jq -c '[.diff, .previous]' <<<"$output")" = '[null,null]' ]
	run -0 entry "$U"
	[ "$(jq -r .previous.content_hash <<<"$output")" = "$h" ]
	[ "$(jq -r .previous.content <<<"$output")" = $'line one\nline two\nline three' ]
	[ "$(jq -r .content_hash <<<"$output")" = null ]
	[ "$(jq -r '.changed_at | test("^[0-9-]+T[0-9:.]+Z$")' <<<"$output")" = true ]
	# A get gives the record as it was stored, without the previous
	# version.
	run -0 urlcache get "$U"
	[ "$(jq -c '[.previous, .change, .content, .cached]' <<<"$output")" = '[null,null,"line one\nline 2\nline three\n",true]' ]
	# A hit is no fetch: no change said, the hash all the same.
	run -0 urlfetch "$U"
	[ "$(jq -c '[.cached, .change, .content_hash]' <<<"$output")" = "[true,null,\"$h2\"]" ]
}

@test "change: a same store keeps the older previous and changed_at" {
	run -0 urlfetch "$U"
	page $'v2\n'
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = changed ]
	run -0 entry "$U"
	at=$(jq -r .changed_at <<<"$output")
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = same ]
	run -0 entry "$U"
	[ "$(jq -r .changed_at <<<"$output")" = "$at" ]
	[ "$(jq -r .previous.content <<<"$output")" = $'line one\nline two\nline three' ]
	# The entry's size counts the previous version.
	size=$(stat -c %s "$(urlcache path "$U")")
	[ "$size" -gt "$(jq -c 'del(.previous)' <<<"$output" | wc -c)" ]
}

@test "change: --diff is a unified diff of the text, bounded by --diff-lines" {
	page $'1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n'
	run -0 urlfetch "$U"
	page $'1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n' 120
	run -0 urlfetch -r --diff "$U"
	[ "$(jq -r .change <<<"$output")" = changed ]
	[ "$(jq -r .diff_truncated <<<"$output")" = false ]
	want=$'--- previous\n+++ current\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12'
	[ "$(jq -r .diff <<<"$output")" = "$want" ]
	# diff -u agrees, its file names aside.
	jq -j .previous.content <<<"$(entry "$U")" >"$T/a"
	jq -j .content <<<"$output" >"$T/b"
	run -1 diff -u "$T/a" "$T/b"
	[ "$(tail -n +3 <<<"$output")" = "$(tail -n +3 <<<"$want")" ]
	page $'1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n' 180
	run -0 urlfetch -r --diff-lines 6 "$U"
	[ "$(jq -r .diff_truncated <<<"$output")" = true ]
	[ "$(jq -j .diff <<<"$output" | wc -l)" -eq 6 ]
	# The same page again: no diff.
	run -0 urlfetch -r --diff "$U"
	[ "$(jq -c '[.change, .diff, .diff_truncated]' <<<"$output")" = '["same",null,null]' ]
}

@test "change: a diff past the bound is diff_too_large, at once" {
	seq -f 'old %g' 3000 >"$T/site/p.txt"
	run -0 urlfetch "$U"
	page "$(seq -f 'new %g' 3000)"
	SECONDS=0
	run -0 urlfetch -r --diff "$U"
	[ "$SECONDS" -lt 10 ]
	[ "$(jq -c '[.change, .diff, .diff_too_large]' <<<"$output")" = '["changed",null,true]' ]
}

@test "change: an expired entry fetched again; a 304 is the same" {
	run -0 urlfetch "$U"
	h=$(jq -r .content_hash <<<"$output")
	# Expired (the entry's clock is its mtime); the page as it was: the
	# revalidation's 304 keeps the entry.
	touch -d yesterday "$(urlcache path "$U")"
	run -0 urlfetch "$U"
	[ "$(jq -c '[.revalidated, .change, .content_hash]' <<<"$output")" = "[true,\"same\",\"$h\"]" ]
	# Expired again, and the page changed since: a 200, changed.
	touch -d yesterday "$(urlcache path "$U")"
	page $'another text\n'
	run -0 urlfetch --diff "$U"
	[ "$(jq -c '[.revalidated, .change]' <<<"$output")" = '[null,"changed"]' ]
	[ "$(jq -r .diff <<<"$output")" = $'--- previous\n+++ current\n@@ -1,3 +1 @@\n-line one\n-line two\n-line three\n+another text' ]
	# The 304 after that: same, and the previous version kept.
	touch -d yesterday "$(urlcache path "$U")"
	run -0 urlfetch "$U"
	[ "$(jq -c '[.revalidated, .change]' <<<"$output")" = '[true,"same"]' ]
	run -0 entry "$U"
	[ "$(jq -r .previous.content_hash <<<"$output")" = "$h" ]
}

@test "change: urlcache get --changed-since, with times before and after" {
	V="http://127.0.0.1:$site_PORT/q.txt"
	printf 'q\n' >"$T/site/q.txt"
	run -0 urlfetch "$U" "$V"
	# Stored once: new, not changed.
	run -0 urlcache get --changed-since 2000-01-01T00:00:00Z
	[ -z "$output" ]
	before=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
	page $'changed\n'
	run -0 urlfetch -r "$U" "$V"
	after=$(date -u +%Y-%m-%dT%H:%M:%SZ -d '+1 second')
	run -0 urlcache get --changed-since "$before"
	[ "$(jq -c '[.url, .change, .cached, .previous]' <<<"$output")" = "[\"$U\",null,true,null]" ]
	[ "$(jq -r .content <<<"$output")" = changed ]
	[ "$(jq -r .content_hash <<<"$output")" = "$(printf 'changed\n' | sha256sum | cut -d' ' -f1)" ]
	run -0 urlcache get --changed-since 1h
	[ "$(jq -r .url <<<"$output")" = "$U" ]
	run -0 urlcache get --changed-since "$after"
	[ -z "$output" ]
	# Expired entries too, so marked.
	touch -d '2 days ago' "$(urlcache path "$U")"
	run -0 urlcache get --changed-since "$before"
	[ "$(jq -c '[.url, .expired]' <<<"$output")" = "[\"$U\",true]" ]
	# The one-line form of cron's use.
	run -0 bash -c "urlcache get --changed-since 1d | jq -r .url"
	[ "$output" = "$U" ]
}

@test "change: an entry in the format before these fields still reads" {
	run -0 urlcache path "$U"
	f=$output
	mkdir -p "${f%/*}"
	printf '{"url":"%s","url_type":"web","fetched_at":"2026-12-01T10:00:00.000Z","content":"line one\\nline two\\nline three\\n","http":{"status":200,"content_type":"text/plain"},"cached_at":"2026-12-01T10:00:00.000Z"}\n' "$U" >"$f"
	run -0 urlcache get "$U"
	[ "$(jq -r .content_hash <<<"$output")" = null ]
	[ "$(jq -r .content <<<"$output")" = $'line one\nline two\nline three' ]
	# Compared by its content's hash all the same.
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = same ]
	page $'new\n'
	run -0 urlfetch -r "$U"
	[ "$(jq -r .change <<<"$output")" = changed ]
	run -0 entry "$U"
	[ "$(jq -r .previous.content_hash <<<"$output")" = "$(printf 'line one\nline two\nline three\n' | sha256sum | cut -d' ' -f1)" ]
}

@test "change: content_hash without the cache, of a slice, and in urlextract" {
	run -0 urlfetch -C "$U"
	[ "$(jq -c '[.change, .content_hash]' <<<"$output")" = "[null,\"$(printf 'line one\nline two\nline three\n' | sha256sum | cut -d' ' -f1)\"]" ]
	seq -f 'a line of the long page, number %g' 2000 >"$T/site/p.txt"
	run -0 urlfetch -C --max-tokens 100 "$U"
	[ "$(jq -r .next_offset <<<"$output")" != null ]
	[ "$(jq -r .content_hash <<<"$output")" = "$(jq -j .content <<<"$output" | sha256sum | cut -d' ' -f1)" ]
	printf '<html><head><title>T</title></head><body><p>%s</p></body></html>\n' \
	    "A paragraph long enough to be the main text of this small page." >"$T/p.html"
	run -0 urlextract "$T/p.html"
	[ "$(jq -r .content_hash <<<"$output")" = "$(jq -j .content <<<"$output" | sha256sum | cut -d' ' -f1)" ]
}

@test "change: usage errors" {
	run -2 --separate-stderr urlfetch -C --diff "$U"
	[[ $stderr == *"--diff: a diff against the cache's entry; not with -C"* ]]
	run -2 --separate-stderr urlfetch --diff-lines 2 "$U"
	[[ $stderr == *"--diff-lines: not a count from 3 to 1000000: '2'"* ]]
	run -2 --separate-stderr urlcache get --changed-since yesterday
	[[ $stderr == *"--changed-since: not an RFC 3339 time"* ]]
	run -2 --separate-stderr urlcache get --changed-since 1d "$U"
	[[ $stderr == *"--changed-since: lists the whole cache"* ]]
}

@test "change: no get writes the previous version, wherever it sits in the entry" {
	V=https://example.com/x
	f=$(urlcache path "$V")
	mkdir -p "${f%/*}"
	for e in \
	    '{"previous":{"content":"a}\"{","n":[1,{"x":2}]},"url":"V","content":"c"}' \
	    '{"url":"V","previous":"s","content":"c"}' \
	    '{"url":"V","content":"c","previous":{"a":[1,2,{"b":"}"}]}}' \
	    '{"url":"V", "previous" : 5 ,"content":"c"}' \
	    '{"url":"V","previous":1,"previous":2,"content":"c"}' \
	    '{"url":"V","content":"c","previous":null}' \
	    '{"url":"V","pre\u0076ious":{},"content":"c"}' \
	    $'{\n  "url": "V",\n  "previous": {"content": "p"},\n  "content": "c"\n}'; do
		printf '%s\n' "${e//\"V\"/\"$V\"}" >"$f"
		run -0 urlcache get "$V"
		[ "$output" = "{\"url\":\"$V\",\"content\":\"c\",\"cached\":true}" ]
		run -0 urlfetch "$V"
		[ "$(jq -c '[.previous, .content]' <<<"$output")" = '[null,"c"]' ]
	done
	# A summary added after the previous version: both kept in the
	# entry, the summary written.
	printf '%s\n' "{\"url\":\"$V\",\"content\":\"c\",\"previous\":{\"content\":\"p\"},\"summary\":\"s\"}" >"$f"
	run -0 urlcache get "$V"
	[ "$output" = "{\"url\":\"$V\",\"content\":\"c\",\"summary\":\"s\",\"cached\":true}" ]
}

@test "change: urlcache set --pass says what the store found" {
	V=https://example.com/s
	r1="{\"url\":\"$V\",\"content\":\"one\"}"
	r2="{\"url\":\"$V\",\"content\":\"two\"}"
	run -0 urlcache set --pass <<<"$r1"
	[ "$(jq -c '[.change, .content_hash]' <<<"$output")" = "[\"new\",\"$(printf one | sha256sum | cut -d' ' -f1)\"]" ]
	run -0 urlcache set --pass <<<"$r1"
	[ "$(jq -r .change <<<"$output")" = same ]
	run -0 urlcache set --pass <<<"$r2"
	[ "$(jq -r .change <<<"$output")" = changed ]
	run -0 urlcache set <<<"$r1"
	run -0 entry "$V"
	[ "$(jq -c '[.content, .previous.content, .change]' <<<"$output")" = '["one","two",null]' ]
}

@test "change: pwfetch's records have content_hash" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] ||
	    skip "chromium is not installed"
	mkdir "$T/tmp"
	printf '<html><head><title>T</title></head><body><p>%s</p></body></html>\n' \
	    "A paragraph long enough to be the main text of this small page." >"$T/site/p.html"
	TMPDIR="$T/tmp" run -0 pwfetch fetch "http://127.0.0.1:$site_PORT/p.html"
	[ "$(jq -r .content <<<"$output")" = "A paragraph long enough to be the main text of this small page." ]
	[ "$(jq -r .content_hash <<<"$output")" = "$(jq -j .content <<<"$output" | sha256sum | cut -d' ' -f1)" ]
}
