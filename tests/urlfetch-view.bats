#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch, urlextract and pwfetch on a terminal: colour only
# where a terminal can show it, a progress line that never mixes with
# records.  Terminals are script(1)'s pseudo-terminals.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	unset URLKIT_PROGRESS NO_COLOR
	command -v script >/dev/null || skip "no script(1)"
}
teardown() { common_teardown; }

ESC=$(printf '\033')

# on_tty CMD: run the shell command CMD with a terminal as its standard
# output and error; $output is what the terminal got.
on_tty() {
	script -qec "$1" /dev/null </dev/null
}

@test "colour: TERM=dumb, no TERM and NO_COLOR give plain records on a terminal" {
	printf '<html><head><title>T</title></head><body><p>%s</p></body></html>\n' \
	    "A paragraph long enough to be the main text of this small page." >"$T/p.html"
	run -0 on_tty "TERM=xterm urlextract '$T/p.html'"
	[[ $output == *"$ESC["* ]]
	run -0 on_tty "TERM=dumb urlextract '$T/p.html'"
	[[ $output != *"$ESC"* ]]
	[[ $output == *'  "title": "T"'* ]] # still indented for a person
	run -0 on_tty "unset TERM; urlextract '$T/p.html'"
	[[ $output != *"$ESC"* ]]
	run -0 on_tty "TERM=xterm NO_COLOR=1 urlextract '$T/p.html'"
	[[ $output != *"$ESC"* ]]
	run -0 on_tty "TERM=dumb urlfetch --pretty '$B/text.txt?c=1'"
	[[ $output != *"$ESC"* ]]
	[[ $output == *'"content": "plain text line one\nline two\n"'* ]]
}

@test "progress: a run done within a second draws no line" {
	printf '%s\n' "$B/text.txt?q=1" "$B/text.txt?q=2" >"$T/urls"
	run -0 on_tty "TERM=xterm urlfetch -C <'$T/urls' >'$T/out'; echo rc=\$?"
	[[ $output != *" done, "* ]]
	[[ $output == *"rc=0"* ]]
	[ "$(wc -l <"$T/out")" -eq 2 ]
}

# glued TYPESCRIPT: the lines of a terminal's output where a record does
# not begin its line once the progress line's erase (CR, ESC [ K) is done.
glued() {
	python3 - "$1" <<'PY'
import sys
bad = 0
for line in open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n"):
    line = line.rstrip("\r")
    if '{"url"' not in line:
        continue
    seen = line.rsplit("\r", 1)[-1]
    if seen.startswith("\x1b[K"):
        seen = seen[3:]
    if not seen.startswith('{"url"'):
        print(repr(line[:120]))
        bad += 1
sys.exit(1 if bad else 0)
PY
}

@test "progress: urlfetch | cat on one terminal: the line shows, and never glued to a record" {
	printf '%s\n' "$B/slow?ms=1300&g=1" "$B/text.txt?g=2" "$B/slow?ms=1700&g=3" \
	    "$B/slow?ms=2100&g=4" "$B/text.txt?g=5" >"$T/urls"
	on_tty "TERM=xterm urlfetch -C <'$T/urls' | cat; echo rc=\$?" >"$T/tty"
	grep -q 'rc=0' "$T/tty"
	grep -q 'urlfetch: [0-9]/5 done, 0 failed' "$T/tty"
	[ "$(grep -c '{"url"' "$T/tty")" -eq 5 ]
	run -0 glued "$T/tty"
}

# long_page: a page of 400 paragraphs on a page server, its URL in $url.
long_page() {
	local i
	mkdir -p "$T/pages"
	for ((i = 1; i <= 400; i++)); do
		printf 'Paragraph %d: café, naïve, 日本語, and enough plain words to make a line of some length.\n\n' "$i"
	done >"$T/pages/long.txt"
	start_server PS python3 "$TOP/tests/helpers/page_server.py" "$T/pages"
	url="http://127.0.0.1:$PS_PORT/long.txt"
}

@test "-T --header: the header ==> URL <== for one URL too" {
	run -0 urlfetch -C -T "$B/text.txt?h=1"
	[ "$output" = "$(printf 'plain text line one\nline two')" ]
	run -0 urlfetch -C -T --header "$B/text.txt?h=1"
	[ "$output" = "$(printf '==> %s <==\nplain text line one\nline two' "$B/text.txt?h=1")" ]
	run -2 --separate-stderr urlfetch --header "$B/text.txt?h=1"
	[[ $stderr == "urlfetch: --header: "*"-T"* ]]
}

@test "--max-tokens and --offset: fetch_url's slices, joined the whole text; -T ends with the offset" {
	long_page
	local off=0 n=0 got next
	: >"$T/joined"
	while :; do
		run -0 urlfetch -C --compact --max-tokens 1500 --offset "$off" "$url"
		jq -j .content <<<"$output" >>"$T/joined"
		read -r got next < <(jq -r '"\(.offset) \(.next_offset)"' <<<"$output")
		[ "$got" = "$off" ]
		n=$((n + 1))
		[ "$next" != null ] || break
		[ "$(jq -r '.content | endswith("\n\n")' <<<"$output")" = true ]
		# -T: the same slice, then the offset to read on from.
		run -0 urlfetch -C -T --max-tokens 1500 --offset "$off" "$url"
		[ "${lines[-1]}" = "[... more: read on with --offset $next]" ]
		[ "$next" -gt "$off" ]
		off=$next
		[ "$n" -lt 100 ]
	done
	[ "$n" -gt 5 ]
	cmp "$T/joined" "$T/pages/long.txt"
	# The last slice has no such line; past the end, an empty slice.
	run -0 urlfetch -C -T --max-tokens 1500 --offset "$off" "$url"
	[[ $output != *"read on with --offset"* ]]
	run -0 urlfetch -C --compact --offset 99999999 "$url"
	[ "$(jq -c '{content,next_offset}' <<<"$output")" = '{"content":"","next_offset":null}' ]
	run -2 urlfetch --max-tokens 99 "$url"
	run -2 urlfetch --offset -1 "$url"
}

@test "--markdown is -f markdown; --json names the records, the last of -T and --json counts" {
	printf '<html><head><title>T</title></head><body><article><h2>Head</h2><p>%s</p></article></body></html>\n' \
	    "A paragraph long enough to be the main text of this small page here." >"$T/p.html"
	run -0 urlextract -f markdown --compact "$T/p.html"
	md=$output
	[[ $(jq -r .content <<<"$md") == *"## Head"* ]]
	run -0 urlextract --markdown --compact "$T/p.html"
	[ "$(jq -S -c 'del(.fetched_at)' <<<"$output")" = "$(jq -S -c 'del(.fetched_at)' <<<"$md")" ]
	run -0 urlextract -T --json --compact "$T/p.html"
	[ "$(jq -r .title <<<"$output")" = T ]
	run -0 urlextract --json -T --markdown "$T/p.html"
	[[ $output == *"## Head"* ]]
	run -0 urlfetch -C --compact --markdown "$B/article.html"
	[ "$(jq -r .format <<<"$output")" = markdown ]
	run -0 urlfetch -C -T --json --compact "$B/text.txt?j=1"
	[ "$(jq -r .content <<<"$output")" = "$(printf 'plain text line one\nline two')" ]
}

# A pager that says what LESS it was given, then shows its input marked.
mk_pager() {
	printf '#!/bin/sh\necho "LESS=$LESS"\nexec sed "s/^/P:/"\n' >"$T/pager"
	chmod +x "$T/pager"
}

@test "view: on a terminal a page is a header and its text wrapped, through \$PAGER with LESS=FRX" {
	mk_pager
	run -0 on_tty "stty cols 50 rows 10; unset LESS; PAGER='$T/pager' TERM=dumb urlfetch -C '$B/article.html' '$B/text.txt?v=1'"
	out=${output//$'\r'/}
	[[ $out == "LESS=FRX"$'\n'* ]]
	[[ $out == *$'\nP:The Quiet Harbour\nP:'"$B/article.html"$'\nP:web, text, '[0-9]*$' tokens\nP:\n'* ]]
	[[ $out == *$'\nP:\nP:'"$B/text.txt?v=1"$'\nP:web, text, 8 tokens\nP:\nP:plain text line one\nP:line two'* ]]
	# Wrapped to the 50 columns: no line of the page is longer.
	[ "$(printf '%s\n' "$out" | grep '^P:' | sed 's/^P://' | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 50 ]
	[[ $out == *"P:fishing boats"* ]]
	[[ $out != *"{"* ]]
	# A LESS of the user's own is kept; PAGER=cat shows the view itself.
	run -0 on_tty "LESS=S PAGER='$T/pager' urlfetch -C '$B/text.txt?v=2'"
	[[ $output == "LESS=S"* ]]
	run -0 on_tty "PAGER=cat TERM=dumb urlfetch -C '$B/text.txt?v=3'"
	[[ ${output//$'\r'/} == "$B/text.txt?v=3"$'\nweb, text, 8 tokens\n\nplain text line one\nline two'* ]]
}

@test "view: --json, --compact and a pipe keep the records, byte for byte" {
	run -0 on_tty "PAGER=cat TERM=dumb urlfetch -C --json '$B/text.txt?k=1'"
	[[ $output == "{"* ]]
	run -0 on_tty "PAGER=cat urlfetch -C --compact '$B/text.txt?k=2'"
	[[ $output == '{"url":'* ]]
	run -0 on_tty "PAGER=cat urlfetch -C '$B/text.txt?k=3' | cat"
	[[ $output == '{"url":'* ]]
	[ "$(printf '%s\n' "${output//$'\r'/}" | jq -c 'del(.fetched_at)')" = \
	    "$(urlfetch -C "$B/text.txt?k=3" | jq -c 'del(.fetched_at)')" ]
}

@test "view: pwfetch shows a page on a terminal as urlfetch does; --json keeps the record" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] || skip "no Chromium"
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp" URLKIT_ALLOW_PRIVATE=127.0.0.1
	start_server PW python3 "$TOP/tests/helpers/pw_server.py"
	run -0 on_tty "stty cols 60; PAGER=cat TERM=dumb pwfetch fetch -t 30 'http://127.0.0.1:$PW_PORT/static'"
	out=${output//$'\r'/}
	[[ $out == *$'\n'"http://127.0.0.1:$PW_PORT/static"$'\nweb, text, '[0-9]*$' tokens\n\n'* ]]
	[[ $out != *'"url"'* ]]
	run -0 on_tty "PAGER=cat TERM=dumb pwfetch fetch --json -t 30 'http://127.0.0.1:$PW_PORT/static'"
	[[ $output == *'"url"'* ]]
}

@test "--help: options in groups, then examples; -h is still the synopsis alone" {
	local cmd
	for cmd in urlfetch urlextract "pwfetch fetch"; do
		run -0 $cmd --help
		[[ $output == *$'\nOutput:\n'* ]]
		[[ $output == *$'\nExtraction:\n'* ]]
		[[ $output == *$'\nExamples:\n  '* ]]
		run -0 $cmd -h
		[[ $output == "usage: "* ]]
		[[ $output != *"Examples:"* ]]
	done
	run -0 urlfetch --help
	[[ $output == *$'\nInput:\n  -i, --input=FILE'* ]]
	[[ $output == *$'\nNetwork:\n'*$'\nCache:\n'*$'\nRepositories:\n'* ]]
	# An example of the pipeline, as urlfetch(1) shows it.
	[[ $output == *"urldetect notes.txt | urlfetch | jq -r .title"* ]]
}

@test "view: no pager while URLs are typed on the terminal" {
	mk_pager
	# script(1) types into the terminal what it reads: a URL, then ^D.
	run -0 bash -c '(sleep 1; printf "%s\n" "$1"; sleep 2; printf "\004") |
	    script -qec "PAGER=$2 TERM=dumb urlfetch -C; echo rc=\$?" /dev/null' \
	    _ "$B/text.txt?y=1" "$T/pager"
	[[ $output == *"plain text line one"* ]]
	[[ $output == *"rc=0"* ]]
	[[ $output != *"LESS="* ]]
	[[ $output != *"P:"* ]]
}
