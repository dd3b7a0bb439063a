/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: CSS selectors (lib/extract_select.c) and the
 * overrides that apply them (lib/extract_override.c).  The input's first
 * line is a selector list, the rest a page.  A selector that compiles is
 * run over the page's gumbo tree (each match an element, in document
 * order, once) and given to the extractor as --select, --remove and
 * --whole with --explain; one that does not has an error that says where.
 */
#include <gumbo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "extract.h"
#include "extract_select.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Matches must come in document order: each after the one before. */
struct order {
	GumboNode *last;
	size_t n;
};

/* Whether a comes before b in document order (b is not under a). */
static int
before(GumboNode *a, GumboNode *b)
{
	GumboNode *p;

	for (p = b->parent; p; p = p->parent)
		if (p == a)
			return 1;
	while (a->parent && b->parent) {
		GumboNode *x, *y;

		/* The children of their lowest common ancestor. */
		for (x = a; x->parent; x = x->parent)
			for (y = b; y->parent; y = y->parent)
				if (x->parent == y->parent)
					return x->index_within_parent <
					    y->index_within_parent;
		break;
	}
	return 0;
}

static void
on_match(void *arg, GumboNode *g)
{
	struct order *o = arg;

	if (g->type != GUMBO_NODE_ELEMENT && g->type != GUMBO_NODE_TEMPLATE)
		abort();
	if (o->last && !before(o->last, g))
		abort();
	o->last = g;
	o->n++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nl;
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	struct uk_extract_select *sel;
	struct uk_extract x;
	struct uk_err err;
	struct order ord = { NULL, 0 };
	GumboOutput *out;
	char *css, *html;
	size_t n, hl;
	const char *list[1];

	nl = memchr(s, '\n', size);
	n = nl ? (size_t)(nl - s) : size;
	css = uk_util_xmemdup(s, n);
	/* (A NUL ends the selector, as it ends a C string.) */
	hl = nl ? size - n - 1 : 0;
	html = uk_util_xmemdup(nl ? nl + 1 : "", hl);
	if (uk_extract_select_compile(css, &sel, &err) < 0) {
		if (sel || !strstr(err.msg, "at column ") ==
		    !strstr(err.msg, "longer than"))
			abort();
		goto out;
	}
	/* Only small pages for the tree walk's order check (quadratic). */
	if (hl <= 4096) {
		out = gumbo_parse_with_options(&kGumboDefaultOptions, html, hl);
		if (uk_extract_select_each(sel, out->document, on_match,
			&ord) != ord.n)
			abort();
		gumbo_destroy_output(&kGumboDefaultOptions, out);
	}
	uk_extract_select_free(sel);
	list[0] = css;
	o.explain = 1;
	o.format = size & 1 ? UK_EXTRACT_MARKDOWN : UK_EXTRACT_TEXT;
	o.remove = list;
	o.nremove = 1;
	memset(&x, 0, sizeof(x));
	uk_extract_html(html, hl, NULL, NULL, &o, &x, &err);
	uk_extract_release(&x);
	o.nremove = 0;
	o.select = list;
	o.nselect = 1;
	if (!uk_extract_html(html, hl, NULL, NULL, &o, &x, &err) && !x.text)
		abort();
	uk_extract_release(&x);
	o.nselect = 0;
	o.whole = 1;
	uk_extract_html(html, hl, NULL, NULL, &o, &x, &err);
	uk_extract_release(&x);
out:
	free(css);
	free(html);
	return 0;
}
