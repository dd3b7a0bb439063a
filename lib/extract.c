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
 * reviews, teaser, caption, credit, author and the like (uk_ex_class_verdict)
 * or that the site does not print ("no-print"), unless such an element
 * holds a <main> or <article> or most of the page's plain text (a
 * "has-sidebar" wrapper; not one that says related stories, comments or
 * cookies), or is an article's own
 * <header> ("article-header") holding its <h1> and standfirst.  Then by
 * what the page says (extract_text.c): sections under a heading such as
 * "Related articles", "Comments", "Customer reviews", "Customers also bought",
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
 *    listing): the nearest ancestor holding half the text is taken,
 *    with the sections beside it (beside the wrappers that hold
 *    nothing else).
 * Paragraphs repeated word for word are written once.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "charset.h"
#include "extract.h"
#include "extract_edge.h"
#include "extract_int.h"
#include "extract_md.h"
#include "extract_override.h"
#include "json.h"
#include "strset.h"
#include "util.h"


/*
 * Elements whose text is never main text, with their whole subtree:
 * what is never text, and the page's furniture (menus, footers, asides,
 * captions).
 */
static int
tag_skipped(int tag)
{
	return uk_ex_tag_never_text(tag) || tag == GUMBO_TAG_NAV ||
	    tag == GUMBO_TAG_FOOTER || tag == GUMBO_TAG_ASIDE ||
	    tag == GUMBO_TAG_MENU || tag == GUMBO_TAG_FIGCAPTION;
}

/* The page's furniture by its tag (not never text, not a caption). */
static int
by_tag(int tag)
{
	return tag == GUMBO_TAG_NAV || tag == GUMBO_TAG_FOOTER ||
	    tag == GUMBO_TAG_ASIDE || tag == GUMBO_TAG_MENU;
}

static int
push(struct ctx *c, GumboNode *g, int parent)
{
	struct nd *n;

	if (c->nn == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 1024;
		c->n = uk_util_xrealloc(c->n, (size_t)c->alloc * sizeof(*c->n));
	}
	n = &c->n[c->nn];
	memset(n, 0, sizeof(*n));
	n->g = g;
	n->parent = parent;
	n->tag = GUMBO_TAG_UNKNOWN;
	return c->nn++;
}

/*
 * Whether an element under g (not g itself) has role r, or with r NULL
 * is an <h1>..<h6>; a walk down gumbo's tree and back up by the parents,
 * with no stack.  A "tablist" holds the tabs' names, but some sites put
 * the role on the widget's wrapper, panels and all (a town's department
 * page whose whole text is in its tabs): a tablist that holds a
 * "tabpanel" is no list of tabs.
 */
static int
holds(GumboNode *g, const char *r)
{
	GumboNode *n = g;
	unsigned k = 0;

	for (;;) {
		GumboVector *v = &n->v.element.children;
		const char *s;

		if (k < v->length) {
			GumboNode *ch = v->data[k];

			if (ch->type != GUMBO_NODE_ELEMENT) {
				k++;
				continue;
			}
			if (r ? (s = uk_ex_attr(ch, "role")) &&
			    !strcasecmp(s, r) :
			    ch->v.element.tag >= GUMBO_TAG_H1 &&
			    ch->v.element.tag <= GUMBO_TAG_H6)
				return 1;
			n = ch;
			k = 0;
			continue;
		}
		if (n == g)
			return 0;
		k = n->index_within_parent + 1;
		n = n->parent;
	}
}

/* Whether element g is hidden by its attributes. */
static int
hidden(GumboNode *g)
{
	const char *s;

	if (uk_ex_attr(g, "hidden"))
		return 1;
	s = uk_ex_attr(g, "aria-hidden");
	if (s && !strcasecmp(s, "true"))
		return 1;
	s = uk_ex_attr(g, "style");
	return s && uk_ex_style_hidden(s);
}

/*
 * Whether hidden element g is a panel the reader opens, whose text is
 * the page's: a tab's (role "tabpanel": a code sample's other
 * languages), an accordion's or a collapsible box's by its class or id
 * ("accordion__content", "collapse": a buying guide's questions).
 */
static int
closed_panel(GumboNode *g, struct uk_buf *ci)
{
	static const char *const panel[] = { "accordion", "collaps",
		"tabpanel", "tab-pane", "tab-content", NULL };
	const char *s = uk_ex_attr(g, "role");
	int k;

	if (s && !strcasecmp(s, "tabpanel"))
		return 1;
	uk_ex_class_id(g, ci);
	for (k = 0; ci->len && panel[k]; k++)
		if (strstr(ci->buf, panel[k]))
			return 1;
	return 0;
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

	if (hidden(g))
		return closed_panel(g, ci) ? 0 : 1;
	s = uk_ex_attr(g, "role");
	if (s &&
	    (!strcasecmp(s, "navigation") || !strcasecmp(s, "banner") ||
		!strcasecmp(s, "contentinfo") ||
		!strcasecmp(s, "complementary") || !strcasecmp(s, "menu") ||
		!strcasecmp(s, "menubar") || !strcasecmp(s, "search") ||
		!strcasecmp(s, "dialog") || !strcasecmp(s, "alertdialog") ||
		(!strcasecmp(s, "tablist") && !holds(g, "tabpanel"))))
		return 1;
	if (tag == GUMBO_TAG_P) {
		/*
		 * A paragraph's classes are mostly its style ("lead",
		 * "text-center"): only names of a box beside the text
		 * count (an image's caption or credit, a disclaimer).
		 */
		uk_ex_class_id(g, ci);
		if (ci->len < 2 || (!uk_ex_class_caption(ci->buf) &&
			!strstr(ci->buf, "disclaimer")))
			return 0;
		return uk_ex_class_verdict(ci->buf);
	}
	if (tag == GUMBO_TAG_BODY || tag == GUMBO_TAG_HTML ||
	    tag == GUMBO_TAG_ARTICLE || tag == GUMBO_TAG_MAIN ||
	    tag == GUMBO_TAG_TABLE || tag == GUMBO_TAG_TBODY ||
	    tag == GUMBO_TAG_TR || tag == GUMBO_TAG_TD || tag == GUMBO_TAG_PRE)
		return 0;
	uk_ex_class_id(g, ci);
	if (ci->len < 2)
		return 0;
	if (uk_ex_class_noprint(ci->buf))
		return 2;
	return uk_ex_class_verdict(ci->buf);
}

/*
 * A button that is all a heading holds the section's title: the
 * accordion of WAI-ARIA's authoring practices writes each panel's title
 * as <h3><button aria-expanded>Title</button></h3> (a product's
 * "Details" and "Material & care", a service's features, questions of
 * a FAQ), and the panel's text stays on the page; many sites turn it
 * inside out, <button><h3>Title</h3></button> (a service's "Hire a
 * designer in four steps").  Any other button is a control and stays
 * out.
 */
static int
heading_button(const struct ctx *c, int i, int parent)
{
	return c->n[i].tag == GUMBO_TAG_BUTTON &&
	    ((c->n[parent].tag >= GUMBO_TAG_H1 &&
		c->n[parent].tag <= GUMBO_TAG_H6) ||
		holds(c->n[i].g, NULL));
}

/*
 * A button holding a heading whose panel (the element after it) holds
 * no text is the title of nothing kept: a table of contents' "Contents"
 * over a <nav>, a panel hidden.  Then measure again.
 */
static void
empty_panels(struct ctx *c)
{
	int i, s, j, p, n = 0;

	for (i = 0; i < c->nn; i++) {
		if (c->n[i].tag != GUMBO_TAG_BUTTON ||
		    c->n[i].flags & (F_TEXT | F_SKIP) ||
		    !holds(c->n[i].g, NULL))
			continue;
		p = c->n[i].parent;
		for (s = c->n[i].end; s < c->n[p].end; s = c->n[s].end)
			if (!(c->n[s].flags & F_TEXT))
				break;
		if (s < c->n[p].end && c->n[s].text > 0)
			continue;
		for (j = i; j < c->n[i].end; j++)
			c->n[j].flags |= F_SKIP;
		n++;
	}
	if (n)
		uk_ex_measure(c);
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
	st = uk_util_xmalloc((size_t)salloc * sizeof(*st));
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

			/*
			 * Inside <pre> a class names a token of the code
			 * (a highlighter's "hljs-comment", "token comment"),
			 * not a box of the page: only hiding counts.
			 */
			if (pflags & F_PRE && bp != 1)
				bp = 0;
			/*
			 * A heading's own link (its permalink, which a book's
			 * or a reference's generator names "header" or
			 * "anchor") is the heading's text, not a box of it.
			 */
			if (bp == 2 && c->n[i].tag == GUMBO_TAG_A &&
			    c->n[pi].tag >= GUMBO_TAG_H1 &&
			    c->n[pi].tag <= GUMBO_TAG_H6)
				bp = 0;

			if ((tag_skipped(c->n[i].tag) &&
				!heading_button(c, i, pi)) ||
			    ch->type == GUMBO_NODE_TEMPLATE || bp == 1) {
				c->n[i].flags |= F_SKIP;
				/* Why, for the back model (extract_stack.c). */
				if (bp == 1 && !hidden(ch))
					c->n[i].flags |= F_BYROLE;
				else if (bp != 1 && by_tag(c->n[i].tag))
					c->n[i].flags |= F_BYTAG;
			} else if (bp == 3)
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
			st = uk_util_xrealloc(st, (size_t)salloc * sizeof(*st));
		}
		st[sn].g = ch;
		st[sn].idx = i;
		st[sn].next = 0;
		sn++;
	}
	free(st);
	uk_buf_release(&ci);
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

/*
 * The most text lead_emit keeps before the main text (a headline, a
 * standfirst, a byline; measured on both sets: 300, 600 and 1000 gain
 * recall in that order at the same precision).  Eight blocks at most.
 */
#define LEAD_MAX 1000
/*
 * Of the lead, the shortest block kept but the <h1> (a byline, a date,
 * "Follow" are shorter; 40 and 80 measured the same).
 */
#define LEAD_LINE 40
/*
 * How far up from the selection's first node lead_start looks for a
 * lead without an <h1> (measured on both sets: 2, 3 and 4 levels gain
 * recall in that order at the same precision; 3 kept, see
 * doc/PERFORMANCE.md).
 */
#define LEAD_UP 3
/*
 * The text besides its <h1> that keeps an article's <header> set aside
 * by its class (article_head; measured on both sets: 40, 80 and 150 are
 * within a snippet of each other on the article set, 40 takes more
 * notices and forum posts' headers on extract-dev).
 */
#define HEAD_PROSE 80

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

static double
link_density(const struct nd *n)
{
	return n->text ? (double)n->link / n->text : 0;
}

/*
 * Whether <header> i, set aside by its class names (not only by being
 * a <header> outside <article>), is the article's header and stays:
 * its class says so (uk_ex_article_header), and it holds the <h1> h and
 * HEAD_PROSE characters of text besides it (a standfirst; a header of
 * only a headline, a date and a byline stays out).
 */
static int
article_head(struct ctx *c, int i, int h)
{
	struct nd *n = &c->n[i];
	struct uk_buf ci = UK_BUF_INIT;
	int r;

	if (n->tag != GUMBO_TAG_HEADER || n->flags & F_STRONG ||
	    (n->text - n->link) - (c->n[h].text - c->n[h].link) < HEAD_PROSE)
		return 0;
	uk_ex_class_id(n->g, &ci);
	r = uk_ex_class_verdict(ci.buf) == 2 && uk_ex_article_header(ci.buf);
	uk_buf_release(&ci);
	return r;
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
		/*
		 * Class names that say related stories, comments or
		 * cookies are believed however much the element holds
		 * (a long list of teasers under a short article).
		 */
		if (!(n->flags & F_STRONG) &&
		    (n->text - n->link) * 10 > total * 4)
			keep = 1;
		for (j = i + 1; j < n->end && !keep; j++) {
			const char *role;

			if (c->n[j].tag == GUMBO_TAG_MAIN ||
			    c->n[j].tag == GUMBO_TAG_ARTICLE)
				keep = 1;
			if (c->n[j].tag == GUMBO_TAG_H1 && article_head(c, i, j))
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
	uk_ex_measure(c);
	/* Class names that would remove most of the page are not believed. */
	if ((c->n[c->body].text - c->n[c->body].link) * 10 >= total * 2)
		return;
	for (i = 0; i < c->nn; i++)
		if (c->n[i].flags & F_CSKIP && !(c->n[i].flags & F_STRONG))
			c->n[i].flags &= ~(unsigned)(F_SKIP | F_CSKIP);
	uk_ex_measure(c);
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
	uk_ex_class_id(n->g, &ci);
	n->score += uk_ex_class_weight(ci.buf);
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
	    uk_ex_repeat_class(ca, la);
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

/* Whether the subtree at i holds a <form>. */
static int
holds_form(struct ctx *c, int i)
{
	int j;

	for (j = i + 1; j < c->n[i].end; j++)
		if (c->n[j].tag == GUMBO_TAG_FORM && !(c->n[j].flags & F_TEXT))
			return 1;
	return c->n[i].tag == GUMBO_TAG_FORM;
}

/*
 * Write the subtree at i as part of the selection, or, in the dry run
 * select_emit makes first, only note where the selection starts.
 */
/* Mark the text nodes the subtree at i writes with F_SEL (c->mark). */
static void
sel_mark(struct ctx *c, int i)
{
	int j;

	for (j = i; j < c->n[i].end; j++) {
		if (j > i && c->n[j].flags & F_SKIP) {
			j = c->n[j].end - 1;
			continue;
		}
		if (c->n[j].flags & F_TEXT)
			c->n[j].flags |= F_SEL;
	}
}

static void
sel_emit(struct ctx *c, int i, struct writer *w)
{
	if (c->mark && !c->dry) {
		sel_mark(c, i);
		return;
	}
	if (c->dry) {
		if (c->first < 0 || i < c->first)
			c->first = i;
		if (c->n[i].end > c->last)
			c->last = c->n[i].end;
		return;
	}
	uk_ex_emit(c, i, w, 1);
}

/*
 * What select_body took: a run of posts or answers, the part of a page
 * that is no article (a product, a landing page), an article.
 */
enum { SEL_RUN, SEL_PART, SEL_ARTICLE };

/*
 * Choose the main part of the page around the best block and write it;
 * return what it took (SEL_*).
 */
static int
select_body(struct ctx *c, int best, struct writer *w)
{
	int p = c->n[best].parent, sel = 0, total = c->n[c->body].text, s;
	int r, a, up;
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
					sel_emit(c, s, w);
			return SEL_RUN;
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
		/*
		 * With the siblings that join it (sibling_joins), taken
		 * beside the outermost of the wrappers that hold nothing
		 * but it (a page builder's section in its module in its
		 * column): the sections of a landing page are siblings at
		 * that level, not at the section's own.  A section so
		 * reached that holds a <form> is a contact or sign-up box
		 * (its labels and messages), no section of the text.
		 */
		up = a;
		while (up != c->body && (p = c->n[up].parent) > c->body &&
		    c->n[p].text == c->n[up].text)
			up = p;
		p = c->n[up].parent;
		if (up == c->body || p <= 0 || c->n[p].tag == GUMBO_TAG_HTML) {
			sel_emit(c, up, w);
			return SEL_PART;
		}
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == up || (sibling_joins(c, s) &&
				(up == a || !holds_form(c, s))))
				sel_emit(c, s, w);
		return SEL_PART;
	} else if (p > 0 && c->n[p].tag != GUMBO_TAG_HTML) {
		for (s = p + 1; s < c->n[p].end; s = c->n[s].end)
			if (s == best || sibling_ok(c, s, thr))
				sel_emit(c, s, w);
	} else
		sel_emit(c, best, w);
	return SEL_ARTICLE;
}

/*
 * The lead of an article whose headline is no <h1> before it (a
 * standfirst in a box of its own: "intro", "leadIn", "deck", the
 * question above its answers): where it starts, or first when there is
 * none.  The blocks just before the selection, among the preceding
 * siblings of its first node and of that node's ancestors up to
 * LEAD_UP levels, nearest first, while they are prose (a block over a
 * quarter links ends the lead: a menu, a list of teasers), LEAD_MAX
 * characters and eight blocks at most.  What is set aside (a share bar,
 * a picture's caption) and short lines (a date, a byline) are passed
 * over, as readers pass over them.
 */
static int
lead_start(struct ctx *c, int first)
{
	int a = first, lvl, i, p, start = first, prose = 0, blocks = 0, t;

	for (lvl = 0; lvl < LEAD_UP && a > c->body; lvl++, a = p) {
		p = c->n[a].parent;
		if (p < c->body)
			break;
		/* The preceding siblings of a, nearest first. */
		for (i = a - 1; i > p; i--) {
			struct nd *n = &c->n[i];

			if (n->parent != p || n->flags & F_SKIP || n->text <= 0)
				continue;
			if (n->link * 4 > n->text)
				return start;
			t = n->text - n->link;
			if (t < LEAD_LINE)
				continue;
			if (prose + t > LEAD_MAX || ++blocks > 8)
				return start;
			prose += t;
			start = i;
		}
	}
	return start;
}

/*
 * The title and lead before the main text (trafilatura keeps them): the
 * blocks between the nearest <h1> before the selection's first node and
 * that node, when they are few, short and prose (a headline, a
 * standfirst), not a menu (under a quarter of links), less the short
 * lines among them (LEAD_LINE).  Readability-like scoring picks the block
 * of paragraphs and leaves the headline and the lead above it.
 */
static void
lead_emit(struct ctx *c, int first, int kind, struct writer *w)
{
	int h = -1, i, prose = 0, link = 0, blocks = 0;

	if (first <= c->body)
		return;
	for (i = first - 1; i > c->body; i--) {
		if (c->n[i].flags & F_SKIP)
			continue;
		if (c->n[i].tag == GUMBO_TAG_H1) {
			h = i;
			break;
		}
	}
	if (h < 0) {
		/* A page that is no article has no lead. */
		if (kind == SEL_PART || (h = lead_start(c, first)) == first)
			return;
	} else if (c->n[h].text - c->n[h].link <= 0)
		return;
	for (i = h; i < first;) {
		if (c->n[i].end > first) {
			i++;
			continue;
		}
		if (!(c->n[i].flags & F_SKIP) && c->n[i].text) {
			prose += c->n[i].text - c->n[i].link;
			link += c->n[i].link;
			blocks++;
		}
		i = c->n[i].end;
	}
	if (prose > LEAD_MAX || link * 4 > prose + link || blocks > 8)
		return;
	/*
	 * Short lines that are no heading (a byline, a date, "Follow") are
	 * left out for the time of the writing.
	 */
	for (i = h; i < first;) {
		struct nd *n = &c->n[i];
		int j;

		if (n->end > first || !(n->flags & F_BLOCK) ||
		    n->flags & (F_TEXT | F_SKIP) ||
		    i == h || n->text - n->link >= LEAD_LINE) {
			i++;
			continue;
		}
		for (j = i; j < n->end; j++)
			if (!(c->n[j].flags & F_SKIP))
				c->n[j].flags |= F_SKIP | F_LEAD;
		i = n->end;
	}
	for (i = h; i < first;) {
		if (c->n[i].end > first) {
			i++;
			continue;
		}
		if (!(c->n[i].flags & F_SKIP) && c->n[i].text) {
			if (c->mark)
				sel_mark(c, i);
			else
				uk_ex_emit(c, i, w, 1);
		}
		i = c->n[i].end;
	}
	for (i = h; i < first; i++)
		if (c->n[i].flags & F_LEAD)
			c->n[i].flags &= ~(unsigned)(F_SKIP | F_LEAD);
}

static void
select_emit(struct ctx *c, int best, struct writer *w)
{
	int kind;

	c->dry = 1;
	c->first = -1;
	c->last = -1;
	kind = select_body(c, best, w);
	c->dry = 0;
	if (c->first > 0)
		uk_ex_edge_tail(c, c->first, c->last);
	if (c->first > 0)
		lead_emit(c, c->first, kind, w);
	select_body(c, best, w);
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
		saved = uk_util_xrealloc(saved,
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

/*
 * Whether s holds any string of list (lower case), ASCII case aside: s
 * lower-cased once (uk_ex_lower, or lc if not NULL: the same already
 * lower-cased), then strstr (strcasestr made a case-folding pass for
 * each string).
 */
static int
contains_ci(const char *s, const char *lc, const char *const *list)
{
	char *own = lc ? NULL : uk_ex_lower(s);
	int r = 0;

	for (lc = lc ? lc : own; *list && !r; list++)
		r = strstr(lc, *list) != NULL;
	free(own);
	return r;
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
	if (c->title && contains_ci(c->title, NULL, titles))
		return 1;
	return contains_ci(alltext, c->lc, bodies);
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
		c = uk_util_xmalloc(sizeof(*c) + n);
		c->next = a->chunks ? a->chunks->next : NULL;
		if (a->chunks)
			a->chunks->next = c;
		else
			a->chunks = c;
		return c->data;
	}
	if (n > a->left) {
		c = uk_util_xmalloc(sizeof(*c) + ARENA_CHUNK);
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

/*
 * Whether html[0..len) is UTF-8 with some character beyond ASCII.  A
 * page that says it is Latin-1 or windows-1252 (or a server that says
 * so for it) but whose bytes are all valid UTF-8 sequences was written
 * in UTF-8: read as windows-1252, each "’" would be "â€™".  Text meant
 * as windows-1252 is hardly ever valid UTF-8 (an accented letter there
 * is one byte above 0x7f followed by ASCII, which UTF-8 never is).
 */
static int
utf8_beyond_ascii(const char *html, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if ((unsigned char)html[k] >= 0x80)
			break;
	return k < len && uk_buf_utf8_valid(html + k, len - k);
}

/*
 * The page as gumbo's tree: html[0..len) decoded to UTF-8 into u (by the
 * charset detected, which x->charset gets), NUL bytes made spaces, shrunk,
 * its elements counted against the limit, then parsed into the arena.
 * NULL with err when the page has too many elements or cannot be parsed.
 */
static GumboOutput *
parse(const char *html, size_t len, const char *content_type,
    const struct uk_extract_opts *o, struct uk_buf *u, struct arena *arena,
    struct uk_extract *x, struct uk_err *err)
{
	GumboOptions opts = kGumboDefaultOptions;
	GumboOutput *out;
	char cs[64], *nul;
	size_t bom, k, max;

	uk_charset_detect(html, len, content_type, cs, sizeof(cs), &bom);
	if (!strcmp(cs, "windows-1252") && utf8_beyond_ascii(html, len))
		memcpy(cs, "utf-8", 6);
	if (uk_charset_to_utf8(html, len, cs, u, NULL) < 0) {
		memcpy(cs, "utf-8", 6);
		uk_buf_reset(u);
		uk_charset_to_utf8(html, len, cs, u, NULL);
	}
	x->charset = uk_util_xstrdup(cs);
	/* Gumbo stops at a NUL byte; make them spaces. */
	for (k = 0; (nul = memchr(u->buf + k, '\0', u->len - k)); k++) {
		*nul = ' ';
		k = (size_t)(nul - u->buf);
	}
	max = u->len / 32 > MAX_ELEMENTS ? u->len / 32 : MAX_ELEMENTS;
	/* Selectors may name any attribute: all are kept for them. */
	u->len = uk_ex_shrink(u->buf, u->len, o && (o->nselect || o->nremove) ?
	    UK_EX_SHRINK_KEEP_ATTRS : 0);
	if ((k = count_elements(u->buf, u->len)) > max) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "the page has too many elements (%zu, at most %zu for "
		    "its size)",
		    k, max);
		return NULL;
	}
	opts.max_errors = 0;
	opts.allocator = arena_alloc;
	opts.deallocator = arena_free;
	opts.userdata = arena;
	if (!(out = gumbo_parse_with_options(&opts, u->buf, u->len)))
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot parse the page");
	return out;
}

/*
 * The learned step (extract_feat.c): the page type, then the block
 * model's verdict on each block, given the rules' choice (select_emit's,
 * the type's part pick, or all the boilerplate rules left for the first
 * fallback) and the page features pf; on a documentation page, the
 * opening paragraphs above the choice (uk_ex_edge_opening).  When either
 * changes the choice, the text is the body less what the rules and the
 * model set aside, written again into text; returns whether it did.
 */
static int
learned(struct ctx *c, int best, int fallback, int pick, const double *pf,
    struct uk_buf *text, const char *url)
{
	struct writer w;
	int changed;

	if (fallback == 1 || (!fallback && pick > 0))
		sel_mark(c, fallback ? c->body : pick);
	else if (!fallback) {
		uk_ex_w_init(&w, text, NULL, url);
		c->mark = 1;
		select_emit(c, best, &w);
		c->mark = 0;
	}
	changed = uk_ex_model_apply(c, best, pf, fallback != 2);
	if (!fallback && c->x->page_type &&
	    !strcmp(c->x->page_type, "documentation") &&
	    uk_ex_edge_opening(c, changed >= 0 && uk_ex_block_model.ntrees))
		changed = 1;
	if (changed <= 0)
		return 0;
	uk_buf_reset(text);
	uk_ex_w_init(&w, text, NULL, url);
	uk_ex_emit(c, c->body, &w, 1);
	uk_buf_trim(text);
	uk_ex_dedupe(text);
	return 1;
}

/*
 * No block scored as the main text.  A second, more inclusive pass, as
 * trafilatura's baseline is: the whole body less what the boilerplate
 * rules set aside (menus, footers, cookie notices, related lists); only
 * when that leaves less than a fifth of the page's text all (the rules
 * took the page for boilerplate, and a page is not mostly menus), the
 * plain fallback: everything but scripts and styles.  The text into
 * text; returns which fallback it is (1 or 2).
 */
static int
fallback_text(struct ctx *c, const struct uk_buf *all, struct uk_buf *text,
    const char *url)
{
	struct writer w;

	uk_buf_reset(text);
	uk_ex_w_init(&w, text, NULL, url);
	if (c->body)
		uk_ex_emit(c, c->body, &w, 1);
	uk_buf_trim(text);
	uk_ex_dedupe(text);
	if (text->len >= 50 && text->len * 5 >= all->len)
		return 1;
	uk_buf_reset(text);
	uk_buf_add(text, all->buf, all->len);
	return 2;
}

/*
 * --explain's records into x->explain, after --remove's.  When the
 * learned step changed the choice (modelled), the text is the body less
 * what is set aside: the text nodes it holds outside the rules' choice
 * are the blocks the model added, written, and no record's.
 */
static void
explain_records(struct ctx *c, struct uk_extract *x, int modelled)
{
	struct uk_buf eb = UK_BUF_INIT;
	int i;

	for (i = 0; modelled && i < c->nn; i++)
		if ((c->n[i].flags & (F_TEXT | F_SKIP)) == F_TEXT)
			c->n[i].flags |= F_SEL;

	/* After --remove's records (lib/extract_override.c). */
	if (x->explain) {
		uk_buf_addstr(&eb, x->explain);
		free(x->explain);
		x->explain = NULL;
	}
	uk_ex_explain(c, &eb);
	if (eb.len)
		x->explain = uk_buf_detach(&eb, NULL);
	uk_buf_release(&eb);
}

int
uk_extract_html(const char *html, size_t len, const char *content_type,
    const char *url, const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err)
{
	struct ctx c;
	struct uk_buf u = UK_BUF_INIT, all = UK_BUF_INIT, text = UK_BUF_INIT;
	struct writer w;
	struct arena arena = { NULL, NULL, 0 };
	GumboOutput *out;
	int best, ret = -1, fallback = 0, modelled = 0, pick = -1;
	double pf[UK_EX_NPF];

	(void)url;
	(void)o;
	uk_ex_class_init();
	memset(x, 0, sizeof(*x));
	memset(&c, 0, sizeof(c));
	c.x = x;
	c.url = url;
	c.http_lang = o ? o->content_language : NULL;
	c.explain = o && o->explain;
	out = parse(html, len, content_type, o, &u, &arena, x, err);
	if (!out)
		goto done;
	build(&c, out->document);
	uk_ex_measure(&c);
	/* --remove: dropped before anything is marked or scored. */
	if (uk_ex_override_mark(&c, o, err) < 0)
		goto done;
	empty_panels(&c);
	confirm_boilerplate(&c);
	uk_ex_mark_by_text(&c);
	uk_ex_finish_metadata(&c);

	uk_ex_w_init(&w, &all, NULL, url);
	if (c.body)
		uk_ex_emit(&c, c.body, &w, 0);
	uk_buf_trim(&all);

	best = c.body ? score(&c) : -1;
	pick = uk_ex_items_choose(&c, best, &u, &all, pf);
	if (pick > 0)
		uk_ex_edge_pick_tail(&c, pick);
	if (pick > 0 || (best > 0 && c.n[best].text >= 50)) {
		w.b = &text;
		w.brk = 0;
		if (pick > 0)
			uk_ex_emit(&c, pick, &w, 1);
		else
			select_emit(&c, best, &w);
		uk_buf_trim(&text);
		uk_ex_dedupe(&text);
	}
	if (text.len < 50 || text.len * 10 < all.len / 10) {
		fallback = fallback_text(&c, &all, &text, url);
		x->fallback = 1;
	}
	if (c.body)
		modelled = learned(&c, best, fallback, pick, pf, &text, url);
	uk_ex_items_dump(&c, best, fallback);
	/* Chosen on the plain text; then written in the format asked for. */
	if (o && o->format == UK_EXTRACT_MARKDOWN && c.body) {
		uk_buf_reset(&text);
		uk_ex_w_init(&w, &text, o, url);
		if (fallback)
			uk_ex_emit(&c, c.body, &w, fallback == 1);
		else if (modelled || pick > 0)
			uk_ex_emit(&c, modelled ? c.body : pick, &w, 1);
		else
			select_emit(&c, best, &w);
		uk_buf_trim(&text);
		if (fallback != 2)
			uk_ex_dedupe(&text);
	}
	/* --select and --whole: their text instead (extract_override.c). */
	if (uk_ex_override_emit(&c, o, url, &text, err) < 0)
		goto done;
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
	if (x->needs_browser)
		x->page_type = "app_shell";
	/* An app shell's notice is not the page's text. */
	if (x->needs_browser && uk_ex_only_notice(text.buf, text.len))
		uk_buf_reset(&text);
	if (c.explain && c.body && fallback != 2)
		explain_records(&c, x, modelled);
	x->text = uk_buf_detach(&text, NULL);
	x->format = w.md ? "markdown" : "text";
	ret = 0;
done:
	/* The whole tree is in the arena: no gumbo_destroy_output. */
	arena_release(&arena);
	free(c.n);
	free(c.mscore);
	free(c.lc);
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
	free(x->explain);
	memset(x, 0, sizeof(*x));
}
