#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch and pwfetch write the same content record for the same url
# record: both read the loopback pages of helpers/fetch_server.py from the
# same input, and the records are compared field for field (jq -S).  The
# fields allowed to differ are named in agree() below, each with why.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }

setup() {
	fetch_setup
	mkdir -p "$T/tmp"
	export TMPDIR="$T/tmp" # pwfetch's browser profile
}

teardown() { common_teardown; }

# The url record of PATH as urldetect writes it, message N, with the
# fields a program upstream may add (id, hint) and one nobody knows.
url_record() {
	printf '{"url":"%s%s","type":"web","display":"127.0.0.1%s",' \
	    "$B" "$1" "$1"
	printf '"start":4,"end":%d,"message":%d,"id":"m%d",' \
	    $((4 + ${#B} + ${#1})) "$2" "$2"
	printf '"hint":"read it","x_unknown":{"k":[1,2]}}\n'
}

# agree URLFETCH_RECORD PWFETCH_RECORD: the two records are the same but
# for these fields, which are allowed to differ:
#   fetched_at   the moment each program read the page (both must have
#                one, RFC 3339 UTC);
#   charset, extraction
#                urlfetch's account of the bytes the server sent (the
#                charset it decoded them from; "main" when its extraction
#                found a main block in them); pwfetch reads the document
#                Chromium built, which has neither;
#   http.content_type, http.etag, http.last_modified
#                the response's headers, which urlfetch reads; the
#                browser's navigation entry gives pwfetch the status alone;
#   error's words
#                on a failure each engine says why in its own words
#                (libcurl's, Chromium's net:: codes): that both failed
#                must agree, not the wording.
agree() {
	local norm='del(.fetched_at, .charset, .extraction, .http.content_type,
	    .http.etag, .http.last_modified)
	    | if has("error") then .error = "failed" else . end'
	local t='^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-9:.]+Z$'
	jq -e --arg t "$t" '.fetched_at | test($t)' <<<"$1" >/dev/null
	jq -e --arg t "$t" '.fetched_at | test($t)' <<<"$2" >/dev/null
	json_eq "$(jq -c "$norm" <<<"$2")" "$(jq -c "$norm" <<<"$1")"
}

@test "records agree: pages, a redirect and two charsets, field for field" {
	local p n=0
	for p in /article.html /chain/2 /latin1-header.html /meta-charset.html; do
		n=$((n + 1))
		url_record "$p" "$n"
	done >"$T/in"
	run -0 --separate-stderr urlfetch -C -i "$T/in"
	local -a u=("${lines[@]}")
	[ "${#u[@]}" -eq 4 ]
	run -0 --separate-stderr pwfetch fetch -t 60 -i "$T/in"
	local -a w=("${lines[@]}")
	[ "${#w[@]}" -eq 4 ]
	for n in 0 1 2 3; do
		agree "${u[n]}" "${w[n]}"
	done
	# What the comparison stands on: the url record's fields carried but
	# type and github, the redirect's final_url, the status.
	jq -e --arg b "$B" '.display == "127.0.0.1/article.html" and
	    .start == 4 and .message == 1 and .id == "m1" and
	    .hint == "read it" and .x_unknown == {"k": [1, 2]} and
	    (has("type") | not) and .url_type == "web" and
	    (has("final_url") | not) and .http.status == 200 and
	    .cached == false and (.content | test("quiet that morning"))' \
	    <<<"${w[0]}"
	jq -e --arg b "$B" '.final_url == "\($b)/chain/0"' <<<"${w[1]}"
	jq -e '.title == "Café crème"' <<<"${w[2]}"
}

@test "records agree: a URL operand, a refused connection but for the error's words, an error status" {
	run -1 --separate-stderr urlfetch -C "$B/article.html" \
	    "http://127.0.0.1:1/" "$B/no-such-page"
	local -a u=("${lines[@]}")
	[ "${#u[@]}" -eq 3 ]
	run -1 --separate-stderr pwfetch fetch -t 60 "$B/article.html" \
	    "http://127.0.0.1:1/" "$B/no-such-page"
	local -a w=("${lines[@]}")
	[ "${#w[@]}" -eq 3 ]
	agree "${u[0]}" "${w[0]}"
	agree "${u[1]}" "${w[1]}"
	jq -e '(.error | length) > 0 and .url_type == "web" and
	    .cached == false and (has("content") | not)' <<<"${w[1]}"
	# An error status: the same error and status (pwfetch keeps the
	# page it rendered; urlfetch does not extract an error answer).
	local f='{url, url_type, error, http: {status: .http.status}, cached}'
	json_eq "$(jq -c "$f" <<<"${u[2]}")" "$(jq -c "$f" <<<"${w[2]}")"
	jq -e '.error == "HTTP 404" and .http.status == 404' <<<"${u[2]}"
}

@test "records agree: a record over the line limit is the url and the error" {
	# A url record 200 bytes under the 16 MiB line limit, its size in
	# numbers, which no cut of a string can take off: the content record
	# made of it is over the limit.
	python3 -c '
import sys
head = "{\"url\":\"%s\"" % sys.argv[1]
parts, n, i = [head], len(head) + 1, 0
while n < (16 << 20) - 200 - 20:
	f = ",\"f%d\":%d" % (i, i)
	parts.append(f)
	n += len(f)
	i += 1
sys.stdout.write("".join(parts) + "}\n")' "$B/article.html" >"$T/wide"
	[ "$(wc -c <"$T/wide")" -lt $((16 << 20)) ]
	# (To files, not through run's $output: see faults-limits.bats.)
	run -1 --separate-stderr bash -c 'urlfetch -C -i "$1" >"$2"' \
	    _ "$T/wide" "$T/u"
	run -1 --separate-stderr bash -c 'pwfetch fetch -t 60 -i "$1" >"$2"' \
	    _ "$T/wide" "$T/w"
	[[ $stderr == *"the record is over the line limit"* ]]
	[ "$(wc -l <"$T/w")" -eq 1 ]
	json_eq "$(cat "$T/w")" "$(cat "$T/u")"
	json_eq "$(cat "$T/w")" \
	    "{\"url\":\"$B/article.html\",\"error\":\"the record is over the line limit\"}"
}
