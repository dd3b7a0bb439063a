#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve against hostile clients (issue 33): stalled connections, session
# floods, a FIFO or a weak token file, Origin with userinfo, open_url to
# internal addresses, render_url's wait, and memory held by queued calls
# and the fetched set.  127.0.0.1 is the allowed host, 127.0.0.2 and ::1
# the refused ones.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch
load helpers/toolack

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }

setup() {
	fetch_setup
	export URLKIT_CHROMIUM=/nonexistent
	unset URLKIT_LLM_URL OPENAI_API_KEY TOOLACK_URL TOOLACK_TOKEN
	unset TOOLACK_TOKEN_FILE
	INIT='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}'
}

teardown() {
	common_teardown
}

# http_start [OPTION...]: urlserve -l on a free port with a token file
# made for it; its URL in URL, the token in TOK.
http_start() {
	local i
	: >"$T/serve.err"
	urlserve -l 127.0.0.1:0 --token-file "$T/token" "$@" \
	    2>"$T/serve.err" &
	echo $! >"$T/serve.pid"
	URL=
	for ((i = 0; i < 100; i++)); do
		URL=$(sed -n 's/^urlserve: listening on //p' "$T/serve.err")
		[ -n "$URL" ] && break
		nap 0.1
	done
	nap_done
	[ -n "$URL" ]
	read -r TOK <"$T/token"
}

# post BODY CURL-ARGS...: POST BODY with the token; prints the body, then
# the status on a line of its own.
post() {
	local body=$1
	shift
	curl -s --max-time 20 -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -H "Authorization: Bearer $TOK" -w '\n%{http_code}\n' "$@" \
	    --data-binary "$body" "$URL"
}

# token_file CONTENT: $T/token holding CONTENT, mode 0600.
token_file() {
	(umask 077 && printf '%s\n' "$1" >"$T/token")
}

@test "item 18: an Origin with userinfo, a path or a bad port is refused" {
	http_start
	local port=${URL#http://127.0.0.1:}
	port=${port%/mcp}
	run -0 post "$INIT" -H "Origin: http://localhost:$port@evil.test"
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: http://127.0.0.1:$port@127.0.0.2"
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: http://user@127.0.0.1:$port"
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: http://127.0.0.1:$port?x"
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: http://127.0.0.1:x"
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: http://127.0.0.1:$port#"
	[ "${lines[-1]}" = 403 ]
	# Our own origins still pass.
	run -0 post "$INIT" -H "Origin: http://127.0.0.1:$port"
	[ "${lines[-1]}" = 200 ]
	run -0 post "$INIT" -H "Origin: http://[::1]:$port"
	[ "${lines[-1]}" = 200 ]
	run -0 post "$INIT" -H "Origin: https://localhost"
	[ "${lines[-1]}" = 200 ]
}

@test "item 11: a FIFO as --token-file is refused at once" {
	mkfifo -m 600 "$T/token"
	run -3 --separate-stderr timeout -k 2 10 urlserve -l 127.0.0.1:0 \
	    --token-file "$T/token"
	[ "$stderr" = "urlserve: '$T/token': not a regular file" ]
	# toolack serve reads its token file the same way.
	run -3 --separate-stderr timeout -k 2 10 toolack serve -l 127.0.0.1:0 \
	    --token-file "$T/token"
	[[ $stderr == *"'$T/token': not a regular file"* ]]
}

@test "item 12: a weak token is refused with a way to make one" {
	local t
	for t in x ' ' 0123456789abcde aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \
	    abababababababababababababab; do
		token_file "$t"
		run -3 --separate-stderr timeout -k 2 10 urlserve -l 127.0.0.1:0 \
		    --token-file "$T/token"
		[[ $stderr == "urlserve: '$T/token': weak token (at least 16 bytes and 8 distinct characters wanted): make one with 'openssl rand -hex 32'"* ]]
	done
	# 16 bytes, 16 distinct: served.
	token_file 0123456789abcdef
	http_start
	[ "$TOK" = 0123456789abcdef ]
	run -0 post "$INIT"
	[ "${lines[-1]}" = 200 ]
}

@test "item 13: a long token is taken whole, never cut; over 4096 bytes refused" {
	local long
	long=$(openssl rand -hex 150)
	[ "${#long}" -eq 300 ]
	token_file "$long"
	http_start
	[ "$TOK" = "$long" ]
	run -0 post "$INIT"
	[ "${lines[-1]}" = 200 ]
	TOK=${long:0:255}
	run -0 post "$INIT"
	[ "${lines[-1]}" = 401 ]
	TOK=${long:0:299}
	run -0 post "$INIT"
	[ "${lines[-1]}" = 401 ]
	kill "$(cat "$T/serve.pid")"
	wait "$(cat "$T/serve.pid")" || :
	token_file "$(openssl rand -hex 2049)"
	run -3 --separate-stderr timeout -k 2 10 urlserve -l 127.0.0.1:0 \
	    --token-file "$T/token"
	[ "$stderr" = "urlserve: '$T/token': token over 4096 bytes" ]
}
