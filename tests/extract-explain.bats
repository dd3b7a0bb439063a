#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract --explain: the records of what the extractor dropped (on
# standard error), on fixture pages of tests/fixtures/extract-rules/.
# Words in capitals mark the parts of a page (MODELADDED, COMMENTONE).

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract-rules"
}
teardown() { common_teardown; }

@test "explain: a block the block model added is written and has no record" {
	# The paragraph beside the article is outside the rules' choice;
	# the block model adds it (a paragraph of prose, 250 characters).
	run --separate-stderr urlextract "$X/model-added.html" --text --explain
	[ "$status" -eq 0 ]
	[[ $output == *"MODELADDED Later that evening"* ]]
	[[ $output == *"as it does every year."* ]]
	[[ $stderr == *'"rule":"tag"'* ]]
	[[ $stderr != *MODELADDED* ]]
}

@test "explain: a dropped block's text is cut at 300 bytes, at a whole character" {
	run --separate-stderr urlextract "$X/comments-heading.html" --text --explain
	[ "$status" -eq 0 ]
	n=$(jq -r 'select(.rule == "comments") | .text | utf8bytelength' <<<"$stderr" |
	    sort -n | tail -1)
	[ "$n" -gt 80 ]
	[ "$n" -le 300 ]
	# Every record's text is valid UTF-8 that jq reads whole.
	[ "$(jq -s length <<<"$stderr")" -ge 1 ]
}
