/* SPDX-License-Identifier: MIT */
/*
 * lib/query: sections and passages, BM25's ranking, the budget, page
 * order and the marks, on texts built here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "query.h"
#include "tokens.h"
#include "util.h"
#define TAP_PREFIX "query: "
#include "tap.h"

static const char ellipsis[] = "\xe2\x80\xa6";

/* Filler: n sentences of words no question here asks for. */
static void
filler(struct uk_buf *b, int n, int seed)
{
	static const char *const w[] = { "river", "stone", "paper", "cloud",
		"window", "garden", "silver", "engine", "bridge", "lantern" };
	int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < 9; k++)
			uk_buf_addf(b, "%s%s", k ? " " : "",
			    w[(i * 7 + k * 3 + seed) % 10]);
		uk_buf_addstr(b, ". ");
	}
}

/* The index of the section whose heading is h, or -1. */
static int
find(const struct uk_query_result *r, const char *h)
{
	size_t i;

	for (i = 0; i < r->nsections; i++)
		if (!strcmp(r->sections[i].heading, h))
			return (int)i;
	return -1;
}

static double
score_of(const struct uk_query_result *r, const char *h)
{
	int i = find(r, h);

	return i < 0 ? -1 : r->sections[i].score;
}

/* A Markdown page of four sections, each about 60 tokens. */
static void
page_md(struct uk_buf *b)
{
	uk_buf_addstr(b, "# Guide\n\n## Install\n\n");
	filler(b, 5, 1);
	uk_buf_addstr(b, "The zebra package installs from the zebra mirror.\n\n"
			 "## Configure\n\n");
	filler(b, 5, 2);
	uk_buf_addstr(b, "A zebra setting lives in the file.\n\n"
			 "## Usage\n\n");
	filler(b, 5, 3);
	uk_buf_addstr(b, "\n\n## Errors\n\n");
	filler(b, 5, 4);
	uk_buf_addstr(b, "The quokka error means a read-only cache.\n");
}

static void
test_bm25(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;

	page_md(&b);
	/* The whole page fits: every passage kept, each with its score. */
	uk_query_answer(b.buf, b.len, NULL, "zebra", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(r.whole && r.text.len == b.len && !memcmp(r.text.buf, b.buf, b.len),
	    "a page within the budget is returned whole");
	ok(score_of(&r, "Guide > Install") > score_of(&r, "Guide > Configure"),
	    "two hits outrank one (%.3f, %.3f)",
	    score_of(&r, "Guide > Install"), score_of(&r, "Guide > Configure"));
	ok(score_of(&r, "Guide > Configure") > 0 &&
		score_of(&r, "Guide > Usage") == 0,
	    "a passage without the word scores 0");
	uk_query_result_release(&r);

	/* A rare word weighs more than a common one (idf). */
	uk_query_answer(b.buf, b.len, NULL, "zebra quokka", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Guide > Errors") > score_of(&r, "Guide > Configure"),
	    "one rare word outranks one common one (%.3f, %.3f)",
	    score_of(&r, "Guide > Errors"), score_of(&r, "Guide > Configure"));
	uk_query_result_release(&r);

	/* Case, punctuation and stop words. */
	uk_query_answer(b.buf, b.len, NULL, "What is the QUOKKA?", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Guide > Errors") > 0 &&
		score_of(&r, "Guide > Install") == 0,
	    "words are case-folded; stop words count for nothing");
	uk_query_result_release(&r);

	/* The heading path counts as the passage's words. */
	uk_query_answer(b.buf, b.len, NULL, "usage", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Guide > Usage") > 0 &&
		score_of(&r, "Guide > Install") == 0,
	    "a heading's words score its section");
	uk_query_result_release(&r);

	/* The title counts for every passage alike. */
	uk_query_answer(b.buf, b.len, "Lantern", "lantern zebra", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Guide > Install") > score_of(&r, "Guide > Usage"),
	    "the title's words do not outrank the text's");
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

/*
 * The answer's kind: "how long" asks for a duration, "when" for a date,
 * and the passage that holds one scores though it shares no word with
 * the question (beyond the ones every section has).
 */
static void
test_answer_kind(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;

	uk_buf_addstr(&b, "# Trial\n\n## Method\n\n");
	filler(&b, 4, 1);
	uk_buf_addstr(&b, "Pupils meditated with the app.\n\n## Dose\n\n");
	filler(&b, 4, 2);
	uk_buf_addstr(&b, "It was 10 minutes per day for three weeks.\n\n"
			  "## History\n\n");
	filler(&b, 4, 3);
	uk_buf_addstr(&b, "The first version came out in March 2014.\n\n"
			  "## Other\n\n");
	filler(&b, 4, 4);
	uk_query_answer(b.buf, b.len, NULL, "How long did pupils meditate?",
	    100000, UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Trial > Dose") > 0 &&
		score_of(&r, "Trial > Dose") > score_of(&r, "Trial > History"),
	    "how long: the passage with a duration scores (%.3f, %.3f)",
	    score_of(&r, "Trial > Dose"), score_of(&r, "Trial > History"));
	uk_query_result_release(&r);
	uk_query_answer(b.buf, b.len, NULL, "When was it released?",
	    100000, UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Trial > History") > 0 &&
		score_of(&r, "Trial > Dose") == 0,
	    "when: the passage with a date scores, one without not (%.3f, %.3f)",
	    score_of(&r, "Trial > History"), score_of(&r, "Trial > Dose"));
	uk_query_result_release(&r);
	uk_query_answer(b.buf, b.len, NULL, "Is it long?", 100000,
	    UK_QUERY_MARKDOWN, &r);
	ok(score_of(&r, "Trial > Dose") == 0,
	    "no kind asked for: a duration alone does not score");
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

/* Whether r's text holds at most max tokens. */
static int
within(const struct uk_query_result *r, size_t max)
{
	return uk_tokens_count(UK_TOKENS_CL100K, r->text.buf, r->text.len) <=
	    max && r->tokens <= max;
}

static void
test_order_and_marks(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;
	const char *inst, *err;
	size_t i, bad = 0;

	page_md(&b);
	uk_query_answer(b.buf, b.len, NULL, "quokka zebra", 150,
	    UK_QUERY_MARKDOWN, &r);
	ok(within(&r, 150), "the answer holds at most 150 tokens (%zu)",
	    r.tokens);
	inst = strstr(r.text.buf, "zebra mirror");
	err = strstr(r.text.buf, "quokka error");
	ok(err && (!inst || inst < err),
	    "what is kept stays in page order");
	ok(!strncmp(r.text.buf, "## Guide > Install\n\n", 20),
	    "a heading alone left out before the first run is no loss");
	ok(strstr(r.text.buf, "## Guide > Errors\n") != NULL,
	    "a run of passages starts under its heading path");
	ok(strstr(r.text.buf, "\n\xe2\x80\xa6\n") ||
		strstr(r.text.buf, "\xe2\x80\xa6\n\n"),
	    "a mark stands where passages were left out");
	for (i = 1; i < r.nsections; i++)
		bad += r.sections[i].offset <= r.sections[i - 1].offset;
	ok(r.nsections >= 1 && !bad, "sections are listed in page order");
	i = (size_t)find(&r, "Guide > Errors");
	ok(i != (size_t)-1 &&
		!strncmp(b.buf + uk_buf_utf8_prefix(b.buf, b.len,
				     r.sections[i].offset),
		    "## Errors", 9),
	    "a section's offset is where it starts in the page");
	uk_query_result_release(&r);
	uk_query_answer(b.buf, b.len, NULL, "quokka", 80, UK_QUERY_MARKDOWN,
	    &r);
	ok(!strncmp(r.text.buf, ellipsis, 3) &&
		strstr(r.text.buf, "quokka error") && within(&r, 80),
	    "a mark opens a text that leaves the page's start out");
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

static void
test_budgets(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;
	size_t max, over = 0, i;
	char h[64];

	for (i = 0; i < 30; i++) {
		snprintf(h, sizeof(h), "## Part %zu\n\n", i);
		uk_buf_addstr(&b, h);
		filler(&b, 12 + (int)(i % 5), (int)i);
		uk_buf_addstr(&b, i % 7 ? "\n\n" : "A quokka was here.\n\n");
	}
	for (max = 1; max <= 1200; max += max < 120 ? 7 : 97) {
		uk_query_answer(b.buf, b.len, "Parts", "quokka part", max,
		    UK_QUERY_MARKDOWN, &r);
		if (!within(&r, max)) {
			over++;
			printf("# %zu tokens for a budget of %zu\n", r.tokens,
			    max);
		}
		uk_query_result_release(&r);
	}
	ok(!over, "no budget from 1 to 1200 tokens is exceeded");
	uk_buf_release(&b);
}

static void
test_no_hit(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;
	const char *qs[] = { "", "the of and", "okapi", NULL };
	size_t i, k, scored;

	page_md(&b);
	for (k = 0; k < 3; k++) {
		uk_query_answer(b.buf, b.len, NULL, qs[k], 120,
		    UK_QUERY_MARKDOWN, &r);
		scored = 0;
		for (i = 0; i < r.nsections; i++)
			scored += r.sections[i].score != 0;
		ok(r.nsections && !scored && within(&r, 120) &&
			!strncmp(r.text.buf, "## Guide > Install\n\n", 20),
		    "question '%s': the page's first passages, scores 0",
		    qs[k]);
		ok(!strcmp(r.text.buf + r.text.len - 4, "\n\xe2\x80\xa6"),
		    "question '%s': a mark after them", qs[k]);
		uk_query_result_release(&r);
	}
	uk_query_answer(b.buf, b.len, NULL, NULL, 120, UK_QUERY_MARKDOWN, &r);
	ok(r.nsections && !strncmp(r.text.buf, "## Guide > Install\n\n", 20),
	    "no question (NULL): the same");
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

static void
test_one_section(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;
	int i;

	/* Plain text, one long section: passages of it are ranked. */
	for (i = 0; i < 12; i++) {
		filler(&b, 6, i);
		uk_buf_addstr(&b, i == 9 ? "The quokka sleeps here.\n\n" :
					   "\n\n");
	}
	uk_query_answer(b.buf, b.len, NULL, "quokka", 100, UK_QUERY_TEXT, &r);
	ok(strstr(r.text.buf, "quokka sleeps") && within(&r, 100),
	    "one section: its passage that answers is found");
	ok(r.nsections >= 1 && r.nsections < r.npassages &&
		r.sections[0].heading[0] == '\0',
	    "one section: passages without a heading (%zu of %zu kept)",
	    r.nsections, r.npassages);
	ok(r.npassages >= 2, "a section over %d tokens is cut in passages",
	    UK_QUERY_PASSAGE_TOKENS);
	uk_query_result_release(&r);

	/* One paragraph far over the budget: cut to fit. */
	uk_buf_reset(&b);
	filler(&b, 120, 3);
	uk_query_answer(b.buf, b.len, NULL, "river", 10, UK_QUERY_TEXT, &r);
	ok(r.text.len > 0 && within(&r, 10),
	    "a budget smaller than any passage: the best one, cut (%zu)",
	    r.tokens);
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

static void
test_headings(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_query_result r;

	/* Plain text: a short line without a full stop is a heading. */
	uk_buf_addstr(&b, "Storage limits\n\n");
	filler(&b, 20, 1);
	uk_buf_addstr(&b, "\n\nx = quokka(y)\n\nThe quokka sleeps.\n\n"
			  "Short line.\n\n");
	filler(&b, 20, 2);
	uk_query_answer(b.buf, b.len, NULL, "quokka", 100000, UK_QUERY_TEXT,
	    &r);
	ok(find(&r, "Storage limits") >= 0,
	    "plain text: a short line is a heading");
	ok(find(&r, "x = quokka(y)") < 0 && find(&r, "Short line.") < 0,
	    "plain text: a line of code or a sentence is none");
	uk_query_result_release(&r);

	/* Markdown: a "#" line in a fenced block is code. */
	uk_buf_reset(&b);
	uk_buf_addstr(&b, "# Top\n\n```sh\n# not a heading\n\nls\n```\n\n"
			  "## Next\n\nText.\n");
	uk_query_answer(b.buf, b.len, NULL, "text", 100000, UK_QUERY_MARKDOWN,
	    &r);
	ok(find(&r, "Top > Next") >= 0 && find(&r, "not a heading") < 0 &&
		find(&r, "Top") >= 0,
	    "markdown: heading paths, and none in a fenced block");
	uk_query_result_release(&r);
	uk_buf_release(&b);
}

static void
test_record(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec, s;
	const char *c;

	page_md(&b);
	rec = uk_json_object();
	uk_json_set_str(rec, "content", b.buf);
	uk_json_set_str(rec, "format", "markdown");
	uk_query_record(rec, "quokka", 100);
	c = uk_json_get_str(rec, "content");
	s = uk_json_get(rec, "sections");
	ok(c && strstr(c, "quokka error") && YAJL_IS_ARRAY(s) &&
		s->u.array.len >= 1,
	    "a record: content answered, sections listed");
	ok(uk_json_get_str(uk_json_get(rec, "sections")->u.array.values[0],
	       "heading") &&
		!strcmp(uk_json_get_str(rec, "query"), "quokka"),
	    "a record: heading and query set");
	uk_json_free(rec);
	rec = uk_json_parse("{\"error\":\"x\"}", 13, &err);
	ok(uk_query_record(rec, "q", 100) == 0 && !uk_json_get(rec, "sections"),
	    "a record without content is left as it is");
	uk_json_free(rec);
	uk_buf_release(&b);
}

int
main(void)
{
	test_bm25();
	test_answer_kind();
	test_order_and_marks();
	test_budgets();
	test_no_hit();
	test_one_section();
	test_headings();
	test_record();
	return tap_done();
}
