/* SPDX-License-Identifier: MIT */
/*
 * The page's tree as the choice saw it, for measuring where the main
 * text lies against the part the rules chose (scripts/eval-extract.d/
 * type-where): with the environment variable UK_EXTRACT_TREE naming a
 * file, each page appends one JSON line to it: the page type, whether
 * the text is a fallback, and for each node of the body its parent, its
 * tag, its class and id (lower-cased), its flags (skipped, chosen) and, for a text
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

/* Append s[0..n) as a JSON string to b. */
static void
json_str(struct uk_buf *b, const char *s, size_t n)
{
	size_t k;

	uk_buf_addch(b, '"');
	for (k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];

		if (ch == '"' || ch == '\\') {
			uk_buf_addch(b, '\\');
			uk_buf_addch(b, ch);
		} else if (ch < 0x20)
			uk_buf_addf(b, "\\u%04x", ch);
		else
			uk_buf_addch(b, ch);
	}
	uk_buf_addch(b, '"');
}

void
uk_ex_items_dump(struct ctx *c, int best, int fallback)
{
	const char *file = getenv("UK_EXTRACT_TREE");
	struct uk_buf out = UK_BUF_INIT, cl = UK_BUF_INIT;
	int i, fd;

	if (!file || !c->body)
		return;
	uk_buf_addstr(&out, "{\"type\":");
	json_str(&out, c->x->page_type ? c->x->page_type : "",
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
			json_str(&out, n->g->v.text.text,
			    strlen(n->g->v.text.text));
			uk_buf_addch(&out, ']');
			continue;
		}
		uk_ex_class_id(n->g, &cl);
		uk_buf_addf(&out, "[%d,\"%s\",", p,
		    n->tag == GUMBO_TAG_UNKNOWN ? "?" :
		    gumbo_normalized_tagname((GumboTag)n->tag));
		json_str(&out, cl.buf ? cl.buf : "", cl.len);
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
