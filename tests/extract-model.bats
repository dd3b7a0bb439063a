#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The learned part of extraction (lib/extract_feat.c, lib/extract_model.c):
# the committed C table against the committed model, the page type of a
# fixture page of each kind, the features dump training reads.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract-type"
}
teardown() { common_teardown; }

@test "extract model: lib/extract_model.c is the export of the committed model" {
	# Pure Python (no sklearn): the exporter scripts/train-extract runs.
	run -0 python3 "$TOP/scripts/train-extract.d/export.py" \
	    "$TOP/scripts/train-extract.d/model.json" "$T/model.c"
	run diff -q "$T/model.c" "$TOP/lib/extract_model.c"
	[ "$status" -eq 0 ]
}

@test "extract model: the committed model was trained on the program's features" {
	# model.json records the digests of the fixture pages' features as
	# training dumped them (less the page type scores the model itself
	# puts in): a change of the features or of the rules' choice that
	# was not trained again shows here.  Train again: scripts/train-extract.
	local n want got
	run -0 jq -r '.features_digest | keys[]' \
	    "$TOP/scripts/train-extract.d/model.json"
	[ "${#lines[@]}" -eq 6 ]
	for n in "${lines[@]}"; do
		UK_EXTRACT_FEATURES="$T/$n.jsonl" run -0 urlextract \
		    "$X/$n.html" --text
		want=$(jq -r --arg n "$n" '.features_digest[$n]' \
		    "$TOP/scripts/train-extract.d/model.json")
		run -0 /usr/bin/python3 "$TOP/scripts/train-extract.d/train.py" \
		    digest "$T/$n.jsonl"
		got=$output
		echo "$n: trained on $want, the program's $got"
		[ "$got" = "$want" ]
	done
}

@test "extract model: a changed model is a changed table" {
	jq -c '.block.threshold += 1' \
	    "$TOP/scripts/train-extract.d/model.json" >"$T/model.json"
	run -0 python3 "$TOP/scripts/train-extract.d/export.py" \
	    "$T/model.json" "$T/model.c"
	run diff -q "$T/model.c" "$TOP/lib/extract_model.c"
	[ "$status" -eq 1 ]
}

@test "extract model: page_type of a news article, a product, a forum thread, a reference page" {
	for t in article product forum documentation; do
		run -0 urlextract "$X/$t.html"
		[ "$(jq -r .page_type <<<"$output")" = "$t" ]
	done
}

@test "extract model: page_type of a blog's listing of posts and a shop's collection" {
	# Told apart by their items: posts with a date, a byline and a
	# summary; cards with a price, an image and a button.
	run -0 urlextract "$X/listing.html"
	[ "$(jq -r .page_type <<<"$output")" = listing ]
	run -0 urlextract "$X/collection.html"
	[ "$(jq -r .page_type <<<"$output")" = collection ]
}

@test "extract model: an app shell's page_type is app_shell" {
	run -0 --separate-stderr urlextract \
	    "$FIXTURES/extract-rules/app-shell.html"
	[ "$(jq -r .needs_browser <<<"$output")" = true ]
	[ "$(jq -r .page_type <<<"$output")" = app_shell ]
}

@test "extract model: UK_EXTRACT_FEATURES appends one line a page, 72 page and 72 block features, the blocks' text" {
	UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
	    "$X/forum.html" --text
	UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
	    "$X/article.html" --text
	run -0 jq -s -c 'map([(.pf | length), (.b | map(length) | unique),
	    (.b | length) == (.t | length), (.r | map(length) | unique),
	    (.sf | map(length) | unique), (.s | length) == (.b | length)])' \
	    "$T/f.jsonl"
	[ "$output" = '[[72,[72],true,[4],[17],true],[72,[72],true,[4],[17],true]]' ]
	run -0 jq -r '.t[]' "$T/f.jsonl"
	[[ $output == *"Reply number 3."* ]]
	[[ $output == *"The harbour story paragraph 8"* ]]
}

@test "extract model: training reads the first pass's scores around a block as the program does" {
	# The stacked model's features are computed twice: by
	# lib/extract_feat.c at run time and by train.py from the dump at
	# training.  The dump holds the program's first-pass scores and
	# the features it made of them; train.py makes its own from the
	# same scores and compares.
	local n
	for n in article forum product documentation; do
		UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
		    "$X/$n.html" --text
	done
	run -0 jq -s 'map(.b | length) | add' "$T/f.jsonl"
	[ "$output" -gt 20 ]
	run /usr/bin/python3 "$TOP/scripts/train-extract.d/train.py" \
	    stackcheck "$T/f.jsonl" "$TOP/scripts/train-extract.d/model.json"
	[ "$status" -eq 0 ]
	[ "$output" = "stackcheck: same" ]
}

@test "extract model: lib/extract_model_back.c is the export of the committed back model" {
	run -0 python3 "$TOP/scripts/train-extract.d/export_back.py" \
	    "$TOP/scripts/train-extract.d/model.json" "$T/back.c"
	run diff -q "$T/back.c" "$TOP/lib/extract_model_back.c"
	[ "$status" -eq 0 ]
	# A model with no back model takes nothing back.
	jq -c 'del(.back)' "$TOP/scripts/train-extract.d/model.json" \
	    >"$T/model.json"
	run -0 python3 "$TOP/scripts/train-extract.d/export_back.py" \
	    "$T/model.json" "$T/none.c"
	run -0 grep -c 'uk_ex_back_model = { 1, 0,' "$T/none.c"
	[ "$output" -eq 1 ]
}

@test "extract model: the back model sees the blocks set aside by a class, a tag or a role, with the rule" {
	UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
	    "$FIXTURES/extract-back/setaside.html" --text
	# Each candidate's text with its rule (the row's last ten features,
	# UK_EX_NAF: the 1st, 3rd to 5th: a class, a <header>, a tag, a
	# role), whether its root is in <main> or <article> (2nd) and its
	# root's tag (6th: nav 1, footer 2).
	run -0 jq -c '[.ct, (.c | map(.[-10:-4]))] | transpose |
	    map({(.[0]): .[1]}) | add' "$T/f.jsonl"
	[[ $output == *'"Home Boots Sale":[0,0,0,1,0,1]'* ]]
	[[ $output == *'"Full grain leather, 2.6 mm thick":[1,0,0,0,0,0]'* ]]
	[[ $output == *'"Boots like these are resoled at the workshop.":[0,0,0,0,1,0]'* ]]
	[[ $output == *'"Copyright the boot makers, all rights reserved.":[0,0,0,1,0,2]'* ]]
	[[ $output == *'"Opening hours of the shop.":[1,0,0,0,0,0]'* ]]
	# Not comments, related stories (a class believed however large),
	# hidden elements, forms' controls, scripts, nor the blocks kept.
	[[ $output != *comment* ]]
	[[ $output != *"fell runner"* ]]
	[[ $output != *Hidden* ]]
	[[ $output != *email* ]]
	[[ $output != *"Sign up"* ]]
	[[ $output != *secretScriptText* ]]
	[[ $output != *"hill walking"* ]]
	run -0 jq -c '[(.c | length) == (.ct | length),
	    (.m | length) == (.b | length) + (.c | length)]' "$T/f.jsonl"
	[ "$output" = '[true,true]' ]
	# A row: the stacked model's features (UK_EX_NSTK, the length of
	# the kept blocks' rows and stack features), then UK_EX_NAF.
	run -0 jq -c '(.c | map(length) | unique) ==
	    [(.b[0] | length) + (.sf[0] | length) + 10]' "$T/f.jsonl"
	[ "$output" = true ]
}

@test "extract model: training reads the scores around a block set aside as the program does" {
	local n
	for n in article forum product documentation; do
		UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
		    "$X/$n.html" --text
	done
	UK_EXTRACT_FEATURES="$T/f.jsonl" run -0 urlextract \
	    "$FIXTURES/extract-back/setaside.html" --text
	run /usr/bin/python3 "$TOP/scripts/train-extract.d/train.py" \
	    backcheck "$T/f.jsonl" "$TOP/scripts/train-extract.d/model.json"
	[ "$status" -eq 0 ]
	[[ $output == "backcheck: "*" candidates, same" ]]
}

@test "extract model: a service page's offer in a box set aside by its class (a hero banner) is taken back" {
	# The rules set the hero banner aside by its class ("banner"): the
	# back model takes back its paragraphs of prose on a page typed a
	# service, not its heading nor its call to action (under 80
	# characters), nor the menus and the footer.
	run -0 urlextract "$FIXTURES/extract-back/service-banner.html"
	[ "$(jq -r .page_type <<<"$output")" = service ]
	run -0 urlextract "$FIXTURES/extract-back/service-banner.html" --text
	[[ $output == *"If you are looking for protection from ants"* ]]
	[[ $output == *"Same-day service is available across Queen Creek"* ]]
	[[ $output == *"Every visit starts with an inspection"* ]]
	[[ $output != *"Get a free quote"* ]]
	[[ $output != *"Account Login"* ]]
	[[ $output != *"Termite Control"* ]]
	[[ $output != *"Licensed and insured"* ]]
}

@test "extract model: without UK_EXTRACT_FEATURES nothing is written" {
	cd "$T"
	run -0 urlextract "$X/forum.html" --text
	[ -z "$(ls "$T" | grep -v -x -e home -e cache -e xdg)" ]
}
