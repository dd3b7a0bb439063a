#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlsum's prompt context takes a Markdown content as it is: headings,
# lists and code blocks unchanged; a cut inside a code block closes it.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	M="$FIXTURES/markdown"
}
teardown() { common_teardown; }

@test "urlsum-markdown: the prompt context keeps the Markdown as it is" {
	run -0 urlextract "$M/code.html" -B https://example.com/code -f markdown
	printf '%s\n' "$output" >"$T/rec"
	run -0 urlsum -N -p "$T/rec"
	diff -u <(printf '## https://example.com/code\n\n**Code**\n\n'; cat "$M/code.md") \
	    <(printf '%s\n' "$output")
}

@test "urlsum-markdown: urlsum --context keeps # headings and lists" {
	run -0 urlextract "$M/lists.html" -B https://example.com/a -f markdown
	printf '%s\n' "$output" >"$T/recs"
	run -0 urlextract "$M/headings.html" -B https://example.com/b -f markdown
	printf '%s\n' "$output" >>"$T/recs"
	run -0 urlsum -N -c "$T/recs"
	[[ $output == *$'\n\n1. Heat the water to about 94 degrees.\n2. Rinse the filter\n   - with hot water\n'* ]]
	[[ $output == *$'\n\n# Brewing coffee at home\n\n'* ]]
	[[ $output == *$'\n\n---\n\n## https://example.com/b\n'* ]]
}

@test "urlsum-markdown: a content cut inside a code block has its fence closed" {
	jq -nc '{url:"https://example.com/c", url_type:"web", format:"markdown",
	    content:"Intro.\n\n```python\nline one\nline two\nline three\n```\n\nAfter."}' >"$T/rec"
	# The budget is the whole output's: 26 characters of "## URL" and a
	# blank line, 30 of text, 3 of "...", 4 of the fence, the newline.
	run -0 urlsum -N -p -q --max-length 64 "$T/rec"
	[[ $output == *$'```python\nline one\nlin...\n```' ]]
	# Cut outside a block: nothing added.
	run -0 urlsum -N -p -q --max-length 35 "$T/rec"
	[[ $output == *$'\n\nIntro...' ]]
}
