/* SPDX-License-Identifier: MIT */
#ifndef UK_LINKS_H
#define UK_LINKS_H

/*
 * The links of an HTML page, for a crawler: <a href> and <link rel=next>
 * to follow, <link rel=alternate> of a feed's type to read, and the
 * page's <title>.  Parsed with gumbo (after the charset is decided, as
 * lib/extract does), never with regular expressions.
 *
 * Resolved against the page's <base href>, else its URL, with
 * lib/urlref.  What a crawler must not follow is left out: an <a> whose
 * rel has "nofollow", and every link of a page whose <meta name=robots>
 * (or name=urlmap, the agent's own) says "nofollow" or "none".
 */

#include <stddef.h>

struct uk_links {
	char **links;  /* to follow, resolved, in document order (owned) */
	size_t nlinks;
	char **feeds;  /* rel=alternate of an RSS, Atom or JSON Feed type */
	size_t nfeeds;
	char *title;   /* the <title>'s text, trimmed, or NULL */
	int nofollow;  /* the page said nofollow: links is empty */
};

/*
 * Scan html[0..len) (content_type, which may be NULL, for the charset) of
 * the page at url; at most max links are kept (0: no limit).  Fills l,
 * which the caller releases with uk_links_release.  0, or -1 when gumbo
 * cannot parse it.
 */
int uk_links_scan(struct uk_links *l, const char *html, size_t len,
    const char *content_type, const char *url, size_t max);
void uk_links_release(struct uk_links *l);

/*
 * The anchors of a page for its record's links (lib/pagelinks.c): every
 * <a href> and <area href> in document order, nofollow or not, whose URL
 * resolves to http or https.  url is resolved on the <base href>, else
 * on the page's URL; key on the page's URL alone, as the extractor's
 * Markdown writer resolves it, with '(' and ')' as %28 and %29 (what
 * that writer writes).  text is the anchor's text, white space squeezed
 * and cut at UK_LINKS_TEXT_MAX bytes (a UTF-8 boundary), else the alt of
 * an image in it (an <area>'s own), else "".
 */
#define UK_LINKS_TEXT_MAX 300
struct uk_link {
	char *url, *key, *text;
	char *rel;  /* the rel attribute as written, or NULL */
	int block;  /* the anchor holds a block element (a card's link) */
};

/*
 * Fill *v with the anchors of html[0..len) (content_type as for
 * uk_links_scan) and *n with their count; the caller frees them with
 * uk_links_anchors_free.  0, or -1 when gumbo cannot parse the page.
 */
int uk_links_anchors(const char *html, size_t len, const char *content_type,
    const char *url, struct uk_link **v, size_t *n);
void uk_links_anchors_free(struct uk_link *v, size_t n);

/*
 * The URL of the page's Markdown version: the href of its first
 * <link rel="alternate" type="text/markdown"> (or text/x-markdown),
 * resolved as uk_links_scan resolves, newly allocated; NULL when there is
 * none.  Only the head is parsed: html[0..) up to its "</head>" or
 * "<body", at most UK_LINKS_HEAD_MAX bytes.
 */
#define UK_LINKS_HEAD_MAX (256 * 1024)
char *uk_links_markdown_alternate(const char *html, size_t len,
    const char *content_type, const char *url);

/*
 * Append html[0..len) to u as UTF-8, as the page parsers read it: in the
 * charset uk_charset_detect finds (content_type is the Content-Type
 * header, or NULL), as UTF-8 when that charset cannot be converted, and
 * NUL bytes made spaces (gumbo stops at a NUL byte).
 */
struct uk_buf;
void uk_links_to_utf8(const char *html, size_t len, const char *content_type,
    struct uk_buf *u);

#endif
