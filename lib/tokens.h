/* SPDX-License-Identifier: MIT */
#ifndef UK_TOKENS_H
#define UK_TOKENS_H

/*
 * Token counts in a language model's tokenizer, for budgets given in
 * tokens (the repository map, the README, urlsum's context).
 *
 * The tokenizers are OpenAI's byte-pair encodings: cl100k_base (the
 * default) and o200k_base.
 */

#include <stddef.h>

enum uk_tokenizer {
	UK_TOKENS_CL100K, /* cl100k_base, the default */
	UK_TOKENS_O200K   /* o200k_base */
};

/*
 * The tokenizer called name ("cl100k_base", "o200k_base"; also "cl100k"
 * and "o200k") into *t.  0, or -1 when the name is unknown.
 */
int uk_tokens_name_parse(const char *name, enum uk_tokenizer *t);

/* The name of t ("cl100k_base"), a static string. */
const char *uk_tokens_name_of(enum uk_tokenizer t);

/* The number of tokens of s[0..n) in t. */
size_t uk_tokens_count(enum uk_tokenizer t, const char *s, size_t n);

#endif
