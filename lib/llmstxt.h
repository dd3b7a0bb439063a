/* SPDX-License-Identifier: MIT */
#ifndef UK_LLMSTXT_H
#define UK_LLMSTXT_H

/*
 * The links of an llms.txt file (llmstxt.org: Markdown with an H1, a
 * summary, and H2 sections of "- [title](url): notes" lists): every
 * Markdown inline link "[title](url)" or "[title](url "tip")", in order.
 * Images ("![alt](src)") and links inside code spans or fenced code
 * blocks are not links.  A link's text may hold nested brackets; a link
 * never spans lines.
 */

#include <stddef.h>

/* Called per link with its URL as written and its text (both trimmed,
 * NUL-terminated); non-zero stops. */
typedef int uk_llmstxt_fn(void *ctx, const char *url, const char *title);

/* Call fn for each link of text[0..len).  0, or 1 when fn stopped it. */
int uk_llmstxt_links(const char *text, size_t len, uk_llmstxt_fn *fn,
    void *ctx);

#endif
