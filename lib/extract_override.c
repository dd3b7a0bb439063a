/* SPDX-License-Identifier: MIT */
/*
 * The user's overrides of the extractor (see extract_override.h):
 *
 *  - remove: the elements the selectors match are skipped with their
 *    whole subtree before anything is measured or scored, as if the page
 *    had not held them;
 *  - whole: no boilerplate removal: the body's text, less what is never
 *    text (scripts, styles, templates, the head, hidden elements --
 *    hidden, aria-hidden="true", display:none or visibility:hidden --,
 *    form controls, embedded media and graphics) and what remove drops;
 *  - select: the main content is the elements the selectors match, in
 *    document order, each written once (an element inside another one
 *    that matched is written with it), with what is never text and what
 *    remove drops left out as in whole, and no boilerplate removal
 *    inside them: the user chose them.
 *
 * Both are written by the extractor's writers (uk_ex_emit, plain text or
 * Markdown) with skip 1: the marks here say exactly what is left out, so
 * the writers follow them, and the text goes through uk_ex_dedupe as the
 * extractor's own does (it takes out the writer's notes of card grids,
 * and paragraphs repeated word for word are written once).
 */
#include <gumbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract.h"
#include "extract_int.h"
#include "extract_md.h"
#include "extract_override.h"
#include "extract_select.h"
#include "json.h"
#include "util.h"

#include "banned.h"

/* The longest excerpt of a dropped element's text in --explain. */
#define EXCERPT UK_EX_EXCERPT
/* The deepest element path written in --explain (its last levels). */
#define PATH_LEVELS 8

/* A walk's matches marked in mark[] by the node's index (value v). */
struct hits {
	struct ctx *c;
	int cur;
	unsigned char *mark;
	unsigned char v;
};

/*
 * Matches come in document order, as the flat array is: one cursor
 * finds each element's index.
 */
static void
on_match(void *arg, GumboNode *g)
{
	struct hits *h = arg;

	while (h->cur < h->c->nn && h->c->n[h->cur].g != g)
		h->cur++;
	if (h->cur < h->c->nn && !h->mark[h->cur])
		h->mark[h->cur] = h->v;
}

/*
 * Mark in mark[] (1 + the selector's index, the first that matches) the
 * elements that sels[0..n) match; the number of elements matched, or -1
 * with err naming the option (what) and the selector.
 */
static long
match(struct ctx *c, const char *what, const char *const *sels, size_t n,
    unsigned char *mark, struct uk_err *err)
{
	struct uk_extract_select *sel;
	struct uk_err e;
	struct hits h;
	long total = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		if (uk_extract_select_compile(sels[k], &sel, &e) < 0)
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "%s '%s': %s", what, sels[k], e.msg);
		h.c = c;
		h.cur = 0;
		h.mark = mark;
		h.v = (unsigned char)(k + 1 > 255 ? 255 : k + 1);
		total += (long)uk_extract_select_each(sel, c->n[0].g,
		    on_match, &h);
		uk_extract_select_free(sel);
	}
	return total;
}

/*
 * Remove the subtree at i: skipped, and its text made empty in the tree
 * (the arena's, this extraction's own), so that no pass writes it, not
 * even one that writes a skipped element whole (the fallbacks, a section
 * written from a skipped root).
 */
static void
remove_tree(struct ctx *c, int i)
{
	int j;

	for (j = i; j < c->n[i].end; j++) {
		c->n[j].flags |= F_SKIP;
		if (c->n[j].flags & F_TEXT)
			c->n[j].g->v.text.text = "";
	}
}

void
uk_ex_node_path(struct ctx *c, int i, struct uk_buf *b)
{
	int up[PATH_LEVELS], n = 0, k, more = 0;

	for (k = i; k > 0 && c->n[k].tag != GUMBO_TAG_HTML;
	     k = c->n[k].parent) {
		if (n == PATH_LEVELS) {
			more = 1;
			break;
		}
		up[n++] = k;
	}
	if (more)
		uk_buf_addstr(b, "...>");
	while (n--) {
		GumboNode *g = c->n[up[n]].g;
		const char *id = uk_ex_attr(g, "id");
		const char *cl = uk_ex_attr(g, "class");
		GumboStringPiece t = g->v.element.original_tag;

		if (g->v.element.tag != GUMBO_TAG_UNKNOWN) {
			uk_buf_addstr(b,
			    gumbo_normalized_tagname(g->v.element.tag));
		} else if (t.data) {
			gumbo_tag_from_original_text(&t);
			uk_buf_add(b, t.data, t.length > 40 ? 40 : t.length);
		}
		if (id && *id)
			uk_buf_addf(b, "#%.40s", id);
		while (cl && *cl) {
			size_t w;

			cl += strspn(cl, " \t\n\r\f");
			w = strcspn(cl, " \t\n\r\f");
			if (w)
				uk_buf_addf(b, ".%.*s", (int)(w > 40 ? 40 : w),
				    cl);
			cl += w;
		}
		if (n)
			uk_buf_addch(b, '>');
	}
}

/* The first EXCERPT bytes of the text under i, whole characters. */
static void
explain_excerpt(struct ctx *c, int i, struct uk_buf *b)
{
	int j, sp = 1;
	size_t n;

	for (j = i; j < c->n[i].end && b->len < EXCERPT; j++)
		if (c->n[j].flags & F_TEXT)
			uk_ex_squeeze(b, c->n[j].g->v.text.text, &sp, 0,
			    EXCERPT);
	if (b->len > EXCERPT) {
		n = EXCERPT;
		while (n && ((unsigned char)b->buf[n] & 0xc0) == 0x80)
			n--;
		uk_buf_setlen(b, n);
	}
	uk_buf_trim(b);
}

/* Append the record of dropped element i to out (JSON Lines). */
static void
explain_add(struct ctx *c, int i, const char *sel, struct uk_buf *out)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val rec = uk_json_object();

	uk_buf_addf(&b, "removed by --remove '%s'", sel);
	uk_json_set_str(rec, "reason", b.buf);
	uk_json_set_str(rec, "rule", "remove");
	uk_buf_reset(&b);
	uk_ex_node_path(c, i, &b);
	uk_json_set_str(rec, "path", b.buf);
	uk_json_set_int(rec, "chars", c->n[i].text);
	uk_buf_reset(&b);
	explain_excerpt(c, i, &b);
	uk_json_set_str(rec, "text", b.buf);
	uk_json_to_buf(rec, out);
	uk_buf_addch(out, '\n');
	uk_json_free(rec);
	uk_buf_release(&b);
}

/*
 * Skip what remove matches (whole subtrees); with explain, a record for
 * each element dropped that no other dropped element holds.  0 or -1.
 */
static int
apply_remove(struct ctx *c, const struct uk_extract_opts *o, int explain,
    struct uk_err *err)
{
	struct uk_buf ex = UK_BUF_INIT;
	unsigned char *mark;
	int i;

	mark = uk_util_xcalloc((size_t)c->nn, 1);
	if (match(c, "--remove", o->remove, o->nremove, mark, err) < 0) {
		free(mark);
		return -1;
	}
	/* Records after those already there (the extractor's own). */
	if (explain && c->x->explain)
		uk_buf_addstr(&ex, c->x->explain);
	for (i = 0; i < c->nn; i++) {
		if (!mark[i])
			continue;
		if (explain)
			explain_add(c, i, o->remove[mark[i] - 1], &ex);
		remove_tree(c, i);
		/*
		 * And a template to the writers, which leave one out even
		 * when they write what is skipped (skip 0): its images and
		 * links do not come back either.
		 */
		c->n[i].tag = GUMBO_TAG_TEMPLATE;
		i = c->n[i].end - 1;
	}
	if (ex.len) {
		free(c->x->explain);
		c->x->explain = uk_buf_detach(&ex, NULL);
	}
	uk_buf_release(&ex);
	free(mark);
	return 0;
}

int
uk_ex_override_mark(struct ctx *c, const struct uk_extract_opts *o,
    struct uk_err *err)
{
	if (!o || !o->nremove)
		return 0;
	if (apply_remove(c, o, o->explain, err) < 0)
		return -1;
	uk_ex_measure(c);
	return 0;
}

/* Whether element i is never text, with its subtree (see the top). */
static int
never_text(struct ctx *c, int i)
{
	GumboNode *g = c->n[i].g;
	const char *s;

	if (g->type == GUMBO_NODE_TEMPLATE)
		return 1;
	if (uk_ex_tag_never_text(c->n[i].tag))
		return 1;
	if (uk_ex_attr(g, "hidden"))
		return 1;
	s = uk_ex_attr(g, "aria-hidden");
	if (s && !strcasecmp(s, "true"))
		return 1;
	s = uk_ex_attr(g, "style");
	return s && uk_ex_style_hidden(s);
}

/*
 * Mark for the overrides' writing: what is never text skipped, nothing
 * else (no boilerplate), then what remove drops.  0 or -1.
 */
static int
mark_plain(struct ctx *c, const struct uk_extract_opts *o,
    struct uk_err *err)
{
	int i;

	for (i = 0; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		n->flags &= ~(unsigned)F_SKIP;
		if (i && c->n[n->parent].flags & F_SKIP)
			n->flags |= F_SKIP;
		else if (i && !(n->flags & F_TEXT) && never_text(c, i))
			n->flags |= F_SKIP;
	}
	if (o->nremove && apply_remove(c, o, 0, err) < 0)
		return -1;
	uk_ex_measure(c);
	return 0;
}

/* The select selectors, quoted and joined, for a message. */
static void
quoted_list(const struct uk_extract_opts *o, struct uk_buf *b)
{
	size_t k;

	for (k = 0; k < o->nselect; k++)
		uk_buf_addf(b, "%s'%s'", k ? ", " : "", o->select[k]);
}

/* Write the elements select matches into w: -1 with err when none. */
static int
write_selected(struct ctx *c, const struct uk_extract_opts *o,
    struct writer *w, struct uk_err *err)
{
	struct uk_buf names = UK_BUF_INIT;
	unsigned char *mark;
	long matched;
	int i, written = 0, ret = 0;

	mark = uk_util_xcalloc((size_t)c->nn, 1);
	if ((matched = match(c, "--select", o->select, o->nselect, mark,
		 err)) < 0) {
		free(mark);
		return -1;
	}
	for (i = 0; i < c->nn; i++) {
		if (!mark[i])
			continue;
		if (!(c->n[i].flags & F_SKIP)) {
			uk_ex_emit(c, i, w, 1);
			written++;
		}
		i = c->n[i].end - 1;
	}
	free(mark);
	if (!written) {
		quoted_list(o, &names);
		ret = uk_util_err_set(err, UK_EXIT_FAIL,
		    matched ?
			"--select %s matched only elements that are never "
			"text (hidden, removed, scripts)" :
			"--select %s matched nothing",
		    names.buf);
		uk_buf_release(&names);
	}
	return ret;
}

int
uk_ex_override_emit(struct ctx *c, const struct uk_extract_opts *o,
    const char *url, struct uk_buf *text, struct uk_err *err)
{
	unsigned *saved;
	struct writer w;
	int i, ret = 1;

	if (!o || (!o->nselect && !o->whole))
		return 0;
	saved = uk_util_xmalloc((size_t)c->nn * sizeof(*saved));
	for (i = 0; i < c->nn; i++)
		saved[i] = c->n[i].flags;
	uk_buf_reset(text);
	uk_ex_w_init(&w, text, o, url);
	if (mark_plain(c, o, err) < 0)
		ret = -1;
	else if (o->nselect)
		ret = write_selected(c, o, &w, err) < 0 ? -1 : 1;
	else if (c->body)
		uk_ex_emit(c, c->body, &w, 1);
	uk_buf_trim(text);
	uk_ex_dedupe(text);
	for (i = 0; i < c->nn; i++)
		c->n[i].flags = saved[i];
	free(saved);
	uk_ex_measure(c);
	if (ret == 1)
		c->x->fallback = 0;
	return ret;
}

void *
uk_extract_override_explain_array(const char *explain, const char *url)
{
	yajl_val arr = NULL, v, rec;
	const char *p = explain, *e;
	struct uk_err err;

	while (p && *p) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		v = e > p ? uk_json_parse(p, (size_t)(e - p), &err) : NULL;
		if (v && YAJL_IS_OBJECT(v)) {
			rec = uk_json_object();
			uk_json_set_str(rec, "url", url ? url : "");
			uk_json_add_missing(rec, v, NULL);
			if (!arr)
				arr = uk_json_array();
			uk_json_push(arr, rec);
		}
		uk_json_free(v);
		p = *e ? e + 1 : e;
	}
	return arr;
}

int
uk_extract_override_explain_write(FILE *fp, const void *arr)
{
	const struct yajl_val_s *a = arr;
	struct uk_buf b = UK_BUF_INIT;
	size_t k;
	int ret = 0;

	if (!a || !YAJL_IS_ARRAY(a))
		return 0;
	for (k = 0; k < a->u.array.len; k++) {
		uk_buf_reset(&b);
		uk_json_to_buf(a->u.array.values[k], &b);
		uk_buf_addch(&b, '\n');
		if (fwrite(b.buf, 1, b.len, fp) != b.len)
			ret = -1;
	}
	if (fflush(fp) == EOF)
		ret = -1;
	uk_buf_release(&b);
	return ret;
}
