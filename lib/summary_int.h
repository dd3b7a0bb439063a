/* SPDX-License-Identifier: MIT */
#ifndef UK_SUMMARY_INT_H
#define UK_SUMMARY_INT_H

/*
 * Private to lib/summary*.c: what the offline summariser's files share.
 *
 *	summary.c          type selection, prompts, prompt context, and
 *	                   uk_summary_write_offline, which picks the summary
 *	summary_types.c    the USAGE, API, ARCHITECTURE and EVALUATION
 *	                   summaries
 *	summary_offline.c  the output, the helpers every summary uses (the
 *	                   record's fields among them), the BRIEF summary
 *	                   and source files
 *	summary_md.c       the Markdown reader: a text as blocks, inline
 *	                   Markdown to plain text, words and sentences
 *
 * Each file calls only the files below it in this list.
 *
 * Texts are (pointer, length) pairs and may hold NUL bytes; nothing here
 * stops at one.  No function keeps a pointer it was given past its
 * return, but the blocks of a struct doc point into the text
 * parsed, which must outlive them.
 */

#include <stddef.h>

#include "buf.h"
#include "json.h"
#include "summary.h"

/* summary_md.c: words and sentences. */

/* Whether c can be part of a word: a letter, digit, '_' or any non-ASCII. */
int uk_summary_md_is_word(int c);
/*
 * Find stem in s[0..len) case-insensitively, starting a word.  With whole,
 * the match must also end a word, but for a plural "s".  Returns the match
 * (a pointer into s) or NULL.
 */
const char *uk_summary_md_word_find(const char *s, size_t len, const char *stem,
    int whole);
/*
 * Whether any of stems (a NULL-terminated list) starts a word of s[0..n),
 * case-insensitively: 1 or 0.
 */
int uk_summary_md_mentions(const char *s, size_t n, const char *const *stems);
/* How many bytes of s[0..n) are letters (any non-ASCII byte counts). */
size_t uk_summary_md_letters(const char *s, size_t n);
/*
 * The length of the sentence starting at s[0], within n: up to and with
 * its '.', '!' or '?' followed by a space or the end ("e.g.", "i.e.",
 * "etc.", "vs." and initials do not end one); n when none ends.
 */
size_t uk_summary_md_sentence_end(const char *s, size_t n);
/* The offset of the '\n' that ends the line at s[pos], or len. */
size_t uk_summary_md_line_end(const char *s, size_t pos, size_t len);
/* Whether s[0..n) is nothing but white space: 1 or 0. */
int uk_summary_md_blank(const char *s, size_t n);
/*
 * Whether the line s[0..n) is a shell command: a "$ ", "% " or "> " prompt,
 * or an install or build command ("pip install", "sudo apt install",
 * "git clone", ...): 1 or 0.
 */
int uk_summary_md_is_command(const char *s, size_t n);
/*
 * Whether the line s[0..n) imports a module ("import", "from ... import",
 * "#include", "require", "use", "using", ...): 1 or 0.
 */
int uk_summary_md_is_import(const char *s, size_t n);
/*
 * Append the plain text of inline Markdown and HTML s[0..n) to out:
 * images dropped, links reduced to their text, tags and emphasis removed,
 * white space collapsed to single spaces.
 */
void uk_summary_md_plain(const char *s, size_t n, struct uk_buf *out);

/* summary_md.c: the Markdown reader. */

/*
 * A readme or page text as blocks: headings, paragraphs, list items and
 * code, each knowing the heading of its section.  Page text without
 * Markdown is read too: a short line without closing punctuation reads as
 * a heading, a paragraph of code-like lines as code.
 */
enum { B_HEAD, B_PARA, B_LIST, B_CODE };

struct block {
	int kind;      /* B_HEAD, ... */
	int level;     /* B_HEAD: 1 to 6 */
	const char *s; /* into the text; for B_CODE the code without fences */
	size_t len;
	const char *lang; /* B_CODE: the fence's info string, or "" */
	size_t langlen;
	int section; /* index of the heading block, or -1 */
};

/*
 * Initialise with { NULL, 0, 0 }; uk_summary_md_doc_release frees the
 * blocks.
 */
struct doc {
	struct block *b;
	size_t n, alloc;
};

/* Append the blocks of s[0..len) to d; s must outlive d. */
void uk_summary_md_doc_parse(struct doc *d, const char *s, size_t len);
/* Free d's blocks and leave it empty, ready for uk_summary_md_doc_parse. */
void uk_summary_md_doc_release(struct doc *d);

/* summary_offline.c: the output. */

/*
 * A summary being written to b from offset start; limit, in bytes, is
 * where a summariser stops taking more (it works on whole lines, so the
 * text may pass it by one line).
 */
struct out {
	struct uk_buf *b;
	size_t start, limit;
};

/* Whether o has reached its limit: 1 or 0. */
int uk_summary_offline_full(const struct out *o);
/*
 * Append prefix, s[0..n) and a newline; past max bytes, s is cut at a
 * word on a UTF-8 boundary and ends in "...".
 */
void uk_summary_offline_out_line(struct out *o, const char *prefix,
    const char *s, size_t n, size_t max);
/* Whether the summary written so far holds s[0..n): 1 or 0. */
int uk_summary_offline_already(const struct out *o, const char *s, size_t n);
/* Start a new paragraph: a blank line, unless at the start or after one. */
void uk_summary_offline_out_gap(struct out *o);

/* summary_offline.c: what every summary uses. */

/*
 * The string at key in rec when it holds more than blanks, else NULL.  Its
 * length goes to *len when len is not NULL (NUL bytes included: "a\u0000b"
 * is three bytes, and the summarisers read all three).  The string belongs
 * to rec.
 */
const char *uk_summary_offline_nonempty(yajl_val rec, const char *key,
    size_t *len);

/*
 * The text a summary reads: the record's readme, else its content, else
 * NULL; its length in *len.  It belongs to rec.
 */
const char *uk_summary_offline_main_text(yajl_val rec, size_t *len);
/*
 * Write up to max_sent sentences of the lead paragraphs of d, from at most
 * max_para of them, one line each; boilerplate sections (contents,
 * licence, sponsors ...) are passed over, and so is a paragraph that only
 * repeats skip[0..skiplen) (the description; skip may be NULL).  Returns
 * the number of sentences written.
 */
int uk_summary_offline_lead(const struct doc *d, const char *skip,
    size_t skiplen, int max_para, int max_sent, struct out *o);
/*
 * With with_desc, write the record's description unless its text already
 * says it.  Returns the description written (it belongs to rec), its
 * length in *said, or NULL when none was written (*said unchanged).
 */
const char *uk_summary_offline_header(yajl_val rec, struct out *o,
    int with_desc, size_t *said);
/*
 * Whether the heading of section (a block index, or -1: none) holds one
 * of stems (a NULL-terminated list) at a word start: 1 or 0.
 */
int uk_summary_offline_heading_is(const struct doc *d, int section,
    const char *const *stems);
/* The first byte of s[0..end) that is not a space or tab, or end. */
const char *uk_summary_offline_skip_blanks(const char *s, const char *end);
/*
 * Whether the line s[0..n) reads as a definition's signature ("def f(x)",
 * "pub fn new() -> Self", "name(args)" with little after it) rather than
 * a call or a sentence: 1 or 0.
 */
int uk_summary_offline_is_signature(const char *s, size_t n);

/* summary_offline.c: the summaries of a page and of a source file. */

/* Write the BRIEF summary of rec, whose text d holds, to o; returns 0. */
int uk_summary_offline_brief(yajl_val rec, const struct doc *d,
    struct out *o);
/* Whether rec is a source file (a GitHub file that is not prose): 1 or 0. */
int uk_summary_offline_is_source(yajl_val rec);
/*
 * Write the summary of type t of the source file rec: its header comment,
 * then its imports and definitions; returns 0.
 */
int uk_summary_offline_source(yajl_val rec, enum uk_summary_type t,
    struct out *o);

/* summary_types.c: the summaries. */

/*
 * Each writes its summary of rec, whose text d holds, to o, and returns 0.
 * USAGE: installation, commands and examples, key imports; API:
 * signatures from the symbol map and the text, else the outline;
 * ARCHITECTURE: the symbol map's modules, the outline, design notes;
 * EVALUATION: facts, maturity, dependencies, alternatives.
 */
int uk_summary_types_usage(yajl_val rec, const struct doc *d, struct out *o);
int uk_summary_types_api(yajl_val rec, const struct doc *d, struct out *o);
int uk_summary_types_architecture(yajl_val rec, const struct doc *d,
    struct out *o);
int uk_summary_types_evaluation(yajl_val rec, const struct doc *d,
    struct out *o);

#endif
