/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: source text through the tree-sitter tags queries and
 * their predicates (#eq?, #match?, #strip!, #select-adjacent!, locals), in
 * a language chosen by the first byte, then the ranked map and its JSON.
 */
#include <stdint.h>
#include <stdlib.h>

#include "buf.h"
#include "json.h"
#include "symbols.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const paths[] = { "a.py", "a.js", "a.ts", "a.tsx", "a.c",
	"a.cpp", "a.go", "a.rs", "a.java", "a.rb", "a.h" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_symbols *s;
	struct uk_buf map = UK_BUF_INIT;
	struct uk_err err;
	const char *path;
	yajl_val j;

	if (size < 1)
		return 0;
	path = paths[data[0] % (sizeof(paths) / sizeof(*paths))];
	s = uk_symbols_new();
	uk_symbols_set_deadline(s, 10);
	uk_symbols_add(s, path, (const char *)data + 1, size - 1, &err);
	/* A second file in the same language: references across files. */
	uk_symbols_add(s, "b/x.py", (const char *)data + 1, (size - 1) / 2,
	    &err);
	uk_symbols_map(s, (long)(size % 4096) + 1, &map);
	j = uk_symbols_json(s);
	uk_json_free(j);
	uk_symbols_tokens((const char *)data, size);
	uk_buf_release(&map);
	uk_symbols_free(s);
	return 0;
}
