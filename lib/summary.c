/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "strset.h"
#include "summary.h"

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

/* Text helpers. */

static int
is_word(int c)
{
	return isalnum((unsigned char)c) || c == '_' || (c & 0x80);
}

static unsigned char lower_tab[256];

/*
 * Find stem in s[0..len) case-insensitively, starting a word.  With whole,
 * the match must also end a word, but for a plural "s".  Returns the
 * match or NULL.
 */
static const char *
word_find(const char *s, size_t len, const char *stem, int whole)
{
	size_t n = strlen(stem), i, e;
	unsigned char c0;

	if (!lower_tab['a'])
		for (i = 0; i < 256; i++)
			lower_tab[i] = (unsigned char)tolower((int)i);
	c0 = lower_tab[(unsigned char)stem[0]];
	if (n > len)
		return NULL;
	for (i = 0; i + n <= len; i++) {
		if (lower_tab[(unsigned char)s[i]] != c0)
			continue;
		if (i > 0 && is_word(s[i - 1]))
			continue;
		if (strncasecmp(s + i, stem, n))
			continue;
		e = i + n;
		if (whole) {
			if (e < len && (s[e] == 's' || s[e] == 'S'))
				e++;
			if (e < len && is_word(s[e]))
				continue;
		}
		return s + i;
	}
	return NULL;
}

/* "how", blanks, "to" ending a word. */
static int
has_how_to(const char *s)
{
	size_t len = strlen(s);
	const char *p = s, *q;

	while ((p = word_find(p, len - (size_t)(p - s), "how", 1))) {
		q = p + 3;
		if (isspace((unsigned char)*q)) {
			while (isspace((unsigned char)*q))
				q++;
			if (!strncasecmp(q, "to", 2) && !is_word(q[2]))
				return 1;
		}
		p += 3;
	}
	return 0;
}

static int
has_word(const char *s, const char *stem, int whole)
{
	return word_find(s, strlen(s), stem, whole) != NULL;
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

/*
 * The string at key when it holds more than blanks, its length (NUL bytes
 * included: "a\u0000b" is three bytes, and the summarisers read all three)
 * in *len when len is not NULL; else NULL.
 */
static const char *
nonempty_n(yajl_val rec, const char *key, size_t *len)
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

static const char *
nonempty(yajl_val rec, const char *key)
{
	return nonempty_n(rec, key, NULL);
}

enum uk_summary_type
uk_summary_select_record(yajl_val rec, const char *hint, char *reason,
    size_t size)
{
	return uk_summary_select(uk_json_get_str(rec, "url_type"),
	    nonempty(rec, "symbol_map") != NULL, hint, reason, size);
}

size_t
uk_utf8_chars(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

size_t
uk_utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (n == max)
				return i;
			n++;
		}
	}
	return len;
}

int
uk_summary_assemble(yajl_val rec, size_t max, struct uk_buf *out)
{
	static const struct {
		const char *key, *label;
	} parts[] = {
		{ "title", "Title: " },
		{ "description", "Description: " },
		{ "readme", "README:\n" },
		{ "symbol_map", "Symbol map:\n" },
		{ "content", "Content:\n" },
	};
	size_t start = out->len, i, cut, n;
	const char *s;

	if (!max)
		max = UK_SUMMARY_MAX_INPUT;
	if ((s = nonempty_n(rec, "url", &n))) {
		uk_buf_addstr(out, "URL: ");
		uk_buf_add(out, s, n);
	}
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(s = nonempty_n(rec, parts[i].key, &n)))
			continue;
		if (out->len > start)
			uk_buf_addstr(out, "\n\n");
		uk_buf_addstr(out, parts[i].label);
		uk_buf_add(out, s, n);
	}
	cut = uk_utf8_prefix(out->buf + start, out->len - start, max);
	if (start + cut < out->len) {
		uk_buf_setlen(out, start + cut);
		return 1;
	}
	return 0;
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
		p->text[i] = uk_xstrdup(builtin[i]);
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
		return uk_err_set(err, UK_EXIT_USAGE, "cannot read '%s': %s",
		    path, strerror(errno));
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		uk_buf_add_utf8(&b, chunk, n);
		if (b.len > (1UL << 20)) {
			fclose(fp);
			uk_buf_release(&b);
			return uk_err_set(err, UK_EXIT_USAGE,
			    "'%s': prompt longer than 1 MiB", path);
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		uk_buf_release(&b);
		return uk_err_set(err, UK_EXIT_USAGE, "cannot read '%s'", path);
	}
	fclose(fp);
	uk_buf_trim(&b);
	if (!b.len) {
		uk_buf_release(&b);
		return uk_err_set(err, UK_EXIT_USAGE, "'%s': empty prompt",
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
		p->text[i] = uk_xstrdup(s);
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

/*
 * The offline summariser.  A readme or page text is split into blocks
 * (headings, paragraphs, list items, code), each knowing the heading of
 * its section; each type picks from them.
 */

enum { B_HEAD, B_PARA, B_LIST, B_CODE };

struct block {
	int kind, level;
	const char *s; /* into the text; for B_CODE the code without fences */
	size_t len;
	const char *lang; /* B_CODE: the fence's info string, or "" */
	size_t langlen;
	int section; /* index of the heading block, or -1 */
};

struct doc {
	struct block *b;
	size_t n, alloc;
};

static void
doc_add(struct doc *d, int kind, int level, const char *s, size_t len,
    int section)
{
	struct block *b;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len)
		return;
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 64;
		d->b = uk_xrealloc(d->b, d->alloc * sizeof(*d->b));
	}
	b = &d->b[d->n++];
	b->kind = kind;
	b->level = level;
	b->s = s;
	b->len = len;
	b->lang = "";
	b->langlen = 0;
	b->section = section;
}

static size_t
line_end(const char *s, size_t pos, size_t len)
{
	const char *nl = memchr(s + pos, '\n', len - pos);

	return nl ? (size_t)(nl - s) : len;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A line made of one repeated character of set, 3 or more of it. */
static int
underline(const char *s, size_t n, const char *set)
{
	size_t i;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n < 3 || !strchr(set, s[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] != s[0])
			return 0;
	return 1;
}

static int
list_marker(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i + 1 < n && strchr("-*+", s[i]) && s[i + 1] == ' ')
		return (int)i + 2;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i > 0 && i + 1 < n && (s[i] == '.' || s[i] == ')') &&
	    s[i + 1] == ' ' && isdigit((unsigned char)s[0]))
		return (int)i + 2;
	return 0;
}

static int is_command(const char *s, size_t n);
static size_t letters(const char *s, size_t n);
static int is_import(const char *s, size_t n);

/* A line that reads as code rather than prose. */
static int
codey(const char *s, size_t n)
{
	char last;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (!n)
		return 0;
	if (is_import(s, n) || is_command(s, n))
		return 1;
	last = s[n - 1];
	if (last == '.' || last == ',' || last == '!' || last == '?')
		return 0;
	return strchr(");{}", last) || memmem(s, n, " = ", 3) ||
	    (n >= 2 && (!strncmp(s, "//", 2) || !strncmp(s, "/*", 2)));
}

/*
 * A paragraph of page text: plain-text headings (one short line with no
 * closing punctuation) and code (mostly code-like lines) are told apart
 * from prose, since extracted pages have no Markdown to say which.
 */
static void
add_para(struct doc *d, const char *s, size_t n, int *section)
{
	size_t pos = 0, lines = 0, code = 0, e;
	char last;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n)
		return;
	while (pos < n) {
		e = line_end(s, pos, n);
		lines++;
		code += codey(s + pos, e - pos) != 0;
		pos = e < n ? e + 1 : n;
	}
	last = s[n - 1];
	if (code * 5 >= lines * 3 && last != '.') {
		doc_add(d, B_CODE, 0, s, n, *section);
		return;
	}
	if (lines == 1 && n <= 80 && !strchr(".:!?;,)", last) &&
	    letters(s, n) * 2 > n &&
	    (isupper((unsigned char)s[0]) || (s[0] & 0x80) ||
		islower((unsigned char)s[0])) &&
	    !memchr(s, '(', n) && !memchr(s, '=', n) && !memchr(s, '[', n)) {
		doc_add(d, B_HEAD, d->n ? 2 : 1, s, n, *section);
		*section = (int)d->n - 1;
		return;
	}
	doc_add(d, B_PARA, 0, s, n, *section);
}

static void
doc_parse(struct doc *d, const char *s, size_t len)
{
	size_t pos = 0, e, para = 0, i;
	int in_para = 0, section = -1, prev_blank = 1;

#define END_PARA()                                                             \
	do {                                                                   \
		if (in_para)                                                   \
			add_para(d, s + para, pos - para, &section);           \
		in_para = 0;                                                   \
	} while (0)

	while (pos < len) {
		const char *l = s + pos;
		size_t n, ind = 0, next;
		int m;

		e = line_end(s, pos, len);
		n = e - pos;
		next = e < len ? e + 1 : len;
		while (ind < n && l[ind] == ' ')
			ind++;
		if (blank(l, n)) {
			END_PARA();
			prev_blank = 1;
			pos = next;
			continue;
		}
		/* Fenced code. */
		if (ind < 4 && n - ind >= 3 &&
		    (!strncmp(l + ind, "```", 3) ||
			!strncmp(l + ind, "~~~", 3))) {
			char fc = l[ind];
			size_t body, q;
			const char *info = l + ind;

			END_PARA();
			while (info < l + n && *info == fc)
				info++;
			while (info < l + n && *info == ' ')
				info++;
			body = next;
			q = body;
			while (q < len) {
				size_t qe = line_end(s, q, len), k = q;

				while (k < qe && s[k] == ' ')
					k++;
				if (qe - k >= 3 && s[k] == fc &&
				    s[k + 1] == fc && s[k + 2] == fc)
					break;
				q = qe < len ? qe + 1 : len;
			}
			doc_add(d, B_CODE, 0, s + body, q > body ? q - body : 0,
			    section);
			if (d->n && d->b[d->n - 1].kind == B_CODE &&
			    d->b[d->n - 1].s == s + body) {
				d->b[d->n - 1].lang = info;
				for (i = 0; info + i < l + n &&
				     !isspace((unsigned char)info[i]);
				     i++)
					;
				d->b[d->n - 1].langlen = i;
			}
			pos = q < len ? line_end(s, q, len) : len;
			pos = pos < len ? pos + 1 : len;
			prev_blank = 1;
			continue;
		}
		/* ATX heading. */
		if (ind < 4 && l[ind] == '#') {
			size_t h = ind;

			while (h < n && l[h] == '#')
				h++;
			if (h - ind <= 6 && (h == n || l[h] == ' ')) {
				int level = (int)(h - ind);
				size_t t = n;

				END_PARA();
				while (h < n && l[h] == ' ')
					h++;
				while (t > h &&
				    (l[t - 1] == '#' ||
					isspace((unsigned char)l[t - 1])))
					t--;
				doc_add(d, B_HEAD, level, l + h, t - h,
				    section);
				section = (int)d->n - 1;
				prev_blank = 1;
				pos = next;
				continue;
			}
		}
		/* Setext or reStructuredText underline of a one-line para. */
		if (in_para && underline(l, n, "=-~^*") &&
		    !memchr(s + para, '\n', pos - para - 1)) {
			in_para = 0;
			doc_add(d, B_HEAD, l[0] == '=' ? 1 : 2, s + para,
			    pos - para, section);
			section = (int)d->n - 1;
			prev_blank = 1;
			pos = next;
			continue;
		}
		/* Indented code after a blank line. */
		if ((ind >= 4 || l[0] == '\t') && !in_para && prev_blank) {
			size_t q = pos;

			while (q < len) {
				size_t qe = line_end(s, q, len);

				if (!blank(s + q, qe - q) && s[q] != '\t' &&
				    (qe - q < 4 || strncmp(s + q, "    ", 4)))
					break;
				q = qe < len ? qe + 1 : len;
			}
			doc_add(d, B_CODE, 0, s + pos, q - pos, section);
			pos = q;
			prev_blank = 1;
			continue;
		}
		if ((m = list_marker(l, n))) {
			size_t q = next;

			END_PARA();
			/* Continuation lines: indented, not a new item. */
			while (q < len) {
				size_t qe = line_end(s, q, len);

				if (blank(s + q, qe - q) || s[q] != ' ' ||
				    list_marker(s + q, qe - q))
					break;
				q = qe < len ? qe + 1 : len;
			}
			doc_add(d, B_LIST, 0, l + m, q - pos - (size_t)m,
			    section);
			pos = q;
			prev_blank = 0;
			continue;
		}
		if (!in_para) {
			in_para = 1;
			para = pos;
		}
		prev_blank = 0;
		pos = next;
	}
	END_PARA();
#undef END_PARA
}

/* The ']' that closes the '[' at s[i], counting nesting, or NULL. */
static const char *
close_bracket(const char *s, size_t i, size_t n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && --depth == 0)
			return s + i;
		else if (s[i] == '\n' && i + 1 < n && s[i + 1] == '\n')
			return NULL;
	}
	return NULL;
}

/*
 * Inline Markdown and HTML to plain text: images dropped, links to their
 * text, tags and emphasis removed, whitespace collapsed.
 */
static void
plain(const char *s, size_t n, struct uk_buf *out)
{
	size_t i = 0, start = out->len;
	int space = 0;

	while (i < n) {
		char c = s[i];

		if (c == '!' && i + 1 < n && s[i + 1] == '[') {
			/* Image: skip [alt](url). */
			const char *cb = close_bracket(s, i + 1, n);

			if (cb && (size_t)(cb - s) + 1 < n && cb[1] == '(') {
				const char *cp =
				    memchr(cb, ')', n - (size_t)(cb - s));

				if (cp) {
					i = (size_t)(cp - s) + 1;
					continue;
				}
			}
		}
		if (c == '[') {
			const char *cb = close_bracket(s, i, n);

			if (cb && (size_t)(cb - s) + 1 < n && cb[1] == '(' &&
			    memchr(cb, ')', n - (size_t)(cb - s))) {
				/* Link: keep the text, drop the target. */
				const char *cp =
				    memchr(cb, ')', n - (size_t)(cb - s));
				if (space && out->len > start)
					uk_buf_addch(out, ' ');
				plain(s + i + 1, (size_t)(cb - s) - i - 1, out);
				space = 0;
				i = (size_t)(cp - s) + 1;
				continue;
			}
		}
		if (c == '<') {
			const char *gt = memchr(s + i, '>', n - i);

			if (gt &&
			    (isalpha((unsigned char)s[i + 1]) ||
				s[i + 1] == '/' || s[i + 1] == '!')) {
				i = (size_t)(gt - s) + 1;
				space = 1;
				continue;
			}
		}
		if (c == '*' ||
		    (c == '_' &&
			(i == 0 || !is_word(s[i - 1]) || i + 1 >= n ||
			    !is_word(s[i + 1])))) {
			i++;
			continue;
		}
		if (isspace((unsigned char)c)) {
			space = 1;
			i++;
			continue;
		}
		if (space && out->len > start)
			uk_buf_addch(out, ' ');
		space = 0;
		uk_buf_addch(out, c);
		i++;
	}
}

/* Letters in s[0..n). */
static size_t
letters(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isalpha((unsigned char)s[i]) || (s[i] & 0x80))
			k++;
	return k;
}

/* The end of the sentence starting at s[0], within n. */
static size_t
sentence_end(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((s[i] == '.' || s[i] == '!' || s[i] == '?') &&
		    (i + 1 == n || s[i + 1] == ' ')) {
			size_t w = i;

			if (s[i] == '.') {
				/* e.g. i.e. etc. vs. and single letters. */
				while (w > 0 && s[w - 1] != ' ')
					w--;
				if (i - w <= 1 ||
				    !strncasecmp(s + w, "e.g", 3) ||
				    !strncasecmp(s + w, "i.e", 3) ||
				    !strncasecmp(s + w, "etc", 3) ||
				    !strncasecmp(s + w, "vs", 2) ||
				    (i + 2 < n &&
					islower((unsigned char)s[i + 2])))
					continue;
			}
			return i + 1;
		}
	}
	return n;
}

/* Output limits, in bytes: the summariser works on whole lines. */
struct out {
	struct uk_buf *b;
	size_t start, limit;
};

static int
full(const struct out *o)
{
	return o->b->len - o->start >= o->limit;
}

/* Append a line (with newline), cut to max bytes on a UTF-8 boundary. */
static void
out_line(struct out *o, const char *prefix, const char *s, size_t n, size_t max)
{
	if (n > max) {
		n = uk_utf8_cut(s, max);
		while (n && s[n - 1] != ' ')
			n--;
		if (!n)
			n = uk_utf8_cut(s, max);
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
static int
already(const struct out *o, const char *s, size_t n)
{
	return memmem(o->b->buf + o->start, o->b->len - o->start, s, n) != NULL;
}

static void
out_gap(struct out *o)
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
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
			return 1;
	return 0;
}

/* Which text a summary reads: the readme, else the content; *len its length. */
static const char *
main_text(yajl_val rec, size_t *len)
{
	const char *s = nonempty_n(rec, "readme", len);

	return s ? s : nonempty_n(rec, "content", len);
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
	plain(h->s, h->len, &t);
	for (i = 0; stems[i]; i++)
		if (word_find(t.buf, t.len, stems[i], 0) == t.buf) {
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
static int
lead(const struct doc *d, const char *skip, size_t skiplen, int max_para,
    int max_sent, struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t i;
	int paras = 0, sents = 0;

	for (i = 0;
	     i < d->n && paras < max_para && sents < max_sent && !full(o);
	     i++) {
		const struct block *b = &d->b[i];
		size_t pos = 0, took = 0;

		if (b->kind != B_PARA || boring_section(d, b->section))
			continue;
		uk_buf_reset(&t);
		plain(b->s, b->len, &t);
		if (t.len < 25 || letters(t.buf, t.len) < t.len / 2 ||
		    !memchr(t.buf, ' ', t.len))
			continue;
		if (skip && t.len <= skiplen + 2 &&
		    !memcasecmp(t.buf, skip, t.len > 2 ? t.len - 2 : t.len))
			continue; /* only repeats the description */
		out_gap(o);
		while (pos < t.len && sents < max_sent) {
			size_t e = sentence_end(t.buf + pos, t.len - pos);

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
		n = uk_utf8_cut(s, 40);
	for (i = 0; i + n <= tlen; i++)
		if (!memcasecmp(text + i, s, n))
			return 1;
	return 0;
}

/*
 * The description, when the text does not already say it.  (The title is
 * not repeated: it is a field of its own, and format_for_prompt shows it.)
 * Returns the description, its length in *said, when it was written, else
 * NULL.
 */
static const char *
header(yajl_val rec, struct out *o, int with_desc, size_t *said)
{
	size_t dlen = 0, tlen = 0;
	const char *desc = nonempty_n(rec, "description", &dlen);
	const char *text = main_text(rec, &tlen);

	if (desc && with_desc && !contained(text, tlen, desc, dlen)) {
		struct uk_buf t = UK_BUF_INIT;

		plain(desc, dlen, &t);
		out_gap(o);
		out_line(o, "", t.buf, t.len, 500);
		uk_buf_release(&t);
		*said = dlen;
		return desc;
	}
	return NULL;
}

/* Does the plain text of a heading match one of the stems? */
static int
heading_is(const struct doc *d, int section, const char *const *stems)
{
	struct uk_buf t = UK_BUF_INIT;
	int i, r = 0;

	if (section < 0)
		return 0;
	plain(d->b[section].s, d->b[section].len, &t);
	for (i = 0; stems[i] && !r; i++)
		r = word_find(t.buf, t.len, stems[i], 0) != NULL;
	uk_buf_release(&t);
	return r;
}

/* Any of the stems in s[0..n), at word starts: one pass over s. */
static int
mentions(const char *s, size_t n, const char *const *stems)
{
	size_t i, k;
	int j;

	if (!lower_tab['a'])
		for (i = 0; i < 256; i++)
			lower_tab[i] = (unsigned char)tolower((int)i);
	for (i = 0; i < n; i++) {
		unsigned char c = lower_tab[(unsigned char)s[i]];

		if (!is_word(s[i]) || (i > 0 && is_word(s[i - 1])))
			continue;
		for (j = 0; stems[j]; j++) {
			if ((unsigned char)stems[j][0] != c)
				continue;
			k = strlen(stems[j]);
			if (i + k <= n && !strncasecmp(s + i, stems[j], k))
				return 1;
		}
	}
	return 0;
}

static int
code_is_shell(const struct block *b)
{
	static const char *const langs[] = { "sh", "bash", "shell", "console",
		"zsh", "shell-session", "powershell", "cmd", "bat", NULL };
	int i;

	for (i = 0; langs[i]; i++)
		if (b->langlen == strlen(langs[i]) &&
		    !strncasecmp(b->lang, langs[i], b->langlen))
			return 1;
	return 0;
}

static const char *const install_cmds[] = { "pip install", "pip3 install",
	"pipx install", "uv add", "uv pip install", "poetry add", "npm install",
	"npm i ", "yarn add", "pnpm add", "cargo add", "cargo install",
	"go get", "go install", "gem install", "bundle add", "brew install",
	"apt install", "apt-get install", "dnf install", "yum install",
	"pacman -S", "apk add", "conda install", "composer require",
	"dotnet add", "nix-env", "make install", "cmake ", "./configure",
	"git clone", "docker run", "docker pull", "curl ", "wget ", NULL };

static int
is_command(const char *s, size_t n)
{
	int i;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (n >= 2 && (s[0] == '$' || s[0] == '%' || s[0] == '>') &&
	    s[1] == ' ')
		return 1;
	for (i = 0; install_cmds[i]; i++) {
		size_t k = strlen(install_cmds[i]);

		if (n >= k && !strncmp(s, install_cmds[i], k))
			return 1;
		if (n >= k + 5 && !strncmp(s, "sudo ", 5) &&
		    !strncmp(s + 5, install_cmds[i], k))
			return 1;
	}
	return 0;
}

static int
is_import(const char *s, size_t n)
{
	static const char *const starts[] = { "import ", "from ", "#include ",
		"#include<", "require ", "use ", "using ", "extern crate ",
		"library(", "@import ", NULL };
	int i;

	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	for (i = 0; starts[i]; i++) {
		size_t k = strlen(starts[i]);

		if (n > k && !strncmp(s, starts[i], k)) {
			if (!strcmp(starts[i], "from ") &&
			    !word_find(s, n, "import", 1))
				return 0;
			return 1;
		}
	}
	return (n > 10 && memmem(s, n, "= require(", 10)) ||
	    (n > 10 && memmem(s, n, "= import(", 9));
}

/* Append code (up to max_lines lines) in a fenced block. */
static void
out_code(struct out *o, const struct block *b, int max_lines)
{
	size_t pos = 0, ind = (size_t)-1;
	int lines = 0;

	/* Remove the common indentation of an indented block. */
	while (pos < b->len) {
		size_t e = line_end(b->s, pos, b->len), k = pos;

		while (k < e && b->s[k] == ' ')
			k++;
		if (k < e && k - pos < ind)
			ind = k - pos;
		pos = e < b->len ? e + 1 : b->len;
	}
	if (ind == (size_t)-1)
		ind = 0;
	out_gap(o);
	uk_buf_addstr(o->b, "```");
	uk_buf_add(o->b, b->lang, b->langlen);
	uk_buf_addch(o->b, '\n');
	pos = 0;
	while (pos < b->len) {
		size_t e = line_end(b->s, pos, b->len), k = pos + ind;

		if (lines++ == max_lines) {
			uk_buf_addstr(o->b, "...\n");
			break;
		}
		if (k > e)
			k = e;
		out_line(o, "", b->s + k, e - k, 160);
		pos = e < b->len ? e + 1 : b->len;
	}
	uk_buf_addstr(o->b, "```\n\n");
}

/* Write heading section of block b once (tracked by *last). */
static void
section_title(const struct doc *d, const struct block *b, int *last,
    struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;

	if (b->section == *last || b->section < 0)
		return;
	*last = b->section;
	plain(d->b[b->section].s, d->b[b->section].len, &t);
	out_gap(o);
	out_line(o, "## ", t.buf, t.len, 120);
	uk_buf_release(&t);
}

static void
first_sentence(const char *s, size_t n, struct uk_buf *t)
{
	size_t e;

	uk_buf_reset(t);
	plain(s, n, t);
	e = sentence_end(t->buf, t->len);
	uk_buf_setlen(t, e);
}

static int
summ_usage(yajl_val rec, const struct doc *d, struct out *o)
{
	static const char *const stems[] = { "install", "usage",
		"getting started", "get started", "quick", "example",
		"tutorial", "how to", "setup", "set up", "building",
		"build from", "download", "command line", "command-line", "cli",
		"synopsis", "configur", "basic usage", "running", NULL };
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf t = UK_BUF_INIT, imports = UK_BUF_INIT;
	size_t i, before, start, said;
	int last = -1, codes = 0, nimports = 0, found = 0, cmds = 0;

	header(rec, o, 0, &said);
	start = o->b->len;
	lead(d, NULL, 0, 1, 1, o);
	before = o->b->len;
	for (i = 0; i < d->n && !full(o); i++) {
		const struct block *b = &d->b[i];
		int in = heading_is(d, b->section, stems);
		size_t pos;

		if (b->kind == B_CODE) {
			/* Imports from any code block. */
			for (pos = 0; pos < b->len;) {
				size_t e = line_end(b->s, pos, b->len);

				if (nimports < 8 &&
				    is_import(b->s + pos, e - pos) &&
				    uk_strset_add(&seen, b->s + pos, e - pos)) {
					size_t k = pos;

					while (k < e &&
					    isspace((unsigned char)b->s[k]))
						k++;
					uk_buf_addstr(&imports, "- `");
					uk_buf_add(&imports, b->s + k, e - k);
					uk_buf_addstr(&imports, "`\n");
					nimports++;
				}
				pos = e < b->len ? e + 1 : b->len;
			}
			if (codes >= 6)
				continue;
			if (in || code_is_shell(b) ||
			    is_command(b->s, b->len)) {
				section_title(d, b, &last, o);
				out_code(o, b, 15);
				codes++;
				found = 1;
			}
			continue;
		}
		if (b->kind == B_HEAD || !in)
			continue;
		section_title(d, b, &last, o);
		first_sentence(b->s, b->len, &t);
		if (t.len)
			out_line(o, b->kind == B_LIST ? "- " : "", t.buf, t.len,
			    300);
		found = 1;
	}
	/* Commands written in running text, outside code blocks. */
	for (i = 0; i < d->n && !full(o) && codes < 6; i++) {
		const struct block *b = &d->b[i];
		const char *p, *q, *end = b->s + b->len;

		if (b->kind != B_PARA && b->kind != B_LIST)
			continue;
		for (p = b->s; (p = memchr(p, '`', (size_t)(end - p)));
		     p = q + 1) {
			if (!(q = memchr(p + 1, '`', (size_t)(end - p - 1))))
				break;
			if (q > p + 1 &&
			    is_command(p + 1, (size_t)(q - p - 1)) &&
			    uk_strset_add(&seen, p + 1, (size_t)(q - p - 1))) {
				if (!cmds++) {
					out_gap(o);
					uk_buf_addstr(o->b, "Commands:\n");
				}
				found = 1;
				out_line(o, "$ ", p + 1, (size_t)(q - p - 1),
				    200);
				codes++;
			}
		}
	}
	if (nimports) {
		out_gap(o);
		uk_buf_addstr(o->b, "Key imports:\n");
		uk_buf_add(o->b, imports.buf, imports.len);
	}
	if (!found && !nimports) {
		/* Nothing usage-like: the lead and the first code. */
		for (i = 0; i < d->n; i++)
			if (d->b[i].kind == B_CODE) {
				out_code(o, &d->b[i], 15);
				break;
			}
		if (o->b->len == before) {
			uk_buf_setlen(o->b, start);
			lead(d, NULL, 0, 2, 4, o);
		}
	}
	uk_strset_release(&seen);
	uk_buf_release(&t);
	uk_buf_release(&imports);
	return 0;
}

static const char *
skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Symbol-map decoration: "│", "⋮", "|", "..." at the start of a line. */
static const char *
undecorate(const char *s, const char *end)
{
	for (;;) {
		s = skip_blanks(s, end);
		if (end - s >= 3 && !memcmp(s, "\xe2\x94\x82", 3))
			s += 3; /* │ */
		else if (end - s >= 3 && !memcmp(s, "\xe2\x8b\xae", 3))
			s += 3; /* ⋮ */
		else if (s < end && *s == '|')
			s++;
		else
			return s;
	}
}

/* A file heading of a symbol map: unindented, ends in ':'. */
static int
map_file(const char *s, size_t n)
{
	return n > 1 && s[0] != ' ' && s[0] != '\t' && s[n - 1] == ':' &&
	    !memchr(s, '(', n) && !memchr(s, ' ', n) &&
	    memcmp(s, "\xe2\x94\x82", n < 3 ? n : 3) &&
	    memcmp(s, "\xe2\x8b\xae", n < 3 ? n : 3);
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
static int
is_signature(const char *s, size_t n)
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
	    (is_word(s[i]) || s[i] == '.' || s[i] == ':' || s[i] == '*' ||
		s[i] == ' ' || s[i] == '<' || s[i] == '>' || s[i] == ','))
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

		if (!strncmp(s, not_sig[k], w) && !is_word(s[w]))
			return 0;
	}
	return 1;
}

static int
summ_api(yajl_val rec, const struct doc *d, struct out *o)
{
	size_t i, said, maplen = 0;
	const char *map = nonempty_n(rec, "symbol_map", &maplen);
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf t = UK_BUF_INIT;
	int nsig = 0, files = 0;

	header(rec, o, 0, &said);
	lead(d, NULL, 0, 1, 1, o);
	if (map) {
		const char *p = map, *end = map + maplen, *e, *file = NULL;
		size_t filelen = 0;

		out_gap(o);
		uk_buf_addstr(o->b, "Signatures (symbol map):\n");
		for (; p < end && nsig < 60 && !full(o); p = e + 1) {
			const char *s;

			if (!(e = memchr(p, '\n', (size_t)(end - p))))
				e = end;
			if (map_file(p, (size_t)(e - p))) {
				file = p;
				filelen = (size_t)(e - p);
				continue;
			}
			s = undecorate(p, e);
			if (e - s < 3 || letters(s, (size_t)(e - s)) < 2 ||
			    !uk_strset_add(&seen, s, (size_t)(e - s)))
				continue;
			if (file) {
				out_line(o, "", file, filelen, 200);
				file = NULL;
				files++;
			}
			out_line(o, "  ", s, (size_t)(e - s), 160);
			nsig++;
			if (e == end)
				break;
		}
	}
	/* Signatures in the text: code lines, headings and definitions. */
	{
		size_t tlen = 0;
		const char *text = main_text(rec, &tlen);
		const char *p, *end, *e;
		int ntext = 0;

		if (text && nsig < 60) {
			end = text + tlen;
			for (p = text; p < end && ntext < 30 && !full(o);
			     p = e + 1) {
				const char *s;

				if (!(e = memchr(p, '\n', (size_t)(end - p))))
					e = end;
				s = skip_blanks(p, e);
				while (s < e &&
				    (*s == '#' || *s == '>' || *s == '`' ||
					*s == '*' || *s == ' '))
					s++;
				uk_buf_reset(&t);
				uk_buf_add(&t, s, (size_t)(e - s));
				while (t.len &&
				    (t.buf[t.len - 1] == '`' ||
					t.buf[t.len - 1] == '*' ||
					isspace(
					    (unsigned char)t.buf[t.len - 1])))
					uk_buf_setlen(&t, t.len - 1);
				if (is_signature(t.buf, t.len) &&
				    uk_strset_add(&seen, t.buf, t.len)) {
					if (!ntext++) {
						out_gap(o);
						uk_buf_addstr(o->b,
						    "Signatures (text):\n");
					}
					out_line(o, "  ", t.buf, t.len, 160);
				}
				if (e == end)
					break;
			}
			nsig += ntext;
		}
	}
	if (!nsig) {
		/* No signatures: the document's outline names its API. */
		int n = 0;

		for (i = 0; i < d->n && n < 30 && !full(o); i++) {
			if (d->b[i].kind != B_HEAD)
				continue;
			if (!n++) {
				out_gap(o);
				uk_buf_addstr(o->b, "Sections:\n");
			}
			uk_buf_reset(&t);
			plain(d->b[i].s, d->b[i].len, &t);
			out_line(o, "- ", t.buf, t.len, 120);
		}
		if (!n)
			lead(d, NULL, 0, 2, 4, o);
	}
	(void)files;
	uk_strset_release(&seen);
	uk_buf_release(&t);
	return 0;
}

/* Directory part of a path: "src/lib/a.c" -> "src/lib/". */
static size_t
dirlen(const char *s, size_t n)
{
	while (n && s[n - 1] != '/')
		n--;
	return n;
}

static int
summ_architecture(yajl_val rec, const struct doc *d, struct out *o)
{
	static const char *const design[] = { "architect", "design", "module",
		"component", "layer", "pipeline", "data flow", "dataflow",
		"backend", "frontend", "plugin", "core", "engine", "parser",
		"runtime", "abstraction", "subsystem", "library", "daemon",
		"server", "client", "interface", NULL };
	size_t i, said = 0, maplen = 0;
	const char *map = nonempty_n(rec, "symbol_map", &maplen);
	const char *desc;
	struct uk_buf t = UK_BUF_INIT;
	int heads = 0, notes = 0;

	desc = header(rec, o, 1, &said);
	lead(d, desc, said, 1, 2, o);
	if (map) {
		/* Files grouped by directory, in the map's order of rank. */
		const char *p = map, *end = map + maplen, *e;
		struct {
			const char *dir;
			size_t dlen;
			struct uk_buf files;
			int n, syms;
		} dirs[24];
		int ndirs = 0, k, cur = -1;

		for (; p < end; p = e + 1) {
			size_t n;

			if (!(e = memchr(p, '\n', (size_t)(end - p))))
				e = end;
			n = (size_t)(e - p);
			if (!map_file(p, n)) {
				const char *s = undecorate(p, e);

				if (cur >= 0 && e - s > 2)
					dirs[cur].syms++;
				if (e == end)
					break;
				continue;
			}
			n--; /* the ':' */
			{
				size_t dl = dirlen(p, n);

				for (k = 0; k < ndirs; k++)
					if (dirs[k].dlen == dl &&
					    !memcmp(dirs[k].dir, p, dl))
						break;
				if (k == ndirs && ndirs < 24) {
					dirs[k].dir = p;
					dirs[k].dlen = dl;
					uk_buf_init(&dirs[k].files, 0);
					dirs[k].n = dirs[k].syms = 0;
					ndirs++;
				}
				cur = k < ndirs ? k : -1;
				if (cur >= 0) {
					if (dirs[k].n < 8) {
						if (dirs[k].n)
							uk_buf_addstr(
							    &dirs[k].files,
							    ", ");
						uk_buf_add(&dirs[k].files,
						    p + dl, n - dl);
					}
					dirs[k].n++;
				}
			}
			if (e == end)
				break;
		}
		if (ndirs) {
			out_gap(o);
			uk_buf_addstr(o->b, "Modules (symbol map):\n");
		}
		for (k = 0; k < ndirs; k++) {
			uk_buf_addf(o->b, "- %.*s: %d file%s, %d symbol%s (",
			    dirs[k].dlen ? (int)dirs[k].dlen : 2,
			    dirs[k].dlen ? dirs[k].dir : "./", dirs[k].n,
			    dirs[k].n == 1 ? "" : "s", dirs[k].syms,
			    dirs[k].syms == 1 ? "" : "s");
			uk_buf_add(o->b, dirs[k].files.buf, dirs[k].files.len);
			uk_buf_addstr(o->b, dirs[k].n > 8 ? ", ...)\n" : ")\n");
			uk_buf_release(&dirs[k].files);
		}
	}
	for (i = 0; i < d->n && heads < 30 && !full(o); i++) {
		const struct block *b = &d->b[i];

		if (b->kind != B_HEAD)
			continue;
		if (!heads++) {
			out_gap(o);
			uk_buf_addstr(o->b, "Outline:\n");
		}
		uk_buf_reset(&t);
		plain(b->s, b->len, &t);
		{
			int lv;

			for (lv = 1; lv < b->level && lv < 6; lv++)
				uk_buf_addstr(o->b, "  ");
		}
		out_line(o, "- ", t.buf, t.len, 120);
	}
	for (i = 0; i < d->n && notes < 5 && !full(o); i++) {
		const struct block *b = &d->b[i];
		size_t pos = 0;

		if (b->kind != B_PARA && b->kind != B_LIST)
			continue;
		uk_buf_reset(&t);
		plain(b->s, b->len, &t);
		while (pos < t.len && notes < 5) {
			size_t e = sentence_end(t.buf + pos, t.len - pos);

			if (mentions(t.buf + pos, e, design) && e > 30 &&
			    t.buf[pos + e - 1] != ':' &&
			    !already(o, t.buf + pos, e) && (i > 0 || pos > 0)) {
				if (!notes++) {
					out_gap(o);
					uk_buf_addstr(o->b, "Design notes:\n");
				}
				out_line(o, "- ", t.buf + pos, e, 300);
			}
			pos += e;
			while (pos < t.len && t.buf[pos] == ' ')
				pos++;
		}
	}
	uk_buf_release(&t);
	return 0;
}

static int
summ_evaluation(yajl_val rec, const struct doc *d, struct out *o)
{
	static const char *const gh_keys[] = { "stars", "stargazers_count",
		"forks", "forks_count", "watchers", "open_issues",
		"open_issues_count", "license", "language", "archived",
		"created_at", "pushed_at", "updated_at", "latest_release",
		"default_branch", NULL };
	static const char *const maturity[] = { "licen", "version", "release",
		"stable", "beta", "alpha", "experimental", "deprecat",
		"maintain", "unmaintained", "archived", "production", "mature",
		"changelog", "semver", "test", "coverage",
		"continuous integration", "ci", "build status", "downloads",
		"used by", "roadmap", "status", NULL };
	static const char *const deps[] = { "requir", "depend", "prerequisit",
		"needs ", "compatib", "support", NULL };
	static const char *const alt[] = { "alternative", "compar", "unlike",
		"similar to", "vs", "versus", "inspired by", "faster than",
		"slower than", "benchmark", "instead of", "replacement for",
		"drop-in", "competitor", NULL };
	static const char *const how_heads[] = { "install", "usage",
		"getting started", "quick", "example", "tutorial", NULL };
	static const char *const dep_heads[] = { "requirement", "dependenc",
		"prerequisit", "compatib", "supported", "platform", NULL };
	yajl_val gh = uk_json_get(rec, "github_info");
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf t = UK_BUF_INIT;
	size_t i, said = 0, tlen = 0;
	const char *text = main_text(rec, &tlen), *desc;
	struct uk_buf *pl;
	char *how, *dep;
	int n, pass;

	desc = header(rec, o, 1, &said);
	lead(d, desc, said, 1, 1, o);
	/* Facts from github_info and from badges' alt text. */
	n = 0;
	if (gh && YAJL_IS_OBJECT(gh)) {
		int k;

		for (k = 0; gh_keys[k]; k++) {
			yajl_val v = uk_json_get(gh, gh_keys[k]);
			const char *s = NULL;
			size_t sl = 0;

			if (!v)
				continue;
			if (YAJL_IS_STRING(v)) {
				s = v->u.string;
				sl = uk_json_strlen(v);
			} else if (YAJL_IS_NUMBER(v)) {
				s = v->u.number.r;
			} else if (YAJL_IS_TRUE(v)) {
				s = "true";
			} else if (YAJL_IS_FALSE(v)) {
				s = "false";
			} else if (YAJL_IS_OBJECT(v)) {
				if (!(s = uk_json_get_strn(v, "spdx_id", &sl)))
					s = uk_json_get_strn(v, "name", &sl);
			}
			if (s && !sl)
				sl = strlen(s);
			if (!s || !sl)
				continue;
			if (!n++) {
				out_gap(o);
				uk_buf_addstr(o->b, "Facts:\n");
			}
			uk_buf_addf(o->b, "- %s: ", gh_keys[k]);
			out_line(o, "", s, sl, 120);
		}
	}
	if (text) {
		const char *p = text, *end = text + tlen;

		while (n < 12 && (p = memmem(p, (size_t)(end - p), "![", 2))) {
			const char *cb = memchr(p, ']', (size_t)(end - p));

			if (!cb || cb - p > 120)
				break;
			if (cb > p + 2 &&
			    letters(p + 2, (size_t)(cb - p - 2)) > 2 &&
			    uk_strset_add(&seen, p + 2, (size_t)(cb - p - 2))) {
				if (!n++) {
					out_gap(o);
					uk_buf_addstr(o->b, "Facts:\n");
				}
				out_line(o, "- badge: ", p + 2,
				    (size_t)(cb - p - 2), 120);
			}
			p = cb;
		}
	}
	/*
	 * Sentences: maturity, dependencies, alternatives.  Each block's
	 * plain text and its section's kind are worked out once, not per
	 * pass.
	 */
	pl = uk_xmalloc((d->n ? d->n : 1) * sizeof(*pl));
	how = uk_xmalloc(d->n ? d->n : 1);
	dep = uk_xmalloc(d->n ? d->n : 1);
	for (i = 0; i < d->n; i++) {
		const struct block *b = &d->b[i];

		uk_buf_init(&pl[i], 0);
		if (i > 0 && b->section == d->b[i - 1].section) {
			how[i] = how[i - 1];
			dep[i] = dep[i - 1];
		} else {
			how[i] = (char)heading_is(d, b->section, how_heads);
			dep[i] = (char)heading_is(d, b->section, dep_heads);
		}
		if (b->kind == B_CODE)
			uk_buf_add(&pl[i], b->s, line_end(b->s, 0, b->len));
		else if (b->kind != B_HEAD)
			plain(b->s, b->len, &pl[i]);
	}
	for (pass = 0; pass < 3; pass++) {
		static const char *const titles[] = { "Maturity:\n",
			"Dependencies:\n", "Alternatives and comparisons:\n" };
		const char *const *stems = pass == 0 ? maturity :
		    pass == 1                        ? deps :
						       alt;
		int got = 0;

		for (i = 0; i < d->n && got < 6 && !full(o); i++) {
			const struct block *b = &d->b[i];
			const struct uk_buf *tb = &pl[i];
			size_t pos = 0;
			int dep_section = pass == 1 && dep[i];

			if (b->kind == B_HEAD || (pass != 1 && how[i]))
				continue;
			if (b->kind == B_CODE && !dep_section)
				continue;
			while (pos < tb->len && got < 6) {
				size_t e =
				    sentence_end(tb->buf + pos, tb->len - pos);

				if ((dep_section ||
					mentions(tb->buf + pos, e, stems)) &&
				    e > 12 && tb->buf[pos + e - 1] != ':' &&
				    !already(o, tb->buf + pos, e) &&
				    letters(tb->buf + pos, e) > e / 2 &&
				    uk_strset_add(&seen, tb->buf + pos, e)) {
					if (!got++) {
						out_gap(o);
						uk_buf_addstr(o->b,
						    titles[pass]);
					}
					out_line(o, "- ", tb->buf + pos, e,
					    300);
				}
				pos += e;
				while (pos < tb->len && tb->buf[pos] == ' ')
					pos++;
				if (dep_section && b->kind != B_PARA)
					break;
			}
		}
	}
	for (i = 0; i < d->n; i++)
		uk_buf_release(&pl[i]);
	free(pl);
	free(how);
	free(dep);
	uk_strset_release(&seen);
	uk_buf_release(&t);
	return 0;
}

static int
summ_brief(yajl_val rec, const struct doc *d, struct out *o)
{
	size_t said = 0;
	const char *desc = header(rec, o, 1, &said);

	if (!lead(d, desc, said, 3, 8, o)) {
		/* No paragraphs: the first sentences of the raw text. */
		size_t tlen = 0;
		const char *text = main_text(rec, &tlen);
		struct uk_buf t = UK_BUF_INIT;

		if (text) {
			size_t pos = 0, e;
			int k;

			plain(text, tlen < 4000 ? tlen : 4000, &t);
			uk_buf_setlen(&t, uk_utf8_cut(t.buf, t.len));
			out_gap(o);
			for (k = 0; k < 4 && pos < t.len; k++) {
				e = sentence_end(t.buf + pos, t.len - pos);
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
static int
is_source(yajl_val rec)
{
	static const char *const prose[] = { ".md", ".markdown", ".rst", ".txt",
		".adoc", ".org", ".html", ".htm", NULL };
	const char *type = uk_json_get_str(rec, "url_type");
	size_t n = 0, k;
	const char *url = uk_json_get_strn(rec, "url", &n);
	int i;

	if (!type || strcmp(type, "github_file") || !url ||
	    !nonempty(rec, "content"))
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

	s = skip_blanks(s, e);
	if (s < e && *s == '*' && (s + 1 == e || s[1] != '/'))
		return skip_blanks(s + 1, e);
	for (i = 0; marks[i]; i++) {
		size_t k = strlen(marks[i]);

		if ((size_t)(e - s) < k || strncmp(s, marks[i], k))
			continue;
		if (marks[i][0] == '#' && e - s > 1 &&
		    (s[1] == '!' || isalpha((unsigned char)s[1])))
			return NULL; /* #!, #include, #define */
		return skip_blanks(s + k, e);
	}
	return NULL;
}

static int
summ_source(yajl_val rec, enum uk_summary_type t, struct out *o)
{
	size_t tlen = 0, said;
	const char *text = nonempty_n(rec, "content", &tlen);
	const char *p, *e, *end = text + tlen, *c, *ce;
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf doc = UK_BUF_INIT, line = UK_BUF_INIT;
	int ndef = 0, nimp = 0, pass;

	header(rec, o, 1, &said);
	/* The leading comment: what the file says it is. */
	for (p = text; p < end; p = e + 1) {
		if (!(e = memchr(p, '\n', (size_t)(end - p))))
			e = end;
		c = comment_text(p, e);
		if (!c) {
			if (doc.len && !blank(p, (size_t)(e - p)) &&
			    !is_import(p, (size_t)(e - p)) &&
			    strncmp(skip_blanks(p, e), "package ", 8))
				break;
			continue;
		}
		if (word_find(c, (size_t)(e - c), "spdx", 0) ||
		    word_find(c, (size_t)(e - c), "copyright", 0) ||
		    letters(c, (size_t)(e - c)) == 0)
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
		out_gap(o);
		out_line(o, "", doc.buf, doc.len, 700);
	}
	/* Imports (the dependencies), then top-level definitions. */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0 && t == UK_SUMMARY_BRIEF)
			continue;
		for (p = text; p < end && !full(o); p = e + 1) {
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
			ls = skip_blanks(line.buf, line.buf + line.len);
			if (pass == 0 && nimp < 12 && is_import(p, n) &&
			    uk_strset_add(&seen, line.buf, line.len)) {
				if (!nimp++) {
					out_gap(o);
					uk_buf_addstr(o->b,
					    t == UK_SUMMARY_USAGE ?
						"Imports:\n" :
						"Dependencies (imports):\n");
				}
				out_line(o, "- ", ls,
				    (size_t)(line.buf + line.len - ls), 160);
			}
			if (pass == 1 && ndef < 25 && p[0] != ' ' &&
			    p[0] != '\t' && is_signature(line.buf, line.len) &&
			    uk_strset_add(&seen, line.buf, line.len)) {
				if (!ndef++) {
					out_gap(o);
					uk_buf_addstr(o->b, "Definitions:\n");
				}
				out_line(o, "- ", line.buf, line.len, 160);
			}
		}
	}
	uk_strset_release(&seen);
	uk_buf_release(&doc);
	uk_buf_release(&line);
	return 0;
}

int
uk_summary_offline(yajl_val rec, enum uk_summary_type t, struct uk_buf *out)
{
	struct doc d = { NULL, 0, 0 };
	struct out o;
	size_t tlen = 0, n;
	const char *text = main_text(rec, &tlen), *title;

	if (!text && !nonempty(rec, "title") && !nonempty(rec, "description") &&
	    !nonempty(rec, "symbol_map"))
		return -1;
	o.b = out;
	o.start = out->len;
	o.limit = t == UK_SUMMARY_BRIEF ? 1500 : 3000;
	if (text)
		doc_parse(&d, text, tlen);
	if (is_source(rec) && t != UK_SUMMARY_API && !nonempty(rec, "readme"))
		summ_source(rec, t, &o);
	else
		switch (t) {
		case UK_SUMMARY_USAGE:
			summ_usage(rec, &d, &o);
			break;
		case UK_SUMMARY_API:
			summ_api(rec, &d, &o);
			break;
		case UK_SUMMARY_ARCHITECTURE:
			summ_architecture(rec, &d, &o);
			break;
		case UK_SUMMARY_EVALUATION:
			summ_evaluation(rec, &d, &o);
			break;
		default:
			summ_brief(rec, &d, &o);
			break;
		}
	free(d.b);
	/* With nothing else to say, the title says what it is. */
	if (out->len == o.start && (title = nonempty_n(rec, "title", &n)))
		uk_buf_add(out, title, n);
	/* Trim the trailing newlines; a summary is a string, not a file. */
	while (out->len > o.start &&
	    isspace((unsigned char)out->buf[out->len - 1]))
		uk_buf_setlen(out, out->len - 1);
	if (out->len == o.start)
		return -1;
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

void
uk_summary_format_prompt(yajl_val rec, size_t max, struct uk_buf *out)
{
	size_t ulen = 0, tlen = 0, len = 0, n = 0;
	const char *url = uk_json_get_strn(rec, "url", &ulen);
	const char *title = nonempty_n(rec, "title", &tlen);
	const char *body = nonempty_n(rec, "summary", &len);
	const char *map = nonempty_n(rec, "symbol_map", &n);

	if (!max)
		max = UK_SUMMARY_PROMPT_MAX;
	if (!body)
		body = nonempty_n(rec, "readme", &len);
	if (!body)
		body = nonempty_n(rec, "content", &len);
	uk_buf_addstr(out, "## ");
	if (url)
		uk_buf_add(out, url, ulen);
	if (title) {
		uk_buf_addstr(out, "\n\n**");
		uk_buf_add(out, title, tlen);
		uk_buf_addstr(out, "**");
	}
	if (body) {
		size_t cut = uk_utf8_prefix(body, len, max);

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

size_t
uk_summary_format_context(const yajl_val *recs, size_t n,
    const char *const *excluded, size_t max, struct uk_buf *out)
{
	struct uk_strset seen = UK_STRSET_INIT;
	size_t i, took = 0;
	int k;

	for (i = 0; i < n; i++) {
		size_t ulen = 0;
		const char *url = uk_json_get_strn(recs[i], "url", &ulen);

		if (uk_json_get(recs[i], "error") || !url)
			continue;
		for (k = 0; excluded && excluded[k]; k++)
			if (strlen(excluded[k]) == ulen &&
			    !memcmp(excluded[k], url, ulen))
				break;
		if (excluded && excluded[k])
			continue;
		if (!uk_strset_add(&seen, url, ulen))
			continue;
		if (took++)
			uk_buf_addstr(out, UK_SUMMARY_SEPARATOR);
		uk_summary_format_prompt(recs[i], max, out);
	}
	uk_strset_release(&seen);
	return took;
}
