/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/pdf.c: the page and time limits of uk_pdf_extract,
 * on documents made by tests/helpers/mkpdf.py (run from the top of the
 * tree, as tests/run does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "extract.h"
#include "tap.h"
#include "util.h"
#include "banned.h"

/* The bytes of an mkpdf.py document of this kind, into b; 0 or -1. */
static int
make(const char *kind, struct uk_buf *b)
{
	struct uk_buf cmd = UK_BUF_INIT;
	char buf[65536];
	size_t n;
	FILE *p;

	uk_buf_reset(b);
	uk_buf_addf(&cmd, "python3 tests/helpers/mkpdf.py '%s' /dev/stdout",
	    kind);
	p = popen(cmd.buf, "r");
	uk_buf_release(&cmd);
	if (!p)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		uk_buf_add(b, buf, n);
	return pclose(p) == 0 && b->len ? 0 : -1;
}

int
main(void)
{
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	struct uk_buf pdf = UK_BUF_INIT;
	struct uk_extract x;
	struct uk_err err = { 0 };
	int r;

	if (make("pages:300", &pdf)) {
		printf("1..0 # SKIP cannot run tests/helpers/mkpdf.py\n");
		return 0;
	}

	o.max_pages = 2;
	r = uk_pdf_extract(pdf.buf, pdf.len, NULL, &o, &x, &err);
	ok(r == 0, "max_pages 2: read");
	ok(x.pages == 300, "the page count is the document's (%d)", x.pages);
	ok(x.truncated == 1, "truncated");
	ok(x.text && strstr(x.text, "Page 2 of 300") &&
		!strstr(x.text, "Page 3 of 300"),
	    "pages 1 and 2 only");
	ok(x.text && strstr(x.text, "[pages 3 to 300 left out: the page "
				    "limit]"),
	    "the note says why");
	uk_extract_release(&x);

	o.max_pages = 0;
	r = uk_pdf_extract(pdf.buf, pdf.len, NULL, &o, &x, &err);
	ok(r == 0 && x.truncated && strstr(x.text, "Page 200 of 300") &&
		!strstr(x.text, "Page 201 of 300"),
	    "max_pages 0: the default, 200");
	uk_extract_release(&x);

	o.max_pages = 1000;
	o.timeout_ms = 1;
	r = uk_pdf_extract(pdf.buf, pdf.len, NULL, &o, &x, &err);
	ok((r == 0 && x.truncated && strstr(x.text, "time limit]")) ||
		(r < 0 && strstr(err.msg, "time limit")),
	    "a time limit of 1 ms stops reading: %s",
	    r < 0 ? err.msg : "truncated");
	uk_extract_release(&x);

	r = uk_pdf_extract("%PDF-1.7\n", 9, NULL, NULL, &x, &err);
	ok(r < 0 && !strncmp(err.msg, "damaged PDF", 11), "a bare header: %s",
	    err.msg);
	uk_extract_release(&x);
	r = uk_pdf_extract("<html>", 6, NULL, NULL, &x, &err);
	ok(r < 0 && !strncmp(err.msg, "damaged PDF", 11), "not a PDF: %s",
	    err.msg);
	uk_extract_release(&x);

	uk_buf_release(&pdf);
	return tap_done();
}
