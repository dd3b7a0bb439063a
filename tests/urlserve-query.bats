#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's fetch_url and get_url_content query: the sections that
# answer a question (lib/query), against a loopback site
# (tests/helpers/map_server.py).

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/urlserve_site

setup() {
	site_setup
	python3 - "$T/site/long.html" <<'PY'
import sys
words = ["apples", "boats", "clocks", "drums", "eagles", "forests"]
secs = []
for i, w in enumerate(words, 1):
    ps = ''.join('<p>Paragraph %d of this part says how %s work, with enough plain words around it to fill a line.</p>' % (j, w) for j in range(1, 6))
    secs.append('<h2>About %s</h2>%s' % (w, ps))
open(sys.argv[1], 'w').write('<html><head><title>Things</title></head><body><article><h1>Things</h1><p>A page about six things.</p>%s</article></body></html>' % ''.join(secs))
PY
	site_start
}
teardown() { common_teardown; }

@test "fetch_url query: the sections that answer it, with their offsets to read on" {
	calls fetch_url '{"url":"'"$B"'/long.html","query":"how do drums work","max_tokens":300}' \
	    get_url_content '{"url":"'"$B"'/long.html","query":"eagles"}'
	r=$(sed -n 1p "$T/out")
	[ "$(jq -r .result.isError <<<"$r")" = false ]
	[ "$(jq -r .result.structuredContent.query <<<"$r")" = "how do drums work" ]
	# The drums section, not the others; within the budget.
	[[ $(jq -r .result.structuredContent.content <<<"$r") == *"Paragraph 1 of this part says how drums work"* ]]
	[ "$(jq -r '.result.structuredContent.sections | max_by(.score) | .heading' <<<"$r")" = "Things > About drums" ]
	# Not the whole page: 3070 characters, cut to the budget.
	[ "$(jq -r '.result.structuredContent.total_length' <<<"$r")" -eq 3070 ]
	[ "$(jq -r '.result.structuredContent.content | length' <<<"$r")" -lt 2000 ]
	# The text says where each section starts, and an offset there reads it.
	off=$(jq -r '.result.structuredContent.sections | map(select(.heading == "Things > About drums")) | .[0].offset' <<<"$r")
	[[ $(jq -r '.result.content[0].text' <<<"$r") == *"call fetch_url with its offset: "*"Things > About drums at $off"* ]]
	calls fetch_url '{"url":"'"$B"'/long.html","offset":'"$off"',"max_tokens":100}'
	[[ $(jq -r .result.structuredContent.content "$T/out") == "## About drums"* ]]
}

@test "get_url_content query: from the fetched set, no request; a query too long is an error result" {
	calls fetch_url '{"url":"'"$B"'/long.html"}' \
	    get_url_content '{"url":"'"$B"'/long.html","query":"eagles","max_tokens":200}' \
	    fetch_url '{"url":"'"$B"'/long.html","query":"'"$(printf 'q%.0s' $(seq 1 1001))"'"}'
	r=$(sed -n 2p "$T/out")
	[ "$(jq -r .result.isError <<<"$r")" = false ]
	[ "$(jq -r '.result.structuredContent.sections | max_by(.score) | .heading' <<<"$r")" = "Things > About eagles" ]
	[ "$(grep -c ' /long.html' "$T/site/_requests.log")" -eq 1 ]
	# A query over 1000 bytes: refused before anything is fetched.
	r=$(sed -n 3p "$T/out")
	[ "$(jq -r .result.isError <<<"$r")" = true ]
	[ "$(jq -r '.result.content[0].text' <<<"$r")" = "invalid arguments for fetch_url: 'query' must hold at most 1000 characters" ]
}
