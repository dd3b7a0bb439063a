/* SPDX-License-Identifier: MIT */
/*
 * The token model (lib/extract_tok.c; doc/EXTRACTION.md, "The token
 * model"): a logistic regression over hashed tokens of a block, what it
 * says and what its and its ancestors' class, id and tags are, whose raw
 * score (a logit) the block model reads as one more feature.
 *
 * A block's tokens, each hashed (32-bit FNV-1a of its bytes, the low
 * UK_EX_TOK_BITS bits a slot of the weight table):
 *
 *   "w:" WORD         each of its text's first UK_EX_TOK_MAXW words;
 *   "b:" WORD " " WORD  each pair of them in a row;
 *   "cL:" PART        each part of the class and id of the block (L 0)
 *                     and of its three nearest ancestors (L 1..3);
 *   "t:" T0, "u:" T0 "<" T1, "v:" T0 "<" T1 "<" T2
 *                     the tags of the block, its parent, its grandparent.
 *
 * A word: a run of ASCII letters and digits and of bytes over 127 but
 * U+00A0 and U+2000..U+203F (spaces, dashes, quotes), ASCII letters
 * lower-cased, every digit written 0, at most UK_EX_TOK_WLEN bytes kept.
 * A part: a run of ASCII letters and digits and of bytes over 127, cut
 * again before a capital that follows a small letter or a digit
 * ("postBody" is "post" and "body"), lower-cased; parts of one byte or of
 * digits only are no tokens, at most UK_EX_TOK_MAXP a level.
 *
 * The raw score: bias + scale * (C + T / sqrt(n)), where C sums the
 * table's weights (int16) of the class and tag tokens, T those of the
 * words' and pairs' tokens and n is the count of words (T is 0 when n
 * is).  scripts/train-extract.d/tokens.py is the same in Python; it
 * writes the table (lib/extract_tokmodel.c).
 */
#ifndef UK_EXTRACT_TOK_H
#define UK_EXTRACT_TOK_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define UK_EX_TOK_BITS 17
#define UK_EX_TOK_SLOTS (1u << UK_EX_TOK_BITS)
#define UK_EX_TOK_MAXW 128 /* words of a block's text read */
#define UK_EX_TOK_WLEN 32  /* bytes of a word kept */
#define UK_EX_TOK_MAXP 16  /* class and id parts of a level */
#define UK_EX_TOK_LEVELS 4 /* the block and its three nearest ancestors */
#define UK_EX_TOK_TAGS 3   /* the block's, its parent's, grandparent's */
/* The bytes of a block's text read (then cut at a whole character). */
#define UK_EX_TOK_TEXTMAX 4096

/* What a block's tokens are made of. */
struct uk_ex_tok_in {
	const char *text;   /* its text */
	size_t len;
	/* "class id" of the block and its ancestors as written; NULL none */
	const char *ci[UK_EX_TOK_LEVELS];
	/* tag names of the block, its parent, its grandparent; NULL none */
	const char *tag[UK_EX_TOK_TAGS];
};

/* The model: its table of UK_EX_TOK_SLOTS weights, int16 times scale. */
struct uk_ex_tokmodel {
	double bias, scale;
	const int16_t *w; /* NULL: no model (the score is 0) */
};
extern const struct uk_ex_tokmodel uk_ex_tok_model;

/*
 * Call fn(arg, slot, text) for each token of in, in order (text: 1 for
 * a word's or a pair's token, 0 for a class's or a tag's); returns the
 * number of words read.
 */
typedef void uk_ex_tok_fn(void *arg, uint32_t slot, int text);
int uk_ex_tok_each(const struct uk_ex_tok_in *in, uk_ex_tok_fn *fn,
    void *arg);

/* The raw score of in by model m (0 when m has no table). */
double uk_ex_tok_eval(const struct uk_ex_tokmodel *m,
    const struct uk_ex_tok_in *in);

/*
 * A block's inputs read from the page (extract_int.h's struct ctx and
 * struct blk): its text (the text nodes whose nearest block it is, not
 * skipped, run together, at most UK_EX_TOK_TEXTMAX bytes), the class and
 * id of it and of its ancestors below the body, their tags.  The buffers
 * are reused from block to block; uk_ex_tok_release frees them.
 */
struct ctx;
struct blk;
struct uk_ex_tok_blk {
	struct uk_buf text, ci[UK_EX_TOK_LEVELS];
	struct uk_ex_tok_in in;
};
#define UK_EX_TOK_BLK_INIT { UK_BUF_INIT, { UK_BUF_INIT, UK_BUF_INIT, \
	UK_BUF_INIT, UK_BUF_INIT }, { NULL, 0, { NULL }, { NULL } } }
void uk_ex_tok_read(struct ctx *c, const struct blk *u,
    struct uk_ex_tok_blk *tb);
void uk_ex_tok_release(struct uk_ex_tok_blk *tb);
/* The committed model's raw score of block u (tb: scratch buffers). */
double uk_ex_tok_score(struct ctx *c, const struct blk *u,
    struct uk_ex_tok_blk *tb);

#endif
