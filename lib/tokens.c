/* SPDX-License-Identifier: MIT */
/*
 * Token counts (see tokens.h).
 *
 * PLACEHOLDER until the byte-pair encoder lands: an estimate of a token
 * per four bytes, the rule the map used before.
 */
#include <string.h>

#include "banned.h"
#include "tokens.h"

int
uk_tokens_parse(const char *name, enum uk_tokenizer *t)
{
	if (!strcmp(name, "cl100k_base") || !strcmp(name, "cl100k")) {
		*t = UK_TOKENS_CL100K;
		return 0;
	}
	if (!strcmp(name, "o200k_base") || !strcmp(name, "o200k")) {
		*t = UK_TOKENS_O200K;
		return 0;
	}
	return -1;
}

const char *
uk_tokens_name(enum uk_tokenizer t)
{
	return t == UK_TOKENS_O200K ? "o200k_base" : "cl100k_base";
}

size_t
uk_tokens_count(enum uk_tokenizer t, const char *s, size_t n)
{
	(void)t;
	(void)s;
	return (n + 3) / 4;
}
