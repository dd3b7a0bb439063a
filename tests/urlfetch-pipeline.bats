#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The obvious pipeline does the obvious thing (issue 36): the per-message
# limit only where the input has messages; a document given where URLs
# are expected is one usage error naming urlextract.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

@test "pipeline: urldetect urls.txt | urlfetch fetches all 5 URLs of a plain file" {
	for i in 1 2 3 4 5; do echo "$B/text.txt?f=$i"; done >"$T/urls.txt"
	run -0 --separate-stderr bash -c 'urldetect "$1" | urlfetch -C' _ "$T/urls.txt"
	[ "${#lines[@]}" -eq 5 ]
	[ "$(printf '%s\n' "$output" | jq -s -c 'map(.error)')" = "[null,null,null,null,null]" ]
	for i in 1 2 3 4 5; do [ "$(requests "/text.txt?f=$i")" = 1 ]; done
}

@test "pipeline: operands read whole are not a message either" {
	for i in 1 2 3 4 5; do echo "see $B/text.txt?o=$i"; done >"$T/a.txt"
	run -0 --separate-stderr bash -c 'urldetect "$1" - <<<"and $B/text.txt?o=6" | urlfetch -C' _ "$T/a.txt"
	[ "${#lines[@]}" -eq 6 ]
	[ "$(printf '%s\n' "$output" | jq -s -c 'map(select(.skipped)) | length')" = 0 ]
}

@test "pipeline: with -L each line is a message and the limit holds; the error says how to fetch" {
	printf '%s/text.txt?l=%s ' "$B" 1 "$B" 2 "$B" 3 "$B" 4 >"$T/chat"
	printf '\n%s/text.txt?l=5\n' "$B" >>"$T/chat"
	run -1 --separate-stderr bash -c 'urldetect -L "$1" | urlfetch -C' _ "$T/chat"
	[ "$(printf '%s\n' "$output" | jq -s -c 'map(.skipped == true)')" = "[false,false,false,true,false]" ]
	[ "$(field "${lines[3]}" .error)" = "over the limit of 3 URLs per message: fetch it with urlfetch -m 0, or with urlserve's fetch_url" ]
	[[ $stderr == *"fetch it with urlfetch -m 0"* ]]
	[ "$(requests '/text.txt?l=4')" = 0 ]
}

@test "pwfetch: HTML or a PDF where URLs are expected is one usage error naming urlextract, before any browser" {
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp"
	printf '<!DOCTYPE html>\n<html><body><p>x</p></body></html>\n' >"$T/page.html"
	run -2 --separate-stderr pwfetch fetch "$T/page.html"
	[ -z "$output" ]
	[ "$stderr" = "pwfetch fetch: '$T/page.html' is an HTML document, not URLs or url records: to extract it, run urlextract '$T/page.html'
try 'pwfetch fetch --help'" ]
	run -2 --separate-stderr bash -c 'cat "$1" | pwfetch open' _ "$T/page.html"
	[[ ${stderr%%$'\n'*} == "pwfetch open: standard input is an HTML document"*urlextract ]]
	printf '%%PDF-1.7\n' >"$T/doc.pdf"
	run -2 --separate-stderr pwfetch fetch -i "$T/doc.pdf"
	[[ ${stderr%%$'\n'*} == "pwfetch fetch: '$T/doc.pdf' is a PDF document"* ]]
	# No browser was started: its profile would be under TMPDIR.
	[ -z "$(ls -A "$T/tmp")" ]
}
