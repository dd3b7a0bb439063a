/* SPDX-License-Identifier: MIT */
/*
 * The offline summariser's Markdown reader (summary_int.h): a readme or
 * page text as blocks, inline Markdown to plain text, and the word and
 * sentence helpers the summaries use.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "summary_int.h"
#include "util.h"

#include "banned.h"

int
uk_summary_md_is_word(int c)
{
	return isalnum((unsigned char)c) || c == '_' || (c & 0x80);
}

/* ASCII lower case (tolower in the C locale, without a table to fill). */
static inline unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/*
 * Find stem in s[0..len) case-insensitively, starting a word.  With whole,
 * the match must also end a word, but for a plural "s".  Returns the
 * match or NULL.
 */
const char *
uk_summary_md_word_find(const char *s, size_t len, const char *stem, int whole)
{
	size_t n = strlen(stem), i, e;
	unsigned char c0;

	c0 = lower((unsigned char)stem[0]);
	if (n > len)
		return NULL;
	for (i = 0; i + n <= len; i++) {
		if (lower((unsigned char)s[i]) != c0)
			continue;
		if (i > 0 && uk_summary_md_is_word(s[i - 1]))
			continue;
		if (strncasecmp(s + i, stem, n))
			continue;
		e = i + n;
		if (whole) {
			if (e < len && (s[e] == 's' || s[e] == 'S'))
				e++;
			if (e < len && uk_summary_md_is_word(s[e]))
				continue;
		}
		return s + i;
	}
	return NULL;
}

/* Any of the stems in s[0..n), at word starts: one pass over s. */
int
uk_summary_md_mentions(const char *s, size_t n, const char *const *stems)
{
	size_t i, k;
	int j;

	for (i = 0; i < n; i++) {
		unsigned char c = lower((unsigned char)s[i]);

		if (!uk_summary_md_is_word(s[i]) ||
		    (i > 0 && uk_summary_md_is_word(s[i - 1])))
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

/* Letters in s[0..n). */
size_t
uk_summary_md_letters(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isalpha((unsigned char)s[i]) || (s[i] & 0x80))
			k++;
	return k;
}

/* The end of the sentence starting at s[0], within n. */
size_t
uk_summary_md_sentence_end(const char *s, size_t n)
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

size_t
uk_summary_md_line_end(const char *s, size_t pos, size_t len)
{
	const char *nl = memchr(s + pos, '\n', len - pos);

	return nl ? (size_t)(nl - s) : len;
}

int
uk_summary_md_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

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
		d->b = uk_util_xrealloc(d->b, d->alloc * sizeof(*d->b));
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

static const char *const install_cmds[] = { "pip install", "pip3 install",
	"pipx install", "uv add", "uv pip install", "poetry add", "npm install",
	"npm i ", "yarn add", "pnpm add", "cargo add", "cargo install",
	"go get", "go install", "gem install", "bundle add", "brew install",
	"apt install", "apt-get install", "dnf install", "yum install",
	"pacman -S", "apk add", "conda install", "composer require",
	"dotnet add", "nix-env", "make install", "cmake ", "./configure",
	"git clone", "docker run", "docker pull", "curl ", "wget ", NULL };

int
uk_summary_md_is_command(const char *s, size_t n)
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

int
uk_summary_md_is_import(const char *s, size_t n)
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
			    !uk_summary_md_word_find(s, n, "import", 1))
				return 0;
			return 1;
		}
	}
	return (n > 10 && memmem(s, n, "= require(", 10)) ||
	    (n > 10 && memmem(s, n, "= import(", 9));
}

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
	if (uk_summary_md_is_import(s, n) || uk_summary_md_is_command(s, n))
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
		e = uk_summary_md_line_end(s, pos, n);
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
	    uk_summary_md_letters(s, n) * 2 > n &&
	    (isupper((unsigned char)s[0]) || (s[0] & 0x80) ||
		islower((unsigned char)s[0])) &&
	    !memchr(s, '(', n) && !memchr(s, '=', n) && !memchr(s, '[', n)) {
		doc_add(d, B_HEAD, d->n ? 2 : 1, s, n, *section);
		*section = (int)d->n - 1;
		return;
	}
	doc_add(d, B_PARA, 0, s, n, *section);
}

/*
 * The reader's place in the text s[0..len): the line at pos, and the
 * paragraph being gathered since para.  Each rule below looks at the line
 * at pos (l[0..n), ind leading spaces, the next line at next); one that
 * takes it (and maybe lines after it) moves pos on and returns 1.
 */
struct reader {
	struct doc *d;
	const char *s;
	size_t len, pos, para;
	int in_para;    /* a paragraph is open, since para */
	int section;    /* the heading block lines are under, or -1 */
	int prev_blank; /* the line before pos ended a block */
};

/* Close the open paragraph, which ends before pos. */
static void
end_para(struct reader *r)
{
	if (r->in_para)
		add_para(r->d, r->s + r->para, r->pos - r->para, &r->section);
	r->in_para = 0;
}

/* Fenced code: ``` or ~~~, up to the closing fence or the end. */
static int
rule_fence(struct reader *r, size_t n, size_t ind, size_t next)
{
	const char *s = r->s, *l = s + r->pos, *info = l + ind;
	size_t len = r->len, body = next, q = next, qe, k, i;
	struct block *b;
	char fc = l[ind];

	if (ind >= 4 || n - ind < 3 ||
	    (strncmp(l + ind, "```", 3) && strncmp(l + ind, "~~~", 3)))
		return 0;
	end_para(r);
	while (info < l + n && *info == fc)
		info++;
	while (info < l + n && *info == ' ')
		info++;
	for (; q < len; q = qe < len ? qe + 1 : len) {
		qe = uk_summary_md_line_end(s, q, len);
		for (k = q; k < qe && s[k] == ' '; k++)
			;
		if (qe - k >= 3 && s[k] == fc && s[k + 1] == fc &&
		    s[k + 2] == fc)
			break;
	}
	doc_add(r->d, B_CODE, 0, s + body, q > body ? q - body : 0, r->section);
	b = r->d->n ? &r->d->b[r->d->n - 1] : NULL;
	if (b && b->kind == B_CODE && b->s == s + body) {
		b->lang = info;
		for (i = 0;
		     info + i < l + n && !isspace((unsigned char)info[i]); i++)
			;
		b->langlen = i;
	}
	r->pos = q < len ? uk_summary_md_line_end(s, q, len) : len;
	r->pos = r->pos < len ? r->pos + 1 : len;
	r->prev_blank = 1;
	return 1;
}

/* An ATX heading: one to six '#', a space or the end of the line. */
static int
rule_atx(struct reader *r, size_t n, size_t ind, size_t next)
{
	const char *l = r->s + r->pos;
	size_t h = ind, t = n;
	int level;

	if (ind >= 4 || l[ind] != '#')
		return 0;
	while (h < n && l[h] == '#')
		h++;
	if (h - ind > 6 || (h < n && l[h] != ' '))
		return 0;
	level = (int)(h - ind);
	end_para(r);
	while (h < n && l[h] == ' ')
		h++;
	while (t > h && (l[t - 1] == '#' || isspace((unsigned char)l[t - 1])))
		t--;
	doc_add(r->d, B_HEAD, level, l + h, t - h, r->section);
	r->section = (int)r->d->n - 1;
	r->prev_blank = 1;
	r->pos = next;
	return 1;
}

/* A Setext or reStructuredText underline of a one-line paragraph. */
static int
rule_underline(struct reader *r, size_t n, size_t next)
{
	const char *s = r->s, *l = s + r->pos;
	size_t para = r->para;

	if (!r->in_para || !underline(l, n, "=-~^*") ||
	    memchr(s + para, '\n', r->pos - para - 1))
		return 0;
	r->in_para = 0;
	doc_add(r->d, B_HEAD, l[0] == '=' ? 1 : 2, s + para, r->pos - para,
	    r->section);
	r->section = (int)r->d->n - 1;
	r->prev_blank = 1;
	r->pos = next;
	return 1;
}

/* Indented code after a blank line: lines of four spaces or a tab. */
static int
rule_indented(struct reader *r, size_t ind)
{
	const char *s = r->s;
	size_t q = r->pos, qe;

	if ((ind < 4 && s[r->pos] != '\t') || r->in_para || !r->prev_blank)
		return 0;
	for (; q < r->len; q = qe < r->len ? qe + 1 : r->len) {
		qe = uk_summary_md_line_end(s, q, r->len);
		if (!uk_summary_md_blank(s + q, qe - q) && s[q] != '\t' &&
		    (qe - q < 4 || strncmp(s + q, "    ", 4)))
			break;
	}
	doc_add(r->d, B_CODE, 0, s + r->pos, q - r->pos, r->section);
	r->pos = q;
	r->prev_blank = 1;
	return 1;
}

/* A list item, with its continuation lines: indented, not a new item. */
static int
rule_list(struct reader *r, size_t n, size_t next)
{
	const char *s = r->s, *l = s + r->pos;
	size_t q = next, qe;
	int m = list_marker(l, n);

	if (!m)
		return 0;
	end_para(r);
	for (; q < r->len; q = qe < r->len ? qe + 1 : r->len) {
		qe = uk_summary_md_line_end(s, q, r->len);
		if (uk_summary_md_blank(s + q, qe - q) || s[q] != ' ' ||
		    list_marker(s + q, qe - q))
			break;
	}
	doc_add(r->d, B_LIST, 0, l + m, q - r->pos - (size_t)m, r->section);
	r->pos = q;
	r->prev_blank = 0;
	return 1;
}

void
uk_summary_md_doc_parse(struct doc *d, const char *s, size_t len)
{
	struct reader r = { d, s, len, 0, 0, 0, -1, 1 };

	while (r.pos < len) {
		const char *l = s + r.pos;
		size_t e = uk_summary_md_line_end(s, r.pos, len), n = e - r.pos;
		size_t next = e < len ? e + 1 : len, ind = 0;

		while (ind < n && l[ind] == ' ')
			ind++;
		if (uk_summary_md_blank(l, n)) {
			end_para(&r);
			r.prev_blank = 1;
			r.pos = next;
			continue;
		}
		if (rule_fence(&r, n, ind, next) ||
		    rule_atx(&r, n, ind, next) || rule_underline(&r, n, next) ||
		    rule_indented(&r, ind) || rule_list(&r, n, next))
			continue;
		/* A line of the paragraph. */
		if (!r.in_para) {
			r.in_para = 1;
			r.para = r.pos;
		}
		r.prev_blank = 0;
		r.pos = next;
	}
	end_para(&r);
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
void
uk_summary_md_plain(const char *s, size_t n, struct uk_buf *out)
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
				uk_summary_md_plain(s + i + 1,
				    (size_t)(cb - s) - i - 1, out);
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
			(i == 0 || !uk_summary_md_is_word(s[i - 1]) ||
			    i + 1 >= n || !uk_summary_md_is_word(s[i + 1])))) {
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

void
uk_summary_md_doc_release(struct doc *d)
{
	free(d->b);
	d->b = NULL;
	d->n = d->alloc = 0;
}
