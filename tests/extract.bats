#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract: main text and metadata of local HTML files, no
# network.  The fixtures are in tests/fixtures/extract/.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract"
}
teardown() { common_teardown; }

@test "extract: a content record with metadata" {
	run -0 --separate-stderr urlextract "$X/article.html"
	[ "${#lines[@]}" -eq 1 ]
	# (page_type: the classifier's, tests/extract-model.bats.)
	[ "$(jq -r '.page_type | type' <<<"$output")" = string ]
	json_eq "$(jq -c 'del(.content, .content_hash, .fetched_at, .page_type)' <<<"$output")" \
	    '{"url":"file://'"$X"'/article.html","url_type":"web",
	      "title":"How to Brew Coffee at Home",
	      "description":"A guide to brewing coffee.",
	      "author":"Ann Writer","date":"2025-03-04T05:06:07Z",
	      "lang":"en"}'
	run -0 jq -e '.fetched_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<<"$output"
	[ -z "$stderr" ]
}

@test "extract: --url sets the record's url; - reads standard input" {
	run -0 urlextract - --base https://example.com/coffee <"$X/article.html"
	run -0 jq -r '.url, .title' <<<"$output"
	[ "${lines[0]}" = https://example.com/coffee ]
	[ "${lines[1]}" = "How to Brew Coffee at Home" ]
	run -0 urlextract - <"$X/tiny.html"
	run -0 jq -r .url <<<"$output"
	[ "$output" = file:///dev/stdin ]
}

@test "extract: --text prints only the main text" {
	run -0 urlextract "$X/article.html" --text
	[[ $output == "How to Brew Coffee at Home"* ]]
	[[ $output == *"Good coffee starts with fresh beans"* ]]
	[[ $output == *"which is the whole point." ]]
	run -0 urlextract "$X/article.html"
	run -0 jq -r .content <<<"$output"
	[[ $output == *"Good coffee starts with fresh beans"* ]]
}

@test "extract: scripts, styles, navigation and boilerplate are stripped" {
	run -0 urlextract "$X/article.html" -T
	for w in SCRIPTTEXT STYLETEXT font-family NAVTEXT COOKIETEXT \
	    SHARETEXT COMMENTTEXT ASIDETEXT FOOTERTEXT "Skip to content"; do
		if [[ $output == *"$w"* ]]; then
			echo "found $w" >&2
			return 1
		fi
	done
}

@test "extract: paragraphs and headings separated by blank lines, whitespace cleaned" {
	run -0 urlextract "$X/article.html" -T
	[[ $output == *$'degrees.\n\nGrinding\n\nA burr grinder'* ]]
	# Lines broken in the source are joined, runs of spaces collapsed.
	[[ $output == *"patience. Grind the beans just before brewing, weigh them, and keep"* ]]
	# Lists and table rows one per line; pre keeps its spacing.
	[[ $output == *$'Weigh the beans\nHeat the water\nPour slowly'* ]]
	[[ $output == *$'Method | Grams per litre\nPour-over | 60\nFrench press | 70'* ]]
	[[ $output == *$'ratio = water / coffee\n  # about 16 to 1'* ]]
	# Outside <pre>: no leading, doubled or trailing spaces.
	run -1 grep -E '^ |  | $' <<<"$(grep -v 'about 16 to 1' <<<"$output")"
}

@test "extract: entities decoded" {
	run -0 urlextract "$X/article.html" -T
	[[ $output == *"Café owners say the same: fresh, even, and “never” pre-ground."* ]]
}

@test "extract: charset from <meta http-equiv>, latin1 read as windows-1252" {
	run -0 urlextract "$X/latin1-meta.html"
	run -0 jq -r '.title, .content' <<<"$output"
	[ "${lines[0]}" = "Café" ]
	[[ $output == *"Le café crème coûte cher à Paris"* ]]
	[[ $output == *"“Quotes” and € sign."* ]]
}

@test "extract: a page declared latin1 whose bytes are all UTF-8 is read as UTF-8" {
	# Read as windows-1252 each "’" would be "â€™"; windows-1252 text
	# is hardly ever valid UTF-8 (latin1-meta.html above is not).
	run -0 urlextract "$FIXTURES/extract-ex16/latin1-utf8.html" -T
	[ "$status" -eq 0 ]
	[[ $output == *"Don’t let a vendor ruin your event"* ]]
	[[ $output == *"Our café tables"* ]]
	[[ $output != *"â€"* ]]
}

@test "extract: a BOM wins over <meta charset>; UTF-16 with a BOM" {
	run -0 urlextract "$X/utf8-bom.html"
	run -0 jq -r '.title, .content' <<<"$output"
	[ "${lines[0]}" = "BOM été" ]
	[[ $output == *"Le café crème"* ]]
	run -0 urlextract "$X/utf16-bom.html"
	run -0 jq -r '.title, .content' <<<"$output"
	[ "${lines[0]}" = "UTF-16 été" ]
	[[ $output == *"les garçons sont aimables"* ]]
}

@test "extract: undeclared latin1 is read as UTF-8, bad bytes become U+FFFD" {
	run -0 urlextract "$X/latin1-nodecl.html" -T
	[[ $output == *"Le caf� cr�me"* ]]
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
}

@test "extract: metadata from OpenGraph and JSON-LD" {
	run -0 urlextract "$X/jsonld.html"
	json_eq "$(jq -c '{title, description, author, date}' <<<"$output")" \
	    '{"title":"Espresso, Explained","description":"What makes espresso different.",
	      "author":"Ed Barista","date":"2024-11-12T08:00:00+01:00"}'
	run -0 jq -r .content <<<"$output"
	[[ $output == "Espresso is coffee brewed"* ]]
	[[ $output != *"@context"* ]]
}

@test "extract: <noscript> text is kept (a forum thread)" {
	run -0 urlextract "$X/forum-noscript.html" -T
	[[ $output == *"Which grinder do you use at home"* ]]
	[[ $output == *"Electric burr grinders are worth it"* ]]
	[[ $output != *"Loading..."* ]]
}

@test "extract: a page with no main block uses the fallback, and says so" {
	run -0 urlextract "$X/tiny.html"
	json_eq "$(jq -c 'del(.fetched_at, .url, .page_type)' <<<"$output")" \
	    '{"url_type":"web","title":"Tiny page","description":"Only a line.",
	      "author":null,"date":null,"content":"Just a line of text.",
	      "content_hash":"fe467ac2f697d5eaed0dbf6c64645240f01de3ca4bd7dd792135478e638065e5",
	      "extraction":"fallback"}'
}

@test "extract: a Cloudflare challenge is blocked, never content" {
	run -1 --separate-stderr urlextract "$X/block-cloudflare.html"
	run -0 jq -e '.blocked == true and (.error | test("block")) and (has("content") | not)' <<<"$output"
	run -1 --separate-stderr urlextract "$X/block-cloudflare.html" -T
	[ -z "$output" ]
	[[ $stderr == "urlextract: "*"block or challenge page"* ]]
}

@test "extract: an access-denied page is blocked" {
	run -1 --separate-stderr urlextract "$X/access-denied.html"
	run -0 jq -e '.blocked == true and .title == "Access Denied"' <<<"$output"
}

@test "extract: malformed HTML still gives its text" {
	run -0 urlextract "$X/malformed.html" -T
	[[ $output == *"The malformed page still has a paragraph"* ]]
	[[ $output == *"Another paragraph follows"* ]]
}

@test "extract: empty input gives an empty fallback record" {
	run -0 urlextract - </dev/null
	json_eq "$(jq -c '{content, extraction, title}' <<<"$output")" \
	    '{"content":"","extraction":"fallback","title":null}'
	run -0 urlextract - -T </dev/null
	[ -z "$output" ]
}

@test "extract: binary garbage gives valid UTF-8 JSON" {
	head -c 200000 /dev/urandom >"$T/garbage.bin"
	run -0 urlextract "$T/garbage.bin"
	run -0 jq -e '.content | type == "string"' <<<"$output"
}

@test "extract: a 20 MB page is handled whole" {
	python3 - "$T/big.html" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("<html><head><title>Big</title></head><body><article>")
    i = 0
    while f.tell() < 20 * 1024 * 1024:
        f.write("<div><p>Paragraph %d has words, commas, and more words to "
                "make it long enough for a reader.</p><script>var x=%d;"
                "</script></div>\n" % (i, i))
        i += 1
    f.write("<p>LASTPARAGRAPH is here, at the very end, after 20 MB.</p>"
            "</article></body></html>")
EOF
	run -0 urlextract "$T/big.html" -T
	[[ $output == "Paragraph 0 has words"* ]]
	[[ $output == *"LASTPARAGRAPH is here"* ]]
	[[ $output != *"var x="* ]]
}

@test "extract: deeply nested markup is bounded" {
	python3 -c 'print("<div>" * 200000 + "<p>DEEPTEXT, with commas, deep down, in a long paragraph of text.</p>")' >"$T/deep.html"
	run -0 urlextract "$T/deep.html" -T
	[[ $output == *DEEPTEXT* ]]
}

@test "extract: a missing file is an error record and exit 1" {
	run -1 --separate-stderr urlextract "$T/nope.html"
	run -0 jq -e '(.error | test("nope.html")) and .url_type == "web"' <<<"$output"
	run -1 --separate-stderr urlextract "$T/nope.html" -T
	[ -z "$output" ]
	[[ $stderr == "urlextract: "*"nope.html"* ]]
}

@test "extract: usage errors exit 2, --help and --version exit 0" {
	run -2 --separate-stderr urlextract -B
	[ "$stderr" = "urlextract: option -B needs a value
try 'urlextract --help'" ]
	run -2 --separate-stderr urlextract --bogus "$X/tiny.html"
	run -2 --separate-stderr urlextract "$X/tiny.html" -i "$X/tiny.html"
	run -2 --separate-stderr urlfetch -B https://example.com/ "$X/tiny.html"
	run -0 urlextract --help
	[[ $output == usage:* ]]
	run -0 urlextract --version
	[[ $output == "urlextract "* ]]
}

@test "extract: the benchmark's invocation works on a dev page" {
	local page
	page=$(extract_dev_page 0001)
	run -0 urlextract "$page" --text
	[ -n "$output" ]
}

@test "extract: the standfirst above the text is kept when no <h1> heads it" {
	# The <h1> is the site's name in its header, set aside: the lead is
	# found from the text upwards, through short lines (the date), and
	# ends at the list of links above it.
	run -0 urlextract "$FIXTURES/extract-lead/standfirst.html" --text
	[ "$status" -eq 0 ]
	[[ $output == "After eleven years without them"*"sold out within a day."* ]]
	[[ $output == *"signed off." ]]
	[[ $output != *"12 March 2026"* ]]
	[[ $output != *"Rail travel"* ]]
	[[ $output != *"Copyright"* ]]
}

@test "extract: an article's own <header> (class article-header) with its standfirst is kept" {
	# "article-header" reads as a header by its last word; the <header>
	# holds the <h1> and a standfirst, so it is the article's.  Its short
	# lines (the date) stay out, as the site's header and menu do.
	run -0 urlextract "$FIXTURES/extract-lead/article-header.html" --text
	[ "$status" -eq 0 ]
	[[ $output == "The orchard that came back"* ]]
	[[ $output == *"two neighbours and a borrowed ladder have them fruiting again."* ]]
	[[ $output == *"before they fall." ]]
	[[ $output != *"5 October 2026"* ]]
	[[ $output != *"Essays"* ]]
	[[ $output != *"written by hand"* ]]
}

@test "extract: a paragraph whose class says caption is set aside" {
	# A <p>'s classes are mostly its style and are not read, but for
	# the names of a box beside the text: an image's caption.
	run -0 urlextract "$FIXTURES/extract-ex13/boxes.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"leaving the mill standing beside a dry channel."* ]]
	[[ $output != *"planted with willows"* ]]
}

@test "extract: an image's legend and Bildunterschrift are captions" {
	run -0 urlextract "$FIXTURES/extract-ex13/boxes.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"as the mill prospered."* ]]
	[[ $output != *"The old mill in 1912"* ]]
	[[ $output != *"seen from the church tower"* ]]
}

@test "extract: what the site does not print (class no-print) is set aside" {
	run -0 urlextract "$FIXTURES/extract-ex13/boxes.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"in its new place."* ]]
	[[ $output == *"was built for water." ]]
	[[ $output != *"write to the editors"* ]]
}

@test "extract: recommended stories are set aside however much text they hold" {
	# The box of teasers holds more than the note: its class, which
	# says recommendations, is believed all the same.
	run -0 urlextract "$FIXTURES/extract-ex13/related-large.html" --text
	[ "$status" -eq 0 ]
	[[ $output == "A short note on the library's new hours"* ]]
	[[ $output == *"with the same staff at the desk." ]]
	[[ $output != *"walking bus"* ]]
	[[ $output != *"bakery"* ]]
}

@test "extract: the lines of links that end the article are set aside" {
	# After the article's last words, links standing alone are other
	# pages' titles; the last one is beside no prose.
	run -0 urlextract "$FIXTURES/extract-ex13/tail-links.html" --text
	[ "$status" -eq 0 ]
	[[ $output == "Night trains return to the northern line"* ]]
	[[ $output == *"a hotel night and a flight together." ]]
	[[ $output != *"beautiful stations"* ]]
	run -0 urlextract "$FIXTURES/extract-ex13/tail-links.html" -f markdown --text
	[ "$status" -eq 0 ]
	[[ $output == *"a hotel night and a flight together." ]]
	[[ $output != *"beautiful stations"* ]]
}

@test "extract: a code block's comments (a highlighter's class hljs-comment) are kept" {
	# Inside <pre> a class names a token of the code, not a box of the
	# page; the page's own comment section still goes.
	run -0 urlextract "$FIXTURES/extract-ex16/code-comments.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *$'# initialize git\ngit init'* ]]
	[[ $output == *"# view the state of the repo"* ]]
	[[ $output != *"Great post"* ]]
	run -0 urlextract "$FIXTURES/extract-ex16/code-comments.html" -f markdown --text
	[ "$status" -eq 0 ]
	[[ $output == *$'```bash\n# initialize git\ngit init'* ]]
}
