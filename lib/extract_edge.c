/* SPDX-License-Identifier: MIT */
/*
 * The rules at the edges of the part the rules chose as the main text
 * (see extract_edge.h): what ends it that a reader skips (lines of
 * links, other stories' teasers), and what a documentation page says
 * before it that a reader takes (the opening definition under the
 * title).  Called by extract.c; calls nothing of it back.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract_edge.h"
#include "extract_int.h"
#include "util.h"

/*
 * The longest line of links at the end of the selection that uk_ex_edge_tail
 * sets aside (a teaser's title; the "paragraph that is only a link" of
 * extract_text.c is under 150 characters too).
 */
#define TAIL_LINK 150

/* Whether the element at i holds no block with text but line breaks. */
static int
leaf_block(struct ctx *c, int i)
{
	int j;

	for (j = i + 1; j < c->n[i].end; j++)
		if (!(c->n[j].flags & (F_TEXT | F_SKIP)) &&
		    c->n[j].flags & F_BLOCK && c->n[j].tag != GUMBO_TAG_BR &&
		    c->n[j].text > 0)
			return 0;
	return 1;
}

/*
 * The lines of links that end the selection [first, last): from its
 * end backwards, each block of text (a paragraph, an item) under
 * TAIL_LINK characters that is nine tenths links, or that is another
 * story's teaser (a headline's link with a byline and a timestamp,
 * teaser_meta), is set aside, up to the first other block.  After the article's last words, a link
 * standing alone is another page's title ("Read also", a teaser, a
 * link to the forum's thread); within the text, extract_text.c's rule
 * for a link among prose takes them.  A block inside a link (a card
 * whose link holds a heading and a paragraph) is no line of links and
 * ends the walk (measured: 2 more boilerplate snippets of the article
 * set kept than without the exception).  Once done, the selection ends
 * in a block that is no link, so a second pass (Markdown) changes
 * nothing.
 */
/*
 * Whether the text of block i outside its links is a byline and a
 * timestamp at most ("By COAST WIRE", "11/20/2019 10:08 AM", "3 hours
 * ago"): with a headline's link beside it, another story's teaser.
 * Under TEASER_META characters; "by " starting it, or a date or time
 * (digits joined by '/', '.', '-' or ':') in it.
 */
#define TEASER_META 60
static int
teaser_meta(struct ctx *c, int i)
{
	struct uk_buf t = UK_BUF_INIT;
	const char *p;
	int j, sp = 1, r = 0;

	for (j = i + 1; j < c->n[i].end; j++)
		if ((c->n[j].flags & (F_TEXT | F_SKIP | F_INLINK)) == F_TEXT)
			uk_ex_squeeze(&t, c->n[j].g->v.text.text, &sp,
			    UK_EX_LOWER, TEASER_META + 1);
	if (t.len && t.len <= TEASER_META) {
		r = !strncmp(t.buf, "by ", 3) || strstr(t.buf, " ago");
		for (p = t.buf; !r && *p; p++)
			if (isdigit((unsigned char)p[0]) &&
			    strchr("/.-:", p[1]) && p[1] &&
			    isdigit((unsigned char)p[2]))
				r = 1;
	}
	uk_buf_release(&t);
	return r;
}

void
uk_ex_edge_tail(struct ctx *c, int first, int last)
{
	int i, j;

	for (i = last - 1; i > first; i--) {
		struct nd *n = &c->n[i];

		if (n->flags & (F_TEXT | F_SKIP) || !(n->flags & F_BLOCK) ||
		    n->text <= 0 || !leaf_block(c, i))
			continue;
		if (n->flags & F_INLINK)
			break;
		/*
		 * A line of links, or a teaser: a headline's link with a
		 * byline and a timestamp (over half links, the rest
		 * teaser_meta).
		 */
		if ((n->text >= TAIL_LINK || n->link * 10 < n->text * 9) &&
		    (n->text >= TAIL_LINK + TEASER_META ||
			n->link * 2 < n->text || !teaser_meta(c, i)))
			break;
		for (j = i; j < n->end; j++)
			c->n[j].flags |= F_SKIP;
	}
}

void
uk_ex_edge_pick_tail(struct ctx *c, int pick)
{
	int end = c->n[pick].end, j, gone = 0;
	unsigned char *was;

	was = uk_util_xmalloc((size_t)(end - pick));
	for (j = pick; j < end; j++)
		was[j - pick] = (c->n[j].flags & F_SKIP) != 0;
	uk_ex_edge_tail(c, pick, end);
	for (j = pick; j < end; j++)
		if (!was[j - pick] && (c->n[j].flags & (F_SKIP | F_TEXT)) ==
		    (F_SKIP | F_TEXT))
			gone += c->n[j].text;
	/* A third of the part or more: the lines are the page's own. */
	if (gone * 3 >= c->n[pick].text)
		for (j = pick; j < end; j++)
			if (!was[j - pick])
				c->n[j].flags &= ~(unsigned)F_SKIP;
	free(was);
}

/*
 * The least prose of an opening paragraph uk_ex_edge_opening takes (a
 * definition's sentence; a byline or a "Baseline" badge is shorter).
 */
#define OPENING_PROSE 80

/* The nearest <main> or <article> holding node i, or -1. */
static int
main_of(struct ctx *c, int i)
{
	for (i = c->n[i].parent; i > 0; i = c->n[i].parent)
		if (c->n[i].tag == GUMBO_TAG_MAIN ||
		    c->n[i].tag == GUMBO_TAG_ARTICLE)
			return i;
	return -1;
}

/*
 * Whether node n, if set aside, may come back: set aside by a class
 * that is not one of comments or related links (F_CSKIP without
 * F_STRONG), or by the block model (F_MDROP, F_MSHORT); not hidden, nor
 * a menu, nor by what it says.
 */
static int
may_return(const struct nd *n)
{
	if (!(n->flags & F_SKIP))
		return 1;
	if (n->flags & (F_MDROP | F_MSHORT))
		return 1;
	return (n->flags & F_CSKIP) && !(n->flags & (F_STRONG | F_CMT));
}

/*
 * The characters of paragraph p's text that may come back, and of
 * those in links (into *link), counted as uk_ex_measure counts them
 * (runs of space as one): the paragraph set aside has none measured.
 */
static int
returning_text(struct ctx *c, int p, int *link)
{
	int j, n = 0, sp = 1;
	const unsigned char *s;

	*link = 0;
	for (j = p; j < c->n[p].end; j++) {
		if (!may_return(&c->n[j])) {
			j = c->n[j].end - 1;
			continue;
		}
		if (!(c->n[j].flags & F_TEXT))
			continue;
		for (s = (const unsigned char *)c->n[j].g->v.text.text; *s;
		    s++) {
			if (isspace(*s)) {
				sp = 1;
				continue;
			}
			if ((*s & 0xc0) == 0x80)
				continue;
			n += 1 + sp;
			*link += (1 + sp) * !!(c->n[j].flags & F_INLINK);
			sp = 0;
		}
	}
	return n;
}

/*
 * Whether paragraph p and the elements above it that are set aside may
 * all come back.
 */
static int
may_take(struct ctx *c, int p)
{
	for (; p > c->body && c->n[p].flags & F_SKIP; p = c->n[p].parent)
		if (!may_return(&c->n[p]))
			return 0;
	return 1;
}

/*
 * Take paragraph p into the choice, but what may not come back; the
 * elements above it set aside come back themselves (not the rest of
 * what they hold, which stays set aside node by node).
 */
static void
take(struct ctx *c, int p)
{
	int j;

	for (j = c->n[p].parent; j > c->body && c->n[j].flags & F_SKIP;
	    j = c->n[j].parent)
		c->n[j].flags &= ~(unsigned)(F_SKIP | F_CSKIP | F_MDROP |
		    F_MSHORT);
	for (j = p; j < c->n[p].end; j++) {
		struct nd *n = &c->n[j];

		if (!may_return(n)) {
			j = n->end - 1;
			continue;
		}
		n->flags &= ~(unsigned)(F_SKIP | F_CSKIP | F_MDROP | F_MSHORT);
		if (n->flags & F_TEXT)
			n->flags |= F_SEL;
	}
}

/*
 * A documentation page's title and opening definition sit in a header
 * above the reference's sections (an <h1>, "A Promise is an object
 * representing..."), often in an element whose class says header, which
 * the class rules set aside; the choice then starts at the first
 * section.  On an article the same header holds the headline and the
 * standfirst, which most labels of articles leave out (measured: keeping
 * such headers on every page lost on one half), hence the page type.
 */
int
uk_ex_edge_opening(struct ctx *c, int model_ran)
{
	int first = -1, h = -1, m, i, t, l, taken = 0;

	for (i = c->body; i < c->nn && first < 0; i++)
		if (c->n[i].flags & F_TEXT && c->n[i].flags & F_SEL &&
		    c->n[i].text > 0)
			first = i;
	if (first < 0)
		return 0;
	for (i = first - 1; i > c->body && h < 0; i--)
		if (c->n[i].tag == GUMBO_TAG_H1 && !(c->n[i].flags & F_TEXT))
			h = i;
	if (h < 0 || (m = main_of(c, h)) < 0 || m != main_of(c, first))
		return 0;
	for (i = c->n[h].end; i < first; i++) {
		struct nd *n = &c->n[i];

		if (n->flags & F_TEXT || n->tag != GUMBO_TAG_P ||
		    n->end > first)
			continue;
		if (!may_take(c, i))
			continue;
		t = returning_text(c, i, &l);
		if (t - l < OPENING_PROSE || l * 4 > t)
			continue;
		if (!taken++ && !model_ran) {
			int j;

			for (j = c->body; j < c->nn; j++)
				if ((c->n[j].flags & (F_TEXT | F_SEL)) ==
				    F_TEXT)
					c->n[j].flags |= F_SKIP;
		}
		take(c, i);
		i = n->end - 1;
	}
	if (taken)
		uk_ex_measure(c);
	return taken;
}
