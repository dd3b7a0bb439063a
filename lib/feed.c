/* SPDX-License-Identifier: MIT */
/* Feeds: RSS and Atom through expat, JSON Feed through yajl. */
#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "feed.h"
#include "json.h"
#include "sitemap.h"
#include "util.h"
#include "banned.h"

enum { F_NONE, F_LINK, F_TITLE, F_DATE, F_UPDATED };

struct fp {
	XML_Parser p;
	uk_feed_fn *fn;
	void *ctx;
	int depth;
	int root;        /* 0: not seen, 1: RSS, 2: Atom, -1: neither */
	int item_depth;  /* depth of the open item or entry, 0: none */
	int field, field_depth;
	struct uk_buf link, title, date, updated;
	int link_set;    /* Atom: the entry's link was taken */
	int toolong;
};

static const char *
attr(const XML_Char **atts, const char *name)
{
	for (; atts && atts[0]; atts += 2)
		if (strcmp(uk_sitemap_local(atts[0]), name) == 0)
			return atts[1];
	return NULL;
}

static void XMLCALL
f_start(void *arg, const XML_Char *name, const XML_Char **atts)
{
	struct fp *f = arg;
	const char *l = uk_sitemap_local(name), *rel, *href;

	f->depth++;
	if (f->depth == 1) {
		f->root = strcmp(l, "rss") == 0 || strcmp(l, "RDF") == 0 ? 1 :
		    strcmp(l, "feed") == 0 ? 2 : -1;
		if (f->root < 0)
			XML_StopParser(f->p, XML_FALSE);
		return;
	}
	if (!f->item_depth) {
		if ((f->root == 1 && strcmp(l, "item") == 0) ||
		    (f->root == 2 && strcmp(l, "entry") == 0)) {
			f->item_depth = f->depth;
			f->link.len = f->title.len = 0;
			f->date.len = f->updated.len = 0;
			f->link_set = f->toolong = 0;
		}
		return;
	}
	if (f->depth != f->item_depth + 1)
		return;
	if (strcmp(l, "link") == 0) {
		if (f->root == 1) {
			f->field = F_LINK;
		} else if (!f->link_set) {
			rel = attr(atts, "rel");
			href = attr(atts, "href");
			if (href && (!rel || strcmp(rel, "alternate") == 0)) {
				if (strlen(href) > UK_FEED_FIELD_MAX)
					f->toolong = 1;
				else
					uk_buf_addstr(&f->link, href);
				f->link_set = 1;
			}
		}
	} else if (strcmp(l, "title") == 0) {
		f->field = F_TITLE;
	} else if (strcmp(l, "pubDate") == 0 || strcmp(l, "date") == 0 ||
	    strcmp(l, "published") == 0) {
		f->field = F_DATE;
	} else if (strcmp(l, "updated") == 0) {
		f->field = F_UPDATED;
	}
	if (f->field)
		f->field_depth = f->depth;
}

static void XMLCALL
f_end(void *arg, const XML_Char *name)
{
	struct fp *f = arg;
	struct uk_buf *date;

	(void)name;
	if (f->field && f->depth == f->field_depth)
		f->field = 0;
	if (f->item_depth && f->depth == f->item_depth) {
		uk_buf_trim(&f->link);
		uk_buf_trim(&f->title);
		uk_buf_trim(&f->date);
		uk_buf_trim(&f->updated);
		date = f->updated.len ? &f->updated : &f->date;
		if (f->link.len && !f->toolong &&
		    f->fn(f->ctx, f->link.buf,
		    f->title.len ? f->title.buf : NULL,
		    date->len ? date->buf : NULL))
			XML_StopParser(f->p, XML_FALSE);
		f->item_depth = 0;
	}
	f->depth--;
}

static void XMLCALL
f_text(void *arg, const XML_Char *t, int n)
{
	struct fp *f = arg;
	struct uk_buf *b;
	size_t room;

	switch (f->field) {
	case F_LINK:
		b = &f->link;
		break;
	case F_TITLE:
		b = &f->title;
		break;
	case F_DATE:
		b = &f->date;
		break;
	case F_UPDATED:
		b = &f->updated;
		break;
	default:
		return;
	}
	room = UK_FEED_FIELD_MAX - (b->len < UK_FEED_FIELD_MAX ? b->len :
	    UK_FEED_FIELD_MAX);
	if ((size_t)n > room) {
		if (f->field == F_LINK)
			f->toolong = 1;
		n = (int)uk_buf_utf8_cut(t, room);
	}
	uk_buf_add(b, t, (size_t)n);
}

static int
xml_feed(const char *data, size_t len, unsigned long long max,
    uk_feed_fn *fn, void *ctx, struct uk_err *err)
{
	struct fp f;
	int r;

	memset(&f, 0, sizeof(f));
	uk_buf_init(&f.link, 0);
	uk_buf_init(&f.title, 0);
	uk_buf_init(&f.date, 0);
	uk_buf_init(&f.updated, 0);
	f.fn = fn;
	f.ctx = ctx;
	r = uk_sitemap_parse_xml(data, len, max, "feed", f_start, f_end,
	    f_text, &f, &f.p, err);
	uk_buf_release(&f.link);
	uk_buf_release(&f.title);
	uk_buf_release(&f.date);
	uk_buf_release(&f.updated);
	if (r < 0)
		return -1;
	return f.root > 0 ? 0 : 1;
}

static const char *
str_or(yajl_val o, const char *a, const char *b)
{
	const char *s = uk_json_get_str(o, a);

	return s && *s ? s : b ? uk_json_get_str(o, b) : NULL;
}

static int
json_feed(const char *data, size_t len, uk_feed_fn *fn, void *ctx,
    struct uk_err *err)
{
	yajl_val v, items;
	const char *link;
	struct uk_err e;
	size_t i;

	if (!(v = uk_json_parse(data, len, &e)))
		return uk_util_err_set(err, UK_EXIT_FAIL, "feed: %s", e.msg);
	items = uk_json_get(v, "items");
	if (!YAJL_IS_OBJECT(v) || !uk_json_get_str(v, "version") ||
	    !YAJL_IS_ARRAY(items)) {
		uk_json_free(v);
		return 1;
	}
	for (i = 0; i < items->u.array.len; i++) {
		yajl_val it = items->u.array.values[i];

		if (!YAJL_IS_OBJECT(it) ||
		    !(link = str_or(it, "url", "external_url")) ||
		    strlen(link) > UK_FEED_FIELD_MAX)
			continue;
		if (fn(ctx, link, uk_json_get_str(it, "title"),
		    str_or(it, "date_modified", "date_published")))
			break;
	}
	uk_json_free(v);
	return 0;
}

int
uk_feed_parse(const char *data, size_t len, unsigned long long max,
    uk_feed_fn *fn, void *ctx, struct uk_err *err)
{
	size_t i = 0;

	if (!uk_sitemap_is_gzip(data, len)) {
		if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
			i = 3;
		while (i < len && (data[i] == ' ' || data[i] == '\t' ||
		    data[i] == '\n' || data[i] == '\r'))
			i++;
		if (i < len && data[i] == '{') {
			if (max && len > max)
				return uk_util_err_set(err, UK_EXIT_FAIL,
				    "feed: over %llu bytes", max);
			return json_feed(data + i, len - i, fn, ctx, err);
		}
		if (i == len || data[i] != '<')
			return 1;
	}
	return xml_feed(data, len, max, fn, ctx, err);
}
