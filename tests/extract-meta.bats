#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Metadata (lang, sitename, canonical, image, tags) and page kinds (app
# shells that need a browser, pages that are not text), from local files
# and from the loopback server.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	X="$FIXTURES/extract"
}
teardown() { common_teardown; }

@test "metadata: lang, sitename, canonical and image made absolute, tags" {
	run -0 --separate-stderr urlextract "$X/meta.html" \
	    --base https://times.example/news/story
	json_eq "$(jq -c 'del(.content, .content_hash, .fetched_at, .page_type)' <<<"$output")" \
	    '{"url":"https://times.example/news/story","url_type":"web",
	      "title":"Tides and Boats","description":null,
	      "author":"Ann Writer","date":null,"lang":"en-GB",
	      "sitename":"The Harbour Times",
	      "canonical":"https://times.example/2024/03/tides-and-boats",
	      "image":"https://times.example/img/tides.jpg",
	      "tags":["Tides","Boats","harbour","weather"]}'
	[ -z "$stderr" ]
}

@test "metadata: without a page URL, relative addresses are left out" {
	run -0 --separate-stderr urlextract "$X/meta.html"
	[ "$(field "$output" .canonical)" = null ]
	[ "$(field "$output" .image)" = null ]
	[ "$(field "$output" .lang)" = en-GB ]
}

@test "metadata over HTTP: lang from Content-Language when the page has none" {
	run -0 --separate-stderr urlfetch <<<"$B/meta/lang-header.html"
	[ "$(field "$output" .lang)" = de-DE ]
	# The page's own lang comes first.
	run -0 --separate-stderr urlfetch <<<"$B/article.html?lang=1"
	[ "$(field "$output" .lang)" = en ]
}

@test "an app shell: needs_browser, a warning naming pwfetch, not an error" {
	run -0 --separate-stderr urlfetch <<<"$B/meta/app-shell.html"
	[ "$(field "$output" .needs_browser)" = true ]
	[ "$(field "$output" .error)" = null ]
	[[ $stderr == *"/meta/app-shell.html': the page's text is built by scripts"*pwfetch* ]]
	# --extract says the same.
	curl -s "$B/meta/app-shell.html" >"$T/shell.html"
	run -0 --separate-stderr urlextract "$T/shell.html"
	[ "$(field "$output" .needs_browser)" = true ]
	[[ $stderr == *"needs_browser"*pwfetch* ]]
}

@test "an article with scripts is not an app shell" {
	run -0 --separate-stderr urlfetch <<<"$B/article.html?nb=1"
	[ "$(field "$output" .needs_browser)" = null ]
	[ -z "$stderr" ]
	run -0 --separate-stderr urlextract "$X/meta.html"
	[ "$(field "$output" .needs_browser)" = null ]
}

@test "jq select(.needs_browser) picks exactly the app shells" {
	printf '%s\n' "$B/article.html?sel=1" "$B/meta/app-shell.html" \
	    "$B/docs/x" >"$T/urls"
	run -0 --separate-stderr urlfetch -i "$T/urls"
	[ "${#lines[@]}" -eq 3 ]
	run -0 jq -r 'select(.needs_browser) | .url' <<<"$output"
	[ "$output" = "$B/meta/app-shell.html" ]
}

@test "urlfetch | jq select(.needs_browser) | pwfetch fetch renders the shell" {
	[ -x "$CHROMIUM" ] || skip "chromium is not installed ($CHROMIUM)"
	mkdir -p "$T/tmp"
	printf '%s\n' "$B/article.html?pw=1" "$B/meta/app-shell.html?pw=1" \
	    >"$T/urls"
	urlfetch -i "$T/urls" 2>/dev/null | jq -c 'select(.needs_browser)' \
	    >"$T/shells"
	[ "$(wc -l <"$T/shells")" -eq 1 ]
	run -0 --separate-stderr env TMPDIR="$T/tmp" pwfetch fetch <"$T/shells"
	[ "${#lines[@]}" -eq 1 ]
	[[ $(field "$output" .content) == *"The dashboard shows the harbour's tides"* ]]
	[ "$(field "$output" .needs_browser)" = null ]
	[ "$(field "$output" .error)" = null ]
}

@test "bytes that are not text, served as HTML, are an error record" {
	run -1 --separate-stderr urlfetch <<<"$B/meta/binary.html"
	[ "$(field "$output" .error)" = "binary content served as HTML, not text" ]
	[ "$(field "$output" .content)" = null ]
}

@test "an empty page served as HTML is an error record, not a shell" {
	run -1 --separate-stderr urlfetch <<<"$B/empty.html?nb=1"
	[[ $(field "$output" .error) == "no text in the page"* ]]
	[ "$(field "$output" .needs_browser)" = null ]
}
