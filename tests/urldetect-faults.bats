#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect stopped mid-stream: it buffers its output (64 KiB), and what
# reached the reader must still be whole records.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "SIGTERM after the buffer has filled: whole records only" {
	# 3,000 lines of one URL each: about 400 KB of records, far more
	# than the buffer, flushed as it fills, while the input stays open.
	for i in $(seq 1 3000); do
		echo "see https://example.com/some/longer/path/$i?q=$i#frag"
	done >"$T/msgs"
	mkfifo "$T/in"
	urldetect -L <"$T/in" >"$T/out" &
	pid=$!
	exec 7>"$T/in"
	cat "$T/msgs" >&7
	for _ in $(seq 1 200); do
		[ "$(wc -c <"$T/out")" -gt 200000 ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	exec 7>&-
	[ "$st" = 143 ]
	[ "$(wc -c <"$T/out")" -gt 200000 ]
	all_json "$T/out"
	# In input order, none missing before the last one written.
	n=$(wc -l <"$T/out")
	[ "$(jq -r .message "$T/out" | tail -n 1)" = "$n" ]
}
