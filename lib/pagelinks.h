/* SPDX-License-Identifier: MIT */
#ifndef UK_PAGELINKS_H
#define UK_PAGELINKS_H

/*
 * A content record's links, as data (--links-out of urlfetch, urlextract
 * and pwfetch): "links": [{"url", "text", "rel", "in_content"}] in page
 * order, and "links_truncated": true when more were cut than max.
 *
 *  - url: absolute http or https, resolved on the page's <base href>,
 *    else on its URL (lib/links.c); other schemes (mailto:, javascript:)
 *    are left out, and so are links to a place in the page itself (its
 *    URL but for the #fragment: a table of contents).
 *  - Deduplicated on url: the first place a URL is linked from keeps it
 *    in the list; its text is the first non-empty text of its anchors;
 *    rel (null when absent) is its first anchor's.
 *  - in_content: whether one of its anchors is in the main text the
 *    extractor chose.  That is read from the extractor itself: the links
 *    its Markdown writer writes when it writes the chosen nodes with
 *    links (x's own text when the run is -f markdown --links, else a
 *    second extraction of the page in that format).  An anchor around
 *    blocks (a card's link) is written by that writer as text without
 *    the link, so such an anchor is in the content when the start of its
 *    text is there.  Navigation, footers and the rest the extractor
 *    left out are listed with in_content false.
 *
 * A Markdown source (a page the site served as Markdown) has the links
 * of its Markdown text, all in its content.  A PDF has none here: lib/pdf
 * reads its text, not its link annotations, and the record has
 * "links": [].
 */

#include <stddef.h>

#include "extract.h"

/* Links kept when the option does not say (--links-max). */
#define UK_PAGELINKS_MAX 500

/*
 * Set rec's links (rec a yajl object: void * so that this header needs
 * no yajl) from the HTML page html[0..len) (content_type may be NULL) at
 * url, extracted with o into x; at most o->links_max (0: the default).
 */
void uk_pagelinks_html(void *rec, const char *html, size_t len,
    const char *content_type, const char *url,
    const struct uk_extract_opts *o, const struct uk_extract *x);

/* The same from Markdown text md[0..len) at url: all in the content. */
void uk_pagelinks_markdown(void *rec, const char *md, size_t len,
    const char *url, const struct uk_extract_opts *o);

/* No links (a PDF): "links": []. */
void uk_pagelinks_none(void *rec);

#endif
