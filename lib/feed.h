/* SPDX-License-Identifier: MIT */
#ifndef UK_FEED_H
#define UK_FEED_H

/*
 * The entries of a feed: RSS 2.0 (and RSS 1.0, RDF), Atom, or JSON Feed,
 * told apart by what the data is (its root element, or a JSON object with
 * "version" and "items"), never by the URL or the Content-Type.  XML is
 * parsed with expat as a stream (lib/sitemap.h's reader, gzip included);
 * JSON with yajl.
 *
 * For each entry: its link (RSS <link>, Atom's <link> with rel
 * "alternate" or no rel, JSON Feed's "url", else "external_url"), as
 * written (relative links are the caller's to resolve), its title and
 * its date (RSS <pubDate> or dc:date, Atom <updated> then <published>,
 * JSON Feed "date_modified" then "date_published"), as written.
 */

#include <stddef.h>

#include "util.h"

/* Called per entry with a link; title and date may be NULL. */
typedef int uk_feed_fn(void *ctx, const char *link, const char *title,
    const char *date);

/* The longest title or link taken (a longer title is cut, a longer link
 * skips its entry). */
#define UK_FEED_FIELD_MAX 8192

/*
 * Parse data[0..len) (at most max bytes, inflated when gzip; 0: no
 * limit) and call fn per entry with a link, in document order; a
 * non-zero return stops.  Returns 0 when it was a feed, 1 when it is not
 * one (nothing called back), or -1 with err filled (code UK_EXIT_FAIL):
 * not well-formed XML with the line of the fault, bad JSON, over max.
 */
int uk_feed_parse(const char *data, size_t len, unsigned long long max,
    uk_feed_fn *fn, void *ctx, struct uk_err *err);

#endif
