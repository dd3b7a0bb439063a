/* SPDX-License-Identifier: MIT */
/* The links of an llms.txt file: a scanner of Markdown inline links. */
#include <stdlib.h>
#include <string.h>

#include "llmstxt.h"
#include "util.h"
#include "banned.h"

/* Copy s[0..n) trimmed of blanks into a new string. */
static char *
dup_trim(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return uk_util_xmemdup(s, n);
}

/*
 * The link at line[i] == '[' within line[0..n): on success *end is past
 * its ')' and the text and URL are called back.  0 when there is none,
 * 1 when fn asked to stop, 2 when a link was taken.
 */
static int
link_at(const char *line, size_t n, size_t i, size_t *end, uk_llmstxt_fn *fn,
    void *ctx)
{
	size_t j, k, depth = 0, ustart, uend;
	char *url, *title;
	int stop;

	for (j = i; j < n; j++) {
		if (line[j] == '\\' && j + 1 < n) {
			j++;
			continue;
		}
		if (line[j] == '[')
			depth++;
		else if (line[j] == ']' && --depth == 0)
			break;
	}
	if (j >= n || j + 1 >= n || line[j + 1] != '(')
		return 0;
	ustart = j + 2;
	while (ustart < n && line[ustart] == ' ')
		ustart++;
	if (ustart < n && line[ustart] == '<') {
		/* <url with spaces> */
		for (k = ++ustart; k < n && line[k] != '>'; k++)
			;
		if (k >= n)
			return 0;
		uend = k;
		k++;
	} else {
		for (k = ustart; k < n && line[k] != ')' && line[k] != ' ';
		    k++)
			;
		uend = k;
	}
	while (k < n && line[k] != ')')
		k++; /* a "title" after the URL */
	if (k >= n || uend == ustart)
		return 0;
	*end = k + 1;
	url = dup_trim(line + ustart, uend - ustart);
	title = dup_trim(line + i + 1, j - i - 1);
	stop = fn(ctx, url, title);
	free(url);
	free(title);
	return stop ? 1 : 2;
}

int
uk_llmstxt_links(const char *text, size_t len, uk_llmstxt_fn *fn, void *ctx)
{
	const char *p = text, *end = text + len, *eol, *t;
	size_t n, i, e;
	int fence = 0, r;

	for (; p < end; p = eol + (eol < end)) {
		if (!(eol = memchr(p, '\n', (size_t)(end - p))))
			eol = end;
		n = (size_t)(eol - p);
		for (t = p; t < eol && (*t == ' ' || *t == '\t'); t++)
			;
		if (eol - t >= 3 && (memcmp(t, "```", 3) == 0 ||
		    memcmp(t, "~~~", 3) == 0)) {
			fence = !fence;
			continue;
		}
		if (fence)
			continue;
		for (i = 0; i < n; i++) {
			if (p[i] == '\\') {
				i++;
			} else if (p[i] == '`') {
				/* A code span: to its closing backquote. */
				const char *c = memchr(p + i + 1, '`',
				    n - i - 1);

				if (c)
					i = (size_t)(c - p);
			} else if (p[i] == '[' && (i == 0 || p[i - 1] != '!')) {
				r = link_at(p, n, i, &e, fn, ctx);
				if (r == 1)
					return 1;
				if (r == 2)
					i = e - 1;
			}
		}
	}
	return 0;
}
