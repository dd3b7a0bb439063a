/* SPDX-License-Identifier: MIT */
/*
 * The offline summaries' output, what every summary uses, the BRIEF
 * summary and source files; summary.c's uk_summary_write_offline picks among
 * them and summary_types.c's.  And the outline (uk_summary_offline_outline).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "summary.h"
#include "summary_int.h"

#include "banned.h"

/*
 * The string at key when it holds more than blanks, its length (NUL bytes
 * included: "a\u0000b" is three bytes, and the summarisers read all three)
 * in *len when len is not NULL; else NULL.
 */
const char *
uk_summary_offline_nonempty(yajl_val rec, const char *key, size_t *len)
{
	size_t n, i;
	const char *s = uk_json_get_strn(rec, key, &n);

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i])) {
			if (len)
				*len = n;
			return s;
		}
	return NULL;
}

int
uk_summary_offline_full(const struct out *o)
{
	return o->b->len - o->start >= o->limit;
}

/* Append a line (with newline), cut to max bytes on a UTF-8 boundary. */
void
uk_summary_offline_out_line(struct out *o, const char *prefix, const char *s,
    size_t n, size_t max)
{
	if (n > max) {
		n = uk_buf_utf8_cut(s, max);
		while (n && s[n - 1] != ' ')
			n--;
		if (!n)
			n = uk_buf_utf8_cut(s, max);
		uk_buf_addstr(o->b, prefix);
		uk_buf_add(o->b, s, n);
		uk_buf_addstr(o->b, "...\n");
		return;
	}
	uk_buf_addstr(o->b, prefix);
	uk_buf_add(o->b, s, n);
	uk_buf_addch(o->b, '\n');
}

/* Whether o already holds s[0..n). */
int
uk_summary_offline_already(const struct out *o, const char *s, size_t n)
{
	return memmem(o->b->buf + o->start, o->b->len - o->start, s, n) != NULL;
}

void
uk_summary_offline_out_gap(struct out *o)
{
	if (o->b->len > o->start &&
	    !(o->b->len >= 2 && o->b->buf[o->b->len - 1] == '\n' &&
		o->b->buf[o->b->len - 2] == '\n'))
		uk_buf_addch(o->b, '\n');
}

/* strncasecmp over n bytes that does not stop at a NUL byte. */
static int
memcasecmp(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tolower((unsigned char)a[i]) !=
		    tolower((unsigned char)b[i]))
			return 1;
	return 0;
}

/* Which text a summary reads: the readme, else the content; *len its length. */
const char *
uk_summary_offline_main_text(yajl_val rec, size_t *len)
{
	const char *s = uk_summary_offline_nonempty(rec, "readme", len);

	return s ? s : uk_summary_offline_nonempty(rec, "content", len);
}

/* Sections not worth summarising. */
static int
boring_section(const struct doc *d, int section)
{
	static const char *const stems[] = { "table of contents", "contents",
		"contributing", "contributors", "license", "licence",
		"acknowledg", "sponsor", "backers", "badges", "navigation",
		NULL };
	const struct block *h;
	struct uk_buf t = UK_BUF_INIT;
	int i, r = 0;

	if (section < 0)
		return 0;
	h = &d->b[section];
	uk_summary_md_plain(h->s, h->len, &t);
	for (i = 0; stems[i]; i++)
		if (uk_summary_md_word_find(t.buf, t.len, stems[i], 0) ==
		    t.buf) {
			r = 1;
			break;
		}
	uk_buf_release(&t);
	return r;
}

/*
 * Up to max_sent sentences of the lead paragraphs (at most max_para of
 * them) into o, one paragraph per line group.  Returns sentences taken.
 */
int
uk_summary_offline_lead(const struct doc *d, const char *skip, size_t skiplen,
    int max_para, int max_sent, struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t i;
	int paras = 0, sents = 0;

	for (i = 0; i < d->n && paras < max_para && sents < max_sent &&
	     !uk_summary_offline_full(o);
	     i++) {
		const struct block *b = &d->b[i];
		size_t pos = 0, took = 0;

		if (b->kind != B_PARA || boring_section(d, b->section))
			continue;
		uk_buf_reset(&t);
		uk_summary_md_plain(b->s, b->len, &t);
		if (t.len < 25 ||
		    uk_summary_md_letters(t.buf, t.len) < t.len / 2 ||
		    !memchr(t.buf, ' ', t.len))
			continue;
		if (skip && t.len <= skiplen + 2 &&
		    !memcasecmp(t.buf, skip, t.len > 2 ? t.len - 2 : t.len))
			continue; /* only repeats the description */
		uk_summary_offline_out_gap(o);
		while (pos < t.len && sents < max_sent) {
			size_t e = uk_summary_md_sentence_end(t.buf + pos,
			    t.len - pos);

			if (took)
				uk_buf_addch(o->b, ' ');
			uk_buf_add(o->b, t.buf + pos, e);
			took += e;
			sents++;
			pos += e;
			while (pos < t.len && t.buf[pos] == ' ')
				pos++;
			if (took > 600)
				break;
		}
		uk_buf_addch(o->b, '\n');
		paras++;
	}
	uk_buf_release(&t);
	return sents;
}

/*
 * Whether text[0..tlen) holds the start of s[0..n) (its first 40 bytes, or
 * all of it), ignoring case.
 */
static int
contained(const char *text, size_t tlen, const char *s, size_t n)
{
	size_t i;

	if (!text)
		return 0;
	if (n > 40)
		n = uk_buf_utf8_cut(s, 40);
	for (i = 0; i + n <= tlen; i++)
		if (!memcasecmp(text + i, s, n))
			return 1;
	return 0;
}

/*
 * The description, when the text does not already say it.  (The title
 * is not repeated: it is a field of its own, and uk_summary_format_prompt
 * shows it.)  Returns the description, its length in *said, when it was
 * written, else NULL.
 */
const char *
uk_summary_offline_header(yajl_val rec, struct out *o, int with_desc,
    size_t *said)
{
	size_t dlen = 0, tlen = 0;
	const char *desc =
	    uk_summary_offline_nonempty(rec, "description", &dlen);
	const char *text = uk_summary_offline_main_text(rec, &tlen);

	if (desc && with_desc && !contained(text, tlen, desc, dlen)) {
		struct uk_buf t = UK_BUF_INIT;

		uk_summary_md_plain(desc, dlen, &t);
		uk_summary_offline_out_gap(o);
		uk_summary_offline_out_line(o, "", t.buf, t.len, 500);
		uk_buf_release(&t);
		*said = dlen;
		return desc;
	}
	return NULL;
}

/* Does the plain text of a heading match one of the stems? */
int
uk_summary_offline_heading_is(const struct doc *d, int section,
    const char *const *stems)
{
	struct uk_buf t = UK_BUF_INIT;
	int i, r = 0;

	if (section < 0)
		return 0;
	uk_summary_md_plain(d->b[section].s, d->b[section].len, &t);
	for (i = 0; stems[i] && !r; i++)
		r = uk_summary_md_word_find(t.buf, t.len, stems[i], 0) != NULL;
	uk_buf_release(&t);
	return r;
}

const char *
uk_summary_offline_skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static const char *const sig_words[] = { "def ", "async def ", "class ",
	"func ", "fn ", "pub fn ", "pub struct ", "pub enum ", "pub trait ",
	"function ", "async function ", "export ", "struct ", "interface ",
	"trait ", "enum ", "typedef ", "impl ", "module ", "public ", "static ",
	"const ", "type ", "object ", "#define ", "abstract ", "protected ",
	"private ", "sub ", "method ", NULL };

/* Statements that look like calls. */
static const char *const not_sig[] = { "for", "if", "while", "return", "print",
	"println", "printf", "else", "switch", "case", "assert", "echo", "elif",
	"with", "await", "yield", "throw", "raise", "do", NULL };

/* Does a line of text look like a signature? */
int
uk_summary_offline_is_signature(const char *s, size_t n)
{
	size_t i = 0;
	const char *open, *close;
	int k;

	if (n < 3 || n > 200)
		return 0;
	for (k = 0; sig_words[k]; k++) {
		size_t w = strlen(sig_words[k]);

		if (n > w && !strncmp(s, sig_words[k], w) &&
		    (memchr(s, '(', n) || k < 4 ||
			!strcmp(sig_words[k], "class ")))
			return 1;
	}
	/* name(args) or mod.name(args) at the start, little after. */
	while (i < n &&
	    (uk_summary_md_is_word(s[i]) || s[i] == '.' || s[i] == ':' ||
		s[i] == '*' || s[i] == ' ' || s[i] == '<' || s[i] == '>' ||
		s[i] == ','))
		i++;
	if (i == 0 || i >= n || s[i] != '(' || !isalpha((unsigned char)s[0]))
		return 0;
	open = s + i;
	close = memchr(open, ')', n - i);
	if (!close)
		return 0;
	if (s + n - close > 60 ||
	    memmem(close, (size_t)(s + n - close), ". ", 2))
		return 0;
	/* Not a sentence: no more than a few spaces before the '('. */
	for (k = 0, i = 0; s + i < open; i++)
		k += s[i] == ' ';
	if (k > 2)
		return 0;
	for (k = 0; not_sig[k]; k++) {
		size_t w = strlen(not_sig[k]);

		if (!strncmp(s, not_sig[k], w) && !uk_summary_md_is_word(s[w]))
			return 0;
	}
	return 1;
}

int
uk_summary_offline_brief(yajl_val rec, const struct doc *d, struct out *o)
{
	size_t said = 0;
	const char *desc = uk_summary_offline_header(rec, o, 1, &said);

	if (!uk_summary_offline_lead(d, desc, said, 3, 8, o)) {
		/* No paragraphs: the first sentences of the raw text. */
		size_t tlen = 0;
		const char *text = uk_summary_offline_main_text(rec, &tlen);
		struct uk_buf t = UK_BUF_INIT;

		if (text) {
			size_t pos = 0, e;
			int k;

			uk_summary_md_plain(text, tlen < 4000 ? tlen : 4000,
			    &t);
			uk_buf_setlen(&t, uk_buf_utf8_cut(t.buf, t.len));
			uk_summary_offline_out_gap(o);
			for (k = 0; k < 4 && pos < t.len; k++) {
				e = uk_summary_md_sentence_end(t.buf + pos,
				    t.len - pos);
				if (k)
					uk_buf_addch(o->b, ' ');
				uk_buf_add(o->b, t.buf + pos, e);
				pos += e;
				while (pos < t.len && t.buf[pos] == ' ')
					pos++;
			}
			uk_buf_addch(o->b, '\n');
		}
		uk_buf_release(&t);
	}
	return 0;
}

/* Is the record a source file (a GitHub file that is not prose)? */
int
uk_summary_offline_is_source(yajl_val rec)
{
	static const char *const prose[] = { ".md", ".markdown", ".rst", ".txt",
		".adoc", ".org", ".html", ".htm", NULL };
	const char *type = uk_json_get_str(rec, "url_type");
	size_t n = 0, k;
	const char *url = uk_json_get_strn(rec, "url", &n);
	int i;

	if (!type || strcmp(type, "github_file") || !url ||
	    !uk_summary_offline_nonempty(rec, "content", NULL))
		return 0;
	for (i = 0; prose[i]; i++) {
		k = strlen(prose[i]);
		if (n > k && !strcasecmp(url + n - k, prose[i]))
			return 0;
	}
	return 1;
}

/* The text of a comment line, or NULL when the line is not a comment. */
static const char *
comment_text(const char *s, const char *e)
{
	static const char *const marks[] = { "///", "//!", "//", "/**", "/*",
		"#", "--", ";;", "\"\"\"", "'''", NULL };
	int i;

	s = uk_summary_offline_skip_blanks(s, e);
	if (s < e && *s == '*' && (s + 1 == e || s[1] != '/'))
		return uk_summary_offline_skip_blanks(s + 1, e);
	for (i = 0; marks[i]; i++) {
		size_t k = strlen(marks[i]);

		if ((size_t)(e - s) < k || strncmp(s, marks[i], k))
			continue;
		if (marks[i][0] == '#' && e - s > 1 &&
		    (s[1] == '!' || isalpha((unsigned char)s[1])))
			return NULL; /* #!, #include, #define */
		return uk_summary_offline_skip_blanks(s + k, e);
	}
	return NULL;
}

int
uk_summary_offline_source(yajl_val rec, enum uk_summary_type t, struct out *o)
{
	size_t tlen = 0, said;
	const char *text = uk_summary_offline_nonempty(rec, "content", &tlen);
	const char *p, *e, *end = text + tlen, *c, *ce;
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf doc = UK_BUF_INIT, line = UK_BUF_INIT;
	int ndef = 0, nimp = 0, pass;

	uk_summary_offline_header(rec, o, 1, &said);
	/* The leading comment: what the file says it is. */
	for (p = text; p < end; p = e + 1) {
		if (!(e = memchr(p, '\n', (size_t)(end - p))))
			e = end;
		c = comment_text(p, e);
		if (!c) {
			if (doc.len &&
			    !uk_summary_md_blank(p, (size_t)(e - p)) &&
			    !uk_summary_md_is_import(p, (size_t)(e - p)) &&
			    strncmp(uk_summary_offline_skip_blanks(p, e),
				"package ", 8))
				break;
			continue;
		}
		if (uk_summary_md_word_find(c, (size_t)(e - c), "spdx", 0) ||
		    uk_summary_md_word_find(c, (size_t)(e - c), "copyright",
			0) ||
		    uk_summary_md_letters(c, (size_t)(e - c)) == 0)
			continue;
		ce = e;
		while (ce > c &&
		    (isspace((unsigned char)ce[-1]) || ce[-1] == '/' ||
			ce[-1] == '*'))
			ce--;
		if (doc.len)
			uk_buf_addch(&doc, ' ');
		uk_buf_add(&doc, c, (size_t)(ce - c));
		if (doc.len > 600)
			break;
	}
	if (doc.len) {
		uk_summary_offline_out_gap(o);
		uk_summary_offline_out_line(o, "", doc.buf, doc.len, 700);
	}
	/* Imports (the dependencies), then top-level definitions. */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0 && t == UK_SUMMARY_BRIEF)
			continue;
		for (p = text; p < end && !uk_summary_offline_full(o);
		     p = e + 1) {
			size_t n;
			const char *ls;

			if (!(e = memchr(p, '\n', (size_t)(end - p))))
				e = end;
			n = (size_t)(e - p);
			uk_buf_reset(&line);
			uk_buf_add(&line, p, n);
			while (line.len &&
			    (line.buf[line.len - 1] == '{' ||
				isspace((unsigned char)line.buf[line.len - 1])))
				uk_buf_setlen(&line, line.len - 1);
			ls = uk_summary_offline_skip_blanks(line.buf,
			    line.buf + line.len);
			if (pass == 0 && nimp < 12 &&
			    uk_summary_md_is_import(p, n) &&
			    uk_strset_add(&seen, line.buf, line.len)) {
				if (!nimp++) {
					uk_summary_offline_out_gap(o);
					uk_buf_addstr(o->b,
					    t == UK_SUMMARY_USAGE ?
						"Imports:\n" :
						"Dependencies (imports):\n");
				}
				uk_summary_offline_out_line(o, "- ", ls,
				    (size_t)(line.buf + line.len - ls), 160);
			}
			if (pass == 1 && ndef < 25 && p[0] != ' ' &&
			    p[0] != '\t' &&
			    uk_summary_offline_is_signature(line.buf,
				line.len) &&
			    uk_strset_add(&seen, line.buf, line.len)) {
				if (!ndef++) {
					uk_summary_offline_out_gap(o);
					uk_buf_addstr(o->b, "Definitions:\n");
				}
				uk_summary_offline_out_line(o, "- ", line.buf,
				    line.len, 160);
			}
		}
	}
	uk_strset_release(&seen);
	uk_buf_release(&doc);
	uk_buf_release(&line);
	return 0;
}

/* Characters (code points) in s[0..n). */
static size_t
chars(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The first sentence of paragraph b, plain, cut, appended to out. */
static void
first_sentence(const struct block *b, struct uk_buf *out)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t e, cut;

	uk_summary_md_plain(b->s, b->len, &t);
	e = uk_summary_md_sentence_end(t.buf, t.len);
	if (e > UK_SUMMARY_OUTLINE_SENTENCE) {
		cut = uk_buf_utf8_cut(t.buf, UK_SUMMARY_OUTLINE_SENTENCE);
		while (cut && t.buf[cut - 1] != ' ')
			cut--;
		uk_buf_add(out, t.buf, cut ? cut : uk_buf_utf8_cut(t.buf,
		    UK_SUMMARY_OUTLINE_SENTENCE));
		uk_buf_addstr(out, "...");
	} else {
		uk_buf_add(out, t.buf, e);
	}
	uk_buf_release(&t);
}

/* The first paragraph of the section of heading h (index), or NULL. */
static const struct block *
section_para(const struct doc *d, size_t h)
{
	size_t i;

	for (i = h + 1; i < d->n && d->b[i].kind != B_HEAD; i++)
		if (d->b[i].kind == B_PARA || d->b[i].kind == B_LIST)
			return &d->b[i];
	return NULL;
}

int
uk_summary_offline_outline(const char *text, size_t len, size_t shown_from,
    size_t shown_to, struct uk_buf *out)
{
	struct doc d = { NULL, 0, 0 };
	struct uk_buf line = UK_BUF_INIT;
	const struct block *b, *p;
	size_t i, at = 0, pos = 0, start = out->len, more = 0, lstart, pat;
	int heads = 0, lines = 0, level;

	uk_summary_md_doc_parse(&d, text, len);
	for (i = 0; i < d.n; i++)
		heads |= d.b[i].kind == B_HEAD;
	for (i = 0; i < d.n; i++) {
		b = &d.b[i];
		if (heads ? b->kind != B_HEAD : b->kind != B_PARA)
			continue;
		/* The offset of the block's line, counted on from the last. */
		lstart = (size_t)(b->s - text);
		while (lstart > pos && text[lstart - 1] != '\n')
			lstart--;
		at += chars(text + pos, lstart - pos);
		pos = lstart;
		if (out->len - start >= UK_SUMMARY_OUTLINE_MAX) {
			more++;
			continue;
		}
		uk_buf_reset(&line);
		level = heads ? b->level : 1;
		while (--level > 0)
			uk_buf_addstr(&line, "  ");
		uk_buf_addstr(&line, "- ");
		if (heads) {
			uk_summary_md_plain(b->s, b->len, &line);
			uk_buf_addf(&line, " [at %zu]", at);
		} else {
			uk_buf_addf(&line, "[at %zu]", at);
		}
		p = heads ? section_para(&d, i) : b;
		/* Its paragraph's offset: the reader may have it in view. */
		pat = p ? at + chars(text + pos, (size_t)(p->s - text) - pos) :
		    0;
		if (p && !(shown_to && pat >= shown_from && pat < shown_to)) {
			uk_buf_addstr(&line, heads ? ": " : " ");
			first_sentence(p, &line);
		}
		uk_buf_addch(&line, '\n');
		uk_buf_add(out, line.buf, line.len);
		lines++;
	}
	if (more)
		uk_buf_addf(out, "- (%zu more)\n", more);
	uk_summary_md_doc_release(&d);
	uk_buf_release(&line);
	return lines ? 0 : -1;
}
