/* SPDX-License-Identifier: MIT */
/*
 * The writer of chosen nodes' text (see extract_int.h; the walks that
 * call it are in extract_md.c): it collapses white space and keeps
 * pending breaks, so that blocks are separated by
 * blank lines, list items and rows by newlines.  A table that holds data
 * is written one row a line with its cells joined by " | " (extract_md.c;
 * " | " rather than a tab, which reads as one space on most screens);
 * a table that lays out the page keeps its cells apart by spaces.
 * Markdown (extract_md.c) uses the same writer, which then also escapes
 * what would read as syntax and keeps a prefix for every line (block
 * quotes' "> ", list items' indent).
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "extract_md.h"
#include "strset.h"
#include "util.h"

void
uk_ex_w_init(struct writer *w, struct uk_buf *b,
    const struct uk_extract_opts *o, const char *url)
{
	memset(w, 0, sizeof(*w));
	w->b = b;
	if (o && o->format == UK_EXTRACT_MARKDOWN) {
		w->md = 1;
		w->links = o->links;
		w->images = o->images;
	}
	w->base = url;
}

void
uk_ex_w_cell(struct writer *cw, const struct writer *w, struct uk_buf *b)
{
	memset(cw, 0, sizeof(*cw));
	cw->b = b;
	cw->md = w->md;
	cw->links = w->links;
	cw->images = w->images;
	cw->base = w->base;
	cw->flat = 1;
	cw->cell = 1;
}

void
uk_ex_w_break(struct writer *w, int level)
{
	/* Breaks asked for while a marker waits are the marker's own. */
	if (w->mark[0])
		return;
	if (w->flat && level > 1)
		level = 1;
	if (level > w->brk)
		w->brk = level;
	if (w->brkpfx > w->pfxlen)
		w->brkpfx = w->pfxlen;
}

void
uk_ex_w_push(struct writer *w, const char *s)
{
	size_t n = strlen(s);

	if (w->npfx == (int)sizeof(w->pfxn) ||
	    w->pfxlen + n >= sizeof(w->pfx)) {
		w->pfxlost++;
		return;
	}
	memcpy(w->pfx + w->pfxlen, s, n);
	w->pfxlen += n;
	w->pfxn[w->npfx++] = (unsigned char)n;
}

void
uk_ex_w_pop(struct writer *w)
{
	if (w->pfxlost) {
		w->pfxlost--;
		return;
	}
	if (!w->npfx)
		return;
	w->pfxlen -= w->pfxn[--w->npfx];
	if (w->brkpfx > w->pfxlen)
		w->brkpfx = w->pfxlen;
}

/* pfx[0..n) without its trailing spaces (the prefix of a blank line). */
static void
add_pfx_blank(struct writer *w, size_t n)
{
	while (n > 0 && w->pfx[n - 1] == ' ')
		n--;
	uk_buf_add(w->b, w->pfx, n);
}

void
uk_ex_w_flush(struct writer *w)
{
	size_t at = w->mark[0] ? w->markpfx : w->pfxlen, ml;

	if (w->brk && w->b->len) {
		if (w->brk == 1)
			uk_buf_addch(w->b, ' ');
		else {
			if (w->brk == 3) {
				uk_buf_addch(w->b, '\n');
				add_pfx_blank(w, w->brkpfx < at ? w->brkpfx : at);
			}
			uk_buf_addch(w->b, '\n');
			if (w->brk == 3)
				uk_buf_add(w->b, w->note, w->notelen);
			uk_buf_add(w->b, w->pfx, at);
			w->bol = 1;
		}
	} else if (!w->b->len && w->md) {
		uk_buf_add(w->b, w->note, w->notelen);
		uk_buf_add(w->b, w->pfx, at);
		w->bol = 1;
	}
	w->notelen = 0;
	w->brk = 0;
	w->brkpfx = w->pfxlen;
	if (w->mark[0]) {
		/* "- " then what the item's own prefix adds after its indent
		 * (a quote that starts the item: "- > "). */
		ml = w->markind;
		uk_buf_addstr(w->b, w->mark);
		if (w->pfxlen > w->markpfx + ml)
			uk_buf_add(w->b, w->pfx + w->markpfx + ml,
			    w->pfxlen - w->markpfx - ml);
		w->mark[0] = '\0';
		w->bol = w->markbol;
	}
}

void
uk_ex_w_raw(struct writer *w, const char *s, size_t n)
{
	uk_ex_w_flush(w);
	uk_buf_add(w->b, s, n);
	w->bol = 0;
}

/* Whether word s[0..n) would start a block if it began a line. */
size_t
uk_ex_md_syntax(const char *s, size_t n)
{
	size_t k;

	/* "#" to "######", "-", "+", "*", "---", "===", "***", "___". */
	for (k = 1; k < n && s[k] == s[0]; k++)
		;
	if (k == n && strchr("#-+*=_", s[0]))
		return 1;
	if (s[0] == '>' || s[0] == '<')
		return 1;
	if (n >= 3 && (!strncmp(s, "```", 3) || !strncmp(s, "~~~", 3)))
		return 1;
	/* "1." or "12)": an ordered list item; escape its '.' or ')'. */
	for (k = 0; k < n && k < 10 && isdigit((unsigned char)s[k]); k++)
		;
	if (k > 0 && k < 10 && k == n - 1 && (s[k] == '.' || s[k] == ')'))
		return k + 1;
	return 0;
}

size_t
uk_ex_md_html(const char *s, size_t n, size_t k)
{
	size_t e;

	if (s[k] == '<')
		return 1;
	if (s[k] != '&')
		return 0;
	/* "&name;", "&#10;", "&#x1b;": CommonMark would decode them. */
	e = k + 1;
	if (e < n && s[e] == '#')
		e++;
	while (e < n && isalnum((unsigned char)s[e]))
		e++;
	return e < n && s[e] == ';' && e > k + 1 + (s[k + 1] == '#');
}

/* Write the run s[0..n) with Markdown's escapes. */
static void
md_add(struct writer *w, const char *s, size_t n)
{
	size_t k, esc = 0;

	if (w->bol && !w->flat)
		esc = uk_ex_md_syntax(s, n);
	for (k = 0; k < n; k++) {
		if ((esc && k == esc - 1) || (w->cell && s[k] == '|') ||
		    (w->linkdepth && (s[k] == '[' || s[k] == ']')) ||
		    uk_ex_md_html(s, n, k))
			uk_buf_addch(w->b, '\\');
		uk_buf_addch(w->b, s[k]);
	}
}

/* isspace of the "C" locale (the programs never leave it), inline. */
#define W_SPACE(ch) ((ch) == ' ' || ((ch) >= '\t' && (ch) <= '\r'))

/*
 * The rest of a text node after a word of plain text (not Markdown, not
 * <pre>): the writer's state is then what a word leaves (no break, no
 * marker, no note, past a link's start), so each run of spaces before
 * a word is one ' ' and a run at the end a break of 1 to come, as the
 * word by word path writes them; copied a byte at a time into room
 * made once.
 */
static void
w_text_rest(struct writer *w, const unsigned char *p)
{
	size_t n = strlen((const char *)p), len;
	char *o;
	int sp = 0;

	uk_buf_grow(w->b, n);
	o = w->b->buf;
	len = w->b->len;
	for (; *p; p++) {
		if (W_SPACE(*p)) {
			sp = 1;
			continue;
		}
		if (sp)
			o[len++] = ' ';
		sp = 0;
		o[len++] = (char)*p;
	}
	o[len] = '\0';
	w->b->len = len;
	if (sp)
		uk_ex_w_break(w, 1);
}

void
uk_ex_w_text(struct writer *w, const char *s, int pre)
{
	const unsigned char *p = (const unsigned char *)s, *q;

	while (*p) {
		if (!pre && isspace(*p)) {
			uk_ex_w_break(w, 1);
			p++;
			continue;
		}
		/* Nothing between a link's '[' and its text. */
		if (w->linkdepth && w->b->len == w->linkstart && w->brk == 1)
			w->brk = 0;
		uk_ex_w_flush(w);
		if (pre && *p == '\r') {
			p++;
			continue;
		}
		/* The run of bytes up to the next space (or CR in <pre>). */
		for (q = p + 1; *q && !(pre ? *q == '\r' : isspace(*q)); q++)
			;
		if (w->md)
			md_add(w, (const char *)p, (size_t)(q - p));
		else
			uk_buf_add(w->b, p, (size_t)(q - p));
		w->bol = 0;
		p = q;
		if (!pre && !w->md) {
			w_text_rest(w, p);
			return;
		}
	}
}

int
uk_ex_break_level(int tag)
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

int
uk_ex_skipped(struct ctx *c, int i, int j, int skip)
{
	struct nd *n = &c->n[j];

	if (skip)
		return (n->flags & F_SKIP) && !(c->n[i].flags & F_SKIP);
	return n->tag == GUMBO_TAG_SCRIPT || n->tag == GUMBO_TAG_STYLE ||
	    n->tag == GUMBO_TAG_HEAD || n->tag == GUMBO_TAG_TEMPLATE;
}

/*
 * Cards.  A grid sets items of one kind side by side (three siblings or
 * more with the same tag and class: a shop's product cards, a course
 * list's boxes), and each item writes lines that the others write too
 * ("For monitors: 5-22 lbs", a brand, "Duration"): a reader reads them
 * in each card, where uk_ex_dedupe would keep the first.  So before the
 * first word of a paragraph the writer notes, for each grid around it,
 * the grid's first item, the item and where in the item the paragraph
 * sits (the depth and tags of the way down), as "\x1f" then "F.D.P,I;"
 * for each grid then "\x1f"; uk_ex_dedupe reads the note and takes it
 * out.  Only for the text that uk_ex_dedupe reads (skip 1, the plain
 * text format).
 */

/* Whether elements a and b are of one kind: the same tag and class. */
static int
same_kind(struct ctx *c, int a, int b)
{
	const char *x, *y;

	if (c->n[a].tag != c->n[b].tag)
		return 0;
	x = uk_ex_attr(c->n[a].g, "class");
	y = uk_ex_attr(c->n[b].g, "class");
	if (!x || !y)
		return x == y;
	return !strcmp(x, y);
}

/*
 * The first item of the grid that element a is an item of, or -1.  The
 * three items are looked for among the parent's first 256 children: a
 * grid starts where its parent does, and a page of thousands of
 * children of other kinds costs no more than that a paragraph.
 */
static int
grid_first(struct ctx *c, int a)
{
	int p = c->n[a].parent, s, first = -1, same = 0, k = 0;

	if (p < 0)
		return -1;
	for (s = p + 1; s < c->n[p].end && k < 256; s = c->n[s].end, k++) {
		if ((c->n[s].flags & F_TEXT) || !same_kind(c, s, a))
			continue;
		if (first < 0)
			first = s;
		if (++same == 3)
			return first;
	}
	return -1;
}

/*
 * Whether text node j is in a link that holds no block: a control on a
 * line of its own ("Learn more", "View details") is read once; a card
 * that is one link around its blocks keeps its lines.
 */
static int
in_link_line(struct ctx *c, int j)
{
	int a, k;

	if (!(c->n[j].flags & F_INLINK))
		return 0;
	for (a = c->n[j].parent; a > 0 && c->n[a].tag != GUMBO_TAG_A;
	    a = c->n[a].parent)
		;
	if (a <= 0)
		return 1;
	for (k = a + 1; k < c->n[a].end; k++)
		if (c->n[k].flags & F_BLOCK)
			return 0;
	return 1;
}

/*
 * The note of the grids around text node j, at the paragraph's start: in
 * plain text written at once; in Markdown kept in w->note for
 * uk_ex_w_flush, which writes it before the paragraph's prefix and
 * marker ("> ", "- ", "## "), where uk_ex_dedupe looks for it.
 */
/* The digits of v and then ch at p; returns the end. */
static char *
put_num(char *p, unsigned long v, char ch)
{
	char d[24];
	int n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = d[--n];
	*p++ = ch;
	return p;
}

static void
card_note(struct ctx *c, int j, struct writer *w)
{
	struct uk_buf note = UK_BUF_INIT;
	char num[96], *e;
	size_t at;
	int a, f, depth = 0;
	unsigned long path = 5381;

	if (in_link_line(c, j))
		return;
	if (!w->md) {
		uk_ex_w_flush(w);
		at = w->b->len;
		/* A third newline (after a <pre>'s own) hides the
		 * paragraph's start from uk_ex_dedupe. */
		if (at >= 3 && w->b->buf[at - 3] == '\n')
			return;
	}
	for (a = c->n[j].parent; a > 0; a = c->n[a].parent) {
		depth++;
		path = (path * 33 + (unsigned long)c->n[a].tag) % 1000003;
		if ((f = grid_first(c, a)) < 0)
			continue;
		if (!note.len)
			uk_buf_addch(&note, '\x1f');
		/* "%d.%d.%lu,%d;" (none negative) without snprintf's cost. */
		e = put_num(num, (unsigned long)f, '.');
		e = put_num(e, (unsigned long)depth, '.');
		e = put_num(e, path, ',');
		e = put_num(e, (unsigned long)a, ';');
		uk_buf_add(&note, num, (size_t)(e - num));
	}
	if (note.len) {
		uk_buf_addch(&note, '\x1f');
		if (!w->md)
			uk_buf_add(w->b, note.buf, note.len);
		else if (note.len <= sizeof(w->note)) {
			/* A longer one (grids nested some ten deep) is left
			 * out: the paragraph is then deduplicated as any. */
			memcpy(w->note, note.buf, note.len);
			w->notelen = note.len;
		}
	}
	uk_buf_release(&note);
}

const char *
uk_ex_para_text(struct ctx *c, int j, struct writer *w, int skip)
{
	const char *t = c->n[j].g->v.text.text;

	/* Not in a cell; in Markdown a heading's text is flat, and noted. */
	if (skip == 1 && !(w->md ? w->cell : w->flat) &&
	    !(c->n[j].flags & F_PRE) && (w->brk == 3 || !w->b->len)) {
		while (isspace((unsigned char)*t))
			t++;
		if (*t)
			card_note(c, j, w);
	}
	return t;
}


/*
 * Where the fenced code block that starts at p ends: after its closing
 * fence (a line of as many backticks or more), or at end.
 */
static const char *
fence_end(const char *p, const char *end)
{
	size_t f = 0, k;
	const char *q = p;

	while (p + f < end && p[f] == '`')
		f++;
	while ((q = memchr(q, '\n', (size_t)(end - q)))) {
		q++;
		for (k = 0; q + k < end && q[k] == '`'; k++)
			;
		if (k >= f && (q + k == end || q[k] == '\n'))
			return q + k;
	}
	return end;
}

/* The length of the note of grids at p (card_note), 0 if none. */
static size_t
note_len(const char *p, const char *end)
{
	const char *q;

	if (p >= end || *p != '\x1f')
		return 0;
	for (q = p + 1; q < end && (isdigit((unsigned char)*q) ||
	    *q == '.' || *q == ',' || *q == ';'); q++)
		;
	return q < end && *q == '\x1f' ? (size_t)(q + 1 - p) : 0;
}

/*
 * Whether the paragraph s[0..n), noted m[0..mn) (without its "\x1f"s),
 * is a card's line: its first copy sat at the same place in another item
 * of one of its grids.  first: this is the first copy.  grids holds
 * text "\0" F.D.P of first copies and text "\0" F.D.P,I of every copy.
 */
static int
card_line(struct uk_strset *grids, struct uk_buf *key, const char *s, size_t n,
    const char *m, size_t mn, int first)
{
	const char *e = m, *end = m + mn, *comma, *semi;
	int line = 0, other;

	while (e < end && (semi = memchr(e, ';', (size_t)(end - e))) &&
	    (comma = memchr(e, ',', (size_t)(semi - e)))) {
		uk_buf_reset(key);
		uk_buf_add(key, s, n);
		uk_buf_addch(key, '\0');
		uk_buf_add(key, e, (size_t)(comma - e));
		if (first)
			uk_strset_add(grids, key->buf, key->len);
		other = !first && uk_strset_has(grids, key->buf, key->len);
		uk_buf_add(key, comma, (size_t)(semi - comma));
		if (uk_strset_add(grids, key->buf, key->len) && other)
			line = 1;
		e = semi + 1;
	}
	return line;
}

/*
 * Drop paragraphs that repeat an earlier one word for word: responsive
 * pages carry the same block for each screen size, carousels repeat
 * their slides, and a reader reads a paragraph once.  A card's line stays
 * (see card_note): a grid's items repeat it, each for its own thing.  A
 * fenced code block (Markdown) is one paragraph, blank lines and all.
 */
void
uk_ex_dedupe(struct uk_buf *t)
{
	struct uk_strset seen = UK_STRSET_INIT, grids = UK_STRSET_INIT;
	struct uk_buf out = UK_BUF_INIT, key = UK_BUF_INIT;
	const char *p = t->buf, *end = t->buf + t->len, *q, *m;
	size_t ml;
	int keep;

	while (p < end) {
		ml = note_len(p, end);
		m = p + 1;
		p += ml;
		/* memchr, not strstr: no scan past the match (ASan's strstr
		 * measures the whole rest of the string each time). */
		q = p;
		if (end - p > 3 && !strncmp(p, "```", 3))
			q = fence_end(p, end);
		for (; (q = memchr(q, '\n', (size_t)(end - q))); q++)
			if (q + 1 < end && q[1] == '\n')
				break;
		if (!q)
			q = end;
		keep = uk_strset_add(&seen, p, (size_t)(q - p));
		if (ml && card_line(&grids, &key, p, (size_t)(q - p), m,
		    ml - 2, keep))
			keep = 1;
		if (keep) {
			if (out.len)
				uk_buf_addstr(&out, "\n\n");
			uk_buf_add(&out, p, (size_t)(q - p));
		}
		p = q < end ? q + 2 : end;
	}
	uk_strset_release(&seen);
	uk_strset_release(&grids);
	uk_buf_release(&key);
	uk_buf_release(t);
	*t = out;
}
