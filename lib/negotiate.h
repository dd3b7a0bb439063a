/* SPDX-License-Identifier: MIT */
#ifndef UK_NEGOTIATE_H
#define UK_NEGOTIATE_H

/*
 * Markdown the site already has (urlfetch's web and documentation
 * pages; lib/fetch.c drives the requests, this module reads what they
 * bring):
 *
 *   1. The page is asked for with UK_NEGOTIATE_ACCEPT.  A text/markdown
 *      answer is the text ("source": "markdown"), unless its start is an
 *      HTML document's: then it is refused and read as the HTML it is.
 *   2. An HTML page's <link rel="alternate" type="text/markdown" href>
 *      (lib/links.c's uk_links_markdown_alternate) of the same origin is
 *      fetched instead ("source": "markdown").
 *   3. Else, for a documentation page, the site's /llms.txt, asked once
 *      per origin in a run (its state kept here), that lists this page's Markdown version (the
 *      page's URL and ".md"; index.html.md or index.md for a directory;
 *      the name without .html and ".md") of the same origin: that is
 *      fetched ("source": "llms.txt").
 *
 * The Markdown record: front matter (a first line "---" to a line
 * "---" or "...") gives title, description, author and date and is not
 * in the content; without a title there, the first "# " heading's
 * text is the title.  The content is the Markdown as served, "format":
 * "markdown" whatever -f asked for.
 */

#include <stddef.h>
#include <yajl/yajl_tree.h>

#include "extract.h"
#include "strset.h"

#define UK_NEGOTIATE_ACCEPT \
	"Accept: text/markdown, text/html;q=0.9, */*;q=0.8"

/* Whether buf[0..len) starts as an HTML document does (past white space
 * and a byte order mark): <!doctype html, <html, <head or <body. */
int uk_negotiate_is_html_doc(const char *buf, size_t len);

/*
 * Fill rec (a content record) from the Markdown body[0..len) served with
 * content_type (its charset, else UTF-8) at url: title, description,
 * author, date (null when absent), content, "format": "markdown",
 * "source": source; with o->links_out, its links (lib/pagelinks.h).
 */
void uk_negotiate_markdown_record(yajl_val rec, const char *body, size_t len,
    const char *content_type, const char *url, const char *source,
    const struct uk_extract_opts *o);

/* Whether URLs a and b have one scheme, host and port (without case). */
int uk_negotiate_same_origin(const char *a, const char *b);

/* What a run knows of an origin's /llms.txt. */
enum {
	UK_SITE_UNKNOWN,  /* not asked yet */
	UK_SITE_FETCHING, /* asked; pages wait for it */
	UK_SITE_ABSENT,   /* none, or not one */
	UK_SITE_PRESENT   /* read: md holds the Markdown URLs it lists */
};

struct uk_negotiate_site {
	char *origin; /* "scheme://host[:port]" */
	int state;
	struct uk_strset md; /* listed URLs of the origin, fragment cut */
	void *waiters, *waiters_last; /* the fetcher's (lib/fetch.c) */
	struct uk_negotiate_site *next;
};

/*
 * The site of url's origin in the list *sites (added, UNKNOWN, when new),
 * or NULL when url has no http(s) origin.  The list keeps the newest
 * UK_NEGOTIATE_SITES_MAX sites and those being fetched: a server that
 * keeps its fetcher (urlserve) asks an old site again, and its memory
 * stays bounded.
 */
#define UK_NEGOTIATE_SITES_MAX 1024
struct uk_negotiate_site *uk_negotiate_site(struct uk_negotiate_site **sites,
    const char *url);
/* Read llms.txt text[0..len), got from llms_url, into s: PRESENT. */
void uk_negotiate_site_read(struct uk_negotiate_site *s, const char *text,
    size_t len, const char *llms_url);
/* The Markdown URL s lists for the page at url (newly allocated), or NULL. */
char *uk_negotiate_site_md(const struct uk_negotiate_site *s, const char *url);
void uk_negotiate_sites_free(struct uk_negotiate_site *sites);

#endif
