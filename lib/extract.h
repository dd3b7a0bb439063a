/* SPDX-License-Identifier: MIT */
#ifndef UK_EXTRACT_H
#define UK_EXTRACT_H

/*
 * Main text and metadata of an HTML page (urlfetch and pwfetch).
 *
 * The page is converted to UTF-8 first (charset from the Content-Type
 * header, then a BOM, then <meta charset> or http-equiv in the first 1024
 * bytes, then UTF-8; iso-8859-1, latin1 and ascii read as windows-1252),
 * then parsed with gumbo.  The main block is chosen by scoring; when none
 * scores, fallback is set and the text is the body less what the
 * boilerplate rules set aside, or, when that keeps under a fifth of the
 * body's text, the plain fallback (title, meta description, scripts and
 * styles removed, tags stripped, entities decoded).
 */

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* What to extract and how to write it. */
enum uk_extract_format {
	UK_EXTRACT_TEXT,    /* plain text: paragraphs by blank lines */
	UK_EXTRACT_MARKDOWN /* CommonMark with GFM tables */
};

struct uk_extract_opts {
	enum uk_extract_format format;
	int links;     /* markdown: links as [text](absolute URL) */
	int images;    /* markdown: images as ![alt](absolute URL) */
	int comments;  /* the comment section's text into x->comments */
	int max_pages; /* PDF: pages read at most (0: the default, 200) */
	int timeout_ms; /* PDF: time limit (0: the default) */
	/* HTML: the Content-Language header, or NULL (for lang). */
	const char *content_language;
	/*
	 * HTML overrides (--select, --remove, --whole): the main content is
	 * what the select selectors match, in document order; what the
	 * remove selectors match is dropped before extraction; whole: no
	 * boilerplate removal (scripts, styles, hidden and template
	 * elements still dropped).  Selectors are CSS as lib/extract_select.c
	 * reads them.
	 */
	const char *const *select;
	size_t nselect;
	const char *const *remove;
	size_t nremove;
	int whole;
	/* HTML: fill x->explain with what was dropped and why. */
	int explain;
	/*
	 * The record's links as data (lib/pagelinks.h), at most links_max
	 * of them (0: the default); for the programs that make the record,
	 * not read by the extraction itself.
	 */
	int links_out;
	long links_max;
};

/* The defaults: text, no links, images, comments or overrides. */
#define UK_EXTRACT_OPTS_INIT { UK_EXTRACT_TEXT, 0, 0, 0, 0, 0, NULL, \
	NULL, 0, NULL, 0, 0, 0, 0, 0 }

struct uk_extract {
	char *title, *description, *author, *date; /* NULL when absent */
	char *lang;      /* html lang, Content-Language or og:locale */
	char *sitename;  /* og:site_name, JSON-LD publisher */
	char *canonical; /* link rel=canonical or og:url, absolute */
	char *image;     /* og:image, absolute */
	char **tags;     /* article:tag, keywords: ntags strings */
	size_t ntags;
	char *text;      /* main text, paragraphs separated by blank lines */
	char *comments;  /* with opts.comments: the comments' text, or NULL */
	char *charset;   /* the charset the page was read as */
	const char *format; /* "text" or "markdown", static */
	int fallback;    /* 1: no main block scored; a fallback's text */
	int blocked;     /* 1: the page looks like a block or challenge page */
	int needs_browser; /* 1: an app shell whose text scripts build */
	int pages;       /* PDF: the document's page count; 0 otherwise */
	int truncated;   /* PDF: pages left out (page or time limit) */
	/*
	 * HTML: the kind of page, static: "article", "forum", "product",
	 * "collection", "listing", "documentation", "service" or
	 * "app_shell"; NULL when not classified (a PDF).
	 */
	const char *page_type;
	/*
	 * With opts.explain: JSON Lines, one object per block the
	 * extractor dropped, with the rule or score that dropped it;
	 * NULL otherwise.
	 */
	char *explain;
};

/*
 * Extract html[0..len).  content_type is the HTTP Content-Type header or
 * NULL; url (may be NULL) resolves relative links and metadata; o may be
 * NULL for the defaults.  0 on success, -1 with err (the page could not
 * be decoded or parsed at all).  Release x with uk_extract_release
 * whatever the result.
 */
int uk_extract_html(const char *html, size_t len, const char *content_type,
    const char *url, const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err);

/*
 * Extract a PDF document pdf[0..len) (lib/pdf.c): text in reading order,
 * title, author and date from its info, pages.  0, or -1 with err saying
 * whether the document is encrypted, damaged or holds no text (images
 * only).  Release x with uk_extract_release whatever the result.
 */
int uk_pdf_extract(const char *pdf, size_t len, const char *url,
    const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err);

/*
 * The same reading in this process, without the child: no memory bound,
 * no kill (the time limit is checked between pages only).  For the
 * fuzzing harness (tests/fuzz/fuzz_pdf.c), which sees neither the
 * coverage nor the crashes of a child; programs use uk_pdf_extract.
 */
int uk_pdf_extract_here(const char *pdf, size_t len,
    const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err);

/*
 * Whether buf[0..len), served as HTML, is not text at all (an image, an
 * archive, random bytes): NUL and control bytes in its first kilobyte
 * (lib/extract_meta.c).  A UTF-16 page with its byte order mark is text.
 */
int uk_extract_meta_is_binary(const char *buf, size_t len);

/*
 * The warning a program prints for a record with needs_browser: it
 * names pwfetch and the pipeline that renders such pages.
 */
extern const char uk_extract_shell_warning[];

/* Whether buf[0..len) starts as a PDF document does ("%PDF-"). */
int uk_pdf_sniff(const char *buf, size_t len);

/*
 * The content record's fields that come from an extraction, built here
 * once for urlfetch (its network route and --extract) and pwfetch, so
 * that their records agree field for field (lib/extract_record.c):
 *
 *  - title, description, author, date: always there, null when absent;
 *  - lang, sitename, canonical, image, tags (an array), comments, pages,
 *    truncated, needs_browser, and format when it is not text: left out
 *    when absent;
 *  - content: the text; a block or challenge page (x->blocked) has no
 *    content but "blocked": true, and the caller makes the record an
 *    error (the wall's words are not the page);
 *  - extraction: "fallback" when no main block was found;
 *  - with UK_EXTRACT_REC_SERVED (an HTML page the program read from a
 *    served response's bytes itself: urlfetch's network route), also
 *    "charset", the charset the page was read as, and "extraction":
 *    "main" when a main block was found.  A PDF, a local file
 *    (--extract) or a page a browser has decoded (pwfetch) has neither.
 *
 * What depends on the route only (url, final_url, http, charset_ignored,
 * fetched_at, error) the caller sets.  rec is a yajl object (void * so
 * that this header needs no yajl); fields already there are replaced.
 */
#define UK_EXTRACT_REC_SERVED 1
void uk_extract_record(const struct uk_extract *x, unsigned flags, void *rec);

/*
 * --explain's records for the programs (lib/extract_override.c):
 * uk_extract_override_explain_array makes x->explain's lines an array of
 * objects, each with "url" (url) first, as a yajl array (void * so that this
 * header needs no yajl; NULL when there are none; the caller frees it
 * with uk_json_free); uk_extract_override_explain_write writes such an array to
 * fp, one object a line, and flushes it: 0, or -1 on a write error.
 */
void *uk_extract_override_explain_array(const char *explain, const char *url);
int uk_extract_override_explain_write(FILE *fp, const void *arr);

/*
 * Shown text (a title, a PDF's paragraph) made safe for Markdown in
 * place: b->buf[start..] gets a backslash before what Markdown would
 * read as HTML, every '<' and a '&' that would read as a character
 * reference (lib/extract_md.c).
 */
struct uk_buf;
void uk_extract_md_escape(struct uk_buf *b, size_t start);

/* Free what x holds and zero it; x itself is the caller's (NULL: nothing). */
void uk_extract_release(struct uk_extract *x);

#endif
