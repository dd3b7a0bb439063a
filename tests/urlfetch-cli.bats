#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch's command line (issue 17): URLs as operands, -i FILE, -o FILE,
# --text with URLs under tail's headers, --per-host, the letters that
# changed, and local files sent to urlextract.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

@test "URLs as operands: one record each, in order; options may follow them" {
	run -0 --separate-stderr urlfetch "$B/article.html?op=1" "$B/docs/frob.html?op=1" -C
	[ "${#lines[@]}" -eq 2 ]
	[ "$(field "${lines[0]}" .url)" = "$B/article.html?op=1" ]
	[ "$(field "${lines[0]}" .title)" = "The Quiet Harbour" ]
	[ "$(field "${lines[1]}" .url)" = "$B/docs/frob.html?op=1" ]
	[ "$(field "${lines[1]}" .url_type)" = documentation ]
	[ "$(requests "/article.html?op=1")" = 1 ]
}

@test "an operand that is not a URL is an error record; the run goes on, exit 1" {
	printf '%s\n' "$B/article.html?op=2" >"$T/urls.txt"
	run -1 --separate-stderr urlfetch -C "$T/urls.txt" "$B/article.html?op=2"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(field "${lines[0]}" .url)" = "$T/urls.txt" ]
	[ "$(field "${lines[0]}" .error)" = "not a URL: '$T/urls.txt' (to read records from a file, use -i $T/urls.txt)" ]
	[ "$(field "${lines[1]}" .title)" = "The Quiet Harbour" ]
	[ "$stderr" = "urlfetch: not a URL: '$T/urls.txt' (to read records from a file, use -i $T/urls.txt)" ]
	# '-' is not a URL either: standard input is -i -.
	run -1 --separate-stderr urlfetch -C - </dev/null
	[[ "$(field "$output" .error)" == "not a URL: '-' (to read records from a file, use -i -)" ]]
}

@test "a directory operand is a local repository: refused without -P, not 'not a URL'" {
	unset URLKIT_ALLOW_PRIVATE
	mkdir "$T/repo"
	run -1 --separate-stderr urlfetch -C "$T/repo"
	[[ "$(field "$output" .error)" == *"refused"* ]]
	[[ "$(field "$output" .error)" != "not a URL"* ]]
}

@test "-i FILE, repeated, '-' for stdin, mixed with operands: read in command-line order" {
	printf '%s\n' "$B/article.html?i=a" "$B/article.html?i=b" >"$T/a.txt"
	printf '{"url":"%s","id":"c"}\n' "$B/article.html?i=c" >"$T/c.jsonl"
	run -0 --separate-stderr urlfetch -C -i "$T/a.txt" "$B/article.html?i=op" \
	    --input="$T/c.jsonl" -i - <<<"$B/article.html?i=stdin"
	[ "${#lines[@]}" -eq 5 ]
	[ "$(jq -r .url <<<"$output" | sed 's/.*?i=//' | tr '\n' ' ')" = "a b op c stdin " ]
	[ "$(field "${lines[3]}" .id)" = c ]
	# A file that cannot be opened: said, exit 1, the others still fetched.
	run -1 --separate-stderr urlfetch -C -i "$T/nope" "$B/article.html?i=op"
	[ "${#lines[@]}" -eq 1 ]
	[[ $stderr == *"$T/nope"* ]]
}

@test "-o FILE: the records go to FILE; a FILE that cannot be opened is exit 2 before any fetch" {
	run -0 --separate-stderr urlfetch -C -o "$T/out.jsonl" "$B/article.html?o=1"
	[ -z "$output" ]
	[ "$(jq -r .title "$T/out.jsonl")" = "The Quiet Harbour" ]
	run -2 --separate-stderr urlfetch -C -o "$T/no/such/dir/out" "$B/article.html?o=2"
	[ -z "$output" ]
	[[ $stderr == "urlfetch: -o: cannot open '$T/no/such/dir/out': "* ]]
	[[ $stderr == *"try 'urlfetch --help'" ]]
	[ "$(requests "/article.html?o=2")" = 0 ]
	# -x writes there too.
	run -0 urlextract "$FIXTURES/extract/article.html" --output "$T/x.jsonl"
	[ -z "$output" ]
	[ "$(jq -r .url_type "$T/x.jsonl")" = web ]
}

@test "--text URL: the page's text, no header for one URL operand" {
	run -0 --separate-stderr urlfetch -C --text "$B/article.html?t=1"
	[[ "${lines[0]}" == "The Quiet Harbour"* || "$output" == *"The harbour was quiet"* ]]
	[[ "$output" != *"==>"* ]]
	[[ "$output" != *'"url"'* ]]
}

@test "--text with several URLs: a '==> URL <==' header before each, as tail; a failure has none, its error on stderr, exit 1" {
	run -1 --separate-stderr urlfetch -C -T "$B/article.html?t=2" "$B/status/404?t=2" \
	    "$B/docs/frob.html?t=2"
	[ "${lines[0]}" = "==> $B/article.html?t=2 <==" ]
	[[ "$output" == *"The harbour was quiet"* ]]
	[[ "$output" == *$'\n\n'"==> $B/docs/frob.html?t=2 <=="$'\n'* ]]
	[[ "$output" == *"The frobnicate function"* ]]
	[ "$(grep -c '^==> ' <<<"$output")" -eq 2 ]
	[[ "$output" != *"status/404"* ]]
	[[ "$stderr" == *"'$B/status/404?t=2': "* ]]
	# From standard input the count is not known: a header for each.
	run -0 --separate-stderr urlfetch -C -T <<<"$B/article.html?t=3"
	[ "${lines[0]}" = "==> $B/article.html?t=3 <==" ]
}

@test "--text -f markdown: the page as Markdown" {
	run -0 --separate-stderr urlfetch -C -T -f markdown "$B/article.html?t=4"
	[[ "$output" == *"# The Quiet Harbour"* ]]
}

@test "the old letters are gone: -c, -l and -u are unknown options" {
	run -2 --separate-stderr urlfetch -c
	[ "$stderr" = "urlfetch: unknown option -c
try 'urlfetch --help'" ]
	run -2 --separate-stderr urlfetch -l 60
	run -2 --separate-stderr urlextract "$FIXTURES/extract/tiny.html" -u https://example.com/
	# Their new names work.
	run -0 urlextract "$FIXTURES/extract/tiny.html" -B https://example.com/t
	[ "$(field "$output" .url)" = https://example.com/t ]
	run -0 --separate-stderr urlfetch --ttl 1h -C "$B/article.html?l=1"
}

@test "-x and -B are usage errors that name urlextract; nothing is read or fetched" {
	local f="$FIXTURES/extract/tiny.html"
	run -2 --separate-stderr urlfetch -x "$f"
	[ -z "$output" ]
	[ "$stderr" = "urlfetch: -x: local files are urlextract's: urlextract [-B url] file ...
try 'urlfetch --help'" ]
	run -2 --separate-stderr urlfetch --extract "$f" -T
	[[ ${stderr%%$'\n'*} == "urlfetch: -x: "*urlextract* ]]
	run -2 --separate-stderr urlfetch --extract="$f"
	[[ ${stderr%%$'\n'*} == "urlfetch: -x: "*urlextract* ]]
	run -2 --separate-stderr urlfetch -C "$B/article.html?x=1" -x
	[[ ${stderr%%$'\n'*} == "urlfetch: -x: "*urlextract* ]]
	run -2 --separate-stderr urlfetch -B https://example.com/ "$B/article.html?x=1"
	[[ ${stderr%%$'\n'*} == "urlfetch: -B: "*"urlextract -B url file" ]]
	[ "$(requests "/article.html?x=1")" = 0 ]
	# Neither is in the help.
	run -0 urlfetch --help
	[[ $output != *"--extract"* ]]
	[[ $output != *"--base"* ]]
	[[ $output == *urlextract* ]]
}

@test "HTML or a PDF where URLs are expected: one usage error naming urlextract, no records" {
	run -2 --separate-stderr urlfetch -C <"$FIXTURES/extract/article.html"
	[ -z "$output" ]
	[ "$stderr" = "urlfetch: standard input is an HTML document, not URLs or url records: to extract it, run urlextract
try 'urlfetch --help'" ]
	# Through a pipe, as an operand, and from -i FILE, named so.
	run -2 --separate-stderr bash -c 'cat "$1" | urlfetch -C' _ "$FIXTURES/extract/tiny.html"
	[ -z "$output" ]
	[[ ${stderr%%$'\n'*} == "urlfetch: standard input is an HTML document"*urlextract ]]
	run -2 --separate-stderr urlfetch -C "$FIXTURES/extract/tiny.html"
	[ -z "$output" ]
	[ "${stderr%%$'\n'*}" = "urlfetch: '$FIXTURES/extract/tiny.html' is an HTML document, not URLs or url records: to extract it, run urlextract '$FIXTURES/extract/tiny.html'" ]
	printf '%%PDF-1.4\n%%\xe2\xe3\n1 0 obj\n' >"$T/doc.pdf"
	run -2 --separate-stderr urlfetch -C -i "$T/doc.pdf"
	[ -z "$output" ]
	[[ ${stderr%%$'\n'*} == "urlfetch: '$T/doc.pdf' is a PDF document"*"run urlextract '$T/doc.pdf'" ]]
	run -2 --separate-stderr bash -c 'cat "$1" | urlfetch -C' _ "$T/doc.pdf"
	[[ ${stderr%%$'\n'*} == "urlfetch: standard input is a PDF document"* ]]
	[ "$(requests "/article.html?h=1")" = 0 ]
	# URLs and records get no such line, even with a bad line later.
	printf '%s\n' "$B/article.html?h=1" "not a url line" >"$T/urls"
	run -1 --separate-stderr urlfetch -C -i "$T/urls"
	[ "${#lines[@]}" -eq 2 ]
	[[ $stderr != *urlextract* ]]
}

# max_at_once N ARGS...: fetch 20 pages of the perhost server with ARGS,
# and check that it served them all, N at most at once, and N at some time.
max_at_once() {
	local n=$1
	shift
	curl -s "http://127.0.0.1:$ph_PORT/_reset" >/dev/null
	seq 1 20 | sed "s|^|http://127.0.0.1:$ph_PORT/p|" >"$T/urls"
	run -0 --separate-stderr urlfetch -C -q -j 8 "$@" -i "$T/urls"
	[ "${#lines[@]}" -eq 20 ]
	run -0 curl -s "http://127.0.0.1:$ph_PORT/_stats"
	echo "$* -> $output" >&3
	[ "$(jq .served <<<"$output")" -eq 20 ]
	[ "$(jq .max <<<"$output")" -eq "$n" ]
}

@test "--per-host N: at most N transfers at once to one host (the server counts them), 3 by default" {
	start_server ph python3 "$TOP/tests/helpers/perhost_server.py" 0.3
	max_at_once 1 --per-host 1
	max_at_once 5 --per-host=5
	max_at_once 3
	max_at_once 8 --per-host 8
	# -j still caps it.
	max_at_once 2 --per-host 8 -j 2
	run -2 urlfetch --per-host 0
	run -2 --separate-stderr urlfetch --per-host 65
	[ "$stderr" = "urlfetch: --per-host: not a count from 1 to 64: '65'
try 'urlfetch --help'" ]
}
