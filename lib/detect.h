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
 * With bare set (uk_detect_bare), the scanner also finds URLs typed
 * without a scheme: "github.com/user/repo", "www.example.org/x",
 * "docs.python.org/3/", "//cdn.example.com/x.js".  Such a URL starts after
 * whitespace, the start of the text, one of ( [ { < > " ' * , ; | ` or a
 * Unicode space or punctuation; it is a host of two labels or more, then
 * an optional :port and path that end as a URL's does.  The host's last
 * label must be a top-level domain of the Public Suffix List, or the host
 * an IPv4 address; after "//" any plausible host with a dot goes.  A host
 * followed by '@' (an e-mail address) or by a character a host name
 * cannot end at ('_', '=', '(', ...) is not one.  A host with neither a
 * path that starts with '/' nor a port must also look like one typed
 * alone: a TLD of a short list (com, org, net, io, dev, ...), a non-ASCII
 * TLD, a country code after two labels (bbc.co.uk, not setup.py or
 * README.md), or "www." first; letters of one case after the first; not
 * an IPv4 address.  d->bare_hit tells fn which kind it was given.
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
	int bare;             /* also find URLs without a scheme */
	int bare_hit;         /* in fn: the URL has no scheme */
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

/*
 * Also find URLs without a scheme in d's scans (after uk_detect_init).
 * The first call reads the Public Suffix List: UK_DETECT_PSL, or the file
 * the URLKIT_PSL environment variable names; when it cannot be read, a
 * built-in list of common top-level domains.
 */
#define UK_DETECT_PSL "/usr/share/publicsuffix/public_suffix_list.dat"
void uk_detect_bare(struct uk_detect *d);

/* Whether s[0..n) (any ASCII case) is a top-level domain uk_detect_bare
 * knows; 0 until uk_detect_bare was called once. */
int uk_detect_tld_ok(const char *s, size_t n);

/* How many top-level domains were read, and from where ("built-in"). */
size_t uk_detect_tld_count(const char **from);

#endif
