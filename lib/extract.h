/* SPDX-License-Identifier: MIT */
#ifndef UK_EXTRACT_H
#define UK_EXTRACT_H

/*
 * Main text and metadata of an HTML page (urlfetch and pwfetch).
 *
 * The page is converted to UTF-8 first (charset from the Content-Type
 * header, then a BOM, then <meta charset> or http-equiv in the first 1024
 * bytes, then UTF-8; iso-8859-1, latin1 and ascii read as windows-1252),
 * then parsed with gumbo.  The main block is chosen by scoring; when none
 * scores, the seed's fallback is used (title, meta description, scripts and
 * styles removed, tags stripped, entities decoded) and fallback is set.
 *
 * (This header is the contract between extraction and its users; the
 * implementation may add fields.)
 */

#include <stddef.h>

#include "util.h"

struct uk_extract {
	char *title, *description, *author, *date; /* NULL when absent */
	char *text;      /* main text, paragraphs separated by blank lines */
	char *charset;   /* the charset the page was read as */
	int fallback;    /* 1: no main block scored; the plain fallback */
	int blocked;     /* 1: the page looks like a block or challenge page */
};

/*
 * Extract html[0..len).  content_type is the HTTP Content-Type header or
 * NULL; url (may be NULL) resolves relative metadata.  0 on success, -1
 * with err (the page could not be decoded or parsed at all).  Release x
 * with uk_extract_release whatever the result.
 */
int uk_extract_html(const char *html, size_t len, const char *content_type,
    const char *url, struct uk_extract *x, struct uk_err *err);
void uk_extract_release(struct uk_extract *x);

#endif
