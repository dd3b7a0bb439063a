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

/*
 * Compiling a language's tags query takes most of a run, so one index
 * takes many inputs (each a file of its own) before it is rebuilt; a
 * crash replays from a fresh index, which indexes that file the same way.
 */
#define INPUTS_PER_INDEX 64

static struct uk_symbols *s;
static unsigned long nin;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_buf map = UK_BUF_INIT, path = UK_BUF_INIT;
	struct uk_err err;
	yajl_val j;

	if (size < 1)
		return 0;
	if (!s || nin++ % INPUTS_PER_INDEX == 0) {
		uk_symbols_free(s);
		s = uk_symbols_new();
	}
	uk_symbols_set_deadline(s, 10);
	uk_buf_addf(&path, "f%lu/%s", nin,
	    paths[data[0] % (sizeof(paths) / sizeof(*paths))]);
	uk_symbols_add(s, path.buf, (const char *)data + 1, size - 1, &err);
	uk_symbols_map(s, (long)(size % 4096) + 1, &map);
	j = uk_symbols_json(s);
	uk_json_free(j);
	uk_symbols_top_file(s);
	uk_symbols_tokens((const char *)data, size);
	uk_buf_release(&map);
	uk_buf_release(&path);
	return 0;
}
