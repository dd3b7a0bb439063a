/* SPDX-License-Identifier: MIT */
#ifndef UK_DIFF_H
#define UK_DIFF_H

/*
 * A line diff of two texts in unified format (diff -u's: a "--- previous"
 * and "+++ current" header, then hunks "@@ -a,n +b,m @@" with three lines
 * of context), for a content record's "diff" (urlkit(7)).  Lines end at
 * '\n' (a last line without one counts as a line); each line written ends
 * in '\n'.
 *
 * Bounded: the two texts together at most UK_DIFF_MAX_LINES lines, at most
 * UK_DIFF_MAX_EDITS lines inserted and deleted once their common head and
 * tail are set aside, and at most UK_DIFF_MAX_WORK steps of the search;
 * beyond any of them there is no diff (too large), never a long wait.
 * Memory: a few words a line, and (edits + 1)^2 longs at most (8 MiB).
 */

#include <stddef.h>

#include "buf.h"

#define UK_DIFF_MAX_LINES 1000000L
#define UK_DIFF_MAX_EDITS 1000L
#define UK_DIFF_MAX_WORK 20000000L
#define UK_DIFF_LINES_DEFAULT 200L /* urlfetch --diff-lines */

/*
 * Append to out the diff of a[0..alen) (the previous text) against
 * b[0..blen) (the current one), at most max_lines lines of it (max_lines
 * > 0); *truncated tells whether lines were left out.  Equal texts give
 * nothing.  Returns 0, or -1 when the diff is too large to compute (out as
 * it was).
 */
int uk_diff_unified(const char *a, size_t alen, const char *b, size_t blen,
    long max_lines, struct uk_buf *out, int *truncated);

#endif
