/* SPDX-License-Identifier: MIT */
/*
 * The rules at the edges of the part the rules chose as the main text
 * (see extract_edge.h): what ends it that a reader skips (lines of
 * links, other stories' teasers).  Called by extract.c; calls nothing
 * of it back.
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

