/* SPDX-License-Identifier: MIT */
/*
 * Main text and metadata of an HTML page (see extract.h).
 *
 * Before gumbo sees the page, comments, the bodies of scripts and styles
 * and the attributes nothing reads are cut out and absurd nesting is
 * flattened (shrink).  The gumbo
 * tree is mirrored into a flat array in document order, each element
 * knowing where its subtree ends, so that every pass is a loop and no
 * page, however deeply nested, can exhaust the stack.
 *
 * A page with more elements than its size warrants is refused
 * (MAX_ELEMENTS).  Boilerplate is marked first: navigation, footers,
 * asides, captions, forms' inputs, hidden elements, and elements whose
 * class or id says menu, sidebar, cookie, share, comments, customer
 * reviews, teaser, caption, credit, author and the like (class_verdict),
 * unless such an element holds a <main> or <article> or most of the
 * page's plain text (a "has-sidebar" wrapper).  Then by what the page
 * says (mark_by_text): sections under a heading such as "Related
 * articles", "Comments", "Customer reviews", "Customers also bought",
 * "Tags" or "About the author", "Read more: <link>" lines, paragraphs
 * that are only a link among prose, copyright, disclaimer, credit and
 * subscription lines, the page's controls ("Print", "Share"), and boxes
 * of links inside an article.  Comment sections are remembered, for
 * x->comments when asked.  An app shell's text is empty (its notice is
 * not the page's).  Then text blocks are scored in the manner of Readability
 * (length, commas, link density, tag and class) and their scores given to
 * their ancestors.  Around the best block:
 *  - a run of blocks of a kind (forum posts, answers, items) is taken
 *    whole when it holds at least half the page's text;
 *  - an article (the best block and the siblings that score with it)
 *    when it holds at least half the page's text;
 *  - otherwise the page is no article (a landing page, a product, a
 *    listing): the nearest ancestor holding half the text is taken.
 * Paragraphs repeated word for word are written once.
 */
#include <ctype.h>
#include <gumbo.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "charset.h"
#include "extract.h"
#include "extract_int.h"
#include "extract_md.h"
#include "json.h"
#include "strset.h"
#include "util.h"


/* Elements whose text is never main text, with their whole subtree. */
static int
tag_skipped(int tag)
{
	switch (tag) {
	case GUMBO_TAG_SCRIPT:
	case GUMBO_TAG_STYLE:
	case GUMBO_TAG_TEMPLATE:
	case GUMBO_TAG_HEAD:
	case GUMBO_TAG_TITLE:
	case GUMBO_TAG_META:
	case GUMBO_TAG_LINK:
	case GUMBO_TAG_SVG:
	case GUMBO_TAG_MATH:
	case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_OBJECT:
	case GUMBO_TAG_EMBED:
	case GUMBO_TAG_CANVAS:
	case GUMBO_TAG_BUTTON:
	case GUMBO_TAG_SELECT:
	case GUMBO_TAG_OPTION:
	case GUMBO_TAG_TEXTAREA:
	case GUMBO_TAG_INPUT:
	case GUMBO_TAG_NAV:
	case GUMBO_TAG_FOOTER:
	case GUMBO_TAG_ASIDE:
	case GUMBO_TAG_MENU:
	case GUMBO_TAG_AUDIO:
	case GUMBO_TAG_VIDEO:
	case GUMBO_TAG_MAP:
	case GUMBO_TAG_AREA:
	case GUMBO_TAG_FIGCAPTION:
		return 1;
	default:
		return 0;
	}
}

/* Elements that do not break the flow of text. */
int
uk_ex_tag_inline(int tag)
{
	switch (tag) {
	case GUMBO_TAG_A:
	case GUMBO_TAG_ABBR:
	case GUMBO_TAG_B:
	case GUMBO_TAG_BDI:
	case GUMBO_TAG_BDO:
	case GUMBO_TAG_CITE:
	case GUMBO_TAG_CODE:
	case GUMBO_TAG_DATA:
	case GUMBO_TAG_DFN:
	case GUMBO_TAG_EM:
	case GUMBO_TAG_FONT:
	case GUMBO_TAG_I:
	case GUMBO_TAG_KBD:
	case GUMBO_TAG_MARK:
	case GUMBO_TAG_Q:
	case GUMBO_TAG_S:
	case GUMBO_TAG_SAMP:
	case GUMBO_TAG_SMALL:
	case GUMBO_TAG_SPAN:
	case GUMBO_TAG_STRONG:
	case GUMBO_TAG_SUB:
	case GUMBO_TAG_SUP:
	case GUMBO_TAG_TIME:
	case GUMBO_TAG_U:
	case GUMBO_TAG_VAR:
	case GUMBO_TAG_WBR:
	case GUMBO_TAG_IMG:
	case GUMBO_TAG_LABEL:
	case GUMBO_TAG_BIG:
	case GUMBO_TAG_TT:
	case GUMBO_TAG_STRIKE:
	case GUMBO_TAG_DEL:
	case GUMBO_TAG_INS:
	case GUMBO_TAG_NOBR:
	case GUMBO_TAG_RUBY:
	case GUMBO_TAG_RT:
	case GUMBO_TAG_RP:
		return 1;
	default:
		return 0;
	}
}

const char *
uk_ex_attr(GumboNode *g, const char *name)
{
	GumboAttribute *a;

	if (g->type != GUMBO_NODE_ELEMENT && g->type != GUMBO_NODE_TEMPLATE)
		return NULL;
	a = gumbo_get_attribute(&g->v.element.attributes, name);
	return a ? a->value : NULL;
}

int
uk_ex_has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p = s;

	while ((p = strstr(p, w))) {
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
		p++;
	}
	return 0;
}

/* Lower-cased "class id" of an element, into b (cleared first). */
static void
class_id(GumboNode *g, struct uk_buf *b)
{
	const char *c = uk_ex_attr(g, "class"), *i = uk_ex_attr(g, "id");
	size_t k;

	uk_buf_reset(b);
	if (!c && !i)
		return;
	if (c)
		uk_buf_addstr(b, c);
	uk_buf_addch(b, ' ');
	if (i)
		uk_buf_addstr(b, i);
	for (k = 0; k < b->len; k++)
		b->buf[k] = (char)tolower((unsigned char)b->buf[k]);
}

/* Substrings of class or id that mark boilerplate. */
static const char *const neg_sub[] = { "sidebar", "footer", "cookie", "consent",
	"gdpr", "breadcrumb", "advert", "newsletter", "comment", "related",
	"social", "sponsor", "popup", "navbar", "navigation", "masthead",
	"disqus", "outbrain", "taboola", "pagination", "subscribe", "signup",
	"sharing", "share-", "-share", "_share", "share_", "skip-link",
	"skiplink", "promo", "recommend", "trending", "toolbar", "modal",
	"overlay", "dropdown", "offcanvas", "off-canvas", "topbar", "top-bar",
	"utility", "jump-link", "toc-", "author-bio", "authorbio", "bottom-bar",
	"disclosure", "disclaimer", "rating", "subscription",
	"author-box", "authorbox", "about-author", "author-info", "upsell",
	"crosssell", "cross-sell", "paywall", NULL };
/* Of those, what is boilerplate however much text it holds. */
static const char *const strong_sub[] = { "comment", "disqus", "cookie",
	"consent", "gdpr", "related", "recommend", NULL };
/* Whole words of class or id that mark boilerplate. */
static const char *const neg_word[] = { "nav", "menu", "ad", "ads", "share",
	"tags", "header", "sr-only", "visually-hidden", "screen-reader-text",
	"print-only", "rss", "login", "search", "meta", "pager", "byline",
	"tagline", "most-popular", "more-stories", "read-more", "readmore",
	"banner", NULL };
/* Substrings of class or id that name a box beside the text (box_last). */
static const char *const box_sub[] = { "teaser", "caption", "credit",
	"author", "reviews", NULL };
/* Substrings that keep an element whatever else its class says. */
static const char *const pos_sub[] = { "article", "content", "main", "post",
	"entry", "body", "text", "story", "hentry", "blog", "prose", "markdown",
	"thread", "message", "topic", "product", "description", "answer",
	"question", NULL };

/* Substrings of class names that say an element is one of many. */
static const char *const repeat_hints[] = { "post", "message", "comment",
	"reply", "answer", "entry", "item", "card", "result", "product",
	"story", "teaser", "thread", "topic", "tile", "review", NULL };

/*
 * The bytes of a string as a 64-bit set (byte & 63): a pattern with a
 * byte the string lacks cannot be in it, which spares nearly all the
 * strstr calls (class names are matched against some 140 patterns per
 * element).  The patterns' sets are made once.
 */
static uint64_t
bytes_of(const char *s)
{
	uint64_t m = 0;

	for (; *s; s++)
		m |= 1ULL << (*s & 63);
	return m;
}

#define NMASK(list) (sizeof(list) / sizeof(list[0]))
static uint64_t neg_sub_m[NMASK(neg_sub)], strong_sub_m[NMASK(strong_sub)],
    neg_word_m[NMASK(neg_word)], pos_sub_m[NMASK(pos_sub)],
    repeat_hints_m[NMASK(repeat_hints)];
static pthread_once_t masks_once = PTHREAD_ONCE_INIT;

static void
masks_fill(const char *const *list, uint64_t *m)
{
	for (; *list; list++)
		*m++ = bytes_of(*list);
}

static void
masks_init(void)
{
	masks_fill(neg_sub, neg_sub_m);
	masks_fill(strong_sub, strong_sub_m);
	masks_fill(neg_word, neg_word_m);
	masks_fill(pos_sub, pos_sub_m);
	masks_fill(repeat_hints, repeat_hints_m);
}

/* Whether s, whose bytes are b, holds any string of list (bytes m). */
static int
match_any_sub(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	for (; *list; list++, m++)
		if (!(*m & ~b) && strstr(s, *list))
			return 1;
	return 0;
}

/* Whether s, whose bytes are b, holds any word of list (bytes m). */
static int
match_any_word(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	for (; *list; list++, m++)
		if (!(*m & ~b) && uk_ex_has_word(s, *list))
			return 1;
	return 0;
}

/* Where the last string of list (bytes m) starts in s (bytes b), or -1. */
static int
last_sub(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	const char *q;
	int at = -1;

	for (; *list; list++, m++) {
		if (*m & ~b)
			continue;
		for (q = s; (q = strstr(q, *list)); q++)
			if (q - s > at)
				at = (int)(q - s);
	}
	return at;
}

/* Where the last whole word of list (bytes m) starts in s, or -1. */
static int
last_word(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	const char *q;
	int at = -1;

	for (; *list; list++, m++) {
		size_t n = strlen(*list);

		if (*m & ~b)
			continue;
		for (q = s; (q = strstr(q, *list)); q++)
			if ((q == s || !isalnum((unsigned char)q[-1])) &&
			    !isalnum((unsigned char)q[n]) && q - s > at)
				at = (int)(q - s);
	}
	return at;
}

/* Class weight in the manner of Readability: -25, 0 or +25. */
static int
class_weight(const char *ci)
{
	uint64_t b;
	int w = 0;

	if (!ci[0])
		return 0; /* no class, no id */
	b = bytes_of(ci);
	if (match_any_sub(ci, b, neg_sub, neg_sub_m) ||
	    match_any_word(ci, b, neg_word, neg_word_m))
		w -= 25;
	if (match_any_sub(ci, b, pos_sub, pos_sub_m))
		w += 25;
	return w;
}

static int
style_hidden(const char *s)
{
	char b[256];
	size_t i, n = 0;

	for (i = 0; s[i] && n + 1 < sizeof(b); i++)
		if (!isspace((unsigned char)s[i]))
			b[n++] = (char)tolower((unsigned char)s[i]);
	b[n] = '\0';
	return strstr(b, "display:none") || strstr(b, "visibility:hidden");
}

/* Characters of s after collapsing whitespace (code points). */
static int
text_len(const char *s, int *commas)
{
	int n = 0, sp = 1;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (isspace(*p)) {
			if (!sp)
				n++;
			sp = 1;
			continue;
		}
		sp = 0;
		if ((*p & 0xc0) != 0x80)
			n++;
		if (*p == ',')
			(*commas)++;
	}
	return n;
}

static int
push(struct ctx *c, GumboNode *g, int parent)
{
	struct nd *n;

	if (c->nn == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 1024;
		c->n = uk_xrealloc(c->n, (size_t)c->alloc * sizeof(*c->n));
	}
	n = &c->n[c->nn];
	memset(n, 0, sizeof(*n));
	n->g = g;
	n->parent = parent;
	n->tag = GUMBO_TAG_UNKNOWN;
	return c->nn++;
}

/*
 * The verdict of a lower-cased "class id" string, token by token: 0 not
 * boilerplate, 2 boilerplate, 3 strong boilerplate.  In a token that
 * names both boilerplate and content, the last name says what the
 * element is, as in English compounds: "post-footer" and "entry-utility"
 * are boilerplate, "comment-content" (a forum post) and "footer-text"
 * are content.  A token that says content keeps an element whose other
 * tokens say boilerplate ("post hentry comments-open").
 */
/*
 * Where the last string of box_sub starts in tok, or -1.  These say what
 * a box is (a teaser of another page, an image's caption or credit, the
 * author's card, customer reviews) but not that its text is poor, so
 * they decide the verdict and leave Readability's class weight alone.
 */
static int
box_last(const char *tok)
{
	const char *q;
	int at = -1, k;

	for (k = 0; box_sub[k]; k++)
		for (q = tok; (q = strstr(q, box_sub[k])); q++)
			if (q - tok > at)
				at = (int)(q - tok);
	return at;
}

static int
class_verdict(const char *ci)
{
	char tok[128];
	const char *p = ci;
	int neg = 0, pos = 0, strong = 0, cmt = 0;

	while (*p) {
		size_t n = strcspn(p, " \t\n\r\f");
		uint64_t b;
		int tn, tp, k;

		if (n == 0) {
			p++;
			continue;
		}
		if (n >= sizeof(tok))
			n = sizeof(tok) - 1;
		memcpy(tok, p, n);
		tok[n] = '\0';
		p += strcspn(p, " \t\n\r\f");
		b = bytes_of(tok);
		tn = last_sub(tok, b, neg_sub, neg_sub_m);
		k = last_word(tok, b, neg_word, neg_word_m);
		if (k > tn)
			tn = k;
		k = box_last(tok);
		if (k > tn)
			tn = k;

		tp = last_sub(tok, b, pos_sub, pos_sub_m);
		if (tn >= 0 && tn >= tp) {
			neg = 1;
			if (match_any_sub(tok, b, strong_sub, strong_sub_m))
				strong = 1;
			if (strstr(tok, "comment") || strstr(tok, "disqus"))
				cmt = 1;
			/* Customer reviews are a shop's comments. */
			if (strstr(tok, "reviews"))
				cmt = 1;
		} else if (tp >= 0)
			pos = 1;
	}
	if (!neg || pos)
		return 0;
	return cmt ? 4 : strong ? 3 : 2;
}

/*
 * Whether element g (with tag) is boilerplate by its attributes: 1 for
 * certain (hidden, a navigation role), 2 by its class or id (confirmed
 * later by how much of the page's text it holds), 3 by a class that says
 * comments, cookies or related links (kept out however large), else 0.
 */
static int
boilerplate(GumboNode *g, int tag, struct uk_buf *ci)
{
	const char *s;

	if (uk_ex_attr(g, "hidden"))
		return 1;
	s = uk_ex_attr(g, "aria-hidden");
	if (s && !strcasecmp(s, "true"))
		return 1;
	s = uk_ex_attr(g, "style");
	if (s && style_hidden(s))
		return 1;
	s = uk_ex_attr(g, "role");
	if (s &&
	    (!strcasecmp(s, "navigation") || !strcasecmp(s, "banner") ||
		!strcasecmp(s, "contentinfo") ||
		!strcasecmp(s, "complementary") || !strcasecmp(s, "menu") ||
		!strcasecmp(s, "menubar") || !strcasecmp(s, "search") ||
		!strcasecmp(s, "dialog") || !strcasecmp(s, "alertdialog") ||
		!strcasecmp(s, "tablist")))
		return 1;
	if (tag == GUMBO_TAG_BODY || tag == GUMBO_TAG_HTML ||
	    tag == GUMBO_TAG_ARTICLE || tag == GUMBO_TAG_MAIN ||
	    tag == GUMBO_TAG_TABLE || tag == GUMBO_TAG_TBODY ||
	    tag == GUMBO_TAG_TR || tag == GUMBO_TAG_TD || tag == GUMBO_TAG_P ||
	    tag == GUMBO_TAG_PRE)
		return 0;
	class_id(g, ci);
	if (ci->len < 2)
		return 0;
	return class_verdict(ci->buf);
}

/* Mirror the tree; collect metadata; mark skipped subtrees. */
static void
build(struct ctx *c, GumboNode *root)
{
	struct {
		GumboNode *g;
		int idx;
		unsigned next;
	} *st = NULL;
	int sn = 0, salloc = 0, i;
	struct uk_buf ci = UK_BUF_INIT;

	i = push(c, root, -1);
	c->n[i].tag = GUMBO_TAG_HTML;
	c->n[i].flags = F_BLOCK;
	salloc = 64;
	st = uk_xmalloc((size_t)salloc * sizeof(*st));
	st[0].g = root;
	st[0].idx = i;
	st[0].next = 0;
	sn = 1;
	while (sn) {
		GumboNode *g = st[sn - 1].g, *ch;
		int pi = st[sn - 1].idx;
		GumboVector *kids = &g->v.element.children;
		unsigned pflags;

		if (g->type == GUMBO_NODE_DOCUMENT)
			kids = &g->v.document.children;
		if (st[sn - 1].next >= kids->length) {
			c->n[pi].end = c->nn;
			sn--;
			continue;
		}
		ch = kids->data[st[sn - 1].next++];
		pflags = c->n[pi].flags & (F_SKIP | F_INLINK | F_PRE | F_INART);
		if (ch->type == GUMBO_NODE_TEXT ||
		    ch->type == GUMBO_NODE_CDATA ||
		    ch->type == GUMBO_NODE_WHITESPACE) {
			i = push(c, ch, pi);
			c->n[i].flags = F_TEXT | pflags;
			c->n[i].end = i + 1;
			continue;
		}
		if (ch->type != GUMBO_NODE_ELEMENT &&
		    ch->type != GUMBO_NODE_TEMPLATE)
			continue;
		i = push(c, ch, pi);
		c->n[i].tag = ch->v.element.tag;
		c->n[i].flags = pflags;
		uk_ex_metadata(c, ch, c->n[i].tag);
		if (c->n[i].tag == GUMBO_TAG_BODY && !c->body)
			c->body = i;
		if (!uk_ex_tag_inline(c->n[i].tag))
			c->n[i].flags |= F_BLOCK;
		if (c->n[i].tag == GUMBO_TAG_A)
			c->n[i].flags |= F_INLINK;
		if (c->n[i].tag == GUMBO_TAG_PRE)
			c->n[i].flags |= F_PRE;
		if (!(pflags & F_SKIP)) {
			int bp = boilerplate(ch, c->n[i].tag, &ci);

			if (tag_skipped(c->n[i].tag) || 
			    ch->type == GUMBO_NODE_TEMPLATE || bp == 1)
				c->n[i].flags |= F_SKIP;
			else if (bp == 3)
				c->n[i].flags |= F_BOIL | F_STRONG;
			else if (bp == 4)
				c->n[i].flags |= F_BOIL | F_STRONG | F_CROOT;

			else if (bp == 2 ||
			    (c->n[i].tag == GUMBO_TAG_HEADER &&
				!(pflags & F_INART)))
				c->n[i].flags |= F_BOIL;
		}
		if (c->n[i].tag == GUMBO_TAG_ARTICLE ||
		    c->n[i].tag == GUMBO_TAG_MAIN)
			c->n[i].flags |= F_INART;
		if (sn == salloc) {
			salloc *= 2;
			st = uk_xrealloc(st, (size_t)salloc * sizeof(*st));
		}
		st[sn].g = ch;
		st[sn].idx = i;
		st[sn].next = 0;
		sn++;
	}
	free(st);
	uk_buf_release(&ci);
}

/* The nearest block ancestor of node i (or the root). */
static int
block_of(struct ctx *c, int i)
{
	int p = c->n[i].parent;

	while (p > 0 && !(c->n[p].flags & F_BLOCK))
		p = c->n[p].parent;
	return p < 0 ? 0 : p;
}

/* Find "</name" (any case) in s[from..len); len when there is none. */
static size_t
find_close(const char *s, size_t from, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = s + from, *end = s + len;

	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		if ((size_t)(end - p) >= n + 2 && p[1] == '/' &&
		    !strncasecmp(p + 2, name, n) &&
		    !isalnum((unsigned char)p[2 + n]))
			return (size_t)(p - s);
		p++;
	}
	return len;
}

/*
 * Elements that nest: not void, not closed implicitly, not raw text.
 * Gumbo's scope checks walk the stack of open elements, so nesting
 * thousands deep makes parsing quadratic; real pages stay under 100.
 */
#define MAX_DEPTH 512

static int
nests(const char *name)
{
	switch (gumbo_tag_enum(name)) {
	case GUMBO_TAG_AREA:
	case GUMBO_TAG_BASE:
	case GUMBO_TAG_BR:
	case GUMBO_TAG_COL:
	case GUMBO_TAG_EMBED:
	case GUMBO_TAG_HR:
	case GUMBO_TAG_IMG:
	case GUMBO_TAG_INPUT:
	case GUMBO_TAG_LINK:
	case GUMBO_TAG_META:
	case GUMBO_TAG_PARAM:
	case GUMBO_TAG_SOURCE:
	case GUMBO_TAG_TRACK:
	case GUMBO_TAG_WBR:
	case GUMBO_TAG_KEYGEN:
	case GUMBO_TAG_P:
	case GUMBO_TAG_LI:
	case GUMBO_TAG_DT:
	case GUMBO_TAG_DD:
	case GUMBO_TAG_TR:
	case GUMBO_TAG_TD:
	case GUMBO_TAG_TH:
	case GUMBO_TAG_OPTION:
	case GUMBO_TAG_OPTGROUP:
	case GUMBO_TAG_RB:
	case GUMBO_TAG_RT:
	case GUMBO_TAG_RP:
	case GUMBO_TAG_THEAD:
	case GUMBO_TAG_TBODY:
	case GUMBO_TAG_TFOOT:
	case GUMBO_TAG_COLGROUP:
	case GUMBO_TAG_HTML:
	case GUMBO_TAG_HEAD:
	case GUMBO_TAG_BODY:
	case GUMBO_TAG_SCRIPT:
	case GUMBO_TAG_STYLE:
	case GUMBO_TAG_TEXTAREA:
	case GUMBO_TAG_TITLE:
	case GUMBO_TAG_XMP:
	case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_NOEMBED:
	case GUMBO_TAG_NOFRAMES:
	case GUMBO_TAG_PLAINTEXT:
		return 0;
	default:
		return 1;
	}
}

/*
 * Attributes that extraction reads (uk_ex_attr() calls) or that steer gumbo's
 * tree building (input type, font color/face/size leaving foreign content,
 * annotation-xml encoding, isindex action/prompt/name).  Every other
 * attribute is dropped before parsing: they are two fifths of what is
 * left of a page once scripts and styles are gone (srcset, data-*, href,
 * SVG paths) and gumbo reads them a character at a time.
 */
static int
attr_kept(const char *name, size_t n)
{
	static const char *const keep[] = { "aria-hidden", "class", "content",
		"datetime", "hidden", "id", "itemprop", "name", "property",
		"rel", "role", "style", "type", "color", "face", "size",
		"encoding", "action", "prompt", "lang", "xml:lang",
		"http-equiv", "ng-app",
		/* The writer's: links, images, list numbers, table spans. */
		"href", "src", "alt", "start", "colspan", "rowspan", NULL };
	size_t k;

	for (k = 0; keep[k]; k++)
		if (strlen(keep[k]) == n && !strncasecmp(keep[k], name, n))
			return 1;
	return 0;
}

static int
html_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\f' ||
	    ch == '\r';
}

/*
 * Copy the attributes s[t, gt) of a start tag to s + w (w <= t), without
 * those attr_kept does not know; returns the new w.  Attributes are read
 * as the tokenizer reads them (name, then = and a quoted or unquoted
 * value); at anything the scan and the tokenizer might see differently (a
 * '>' outside quotes, an unclosed quote) the rest is copied as it is.
 */
static size_t
strip_attrs(char *s, size_t w, size_t t, size_t gt, int link)
{
	size_t i = t, lead, name, name_end, j, end;
	const char *q;

	while (i < gt) {
		lead = i;
		while (i < gt && (html_space(s[i]) || s[i] == '/'))
			i++;
		if (i >= gt)
			break;
		if (s[i] == '>')
			goto verbatim;
		name = i++;
		while (i < gt && !html_space(s[i]) && s[i] != '/' &&
		    s[i] != '=' && s[i] != '>')
			i++;
		name_end = i;
		if (i < gt && s[i] == '>')
			goto verbatim;
		for (j = i; j < gt && html_space(s[j]); j++)
			;
		end = name_end;
		if (j < gt && s[j] == '=') {
			for (j++; j < gt && html_space(s[j]); j++)
				;
			if (j < gt && (s[j] == '"' || s[j] == '\'')) {
				q = memchr(s + j + 1, s[j], gt - j - 1);
				if (!q)
					goto verbatim;
				end = (size_t)(q - s) + 1;
			} else {
				for (end = j; end < gt && !html_space(s[end]);
				     end++)
					if (s[end] == '>')
						goto verbatim;
			}
		}
		/* A <link>'s href: the canonical address (extract_meta.c). */
		if (attr_kept(s + name, name_end - name) ||
		    (link && name_end - name == 4 &&
			!strncasecmp(s + name, "href", 4))) {
			memmove(s + w, s + lead, end - lead);
			w += end - lead;
		}
		i = end;
		continue;
	verbatim:
		i = lead;
		break;
	}
	memmove(s + w, s + i, gt - i);
	return w + gt - i;
}

/* Whether the tag name read (to s[t]) is all of it and is pre. */
static int
is_pre(const char *s, size_t len, const char *name, size_t t)
{
	return !strcmp(name, "pre") &&
	    (t >= len || html_space(s[t]) || s[t] == '/' || s[t] == '>');
}

/*
 * Copy the text s[r, end) to s + w (w <= r) with every run of HTML
 * whitespace made one character: outside <pre>, extraction treats a run
 * like one space (w_text, text_len, set_once), and gumbo reads the page a
 * character at a time.  Returns the new w.
 */
static size_t
squeeze(char *s, size_t w, size_t r, size_t end)
{
	size_t i = r, j;

	while (i < end) {
		for (j = i; j < end && !html_space(s[j]); j++)
			;
		if (j < end)
			j++; /* the first of the run */
		memmove(s + w, s + i, j - i);
		w += j - i;
		for (i = j; i < end && html_space(s[i]); i++)
			;
	}
	return w;
}

/*
 * Shrink the page before gumbo sees it: comments, the bodies of scripts
 * (but JSON-LD) and styles, and the attributes extraction does not read
 * (attr_kept) are dropped, and runs of whitespace outside <pre> squeezed.  (Not SVG: an unclosed
 * <svg> ends where HTML content resumes, which a scan cannot tell.)  Scripts and
 * styles are four tenths of the bytes of a typical page and cost gumbo a
 * call per character; none of it can be main text.  The scan follows the
 * tokenizer closely enough: tags are read to their '>' with quoted
 * attribute values, raw text elements to their closing tag.  Elements
 * nested deeper than MAX_DEPTH lose their tags (not their text).  In
 * place; returns the new length.
 */
static size_t
shrink(char *s, size_t len)
{
	static const char *const raw[] = { "textarea", "title", "xmp", "iframe",
		"noembed", "noframes", "plaintext", "script", NULL };
	size_t r = 0, w = 0, t, tw, gt, k, nl, depth = 0, dropped = 0, pre = 0;
	char name[16];
	int drop;

	while (r < len) {
		const char *lt = memchr(s + r, '<', len - r);
		size_t next = lt ? (size_t)(lt - s) : len;

		if (pre) {
			memmove(s + w, s + r, next - r);
			w += next - r;
		} else {
			w = squeeze(s, w, r, next);
		}
		r = next;
		if (r >= len)
			break;
		if (len - r >= 4 && !memcmp(s + r, "<!--", 4)) {
			const char *e =
			    memmem(s + r + 4, len - r - 4, "-->", 3);

			r = e ? (size_t)(e - s) + 3 : len;
			continue;
		}
		if (r + 2 < len && s[r + 1] == '/' &&
		    isalpha((unsigned char)s[r + 2])) {
			/* An end tag: balance the depth count. */
			for (t = r + 2, nl = 0;
			     t < len && isalnum((unsigned char)s[t]); t++)
				if (nl < sizeof(name) - 1)
					name[nl++] =
					    (char)tolower((unsigned char)s[t]);
			name[nl] = '\0';
			lt = memchr(s + t, '>', len - t);
			gt = lt ? (size_t)(lt - s) : len - 1;
			if (nests(name)) {
				if (dropped) {
					dropped--;
					r = gt + 1;
					continue;
				}
				if (depth)
					depth--;
			}
			if (pre && is_pre(s, len, name, t))
				pre--;
			memmove(s + w, s + r, gt + 1 - r);
			w += gt + 1 - r;
			r = gt + 1;
			continue;
		}
		if (r + 1 >= len || !isalpha((unsigned char)s[r + 1])) {
			s[w++] = s[r++];
			continue;
		}
		for (t = r + 1, nl = 0; t < len && isalnum((unsigned char)s[t]);
		     t++)
			if (nl < sizeof(name) - 1)
				name[nl++] = (char)tolower((unsigned char)s[t]);
		name[nl] = '\0';
		/* To the end of the tag, honouring quoted attribute values. */
		for (gt = t; gt < len && s[gt] != '>'; gt++)
			if (s[gt] == '=') {
				size_t q = gt + 1;

				while (q < len && isspace((unsigned char)s[q]))
					q++;
				if (q < len && (s[q] == '"' || s[q] == '\'')) {
					const char *e = memchr(s + q + 1, s[q],
					    len - q - 1);

					gt = e ? (size_t)(e - s) : len - 1;
				}
			}
		if (gt >= len)
			gt = len - 1;
		if (nests(name) && s[gt - 1] != '/' && ++depth > MAX_DEPTH) {
			/* Too deep: the tag goes, its text stays. */
			depth--;
			dropped++;
			r = gt + 1;
			continue;
		}
		tw = w;
		if (s[gt] == '>') {
			/* The rest of a name like my-element, then attributes. */
			for (k = t; k < gt && !html_space(s[k]) && s[k] != '/';
			     k++)
				;
			memmove(s + w, s + r, k - r);
			w = strip_attrs(s, w + k - r, k, gt,
			    !strcmp(name, "link"));
			s[w++] = '>';
		} else {
			memmove(s + w, s + r, gt + 1 - r);
			w += gt + 1 - r;
		}
		r = gt + 1;
		if (is_pre(s, len, name, t))
			pre++;
		drop = !strcmp(name, "style");
		if (!strcmp(name, "script"))
			drop = !memmem(s + tw, w - tw, "ld+json", 7);
		if (drop) {
			r = find_close(s, r, len, name);
			continue;
		}
		for (k = 0; raw[k]; k++)
			if (!strcmp(name, raw[k])) {
				t = find_close(s, r, len, name);
				memmove(s + w, s + r, t - r);
				w += t - r;
				r = t;
				break;
			}
	}
	s[w] = '\0';
	return w;
}

/*
 * Elements a page may have: MAX_ELEMENTS, or one per 32 bytes of a larger
 * page.  Gumbo's tree takes some 300 bytes an element and the node array
 * 60 more, so 19 MB of "<p>," (five million of them) would take two
 * gigabytes and minutes; the largest real pages (a long encyclopedia
 * article, a big forum thread) stay well under 100000, and markup a
 * reader can read carries some text with each element.  Memory stays in
 * proportion to the page: some twelve times its size at most.
 */
#define MAX_ELEMENTS 300000

/* The start tags in s[0..len) (after shrink: no comments or scripts). */
static size_t
count_elements(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	size_t n = 0;

	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		p++;
		if (p < end && isalpha((unsigned char)*p))
			n++;
	}
	return n;
}

/* Sum text, link text and commas bottom-up. */
static void
measure(struct ctx *c)
{
	int i;

	for (i = c->nn - 1; i >= 0; i--) {
		struct nd *n = &c->n[i];
		int p;

		if (n->flags & F_TEXT) {
			if (n->flags & F_SKIP)
				continue;
			n->text = text_len(n->g->v.text.text, &n->commas);
			if (n->flags & F_INLINK)
				n->link = n->text;
			p = block_of(c, i);
			if (!(n->flags & F_INLINK)) {
				c->n[p].own += n->text;
				c->n[p].owncommas += n->commas;
			}
		}
		if (n->flags & F_SKIP)
			continue;
		p = n->parent;
		if (p >= 0) {
			c->n[p].text += n->text;
			c->n[p].link += n->link;
			c->n[p].commas += n->commas;
		}
	}
}

static double
link_density(const struct nd *n)
{
	return n->text ? (double)n->link / n->text : 0;
}

static void
reset_measure(struct ctx *c)
{
	int i;

	for (i = 0; i < c->nn; i++) {
		c->n[i].text = c->n[i].link = c->n[i].commas = 0;
		c->n[i].own = c->n[i].owncommas = 0;
	}
}

/*
 * Confirm boilerplate found by class or id: a wrapper whose class merely
 * mentions a sidebar ("has-sidebar", "sidebar-container") but that holds
 * most of the page's text is kept.  Then measure again.
 */
static void
confirm_boilerplate(struct ctx *c)
{
	int i, j, total;

	if (!c->body)
		return;
	total = c->n[c->body].text - c->n[c->body].link;
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		int keep = 0;

		if (!(n->flags & F_BOIL) || n->flags & F_SKIP)
			continue;
		if ((n->text - n->link) * 10 > total * 4)
			keep = 1;
		for (j = i + 1; j < n->end && !keep; j++) {
			const char *role;

			if (c->n[j].tag == GUMBO_TAG_MAIN ||
			    c->n[j].tag == GUMBO_TAG_ARTICLE)
				keep = 1;
			role = c->n[j].flags & F_TEXT ? NULL :
							uk_ex_attr(c->n[j].g, "role");
			if (role && !strcasecmp(role, "main"))
				keep = 1;
		}
		if (keep)
			continue;
		for (j = i; j < n->end; j++)
			if (!(c->n[j].flags & F_SKIP))
				c->n[j].flags |= F_SKIP | F_CSKIP |
				    (n->flags & F_STRONG) |
				    (n->flags & F_CROOT ? F_CMT : 0);
	}
	reset_measure(c);
	measure(c);
	/* Class names that would remove most of the page are not believed. */
	if ((c->n[c->body].text - c->n[c->body].link) * 10 < total * 2) {
		for (i = 0; i < c->nn; i++)
			if (c->n[i].flags & F_CSKIP &&
			    !(c->n[i].flags & F_STRONG))
				c->n[i].flags &= ~(unsigned)(F_SKIP | F_CSKIP);
		reset_measure(c);
	} else
		return;
	measure(c);
}

/*
 * Boilerplate by what it says.  Class names are a site's own words; the
 * text of a heading or a short paragraph is what a reader sees, and the
 * sections and lines that every reader skips announce themselves the
 * same way on every site: "Related articles", "Read more: <link>",
 * "Leave a reply", "© 2021 ... All rights reserved", "Subscribe to our
 * newsletter".  The phrases are in the languages of the pages urlfetch
 * meets most (English, German, French, Spanish, Italian, Portuguese,
 * Polish, Dutch).
 */

/*
 * Headings that open a section which is not the article: related and
 * recommended reading, comments, sharing, the author's box.  Matched
 * against the whole heading (lower case, without trailing punctuation
 * and counts); a phrase ending in '*' matches the start of a heading.
 */
static const char *const tail_heads[] = {
	/* related and recommended reading */
	"related", "related articles", "related posts", "related stories",
	"related content", "related topics", "related news", "related links",
	"related reading", "read more", "read next", "read also", "also read",
	"see also", "more stories", "more news", "more articles",
	"more from*", "more on*", "more in*", "you may also like",
	"you might also like", "you may also be interested in",
	"you might be interested in", "recommended for you",
	"recommended articles", "recommended stories", "most popular",
	"most read", "popular posts", "popular articles", "trending",
	"trending now", "latest news", "latest posts", "latest articles",
	"recent posts", "top stories", "editor's picks", "don't miss",
	"das könnte sie auch interessieren", "das könnte dich auch interessieren",
	"das könnte sie interessieren", "mehr zum thema*", "mehr zum thema",
	"weitere artikel", "weitere beiträge", "weitere meldungen",
	"weitere nachrichten", "ähnliche artikel", "ähnliche beiträge",
	"verwandte artikel", "verwandte beiträge", "lesen sie auch",
	"lesen sie mehr", "auch interessant", "ebenfalls interessant",
	"schon gelesen", "unsere empfehlungen", "auch lesen", "zum weiterlesen",
	"interessante artikel", "weitere artikel zum thema",
	"kommentierte artikel", "meist-diskutiert", "meistdiskutiert",
	"meistkommentiert", "filed under*", "abgelegt unter*", "mehr kolumnen*", "meistgelesen",
	"meistgelesene artikel", "meist gelesen", "viel gelesen*",
	"beliebte beiträge", "neueste beiträge", "neueste artikel",
	"aktuelle beiträge", "top-themen", "mehr aus*", "mehr von*",
	"à lire aussi", "a lire aussi", "lire aussi", "sur le même sujet",
	"dans la même rubrique", "articles similaires", "articles liés",
	"les plus lus", "à lire également", "lea también", "lee también",
	"te puede interesar", "le puede interesar", "noticias relacionadas",
	"artículos relacionados", "más noticias", "lo más leído", "lo más visto",
	"te recomendamos", "vea también", "mira también", "relacionados",
	"relacionadas", "articoli correlati", "leggi anche", "potrebbe interessarti",
	"ti potrebbe interessare", "leia também", "notícias relacionadas",
	"veja também", "zobacz także", "zobacz też", "czytaj także",
	"czytaj też", "polecane", "podobne artykuły", "lees ook",
	"gerelateerde artikelen", "weiterlesen", "mehr lesen", "mehr dazu",
	"articles les plus lus", "weiterführende artikel*",
	"weiterführende links", "more on this topic", "more on this story",
	"related coverage", "further reading", "keep reading", "up next",
	"read this next", "what to read next", "more like this",
	"recommended reading", "empfehlungen aus der redaktion",
	"aktuelle berichte aus dieser kategorie", "verwandte themen",
	"verwandte themenbereiche", "weitere beiträge aus der kolumne",
	"das thema könnte dich auch interessieren",
	"das thema könnte sie auch interessieren", "lesen sie auch*",
	"temas relacionados", "meistdiskutierte artikel",
	"weiterführender link", "more from this category",
	"more in this category", "other articles", "andere artikel",
	/* the article's topics and tags */
	"themen", "mehr themen", "temas", "topics", "tags", "schlagworte",
	"schlagwörter", "stichworte",
	/* sharing and following */
	"share", "share this", "share this article", "share this post",
	"share this story", "share on", "follow us", "teilen",
	"diesen artikel teilen", "beitrag teilen", "artikel teilen",
	"teile diesen beitrag", "folgen sie uns", "partager", "partager cet article",
	"compartir", "compartir en", "síguenos", "condividi", "udostępnij",
	"delen", "jetzt teilen", "teilen mit",
	/* the author's box */
	"about the author", "about the authors", "about me", "über den autor",
	"über die autorin", "über die autoren", "zum autor", "zur autorin",
	"über mich", "à propos de l'auteur", "sobre el autor", "sobre la autora",
	"l'autore", "o autorze",
	/* newsletters */
	"newsletter", "subscribe", "subscribe to our newsletter",
	"sign up for our newsletter", "newsletter abonnieren", "jetzt abonnieren",
	"abonnez-vous", "suscríbete", "iscriviti alla newsletter",
	NULL };

/*
 * Headings of a shop's boxes of other products ("Customers also
 * bought"), matched as tail_heads are.
 */
static const char *const shop_heads[] = {
	"people who viewed this item also viewed", "people also viewed",
	"customers also viewed", "customers also bought",
	"customers who viewed this item also viewed",
	"customers who bought this item also bought",
	"frequently bought together", "similar items", "similar products",
	"related products", "related items", "recently viewed",
	"recently viewed items", "recently viewed products",
	"sponsored products", "you may also need", "complete the look",
	"pairs well with", "more items to explore", "seller's other items",
	"explore more", "shop similar", "others also bought",
	"ähnliche produkte", "ähnliche artikel", "kunden kauften auch",
	"zuletzt angesehen", "produits similaires", "productos similares",
	"prodotti simili", NULL };
/* Headings of customer reviews: a shop's comment section. */
static const char *const review_heads[] = { "reviews", "customer reviews",
	"ratings and reviews", "ratings & reviews", "reviews and ratings",
	"customer ratings", "top reviews", "user reviews", "product reviews",
	"bewertungen", "kundenbewertungen", "avis clients", "avis",
	"opiniones", "reseñas", "recensioni", "opinie", "reviews*",
	"customer reviews*", NULL };

/* Headings that open the comment section (matched as tail_heads are). */
static const char *const comment_heads[] = {
	"comments", "comment", "leave a reply", "leave a comment",
	"post a comment", "add a comment", "join the discussion",
	"join the conversation", "reader comments",
	"kommentare", "kommentar", "kommentar schreiben", "kommentar verfassen",
	"schreibe einen kommentar", "hinterlasse einen kommentar",
	"kommentieren", "leserkommentare", "commentaires",
	"laisser un commentaire", "laissez un commentaire", "réactions",
	"comentarios", "deja un comentario", "deja tu comentario", "commenti",
	"lascia un commento", "comentários", "deixe um comentário",
	"komentarze", "dodaj komentarz", "reacties", "laat een reactie achter",
	"comments*", "kommentare*", "commentaires*", "comentarios*",
	"comentários*", "komentarze*", "reacties*", NULL };

/*
 * Whole lines that are controls of the page, not its text: print, save,
 * share, rate, back, and the labels of ads.
 */
static const char *const ui_lines[] = { "print", "print recipe",
	"print this page", "print article", "drucken", "rezept drucken",
	"artikel drucken", "seite drucken", "imprimer", "imprimir", "stampa",
	"drukuj", "merken", "save", "speichern", "gefällt mir", "like",
	"tweet", "whatsapp", "facebook", "twitter", "pinterest", "linkedin",
	"e-mail", "email", "telegram", "xing", "reddit", "flipboard",
	"bild anzeigen", "show image", "artikel bewerten", "rate this article",
	"rate this", "beitrag bewerten", "weiterlesen", "read more",
	"continue reading", "lire la suite", "leer más", "zurück",
	"zurück zur übersicht", "zurück zur vorherigen seite",
	"back to overview", "back to top", "back", "nach oben", "top",
	"reply", "antworten", "répondre", "responder", "rispondi",
	"advertisement", "anzeige", "werbung", "publicidad", "publicité",
	"pubblicità", "reklama", "sponsored", "gesponsert", "externer inhalt",
	"loading", "wird geladen", "aufrufe", "views", "teilen sie dies mit",
	"teilen mit", "share this", "pinnen", "pin it", "pin", "seite teilen",
	"kommentieren", "kommentieren sie", "bisher keine kommentare",
	"keine kommentare", "no comments yet", "no comments",
	"be the first to comment", "möchten sie den artikel teilen",
	"kommentare insgesamt", "permalink", "permalien", "kategorien",
	"categories", "kontakt", "telefon", "pressekontakt", "release date",
	"last modified", "last updated", "aktualisiert am", "aktualisiert",
	"zuletzt aktualisiert", "quellen ausblenden", "quellen anzeigen",
	"jetzt registrieren", NULL };

/* Short lines that introduce a link to another article: "Read more: X". */
static const char *const see_also[] = { "read more", "read also",
	"also read", "see also", "related", "more", "lesen sie auch",
	"lesen sie mehr", "lesen sie hier", "lies auch", "auch interessant",
	"mehr zum thema", "mehr dazu", "siehe auch", "lea también", "lea más",
	"lea", "lee también", "lee", "mire", "mira", "vea también", "vea",
	"le puede interesar", "te puede interesar", "lire aussi",
	"à lire aussi", "a lire aussi", "voir aussi", "leggi anche", "leggi",
	"czytaj także", "czytaj też", "czytaj również", "zobacz też",
	"zobacz także", "zobacz również", "leia também", "leia mais",
	"veja também", "lees ook", "lees meer", NULL };

/* Phrases of copyright lines and disclaimers, anywhere in a short block. */
static const char *const legal_phrases[] = { "all rights reserved",
	"alle rechte vorbehalten", "tous droits réservés",
	"todos los derechos reservados", "tutti i diritti riservati",
	"wszelkie prawa zastrzeżone", "todos os direitos reservados",
	"alle rechten voorbehouden", "copyrighted property",
	"written permission", "without permission", "ohne genehmigung",
	"ohne gewähr", NULL };

/* Phrases of subscription and follow-us boxes, in a short block. */
static const char *const promo_phrases[] = { "subscribe to our",
	"sign up for our", "sign up to our", "subscribe now", "newsletter",
	"follow us on", "follow us", "folgen sie uns", "jetzt abonnieren",
	"abonnieren sie", "abonnez-vous", "suscríbete", "síguenos",
	"iscriviti", "zapisz się", "please subscribe", "become a member",
	"support our journalism", "support independent journalism",
	"unterstützen sie", "hazte miembro", "síguenos en", "siguenos en",
	"on twitter and", "on facebook and", "on instagram and",
	"app for ios", "apps for ios", "for ios and android",
	"canal de telegram", "canal de youtube", "our youtube channel",
	"already a subscriber", "subscribers also", "support us",
	"unterstütze uns", "unterstützt uns", "je fais un don",
	"zapraszamy do subskrypcji", "zapraszamy też do subskrypcji",
	"letter to the editor", "we want to hear what you think", NULL };

/*
 * The text of the subtree at i as a reader compares it: lower case
 * (ASCII and the Latin-1 letters), runs of space made one, at most max
 * bytes, into b (cleared).  Stops at the first link when before_link is
 * set.
 */
static void
plain_text(struct ctx *c, int i, struct uk_buf *b, size_t max,
    int before_link)
{
	int j, sp = 1;

	uk_buf_reset(b);
	for (j = i; j < c->n[i].end && b->len < max; j++) {
		const unsigned char *p;

		if (c->n[j].flags & F_SKIP && j != i) {
			j = c->n[j].end - 1;
			continue;
		}
		if (!(c->n[j].flags & F_TEXT))
			continue;
		if (before_link && c->n[j].flags & F_INLINK &&
		    c->n[j].text > 0)
			break;
		for (p = (const unsigned char *)c->n[j].g->v.text.text;
		     *p && b->len < max; p++) {
			if (isspace(*p)) {
				sp = 1;
				continue;
			}
			if (sp && b->len)
				uk_buf_addch(b, ' ');
			sp = 0;
			if (p[0] == 0xc3 && p[1] >= 0x80 && p[1] <= 0x9e &&
			    p[1] != 0x97) {
				/* À..Þ to à..þ */
				uk_buf_addch(b, (char)0xc3);
				uk_buf_addch(b, (char)(p[1] + 0x20));
				p++;
				continue;
			}
			uk_buf_addch(b, (char)tolower(*p));
		}
	}
}

/* Drop the punctuation, counts and space around a heading's words. */
static void
trim_heading(struct uk_buf *b)
{
	size_t k;

	while (b->len) {
		unsigned char ch = (unsigned char)b->buf[b->len - 1];

		if (isspace(ch) || isdigit(ch) || strchr(":?!.()[]|-»>…", ch) ||
		    ch >= 0x80) {
			/* Trailing non-ASCII is only stripped as "…" or "»". */
			if (ch >= 0x80) {
				if (b->len >= 3 &&
				    !memcmp(b->buf + b->len - 3, "…", 3))
					b->len -= 3;
				else if (b->len >= 2 &&
				    !memcmp(b->buf + b->len - 2, "»", 2))
					b->len -= 2;
				else
					break;
				continue;
			}
			b->len--;
			continue;
		}
		break;
	}
	b->buf[b->len] = '\0';
	/* And a count in front: "3 Comments". */
	for (k = 0; k < b->len && (isdigit((unsigned char)b->buf[k]) ||
	    b->buf[k] == ' ' || b->buf[k] == '('); k++)
		;
	if (k && k < b->len && b->buf[k - 1] == ' ') {
		memmove(b->buf, b->buf + k, b->len - k + 1);
		b->len -= k;
	}
}

static int
heading_listed(const char *s, const char *const *p)
{
	for (; *p; p++) {
		size_t n = strlen(*p);

		if ((*p)[n - 1] == '*') {
			if (!strncmp(s, *p, n - 1))
				return 1;
		} else if (!strcmp(s, *p))
			return 1;
	}
	return 0;
}

static int
is_heading(int tag)
{
	return tag == GUMBO_TAG_H1 || tag == GUMBO_TAG_H2 ||
	    tag == GUMBO_TAG_H3 || tag == GUMBO_TAG_H4 ||
	    tag == GUMBO_TAG_H5 || tag == GUMBO_TAG_H6;
}

/* Skip the subtree at i; cmt: as (part of) a comment section. */
static void
skip_subtree(struct ctx *c, int i, int cmt)
{
	int j;

	if (cmt && !(c->n[i].flags & F_SKIP))
		c->n[i].flags |= F_CROOT;
	for (j = i; j < c->n[i].end; j++)
		if (!(c->n[j].flags & F_SKIP))
			c->n[j].flags |= F_SKIP | (cmt ? F_CMT : 0);
}

static int
heading_level(struct ctx *c, int i)
{
	int j;

	/* The heading itself, or the first element with text inside i. */
	for (j = i; j < c->n[i].end; j++) {
		if (c->n[j].flags & F_TEXT) {
			if (c->n[j].text > 0)
				return 0;
			continue;
		}
		if (is_heading(c->n[j].tag))
			return c->n[j].tag - GUMBO_TAG_H1 + 1;
	}
	return 0;
}

/* Whether the subtree at i holds a paragraph of prose (150 characters). */
static int
has_prose(struct ctx *c, int i)
{
	int j;

	for (j = i; j < c->n[i].end; j++)
		if (!(c->n[j].flags & (F_TEXT | F_SKIP)) && c->n[j].own >= 150)
			return 1;
	return 0;
}

/*
 * A heading that names a section of boilerplate ("Related articles",
 * "Comments"): the heading, with the wrappers it alone fills, and what
 * follows it in its parent go, up to the next heading of its level or
 * above, or to a paragraph of prose (a teaser box in the middle of an
 * article ends where the article's paragraphs resume).  Returns whether
 * it did.
 */
static int
tail_section(struct ctx *c, int i, struct uk_buf *b)
{
	int h = i, p, s, lvl, l, cmt;

	if (c->n[i].text == 0 || c->n[i].text > 80)
		return 0;
	plain_text(c, i, b, 200, 0);
	trim_heading(b);
	if (!b->len)
		return 0;
	cmt = heading_listed(b->buf, comment_heads) ||
	    heading_listed(b->buf, review_heads);
	if (!cmt && !heading_listed(b->buf, tail_heads) &&
	    !heading_listed(b->buf, shop_heads))
		return 0;
	/* A line standing as a heading ranks as a second-level one. */
	lvl = is_heading(c->n[i].tag) ? c->n[i].tag - GUMBO_TAG_H1 + 1 : 2;
	/* Up through wrappers that hold nothing but the heading. */
	while ((p = c->n[h].parent) > c->body &&
	    c->n[p].text == c->n[i].text && c->n[p].tag != GUMBO_TAG_ARTICLE &&
	    c->n[p].tag != GUMBO_TAG_MAIN)
		h = p;
	p = c->n[h].parent;
	if (p < 0)
		return 0;
	skip_subtree(c, h, 0);
	for (s = c->n[h].end; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & F_TEXT)
			continue;
		l = heading_level(c, s);
		if (l && l <= lvl)
			break;
		/*
		 * Prose ends a box of links or a share bar (the article
		 * resumes); comments are prose and run to the next heading.
		 */
		if (!cmt && c->n[s].text - c->n[s].link >= 150 &&
		    c->n[s].link * 5 < c->n[s].text &&
		    (c->n[s].tag == GUMBO_TAG_P ||
			(c->n[s].text - c->n[s].link >= 400 &&
			    has_prose(c, s))))
			break;
		skip_subtree(c, s, cmt);
	}
	return 1;
}

/*
 * A box of links inside an article: a list, table or division, a small
 * part of the page, whose words are nearly all links to elsewhere
 * (teasers, "more stories", tag clouds).  Outside <article>, and on a
 * page whose links are its content (a listing, a collection: they are
 * most of its text), links stay.
 */
static int
link_box(struct ctx *c, int i, int body)
{
	struct nd *n = &c->n[i];
	int j, links = 0;

	if (n->tag != GUMBO_TAG_UL && n->tag != GUMBO_TAG_OL &&
	    n->tag != GUMBO_TAG_DIV && n->tag != GUMBO_TAG_SECTION &&
	    n->tag != GUMBO_TAG_TABLE && n->tag != GUMBO_TAG_DL)
		return 0;
	if (n->text == 0 || n->link * 10 < n->text * 7 ||
	    n->text * 5 > body)
		return 0;
	/* Only within an article: elsewhere links may be the content. */
	for (j = n->parent; j > 0 && c->n[j].tag != GUMBO_TAG_ARTICLE;
	     j = c->n[j].parent)
		;
	if (j <= 0)
		return 0;
	for (j = i + 1; j < n->end && links < 3; j++)
		if (c->n[j].tag == GUMBO_TAG_A && !(c->n[j].flags & F_TEXT) &&
		    !(c->n[j].flags & F_SKIP) && c->n[j].text > 0)
			links++;
	return links >= 3;
}

/* Whether the subtree at i holds no block but line breaks. */
static int
leaf(struct ctx *c, int i)
{
	int j;

	for (j = i + 1; j < c->n[i].end; j++)
		if (!(c->n[j].flags & F_TEXT) && c->n[j].flags & F_BLOCK &&
		    c->n[j].tag != GUMBO_TAG_BR)
			return 0;
	return 1;
}

/* Whether the line at i is a control of the page (ui_lines). */
static int
ui_line(struct ctx *c, int i, struct uk_buf *b)
{
	plain_text(c, i, b, 100, 0);
	trim_heading(b);
	return b->len && heading_listed(b->buf, ui_lines);
}

static int
has_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strstr(s, *list))
			return 1;
	return 0;
}

/* Labels of an image's credit line: "Photo: Agency". */
static const char *const credit_labels[] = { "photo:", "photos:", "foto:",
	"fotos:", "bild:", "bilder:", "image:", "images:", "credit:",
	"credits:", "photo credit", "image credit", "crédit photo",
	"crédits photo", "crédits photos", "fotocredit", "bildquelle",
	"fotoquelle", "photo by ", "photograph:", "titelbild:",
	"titelfoto:", "foto ©", "bild ©", "photo ©", NULL };

static int
credit_line(const char *s)
{
	const char *const *p;

	for (p = credit_labels; *p; p++)
		if (!strncmp(s, *p, strlen(*p)))
			return 1;
	return 0;
}

/*
 * Whether the element at i stands among paragraphs of prose: the element
 * before it or after it in its parent is a paragraph of 150 characters.
 */
static int
beside_prose(struct ctx *c, int i)
{
	int p = c->n[i].parent, s, prev = -1;

	if (p < 0)
		return 0;
	for (s = p + 1; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & (F_TEXT | F_SKIP))
			continue;
		if (s == i)
			break;
		prev = s;
	}
	if (prev >= 0 && c->n[prev].tag == GUMBO_TAG_P &&
	    c->n[prev].own >= 150)
		return 1;
	for (s = c->n[i].end; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & (F_TEXT | F_SKIP))
			continue;
		return c->n[s].tag == GUMBO_TAG_P && c->n[s].own >= 150;
	}
	return 0;
}

/*
 * A short block that is a line of boilerplate: "Read more: <a link>", a
 * copyright line or disclaimer, a call to subscribe or follow.
 */
static int
boiler_line(struct ctx *c, int i, struct uk_buf *b)
{
	struct nd *n = &c->n[i];
	const char *const *p;

	if (n->text == 0 || n->text > 300)
		return 0;
	/* A paragraph that is only a link, among prose: another article. */
	if (n->tag == GUMBO_TAG_P && n->text < 150 &&
	    n->link * 10 >= n->text * 9 && beside_prose(c, i))
		return 1;
	/* "Read more: <link>": a few words and a colon, then a link. */
	if (n->link * 2 >= n->text) {
		plain_text(c, i, b, 64, 1);
		trim_heading(b);
		for (p = see_also; *p; p++)
			if (!strcmp(b->buf, *p))
				return 1;
	}
	plain_text(c, i, b, 400, 0);
	for (p = see_also; *p; p++) {
		size_t k = strlen(*p);

		if (!strncmp(b->buf, *p, k) && b->buf[k] == ':' &&
		    n->text < 200)
			return 1;
	}
	if (!strncmp(b->buf, "©", 2) || !strncmp(b->buf, "(c) ", 4) ||
	    !strncmp(b->buf, "copyright", 9))
		return 1;
	if (has_any(b->buf, legal_phrases))
		return 1;
	if (n->text < 120 && credit_line(b->buf))
		return 1;
	if (n->text < 200 && has_any(b->buf, promo_phrases))
		return 1;
	return 0;
}

/*
 * Mark boilerplate by text: sections under a boilerplate heading, and
 * short lines of boilerplate (boiler_line) among the paragraphs.  Then
 * measure again.
 */
static void
mark_by_text(struct ctx *c)
{
	struct uk_buf b = UK_BUF_INIT;
	int i, changed = 0, body;

	if (!c->body)
		return;
	body = c->n[c->body].text;
	for (i = c->body + 1; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (n->flags & (F_TEXT | F_SKIP))
			continue;
		if (is_heading(n->tag) || (n->text <= 60 && leaf(c, i) &&
			(n->tag == GUMBO_TAG_P || n->tag == GUMBO_TAG_DIV ||
			    n->tag == GUMBO_TAG_SPAN || n->tag == GUMBO_TAG_B ||
			    n->tag == GUMBO_TAG_STRONG ||
			    n->tag == GUMBO_TAG_HEADER || n->tag == GUMBO_TAG_A ||
			    n->tag == GUMBO_TAG_BUTTON))) {
			if (tail_section(c, i, &b)) {
				changed = 1;
				continue;
			}
			if (n->text > 0 && n->text <= 40 && ui_line(c, i, &b)) {
				skip_subtree(c, i, 0);
				changed = 1;
				i = n->end - 1;
				continue;
			}
			if (is_heading(n->tag))
				continue;
		}
		if (!(n->flags & F_BLOCK))
			continue;
		if (link_box(c, i, body)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		if ((n->tag == GUMBO_TAG_P || n->tag == GUMBO_TAG_DIV ||
			n->tag == GUMBO_TAG_LI || n->tag == GUMBO_TAG_SPAN ||
			n->tag == GUMBO_TAG_SMALL || n->tag == GUMBO_TAG_EM) &&
		    boiler_line(c, i, &b)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
		}
	}
	uk_buf_release(&b);
	if (changed) {
		reset_measure(c);
		measure(c);
	}
}

static void
init_score(struct ctx *c, int i)
{
	struct nd *n = &c->n[i];
	struct uk_buf ci = UK_BUF_INIT;

	if (n->flags & F_CAND)
		return;
	n->flags |= F_CAND;
	switch (n->tag) {
	case GUMBO_TAG_DIV:
	case GUMBO_TAG_ARTICLE:
	case GUMBO_TAG_MAIN:
	case GUMBO_TAG_SECTION:
		n->score = 5;
		break;
	case GUMBO_TAG_PRE:
	case GUMBO_TAG_TD:
	case GUMBO_TAG_BLOCKQUOTE:
		n->score = 3;
		break;
	case GUMBO_TAG_ADDRESS:
	case GUMBO_TAG_OL:
	case GUMBO_TAG_UL:
	case GUMBO_TAG_DL:
	case GUMBO_TAG_DD:
	case GUMBO_TAG_DT:
	case GUMBO_TAG_LI:
	case GUMBO_TAG_FORM:
		n->score = -3;
		break;
	case GUMBO_TAG_H1:
	case GUMBO_TAG_H2:
	case GUMBO_TAG_H3:
	case GUMBO_TAG_H4:
	case GUMBO_TAG_H5:
	case GUMBO_TAG_H6:
	case GUMBO_TAG_TH:
		n->score = -5;
		break;
	default:
		break;
	}
	if (n->tag == GUMBO_TAG_ARTICLE || n->tag == GUMBO_TAG_MAIN)
		n->score += 10;
	class_id(n->g, &ci);
	n->score += class_weight(ci.buf);
	uk_buf_release(&ci);
}

/* Score text blocks into their ancestors; return the best candidate. */
static int
score(struct ctx *c)
{
	int i, best = -1, lvl, p;
	double b = 0;

	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		double s;

		if (n->flags & (F_TEXT | F_SKIP) || !(n->flags & F_BLOCK))
			continue;
		if (n->own < 25)
			continue;
		s = 1 + n->owncommas + (n->own / 100 > 3 ? 3 : n->own / 100);
		for (p = n->parent, lvl = 0; p >= 0 && lvl < 3;
		     p = c->n[p].parent, lvl++) {
			if (c->n[p].tag == GUMBO_TAG_HTML)
				break;
			init_score(c, p);
			c->n[p].score += lvl == 0 ? s :
			    lvl == 1              ? s / 2 :
						    s / (lvl * 3);
		}
	}
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		double s;

		if (!(n->flags & F_CAND) || n->flags & F_SKIP)
			continue;
		s = n->score * (1 - link_density(n));
		n->score = s;
		if (best < 0 || s > b) {
			best = i;
			b = s;
		}
	}
	return best;
}

/* Whether sibling s of the best candidate belongs to the article. */
static int
sibling_ok(struct ctx *c, int s, double threshold)
{
	struct nd *n = &c->n[s];
	double ld;

	if (n->flags & F_SKIP)
		return 0;
	if ((n->flags & F_CAND) && n->score >= threshold)
		return 1;
	if (n->tag != GUMBO_TAG_P)
		return 0;
	ld = link_density(n);
	if (n->text > 80 && ld < 0.25)
		return 1;
	return 0;
}

/* Whether a class name says its element is one of many (posts, items). */
static int
repeat_class(const char *s, size_t n)
{
	char b[64];
	size_t i;

	if (n >= sizeof(b))
		n = sizeof(b) - 1;
	for (i = 0; i < n; i++)
		b[i] = (char)tolower((unsigned char)s[i]);
	b[n] = '\0';
	return match_any_sub(b, bytes_of(b), repeat_hints, repeat_hints_m);
}

/* Whether elements a and b are of a kind: tag and first class name. */
static int
same_kind(struct ctx *c, int a, int b)
{
	const char *ca, *cb;
	size_t la, lb;

	if (c->n[a].tag != c->n[b].tag || (c->n[a].flags & F_TEXT) ||
	    (c->n[b].flags & F_TEXT))
		return 0;
	ca = uk_ex_attr(c->n[a].g, "class");
	cb = uk_ex_attr(c->n[b].g, "class");
	if (!ca || !cb) {
		/* Without a class only elements made to repeat count. */
		return !ca && !cb &&
		    (c->n[a].tag == GUMBO_TAG_ARTICLE ||
			c->n[a].tag == GUMBO_TAG_LI ||
			c->n[a].tag == GUMBO_TAG_TR);
	}
	ca += strspn(ca, " \t\n");
	cb += strspn(cb, " \t\n");
	la = strcspn(ca, " \t\n");
	lb = strcspn(cb, " \t\n");
	if (!la || la != lb || memcmp(ca, cb, la))
		return 0;
	return c->n[a].tag == GUMBO_TAG_ARTICLE ||
	    c->n[a].tag == GUMBO_TAG_LI || c->n[a].tag == GUMBO_TAG_TR ||
	    repeat_class(ca, la);
}

/*
 * A run of blocks of a kind holding the best block: forum posts, answers,
 * items of a listing.  Looks a few levels up from best for an ancestor
 * whose parent has at least two more children like it; returns that
 * ancestor, or -1.
 */
static int
repeated(struct ctx *c, int best)
{
	int a = best, lvl, s, n, p;

	for (lvl = 0; lvl < 6 && a > c->body; lvl++, a = c->n[a].parent) {
		p = c->n[a].parent;
		if (p < c->body)
			break;
		n = 0;
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s != a && !(c->n[s].flags & F_SKIP) &&
			    c->n[s].text > 0 && same_kind(c, a, s))
				n++;
		if (n >= 2)
			return a;
	}
	return -1;
}

/*
 * Whether sibling s of the part chosen on a page that is no article (a
 * product, a landing page) belongs with it, as Readability joins
 * siblings: 200 characters that are not links, under a fifth of its
 * text in links (a product's description and its specifications sit in
 * sections beside each other; measured on both sets: 100 to 200
 * characters and a fifth to a third in links score the same).
 */
static int
sibling_joins(struct ctx *c, int s)
{
	struct nd *n = &c->n[s];

	if (n->flags & (F_SKIP | F_TEXT))
		return 0;
	return n->text - n->link >= 200 && link_density(n) < 0.2;
}

/* Choose the main part of the page around the best block and write it. */
static void
select_emit(struct ctx *c, int best, struct writer *w)
{
	int p = c->n[best].parent, sel = 0, total = c->n[c->body].text, s;
	int r, a;
	double thr = c->n[best].score * 0.2;
	double frac = 0.5;

	if (thr < 10)
		thr = 10;
	r = repeated(c, best);
	if (r > 0) {
		p = c->n[r].parent;
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == r ||
			    (same_kind(c, r, s) && !(c->n[s].flags & F_SKIP)))
				sel += c->n[s].text;
		if (sel >= frac * total) {
			for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
				if (s == r ||
				    (same_kind(c, r, s) &&
					!(c->n[s].flags & F_SKIP)))
					uk_ex_emit(c, s, w, 1);
			return;
		}
		p = c->n[best].parent;
		sel = 0;
	}
	if (p > 0 && c->n[p].tag != GUMBO_TAG_HTML) {
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == best || sibling_ok(c, s, thr))
				sel += c->n[s].text;
	} else
		sel = c->n[best].text;
	if (sel < frac * total) {
		/* Not an article: the part of the page that holds most. */
		a = best;
		while (a != c->body && c->n[a].text < frac * total)
			a = c->n[a].parent;
		/* With the siblings that join it (sibling_joins). */
		p = c->n[a].parent;
		if (a == c->body || p <= 0 || c->n[p].tag == GUMBO_TAG_HTML) {
			uk_ex_emit(c, a, w, 1);
			return;
		}
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == a || sibling_joins(c, s))
				uk_ex_emit(c, s, w, 1);
	} else if (p > 0 && c->n[p].tag != GUMBO_TAG_HTML) {
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == best || sibling_ok(c, s, thr))
				uk_ex_emit(c, s, w, 1);
	} else
		uk_ex_emit(c, best, w, 1);
}

/*
 * The text of the comment sections (trafilatura's include_comments):
 * each section found by its class or its heading, with the parts that
 * were skipped for being comments put back and its forms (the reply box)
 * left out, written by the page's writer w into b.
 */
static void
emit_comments(struct ctx *c, const struct writer *w, struct uk_buf *b)
{
	struct writer cw = *w;
	unsigned *saved = NULL;
	int i, j, k, covered = 0;

	cw.b = b;
	cw.brk = 0;
	for (i = c->body; i > 0 && i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (i < covered || !(n->flags & F_CROOT) ||
		    !(n->flags & F_CMT) || n->tag == GUMBO_TAG_FORM)
			continue;
		covered = n->end;
		saved = uk_xrealloc(saved,
		    (size_t)(n->end - i) * sizeof(*saved));
		for (j = i; j < n->end; j++) {
			saved[j - i] = c->n[j].flags;
			if (c->n[j].flags & F_CMT)
				c->n[j].flags &= ~(unsigned)F_SKIP;
		}
		for (j = i; j < n->end; j++)
			if (c->n[j].tag == GUMBO_TAG_FORM &&
			    !(c->n[j].flags & F_TEXT))
				for (k = j; k < c->n[j].end; k++)
					c->n[k].flags |= F_SKIP;
		uk_ex_emit(c, i, &cw, 1);
		for (j = i; j < n->end; j++)
			c->n[j].flags = saved[j - i];
	}
	free(saved);
	uk_buf_trim(b);
	uk_ex_dedupe(b);
}

static int
contains_ci(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcasestr(s, *list))
			return 1;
	return 0;
}

/* A block, challenge or bot-check page rather than content. */
static int
is_blocked(struct ctx *c, const char *alltext, size_t alllen)
{
	static const char *const titles[] = { "just a moment",
		"attention required", "access denied", "security check",
		"are you a robot", "captcha", "ddos-guard", "ddos protection",
		"checking your browser", "one more step",
		"verify you are human", "request blocked",
		"pardon our interruption", "bot verification", "403 forbidden",
		"human verification", "request rejected",
		"you have been blocked", NULL };
	static const char *const bodies[] = {
		"enable javascript and cookies to continue",
		"checking your browser before accessing",
		"checking if the site connection is secure",
		"verify you are human", "verifying you are human",
		"complete the security check", "please turn javascript on",
		"you don't have permission to access",
		"you do not have permission to access", "unusual traffic",
		"are you a robot", "press & hold", "press and hold",
		"request unsuccessful. incapsula", "incapsula incident",
		"sorry, you have been blocked",
		"the requested url was rejected", "why have i been blocked",
		"enable cookies", "captcha",
		"performance & security by cloudflare", "access denied",
		"this request was blocked", "bot protection", NULL
	};

	if (alllen > 3000)
		return 0;
	if (c->title && contains_ci(c->title, titles))
		return 1;
	return contains_ci(alltext, bodies);
}

/*
 * Gumbo makes a small allocation for nearly every token and frees them
 * one by one at the end; a bump allocator freed in one go makes parsing
 * a fifth faster.  Gumbo grows its buffers by doubling (allocate, copy,
 * free), so the waste stays under the size of what is live.
 */
#define ARENA_CHUNK (1UL << 20)

struct arena_chunk {
	struct arena_chunk *next;
	max_align_t data[];
};

struct arena {
	struct arena_chunk *chunks;
	char *cur;
	size_t left;
};

static void *
arena_alloc(void *ud, size_t n)
{
	struct arena *a = ud;
	struct arena_chunk *c;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > ARENA_CHUNK / 4) {
		c = uk_xmalloc(sizeof(*c) + n);
		c->next = a->chunks ? a->chunks->next : NULL;
		if (a->chunks)
			a->chunks->next = c;
		else
			a->chunks = c;
		return c->data;
	}
	if (n > a->left) {
		c = uk_xmalloc(sizeof(*c) + ARENA_CHUNK);
		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c->data;
		a->left = ARENA_CHUNK;
	}
	p = a->cur;
	a->cur += n;
	a->left -= n;
	return p;
}

static void
arena_free(void *ud, void *p)
{
	(void)ud;
	(void)p;
}

static void
arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		free(c);
	}
	a->cur = NULL;
	a->left = 0;
}

int
uk_extract_html(const char *html, size_t len, const char *content_type,
    const char *url, const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err)
{
	struct ctx c;
	struct uk_buf u = UK_BUF_INIT, all = UK_BUF_INIT, text = UK_BUF_INIT;
	struct writer w;
	GumboOptions opts = kGumboDefaultOptions;
	struct arena arena = { NULL, NULL, 0 };
	GumboOutput *out = NULL;
	char cs[64], *nul;
	size_t bom, k, max;
	int best, ret = -1, fallback = 0;

	(void)url;
	(void)o;
	pthread_once(&masks_once, masks_init);
	memset(x, 0, sizeof(*x));
	memset(&c, 0, sizeof(c));
	c.x = x;
	c.url = url;
	c.http_lang = o ? o->content_language : NULL;
	uk_charset_detect(html, len, content_type, cs, sizeof(cs), &bom);
	if (uk_charset_to_utf8(html, len, cs, &u, NULL) < 0) {
		memcpy(cs, "utf-8", 6);
		uk_buf_reset(&u);
		uk_charset_to_utf8(html, len, cs, &u, NULL);
	}
	x->charset = uk_xstrdup(cs);
	/* Gumbo stops at a NUL byte; make them spaces. */
	for (k = 0; (nul = memchr(u.buf + k, '\0', u.len - k)); k++) {
		*nul = ' ';
		k = (size_t)(nul - u.buf);
	}
	max = u.len / 32 > MAX_ELEMENTS ? u.len / 32 : MAX_ELEMENTS;
	u.len = shrink(u.buf, u.len);
	if ((k = count_elements(u.buf, u.len)) > max) {
		uk_err_set(err, UK_EXIT_FAIL,
		    "the page has too many elements (%zu, at most %zu for "
		    "its size)", k, max);
		goto done;
	}
	opts.max_errors = 0;
	opts.allocator = arena_alloc;
	opts.deallocator = arena_free;
	opts.userdata = &arena;
	out = gumbo_parse_with_options(&opts, u.buf, u.len);
	if (!out) {
		uk_err_set(err, UK_EXIT_FAIL, "cannot parse the page");
		goto done;
	}
	build(&c, out->document);
	measure(&c);
	confirm_boilerplate(&c);
	mark_by_text(&c);
	uk_ex_finish_metadata(&c);

	uk_ex_w_init(&w, &all, NULL, url);
	if (c.body)
		uk_ex_emit(&c, c.body, &w, 0);
	uk_buf_trim(&all);

	best = c.body ? score(&c) : -1;
	if (best > 0 && c.n[best].text >= 50) {
		w.b = &text;
		w.brk = 0;
		select_emit(&c, best, &w);
		uk_buf_trim(&text);
		uk_ex_dedupe(&text);
	}
	if (text.len < 50 || text.len * 10 < all.len / 10) {
		/*
		 * No block scored as the main text.  A second, more
		 * inclusive pass, as trafilatura's baseline is: the whole
		 * body less what the boilerplate rules set aside (menus,
		 * footers, cookie notices, related lists); only when that
		 * leaves less than a fifth of the page's text (the rules
		 * took the page for boilerplate, and a page is not mostly
		 * menus), the plain fallback: everything but scripts and
		 * styles.
		 */
		uk_buf_reset(&text);
		uk_ex_w_init(&w, &text, NULL, url);
		if (c.body)
			uk_ex_emit(&c, c.body, &w, 1);
		uk_buf_trim(&text);
		uk_ex_dedupe(&text);
		if (text.len >= 50 && text.len * 5 >= all.len)
			fallback = 1;
		else {
			uk_buf_reset(&text);
			uk_buf_add(&text, all.buf, all.len);
			fallback = 2;
		}
		x->fallback = 1;
	}
	/* Chosen on the plain text; then written in the format asked for. */
	if (o && o->format == UK_EXTRACT_MARKDOWN && c.body) {
		uk_buf_reset(&text);
		uk_ex_w_init(&w, &text, o, url);
		if (fallback)
			uk_ex_emit(&c, c.body, &w, fallback == 1);
		else
			select_emit(&c, best, &w);
		uk_buf_trim(&text);
		if (fallback != 2)
			uk_ex_dedupe(&text);
	}
	if (o && o->comments && c.body) {
		struct uk_buf cb = UK_BUF_INIT;

		/* A fresh writer in the page's format. */
		uk_ex_w_init(&w, &cb, o, url);
		emit_comments(&c, &w, &cb);
		if (cb.len)
			x->comments = uk_buf_detach(&cb, NULL);
		uk_buf_release(&cb);
	}
	x->blocked = is_blocked(&c, all.buf, all.len);
	x->needs_browser = uk_ex_needs_browser(&c, all.buf, all.len);
	/* An app shell's notice is not the page's text. */
	if (x->needs_browser && uk_ex_only_notice(text.buf, text.len))
		uk_buf_reset(&text);
	x->text = uk_buf_detach(&text, NULL);
	x->format = w.md ? "markdown" : "text";
	ret = 0;
done:
	/* The whole tree is in the arena: no gumbo_destroy_output. */
	arena_release(&arena);
	free(c.n);
	uk_ex_metadata_release(&c);
	uk_buf_release(&u);
	uk_buf_release(&all);
	uk_buf_release(&text);
	return ret;
}

void
uk_extract_release(struct uk_extract *x)
{
	size_t k;

	if (!x)
		return;
	free(x->title);
	free(x->description);
	free(x->author);
	free(x->date);
	free(x->lang);
	free(x->sitename);
	free(x->canonical);
	free(x->image);
	for (k = 0; k < x->ntags; k++)
		free(x->tags[k]);
	free(x->tags);
	free(x->text);
	free(x->comments);
	free(x->charset);
	memset(x, 0, sizeof(*x));
}
