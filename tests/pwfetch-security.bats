#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# What a hostile page can still try through pwfetch's browser (issue 15):
# requests from workers, service workers and frames in other processes,
# WebSockets, downloads; and what pwfetch itself must get right around it
# (a caller's fd 3, pages with no charset, terminal escapes in messages).
# 127.0.0.1 is allowed, 127.0.0.2 is the refused internal address.
bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port=
	python3 "$TOP/tests/helpers/pw_server.py" >"$d/srv.port" \
	    2>"$d/srv.log" &
	echo $! >"$d/srv.pid"
	for _ in $(seq 1 600); do
		{ read -r port <"$d/srv.port"; } 2>/dev/null || :
		[ -n "$port" ] && break
		nap 0.05
	done
	nap_done
	[ -n "$port" ] || return 1
	export PW_PORT=$port
	export B="http://127.0.0.1:$port"
	# The attached tests' browser, the user's own: one for the file, as
	# in pwfetch.bats (a start is some 3.5 s of CPU).  Started as a user
	# would (not by pwfetch, so not behind its proxy), without the
	# address bar's popup, which costs a third of a start's CPU and
	# nothing here looks at (lib/browser.c).  Each test's servers have
	# ports of their own, so nothing an earlier test left running in it
	# could reach them.
	[ -x "$CHROMIUM" ] || return 0
	mkdir -p "$d/prof"
	HOME=$d XDG_CONFIG_HOME=$d XDG_CACHE_HOME=$d "$CHROMIUM" --headless \
	    --no-sandbox --disable-gpu --no-first-run \
	    --disable-background-networking --disable-component-update \
	    --disable-dev-shm-usage --disable-features=WebUIOmniboxPopup \
	    --user-data-dir="$d/prof" \
	    --remote-debugging-port=0 about:blank >"$d/chromium.log" 2>&1 &
	echo $! >"$d/chromium.pid"
	for _ in $(seq 1 600); do
		[ -s "$d/prof/DevToolsActivePort" ] && break
		nap 0.05
	done
	nap_done
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
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
}

teardown() {
	common_teardown
}

no_browser_left() {
	if pgrep -f "$T/tmp/" >/dev/null; then
		pgrep -af "$T/tmp/" >&2
		return 1
	fi
	[ -z "$(ls -A "$T/tmp")" ] || { ls -A "$T/tmp" >&2; return 1; }
}

# A server that logs every connection ("conn") and request ("req PATH").
logging_server() {
	start_server "$1" python3 "$TOP/tests/helpers/pw_server.py" --bind "$2"
}

# sec_url HOST:PORT: a page whose dedicated worker, SharedWorker, Service
# Worker and cross-site iframe (localhost is another site than 127.0.0.1,
# so Chromium puts it in a process of its own) each fetch, load an image
# from, send a beacon to and open a WebSocket to HOST:PORT.
sec_url() {
	printf '%s/sec?bad=%s&frame=http://localhost:%s' "$B" "$1" "$PW_PORT"
}

@test "workers, a service worker and a cross-site frame reach nothing refused; allowed, every one of them gets through" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	# -w networkidle and 3 s of waiting in the page: the workers and
	# the frame have started and tried before the record is written.
	run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 -w networkidle \
	    -e 'new Promise(r => setTimeout(() => r(1), 3000))' \
	    "$(sec_url "127.0.0.1:$GOOD_PORT")" "$(sec_url "127.0.0.2:$BAD_PORT")"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.title == "Workers" and (has("error") | not)' <<<"${lines[1]}"
	sleep 1
	# The control: every context's fetch and WebSocket arrived where
	# they were allowed to go.
	for who in dedicated shared service frame; do
		grep -qx "req /$who" "$T/GOOD.log" || {
			echo "no request from the $who context" >&2
			cat "$T/GOOD.log" >&2
			return 1
		}
		grep -qx "req /$who-ws" "$T/GOOD.log"
	done
	grep -qx "req /frame.png" "$T/GOOD.log"
	grep -qx "req /frame-beacon" "$T/GOOD.log"
	# The refused address: not one connection.
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
	no_browser_left
}

@test "a WebSocket to a refused address never reaches it: the page fails before the handshake leaves" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	# The control: the same page, its sockets to an allowed address,
	# sends handshakes within the wait (Chromium opens a host's
	# WebSockets one at a time, so not always all 20); so the refused
	# run below had them to send, and a zero there means they were
	# stopped.
	run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1000))' \
	    "$B/ws?to=127.0.0.1:$GOOD_PORT&n=20"
	jq -e '.title == "ws" and (has("error") | not)' <<<"$output"
	sleep 0.5
	[ "$(grep -c '^upgrade /' "$T/GOOD.log")" -ge 1 ] || {
		cat "$T/GOOD.log" >&2
		return 1
	}
	run -1 --separate-stderr timeout 120 pwfetch fetch -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1000))' \
	    "$B/ws?to=127.0.0.2:$BAD_PORT&n=20"
	[ "${#lines[@]}" -eq 1 ]
	jq -e '(.error | test("address 127.0.0.2 refused")) and
	    (has("content") | not)' <<<"${lines[0]}"
	sleep 0.5
	# Not one handshake, not even a connection, reached the refused
	# address (the page-level verdict alone comes after the handshake
	# has left: only the proxy stops it before).
	[ "$(grep -c '^upgrade' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ]
	no_browser_left
}

# The attached tests use $A, a Chromium of the user's own (setup_file):
# not started by pwfetch, so not behind its proxy.

# user_tab URL: open a tab at URL in $A's default context, as the
# user would, and wait until it has loaded (it has a title of its own).
user_tab() {
	curl -s -X PUT "$A/json/new?$1" >/dev/null
	for _ in $(seq 1 400); do
		curl -s "$A/json/list" | jq -e --arg u "$1" \
		    'any(.[]; .type == "page" and .url == $u and .title != "" and .title != $u)' \
		    >/dev/null && { nap_done; return 0; }
		nap 0.05
	done
	nap_done
	return 1
}

@test "attached (--connect) fetch: workers, a service worker and a cross-site frame reach nothing refused, WebSockets included" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	# The control: allowed, every context's requests and WebSockets get
	# through.
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -w networkidle -e 'new Promise(r => setTimeout(() => r(1), 3000))' \
	    "$(sec_url "127.0.0.1:$GOOD_PORT")"
	jq -e '.title == "Workers" and (has("error") | not)' <<<"$output"
	sleep 1
	for r in dedicated shared service frame; do
		grep -qx "req /$r" "$T/GOOD.log" &&
		    grep -qx "upgrade /$r-ws" "$T/GOOD.log" || {
			echo "nothing from the $r context" >&2
			cat "$T/GOOD.log" >&2
			return 1
		}
	done
	grep -qx "req /frame.png" "$T/GOOD.log"
	grep -qx "req /frame-beacon" "$T/GOOD.log"
	# The same page towards the refused address: not one connection,
	# the workers' and the frame's WebSockets included (the page's own
	# context goes through the guard's proxy, which refuses them before
	# their handshake leaves; the page itself opened none, so it is not
	# failed).
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -w networkidle -e 'new Promise(r => setTimeout(() => r(1), 3000))' \
	    "$(sec_url "127.0.0.2:$BAD_PORT")"
	jq -e '.title == "Workers" and (has("error") | not)' <<<"$output"
	sleep 1
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
}

@test "attached (--connect) fetch: a page's WebSocket to a refused address never reaches it; the page fails" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	# The control: the same page's sockets to an allowed address leave
	# within the wait.
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1000))' \
	    "$B/ws?to=127.0.0.1:$GOOD_PORT&n=20"
	jq -e '.title == "ws" and (has("error") | not)' <<<"$output"
	sleep 0.5
	[ "$(grep -c '^upgrade /' "$T/GOOD.log")" -ge 1 ] || {
		cat "$T/GOOD.log" >&2
		return 1
	}
	run -1 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1000))' \
	    "$B/ws?to=127.0.0.2:$BAD_PORT&n=20"
	[ "${#lines[@]}" -eq 1 ]
	jq -e '(.error | test("address 127.0.0.2 refused")) and
	    (has("content") | not)' <<<"${lines[0]}"
	sleep 0.5
	[ "$(grep -c '^upgrade' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ]
}

@test "attached (--connect) fetch: a SharedWorker that goes on fetching after the page is done reaches nothing refused, and is gone with the page" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	# The control: the worker runs and fetches while the page is open.
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1500))' \
	    "$B/linger?bad=127.0.0.1:$GOOD_PORT"
	jq -e '.title == "Linger" and (has("error") | not)' <<<"$output"
	[ "$(grep -c '^req /linger' "$T/GOOD.log")" -ge 1 ] || {
		cat "$T/GOOD.log" >&2
		return 1
	}
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 1500))' \
	    "$B/linger?bad=127.0.0.2:$BAD_PORT"
	jq -e '.title == "Linger" and (has("error") | not)' <<<"$output"
	# A page that times out (its selector never comes) goes the same way.
	run -1 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 3 \
	    -w selector:#never "$B/linger?bad=127.0.0.2:$BAD_PORT&t=1"
	jq -e '.error | test("timeout after 3 s")' <<<"$output"
	# pwfetch has gone: a worker left behind would fetch 20 times here.
	sleep 2
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
	# Nothing of either run is left in the user's browser.
	run -0 curl -s "$A/json/list"
	jq -e 'all(.[]; (.url | test("linger")) | not)' <<<"$output" || {
		echo "$output" >&2
		return 1
	}
}

@test "attached (--connect) open: its own context goes through the guard's proxy; nothing reaches a refused address, WebSockets included" {
	logging_server BAD 127.0.0.2
	logging_server GOOD 127.0.0.1
	run -0 --separate-stderr timeout 120 pwfetch open --connect "$A" -t 60 \
	    -w networkidle -e 'new Promise(r => setTimeout(() => r(1), 3000))' \
	    "$(sec_url "127.0.0.1:$GOOD_PORT")"
	jq -e '.title == "Workers" and (has("error") | not)' <<<"$output"
	sleep 1
	# The control: every context's requests and WebSockets get through.
	for r in dedicated shared service frame; do
		grep -qx "req /$r" "$T/GOOD.log" &&
		    grep -qx "upgrade /$r-ws" "$T/GOOD.log" || {
			echo "nothing from the $r context" >&2
			cat "$T/GOOD.log" >&2
			return 1
		}
	done
	grep -qx "req /frame.png" "$T/GOOD.log"
	grep -qx "req /frame-beacon" "$T/GOOD.log"
	run -0 --separate-stderr timeout 120 pwfetch open --connect "$A" -t 60 \
	    -w networkidle -e 'new Promise(r => setTimeout(() => r(1), 3000))' \
	    "$(sec_url "127.0.0.2:$BAD_PORT")"
	jq -e '.title == "Workers"' <<<"$output"
	sleep 1
	[ "$(grep -c '^conn' "$T/BAD.log")" -eq 0 ] || {
		cat "$T/BAD.log" >&2
		return 1
	}
}

# Last of the tests on $A: it leaves the user's cookies and localStorage
# in the browser's default context.
@test "attached (--connect) fetch: the user's cookies reach the server; localStorage is not shared, and the page's cookies do not come back" {
	# A cookie the fetched page sets stays in its own context, disposed
	# after it: the user's browser never gets it.
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 \
	    "$B/setcookie"
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 --html \
	    "$B/cookie?c=before"
	jq -e '.html | test("cookie: none")' <<<"$output"
	# The user's own cookie (and localStorage) set in the browser's
	# default context, as by logging in.
	# A session cookie, one with an expiry, one HttpOnly and SameSite.
	user_tab "$B/setcookie?more=1"
	user_tab "$B/storage"
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" -t 60 --html \
	    -e 'localStorage.getItem("pw")' "$B/cookie?c=user"
	jq -e '.html | test("cookie: [^<]*pw=1") and test("cookie: [^<]*pe=2") and
	    test("cookie: [^<]*ph=3")' <<<"$output"
	jq -e '.eval == null' <<<"$output"
}

@test "a page's download is refused: nothing lands in \$HOME/Downloads, nothing is left behind" {
	mkdir -p "$T/home"
	HOME="$T/home" run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 \
	    -e 'new Promise(r => setTimeout(() => r(1), 2000))' "$B/download"
	jq -e '.title == "Download" and (has("error") | not)' <<<"$output"
	[ -z "$(find "$T/home" -mindepth 1 | head -n 1)" ] || {
		find "$T/home" >&2
		return 1
	}
	no_browser_left
}

@test "a caller's fd 3 or fd 4 open: the browser still starts" {
	# fd 3 open put the browser's log on 4, where the protocol pipe goes;
	# fd 4 open put it on 3.  (With the guard off: the guard's proxy
	# would take the next descriptor itself.)
	for fd in 3 4; do
		URLKIT_ALLOW_PRIVATE=1 run -0 --separate-stderr timeout 120 bash -c \
		    'exec 3>&- 4>&-; eval "exec $1>/dev/null"
		    exec pwfetch fetch -t 60 "$2"' _ "$fd" "$B/static"
		jq -e '.title == "Static page"' <<<"$output"
	done
	no_browser_left
}

@test "a UTF-8 page that declares no charset reads as UTF-8; a declared windows-1252 still as that" {
	run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 "$B/utf8" \
	    "$B/latin1"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.title == "Loading\u2026 caf\u00e9" and
	    (.content | test("na\u00efve, \u00fcber, \u2014 and \u201cquotes\u201d"))' \
	    <<<"${lines[0]}"
	jq -e '.title == "Caf\u00e9" and .content == "caf\u00e9 au lait"' \
	    <<<"${lines[1]}"
	no_browser_left
}

@test "ESC, BEL and other controls from a record's URL never reach the terminal through stderr" {
	printf '%s\n' \
	    '{"url":"ftp://x/\u001b]0;owned\u0007\u001b[2J\u009b31m"}' \
	    '{"url":"http://127.0.0.2:9/\u001b[31mred\u0007\nforged"}' \
	    >"$T/in"
	run -1 --separate-stderr timeout 120 pwfetch fetch -t 60 <"$T/in"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.error | test("not an http")' <<<"${lines[0]}"
	jq -e '.error | test("not an http")' <<<"${lines[1]}"
	# The records keep the URL as it was (JSON escapes it).
	jq -e '.url | test("\u001b\\[31mred\u0007\nforged")' <<<"${lines[1]}"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 2 ]
	! printf '%s' "$stderr" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]'
	! printf '%s' "$stderr" | LC_ALL=C grep -q $'\xc2[\x80-\x9f]'
	[[ $stderr == *'ftp://x/?]0;owned??[2J?31m'* ]]
	no_browser_left
}
