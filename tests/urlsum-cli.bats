#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlsum's command line (issue 17): the toolkit's letters, -o, and what
# -p and -c say about the records they leave out.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	SUM="$FIXTURES/sum"
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
}
teardown() { common_teardown; }

@test "urlsum-cli: the old letters are gone, the new ones work" {
	local l
	for l in -T -u -f -k -m -P -s -x -H -l; do
		run -2 --separate-stderr urlsum "$l" x </dev/null
		[ "$stderr" = "urlsum: unknown option $l
try 'urlsum --help'" ]
	done
	run -0 urlsum -C -y usage "$SUM/web.json"
	[ "$(jq -r .summary_type <<<"$output")" = USAGE ]
	run -2 --separate-stderr urlsum -y nosuch </dev/null
	[ "$stderr" = "urlsum: -y: unknown summary type 'nosuch'
try 'urlsum --help'" ]
	run -2 --separate-stderr urlsum -t soon </dev/null
	# --force is kept as -r's other name.
	printf '%s\n' '{"url":"https://x.example/","content":"A page. It is short.","summary":"old","summary_type":"BRIEF"}' >"$T/in"
	run -0 urlsum -C --force "$T/in"
	[ "$(jq -r .summary <<<"$output")" != old ]
	run -0 urlsum -C -r "$T/in"
	[ "$(jq -r .summary <<<"$output")" != old ]
	run -0 urlsum -C "$T/in"
	[ "$(jq -r .summary <<<"$output")" = old ]
}

@test "urlsum-cli: -o FILE takes the output; a FILE that cannot be opened is exit 2 first" {
	run -0 --separate-stderr urlsum -C -o "$T/out" "$SUM/web.json"
	[ -z "$output" ]
	[ "$(jq -r .summary_backend "$T/out")" = offline ]
	run -0 urlsum -C -p --output="$T/p" "$SUM/web.json"
	[[ "$(head -n 1 "$T/p")" == "## https://"* ]]
	run -2 --separate-stderr urlsum -C -o "$T/no/such/dir/out" "$SUM/web.json"
	[ -z "$output" ]
	[[ "$stderr" == "urlsum: -o: cannot open '$T/no/such/dir/out': "* ]]
}

@test "urlsum-cli: --max-length and --max-tokens need -p, -c or a summary, and one of them" {
	run -2 --separate-stderr urlsum -N --max-length 100 </dev/null
	[[ "$stderr" == *"need -p, -c or a summary"* ]]
	run -0 --separate-stderr urlsum --max-tokens 100 </dev/null
	run -2 --separate-stderr urlsum -c --max-length 100 --max-tokens 10 </dev/null
	run -2 --separate-stderr urlsum -c --max-tokens 0 </dev/null
}
