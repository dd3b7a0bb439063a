/* SPDX-License-Identifier: MIT */
/*
 * The README of a repository: its budget in tokens and its description
 * (see repo.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "repo.h"
#include "tokens.h"
#include "util.h"

#include "banned.h"

/* The end of the line at p (its '\n' or the end of text). */
static const char *
line_end(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	return e ? e : end;
}

static int
blank(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* A line opening or closing fenced code: ``` or ~~~ after <= 3 spaces. */
static int
fence(const char *p, const char *e)
{
	int sp = 0;

	while (p < e && *p == ' ' && sp < 4) {
		p++;
		sp++;
	}
	return sp < 4 && e - p >= 3 &&
	    (!strncmp(p, "```", 3) || !strncmp(p, "~~~", 3));
}

/* The README cut here: text[0..n) and the mark. */
static void
cut_at(const char *text, size_t n, size_t len, long budget, struct uk_buf *b)
{
	uk_buf_reset(b);
	uk_buf_add(b, text, n);
	if (n && text[n - 1] != '\n')
		uk_buf_addch(b, '\n');
	uk_buf_addf(b, "[README cut: %zu of %zu bytes shown, to fit %ld tokens]\n",
	    n, len, budget);
}

/*
 * The longest of the cuts ends[0..n) (increasing) whose text and mark fit
 * budget; its end, or 0 when none does.  The pieces' counts are summed
 * (a cut lies just after a newline, where the pre-split pattern splits,
 * so the sum is the count of the whole but for rare cases), and the
 * result is checked by counting it whole.
 */
static size_t
fit(enum uk_tokenizer t, const char *text, size_t len, const size_t *ends,
    size_t n, size_t from, long budget, struct uk_buf *b)
{
	size_t sum, mark, prev = from, k;

	cut_at(text, len, len, budget, b); /* the mark's longest form */
	mark = uk_tokens_count(t, b->buf + len, b->len - len);
	sum = from ? uk_tokens_count(t, text, from) : 0;
	for (k = 0; k < n; k++) {
		size_t c = uk_tokens_count(t, text + prev, ends[k] - prev);

		if (sum + c + mark > (size_t)budget)
			break;
		sum += c;
		prev = ends[k];
	}
	while (k > 0) {
		cut_at(text, ends[k - 1], len, budget, b);
		if (uk_tokens_count(t, b->buf, b->len) <= (size_t)budget)
			return ends[k - 1];
		k--;
	}
	return 0;
}

size_t
uk_repo_readme_fit(enum uk_tokenizer t, const char *text, size_t len,
    long budget, struct uk_buf *out, int *cut)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t total, *ends = NULL, n = 0, alloc = 0, got, lo, hi, first;
	const char *p = text, *end = text + len;
	int in_fence = 0, after_blank = 0;

	*cut = 0;
	if (budget <= 0 || !len)
		return 0;
	total = uk_tokens_count(t, text, len);
	if (total <= (size_t)budget) {
		uk_buf_add(out, text, len);
		return total;
	}
	*cut = 1;
	/* Paragraph boundaries: the start of a line after blank lines. */
	while (p < end) {
		const char *e = line_end(p, end);

		int bl = blank(p, e);

		if (!in_fence && !bl && after_blank) {
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				ends = uk_util_xrealloc(ends,
				    alloc * sizeof(*ends));
			}
			ends[n++] = (size_t)(p - text);
		}
		if (fence(p, e))
			in_fence = !in_fence;
		after_blank = !in_fence && bl;
		p = e < end ? e + 1 : end;
	}
	got = fit(t, text, len, ends, n, 0, budget, &b);
	first = n ? ends[0] : len;
	if (!got) {
		/* Not even the first paragraph: its lines. */
		n = 0;
		for (p = text; p < text + first; ) {
			const char *e = line_end(p, end);

			if (e >= text + first || e + 1 >= end)
				break;
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				ends = uk_util_xrealloc(ends,
				    alloc * sizeof(*ends));
			}
			ends[n++] = (size_t)(e + 1 - text);
			p = e + 1;
		}
		got = fit(t, text, len, ends, n, 0, budget, &b);
	}
	if (!got) {
		/* Not even a line: the most characters, by bisection. */
		lo = 0;
		hi = n ? ends[0] : first;
		while (lo < hi) {
			size_t mid =
			    uk_buf_utf8_cut(text, lo + (hi - lo + 1) / 2);

			if (mid <= lo)
				mid = lo + uk_buf_utf8_seqlen(
				    (const unsigned char *)text + lo, len - lo);
			if (mid <= lo)
				break;
			cut_at(text, mid, len, budget, &b);
			if (uk_tokens_count(t, b.buf, b.len) <= (size_t)budget)
				lo = mid;
			else
				hi = mid - 1;
		}
		got = uk_buf_utf8_cut(text, lo);
	}
	free(ends);
	cut_at(text, got, len, budget, &b);
	total = uk_tokens_count(t, b.buf, b.len);
	if (total > (size_t)budget) {
		/* Not even the mark fits: nothing. */
		uk_buf_release(&b);
		return 0;
	}
	uk_buf_add(out, b.buf, b.len);
	uk_buf_release(&b);
	return total;
}

/* The description. */

/* A line of only = - ~ ^ * # _ characters (at least 3): a heading's rule. */
static int
is_underline(const char *p, const char *e)
{
	size_t n;

	while (p < e && *p == ' ')
		p++;
	while (e > p && (e[-1] == '\r' || e[-1] == ' '))
		e--;
	n = (size_t)(e - p);
	if (n < 3)
		return 0;
	for (; p < e; p++)
		if (!strchr("=-~^*#_", *p))
			return 0;
	return 1;
}

/* The text of a paragraph's lines, joined, with Markdown and rst marks off. */
static void
render(const char *p, const char *end, struct uk_buf *out)
{
	while (p < end) {
		char c = *p;

		if (c == '\r' || c == '\n' || c == '\t') {
			if (out->len && out->buf[out->len - 1] != ' ')
				uk_buf_addch(out, ' ');
			p++;
		} else if (c == '!' && p + 1 < end && p[1] == '[') {
			/* An image: ![alt](url), ![alt][ref]: gone. */
			const char *q = memchr(p, ']', (size_t)(end - p));

			if (!q) {
				p++;
				continue;
			}
			q++;
			if (q < end && (*q == '(' || *q == '[')) {
				const char *r = memchr(q, *q == '(' ? ')' : ']',
				    (size_t)(end - q));

				q = r ? r + 1 : end;
			}
			p = q;
		} else if (c == '[') {
			/* A link: its text, which may itself be an image. */
			const char *q = p + 1;
			int depth = 1;

			while (q < end && depth) {
				if (*q == '[')
					depth++;
				else if (*q == ']')
					depth--;
				q++;
			}
			if (depth || q >= end || (*q != '(' && *q != '[')) {
				uk_buf_addch(out, c);
				p++;
				continue;
			}
			render(p + 1, q - 1, out);
			{
				const char *r = memchr(q, *q == '(' ? ')' : ']',
				    (size_t)(end - q));

				p = r ? r + 1 : end;
			}
		} else if (c == '<') {
			/* An HTML tag or an autolink: gone. */
			const char *q = memchr(p, '>', (size_t)(end - p));

			if (q && q - p < 512 && (isalpha((unsigned char)p[1]) ||
			    p[1] == '/' || p[1] == '!'))
				p = q + 1;
			else {
				uk_buf_addch(out, c);
				p++;
			}
		} else if ((c == '*' || c == '_') && p + 1 < end && p[1] == c) {
			p += 2; /* bold marks */
		} else if (c == '`' && p + 1 < end && p[1] == '`') {
			p += 2; /* rst's inline literal */
		} else if (c == '|' && (p == end - 1 || p[1] != ' ')) {
			/* An rst substitution |name| (a badge): gone. */
			const char *q = memchr(p + 1, '|', (size_t)(end - p - 1));

			if (q && q - p < 100 && !memchr(p, ' ', (size_t)(q - p)))
				p = q + 1;
			else {
				uk_buf_addch(out, c);
				p++;
			}
		} else {
			uk_buf_addch(out, c);
			p++;
		}
	}
}

/*
 * Whether the paragraph starting at p (its first line up to e) can be
 * prose, by its first characters.
 */
static int
prose_start(const char *p, const char *e)
{
	int sp = 0;

	while (p < e && *p == ' ') {
		p++;
		sp++;
	}
	if (sp >= 4 || p >= e)
		return 0; /* indented code */
	switch (*p) {
	case '#': /* heading */
	case '<': /* HTML */
	case '|': /* table (an rst |badge| starts with no space after) */
	case '>': /* quote: a note or a warning, seldom a description */
	case '=':
	case '+':
		return *p == '|' && e - p > 1 && p[1] != ' ' && p[1] != '-';
	case '-':
	case '*':
		/* A list item or a rule; **bold** and *emphasis* are prose. */
		return e - p > 1 && p[1] != ' ' && p[1] != '-' &&
		    !(p[0] == '*' && p[1] == '*' && e - p > 2 && p[2] == '*');
	case '.':
		return !(e - p > 2 && p[1] == '.' && p[2] == ' '); /* rst */
	case '[': /* a link definition "[id]: url" */
		return !memmem(p, (size_t)(e - p), "]: ", 3);
	case ':':
		return 0; /* an rst field */
	}
	if (isdigit((unsigned char)*p)) {
		const char *q = p;

		while (q < e && isdigit((unsigned char)*q))
			q++;
		if (q + 1 < e && (*q == '.' || *q == ')') && q[1] == ' ')
			return 0; /* an ordered list */
	}
	return 1;
}

/* Runs of spaces in s[from..) as one; no space at the ends. */
static void
squeeze(struct uk_buf *b, size_t from)
{
	size_t i, j = from;

	for (i = from; i < b->len; i++) {
		if (b->buf[i] == ' ' && (j == from || b->buf[j - 1] == ' '))
			continue;
		b->buf[j++] = b->buf[i];
	}
	while (j > from && b->buf[j - 1] == ' ')
		j--;
	uk_buf_setlen(b, j);
}

/* Whether the rendered paragraph s has words: three letters or more. */
static int
has_words(const char *s)
{
	int letters = 0;

	for (; *s; s++)
		if (isalpha((unsigned char)*s) || (unsigned char)*s >= 0x80)
			letters++;
	return letters >= 3;
}

void
uk_repo_readme_describe(const char *readme, struct uk_buf *out)
{
	const char *p = readme, *end = readme + strlen(readme);
	int in_fence = 0;

	while (p < end) {
		const char *start, *e = line_end(p, end), *q;
		size_t mark = out->len;

		/* An HTML comment, which may hold blank lines: skipped. */
		if (!in_fence && (q = memmem(p, (size_t)(e - p), "<!--", 4)) &&
		    !memmem(q, (size_t)(end - q), "-->", 3)) {
			break;
		} else if (!in_fence && q) {
			q = memmem(q, (size_t)(end - q), "-->", 3);
			if (q > e) {
				p = line_end(q, end);
				continue;
			}
		}
		if (fence(p, e)) {
			in_fence = !in_fence;
			p = e < end ? e + 1 : end;
			continue;
		}
		if (in_fence || blank(p, e)) {
			p = e < end ? e + 1 : end;
			continue;
		}
		/* A paragraph: lines up to a blank line or a fence. */
		start = p;
		for (q = p; q < end; ) {
			const char *qe = line_end(q, end);

			if (blank(q, qe) || fence(q, qe))
				break;
			/* A setext or rst heading: what came before is it. */
			if (is_underline(q, qe)) {
				start = qe < end ? qe + 1 : end;
			} else if (q == start && *q == '#') {
				start = qe < end ? qe + 1 : end;
			}
			q = qe < end ? qe + 1 : end;
		}
		p = q;
		if (start >= q || !prose_start(start, line_end(start, end)))
			continue;
		render(start, q, out);
		squeeze(out, mark);
		if (out->len <= mark || !has_words(out->buf + mark)) {
			uk_buf_setlen(out, mark);
			continue;
		}
		if (out->len - mark > 300) {
			uk_buf_setlen(out,
			    mark + uk_buf_utf8_cut(out->buf + mark, 297));
			uk_buf_addstr(out, "...");
		}
		return;
	}
}
