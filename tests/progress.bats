#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Progress on standard error when it is a terminal (a pseudo-terminal made
# by helpers/pty_run.py), nothing when it is a file, nothing with -q:
# toolack call waiting on acks, pwfetch over several pages.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}
PTY="$TOP/tests/helpers/pty_run.py"
ESC=$(printf '\033')

setup() {
	common_setup
	unset URLKIT_PROGRESS
}
teardown() { common_teardown; }

# A call that waits for an ack, given on stdin to toolack call.
call_rec() {
	printf '{"toolCallId":"%s","toolName":"open_url","input":{"url":"https://a.test/"}}\n' "$1"
}

one_pending() {
	[ "$(ta_pending)" = 1 ]
}

# Ack call $1 once it is pending.
ack_when_pending() {
	wait_for 20 one_pending
	run -0 toolack ack --status success "$1"
}

@test "toolack call: the pending calls and their age on a terminal, erased at the end" {
	ta_start
	call_rec c1 >"$T/in"
	: >"$T/tty"
	python3 "$PTY" "$T/tty" toolack call "$T/in" >"$T/out" &
	echo $! >"$T/call.pid"
	# The line names the call while it waits, before it is acked.
	wait_for 20 grep -q "1 pending: c1 open_url [0-9]*s" "$T/tty"
	run -0 toolack ack --status success c1
	wait "$(cat "$T/call.pid")"
	run -0 jq -r '.toolCallId + " " + .status' "$T/out"
	[ "$output" = "c1 success" ]
	run -0 cat -v "$T/tty"
	[[ "$output" == "^M"*"toolack: 0 done, 0 failed, 1 pending: c1 open_url"* ]]
	# The last thing written erases the line.
	[[ "$(cat "$T/tty")" == *$'\r'"$ESC[K" ]]
}

@test "toolack call: nothing on stderr when it is a file" {
	ta_start
	call_rec c2 >"$T/in"
	toolack call "$T/in" >"$T/out" 2>"$T/err" &
	echo $! >"$T/call.pid"
	ack_when_pending c2
	wait "$(cat "$T/call.pid")"
	run -0 jq -r .status "$T/out"
	[ "$output" = success ]
	[ ! -s "$T/err" ]
}

@test "toolack call -q: nothing on a terminal" {
	ta_start
	call_rec c3 >"$T/in"
	: >"$T/tty"
	python3 "$PTY" "$T/tty" toolack call -q "$T/in" >"$T/out" &
	echo $! >"$T/call.pid"
	ack_when_pending c3
	wait "$(cat "$T/call.pid")"
	run -0 jq -r .status "$T/out"
	[ "$output" = success ]
	[ ! -s "$T/tty" ]
}

pw_setup() {
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	export URLKIT_ALLOW_PRIVATE=1 # the server is on loopback
	start_server PW python3 "$TOP/tests/helpers/pw_server.py"
	B="http://127.0.0.1:$PW_PORT"
}

# What the terminal shows at the end: the text after the last line end or
# erase, which must hold no progress line.
tty_tail() {
	perl -0777 -ne 's/.*(\n|\r\e\[K)//s; print' "$T/tty"
}

@test "pwfetch: done/total and failures on a terminal, erased at the end" {
	pw_setup
	# The slow page keeps the run going past the second before the line.
	run -1 python3 "$PTY" "$T/tty" pwfetch fetch -t 10 "$B/slow?ms=1500" \
		"ftp://not.test/" "$B/page/2"
	run -0 cat -v "$T/tty"
	[[ "$output" == *"^Mpwfetch: 0/3 done, 0 failed, 1 loading"* ]]
	# The failure's message erased the line before it was written.
	[[ "$output" == *"^[[Kpwfetch fetch: ftp://not.test/: not an http(s) URL"* ]]
	run -0 tty_tail
	[ -z "$output" ]
}

@test "pwfetch: no progress line in a run done within a second" {
	pw_setup
	# A page that fails at once, before the browser is started.
	run -1 python3 "$PTY" "$T/tty" pwfetch fetch -t 10 "ftp://not.test/"
	run -0 cat -v "$T/tty"
	[[ "$output" != *"done,"* ]]
	[[ "$output" == *"not an http(s) URL"* ]]
}

@test "pwfetch | reader on the same terminal: no record glued to the line" {
	pw_setup
	# pwfetch's stderr and the reader's output share the terminal, as in
	# `pwfetch fetch URL | jq` typed at a prompt.
	# Records go out while the line is shown: at 1.5 s (two of them) and
	# at 3 s.
	run -0 python3 "$PTY" "$T/tty" sh -c 'pwfetch fetch -t 10 "$1" "$2" "$3" |
		cat >&2' sh "$B/slow?ms=1500" "$B/page/1" "$B/slow?ms=3000"
	grep -q 'pwfetch: ' "$T/tty"
	[ "$(grep -c '"url"' "$T/tty")" -eq 3 ]
	# Every record starts a line of its own: after a line end or an
	# erase of the line (a carriage return and ESC [ K with nothing
	# between: a redrawn line ends in ESC [ K too, after its text).
	run -0 perl -0777 -ne 'my $n = 0; while (/(.{0,12})\{"url"/sg) {
		$n++ unless $1 =~ /(\n|\r\e\[K)$/ } print $n' "$T/tty"
	[ "$output" = 0 ]
	run -0 tty_tail
	[ -z "$output" ]
}

@test "pwfetch: no progress when stderr is a file, nor with -q" {
	pw_setup
	run -0 --separate-stderr pwfetch fetch -t 10 "$B/page/1" "$B/page/2"
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 2 ]
	[ -z "$stderr" ]
	run -0 python3 "$PTY" "$T/tty" pwfetch fetch -q -t 10 "$B/page/1"
	[ ! -s "$T/tty" ]
}
