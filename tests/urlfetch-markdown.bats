#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch -f markdown: one fixture per construct in
# tests/fixtures/markdown/ (NAME.html, the Markdown expected in NAME.md,
# the plain text expected in NAME.txt), compared byte for byte; the
# record's format field; the options on a network fetch and the cache.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	M="$FIXTURES/markdown"
	PAGE=https://example.com/docs/coffee/page.html
}
teardown() { common_teardown; }

# md NAME [OPTION...]: the Markdown of NAME.html equals NAME.md exactly.
md() {
	local n=$1
	shift
	run -0 --separate-stderr urlextract "$M/$n.html" -T -f markdown "$@"
	diff -u "$M/$n.md" <(printf '%s\n' "$output")
	[ -z "$stderr" ]
}

@test "markdown: headings as # to ######, a <br> in one a space" {
	md headings
}

@test "markdown: nested and ordered lists keep their numbers and start=" {
	md lists
}

@test "markdown: code fenced with the language the page names, inline code" {
	md code
}

@test "markdown: GFM tables with a header row, | escaped, spans repeated or empty" {
	md tables
}

@test "markdown: block quotes, nested, with a list inside" {
	md quotes
}

@test "markdown: what reads as syntax at a line's start is escaped" {
	md escape
}

@test "markdown: --links keeps links as [text](absolute URL)" {
	md links --links -B "$PAGE"
	# Without --links, the text alone.
	run -0 urlextract "$M/links.html" -T -f markdown -B "$PAGE"
	[[ $output == "Read the grinding guide, the bean list and another site before"* ]]
	[[ $output != *"]("* ]]
	# Without a page URL, links are written as the page has them.
	run -0 urlextract "$M/links.html" -T -f markdown --links
	[[ $output == *"[grinding guide](../guides/grind.html)"* ]]
}

@test "markdown: --links and --images keep http and https only, relative ones made absolute" {
	md schemes --links --images -B "$PAGE"
	# Without a page URL, a reference with no scheme stays as it is;
	# the rest are judged alike.
	run -0 urlextract "$M/schemes.html" -T -f markdown --links --images
	[[ $output == *"[a relative one](../guides/grind.html)"* ]]
	[[ $output == *"![a relative image](/pic.png)"* ]]
	[[ $output != *vbscript:* && $output != *file:* &&
	    $output != *avaScript:* && $output != *data:* &&
	    $output != *ftp:* && $output != *mailto:* ]]
}

@test "markdown: text the page shows literally never becomes HTML: < and references escaped outside code" {
	md hostile
	# No tag, comment or autolink that a Markdown reader would take as
	# HTML outside the code block: every '<' has its backslash.
	run -0 urlextract "$M/hostile.html" -T -f markdown
	sed '/^```/,/^```/d; s/`[^`]*`//g' <<<"$output" >"$T/prose"
	[ "$(grep -c '\(^\|[^\\]\)<' "$T/prose")" = 0 ]
	[ "$(grep -c '\(^\|[^\\]\)&[#a-zA-Z0-9]*;' "$T/prose")" = 0 ]
	# An image's alt text too.
	run -0 urlextract "$M/hostile.html" -T -f markdown --images -B "$PAGE"
	[[ $output == *'![\<img src=x onerror=alert(4)>](https://example.com/pic.png)'* ]]
}

@test "markdown: --images keeps images as ![alt](absolute URL)" {
	md images --images --links -B "$PAGE"
	run -0 urlextract "$M/images.html" -T -f markdown -B "$PAGE"
	[[ $output != *"!["* ]]
}

@test "text: a data table keeps its rows on lines and its cells apart" {
	run -0 urlextract "$M/tables.html" -T
	diff -u "$M/tables.txt" <(printf '%s\n' "$output")
	[[ $output == *$'Ristretto | 18 g | 18 g\n'* ]]
}

@test "text: list items start on their own lines, nested ones too" {
	run -0 urlextract "$M/lists.html" -T
	diff -u "$M/lists.txt" <(printf '%s\n' "$output")
}

@test "markdown: the record says format markdown; text says nothing" {
	run -0 urlextract "$M/headings.html" --format markdown
	run -0 jq -r '.format, .content' <<<"$output"
	[ "${lines[0]}" = markdown ]
	[ "${lines[1]}" = "# Brewing coffee at home" ]
	run -0 urlextract "$M/headings.html" -f text
	run -0 jq -r '.format, .content' <<<"$output"
	[ "${lines[0]}" = null ]
	[ "${lines[1]}" = "Brewing coffee" ]
	run -0 urlextract "$M/headings.html"
	run -0 jq -e 'has("format") | not' <<<"$output"
}

@test "markdown: options are checked; --comments and --max-pages parse" {
	run -2 urlextract "$M/headings.html" -f html
	[[ $output == *"-f: not text or markdown: 'html'"* ]]
	run -2 urlextract "$M/headings.html" --max-pages 0
	[[ $output == *"--max-pages"* ]]
	run -2 urlextract "$M/headings.html" --max-pages lots
	run -0 urlextract "$M/headings.html" -T -f md --comments --max-pages 5
	[ "${lines[0]}" = "# Brewing coffee at home" ]
}

@test "markdown: a network fetch writes Markdown, and the cache keeps formats apart" {
	run -0 --separate-stderr urlfetch <<<"$B/article.html?md"
	[ "$(field "$output" .cached)" = false ]
	[ "$(field "$output" .format)" = null ]
	[[ "$(field "$output" .content)" == "The Quiet Harbour"$'\n\n'* ]]
	# The text entry is not the answer to a Markdown run.
	run -0 --separate-stderr urlfetch -f markdown <<<"$B/article.html?md"
	[ "$(field "$output" .cached)" = false ]
	[ "$(field "$output" .format)" = markdown ]
	[[ "$(field "$output" .content)" == "# The Quiet Harbour"$'\n\n'"The harbour was quiet"* ]]
	[ "$(requests "/article.html?md")" -eq 2 ]
	run -0 --separate-stderr urlfetch -f markdown <<<"$B/article.html?md"
	[ "$(field "$output" .cached)" = true ]
	[ "$(field "$output" .format)" = markdown ]
	[ "$(requests "/article.html?md")" -eq 2 ]
	# --links: fetched again, and not written over the cached entry.
	run -0 --separate-stderr urlfetch -f markdown --links <<<"$B/article.html?md"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests "/article.html?md")" -eq 3 ]
	run -0 --separate-stderr urlfetch -f markdown <<<"$B/article.html?md"
	[ "$(field "$output" .cached)" = true ]
}
