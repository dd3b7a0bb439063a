#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack against calls that reuse ids, handlers that print too much and
# timeouts out of range (issue 15, items 12, 13 and 19).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	CALL='{"toolCallId":"r1","toolName":"open_url","input":{"url":"https://example.com/one"}}'
	CALL2='{"toolCallId":"r1","toolName":"open_url","input":{"url":"https://example.com/two"}}'
}

teardown() {
	common_teardown
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
