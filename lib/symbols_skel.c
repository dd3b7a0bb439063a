/* SPDX-License-Identifier: MIT */
/*
 * A C or C++ header's skeleton: the bodies of its functions blanked to
 * spaces (newlines kept, so every offset and line stays where it was)
 * before tree-sitter parses it.  A header-only library (boost) is mostly
 * inline bodies, which tree-sitter's C++ grammar parses at 4 to 7 times
 * ctags's cost, and where it meets the macros it cannot parse its error
 * recovery costs more again; the map shows declarations, and what the
 * ranking wants of a body, its references, the caller takes from the
 * blanked bytes with the lexer (symbols_lex.c).  Written by hand: a
 * ctags-like scan of braces, comments, strings and directives, which no
 * library of the index does apart from a full parse.
 *
 * A body is a brace that follows a closing parenthesis and what may come
 * between a declarator and its body (identifiers: const, noexcept,
 * override, a macro; another parenthesised group), outside a class,
 * struct, union, enum or namespace head (`struct __attribute__((x)) S {`
 * is a class's body).  A body holding a conditional directive (#if,
 * #else, #endif...) is left as it is: its braces may not pair up.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"

static int
id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c >= 0x80;
}

static int
id_char(unsigned char c)
{
	return id_start(c) || (c >= '0' && c <= '9');
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Past the end of line at i, backslash continuations and comments kept. */
static size_t
skip_line(const char *t, size_t n, size_t i)
{
	while (i < n && t[i] != '\n') {
		if (t[i] == '\\' && i + 1 < n)
			i++;
		else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(t[i] == '*' && t[i + 1] == '/');
			     i++)
				;
			i++;
		}
		i++;
	}
	return i < n ? i : n;
}

/* Past a raw string R"d(...)d" whose quote is t[i], or i if it is none. */
static size_t
skip_raw(const char *t, size_t n, size_t i)
{
	size_t d = i + 1, dl, j;

	while (d < n && t[d] != '(' && t[d] != '"' && d - i <= 17)
		d++;
	if (d >= n || t[d] != '(')
		return i;
	dl = d - (i + 1);
	for (j = d + 1; j < n; j++)
		if (t[j] == ')' && j + 1 + dl < n &&
		    !memcmp(t + j + 1, t + i + 1, dl) && t[j + 1 + dl] == '"')
			return j + 2 + dl;
	return n;
}

/* Past a quoted literal opened by q at t[i]. */
static size_t
skip_quoted(const char *t, size_t n, size_t i, char q)
{
	for (i++; i < n && t[i] != q && t[i] != '\n'; i++)
		if (t[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

/*
 * Past the comment, string, character literal or directive (bol: t[i] is
 * the first non-blank of its line) at t[i], or i when there is none there;
 * *cond is whether it was a conditional directive.
 */
static size_t
skip_other(const char *t, size_t n, size_t i, int bol, int *cond)
{
	size_t j, k;

	*cond = 0;
	if (t[i] == '/' && i + 1 < n && t[i + 1] == '/')
		return skip_line(t, n, i);
	if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
		for (j = i + 2; j + 1 < n && !(t[j] == '*' && t[j + 1] == '/');
		     j++)
			;
		return j + 2 <= n ? j + 2 : n;
	}
	if (t[i] == '"') {
		if (i && t[i - 1] == 'R' &&
		    (j = skip_raw(t, n, i)) > i)
			return j;
		return skip_quoted(t, n, i, '"');
	}
	if (t[i] == '\'') {
		/* A digit separator (1'000'000, 0xFF'FF) is no quote. */
		for (k = i; k && id_char((unsigned char)t[k - 1]); k--)
			;
		if (k < i && t[k] >= '0' && t[k] <= '9')
			return i + 1;
		return skip_quoted(t, n, i, '\'');
	}
	if (t[i] == '#' && bol) {
		for (j = i + 1; j < n && is_space((unsigned char)t[j]); j++)
			;
		*cond = (j + 2 <= n && (!strncmp(t + j, "if", 2) ||
					   !strncmp(t + j, "el", 2))) ||
		    (j + 5 <= n && !strncmp(t + j, "endif", 5));
		return skip_line(t, n, i);
	}
	return i;
}

/* The brace that closes the body opened at t[open], or 0 to leave it. */
static size_t
body_end(const char *t, size_t n, size_t open)
{
	size_t i = open + 1, j;
	int depth = 1, bol = 0, cond;

	while (i < n) {
		unsigned char c = (unsigned char)t[i];

		if (c == '\n' || is_space(c)) {
			bol |= c == '\n';
			i++;
			continue;
		}
		if ((j = skip_other(t, n, i, bol, &cond)) > i) {
			if (cond)
				return 0;
			bol = 0;
			i = j;
			continue;
		}
		bol = 0;
		if (c == '{')
			depth++;
		else if (c == '}' && --depth == 0)
			return i;
		i++;
	}
	return 0;
}

/* Whether t[i..i + w) is a keyword that opens a class's or namespace's head. */
static int
is_head(const char *t, size_t w)
{
	static const char *const kw[] = { "class", "struct", "union", "enum",
		"namespace", NULL };
	size_t k;

	for (k = 0; kw[k]; k++)
		if (strlen(kw[k]) == w && !memcmp(t, kw[k], w))
			return 1;
	return 0;
}

size_t
uk_symskel_blank(char *t, size_t n, uk_symskel_fn *fn, void *arg)
{
	size_t i = 0, j, blanked = 0;
	int bol = 1, after_paren = 0, depth = 0, head = -1, cond;

	while (i < n) {
		unsigned char c = (unsigned char)t[i];

		if (c == '\n' || is_space(c)) {
			bol |= c == '\n';
			i++;
			continue;
		}
		if ((j = skip_other(t, n, i, bol, &cond)) > i) {
			/* Comments and directives leave the state as it was. */
			if (c == '"' || c == '\'')
				after_paren = 0;
			bol = 0;
			i = j;
			continue;
		}
		bol = 0;
		if (id_start(c)) {
			for (j = i; j < n && id_char((unsigned char)t[j]); j++)
				;
			if (is_head(t + i, j - i)) {
				head = depth;
				after_paren = 0;
			}
			i = j;
			continue;
		}
		if (c >= '0' && c <= '9') {
			while (i < n && (id_char((unsigned char)t[i]) || t[i] == '.'))
				i++;
			after_paren = 0;
			continue;
		}
		switch (c) {
		case '(':
			depth++;
			break;
		case ')':
			if (depth > 0)
				depth--;
			if (head > depth)
				head = -1;
			after_paren = 1;
			i++;
			continue;
		case '{':
			if (after_paren && head < 0 && (j = body_end(t, n, i))) {
				if (fn)
					fn(arg, i + 1, j);
				for (i++; i < j; i++)
					if (t[i] != '\n') {
						t[i] = ' ';
						blanked++;
					}
				after_paren = 0;
				i = j + 1;
				continue;
			}
			/* FALLTHROUGH */
		case '}':
		case ';':
			head = -1;
			depth = 0;
			break;
		case '>':
		case ',':
		case '=':
			if (depth == 0)
				head = -1;
			break;
		default:
			break;
		}
		after_paren = 0;
		i++;
	}
	return blanked;
}

int
uk_symskel_wants(int li, const char *path)
{
	static const char *const exts[] = { "h", "hpp", "hh", "hxx", "h++",
		"H", "HPP", "HH", "HXX", NULL };
	const char *dot = strrchr(path, '.');
	size_t k;

	if ((li != UK_SYMLANG_C && li != UK_SYMLANG_CPP) || !dot ||
	    strchr(dot, '/'))
		return 0;
	for (k = 0; exts[k]; k++)
		if (!strcmp(dot + 1, exts[k]))
			return 1;
	return 0;
}
