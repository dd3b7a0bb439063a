#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's fetch_url links (the page's links after the text), against
# a loopback site (tests/helpers/map_server.py).

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/urlserve_site

setup() {
	site_setup
	printf '<html><head><title>L</title></head><body><nav><a href="/home">Home</a> <a href="/about">About</a></nav><article><h1>L</h1><p>Read <a href="/doc/a">the A guide</a> and <a href="/doc/b">the B guide</a> for more about this thing here today.</p><p>Second paragraph with enough words to be content for the extractor to keep it.</p></article><footer><a href="/legal">Legal</a></footer></body></html>' >"$T/site/links.html"
	site_start
}
teardown() { common_teardown; }

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
