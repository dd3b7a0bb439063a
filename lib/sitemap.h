/* SPDX-License-Identifier: MIT */
#ifndef UK_SITEMAP_H
#define UK_SITEMAP_H

/*
 * Sitemaps (the sitemaps.org protocol 0.9): a <urlset> of <url> entries
 * or a <sitemapindex> of <sitemap> entries, each with its <loc> and its
 * <lastmod>; gzip-compressed or not; or the plain text form, one URL a
 * line.  XML is parsed with expat as a stream (the file is never held
 * as a tree, and gzip is inflated into the parser a piece at a time),
 * never with regular expressions: <loc> elements of other namespaces
 * (image:loc, video:loc) nested in an entry are not the entry's.
 *
 *	static int
 *	entry(void *ctx, int index, const char *loc, const char *lastmod)
 *	{
 *		... index: loc is a sitemap; lastmod may be NULL ...
 *		return 0; (non-zero stops the parse)
 *	}
 *
 *	r = uk_sitemap_parse(body, len, UK_SITEMAP_TEXT, max, entry, ctx, &err);
 */

#include <expat.h>
#include <stddef.h>

#include "util.h"

/* Called per entry; loc is trimmed and not empty.  Non-zero stops. */
typedef int uk_sitemap_fn(void *ctx, int index, const char *loc,
    const char *lastmod);

/* The plain text form is taken when the data does not start with '<'. */
#define UK_SITEMAP_TEXT 1

/* The longest <loc> or <lastmod> taken; an entry with a longer one is
 * skipped. */
#define UK_SITEMAP_FIELD_MAX 8192

/*
 * Parse data[0..len) (inflated first when it starts with gzip's magic
 * bytes; at most max bytes once inflated, 0 for no limit) and call fn per
 * entry, in document order.  Returns 0 when it was a sitemap (the
 * callback may have stopped it), 1 when it is well-formed XML whose root
 * is not <urlset> or <sitemapindex> (nothing was called back), or -1
 * with err filled (code UK_EXIT_FAIL): not well-formed XML (with the line
 * of the fault), bad gzip, or over max.  Entries before a fault have
 * been called back.
 */
int uk_sitemap_parse(const char *data, size_t len, int flags,
    unsigned long long max, uk_sitemap_fn *fn, void *ctx, struct uk_err *err);

/* Whether data starts with gzip's magic bytes. */
int uk_sitemap_is_gzip(const char *data, size_t len);

/*
 * Feed data[0..len) to an expat parser p (an XML_Parser) in pieces,
 * inflating it when it is gzip, at most max bytes once inflated (0: no
 * limit), until the end or until stop is set by the parser's handlers
 * (they call XML_StopParser).  0, or -1 with err filled as above.  For
 * the other XML readers of urlkit (feeds).
 */
int uk_sitemap_feed_xml(void *p, const char *data, size_t len,
    unsigned long long max, const char *what, struct uk_err *err);

/*
 * Parse data[0..len) as uk_sitemap_feed_xml does, with a new expat parser
 * that reports names as "uri\nlocal" (namespaces) and calls start, end
 * and text with ud; *pp holds the parser while it runs (for the handlers'
 * XML_StopParser) and NULL after.  0, or -1 with err.  For the sitemaps
 * and the feeds.
 */
int uk_sitemap_parse_xml(const char *data, size_t len,
    unsigned long long max, const char *what, XML_StartElementHandler start,
    XML_EndElementHandler end, XML_CharacterDataHandler text, void *ud,
    XML_Parser *pp, struct uk_err *err);
/* The local name of such a parser's name ("uri\nlocal" or "local"). */
const char *uk_sitemap_local(const char *name);

#endif
