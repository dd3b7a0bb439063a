/* SPDX-License-Identifier: MIT */
#ifndef UK_SLICE_H
#define UK_SLICE_H

/*
 * A page's text one slice at a time, by tokens (cl100k, lib/tokens): what
 * urlserve's fetch_url returns for max_tokens and offset, and what
 * urlfetch -T prints for --max-tokens and --offset, the same code.
 *
 * Usage:
 *
 *	left = uk_slice_page(rec, offset, max_tokens);
 *	... print content; when next_offset is not null, ask again
 *	    with offset = next_offset ...
 */

#include <stddef.h>

#include "json.h"

/* max_tokens: urlserve's fetch_url and urlfetch --max-tokens alike. */
#define UK_SLICE_TOKENS_MIN     100
#define UK_SLICE_TOKENS_DEFAULT 4000
#define UK_SLICE_TOKENS_MAX     100000

/*
 * Cut content record rec to the slice that starts at character offset
 * (code points of the page's text: its content, else its README and
 * symbol map in a fenced block; past the end: the end) and holds at most
 * max_tokens tokens, ending at a paragraph or line break in its last
 * fifth when it does not reach the end, and at least one character when
 * any is left.  In rec, "content" becomes the slice, "readme" and
 * "symbol_map" go, and "offset", "next_offset" (the offset of the rest,
 * null at the end) and "total_length" (characters) are set.  Returns the
 * characters left after the slice.
 */
size_t uk_slice_page(yajl_val rec, size_t offset, size_t max_tokens);

#endif
