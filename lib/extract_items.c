/* SPDX-License-Identifier: MIT */
/*
 * The choice by page type, and the measuring of choices.
 *
 * uk_ex_items_choose: the page's features and type first; on a page of
 * a type whose main text is the part its title heads (documentation, a
 * listing), that part instead of the rules' choice around the best
 * block of prose (doc/EXTRACTION.md, "Choosing the part by type").
 *
 * uk_ex_items_dump: the page's tree as the choice saw it, for measuring
 * where the main text lies against the part chosen
 * (scripts/eval-extract.d/type-where.py): with the environment variable
 * UK_EXTRACT_TREE naming a file, each page appends one JSON line to it:
 * the page type, whether the text is a fallback, the Readability best
 * block, and for each node of the body its parent, its tag, its class
 * and id (lower-cased), its flags (skipped, chosen) and, for a text
 * node, its text.  A measuring aid, never read by the extraction.
 */
#include <fcntl.h>
#include <gumbo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "extract_int.h"

#include "banned.h"

void
uk_ex_items_dump(struct ctx *c, int best, int fallback)
{
	const char *file = getenv("UK_EXTRACT_TREE");
	struct uk_buf out = UK_BUF_INIT, cl = UK_BUF_INIT;
	int i, fd;

	if (!file || !c->body)
		return;
	uk_buf_addstr(&out, "{\"type\":");
	uk_ex_json_str(&out, c->x->page_type ? c->x->page_type : "",
	    c->x->page_type ? strlen(c->x->page_type) : 0);
	uk_buf_addf(&out, ",\"fallback\":%d,\"best\":%d,\"n\":[", fallback,
	    best >= c->body ? best - c->body : -1);
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		int p = i == c->body ? -1 : n->parent - c->body;

		if (i > c->body)
			uk_buf_addch(&out, ',');
		if (n->flags & F_TEXT) {
			uk_buf_addf(&out, "[%d,\"#\",\"\",%u,", p, n->flags);
			uk_ex_json_str(&out, n->g->v.text.text,
			    strlen(n->g->v.text.text));
			uk_buf_addch(&out, ']');
			continue;
		}
		uk_ex_class_id(n->g, &cl);
		uk_buf_addf(&out, "[%d,\"%s\",", p,
		    n->tag == GUMBO_TAG_UNKNOWN ? "?" :
		    gumbo_normalized_tagname((GumboTag)n->tag));
		uk_ex_json_str(&out, cl.buf ? cl.buf : "", cl.len);
		uk_buf_addf(&out, ",%u]", n->flags);
	}
	uk_buf_addstr(&out, "]}\n");
	fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		/* A measuring aid: a short write loses a page. */
		ssize_t wr = write(fd, out.buf, out.len);

		(void)wr;
		close(fd);
	}
	uk_buf_release(&cl);
	uk_buf_release(&out);
}

/*
 * The type's profile (doc/EXTRACTION.md, "Choosing the part by type"):
 * on a page the type model calls documentation or a listing, by a
 * margin of TYPE_MARGIN at least over the next type (its raw scores,
 * logits of a softmax), the main text is the nearest ancestor of the
 * page's first <h1> that holds half the text the boilerplate rules
 * leave: the title with what it heads, a reference page's tables and a
 * listing's every group of items, which the rules, choosing around the
 * best block of prose, leave out when they sit beside it.  Measured on
 * the dev split, the same choice on the other types lost (products,
 * collections, forums, articles, services).
 */
#define TYPE_MARGIN 1.0
#define H1_SHARE 0.5

int
uk_ex_items_choose(struct ctx *c, int best, const struct uk_buf *u,
    const struct uk_buf *all, double *pf)
{
	double raw[UK_EX_NTYPES], next;
	int k, top = 0, a, h = -1;

	if (!c->body)
		return -1;
	uk_ex_page_features(c, best, u->buf, u->len, all->buf, all->len, pf);
	if (!uk_ex_type_model.ntrees)
		return -1;
	uk_ex_trees_eval(&uk_ex_type_model, pf, raw);
	for (k = 1; k < UK_EX_NTYPES; k++)
		if (raw[k] > raw[top])
			top = k;
	next = raw[top == 0];
	for (k = 0; k < UK_EX_NTYPES; k++)
		if (k != top && raw[k] > next)
			next = raw[k];
	if (raw[top] - next < TYPE_MARGIN ||
	    (strcmp(uk_ex_types[top], "documentation") != 0 &&
		strcmp(uk_ex_types[top], "listing") != 0))
		return -1;
	for (k = c->body; k < c->nn; k++) {
		if (c->n[k].flags & F_SKIP) {
			k = c->n[k].end - 1;
			continue;
		}
		if (c->n[k].tag == GUMBO_TAG_H1 &&
		    !(c->n[k].flags & F_TEXT) && c->n[k].text > 0) {
			h = k;
			break;
		}
	}
	if (h < 0)
		return -1;
	for (a = h; a != c->body &&
	     c->n[a].text < H1_SHARE * c->n[c->body].text;)
		a = c->n[a].parent;
	return a;
}
