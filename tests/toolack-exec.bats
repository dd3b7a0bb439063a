#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack exec: concurrency, reconnects, dead executors, 1,000 pending, shutdown.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "a handler that hangs is killed and acked failed" {
	ta_start
	ta_exec ex -t 1 -H 'open_url=sh -c "exec sleep 30" sh'
	run -1 --separate-stderr toolack call --tool open_url <<<'https://example.com/'
	[ "$(jq -r .errorText <<<"$output")" = "handler timed out after 1 s" ]
}

@test "several calls in flight: output in input order, or as they finish with -u" {
	ta_start
	ta_exec ex -j 4 -H "open_url=$TOP/tests/helpers/toolack_order.sh $T"
	printf '%s\n' https://example.com/slow https://example.com/fast > "$T/in"
	run -0 --separate-stderr toolack call --tool open_url "$T/in"
	[ "$(jq -r .output.url <<<"${lines[0]}")" = https://example.com/slow ]
	[ "$(jq -r .output.url <<<"${lines[1]}")" = https://example.com/fast ]
	run -0 --separate-stderr toolack call --unordered --tool open_url "$T/in"
	[ "$(jq -r .output.url <<<"${lines[0]}")" = https://example.com/fast ]
	[ "$(jq -r .output.url <<<"${lines[1]}")" = https://example.com/slow ]
}

@test "executor reconnects mid-stream and gets what is still pending" {
	ta_start
	port=${TOOLACK_URL##*:}
	start_server PX python3 "$TOP/tests/helpers/toolack_proxy.py" "$port"
	TOOLACK_URL=http://127.0.0.1:$PX_PORT ta_exec ex --executor ex1 \
	    -H "open_url=$TOP/tests/helpers/toolack_argv.sh $T/ran"
	run -0 --separate-stderr toolack call --tool open_url <<<'https://example.com/1'
	[ "$(jq -r .status <<<"$output")" = success ]
	kill -USR1 "$(cat "$T/PX.pid")"
	wait_for 5 grep -q cut "$T/PX.log"
	run -0 --separate-stderr toolack call --no-wait --tool open_url <<<'https://example.com/2'
	id=$(jq -r .toolCallId <<<"$output")
	run -0 --separate-stderr toolack wait -t 10 "$id"
	[ "$(jq -r .status <<<"$output")" = success ]
	grep -q reconnecting "$T/ex.log"
	[ "$(grep -c . "$T/ran")" -eq 2 ]
}

@test "a call held by an executor that dies goes to the next one" {
	ta_start
	ta_exec ex1 -H 'open_url=sh -c "exec sleep 2" sh'
	run -0 --separate-stderr toolack call --no-wait --tool open_url <<<'https://example.com/held'
	id=$(jq -r .toolCallId <<<"$output")
	wait_for 5 bash -c "curl -s -H 'Authorization: Bearer $TOKEN' $TOOLACK_URL/api/tools/calls | jq -e '.calls[0].executor != null' >/dev/null"
	kill -9 "$(cat "$T/ex1.pid")"
	ta_exec ex2 -H open_url=true
	run -0 --separate-stderr toolack wait -t 10 "$id"
	[ "$(jq -r .status <<<"$output")" = success ]
}

@test "1,000 calls pending at once, all resolved" {
	ta_start
	seq 1 1000 | sed 's|^|https://example.com/p/|' >"$T/urls"
	toolack call -j 1000 -t 60 --tool open_url <"$T/urls" >"$T/out" 2>"$T/err" &
	echo $! >"$T/call.pid"
	wait_for 30 bash -c "[ \"\$(curl -s -H 'Authorization: Bearer $TOKEN' $TOOLACK_URL/api/tools/calls?limit=0 | jq .pending)\" = 1000 ]"
	ta_exec ex -j 8 -H open_url=true
	wait "$(cat "$T/call.pid")"
	rm "$T/call.pid"
	[ "$(jq -r .status "$T/out" | sort | uniq -c | tr -s ' ')" = " 1000 success" ]
	[ "$(jq -r .output.url "$T/out")" = "$(cat "$T/urls")" ]
	[ "$(ta_pending)" = 0 ]
}

@test "SIGTERM shuts serve down cleanly, answering waiting calls" {
	ta_start
	toolack call --tool open_url <<<'https://example.com/' >"$T/out" 2>"$T/err" &
	cpid=$!
	wait_for 5 bash -c "[ \"\$(curl -s -H 'Authorization: Bearer $TOKEN' $TOOLACK_URL/api/tools/calls?limit=0 | jq .pending)\" = 1 ]"
	curl -s -N -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/events" >"$T/events" &
	spid=$!
	wait_for 5 grep -q '^event: call' "$T/events"
	pid=$(cat "$T/TA.pid")
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	rm "$T/TA.pid"
	[ "$rc" -eq 0 ]
	rc=0
	wait "$cpid" || rc=$?
	[ "$rc" -eq 1 ]
	wait "$spid"
	grep -q 'server shutting down' "$T/err"
	! grep -qi 'abort\|sanitizer' "$T/TA.log"
}
