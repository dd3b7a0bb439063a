#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --query: the part of a page that answers a question (lib/query), in
# urlextract on local files, urlfetch on a loopback page server and
# pwfetch with real Chromium.  The fixture guide.html is a documentation
# page of four sections and six subsections, one fact in each;
# flat.html is one long section without a heading.  Budgets are checked
# with the tokenizer the programs count with (t_tokens, cl100k).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() {
	local d=$BATS_FILE_TMPDIR port= i
	python3 "$TOP/tests/helpers/page_server.py" "$FIXTURES/query" \
	    >"$d/srv.port" 2>"$d/srv.log" &
	echo $! >"$d/srv.pid"
	for ((i = 0; i < 300; i++)); do
		{ read -r port <"$d/srv.port"; } 2>/dev/null || :
		[ -n "$port" ] && break
		nap 0.1
	done
	nap_done
	[ -n "$port" ] || return 1
	export B="http://127.0.0.1:$port"
}

teardown_file() { stop_pidfiles "$BATS_FILE_TMPDIR" srv; }

setup() {
	common_setup
	Q="$FIXTURES/query"
	TOKENS=${UK_UNIT:-$TOP/build/unit}/t_tokens
	[ -x "$TOKENS" ] || TOKENS=$TOP/build/unit/t_tokens
	export URLKIT_ALLOW_PRIVATE=1 # the page server is on loopback
}

teardown() { common_teardown; }

# tokens TEXT: its cl100k count.
tokens() {
	printf '%s' "$1" >"$T/count.txt"
	"$TOKENS" cl100k_base "$T/count.txt"
}

@test "a question: the section that answers, under its heading path, marks around" {
	run -0 --separate-stderr urlextract -f markdown \
	    --query 'what does the quokka error mean' --max-tokens 150 \
	    "$Q/guide.html"
	local c
	c=$(field "$output" .content)
	[[ $c == *"The quokka error means the cache directory is read-only."* ]]
	[[ $c == *"### Lantern cache guide > Troubleshooting > Permissions"* ]]
	# Left out before and after: a mark line each.
	[[ $c == "…"$'\n\n'* ]]
	[[ $c == *$'\n\n'"…" ]]
	[ "$(field "$output" .query)" = "what does the quokka error mean" ]
	[ "$(field "$output" '.sections[0].heading')" = \
	    "Lantern cache guide > Troubleshooting > Permissions" ]
	# The section that holds the answer has the best score.
	[ "$(field "$output" '[.sections[] | select(.score > 0)] | max_by(.score) | .heading')" = \
	    "Lantern cache guide > Troubleshooting > Permissions" ]
	jq -e '.sections | all(.tokens > 0 and (.offset | type) == "number")' \
	    <<<"$output"
	[ -z "$stderr" ]
}

@test "sections kept are in page order, whatever their scores" {
	run -0 urlextract --query 'quokka error debian apt-get lantern_home' \
	    --max-tokens 300 "$Q/guide.html"
	local c=$(field "$output" .content)
	[[ $c == *"apt-get install lantern"* ]]
	[[ $c == *"LANTERN_HOME names"* ]]
	[[ $c == *"quokka error"* ]]
	# In the text: Debian before Environment before Permissions.
	[[ $c == *"apt-get install"*"LANTERN_HOME"*"quokka"* ]]
	# In the record: offsets rising.
	jq -e '[.sections[].offset] as $o | $o == ($o | sort) and ($o | length) >= 3' \
	    <<<"$output"
	# Scores do not rise in page order here: page order is not rank.
	jq -e '[.sections[] | select(.score > 0) | .score] as $s | $s != ($s | sort | reverse)' \
	    <<<"$output"
	# Marks between runs that are not next to each other.
	[ "$(grep -c '^…$' <<<"$c")" -ge 2 ]
}

@test "the budget is never exceeded, in text and in Markdown" {
	local n f c
	for f in text markdown; do
		for n in 100 150 250 400 700 1000; do
			run -0 urlextract -f $f --query 'cache timeout network upstream' \
			    --max-tokens $n "$Q/guide.html"
			c=$(field "$output" .content)
			[ "$(tokens "$c")" -le $n ]
			[ "$(tokens "$c")" -gt $((n / 2)) ]
		done
	done
	# Without --max-tokens: 1000, and the page is over it.
	run -0 urlextract --query 'cache' "$Q/guide.html"
	c=$(field "$output" .content)
	[ "$(tokens "$c")" -le 1000 ]
	run -0 urlextract -T "$Q/guide.html"
	[ "$(tokens "$output")" -gt 1000 ]
}

@test "a section's offset is --offset's: the neighbour is a call away" {
	run -0 --separate-stderr urlfetch --query 'quokka error' \
	    --max-tokens 120 "$B/guide.html"
	local off start whole
	off=$(field "$output" '.sections[0].offset')
	[ "$(field "$output" .total_length)" -gt "$off" ]
	# The kept passage's first words, after its heading path line.
	start=$(field "$output" .content | sed -n '/^Permissions$/{n;n;p;q}' |
	    cut -c1-40)
	[ ${#start} -eq 40 ]
	# The whole page, from that offset (characters, as jq slices), and
	# --offset there: both start with them.
	run -0 urlfetch "$B/guide.html"
	whole=$output
	[ "$(jq -r --argjson o "$off" '.content[$o:$o+40]' <<<"$whole")" = "$start" ]
	run -0 urlfetch --offset "$off" --max-tokens 300 "$B/guide.html"
	[ "$(field "$output" .offset)" = "$off" ]
	[[ "$(field "$output" .content)" == "$start"* ]]
	# What follows it on the page, the next section's heading included.
	[[ "$(field "$output" .content)" == *"quokka error"*"Network"* ]]
}

@test "urlfetch -T: the answer as text, headers as for any page" {
	run -0 --separate-stderr urlfetch -T --query 'LANTERN_HOME' \
	    --max-tokens 150 "$B/guide.html"
	[[ $output == *"LANTERN_HOME names the directory where the cache lives."* ]]
	[[ $output == *"Environment"* ]]
	[[ $output != *"read on with --offset"* ]]
	[ "$(tokens "$output")" -le 151 ] # the budget and -T's last newline
	run -0 urlfetch -T --header --query 'LANTERN_HOME' --max-tokens 150 \
	    "$B/guide.html"
	[ "${lines[0]}" = "==> $B/guide.html <==" ]
}

@test "an empty question, or one the page does not answer: the page's start" {
	local q
	for q in '' 'the and of' 'zeppelin marmalade'; do
		run -0 --separate-stderr urlextract --query "$q" --max-tokens 150 \
		    "$Q/guide.html"
		local c=$(field "$output" .content)
		[[ $c == "Lantern cache guide"$'\n\n'* ]]
		[[ $c == *$'\n\n'"…" ]]
		[ "$(tokens "$c")" -le 150 ]
		jq -e '.sections | length >= 1 and all(.score == 0)' <<<"$output"
		jq -e '.sections[0].offset == 0' <<<"$output"
		[ -z "$stderr" ]
	done
}

@test "a page with one section: its passages are ranked; a short page is whole" {
	run -0 urlextract --query 'walrus key' --max-tokens 100 "$Q/flat.html"
	local c=$(field "$output" .content)
	[[ $c == *"The walrus key opens the back door."* ]]
	[[ $c == "…"* ]]
	jq -e '.sections | all(.heading == null)' <<<"$output"
	[ "$(tokens "$c")" -le 100 ]
	# A page within the budget: its text as it is, every passage listed.
	run -0 urlextract "$Q/flat.html"
	local whole=$(field "$output" .content)
	run -0 urlextract --query 'walrus' --max-tokens 5000 "$Q/flat.html"
	[ "$(field "$output" .content)" = "$whole" ]
	jq -e '(.sections | length) > 1 and .sections[0].offset == 0' <<<"$output"
}

@test "plain text: headings are the extractor's heading lines" {
	run -0 urlextract --query 'apt-get debian' --max-tokens 120 "$Q/guide.html"
	local c=$(field "$output" .content)
	[[ $c == *"Debian"$'\n\n'*"apt-get install lantern"* ]]
	[ "$(field "$output" '.sections[0].heading')" = Debian ]
	run -0 urlextract -T --query 'apt-get debian' --max-tokens 120 \
	    "$Q/guide.html"
	[ "$output" = "$c" ]
}

@test "records in, records out: --query on urlfetch's input records" {
	run -0 bash -c 'printf "{\"url\":\"%s\",\"note\":7}\n" "$1/guide.html" |
	    urlfetch --query "upstream timeout" --max-tokens 150' _ "$B"
	[ "$(field "$output" .note)" = 7 ]
	[[ "$(field "$output" .content)" == *"A timeout while fetching means"* ]]
	# An error record passes through, without sections.
	run -1 --separate-stderr urlfetch --query 'x' "$B/nope.html"
	jq -e '.error and (has("sections") | not)' <<<"$output"
}

@test "bad use is a usage error: budget out of range, --offset with --query" {
	run -2 --separate-stderr urlextract --query q --max-tokens 5 "$Q/guide.html"
	[[ $stderr == *"--max-tokens: not a count from 100 to 100000: '5'"* ]]
	run -2 urlextract --query q --max-tokens lots "$Q/guide.html"
	run -2 --separate-stderr urlextract --query q --offset 10 "$Q/guide.html"
	[[ $stderr == *"--offset and --query"* ]]
	run -2 urlfetch --query q --max-tokens 99 "$B/guide.html"
	run -2 urlfetch --query q --offset 3 "$B/guide.html"
	run -2 pwfetch fetch --query q --max-tokens 100001 "$B/guide.html"
	run -2 urlextract --query
}

@test "pwfetch: --query on the page Chromium rendered" {
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	TMPDIR="$T/tmp" run -0 --separate-stderr pwfetch fetch -q \
	    --query 'quokka error' --max-tokens 150 "$B/guide.html"
	local c=$(field "$output" .content)
	[[ $c == *"The quokka error means the cache directory is read-only."* ]]
	[[ $c == "…"* ]]
	[ "$(tokens "$c")" -le 150 ]
	[ "$(field "$output" '.sections[0].heading')" != null ]
}

@test "urlextract --max-tokens and --offset: the first-tokens cut --query is judged against" {
	run -0 urlextract --max-tokens 100 "$Q/guide.html"
	local c=$(field "$output" .content) next
	[[ $c == "Lantern cache guide"* ]]
	[ "$(tokens "$c")" -le 100 ]
	[ "$(field "$output" .offset)" = 0 ]
	next=$(field "$output" .next_offset)
	[ "$next" -gt 0 ]
	run -0 urlextract -T --max-tokens 100 "$Q/guide.html"
	[[ $output == *"[... more: read on with --offset $next]" ]]
	run -0 urlextract --offset "$next" --max-tokens 100 "$Q/guide.html"
	[ "$(field "$output" .offset)" = "$next" ]
	# The two slices are the page's text, in order.
	run -0 urlextract "$Q/guide.html"
	[[ "$(field "$output" .content)" == "$c"* ]]
}
