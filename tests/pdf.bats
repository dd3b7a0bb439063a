#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# PDF documents: fetched from the loopback server and given to urlextract,
# made by tests/helpers/mkpdf.py (and qpdf for an encrypted one).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	MKPDF="$TOP/tests/helpers/mkpdf.py"
}
teardown() { common_teardown; }

# check_doc RECORD: the three-page document's fields and paragraphs.
check_doc() {
	[ "$(field "$1" .title)" = "The Harbour Report" ]
	[ "$(field "$1" .author)" = "Ada Lovelace" ]
	[ "$(field "$1" .date)" = "2024-03-05T10:00:00Z" ]
	[ "$(field "$1" .description)" = "A storm over the harbour" ]
	[ "$(printf '%s\n' "$1" | jq -c .tags)" = '["harbour","storm","boats"]' ]
	[ "$(field "$1" .pages)" = 3 ]
	[ "$(field "$1" .truncated)" = null ]
	[ "$(field "$1" .error)" = null ]
	# Lines of a paragraph joined, paragraphs apart, pages in order.
	field "$1" .content >"$T/content"
	cat >"$T/want" <<-'EOF'
	Harbour Report

	The harbour was quiet that morning, and the fishing boats rocked gently against the old stone pier while gulls circled overhead looking for scraps.

	By noon the wind had turned, and the harbour master walked the length of the pier twice, checking every rope and every knot, because he had seen calm mornings turn wild.

	Café owners brought their chairs inside, a naïve hope that the storm would pass; coffee still cost €2.

	The second paragraph of page two stands on its own.

	The last page says goodbye.
	EOF
	diff -u "$T/want" "$T/content"
}

@test "a PDF over HTTP: text in paragraphs, info dictionary, pages" {
	run -0 --separate-stderr urlfetch <<<"$B/pdf/doc.pdf"
	check_doc "$output"
	[ "$(field "$output" .http.content_type)" = application/pdf ]
}

@test "a PDF given to urlextract: the same fields as over HTTP" {
	python3 "$MKPDF" doc "$T/doc.pdf"
	run -0 --separate-stderr urlextract "$T/doc.pdf"
	check_doc "$output"
	[ "$(field "$output" .url)" = "file://$T/doc.pdf" ]
	# -T: the text alone.
	run -0 --separate-stderr urlextract -T "$T/doc.pdf"
	[[ $output == "Harbour Report"* ]]
	[[ $output == *"says goodbye." ]]
}

@test "a PDF served as octet-stream or with no type is read by its bytes" {
	run -0 --separate-stderr urlfetch <<<"$B/pdf/doc.bin"
	[ "$(field "$output" .title)" = "The Harbour Report" ]
	[ "$(field "$output" .pages)" = 3 ]
	run -0 --separate-stderr urlfetch <<<"$B/pdf/doc.none"
	[ "$(field "$output" .pages)" = 3 ]
}

@test "no title in the info: the first heading-like line" {
	run -0 --separate-stderr urlfetch <<<"$B/pdf/notitle.pdf"
	[ "$(field "$output" .title)" = "A Heading Line" ]
	[ "$(field "$output" .author)" = null ]
	[ "$(field "$output" .pages)" = 1 ]
}

@test "page numbers are dropped; a paragraph runs on across pages" {
	python3 "$MKPDF" flow "$T/flow.pdf"
	run -0 --separate-stderr urlextract "$T/flow.pdf"
	field "$output" .content >"$T/content"
	printf '%s\n\n%s\n\n%s\n' "The first paragraph ends here." \
	    "The second paragraph starts on the first page and runs on to the second page." \
	    "A third paragraph." >"$T/want"
	diff -u "$T/want" "$T/content"
	[ "$(field "$output" .pages)" = 2 ]
}

@test "a truncated PDF, over HTTP and from a file, is damaged" {
	run -1 --separate-stderr urlfetch <<<"$B/pdf/damaged.pdf"
	[[ $(field "$output" .error) == "damaged PDF"* ]]
	python3 "$MKPDF" damaged "$T/d.pdf"
	run -1 --separate-stderr urlextract "$T/d.pdf"
	[[ $(field "$output" .error) == "damaged PDF"* ]]
	# Poppler's own complaints stay off standard error.
	[ "$stderr" = "urlextract: $(field "$output" .error)" ]
}

@test "an image-only PDF is an error record saying so" {
	run -1 --separate-stderr urlfetch <<<"$B/pdf/image.pdf"
	[ "$(field "$output" .error)" = "image-only PDF: no text layer (a scan?)" ]
	python3 "$MKPDF" blank "$T/blank.pdf"
	run -1 --separate-stderr urlextract "$T/blank.pdf"
	[ "$(field "$output" .error)" = "PDF holds no text" ]
}

@test "an encrypted PDF is an error record saying so" {
	command -v qpdf >/dev/null || skip "no qpdf (scripts/bootstrap installs it)"
	python3 "$MKPDF" doc "$T/doc.pdf"
	qpdf --encrypt secret owner 256 -- "$T/doc.pdf" "$T/locked.pdf"
	run -1 --separate-stderr urlextract "$T/locked.pdf"
	[ "$(field "$output" .error)" = "encrypted PDF: it needs a password" ]
	# Only an owner password (no password to open it): readable.
	qpdf --encrypt "" owner 256 -- "$T/doc.pdf" "$T/open.pdf"
	run -0 --separate-stderr urlextract "$T/open.pdf"
	[ "$(field "$output" .title)" = "The Harbour Report" ]
}

@test "pages past the limit of 200 are left out, with a note and truncated" {
	python3 "$MKPDF" pages:203 "$T/long.pdf"
	run -0 --separate-stderr urlextract "$T/long.pdf"
	[ "$(field "$output" .pages)" = 203 ]
	[ "$(field "$output" .truncated)" = true ]
	[[ $(field "$output" .content) == *"Page 200 of 203"* ]]
	[[ $(field "$output" .content) != *"Page 201 of 203"* ]]
	[[ $(field "$output" .content) == *"[pages 201 to 203 left out: the page limit]" ]]
}

@test "a PDF among other URLs: each gets its record, in order" {
	printf '%s\n' "$B/pdf/image.pdf" "$B/article.html" "$B/pdf/doc.pdf" \
	    >"$T/urls"
	run -1 --separate-stderr urlfetch -i "$T/urls"
	[ "${#lines[@]}" -eq 3 ]
	[[ $(field "${lines[0]}" .error) == "image-only PDF"* ]]
	[ "$(field "${lines[1]}" .title)" = "The Quiet Harbour" ]
	[ "$(field "${lines[2]}" .pages)" = 3 ]
}

@test "reading HTML does not load the PDF library" {
	run -0 --separate-stderr env LD_DEBUG=files urlextract \
	    "$FIXTURES/extract/article.html"
	[[ $stderr != *poppler* ]]
}

@test "-f markdown on a PDF: the title as '# title', headings, paragraphs" {
	python3 "$MKPDF" doc "$T/doc.pdf"
	run -0 --separate-stderr urlextract -f markdown "$T/doc.pdf"
	[ "$(field "$output" .format)" = markdown ]
	[ "$(field "$output" .title)" = "The Harbour Report" ]
	[ "$(field "$output" .pages)" = 3 ]
	field "$output" .content >"$T/content"
	# The info's title first; the large line set above the body is a
	# heading of its own; paragraphs apart; no page break left.
	cat >"$T/want" <<-'EOF'
	# The Harbour Report

	## Harbour Report

	The harbour was quiet that morning, and the fishing boats rocked gently against the old stone pier while gulls circled overhead looking for scraps.

	By noon the wind had turned, and the harbour master walked the length of the pier twice, checking every rope and every knot, because he had seen calm mornings turn wild.

	Café owners brought their chairs inside, a naïve hope that the storm would pass; coffee still cost €2.

	The second paragraph of page two stands on its own.

	The last page says goodbye.
	EOF
	diff -u "$T/want" "$T/content"
	# Without -f markdown: text, and no "format" in the record.
	run -0 --separate-stderr urlextract "$T/doc.pdf"
	[ "$(field "$output" .format)" = null ]
	[[ $(field "$output" .content) != *"#"* ]]
}

@test "-f markdown on a PDF over HTTP: the heading the title comes from is said once" {
	run -0 --separate-stderr urlfetch -f markdown <<<"$B/pdf/notitle.pdf"
	[ "$(field "$output" .format)" = markdown ]
	[ "$(field "$output" .title)" = "A Heading Line" ]
	field "$output" .content >"$T/content"
	printf '%s\n\n%s\n' "# A Heading Line" \
	    "This document has no information dictionary, so its title comes from the heading line above this text." \
	    >"$T/want"
	diff -u "$T/want" "$T/content"
	# A paragraph that runs on across pages stays one; no title, no '#'.
	python3 "$MKPDF" flow "$T/flow.pdf"
	run -0 --separate-stderr urlextract -f markdown "$T/flow.pdf"
	[ "$(field "$output" .format)" = markdown ]
	field "$output" .content >"$T/content"
	printf '%s\n\n%s\n\n%s\n' "The first paragraph ends here." \
	    "The second paragraph starts on the first page and runs on to the second page." \
	    "A third paragraph." >"$T/want"
	diff -u "$T/want" "$T/content"
}

@test "a creation date outside years 1-9999 is dropped, never written; the rest of the record stands" {
	# D:99999999999999+99'99' came out as 10007-06-07T00:01:39Z.
	for d in "D:99999999999999+99'99'" "D:20240305100000Z"; do
		python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
import mkpdf
data = mkpdf.build([mkpdf.text_stream([(11, 80, "Dated")])],
                   [("Title", "Dated"), ("CreationDate", sys.argv[2])])
open(sys.argv[3], "wb").write(data)' "$TOP/tests/helpers" "$d" "$T/d.pdf"
		run -0 --separate-stderr urlextract "$T/d.pdf"
		[ "$(field "$output" .title)" = Dated ]
		[ "$(field "$output" .error)" = null ]
		case $d in
		D:9*) [ "$(field "$output" .date)" = null ] ;;
		*) [ "$(field "$output" .date)" = 2024-03-05T10:00:00Z ] ;;
		esac
	done
}

@test "-f markdown on a PDF: markup in its title and text is written escaped, never as HTML" {
	python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
import mkpdf
body = mkpdf.text_stream([(11, 80, "It says <img src=x onerror=alert(1)> and </script>"),
                          (11, 100, "and &lt; as it is.")])
data = mkpdf.build([body], [("Title", "A <script> title")])
open(sys.argv[2], "wb").write(data)' "$TOP/tests/helpers" "$T/h.pdf"
	run -0 --separate-stderr urlextract -f markdown -T "$T/h.pdf"
	[ "${lines[0]}" = '# A \<script> title' ]
	[[ $output == *'It says \<img src=x onerror=alert(1)> and \</script>'* ]]
	[[ $output == *'and \&lt; as it is.'* ]]
}

@test "a PDF served as text/html or text/plain is read as a PDF, with a warning naming the type; other binary bodies served as HTML are errors" {
	mkdir -p "$T/www"
	python3 "$MKPDF" doc "$T/www/doc.html"
	cp "$T/www/doc.html" "$T/www/doc.txt"
	# Bodies whose first kilobyte has few control bytes: a small ZIP
	# archive, a PNG and a GIF signature before text-like bytes.
	python3 -c 'import io, sys, zipfile
b = io.BytesIO()
z = zipfile.ZipFile(b, "w", zipfile.ZIP_STORED)
z.writestr("a.txt", "text " * 1000)
z.close()
d = sys.argv[1]
open(d + "/zip.html", "wb").write(b.getvalue())
open(d + "/png.html", "wb").write(b"\x89PNG\r\n\x1a\n" + b"A" * 2000)
open(d + "/gif.txt", "wb").write(b"GIF89a" + b"B" * 2000)' "$T/www"
	start_server WWW python3 "$TOP/tests/helpers/page_server.py" "$T/www"
	W="http://127.0.0.1:$WWW_PORT"
	run -0 --separate-stderr urlfetch -C "$W/doc.html" "$W/doc.txt"
	[ "${#lines[@]}" -eq 2 ]
	check_doc "${lines[0]}"
	check_doc "${lines[1]}"
	[ "$(field "${lines[0]}" .content_type_ignored)" = text/html ]
	[ "$(field "${lines[1]}" .content_type_ignored)" = text/plain ]
	[ "$(field "${lines[0]}" .http.content_type)" = "text/html; charset=utf-8" ]
	[[ $stderr == *"'$W/doc.html': a PDF served as 'text/html': read as a PDF"* ]]
	[[ $stderr == *"'$W/doc.txt': a PDF served as 'text/plain': read as a PDF"* ]]
	run -1 --separate-stderr urlfetch -C "$W/zip.html" "$W/png.html" "$W/gif.txt"
	[ "${#lines[@]}" -eq 3 ]
	[ "$(field "${lines[0]}" .error)" = "binary content served as HTML, not text (a ZIP archive)" ]
	[ "$(field "${lines[1]}" .error)" = "binary content served as HTML, not text (a PNG image)" ]
	[ "$(field "${lines[2]}" .error)" = "binary content, not text (a GIF image)" ]
	[ "$(field "${lines[0]}" .content)" = null ]
}
