/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: main text and metadata of an HTML page, under a
 * Content-Type chosen by the input's length.  The text must be UTF-8.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "extract.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const types[] = { NULL, "text/html",
	"text/html; charset=iso-8859-1", "text/html; charset=utf-16",
	"text/html; charset=shift_jis", "application/xhtml+xml; charset=utf-8",
	"text/html; charset=\"bogus\"" };

static void
check(const char *s)
{
	if (s && !uk_buf_utf8_valid(s, strlen(s)))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_extract x = { 0 };
	struct uk_err err;
	const char *ct = types[size % (sizeof(types) / sizeof(*types))];

	if (uk_extract_html((const char *)data, size, ct,
		"https://example.test/dir/page.html", NULL, &x, &err) == 0) {
		check(x.title);
		check(x.description);
		check(x.author);
		check(x.date);
		check(x.text);
	}
	uk_extract_release(&x);
	return 0;
}
