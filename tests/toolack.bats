#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack: dispatch -> exec -> ack -> result with real processes.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

setup() {
	common_setup
}

teardown() {
	common_teardown
}

# man.bats checks that --help prints the man page's SYNOPSIS.
@test "usage errors exit 2" {
	run -2 --separate-stderr toolack
	run -2 --separate-stderr toolack frobnicate
	run -2 --separate-stderr toolack call -j 0
	run -2 --separate-stderr toolack exec -H open_url=/nonexistent/cmd
	run -2 --separate-stderr toolack ack ID
}

@test "serve prints its address first and writes a private token" {
	ta_start
	[[ $TOOLACK_URL =~ ^http://127\.0\.0\.1:[0-9]+$ ]]
	[ "$(stat -c %a "$TOOLACK_TOKEN_FILE")" = 600 ]
	[ "${#TOKEN}" -eq 64 ]
	run -0 ta_curl "$TOOLACK_URL/api/tools/calls"
	[ "${lines[1]}" = 200 ]
	json_eq "${lines[0]}" '{"defaultTimeoutSec":60,"pending":0,"done":0,"executors":0,"calls":[]}'
}

@test "a given TOOLACK_TOKEN is used and no file is written" {
	export TOOLACK_TOKEN=s3cret TOOLACK_TOKEN_FILE="$T/never"
	start_server TA toolack serve -l 127.0.0.1:0
	[ ! -e "$T/never" ]
	run -0 curl -s -H 'Authorization: Bearer s3cret' "$TA_PORT/api/tools/calls"
	[ "$(jq .pending <<<"$output")" = 0 ]
}

@test "dispatch -> exec -> ack -> result, both tool call shapes" {
	ta_start
	ta_exec ex -H 'open_url=echo opened'
	run -0 --separate-stderr toolack call <<'EOF2'
{"type":"open_url","id":"u1","operation":"open_browser","parameters":{"url":"https://example.com/a"}}
{"toolCallId":"u2","toolName":"open_url","input":{"url":"https://example.com/b?q=1"},"timeoutSec":30}
EOF2
	[ "${#lines[@]}" -eq 2 ]
	json_eq "$(jq -c 'del(.requestedAt)' <<<"${lines[0]}")" \
	    '{"toolCallId":"u1","status":"success","output":{"url":"https://example.com/a","stdout":"opened https://example.com/a"},"errorText":null}'
	[ "$(jq -c '[.toolCallId,.status,.output.url]' <<<"${lines[1]}")" = \
	    '["u2","success","https://example.com/b?q=1"]' ]
	jq -e '.requestedAt | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<<"${lines[1]}"
}

@test "urldetect | toolack call --tool open_url" {
	ta_start
	ta_exec ex -H open_url=true
	run -0 --separate-stderr bash -c 'printf "see https://example.com/x and https://example.org/y.\n" | urldetect | toolack call --tool open_url'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .output.url <<<"${lines[0]}")" = https://example.com/x ]
	[ "$(jq -r .output.url <<<"${lines[1]}")" = https://example.org/y ]
	[ "$(jq -r .status <<<"${lines[1]}")" = success ]
}

@test "the URL reaches the handler as one argument, never through a shell" {
	ta_start
	ta_exec ex -H "open_url=$TOP/tests/helpers/toolack_argv.sh $T/argv"
	url='https://example.com/a;touch${IFS}'"$T"'/pwned?x=$(id)&y=`id`'
	run -0 --separate-stderr toolack call --tool open_url <<<"$url"
	[ "$(jq -r .status <<<"$output")" = success ]
	[ ! -e "$T/pwned" ]
	[ "$(cat "$T/argv")" = "1:$url" ]
}

@test "handler failure acks failed with exit status and stderr; exit 1" {
	ta_start
	ta_exec ex -H 'open_url=sh -c "echo cannot open >&2; exit 4" sh'
	run -1 --separate-stderr toolack call --tool open_url <<<'https://example.com/'
	[ "$(jq -r .status <<<"$output")" = failed ]
	[ "$(jq -r .errorText <<<"$output")" = "handler exited 4: cannot open" ]
}

@test "no server: toolack call stops with exit 3" {
	export TOOLACK_TOKEN=x TOOLACK_URL=http://127.0.0.1:9
	run -3 --separate-stderr toolack call --tool open_url <<<'https://example.com/'
	[ -z "$output" ]
	[[ $stderr == *"127.0.0.1:9"* ]]
}

@test "the server's default timeout applies to calls that give none" {
	ta_start -t 1
	run -1 --separate-stderr toolack call --tool open_url <<<'https://example.com/'
	[ "$(jq -r .errorText <<<"$output")" = "no ack within 1 s" ]
}

@test "no ack before the deadline: status timeout, the entry is gone" {
	ta_start
	run -1 --separate-stderr toolack call -t 1 --tool open_url <<<'https://example.com/'
	json_eq "$(jq -c 'del(.requestedAt)' <<<"$output")" \
	    "{\"toolCallId\":$(jq .toolCallId <<<"$output"),\"status\":\"timeout\",\"output\":null,\"errorText\":\"no ack within 1 s\"}"
	[ "$(ta_pending)" = 0 ]
	run -1 --separate-stderr toolack ack "$(jq -r .toolCallId <<<"$output")" --status success
	json_eq "$output" '{"ok":false,"reason":"expired: the call timed out"}'
}

@test "ack: first wins, repeats ignored, unknown 404, wait returns the winner" {
	ta_start
	run -0 --separate-stderr toolack call --no-wait <<<'{"type":"x","id":"a1","timeoutSec":30}'
	json_eq "$output" '{"toolCallId":"a1","status":"pending"}'
	[ "$(ta_pending)" = 1 ]
	run -0 --separate-stderr toolack ack a1 --status failed --error boom --result '{"n":1}'
	json_eq "$output" '{"ok":true}'
	run -0 --separate-stderr toolack ack a1 --status success
	json_eq "$output" '{"ok":true,"ignored":true}'
	run -1 --separate-stderr toolack wait a1
	json_eq "$(jq -c 'del(.requestedAt)' <<<"$output")" \
	    '{"toolCallId":"a1","status":"failed","output":{"n":1},"errorText":"boom"}'
	run -1 --separate-stderr toolack ack nosuch --status success
	json_eq "$output" '{"ok":false,"reason":"unknown toolCallId"}'
	run -1 --separate-stderr toolack wait nosuch
}

@test "ack payload is validated" {
	ta_start
	toolack call --no-wait <<<'{"type":"x","id":"v1","timeoutSec":30}'
	for body in '{"toolCallId":"v1","status":"done","requestedAt":"2025-02-01T12:34:56.789Z"}' \
	    '{"toolCallId":"v1","status":"success","requestedAt":"yesterday"}' \
	    '{"toolCallId":"v1","status":"success"}' \
	    '{"status":"success","requestedAt":"2025-02-01T12:34:56.789Z"}' \
	    '{"toolCallId":"v1","status":"success","errorText":5,"requestedAt":"2025-02-01T12:34:56Z"}' \
	    '[1]' 'not json'; do
		run -0 ta_curl -d "$body" "$TOOLACK_URL/api/tools/ack"
		[ "${lines[1]}" = 400 ]
		[ "$(jq .ok <<<"${lines[0]}")" = false ]
	done
	[ "$(ta_pending)" = 1 ]
	run -0 ta_curl -d '{"toolCallId":"v1","status":"success","output":{"url":"u"},"errorText":null,"requestedAt":"2025-02-01T12:34:56.789Z"}' "$TOOLACK_URL/api/tools/ack"
	[ "${lines[1]}" = 200 ]
	run -0 --separate-stderr toolack wait v1
	[ "$(jq -r .requestedAt <<<"$output")" = 2025-02-01T12:34:56.789Z ]
}

@test "bad input lines become error records in place; exit 1" {
	ta_start
	ta_exec ex -H open_url=true
	run -1 --separate-stderr toolack call <<'EOF2'
{"toolCallId":"g1","toolName":"open_url","input":{"url":"https://example.com/"}}
not json
{"url":"https://example.com/no-tool"}
{"error":"upstream failed","tool":"urlfetch"}
{"toolCallId":"g2","toolName":"open_url","input":{"url":"javascript:alert(1)"}}
EOF2
	[ "${#lines[@]}" -eq 5 ]
	[ "$(jq -r .status <<<"${lines[0]}")" = success ]
	[ "$(jq -c '[.tool,.line]' <<<"${lines[1]}")" = '["toolack",2]' ]
	[ "$(jq -c '[.tool,.line]' <<<"${lines[2]}")" = '["toolack",3]' ]
	json_eq "${lines[3]}" '{"error":"upstream failed","tool":"urlfetch"}'
	[ "$(jq -r .status <<<"${lines[4]}")" = failed ]
}

@test "call: each ack is written while the input stays open, the next line awaited" {
	ta_start
	ta_exec ex -H open_url=true
	mkfifo "$T/in"
	toolack call --tool open_url <"$T/in" >"$T/out" 2>"$T/err" 3>&- &
	cpid=$!
	exec 5>"$T/in"
	echo https://example.com/1 >&5
	wait_for 10 grep -q success "$T/out"
	echo https://example.com/2 >&5
	wait_for 10 bash -c "[ \$(grep -c success '$T/out') -eq 2 ]"
	exec 5>&-
	st=0
	wait "$cpid" || st=$?
	[ "$st" -eq 0 ]
}
