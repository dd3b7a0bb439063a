#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's protocol edge cases (lib/mcp): the stdio framing driven with
# raw JSON-RPC lines, then the streamable HTTP transport driven with curl
# (token, Origin, session id, body limit, DELETE, event stream).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() {
	fetch_setup_file
}

teardown_file() {
	fetch_teardown_file
}

setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	INIT='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}'
}

teardown() {
	common_teardown
}

# serve LINE...: the lines on urlserve's standard input (initialize
# first), its answers in $output, one a line; the initialize answer is
# dropped.
serve() {
	run --separate-stderr urlserve < <(printf '%s\n' "$INIT" "$@")
	[ "${#lines[@]}" -gt 0 ] && [[ "${lines[0]}" == *'"id":0,"result"'* ]] &&
	    lines=("${lines[@]:1}")
}

# answer ID: the line of $lines that answers ID (JSON text).  The id is
# jq -c .id's, read without a jq where the line begins
# {"jsonrpc":"2.0","id": and a short number or a plain string (as jq -c
# prints them); jq reads any other line.  (A jq for every line was some
# 40 ms of CPU.)
ANSWER_ID_RE='^\{"jsonrpc":"2\.0","id":([0-9]{1,15}|"[A-Za-z0-9_-]*")[,}]'
answer() {
	local l id
	for l in "${lines[@]}"; do
		if [[ $l =~ $ANSWER_ID_RE ]]; then
			id=${BASH_REMATCH[1]}
		else
			id=$(jq -c .id <<<"$l")
		fi
		[ "$id" = "$1" ] && { printf '%s\n' "$l"; return 0; }
	done
	return 1
}

@test "stdio: initialize negotiates the revision; serverInfo is urlserve" {
	run -0 --separate-stderr urlserve < <(printf '%s\n' \
	    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}')
	[ "$(jq -r .result.protocolVersion <<<"$output")" = 2024-11-05 ]
	[ "$(jq -r .result.serverInfo.name <<<"$output")" = urlserve ]
	[ "$(jq -r .result.serverInfo.version <<<"$output")" = "$(urlserve -V | awk '{print $NF}')" ]
	json_eq "$(jq -c .result.capabilities <<<"$output")" '{"tools":{"listChanged":false},"logging":{}}'
	run -0 --separate-stderr urlserve < <(printf '%s\n' \
	    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}')
	[ "$(jq -r .result.protocolVersion <<<"$output")" = 2025-11-25 ]
}

@test "stdio: a request before initialize is -32600; ping is allowed" {
	run -0 --separate-stderr urlserve < <(printf '%s\n' \
	    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
	    '{"jsonrpc":"2.0","id":2,"method":"ping"}')
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -c .error.code <<<"${lines[0]}")" = -32600 ]
	[[ "$(jq -r .error.message <<<"${lines[0]}")" == "not initialized"* ]]
	json_eq "${lines[1]}" '{"jsonrpc":"2.0","id":2,"result":{}}'
}

@test "stdio: a batch is one -32600 and none of it runs" {
	serve '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	json_eq "${lines[0]}" '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches are not supported"}}'
}

@test "stdio: malformed JSON is -32700 with id null, and the next line is answered" {
	serve '{"jsonrpc":"2.0","id":1,"method":' '{"jsonrpc":"2.0","id":2,"method":"ping"}'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -c '[.id, .error.code]' <<<"${lines[0]}")" = '[null,-32700]' ]
	json_eq "${lines[1]}" '{"jsonrpc":"2.0","id":2,"result":{}}'
}

@test "stdio: unknown method -32601, bad params -32602, unknown tool -32602" {
	serve '{"jsonrpc":"2.0","id":1,"method":"resources/list"}' \
	    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}' \
	    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}' \
	    '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"detect_urls","arguments":"text"}}'
	[ "$status" -eq 0 ]
	[ "$(answer 1 | jq -c .error.code)" = -32601 ]
	[ "$(answer 2 | jq -c .error.code)" = -32602 ]
	json_eq "$(answer 3 | jq -c .error)" '{"code":-32602,"message":"unknown tool nope"}'
	[ "$(answer 4 | jq -c .error.code)" = -32602 ]
}

@test "stdio: arguments against the schema are an error result, not a protocol error" {
	serve '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"detect_urls","arguments":{}}}' \
	    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"detect_urls","arguments":{"text":7}}}'
	[ "$status" -eq 0 ]
	[ "$(answer 1 | jq -c .result.isError)" = true ]
	[[ "$(answer 1 | jq -r '.result.content[0].text')" == *"'text' is required"* ]]
	[[ "$(answer 2 | jq -r '.result.content[0].text')" == *"'text' must be a string"* ]]
}

@test "stdio: a notification with an id is a request; an unknown notification is ignored" {
	serve '{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	    '{"jsonrpc":"2.0","method":"notifications/no-such-thing","params":{}}' \
	    '{"jsonrpc":"2.0","id":2,"method":"ping"}'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$(answer 1 | jq -c .error.code)" = -32601 ]
	json_eq "$(answer 2)" '{"jsonrpc":"2.0","id":2,"result":{}}'
}

@test "stdio: a 16 MiB message is refused naming the limit, with memory bounded" {
	# The line is made as it is read (no 16 MiB variable in the test).
	run --separate-stderr /usr/bin/time -f 'rss %M' -o "$T/time" urlserve < <(
	    printf '%s\n' "$INIT"
	    printf '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'
	    head -c $((16 << 20)) /dev/zero | tr '\0' a
	    printf '"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	json_eq "${lines[1]}" '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too long: over 4194304 bytes"}}'
	json_eq "${lines[2]}" '{"jsonrpc":"2.0","id":2,"result":{}}'
	# At most the 4 MiB limit is held: well under the 16 MiB sent.
	rss=$(awk '/^rss/ {print $2}' "$T/time")
	run -0 /usr/bin/time -f 'rss %M' -o "$T/time0" urlserve </dev/null
	base=$(awk '/^rss/ {print $2}' "$T/time0")
	echo "max RSS $rss KiB, $base KiB at rest" >&3
	sanitized || [ $((rss - base)) -lt 8192 ]
}

@test "stdio: stdout holds protocol messages only, whatever the input" {
	serve 'not json' '' '   ' '{"jsonrpc":"2.0","id":"é","method":"ping"}' \
	    '{"jsonrpc":"2.0","id":true,"method":"ping"}' '42' \
	    '{"jsonrpc":"1.0","id":3,"method":"ping"}' \
	    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"fetch_url\",\"arguments\":{\"url\":\"http://127.0.0.2:$FS_PORT/\"}}}"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 6 ]
	for l in "${lines[@]}"; do
		jq -e '.jsonrpc == "2.0" and has("id")' <<<"$l" >/dev/null
	done
	[ "$(answer '"é"' | jq -c .result)" = '{}' ]
	[ "$(answer 3 | jq -c .error.code)" = -32600 ]
	# A refused address is an error result, not a protocol error.
	[ "$(answer 4 | jq -c .result.isError)" = true ]
}

@test "stdio: calls are answered in any order" {
	serve "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"fetch_url\",\"arguments\":{\"url\":\"http://127.0.0.1:$FS_PORT/slow?ms=1500&o=1\",\"use_cache\":false}}}" \
	    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"detect_urls","arguments":{"text":"see https://example.com/a"}}}'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -c .id <<<"${lines[0]}")" = 2 ]
	[ "$(jq -c .id <<<"${lines[1]}")" = 1 ]
	[ "$(jq -c .result.isError <<<"${lines[1]}")" = false ]
}

@test "stdio: notifications/cancelled stops a slow fetch; no response for it" {
	start=$(date +%s%N)
	run --separate-stderr urlserve < <(
	    printf '%s\n' "$INIT" \
		"{\"jsonrpc\":\"2.0\",\"id\":\"slow\",\"method\":\"tools/call\",\"params\":{\"name\":\"fetch_url\",\"arguments\":{\"url\":\"http://127.0.0.1:$FS_PORT/slow?ms=8000&o=2\",\"use_cache\":false}}}"
	    nap 0.5
	    printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"test"}}' \
		'{"jsonrpc":"2.0","id":2,"method":"ping"}')
	ms=$((($(date +%s%N) - start) / 1000000))
	echo "ran $ms ms" >&3
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	json_eq "${lines[1]}" '{"jsonrpc":"2.0","id":2,"result":{}}'
	[ "$ms" -lt 5000 ]
}

@test "stdio: SIGTERM cancels running calls and ends the server" {
	mkfifo "$T/in"
	urlserve <"$T/in" >"$T/out" 2>"$T/err" &
	pid=$!
	exec {w}>"$T/in"
	printf '%s\n' "$INIT" \
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"fetch_url\",\"arguments\":{\"url\":\"http://127.0.0.1:$FS_PORT/slow?ms=8000&o=3\",\"use_cache\":false}}}" >&$w
	nap 0.5
	start=$(date +%s%N)
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	exec {w}>&-
	[ "$st" -eq 0 ]
	[ "$ms" -lt 3000 ]
	[ "$(wc -l <"$T/out")" -eq 1 ]
}

@test "stdio: a closed stdout ends the server quietly" {
	run -0 bash -c 'printf "%s\n" "$1" "$1" | { urlserve 2>"$2"; echo "status $?" >"$2.st"; } | head -c 0' _ "$INIT" "$T/err"
	run -0 cat "$T/err.st"
	[ "$output" = "status 0" ]
}

# The HTTP transport.

# http_start: urlserve -l on a free port, its URL in URL, the token in TOK.
# The log file is made first: the background job opens it in its own
# time, and a sed before that failed the test (status 2, seen under load).
http_start() {
	: >"$T/serve.err"
	urlserve -l 127.0.0.1:0 --token-file "$T/token" 2>"$T/serve.err" &
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
# the status on a line of its own; headers in $T/h.
post() {
	local body=$1
	shift
	curl -s --max-time 20 -D "$T/h" -w '\n%{http_code}\n' \
	    -H 'Content-Type: application/json' \
	    -H 'Accept: application/json, text/event-stream' \
	    -H "Authorization: Bearer $TOK" "$@" --data-binary "$body" "$URL"
}

# session: initialize; the session id in SID.
session() {
	run -0 post "$INIT"
	[ "${lines[-1]}" = 200 ]
	SID=$(tr -d '\r' <"$T/h" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
	[[ "$SID" =~ ^[0-9a-f]{32}$ ]]
}

@test "http: listens on loopback and prints its URL" {
	http_start
	[[ "$URL" =~ ^http://127\.0\.0\.1:[0-9]+/mcp$ ]]
	[ -n "$TOK" ]
}

@test "http: a missing or wrong token is 401" {
	http_start
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' -H 'Content-Type: application/json' --data-binary "$INIT" "$URL"
	[ "${lines[-1]}" = 401 ]
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' -H "Authorization: Bearer ${TOK}x" --data-binary "$INIT" "$URL"
	[ "${lines[-1]}" = 401 ]
}

@test "http: a foreign Origin is 403; the server's own and localhost pass" {
	http_start
	run -0 post "$INIT" -H 'Origin: http://evil.example'
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H 'Origin: null'
	[ "${lines[-1]}" = 403 ]
	run -0 post "$INIT" -H "Origin: ${URL%/mcp}"
	[ "${lines[-1]}" = 200 ]
	run -0 post "$INIT" -H 'Origin: http://localhost:3000'
	[ "${lines[-1]}" = 200 ]
}

@test "http: Mcp-Session-Id issued at initialize, required after, DELETE ends it" {
	http_start
	session
	run -0 post '{"jsonrpc":"2.0","id":1,"method":"ping"}'
	[ "${lines[-1]}" = 400 ]
	run -0 post '{"jsonrpc":"2.0","id":1,"method":"ping"}' -H "Mcp-Session-Id: 0123456789abcdef0123456789abcdef"
	[ "${lines[-1]}" = 404 ]
	run -0 post '{"jsonrpc":"2.0","method":"notifications/initialized"}' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 202 ]
	run -0 post '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' -H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 2025-11-25'
	[ "${lines[-1]}" = 200 ]
	[ "$(jq '.result.tools | length' <<<"${lines[0]}")" -ge 10 ]
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' -X DELETE -H "Authorization: Bearer $TOK" -H "Mcp-Session-Id: $SID" "$URL"
	[ "${lines[-1]}" = 200 ]
	run -0 post '{"jsonrpc":"2.0","id":3,"method":"ping"}' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 404 ]
}

@test "http: an unsupported MCP-Protocol-Version is 400; GET is 405" {
	http_start
	session
	run -0 post '{"jsonrpc":"2.0","id":1,"method":"ping"}' -H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 1999-01-01'
	[ "${lines[-1]}" = 400 ]
	run -0 curl -s --max-time 10 -D "$T/h" -w '\n%{http_code}\n' -H "Authorization: Bearer $TOK" -H "Mcp-Session-Id: $SID" -H 'Accept: text/event-stream' "$URL"
	[ "${lines[-1]}" = 405 ]
	grep -qi '^allow: POST, DELETE' "$T/h"
}

@test "http: a body over the 4 MiB limit is 413; malformed JSON is 400 with -32700" {
	http_start
	session
	head -c $((5 << 20)) /dev/zero | tr '\0' ' ' >"$T/big"
	run -0 post "@$T/big" -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 413 ]
	run -0 post '{"jsonrpc":' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 400 ]
	[ "$(jq -c .error.code <<<"${lines[0]}")" = -32700 ]
	run -0 post '[]' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 400 ]
}

# libmicrohttpd refuses a malformed Content-Length itself, but not one
# beside Transfer-Encoding: chunked: the server's own check must.
@test "http: a Content-Length that is not digits is 400, even beside chunked" {
	http_start
	session
	run -0 post '{"jsonrpc":"2.0","id":1,"method":"ping"}' -H "Mcp-Session-Id: $SID" -H 'Transfer-Encoding: chunked' -H 'Content-Length: 1K'
	[ "${lines[-1]}" = 400 ]
	[ "$(jq -r .error.message <<<"${lines[0]}")" = "bad Content-Length" ]
	run -0 post '{"jsonrpc":"2.0","id":2,"method":"ping"}' -H "Mcp-Session-Id: $SID" -H 'Transfer-Encoding: chunked' -H 'Content-Length: 99999999999999999999999'
	[ "${lines[-1]}" = 413 ]
	run -0 post '{"jsonrpc":"2.0","id":3,"method":"ping"}' -H "Mcp-Session-Id: $SID" -H 'Transfer-Encoding: chunked'
	[ "${lines[-1]}" = 200 ]
}

@test "http: a call with a progress token is an event stream ending with its response" {
	http_start
	session
	run -0 post '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"detect_urls","arguments":{"text":"at https://example.com/x"},"_meta":{"progressToken":"p"}}}' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 200 ]
	grep -qi '^content-type: text/event-stream' "$T/h"
	last=$(printf '%s\n' "$output" | sed -n 's/^data: //p' | tail -n 1)
	[ "$(jq -c '[.id, .result.isError]' <<<"$last")" = '[5,false]' ]
	# Without a token: plain JSON.
	run -0 post '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"detect_urls","arguments":{"text":"at https://example.com/x"}}}' -H "Mcp-Session-Id: $SID"
	[ "${lines[-1]}" = 200 ]
	grep -qi '^content-type: application/json' "$T/h"
	[ "$(jq -c .id <<<"${lines[0]}")" = 6 ]
}

@test "http: SIGTERM ends the server" {
	http_start
	session
	kill -TERM "$(cat "$T/serve.pid")"
	st=0
	wait "$(cat "$T/serve.pid")" || st=$?
	[ "$st" -eq 0 ]
	rm -f "$T/serve.pid"
}
