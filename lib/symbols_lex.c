/* SPDX-License-Identifier: MIT */
/*
 * The references of a file that only gives evidence (tests, examples,
 * docs, benchmarks, fixtures: see uk_symclass_is_noise) without a parse: a
 * lexer per family of languages skips comments and strings and reports
 * the identifiers that tags queries would take as references.  Such a
 * file's definitions are not wanted (the ranking sends them little of
 * its teleport mass and they never led a map), so tree-sitter, which
 * costs 3 to 4 times ctags on a whole tree, is not needed for it: x/net
 * has as many _test.go files as it has sources.
 *
 * What counts as a reference: an identifier called (followed by "(", or
 * by "!" in Rust, a macro), or one that starts with a capital letter (a
 * type, a class, an exported Go name), keywords aside; in Ruby, whose
 * calls need no parentheses, every identifier that is not a keyword.
 * Definitions the file makes are references too here (the name after
 * "def"): a test's own helper names then point at whatever defines them
 * in the project, which is what the ranking wants of a test anyway.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"

enum family { FAM_C, FAM_PYTHON, FAM_RUBY };

/* Keywords that look like calls ("if (") or like types ("None"). */
static const char *const keywords[] = { "False", "None", "Self", "True",
	"alignof", "and", "assert", "await", "case", "catch", "decltype", "def",
	"defined", "del", "do", "elif", "else", "elsif", "end", "except",
	"false", "for", "foreach", "func", "function", "if", "in", "instanceof",
	"is", "lambda", "match", "new", "nil", "noexcept", "not", "null",
	"operator", "or", "raise", "return", "self", "sizeof", "static_assert",
	"super", "switch", "synchronized", "then", "this", "throw", "true",
	"typeid", "typeof", "unless", "until", "void", "when", "while", "with",
	"yield" };

static int
kw_cmp(const void *key, const void *elt)
{
	const char *const *k = key;

	return strcmp(*k, *(const char *const *)elt);
}

static int
is_keyword(const char *s, size_t n)
{
	char word[24];
	const char *w = word;

	if (n >= sizeof(word))
		return 0;
	memcpy(word, s, n);
	word[n] = '\0';
	return bsearch(&w, keywords, sizeof(keywords) / sizeof(keywords[0]),
		   sizeof(keywords[0]), kw_cmp) != NULL;
}

static int
id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == '$' || c >= 0x80;
}

static int
id_char(unsigned char c)
{
	return id_start(c) || (c >= '0' && c <= '9');
}

/* The end of a string opened by q at text[i] (i is past the quote). */
static size_t
skip_string(const char *text, size_t len, size_t i, char q, int multiline)
{
	while (i < len) {
		if (text[i] == '\\' && i + 1 < len) {
			i += 2;
			continue;
		}
		if (text[i] == q)
			return i + 1;
		if (text[i] == '\n' && !multiline)
			return i;
		i++;
	}
	return len;
}

/* Past a Python triple-quoted string opened at text[i - 3]. */
static size_t
skip_triple(const char *text, size_t len, size_t i, char q)
{
	while (i + 2 < len) {
		if (text[i] == '\\') {
			i += 2;
			continue;
		}
		if (text[i] == q && text[i + 1] == q && text[i + 2] == q)
			return i + 3;
		i++;
	}
	return len;
}

/* Past a Rust raw string r#"..."# whose first '#' or '"' is text[i]. */
static size_t
skip_raw(const char *text, size_t len, size_t i)
{
	size_t hashes = 0, k;

	while (i < len && text[i] == '#') {
		hashes++;
		i++;
	}
	if (i >= len || text[i] != '"')
		return i;
	for (i++; i < len; i++) {
		if (text[i] != '"')
			continue;
		for (k = 0;
		     k < hashes && i + 1 + k < len && text[i + 1 + k] == '#';
		     k++)
			;
		if (k == hashes)
			return i + 1 + k;
	}
	return len;
}

void
uk_symlex_refs(const char *lang, const char *text, size_t len, uk_symlex_fn *fn,
    void *arg)
{
	enum family fam = FAM_C;
	int rust = !strcmp(lang, "rust");
	uint32_t line = 1;
	size_t i = 0;

	if (!strcmp(lang, "python"))
		fam = FAM_PYTHON;
	else if (!strcmp(lang, "ruby"))
		fam = FAM_RUBY;
	while (i < len) {
		unsigned char c = (unsigned char)text[i];
		size_t s, k;

		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (fam != FAM_C && c == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (fam == FAM_C && c == '/' && i + 1 < len &&
		    text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (fam == FAM_C && c == '/' && i + 1 < len &&
		    text[i + 1] == '*') {
			for (i += 2; i < len; i++) {
				if (text[i] == '\n')
					line++;
				else if (text[i] == '*' && i + 1 < len &&
				    text[i + 1] == '/') {
					i += 2;
					break;
				}
			}
			continue;
		}
		if (c == '"' || c == '\'' || c == '`') {
			/* Rust's lifetimes and labels: 'a without a closing '. */
			if (rust && c == '\'' && i + 2 < len &&
			    id_start((unsigned char)text[i + 1]) &&
			    text[i + 2] != '\'') {
				for (i++;
				     i < len && id_char((unsigned char)text[i]);
				     i++)
					;
				continue;
			}
			if (fam == FAM_PYTHON && i + 2 < len &&
			    text[i + 1] == (char)c && text[i + 2] == (char)c)
				s = skip_triple(text, len, i + 3, (char)c);
			else
				s = skip_string(text, len, i + 1, (char)c,
				    c == '`' || fam == FAM_RUBY);
			for (k = i; k < s; k++)
				line += text[k] == '\n';
			i = s;
			continue;
		}
		if (fam == FAM_RUBY && c == ':' && i + 1 < len &&
		    id_start((unsigned char)text[i + 1]) &&
		    (i == 0 || text[i - 1] != ':')) {
			/* A symbol, :name: not a reference. */
			for (i++; i < len && id_char((unsigned char)text[i]);
			     i++)
				;
			continue;
		}
		if (c >= '0' && c <= '9') {
			/* A number, with its suffixes (0x1fUL, 1e9f). */
			while (i < len && id_char((unsigned char)text[i]))
				i++;
			continue;
		}
		if (!id_start(c)) {
			i++;
			continue;
		}
		s = i;
		while (i < len && id_char((unsigned char)text[i]))
			i++;
		/* A string's prefix: r"..", b'..', f"..", Rust's r#"..". */
		if (i < len && i - s <= 2 &&
		    (text[i] == '"' || text[i] == '\'' ||
			(rust && text[i] == '#' && text[s] == 'r'))) {
			if (rust && text[s] == 'r' &&
			    (text[i] == '#' || text[i] == '"')) {
				i = skip_raw(text, len, i);
			}
			continue;
		}
		k = i;
		while (k < len && (text[k] == ' ' || text[k] == '\t'))
			k++;
		if (fam == FAM_RUBY || (k < len && text[k] == '(') ||
		    (rust && k + 1 < len && text[k] == '!' &&
			text[k + 1] != '=') ||
		    (text[s] >= 'A' && text[s] <= 'Z')) {
			if (!is_keyword(text + s, i - s))
				fn(arg, text + s, i - s, line);
		}
	}
}
