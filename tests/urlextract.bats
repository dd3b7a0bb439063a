#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract: local HTML and PDF input, files or standard input, told by
# their bytes; -B for the page's address; a bad file is an error record
# and the run goes on; no network library linked.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	X="$FIXTURES/extract"
	MKPDF="$TOP/tests/helpers/mkpdf.py"
}
teardown() { common_teardown; }

@test "standard input: no operand or '-', a record whose url is file:///dev/stdin" {
	run -0 --separate-stderr urlextract <"$X/article.html"
	[ "${#lines[@]}" -eq 1 ]
	[ "$(field "$output" .url)" = "file:///dev/stdin" ]
	[ "$(field "$output" .url_type)" = web ]
	[ "$(field "$output" .title)" = "How to Brew Coffee at Home" ]
	[[ "$(field "$output" .content)" == *"Good coffee starts with fresh beans"* ]]
	[ -z "$stderr" ]
	run -0 --separate-stderr urlextract - <"$X/article.html"
	[ "$(field "$output" .url)" = "file:///dev/stdin" ]
	# From a pipe, not only a file: read to its end.
	run -0 --separate-stderr bash -c 'cat "$1" | urlextract -T' _ "$X/article.html"
	[[ $output == "How to Brew Coffee at Home"* ]]
}

@test "a relative file name is made absolute; '-' among files is stdin" {
	cp "$X/article.html" "$T/page.html"
	cd "$T"
	run -0 --separate-stderr urlextract page.html - <"$X/tiny.html"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(field "${lines[0]}" .url)" = "file://$T/page.html" ]
	[ "$(field "${lines[1]}" .url)" = "file:///dev/stdin" ]
}

@test "FILE...: a record for each file; with --text a '==> FILE <==' header each" {
	local a="$X/article.html" b="$X/tiny.html"
	run -0 urlextract "$a" "$b"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(field "${lines[0]}" .url)" = "file://$a" ]
	[ "$(field "${lines[1]}" .url)" = "file://$b" ]
	run -0 urlextract --text "$a" "$b"
	[ "${lines[0]}" = "==> $a <==" ]
	[ "$(grep -c '^==> ' <<<"$output")" -eq 2 ]
	[[ "$output" == *$'\n\n'"==> $b <=="$'\n'* ]]
	# One file: no header.
	run -0 urlextract -T "$a"
	[[ "$output" != *"==>"* ]]
	# A missing one: its error on stderr, the others still done, exit 1.
	run -1 --separate-stderr urlextract -T "$T/nope.html" "$a"
	[ "${lines[0]}" = "==> $a <==" ]
	[[ "$stderr" == *"nope.html"* ]]
}

@test "-B URL: the record's url, and what is relative resolved against it" {
	run -0 --separate-stderr urlextract -B https://news.example/2024/page \
	    <"$X/meta.html"
	[ "$(field "$output" .url)" = https://news.example/2024/page ]
	[ "$(field "$output" .canonical)" = https://news.example/2024/03/tides-and-boats ]
	# Without it, a relative canonical is left out.
	run -0 --separate-stderr urlextract "$X/meta.html"
	[ "$(field "$output" .canonical)" = null ]
	run -0 --separate-stderr urlextract --base=https://news.example/x "$X/meta.html"
	[ "$(field "$output" .url)" = https://news.example/x ]
}

@test "curl -s URL | urlextract -B URL: the text and metadata urlfetch gets for URL" {
	run -0 --separate-stderr bash -c \
	    'curl -s "$1" | urlextract -B "$1"' _ "$B/article.html?cx=1"
	local piped=$output
	[ "$(field "$piped" .url)" = "$B/article.html?cx=1" ]
	run -0 --separate-stderr urlfetch -C "$B/article.html?cx=1"
	local fetched=$output
	[ "$(field "$fetched" .title)" = "The Quiet Harbour" ]
	local f
	for f in url url_type title description author date lang content page_type; do
		[ "$(field "$piped" ".$f")" = "$(field "$fetched" ".$f")" ] ||
		    { echo "$f differs" >&2; return 1; }
	done
}

@test "PDF or HTML by the bytes, whatever the file is called" {
	python3 "$MKPDF" doc "$T/report.html"
	run -0 --separate-stderr urlextract "$T/report.html"
	[ "$(field "$output" .title)" = "The Harbour Report" ]
	[ "$(field "$output" .pages)" = 3 ]
	# The same document on standard input.
	run -0 --separate-stderr urlextract -T <"$T/report.html"
	[[ $output == "Harbour Report"* ]]
	# And HTML named .pdf is HTML.
	cp "$X/article.html" "$T/article.pdf"
	run -0 --separate-stderr urlextract "$T/article.pdf"
	[ "$(field "$output" .title)" = "How to Brew Coffee at Home" ]
	[ "$(field "$output" .pages)" = null ]
}

@test "bad input: an error record each, the run goes on, exit 1" {
	printf '%%PDF-1.4\nnot a document at all\n' >"$T/broken.pdf"
	truncate -s 65M "$T/huge.html"
	run -1 --separate-stderr urlextract "$T/nope.html" "$T/broken.pdf" \
	    "$X/article.html" "$T" "$T/huge.html"
	[ "${#lines[@]}" -eq 5 ]
	local i
	for i in 0 1 3 4; do
		[ "$(field "${lines[$i]}" .error)" != null ] ||
		    { echo "line $i has no error" >&2; return 1; }
		[ "$(field "${lines[$i]}" .url_type)" = web ]
	done
	[[ "$(field "${lines[0]}" .error)" == *"nope.html: No such file"* ]]
	[[ "$(field "${lines[1]}" .error)" == "damaged PDF"* ]]
	[[ "$(field "${lines[3]}" .error)" == *"Is a directory"* ]]
	[[ "$(field "${lines[4]}" .error)" == *"huge.html: larger than 64 MiB" ]]
	# The good one between them is whole.
	[ "$(field "${lines[2]}" .error)" = null ]
	[ "$(field "${lines[2]}" .title)" = "How to Brew Coffee at Home" ]
	# Each failure said once on stderr, under the program's name.
	[ "$(grep -c '^urlextract: ' <<<"$stderr")" -eq 4 ]
}

@test "exit status: 0 all done, 1 a file failed, 2 usage, 3 stdout lost" {
	run -0 urlextract "$X/tiny.html"
	run -1 --separate-stderr urlextract "$T/nope.html"
	run -2 --separate-stderr urlextract --no-such-option "$X/tiny.html"
	[ -z "$output" ]
	[ "${stderr##*$'\n'}" = "try 'urlextract --help'" ]
	run -2 --separate-stderr urlextract -f html "$X/tiny.html"
	[[ $stderr == "urlextract: -f: not text or markdown: 'html'"* ]]
	run -2 --separate-stderr urlextract --max-pages 0 "$X/tiny.html"
	run -2 --separate-stderr urlextract --select 'div[' "$X/tiny.html"
	run -2 --separate-stderr urlextract -o "$T/no/such/dir/out" "$X/tiny.html"
	[[ $stderr == "urlextract: -o: cannot open "* ]]
	# urlfetch's own options are not urlextract's.
	run -2 --separate-stderr urlextract -i "$X/tiny.html"
	run -2 --separate-stderr urlextract -j 2 "$X/tiny.html"
	run -3 --separate-stderr bash -c 'exec urlextract "$1" >&-' _ "$X/tiny.html"
	[[ $stderr == *"standard output is closed"* ]]
	run -0 urlextract --help
	[[ $output == "usage: urlextract "* ]]
	run -0 urlextract -h
	[[ $output == "usage: urlextract "* ]]
	run -0 urlextract --version
	[[ $output == "urlextract "* ]]
}

@test "extraction options: -f markdown --links, --select, --explain, -o" {
	run -0 --separate-stderr urlextract -f markdown --links \
	    -B https://example.com/a/ "$X/article.html"
	[ "$(field "$output" .format)" = markdown ]
	[[ "$(field "$output" .content)" == *"# How to Brew Coffee at Home"* ]]
	run -0 --separate-stderr urlextract --select h2 -T "$X/article.html"
	[ "${lines[0]}" = Grinding ]
	run -0 --separate-stderr urlextract --explain "$X/article.html"
	[ "${#lines[@]}" -eq 1 ]
	[[ $stderr == *'"rule":'* ]]
	run -0 urlextract -o "$T/out.jsonl" "$X/article.html"
	[ -z "$output" ]
	[ "$(jq -r .title "$T/out.jsonl")" = "How to Brew Coffee at Home" ]
}

@test "urlextract links no network or repository library" {
	command -v ldd >/dev/null || skip "no ldd"
	run -0 ldd "$UK_BIN/urlextract"
	[[ $output == *libgumbo* ]]
	[[ $output == *libyajl* ]]
	local lib
	for lib in libcurl libgit2 libarchive libtree-sitter libpcre2 libcrypto libxml2 libpoppler; do
		[[ $output != *"$lib"* ]] || { echo "urlextract links $lib" >&2; false; }
	done
	# urlfetch has them all; tree-sitter's runtime is compiled in.
	run -0 ldd "$UK_BIN/urlfetch"
	[[ $output == *libcurl* ]]
	[[ $output == *libgit2* ]]
	command -v nm >/dev/null || skip "no nm"
	run -0 nm "$UK_BIN/urlfetch"
	[[ $output == *" T ts_parser_parse"* ]]
	run -0 nm "$UK_BIN/urlextract"
	[[ $output != *ts_parser_parse* ]]
}

@test "a record over the line limit is cut to fit, and says so" {
	python3 - "$T/big.html" <<'PY'
import sys
words = "harbour boat rope knot storm pier gull morning tide anchor".split()
with open(sys.argv[1], "w") as f:
    f.write("<html><head><title>Big</title></head><body><article>")
    i = 0
    while f.tell() < 18 * 1024 * 1024:
        f.write("<p>%d %s.</p>\n" % (i, " ".join(words[(i + k) % 10] for k in range(60))))
        i += 1
    f.write("</article></body></html>")
PY
	urlextract "$T/big.html" >"$T/out"
	# One line, under 16 MiB with its newline, as every urlkit reader
	# takes it.
	[ "$(wc -l <"$T/out")" -eq 1 ]
	[ "$(wc -c <"$T/out")" -le $((16 * 1024 * 1024)) ]
	run -0 jq -r '[.truncated, .title, (.truncated_reason | test("content"))] | @tsv' "$T/out"
	[ "$output" = $'true\tBig\ttrue' ]
}
