#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's summarize with no model: the page's outline (headings, each
# with its offset and its section's first sentence), never followed by a
# slice that repeats it; a loopback page (tests/helpers/map_server.py).

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/urlserve_site

setup() {
	site_setup
	# Six sections of five paragraphs, each sentence told apart.
	python3 - "$T/site/long.html" <<'PY'
import sys
secs = []
for i in range(1, 7):
    ps = ''.join('<p>Section %d paragraph %d tells of its topic. Then item %d is detailed at length.</p>' % (i, j, j) for j in range(1, 6))
    secs.append('<h2>Topic %d</h2>%s' % (i, ps))
open(sys.argv[1], 'w').write('<html><head><title>Long</title></head><body><article><h1>Long</h1><p>The lead of the long page says what it is. And more.</p>%s</article></body></html>' % ''.join(secs))
PY
	site_start
}
teardown() { common_teardown; }

# no_repeat N: response N's outline holds no sentence its slice holds.
no_repeat() {
	local r sentence
	r=$(sed -n "${1}p" "$T/out")
	jq -r '.result.structuredContent.summary' <<<"$r" |
	    grep -o 'Section [0-9] paragraph [0-9] tells of its topic\.' >"$T/said" || :
	while read -r sentence; do
		if jq -r '.result.structuredContent.content' <<<"$r" | grep -qF "$sentence"; then
			echo "repeated: $sentence" >&2
			return 1
		fi
	done <"$T/said"
}

@test "summarize without a model: the outline, with offsets, never repeating the slice" {
	calls fetch_url '{"url":"'"$B"'/long.html","summarize":true,"max_tokens":200}' \
	    get_url_content '{"url":"'"$B"'/long.html","offset":1200,"max_tokens":200}' \
	    detect_and_fetch '{"text":"'"$B"'/long.html","summarize":true,"max_tokens":200}'
	[ "$(wc -l <"$T/out")" -eq 3 ]
	r=$(sed -n 1p "$T/out")
	[ "$(jq -c '.result.structuredContent | [.summary_backend, .summary_type, .offset]' <<<"$r")" = '["outline","BRIEF",0]' ]
	# Every heading, in order, with its offset; the text says what the
	# offsets are for.
	[ "$(jq -r '.result.structuredContent.summary' <<<"$r" | sed 's/ \[at.*//')" = "- Long
  - Topic 1
  - Topic 2
  - Topic 3
  - Topic 4
  - Topic 5
  - Topic 6" ]
	[[ $(jq -r '.result.content[0].text' <<<"$r") == *$'Outline (each heading\'s offset, for fetch_url):\n- Long [at 0]\n'* ]]
	# Sections past the slice have their first sentence; the slice's do not.
	jq -r '.result.structuredContent.summary' <<<"$r" | grep -q '^  - Topic 6 \[at [0-9]*\]: Section 6 paragraph 1 tells of its topic\.$'
	! jq -r '.result.structuredContent.summary' <<<"$r" | grep -q 'The lead'
	no_repeat 1
	# An offset of the outline starts its section.
	local at
	at=$(jq -r '.result.structuredContent.summary' <<<"$r" | sed -n 's/^  - Topic 4 \[at \([0-9]*\)\].*/\1/p')
	[ -n "$at" ]
	calls fetch_url '{"url":"'"$B"'/long.html","offset":'"$at"',"max_tokens":100}'
	[[ $(jq -r '.result.structuredContent.content' "$T/out") == "## Topic 4"* ]]
}

@test "summarize without a model: get_url_content and detect_and_fetch outline their own slice" {
	calls fetch_url '{"url":"'"$B"'/long.html","summarize":true,"max_tokens":200}' \
	    get_url_content '{"url":"'"$B"'/long.html","offset":1200,"max_tokens":200}' \
	    detect_and_fetch '{"text":"'"$B"'/long.html","summarize":true,"max_tokens":200}'
	no_repeat 2
	no_repeat 3
	r=$(sed -n 2p "$T/out")
	[ "$(jq -r '.result.structuredContent.summary_backend' <<<"$r")" = outline ]
	# The lead (at 0) is outside this slice: its sentence is back.
	jq -r '.result.structuredContent.summary' <<<"$r" | grep -q '^- Long \[at 0\]: The lead of the long page says what it is\.$'
	[[ $(jq -r '.result.content[0].text' "$T/out" | sed -n '/^Outline/,$p' | head -1) == "Outline (each heading's offset, for fetch_url):" ]]
	# A type named other than BRIEF keeps its offline summary.
	calls fetch_url '{"url":"'"$B"'/long.html","summarize":true,"summary_type":"USAGE"}'
	[ "$(jq -r '.result.structuredContent.summary_backend' "$T/out")" = offline ]
}
