#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect: the seed's URL Detection, URL Classification and Display Name
# lists, the options, bad input, and the detection score on the dev set.

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

urls() { printf '%s' "$1" | urldetect -u; }

# --- the seed's URL Detection list ---------------------------------------

@test "detection: basic" {
	run -0 urls 'see https://example.com/page for details'
	[ "$output" = "https://example.com/page" ]
}

@test "detection: multiple URLs in order" {
	run -0 urls 'a https://one.example/ b http://two.example/x c'
	[ "$output" = "$(printf 'https://one.example/\nhttp://two.example/x')" ]
}

@test "detection: duplicates within a message, first kept" {
	run -0 sh -c 'printf "x https://a.example/1 y https://b.example z https://a.example/1" | urldetect'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.url,.start,.end]')" = '["https://a.example/1",2,21]' ]
}

@test "detection: trailing punctuation and comma stripped" {
	run -0 urls 'Read https://example.com/a, then https://example.com/b. Done: https://example.com/c!'
	[ "$output" = "$(printf 'https://example.com/a\nhttps://example.com/b\nhttps://example.com/c')" ]
}

@test "detection: no URLs gives nothing, and exit 1 as grep" {
	run -1 urls 'plain text with example.com and no scheme'
	[ -z "$output" ]
}

@test "detection: http supported, file:// and ftp:// rejected" {
	run -0 urls 'http://plain.example file:///etc/passwd ftp://ftp.example/x'
	[ "$output" = "http://plain.example" ]
}

@test "detection: raw.githubusercontent.com is a github_file" {
	run -0 sh -c 'echo "get https://raw.githubusercontent.com/o/r/main/a/b.py now" | urldetect'
	json_eq "$output" '{"url":"https://raw.githubusercontent.com/o/r/main/a/b.py","type":"github_file","display":"o/r/b.py","start":4,"end":53,"github":{"owner":"o","repo":"r","branch":"main","path":"a/b.py"}}'
}

@test "detection: brackets, quotes and markdown" {
	run -0 urls '(https://en.wikipedia.org/wiki/Set_(mathematics)) [t](https://md.example/x) <https://angle.example> {"u":"https://json.example/a"}'
	[ "$output" = "$(printf '%s\n' https://en.wikipedia.org/wiki/Set_\(mathematics\) https://md.example/x https://angle.example https://json.example/a)" ]
}

@test "detection: byte offsets count bytes of multibyte text" {
	run -0 sh -c 'printf "é → https://x.example/ü" | urldetect | jq -c "[.start,.end]"'
	[ "$output" = "[7,27]" ]
}

# --- URL Classification and Display Name, table-driven through -c ----------

@test "classification and display names (table)" {
	local url type display got row bad=0
	# The table's URLs through one urldetect and one jq (each line is
	# classified on its own), then compared row by row.  (row is set
	# after run: bats' run sets an i of its own.)
	run -0 sh -c "cut -f1 '$FIXTURES/urldetect/classify.tsv' |
	    urldetect --classify | jq -r '[.type,.display]|@tsv'"
	row=0
	while IFS=$'\t' read -r url type display; do
		got=${lines[row]-}
		row=$((row + 1))
		if [ "$got" != "$type"$'\t'"$display" ]; then
			echo "$url: expected $type $display, got $got" >&2
			bad=1
		fi
	done <"$FIXTURES/urldetect/classify.tsv"
	[ "$bad" -eq 0 ]
	[ "${#lines[@]}" -eq "$row" ]
	run -0 sh -c "cut -f1 '$FIXTURES/urldetect/classify.tsv' | urldetect --classify | wc -l"
	[ "$output" -eq "$(wc -l <"$FIXTURES/urldetect/classify.tsv")" ]
}

@test "classification: github fields for issues and pull requests" {
	run -0 sh -c 'printf "%s\n" https://github.com/a/b/issues/5 https://github.com/a/b/pull/9/files | urldetect --classify | jq -c .github'
	[ "${lines[0]}" = '{"owner":"a","repo":"b","issue_number":5}' ]
	[ "${lines[1]}" = '{"owner":"a","repo":"b","pr_number":9}' ]
}

@test "-c keeps other fields, replaces stale ones, in order" {
	run -0 sh -c 'echo "{\"id\":7,\"url\":\"https://example.com/docs/x\",\"type\":\"web\",\"n\":1.50}" | urldetect --classify'
	[ "$output" = '{"id":7,"url":"https://example.com/docs/x","type":"documentation","n":1.50,"display":"example.com/docs/x"}' ]
}

# --- input modes and options ----------------------------------------------

@test "-l: one message per line, offsets per line, dedup per line" {
	run -0 sh -c 'printf "a https://x.example\nb https://x.example https://x.example\n" | urldetect -L | jq -c "[.message,.start]"'
	[ "$output" = "$(printf '[1,2]\n[2,2]')" ]
}

@test "whole input is read as one by default, and carries no message" {
	run -0 sh -c 'printf "a https://x.example\nb https://x.example\n" | urldetect | jq -c "[.message,.start]"'
	[ "$output" = "[null,2]" ]
}

@test "-j FIELD: ids carried, line numbers when absent, errors passed" {
	printf '%s\n' '{"id":"m1","text":"see https://a.example"}' \
		'{"text":"and https://b.example"}' \
		'{"error":"upstream failed","url":"https://c.example"}' >"$T/in"
	run -0 urldetect --json text "$T/in"
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.url,.id]')" = '["https://a.example","m1"]' ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -c '[.url,.id,.message]')" = '["https://b.example",2,2]' ]
	[ "${lines[2]}" = '{"error":"upstream failed","url":"https://c.example"}' ]
}

@test "-j FIELD: bad lines give error records and the run goes on" {
	printf '%s\n' 'not json' '{"other":1}' '{"text":"https://ok.example"}' >"$T/in"
	run -1 --separate-stderr urldetect --json text "$T/in"
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.tool,.file,.line]')" = "[\"urldetect\",\"$T/in\",1]" ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r .error)" = "no string field 'text'" ]
	[ "$(printf '%s\n' "${lines[2]}" | jq -r .url)" = "https://ok.example" ]
	[[ "$stderr" == *"$T/in:1: not a JSON object"* ]]
}

@test "-n caps URLs per message" {
	run -0 sh -c 'printf "https://a.example https://b.example https://c.example https://d.example\nhttps://e.example\n" | urldetect -L -m 3 -u'
	[ "$output" = "$(printf '%s\n' https://a.example https://b.example https://c.example https://e.example)" ]
}

@test "-t keeps one type, before the cap" {
	run -0 sh -c 'echo "https://a.example https://github.com/o/r https://b.example https://github.com/o/s" | urldetect -y github_repo -m 1 -u'
	[ "$output" = "https://github.com/o/r" ]
}

@test "-q: exit 0 when found, 1 when not, nothing printed" {
	run -0 sh -c 'echo "x https://a.example" | urldetect -q'
	[ -z "$output" ]
	run -1 sh -c 'echo "no links" | urldetect -q'
	[ -z "$output" ]
	run -1 sh -c 'echo "https://a.example" | urldetect -q -y github_pr'
}

@test "-a keeps repeats" {
	run -0 sh -c 'echo "https://a.example https://a.example" | urldetect -a -u | wc -l'
	[ "$output" -eq 2 ]
}

@test "each file operand is read whole on its own; a missing file is an error" {
	echo "https://a.example" >"$T/f1"
	echo "https://a.example" >"$T/f2"
	run -1 --separate-stderr urldetect "$T/f1" "$T/nope" "$T/f2"
	[ "$(printf '%s\n' "$output" | jq -c .file | tr '\n' ' ')" = "\"$T/f1\" \"$T/f2\" " ]
	[ "$(printf '%s\n' "$output" | jq -c 'has("message")' | sort -u)" = false ]
	[[ "$stderr" == *"cannot open '$T/nope'"* ]]
}

@test "usage: --help to stdout exit 0, bad option exit 2, --version" {
	run -0 urldetect --help
	[[ "$output" == "usage: urldetect "* ]]
	run -2 --separate-stderr urldetect --bogus
	[ "$stderr" = "urldetect: unknown option --bogus
try 'urldetect --help'" ]
	run -2 urldetect -y nosuchtype
	run -2 urldetect -m -1
	run -2 urldetect --classify -L
	run -0 urldetect --version
	[[ "$output" == "urldetect "* ]]
}

@test "a write error on stdout exits 3" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -3 sh -c 'echo "https://a.example" | urldetect >/dev/full'
}

# --- bad input --------------------------------------------------------------

@test "bad input: invalid UTF-8 and NUL bytes end URLs, no crash" {
	run -0 sh -c 'printf "https://a.example/x\377y https://b.example/\000z https://c.example\n" | urldetect -u'
	[ "$output" = "$(printf '%s\n' https://a.example/x https://b.example/ https://c.example)" ]
	run -0 sh -c 'printf "https://a.example/\377" | urldetect | jq -r .url'
	[ "$output" = "https://a.example/" ]
}

@test "bad input: binary data" {
	head -c 2000000 /dev/urandom >"$T/bin"
	printf ' https://after.example/ok\n' >>"$T/bin"
	run -0 sh -c "urldetect -u '$T/bin' | tail -n 1"
	[ "$output" = "https://after.example/ok" ]
	run -0 sh -c "urldetect '$T/bin' | jq -e . >/dev/null"
}

# Memory is bounded: the limit is set only for a plain build (the
# sanitizers reserve terabytes of address space).
limit_memory() {
	case $UK_BIN in
	*build-san* | *valgrind*) ;;
	*) ulimit -v 150000 ;;
	esac
}

@test "bad input: a 20 MB line without newline, in bounded memory" {
	python3 -c 'import sys; sys.stdout.write("w " * 10000000 + "https://end.example/x")' >"$T/big"
	run -0 bash -c "$(declare -f limit_memory); limit_memory; urldetect -u '$T/big'"
	[ "$output" = "https://end.example/x" ]
	run -0 bash -c "$(declare -f limit_memory); limit_memory; urldetect -L -u '$T/big'"
	[ "$output" = "https://end.example/x" ]
}

@test "bad input: a 1 MB URL is skipped with a warning, the next is found" {
	python3 -c 'import sys; sys.stdout.write("https://long.example/" + "a" * 1048576 + " https://next.example\n")' >"$T/long"
	run -0 --separate-stderr bash -c "$(declare -f limit_memory); limit_memory; urldetect -u '$T/long'"
	[ "$output" = "https://next.example" ]
	[[ "$stderr" == *"skipped 1 URL longer than 65536 bytes"* ]]
}

@test "bad input: a JSON line over 16 MiB is an error record" {
	python3 -c 'import sys; sys.stdout.write("{\"text\":\"" + "a" * 17000000 + "\"}\n{\"text\":\"https://ok.example\"}\n")' >"$T/huge"
	run -1 --separate-stderr urldetect --json text "$T/huge"
	[ "$(printf '%s\n' "${lines[0]}" | jq -r .error)" = "line longer than 16777216 bytes" ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r .url)" = "https://ok.example" ]
}

# --- streaming --------------------------------------------------------------

@test "input that arrives in small pieces gives the same URLs" {
	need_shared tools/gencorpus
	python3 "$SHARED/tools/gencorpus" 1 7 --truth="$T/truth" >"$T/corpus" 2>/dev/null
	urldetect -u -a "$T/corpus" >"$T/whole"
	python3 -c '
import os, sys, time
data = open(sys.argv[1], "rb").read()
for i in range(0, len(data), 997):
    os.write(1, data[i:i + 997])
' "$T/corpus" | urldetect -u -a >"$T/pieces"
	run -0 cmp "$T/whole" "$T/pieces"
	run -0 cmp "$T/whole" "$T/truth"
}

@test "records appear before the input ends" {
	mkfifo "$T/fifo"
	( printf 'https://first.example\n'; exec sleep 20 ) >"$T/fifo" &
	local writer=$!
	echo "$writer" >"$T/writer.pid"
	urldetect -L -u <"$T/fifo" >"$T/out" &
	echo $! >"$T/reader.pid"
	for _ in $(seq 1 100); do
		[ -s "$T/out" ] && break
		sleep 0.05
	done
	# The writer is still there: the record came before end of input.
	run -0 kill -0 "$writer"
	run -0 cat "$T/out"
	[ "$output" = "https://first.example" ]
}

# --- the dev set --------------------------------------------------------------

@test "dev set: precision and recall >= 0.98 on the non-fuzzy cases" {
	need_shared tools/score-urldetect bench/urldetect-dev.jsonl
	run -0 "$SHARED/tools/score-urldetect" -j 2 --json "$T/score.json" \
		"$UK_BIN/urldetect -u" "$SHARED/bench/urldetect-dev.jsonl"
	run -0 jq -e '.files[].all | .precision >= 0.98 and .recall >= 0.98' "$T/score.json"
}

# urldetect writes compact records itself rather than through a JSON tree
# (issue 40): every field, escapes and all, byte for byte as the tree
# wrote them.
@test "records: every field byte for byte, escapes in file and id" {
	f='we"ird\x01.txt'
	printf 'x https://github.com/o/r/blob/main/a%%22b y https://www.example.com/docs/\316\261?q=1 z http://[::1]:8080/p\n' >"$BATS_TEST_TMPDIR/$f"
	cd "$BATS_TEST_TMPDIR"
	run urldetect -H -a "$f"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '{"url":"https://github.com/o/r/blob/main/a%22b","type":"github_file","display":"o/r/a%22b","start":2,"end":40,"file":"we\"ird\\x01.txt","github":{"owner":"o","repo":"r","branch":"main","path":"a%22b"}}' ]
	[ "${lines[1]}" = '{"url":"https://www.example.com/docs/α?q=1","type":"documentation","display":"www.example.com/docs/α","start":43,"end":78,"file":"we\"ird\\x01.txt"}' ]
	[ "${lines[2]}" = '{"url":"http://[::1]:8080/p","type":"web","display":"[::1]/p","start":81,"end":100,"file":"we\"ird\\x01.txt"}' ]
	[ "${#lines[@]}" -eq 3 ]
	run urldetect --json t <<<'{"id":"\u0001\"\u00e9","t":"https://github.com/o/r/issues/3 https://github.com/o/r/pull/4"}'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '{"url":"https://github.com/o/r/issues/3","type":"github_issue","display":"o/r#3","start":0,"end":31,"message":1,"id":"\u0001\"é","github":{"owner":"o","repo":"r","issue_number":3}}' ]
	[ "${lines[1]}" = '{"url":"https://github.com/o/r/pull/4","type":"github_pr","display":"o/r!4","start":32,"end":61,"message":1,"id":"\u0001\"é","github":{"owner":"o","repo":"r","pr_number":4}}' ]
}

# The records are written from uk_url_view (the host and path split by
# hand for most URLs) into one buffer; UK_URLDETECT_REFERENCE=1 writes
# them from libcurl's parse through a yajl tree each, as before (issue
# 40).  Both must give the same bytes, in the same order around error
# records, and past the buffer's 64 KiB.
urldetect_both() {
	local name=$1
	shift
	urldetect "$@" >"$T/$name.fast" 2>"$T/$name.fast.err" </dev/null ||
		echo "fast exit $?" >>"$T/$name.fast"
	UK_URLDETECT_REFERENCE=1 urldetect "$@" >"$T/$name.ref" \
		2>"$T/$name.ref.err" </dev/null ||
		echo "fast exit $?" >>"$T/$name.ref"
	cmp "$T/$name.fast" "$T/$name.ref" && cmp "$T/$name.fast.err" "$T/$name.ref.err"
}

@test "records: the same bytes as libcurl's parse and yajl's writer" {
	{
		printf 'a https://github.com/o/r and https://GitHub.com/o/r.git/ and https://github.com./o/r/tree/v1/.github/x\n'
		printf 'b https://raw.githubusercontent.com/o/r/refs/heads/dev/a/b.c https://github.com/o/r/pull/99999999999999999999/files\n'
		printf 'c https://docs.python.org.evil.example/3/ https://x.readthedocs.io/en/ https://example.com/API/v2 https://docs.example.com\n'
		printf 'd http://127.0.0.1:8080/x http://127.1/x http://0x7f.0.0.1/ http://[::1]/p http://[2001:db8::1]:443/q http://u:pw@example.com/\n'
		printf 'e https://example.com/a/./b/../c https://example.com/%%2e%%2e/x https://example.com/a"b https://www.example.com/docs/\316\261\316\262?q=1\n'
		printf 'f https://\344\276\213\343\201\210.\343\203\206\343\202\271\343\203\210/\343\203\221\343\202\271 https://example.com/a/very/long/path/that/goes/on/and/on/for/ever/and/ever\n'
		printf 'g https://github.com/features/actions https://github.com/o/r/issues/new https://github.com/o/r/blob/main/ https://github.com/o/r/blob/main/src/x.c#L3\n'
		printf 'h https://a.example/x https://a.example/x https://a.example/x?y\n'
		printf 'i https://a.example/x?q="y https://a.example/x?q=\303\251 https://a.example/x#"f\n'
	} >"$T/in.txt"
	cp "$T/in.txt" "$T/in2.txt"
	urldetect_both plain "$T/in.txt"
	urldetect_both all -a "$T/in.txt"
	urldetect_both lines -L "$T/in.txt"
	urldetect_both files -a -H "$T/in.txt" "$T/in2.txt"
	urldetect_both type -y github_repo "$T/in.txt"
	urldetect_both max -L -m 2 "$T/in.txt"
	[ "$(wc -l <"$T/all.fast")" -eq 30 ]
	# Around error records: each record's URLs before the next error.
	{
		printf '{"id":1,"t":"https://github.com/o/r https://example.com/docs/x"}\n'
		printf 'not json\n'
		printf '{"id":"\\u0001","t":"https://a.example/\\u00e9 https://b.example/\\"q"}\n'
		printf '{"error":"came failed"}\n'
		printf '{"t":"https://github.com/o/r/issues/3"}\n'
	} >"$T/in.jsonl"
	urldetect_both json --json t "$T/in.jsonl"
	[ "$(sed -n 3p "$T/json.fast" | jq -r .error)" != null ]
	# Past the 64 KiB the records are gathered in before they go out.
	for i in $(seq 1 1500); do
		printf 'x https://github.com/o%d/r/blob/main/f%d.c y\n' "$i" "$i"
	done >"$T/big.txt"
	urldetect_both big "$T/big.txt"
	[ "$(wc -c <"$T/big.fast")" -gt 200000 ]
}
