#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's fetch_url links (the page's links after the text), against
# a loopback site (tests/helpers/map_server.py).

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_CACHE_REMOTE URLKIT_CACHE_TTL URLKIT_LLM_URL OPENAI_API_KEY
	export URLKIT_ALLOW_PRIVATE=127.0.0.1 URLKIT_CHROMIUM=/nonexistent
	mkdir "$T/site"
	printf '<html><head><title>L</title></head><body><nav><a href="/home">Home</a> <a href="/about">About</a></nav><article><h1>L</h1><p>Read <a href="/doc/a">the A guide</a> and <a href="/doc/b">the B guide</a> for more about this thing here today.</p><p>Second paragraph with enough words to be content for the extractor to keep it.</p></article><footer><a href="/legal">Legal</a></footer></body></html>' >"$T/site/links.html"
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}
teardown() { common_teardown; }

# calls TOOL ARGS [TOOL ARGS...]: one urlserve, the calls one after the
# other; each response on a line of $T/out, in the calls' order.
calls() {
	local i=0
	{
		printf '%s\n' \
		    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
		    '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		while [ $# -gt 0 ]; do
			i=$((i + 1))
			printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$i" "$1" "$2"
			shift 2
		done
	} | urlserve -j 1 2>>"$T/us.log" |
	    jq -c -s 'map(select(.id != "i" and .id != null)) | sort_by(.id)[]' >"$T/out"
}

@test "fetch_url links: the page's links after the text, those in the main text first" {
	calls fetch_url '{"url":"'"$B"'/links.html","links":true}' \
	    fetch_url '{"url":"'"$B"'/links.html"}'
	r=$(sed -n 1p "$T/out")
	[ "$(jq -c '[.result.structuredContent.links[] | [.url, .in_content]]' <<<"$r")" = "[[\"$B/home\",false],[\"$B/about\",false],[\"$B/doc/a\",true],[\"$B/doc/b\",true],[\"$B/legal\",false]]" ]
	[[ $(jq -r '.result.content[0].text' <<<"$r") == *"[5 links]
In the text:
$B/doc/a  the A guide
$B/doc/b  the B guide
Elsewhere (navigation, footer):
$B/home  Home
$B/about  About
$B/legal  Legal" ]]
	# Without links: neither the list nor the field.
	r=$(sed -n 2p "$T/out")
	[ "$(jq -r '.result.structuredContent.links' <<<"$r")" = null ]
	[[ $(jq -r '.result.content[0].text' <<<"$r") != *"links]"* ]]
}
