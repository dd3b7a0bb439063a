#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Terminal escapes from input never reach stderr as escapes (issue 15,
# item 7): every program's messages go through lib/util's cleaning.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	printf '%s\n' '{"url":"http://127.0.0.2:9/\u001b]0;owned\u0007\u001b[2J\u009b31m"}' >"$T/in"
}
teardown() { common_teardown; }

# raw_controls FILE: how many ESC, BEL or C1 CSI bytes FILE holds.
raw_controls() {
	LC_ALL=C grep -c "$(printf '\033\\|\007\\|\302\233')" "$1" || :
}

@test "security stderr: urlfetch shows ESC and BEL from a URL as \\x1b and \\x07" {
	run -1 --separate-stderr urlfetch -C -i "$T/in"
	printf '%s' "$stderr" >"$T/err"
	[ "$(raw_controls "$T/err")" = 0 ]
	[[ $stderr == *'/\x1b]0;owned\x07\x1b[2J\x9b31m'* ]]
	# The record keeps the URL as it was.
	[ "$(printf '%s\n' "$output" | jq -r .url)" = "$(jq -r .url "$T/in")" ]
}

@test "security stderr: urlsum shows ESC and BEL from a URL as \\x1b and \\x07" {
	run -1 --separate-stderr urlsum "$T/in"
	printf '%s' "$stderr" >"$T/err"
	[ "$(raw_controls "$T/err")" = 0 ]
	[[ $stderr == *'/\x1b]0;owned\x07\x1b[2J\x9b31m'* ]]
}

@test "security stderr: a newline in input cannot forge a second message line" {
	printf '%s\n' '{"url":"http://127.0.0.2:9/a\nurlfetch: all fine"}' >"$T/nl"
	run -1 --separate-stderr urlfetch -C -i "$T/nl"
	[ "$(printf '%s\n' "$stderr" | grep -c '^urlfetch: all fine')" = 0 ]
	[[ $stderr == *'/a\x0aurlfetch: all fine'* ]]
}
