#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's cache settings: a bad URLKIT_CACHE_REMOTE is a usage error
# (exit 2, as in urlfetch, urlsum and urlcache), and map_site's urlmap
# child reads and writes the cache urlserve was given.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_CACHE_REMOTE URLKIT_CACHE_TTL
	export URLKIT_ALLOW_PRIVATE=127.0.0.1 URLKIT_CHROMIUM=/nonexistent
	mkdir "$T/site"
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}
teardown() { common_teardown; }

# call TOOL ARGS: urlserve on stdio, initialized, one call; prints its
# response.
call() {
	printf '%s\n' \
	    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'"$1"'","arguments":'"$2"'}}' |
	    urlserve 2>>"$T/us.log" | grep '"id":1'
}

@test "a bad URLKIT_CACHE_REMOTE: urlserve and urlmap exit 2 naming the variable" {
	local p
	export URLKIT_CACHE_REMOTE='ftp://127.0.0.1/'
	run -2 --separate-stderr urlserve </dev/null
	[ "$output" = "" ]
	[ "$stderr" = "urlserve: URLKIT_CACHE_REMOTE: cache remote 'ftp://127.0.0.1/': not a store URL (redis://, http://, https://)" ]
	run -2 --separate-stderr urlmap "$B/"
	[ "$output" = "" ]
	[ "$stderr" = "urlmap: URLKIT_CACHE_REMOTE: cache remote 'ftp://127.0.0.1/': not a store URL (redis://, http://, https://)" ]
	[ ! -e "$T/site/_requests.log" ]
	export URLKIT_CACHE_REMOTE='redis://127.0.0.1:1|connect-timeout=x'
	for p in urlserve urlmap; do
		case $p in
		urlserve) run -2 --separate-stderr urlserve </dev/null ;;
		urlmap) run -2 --separate-stderr urlmap "$B/" ;;
		esac
		[ "$status" -eq 2 ]
		[[ $stderr == "$p: URLKIT_CACHE_REMOTE: "*"connect-timeout"* ]]
	done
	# urlmap without the cache does not read it.
	printf -- '- [Open](/open)\n' >"$T/site/llms.txt"
	run -0 --separate-stderr urlmap --no-cache -q "$B/"
	[ "$status" -eq 0 ]
}

@test "map_site: urlmap reads and writes urlserve's cache, with its TTL" {
	printf -- '- [Open](/open)\n' >"$T/site/llms.txt"
	export URLKIT_CACHE_DIR="$T/uscache"
	run -0 call map_site '{"url":"'"$B"'/","sources":["llms"]}'
	[ "$(jq -c '[.result.structuredContent.urls[].url]' <<<"$output")" = "[\"$B/open\"]" ]
	[ "$(grep -c ' /llms.txt' "$T/site/_requests.log")" -eq 1 ]
	# In urlserve's cache directory, not the default one.
	[ -n "$(find "$T/uscache" -type f | head -1)" ]
	[ ! -e "$T/cache" ]
	run -0 call map_site '{"url":"'"$B"'/","sources":["llms"]}'
	[ "$(jq -c '[.result.structuredContent.urls[].url]' <<<"$output")" = "[\"$B/open\"]" ]
	[ "$(grep -c ' /llms.txt' "$T/site/_requests.log")" -eq 1 ]
	# urlserve's TTL: entries of no lifetime are read again.
	export URLKIT_CACHE_TTL=0
	run -0 call map_site '{"url":"'"$B"'/","sources":["llms"]}'
	[ "$status" -eq 0 ]
	[ "$(grep -c ' /llms.txt' "$T/site/_requests.log")" -eq 2 ]
}
