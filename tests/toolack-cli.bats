#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack's command line (issue 17): lib/cli's messages and --help per
# command, the letters that changed, -o, exec's handler check at the start,
# xdg-open as open_url's default handler, a line per call on a terminal.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

PTY="$TOP/tests/helpers/pty_run.py"

setup() { common_setup; }
teardown() { common_teardown; }

@test "every command has -h and --help (exit 0) and one-line usage errors naming it" {
	local sub
	run -0 --separate-stderr toolack -h
	[[ "$output" == "usage: toolack serve "* ]]
	for sub in serve call ack exec wait; do
		run -0 --separate-stderr toolack $sub -h
		[[ "$output" == "usage: toolack $sub "* ]]
		run -0 --separate-stderr toolack $sub --help
		[[ "$output" == *"See toolack(1)."* ]]
		run -2 --separate-stderr toolack $sub -Z
		[ "$stderr" = "toolack $sub: unknown option -Z
try 'toolack $sub --help'" ]
	done
	# exec's synopsis shows -H as required, not in brackets.
	run -0 toolack exec -h
	[[ "$output" == "usage: toolack exec -H tool=command "* ]]
}

@test "the old letters are gone: unknown options, exit 2" {
	run -2 --separate-stderr toolack call -T 5
	[ "${stderr%%$'\n'*}" = "toolack call: unknown option -T" ]
	run -2 --separate-stderr toolack call -n
	[ "${stderr%%$'\n'*}" = "toolack call: unknown option -n" ]
	run -2 --separate-stderr toolack ack -s success c1
	[ "${stderr%%$'\n'*}" = "toolack ack: unknown option -s" ]
	run -2 --separate-stderr toolack ack c1
	[ "${stderr%%$'\n'*}" = "toolack ack: --status is required" ]
	run -2 --separate-stderr toolack exec -x ex1 -H open_url=true
	[ "${stderr%%$'\n'*}" = "toolack exec: unknown option -x" ]
	run -2 --separate-stderr toolack call -t soon
	[ "$stderr" = "toolack call: -t: not a timeout: 'soon'
try 'toolack call --help'" ]
}

@test "exec: a handler that cannot be run is exit 2 at the start, naming it" {
	run -2 --separate-stderr toolack exec -H open_url=no-such-command-here
	[ "$stderr" = "toolack exec: -H open_url: 'no-such-command-here' is not an executable command (not on PATH, or no x bit)" ]
	printf '#!/bin/sh\n' >"$T/noexec.sh"
	run -2 --separate-stderr toolack exec -H open_url=true -H "notify=$T/noexec.sh --flag"
	[[ "$stderr" == "toolack exec: -H notify: '$T/noexec.sh' is not an executable command"* ]]
	# No -H and no xdg-open on PATH: say to give -H open_url=CMD.
	mkdir "$T/nobin"
	run -2 --separate-stderr env PATH="$T/nobin" "$UK_BIN/toolack" exec
	[[ "$stderr" == *"no handler: give -H open_url=CMD (xdg-open, the default for open_url, is not on PATH)"* ]]
}

@test "exec: xdg-open is open_url's handler when no -H names open_url" {
	ta_start
	mkdir "$T/bin"
	printf '#!/bin/sh\nprintf "%%s\\n" "$1" >>"%s/opened"\n' "$T" >"$T/bin/xdg-open"
	chmod +x "$T/bin/xdg-open"
	PATH="$T/bin:$PATH" ta_exec ex
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/x'
	jq -e '.status == "success"' <<<"$output"
	[ "$(cat "$T/opened")" = "https://example.com/x" ]
}

@test "exec: one line per call on a terminal (tool, url, status, time); none with -q or in a file" {
	ta_start
	: >"$T/tty"
	python3 "$PTY" "$T/tty" toolack exec --idle 2 -H open_url=true >"$T/ex.out" &
	echo $! >"$T/ex.pid"
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/a'
	wait_for 10 grep -q "toolack exec: open_url https://example.com/a success [0-9.]*s" "$T/tty"
	child=$(pgrep -P "$(cat "$T/ex.pid")")
	[ -n "$child" ]
	kill "$(cat "$T/ex.pid")"
	wait "$(cat "$T/ex.pid")" || true
	# The wrapper passes the signal on: no exec is left reconnecting.
	wait_for 10 eval '! kill -0 "$child" 2>/dev/null'
	# -q: nothing.
	: >"$T/tty2"
	python3 "$PTY" "$T/tty2" toolack exec -q --idle 2 -H open_url=true >"$T/ex2.out" &
	echo $! >"$T/ex2.pid"
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/b'
	child=$(pgrep -P "$(cat "$T/ex2.pid")")
	kill "$(cat "$T/ex2.pid")"
	wait "$(cat "$T/ex2.pid")" || true
	wait_for 10 eval '! kill -0 "$child" 2>/dev/null'
	! grep -q "open_url https://example.com/b" "$T/tty2"
	# stderr a file: nothing either.
	ta_exec ex3 -H open_url=true
	run -0 --separate-stderr toolack call -t 20 --tool open_url <<<'https://example.com/c'
	! grep -q "example.com/c" "$T/ex3.log"
}

@test "call -o FILE takes the acks, in input order; options after operands; an -o that cannot be opened is exit 2" {
	ta_start
	ta_exec ex -H open_url=true
	printf 'https://example.com/1\nhttps://example.com/2\nhttps://example.com/3\n' >"$T/in"
	run -0 --separate-stderr toolack call "$T/in" --tool open_url -o "$T/acks.jsonl" -t 20
	[ -z "$output" ]
	[ "$(jq -r .output.url "$T/acks.jsonl" | tr '\n' ' ')" = "https://example.com/1 https://example.com/2 https://example.com/3 " ]
	run -2 --separate-stderr toolack call "$T/in" --tool open_url -o "$T/no/dir/acks"
	[[ "$stderr" == "toolack call: -o: cannot open '$T/no/dir/acks': "* ]]
	[ "$(ta_pending)" = 0 ]
	# --pretty on a pipe: indented records.
	run -0 --separate-stderr toolack call --pretty -t 20 --tool open_url <<<'https://example.com/p'
	[ "${lines[0]}" = "{" ]
}
