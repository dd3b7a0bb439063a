/* SPDX-License-Identifier: MIT */
/*
 * Metadata of a page (see extract.h): candidates gathered from <title>,
 * <h1>, <meta> (name, property, itemprop), JSON-LD, <time> and
 * rel=author while extract.c builds its node array, then chosen by
 * preference.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "json.h"
#include "util.h"

static void
set_once(char **dst, const char *s)
{
	struct uk_buf b = UK_BUF_INIT;
	const unsigned char *p;
	int sp = 0;

	if (*dst || !s)
		return;
	for (p = (const unsigned char *)s; *p; p++) {
		if (isspace(*p)) {
			sp = 1;
			continue;
		}
		if (sp && b.len)
			uk_buf_addch(&b, ' ');
		sp = 0;
		uk_buf_addch(&b, *p);
	}
	if (!b.len) {
		uk_buf_release(&b);
		return;
	}
	*dst = uk_buf_detach(&b, NULL);
}

/* The text of a node's subtree, whitespace collapsed. */
static void
node_text(GumboNode *g, struct uk_buf *b, int depth)
{
	unsigned i;

	if (depth > 64)
		return;
	if (g->type == GUMBO_NODE_TEXT || g->type == GUMBO_NODE_CDATA ||
	    g->type == GUMBO_NODE_WHITESPACE) {
		uk_buf_addstr(b, g->v.text.text);
		return;
	}
	if (g->type != GUMBO_NODE_ELEMENT && g->type != GUMBO_NODE_TEMPLATE)
		return;
	if (g->v.element.tag == GUMBO_TAG_SCRIPT ||
	    g->v.element.tag == GUMBO_TAG_STYLE)
		return;
	for (i = 0; i < g->v.element.children.length; i++) {
		GumboNode *c = g->v.element.children.data[i];

		node_text(c, b, depth + 1);
		if (c->type == GUMBO_NODE_ELEMENT &&
		    !uk_ex_tag_inline(c->v.element.tag))
			uk_buf_addch(b, ' ');
	}
}

static void
set_text_once(char **dst, GumboNode *g)
{
	struct uk_buf b = UK_BUF_INIT;

	if (*dst)
		return;
	node_text(g, &b, 0);
	set_once(dst, b.buf);
	uk_buf_release(&b);
}

/* JSON-LD: the first Article-like object's headline, author, date. */
static void
ld_author(struct ctx *c, yajl_val a)
{
	size_t i;

	if (!a || c->ld_author)
		return;
	if (YAJL_IS_STRING(a))
		set_once(&c->ld_author, YAJL_GET_STRING(a));
	else if (YAJL_IS_OBJECT(a))
		set_once(&c->ld_author, uk_json_get_str(a, "name"));
	else if (YAJL_IS_ARRAY(a)) {
		struct uk_buf b = UK_BUF_INIT;

		for (i = 0; i < a->u.array.len && i < 8; i++) {
			yajl_val e = a->u.array.values[i];
			const char *s = YAJL_IS_STRING(e) ? YAJL_GET_STRING(e) :
			    YAJL_IS_OBJECT(e) ? uk_json_get_str(e, "name") :
						NULL;

			if (!s || !*s)
				continue;
			if (b.len)
				uk_buf_addstr(&b, ", ");
			uk_buf_addstr(&b, s);
		}
		if (b.len)
			set_once(&c->ld_author, b.buf);
		uk_buf_release(&b);
	}
}

static void
ld_walk(struct ctx *c, yajl_val v, int depth)
{
	size_t i;
	yajl_val t;

	if (!v || depth > 8)
		return;
	if (YAJL_IS_ARRAY(v)) {
		for (i = 0; i < v->u.array.len; i++)
			ld_walk(c, v->u.array.values[i], depth + 1);
		return;
	}
	if (!YAJL_IS_OBJECT(v))
		return;
	t = uk_json_get(v, "@graph");
	if (t)
		ld_walk(c, t, depth + 1);
	t = uk_json_get(v, "@type");
	if (t && YAJL_IS_ARRAY(t) && t->u.array.len)
		t = t->u.array.values[0];
	if (!t || !YAJL_IS_STRING(t))
		return;
	{
		const char *ty = YAJL_GET_STRING(t);

		if (!strstr(ty, "Article") && !strstr(ty, "Posting") &&
		    strcmp(ty, "WebPage") && strcmp(ty, "Report") &&
		    strcmp(ty, "Review") && strcmp(ty, "QAPage") &&
		    strcmp(ty, "Recipe") && strcmp(ty, "Product") &&
		    strcmp(ty, "DiscussionForumPosting") &&
		    strcmp(ty, "TechArticle") && strcmp(ty, "Question"))
			return;
	}
	set_once(&c->ld_headline, uk_json_get_str(v, "headline"));
	set_once(&c->ld_desc, uk_json_get_str(v, "description"));
	ld_author(c, uk_json_get(v, "author"));
	set_once(&c->ld_date, uk_json_get_str(v, "datePublished"));
	set_once(&c->ld_date, uk_json_get_str(v, "dateCreated"));
}

static void
ld_json(struct ctx *c, GumboNode *g)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val v;
	unsigned i;

	for (i = 0; i < g->v.element.children.length; i++) {
		GumboNode *t = g->v.element.children.data[i];

		if (t->type == GUMBO_NODE_TEXT || t->type == GUMBO_NODE_CDATA ||
		    t->type == GUMBO_NODE_WHITESPACE)
			uk_buf_addstr(&b, t->v.text.text);
	}
	if (b.len > 1 << 20) {
		uk_buf_release(&b);
		return;
	}
	v = uk_json_parse(b.buf, b.len, NULL);
	if (v) {
		ld_walk(c, v, 0);
		uk_json_free(v);
	}
	uk_buf_release(&b);
}

static void
meta_tag(struct ctx *c, GumboNode *g)
{
	const char *k = uk_ex_attr(g, "property"), *v = uk_ex_attr(g, "content");

	if (!v)
		return;
	if (!k)
		k = uk_ex_attr(g, "name");
	if (!k)
		k = uk_ex_attr(g, "itemprop");
	if (!k)
		return;
	if (!strcasecmp(k, "og:title"))
		set_once(&c->og_title, v);
	else if (!strcasecmp(k, "twitter:title"))
		set_once(&c->tw_title, v);
	else if (!strcasecmp(k, "description"))
		set_once(&c->meta_desc, v);
	else if (!strcasecmp(k, "og:description") ||
	    !strcasecmp(k, "twitter:description"))
		set_once(&c->og_desc, v);
	else if (!strcasecmp(k, "author") || !strcasecmp(k, "dc.creator") ||
	    !strcasecmp(k, "sailthru.author") ||
	    !strcasecmp(k, "parsely-author"))
		set_once(&c->meta_author, v);
	else if (!strcasecmp(k, "article:author") ||
	    !strcasecmp(k, "og:article:author")) {
		if (strncmp(v, "http", 4))
			set_once(&c->art_author, v);
	} else if (!strcasecmp(k, "article:published_time") ||
	    !strcasecmp(k, "og:article:published_time") ||
	    !strcasecmp(k, "datePublished"))
		set_once(&c->art_date, v);
	else if (!strcasecmp(k, "date") || !strcasecmp(k, "dc.date") ||
	    !strcasecmp(k, "dc.date.issued") || !strcasecmp(k, "pubdate") ||
	    !strcasecmp(k, "publish-date") || !strcasecmp(k, "sailthru.date") ||
	    !strcasecmp(k, "parsely-pub-date") ||
	    !strcasecmp(k, "citation_publication_date"))
		set_once(&c->meta_date, v);
}

/* Collect metadata from element g. */
void
uk_ex_metadata(struct ctx *c, GumboNode *g, int tag)
{
	const char *s;

	switch (tag) {
	case GUMBO_TAG_TITLE:
		set_text_once(&c->title, g);
		break;
	case GUMBO_TAG_META:
		meta_tag(c, g);
		break;
	case GUMBO_TAG_SCRIPT:
		s = uk_ex_attr(g, "type");
		if (s && !strcasecmp(s, "application/ld+json"))
			ld_json(c, g);
		break;
	case GUMBO_TAG_H1:
		set_text_once(&c->h1, g);
		break;
	case GUMBO_TAG_TIME:
		set_once(&c->time_date, uk_ex_attr(g, "datetime"));
		break;
	case GUMBO_TAG_A:
	case GUMBO_TAG_LINK:
		s = uk_ex_attr(g, "rel");
		if (s && uk_ex_has_word(s, "author") && tag == GUMBO_TAG_A)
			set_text_once(&c->rel_author, g);
		break;
	default:
		break;
	}
}


/* Trim a site name from a <title>: "Story - Site" gives "Story". */
static char *
clean_title(const char *t, const char *h1)
{
	static const char *const seps[] = { " | ", " - ", " \xe2\x80\x93 ",
		" \xe2\x80\x94 ", " :: ", " \xc2\xbb ", " / ", " \xc2\xb7 ",
		NULL };
	const char *cut = NULL;
	int k;

	if (h1 && !strcmp(t, h1))
		return uk_xstrdup(t);
	for (k = 0; seps[k]; k++) {
		const char *p = t, *q, *last = NULL;

		while ((q = strstr(p, seps[k]))) {
			last = q;
			p = q + 1;
		}
		if (last && (!cut || last > cut))
			cut = last;
	}
	if (cut) {
		/* Keep the part before the last separator if it says enough. */
		const char *p;
		int words = 1;

		for (p = t; p < cut; p++)
			if (*p == ' ')
				words++;
		if (words >= 2 || (h1 && !strncmp(t, h1, (size_t)(cut - t))))
			return uk_xmemdup(t, (size_t)(cut - t));
	}
	return uk_xstrdup(t);
}

void
uk_ex_finish_metadata(struct ctx *c)
{
	struct uk_extract *x = c->x;

	if (c->og_title)
		x->title = uk_xstrdup(c->og_title);
	else if (c->title)
		x->title = clean_title(c->title, c->h1);
	else if (c->ld_headline)
		x->title = uk_xstrdup(c->ld_headline);
	else if (c->tw_title)
		x->title = uk_xstrdup(c->tw_title);
	else if (c->h1)
		x->title = uk_xstrdup(c->h1);
	if (c->meta_desc)
		x->description = uk_xstrdup(c->meta_desc);
	else if (c->og_desc)
		x->description = uk_xstrdup(c->og_desc);
	else if (c->ld_desc)
		x->description = uk_xstrdup(c->ld_desc);
	if (c->meta_author)
		x->author = uk_xstrdup(c->meta_author);
	else if (c->art_author)
		x->author = uk_xstrdup(c->art_author);
	else if (c->ld_author)
		x->author = uk_xstrdup(c->ld_author);
	else if (c->rel_author)
		x->author = uk_xstrdup(c->rel_author);
	if (c->art_date)
		x->date = uk_xstrdup(c->art_date);
	else if (c->ld_date)
		x->date = uk_xstrdup(c->ld_date);
	else if (c->time_date)
		x->date = uk_xstrdup(c->time_date);
	else if (c->meta_date)
		x->date = uk_xstrdup(c->meta_date);
}
void
uk_ex_metadata_release(struct ctx *c)
{
	free(c->og_title);
	free(c->title);
	free(c->h1);
	free(c->tw_title);
	free(c->meta_desc);
	free(c->og_desc);
	free(c->ld_desc);
	free(c->meta_author);
	free(c->art_author);
	free(c->ld_author);
	free(c->rel_author);
	free(c->art_date);
	free(c->ld_date);
	free(c->time_date);
	free(c->meta_date);
	free(c->ld_headline);
}
