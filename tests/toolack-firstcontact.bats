#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack serve at first contact: where the token is, said at start, by a
# 401 and by the page refused without it; the token itself never in a
# pipe or a log.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}

teardown() {
	common_teardown
}

@test "serve names its token file on stderr, never the token in a log" {
	ta_start
	wait_for 10 grep -q 'frontend at' "$T/TA.log"
	run -0 cat "$T/TA.log"
	[ "${lines[0]}" = "toolack serve: token file: $T/token" ]
	[ "${lines[1]}" = "toolack serve: frontend at $TOOLACK_URL/?token= followed by the first line of $T/token" ]
	[[ $output != *"$TOKEN"* ]]
}

@test "serve with TOOLACK_TOKEN says so and never prints it" {
	export TOOLACK_TOKEN=0123456789abcdef0123456789abcdef
	start_server TA toolack serve -l 127.0.0.1:0 -b 0.2
	wait_for 10 grep -q 'frontend at' "$T/TA.log"
	run -0 cat "$T/TA.log"
	[ "${lines[0]}" = "toolack serve: token: from TOOLACK_TOKEN" ]
	[[ $output != *"$TOOLACK_TOKEN"* ]]
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' "$TA_PORT/api/tools/calls"
	[ "${lines[-1]}" = 401 ]
	[ "$(jq -r .reason <<<"${lines[0]}")" = "missing or wrong token: send the token in TOOLACK_TOKEN as 'Authorization: Bearer TOKEN'" ]
}

@test "a 401 names the token file the server reads" {
	ta_start
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' "$TOOLACK_URL/api/tools/calls"
	[ "${lines[-1]}" = 401 ]
	[ "$(jq -r .reason <<<"${lines[0]}")" = "missing or wrong token: send the first line of the token file '$T/token' as 'Authorization: Bearer TOKEN'" ]
	# The client shows that reason.
	TOOLACK_TOKEN=wrongwrongwrongwrong run -3 --separate-stderr toolack ack --status success x1
	[[ $stderr == *"HTTP 401: missing or wrong token: send the first line of the token file '$T/token'"* ]]
}

@test "the page without the token names the token file, not the token" {
	ta_start
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' "$TOOLACK_URL/"
	[ "${lines[-1]}" = 401 ]
	[ "${lines[0]}" = "toolack: this page needs the token: open $TOOLACK_URL/?token= followed by the first line of $T/token, the token file this server reads" ]
	[[ $output != *"$TOKEN"* ]]
}

@test "the server counts its executors: in /api/tools/calls and the hello event" {
	ta_start
	run -0 ta_curl "$TOOLACK_URL/api/tools/calls?limit=0"
	[ "${lines[-1]}" = 200 ]
	[ "$(jq .executors <<<"${lines[0]}")" = 0 ]
	ta_exec ex -H 'open_url=true'
	wait_for 10 sh -c '[ "$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls?limit=0" | jq .executors)" = 1 ]'
	# A second executor is told it is the second.
	run -28 curl -s -N --max-time 1 -H "Authorization: Bearer $TOKEN" \
	    "$TOOLACK_URL/api/tools/events?executor=probe"
	hello=$(sed -n '/^event: hello/{n;s/^data: //p;}' <<<"$output")
	[ "$(jq .executors <<<"$hello")" = 2 ]
	# Gone when its stream ends.
	kill "$(cat "$T/ex.pid")"
	wait_for 10 sh -c '[ "$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls?limit=0" | jq .executors)" = 0 ]'
}

@test "serve on a terminal: the token file, then the page's address with the token" {
	export TOOLACK_TOKEN_FILE="$T/token"
	unset TOOLACK_TOKEN
	start_server TA python3 "$TOP/tests/helpers/pty_run.py" "$T/tty" \
	    toolack serve -l 127.0.0.1:0
	wait_for 10 grep -q 'frontend at' "$T/tty"
	run -0 tr -d '\r' <"$T/tty"
	read -r tok <"$T/token"
	[ "${lines[0]}" = "toolack serve: token file: $T/token" ]
	[ "${lines[1]}" = "toolack serve: frontend at $TA_PORT/?token=$tok" ]
}
