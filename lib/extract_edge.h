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
 *	lead, write; the learned step (page type, block model)
 */

#include "extract_int.h"

/*
 * Set aside (F_SKIP) the lines of links and other stories' teasers
 * that end the selection [first, last), from its end backwards, up to
 * the first block of the text.
 */
void uk_ex_edge_tail(struct ctx *c, int first, int last);

#endif
