/* SPDX-License-Identifier: MIT */
/*
 * Token counts (see tokens.h): OpenAI's byte-pair encodings, written here
 * in C because no Debian package has them (tiktoken is Rust under
 * Python).  The ranks and the pre-split pattern are compiled in: the
 * Makefile generates .tokenizers/obj/NAME.c from the npm package tiktoken
 * (scripts/tokenizers), so nothing is read or built at run time but the
 * PCRE2 pattern, once per process.
 *
 * Counting follows tiktoken's encode_ordinary: the text is split by the
 * pattern; a piece that is a token whole counts 1; any other is merged
 * pair by pair, always the pair of lowest rank (the leftmost of equal
 * ones), and counts the parts left.  Special tokens such as
 * <|endoftext|> are ordinary text.  Bytes that are not UTF-8 (which the
 * pattern cannot match) are merged as pieces of their own.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tokens.h"
#include "util.h"
#include "banned.h"

#define DECLARE(p)                                                     \
	extern const char p##_pat[];                                   \
	extern const uint32_t p##_n, p##_mask, p##_off[], p##_slot[]; \
	extern const unsigned char p##_bytes[];
DECLARE(uk_bpe_cl100k_base)
DECLARE(uk_bpe_o200k_base)

struct enc {
	const char *pat;
	const uint32_t *mask, *off, *slot;
	const unsigned char *bytes;
	pthread_once_t once;
	pcre2_code *re; /* NULL if it did not compile: see count_bytes */
};

#define ENC(p) { p##_pat, &p##_mask, p##_off, p##_slot, p##_bytes, \
	PTHREAD_ONCE_INIT, NULL }
static struct enc encs[] = { ENC(uk_bpe_cl100k_base),
	ENC(uk_bpe_o200k_base) };

#define NONE UINT32_MAX
/* No token of either encoding is longer. */
#define TOKEN_MAX 128
/* Pieces up to this long are merged by scanning, longer ones by a heap. */
#define SMALL 128

static void
compile(struct enc *e)
{
	int ec;
	PCRE2_SIZE eo;

	/*
	 * MATCH_INVALID_UTF: text that is not UTF-8 is matched around, not
	 * refused; UCP: \p and \s are Unicode's, as in the encoders' regex.
	 */
	e->re = pcre2_compile((PCRE2_SPTR)e->pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &ec, &eo, NULL);
	if (e->re)
		pcre2_jit_compile(e->re, PCRE2_JIT_COMPLETE);
}

static void compile_cl100k(void) { compile(&encs[0]); }
static void compile_o200k(void) { compile(&encs[1]); }

static struct enc *
get(enum uk_tokenizer t)
{
	struct enc *e = &encs[t == UK_TOKENS_O200K];

	pthread_once(&e->once, t == UK_TOKENS_O200K ? compile_o200k :
	    compile_cl100k);
	return e;
}

/* The rank of the token p[0..len), or NONE.  FNV-1a as the generator. */
static uint32_t
rank_of(const struct enc *e, const unsigned char *p, size_t len)
{
	uint32_t h = 2166136261u, i, v, mask = *e->mask;
	size_t k;

	if (len > TOKEN_MAX)
		return NONE;
	for (k = 0; k < len; k++)
		h = (h ^ p[k]) * 16777619u;
	for (i = h & mask; (v = e->slot[i]); i = (i + 1) & mask) {
		uint32_t r = v - 1, o = e->off[r];

		if (e->off[r + 1] - o == len && !memcmp(e->bytes + o, p, len))
			return r;
	}
	return NONE;
}

/* tiktoken's _byte_pair_merge, for short pieces (len <= SMALL). */
static size_t
merge_small(const struct enc *e, const unsigned char *p, size_t len)
{
	uint32_t pos[SMALL + 1], rk[SMALL + 1];
	size_t n = len + 1, i;

	for (i = 0; i < n; i++) {
		pos[i] = (uint32_t)i;
		rk[i] = i + 1 < len ? rank_of(e, p + i, 2) : NONE;
	}
	for (;;) {
		uint32_t min = NONE;
		size_t at = 0;

		for (i = 0; i + 1 < n; i++)
			if (rk[i] < min) {
				min = rk[i];
				at = i;
			}
		if (min == NONE)
			break;
		/* The ranks around the merge, then drop the part at+1. */
		if (at > 0)
			rk[at - 1] = at + 2 < n ? rank_of(e, p + pos[at - 1],
			    pos[at + 2] - pos[at - 1]) : NONE;
		rk[at] = at + 3 < n ? rank_of(e, p + pos[at],
		    pos[at + 3] - pos[at]) : NONE;
		memmove(pos + at + 1, pos + at + 2, (n - at - 2) * sizeof *pos);
		memmove(rk + at + 1, rk + at + 2, (n - at - 2) * sizeof *rk);
		n--;
	}
	return n - 1;
}

/*
 * The same merges for a long piece (a run of spaces or punctuation),
 * where the scan above would be quadratic: the parts in a linked list,
 * the candidate pairs in a min-heap on (rank, position), so that ties go
 * to the leftmost pair as in the scan.  A popped pair whose part has
 * changed since (ver) or gone is stale and skipped.
 */
struct cand {
	uint32_t rank, node, ver;
};

static int
cand_less(const struct cand *a, const struct cand *b)
{
	return a->rank != b->rank ? a->rank < b->rank : a->node < b->node;
}

static void
heap_push(struct cand *h, size_t *n, struct cand c)
{
	size_t i = (*n)++;

	while (i > 0 && cand_less(&c, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = c;
}

static struct cand
heap_pop(struct cand *h, size_t *n)
{
	struct cand top = h[0], last = h[--*n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && cand_less(&h[c + 1], &h[c]))
			c++;
		if (!cand_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

static size_t
merge_large(const struct enc *e, const unsigned char *p, size_t len)
{
	/* Node i is the part starting at byte i; node len ends the list. */
	uint32_t *next = uk_util_xmalloc((len + 1) * sizeof *next);
	uint32_t *prev = uk_util_xmalloc((len + 1) * sizeof *prev);
	uint32_t *rk = uk_util_xmalloc((len + 1) * sizeof *rk);
	uint32_t *ver = uk_util_xcalloc(len + 1, sizeof *ver);
	struct cand *h = uk_util_xmalloc(3 * (len + 1) * sizeof *h);
	size_t nh = 0, parts = len, i;

	for (i = 0; i <= len; i++) {
		next[i] = (uint32_t)i + 1;
		prev[i] = (uint32_t)i - 1;
		rk[i] = i + 1 < len ? rank_of(e, p + i, 2) : NONE;
		if (rk[i] != NONE)
			heap_push(h, &nh, (struct cand){ rk[i], (uint32_t)i, 0 });
	}
	while (nh) {
		struct cand c = heap_pop(h, &nh);
		uint32_t a = c.node, b, q;

		if (c.ver != ver[a] || rk[a] != c.rank)
			continue;
		/* Merge a with its next part b. */
		b = next[a];
		next[a] = next[b];
		prev[next[b]] = a;
		rk[b] = NONE;
		ver[b]++;
		parts--;
		/* a now pairs with the part after it, and its previous with a. */
		q = next[a];
		rk[a] = q < len ? rank_of(e, p + a, next[q] - a) : NONE;
		ver[a]++;
		if (rk[a] != NONE)
			heap_push(h, &nh, (struct cand){ rk[a], a, ver[a] });
		if (a > 0) {
			uint32_t z = prev[a];

			rk[z] = rank_of(e, p + z, next[a] - z);
			ver[z]++;
			if (rk[z] != NONE)
				heap_push(h, &nh,
				    (struct cand){ rk[z], z, ver[z] });
		}
	}
	free(next);
	free(prev);
	free(rk);
	free(ver);
	free(h);
	return parts;
}

static size_t
count_piece(const struct enc *e, const unsigned char *p, size_t len)
{
	if (len <= 1)
		return len;
	if (rank_of(e, p, len) != NONE)
		return 1;
	return len <= SMALL ? merge_small(e, p, len) : merge_large(e, p, len);
}

size_t
uk_tokens_count(enum uk_tokenizer t, const char *s, size_t n)
{
	struct enc *e = get(t);
	const unsigned char *u = (const unsigned char *)s;
	pcre2_match_data *md;
	size_t count = 0, at = 0;

	/*
	 * Without the pattern (PCRE2 built without Unicode), a token per
	 * byte: an upper bound, so a budget still holds.
	 */
	if (!e->re || !(md = pcre2_match_data_create(1, NULL)))
		return n;
	while (at < n) {
		int rc = pcre2_match(e->re, (PCRE2_SPTR)s, n, at, 0, md, NULL);
		PCRE2_SIZE *ov;

		if (rc == PCRE2_ERROR_NOMATCH) {
			count += count_piece(e, u + at, n - at);
			break;
		}
		if (rc < 0) {
			/* A match limit: the rest at a token per byte. */
			count += n - at;
			break;
		}
		ov = pcre2_get_ovector_pointer(md);
		if (ov[0] > at) /* bytes that are not UTF-8 */
			count += count_piece(e, u + at, ov[0] - at);
		if (ov[1] <= ov[0]) { /* cannot happen: no piece is empty */
			count++;
			at = ov[0] + 1;
			continue;
		}
		count += count_piece(e, u + ov[0], ov[1] - ov[0]);
		at = ov[1];
	}
	pcre2_match_data_free(md);
	return count;
}
