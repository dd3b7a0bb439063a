#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --links-out: the page's links as data in the content record (urlfetch,
# urlextract; pwfetch's in pwfetch.bats), against the agent server
# (helpers/agent_server.py).

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/agent

setup_file() {
	AG_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ukag.XXXXXX")
	export AG_DIR
	agent_start S
}
teardown_file() {
	agent_stop S
	rm -rf "$AG_DIR"
}
setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=1
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}
teardown() { common_teardown; }

@test "links-out: absolute, in page order, deduplicated, in_content marked" {
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/links/page.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '.links' <<<"$output"
	[ "$status" -eq 0 ]
	# The menu's links stay, marked out of the content; the article's
	# link to a.html comes after the menu's (first place wins) and is in
	# the content; mailto: and the page's own #top are left out.
	expect='[{"url":"'$S_URL'/","text":"Home","rel":null,"in_content":false},'
	expect+='{"url":"'$S_URL'/about","text":"About","rel":null,"in_content":false},'
	expect+='{"url":"'$S_URL'/links/a.html","text":"A again","rel":null,"in_content":true},'
	expect+='{"url":"'$S_URL'/links/b.html#part","text":"the second page","rel":null,"in_content":true},'
	expect+='{"url":"'$S_URL'/legal","text":"Legal notice","rel":null,"in_content":false}]'
	[ "$output" = "$expect" ]
}

@test "links-out: the links piped back into urlfetch are fetched" {
	run -0 bash -c "urlfetch --links-out '$S_URL/links/page.html' |
	    jq -r '.links[].url' | urlfetch | jq -r .title"
	[ "$status" -eq 0 ]
	[ "$output" = $'Home page\nAbout page\nPage A\nPage B\nLegal page' ]
	# Those of the text only.
	run -0 bash -c "urlfetch -q --links-out '$S_URL/links/page.html' |
	    jq -r '.links[] | select(.in_content) | .url' | urlfetch -q |
	    jq -r .title"
	[ "$status" -eq 0 ]
	[ "$output" = $'Page A\nPage B' ]
}

@test "links-out: without the option the record has no links" {
	run -0 --separate-stderr urlfetch -q -C "$S_URL/links/page.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '[has("links"), has("links_truncated")]' <<<"$output"
	[ "$output" = '[false,false]' ]
}

@test "links-out: 500 by default with links_truncated, --links-max N" {
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/links/many.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '[(.links | length), .links_truncated, .links[0].url, .links[0].in_content]' <<<"$output"
	[ "$output" = '[500,true,"'$S_URL'/n/0",true]' ]
	run -0 --separate-stderr urlfetch -q --links-out --links-max 7 "$S_URL/links/many.html"
	run -0 jq -c '[(.links | length), .links_truncated]' <<<"$output"
	[ "$output" = '[7,true]' ]
	# Fewer than the cap: no links_truncated.
	run -0 --separate-stderr urlfetch -q --links-out --links-max 5 "$S_URL/links/page.html"
	run -0 jq -c '[(.links | length), has("links_truncated")]' <<<"$output"
	[ "$output" = '[5,false]' ]
}

@test "links-out: a bad --links-max is a usage error" {
	run -2 urlfetch --links-out --links-max 0 "$S_URL/links/page.html"
	[ "$status" -eq 2 ]
	[[ $output == *"--links-max: not a count"* ]]
	run -2 urlextract --links-max x /dev/null
	[ "$status" -eq 2 ]
}

@test "links-out: resolved on the page's <base href>" {
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/links/base.html"
	[ "$status" -eq 0 ]
	run -0 jq -r '.links[] | select(.text == "x") | .url' <<<"$output"
	[ "$output" = "$S_URL/links/sub/x.html" ]
}

@test "links-out: -f markdown --links marks the same links in the content" {
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/links/page.html"
	a=$(jq -c '[.links[] | [.url, .in_content]]' <<<"$output")
	run -0 --separate-stderr urlfetch -q -f markdown --links --links-out \
	    "$S_URL/links/page.html"
	[ "$status" -eq 0 ]
	b=$(jq -c '[.links[] | [.url, .in_content]]' <<<"$output")
	[ "$a" = "$b" ]
	[[ $a == *true* && $a == *false* ]]
}

@test "links-out: a record with links is not read from the cache" {
	run -0 --separate-stderr urlfetch -q "$S_URL/links/a.html"
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/links/a.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.cached, (.links | length > 0)]' <<<"$output"
	[ "$output" = '[false,true]' ]
}

@test "links-out: urlextract, a card's link, an image's alt, rel kept" {
	cat >"$T/p.html" <<'HTML'
<html><head><title>T</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Title</h1>
<p>This article explains many things at some length, so that the
extractor takes it as the main text of the page, with a link to
<a href="ref.html" rel="nofollow noopener">the reference</a>.</p>
<a href="card"><h3>A card title</h3><p>its summary</p></a>
<p>More words of the article, for a paragraph that the extractor keeps
as a part of the main text of this page.</p>
</article>
<footer><a href="logo"><img src="l.png" alt="Logo alt"></a></footer>
</body></html>
HTML
	run -0 --separate-stderr urlextract --links-out -B https://example.com/d/p "$T/p.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.links[] | [.url, .text, .rel, .in_content]]' <<<"$output"
	expect='[["https://example.com/","Home",null,false],'
	expect+='["https://example.com/d/ref.html","the reference","nofollow noopener",true],'
	expect+='["https://example.com/d/card","A card title its summary",null,true],'
	expect+='["https://example.com/d/logo","Logo alt",null,false]]'
	[ "$output" = "$expect" ]
	# Without -B, relative links resolve to no web address: left out.
	run -0 --separate-stderr urlextract --links-out "$T/p.html"
	run -0 jq -c '.links' <<<"$output"
	[ "$output" = '[]' ]
}

@test "links-out: a PDF has links: [] (its link annotations are not read)" {
	python3 "$TOP/tests/helpers/mkpdf.py" doc "$T/d.pdf"
	run -0 --separate-stderr urlextract --links-out "$T/d.pdf"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.links, (.pages > 0)]' <<<"$output"
	[ "$output" = '[[],true]' ]
}

@test "links-out: pwfetch, from the rendered HTML, which is not kept" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] ||
	    skip "no Chromium"
	run -0 --separate-stderr pwfetch fetch -q -P --links-out \
	    "$S_URL/links/page.html"
	[ "$status" -eq 0 ]
	run -0 jq -c '[has("html"), [.links[] | [.url, .in_content]]]' <<<"$output"
	expect='[false,[["'$S_URL'/",false],["'$S_URL'/about",false],'
	expect+='["'$S_URL'/links/a.html",true],["'$S_URL'/links/b.html#part",true],'
	expect+='["'$S_URL'/legal",false]]]'
	[ "$output" = "$expect" ]
	# With --html the HTML stays; --links-max cuts.
	run -0 --separate-stderr pwfetch fetch -q -P --html --links-out \
	    --links-max 2 "$S_URL/links/page.html"
	run -0 jq -c '[has("html"), (.links | length), .links_truncated]' <<<"$output"
	[ "$output" = '[true,2,true]' ]
}

@test "links-out: pwfetch on a page over 16 MiB: every link, the record not cut" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] ||
	    skip "no Chromium"
	mkdir "$T/big"
	# 17.9 MB of HTML, most of it a comment between the links.
	python3 - "$T/big/big.html" <<'PY'
import sys
pad = "<!-- " + "padding line of the big page, never shown to the reader\n" * 320000 + " -->"
open(sys.argv[1], "w").write(
    '<!DOCTYPE html><html><head><meta charset=utf-8><title>Big</title></head><body>'
    '<nav><a href="/first">First</a></nav><article><h1>Big</h1>'
    '<p>The start of the page, with <a href="/in-text">a link in the text</a> and enough words to be its main text.</p>'
    + pad +
    '<p>The end of the page, with <a href="/after">a link after the padding</a> and more words of text here.</p>'
    '</article><footer><a href="/last">Last</a></footer></body></html>')
PY
	[ "$(wc -c <"$T/big/big.html")" -gt $((17 << 20)) ]
	start_server BIG python3 "$TOP/tests/helpers/map_server.py" "$T/big"
	local b="http://127.0.0.1:$BIG_PORT"
	run -0 --separate-stderr pwfetch fetch -q -P --links-out "$b/big.html"
	run -0 jq -c '[has("html"), .truncated, [.links[].url]]' <<<"$output"
	[ "$output" = '[false,null,["'$b'/first","'$b'/in-text","'$b'/after","'$b'/last"]]' ]
	# With --html the HTML is kept, so it is cut; the links are whole.
	run -0 --separate-stderr pwfetch fetch -q -P --html --links-out "$b/big.html"
	run -0 jq -c '[.truncated, (.truncated_reason | test("^.html. cut")), (.links | length)]' <<<"$output"
	[ "$output" = '[true,true,4]' ]
}
