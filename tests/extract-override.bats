#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The extractor's overrides: --select, --remove, --whole and --explain, in
# urlextract on fixture pages (tests/fixtures/extract-override/),
# urlfetch over a loopback server, pwfetch with real Chromium, and
# urlserve's fetch_url.  Words in capitals mark what each part of a page
# is (FIRSTPARA, NAVWORD, SCRIPTWORD...).

bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port= _
	python3 "$TOP/tests/helpers/page_server.py" \
	    "$TOP/tests/fixtures/extract-override" >"$d/srv.port" \
	    2>"$d/srv.log" &
	echo $! >"$d/srv.pid"
	# One Chromium for the file's pwfetch tests, attached to (as
	# pwfetch.bats does: a launch costs some 3.5 s of CPU).
	if [ -x "$CHROMIUM" ]; then
		mkdir -p "$d/prof"
		HOME=$d XDG_CONFIG_HOME=$d XDG_CACHE_HOME=$d "$CHROMIUM" \
		    --headless --no-sandbox --disable-gpu --no-first-run \
		    --disable-background-networking --disable-component-update \
		    --disable-dev-shm-usage --user-data-dir="$d/prof" \
		    --remote-debugging-port=0 about:blank \
		    >"$d/chromium.log" 2>&1 &
		echo $! >"$d/chromium.pid"
	fi
	for _ in $(seq 1 600); do
		{ read -r port <"$d/srv.port"; } 2>/dev/null || :
		[ -n "$port" ] && { [ ! -e "$d/chromium.pid" ] ||
		    [ -s "$d/prof/DevToolsActivePort" ]; } && break
		nap 0.05
	done
	nap_done
	[ -n "$port" ] || return 1
	export B="http://127.0.0.1:$port"
	if [ -e "$d/chromium.pid" ]; then
		port=$(head -n 1 "$d/prof/DevToolsActivePort")
		[ -n "$port" ] || return 1
		export A="http://127.0.0.1:$port"
	fi
}

teardown_file() { stop_pidfiles "$BATS_FILE_TMPDIR" chromium srv; }

setup() {
	common_setup
	X="$FIXTURES/extract-override"
	export URLKIT_ALLOW_PRIVATE=1 # the server is on loopback
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}

teardown() { common_teardown; }

# The marker words of $1 (default: $output), in order, on one line.
words() {
	grep -oE '[A-Z]+(WORD|PARA)|REMOVEME' <<<"${1-$output}" | tr '\n' ' '
}

# us_call ARGS [TOOL]: urlserve's answer to one call of TOOL (fetch_url)
# with ARGS (a JSON object), its result on one line.  $US_CHROMIUM is
# the browser render_url's pwfetch launches (none by default).
us_call() {
	printf '%s\n' \
	    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"${2:-fetch_url}\",\"arguments\":$1}}" |
	    URLKIT_CHROMIUM=${US_CHROMIUM:-/nonexistent} timeout 120 \
	    urlserve 2>"$T/us.log" | jq -c 'select(.id == 1) | .result'
}

@test "override: without options the extractor chooses (the reference for the tests below)" {
	run -0 urlextract "$X/article.html" --text
	[ "$(words)" = "FIRSTPARA REMOVEME SECONDPARA THIRDPARA " ]
}

@test "override: --select writes exactly what matches, in document order, each element once" {
	# Options in another order than the page's; 'article p' holds .first
	# and .third, which are written once.
	run -0 urlextract "$X/article.html" --text --select .third \
	    --select 'article p' --select 'h1'
	[ "$(words)" = "FIRSTPARA SECONDPARA THIRDPARA " ]
	[[ $output == "The river that ran backwards"$'\n\nFIRSTPARA'* ]]
	# The hidden paragraph matches 'article p' but is never text.
	[[ $output != *HIDDENWORD* ]]
	run -0 urlextract "$X/article.html" --text --select '.second'
	[ "$output" = "SECONDPARA: engineers came from the city with instruments, measured the water, shook their heads, and wrote long reports that nobody in the village read." ]
	# What the extractor drops as boilerplate can be selected.
	run -0 urlextract "$X/article.html" --text --select 'nav, footer'
	[ "$(words)" = "NAVWORD FOOTWORD " ]
}

@test "override: --select in Markdown, and in the record (no fallback)" {
	run -0 urlextract "$X/article.html" -f markdown \
	    --select 'h1, .second'
	[ "$(jq -r .content <<<"$output")" = "# The river that ran backwards

SECONDPARA: engineers came from the city with instruments, measured the water, shook their heads, and wrote long reports that nobody in the village read." ]
	[ "$(jq -r .format <<<"$output")" = markdown ]
	[ "$(jq -r '.extraction // "none"' <<<"$output")" = none ]
	[ "$(jq -r .title <<<"$output")" = "The river that ran backwards" ]
}

@test "override: --remove drops what matches before extraction, on any attribute" {
	# data-note is an attribute extraction does not read: shrink keeps
	# it for the selector.
	run -0 urlextract "$X/article.html" --text --remove '[data-note=aside]'
	[ "$(words)" = "FIRSTPARA SECONDPARA THIRDPARA " ]
	run -0 urlextract "$X/article.html" --text --remove 'p.first' \
	    --remove '#story > .third'
	[ "$(words)" = "REMOVEME SECONDPARA " ]
	# With --select: removed inside the selection.
	run -0 urlextract "$X/article.html" --text --select article \
	    --remove '[data-note]'
	[ "$(words)" = "FIRSTPARA SECONDPARA THIRDPARA " ]
}

@test "override: what --remove drops does not come back through the extractor's fallbacks" {
	# Without the article, the rest is too little for a main block:
	# the fallback writes the page, less what was removed.
	run -0 urlextract "$X/article.html" --text --remove '#story'
	[ "$(words)" = "NAVWORD RELATEDWORD FOOTWORD " ]
	run -0 urlextract "$X/article.html" --remove body
	[ "$(jq -r .content <<<"$output")" = "" ]
	[ "$(jq -r .title <<<"$output")" = "The river that ran backwards" ]
}

@test "override: --whole keeps the navigation, related list and footer, not scripts, styles, hidden or templates" {
	run -0 urlextract "$X/article.html" --text --whole
	[ "$(words)" = "NAVWORD FIRSTPARA REMOVEME SECONDPARA THIRDPARA RELATEDWORD FOOTWORD " ]
	[[ $output != *STYLEWORD* && $output != *SCRIPTWORD* ]]
	[[ $output != *HIDDENWORD* && $output != *TEMPLATEWORD* ]]
	run -0 urlextract "$X/article.html" -f markdown --whole \
	    --remove nav
	[ "$(words "$(jq -r .content <<<"$output")")" = "FIRSTPARA REMOVEME SECONDPARA THIRDPARA RELATEDWORD FOOTWORD " ]
}

@test "override: a --select that matches nothing is an error record, and the next file still comes out" {
	run -0 --separate-stderr urlextract "$X/other.html" \
	    "$X/article.html" --select '.first, .only'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r '.content | .[:10]' <<<"${lines[0]}")" = "ONLYPARA: " ]
	[ "$(jq -r '.content | .[:10]' <<<"${lines[1]}")" = "FIRSTPARA:" ]
	run -1 --separate-stderr urlextract "$X/other.html" \
	    "$X/article.html" --select '.first'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .error <<<"${lines[0]}")" = "--select '.first' matched nothing" ]
	[ "$(jq -r .content <<<"${lines[0]}")" = null ]
	[ "$(jq -r '.content | .[:10]' <<<"${lines[1]}")" = "FIRSTPARA:" ]
	[[ $stderr == *"--select '.first' matched nothing"* ]]
	# Matched, but only what is never text.
	run -1 --separate-stderr urlextract "$X/article.html" \
	    --select 'p[hidden]'
	[ "$(jq -r .error <<<"$output")" = "--select 'p[hidden]' matched only elements that are never text (hidden, removed, scripts)" ]
}

@test "override: a bad selector exits 2 with the column where it fails" {
	run -2 --separate-stderr urlextract "$X/article.html" \
	    --select 'div['
	[ "$output" = "" ]
	[ "${stderr%%$'\n'*}" = "urlextract: --select 'div[': at column 5: expected an attribute name" ]
	run -2 --separate-stderr urlextract "$X/article.html" \
	    --remove 'a + b'
	[[ ${stderr%%$'\n'*} == "urlextract: --remove 'a + b': at column 3: the sibling combinator '+' is not supported"* ]]
	run -2 --separate-stderr urlfetch "$B/article.html" --select 'p:hover'
	[[ ${stderr%%$'\n'*} == "urlfetch: --select 'p:hover': at column 2: ':hover' is not supported"* ]]
	# At most 32 of each option.
	run -2 --separate-stderr urlextract "$X/article.html" \
	    $(printf -- '--remove p%.0s ' $(seq 1 33))
	[ "${stderr%%$'\n'*}" = "urlextract: --remove: more than 32 of them" ]
	run -0 urlextract "$X/article.html" -T \
	    $(printf -- '--select p%.0s ' $(seq 1 32))
	run -2 --separate-stderr pwfetch fetch --select '#1' "$B/article.html"
	[[ ${stderr%%$'\n'*} == "pwfetch fetch: --select '#1': at column 2: an id after '#' cannot start with a digit"* ]]
}

@test "override: --explain prints what --remove dropped on stderr, one record a line with the url" {
	run -0 --separate-stderr urlextract "$X/article.html" --text \
	    --remove '[data-note]' --remove nav --explain
	[ "$(words)" = "FIRSTPARA SECONDPARA THIRDPARA " ]
	# Each line is one JSON object with the url: --remove's records
	# first, then the extractor's own (the paragraph the page hides).
	jq -e -s 'length >= 3 and all(.[]; .url != null)' <<<"$stderr"
	[ "$(jq -r -s 'map(.rule) | .[:3] | join(" ")' <<<"$stderr")" = "remove remove hidden" ]
	[ "$(jq -r -s 'map(select(.rule == "hidden")) | .[0].path' <<<"$stderr")" = "body>div.layout>article#story>p" ]
	json_eq "$(sed -n 1p <<<"$stderr" | jq -c '{reason, rule, path, url: (.url | test("^file://.*/article.html$"))}')" \
	    '{"reason":"removed by --remove '"'"'nav'"'"'","rule":"remove","path":"body>nav","url":true}'
	json_eq "$(sed -n 2p <<<"$stderr" | jq -c '{reason, path, text: (.text | .[:9]), chars: (.chars > 100)}')" \
	    '{"reason":"removed by --remove '"'"'[data-note]'"'"'","path":"body>div.layout>article#story>div","text":"REMOVEME:","chars":true}'
	[[ $(sed -n 3p <<<"$stderr" | jq -r .text) == HIDDENWORD* ]]
	# Every record says why in words, the extractor's as --remove's.
	[ "$(sed -n 3p <<<"$stderr" | jq -r .reason)" = "hidden on the page" ]
	jq -e -s 'all(.[]; .reason | type == "string")' <<<"$stderr"
	# Without --explain, nothing on stderr.
	run -0 --separate-stderr urlextract "$X/article.html" --text \
	    --remove '[data-note]'
	[ -z "$stderr" ]
}

@test "override: urlfetch over HTTP: select, remove, explain, and a URL that matches nothing" {
	run -1 --separate-stderr urlfetch -q -C "$B/other.html" \
	    "$B/article.html" --select 'article p' --remove '.second' --explain
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .url <<<"${lines[0]}")" = "$B/other.html" ]
	[ "$(jq -r .error <<<"${lines[0]}")" = "--select 'article p' matched nothing" ]
	[ "$(jq -r .url <<<"${lines[1]}")" = "$B/article.html" ]
	[ "$(words "$(jq -r .content <<<"${lines[1]}")")" = "FIRSTPARA THIRDPARA " ]
	# The records on stdout carry no explain; stderr has it, with the url.
	[ "$(jq -r '.explain // "none"' <<<"${lines[1]}")" = none ]
	grep '^{' <<<"$stderr" | jq -c 'select(.rule == "remove")' >"$T/explain"
	[ "$(wc -l <"$T/explain")" -eq 1 ]
	json_eq "$(jq -c '{url, reason}' "$T/explain")" \
	    "{\"url\":\"$B/article.html\",\"reason\":\"removed by --remove '.second'\"}"
	# --whole over HTTP, and the cache is not used for overrides.
	run -0 urlfetch -q "$B/article.html" --whole -T
	[ "$(words)" = "NAVWORD FIRSTPARA REMOVEME SECONDPARA THIRDPARA RELATEDWORD FOOTWORD " ]
	run -0 urlfetch -q "$B/article.html" -T
	[ "$(words)" = "FIRSTPARA REMOVEME SECONDPARA THIRDPARA " ]
	run -0 urlfetch -q "$B/article.html" --select .third -T
	[ "$(words)" = "THIRDPARA " ]
}

@test "override: pwfetch (real Chromium): --select on what the page's script wrote, --remove, --explain" {
	[ -n "${A:-}" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	run -0 --separate-stderr env TMPDIR="$T/tmp" pwfetch fetch -q \
	    --connect "$A" --select '.built' "$B/script.html"
	[ "$(jq -r .content <<<"$output")" = "BUILTPARA: this paragraph was written by the page's script, after it loaded in the browser." ]
	run -0 --separate-stderr env TMPDIR="$T/tmp" pwfetch fetch -q \
	    --connect "$A" --remove '.static' --explain --select main \
	    "$B/script.html"
	[ "$(words "$(jq -r .content <<<"$output")")" = "BUILTPARA " ]
	[ "$(jq -r '.explain // "none"' <<<"$output")" = none ]
	grep '^{' <<<"$stderr" | jq -c 'select(.rule == "remove")' >"$T/explain"
	[ "$(wc -l <"$T/explain")" -eq 1 ]
	json_eq "$(jq -c '{url, reason, path}' "$T/explain")" \
	    "{\"url\":\"$B/script.html\",\"reason\":\"removed by --remove '.static'\",\"path\":\"body>main#app>p.static\"}"
	run -1 --separate-stderr env TMPDIR="$T/tmp" pwfetch fetch -q \
	    --connect "$A" --select '.nothing' "$B/script.html" \
	    "$B/other.html" --whole
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .error <<<"${lines[0]}")" = "--select '.nothing' matched nothing" ]
	[ "$(jq -r .error <<<"${lines[1]}")" = "--select '.nothing' matched nothing" ]
}

@test "override: urlserve fetch_url takes select (string or array), remove, whole and explain" {
	run -0 us_call "{\"url\":\"$B/article.html\",\"format\":\"text\",\"select\":[\".third\",\"h1\"],\"remove\":\".first\",\"explain\":true}"
	[ "$(jq -r .isError <<<"$output")" = false ]
	[ "$(words "$(jq -r .structuredContent.content <<<"$output")")" = "THIRDPARA " ]
	[[ $(jq -r .structuredContent.content <<<"$output") == "The river that ran backwards"* ]]
	json_eq "$(jq -c '[.structuredContent.explain[] | select(.rule == "remove") | {url, reason}]' <<<"$output")" \
	    "[{\"url\":\"$B/article.html\",\"reason\":\"removed by --remove '.first'\"}]"
	run -0 us_call "{\"url\":\"$B/article.html\",\"format\":\"text\",\"whole\":true}"
	[ "$(words "$(jq -r .structuredContent.content <<<"$output")")" = "NAVWORD FIRSTPARA REMOVEME SECONDPARA THIRDPARA RELATEDWORD FOOTWORD " ]
	[ "$(jq -r '.structuredContent.explain // "none"' <<<"$output")" = none ]
	run -0 us_call "{\"url\":\"$B/article.html\",\"select\":\".second\"}"
	[ "$(words "$(jq -r .structuredContent.content <<<"$output")")" = "SECONDPARA " ]
	# A bad selector: a tool error that says where; no match: an error.
	run -0 us_call "{\"url\":\"$B/article.html\",\"select\":[\"p\",\"div[\"]}"
	[ "$(jq -r .isError <<<"$output")" = true ]
	[ "$(jq -r '.content[0].text' <<<"$output")" = "select 'div[': at column 5: expected an attribute name" ]
	run -0 us_call "{\"url\":\"$B/article.html\",\"remove\":42}"
	[ "$(jq -r .isError <<<"$output")" = true ]
	run -0 us_call "{\"url\":\"$B/other.html\",\"select\":\".first\"}"
	[ "$(jq -r .isError <<<"$output")" = true ]
	[ "$(jq -r .structuredContent.error <<<"$output")" = "--select '.first' matched nothing" ]
}

@test "override: urlserve render_url passes select, remove and explain to pwfetch (real Chromium)" {
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	US_CHROMIUM=$CHROMIUM TMPDIR="$T/tmp" run -0 us_call \
	    "{\"url\":\"$B/script.html\",\"select\":\"main\",\"remove\":[\".static\"],\"explain\":true}" \
	    render_url
	[ "$(jq -r .isError <<<"$output")" = false ]
	[ "$(words "$(jq -r .structuredContent.content <<<"$output")")" = "BUILTPARA " ]
	json_eq "$(jq -c '[.structuredContent.explain[] | select(.rule == "remove") | {url, reason}]' <<<"$output")" \
	    "[{\"url\":\"$B/script.html\",\"reason\":\"removed by --remove '.static'\"}]"
	# A bad selector is refused before any browser starts.
	US_CHROMIUM=$CHROMIUM run -0 us_call "{\"url\":\"$B/script.html\",\"remove\":\"p::after\"}" \
	    render_url
	[ "$(jq -r '.content[0].text' <<<"$output")" = "remove 'p::after': at column 2: pseudo-elements are not supported" ]
}
