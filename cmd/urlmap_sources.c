/* SPDX-License-Identifier: MIT */
/*
 * urlmap's sources for a start URL: its sitemaps (and sitemap indexes),
 * its feeds, its /llms.txt, and a start URL that is one of them.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "date.h"
#include "feed.h"
#include "http.h"
#include "llmstxt.h"
#include "sitemap.h"
#include "strset.h"
#include "urlref.h"
#include "util.h"
#include "urlmap.h"

#include "banned.h"

/* ---- sitemaps ---------------------------------------------------------- */

void
smq_add(struct smq *q, const char *url, long level, int probe)
{
	if (q->n >= MAX_SITEMAPS || level > MAX_SITEMAP_LEVEL ||
	    !uk_strset_add(&q->names, url, strlen(url)))
		return;
	q->url = uk_util_xrealloc(q->url, (q->n + 1) * sizeof(*q->url));
	q->level = uk_util_xrealloc(q->level, (q->n + 1) * sizeof(*q->level));
	q->probe = uk_util_xrealloc(q->probe, (q->n + 1) * sizeof(*q->probe));
	q->url[q->n] = uk_util_xstrdup(url);
	q->level[q->n] = level;
	q->probe[q->n] = probe;
	q->n++;
}

void
smq_release(struct smq *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		free(q->url[i]);
	free(q->url);
	free(q->level);
	free(q->probe);
	uk_strset_release(&q->names);
}

struct smctx {
	struct smq *q;
	const char *url; /* the sitemap read */
	long level;
};

static int
sitemap_entry(void *arg, int index, const char *loc, const char *lastmod)
{
	struct smctx *c = arg;
	long long t;
	char *n;

	if (index) {
		char *abs = uk_urlref_resolve(c->url, loc);

		/* A child sitemap older than --since holds nothing newer. */
		if (abs && !(opt.have_since && lastmod &&
		    uk_date_parse(lastmod, &t) == 0 && t < opt.since))
			smq_add(c->q, abs, c->level + 1, 0);
		free(abs);
		return 0;
	}
	if (!(n = filter(c->url, loc)))
		return stopped();
	if (emit(n, "sitemap", c->level, c->url, lastmod, NULL) < 0) {
		free(n);
		return 1;
	}
	free(n);
	return 0;
}

/* Read the sitemaps in q, breadth first (indexes add to it). */
void
sitemaps(struct smq *q)
{
	struct uk_http_req r;
	struct uk_err err;
	struct smctx c;
	int rc;

	for (; q->head < q->n && !stopped(); q->head++) {
		const char *url = q->url[q->head];
		int probe = q->probe[q->head];

		rc = fetch(url, &r);
		if (rc || r.status != 200) {
			if (!probe || rc < 0)
				fetch_error(url, "sitemap", rc, &r);
			uk_http_req_release(&r);
			continue;
		}
		c.q = q;
		c.url = r.final_url ? r.final_url : url;
		c.level = q->level[q->head];
		rc = uk_sitemap_parse(r.body.buf, r.body.len,
		    UK_SITEMAP_TEXT, max_doc, sitemap_entry, &c, &err);
		if (rc < 0)
			fail(url, "sitemap", "%s", err.msg);
		else if (rc == 1 && !probe)
			fail(url, "sitemap", "not a sitemap");
		uk_http_req_release(&r);
	}
}

/* ---- feeds and llms.txt ------------------------------------------------- */

struct fctx {
	const char *url;
	const char *via;
};

static int
feed_entry(void *arg, const char *link, const char *title, const char *date)
{
	struct fctx *c = arg;
	char *n;
	int r;

	if (!(n = filter(c->url, link)))
		return stopped();
	r = emit(n, c->via, 1, c->url, date, title);
	free(n);
	return r < 0;
}

static int
llms_entry(void *arg, const char *link, const char *title)
{
	return feed_entry(arg, link, title, NULL);
}

/* Read the feed at url (named: any failure is an error record). */
void
feed(const char *url)
{
	struct uk_http_req r;
	struct uk_err err;
	struct fctx c;
	int rc;

	if ((rc = fetch(url, &r)) || r.status != 200) {
		fetch_error(url, "feed", rc, &r);
		uk_http_req_release(&r);
		return;
	}
	c.url = r.final_url ? r.final_url : url;
	c.via = "feed";
	rc = uk_feed_parse(r.body.buf, r.body.len, max_doc, feed_entry, &c,
	    &err);
	if (rc < 0)
		fail(url, "feed", "%s", err.msg);
	else if (rc == 1)
		fail(url, "feed", "not an RSS, Atom or JSON feed");
	uk_http_req_release(&r);
}

/* Whether a Content-Type is HTML (a soft 404 page, for a text file). */
int
is_html(const char *ct)
{
	return ct && (strncasecmp(ct, "text/html", 9) == 0 ||
	    strncasecmp(ct, "application/xhtml", 17) == 0);
}

/* Read origin's /llms.txt; its absence is no error. */
void
llms(const char *origin)
{
	struct uk_http_req r;
	struct uk_buf u = UK_BUF_INIT;
	struct fctx c;

	uk_buf_addf(&u, "%s/llms.txt", origin);
	if (fetch(u.buf, &r) == 0 && r.status == 200 &&
	    !is_html(r.content_type)) {
		c.url = r.final_url ? r.final_url : u.buf;
		c.via = "llms.txt";
		uk_llmstxt_links(r.body.buf, r.body.len, llms_entry, &c);
	}
	uk_http_req_release(&r);
	uk_buf_release(&u);
}

/* ---- a start URL that is no page ----------------------------------------- */

int
start_direct(const char *url, struct uk_http_req *r)
{
	struct uk_err err;
	struct smq q;
	struct fctx c;
	int rc;

	if (is_html(r->content_type))
		return 0;
	memset(&q, 0, sizeof(q));
	/* A sitemap given directly: its entries, and its children's. */
	smq_add(&q, url, 1, 0);
	if (uk_sitemap_parse(r->body.buf, r->body.len, 0, max_doc,
	    sitemap_entry, &(struct smctx){ &q, url, 1 }, &err) == 0) {
		q.head = 1;
		sitemaps(&q);
		smq_release(&q);
		return 1;
	}
	smq_release(&q);
	c.url = url;
	c.via = "feed";
	rc = uk_feed_parse(r->body.buf, r->body.len, max_doc, feed_entry, &c,
	    &err);
	if (rc == 0)
		return 1;
	if (rc < 0) {
		fail(url, NULL, "%s", err.msg);
		return 1;
	}
	if (r->content_type &&
	    (strncasecmp(r->content_type, "text/plain", 10) == 0 ||
	    strncasecmp(r->content_type, "text/markdown", 13) == 0)) {
		c.via = "llms.txt";
		uk_llmstxt_links(r->body.buf, r->body.len, llms_entry, &c);
		return 1;
	}
	return 0;
}

