#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch --robots (lib/robots.h's uk_robots_may_fetch): the robots.txt
# of each origin, fetched once and judged as RFC 9309 says, against a
# loopback site (tests/helpers/map_server.py) whose requests are logged.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_CACHE_REMOTE URLKIT_CACHE_TTL
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	mkdir "$T/site"
	printf '<html><head><title>Page</title></head><body><article><h1>Page</h1><p>The text of a page, long enough to be the main text of it.</p></article></body></html>' >"$T/site/p.html"
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}
teardown() { common_teardown; }

# fetched URL...: urlfetch --robots -q on the URLs; prints "url error"
# for each record ("ok" when it has none).
fetched() {
	local st=0
	urlfetch --robots -q "$@" >"$T/out" 2>"$T/err" || st=$?
	jq -r '"\(.url) \(.error // "ok")"' <"$T/out"
	return $st
}

# robots_requests: how many times /robots.txt was asked for.
robots_requests() {
	grep -c ' /robots.txt$' "$T/site/_requests.log" || :
}

@test "--robots: urlkit's group, else *'s; the longest rule wins, Allow on a tie" {
	printf 'User-agent: *\nDisallow: /\n\nUser-agent: urlkit\nDisallow: /a\nAllow: /a/open\nDisallow: /t\nAllow: /t\nDisallow: /*.pdf$\n' >"$T/site/robots.txt"
	for f in a/x.html a/open/y.html t/z.html b/w.html doc.pdf.html; do
		mkdir -p "$(dirname "$T/site/$f")"
		cp "$T/site/p.html" "$T/site/$f"
	done
	run -1 fetched "$B/a/x.html" "$B/a/open/y.html" "$B/t/z.html" "$B/b/w.html" "$B/doc.pdf" "$B/doc.pdf.html"
	[ "$status" -eq 1 ]
	[ "$output" = "$B/a/x.html robots.txt forbids it: $B/robots.txt disallows /a/x.html for urlkit
$B/a/open/y.html ok
$B/t/z.html ok
$B/b/w.html ok
$B/doc.pdf robots.txt forbids it: $B/robots.txt disallows /doc.pdf for urlkit
$B/doc.pdf.html ok" ]
	# One robots.txt request for the six; the refused pages never asked.
	[ "$(robots_requests)" -eq 1 ]
	[ "$(grep -c ' /a/x.html$' "$T/site/_requests.log")" -eq 0 ]
	[ "$(grep -c ' /doc.pdf$' "$T/site/_requests.log")" -eq 0 ]
	# The error on stderr too, naming the URL.
	grep -q "'$B/a/x.html': robots.txt forbids it" "$T/err"
	# Without --robots, robots.txt is neither read nor honoured.
	run -0 urlfetch -q -r "$B/a/x.html"
	[ "$status" -eq 0 ]
	[ "$(robots_requests)" -eq 1 ]
	# Only *'s group: its rules.
	printf 'User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /b\n' >"$T/site/robots.txt"
	run -1 fetched -C "$B/b/w.html" "$B/a/x.html"
	[ "$status" -eq 1 ]
	[ "$output" = "$B/b/w.html robots.txt forbids it: $B/robots.txt disallows /b/w.html for urlkit
$B/a/x.html ok" ]
}

@test "--robots: a 4xx robots.txt allows all, a 5xx disallows all" {
	printf '{"/robots.txt": {"status": 404, "body": "no"}}' >"$T/site/_routes.json"
	run -0 fetched -C "$B/p.html"
	[ "$output" = "$B/p.html ok" ]
	printf '{"/robots.txt": {"status": 403, "body": "no"}}' >"$T/site/_routes.json"
	run -0 fetched -C "$B/p.html"
	[ "$output" = "$B/p.html ok" ]
	printf '{"/robots.txt": {"status": 503, "body": "down"}}' >"$T/site/_routes.json"
	run -1 fetched -C "$B/p.html"
	[ "$status" -eq 1 ]
	[ "$output" = "$B/p.html robots.txt forbids it: $B/robots.txt could not be read (it answered HTTP 503), which RFC 9309 takes as disallowing all" ]
	[ "$(grep -c ' /p.html$' "$T/site/_requests.log")" -eq 2 ]
	# A 5xx is not kept in the cache: asked again next time.
	run -1 fetched "$B/p.html"
	[ "$status" -eq 1 ]
	run -1 fetched "$B/p.html"
	[ "$status" -eq 1 ]
	[ "$(robots_requests)" -eq 5 ]
}

@test "--robots: an unreachable or silent robots.txt disallows, within -t" {
	printf '{"/robots.txt": {"delay": 6, "body": "User-agent: *\\nAllow: /\\n"}}' >"$T/site/_routes.json"
	local t0=$SECONDS
	run -1 fetched -C -t 1 "$B/p.html"
	[ "$status" -eq 1 ]
	[ $((SECONDS - t0)) -lt 4 ]
	[[ $output == "$B/p.html robots.txt forbids it: $B/robots.txt could not be read ("*"timed out"*"), which RFC 9309 takes as disallowing all" ]]
	[ "$(grep -c ' /p.html$' "$T/site/_requests.log")" -eq 0 ]
	# Nothing listening: refused as well.
	kill "$(cat "$T/S.pid")"
	wait "$(cat "$T/S.pid")" 2>/dev/null || :
	run -1 fetched -C "$B/p.html"
	[ "$status" -eq 1 ]
	[[ $output == "$B/p.html robots.txt forbids it: $B/robots.txt could not be read ("*"), which RFC 9309 takes as disallowing all" ]]
}

@test "--robots: a huge robots.txt is read to 512 KiB, the rest ignored" {
	{
		printf 'User-agent: *\nDisallow: /early\n'
		# 1 MiB of comment lines, then a rule past the limit.
		head -c 1048576 /dev/zero | tr '\0' '#' | fold -w 63
		printf '\nDisallow: /late\n'
	} >"$T/site/robots.txt"
	cp "$T/site/p.html" "$T/site/early.html"
	cp "$T/site/p.html" "$T/site/late.html"
	run -1 fetched "$B/early.html" "$B/late.html"
	[ "$status" -eq 1 ]
	[ "$output" = "$B/early.html robots.txt forbids it: $B/robots.txt disallows /early.html for urlkit
$B/late.html ok" ]
	[ "$(robots_requests)" -eq 1 ]
}

@test "--robots: redirects followed up to 5; more allow all" {
	printf 'User-agent: *\nDisallow: /p.html\n' >"$T/site/moved.txt"
	printf '{"/robots.txt": {"status": 301, "location": "/moved.txt"}}' >"$T/site/_routes.json"
	run -1 fetched "$B/p.html"
	[ "$output" = "$B/p.html robots.txt forbids it: $B/robots.txt disallows /p.html for urlkit" ]
	# Six redirects: RFC 9309 lets a crawler take it as unavailable.
	printf '{"/robots.txt": {"status": 302, "location": "/r1"}, "/r1": {"status": 302, "location": "/r2"}, "/r2": {"status": 302, "location": "/r3"}, "/r3": {"status": 302, "location": "/r4"}, "/r4": {"status": 302, "location": "/r5"}, "/r5": {"status": 302, "location": "/moved.txt"}}' >"$T/site/_routes.json"
	run -0 fetched -C "$B/p.html"
	[ "$output" = "$B/p.html ok" ]
	[ "$(grep -c ' /moved.txt$' "$T/site/_requests.log")" -eq 1 ]
}

@test "--robots: kept per origin in the process and in the cache, with its TTL" {
	printf 'User-agent: *\nDisallow: /no\n' >"$T/site/robots.txt"
	run -1 fetched "$B/p.html" "$B/no" "$B/p.html?2" "$B/no?3"
	[ "$(robots_requests)" -eq 1 ]
	# Another process: the cache's copy.
	run -1 fetched "$B/no?4"
	[ "$status" -eq 1 ]
	[ "$(robots_requests)" -eq 1 ]
	# Past the TTL, -r or -C: asked again.
	URLKIT_CACHE_TTL=0 run -1 fetched "$B/no?5"
	[ "$(robots_requests)" -eq 2 ]
	run -1 fetched -r "$B/no?6"
	[ "$(robots_requests)" -eq 3 ]
	run -1 fetched -C "$B/no?7"
	[ "$(robots_requests)" -eq 4 ]
	# Another port is another origin.
	start_server S2 python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	run -1 fetched "http://127.0.0.1:$S2_PORT/no"
	[ "$(robots_requests)" -eq 5 ]
}

@test "--robots: a refused address gets the guard's error, and its robots.txt is never asked" {
	printf 'User-agent: *\nDisallow: /\n' >"$T/site/robots.txt"
	run -1 fetched "http://127.0.0.2:$S_PORT/p.html"
	[ "$status" -eq 1 ]
	[[ $output == "http://127.0.0.2:$S_PORT/p.html "*"private address"* ]]
	[ ! -e "$T/site/_requests.log" ]
}

@test "--robots: a GitHub URL, read through the API and raw files, is not checked" {
	start_server F python3 "$TOP/tests/helpers/fetch_server.py"
	export URLKIT_GITHUB_URL="http://127.0.0.1:$F_PORT/gh"
	export URLKIT_GITHUB_RAW_URL="http://127.0.0.1:$F_PORT/raw"
	export URLKIT_GITHUB_API_URL="http://127.0.0.1:$F_PORT/api"
	# Nothing leaves the machine: https goes to a proxy that is not there.
	export https_proxy=http://127.0.0.1:1
	run -0 fetched "https://github.com/octo/demo/blob/main/README.md"
	[ "$output" = "https://github.com/octo/demo/blob/main/README.md ok" ]
	[ "$(curl -s "http://127.0.0.1:$F_PORT/_count/robots.txt")" = 0 ]
}
