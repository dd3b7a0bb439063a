#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# JSON strings through every program (issue 15, item 14): "\u0000" stays
# "\u0000", a URL holding NUL is refused with an error record, and a lone
# surrogate is written as U+FFFD, never as invalid UTF-8.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
}
teardown() { common_teardown; }

# valid_utf8 FILE: whether FILE is valid UTF-8 (iconv refuses otherwise).
valid_utf8() {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null
}

@test "security json: \\u0000 in a field passes through urlsum, urlcache and urldetect whole" {
	local rec='{"url":"https://x.example/","content":"a\u0000b","note":"k\u0000v"}'
	run -0 --separate-stderr urlsum <<<"$rec"
	[ "$(jq -c .note <<<"$output")" = '"k\u0000v"' ]
	[ "$(jq -c .content <<<"$output")" = '"a\u0000b"' ]
	run -0 --separate-stderr urlcache set -p <<<"$rec"
	[ "$(jq -c .note <<<"$output")" = '"k\u0000v"' ]
	run -0 --separate-stderr urlcache get https://x.example/
	[ "$(jq -c .note <<<"$output")" = '"k\u0000v"' ]
	run -0 --separate-stderr urldetect -c <<<'{"url":"https://x.example/","note":"k\u0000v"}'
	[ "$(jq -c .note <<<"$output")" = '"k\u0000v"' ]
}

@test "security json: a URL holding \\u0000 is refused with an error record, not fetched cut short" {
	start_server W python3 "$TOP/tests/helpers/addr_server.py" 127.0.0.1
	run -1 --separate-stderr urlfetch -c <<<"{\"url\":\"http://127.0.0.1:$W_PORT/j\\u0000evil\",\"id\":7}"
	json_eq "$output" "{\"url\":\"http://127.0.0.1:$W_PORT/j\\u0000evil\",\"error\":\"the URL holds a NUL byte (\\\\u0000)\",\"id\":7}"
	[ "$(grep -c '^conn ' "$T/W.log")" = 0 ]
	run -1 --separate-stderr urldetect -c <<<'{"url":"https://docs.python.org/j\u0000evil"}'
	[ "$(jq -r .error <<<"$output")" = 'the URL holds a NUL byte (\u0000)' ]
	[ "$(jq -r 'has("type")' <<<"$output")" = false ]
}

@test "security json: urldetect scans a message past a NUL" {
	run -0 urldetect -j t <<<'{"t":"see https://a.example/x\u0000https://b.example/y"}'
	[ "$(jq -r .url <<<"$output" | tr '\n' ' ')" = "https://a.example/x https://b.example/y " ]
}

@test "security json: lone surrogates become U+FFFD in urlsum and urlcache set -p" {
	local rec='{"url":"https://x.example/","content":"c","s":"\udc00|\ud800|\ud800\u0041|\ud83d\ude00"}'
	run -0 --separate-stderr urlsum <<<"$rec"
	printf '%s\n' "$output" >"$T/sum"
	valid_utf8 "$T/sum"
	[ "$(jq -r .s "$T/sum")" = "$(printf '\357\277\275|\357\277\275|\357\277\275A|\360\237\230\200')" ]
	run -0 --separate-stderr urlcache set -p <<<"$rec"
	printf '%s\n' "$output" >"$T/set"
	valid_utf8 "$T/set"
	[ "$(jq -r .s "$T/set")" = "$(jq -r .s "$T/sum")" ]
}

@test "security json: a key holding \\u0000 is an error record, the run goes on" {
	run -1 --separate-stderr urlsum <<<"$(printf '%s\n' '{"a\u0000b":1}' '{"url":"https://x.example/","content":"c"}')"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .error <<<"${lines[0]}")" = 'invalid JSON: a key holds \u0000' ]
	[ "$(jq -r .summary <<<"${lines[1]}")" = c ]
}
