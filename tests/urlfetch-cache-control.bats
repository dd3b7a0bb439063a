#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch's cache and the response's Cache-Control and Expires (issue 15,
# item 16): no-store and private are not cached; max-age, s-maxage and
# Expires shorten an entry's life below the TTL.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_CACHE_TTL
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	start_server H python3 "$TOP/tests/helpers/header_server.py"
	B="http://127.0.0.1:$H_PORT"
}

teardown() {
	common_teardown
}

# reqs_of TARGET: how many requests the server had for TARGET.
reqs_of() {
	grep -cxF "req $1" "$T/H.log" || :
}

# fetch_twice URL: fetch URL two times; sets first and second (.cached).
fetch_twice() {
	run -0 --separate-stderr urlfetch <<<"$1"
	first=$(jq -r .cached <<<"$output")
	run -0 --separate-stderr urlfetch <<<"$1"
	second=$(jq -r .cached <<<"$output")
}

@test "Cache-Control no-store, private and no-cache are never cached" {
	for cc in no-store private 'public,%20no-store' 'no-cache' 'PRIVATE'; do
		u="$B/page?h=Cache-Control:%20$cc"
		fetch_twice "$u"
		[ "$first" = false ]
		[ "$second" = false ]
		[ "$(reqs_of "/page?h=Cache-Control:%20$cc")" = 2 ]
		run -1 --separate-stderr urlcache get "$u"
	done
}

@test "max-age shorter than the TTL is the entry's life; a longer one changes nothing" {
	u="$B/page?h=Cache-Control:%20max-age=10"
	fetch_twice "$u"
	[ "$first" = false ]
	[ "$second" = true ]
	run -0 --separate-stderr urlcache get "$u"
	jq -e '.expires_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<<"$output"
	sleep 11
	run -0 --separate-stderr urlfetch <<<"$u"
	[ "$(jq -r .cached <<<"$output")" = false ]
	[ "$(reqs_of "/page?h=Cache-Control:%20max-age=10")" = 2 ]
	# A day's max-age within a 24-hour TTL: cached as ever.
	fetch_twice "$B/page?h=Cache-Control:%20max-age=86400"
	[ "$second" = true ]
}

@test "s-maxage wins over max-age; Expires counts from Date" {
	u="$B/page?h=Cache-Control:%20max-age=3600,%20s-maxage=10"
	fetch_twice "$u"
	[ "$second" = true ]
	sleep 11
	run -1 --separate-stderr urlcache get "$u"
	# Expires in the past (or unreadable): not stored.
	fetch_twice "$B/page?h=Expires:%20Thu,%2001%20Jan%201970%2000:00:00%20GMT"
	[ "$second" = false ]
	fetch_twice "$B/page?h=Expires:%200"
	[ "$second" = false ]
	# Expires ten seconds after now.
	exp=$(date -u -d '+10 seconds' '+%a,%%20%d%%20%b%%20%Y%%20%H:%M:%S%%20GMT')
	u="$B/page?h=Expires:%20$exp"
	fetch_twice "$u"
	[ "$second" = true ]
	sleep 11
	run -1 --separate-stderr urlcache get "$u"
}
