/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: a PDF document through the PDF route.  uk_pdf_extract
 * reads each document in a child process, whose coverage and crashes the
 * fuzzer would not see; so the reading is fuzzed in process
 * (uk_pdf_extract_here: poppler, the lines and boxes of each page, the
 * paragraphs, page numbers and heading, the answer's fields), with the
 * page limit at 1 to 4 and the time limit at 2 s, and in text or Markdown
 * by the input's length.  One input in 16 also goes through
 * uk_pdf_extract itself, child and all, for the parent's side (the pipe,
 * the kill, the answer); the two must agree then.  Beyond the
 * sanitizers: every string of the result is valid UTF-8.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "extract.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const char *s)
{
	if (s && !uk_buf_utf8_valid(s, strlen(s)))
		abort();
}

static int
same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	struct uk_extract x, y;
	struct uk_err err, err2;
	size_t k;
	int r;

	o.max_pages = 1 + (int)(size % 4);
	o.timeout_ms = 2000;
	o.format = size / 4 % 2 ? UK_EXTRACT_MARKDOWN : UK_EXTRACT_TEXT;
	r = uk_pdf_extract_here((const char *)data, size, &o, &x, &err);
	if (r == 0) {
		check(x.title);
		check(x.description);
		check(x.author);
		check(x.date);
		check(x.text);
		for (k = 0; k < x.ntags; k++)
			check(x.tags[k]);
	}
	if (size % 16 == 0) {
		/* The child reads the same bytes the same way (the time
		 * limit aside, which a loaded machine may meet in one and
		 * not the other). */
		int r2 = uk_pdf_extract((const char *)data, size, NULL, &o,
		    &y, &err2);

		if (r == 0 && r2 == 0 && !x.truncated && !y.truncated &&
		    (!same(x.text, y.text) || !same(x.title, y.title)))
			abort();
		uk_extract_release(&y);
	}
	uk_extract_release(&x);
	return 0;
}
