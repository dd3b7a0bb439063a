#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack serve: token, origin, host, body size and URL checks.  Every
# refusal must leave the registry untouched.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

setup() {
	common_setup
	ta_start
	run -0 --separate-stderr toolack call --no-wait <<<'{"type":"x","id":"s1","timeoutSec":60}'
	ACK='{"toolCallId":"s1","status":"success","output":null,"errorText":null,"requestedAt":"2026-01-01T00:00:00Z"}'
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
	run -0 post_ack
	[ "${lines[1]}" = 401 ]
	json_eq "${lines[0]}" '{"ok":false,"reason":"missing or wrong token"}'
	[ "$(ta_pending)" = 1 ]
}

@test "ack with a wrong token: 401, nothing resolved" {
	run -0 post_ack -H "Authorization: Bearer ${TOKEN%?}x"
	[ "${lines[1]}" = 401 ]
	run -0 post_ack -H "Authorization: Bearer $TOKEN$TOKEN"
	[ "${lines[1]}" = 401 ]
	run -0 curl -s -w '\n%{http_code}\n' -d "$ACK" "$TOOLACK_URL/api/tools/ack?token=wrong"
	[ "${lines[1]}" = 401 ]
	[ "$(ta_pending)" = 1 ]
}

@test "ack from another origin: 403 even with the token, nothing resolved" {
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
	run -0 post_ack -H "Authorization: Bearer $TOKEN" -H "Host: evil.example:${TOOLACK_URL##*:}"
	[ "${lines[1]}" = 403 ]
	json_eq "${lines[0]}" '{"ok":false,"reason":"unexpected Host header"}'
	run -0 curl -s -w '\n%{http_code}\n' -H "Host: evil.example" "$TOOLACK_URL/?token=$TOKEN"
	[ "${lines[-1]}" = 403 ]
	[[ $output != *"$TOKEN"* ]]
	[ "$(ta_pending)" = 1 ]
}

@test "oversized bodies: 413, with or without Content-Length" {
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
	[ "$(stat -c %a "$T/token")" = 600 ]
	mkdir -p "$T/x"
	echo shared >"$T/x/token"
	chmod 644 "$T/x/token"
	run -3 --separate-stderr toolack serve -l 127.0.0.1:0 --token-file "$T/x/token"
	[[ $stderr == *"not a private file of ours"* ]]
	run -0 --separate-stderr env TOOLACK_TOKEN_FILE="$T/new/dir/token" XDG_RUNTIME_DIR= timeout 1 toolack serve -l 127.0.0.1:0 || true
	[ "$(stat -c %a "$T/new/dir")" = 700 ]
	[ "$(stat -c %a "$T/new/dir/token")" = 600 ]
}
