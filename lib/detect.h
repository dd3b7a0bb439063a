/* SPDX-License-Identifier: MIT */
#ifndef UK_DETECT_H
#define UK_DETECT_H

/*
 * Finding http(s) URLs in text.
 *
 * A URL starts at "http://" or "https://" (any case) that does not follow
 * a letter or digit, and runs to the first whitespace, control
 * byte, invalid UTF-8, '<', '>', '\\', '|', '`', Unicode space, quotation
 * mark, CJK or full-width punctuation, or unmatched closing bracket.  A
 * URL opened by '"' or '\'' also ends at the next such quote (JSON, code).
 * Then trailing punctuation is dropped: . , ; : ! ? * ~, '_' when '_'
 * came before the URL (emphasis), and a quote or closing bracket that is
 * not balanced inside the URL.  What is left must have a plausible host
 * (labels of letters, digits, hyphens and non-ASCII characters, an IPv4
 * address, or [IPv6]) and, if it has one, a port in 0-65535; otherwise it
 * is not a URL.
 *
 * The scanner works on a stream: it is given successive windows of text
 * and reports which prefix it has finished with, so input of any size is
 * scanned in bounded memory.
 */

#include <stddef.h>

/* A URL longer than this (bytes) is skipped, with a count of how many. */
#define UK_DETECT_MAX_URL 65536

struct uk_detect {
	int skipping;         /* inside an over-long URL, skip to its end */
	unsigned long toolong; /* over-long URLs skipped so far */
};

/* Called for each URL, s[start..end). Return non-zero to stop the scan. */
typedef int (*uk_detect_fn)(void *ctx, const char *s, size_t start,
    size_t end);

/* Set up d for a new stream (no allocation: nothing to release). */
void uk_detect_init(struct uk_detect *d);

/*
 * Scan s[from..len) for URLs; s[0..from) is context already scanned (a
 * caller keeps UK_DETECT_LOOKBACK bytes of it, so the scanner can see what
 * came before a URL).  With final set, s ends the text.  Returns the
 * offset up to which the text is done with: the caller keeps the bytes
 * from there (and the lookback before it) and calls again with more.  A
 * URL is reported once, when all of it is in the window.  Returns
 * (size_t)-1 when fn asked to stop.
 */
#define UK_DETECT_LOOKBACK 16
size_t uk_detect_scan(struct uk_detect *d, const char *s, size_t from,
    size_t len, int final, uk_detect_fn fn, void *ctx);

#endif
