#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Terminal controls from character references (issue 33): a page's
# "&#27;]52;c;...&#7;" (OSC 52, which writes the clipboard) and
# "&#27;[2J" (clear the screen) decode to ESC and BEL.  Raw control bytes
# in HTML are replaced by the parser; decoded ones must get the same
# treatment (U+FFFD) in every text the programs print for people:
# urlfetch -T (a file and over HTTP) and urlsum -p and -c.  The records
# keep the characters, JSON-escaped.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	mkdir -p "$T/www"
	# ESC, BEL, CR, DEL and the C1 controls U+0081 and U+009B (HTML maps
	# &#x81; to itself; &#155; it maps to U+203A, as windows-1252 does),
	# from references in the title and the text, and one raw ESC.
	printf '%s\n' '<!DOCTYPE html><html><head><title>Title &#27;]0;owned&#7; here</title></head><body><article>' \
	    '<h1>Heading &#x1b;[31m red</h1>' \
	    '<p>The clipboard: &#27;]52;c;b3duZWQ=&#7; and the screen: &#27;[2J, a line: &#13;forged, del: &#127;, c1: &#x81;&#x9b;31m, and raw: '$'\033''[1mbold. Words enough for a page of text, and then some more of them.</p>' \
	    '</article></body></html>' >"$T/www/esc.html"
	start_server WWW python3 "$TOP/tests/helpers/page_server.py" "$T/www"
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
}

teardown() { common_teardown; }

# clean FILE: no C0 control but tab and line feed, no DEL, no C1 control
# in FILE; the ESC of "&#27;]52;" is there as U+FFFD.
clean() {
	[ "$(LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$1")" = 0 ]
	[ "$(LC_ALL=C grep -c $'\xc2[\x80-\x9f]' "$1")" = 0 ]
	grep -q $'\xef\xbf\xbd]52;c;b3duZWQ=\xef\xbf\xbd' "$1"
	grep -q $'\xef\xbf\xbd\\[2J' "$1"
}

@test "urlextract -T: controls from references come out as U+FFFD, as raw ones do" {
	run -0 --separate-stderr urlextract -T "$T/www/esc.html"
	printf '%s\n' "$output" >"$T/out"
	clean "$T/out"
	grep -q $'raw: \xef\xbf\xbd\\[1mbold' "$T/out"
	# The record keeps the characters, JSON-escaped.
	run -0 --separate-stderr urlextract "$T/www/esc.html"
	jq -e '(.content | test("\u001b]52;c;b3duZWQ=\u0007")) and
	    (.title | test("\u001b]0;owned\u0007"))' <<<"$output"
}

@test "urlfetch -T over HTTP: controls from references come out as U+FFFD" {
	run -0 --separate-stderr urlfetch -T "http://127.0.0.1:$WWW_PORT/esc.html"
	printf '%s\n' "$output" >"$T/out"
	clean "$T/out"
}

@test "urlsum -p and -c: controls in the records' text and title come out as U+FFFD" {
	run -0 --separate-stderr urlextract "$T/www/esc.html"
	printf '%s\n' "$output" >"$T/rec"
	for m in -p -c; do
		run -0 --separate-stderr urlsum "$m" "$T/rec"
		printf '%s\n' "$output" >"$T/out"
		clean "$T/out"
		grep -q $'owned\xef\xbf\xbd' "$T/out"
	done
}
