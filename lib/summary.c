/* SPDX-License-Identifier: MIT */
/*
 * Summaries: choosing the type, assembling a model's input, the prompts,
 * and records as prompt context (summary.h).  The offline summariser is
 * in summary_offline.c and summary_types.c, its Markdown reader in
 * summary_md.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "tokens.h"
#include "summary.h"
#include "summary_int.h"

#include "banned.h"

static const char *const type_names[UK_SUMMARY_NTYPES] = {
	"BRIEF",
	"USAGE",
	"API",
	"ARCHITECTURE",
	"EVALUATION",
};

const char *
uk_summary_type_name(enum uk_summary_type t)
{
	return (unsigned)t < UK_SUMMARY_NTYPES ? type_names[t] : "BRIEF";
}

int
uk_summary_type_parse(const char *s)
{
	int i;

	for (i = 0; i < UK_SUMMARY_NTYPES; i++)
		if (!strcasecmp(s, type_names[i]))
			return i;
	return -1;
}

/* "how", blanks, "to" ending a word. */
static int
has_how_to(const char *s)
{
	size_t len = strlen(s);
	const char *p = s, *q;

	while ((p = uk_summary_md_word_find(p, len - (size_t)(p - s), "how",
	    1))) {
		q = p + 3;
		if (isspace((unsigned char)*q)) {
			while (isspace((unsigned char)*q))
				q++;
			if (!strncasecmp(q, "to", 2) &&
			    !uk_summary_md_is_word(q[2]))
				return 1;
		}
		p += 3;
	}
	return 0;
}

static int
has_word(const char *s, const char *stem, int whole)
{
	return uk_summary_md_word_find(s, strlen(s), stem, whole) != NULL;
}

enum uk_summary_type
uk_summary_select(const char *url_type, int has_symbol_map, const char *hint,
    char *reason, size_t size)
{
	if (hint && *hint) {
		if (has_how_to(hint)) {
			snprintf(reason, size, "hint \"how to\"");
			return UK_SUMMARY_USAGE;
		}
		if (has_word(hint, "api", 1)) {
			snprintf(reason, size, "hint \"api\"");
			return UK_SUMMARY_API;
		}
		if (has_word(hint, "architect", 0)) {
			snprintf(reason, size, "hint \"architecture\"");
			return UK_SUMMARY_ARCHITECTURE;
		}
		if (has_word(hint, "compar", 0)) {
			snprintf(reason, size, "hint \"compare\"");
			return UK_SUMMARY_EVALUATION;
		}
		if (has_word(hint, "evaluat", 0)) {
			snprintf(reason, size, "hint \"evaluate\"");
			return UK_SUMMARY_EVALUATION;
		}
	}
	if (!url_type || !*url_type)
		url_type = "web";
	if (!strcmp(url_type, "github_repo")) {
		if (has_symbol_map) {
			snprintf(reason, size, "github_repo with a symbol map");
			return UK_SUMMARY_ARCHITECTURE;
		}
		snprintf(reason, size, "github_repo without a symbol map");
		return UK_SUMMARY_BRIEF;
	}
	if (!strcmp(url_type, "documentation")) {
		snprintf(reason, size, "documentation");
		return UK_SUMMARY_USAGE;
	}
	snprintf(reason, size, "%.60s", url_type);
	return UK_SUMMARY_BRIEF;
}

enum uk_summary_type
uk_summary_select_record(yajl_val rec, const char *hint, char *reason,
    size_t size)
{
	return uk_summary_select(uk_json_get_str(rec, "url_type"),
	    uk_summary_offline_nonempty(rec, "symbol_map", NULL) != NULL, hint,
	    reason, size);
}

/*
 * s[0..n) appended to out on one line: each run of white space (newlines
 * included) one space, none at the ends; other bytes as they are (the
 * writer of the text makes controls visible).  For the fields the page
 * names in a line of the prompt's own markup ("Title: ...", "**...**"):
 * a newline in them would let the page write that markup itself (a
 * "## URL" line, a separator, a "Content:" label) and so pass its words
 * for the prompt's.
 */
static void
add_one_line(struct uk_buf *out, const char *s, size_t n)
{
	size_t k;
	int gap = 0, any = 0;

	for (k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];

		if (isspace(c)) {
			gap = 1;
			continue;
		}
		if (gap && any)
			uk_buf_addch(out, ' ');
		gap = 0;
		any = 1;
		uk_buf_addch(out, (char)c);
	}
}

int
uk_summary_assemble(yajl_val rec, size_t max, struct uk_buf *out)
{
	static const struct {
		const char *key, *label;
		int line; /* on the label's line (add_one_line) */
	} parts[] = {
		{ "title", "Title: ", 1 },
		{ "description", "Description: ", 1 },
		{ "readme", "README:\n", 0 },
		{ "symbol_map", "Symbol map:\n", 0 },
		{ "content", "Content:\n", 0 },
	};
	size_t start = out->len, i, cut, n;
	const char *s;

	if (!max)
		max = UK_SUMMARY_MAX_INPUT;
	if ((s = uk_summary_offline_nonempty(rec, "url", &n))) {
		uk_buf_addstr(out, "URL: ");
		uk_buf_add(out, s, n);
	}
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(s = uk_summary_offline_nonempty(rec, parts[i].key, &n)))
			continue;
		if (out->len > start)
			uk_buf_addstr(out, "\n\n");
		uk_buf_addstr(out, parts[i].label);
		if (parts[i].line)
			add_one_line(out, s, n);
		else
			uk_buf_add(out, s, n);
	}
	cut = uk_buf_utf8_prefix(out->buf + start, out->len - start, max);
	if (start + cut < out->len) {
		uk_buf_setlen(out, start + cut);
		return 1;
	}
	return 0;
}

int
uk_summary_assemble_tokens(yajl_val rec, size_t max_tokens, struct uk_buf *out)
{
	struct uk_buf all = UK_BUF_INIT;
	size_t chars, lo, hi, mid;

	if (!max_tokens)
		return uk_summary_assemble(rec, 0, out);
	uk_summary_assemble(rec, SIZE_MAX, &all);
	if (uk_tokens_count(UK_TOKENS_CL100K, all.buf ? all.buf : "",
		all.len) <= max_tokens) {
		uk_buf_add(out, all.buf ? all.buf : "", all.len);
		uk_buf_release(&all);
		return 0;
	}
	/*
	 * The longest prefix of lo characters whose tokens fit, found from
	 * max_tokens characters (most text has fewer tokens than that) up
	 * by doubling, then by bisection: a page of megabytes is not
	 * tokenized whole at every step.  The whole text does not fit.
	 */
	chars = uk_buf_utf8_chars(all.buf, all.len);
	lo = 0;
	hi = max_tokens < chars ? max_tokens : chars;
	while (uk_tokens_count(UK_TOKENS_CL100K, all.buf,
		   uk_buf_utf8_prefix(all.buf, all.len, hi)) <= max_tokens) {
		lo = hi;
		hi = hi > chars / 2 ? chars : 2 * hi;
	}
	/* lo characters fit, hi do not. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (uk_tokens_count(UK_TOKENS_CL100K, all.buf,
			uk_buf_utf8_prefix(all.buf, all.len, mid)) <=
		    max_tokens)
			lo = mid;
		else
			hi = mid;
	}
	uk_buf_add(out, all.buf, uk_buf_utf8_prefix(all.buf, all.len, lo));
	uk_buf_release(&all);
	return 1;
}

/* Prompts. */

#define COMMON                                                                 \
	"You summarise web pages, documentation and source code repositories " \
	"for a developer who will use the summary as context. Work only from " \
	"the text given; do not invent facts, versions or names. Write plain " \
	"Markdown without a preamble. "

static const char *const builtin[UK_SUMMARY_NTYPES] = {
	COMMON "Write a BRIEF summary: a 2-3 paragraph overview of what this "
	       "is, what it is for and what stands out about it.",
	COMMON "Write a USAGE summary: how to install it, how to use it, the "
	       "common patterns with short code examples, and the key imports, "
	       "commands or entry points.",
	COMMON "Write an API summary: the main classes, functions and methods "
	       "with their signatures, parameters and return values, grouped "
	       "by module.",
	COMMON "Write an ARCHITECTURE summary: the modules and their "
	       "responsibilities, the main abstractions, how data flows "
	       "through the system and the key design decisions.",
	COMMON "Write an EVALUATION summary: maturity (releases, activity, "
	       "tests, documentation), dependencies, licence, limitations, and "
	       "alternatives with how this compares to them.",
};

const char *
uk_summary_prompt_builtin(enum uk_summary_type t)
{
	return builtin[(unsigned)t < UK_SUMMARY_NTYPES ? t : 0];
}

void
uk_summary_prompts_init(struct uk_summary_prompts *p)
{
	int i;

	for (i = 0; i < UK_SUMMARY_NTYPES; i++)
		p->text[i] = uk_util_xstrdup(builtin[i]);
}

void
uk_summary_prompts_release(struct uk_summary_prompts *p)
{
	int i;

	for (i = 0; i < UK_SUMMARY_NTYPES; i++) {
		free(p->text[i]);
		p->text[i] = NULL;
	}
}

/* Read path into a new string; 0 ok, 1 absent (when may_miss), -1 error. */
static int
read_file(const char *path, int may_miss, char **out, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	char chunk[8192];
	size_t n;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		if (may_miss && errno == ENOENT)
			return 1;
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "cannot read '%s': %s", path, strerror(errno));
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		uk_buf_add_utf8(&b, chunk, n);
		if (b.len > (1UL << 20)) {
			fclose(fp);
			uk_buf_release(&b);
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "'%s': prompt longer than 1 MiB", path);
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		uk_buf_release(&b);
		return uk_util_err_set(err, UK_EXIT_USAGE, "cannot read '%s'",
		    path);
	}
	fclose(fp);
	uk_buf_trim(&b);
	if (!b.len) {
		uk_buf_release(&b);
		return uk_util_err_set(err, UK_EXIT_USAGE, "'%s': empty prompt",
		    path);
	}
	*out = uk_buf_detach(&b, NULL);
	return 0;
}

int
uk_summary_prompts_load_file(struct uk_summary_prompts *p, int t,
    const char *path, struct uk_err *err)
{
	char *s;
	int i;

	if (read_file(path, 0, &s, err))
		return -1;
	for (i = 0; i < UK_SUMMARY_NTYPES; i++) {
		if (t >= 0 && i != t)
			continue;
		free(p->text[i]);
		p->text[i] = uk_util_xstrdup(s);
	}
	free(s);
	return 0;
}

int
uk_summary_prompts_load(struct uk_summary_prompts *p, const char *dir,
    struct uk_err *err)
{
	static const char *const ext[] = { ".md", ".txt", "" };
	struct uk_buf path = UK_BUF_INIT;
	char lower[16];
	char *s;
	int i, r;
	size_t j, k;

	for (i = 0; i < UK_SUMMARY_NTYPES; i++) {
		for (k = 0; type_names[i][k] && k < sizeof(lower) - 1; k++)
			lower[k] =
			    (char)tolower((unsigned char)type_names[i][k]);
		lower[k] = '\0';
		for (j = 0; j < sizeof(ext) / sizeof(ext[0]); j++) {
			uk_buf_reset(&path);
			uk_buf_addf(&path, "%s/%s%s", dir, lower, ext[j]);
			r = read_file(path.buf, 1, &s, err);
			if (r < 0) {
				uk_buf_release(&path);
				return -1;
			}
			if (r == 0) {
				free(p->text[i]);
				p->text[i] = s;
				break;
			}
		}
	}
	uk_buf_release(&path);
	return 0;
}

/* Prompt context. */

/*
 * The fence a Markdown text s[0..n) leaves open at its end ("```" of as
 * many backticks or tildes as it opened with), or 0 when none is: a
 * content cut inside a code block must not swallow what follows it (the
 * next record's "## URL" line).  Lines are read past list indentation
 * and quote markers, as extraction writes them.
 */
static size_t
open_fence(const char *s, size_t n, char *fch)
{
	const char *p = s, *e = s + n, *q, *t;
	size_t open = 0, k;
	char ch;

	for (; p < e; p = q + 1) {
		if (!(q = memchr(p, '\n', (size_t)(e - p))))
			q = e;
		for (t = p; t < q && (*t == ' ' || *t == '>'); t++)
			;
		if (t >= q || (*t != '`' && *t != '~'))
			continue;
		ch = *t;
		for (k = 0; t + k < q && t[k] == ch; k++)
			;
		if (k < 3)
			continue;
		if (!open) {
			open = k;
			*fch = ch;
		} else if (ch == *fch && k >= open) {
			for (t += k; t < q && isspace((unsigned char)*t); t++)
				;
			if (t == q)
				open = 0;
		}
	}
	return open;
}

/*
 * body[0..*len) past a first line that only repeats the title (as a
 * Markdown heading or not) and the blank lines after it: the title is
 * given once, in bold, above the body.  NULL when nothing is left.
 */
static const char *
skip_title(const char *body, size_t *len, const char *title, size_t tlen)
{
	const char *p = body, *e = body + *len, *q;

	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p < e && *p == '#') {
		while (p < e && *p == '#')
			p++;
		if (p == e || (*p != ' ' && *p != '\t'))
			return body;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
	}
	while (tlen && isspace((unsigned char)*title)) {
		title++;
		tlen--;
	}
	while (tlen && isspace((unsigned char)title[tlen - 1]))
		tlen--;
	if (!tlen || (size_t)(e - p) < tlen || memcmp(p, title, tlen))
		return body;
	for (q = p + tlen; q < e && (*q == ' ' || *q == '\t' || *q == '#');
	     q++)
		;
	if (q < e && *q != '\n' && *q != '\r')
		return body;
	while (q < e && isspace((unsigned char)*q))
		q++;
	if (q == e)
		return NULL;
	*len = (size_t)(e - q);
	return q;
}

void
uk_summary_format_prompt(yajl_val rec, size_t max, struct uk_buf *out)
{
	size_t ulen = 0, tlen = 0, len = 0, n = 0;
	const char *url = uk_json_get_strn(rec, "url", &ulen);
	const char *title = uk_summary_offline_nonempty(rec, "title", &tlen);
	const char *body = uk_summary_offline_nonempty(rec, "summary", &len);
	const char *map = uk_summary_offline_nonempty(rec, "symbol_map", &n);

	if (!max)
		max = UK_SUMMARY_PROMPT_MAX;
	if (!body)
		body = uk_summary_offline_nonempty(rec, "readme", &len);
	if (!body)
		body = uk_summary_offline_nonempty(rec, "content", &len);
	if (body && title)
		body = skip_title(body, &len, title, tlen);
	uk_buf_addstr(out, "## ");
	if (url)
		uk_buf_add(out, url, ulen);
	if (title) {
		uk_buf_addstr(out, "\n\n**");
		add_one_line(out, title, tlen);
		uk_buf_addstr(out, "**");
	}
	if (body) {
		size_t cut = uk_buf_utf8_prefix(body, len, max);

		uk_buf_addstr(out, "\n\n");
		uk_buf_add(out, body, cut);
		if (cut < len) {
			char fch = '`';
			size_t f = open_fence(body, cut, &fch);

			uk_buf_addstr(out, "...");
			if (f) {
				uk_buf_addch(out, '\n');
				while (f--)
					uk_buf_addch(out, fch);
			}
		}
	}
	if (map) {
		uk_buf_addstr(out, "\n\n```\n");
		uk_buf_add(out, map, n);
		if (map[n - 1] != '\n')
			uk_buf_addch(out, '\n');
		uk_buf_addstr(out, "```");
	}
}

void
uk_summary_format_error(yajl_val rec, struct uk_buf *out)
{
	size_t ulen = 0, elen = 0, cut, k, start;
	const char *url = uk_json_get_strn(rec, "url", &ulen);
	const char *e = uk_json_get_strn(rec, "error", &elen);

	uk_buf_addstr(out, "## ");
	if (url && ulen)
		uk_buf_add(out, url, ulen);
	else
		uk_buf_addstr(out, "(no URL)");
	uk_buf_addstr(out, "\n\n(left out: ");
	if (!e || !elen) {
		e = "error";
		elen = 5;
	}
	cut = uk_buf_utf8_prefix(e, elen, 300);
	start = out->len;
	uk_buf_add(out, e, cut);
	/* One line, whatever the error held. */
	for (k = start; k < out->len; k++)
		if (out->buf[k] == '\n' || out->buf[k] == '\r' ||
		    out->buf[k] == '\0')
			out->buf[k] = ' ';
	if (cut < elen)
		uk_buf_addstr(out, "...");
	uk_buf_addch(out, ')');
}

/* A record's part of the context, and its share of the budget. */
struct piece {
	struct uk_buf text; /* the record formatted whole */
	size_t size;        /* text's length in the budget's unit */
	size_t hlen, hdr;   /* its "## URL" line: bytes, and in the unit */
	size_t give;        /* its share, at least hdr */
	int error;          /* a record left out for its error */
};

static size_t
units(const struct uk_summary_context *c, const char *s, size_t n)
{
	return c->max_tokens ? uk_tokens_count(UK_TOKENS_CL100K, s, n) :
			       uk_buf_utf8_chars(s, n);
}

/*
 * t[0..len) cut to at most max characters, with "..." and the closing
 * fence of a code block the cut leaves open counted in them.
 */
static void
cut_chars(const char *t, size_t len, size_t keep, size_t max,
    struct uk_buf *out)
{
	size_t c, f, need, room;
	char fch = '`';

	if (uk_buf_utf8_chars(t, len) <= max) {
		uk_buf_add(out, t, len);
		return;
	}
	if (max < 3) {
		uk_buf_add(out, t, keep);
		return;
	}
	room = max - 3;
	for (;;) {
		c = uk_buf_utf8_prefix(t, len, room);
		f = open_fence(t, c, &fch);
		need = uk_buf_utf8_chars(t, c) + 3 + (f ? f + 1 : 0);
		if (need <= max || !room)
			break;
		room = need - max >= room ? 0 : room - (need - max);
	}
	if (c < keep) {
		/* No room past the "## URL" line, which is kept whole. */
		uk_buf_add(out, t, keep);
		return;
	}
	uk_buf_add(out, t, c);
	uk_buf_addstr(out, "...");
	if (f) {
		uk_buf_addch(out, '\n');
		while (f--)
			uk_buf_addch(out, fch);
	}
}

/*
 * t[0..len) cut to its share of the budget: in characters directly; in
 * tokens, the longest cut in characters whose tokens fit, found by
 * bisection, since a token's length in characters varies.
 */
static void
cut_piece(const struct uk_summary_context *c, const struct piece *p,
    struct uk_buf *out)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t lo = 0, hi, mid, chars;

	if (p->size <= p->give) {
		uk_buf_add(out, p->text.buf, p->text.len);
		return;
	}
	if (!c->max_tokens) {
		cut_chars(p->text.buf, p->text.len, p->hlen, p->give, out);
		return;
	}
	chars = uk_buf_utf8_chars(p->text.buf, p->text.len);
	hi = chars;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		uk_buf_reset(&b);
		cut_chars(p->text.buf, p->text.len, p->hlen, mid, &b);
		if (units(c, b.buf, b.len) <= p->give)
			lo = mid;
		else
			hi = mid - 1;
	}
	cut_chars(p->text.buf, p->text.len, p->hlen, lo, out);
	uk_buf_release(&b);
}

static int
by_size(const void *a, const void *b)
{
	const struct piece *x = *(const struct piece *const *)a;
	const struct piece *y = *(const struct piece *const *)b;

	return x->size - x->hdr < y->size - y->hdr ? -1 :
						     x->size - x->hdr > y->size - y->hdr;
}

/* Share avail among pieces[0..m), over their "## URL" lines: from the
 * shortest up, each an equal share of what is left, the unused part
 * passed on. */
static void
share(struct piece *pieces, size_t m, size_t avail)
{
	struct piece **order = uk_util_xcalloc(m ? m : 1, sizeof(*order));
	size_t k;

	for (k = 0; k < m; k++)
		order[k] = &pieces[k];
	qsort(order, m, sizeof(*order), by_size);
	for (k = 0; k < m; k++) {
		size_t eq = avail / (m - k);
		size_t want = order[k]->size - order[k]->hdr;
		size_t g = want < eq ? want : eq;

		order[k]->give = order[k]->hdr + g;
		avail -= g;
	}
	free(order);
}

size_t
uk_summary_format_context(const yajl_val *recs, size_t n,
    struct uk_summary_context *c, struct uk_buf *out)
{
	struct uk_strset seen = UK_STRSET_INIT;
	struct piece *pieces = uk_util_xcalloc(n ? n : 1, sizeof(*pieces));
	const char *sep = c->separator ? c->separator : UK_SUMMARY_SEPARATOR;
	size_t budget = c->max_tokens ? c->max_tokens : c->max_chars;
	size_t i, m = 0, overhead, avail, total, tries;
	struct uk_buf b = UK_BUF_INIT;
	int k;

	c->took = c->errors = c->excluded_n = c->repeats = c->cut = 0;
	c->dropped = 0;
	for (i = 0; i < n; i++) {
		size_t ulen = 0;
		const char *url = uk_json_get_strn(recs[i], "url", &ulen);
		struct piece *p = &pieces[m];

		for (k = 0; url && c->excluded && c->excluded[k]; k++)
			if (strlen(c->excluded[k]) == ulen &&
			    !memcmp(c->excluded[k], url, ulen))
				break;
		if (url && c->excluded && c->excluded[k]) {
			c->excluded_n++;
			continue;
		}
		if (url && c->dedup && !uk_strset_add(&seen, url, ulen)) {
			c->repeats++;
			continue;
		}
		if (!url && !uk_json_get(recs[i], "error"))
			continue;
		uk_buf_init(&p->text, 0);
		if (uk_json_get(recs[i], "error")) {
			uk_summary_format_error(recs[i], &p->text);
			p->error = 1;
			c->errors++;
		} else {
			uk_summary_format_prompt(recs[i],
			    budget ? (size_t)-1 : 0, &p->text);
			c->took++;
		}
		m++;
	}
	uk_strset_release(&seen);

	/* Without a budget, each record as uk_summary_format_prompt cut it;
	 * with one, the shares, made smaller by what the whole is over (in
	 * tokens, the parts' counts need not add up to the whole's). */
	for (i = 0; i < m; i++) {
		struct piece *p = &pieces[i];
		const char *nl = memchr(p->text.buf, '\n', p->text.len);

		p->hlen = nl ? (size_t)(nl - p->text.buf) : p->text.len;
		p->size = budget ? units(c, p->text.buf, p->text.len) : 0;
		p->hdr = budget ? units(c, p->text.buf, p->hlen) : 0;
		if (p->hdr > p->size)
			p->hdr = p->size;
		p->give = p->size;
	}
	/* Each record keeps at least its "## URL" line: the last records
	 * go when the budget cannot hold every such line. */
	for (;;) {
		size_t lines = 0;

		overhead = m ? (m - 1) * units(c, sep, strlen(sep)) + 1 : 0;
		for (i = 0; i < m; i++)
			lines += pieces[i].hdr;
		if (!budget || !m || lines + overhead <= budget) {
			avail = budget > overhead + lines ?
			    budget - overhead - lines :
			    0;
			break;
		}
		m--;
		c->dropped++;
		if (pieces[m].error)
			c->errors--;
		else
			c->took--;
		uk_buf_release(&pieces[m].text);
	}
	for (tries = 0; m; tries++) {
		uk_buf_reset(&b);
		if (budget)
			share(pieces, m, avail);
		for (i = 0; i < m; i++) {
			if (i)
				uk_buf_addstr(&b, sep);
			cut_piece(c, &pieces[i], &b);
		}
		uk_buf_addch(&b, '\n');
		if (!budget)
			break;
		total = units(c, b.buf, b.len);
		if (total <= budget || !avail || tries >= 16)
			break;
		avail = total - budget >= avail ? 0 : avail - (total - budget);
	}
	for (i = 0; budget && i < m; i++)
		if (pieces[i].give < pieces[i].size)
			c->cut++;
	uk_buf_add(out, b.buf, b.len);
	uk_buf_release(&b);
	for (i = 0; i < m; i++)
		uk_buf_release(&pieces[i].text);
	free(pieces);
	return c->took;
}

int
uk_summary_write_offline(yajl_val rec, enum uk_summary_type t,
    struct uk_buf *out)
{
	struct doc d = { NULL, 0, 0 };
	struct out o;
	size_t tlen = 0, n;
	const char *text = uk_summary_offline_main_text(rec, &tlen), *title;

	if (!text && !uk_summary_offline_nonempty(rec, "title", NULL) &&
	    !uk_summary_offline_nonempty(rec, "description", NULL) &&
	    !uk_summary_offline_nonempty(rec, "symbol_map", NULL))
		return -1;
	o.b = out;
	o.start = out->len;
	o.limit = t == UK_SUMMARY_BRIEF ? 1500 : 3000;
	if (text)
		uk_summary_md_doc_parse(&d, text, tlen);
	if (uk_summary_offline_is_source(rec) && t != UK_SUMMARY_API &&
	    !uk_summary_offline_nonempty(rec, "readme", NULL))
		uk_summary_offline_source(rec, t, &o);
	else
		switch (t) {
		case UK_SUMMARY_USAGE:
			uk_summary_types_usage(rec, &d, &o);
			break;
		case UK_SUMMARY_API:
			uk_summary_types_api(rec, &d, &o);
			break;
		case UK_SUMMARY_ARCHITECTURE:
			uk_summary_types_architecture(rec, &d, &o);
			break;
		case UK_SUMMARY_EVALUATION:
			uk_summary_types_evaluation(rec, &d, &o);
			break;
		default:
			uk_summary_offline_brief(rec, &d, &o);
			break;
		}
	uk_summary_md_doc_release(&d);
	/* With nothing else to say, the title says what it is. */
	if (out->len == o.start &&
	    (title = uk_summary_offline_nonempty(rec, "title", &n)))
		uk_buf_add(out, title, n);
	/* Trim the trailing newlines; a summary is a string, not a file. */
	while (out->len > o.start &&
	    isspace((unsigned char)out->buf[out->len - 1]))
		uk_buf_setlen(out, out->len - 1);
	if (out->len == o.start)
		return -1;
	return 0;
}
