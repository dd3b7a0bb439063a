/* SPDX-License-Identifier: MIT */
/*
 * Private to the extraction modules: the writer's formats (plain text and
 * Markdown) and tables, beside extract_int.h.  extract_write.c holds the
 * writer, its escapes and what the plain text of a node is; extract_md.c
 * the walks over the nodes that call it: plain text (uk_ex_emit),
 * Markdown and the tables.
 */
#ifndef UK_EXTRACT_MD_H
#define UK_EXTRACT_MD_H

#include "extract_int.h"

/*
 * Set w up to write into b in the format o asks for (NULL: plain text);
 * url, the page's address or NULL, is what links and images are resolved
 * against.
 */
void uk_ex_w_init(struct writer *w, struct uk_buf *b,
    const struct uk_extract_opts *o, const char *url);
/* Write text s: white space collapsed unless pre; Markdown escaped. */
void uk_ex_w_text(struct writer *w, const char *s, int pre);
/* Write the pending break and line marker now. */
void uk_ex_w_flush(struct writer *w);
/* Write s as it is (after the pending break). */
void uk_ex_w_raw(struct writer *w, const char *s, size_t n);
/* Push s onto the prefix of every line; pop it. */
void uk_ex_w_push(struct writer *w, const char *s);
void uk_ex_w_pop(struct writer *w);
/* A writer like w (format, links, base) into b, with every break a space. */
void uk_ex_w_cell(struct writer *cw, const struct writer *w,
    struct uk_buf *b);

/* Whether node j is left out of the text (see uk_ex_emit's skip). */
int uk_ex_skipped(struct ctx *c, int i, int j, int skip);

/*
 * extract_write.c: whether the word s[0..n) would start a Markdown block
 * if it began a line ("#", "-", ">", "1." ...): 0 if not, else one past
 * the byte to escape with a backslash (lib/pdf.c uses it too).
 */
size_t uk_ex_md_syntax(const char *s, size_t n);

/*
 * extract_write.c: whether byte k of the text s[0..n) (shown text, outside
 * code) takes a backslash so that Markdown shows it rather than reading
 * it as HTML: every '<', which is where a tag, a comment or an autolink
 * would begin (a page that shows "&lt;img onerror=...&gt;" must not have
 * it written as a live tag, in one word or pieced together from several
 * elements), and a '&' that would read as a character reference ("&lt;"
 * shown literally).  A '>' begins no HTML: it is escaped only where it
 * would begin a quote (uk_ex_md_syntax).  1 or 0.
 */
size_t uk_ex_md_html(const char *s, size_t n, size_t k);


/* extract_md.c: uk_ex_emit for Markdown. */
void uk_ex_md_emit(struct ctx *c, int i, struct writer *w, int skip);

/*
 * extract_md.c: whether the table at t holds data (rows and columns to
 * keep apart) rather than laying out the page.
 */
int uk_ex_table_is_data(struct ctx *c, int t);
/*
 * extract_md.c: write the data table at t: in Markdown a GFM table, in
 * text one line per row with its cells joined by " | ".  A cell that
 * spans rows is repeated on each; one that spans columns leaves the
 * columns after it empty.
 */
void uk_ex_table_emit(struct ctx *c, int t, struct writer *w, int skip);

#endif
