/* SPDX-License-Identifier: MIT */
/* The links of an HTML page, through gumbo. */
#include <gumbo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "charset.h"
#include "links.h"
#include "urlref.h"
#include "util.h"
#include "banned.h"

/* Whether the space-separated list s has word w (without case). */
static int
has_word(const char *s, const char *w)
{
	size_t n = strlen(w), k;

	while (s && *s) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == ',')
			s++;
		for (k = 0; s[k] && s[k] != ' ' && s[k] != '\t' &&
		    s[k] != '\n' && s[k] != ','; k++)
			;
		if (k == n && strncasecmp(s, w, n) == 0)
			return 1;
		s += k;
	}
	return 0;
}

static const char *
attr(GumboNode *n, const char *name)
{
	GumboAttribute *a = gumbo_get_attribute(&n->v.element.attributes,
	    name);

	return a ? a->value : NULL;
}

static void
push(char ***v, size_t *n, char *s)
{
	*v = uk_util_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* Whether a feed's MIME type: RSS, Atom or JSON Feed. */
static int
feed_type(const char *t)
{
	return t && (strcasecmp(t, "application/rss+xml") == 0 ||
	    strcasecmp(t, "application/atom+xml") == 0 ||
	    strcasecmp(t, "application/feed+json") == 0 ||
	    strcasecmp(t, "application/json") == 0 ||
	    strcasecmp(t, "application/rdf+xml") == 0);
}

struct scan {
	struct uk_links *l;
	const char *base;
	size_t max;
	struct uk_buf title;
	int in_title;
};

static void
add_link(struct scan *s, char ***v, size_t *n, const char *href)
{
	char *u;

	if (!href || (s->max && *n >= s->max))
		return;
	if ((u = uk_urlref_resolve(s->base, href)))
		push(v, n, u);
}

static void
walk(struct scan *s, GumboNode *root)
{
	/* An explicit stack: a page's nesting depth comes from the network. */
	GumboNode **stack = NULL, *n;
	size_t sp = 0, cap = 0, i;
	const char *rel, *name;

	stack = uk_util_xrealloc(stack, (cap = 256) * sizeof(*stack));
	stack[sp++] = root;
	while (sp) {
		n = stack[--sp];
		if (n->type != GUMBO_NODE_ELEMENT)
			continue;
		switch (n->v.element.tag) {
		case GUMBO_TAG_A:
			rel = attr(n, "rel");
			if (!has_word(rel, "nofollow"))
				add_link(s, &s->l->links, &s->l->nlinks,
				    attr(n, "href"));
			break;
		case GUMBO_TAG_LINK:
			rel = attr(n, "rel");
			if (has_word(rel, "next"))
				add_link(s, &s->l->links, &s->l->nlinks,
				    attr(n, "href"));
			else if (has_word(rel, "alternate") &&
			    feed_type(attr(n, "type")))
				add_link(s, &s->l->feeds, &s->l->nfeeds,
				    attr(n, "href"));
			break;
		case GUMBO_TAG_META:
			name = attr(n, "name");
			if (name && (strcasecmp(name, "robots") == 0 ||
			    strcasecmp(name, "urlmap") == 0) &&
			    (has_word(attr(n, "content"), "nofollow") ||
			    has_word(attr(n, "content"), "none")))
				s->l->nofollow = 1;
			break;
		case GUMBO_TAG_TITLE:
			if (!s->title.len && n->v.element.children.length &&
			    ((GumboNode *)n->v.element.children.data[0])
			    ->type == GUMBO_NODE_TEXT)
				uk_buf_addstr(&s->title, ((GumboNode *)n->v
				    .element.children.data[0])->v.text.text);
			break;
		default:
			break;
		}
		/* Children pushed last first, so they come out in order. */
		for (i = n->v.element.children.length; i > 0; i--) {
			if (sp == cap)
				stack = uk_util_xrealloc(stack,
				    (cap *= 2) * sizeof(*stack));
			stack[sp++] = n->v.element.children.data[i - 1];
		}
	}
	free(stack);
}

/* The first <base href> of the document, or NULL. */
static const char *
base_href(GumboNode *root)
{
	GumboNode *html = root, *head = NULL, *c;
	size_t i;

	for (i = 0; i < html->v.element.children.length; i++) {
		c = html->v.element.children.data[i];
		if (c->type == GUMBO_NODE_ELEMENT &&
		    c->v.element.tag == GUMBO_TAG_HEAD)
			head = c;
	}
	if (!head)
		return NULL;
	for (i = 0; i < head->v.element.children.length; i++) {
		c = head->v.element.children.data[i];
		if (c->type == GUMBO_NODE_ELEMENT &&
		    c->v.element.tag == GUMBO_TAG_BASE && attr(c, "href"))
			return attr(c, "href");
	}
	return NULL;
}

int
uk_links_scan(struct uk_links *l, const char *html, size_t len,
    const char *content_type, const char *url, size_t max)
{
	GumboOptions opts = kGumboDefaultOptions;
	GumboOutput *out;
	struct uk_buf u = UK_BUF_INIT;
	struct scan s;
	char cs[64], *base = NULL, *nul;
	const char *bh;
	size_t bom, k;

	memset(l, 0, sizeof(*l));
	memset(&s, 0, sizeof(s));
	uk_charset_detect(html, len, content_type, cs, sizeof(cs), &bom);
	if (uk_charset_to_utf8(html, len, cs, &u, NULL) < 0) {
		uk_buf_reset(&u);
		uk_charset_to_utf8(html, len, "utf-8", &u, NULL);
	}
	/* Gumbo stops at a NUL byte; make them spaces. */
	for (k = 0; (nul = memchr(u.buf + k, '\0', u.len - k)); k++) {
		*nul = ' ';
		k = (size_t)(nul - u.buf);
	}
	opts.max_errors = 0;
	if (!(out = gumbo_parse_with_options(&opts, u.buf, u.len))) {
		uk_buf_release(&u);
		return -1;
	}
	if ((bh = base_href(out->root)))
		base = uk_urlref_resolve(url, bh);
	s.l = l;
	s.base = base ? base : url;
	s.max = max;
	uk_buf_init(&s.title, 0);
	walk(&s, out->root);
	if (l->nofollow) {
		for (k = 0; k < l->nlinks; k++)
			free(l->links[k]);
		free(l->links);
		l->links = NULL;
		l->nlinks = 0;
	}
	uk_buf_trim(&s.title);
	if (s.title.len)
		l->title = uk_buf_detach(&s.title, NULL);
	uk_buf_release(&s.title);
	gumbo_destroy_output(&opts, out);
	free(base);
	uk_buf_release(&u);
	return 0;
}

void
uk_links_release(struct uk_links *l)
{
	size_t i;

	for (i = 0; i < l->nlinks; i++)
		free(l->links[i]);
	free(l->links);
	for (i = 0; i < l->nfeeds; i++)
		free(l->feeds[i]);
	free(l->feeds);
	free(l->title);
	memset(l, 0, sizeof(*l));
}
