/* SPDX-License-Identifier: MIT */
/*
 * The tokenizers' names (see tokens.h), apart from tokens.c so that a
 * program that only parses its options (urlfetch's front) does not link
 * the encoders' tables and PCRE2.
 */
#include <string.h>

#include "tokens.h"

#include "banned.h"

int
uk_tokens_name_parse(const char *name, enum uk_tokenizer *t)
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
uk_tokens_name_of(enum uk_tokenizer t)
{
	return t == UK_TOKENS_O200K ? "o200k_base" : "cl100k_base";
}
