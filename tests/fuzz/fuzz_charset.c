/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: charset sniffing and conversion to UTF-8.  The first
 * line is a Content-Type header value, the rest the page; whatever the
 * charset, the output must be valid UTF-8.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "charset.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Charsets the conversion is also tried with, whatever the page says. */
static const char *const forced[] = { "utf-8", "windows-1252", "utf-16le",
	"utf-16be", "shift_jis", "euc-jp", "gb18030", "iso-2022-jp", "koi8-r",
	"big5", "no-such-charset" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nl, *cs;
	char *ct = NULL, out[64], norm[64];
	struct uk_buf u = UK_BUF_INIT;
	struct uk_err err;
	size_t bom = 0, hl = 0;

	nl = memchr(s, '\n', size);
	if (nl) {
		hl = (size_t)(nl - s) + 1;
		ct = uk_util_xmemdup(s, (size_t)(nl - s));
		uk_charset_from_content_type(ct, out, sizeof(out));
		uk_charset_normalize(ct, strlen(ct), norm, sizeof(norm));
	}
	cs = uk_charset_detect(s + hl, size - hl, ct, out, sizeof(out), &bom);
	if (!cs || bom > size - hl)
		abort();
	if (uk_charset_to_utf8(s + hl, size - hl, cs, &u, &err) == 0 &&
	    !uk_buf_utf8_valid(u.buf, u.len))
		abort();
	uk_buf_reset(&u);
	cs = forced[size % (sizeof(forced) / sizeof(*forced))];
	if (uk_charset_to_utf8(s + hl, size - hl, cs, &u, &err) == 0 &&
	    !uk_buf_utf8_valid(u.buf, u.len))
		abort();
	uk_buf_release(&u);
	free(ct);
	return 0;
}
