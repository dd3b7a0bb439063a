#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack's clients when the server fails them, and toolack exec and call
# stopped by a signal with handlers running and calls waiting.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults
load helpers/toolack

setup() {
	common_setup
	unset TOOLACK_URL TOOLACK_TOKEN_FILE
	export TOOLACK_TOKEN=fault-token
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	CALL='{"type":"open_url","id":"f1","parameters":{"url":"https://example.com/"}}'
}

teardown() {
	common_teardown
}

# For wait_for, which runs a command again and again.
reconnected() { [ "$(conns "$1")" -ge 2 ]; }
pending_is() { [ "$(ta_pending)" = "$1" ]; }

@test "call: a server that resets the connection: said so, exit 3" {
	fault R reset
	run -3 --separate-stderr toolack call -U "127.0.0.1:$R_PORT" -t 2 <<<"$CALL"
	[ -z "$output" ]
	[[ $stderr == "toolack call: http://127.0.0.1:$R_PORT/"*"reset by peer" ]]
}

@test "call: a server that accepts and never answers: exit 3 within its 10 s probe" {
	fault H hang
	run -3 --separate-stderr timeout 60 toolack call -U "127.0.0.1:$H_PORT" -t 2 <<<"$CALL"
	[[ $stderr == *"timed out"* ]]
	[ "$(conns H)" = 1 ]
}

@test "no name to resolve and no TLS to fail: toolack takes an IPv4 address" {
	run -2 --separate-stderr toolack call -U http://toolack.invalid:7077 <<<"$CALL"
	[[ $stderr == "toolack call: bad address 'http://toolack.invalid:7077': not an IPv4 address"* ]]
	run -2 --separate-stderr toolack call -U https://127.0.0.1:7077 <<<"$CALL"
}

@test "exec: a server that resets or goes silent: it says so and keeps reconnecting" {
	fault R reset
	fault H hang
	toolack exec --idle 1 -U "127.0.0.1:$R_PORT" -H open_url=true 2>"$T/r.err" &
	echo $! >"$T/exr.pid"
	toolack exec --idle 1 -U "127.0.0.1:$H_PORT" -H open_url=true 2>"$T/h.err" &
	echo $! >"$T/exh.pid"
	wait_for 20 grep -q 'reset by peer; reconnecting' "$T/r.err"
	# Silence is noticed by the idle limit (-i), not waited out.
	wait_for 20 grep -q 'reconnecting' "$T/h.err"
	wait_for 20 reconnected H
	for x in exr exh; do
		kill -TERM "$(cat "$T/$x.pid")"
		st=0
		wait "$(cat "$T/$x.pid")" || st=$?
		[ "$st" = 0 ]
		rm "$T/$x.pid"
	done
}

@test "SIGTERM to exec mid-handler: the handler's group is stopped and reaped, the call fails at once" {
	ta_start
	cat >"$T/h.sh" <<EOF
#!/bin/sh
sleep 30 &
echo \$\$ \$! >"$T/h.pids"
wait
EOF
	chmod +x "$T/h.sh"
	ta_exec ex -H "open_url=$T/h.sh"
	toolack call -t 30 <<<"$CALL" >"$T/call.out" &
	cpid=$!
	wait_for 20 test -s "$T/h.pids"
	read -r hpid kid <"$T/h.pids"
	kill -TERM "$(cat "$T/ex.pid")"
	st=0
	wait "$(cat "$T/ex.pid")" || st=$?
	[ "$st" = 0 ]
	rm "$T/ex.pid"
	# The handler is gone (reaped: not even a zombie of ours), and so is
	# what it started (or it waits for init to reap it).
	run ! kill -0 "$hpid"
	run -0 sh -c 'ps -o stat= -p "$1" || :' sh "$kid"
	[[ -z $output || $output == Z* ]]
	# The caller heard at once, not at its 30 s deadline.
	st=0
	wait "$cpid" || st=$?
	[ "$st" = 1 ]
	jq -e '.toolCallId == "f1" and .status == "failed" and
	    .errorText == "executor stopped while the handler ran"' "$T/call.out"
}

@test "SIGINT to call while acks are awaited: the calls waiting are failed, every record whole; exit 130" {
	ta_start
	ta_exec ex -H "open_url=true"
	mkfifo "$T/in"
	env --default-signal=INT toolack call -t 30 <"$T/in" >"$T/out" 2>"$T/err" &
	cpid=$!
	exec 7>"$T/in"
	echo "$CALL" >&7
	wait_for 20 test -s "$T/out"
	# A second call no frontend can take: call waits for it.
	echo '{"toolCallId":"f2","toolName":"nobody_handles_this","input":{}}' >&7
	wait_for 20 pending_is 1
	kill -INT "$cpid"
	st=0
	wait "$cpid" || st=$?
	exec 7>&-
	[ "$st" = 130 ]
	all_json "$T/out"
	# The waiting call was acked failed by its caller: no frontend that
	# comes later runs it, and it has its record.
	json_eq "$(jq -sc 'map({toolCallId, status, errorText})' "$T/out")" \
	    '[{"toolCallId":"f1","status":"success","errorText":null},
	      {"toolCallId":"f2","status":"failed","errorText":"the caller stopped on SIGINT"}]'
	pending_is 0
	run -1 --separate-stderr toolack wait f2
	jq -e '.status == "failed"' <<<"$output"
}
