/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_tok.c, the token model's tokens and score.
 *
 * With no operand: the tokens' rules (lib/extract_tok.h) on made-up
 * blocks, the hash against values scripts/train-extract.d/tokens.py
 * gives, and the score by a made-up table.  With FILE (a JSON array of
 * blocks' inputs, [text, tag0, tag1, tag2, ci0, ci1, ci2, ci3]): one line
 * a block, its words, its slots in order (each with "t" for the text's,
 * "c" for a class's or a tag's) and its score by the committed table,
 * as "tokens.py check FILE" prints them (tests/extract-tok.bats compares
 * the two).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_PREFIX "tok: "
#include "banned.h"
#include "buf.h"
#include "extract_tok.h"
#include "json.h"
#include "tap.h"
#include "util.h"

/* The slots of a block, in order, with the kind of each. */
struct got {
	uint32_t s[1024];
	int t[1024];
	int n;
};

static void
collect(void *arg, uint32_t slot, int text)
{
	struct got *g = arg;

	if (g->n < 1024) {
		g->s[g->n] = slot;
		g->t[g->n] = text;
		g->n++;
	}
}

static int
tokens_of(const char *text, const char *ci0, const char *tag0,
    struct got *g)
{
	struct uk_ex_tok_in in = { text, strlen(text), { ci0, NULL, NULL,
	    NULL }, { tag0, NULL, NULL } };

	memset(g, 0, sizeof(*g));
	return uk_ex_tok_each(&in, collect, g);
}

static int
same(const struct got *a, const struct got *b)
{
	return a->n == b->n && !memcmp(a->s, b->s, (size_t)a->n *
	    sizeof(a->s[0])) && !memcmp(a->t, b->t, (size_t)a->n *
	    sizeof(a->t[0]));
}

static int16_t ones[UK_EX_TOK_SLOTS];

static void
rules(void)
{
	static struct got a, b;
	static char many[4096];
	int n, k;
	size_t len = 0;
	double v;

	/* Slots of "w:hello", "w:world", "b:hello world", "t:p" by tokens.py. */
	n = tokens_of("Hello, World", NULL, "p", &a);
	ok(n == 2 && a.n == 4 && a.s[0] == 97460 && a.t[0] == 1 &&
	    a.s[1] == 11296 && a.s[2] == 47199 &&
	    a.t[2] == 1 && a.s[3] == 123441 && a.t[3] == 0,
	    "two words, their pair and the tag hash as tokens.py's FNV-1a");
	n = tokens_of("", "post", NULL, &a);
	ok(n == 0 && a.n == 1 && a.s[0] == 113246 && a.t[0] == 0,
	    "a class part's slot is tokens.py's");
	tokens_of("", "postBody", NULL, &a);
	tokens_of("", "post body", NULL, &b);
	ok(same(&a, &b) && a.n == 2, "camelCase parts are parts");
	tokens_of("", "HTMLParser h2 x 123 x9", NULL, &a);
	tokens_of("", "htmlparser h2 x9", NULL, &b);
	ok(same(&a, &b), "capitals in a row are one part; one byte and "
	    "digits only are no parts");
	tokens_of("Sold in 2019 for $49.99", NULL, NULL, &a);
	tokens_of("sold IN 0000 FOR 00 00", NULL, NULL, &b);
	ok(same(&a, &b), "words lower-cased, digits written 0");
	tokens_of("Add\xc2\xa0to cart\xe2\x80\x94now \xe2\x80\x9cok\xe2\x80\x9d",
	    NULL, NULL, &a);
	tokens_of("add to cart now ok", NULL, NULL, &b);
	ok(same(&a, &b), "no-break spaces, dashes and quotes separate words");
	n = tokens_of("caf\xc3\xa9 cr\xc3\xa8me", NULL, NULL, &a);
	tokens_of("cafe creme", NULL, NULL, &b);
	ok(n == 2 && a.s[0] != b.s[0], "letters over 127 are a word's");
	tokens_of("aaaaaaaaaabbbbbbbbbbccccccccccdd", NULL, NULL, &a);
	tokens_of("aaaaaaaaaabbbbbbbbbbccccccccccddEXTRA", NULL, NULL, &b);
	ok(same(&a, &b), "a word's first 32 bytes are hashed");
	for (k = 0; k < 200; k++)
		len += (size_t)snprintf(many + len, sizeof(many) - len,
		    "w%d ", k);
	n = tokens_of(many, NULL, NULL, &a);
	ok(n == UK_EX_TOK_MAXW && a.n == 2 * UK_EX_TOK_MAXW - 1,
	    "at most 128 words are read");
	tokens_of("", "a1 a2 a3 a4 a5 a6 a7 a8 a9 b1 b2 b3 b4 b5 b6 b7 b8 "
	    "b9", NULL, &a);
	ok(a.n == UK_EX_TOK_MAXP, "at most 16 parts a level");

	/* A table of ones: the score counts the tokens. */
	{
		struct uk_ex_tokmodel m = { 0.5, 0.25, ones };
		struct uk_ex_tok_in in = { "one two three four", 18,
		    { "nav-menu", "sidebar", NULL, NULL },
		    { "li", "ul", "div" } };

		for (k = 0; k < (int)UK_EX_TOK_SLOTS; k++)
			ones[k] = 1;
		/* 4 words and 3 pairs over sqrt(4); 3 parts, 3 tags. */
		v = uk_ex_tok_eval(&m, &in);
		ok(fabs(v - (0.5 + 0.25 * (6 + 7 / 2.0))) < 1e-12,
		    "score: bias + scale * (classes and tags + text / sqrt(words))");
		m.w = NULL;
		ok(uk_ex_tok_eval(&m, &in) == 0, "no table, no score");
	}
}

/* FILE: each block's words, slots and score, as tokens.py check. */
static int
print_file(const char *fn)
{
	struct uk_err err = { 0 };
	struct uk_buf b = UK_BUF_INIT;
	FILE *f = fopen(fn, "r");
	char chunk[4096];
	size_t r, i, k;
	yajl_val v;

	if (!f) {
		fprintf(stderr, "t_extract_tok: %s: cannot open\n", fn);
		return 2;
	}
	while ((r = fread(chunk, 1, sizeof(chunk), f)) > 0)
		uk_buf_add(&b, chunk, r);
	fclose(f);
	v = uk_json_parse(b.buf, b.len, &err);
	if (!v || !YAJL_IS_ARRAY(v)) {
		fprintf(stderr, "t_extract_tok: %s: not a JSON array\n", fn);
		return 2;
	}
	for (i = 0; i < v->u.array.len; i++) {
		yajl_val a = v->u.array.values[i];
		struct uk_ex_tok_in in;
		static struct got g;
		const char *s[8];
		int n;

		if (!YAJL_IS_ARRAY(a) || a->u.array.len != 8)
			return 2;
		for (k = 0; k < 8; k++)
			s[k] = YAJL_IS_STRING(a->u.array.values[k]) ?
			    YAJL_GET_STRING(a->u.array.values[k]) : NULL;
		in.text = s[0] ? s[0] : "";
		in.len = strlen(in.text);
		for (k = 0; k < UK_EX_TOK_TAGS; k++)
			in.tag[k] = s[1 + k];
		for (k = 0; k < UK_EX_TOK_LEVELS; k++)
			in.ci[k] = s[1 + UK_EX_TOK_TAGS + k];
		memset(&g, 0, sizeof(g));
		n = uk_ex_tok_each(&in, collect, &g);
		printf("%d", n);
		printf(" ");
		for (k = 0; k < (size_t)g.n; k++)
			printf("%s%u%c", k ? " " : "", g.s[k], g.t[k] ? 't' : 'c');
		printf(" %.9f\n", uk_ex_tok_eval(&uk_ex_tok_model, &in));
	}
	yajl_tree_free(v);
	uk_buf_release(&b);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		return print_file(argv[1]);
	rules();
	return tap_done();
}
