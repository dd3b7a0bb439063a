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

# The HTTP server (when one was started) ends on SIGTERM with status 0
# and no sanitizer's report.
teardown() {
	local pid st=0 ok=0
	if [ -e "$T/serve.pid" ]; then
		read -r pid <"$T/serve.pid"
		kill "$pid" 2>/dev/null && { wait "$pid" || st=$?; }
		rm -f "$T/serve.pid"
		if [ "$st" -ne 0 ] || grep -q Sanitizer "$T/serve.err"; then
			echo "urlserve -l exited $st" >&2
			cat "$T/serve.err" >&2
			ok=1
		fi
	fi
	common_teardown
	return $ok
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
	wait "$(cat "$T/serve.pid")"
	rm "$T/serve.pid"
	token_file "$(openssl rand -hex 2049)"
	run -3 --separate-stderr timeout -k 2 10 urlserve -l 127.0.0.1:0 \
	    --token-file "$T/token"
	[ "$stderr" = "urlserve: '$T/token': token over 4096 bytes" ]
}

# sid_of: the Mcp-Session-Id of the headers in $T/h.
sid_of() {
	sed -n 's/^Mcp-Session-Id: *\([0-9a-f]*\).*/\1/Ip' "$T/h"
}

# call SID TOOL ARGS: a tools/call in session SID; body, then status.
call() {
	post "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$2\",\"arguments\":$3}}" \
	    -H "Mcp-Session-Id: $1"
}

@test "item 2: 300 stalled connections leave a token holder served within a second" {
	http_start
	python3 "$TOP/tests/helpers/mcp_flood.py" stall "$URL" 300 25 \
	    >"$T/stall.out" 2>"$T/stall.err" &
	echo $! >"$T/stall.pid"
	wait_for 30 grep -q '^stalled 300$' "$T/stall.out"
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" timed "$URL" "$TOK"
	[ "$(jq -c '{init, status, urls}' <<<"$output")" = '{"init":true,"status":200,"urls":true}' ]
	jq -e '.seconds < 1' <<<"$output"
	# The stalled ones are closed once their headers are 10 s late.
	wait_for 40 grep -q '^closed' "$T/stall.out"
	[ "$(sed -n 's/^closed //p' "$T/stall.out")" -eq 300 ]
}

@test "item 7: a flood of initializes does not end a session that holds fetched pages" {
	http_start
	run -0 post "$INIT" -D "$T/h"
	[ "${lines[-1]}" = 200 ]
	local sid
	sid=$(sid_of)
	[ -n "$sid" ]
	run -0 call "$sid" fetch_url "{\"url\":\"$B/article.html\"}"
	[ "${lines[-1]}" = 200 ]
	[ "$(jq -r .result.isError <<<"${lines[0]}")" = false ]
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" inits "$URL" "$TOK" 4 75
	[ "$(jq -c . <<<"$output")" = '{"200":300}' ]
	run -0 call "$sid" get_fetched_urls '{}'
	[ "${lines[-1]}" = 200 ]
	[ "$(jq -r .result.structuredContent.count <<<"${lines[0]}")" = 1 ]
}

@test "item 8: concurrent initializes with every session idle never get 503" {
	http_start
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" inits "$URL" "$TOK" 8 1000
	[ "$(jq -c . <<<"$output")" = '{"200":8000}' ]
}

@test "one client's 64 sessions holding pages: the 65th initialize is 503 until one ends" {
	http_start
	local i sid sids=()
	for ((i = 0; i < 64; i++)); do
		post "$INIT" -D "$T/h" >"$T/init.out"
		[ "$(tail -1 "$T/init.out")" = 200 ]
		sid=$(sid_of)
		call "$sid" fetch_url "{\"url\":\"$B/article.html\"}" >"$T/call.out"
		[ "$(tail -1 "$T/call.out")" = 200 ]
		[ "$(head -1 "$T/call.out" | jq -r .result.isError)" = false ]
		sids+=("$sid")
	done
	# None idle and empty to end: refused, saying what to do.
	run -0 post "$INIT"
	[ "${lines[-1]}" = 503 ]
	[[ $output == *"too many sessions for this client: end some (DELETE)"* ]]
	# Every session is still there, its page with it.
	run -0 call "${sids[0]}" get_fetched_urls '{}'
	[ "${lines[-1]}" = 200 ]
	[ "$(jq -r .result.structuredContent.count <<<"${lines[0]}")" = 1 ]
	# One ended: the next initialize gets its room.
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' -X DELETE \
	    -H "Authorization: Bearer $TOK" -H "Mcp-Session-Id: ${sids[5]}" "$URL"
	[ "${lines[-1]}" = 200 ]
	run -0 post "$INIT" -D "$T/h"
	[ "${lines[-1]}" = 200 ]
	sid=$(sid_of)
	# That one holds nothing: the next initialize ends it, not a page's.
	run -0 post "$INIT"
	[ "${lines[-1]}" = 200 ]
	run -0 post '{"jsonrpc":"2.0","id":1,"method":"ping"}' -H "Mcp-Session-Id: $sid"
	[ "${lines[-1]}" = 404 ]
	run -0 call "${sids[63]}" get_fetched_urls '{}'
	[ "$(jq -r .result.structuredContent.count <<<"${lines[0]}")" = 1 ]
}

@test "item 16: render_url says what is wrong with wait, and its schema lists the values" {
	export URLKIT_CHROMIUM=${URLKIT_CHROMIUM_REAL:-/usr/lib/chromium/chromium}
	[ -x "$URLKIT_CHROMIUM" ] || skip "no Chromium"
	run -0 --separate-stderr urlserve < <(printf '%s\n' "$INIT" \
	    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
	    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"render_url","arguments":{"url":"http://127.0.0.1:9/","wait":"bogus"}}}' \
	    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"render_url","arguments":{"url":"http://127.0.0.1:9/","wait":"selector:"}}}')
	local out=$output
	run -0 jq -c 'select(.id == 1) | .result.tools[] | select(.name == "render_url") | .inputSchema.properties.wait.anyOf' <<<"$out"
	[ "$output" = '[{"enum":["load","domcontentloaded","networkidle"]},{"pattern":"^selector:."}]' ]
	run -0 jq -r 'select(.id == 3) | .result | "\(.isError) \(.content[0].text)"' <<<"$out"
	[ "$output" = "true render_url: wait must be load, domcontentloaded, networkidle or selector:CSS, not 'selector:'" ]
	run -0 jq -r 'select(.id == 2) | .result | "\(.isError) \(.content[0].text)"' <<<"$out"
	[ "$output" = "true render_url: wait must be load, domcontentloaded, networkidle or selector:CSS, not 'bogus'" ]
}

@test "item 5: the fetched set is bounded by -G, oldest out, and its memory given back" {
	start_server BIG python3 "$TOP/tests/helpers/big_server.py" 1024
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" fetches \
	    "http://127.0.0.1:$BIG_PORT" 80 -G 8M
	local out=$output
	[ "$(jq .status <<<"$out")" = 0 ]
	# About 1 MB a page: the newest 8 at most, the last one kept.
	jq -e '.urls | length >= 1 and length <= 8' <<<"$out"
	[ "$(jq -r '.urls[-1]' <<<"$out")" = "http://127.0.0.1:$BIG_PORT/80" ]
	[ "$(jq -r '.urls[0]' <<<"$out")" != "http://127.0.0.1:$BIG_PORT/1" ]
	# 80 MB of pages grew the RSS by some 100 MB when nothing was
	# dropped; bounded, under 45 MB (the sanitizers keep freed memory
	# in quarantine: not measured there).
	sanitized || jq -e '.fetched - .start < 45000' <<<"$out"
	sanitized || jq -e '.cleared - .start < 30000' <<<"$out"
	run -2 --separate-stderr urlserve -G 0
	[[ $stderr == "urlserve: -G: not a size"* ]]
	run -2 --separate-stderr urlserve -G 10
	[[ $stderr == "urlserve: -G: not a size"* ]]
}

@test "item 6: over-long arguments are refused when read, and the calls queued are bounded by -Q" {
	start_server SLOW python3 "$TOP/tests/helpers/heavy_server.py" slow 4
	# 50 texts of 4,000,000 bytes behind a fetch that holds the worker:
	# refused as they are read, none queued.
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" queued \
	    "http://127.0.0.1:$SLOW_PORT/a" 50 4000000
	local out=$output
	[ "$(jq .status <<<"$out")" = 0 ]
	[ "$(jq -c .errors <<<"$out")" = "{\"invalid arguments for detect_urls: 'text' must hold at most 1048576 characters\":50}" ]
	sanitized || jq -e '.peak - .start < 60000' <<<"$out"
	# 100 texts of 900,000 bytes (each under the limit) with -Q 8M:
	# urlserve reads no further while 8 MB of calls wait.
	run -0 python3 "$TOP/tests/helpers/mcp_flood.py" queued \
	    "http://127.0.0.1:$SLOW_PORT/b" 100 900000 -Q 8M
	out=$output
	[ "$(jq .status <<<"$out")" = 0 ]
	[ "$(jq -c .errors <<<"$out")" = '{}' ]
	sanitized || jq -e '.peak - .start < 40000' <<<"$out"
}

# open_calls OPTION... -- URL...: open_url of each URL through urlserve
# OPTION... on stdio, with no toolack server; each answer's text, a line,
# in the order of the calls (urlserve answers them as they finish).
open_calls() {
	local opts=() msgs=("$INIT") i=0 u
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	for u in "$@"; do
		i=$((i + 1))
		msgs+=("{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":{\"name\":\"open_url\",\"arguments\":{\"url\":\"$u\",\"timeoutSec\":1}}}")
	done
	TOOLACK_URL=http://127.0.0.1:9 TOOLACK_TOKEN=open-url-test-token \
	    urlserve "${opts[@]}" < <(printf '%s\n' "${msgs[@]}") |
	    jq -sr 'map(select(.id != 0)) | sort_by(.id)[] |
	    .result.content[0].text'
}

@test "item 9: open_url refuses internal addresses unless allowed" {
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	run -0 open_calls -- http://127.0.0.2/x 'http://[::1]:8080/' \
	    http://169.254.169.254/latest/meta-data/ http://127.0.0.1:9/ok
	[ "${lines[0]}" = "open_url: 'http://127.0.0.2/x' refused: 127.0.0.2 is an internal or private address (urlserve -O opens those too)" ]
	[ "${lines[1]}" = "open_url: 'http://[::1]:8080/' refused: ::1 is an internal or private address (urlserve -O opens those too)" ]
	[[ ${lines[2]} == "open_url: 'http://169.254.169.254/latest/meta-data/' refused: 169.254.169.254 is"* ]]
	# 127.0.0.1 is let through (URLKIT_ALLOW_PRIVATE): on to toolack.
	[[ ${lines[3]} == "open_url: no toolack server answered"* ]]
	[ "${#lines[@]}" -eq 4 ]
	# -O: every address goes on to toolack.
	run -0 open_calls -O -- http://127.0.0.2/x 'http://[::1]:8080/'
	[[ ${lines[0]} == "open_url: no toolack server answered"* ]]
	[[ ${lines[1]} == "open_url: no toolack server answered"* ]]
	[ "${#lines[@]}" -eq 2 ]
}

@test "item 6: over HTTP a call past -Q is a server busy error, and the server goes on" {
	start_server SLOW python3 "$TOP/tests/helpers/heavy_server.py" slow 8
	http_start -j 1 -Q 1M
	run -0 post "$INIT" -D "$T/h"
	[ "${lines[-1]}" = 200 ]
	local sid text p1 p2
	sid=$(sid_of)
	# The worker is held by a slow fetch, a call of 900,000 bytes waits.
	call "$sid" fetch_url "{\"url\":\"http://127.0.0.1:$SLOW_PORT/s\"}" \
	    >"$T/slow.out" &
	p1=$!
	wait_for 20 grep -q '^req /s' "$T/SLOW.log"
	text=$(head -c 900000 /dev/zero | tr '\0' x)
	printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"detect_urls","arguments":{"text":"%s"}}}' "$text" >"$T/big.json"
	post @"$T/big.json" -H "Mcp-Session-Id: $sid" >"$T/big1.out" &
	p2=$!
	nap 2
	nap_done
	# A second one would hold 1.8 MB of calls: refused at once.
	run -0 post @"$T/big.json" -H "Mcp-Session-Id: $sid"
	[ "${lines[-1]}" = 200 ]
	[ "$(jq -c .error <<<"${lines[0]}")" = '{"code":-32603,"message":"server busy: the calls queued hold over 1048576 bytes; try again later"}' ]
	wait "$p1" "$p2"
	[ "$(jq -r .result.isError <"$T/big1.out" | head -1)" = false ]
	run -0 call "$sid" detect_urls '{"text":"https://example.com/"}'
	[ "$(jq -r .result.structuredContent.count <<<"${lines[0]}")" = 1 ]
}
