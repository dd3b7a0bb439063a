#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack serve: token, origin, host, body size and URL checks (every
# refusal must leave the registry untouched); then calls that reuse ids,
# handlers that print too much and timeouts out of range.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	ACK='{"toolCallId":"s1","status":"success","output":null,"errorText":null,"requestedAt":"2026-01-01T00:00:00Z"}'
	CALL='{"toolCallId":"r1","toolName":"open_url","input":{"url":"https://example.com/one"}}'
	CALL2='{"toolCallId":"r1","toolName":"open_url","input":{"url":"https://example.com/two"}}'
}

# s1_pending: a server with the call s1 pending, for the checks of serve.
s1_pending() {
	ta_start
	run -0 --separate-stderr toolack call --no-wait <<<'{"type":"x","id":"s1","timeoutSec":60}'
}

teardown() {
	common_teardown
}

# post_ack CURL-ARGS...: POST the ack of s1 with no token of ours.
post_ack() {
	curl -s --max-time 10 -w '\n%{http_code}\n' -d "$ACK" "$@" \
	    "$TOOLACK_URL/api/tools/ack"
}

@test "ack without a token: 401, nothing resolved" {
	s1_pending
	run -0 post_ack
	[ "${lines[1]}" = 401 ]
	json_eq "${lines[0]}" "{\"ok\":false,\"reason\":\"missing or wrong token: send the first line of the token file '$T/token' as 'Authorization: Bearer TOKEN'\"}"
	[ "$(ta_pending)" = 1 ]
}

@test "ack with a wrong token: 401, nothing resolved" {
	s1_pending
	run -0 post_ack -H "Authorization: Bearer ${TOKEN%?}x"
	[ "${lines[1]}" = 401 ]
	run -0 post_ack -H "Authorization: Bearer $TOKEN$TOKEN"
	[ "${lines[1]}" = 401 ]
	run -0 curl -s -w '\n%{http_code}\n' -d "$ACK" "$TOOLACK_URL/api/tools/ack?token=wrong"
	[ "${lines[1]}" = 401 ]
	[ "$(ta_pending)" = 1 ]
}

@test "ack from another origin: 403 even with the token, nothing resolved" {
	s1_pending
	for o in http://evil.example "http://127.0.0.1:1" null "${TOOLACK_URL}.evil.example"; do
		run -0 post_ack -H "Authorization: Bearer $TOKEN" -H "Origin: $o"
		[ "${lines[1]}" = 403 ]
	done
	run -0 post_ack -H "Authorization: Bearer $TOKEN" -H 'Sec-Fetch-Site: cross-site'
	[ "${lines[1]}" = 403 ]
	[ "$(ta_pending)" = 1 ]
	# The server's own origin is fine.
	run -0 post_ack -H "Authorization: Bearer $TOKEN" -H "Origin: $TOOLACK_URL"
	[ "${lines[1]}" = 200 ]
	[ "$(ta_pending)" = 0 ]
}

@test "a Host that is not ours (DNS rebinding): 403" {
	s1_pending
	run -0 post_ack -H "Authorization: Bearer $TOKEN" -H "Host: evil.example:${TOOLACK_URL##*:}"
	[ "${lines[1]}" = 403 ]
	json_eq "${lines[0]}" '{"ok":false,"reason":"unexpected Host header"}'
	run -0 curl -s -w '\n%{http_code}\n' -H "Host: evil.example" "$TOOLACK_URL/?token=$TOKEN"
	[ "${lines[-1]}" = 403 ]
	[[ $output != *"$TOKEN"* ]]
	[ "$(ta_pending)" = 1 ]
}

@test "oversized bodies: 413, with or without Content-Length" {
	s1_pending
	head -c 70000 /dev/zero | tr '\0' a >"$T/big"
	printf '{"toolCallId":"s1","status":"success","requestedAt":"2026-01-01T00:00:00Z","output":"%s"}' "$(cat "$T/big")" >"$T/big.json"
	run -0 curl -s -w '\n%{http_code}\n' -H "Authorization: Bearer $TOKEN" \
	    --data-binary @"$T/big.json" "$TOOLACK_URL/api/tools/ack"
	[ "${lines[-1]}" = 413 ]
	run -0 curl -s -w '\n%{http_code}\n' -H "Authorization: Bearer $TOKEN" \
	    -H 'Transfer-Encoding: chunked' --data-binary @"$T/big.json" \
	    "$TOOLACK_URL/api/tools/ack"
	[ "${lines[-1]}" = 413 ]
	run -0 curl -s -w '\n%{http_code}\n' -H "Authorization: Bearer $TOKEN" \
	    -H 'Transfer-Encoding: chunked' --data-binary @"$T/big.json" \
	    "$TOOLACK_URL/api/tools/dispatch"
	[ "${lines[-1]}" = 413 ]
	[ "$(ta_pending)" = 1 ]
}

@test "a Content-Length that is not a plain number: 400, even beside chunked" {
	s1_pending
	# libmicrohttpd refuses these itself, except beside chunked, where
	# the server read "1K" as 1024 and took the ack.
	printf '%s' "$ACK" >"$T/ack.json"
	for cl in 1K 64k 1KiB 2B +10 0x10 '10 5'; do
		run -0 curl -s --max-time 10 -w '\n%{http_code}\n' \
		    -H "Authorization: Bearer $TOKEN" -H 'Transfer-Encoding: chunked' \
		    -H "Content-Length: $cl" --data-binary @"$T/ack.json" \
		    "$TOOLACK_URL/api/tools/ack"
		[ "${lines[-1]}" = 400 ]
		json_eq "${lines[0]}" '{"ok":false,"reason":"bad Content-Length"}'
	done
	[ "$(ta_pending)" = 1 ]
	# Digits alone still go through, and a long run of them is too large.
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' \
	    -H "Authorization: Bearer $TOKEN" -H 'Transfer-Encoding: chunked' \
	    -H 'Content-Length: 99999999999999999999999999' \
	    --data-binary @"$T/ack.json" "$TOOLACK_URL/api/tools/ack"
	[ "${lines[-1]}" = 413 ]
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' \
	    -H "Authorization: Bearer $TOKEN" -H 'Transfer-Encoding: chunked' \
	    -H "Content-Length: ${#ACK}" --data-binary @"$T/ack.json" \
	    "$TOOLACK_URL/api/tools/ack"
	[ "${lines[-1]}" = 200 ]
	[ "$(ta_pending)" = 0 ]
}

@test "dispatch and the event stream need the token too" {
	s1_pending
	run -0 curl -s -w '\n%{http_code}\n' -d '{"type":"open_url","id":"d1","parameters":{"url":"https://example.com/"}}' "$TOOLACK_URL/api/tools/dispatch"
	[ "${lines[1]}" = 401 ]
	run -0 curl -s --max-time 5 -w '\n%{http_code}\n' "$TOOLACK_URL/api/tools/events"
	[ "${lines[-1]}" = 401 ]
	run -0 curl -s -w '\n%{http_code}\n' "$TOOLACK_URL/api/tools/calls"
	[ "${lines[-1]}" = 401 ]
	[ "$(ta_pending)" = 1 ]
	TOOLACK_TOKEN=wrong run -3 --separate-stderr toolack call --tool open_url <<<'https://example.com/'
	[ -z "$output" ]
	[[ $stderr == *"HTTP 401: missing or wrong token"* ]]
}

@test "javascript:, file: and other URLs are failed at once and never reach a frontend" {
	s1_pending
	ta_exec ex -H "open_url=$TOP/tests/helpers/toolack_argv.sh $T/ran"
	run -1 --separate-stderr toolack call --tool open_url <<'EOF2'
javascript:alert(document.cookie)
file:///etc/passwd
data:text/html,<script>alert(1)</script>
JaVaScRiPt:alert(1)
ftp://example.com/x
http://exa mple.com/
EOF2
	[ "${#lines[@]}" -eq 6 ]
	[ "$(jq -r .status <<<"$output" | sort -u)" = failed ]
	[ "$(jq -r .errorText <<<"${lines[0]}")" = "scheme 'javascript' is not allowed: only http and https URLs are opened" ]
	[ "$(jq -r .errorText <<<"${lines[1]}")" = "scheme 'file' is not allowed: only http and https URLs are opened" ]
	[ "$(jq -r .errorText <<<"${lines[5]}")" = "invalid URL: Bad hostname" ]
	refused=$(jq -r .toolCallId <<<"${lines[0]}")
	run -1 --separate-stderr toolack call <<<'{"type":"open_url","id":"nourl","parameters":{}}'
	[ "$(jq -r .errorText <<<"$output")" = "url is required" ]
	# A real call afterwards goes through: the executor was listening.
	run -0 --separate-stderr toolack call --tool open_url <<<'https://example.com/ok'
	[ "$(cat "$T/ran")" = "1:https://example.com/ok" ]
	[ "$(ta_pending)" = 1 ]
	run -1 --separate-stderr toolack ack "$refused" --status success
	json_eq "$output" '{"ok":false,"reason":"expired: the call was refused"}'
}

@test "the page needs the token and carries its protections" {
	s1_pending
	run -0 curl -s -w '\n%{http_code}\n' "$TOOLACK_URL/"
	[ "${lines[-1]}" = 401 ]
	[[ $output != *"$TOKEN"* ]]
	run -0 curl -s -D "$T/headers" "$TOOLACK_URL/?token=$TOKEN"
	[[ $output == *"const TOKEN = \"$TOKEN\""* ]]
	grep -qi '^Referrer-Policy: no-referrer' "$T/headers"
	grep -qi "^Content-Security-Policy: default-src 'none'" "$T/headers"
	grep -qi '^X-Frame-Options: DENY' "$T/headers"
}

@test "the token file is private, and a shared one is refused" {
	s1_pending
	[ "$(stat -c %a "$T/token")" = 600 ]
	mkdir -p "$T/x"
	echo shared >"$T/x/token"
	chmod 644 "$T/x/token"
	run -3 --separate-stderr toolack serve -l 127.0.0.1:0 --token-file "$T/x/token"
	[[ $stderr == *"not a private file of ours"* ]]
	run -0 --separate-stderr env TOOLACK_TOKEN_FILE="$T/new/dir/token" XDG_RUNTIME_DIR= timeout -k 5 1 toolack serve -l 127.0.0.1:0 || true
	[ "$(stat -c %a "$T/new/dir")" = 700 ]
	[ "$(stat -c %a "$T/new/dir/token")" = 600 ]
}

@test "an id whose call resolved is refused (409, said in the record), not run again" {
	ta_start
	ta_exec ex -H "open_url=$TOP/tests/helpers/toolack_argv.sh $T/argv"
	run -0 --separate-stderr toolack call -t 10 <<<"$CALL"
	[ "$(jq -r .status <<<"$output")" = success ]
	# The same id for another URL: refused, the old output not replayed.
	run -1 --separate-stderr toolack call -t 10 <<<"$CALL2"
	[ "$(jq -r .status <<<"$output")" = failed ]
	[ "$(jq -r .toolCallId <<<"$output")" = r1 ]
	[ "$(jq -r .output <<<"$output")" = null ]
	[[ $(jq -r .errorText <<<"$output") == *"'r1' was used within the last hour"* ]]
	[ "$(cat "$T/argv")" = "1:https://example.com/one" ]
	# The HTTP answer is 409 with the same record.
	run -0 ta_curl -d "$CALL2" "$TOOLACK_URL/api/tools/dispatch"
	[ "${lines[1]}" = 409 ]
	[ "$(jq -r .status <<<"${lines[0]}")" = failed ]
	[ "$(ta_pending)" = 0 ]
}

@test "an id that is pending is refused (409) and the pending call is unchanged" {
	ta_start
	run -0 ta_curl -d "$CALL" "$TOOLACK_URL/api/tools/dispatch?wait=0"
	[ "${lines[1]}" = 202 ]
	run -0 ta_curl -d "$CALL2" "$TOOLACK_URL/api/tools/dispatch?wait=0"
	[ "${lines[1]}" = 409 ]
	[[ $(jq -r .errorText <<<"${lines[0]}") == *"'r1' is already pending"* ]]
	run -0 ta_curl "$TOOLACK_URL/api/tools/calls"
	[ "$(jq -r '.calls | length' <<<"${lines[0]}")" = 1 ]
	[ "$(jq -r '.calls[0].input.url' <<<"${lines[0]}")" = https://example.com/one ]
}

@test "web frontend: an old id for a new call after a server restart opens the new URL" {
	[ -x "$CHROMIUM" ] || skip "no chromium at $CHROMIUM"
	ta_start
	start_server PAGE python3 "$TOP/tests/helpers/toolack_page.py"
	ch="python3 $TOP/tests/helpers/toolack_chromium.py"
	mkdir -p "$T/chromium"
	$ch launch "$T/chromium" "$TOOLACK_URL/?token=$TOKEN" --allow-popups \
	    >"$T/CH.port" 2>"$T/CH.log" &
	echo $! >"$T/CH.pid"
	wait_for 30 test -s "$T/CH.port"
	DT_PORT=$(head -n 1 "$T/CH.port")
	one="http://127.0.0.1:$PAGE_PORT/one"
	two="http://127.0.0.1:$PAGE_PORT/two"
	run -0 --separate-stderr toolack call -t 30 <<<"{\"toolCallId\":\"w1\",\"toolName\":\"open_url\",\"input\":{\"url\":\"$one\"}}"
	[ "$(jq -r .output.url <<<"$output")" = "$one" ]
	# A new server on the same address: the page reconnects, its memory
	# of w1 is kept, and w1 is a new call there.
	port=${TOOLACK_URL##*:}
	kill "$(cat "$T/TA.pid")"
	wait_for 10 sh -c "! kill -0 $(cat "$T/TA.pid") 2>/dev/null"
	start_server TA toolack serve -l "127.0.0.1:$port" -b 0.2
	run -0 --separate-stderr toolack call -t 30 <<<"{\"toolCallId\":\"w1\",\"toolName\":\"open_url\",\"input\":{\"url\":\"$two\"}}"
	[ "$(jq -r .status <<<"$output")" = success ]
	[ "$(jq -r .output.url <<<"$output")" = "$two" ]
	$ch wait-target "$DT_PORT" "$two" 10
}

@test "exec: 200 KB on a handler's stdout is cut to fit the ack, marked truncated" {
	ta_start
	ta_exec ex -H 'open_url=sh -c "head -c 200000 /dev/zero | tr \\\\0 a" sh'
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/big'
	[ "$(jq -r .status <<<"$output")" = success ]
	[ "$(jq -r .output.truncated <<<"$output")" = true ]
	[ "$(jq -r .output.url <<<"$output")" = https://example.com/big ]
	n=$(jq -r '.output.stdout | length' <<<"$output")
	[ "$n" -gt 60000 ] && [ "$n" -lt 65536 ]
	[[ $(jq -r .output.stdout <<<"$output") =~ ^a+$ ]]
}

@test "exec: a handler's JSON object too large for the ack lands as cut text" {
	ta_start
	# 65,500 bytes: read whole, but with the ack's other fields over the
	# server's 64 KiB body limit.
	cat >"$T/obj.sh" <<-'EOF'
	#!/bin/sh
	printf '{"q":"'
	head -c 65490 /dev/zero | tr '\0' a
	printf '"}'
	EOF
	chmod +x "$T/obj.sh"
	ta_exec ex -t 10 -H "open_url=$T/obj.sh"
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/obj'
	[ "$(jq -r .status <<<"$output")" = success ]
	[ "$(jq -r .output.truncated <<<"$output")" = true ]
	[[ $(jq -r .output.stdout <<<"$output") == '{"q":"aaa'* ]]
	[ "${#output}" -lt 65536 ]
}

@test "a negative timeoutSec is refused, never the default" {
	ta_start
	for t in -1 -2 0; do
		run -1 --separate-stderr toolack call <<<"{\"toolCallId\":\"n$t\",\"toolName\":\"open_url\",\"input\":{\"url\":\"https://example.com/\"},\"timeoutSec\":$t}"
		[ "$(jq -r .error <<<"$output")" = "timeoutSec must be an integer from 1 to 86400" ]
		run -0 ta_curl -d "{\"toolCallId\":\"n$t\",\"toolName\":\"open_url\",\"input\":{\"url\":\"https://example.com/\"},\"timeoutSec\":$t}" "$TOOLACK_URL/api/tools/dispatch?wait=0"
		[ "${lines[1]}" = 400 ]
		[[ ${lines[0]} == *"from 1 to 86400"* ]]
	done
	[ "$(ta_pending)" = 0 ]
}
