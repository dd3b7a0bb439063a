/* SPDX-License-Identifier: MIT */
#ifndef UK_QUERY_H
#define UK_QUERY_H

/*
 * The part of a page that answers a question: a page's text cut into
 * sections at its headings, and into passages of at most
 * UK_QUERY_PASSAGE_TOKENS tokens where a section is longer, ranked
 * against the question with BM25 and the best of them kept, in page
 * order, within a token budget (cl100k, lib/tokens, as the rest of
 * urlkit counts).  What urlfetch, urlextract and pwfetch print for
 * --query, and what urlserve returns for its "query" argument.
 *
 * Usage, on a text:
 *
 *	struct uk_query_result r;
 *
 *	uk_query_answer(content, len, title, question, max_tokens,
 *	    UK_QUERY_MARKDOWN, &r);
 *	... r.text.buf is the answer, r.sections[0 .. r.nsections) what it
 *	    holds, r.tokens its size ...
 *	uk_query_result_release(&r);
 *
 * or on a content record, in place:
 *
 *	uk_query_record(rec, question, max_tokens);
 *
 * Headings: in Markdown, ATX lines ("#" to "######", then a space)
 * outside fenced code blocks; in plain text (the extractor writes a
 * heading as a paragraph of its own), a one-line paragraph of at most
 * twelve words that does not end as a sentence does (".", ",", ";", ":",
 * "!", "?") and holds no "=" or "{" (a line of code), followed by a
 * paragraph.  A plain text's headings all have one level.  Text before
 * the first heading is a section without one.
 *
 * Ranking: the words of the question (ASCII letters and digits and any
 * byte of a multi-byte character, case-folded, stop words dropped, no
 * stemming; the first 32 distinct ones) scored with Okapi BM25 (k1 1.2,
 * b 0.75) over the passages; a passage's heading path counts
 * UK_QUERY_HEADING_WEIGHT times, and the page's title once, as words of
 * the passage.
 *
 * What is kept: the whole text when it fits the budget; else the
 * passages that score in order of score (ties: page order), each that
 * fits (a miss does not stop it, 32 misses in a row do), then the budget
 * left to their neighbours, nearest first (the one after a kept passage
 * before the one before it), up to the first that does not fit; printed
 * in page order.  A heading alone
 * (a section whose first line is the next heading) is never kept on its
 * own, and no mark stands for it.  A question with no word a passage
 * holds (an empty question, stop words only, or words the page lacks)
 * keeps the first passages in page order up to the first that does not
 * fit, as a cut of the page's start would, every score 0.  A page with
 * one section is ranked by its passages as any.  When not one passage
 * fits, the best one is cut to fit (at a line's or sentence's end where
 * it can); a budget too small for the heading path and marks alone
 * gives an empty text.
 *
 * The text: each run of consecutive passages kept, and each change of
 * section within a run, starts with the heading path ("Install > Debian"; as a heading of the depth of the
 * last one in Markdown, "## Install > Debian"; a line of its own in
 * plain text) in place of the passage's own heading line, and a line
 * "…" stands where passages were left out (before, between and after
 * the runs).  Its size, those lines included, is at most max_tokens.
 */

#include <stddef.h>

#include "buf.h"
#include "json.h"

/*
 * The largest passage, in tokens: a longer section is cut.  Measured on
 * scripts/bench query's questions (text, 500 and 1000 tokens): 200 found
 * 42 and 47 answers of 55, 150 46 and 47, 120 45 and 48, 100 47 and 48,
 * 80 45 and 47 (with a light stemming then, since dropped).
 */
#define UK_QUERY_PASSAGE_TOKENS 100
/* How many times a passage's heading path counts among its words. */
#define UK_QUERY_HEADING_WEIGHT 2
/* The budget when none is given: urlfetch, urlextract and pwfetch. */
#define UK_QUERY_TOKENS_DEFAULT 1000

/* What the text is written as. */
enum uk_query_format {
	UK_QUERY_TEXT,
	UK_QUERY_MARKDOWN
};

/* A passage kept. */
struct uk_query_section {
	char *heading;   /* its heading path, "A > B"; "" for none */
	size_t offset;   /* where it starts in the page's text, in
			  * characters (code points): urlfetch's --offset
			  * and urlserve's offset */
	size_t length;   /* its length in characters */
	size_t tokens;   /* its size in tokens, as in the page's text */
	double score;    /* its BM25 score; 0: no word of the question */
};

struct uk_query_result {
	struct uk_buf text;                /* the answer */
	size_t tokens;                     /* text's size in tokens */
	struct uk_query_section *sections; /* kept, in page order */
	size_t nsections;
	size_t npassages;                  /* the page's passages */
	int whole;                         /* the whole text fitted */
};

/*
 * The part of content[0..len) (UTF-8) that answers query (NUL-terminated;
 * NULL as "") within max_tokens tokens (at least one), title (NULL: none)
 * counting as every passage's words, into *r (initialised here; the
 * caller releases it with uk_query_result_release).  Returns the number
 * of passages kept.  Memory: a few times len.
 */
size_t uk_query_answer(const char *content, size_t len, const char *title,
    const char *query, size_t max_tokens, enum uk_query_format fmt,
    struct uk_query_result *r);

/* Free r's contents and leave it empty. */
void uk_query_result_release(struct uk_query_result *r);

/*
 * Content record rec answered in place: its "content" (Markdown when its
 * "format" says "markdown") becomes the answer to query within
 * max_tokens, "sections" lists the passages kept
 * ([{heading, offset, tokens, score}], heading null for none, score with
 * three decimals), "query" is the question, "total_length" the page's
 * text in characters.  A record with no "content" (an error's, a
 * repository's) is left as it is.  Returns the number of passages kept.
 */
size_t uk_query_record(yajl_val rec, const char *query, size_t max_tokens);

#endif
