/* SPDX-License-Identifier: MIT */
/*
 * The text of chosen nodes (see extract_int.h): a writer that collapses
 * white space and keeps pending breaks, so that blocks are separated by
 * blank lines, list items and rows by newlines, and cells by spaces.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "strset.h"
#include "util.h"

void
uk_ex_w_break(struct writer *w, int level)
{
	if (level > w->brk)
		w->brk = level;
}

static void
w_text(struct writer *w, const char *s, int pre)
{
	const unsigned char *p = (const unsigned char *)s, *q;

	while (*p) {
		if (!pre && isspace(*p)) {
			uk_ex_w_break(w, 1);
			p++;
			continue;
		}
		if (w->brk && w->b->len) {
			if (w->brk == 1)
				uk_buf_addch(w->b, ' ');
			else if (w->brk == 2)
				uk_buf_addch(w->b, '\n');
			else
				uk_buf_addstr(w->b, "\n\n");
		}
		w->brk = 0;
		if (pre && *p == '\r') {
			p++;
			continue;
		}
		/* The run of bytes up to the next space (or CR in <pre>). */
		for (q = p + 1; *q && !(pre ? *q == '\r' : isspace(*q)); q++)
			;
		uk_buf_add(w->b, p, (size_t)(q - p));
		p = q;
	}
}

static int
break_level(int tag)
{
	switch (tag) {
	case GUMBO_TAG_BR:
	case GUMBO_TAG_LI:
	case GUMBO_TAG_TR:
	case GUMBO_TAG_DT:
	case GUMBO_TAG_DD:
	case GUMBO_TAG_OPTION:
		return 2;
	case GUMBO_TAG_TD:
	case GUMBO_TAG_TH:
		return 1;
	default:
		return 3;
	}
}

/*
 * Write the text of the subtree at i.  skip: 0 all but scripts and styles
 * (the fallback), 1 without boilerplate.
 */
void
uk_ex_emit(struct ctx *c, int i, struct writer *w, int skip)
{
	int stack[256], sn = 0, j, end = c->n[i].end;

	for (j = i; j < end; j++) {
		struct nd *n = &c->n[j];

		while (sn && c->n[stack[sn - 1]].end <= j) {
			uk_ex_w_break(w, break_level(c->n[stack[sn - 1]].tag));
			sn--;
		}
		if (skip && (n->flags & F_SKIP) && !(c->n[i].flags & F_SKIP)) {
			j = n->end - 1;
			continue;
		}
		if (!skip &&
		    (n->tag == GUMBO_TAG_SCRIPT || n->tag == GUMBO_TAG_STYLE ||
			n->tag == GUMBO_TAG_HEAD ||
			n->tag == GUMBO_TAG_TEMPLATE)) {
			j = n->end - 1;
			continue;
		}
		if (n->flags & F_TEXT) {
			w_text(w, n->g->v.text.text, n->flags & F_PRE);
			continue;
		}
		if (n->flags & F_BLOCK) {
			uk_ex_w_break(w, break_level(n->tag));
			if (sn < (int)(sizeof(stack) / sizeof(stack[0])))
				stack[sn++] = j;
		}
	}
	while (sn) {
		uk_ex_w_break(w, break_level(c->n[stack[sn - 1]].tag));
		sn--;
	}
	uk_ex_w_break(w, 3);
}


/*
 * Drop paragraphs that repeat an earlier one word for word: responsive
 * pages carry the same block for each screen size, carousels repeat
 * their slides, and a reader reads a paragraph once.
 */
void
uk_ex_dedupe(struct uk_buf *t)
{
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf out = UK_BUF_INIT;
	const char *p = t->buf, *end = t->buf + t->len, *q;

	while (p < end) {
		/* memchr, not strstr: no scan past the match (ASan's strstr
		 * measures the whole rest of the string each time). */
		for (q = p; (q = memchr(q, '\n', (size_t)(end - q))); q++)
			if (q + 1 < end && q[1] == '\n')
				break;
		if (!q)
			q = end;
		if (uk_strset_add(&seen, p, (size_t)(q - p))) {
			if (out.len)
				uk_buf_addstr(&out, "\n\n");
			uk_buf_add(&out, p, (size_t)(q - p));
		}
		p = q < end ? q + 2 : end;
	}
	uk_strset_release(&seen);
	uk_buf_release(t);
	*t = out;
}