/* SPDX-License-Identifier: MIT */
/*
 * PDF documents (see uk_extract_pdf in extract.h).
 *
 * PLACEHOLDER until the poppler reader lands: every document is refused
 * with an error record.
 */
#include <string.h>

#include "banned.h"
#include "extract.h"

int
uk_extract_is_pdf(const char *buf, size_t len)
{
	return len >= 5 && !memcmp(buf, "%PDF-", 5);
}

int
uk_extract_pdf(const char *pdf, size_t len, const char *url,
    const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err)
{
	(void)pdf;
	(void)len;
	(void)url;
	(void)o;
	memset(x, 0, sizeof(*x));
	uk_err_set(err, UK_EXIT_FAIL, "PDF documents are not read yet");
	return -1;
}
