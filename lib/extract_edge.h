/* SPDX-License-Identifier: MIT */
#ifndef UK_EXTRACT_EDGE_H
#define UK_EXTRACT_EDGE_H

/*
 * Private to the extraction modules: the rules at the edges of the part
 * the rules chose as the main text (lib/extract_edge.c), what a reader
 * leaves after its end and takes before its start.  uk_extract_html
 * calls them in this order:
 *
 *	score, select (a dry run sets c->first and c->last)
 *	uk_ex_edge_tail        the lines of links and teasers that end it
 *	uk_ex_edge_pick_tail   the same for the part the page's type chose
 *	lead, write; the learned step (page type, block model)
 *	uk_ex_edge_opening     a documentation page's opening paragraphs
 */

#include "extract_int.h"

/*
 * Set aside (F_SKIP) the lines of links and other stories' teasers
 * that end the selection [first, last), from its end backwards, up to
 * the first block of the text.
 */
void uk_ex_edge_tail(struct ctx *c, int first, int last);
/*
 * The same at the end of the part the page's type chose (pick,
 * extract_items.c), unless what it would set aside is a third of the
 * part's text or more: a few headlines under a long text are other
 * stories, a page of them is a listing's items.
 */
void uk_ex_edge_pick_tail(struct ctx *c, int pick);

/*
 * On a page typed documentation: the paragraphs of prose between the
 * page's <h1> and the chosen text's first node, in the same <main> or
 * <article>, that the class rules or the block model left out, are
 * taken into the choice (F_SEL, F_SKIP cleared).  The chosen text nodes
 * are those with F_SEL; with model_ran clear (the block model set
 * nothing aside), every other text node is set aside first, so that
 * the body less what is set aside is the new choice.  Returns how many
 * paragraphs it took (0: c unchanged).
 */
int uk_ex_edge_opening(struct ctx *c, int model_ran);

#endif
