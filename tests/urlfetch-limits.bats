#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch's limits on what input and pages can make it do (issue 15,
# items 10, 11 and 17): every URL read has its record, a record never
# outgrows the line limit, many fields cost linear time.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

@test "faults limits: a URL over the per-message limit gets an error record, skipped" {
	for i in 1 2 3 4; do
		printf '{"url":"%s/text.txt?lim=%s","message":5,"id":"u%s"}\n' "$B" "$i" "$i"
	done >"$T/in"
	run -1 --separate-stderr urlfetch -C -i "$T/in"
	[ "${#lines[@]}" -eq 4 ]
	json_eq "${lines[3]}" "{\"url\":\"$B/text.txt?lim=4\",\"error\":\"over the limit of 3 URLs per message: fetch it with urlfetch -m 0, or with urlserve's fetch_url\",\"skipped\":true,\"message\":5,\"id\":\"u4\",\"cached\":false}"
	[ "$(printf '%s\n' "${lines[@]:0:3}" | jq -s -c 'map(.error)')" = "[null,null,null]" ]
	[ "$(requests '/text.txt?lim=4')" = 0 ]
	[[ $stderr == *"over the limit of 3 URLs per message"* ]]
}

@test "faults limits: a record of 200,000 fields is carried in linear time, every field kept" {
	python3 -c '
import json, sys
d = {"url": "ftp://127.0.0.1/x"}
for i in range(200000):
    d["f%d" % i] = i
d["type"] = "web"
sys.stdout.write(json.dumps(d) + "\n")' >"$T/wide"
	# Quadratic, this took minutes (80,000 fields took 16 s); linear, it
	# takes about a second, so 60 s leaves room for a loaded machine.
	# (The 3 MB record to a file, not through run's $output: see the
	# next test.)
	run -1 --separate-stderr bash -c 'timeout 60 urlfetch -C -i "$1" >"$2"' \
	    _ "$T/wide" "$T/rec"
	[ "$(wc -l <"$T/rec")" -eq 1 ]
	[ "$(jq -c '[(keys | map(select(test("^f[0-9]+$"))) | length), .error, .f199999, has("type")]' "$T/rec")" = '[200000,"not an http or https URL",199999,false]' ]
}

@test "faults limits: an 18 MB text page gives a record under the 16 MiB line limit, truncated, that urlsum reads" {
	mkdir -p "$T/www"
	python3 -c '
import sys
line = "all work and no play makes a long page \u00e9\n"
with open(sys.argv[1], "w") as f:
    f.write(line * (18000000 // len(line.encode())))' "$T/www/big.txt"
	start_server W python3 -c '
import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
print(s.server_address[1], flush=True)
s.serve_forever()' "$T/www"
	# The records (16 and 33 MB) go to files, not through run's
	# $output: bash took 9 s of CPU to hold and split them into lines,
	# and each here-string of one to jq wrote it out again.
	run -0 --separate-stderr bash -c 'urlfetch -C >"$1"' _ "$T/rec" \
	    <<<"http://127.0.0.1:$W_PORT/big.txt"
	[ "$(wc -l <"$T/rec")" -eq 1 ]
	[ "$(head -c -1 "$T/rec" | wc -c)" -le $((16 << 20)) ]
	# (One jq reads the 16 MB record for the three fields.)
	{
		read -r truncated
		read -r reason
		read -r length
	} < <(jq -r '.truncated, .truncated_reason, (.content | length)' "$T/rec")
	[ "$truncated" = true ]
	[[ $reason == "'content' cut from "*" bytes to keep the record under the line limit of 16 MiB" ]]
	[ "$length" -gt 15000000 ]
	# Every reader takes it: urlsum summarises it, URL and all.
	run -0 --separate-stderr bash -c 'urlsum "$1" >"$2"' _ "$T/rec" "$T/sum"
	[ "$(wc -l <"$T/sum")" -eq 1 ]
	[ "$(jq -c '[.url, has("error")]' "$T/sum")" = "[\"http://127.0.0.1:$W_PORT/big.txt\",false]" ]
}
