#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch asks for the Markdown a site already has (lib/negotiate.h):
# Accept: text/markdown first, then the HTML's Markdown alternate, then
# the site's llms.txt; at most one extra request a page, none for a page
# from the cache; --no-negotiate turns it off.  Against the agent server
# (helpers/agent_server.py), one per test (its log is the test's own):
# S without an llms.txt, L with one.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/agent

setup() {
	common_setup
	AG_DIR="$T/ag"
	export URLKIT_ALLOW_PRIVATE=1
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	agent_start S
}
teardown() {
	agent_stop S
	agent_stop L
	common_teardown
}

# paths NAME: the paths server NAME was asked for, in order, on one line.
paths() {
	agent_log "$1" | cut -d' ' -f1 | paste -sd' '
}

@test "negotiate: a text/markdown answer is the text, its front matter the title" {
	run -0 --separate-stderr urlfetch -q "$S_URL/md/doc"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .title, .author, .format, .content, has("final_url")]' <<<"$output"
	[ "$output" = '["markdown","Doc in Markdown","someone","markdown","# Doc\n\nServed as Markdown, with [a link](/links/a.html).\n",false]' ]
	# Asked for as Markdown first, and nothing more.
	run -0 agent_log S
	[ "$output" = "/md/doc text/markdown, text/html;q=0.9, */*;q=0.8" ]
}

@test "negotiate: the HTML's rel=alternate Markdown is fetched instead" {
	run -0 --separate-stderr urlfetch -q "$S_URL/alt/doc"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .title, .final_url, .content]' <<<"$output"
	[ "$output" = '["markdown","Alt in Markdown","'$S_URL'/alt/doc.md","# Alt in Markdown\n\nThe alternate'"'"'s text.\n"]' ]
	run -0 paths S
	[ "$output" = "/alt/doc /alt/doc.md" ]
}

@test "negotiate: an alternate that fails falls back to the HTML, no llms.txt after" {
	run -0 --separate-stderr urlfetch -q "$S_URL/alt/gone"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .title, (.content | startswith("Gone alt in HTML"))]' <<<"$output"
	[ "$output" = '["html","Gone alt in HTML",true]' ]
	# One extra request at most: the alternate, then no /llms.txt.
	run -0 paths S
	[ "$output" = "/alt/gone /alt/gone.md" ]
}

@test "negotiate: the .md that the site's llms.txt lists" {
	agent_start L --llms
	run -0 --separate-stderr urlfetch -q <<<"{\"url\":\"$L_URL/lt/guide\",\"type\":\"documentation\"}"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .title, .final_url, .content]' <<<"$output"
	[ "$output" = '["llms.txt","Guide in Markdown","'$L_URL'/lt/guide.md","# Guide in Markdown\n\nThe guide'"'"'s text from llms.txt.\n"]' ]
	run -0 paths L
	[ "$output" = "/lt/guide /llms.txt /lt/guide.md" ]
	# A web page (not documentation): no llms.txt asked for.
	run -0 --separate-stderr urlfetch -q -C "$L_URL/lt/guide?web"
	[ "$status" -eq 0 ]
	run -0 jq -r .source <<<"$output"
	[ "$output" = html ]
	run -0 paths L
	[ "$output" = "/lt/guide /llms.txt /lt/guide.md /lt/guide?web" ]
}

@test "negotiate: llms.txt is asked for once per site in a run" {
	agent_start L --llms
	docs() {
		local u
		for u in "$@"; do
			printf '{"url":"%s","type":"documentation"}\n' "$u"
		done
	}
	run -0 --separate-stderr urlfetch -q -j 4 < <(docs "$L_URL/html/doc" \
	    "$L_URL/links/a.html" "$L_URL/lt/guide" "$L_URL/links/b.html")
	[ "$status" -eq 0 ]
	run -0 jq -r '[.title, .source] | join(" ")' <<<"$output"
	[ "$output" = $'HTML doc html\nPage A html\nGuide in Markdown llms.txt\nPage B html' ]
	run -0 bash -c "curl -s '$L_URL/_log' | grep -c '^/llms.txt '"
	[ "$output" = 1 ]
	# Without an llms.txt (a 404): once too, and the pages are HTML.
	run -0 --separate-stderr urlfetch -q -j 4 < <(docs "$S_URL/html/doc" \
	    "$S_URL/links/a.html" "$S_URL/links/b.html")
	[ "$status" -eq 0 ]
	run -0 bash -c "curl -s '$S_URL/_log' | grep -c '^/llms.txt '"
	[ "$output" = 1 ]
}

@test "negotiate: text/markdown that is HTML is refused and read as HTML" {
	run -0 --separate-stderr urlfetch -q "$S_URL/fake/doc"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .title, .format, (.content | startswith("Fake in HTML\n\nThis paragraph"))]' <<<"$output"
	[ "$output" = '["html","Fake in HTML",null,true]' ]
}

@test "negotiate: a page from the cache makes no request and keeps its source" {
	agent_start L --llms
	printf '{"url":"%s","type":"documentation"}\n' "$L_URL/lt/guide" \
	    "$L_URL/md/doc" "$L_URL/html/doc" >"$T/in"
	run -0 --separate-stderr urlfetch -q -i "$T/in"
	[ "$status" -eq 0 ]
	before=$(agent_log L | wc -l)
	# -f markdown too: Markdown from the site is that in any format.
	for f in text markdown; do
		run -0 --separate-stderr urlfetch -q -f "$f" "$L_URL/lt/guide" \
		    "$L_URL/md/doc"
		[ "$status" -eq 0 ]
		run -0 jq -r '[.cached, .source] | map(tostring) | join(" ")' <<<"$output"
		[ "$output" = $'true llms.txt\ntrue markdown' ]
	done
	run -0 --separate-stderr urlfetch -q "$L_URL/html/doc"
	run -0 jq -r '[.cached, .source] | map(tostring) | join(" ")' <<<"$output"
	[ "$output" = 'true html' ]
	after=$(agent_log L | wc -l)
	[ "$before" -eq "$after" ]
}

@test "negotiate: --no-negotiate asks for HTML only" {
	agent_start L --llms
	printf '{"url":"%s","type":"documentation"}\n' "$L_URL/md/doc" \
	    "$L_URL/lt/guide" >"$T/in"
	run -0 --separate-stderr urlfetch -q --no-negotiate -i "$T/in"
	[ "$status" -eq 0 ]
	run -0 jq -r '[.title, .source] | join(" ")' <<<"$output"
	[ "$output" = $'Doc in HTML html\nGuide in HTML html' ]
	run -0 bash -c "curl -s '$L_URL/_log' | { grep -c 'text/markdown' || :; }"
	[ "$output" = 0 ]
	# Fetched at once: the log's order is the transfers', so sorted.
	run -0 paths L
	[ "$(tr ' ' '\n' <<<"$output" | sort | paste -sd' ')" = "/lt/guide /md/doc" ]
}

@test "negotiate: --select is about the HTML: no Markdown asked for" {
	run -0 --separate-stderr urlfetch -q --select article "$S_URL/md/doc"
	[ "$status" -eq 0 ]
	run -0 jq -r '[.title, .source] | join(" ")' <<<"$output"
	[ "$output" = 'Doc in HTML html' ]
	run -0 paths S
	[ "$output" = "/md/doc" ]
}

@test "negotiate: a Markdown source's links, all in the content" {
	run -0 --separate-stderr urlfetch -q --links-out "$S_URL/md/doc"
	[ "$status" -eq 0 ]
	run -0 jq -c '[.source, .links]' <<<"$output"
	[ "$output" = '["markdown",[{"url":"'$S_URL'/links/a.html","text":"a link","rel":null,"in_content":true}]]' ]
}

@test "negotiate: a GitHub file keeps its own route, no Markdown asked for" {
	export URLKIT_GITHUB_RAW_URL="$S_URL/raw"
	run -1 --separate-stderr urlfetch -q https://github.com/o/r/blob/main/README.md
	[ "$status" -eq 1 ]
	run -0 bash -c "curl -s '$S_URL/_log' | { grep -c 'text/markdown' || :; }"
	[ "$output" = 0 ]
	run -0 bash -c "curl -s '$S_URL/_log' | { grep -c '^/llms.txt' || :; }"
	[ "$output" = 0 ]
}
