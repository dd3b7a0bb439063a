#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# One source of URLs (lib/jsonl's uk_jsonl_src): every program that takes
# URL operands decides what one is by the same rule, a scheme and "://" or
# a directory, and reads bare URL lines by the same rule.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	mkdir -p "$T/tmp" "$T/repo"
	export TMPDIR="$T/tmp"
	unset URLKIT_ALLOW_PRIVATE
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}
teardown() { common_teardown; }

# The error urlfetch, pwfetch and urlcache give an operand that is not a
# URL.
not_url() {
	echo "not a URL: '$1' (to read records from a file, use -i $1)"
}

@test "urlfetch: ':' without '//' is not a URL; a directory is one" {
	run -1 --separate-stderr urlfetch -C mailto:a@b.example
	[ "${#lines[@]}" -eq 1 ]
	[ "$(jq -r .error <<<"$output")" = "$(not_url mailto:a@b.example)" ]
	run -1 --separate-stderr urlfetch -C "$T/repo"
	[ "$(jq -r .url <<<"$output")" = "$T/repo" ]
	[[ "$(jq -r .error <<<"$output")" != "not a URL"* ]]
}

@test "pwfetch: ':' without '//' is not a URL; a directory is one" {
	run -1 --separate-stderr pwfetch fetch mailto:a@b.example "$T/repo"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .error <<<"${lines[0]}")" = "$(not_url mailto:a@b.example)" ]
	[ "$(jq -r .url <<<"${lines[1]}")" = "$T/repo" ]
	[ "$(jq -r .error <<<"${lines[1]}")" = "not an http(s) URL: '$T/repo'" ]
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "urlcache: ':' without '//' is not a URL; a directory is one" {
	run -1 --separate-stderr urlcache get mailto:a@b.example "$T/repo"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -r .error <<<"${lines[0]}")" = "$(not_url mailto:a@b.example)" ]
	json_eq "${lines[1]}" "{\"url\":\"$T/repo\",\"error\":\"not in the cache\",\"cached\":false}"
	run -1 --separate-stderr urlcache invalidate mailto:a@b.example "$T/repo"
	[ "$(jq -r .error <<<"${lines[0]}")" = "$(not_url mailto:a@b.example)" ]
	json_eq "${lines[1]}" "{\"url\":\"$T/repo\",\"found\":false}"
}

@test "urlfetch, pwfetch, urlcache, urldetect: prose is not a bare URL" {
	printf 'not a url {\n' >"$T/in"
	for cmd in "urlfetch -C -i" "pwfetch fetch -i" "urlcache get -i" \
	    "urldetect --classify"; do
		run -1 --separate-stderr $cmd "$T/in"
		[ "${#lines[@]}" -eq 1 ]
		jq -e --arg f "$T/in" '.error == "not a JSON object or a URL" and
		    .file == $f and .line == 1' <<<"$output"
		[[ "$stderr" == *"$T/in:1: not a JSON object or a URL"* ]]
	done
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "urlcache, pwfetch: a URL holding \\u0000 is refused" {
	local r='{"url":"https://a.example/j\u0000evil","id":7}'
	run -1 --separate-stderr urlcache get -i - <<<"$r"
	jq -e '.error == "the URL holds a NUL byte (\\u0000)" and .id == 7' <<<"$output"
	run -1 --separate-stderr pwfetch fetch <<<"$r"
	jq -e '.error == "the URL holds a NUL byte (\\u0000)" and .id == 7' <<<"$output"
	[ -z "$(ls -A "$T/tmp")" ]
}
