#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The token model (lib/extract_tok.c, lib/extract_tokmodel.c): the
# committed C table against the committed model, and the C and Python
# tokens and scores of the same blocks (scripts/train-extract.d/tokens.py).
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	D="$TOP/scripts/train-extract.d"
	TOK=${UK_UNIT:-$TOP/build/unit}/t_extract_tok
	B="$FIXTURES/extract-tok/blocks.json"
}
teardown() { common_teardown; }

@test "extract tok: lib/extract_tokmodel.c is the export of the committed model" {
	# Pure Python (no sklearn), as tests/extract-model.bats's exporter.
	run -0 python3 "$D/tokens.py" export "$D/tokmodel.json" "$T/tok.c"
	run diff -q "$T/tok.c" "$TOP/lib/extract_tokmodel.c"
	[ "$status" -eq 0 ]
}

@test "extract tok: a changed model is a changed table" {
	jq -c '.coef[7] += 1' "$D/tokmodel.json" >"$T/tokmodel.json"
	run -0 python3 "$D/tokens.py" export "$T/tokmodel.json" "$T/tok.c"
	run diff -q "$T/tok.c" "$TOP/lib/extract_tokmodel.c"
	[ "$status" -eq 1 ]
}

@test "extract tok: the rules of the tokens and the score (t_extract_tok)" {
	run -0 "$TOK"
	[[ "$output" != *"not ok"* ]]
}

# The same slots in the same order, and the scores within 1e-6.
same_tokens() {
	/usr/bin/python3 - "$1" "$2" <<-'EOF'
	import sys
	a = open(sys.argv[1]).read().splitlines()
	b = open(sys.argv[2]).read().splitlines()
	assert len(a) == len(b) and a, (len(a), len(b))
	for x, y in zip(a, b):
	    x, y = x.split(' '), y.split(' ')
	    assert x[:-1] == y[:-1], (x[:4], y[:4])
	    assert abs(float(x[-1]) - float(y[-1])) <= 1e-6, (x[-1], y[-1])
	print('%d blocks the same' % len(a))
	EOF
}

@test "extract tok: C and Python make the same tokens and scores of the fixture blocks" {
	# Capitals, digits, no-break spaces, dashes and quotes, letters
	# over 127, 200 words, long words, many class parts, no class.
	"$TOK" "$B" >"$T/c.txt"
	python3 "$D/tokens.py" check "$B" >"$T/py.txt"
	run same_tokens "$T/c.txt" "$T/py.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "9 blocks the same" ]
	# Scored by the committed table: not all zero.
	run -0 awk '$NF != "0.000000000" { n++ } END { print n + 0 }' "$T/c.txt"
	[ "$output" -ge 8 ]
}

@test "extract tok: a block tokenised otherwise is told apart" {
	# The comparison above fails when one side's tokens differ.
	"$TOK" "$B" >"$T/c.txt"
	jq -c '.[0][4] = "promo-box signupForm"' "$B" >"$T/b.json"
	python3 "$D/tokens.py" check "$T/b.json" >"$T/py.txt"
	run same_tokens "$T/c.txt" "$T/py.txt"
	[ "$status" -eq 1 ]
}
