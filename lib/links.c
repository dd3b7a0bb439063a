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

void
uk_links_to_utf8(const char *html, size_t len, const char *content_type,
    struct uk_buf *u)
{
	char cs[64], *nul;
	size_t bom, k;

	uk_charset_detect(html, len, content_type, cs, sizeof(cs), &bom);
	if (uk_charset_to_utf8(html, len, cs, u, NULL) < 0) {
		uk_buf_reset(u);
		uk_charset_to_utf8(html, len, "utf-8", u, NULL);
	}
	/* Gumbo stops at a NUL byte; make them spaces. */
	for (k = 0; (nul = memchr(u->buf + k, '\0', u->len - k)); k++) {
		*nul = ' ';
		k = (size_t)(nul - u->buf);
	}
}

/*
 * The page html[0..len) as UTF-8 in u, parsed: NULL when gumbo cannot.
 * The caller destroys the output with opts and releases u.
 */
static GumboOutput *
parse_page(const char *html, size_t len, const char *content_type,
    struct uk_buf *u, GumboOptions *opts)
{
	uk_links_to_utf8(html, len, content_type, u);
	*opts = kGumboDefaultOptions;
	opts->max_errors = 0;
	return gumbo_parse_with_options(opts, u->buf, u->len);
}

int
uk_links_scan(struct uk_links *l, const char *html, size_t len,
    const char *content_type, const char *url, size_t max)
{
	GumboOptions opts;
	GumboOutput *out;
	struct uk_buf u = UK_BUF_INIT;
	struct scan s;
	char *base = NULL;
	const char *bh;
	size_t k;

	memset(l, 0, sizeof(*l));
	memset(&s, 0, sizeof(s));
	if (!(out = parse_page(html, len, content_type, &u, &opts))) {
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

/* Whether an element of tag t is a block (what a link's text may not
 * hold for the Markdown writer, which then writes the text alone). */
static int
block_tag(GumboTag t)
{
	switch (t) {
	case GUMBO_TAG_ADDRESS: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_ASIDE:
	case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_DIV: case GUMBO_TAG_DL:
	case GUMBO_TAG_FIGURE: case GUMBO_TAG_FOOTER: case GUMBO_TAG_H1:
	case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4:
	case GUMBO_TAG_H5: case GUMBO_TAG_H6: case GUMBO_TAG_HEADER:
	case GUMBO_TAG_LI: case GUMBO_TAG_OL: case GUMBO_TAG_P:
	case GUMBO_TAG_PRE: case GUMBO_TAG_SECTION: case GUMBO_TAG_TABLE:
	case GUMBO_TAG_UL:
		return 1;
	default:
		return 0;
	}
}

static int
is_http(const char *u)
{
	return u && (!strncasecmp(u, "http://", 7) ||
	    !strncasecmp(u, "https://", 8));
}

/* Append s to b with runs of white space as one space, none leading. */
static void
add_squeezed(struct uk_buf *b, const char *s, int *sp)
{
	for (; *s && b->len <= UK_LINKS_TEXT_MAX; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		    *s == '\f') {
			*sp = 1;
			continue;
		}
		if (*sp && b->len)
			uk_buf_addch(b, ' ');
		*sp = 0;
		uk_buf_addch(b, *s);
	}
}

/*
 * The text of anchor a into b (squeezed, at most UK_LINKS_TEXT_MAX bytes
 * and a little more, which the caller cuts), else the first alt of an
 * image in it; returns whether it holds a block element.
 */
static int
anchor_text(GumboNode *a, struct uk_buf *b)
{
	GumboNode **stack = NULL, *n;
	size_t sp = 0, cap = 0, i;
	const char *alt = NULL;
	int space = 0, block = 0, bl;

	for (i = a->v.element.children.length; i > 0; i--) {
		if (sp == cap)
			stack = uk_util_xrealloc(stack,
			    (cap = cap ? cap * 2 : 64) * sizeof(*stack));
		stack[sp++] = a->v.element.children.data[i - 1];
	}
	while (sp) {
		/* NULL: the end of a block, a space before what follows. */
		if (!(n = stack[--sp])) {
			space = 1;
			continue;
		}
		if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA ||
		    n->type == GUMBO_NODE_WHITESPACE) {
			add_squeezed(b, n->v.text.text, &space);
			continue;
		}
		if (n->type != GUMBO_NODE_ELEMENT)
			continue;
		if (n->v.element.tag == GUMBO_TAG_SCRIPT ||
		    n->v.element.tag == GUMBO_TAG_STYLE ||
		    n->v.element.tag == GUMBO_TAG_TEMPLATE)
			continue;
		if (n->v.element.tag == GUMBO_TAG_IMG && !alt)
			alt = attr(n, "alt");
		bl = block_tag(n->v.element.tag);
		block |= bl;
		space |= bl;
		for (i = n->v.element.children.length + bl; i > 0; i--) {
			if (sp == cap)
				stack = uk_util_xrealloc(stack,
				    (cap = cap ? cap * 2 : 64) *
				    sizeof(*stack));
			stack[sp++] = i > n->v.element.children.length ? NULL :
			    n->v.element.children.data[i - 1];
		}
	}
	free(stack);
	if (!b->len && alt) {
		space = 0;
		add_squeezed(b, alt, &space);
	}
	return block;
}

/* u with '(' and ')' as %28 and %29, newly allocated. */
static char *
paren_encode(const char *u)
{
	struct uk_buf b = UK_BUF_INIT;

	for (; *u; u++)
		if (*u == '(')
			uk_buf_addstr(&b, "%28");
		else if (*u == ')')
			uk_buf_addstr(&b, "%29");
		else
			uk_buf_addch(&b, *u);
	uk_buf_addch(&b, '\0');
	return uk_buf_detach(&b, NULL);
}

struct anchors {
	struct uk_link *v;
	size_t n, cap;
	const char *base, *url;
	struct uk_buf text;
};

static void
add_anchor(struct anchors *s, GumboNode *n)
{
	const char *href = attr(n, "href");
	struct uk_link *l;
	char *u, *k;
	int sp;

	if (!href || !(u = uk_urlref_resolve(s->base, href)))
		return;
	if (!is_http(u)) {
		free(u);
		return;
	}
	if (s->n == s->cap)
		s->v = uk_util_xrealloc(s->v,
		    (s->cap = s->cap ? s->cap * 2 : 64) * sizeof(*s->v));
	l = &s->v[s->n++];
	memset(l, 0, sizeof(*l));
	l->url = u;
	k = uk_urlref_resolve(s->url, href);
	l->key = paren_encode(k ? k : u);
	free(k);
	uk_buf_reset(&s->text);
	l->block = anchor_text(n, &s->text);
	if (!s->text.len && n->v.element.tag == GUMBO_TAG_AREA &&
	    attr(n, "alt")) {
		sp = 0;
		add_squeezed(&s->text, attr(n, "alt"), &sp);
	}
	uk_buf_setlen(&s->text, uk_buf_utf8_cut(s->text.buf,
	    s->text.len < UK_LINKS_TEXT_MAX ? s->text.len : UK_LINKS_TEXT_MAX));
	uk_buf_trim(&s->text);
	l->text = uk_util_xmemdup(s->text.buf ? s->text.buf : "", s->text.len);
	l->rel = attr(n, "rel") ? uk_util_xstrdup(attr(n, "rel")) : NULL;
}

int
uk_links_anchors(const char *html, size_t len, const char *content_type,
    const char *url, struct uk_link **v, size_t *n)
{
	GumboOptions opts;
	GumboOutput *out;
	GumboNode **stack = NULL, *g;
	struct uk_buf u = UK_BUF_INIT;
	struct anchors s;
	size_t sp = 0, cap = 256, i;
	char *base = NULL;
	const char *bh;

	*v = NULL;
	*n = 0;
	if (!(out = parse_page(html, len, content_type, &u, &opts))) {
		uk_buf_release(&u);
		return -1;
	}
	memset(&s, 0, sizeof(s));
	if ((bh = base_href(out->root)))
		base = uk_urlref_resolve(url, bh);
	s.base = base ? base : url;
	s.url = url;
	/* An explicit stack: a page's nesting depth comes from the network. */
	stack = uk_util_xrealloc(stack, cap * sizeof(*stack));
	stack[sp++] = out->root;
	while (sp) {
		g = stack[--sp];
		if (g->type != GUMBO_NODE_ELEMENT ||
		    g->v.element.tag == GUMBO_TAG_TEMPLATE)
			continue;
		if (g->v.element.tag == GUMBO_TAG_A ||
		    g->v.element.tag == GUMBO_TAG_AREA) {
			add_anchor(&s, g);
			continue;
		}
		for (i = g->v.element.children.length; i > 0; i--) {
			if (sp == cap)
				stack = uk_util_xrealloc(stack,
				    (cap *= 2) * sizeof(*stack));
			stack[sp++] = g->v.element.children.data[i - 1];
		}
	}
	free(stack);
	uk_buf_release(&s.text);
	gumbo_destroy_output(&opts, out);
	free(base);
	uk_buf_release(&u);
	*v = s.v;
	*n = s.n;
	return 0;
}

void
uk_links_anchors_free(struct uk_link *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].url);
		free(v[i].key);
		free(v[i].text);
		free(v[i].rel);
	}
	free(v);
}

/* Where the head of html[0..len) ends: at "</head" or "<body". */
static size_t
head_end(const char *html, size_t len)
{
	const char *p = html, *end = html + len;

	if (len > UK_LINKS_HEAD_MAX)
		end = html + UK_LINKS_HEAD_MAX;
	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		if ((end - p >= 6 && !strncasecmp(p, "</head", 6)) ||
		    (end - p >= 5 && !strncasecmp(p, "<body", 5)))
			return (size_t)(p - html);
		p++;
	}
	return (size_t)(end - html);
}

/* Whether link element n is a Markdown alternate. */
static int
md_alternate(GumboNode *n)
{
	const char *t = attr(n, "type");

	return has_word(attr(n, "rel"), "alternate") && attr(n, "href") &&
	    t && (!strncasecmp(t, "text/markdown", 13) ||
	    !strncasecmp(t, "text/x-markdown", 15));
}

char *
uk_links_markdown_alternate(const char *html, size_t len,
    const char *content_type, const char *url)
{
	GumboOptions opts;
	GumboOutput *out;
	GumboNode *head = NULL, *c;
	struct uk_buf u = UK_BUF_INIT;
	char *base = NULL, *r = NULL;
	const char *bh;
	size_t i;

	if (!(out = parse_page(html, head_end(html, len), content_type, &u,
	    &opts))) {
		uk_buf_release(&u);
		return NULL;
	}
	for (i = 0; i < out->root->v.element.children.length; i++) {
		c = out->root->v.element.children.data[i];
		if (c->type == GUMBO_NODE_ELEMENT &&
		    c->v.element.tag == GUMBO_TAG_HEAD)
			head = c;
	}
	for (i = 0; head && i < head->v.element.children.length && !r; i++) {
		c = head->v.element.children.data[i];
		if (c->type != GUMBO_NODE_ELEMENT ||
		    c->v.element.tag != GUMBO_TAG_LINK || !md_alternate(c))
			continue;
		if ((bh = base_href(out->root)))
			base = uk_urlref_resolve(url, bh);
		r = uk_urlref_resolve(base ? base : url, attr(c, "href"));
	}
	gumbo_destroy_output(&opts, out);
	free(base);
	uk_buf_release(&u);
	return r;
}
