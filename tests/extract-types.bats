#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract --text: the choice that follows the page's type
# (lib/extract_items.c, doc/EXTRACTION.md "Choosing the part by type"),
# on pages in tests/fixtures/extract-types/, and the tree dump that
# measures it (UK_EXTRACT_TREE, scripts/eval-extract.d/type-where.py).

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract-types"
}
teardown() { common_teardown; }

@test "extract types: a reference page keeps the table beside its prose" {
	# The rules choose the block of prose and leave the table of
	# parameters beside it; on a page typed documentation the part is
	# the <h1>'s nearest ancestor that holds half the text.
	run -0 urlextract "$X/doc-table.html" --text
	[[ $output == "Rate limits"* ]]
	[[ $output == *"Every request to the API counts against a limit"* ]]
	[[ $output == *"Parameter | Default"* ]]
	[[ $output == *"PARAMROW window_seconds | 60"* ]]
	[[ $output != *"Auth"* ]]
	[[ $output != *"Tidewater documentation."* ]]
	run -0 urlextract "$X/doc-table.html" --compact
	[[ $output == *'"page_type":"documentation"'* ]]
}

@test "extract types: the same page in Markdown keeps the table" {
	run -0 urlextract "$X/doc-table.html" --markdown --text
	[[ $output == *"# Rate limits"* ]]
	[[ $output == *"PARAMROW window_seconds"* ]]
}

@test "extract types: UK_EXTRACT_TREE dumps the tree with the choice" {
	UK_EXTRACT_TREE="$BATS_TEST_TMPDIR/tree.jsonl" \
	    run -0 urlextract "$X/doc-table.html" --text
	[ "$(wc -l <"$BATS_TEST_TMPDIR/tree.jsonl")" -eq 1 ]
	run -0 python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
n = r["n"]
assert r["type"] == "documentation" and r["fallback"] == 0, r["type"]
assert n[0][0] == -1 and n[0][1] == "body"
sel = [x[4] for x in n if x[1] == "#" and x[3] & 0x2000]
out = [x[4] for x in n if x[1] == "#" and not x[3] & 0x2000 and x[4].strip()]
assert any("PARAMROW" in t for t in sel), sel
assert any("Tidewater documentation." in t for t in out), out
print("ok")
' "$BATS_TEST_TMPDIR/tree.jsonl"
	[ "$output" = ok ]
}
