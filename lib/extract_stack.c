/* SPDX-License-Identifier: MIT */
/*
 * The stacked block model's inputs (see extract_int.h and
 * doc/EXTRACTION.md): what a block holds against the rest of the page
 * (its words against the title's and the chosen part's, its shape
 * repeated, where it lies from the chosen part), and what the first
 * pass scored around it (its neighbours, its parent's and grandparent's
 * other blocks, the chosen part, its rank in the page).  A CRF would
 * read a block's neighbours' labels; a second pass over the first
 * pass's scores gives trees the same view.  scripts/train-extract.d/
 * train.py's stack_features computes the last part again from the
 * dump, and tests/extract-model.bats checks that the two agree.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "extract.h"
#include "extract_int.h"
#include "util.h"

/*
 * The bytes of a word: ASCII letters and digits (isalnum in the "C"
 * locale, which the programs never leave) and every byte over 127;
 * word_byte[ch] is the byte lower-cased (tolower's ASCII), 0 for the
 * others.  A table: isalnum and tolower are a call each per byte.
 */
static const unsigned char word_byte[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 0, 0,
	0, 0, 0, 0, 0, 97, 98, 99, 100, 101, 102, 103,
	104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115,
	116, 117, 118, 119, 120, 121, 122, 0, 0, 0, 0, 0,
	0, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107,
	108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
	120, 121, 122, 0, 0, 0, 0, 0, 128, 129, 130, 131,
	132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
	144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155,
	156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,
	168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179,
	180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,
	192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203,
	204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214, 215,
	216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227,
	228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
	240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251,
	252, 253, 254, 255,
};

/*
 * The words of text s, of 4 bytes at least (shorter ones are mostly
 * the words of every text: "the", "and", "of"), as FNV-1a hashes of
 * their ASCII-lower-cased bytes, appended to *h (*n of them, room for
 * *alloc); returns how many there were.
 */
static int
hash_words(const char *s, uint32_t **h, size_t *n, size_t *alloc)
{
	const unsigned char *p = (const unsigned char *)s, *q;
	int words = 0;

	while (*p) {
		uint32_t v = 2166136261u;

		while (*p && !word_byte[*p])
			p++;
		for (q = p; word_byte[*q]; q++)
			v = (v ^ word_byte[*q]) * 16777619u;
		if (q - p >= 4) {
			words++;
			if (*n == *alloc) {
				*alloc = *alloc ? *alloc * 2 : 256;
				*h = uk_util_xrealloc(*h, *alloc * sizeof(**h));
			}
			(*h)[(*n)++] = v;
		}
		p = q;
	}
	return words;
}

/*
 * A set of word hashes: open addressing, linear probing, 0 an empty
 * slot (the hash 0 held apart).  Built once, probed for each word of
 * each block: a sort and a binary search a word cost three times as
 * much.
 */
struct hset {
	uint32_t *t;
	uint32_t mask;
	int zero;
};

static uint32_t
hset_slot(const struct hset *s, uint32_t v)
{
	return (v * 2654435761u) >> 7 & s->mask;
}

/* The set of h[0..n) into s (free s->t after). */
static void
hset_build(struct hset *s, const uint32_t *h, size_t n)
{
	size_t size = 16, i;
	uint32_t j;

	while (size < 2 * n)
		size *= 2;
	s->t = uk_util_xcalloc(size, sizeof(*s->t));
	s->mask = (uint32_t)(size - 1);
	s->zero = 0;
	for (i = 0; i < n; i++) {
		if (!h[i]) {
			s->zero = 1;
			continue;
		}
		for (j = hset_slot(s, h[i]); s->t[j] && s->t[j] != h[i];
		     j = (j + 1) & s->mask)
			;
		s->t[j] = h[i];
	}
}

/* How many of h[0..n) the set s holds. */
static int
hits(const uint32_t *h, size_t n, const struct hset *s)
{
	size_t i;
	uint32_t j;
	int hit = 0;

	for (i = 0; i < n; i++) {
		if (!h[i]) {
			hit += s->zero;
			continue;
		}
		for (j = hset_slot(s, h[i]); s->t[j] && s->t[j] != h[i];
		     j = (j + 1) & s->mask)
			;
		hit += s->t[j] == h[i];
	}
	return hit;
}

/* A block's shape: its tag and its whole class attribute, hashed. */
static uint32_t
shape_of(struct ctx *c, int b)
{
	const unsigned char *s = (const unsigned char *)uk_ex_attr(c->n[b].g,
	    "class");
	uint32_t v = 2166136261u ^ (uint32_t)c->n[b].tag;

	v *= 16777619u;
	for (; s && *s; s++)
		v = (v ^ *s) * 16777619u;
	return v;
}

static int
cmp_shape(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) :
	    (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/*
 * The features of each block against the page, into F's columns
 * UK_EX_NBF.. (rows of UK_EX_NSTK): the share of its words (4 bytes at
 * least) that the title or the <h1> holds, and that the rules' choice
 * holds; how many blocks of the page have its shape (tag and class) and
 * their share of the text; where it lies from the chosen part (-1
 * before, 0 within, 1 after), how far in blocks and in the share of the
 * text; the chosen part's share of the text.  No site's name: words are
 * compared with the page's own.
 */
void
uk_ex_extra_features(struct ctx *c, const int *nx, int h1, const struct blk *bl,
    int nb, double *F)
{
	uint32_t *tw = NULL, *cw = NULL, *all = NULL, *sh;
	struct hset tset, cset;
	size_t nt = 0, at = 0, ncw = 0, ac = 0, nall = 0, aall = 0, from;
	size_t *wr;
	double tot = 0, seltot = 0;
	int k, i, j, fc = -1, lc = -1;

	if (c->x->title)
		hash_words(c->x->title, &tw, &nt, &at);
	if (h1 >= 0)
		for (i = h1; i < c->n[h1].end; i++)
			if (c->n[i].flags & F_TEXT)
				hash_words(c->n[i].g->v.text.text, &tw, &nt,
				    &at);
	/*
	 * Each block's words hashed once, into all (block k's from
	 * wr[k] to wr[k + 1]); those of the rules' choice also into cw.
	 */
	wr = uk_util_xmalloc(((size_t)nb + 1) * sizeof(*wr));
	for (k = 0; k < nb; k++) {
		tot += bl[k].chars;
		seltot += bl[k].sel;
		if (bl[k].sel > 0) {
			if (fc < 0)
				fc = k;
			lc = k;
		}
		wr[k] = nall;
		for (i = bl[k].first; i >= 0; i = nx[i]) {
			from = nall;
			hash_words(c->n[i].g->v.text.text, &all, &nall, &aall);
			if (bl[k].sel > 0 && c->n[i].flags & F_SEL)
				for (; from < nall; from++) {
					if (ncw == ac) {
						ac = ac ? ac * 2 : 256;
						cw = uk_util_xrealloc(cw,
						    ac * sizeof(*cw));
					}
					cw[ncw++] = all[from];
				}
		}
	}
	wr[nb] = nall;
	hset_build(&tset, tw, nt);
	hset_build(&cset, cw, ncw);
	sh = uk_util_xmalloc((size_t)nb * 2 * sizeof(*sh));
	for (k = 0; k < nb; k++) {
		double *x = F + (size_t)k * UK_EX_NSTK + UK_EX_NBF;
		int words = (int)(wr[k + 1] - wr[k]);
		/* No words at all: all is NULL, and so is no offset of it. */
		const uint32_t *ow = all ? all + wr[k] : NULL;
		int th = hits(ow, wr[k + 1] - wr[k], &tset);
		int ch = hits(ow, wr[k + 1] - wr[k], &cset);

		x[0] = words ? (double)th / words : 0;
		x[1] = words ? (double)ch / words : 0;
		x[4] = fc < 0 ? 0 : k < fc ? -1 : k > lc ? 1 : 0;
		x[5] = fc < 0 ? 0 : k < fc ? fc - k : k > lc ? k - lc : 0;
		x[6] = fc < 0 || !tot ? 0 : k < fc ?
		    (bl[fc].before - bl[k].before) / tot : k > lc ?
		    (bl[k].before - bl[lc].before) / tot : 0;
		x[7] = tot ? seltot / tot : 0;
		sh[2 * k] = shape_of(c, bl[k].b);
		sh[2 * k + 1] = (uint32_t)k;
	}
	qsort(sh, (size_t)nb, 2 * sizeof(*sh), cmp_shape);
	for (i = 0; i < nb; i = j) {
		double chars = 0;

		for (j = i; j < nb && sh[2 * j] == sh[2 * i]; j++)
			chars += bl[sh[2 * j + 1]].chars;
		for (k = i; k < j; k++) {
			double *x = F + (size_t)sh[2 * k + 1] * UK_EX_NSTK +
			    UK_EX_NBF;

			x[2] = j - i;
			x[3] = tot ? chars / tot : 0;
		}
	}
	free(sh);
	free(tw);
	free(cw);
	free(all);
	free(wr);
	free(tset.t);
	free(cset.t);
}

/*
 * The blocks whose first text node lies in element e's subtree: [*lo,
 * *hi) in document order (blocks are in the order of their first text
 * node, so a subtree's are a run).
 */
static void
block_range(struct ctx *c, const struct blk *bl, int nb, int e, int *lo,
    int *hi)
{
	int a, b, m;

	for (a = 0, b = nb; a < b;) {
		m = a + (b - a) / 2;
		if (bl[m].first < e)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (b = nb; a < b;) {
		m = a + (b - a) / 2;
		if (bl[m].first < c->n[e].end)
			a = m + 1;
		else
			b = m;
	}
	*hi = a;
}

/*
 * For each block k, the blocks of its parent's subtree and of its
 * grandparent's, as block_range gives them, into r[4k..4k+4).
 */
void
uk_ex_block_ranges(struct ctx *c, const struct blk *bl, int nb, int *r)
{
	int k, p, g;

	for (k = 0; k < nb; k++) {
		p = c->n[bl[k].b].parent;
		if (p < 0)
			p = bl[k].b;
		g = c->n[p].parent >= 0 ? c->n[p].parent : p;
		block_range(c, bl, nb, p, &r[4 * k], &r[4 * k + 1]);
		block_range(c, bl, nb, g, &r[4 * k + 2], &r[4 * k + 3]);
	}
}

/* A missing neighbour's score (no block there). */
#define STK_NONE (-10.0)

/*
 * The largest of s[lo..hi) by the sparse table st (levels of nb: st[j]
 * holds the largest of each run of 2^j), or STK_NONE when empty.
 */
static double
range_max(const double *st, int nb, int lo, int hi)
{
	int j = 0;
	double a, b;

	if (lo >= hi)
		return STK_NONE;
	while ((2 << j) <= hi - lo)
		j++;
	a = st[(size_t)j * nb + lo];
	b = st[(size_t)j * nb + hi - (1 << j)];
	return a > b ? a : b;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The mean, the largest and the share at the first pass's threshold of
 * the scores s[lo..hi) less block k's (ps: prefix sums of s, pa: of
 * s >= threshold), and how many, into x[0..4).
 */
static void
group_scores(const double *s, const double *ps, const double *pa,
    const double *st, int nb, int k, int lo, int hi, double *x)
{
	int in = k >= lo && k < hi, n = hi - lo - in;
	double a, b;

	if (n <= 0) {
		x[0] = x[1] = STK_NONE;
		x[2] = x[3] = 0;
		return;
	}
	x[0] = (ps[hi] - ps[lo] - (in ? s[k] : 0)) / n;
	a = range_max(st, nb, lo, in ? k : hi);
	b = in ? range_max(st, nb, k + 1, hi) : STK_NONE;
	x[1] = a > b ? a : b;
	x[2] = (pa[hi] - pa[lo] - (in && s[k] >= uk_ex_block_threshold)) / n;
	x[3] = n;
}

/*
 * The stacked model's features of the first pass's scores s, into F's
 * columns UK_EX_NBF + UK_EX_NXF.. (scripts/train-extract.d/train.py's
 * stack_features computes the same from the dump): the block's own
 * score; the two blocks' before it and after it; the mean of the five
 * before and after; of its parent's and its grandparent's other blocks
 * (uk_ex_block_ranges' r), the mean, the largest, the share at the threshold
 * and how many; the chosen part's mean score (by characters); the share
 * of the page's blocks scored under it; the share of the page's text at
 * the threshold.
 */
void
uk_ex_stack_features(const struct blk *bl, int nb, const int *r, const double *s,
    double *F)
{
	double *ps, *pa, *st, *srt, selm = 0, selc = 0, up = 0, tot = 0;
	int k, j, i, lv;

	ps = uk_util_xmalloc((size_t)(nb + 1) * 3 * sizeof(*ps));
	pa = ps + nb + 1;
	srt = pa + nb + 1;
	for (lv = 1; (1 << lv) <= nb; lv++)
		;
	st = uk_util_xmalloc((size_t)lv * nb * sizeof(*st));
	ps[0] = pa[0] = 0;
	for (k = 0; k < nb; k++) {
		ps[k + 1] = ps[k] + s[k];
		pa[k + 1] = pa[k] + (s[k] >= uk_ex_block_threshold);
		st[k] = srt[k] = s[k];
		selm += bl[k].sel * s[k];
		selc += bl[k].sel;
		tot += bl[k].chars;
		up += s[k] >= uk_ex_block_threshold ? bl[k].chars : 0;
	}
	for (j = 1; j < lv; j++)
		for (k = 0; k + (1 << j) <= nb; k++) {
			double a = st[(size_t)(j - 1) * nb + k];
			double b = st[(size_t)(j - 1) * nb + k + (1 << (j - 1))];

			st[(size_t)j * nb + k] = a > b ? a : b;
		}
	qsort(srt, (size_t)nb, sizeof(*srt), cmp_double);
	for (k = 0; k < nb; k++) {
		double *x = F + (size_t)k * UK_EX_NSTK + UK_EX_NBF + UK_EX_NXF;
		int lo = k - 5 > 0 ? k - 5 : 0, hi = k + 6 < nb ? k + 6 : nb;
		int a, b;

		x[0] = s[k];
		x[1] = k >= 2 ? s[k - 2] : STK_NONE;
		x[2] = k >= 1 ? s[k - 1] : STK_NONE;
		x[3] = k + 1 < nb ? s[k + 1] : STK_NONE;
		x[4] = k + 2 < nb ? s[k + 2] : STK_NONE;
		x[5] = hi - lo > 1 ?
		    (ps[hi] - ps[lo] - s[k]) / (hi - lo - 1) : STK_NONE;
		group_scores(s, ps, pa, st, nb, k, r[4 * k], r[4 * k + 1],
		    x + 6);
		group_scores(s, ps, pa, st, nb, k, r[4 * k + 2],
		    r[4 * k + 3], x + 10);
		x[14] = selc > 0 ? selm / selc : STK_NONE;
		for (a = 0, b = nb; a < b;) {
			i = a + (b - a) / 2;
			if (srt[i] < s[k])
				a = i + 1;
			else
				b = i;
		}
		x[15] = (double)a / nb;
		x[16] = tot > 0 ? up / tot : 0;
	}
	free(st);
	free(ps);
}


/*
 * The blocks the rules set aside, as the back model sees them.  Only
 * what the rules set aside by a class or id, a tag or a role: comment
 * sections, the text rules' lines and sections (related stories,
 * newsletters, copyright lines, teasers: the failure families of
 * tests/extract-rules.bats), hidden elements, captions and forms'
 * controls stay out of its sight (the block model seeing them all took
 * related stories and comments back: doc/EXTRACTION.md).
 */

/*
 * Why root i was set aside, as aside_features numbers it (0: unseen).
 * Not a class believed however large (F_STRONG: related stories,
 * recommendations, comments, cookie notices): the back model took an
 * article's recommended stories back (tests/extract.bats).
 */
static int
back_reason(struct ctx *c, int i)
{
	unsigned f = c->n[i].flags;

	if (f & (F_TEXT | F_CMT | F_CROOT | F_STRONG))
		return 0;
	if (f & F_BYTAG)
		return 4;
	if (f & F_BYROLE)
		return 5;
	if (f & F_CSKIP)
		return c->n[i].tag == GUMBO_TAG_HEADER ? 3 : 1;
	return 0;
}

/* Whether element i inside a subtree set aside stays out of sight. */
static int
back_unseen(struct ctx *c, int i)
{
	GumboNode *g = c->n[i].g;
	const char *s;

	switch (c->n[i].tag) {
	case GUMBO_TAG_BUTTON: case GUMBO_TAG_SELECT: case GUMBO_TAG_OPTION:
	case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_INPUT: case GUMBO_TAG_FORM:
	case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_TEMPLATE:
		return 1;
	default:
		break;
	}
	if (uk_ex_tag_never_text(c->n[i].tag) || uk_ex_attr(g, "hidden"))
		return 1;
	if ((s = uk_ex_attr(g, "aria-hidden")) && !strcasecmp(s, "true"))
		return 1;
	return (s = uk_ex_attr(g, "style")) && uk_ex_style_hidden(s);
}

/*
 * Characters of s after collapsing whitespace (code points), as
 * uk_ex_measure counts a text node kept (text set aside it leaves at 0).
 */
static int
squeezed_len(const char *s)
{
	const unsigned char *p;
	int n = 0, sp = 1;

	for (p = (const unsigned char *)s; *p; p++) {
		if (isspace(*p)) {
			if (!sp)
				n++;
			sp = 1;
		} else if ((*p & 0xc0) != 0x80) {
			n++;
			sp = 0;
		}
	}
	return n;
}

/* A new candidate of block element b, root root, into bk's lists. */
static int
back_add(struct uk_ex_back *bk, struct blk **cb, int b, int root,
    int before, int i)
{
	int j = bk->nc++;

	if (j % 256 == 0) {
		*cb = uk_util_xrealloc(*cb, (size_t)(j + 256) * sizeof(**cb));
		bk->root = uk_util_xrealloc(bk->root,
		    (size_t)(j + 256) * sizeof(*bk->root));
	}
	memset(&(*cb)[j], 0, sizeof((*cb)[j]));
	(*cb)[j].b = b;
	(*cb)[j].before = before;
	(*cb)[j].first = (*cb)[j].last = i;
	bk->root[j] = root;
	return j;
}

/*
 * The features of each candidate's subtree set aside (bk->A): the rule
 * (a class or id; whether the root is inside <article> or <main>; a
 * <header>, a tag, a role), the root's tag (nav 1, footer 2, aside 3, menu 4, header 5,
 * else 0), its blocks, characters and link density, and its share of
 * the page's text kept.
 */
static void
aside_features(struct ctx *c, const struct blk *cb, struct uk_ex_back *bk)
{
	int j, e, n, ch, ln, total = c->n[c->body].text;

	for (j = 0; j < bk->nc; j = e) {
		for (e = j, n = ch = ln = 0; e < bk->nc &&
		     bk->root[e] == bk->root[j]; e++) {
			n++;
			ch += cb[e].chars;
			ln += cb[e].link;
		}
		for (; j < e; j++) {
			double *a = bk->A + (size_t)j * UK_EX_NAF;
			int r = bk->root[j], t = c->n[r].tag;

			a[back_reason(c, r) - 1] = 1;
			a[1] = (c->n[r].flags & F_INART) != 0;
			a[5] = t == GUMBO_TAG_NAV ? 1 : t == GUMBO_TAG_FOOTER ? 2 :
			    t == GUMBO_TAG_ASIDE ? 3 : t == GUMBO_TAG_MENU ? 4 :
			    t == GUMBO_TAG_HEADER ? 5 : 0;
			a[6] = n;
			a[7] = ch;
			a[8] = ch ? (double)ln / ch : 0;
			a[9] = total ? (double)ch / total : ch;
		}
	}
}

/* The kept blocks bl and the candidates cb merged by first text node. */
static void
back_merge(const struct blk *bl, int nb, const struct blk *cb,
    struct uk_ex_back *bk)
{
	int a = 0, b = 0, m;

	bk->nm = nb + bk->nc;
	bk->bl = uk_util_xmalloc((size_t)(bk->nm ? bk->nm : 1) *
	    sizeof(*bk->bl));
	bk->mk = uk_util_xmalloc((size_t)(bk->nm ? bk->nm : 1) *
	    sizeof(*bk->mk));
	bk->cm = uk_util_xmalloc((size_t)(bk->nc ? bk->nc : 1) *
	    sizeof(*bk->cm));
	for (m = 0; m < bk->nm; m++) {
		if (b >= bk->nc || (a < nb && bl[a].first < cb[b].first)) {
			bk->bl[m] = bl[a];
			bk->mk[m] = a++;
		} else {
			bk->bl[m] = cb[b];
			bk->cm[b] = m;
			bk->mk[m] = -1 - b++;
		}
	}
}

int
uk_ex_back_collect(struct ctx *c, int *nx, const struct blk *bl, int nb,
    struct uk_ex_back *bk)
{
	struct blk *cb = NULL;
	int *cof, i, root = 0, before = 0, b, j, len;

	memset(bk, 0, sizeof(*bk));
	cof = uk_util_xmalloc((size_t)c->nn * sizeof(*cof));
	memset(cof, 0xff, (size_t)c->nn * sizeof(*cof));
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (root && i >= c->n[root].end)
			root = 0;
		if (!(n->flags & F_SKIP)) {
			if (n->flags & F_TEXT && n->text > 0)
				before += n->text;
			continue;
		}
		if (!root) {
			if (n->flags & F_TEXT)
				continue;
			if (!back_reason(c, i)) {
				i = n->end - 1;
				continue;
			}
			root = i;
		}
		if (!(n->flags & F_TEXT)) {
			if (back_unseen(c, i))
				i = n->end - 1;
			continue;
		}
		/*
		 * Text set aside inside a block kept stays out; the space
		 * between two links is the block's, with no characters.
		 */
		if ((b = uk_ex_block_of(c, i)) < root)
			continue;
		len = squeezed_len(n->g->v.text.text);
		if (len <= 0 && cof[b] < 0)
			continue;
		if ((j = cof[b]) < 0)
			j = cof[b] = back_add(bk, &cb, b, root, before, i);
		else
			nx[cb[j].last] = i;
		cb[j].last = i;
		nx[i] = -1;
		cb[j].chars += len;
		if (n->flags & F_INLINK)
			cb[j].link += len;
	}
	free(cof);
	bk->A = uk_util_xcalloc((size_t)(bk->nc ? bk->nc : 1) * UK_EX_NAF,
	    sizeof(*bk->A));
	aside_features(c, cb, bk);
	back_merge(bl, nb, cb, bk);
	free(cb);
	if (!bk->nc)
		return 0;
	bk->F = uk_util_xcalloc((size_t)bk->nm * UK_EX_NSTK, sizeof(*bk->F));
	bk->ms = uk_util_xcalloc((size_t)bk->nm, sizeof(*bk->ms));
	bk->R = uk_util_xcalloc((size_t)bk->nc * UK_EX_NBK, sizeof(*bk->R));
	bk->bs = uk_util_xcalloc((size_t)bk->nc, sizeof(*bk->bs));
	return bk->nc;
}

void
uk_ex_back_rows(struct ctx *c, const int *nx, int h1, struct uk_ex_back *bk)
{
	int j;

	bk->r = uk_util_xmalloc((size_t)bk->nm * 4 * sizeof(*bk->r));
	uk_ex_block_ranges(c, bk->bl, bk->nm, bk->r);
	uk_ex_extra_features(c, nx, h1, bk->bl, bk->nm, bk->F);
	uk_ex_stack_features(bk->bl, bk->nm, bk->r, bk->ms, bk->F);
	for (j = 0; j < bk->nc; j++) {
		double *x = bk->R + (size_t)j * UK_EX_NBK;

		memcpy(x, bk->F + (size_t)bk->cm[j] * UK_EX_NSTK,
		    UK_EX_NSTK * sizeof(*x));
		memcpy(x + UK_EX_NSTK, bk->A + (size_t)j * UK_EX_NAF,
		    UK_EX_NAF * sizeof(*x));
	}
}

int
uk_ex_back_take(struct ctx *c, const int *nx, const struct uk_ex_back *bk,
    int min)
{
	int i, j, p, n = 0;

	for (j = 0; j < bk->nc; j++) {
		if (bk->bl[bk->cm[j]].chars < min ||
		    bk->bs[j] < uk_ex_back_threshold)
			continue;
		for (i = bk->bl[bk->cm[j]].first; i >= 0; i = nx[i]) {
			n++;
			for (p = i; p >= 0 && c->n[p].flags & F_SKIP;
			     p = c->n[p].parent)
				c->n[p].flags &= ~(unsigned)F_SKIP;
		}
	}
	return n;
}

void
uk_ex_back_dump(const struct uk_ex_back *bk, struct uk_buf *out)
{
	int i, k;

	uk_buf_addstr(out, "],\"c\":[");
	for (k = 0; k < bk->nc; k++) {
		uk_buf_addstr(out, k ? ",[" : "[");
		for (i = 0; i < UK_EX_NBK; i++)
			uk_buf_addf(out, "%s%.17g", i ? "," : "",
			    bk->R[(size_t)k * UK_EX_NBK + i]);
		uk_buf_addstr(out, "]");
	}
	uk_buf_addstr(out, "],\"m\":[");
	for (k = 0; bk->nc && k < bk->nm; k++)
		uk_buf_addf(out, "%s%d", k ? "," : "", bk->mk[k]);
	uk_buf_addstr(out, "],\"mr\":[");
	for (k = 0; bk->nc && k < bk->nm; k++)
		uk_buf_addf(out, "%s[%d,%d,%d,%d]", k ? "," : "",
		    bk->r[4 * k], bk->r[4 * k + 1], bk->r[4 * k + 2],
		    bk->r[4 * k + 3]);
	uk_buf_addstr(out, "],\"ms\":[");
	for (k = 0; bk->nc && k < bk->nm; k++)
		uk_buf_addf(out, "%s%.17g", k ? "," : "", bk->ms[k]);
	uk_buf_addstr(out, "],\"ct\":[");
}

void
uk_ex_back_free(struct uk_ex_back *bk)
{
	free(bk->bl);
	free(bk->mk);
	free(bk->cm);
	free(bk->root);
	free(bk->A);
	free(bk->F);
	free(bk->ms);
	free(bk->R);
	free(bk->bs);
	free(bk->r);
	memset(bk, 0, sizeof(*bk));
}
