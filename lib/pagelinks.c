/* SPDX-License-Identifier: MIT */
/* A content record's links as data: see pagelinks.h. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract.h"
#include "extract_int.h" /* uk_ex_shrink */
#include "json.h"
#include "links.h"
#include "llmstxt.h"
#include "pagelinks.h"
#include "strset.h"
#include "urlref.h"
#include "util.h"
#include "banned.h"

/* What an anchor's text start must hold to be looked for (bytes). */
#define CARD_PROBE 40

struct content {
	struct uk_strset keys; /* the URLs the Markdown writer wrote */
	struct uk_buf flat;    /* its text, squeezed, without backslashes */
};

static int
add_key(void *ctx, const char *url, const char *title)
{
	struct content *c = ctx;

	(void)title;
	uk_strset_add(&c->keys, url, strlen(url));
	return 0;
}

/* s[0..n) into b, runs of white space as one space, '\' left out. */
static void
flatten(struct uk_buf *b, const char *s, size_t n)
{
	size_t i;
	int sp = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r') {
			sp = 1;
			continue;
		}
		if (s[i] == '\\')
			continue;
		if (sp && b->len)
			uk_buf_addch(b, ' ');
		sp = 0;
		uk_buf_addch(b, s[i]);
	}
}

/*
 * What the extractor's chosen nodes link to: the links of its Markdown
 * text with links (x's when o asked for that, else a second extraction
 * in that format with o's selection options).
 */
static void
content_of(struct content *c, const char *html, size_t len,
    const char *content_type, const char *url,
    const struct uk_extract_opts *o, const struct uk_extract *x)
{
	struct uk_extract_opts mo = *o;
	struct uk_extract mx;
	struct uk_err err;
	const char *text = NULL;

	memset(&mx, 0, sizeof(mx));
	if (o->format == UK_EXTRACT_MARKDOWN && o->links)
		text = x->text;
	else {
		mo.format = UK_EXTRACT_MARKDOWN;
		mo.links = 1;
		mo.images = 0;
		mo.comments = 0;
		mo.explain = 0;
		if (!uk_extract_html(html, len, content_type, url, &mo, &mx,
		    &err))
			text = mx.text;
	}
	if (text) {
		uk_llmstxt_links(text, strlen(text), add_key, c);
		flatten(&c->flat, text, strlen(text));
	}
	uk_extract_release(&mx);
}

/* Whether u and page are one document but for u's #fragment. */
static int
same_page(const char *u, const char *page)
{
	size_t a, b;

	if (!page)
		return 0;
	a = strcspn(u, "#");
	b = strcspn(page, "#");
	return u[a] == '#' && a == b && !strncmp(u, page, a);
}

/* An anchor's place, sorted by URL, then place. */
struct place {
	const char *url;
	size_t i;
};

static int
by_url(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	int r = strcmp(x->url, y->url);

	if (r)
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * rec's "links" from the anchors v[0..n), in[k] whether anchor k is in
 * the content; at most max (0: the default).
 */
static void
emit(void *rec, struct uk_link *v, size_t n, const unsigned char *in,
    const char *url, long max)
{
	yajl_val arr = uk_json_array(), o;
	struct place *ix = NULL;
	size_t *first = NULL, i, j, k, kept = 0, a, b;
	unsigned char *any = NULL;

	if (max <= 0)
		max = UK_PAGELINKS_MAX;
	if (n) {
		/* Group the anchors of one URL: each points at the first. */
		ix = uk_util_xcalloc(n, sizeof(*ix));
		first = uk_util_xcalloc(n, sizeof(*first));
		any = uk_util_xcalloc(n, 1);
		for (i = 0; i < n; i++) {
			ix[i].url = v[i].url;
			ix[i].i = i;
		}
		qsort(ix, n, sizeof(*ix), by_url);
		for (i = 0; i < n; i = j) {
			a = ix[i].i;
			for (j = i; j < n && !strcmp(ix[j].url, ix[i].url);
			    j++) {
				b = ix[j].i;
				first[b] = a;
				any[a] |= in[b];
				if (!*v[a].text && *v[b].text) {
					/* The first non-empty text. */
					free(v[a].text);
					v[a].text = v[b].text;
					v[b].text = uk_util_xstrdup("");
				}
			}
		}
	}
	for (k = 0; k < n; k++) {
		if (first[k] != k || same_page(v[k].url, url))
			continue;
		if (kept == (size_t)max) {
			uk_json_set_bool(rec, "links_truncated", 1);
			break;
		}
		o = uk_json_object();
		uk_json_set_str(o, "url", v[k].url);
		uk_json_set_str(o, "text", v[k].text);
		uk_json_set(o, "rel", uk_json_str_or_null(v[k].rel));
		uk_json_set_bool(o, "in_content", any[k]);
		uk_json_push(arr, o);
		kept++;
	}
	uk_json_set(rec, "links", arr);
	free(ix);
	free(first);
	free(any);
}

/* Whether a card's anchor (blocks in it) is in the content c. */
static int
card_in(const struct content *c, const char *text)
{
	size_t n = strlen(text);

	if (!n || !c->flat.len)
		return 0;
	if (n > CARD_PROBE)
		n = uk_buf_utf8_cut(text, CARD_PROBE);
	return memmem(c->flat.buf, c->flat.len, text, n) != NULL;
}

void
uk_pagelinks_html(void *rec, const char *html, size_t len,
    const char *content_type, const char *url,
    const struct uk_extract_opts *o, const struct uk_extract *x)
{
	struct content c = { UK_STRSET_INIT, UK_BUF_INIT };
	struct uk_buf u = UK_BUF_INIT;
	struct uk_link *v;
	unsigned char *in;
	size_t n, k;
	int r;

	/*
	 * The page as the extractor parses it: in UTF-8, then shrunk as
	 * extraction shrinks it (comments, scripts' and styles' bodies and
	 * the attributes it does not read go; href, rel and alt stay).
	 * Gumbo on the shrunk page takes a third of the time it takes on
	 * the page as served.
	 */
	uk_links_to_utf8(html, len, content_type, &u);
	u.len = uk_ex_shrink(u.buf, u.len, 0);
	r = uk_links_anchors(u.buf, u.len, "text/html; charset=utf-8", url,
	    &v, &n);
	uk_buf_release(&u);
	if (r < 0) {
		uk_pagelinks_none(rec);
		return;
	}
	in = uk_util_xcalloc(n ? n : 1, 1);
	if (n)
		content_of(&c, html, len, content_type, url, o, x);
	for (k = 0; k < n; k++)
		in[k] = v[k].block ? card_in(&c, v[k].text) :
		    uk_strset_has(&c.keys, v[k].key, strlen(v[k].key));
	emit(rec, v, n, in, url, o->links_max);
	free(in);
	uk_links_anchors_free(v, n);
	uk_strset_release(&c.keys);
	uk_buf_release(&c.flat);
}

struct mdlinks {
	struct uk_link *v;
	size_t n, cap;
	const char *base;
};

static int
add_md(void *ctx, const char *ref, const char *title)
{
	struct mdlinks *m = ctx;
	struct uk_link *l;
	char *u = uk_urlref_resolve(m->base, ref);

	if (!u || (strncasecmp(u, "http://", 7) &&
	    strncasecmp(u, "https://", 8))) {
		free(u);
		return 0;
	}
	if (m->n == m->cap)
		m->v = uk_util_xrealloc(m->v,
		    (m->cap = m->cap ? m->cap * 2 : 64) * sizeof(*m->v));
	l = &m->v[m->n++];
	memset(l, 0, sizeof(*l));
	l->url = u;
	l->text = uk_util_xmemdup(title,
	    uk_buf_utf8_cut(title, strnlen(title, UK_LINKS_TEXT_MAX)));
	return 0;
}

void
uk_pagelinks_markdown(void *rec, const char *md, size_t len,
    const char *url, const struct uk_extract_opts *o)
{
	struct mdlinks m = { NULL, 0, 0, url };
	unsigned char *in;

	uk_llmstxt_links(md, len, add_md, &m);
	in = uk_util_xcalloc(m.n ? m.n : 1, 1);
	memset(in, 1, m.n);
	emit(rec, m.v, m.n, in, url, o->links_max);
	free(in);
	uk_links_anchors_free(m.v, m.n);
}

void
uk_pagelinks_none(void *rec)
{
	uk_json_set(rec, "links", uk_json_array());
}
