#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect's exit status (issue 36): 1 when no URL was found, as grep
# and rg exit 1 on no match; -q for scripts; errors and fatal errors
# keep their own statuses.

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "exit: 0 when a URL is found, 1 when none is, in every output" {
	printf 'see https://example.com/x\n' >"$T/yes"
	printf 'nothing here, not even example.com\n' >"$T/no"
	for o in "" -u -a -L --compact --pretty; do
		run -0 urldetect $o "$T/yes"
		[ -n "$output" ]
		run -1 urldetect $o "$T/no"
		[ -z "$output" ]
	done
}

@test "exit: empty input and standard input with nothing are 1" {
	run -1 urldetect /dev/null
	[ -z "$output" ]
	run -1 sh -c 'printf "" | urldetect'
	[ -z "$output" ]
}

@test "exit: 1 when -y keeps none of the URLs found" {
	printf 'https://example.com/a https://example.com/a\n' >"$T/in"
	run -1 urldetect -y github_repo "$T/in"
	[ -z "$output" ]
	run -0 urldetect -y web -u "$T/in"
	[ "$output" = https://example.com/a ]
}

@test "exit: several files, one with a URL, is 0; none is 1" {
	printf 'https://example.com/a\n' >"$T/a"
	printf 'no url\n' >"$T/b"
	run -0 urldetect -u "$T/b" "$T/a"
	[ "$output" = https://example.com/a ]
	run -1 urldetect -u "$T/b" "$T/b"
}

@test "exit: --json and --classify, 1 when no record gives a URL" {
	run -1 sh -c 'printf "{\"text\":\"no url\"}\n" | urldetect --json text'
	[ -z "$output" ]
	run -0 sh -c 'printf "{\"text\":\"https://example.com\"}\n" | urldetect --json text'
	run -1 sh -c 'printf "" | urldetect --classify'
	run -0 sh -c 'printf "https://example.com\n" | urldetect --classify -u'
	[ "$output" = https://example.com ]
	# -y filters what --classify keeps too.
	run -1 sh -c 'printf "https://example.com\n" | urldetect --classify -y github_pr'
}

@test "exit: -q prints nothing, 0 on a URL and 1 on none" {
	run -0 sh -c 'printf "https://example.com\n" | urldetect -q'
	[ -z "$output" ]
	run -1 sh -c 'printf "example.com\n" | urldetect -q'
	[ -z "$output" ]
	run -0 sh -c 'printf "example.com/x\n" | urldetect -q --bare'
}

@test "exit: a usage error is 2 and a read error 3, found or not" {
	run -2 --separate-stderr urldetect --no-such-option
	run -3 --separate-stderr urldetect /
	[[ $stderr == *"read error"* || $stderr == *"directory"* ]]
}

@test "exit: a file that cannot be opened is 1, with or without a URL" {
	printf 'https://example.com/a\n' >"$T/a"
	run -1 --separate-stderr urldetect -u "$T/missing" "$T/a"
	[ "$output" = https://example.com/a ]
	[[ $stderr == *missing* ]]
}

@test "exit: urldetect(1) and urlkit(7) say that no URL is exit 1" {
	run -0 grep -n 'no URL was found' "$TOP/man/urldetect.1"
	run -0 grep -n 'urldetect' "$TOP/man/urlkit.7"
	run -0 sh -c "sed -n '/^.Sh EXIT STATUS/,/^.Sh/p' '$TOP/man/urlkit.7' | grep -A2 'Ic urldetect'"
	[[ $output == *"found no URL"* ]]
}
