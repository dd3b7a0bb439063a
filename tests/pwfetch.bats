#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# pwfetch with a browser it launches: real headless Chromium against the
# loopback pages of helpers/pw_server.py.  The tests of what a page does
# (-w, -e, --html, cookies, ...) attach to one Chromium started for the
# file, $A (a launch costs some 3.5 s of CPU, an attached page under 1 s);
# the launch path (a browser's start, end, crash, signals, the guard's
# proxy, timeouts and what they leave behind) keeps launches of its own.
bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port=
	python3 "$TOP/tests/helpers/pw_server.py" >"$d/srv.port" \
	    2>"$d/srv.log" &
	echo $! >"$d/srv.pid"
	# The shared browser, as pwfetch-attach.bats starts its own (the
	# feature pwfetch also turns off: see lib/browser.c).
	if [ -x "$CHROMIUM" ]; then
		mkdir -p "$d/prof"
		HOME=$d XDG_CONFIG_HOME=$d XDG_CACHE_HOME=$d "$CHROMIUM" \
		    --headless --no-sandbox --disable-gpu --no-first-run \
		    --disable-background-networking --disable-component-update \
		    --disable-dev-shm-usage --disable-features=WebUIOmniboxPopup \
		    --user-data-dir="$d/prof" --remote-debugging-port=0 \
		    about:blank >"$d/chromium.log" 2>&1 &
		echo $! >"$d/chromium.pid"
	fi
	# Up to 30 s: python3 starts slowly on a loaded machine.  (|| : the
	# server may not have opened the file yet, and set -e is on here.)
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
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	export URLKIT_ALLOW_PRIVATE=1 # the servers are on loopback
}

teardown() {
	common_teardown
}

# No Chromium of ours running, and no profile left behind.
no_browser_left() {
	if pgrep -f "$T/tmp/" >/dev/null; then
		echo "chromium still running:" >&2
		pgrep -af "$T/tmp/" >&2
		return 1
	fi
	if [ -n "$(ls -A "$T/tmp")" ]; then
		echo "left in TMPDIR: $(ls -A "$T/tmp")" >&2
		return 1
	fi
}

# Wait until a browser of ours runs; its oldest process (the browser).
browser_pid() {
	local p
	for _ in $(seq 1 200); do
		p=$(pgrep -o -f -- "--user-data-dir=$T/tmp/pwfetch") && break
		nap 0.05
	done
	nap_done
	[ -n "$p" ] && echo "$p"
}

# man.bats checks that -h prints the man page's SYNOPSIS.
@test "usage: bad use exits 2; -V prints the version" {
	run -2 pwfetch
	run -2 pwfetch crawl "$B/static"
	run -2 pwfetch fetch --bogus
	run -2 pwfetch fetch -w sometimes "$B/static"
	run -2 pwfetch fetch --viewport 12by7 "$B/static"
	run -2 pwfetch fetch -j 0 "$B/static"
	run -0 --separate-stderr pwfetch -V
	[[ $output == "pwfetch "* ]]
}

@test "fetch: static, script-built, unreachable and 404 pages" {
	run -1 --separate-stderr pwfetch fetch "$B/static" "$B/script" \
	    "http://127.0.0.1:1/" "$B/nope"
	[ "${#lines[@]}" -eq 4 ]
	local static=${lines[0]} script=${lines[1]}
	# final_url only where it is not the url, as urlfetch writes it.
	json_eq "$(jq -c '{url, url_type, title, final_url, http}' <<<"$static")" \
	    "{\"url\":\"$B/static\",\"url_type\":\"web\",\"title\":\"Static page\",\"final_url\":null,\"http\":{\"status\":200}}"
	jq -e '.description == "A static test page" and .author == "Ada Lovelace"' \
	    <<<"$static"
	jq -e '.content | test("analytical engine")' <<<"$static"
	jq -e '.fetched_at | test("^20[0-9-]+T")' <<<"$static"
	jq -e '(has("html") | not) and (has("error") | not)' <<<"$static"
	# The text a script wrote is in the content record.
	jq -e '.content | test("Rendered by script")' <<<"$script"
	jq -e '.error | test("^net::ERR_")' <<<"${lines[2]}"
	jq -e '.error == "HTTP 404" and .http.status == 404' <<<"${lines[3]}"
	[[ $stderr == *"$B/nope: HTTP 404"* ]]
	no_browser_left
}

@test "--html: the HTML has what the page's script wrote" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html "$B/script"
	jq -e '.html | test("<p id=\"built\">Rendered by script")' <<<"$output"
	jq -e '.html | startswith("<!DOCTYPE html>")' <<<"$output"
}

@test "a slow page is waited for; past its timeout it is an error record" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" -t 20 \
	    "$B/slow?ms=1200"
	jq -e '.title == "Slow page" and (has("error") | not)' <<<"$output"
	# domcontentloaded does not wait for the image; -t 20 still bounds it.
	run -0 --separate-stderr pwfetch fetch --connect "$A" -t 20 \
	    -w domcontentloaded \
	    -e 'document.readyState' "$B/slow?ms=8000"
	jq -e '.title == "Slow page" and .eval == "interactive"' <<<"$output"
	run -1 --separate-stderr pwfetch fetch -t 3 "$B/never" "$B/static"
	[ "${#lines[@]}" -eq 2 ]
	jq -se '.[0].error == "timeout after 3 s waiting for load"' <<<"$output"
	jq -se '.[1].title == "Static page" and (.[1] | has("error") | not)' \
	    <<<"$output"
	[[ $stderr == *"$B/never: timeout after 3 s"* ]]
	no_browser_left
	# --total-timeout: the run's own limit; what is left is not started.
	run -1 --separate-stderr pwfetch fetch -t 30 --total-timeout 2 "$B/never" "$B/static"
	jq -se '.[0].error | startswith("the run timed out (2 s) waiting for ")' \
	    <<<"$output"
	jq -se '.[1].error == "not fetched: the run timed out"' <<<"$output"
	no_browser_left
}

@test "open gives each page its own cookies; fetch shares them" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html \
	    "$B/setcookie" "$B/cookie"
	jq -se '.[1].html | test("cookie: pw=1")' <<<"$output"
	run -0 --separate-stderr pwfetch open --connect "$A" --html \
	    "$B/setcookie" "$B/cookie"
	jq -se '.[1].html | test("cookie: none")' <<<"$output"
}

@test "-w selector waits for the element; -e, --viewport, -A and --screenshot" {
	mkdir "$T/shots"
	run -0 --separate-stderr pwfetch fetch --connect "$A" \
	    -w 'selector:#late' --html \
	    --viewport 800x600 -A 'urlkit-test/1' -e '[document.querySelectorAll("p").length,
	    innerWidth, innerHeight, navigator.userAgent]' \
	    --screenshot "$T/shots" "$B/late" "$B/late?again"
	jq -se '.[0].html | test("Arrived late")' <<<"$output"
	jq -se '.[0].eval == [2, 800, 600, "urlkit-test/1"]' <<<"$output"
	json_eq "$(jq -sc 'map(.screenshot)' <<<"$output")" \
	    "[\"$T/shots/1.png\",\"$T/shots/2.png\"]"
	[ "$(head -c 8 "$T/shots/1.png" | od -An -tx1 | tr -d ' \n')" = \
	    89504e470d0a1a0a ]
	[ -s "$T/shots/2.png" ]
}

@test "-w networkidle; an exception in -e; a selector that never comes" {
	run -1 --separate-stderr pwfetch fetch --connect "$A" -w networkidle \
	    -e 'nope.nope' "$B/script"
	jq -e '.title == "Script page"' <<<"$output"
	jq -e '(.error | test("^eval: ReferenceError")) and (.content | test("Rendered"))' \
	    <<<"$output"
	run -1 --separate-stderr pwfetch fetch --connect "$A" -t 3 \
	    -w 'selector:#absent' "$B/static"
	jq -e '.error == "timeout after 3 s waiting for the selector"' \
	    <<<"$output"
}

@test "-w networkidle waits for a request made after the load event" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html \
	    -w networkidle "$B/idle"
	jq -e '.html | test("<p id=\"fetched\">")' <<<"$output"
	# The load event alone comes well before the request ends.
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html \
	    "$B/idle?ms=3000"
	jq -e '.html | test("<p id=\"fetched\">") | not' <<<"$output"
}

@test "stdin: url records keep their fields, bare URLs work, -j 3" {
	{
		printf '{"url":"%s","id":"x1","type":"web"}\n' "$B/static"
		printf '%s\n' "$B/page/1" "$B/page/2" "$B/page/3" "$B/page/4"
	} >"$T/in"
	run -0 --separate-stderr pwfetch fetch -j 3 <"$T/in"
	[ "${#lines[@]}" -eq 5 ]
	jq -se 'map(select(.id == "x1"))[0].title == "Static page"' <<<"$output"
	[ "$(jq -r .title <<<"$output" | sort | tr '\n' ,)" = \
	    "Page 1,Page 2,Page 3,Page 4,Static page," ]
	no_browser_left
}

@test "bad input: error records, no browser for them, exit 1" {
	printf 'ftp://example.com/x\n{"url":"javascript:alert(1)"}\n{"nourl":1}\n{"url":"x","error":"earlier"}\nnot a url {\n' >"$T/in"
	run -1 --separate-stderr pwfetch fetch <"$T/in"
	[ "${#lines[@]}" -eq 5 ]
	jq -se '.[0].error == "not an http(s) URL: '\''ftp://example.com/x'\''"' \
	    <<<"$output"
	jq -se '.[1].error | test("not an http")' <<<"$output"
	jq -se '.[2].error == "no string field '\''url'\''" and .[2].line == 3' \
	    <<<"$output"
	jq -se '.[3] == {"url":"x","error":"earlier"}' <<<"$output"
	jq -se '.[4].line == 5' <<<"$output"
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "a browser that cannot start: exit 3 with a message" {
	URLKIT_CHROMIUM=/nonexistent/chromium run -3 --separate-stderr \
	    pwfetch fetch "$B/static"
	[[ $stderr == *"cannot start chromium: '/nonexistent/chromium'"* ]]
	printf '#!/bin/sh\nexit 1\n' >"$T/false-chromium"
	chmod +x "$T/false-chromium"
	URLKIT_CHROMIUM=$T/false-chromium run -3 --separate-stderr \
	    pwfetch fetch "$B/static"
	[[ $stderr == *"chromium did not start"* ]]
	no_browser_left
}

@test "a page that crashes its renderer: an error record; the run goes on" {
	# A small V8 heap makes the page's allocation loop kill its renderer.
	printf '#!/bin/sh\nexec "%s" --js-flags=--max-old-space-size=16 "$@"\n' \
	    "$CHROMIUM" >"$T/chromium"
	chmod +x "$T/chromium"
	URLKIT_CHROMIUM=$T/chromium run -1 --separate-stderr pwfetch fetch \
	    "$B/oom" "$B/static"
	jq -se '.[0].error == "the page crashed its renderer"' <<<"$output"
	jq -se '.[1].title == "Static page"' <<<"$output"
	no_browser_left
}

@test "SIGTERM: pwfetch takes its browser and profile with it" {
	pwfetch fetch -t 30 "$B/never" >"$T/out" 2>"$T/err" &
	local pid=$! st=0
	run -0 browser_pid
	kill -TERM "$pid"
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	sleep 0.2
	no_browser_left
}

@test "the browser dies mid-run: the rest get error records, exit 1" {
	printf '%s\n' "$B/static" "$B/never" "$B/static" >"$T/in"
	pwfetch fetch -t 30 <"$T/in" >"$T/out" 2>"$T/err" &
	local pid=$! st=0 bp
	bp=$(browser_pid)
	for _ in $(seq 1 200); do
		[ -s "$T/out" ] && break
		nap 0.05
	done
	nap_done
	kill -KILL "$bp"
	wait "$pid" || st=$?
	[ "$st" -eq 1 ]
	run -0 jq -sc 'map(.error)' "$T/out"
	json_eq "$output" '[null,"the browser has gone","the browser has gone"]'
	sleep 0.2
	no_browser_left
}

@test "private addresses are refused by default, before any request" {
	unset URLKIT_ALLOW_PRIVATE
	# The server's count so far, asked without a browser (a start of
	# Chromium is some 3.5 s of CPU).
	run -0 curl -sf "$B/count"
	local n
	[[ $output =~ count\ ([0-9]+) ]]
	n=${BASH_REMATCH[1]}
	run -1 --separate-stderr pwfetch fetch "$B/count" \
	    "${B/127.0.0.1/localhost}/count" "http://10.0.0.1/"
	[ "${#lines[@]}" -eq 3 ]
	for l in "${lines[@]}"; do
		jq -e '(.error | test("address [0-9.]+ refused \\(private network; -P or URLKIT_ALLOW_PRIVATE=1 allows it\\)")) and
		    (has("content") | not)' <<<"$l"
	done
	[[ $stderr == *"address 127.0.0.1 refused"* ]]
	# -P lets it through (URLKIT_ALLOW_PRIVATE=1, the other way, is how
	# every other test here fetches); the refused fetches never reached
	# the server.
	run -0 --separate-stderr pwfetch fetch -P "$B/count"
	jq -e --argjson n "$n" '.content == "count \($n + 1)"' <<<"$output"
	no_browser_left
}

@test "a name whose DNS never answers holds up only its requests; a WebSocket's late verdict still fails its page" {
	[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null ||
	    skip "needs root and mount namespaces (a resolv.conf of its own)"
	# slow.test is an internal address, said 2 s late; nothing else is
	# ever answered.
	start_server D python3 "$TOP/tests/helpers/dns_blackhole.py" \
	    127.0.0.77 slow.test=127.0.0.2@2
	printf 'nameserver 127.0.0.77\noptions timeout:30 attempts:1\n' \
	    >"$T/resolv.conf"
	# The guard looks the name up (on a thread of its own) while the
	# other pages go on; the image waits, the pages do not.  A page that
	# opened a WebSocket to slow.test, done long before the answer comes,
	# waits for that name's verdict before its record, and fails.
	URLKIT_ALLOW_PRIVATE=127.0.0.1 run -1 --separate-stderr \
	    timeout 60 unshare -m bash -c '
		mount --bind "$1" /etc/resolv.conf || exit 99
		shift; exec "$@"' bash "$T/resolv.conf" \
	    pwfetch fetch -j 3 -t 15 -w domcontentloaded \
	    "$B/from?host=never.example" "$B/static" "$B/page/1" \
	    "$B/ws?to=slow.test:9"
	[ "${#lines[@]}" -eq 4 ]
	jq -se 'map(select(has("error") | not) | .title) | sort ==
	    ["From never.example", "Page 1", "Static page"]' <<<"$output"
	jq -se 'map(select(has("error")))[0] |
	    (.error | test("ws://slow.test:9/.: address 127.0.0.2 refused")) and
	    (has("content") | not)' <<<"$output"
	grep -q '^query never.example' "$T/D.log"
	no_browser_left
}

@test "a WebSocket to a refused address fails the page; a listed address passes" {
	URLKIT_ALLOW_PRIVATE=127.0.0.1 run -1 --separate-stderr \
	    pwfetch fetch "$B/static" "$B/ws"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.title == "Static page" and (has("error") | not)' <<<"${lines[0]}"
	jq -e '(.error | test("ws://127.0.0.2:9/.: address 127.0.0.2 refused")) and
	    (has("content") | not)' <<<"${lines[1]}"
	run -0 --separate-stderr pwfetch fetch "$B/ws"
	jq -e '.content | test("a page with a WebSocket")' <<<"$output"
	no_browser_left
}
