/* SPDX-License-Identifier: MIT */
#ifndef UK_SUMMARY_H
#define UK_SUMMARY_H

/*
 * Summaries of content records (urlsum(1)): choosing the summary type,
 * assembling the text a model is given, the prompts, an offline extractive
 * summariser, and formatting records as prompt context.
 *
 * Lengths called "characters" here are Unicode code points, not bytes;
 * every cut falls on a UTF-8 boundary.  Records are content records
 * (urlkit(7)); their strings are valid UTF-8 (uk_json guarantees it) and
 * may hold NUL bytes, which every function here reads as text.  Nothing
 * keeps a pointer to a record past its return.
 *
 * Usage, for each record: uk_summary_select_record picks the type (the
 * user's -t overrides it); then either uk_summary_assemble builds the
 * text for the model, sent with the type's prompt from a struct
 * uk_summary_prompts (uk_summary_prompts_init, _load, _release), or
 * uk_summary_write_offline writes a summary without a model.
 * uk_summary_format_context turns summarised records into context for
 * another prompt.
 *
 * The code: summary.c (selection, prompts, context), summary_md.c (the
 * offline summariser's Markdown reader), summary_offline.c and
 * summary_types.c (the offline summaries), with summary_int.h between
 * them.
 */

#include <stddef.h>

#include "buf.h"
#include "json.h"
#include "util.h"

enum uk_summary_type {
	UK_SUMMARY_BRIEF,
	UK_SUMMARY_USAGE,
	UK_SUMMARY_API,
	UK_SUMMARY_ARCHITECTURE,
	UK_SUMMARY_EVALUATION,
	UK_SUMMARY_NTYPES
};

/* The text given to the model is cut at this many characters. */
#define UK_SUMMARY_MAX_INPUT 100000
/* uk_summary_format_prompt's default cut, in characters. */
#define UK_SUMMARY_PROMPT_MAX 4000
/* What uk_summary_format_context puts between two records. */
#define UK_SUMMARY_SEPARATOR "\n\n---\n\n"

/* "BRIEF", "USAGE", "API", "ARCHITECTURE", "EVALUATION". */
const char *uk_summary_type_name(enum uk_summary_type t);
/* The type named s (any case), or -1. */
int uk_summary_type_parse(const char *s);

/*
 * Choose the type for a record of URL type url_type ("github_repo", ...,
 * as urlkit(7) names them; NULL counts as "web") that has a symbol map or
 * not, steered by the user's words hint (may be NULL).  The hint wins when
 * it holds one of the keywords, checked in this order: "how to" (USAGE),
 * "api" (API), "architecture" (ARCHITECTURE), "compare" or "evaluate"
 * (EVALUATION).  Keywords match case-insensitively at the start of a word,
 * and inflected forms count ("APIs", "comparison", "evaluating",
 * "architectural"); "how to" allows any run of blanks between its words.
 * Otherwise by URL type: github_repo with a symbol map ARCHITECTURE,
 * without BRIEF; github_file BRIEF; documentation USAGE; anything else
 * BRIEF.
 *
 * Writes why into reason (size >= 128), e.g. "hint \"api\"" or
 * "github_repo with a symbol map".
 */
enum uk_summary_type uk_summary_select(const char *url_type, int has_symbol_map,
    const char *hint, char *reason, size_t size);

/* uk_summary_select on a record's url_type and symbol_map. */
enum uk_summary_type uk_summary_select_record(yajl_val rec, const char *hint,
    char *reason, size_t size);

/*
 * The text for the model: "URL: ", then the record's title, description,
 * readme, symbol map and content that are present and not empty, each
 * labelled, joined by blank lines, cut at max characters (0: the default
 * UK_SUMMARY_MAX_INPUT).  The title and description are put on their
 * label's line, each run of white space (newlines included) in them one
 * space, so that the page cannot write a label of its own.  Appended to
 * out; returns 1 when it was cut.
 */
int uk_summary_assemble(yajl_val rec, size_t max, struct uk_buf *out);

/*
 * The same text cut at max_tokens tokens of cl100k_base instead (0: as
 * uk_summary_assemble with its default), at the longest prefix of whole
 * characters whose tokens fit.  Returns 1 when it was cut.
 */
int uk_summary_assemble_tokens(yajl_val rec, size_t max_tokens,
    struct uk_buf *out);

/*
 * The prompts, one per type.  uk_summary_prompts_init sets the built-in
 * ones; uk_summary_prompts_load replaces those that DIR has as files
 * named after the type in lower case, with or without ".md" or ".txt"
 * (DIR/usage.md), and uk_summary_prompts_load_file replaces one type's
 * prompt (or every type's, for t == -1) with the contents of path.  Both
 * return 0, or -1 with err when a file cannot be read or is empty; a
 * missing file in DIR is not an error (that type keeps its prompt).
 */
struct uk_summary_prompts {
	char *text[UK_SUMMARY_NTYPES]; /* by type; owned, freed by _release */
};

/* Set every type's prompt to its built-in one (copies). */
void uk_summary_prompts_init(struct uk_summary_prompts *p);
int uk_summary_prompts_load(struct uk_summary_prompts *p, const char *dir,
    struct uk_err *err);
int uk_summary_prompts_load_file(struct uk_summary_prompts *p, int t,
    const char *path, struct uk_err *err);
/* Free the prompts; p is ready for uk_summary_prompts_init. */
void uk_summary_prompts_release(struct uk_summary_prompts *p);
/* The built-in prompt of t (static). */
const char *uk_summary_prompt_builtin(enum uk_summary_type t);

/*
 * The offline, extractive summary of rec as type t, appended to out:
 * BRIEF takes the lead sentences, USAGE install steps, commands, imports
 * and code, API signatures from the symbol map and the text, ARCHITECTURE
 * the modules of the symbol map and the README's outline, EVALUATION the
 * signals of maturity, dependencies and alternatives.  Deterministic;
 * no network.  Returns 0, or -1 when rec has nothing to summarise (out is
 * left as it was).
 */
int uk_summary_write_offline(yajl_val rec, enum uk_summary_type t,
    struct uk_buf *out);

/*
 * The outline of text[0..len) (a page's content), appended to out: one
 * line per heading, indented by its level, "- HEADING [at N]: FIRST
 * SENTENCE" (N the character offset where the heading's line starts, a
 * fetch_url offset; the sentence the first of its section's first
 * paragraph, cut at UK_SUMMARY_OUTLINE_SENTENCE bytes); a text with no
 * heading has a line per paragraph, "- [at N] FIRST SENTENCE".  Sections
 * that start within characters [shown_from, shown_to) (the slice shown
 * with the outline; shown_to 0: none) keep their heading line but not
 * their sentence, which the reader has in front of it.  At most
 * UK_SUMMARY_OUTLINE_MAX bytes, then "- (N more)".  Returns 0, or -1 when
 * the text has neither heading nor paragraph (out unchanged).
 */
#define UK_SUMMARY_OUTLINE_MAX      3000
#define UK_SUMMARY_OUTLINE_SENTENCE 200
int uk_summary_offline_outline(const char *text, size_t len, size_t shown_from,
    size_t shown_to, struct uk_buf *out);

/*
 * A record as prompt context: "## URL", the title in bold on one line
 * (as uk_summary_assemble puts it), then the summary, else the readme, else the content, cut at max
 * characters (0: UK_SUMMARY_PROMPT_MAX) with "..." added when cut, then the
 * symbol map in a fenced code block; parts joined by blank lines.
 * Appended to out, without a final newline.
 */
void uk_summary_format_prompt(yajl_val rec, size_t max, struct uk_buf *out);

/*
 * A record left out of prompt context for its error, named so that a
 * reader of the context knows what is missing: "## URL" (or "## (no
 * URL)") and "(left out: ERROR)", the error on one line, cut at 300
 * characters.  Appended to out, without a final newline.
 */
void uk_summary_format_error(yajl_val rec, struct uk_buf *out);

/*
 * The prompt context of records (urlsum -p and -c): what to leave out,
 * the budget, and, after uk_summary_format_context, what it did.
 */
struct uk_summary_context {
	const char *const *excluded; /* URLs to leave out; NULL-terminated,
	                                may be NULL */
	const char *separator;       /* between records; NULL:
	                                UK_SUMMARY_SEPARATOR */
	int dedup;                   /* leave out repeats of a URL */
	size_t max_chars;            /* the budget of the whole output in
	                                characters, its final newline
	                                included; 0: none */
	size_t max_tokens;           /* the same in cl100k_base tokens */

	/* Counted by uk_summary_format_context: */
	size_t took;     /* records written whole or cut */
	size_t errors;   /* records with error, named only */
	size_t excluded_n, repeats; /* records left out unnamed */
	size_t cut;      /* records cut to fit the budget */
	size_t dropped;  /* last records left out: the budget could not
	                    hold their "## URL" lines */
};

/*
 * The prompt context of recs[0..n): uk_summary_format_prompt of each
 * record (uk_summary_format_error of a record with error set), joined by
 * c->separator, and a final newline when anything was written.  Records
 * whose URL is in c->excluded, and with c->dedup repeats of a URL
 * already given, are left out.
 *
 * Without a budget, each record is cut as uk_summary_format_prompt cuts
 * it (UK_SUMMARY_PROMPT_MAX).  With c->max_chars or c->max_tokens, no
 * record has that cut: the budget, less the separators and the final
 * newline, is shared fairly.  Taking the records from the shortest up,
 * each gets an equal share of what is left; a record shorter than its
 * share is written whole and leaves the rest of its share to the records
 * after it; a longer one is cut to its share, with "..." and any open
 * code fence closed within it.  So short records are never cut for long
 * ones.  Every record keeps its "## URL" line (shares are of what is
 * left after those lines); when the budget cannot hold all of them, the
 * last records are left out (c->dropped).  The output is at most the
 * budget, but for a budget too small for one record's line.
 *
 * Appended to out; fills c's counts and returns c->took.
 */
size_t uk_summary_format_context(const yajl_val *recs, size_t n,
    struct uk_summary_context *c, struct uk_buf *out);

#endif
