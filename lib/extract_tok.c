/* SPDX-License-Identifier: MIT */
/*
 * The token model: what a block says and what its and its ancestors'
 * class, id and tags are, as hashed tokens, and a logistic regression's
 * score of them (extract_tok.h; doc/EXTRACTION.md, "The token model").
 * The tokens are written here and in scripts/train-extract.d/tokens.py,
 * the same way; tests/unit/t_extract_tok.c and tests/extract-tok.bats
 * hold the two to each other.
 */
#include <gumbo.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "extract_tok.h"

/* 32-bit FNV-1a of p[0..n), continued from h. */
static uint32_t
fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	for (k = 0; k < n; k++) {
		h ^= s[k];
		h *= 16777619u;
	}
	return h;
}

#define FNV0 2166136261u

/* The slot of token prefix + s[0..n). */
static uint32_t
slot(const char *prefix, const char *s, size_t n)
{
	uint32_t h = fnv(FNV0, prefix, strlen(prefix));

	return fnv(h, s, n) & (UK_EX_TOK_SLOTS - 1);
}

/*
 * How many bytes at s[0..n) separate words (0: a word's byte): ASCII
 * but letters and digits, U+00A0, U+2000..U+203F.
 */
static size_t
word_sep(const unsigned char *s, size_t n)
{
	if (s[0] < 0x80)
		return (s[0] >= 'a' && s[0] <= 'z') ||
		    (s[0] >= 'A' && s[0] <= 'Z') ||
		    (s[0] >= '0' && s[0] <= '9') ? 0 : 1;
	if (n >= 2 && s[0] == 0xc2 && s[1] == 0xa0)
		return 2;
	if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80)
		return 3;
	return 0;
}

/* The words' and pairs' tokens of s[0..n); returns the words read. */
static int
text_tokens(const char *s, size_t n, uk_ex_tok_fn *fn, void *arg)
{
	const unsigned char *p = (const unsigned char *)s;
	char w[2][UK_EX_TOK_WLEN + 1];
	size_t wl[2] = { 0, 0 }, k = 0, sep;
	int words = 0, cur = 0;

	while (k < n && words < UK_EX_TOK_MAXW) {
		size_t l = 0;

		if ((sep = word_sep(p + k, n - k))) {
			k += sep;
			continue;
		}
		/* A word: to its end, its first UK_EX_TOK_WLEN bytes kept. */
		while (k < n && !word_sep(p + k, n - k)) {
			unsigned char ch = p[k++];

			if (ch >= 'A' && ch <= 'Z')
				ch = (unsigned char)(ch - 'A' + 'a');
			else if (ch >= '0' && ch <= '9')
				ch = '0';
			if (l < UK_EX_TOK_WLEN)
				w[cur][l++] = (char)ch;
		}
		wl[cur] = l;
		fn(arg, slot("w:", w[cur], l), 1);
		if (words > 0) {
			char pair[2 * UK_EX_TOK_WLEN + 1];
			size_t pl = wl[!cur];

			memcpy(pair, w[!cur], pl);
			pair[pl++] = ' ';
			memcpy(pair + pl, w[cur], l);
			fn(arg, slot("b:", pair, pl + l), 1);
		}
		words++;
		cur = !cur;
	}
	return words;
}

static int
is_alnum(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch >= 0x80;
}

static int
is_lower_or_digit(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/* The class and id parts of ci, of level lvl ("c0:".."c3:"). */
static void
class_tokens(const char *ci, int lvl, uk_ex_tok_fn *fn, void *arg)
{
	const unsigned char *p = (const unsigned char *)ci;
	char prefix[4] = { 'c', (char)('0' + lvl), ':', '\0' };
	char part[64];
	int parts = 0;

	while (*p && parts < UK_EX_TOK_MAXP) {
		size_t l = 0, full = 0;
		int digits = 1;

		if (!is_alnum(*p)) {
			p++;
			continue;
		}
		do {
			unsigned char ch = *p++;

			if (ch >= 'A' && ch <= 'Z')
				ch = (unsigned char)(ch - 'A' + 'a');
			if (!(ch >= '0' && ch <= '9'))
				digits = 0;
			if (l < sizeof(part))
				part[l++] = (char)ch;
			full++;
		} while (*p && is_alnum(*p) &&
		    !(*p >= 'A' && *p <= 'Z' && is_lower_or_digit(p[-1])));
		if (full < 2 || digits)
			continue;
		fn(arg, slot(prefix, part, l), 0);
		parts++;
	}
}

int
uk_ex_tok_each(const struct uk_ex_tok_in *in, uk_ex_tok_fn *fn, void *arg)
{
	char path[64];
	int lvl, words;
	size_t k, n;

	words = text_tokens(in->text ? in->text : "", in->text ? in->len : 0,
	    fn, arg);
	for (lvl = 0; lvl < UK_EX_TOK_LEVELS; lvl++)
		if (in->ci[lvl])
			class_tokens(in->ci[lvl], lvl, fn, arg);
	/* "t:" the block's tag, "u:" with its parent's, "v:" grandparent's. */
	for (n = 0, k = 0; k < UK_EX_TOK_TAGS && in->tag[k]; k++) {
		static const char *const pre[] = { "t:", "u:", "v:" };
		size_t l = strlen(in->tag[k]);

		if (n + l + 1 >= sizeof(path))
			break;
		if (k)
			path[n++] = '<';
		memcpy(path + n, in->tag[k], l);
		n += l;
		fn(arg, slot(pre[k], path, n), 0);
	}
	return words;
}

/* The sums of a score: the class and tag tokens', the text's. */
struct sums {
	const int16_t *w;
	int64_t c, t;
};

static void
add_weight(void *arg, uint32_t s, int text)
{
	struct sums *m = arg;

	if (text)
		m->t += m->w[s];
	else
		m->c += m->w[s];
}

double
uk_ex_tok_eval(const struct uk_ex_tokmodel *m, const struct uk_ex_tok_in *in)
{
	struct sums s = { m->w, 0, 0 };
	int n;
	double v;

	if (!m->w)
		return 0;
	n = uk_ex_tok_each(in, add_weight, &s);
	/* The same operations, in the same order, as tokens.py's score. */
	v = (double)s.c;
	if (n > 0)
		v += (double)s.t / sqrt((double)n);
	return m->bias + m->scale * v;
}

void
uk_ex_tok_read(struct ctx *c, const struct blk *u, struct uk_ex_tok_blk *tb)
{
	int b = u->b, j, p, lvl;

	/*
	 * The text nodes whose nearest block is b, from its first to its
	 * last: a nested block's subtree and a skipped one are passed over.
	 */
	uk_buf_reset(&tb->text);
	for (j = u->first; j <= u->last && j < c->nn &&
	     tb->text.len < UK_EX_TOK_TEXTMAX; j++) {
		struct nd *n = &c->n[j];

		if (!(n->flags & F_TEXT)) {
			if (n->flags & F_SKIP || n->flags & F_BLOCK)
				j = n->end - 1;
			continue;
		}
		if (!(n->flags & F_SKIP))
			uk_buf_addstr(&tb->text, n->g->v.text.text);
	}
	if (tb->text.len > UK_EX_TOK_TEXTMAX)
		tb->text.len = uk_buf_utf8_cut(tb->text.buf, UK_EX_TOK_TEXTMAX);
	if (tb->text.len)
		tb->text.buf[tb->text.len] = '\0';
	tb->in.text = tb->text.buf;
	tb->in.len = tb->text.len;
	for (lvl = 0, p = b; lvl < UK_EX_TOK_LEVELS; lvl++) {
		const char *cl, *id;

		tb->in.ci[lvl] = NULL;
		if (p <= c->body)
			continue;
		cl = uk_ex_attr(c->n[p].g, "class");
		id = uk_ex_attr(c->n[p].g, "id");
		if (cl || id) {
			uk_buf_reset(&tb->ci[lvl]);
			uk_buf_addstr(&tb->ci[lvl], cl ? cl : "");
			uk_buf_addch(&tb->ci[lvl], ' ');
			uk_buf_addstr(&tb->ci[lvl], id ? id : "");
			tb->in.ci[lvl] = tb->ci[lvl].buf;
		}
		p = c->n[p].parent;
	}
	for (lvl = 0, p = b; lvl < UK_EX_TOK_TAGS; lvl++) {
		tb->in.tag[lvl] = NULL;
		if (p < 0)
			continue;
		/* An element gumbo does not know (a custom one): "?". */
		tb->in.tag[lvl] = c->n[p].tag == GUMBO_TAG_UNKNOWN ? "?" :
		    gumbo_normalized_tagname((GumboTag)c->n[p].tag);
		p = c->n[p].parent;
	}
}

void
uk_ex_tok_release(struct uk_ex_tok_blk *tb)
{
	int k;

	uk_buf_release(&tb->text);
	for (k = 0; k < UK_EX_TOK_LEVELS; k++)
		uk_buf_release(&tb->ci[k]);
}

double
uk_ex_tok_score(struct ctx *c, const struct blk *u, struct uk_ex_tok_blk *tb)
{
	if (!uk_ex_tok_model.w)
		return 0;
	uk_ex_tok_read(c, u, tb);
	return uk_ex_tok_eval(&uk_ex_tok_model, &tb->in);
}
