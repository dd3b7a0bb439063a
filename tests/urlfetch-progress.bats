#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch as one program: its command line read once, nothing else run;
# and the progress line on a terminal.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

@test "urlextract extracts, and urlfetch answers usage, by themselves" {
	export URLKIT_LIBEXEC_DIR="$T/nowhere"
	printf '<html><head><title>T</title></head><body><article><p>%s</p></article></body></html>\n' \
	    "A paragraph long enough to be the main text of this little page here." >"$T/p.html"
	run -0 urlextract "$T/p.html" -T
	[[ $output == "A paragraph long enough"* ]]
	run -0 urlfetch --help
	run -0 urlfetch --version
	run -2 urlfetch -j 0
	run -2 urlfetch -S .bad
	run -2 urlfetch -s 20
	run -2 urlfetch -x "$T/p.html" -i urls.txt
}

@test "urlfetch is one program: it fetches whatever URLKIT_LIBEXEC_DIR says" {
	export URLKIT_LIBEXEC_DIR="$T/nowhere"
	run -0 --separate-stderr urlfetch <<<"$B/article.html"
	[ -z "$stderr" ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "urlfetch reads its command line once: options among operands, operands after --" {
	run -1 --separate-stderr urlfetch -j 2 f1 --no-cache -- "a b" c
	[ "${#lines[@]}" -eq 3 ]
	[ "$(field "${lines[0]}" .url)" = f1 ]
	[ "$(field "${lines[1]}" .url)" = "a b" ]
	[ "$(field "${lines[2]}" .url)" = c ]
	[[ "$(field "${lines[1]}" .error)" == "not a URL: 'a b'"* ]]
	# The real fetch, from standard input, the same way.
	run -0 urlfetch <<<"$B/article.html"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "no progress when standard error is not a terminal" {
	run -1 --separate-stderr urlfetch -C <<<"$B/article.html
$B/missing-page-404"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == "urlfetch: '$B/missing-page-404': "* ]]
	[[ $stderr != *done* ]]
}

@test "on a terminal, a progress line shows done/total, failures and the host; -q silences it" {
	command -v script >/dev/null || skip "no script(1)"
	# The line shows once the run has taken a second: the page that
	# takes 1.5 s keeps it going.
	printf '%s\n' "$B/missing-page-404" "$B/slow?ms=1500&p=1" >"$T/urls"
	# script(1) gives urlfetch a terminal; the records go to a file.
	run -0 script -qec "urlfetch -C <'$T/urls' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output == *"urlfetch: 1/2 done, 1 failed, 127.0.0.1:$FS_PORT"* ]]
	[[ $output == *"rc=1"* ]]
	# The line is cleared at the end.
	[[ $output == *$'\r\e[K'*"rc=1"* ]]
	[ "$(wc -l <"$T/out")" -eq 2 ]
	run -0 script -qec "urlfetch -q -C <'$T/urls' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output != *" done, "* ]]
	[[ $output == *"rc=1"* ]]
	[ "$(wc -l <"$T/out")" -eq 2 ]
}
