/* SPDX-License-Identifier: MIT */
#ifndef UK_EXTRACT_OVERRIDE_H
#define UK_EXTRACT_OVERRIDE_H

/*
 * Private to the extraction modules: the user's overrides of the
 * extractor (struct uk_extract_opts' select, remove and whole;
 * lib/extract_override.c), applied by two calls in uk_extract_html:
 *
 *	build, measure
 *	uk_ex_override_mark        what --remove matches is skipped
 *	clean, mark, score or the fallback, write
 *	uk_ex_override_emit        --select or --whole: the text is theirs
 *
 * With none of the three, both calls do nothing and return 0.
 */

#include "buf.h"
#include "extract_int.h"
#include "util.h"

/*
 * Skip (F_SKIP, whole subtrees) the elements o's remove selectors match,
 * and measure again; with o->explain, add a record to c->x->explain for
 * each element dropped so ("removed by --remove 'SEL'").  0, or -1 with
 * err when a selector does not compile (the programs check selectors
 * when they read their options; a library caller may not have).
 */
int uk_ex_override_mark(struct ctx *c, const struct uk_extract_opts *o,
    struct uk_err *err);

/*
 * With o->select or o->whole, replace text with what the overrides
 * choose, written in o's format by the extractor's writers (url: links'
 * base), clear c->x->fallback, and return 1; without them, return 0 and
 * leave text alone.  -1 with err when the select selectors match nothing
 * (or only elements that are never text).  c's marks are as they were
 * when it returns.
 */
int uk_ex_override_emit(struct ctx *c, const struct uk_extract_opts *o,
    const char *url, struct uk_buf *text, struct uk_err *err);

#endif
