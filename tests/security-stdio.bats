#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The standard descriptors (issue 33): every program checks them at
# start.  A closed standard output is a fatal error with a message (exit
# 3): urlfetch's records went into libcurl's wake-up socket, which took
# descriptor 1, and it exited 0.  A closed standard input or error is
# opened on /dev/null, so that no file the program opens takes its
# number (urlsum -o's file got the warnings meant for stderr).
# pwfetch, whose reader has gone, says "write error" rather than dying
# of SIGPIPE.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	export URLKIT_CHROMIUM=/nonexistent
}
teardown() { common_teardown; }

# closed_out CMD...: CMD with standard output closed exits 3 and says so.
closed_out() {
	run -3 --separate-stderr bash -c 'exec "$@" >&-' _ "$@"
	[[ $stderr == *"standard output is closed"* ]] || {
		echo "$*: $stderr" >&2
		return 1
	}
}

@test "urlfetch and urlextract with standard output closed: exit 3 and a message" {
	closed_out urlfetch -C "$B/article.html"
	closed_out urlextract "$FIXTURES/extract/article.html"
}

@test "every other program with standard output closed: exit 3 and a message" {
	closed_out urldetect /dev/null
	closed_out urlsum -p /dev/null
	closed_out urlcache list
	closed_out pwfetch fetch "$B/article.html"
	closed_out urlserve
	closed_out toolack list
}

@test "standard error closed: urlsum -o's file holds its output only, not the warnings" {
	printf '%s\n' 'not json' '{"url":"http://a.test/","content":"hello"}' \
	    >"$T/in"
	run -1 bash -c 'exec urlsum -p -o "$2" "$1" 2>&-' _ "$T/in" "$T/out"
	[ "$(grep -c "urlsum:" "$T/out")" = 0 ]
	grep -qx "hello" "$T/out"
}

@test "standard input closed: urldetect reads nothing, and urlfetch -o's file holds records only" {
	run -1 --separate-stderr bash -c 'exec urldetect <&-'
	[ -z "$output" ]
	run -0 --separate-stderr bash -c \
	    'exec urlextract "$1" -o "$2" <&-' _ \
	    "$FIXTURES/extract/article.html" "$T/out"
	jq -e -s 'length == 1 and (.[0].title | length > 0)' "$T/out"
}

@test "pwfetch whose reader has gone: 'write error', exit 3, not a silent SIGPIPE" {
	printf '%s\n' ftp://x/ ftp://y/ >"$T/in"
	run -0 bash -c 'pwfetch fetch <"$1" 2>"$2" | true
	    echo "status ${PIPESTATUS[0]}"' _ "$T/in" "$T/err"
	[ "$output" = "status 3" ]
	grep -q "write error: Broken pipe" "$T/err"
}
