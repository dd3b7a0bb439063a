/* SPDX-License-Identifier: MIT */
/*
 * The walks that write chosen nodes (see extract_md.h): plain text
 * (uk_ex_emit, which hands Markdown to uk_ex_md_emit), Markdown, and
 * tables in both formats; they call down to the writer of
 * extract_write.c.  The Markdown is CommonMark with GFM tables, written
 * for a reader that is a language model: headings as '#', tight lists with their numbers,
 * "> " quotes, fenced code with the language the page names, inline
 * code, and with the options links and images with absolute URLs.  What
 * would read as syntax at the start of a line is escaped (md_syntax in
 * extract_write.c); emphasis is not kept (it would mostly add noise).
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "extract_md.h"
#include "urlref.h"
#include "util.h"

/* Columns of a table at most; a wider one is written as running text. */
#define MAXCOL 256

static int
is_heading(int tag)
{
	return tag >= GUMBO_TAG_H1 && tag <= GUMBO_TAG_H6;
}

/* Whether the subtree at j has a block element (but <br>). */
static int
has_block(struct ctx *c, int j)
{
	int k;

	for (k = j + 1; k < c->n[j].end; k++)
		if ((c->n[k].flags & F_BLOCK) && !(c->n[k].flags & F_TEXT) &&
		    c->n[k].tag != GUMBO_TAG_BR)
			return 1;
	return 0;
}

/* The text of the subtree at j, white space collapsed, to b. */
static void
flat_text(struct ctx *c, int i, int j, int skip, struct uk_buf *b)
{
	int k, sp = 0;

	for (k = j; k < c->n[j].end; k++) {
		if (uk_ex_skipped(c, i, k, skip)) {
			k = c->n[k].end - 1;
			continue;
		}
		if (!(c->n[k].flags & F_TEXT))
			continue;
		uk_ex_squeeze(b, c->n[k].g->v.text.text, &sp, 0, SIZE_MAX);
	}
}

/* The longest run of backticks in s[0..n). */
static size_t
ticks(const char *s, size_t n)
{
	size_t k, run = 0, best = 0;

	for (k = 0; k < n; k++) {
		run = s[k] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/*
 * The language name at v, lower-cased into out, up to the first character
 * no language name holds.  0 when it is empty or says there is none.
 */
static int
lang_name(const char *v, char *out, size_t size)
{
	size_t o = 0;

	for (; *v && o + 1 < size && (isalnum((unsigned char)*v) ||
	    strchr("+#._-", *v)); v++)
		out[o++] = (char)tolower((unsigned char)*v);
	out[o] = '\0';
	if (!o || !strcmp(out, "none") || !strcmp(out, "nohighlight") ||
	    !strcmp(out, "default")) {
		out[0] = '\0';
		return 0;
	}
	return 1;
}

/*
 * The language a class attribute names: "language-x", "lang-x",
 * "highlight-source-x", "highlight-x", "sourceCode x" (pandoc),
 * "brush: x" (SyntaxHighlighter).  0 when it names none.
 */
static int
class_lang(const char *cls, char *out, size_t size)
{
	static const char *const pre[] = { "language-", "lang-",
		"highlight-source-", "highlight-", NULL };
	const char *p = cls, *t, *v = NULL;
	size_t n, k;
	int next = 0;

	while (*p && !v) {
		while (*p && isspace((unsigned char)*p))
			p++;
		for (t = p; *p && !isspace((unsigned char)*p); p++)
			;
		n = (size_t)(p - t);
		if (!n)
			break;
		if (next) {
			v = t;
			break;
		}
		if ((n == 10 && !strncmp(t, "sourceCode", 10)) ||
		    (n == 6 && !strncmp(t, "brush:", 6))) {
			next = 1;
			continue;
		}
		for (k = 0; pre[k]; k++)
			if (n > strlen(pre[k]) &&
			    !strncasecmp(t, pre[k], strlen(pre[k]))) {
				v = t + strlen(pre[k]);
				break;
			}
	}
	return v ? lang_name(v, out, size) : 0;
}

/*
 * The language an attribute of g names outright: data-lang or
 * data-language (Hugo, Prism's plugins, many themes), or, on a <pre>
 * only, lang (GitHub's older markup, <pre lang="ruby">; on other
 * elements lang is the text's human language).
 */
static int
attr_lang(GumboNode *g, int pre, char *out, size_t size)
{
	const char *v;

	if (!(v = uk_ex_attr(g, "data-lang")) &&
	    !(v = uk_ex_attr(g, "data-language")) &&
	    !(pre && (v = uk_ex_attr(g, "lang"))))
		return 0;
	while (isspace((unsigned char)*v))
		v++;
	return lang_name(v, out, size);
}

/* The language element k names by its class or its attributes. */
static int
node_lang(struct ctx *c, int k, int pre, char *out, size_t size)
{
	const char *cls;

	if ((cls = uk_ex_attr(c->n[k].g, "class")) &&
	    class_lang(cls, out, size))
		return 1;
	return attr_lang(c->n[k].g, pre, out, size);
}

/*
 * The language of the <pre> at j: its own, its first <code>'s, or its
 * parent's or grandparent's (GitHub and Sphinx put it on a wrapper).
 */
static void
pre_lang(struct ctx *c, int j, char *out, size_t size)
{
	int k, up;

	out[0] = '\0';
	if (node_lang(c, j, 1, out, size))
		return;
	for (k = j + 1; k < c->n[j].end; k++)
		if (c->n[k].tag == GUMBO_TAG_CODE) {
			if (node_lang(c, k, 0, out, size))
				return;
			break;
		}
	for (k = c->n[j].parent, up = 0; k > c->body && up < 2;
	     k = c->n[k].parent, up++)
		if (node_lang(c, k, 0, out, size))
			return;
}

/* A fenced code block of the <pre> at j. */
static void
md_pre(struct ctx *c, int i, int j, struct writer *w, int skip)
{
	struct uk_buf code = UK_BUF_INIT;
	char lang[33], *fence;
	const char *p, *e, *s, *q;
	size_t nf, k;
	int t;

	for (t = j + 1; t < c->n[j].end; t++) {
		if (uk_ex_skipped(c, i, t, skip)) {
			t = c->n[t].end - 1;
			continue;
		}
		if (c->n[t].tag == GUMBO_TAG_BR)
			uk_buf_addch(&code, '\n');
		if (!(c->n[t].flags & F_TEXT))
			continue;
		for (p = c->n[t].g->v.text.text; *p; p++)
			if (*p != '\r')
				uk_buf_addch(&code, *p);
	}
	/* Without blank lines at either end, and trailing space. */
	s = code.buf;
	e = code.buf + code.len;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	for (q = s; q < e && isspace((unsigned char)*q); q++)
		if (*q == '\n')
			s = q + 1;
	if (s < e) {
		pre_lang(c, j, lang, sizeof(lang));
		nf = ticks(s, (size_t)(e - s)) + 1;
		if (nf < 3)
			nf = 3;
		fence = uk_util_xmalloc(nf + 1);
		memset(fence, '`', nf);
		fence[nf] = '\0';
		uk_ex_w_break(w, 3);
		uk_ex_w_raw(w, fence, nf);
		uk_buf_addstr(w->b, lang);
		for (p = s; p < e; p = q + 1) {
			if (!(q = memchr(p, '\n', (size_t)(e - p))))
				q = e;
			uk_buf_addch(w->b, '\n');
			if (q == p) {
				for (k = w->pfxlen; k > 0 && w->pfx[k - 1] == ' ';
				     k--)
					;
				uk_buf_add(w->b, w->pfx, k);
			} else {
				uk_buf_add(w->b, w->pfx, w->pfxlen);
				uk_buf_add(w->b, p, (size_t)(q - p));
			}
		}
		uk_buf_addch(w->b, '\n');
		uk_buf_add(w->b, w->pfx, w->pfxlen);
		uk_buf_add(w->b, fence, nf);
		uk_ex_w_break(w, 3);
		free(fence);
	}
	uk_buf_release(&code);
}

/* Inline code: `text`, with a longer run of backticks when it has some. */
static void
md_code(struct ctx *c, int i, int j, struct writer *w, int skip)
{
	struct uk_buf t = UK_BUF_INIT, out = UK_BUF_INIT;
	size_t n, k;
	int pad;

	flat_text(c, i, j, skip, &t);
	if (!t.len) {
		uk_buf_release(&t);
		return;
	}
	n = ticks(t.buf, t.len) + 1;
	pad = t.buf[0] == '`' || t.buf[t.len - 1] == '`';
	for (k = 0; k < n; k++)
		uk_buf_addch(&out, '`');
	if (pad)
		uk_buf_addch(&out, ' ');
	for (k = 0; k < t.len; k++) {
		/* GFM: a pipe in a cell is escaped even inside code. */
		if (w->cell && t.buf[k] == '|')
			uk_buf_addch(&out, '\\');
		uk_buf_addch(&out, t.buf[k]);
	}
	if (pad)
		uk_buf_addch(&out, ' ');
	for (k = 0; k < n; k++)
		uk_buf_addch(&out, '`');
	if (w->linkdepth && w->b->len == w->linkstart && w->brk == 1)
		w->brk = 0;
	uk_ex_w_raw(w, out.buf, out.len);
	uk_buf_release(&t);
	uk_buf_release(&out);
}

/* A URL for a link or image: absolute, with parentheses encoded. */
static void
add_url(struct writer *w, const char *ref)
{
	char *u = uk_urlref_resolve(w->base, ref);
	const char *p;

	for (p = u; p && *p; p++)
		if (*p == '(')
			uk_buf_addstr(w->b, "%28");
		else if (*p == ')')
			uk_buf_addstr(w->b, "%29");
		else
			uk_buf_addch(w->b, *p);
	free(u);
}

/*
 * Whether a link or image may be written: its URL, resolved on the page's,
 * is http or https.  Any other scheme is left out with the markup (the
 * text stays): javascript:, vbscript: and data: run or show what the page
 * chose, file: names the reader's own files, and a reader that follows
 * links should meet nothing but the web.  Without a page URL a reference
 * with no scheme of its own stays as the page has it.
 */
static int
url_ok(const struct writer *w, const char *ref)
{
	char *u = uk_urlref_resolve(w->base, ref);
	const char *p;
	int ok;

	if (!u)
		return 0;
	ok = !strncasecmp(u, "http://", 7) || !strncasecmp(u, "https://", 8);
	if (!ok && !(w->base && *w->base)) {
		/* RFC 3986: a scheme is ALPHA *( ALPHA / DIGIT / + - . ) ":". */
		for (p = u; isalnum((unsigned char)*p) || *p == '+' ||
		     *p == '-' || *p == '.'; p++)
			;
		ok = *p != ':' || p == u || !isalpha((unsigned char)*u);
	}
	free(u);
	return ok;
}

void
uk_extract_md_escape(struct uk_buf *b, size_t start)
{
	size_t k, n = 0;
	char *t;

	for (k = start; k < b->len; k++)
		n += uk_ex_md_html(b->buf + start, b->len - start, k - start);
	if (!n)
		return;
	t = uk_util_xmalloc(b->len - start);
	memcpy(t, b->buf + start, b->len - start);
	n = b->len - start;
	uk_buf_setlen(b, start);
	for (k = 0; k < n; k++) {
		if (uk_ex_md_html(t, n, k))
			uk_buf_addch(b, '\\');
		uk_buf_addch(b, t[k]);
	}
	free(t);
}

/* ![alt](URL) for the <img> at j. */
static void
md_img(struct ctx *c, int j, struct writer *w)
{
	const char *src = uk_ex_attr(c->n[j].g, "src");
	const char *alt = uk_ex_attr(c->n[j].g, "alt"), *p;
	size_t altlen;
	int sp = 0;

	if (!url_ok(w, src))
		return;
	if (w->linkdepth && w->b->len == w->linkstart && w->brk == 1)
		w->brk = 0;
	uk_ex_w_raw(w, "![", 2);
	if (!alt)
		alt = "";
	altlen = strlen(alt);
	for (p = alt; *p; p++) {
		if (isspace((unsigned char)*p)) {
			sp = 1;
			continue;
		}
		if (sp && w->b->buf[w->b->len - 1] != '[')
			uk_buf_addch(w->b, ' ');
		sp = 0;
		if (*p == '[' || *p == ']' || (*p == '|' && w->cell) ||
		    uk_ex_md_html(alt, altlen, (size_t)(p - alt)))
			uk_buf_addch(w->b, '\\');
		uk_buf_addch(w->b, *p);
	}
	uk_buf_addstr(w->b, "](");
	add_url(w, src);
	uk_buf_addch(w->b, ')');
}

/*
 * Set the line marker m, whose first ind bytes the prefix pushed after it
 * indents (a list item's).  A heading's marker goes after an item's still
 * waiting ("1. ## Name"); another item's is written after it on a line of
 * its own.
 */
static void
set_mark(struct writer *w, const char *m, size_t ind, int bol)
{
	size_t n = strlen(w->mark);

	w->markkeep = n;
	if (n && !ind && n + strlen(m) < sizeof(w->mark)) {
		memcpy(w->mark + n, m, strlen(m) + 1);
		w->markbol = bol;
		return;
	}
	if (n)
		uk_ex_w_flush(w);
	w->markkeep = 0;
	snprintf(w->mark, sizeof(w->mark), "%s", m);
	w->markpfx = w->pfxlen;
	w->markind = ind;
	w->markbol = bol;
}

/* Open element j; 1 when its whole subtree has been written. */
static int
md_open(struct ctx *c, int i, int j, struct writer *w, int skip)
{
	struct nd *n = &c->n[j];
	char m[24];
	const char *s;
	long start;
	int k;

	switch (n->tag) {
	case GUMBO_TAG_H1:
	case GUMBO_TAG_H2:
	case GUMBO_TAG_H3:
	case GUMBO_TAG_H4:
	case GUMBO_TAG_H5:
	case GUMBO_TAG_H6:
		if (w->flat) {
			w->flat++;
			return 0;
		}
		uk_ex_w_break(w, 3);
		k = n->tag - GUMBO_TAG_H1 + 1;
		memset(m, '#', (size_t)k);
		m[k] = ' ';
		m[k + 1] = '\0';
		set_mark(w, m, 0, 0);
		w->flat++;
		return 0;
	case GUMBO_TAG_UL:
	case GUMBO_TAG_OL:
	case GUMBO_TAG_MENU:
		uk_ex_w_break(w, w->nlists ? 2 : 3);
		if (w->nlists == (int)(sizeof(w->lists) / sizeof(w->lists[0]))) {
			w->listslost++;
			return 0;
		}
		start = 1;
		if (n->tag == GUMBO_TAG_OL && (s = uk_ex_attr(n->g, "start")) &&
		    uk_util_parse_long(s, 0, 999999999L, &start))
			start = 1;
		w->lists[w->nlists].ordered = n->tag == GUMBO_TAG_OL;
		w->lists[w->nlists].next = start;
		w->lists[w->nlists].items = 0;
		w->nlists++;
		return 0;
	case GUMBO_TAG_LI:
		if (w->flat) {
			uk_ex_w_break(w, 1);
			return 0;
		}
		memcpy(m, "- ", 3);
		if (w->nlists && !w->listslost) {
			if (w->lists[w->nlists - 1].ordered)
				snprintf(m, sizeof(m), "%ld. ",
				    w->lists[w->nlists - 1].next++);
			/* Items follow each other line by line (a tight
			 * list), whatever their paragraphs asked for. */
			if (w->lists[w->nlists - 1].items++ && w->brk > 2 &&
			    !w->mark[0])
				w->brk = 2;
		}
		uk_ex_w_break(w, 2);
		set_mark(w, m, strlen(m), 1);
		memset(m, ' ', strlen(m));
		uk_ex_w_push(w, m);
		return 0;
	case GUMBO_TAG_BLOCKQUOTE:
		if (w->flat)
			break;
		uk_ex_w_break(w, 3);
		uk_ex_w_push(w, "> ");
		return 0;
	case GUMBO_TAG_PRE:
		if (w->flat) {
			md_code(c, i, j, w, skip);
			return 1;
		}
		md_pre(c, i, j, w, skip);
		return 1;
	case GUMBO_TAG_CODE:
	case GUMBO_TAG_KBD:
	case GUMBO_TAG_SAMP:
		md_code(c, i, j, w, skip);
		return 1;
	case GUMBO_TAG_HR:
		if (w->flat)
			return 1;
		uk_ex_w_break(w, 3);
		uk_ex_w_raw(w, "---", 3);
		uk_ex_w_break(w, 3);
		return 1;
	case GUMBO_TAG_IMG:
		if (w->images)
			md_img(c, j, w);
		return 1;
	case GUMBO_TAG_TABLE:
		if (w->flat || !uk_ex_table_is_data(c, j))
			break;
		uk_ex_w_break(w, 3);
		uk_ex_table_emit(c, j, w, skip);
		uk_ex_w_break(w, 3);
		return 1;
	case GUMBO_TAG_A:
		if (!w->links || w->linkdepth ||
		    !url_ok(w, uk_ex_attr(n->g, "href")) || has_block(c, j))
			return 0;
		w->linksave = w->b->len;
		w->linkbrk = w->brk;
		uk_ex_w_raw(w, "[", 1);
		w->linkdepth = 1;
		w->linkstart = w->b->len;
		w->linknode = j;
		return 0;
	default:
		break;
	}
	if (n->flags & F_BLOCK)
		uk_ex_w_break(w, uk_ex_break_level(n->tag));
	return 0;
}

static void
md_close(struct ctx *c, int j, struct writer *w)
{
	struct nd *n = &c->n[j];

	switch (n->tag) {
	case GUMBO_TAG_H1:
	case GUMBO_TAG_H2:
	case GUMBO_TAG_H3:
	case GUMBO_TAG_H4:
	case GUMBO_TAG_H5:
	case GUMBO_TAG_H6:
		w->flat--;
		if (w->flat)
			return;
		/* An empty heading: its marker goes, an item's stays. */
		if (w->mark[0])
			w->mark[w->markkeep] = '\0';
		uk_ex_w_break(w, 3);
		return;
	case GUMBO_TAG_UL:
	case GUMBO_TAG_OL:
	case GUMBO_TAG_MENU:
		if (w->listslost)
			w->listslost--;
		else if (w->nlists)
			w->nlists--;
		uk_ex_w_break(w, w->nlists ? 2 : 3);
		return;
	case GUMBO_TAG_LI:
		if (w->flat) {
			uk_ex_w_break(w, 1);
			return;
		}
		w->mark[0] = '\0';
		uk_ex_w_pop(w);
		uk_ex_w_break(w, 2);
		return;
	case GUMBO_TAG_BLOCKQUOTE:
		if (w->flat)
			break;
		w->mark[0] = '\0';
		uk_ex_w_pop(w);
		uk_ex_w_break(w, 3);
		return;
	case GUMBO_TAG_A:
		if (!w->linkdepth || w->linknode != j)
			return;
		w->linkdepth = 0;
		if (w->b->len == w->linkstart) {
			/* No text: no link. */
			uk_buf_setlen(w->b, w->linksave);
			w->brk = w->linkbrk;
			return;
		}
		uk_buf_addstr(w->b, "](");
		add_url(w, uk_ex_attr(n->g, "href"));
		uk_buf_addch(w->b, ')');
		return;
	default:
		break;
	}
	if (n->flags & F_BLOCK)
		uk_ex_w_break(w, uk_ex_break_level(n->tag));
}

void
uk_ex_md_emit(struct ctx *c, int i, struct writer *w, int skip)
{
	int stack[256], sn = 0, j, end = c->n[i].end;

	for (j = i; j < end; j++) {
		struct nd *n = &c->n[j];

		while (sn && c->n[stack[sn - 1]].end <= j)
			md_close(c, stack[--sn], w);
		if (uk_ex_skipped(c, i, j, skip)) {
			j = n->end - 1;
			continue;
		}
		if (n->flags & F_TEXT) {
			uk_ex_w_text(w, uk_ex_para_text(c, j, w, skip),
			    n->flags & F_PRE);
			continue;
		}
		/* Deeper than the stack: the element's text runs on. */
		if (sn == (int)(sizeof(stack) / sizeof(stack[0])))
			continue;
		if (md_open(c, i, j, w, skip)) {
			j = n->end - 1;
			continue;
		}
		stack[sn++] = j;
	}
	while (sn)
		md_close(c, stack[--sn], w);
	uk_ex_w_break(w, 3);
}

/* Tables. */

static long
span(GumboNode *g, const char *name, long max)
{
	const char *s = uk_ex_attr(g, name);
	long v;

	if (!s || uk_util_parse_long(s, 1, 1000000L, &v))
		return 1;
	return v > max ? max : v;
}

int
uk_ex_table_is_data(struct ctx *c, int t)
{
	const char *role = uk_ex_attr(c->n[t].g, "role");
	int j, s, rows = 0, maxcols = 0, cols;

	if (role && (!strcasecmp(role, "presentation") ||
	    !strcasecmp(role, "none")))
		return 0;
	for (j = t + 1; j < c->n[t].end; j++) {
		struct nd *n = &c->n[j];

		/* A table in a table, headings, code blocks or a cell of
		 * article length: the table lays out the page. */
		if (n->tag == GUMBO_TAG_TABLE || is_heading(n->tag) ||
		    n->tag == GUMBO_TAG_PRE || n->tag == GUMBO_TAG_BLOCKQUOTE ||
		    n->tag == GUMBO_TAG_FORM)
			return 0;
		if ((n->tag == GUMBO_TAG_TD || n->tag == GUMBO_TAG_TH) &&
		    n->text > 1000)
			return 0;
		if (n->tag != GUMBO_TAG_TR)
			continue;
		rows++;
		cols = 0;
		for (s = j + 1; s < n->end; s = c->n[s].end)
			if (c->n[s].tag == GUMBO_TAG_TD ||
			    c->n[s].tag == GUMBO_TAG_TH)
				cols += (int)span(c->n[s].g, "colspan", MAXCOL);
		if (cols > maxcols)
			maxcols = cols;
	}
	return rows >= 2 && maxcols >= 2 && maxcols <= MAXCOL;
}

struct grid {
	struct uk_buf pool;   /* the cells' text, one after the other */
	size_t *off, *len;    /* of cell id k in pool */
	size_t ncells, acells;
	int *v;               /* rows of cell ids (-1: empty), one after */
	size_t nv, av;
	size_t *row;          /* where each row starts in v */
	size_t nrows, arows;
};

static void
grid_add(struct grid *g, int id)
{
	if (g->nv == g->av) {
		g->av = g->av ? g->av * 2 : 64;
		g->v = uk_util_xrealloc(g->v, g->av * sizeof(*g->v));
	}
	g->v[g->nv++] = id;
}

/* The text of cell j, as a new cell id. */
static int
grid_cell(struct ctx *c, int i, int j, const struct writer *w, int skip,
    struct grid *g)
{
	struct uk_buf t = UK_BUF_INIT;
	struct writer cw;

	if (!uk_ex_skipped(c, i, j, skip)) {
		uk_ex_w_cell(&cw, w, &t);
		uk_ex_emit(c, j, &cw, skip);
		uk_buf_trim(&t);
	}
	if (g->ncells == g->acells) {
		g->acells = g->acells ? g->acells * 2 : 32;
		g->off = uk_util_xrealloc(g->off, g->acells * sizeof(*g->off));
		g->len = uk_util_xrealloc(g->len, g->acells * sizeof(*g->len));
	}
	g->off[g->ncells] = g->pool.len;
	g->len[g->ncells] = t.len;
	uk_buf_add(&g->pool, t.buf, t.len);
	uk_buf_release(&t);
	return (int)g->ncells++;
}

/*
 * A cell's text in text format: a bar it holds is written "\|" as in
 * Markdown, so that " | " always parts two cells ("Lungo | long" in one
 * cell would read as two).  Markdown's cells are escaped by the writer.
 */
static void
put_cell_text(struct uk_buf *line, const char *s, size_t n)
{
	const char *bar;

	while (n && (bar = memchr(s, '|', n))) {
		uk_buf_add(line, s, (size_t)(bar - s));
		uk_buf_addstr(line, "\\|");
		n -= (size_t)(bar - s) + 1;
		s = bar + 1;
	}
	uk_buf_add(line, s, n);
}

/* One row: cells of the table's columns, "| a | b |" in Markdown. */
static void
put_row(struct writer *w, struct grid *g, size_t r, size_t ncols,
    struct uk_buf *line)
{
	size_t a = g->row[r], e = r + 1 < g->nrows ? g->row[r + 1] : g->nv;
	size_t k, last = 0, any = 0;
	int id;

	uk_buf_reset(line);
	for (k = a; k < e; k++)
		if (g->v[k] >= 0 && g->len[g->v[k]]) {
			any = 1;
			last = k - a + 1;
		}
	if (!any && (!w->md || r > 0))
		return;
	if (w->md)
		last = ncols;
	for (k = 0; k < last; k++) {
		id = a + k < e ? g->v[a + k] : -1;
		if (w->md)
			uk_buf_addstr(line, k ? " " : "| ");
		else if (k)
			uk_buf_addstr(line, " |");
		if (id >= 0 && g->len[id]) {
			if (!w->md && k)
				uk_buf_addch(line, ' ');
			if (w->md)
				uk_buf_add(line, g->pool.buf + g->off[id],
				    g->len[id]);
			else
				put_cell_text(line, g->pool.buf + g->off[id],
				    g->len[id]);
		}
		if (w->md)
			uk_buf_addstr(line, id >= 0 && g->len[id] ? " |" : "|");
	}
	uk_ex_w_break(w, 2);
	uk_ex_w_raw(w, line->buf, line->len);
	if (w->md && r == 0) {
		uk_buf_reset(line);
		for (k = 0; k < ncols; k++)
			uk_buf_addstr(line, k ? " --- |" : "| --- |");
		uk_ex_w_break(w, 2);
		uk_ex_w_raw(w, line->buf, line->len);
	}
}

void
uk_ex_table_emit(struct ctx *c, int t, struct writer *w, int skip)
{
	struct grid g;
	struct uk_buf cap = UK_BUF_INIT, line = UK_BUF_INIT;
	struct {
		long left;
		int id;
	} carry[MAXCOL];
	int j, s, k, id, ncarry = 0;
	long cs, rs;
	size_t r, ncols = 1, col;

	memset(&g, 0, sizeof(g));
	memset(carry, 0, sizeof(carry));
	for (j = t + 1; j < c->n[t].end; j++) {
		struct nd *n = &c->n[j];

		if (uk_ex_skipped(c, t, j, skip)) {
			j = n->end - 1;
			continue;
		}
		if (n->tag == GUMBO_TAG_CAPTION) {
			flat_text(c, t, j, skip, &cap);
			j = n->end - 1;
			continue;
		}
		if (n->tag != GUMBO_TAG_TR)
			continue;
		if (g.nrows == g.arows) {
			g.arows = g.arows ? g.arows * 2 : 16;
			g.row =
			    uk_util_xrealloc(g.row, g.arows * sizeof(*g.row));
		}
		g.row[g.nrows++] = g.nv;
		col = 0;
		for (s = j + 1; s < n->end; s = c->n[s].end) {
			if (c->n[s].tag != GUMBO_TAG_TD &&
			    c->n[s].tag != GUMBO_TAG_TH)
				continue;
			while (col < MAXCOL && carry[col].left) {
				carry[col].left--;
				grid_add(&g, carry[col++].id);
			}
			if (col >= MAXCOL)
				break;
			id = grid_cell(c, t, s, w, skip, &g);
			cs = span(c->n[s].g, "colspan", MAXCOL);
			rs = span(c->n[s].g, "rowspan", 100000L);
			for (k = 0; k < cs && col < MAXCOL; k++, col++) {
				grid_add(&g, k ? -1 : id);
				if (rs > 1) {
					carry[col].left = rs - 1;
					carry[col].id = k ? -1 : id;
					if ((int)col + 1 > ncarry)
						ncarry = (int)col + 1;
				}
			}
		}
		/* Cells still spanning down from rows above, to the right. */
		for (; (int)col < ncarry; col++) {
			grid_add(&g, carry[col].left ? carry[col].id : -1);
			if (carry[col].left)
				carry[col].left--;
		}
		if (g.nv - g.row[g.nrows - 1] > ncols)
			ncols = g.nv - g.row[g.nrows - 1];
		j = n->end - 1;
	}
	if (cap.len) {
		uk_ex_w_break(w, 3);
		uk_ex_w_text(w, cap.buf, 0);
		uk_ex_w_break(w, 3);
	}
	for (r = 0; r < g.nrows; r++)
		put_row(w, &g, r, ncols, &line);
	uk_buf_release(&cap);
	uk_buf_release(&line);
	uk_buf_release(&g.pool);
	free(g.off);
	free(g.len);
	free(g.v);
	free(g.row);
}

/* The break after element j: a list in a list item ends its line. */
static int
close_level(struct ctx *c, int j)
{
	int tag = c->n[j].tag, p = c->n[j].parent;

	if ((tag == GUMBO_TAG_UL || tag == GUMBO_TAG_OL) && p >= 0 &&
	    c->n[p].tag == GUMBO_TAG_LI)
		return 2;
	return uk_ex_break_level(tag);
}

/*
 * Write the text of the subtree at i.  skip: 0 all but scripts and styles
 * (the fallback), 1 without boilerplate.
 */
void
uk_ex_emit(struct ctx *c, int i, struct writer *w, int skip)
{
	int stack[256], sn = 0, j, end = c->n[i].end;

	if (w->md) {
		uk_ex_md_emit(c, i, w, skip);
		return;
	}
	for (j = i; j < end; j++) {
		struct nd *n = &c->n[j];

		while (sn && c->n[stack[sn - 1]].end <= j) {
			sn--;
			uk_ex_w_break(w, close_level(c, stack[sn]));
		}
		if (uk_ex_skipped(c, i, j, skip)) {
			j = n->end - 1;
			continue;
		}
		if (n->flags & F_TEXT) {
			uk_ex_w_text(w, uk_ex_para_text(c, j, w, skip),
			    n->flags & F_PRE);
			continue;
		}
		if (n->tag == GUMBO_TAG_TABLE && !w->flat &&
		    uk_ex_table_is_data(c, j)) {
			uk_ex_w_break(w, 3);
			uk_ex_table_emit(c, j, w, skip);
			uk_ex_w_break(w, 3);
			j = n->end - 1;
			continue;
		}
		if (n->flags & F_BLOCK) {
			uk_ex_w_break(w, close_level(c, j));
			if (sn < (int)(sizeof(stack) / sizeof(stack[0])))
				stack[sn++] = j;
		}
	}
	while (sn) {
		sn--;
		uk_ex_w_break(w, close_level(c, stack[sn]));
	}
	uk_ex_w_break(w, 3);
}
