#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# WebRTC past the guard (issue 33): a page's RTCPeerConnection with STUN
# and TURN servers on refused addresses sends its requests over UDP, which
# no proxy sees.  A UDP canary listens on 127.0.0.2 and [::1]
# (tests/helpers/udp_canary.py) and counts what arrives, for each route a
# page takes into a browser: pwfetch fetch in the browser it launches,
# urlserve's render_url (pwfetch run by urlserve), and pwfetch fetch
# attached (--connect) to a browser of the user's with the guard on.
# The page (tests/fixtures/webrtc/webrtc.html) says in its text what it
# saw: "gathering done: N candidates", "gathering" (still at it: its
# servers never answer), or "no RTCPeerConnection".
bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port=
	[ -x "$CHROMIUM" ] || return 0
	# The user's browser of the attached test, started as in
	# pwfetch-security.bats (not by pwfetch, so not behind its proxy,
	# and with Chromium's own WebRTC settings).
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

teardown_file() { stop_pidfiles "$BATS_FILE_TMPDIR" chromium; }

setup() {
	common_setup
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	start_server CANARY python3 "$TOP/tests/helpers/udp_canary.py"
	start_server PAGES python3 "$TOP/tests/helpers/page_server.py" \
	    "$TOP/tests/fixtures/webrtc"
	PAGE="http://127.0.0.1:$PAGES_PORT/webrtc.html?port=$CANARY_PORT"
}

teardown() {
	common_teardown
}

# packets: how many datagrams the canary has had.
packets() {
	grep -c '^pkt' "$T/CANARY.log" || :
}

# no_packets: none arrived, or the test fails showing them.
no_packets() {
	sleep 0.5
	[ "$(packets)" -eq 0 ] || {
		echo "the canary had $(packets) datagrams:" >&2
		head -n 8 "$T/CANARY.log" >&2
		return 1
	}
}

@test "the canary counts datagrams on 127.0.0.2 and [::1]" {
	python3 -c 'import socket, sys
p = int(sys.argv[1])
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.2", p))
socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b"y", ("::1", p))' \
	    "$CANARY_PORT"
	sleep 0.5
	[ "$(packets)" -eq 2 ]
}

@test "pwfetch fetch: a page's WebRTC sends nothing to refused addresses; gathering ends with no candidate" {
	run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 \
	    -w 'selector:#done' "$PAGE"
	jq -e '.title == "WebRTC" and (has("error") | not) and
	    (.content | test("gathering done: 0 candidates"))' <<<"$output"
	no_packets
}

@test "urlserve render_url: a page's WebRTC sends nothing to refused addresses" {
	{
		printf '%s\n' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
		    '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		jq -cn --arg u "$PAGE" '{jsonrpc:"2.0",id:1,method:"tools/call",
		    params:{name:"render_url",arguments:{url:$u,wait:"selector:#done"}}}'
	} >"$T/req"
	run -0 --separate-stderr timeout 120 urlserve <"$T/req"
	run -0 jq -c 'select(.id == 1) | .result' <<<"$output"
	jq -e '.isError == false and
	    (.structuredContent.title == "WebRTC") and
	    (.content[0].text | test("gathering done: 0 candidates"))' <<<"$output"
	no_packets
}

@test "attached (--connect) fetch with the guard on: the page has no RTCPeerConnection, in a new frame either; nothing reaches refused addresses" {
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" \
	    -t 60 -w 'selector:#done' "$PAGE"
	jq -e '.title == "WebRTC" and (has("error") | not) and
	    (.content | test("no RTCPeerConnection"))' <<<"$output"
	no_packets
}

@test "attached (--connect) fetch with the guard on: a cross-site frame (a process of its own) sends nothing to refused addresses either" {
	run -0 --separate-stderr timeout 120 pwfetch fetch --connect "$A" \
	    -t 60 -w 'selector:#done' \
	    "http://127.0.0.1:$PAGES_PORT/frame.html?port=$CANARY_PORT"
	jq -e '.title == "WebRTC frame" and (has("error") | not)' <<<"$output"
	no_packets
}

@test "pwfetch fetch: a cross-site frame sends nothing to refused addresses" {
	run -0 --separate-stderr timeout 120 pwfetch fetch -t 60 \
	    -w 'selector:#done' \
	    "http://127.0.0.1:$PAGES_PORT/frame.html?port=$CANARY_PORT"
	jq -e '.title == "WebRTC frame" and (has("error") | not)' <<<"$output"
	no_packets
}
