#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# pwfetch's command line (issue 17): the commands' options and messages,
# -i and -o, operands that are not URLs, records in input order with -j,
# and a refused page's message that names its URL once.
bats_require_minimum_version 1.5.0
load helpers/common

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup() {
	common_setup
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	export URLKIT_ALLOW_PRIVATE=127.0.0.1 # 127.0.0.2 is refused
}

teardown() {
	common_teardown
}

@test "the commands take their options after the command; -h and --help; old letters are unknown options" {
	run -0 --separate-stderr pwfetch fetch --help
	[[ "${lines[0]}" == "usage: pwfetch find | open | fetch "* ]]
	[[ "$output" == *"  -A, --user-agent=STRING "* ]]
	[[ "$output" == *"      --total-timeout=SECONDS"* ]]
	[[ "$output" == *"  -o, --output=FILE "* ]]
	[ -z "$stderr" ]
	run -0 --separate-stderr pwfetch --help
	[[ "$output" == *"  fetch "* ]]
	# Each old letter of pwfetch that changed (urlkit(7)).
	for l in a c H s T u v; do
		run -2 --separate-stderr pwfetch fetch -$l x "http://127.0.0.1:1/"
		[ "$stderr" = "pwfetch fetch: unknown option -$l
try 'pwfetch fetch --help'" ]
		[ -z "$output" ]
	done
	run -2 --separate-stderr pwfetch open --viewport 12by7
	[ "$stderr" = "pwfetch open: --viewport: not WIDTHxHEIGHT: '12by7'
try 'pwfetch open --help'" ]
	run -2 --separate-stderr pwfetch find -j 0
	[ "$stderr" = "pwfetch find: -j: not a count from 1 to 64: '0'
try 'pwfetch find --help'" ]
	run -2 --separate-stderr pwfetch crawl
	[ "$stderr" = "pwfetch: unknown command 'crawl'
try 'pwfetch --help'" ]
	run -2 --separate-stderr pwfetch
	[ "${#stderr}" -gt 0 ]
	# -V is the program's, before a command.
	run -0 pwfetch -V
	[[ "$output" == "pwfetch "* ]]
}

@test "-o FILE that cannot be opened: exit 2 before any browser" {
	run -2 --separate-stderr pwfetch fetch -o "$T/no/such/dir/out" \
	    "http://127.0.0.1:1/"
	[ "$stderr" = "pwfetch fetch: -o: cannot open '$T/no/such/dir/out': No such file or directory" ]
	[ -z "$output" ]
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "an operand that is not a URL: an error record saying to use -i, no browser, exit 1" {
	printf 'http://127.0.0.1:1/\n' >"$T/urls.txt"
	run -1 --separate-stderr pwfetch fetch "$T/urls.txt" ftp://example.com/x
	[ "${#lines[@]}" -eq 2 ]
	jq -e --arg f "$T/urls.txt" '.url == $f and
	    .error == "not a URL: '\''\($f)'\'' (to read records from a file, use -i \($f))"' \
	    <<<"${lines[0]}"
	jq -e '.error == "not an http(s) URL: '\''ftp://example.com/x'\''"' \
	    <<<"${lines[1]}"
	[[ "$stderr" == "pwfetch fetch: $T/urls.txt: not a URL: "* ]]
	[ -z "$(ls -A "$T/tmp")" ]
	# -i of a file that is not there: its error record, the rest read.
	printf 'ftp://example.com/z\n' >"$T/in"
	run -1 --separate-stderr pwfetch fetch -i "$T/nope" -i "$T/in" \
	    ftp://example.com/y
	[ "${#lines[@]}" -eq 3 ]
	jq -e --arg f "$T/nope" '.file == $f and (.error | test("No such file"))' \
	    <<<"${lines[0]}"
	jq -e '.url == "ftp://example.com/z"' <<<"${lines[1]}"
	jq -e '.url == "ftp://example.com/y"' <<<"${lines[2]}"
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j 3: records in input order (operands and -i files as given), -o FILE; a refused page's message names its URL once" {
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	start_server PW python3 "$TOP/tests/helpers/pw_server.py"
	local B="http://127.0.0.1:$PW_PORT" R="http://127.0.0.2:$PW_PORT"
	printf '%s\n' "$B/static" '{"url":' "{\"url\":\"$B/page/1\",\"id\":7}" \
	    >"$T/in"
	# The first page is the slowest: it finishes last, and is written
	# first.
	run -1 --separate-stderr pwfetch fetch -j 3 -t 30 -o "$T/out" \
	    "$B/slow?ms=2500" -i "$T/in" "$R/static" "$B/page/2"
	[ -z "$output" ]
	printf '%s\n' "$stderr" >"$T/err"
	run -0 jq -sc 'map(.url // .line)' "$T/out"
	json_eq "$output" "[\"$B/slow?ms=2500\",\"$B/static\",2,\"$B/page/1\",\"$R/static\",\"$B/page/2\"]"
	run -0 jq -sc 'map(.title)' "$T/out"
	json_eq "$output" '["Slow page","Static page",null,"Page 1",null,"Page 2"]'
	run -0 jq -se 'map(select(.id == 7)) | length == 1' "$T/out"
	run -0 jq -r 'select(.url and (.url | startswith("http://127.0.0.2"))) | .error' "$T/out"
	[ "$output" = "address 127.0.0.2 refused (private network; -P or URLKIT_ALLOW_PRIVATE=1 allows it)" ]
	# One line for the refused page, its URL said once.
	run -0 grep -F "$R/static" "$T/err"
	[ "$output" = "pwfetch fetch: $R/static: address 127.0.0.2 refused (private network; -P or URLKIT_ALLOW_PRIVATE=1 allows it)" ]
}
