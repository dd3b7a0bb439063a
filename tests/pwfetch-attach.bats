#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# pwfetch attached to a running browser: one Chromium for the file, started
# with --remote-debugging-port=0 and a profile of its own, as a user would.
bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port=
	[ -x "$CHROMIUM" ] || return 0
	python3 "$TOP/tests/helpers/pw_server.py" >"$d/srv.port" \
	    2>"$d/srv.log" &
	echo $! >"$d/srv.pid"
	mkdir -p "$d/prof"
	HOME=$d XDG_CONFIG_HOME=$d XDG_CACHE_HOME=$d "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
	    --disable-background-networking --disable-component-update \
	    --disable-dev-shm-usage --disable-features=WebUIOmniboxPopup \
	    --user-data-dir="$d/prof" \
	    --remote-debugging-port=0 about:blank >"$d/chromium.log" 2>&1 &
	echo $! >"$d/chromium.pid"
	# Up to 30 s: python3 starts slowly on a loaded machine.  (|| : the
	# server may not have opened the file yet, and set -e is on here.)
	for _ in $(seq 1 600); do
		port=$(head -n 1 "$d/srv.port" 2>/dev/null || :)
		[ -n "$port" ] && [ -s "$d/prof/DevToolsActivePort" ] && break
		sleep 0.05
	done
	[ -n "$port" ] || return 1
	export B="http://127.0.0.1:$port"
	port=$(head -n 1 "$d/prof/DevToolsActivePort")
	[ -n "$port" ] || return 1
	export A="http://127.0.0.1:$port"
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

# The URLs of the browser's pages, one a line.
pages() {
	curl -s "$A/json/list" | jq -r '.[] | select(.type == "page") | .url'
}

# Open a tab at URL as a user would, and wait until it has loaded: it
# shows that URL and a title of its own (the fixture pages all have one),
# so a find that follows does not race the tab's first load.
user_tab() {
	curl -s -X PUT "$A/json/new?$1" >/dev/null
	for _ in $(seq 1 400); do
		curl -s "$A/json/list" | jq -e --arg u "$1" \
		    'any(.[]; .type == "page" and .url == $u and .title != "" and .title != $u)' \
		    >/dev/null && return 0
		sleep 0.05
	done
	return 1
}

browser_alive() {
	kill -0 "$(cat "$BATS_FILE_TMPDIR/chromium.pid")"
}

@test "fetch leaves its page open; find reloads it and returns its HTML" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html "$B/count"
	jq -e '.html | test("count [0-9]+")' <<<"$output"
	local before
	before=$(jq -r '.html | capture("count (?<n>[0-9]+)").n' <<<"$output")
	pages | grep -qx "$B/count"
	run -0 --separate-stderr pwfetch find --connect "$A" --html "$B/cou"
	[ "${#lines[@]}" -eq 1 ]
	jq -e --arg u "$B/count" '.final_url == $u and .title == "count"' \
	    <<<"$output"
	# The reload asked the server again.
	jq -e --argjson n "$before" '.html | test("count \($n + 1)")' \
	    <<<"$output"
	pages | grep -qx "$B/count"
	browser_alive
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "find -w selector and -w networkidle wait on the reloaded page" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" "$B/late?find=1"
	run -0 --separate-stderr pwfetch find --connect "$A" -w 'selector:#late' --html \
	    -e 'window.__pwfetchOld === undefined' "$B/late?find=1"
	jq -e '.html | test("Arrived late")' <<<"$output"
	jq -e '.eval == true' <<<"$output"
	run -0 --separate-stderr pwfetch find --connect "$A" -w networkidle \
	    "$B/late?find=1"
	jq -e '.title == "Late page"' <<<"$output"
	# The reloaded page's request made after its load is waited for.
	run -0 --separate-stderr pwfetch fetch --connect "$A" "$B/idle?find=1"
	run -0 --separate-stderr pwfetch find --connect "$A" -w networkidle --html \
	    "$B/idle?find=1"
	jq -e '.html | test("<p id=\"fetched\">")' <<<"$output"
}

@test "find that finds nothing: an error record, exit 1" {
	run -1 --separate-stderr pwfetch find --connect "$A" "$B/nothing-like-this"
	json_eq "$(jq -c '{url, error}' <<<"$output")" \
	    "{\"url\":\"$B/nothing-like-this\",\"error\":\"no open page whose URL starts with '$B/nothing-like-this'\"}"
	[[ $stderr == *"no open page whose URL starts with"* ]]
	browser_alive
}

@test "find attaches to URLKIT_DEVTOOLS_URL by default" {
	user_tab "$B/static?tab=env"
	URLKIT_DEVTOOLS_URL=$A run -0 --separate-stderr pwfetch find \
	    "$B/static?tab=env"
	jq -e '.title == "Static page"' <<<"$output"
}

@test "open: its own context, closed after; the user's tabs stay" {
	user_tab "$B/static?tab=user"
	run -0 --separate-stderr pwfetch open --connect "$A" --html \
	    "$B/cookie?ctx=open" "$B/static?ctx=open"
	[ "${#lines[@]}" -eq 2 ]
	jq -se '.[0].title == "cookie" and .[1].title == "Static page"' \
	    <<<"$output"
	pages | grep -qx "$B/static?tab=user"
	run -1 grep -q 'ctx=open' <(pages)
	browser_alive
}

@test "fetch shares the browser's cookies; open does not" {
	run -0 --separate-stderr pwfetch fetch --connect "$A" "$B/setcookie"
	run -0 --separate-stderr pwfetch fetch --connect "$A" --html "$B/cookie?c=fetch"
	jq -e '.html | test("cookie: pw=1")' <<<"$output"
	run -0 --separate-stderr pwfetch open --connect "$A" --html "$B/cookie?c=open"
	jq -e '.html | test("cookie: none")' <<<"$output"
}

@test "a ws:// address of the browser works as well" {
	local ws
	ws=$(curl -s "$A/json/version" | jq -r .webSocketDebuggerUrl)
	[[ $ws == ws://* ]]
	run -0 --separate-stderr pwfetch open --attach --connect "$ws" "$B/static?via=ws"
	jq -e '.title == "Static page"' <<<"$output"
}

@test "an address that answers but will not talk: said so, exit 3" {
	start_server silent python3 "$TOP/tests/helpers/pw_silent.py"
	run -3 --separate-stderr pwfetch fetch -t 1 \
	    --connect "http://127.0.0.1:$silent_PORT" "$B/static"
	[ "$stderr" = "pwfetch fetch: browser at http://127.0.0.1:$silent_PORT answers but will not talk (Chrome 136+ ignores remote debugging on the default profile?)" ]
	[ -z "$output" ]
}

@test "no browser at the address: exit 3" {
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	run -3 --separate-stderr pwfetch find --connect "http://127.0.0.1:$port" \
	    "$B/static"
	[[ $stderr == "pwfetch find: no browser at http://127.0.0.1:$port: "* ]]
	run -2 --separate-stderr pwfetch find --connect "ftp://127.0.0.1:1" "$B/static"
}
