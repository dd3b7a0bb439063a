/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: a C or C++ header (the first byte's low bit says
 * which) through lib/symbols_cscan.c's scanner alone: its token stream
 * (comments, strings, raw strings, directives, #if groups) and its
 * declarations, whatever braces, brackets and quotes the bytes leave
 * open.  tests/fuzz/regress/cscan/ holds its seeds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols_int.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fres r;
	size_t k;

	if (size < 1)
		return 0;
	memset(&r, 0, sizeof(r));
	uk_symcscan_tags(data[0] & 1 ? UK_SYMLANG_CPP : UK_SYMLANG_C,
	    (const char *)data + 1, size - 1, &r);
	for (k = 0; k < r.ntags; k++)
		if (!r.tags[k].name || !r.tags[k].kind || !r.tags[k].line ||
		    (r.tags[k].def && !r.tags[k].d.sig))
			abort();
	uk_symtags_release(&r);
	return 0;
}
