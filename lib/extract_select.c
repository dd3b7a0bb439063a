/* SPDX-License-Identifier: MIT */
/*
 * CSS selectors over gumbo's tree (see extract_select.h).
 *
 * Written here because no packaged library matches CSS selectors over
 * gumbo's tree.  Debian (bookworm) has no lexbor, nor NetSurf's libcss
 * as a library to build against; its libcss-parser0 reads CSS1 style
 * sheets, not selectors over a tree; libmodest-dev (modest, the
 * predecessor of lexbor, no longer developed) has a selector engine, but
 * over its own parser's tree (myhtml): using it would mean parsing every
 * page a second time with a parser whose tree is not gumbo's (nor the
 * shrunk page's, lib/extract_shrink.c) and mapping its nodes back to
 * ours, for what is some four hundred lines here.
 *
 * A selector list compiles to an array of complex selectors, each a
 * chain of compound selectors (c[0] op c[1] op ... c[k-1], the subject
 * last), each compound an array of simple selectors.  Matching walks
 * the tree once, top down, keeping for each element and each complex
 * selector two bit sets: S, bit i set when c[0..i] matches with c[i] at
 * this element, and D, the union of S over the element and its
 * ancestors.  An element has bit i when c[i] matches it and bit i-1 is
 * in its parent's S (child) or D (descendant).  This decides exactly
 * what a browser's right-to-left matching with backtracking decides, in
 * one pass, whatever the selector (no exponential case).
 */
#include <ctype.h>
#include <gumbo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract_select.h"
#include "util.h"

#include "banned.h"

enum kind { K_ANY, K_TYPE, K_ID, K_CLASS, K_ATTR };
enum op {
	OP_EXISTS, /* [a] */
	OP_EQ,     /* [a=v] */
	OP_WORD,   /* [a~=v] */
	OP_DASH,   /* [a|=v] */
	OP_PREFIX, /* [a^=v] */
	OP_SUFFIX, /* [a$=v] */
	OP_SUBSTR  /* [a*=v] */
};
enum { CASE_HTML, CASE_I, CASE_S }; /* an attribute value's case rule */

struct simple {
	unsigned char kind, op, neg, cs;
	int tag;     /* K_TYPE: the GumboTag, GUMBO_TAG_UNKNOWN: by name */
	size_t name; /* offset in strs: the type or the attribute's name */
	size_t value, vlen; /* offset in strs, length */
};

struct compound {
	int first, n; /* simple[first .. first + n) */
	int comb;     /* to the compound before: ' ' or '>' (0: first) */
};

struct complex {
	int first, n; /* compound[first .. first + n) */
};

struct uk_extract_select {
	struct simple *simple;
	int nsimple;
	struct compound *compound;
	int ncompound;
	struct complex *complex;
	int ncomplex;
	struct uk_buf strs; /* names and values, each NUL-terminated */
};

/* The parser's state: the text, where it is, and where errors go. */
struct parser {
	const char *s;
	size_t p, len;
	struct uk_extract_select *sel;
	struct uk_err *err;
};

/* Column (characters from 1) of byte offset p of s. */
static size_t
column(const char *s, size_t p)
{
	size_t k, col = 1;

	for (k = 0; k < p; k++)
		if (((unsigned char)s[k] & 0xc0) != 0x80)
			col++;
	return col;
}

static int __attribute__((format(printf, 2, 3)))
fail(struct parser *ps, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return uk_util_err_set(ps->err, UK_EXIT_USAGE, "at column %zu: %s",
	    column(ps->s, ps->p), what);
}

static int
css_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	    ch == '\f';
}

static void
skip_space(struct parser *ps)
{
	while (ps->p < ps->len && css_space(ps->s[ps->p]))
		ps->p++;
}

/* Whether byte ch may go on an identifier (a name character). */
static int
name_char(int ch)
{
	return isalnum(ch) || ch == '-' || ch == '_' || ch >= 0x80;
}

/* Append code point cp to b as UTF-8 (invalid ones as U+FFFD). */
static void
add_utf8(struct uk_buf *b, unsigned long cp)
{
	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		uk_buf_addch(b, (int)cp);
	} else if (cp < 0x800) {
		uk_buf_addch(b, (int)(0xc0 | cp >> 6));
		uk_buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		uk_buf_addch(b, (int)(0xe0 | cp >> 12));
		uk_buf_addch(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		uk_buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		uk_buf_addch(b, (int)(0xf0 | cp >> 18));
		uk_buf_addch(b, (int)(0x80 | (cp >> 12 & 0x3f)));
		uk_buf_addch(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		uk_buf_addch(b, (int)(0x80 | (cp & 0x3f)));
	}
}

/*
 * An escape at s[p] == '\\' (CSS Syntax 4.3.7): up to six hex digits
 * and one white space after them, or any other character as itself.
 * -1 when a newline or the end follows the backslash.
 */
static int
escape(struct parser *ps, struct uk_buf *b)
{
	unsigned long cp = 0;
	int k;

	ps->p++;
	if (ps->p >= ps->len || ps->s[ps->p] == '\n')
		return fail(ps, "a backslash that escapes nothing");
	for (k = 0; k < 6 && ps->p < ps->len &&
	     isxdigit((unsigned char)ps->s[ps->p]); k++, ps->p++) {
		int ch = (unsigned char)ps->s[ps->p];

		cp = cp * 16 + (unsigned long)(isdigit(ch) ? ch - '0' :
		    tolower(ch) - 'a' + 10);
	}
	if (k) {
		add_utf8(b, cp);
		if (ps->p < ps->len && css_space(ps->s[ps->p]))
			ps->p++;
		return 0;
	}
	uk_buf_addch(b, ps->s[ps->p++]);
	return 0;
}

/*
 * An identifier at the parser's place into strs, NUL-terminated; its
 * offset in *off.  what names it for the error ("a class name").
 */
static int
ident(struct parser *ps, const char *what, size_t *off)
{
	struct uk_buf *b = &ps->sel->strs;
	size_t start = ps->p;
	const char *s = ps->s;

	*off = b->len;
	/* An identifier starts with no digit, nor '-' and a digit. */
	if (ps->p < ps->len && (isdigit((unsigned char)s[ps->p]) ||
	    (s[ps->p] == '-' && ps->p + 1 < ps->len &&
		isdigit((unsigned char)s[ps->p + 1]))))
		return fail(ps, "%s cannot start with a digit (escape it, "
		    "or use [attr=\"value\"])", what);
	while (ps->p < ps->len) {
		int ch = (unsigned char)s[ps->p];

		if (ch == '\\') {
			if (escape(ps, b) < 0)
				return -1;
		} else if (name_char(ch)) {
			uk_buf_addch(b, ch);
			ps->p++;
		} else {
			break;
		}
	}
	if (ps->p == start || (b->len - *off == 1 && b->buf[*off] == '-')) {
		ps->p = start;
		return fail(ps, "expected %s", what);
	}
	uk_buf_addch(b, '\0');
	return 0;
}

/* A quoted string at s[p] (a quote) into strs, as ident does. */
static int
string(struct parser *ps, size_t *off)
{
	struct uk_buf *b = &ps->sel->strs;
	char q = ps->s[ps->p];
	size_t start = ps->p;

	*off = b->len;
	ps->p++;
	while (ps->p < ps->len && ps->s[ps->p] != q) {
		if (ps->s[ps->p] == '\n') {
			break;
		} else if (ps->s[ps->p] == '\\') {
			/* An escaped newline is no character. */
			if (ps->p + 1 < ps->len && ps->s[ps->p + 1] == '\n') {
				ps->p += 2;
				continue;
			}
			if (escape(ps, b) < 0)
				return -1;
		} else {
			uk_buf_addch(b, ps->s[ps->p++]);
		}
	}
	if (ps->p >= ps->len || ps->s[ps->p] != q) {
		ps->p = start;
		return fail(ps, "a string with no closing %c", q);
	}
	ps->p++;
	uk_buf_addch(b, '\0');
	return 0;
}

static struct simple *
new_simple(struct parser *ps, int kind)
{
	struct uk_extract_select *sel = ps->sel;
	struct simple *sp;

	sel->simple = uk_util_xrealloc(sel->simple,
	    ((size_t)sel->nsimple + 1) * sizeof(*sel->simple));
	sp = &sel->simple[sel->nsimple++];
	memset(sp, 0, sizeof(*sp));
	sp->kind = (unsigned char)kind;
	return sp;
}

/* The inside of [...], after the '['. */
static int
attribute(struct parser *ps, struct simple *sp)
{
	static const struct {
		const char *s;
		int op;
	} ops[] = { { "~=", OP_WORD }, { "|=", OP_DASH }, { "^=", OP_PREFIX },
		{ "$=", OP_SUFFIX }, { "*=", OP_SUBSTR }, { "=", OP_EQ } };
	size_t k, n;
	char *name;

	skip_space(ps);
	if (ps->p < ps->len && ps->s[ps->p] == '|')
		return fail(ps, "namespaces are not supported");
	if (ident(ps, "an attribute name", &sp->name) < 0)
		return -1;
	for (name = ps->sel->strs.buf + sp->name; *name; name++)
		*name = (char)tolower((unsigned char)*name);
	skip_space(ps);
	if (ps->p < ps->len && ps->s[ps->p] == ']') {
		ps->p++;
		sp->op = OP_EXISTS;
		return 0;
	}
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		n = strlen(ops[k].s);
		if (ps->len - ps->p >= n && !memcmp(ps->s + ps->p, ops[k].s, n))
			break;
	}
	if (k == sizeof(ops) / sizeof(ops[0]))
		return fail(ps, ps->p < ps->len && ps->s[ps->p] == '|' ?
		    "namespaces are not supported" :
		    "expected ']' or an operator (=, ~=, |=, ^=, $=, *=)");
	sp->op = (unsigned char)ops[k].op;
	ps->p += strlen(ops[k].s);
	skip_space(ps);
	if (ps->p < ps->len && (ps->s[ps->p] == '"' || ps->s[ps->p] == '\'')) {
		if (string(ps, &sp->value) < 0)
			return -1;
	} else if (ident(ps, "a value (an identifier or a quoted string)",
		       &sp->value) < 0) {
		return -1;
	}
	sp->vlen = strlen(ps->sel->strs.buf + sp->value);
	skip_space(ps);
	if (ps->p < ps->len && (ps->s[ps->p] == 'i' || ps->s[ps->p] == 'I' ||
	    ps->s[ps->p] == 's' || ps->s[ps->p] == 'S')) {
		sp->cs = tolower((unsigned char)ps->s[ps->p]) == 'i' ? CASE_I :
		    CASE_S;
		ps->p++;
		skip_space(ps);
	}
	if (ps->p >= ps->len || ps->s[ps->p] != ']')
		return fail(ps, "expected ']'");
	ps->p++;
	return 0;
}

/*
 * One simple selector (not a type or '*', which only start a compound;
 * inside :not() they may be alone).  neg: inside :not().
 */
static int simple_sel(struct parser *ps, int neg);

/* :not(simple), after the ':'. */
static int
negation(struct parser *ps)
{
	skip_space(ps);
	if (ps->p >= ps->len)
		return fail(ps, "expected a simple selector in :not()");
	if (ps->s[ps->p] == '*' || name_char((unsigned char)ps->s[ps->p]) ||
	    ps->s[ps->p] == '\\') {
		struct simple *sp;

		if (ps->s[ps->p] == '*') {
			ps->p++;
			new_simple(ps, K_ANY)->neg = 1;
		} else {
			sp = new_simple(ps, K_TYPE);
			sp->neg = 1;
			if (ident(ps, "a type", &sp->name) < 0)
				return -1;
		}
	} else if (simple_sel(ps, 1) < 0) {
		return -1;
	}
	skip_space(ps);
	if (ps->p >= ps->len || ps->s[ps->p] != ')')
		return fail(ps, ps->p < ps->len && ps->s[ps->p] == ',' ?
		    ":not() takes one simple selector, not a list" :
		    ps->p < ps->len && !css_space(ps->s[ps->p]) ?
		    ":not() takes one simple selector (no compound)" :
		    "expected ')'");
	ps->p++;
	return 0;
}

static int
simple_sel(struct parser *ps, int neg)
{
	struct simple *sp;
	size_t at = ps->p;
	char c = ps->s[ps->p];

	switch (c) {
	case '#':
		ps->p++;
		sp = new_simple(ps, K_ID);
		sp->neg = (unsigned char)neg;
		return ident(ps, "an id after '#'", &sp->value);
	case '.':
		ps->p++;
		sp = new_simple(ps, K_CLASS);
		sp->neg = (unsigned char)neg;
		return ident(ps, "a class name after '.'", &sp->value);
	case '[':
		ps->p++;
		sp = new_simple(ps, K_ATTR);
		sp->neg = (unsigned char)neg;
		return attribute(ps, sp);
	case ':':
		ps->p++;
		if (ps->p < ps->len && ps->s[ps->p] == ':') {
			ps->p = at;
			return fail(ps, "pseudo-elements are not supported");
		}
		if (ps->len - ps->p >= 4 && !strncasecmp(ps->s + ps->p,
		    "not(", 4)) {
			if (neg) {
				ps->p = at;
				return fail(ps, ":not() cannot hold :not()");
			}
			ps->p += 4;
			return negation(ps);
		}
		{
			size_t e = ps->p;

			while (e < ps->len &&
			    name_char((unsigned char)ps->s[e]))
				e++;
			ps->p = at;
			if (e == at + 1)
				return fail(ps, "expected a pseudo-class "
				    "after ':'");
			return fail(ps, "':%.*s' is not supported (of the "
			    "pseudo-classes, only :not())",
			    (int)(e - at - 1 > 40 ? 40 : e - at - 1),
			    ps->s + at + 1);
		}
	default:
		return fail(ps, "expected a type, '*', '#', '.', '[' or ':'");
	}
}

/*
 * One compound selector: an optional type or '*', then #id, .class,
 * [attr] and :not() in any number, with no space between them.
 */
static int
compound_sel(struct parser *ps, int comb)
{
	struct uk_extract_select *sel = ps->sel;
	struct compound *cp;
	int first = sel->nsimple;

	if (ps->p >= ps->len)
		return fail(ps, comb ? "expected a selector after the "
		    "combinator" : "expected a selector");
	if (ps->s[ps->p] == '*') {
		ps->p++;
		new_simple(ps, K_ANY);
	} else if (name_char((unsigned char)ps->s[ps->p]) ||
	    ps->s[ps->p] == '\\') {
		struct simple *sp = new_simple(ps, K_TYPE);

		if (ident(ps, "a type", &sp->name) < 0)
			return -1;
	}
	while (ps->p < ps->len) {
		char c = ps->s[ps->p];

		if (c == ',' || c == '>' || c == '+' || c == '~' ||
		    css_space(c) || c == ')')
			break;
		if (c == '*' || name_char((unsigned char)c))
			return fail(ps, "a type or '*' goes first in a "
			    "compound selector");
		if (simple_sel(ps, 0) < 0)
			return -1;
	}
	if (sel->nsimple == first)
		return fail(ps, ps->p < ps->len && ps->s[ps->p] == ',' ?
		    "an empty selector in the list" :
		    "expected a type, '*', '#', '.', '[' or ':'");
	sel->compound = uk_util_xrealloc(sel->compound,
	    ((size_t)sel->ncompound + 1) * sizeof(*sel->compound));
	cp = &sel->compound[sel->ncompound++];
	cp->first = first;
	cp->n = sel->nsimple - first;
	cp->comb = comb;
	return 0;
}

/* One complex selector: compounds joined by combinators. */
static int
complex_sel(struct parser *ps)
{
	struct uk_extract_select *sel = ps->sel;
	int first = sel->ncompound, comb = 0;

	skip_space(ps);
	for (;;) {
		if (sel->ncompound - first == UK_EXTRACT_SELECT_MAXCHAIN)
			return fail(ps, "more than %d compound selectors in "
			    "a row", UK_EXTRACT_SELECT_MAXCHAIN);
		if (compound_sel(ps, comb) < 0)
			return -1;
		comb = 0;
		if (ps->p < ps->len && css_space(ps->s[ps->p])) {
			skip_space(ps);
			comb = ' ';
		}
		if (ps->p >= ps->len || ps->s[ps->p] == ',')
			break;
		if (ps->s[ps->p] == '+' || ps->s[ps->p] == '~')
			return fail(ps, "the sibling combinator '%c' is not "
			    "supported (only ' ' and '>')", ps->s[ps->p]);
		if (ps->s[ps->p] == ')')
			return fail(ps, "a ')' without its '('");
		if (ps->s[ps->p] == '>') {
			ps->p++;
			skip_space(ps);
			comb = '>';
		}
	}
	sel->complex = uk_util_xrealloc(sel->complex,
	    ((size_t)sel->ncomplex + 1) * sizeof(*sel->complex));
	sel->complex[sel->ncomplex].first = first;
	sel->complex[sel->ncomplex].n = sel->ncompound - first;
	sel->ncomplex++;
	return 0;
}

/* Type selectors' names to GumboTag, once strs no longer moves. */
static void
resolve_types(struct uk_extract_select *sel)
{
	int k;

	for (k = 0; k < sel->nsimple; k++) {
		struct simple *sp = &sel->simple[k];
		char *name = sel->strs.buf + sp->name, *q;

		if (sp->kind != K_TYPE)
			continue;
		for (q = name; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		sp->tag = gumbo_tag_enum(name);
	}
}

int
uk_extract_select_compile(const char *s, struct uk_extract_select **out,
    struct uk_err *err)
{
	struct parser ps;
	struct uk_extract_select *sel;

	*out = NULL;
	ps.s = s;
	ps.p = 0;
	ps.len = strlen(s);
	ps.err = err;
	if (ps.len > UK_EXTRACT_SELECT_MAXLEN)
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "longer than %d bytes", UK_EXTRACT_SELECT_MAXLEN);
	sel = uk_util_xcalloc(1, sizeof(*sel));
	uk_buf_init(&sel->strs, 0);
	ps.sel = sel;
	skip_space(&ps);
	if (ps.p == ps.len) {
		fail(&ps, "an empty selector");
		goto bad;
	}
	for (;;) {
		if (sel->ncomplex == UK_EXTRACT_SELECT_MAXLIST) {
			fail(&ps, "more than %d selectors in the list",
			    UK_EXTRACT_SELECT_MAXLIST);
			goto bad;
		}
		if (complex_sel(&ps) < 0)
			goto bad;
		if (ps.p >= ps.len)
			break;
		ps.p++; /* ',' */
		skip_space(&ps);
		if (ps.p >= ps.len) {
			fail(&ps, "expected a selector after ','");
			goto bad;
		}
	}
	resolve_types(sel);
	*out = sel;
	return 0;
bad:
	uk_extract_select_free(sel);
	return -1;
}

void
uk_extract_select_free(struct uk_extract_select *sel)
{
	if (!sel)
		return;
	free(sel->simple);
	free(sel->compound);
	free(sel->complex);
	uk_buf_release(&sel->strs);
	free(sel);
}

/*
 * Attributes whose values HTML matches without case in selectors (HTML
 * Living Standard, "Selectors": case-sensitivity of selectors).
 */
static int
html_icase_attr(const char *name)
{
	static const char *const list[] = { "accept", "accept-charset",
		"align", "alink", "axis", "bgcolor", "charset", "checked",
		"clear", "codetype", "color", "compact", "declare", "defer",
		"dir", "direction", "disabled", "enctype", "face", "frame",
		"hreflang", "http-equiv", "lang", "language", "link", "media",
		"method", "multiple", "nohref", "noresize", "noshade",
		"nowrap", "readonly", "rel", "rev", "rules", "scope",
		"scrolling", "selected", "shape", "target", "text", "type",
		"valign", "valuetype", "vlink", NULL };
	size_t k;

	for (k = 0; list[k]; k++)
		if (!strcmp(list[k], name))
			return 1;
	return 0;
}

/* s[0..n) == t[0..n), with or without case. */
static int
same(const char *s, const char *t, size_t n, int icase)
{
	return icase ? !strncasecmp(s, t, n) : !memcmp(s, t, n);
}

/* Whether v, a list of words separated by white space, holds w[0..n). */
static int
has_word(const char *v, const char *w, size_t n, int icase)
{
	const char *p = v, *e;

	if (!n)
		return 0;
	for (;;) {
		while (*p && css_space((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		for (e = p; *e && !css_space((unsigned char)*e); e++)
			;
		if ((size_t)(e - p) == n && same(p, w, n, icase))
			return 1;
		p = e;
	}
}

/* Whether v holds w[0..n) anywhere (memmem: linear, no case). */
static int
has_substr(const char *v, size_t vl, const char *w, size_t n, int icase)
{
	size_t k;

	if (!icase)
		return memmem(v, vl, w, n) != NULL;
	for (k = 0; k + n <= vl; k++)
		if (!strncasecmp(v + k, w, n))
			return 1;
	return 0;
}

static int
attr_match(const struct uk_extract_select *sel, const struct simple *sp,
    GumboNode *g)
{
	const char *name = sel->strs.buf + sp->name;
	const char *w = sel->strs.buf + sp->value, *v;
	GumboAttribute *a;
	size_t vl, n = sp->vlen;
	int icase;

	a = gumbo_get_attribute(&g->v.element.attributes, name);
	if (!a)
		return 0;
	if (sp->op == OP_EXISTS)
		return 1;
	v = a->value;
	vl = strlen(v);
	icase = sp->cs == CASE_I || (sp->cs == CASE_HTML &&
	    g->v.element.tag_namespace == GUMBO_NAMESPACE_HTML &&
	    html_icase_attr(name));
	switch (sp->op) {
	case OP_EQ:
		return vl == n && same(v, w, n, icase);
	case OP_WORD:
		return !strpbrk(w, " \t\n\r\f") && has_word(v, w, n, icase);
	case OP_DASH:
		return (vl == n || (vl > n && v[n] == '-')) &&
		    same(v, w, n, icase);
	case OP_PREFIX:
		return n && vl >= n && same(v, w, n, icase);
	case OP_SUFFIX:
		return n && vl >= n && same(v + vl - n, w, n, icase);
	case OP_SUBSTR:
		return n && has_substr(v, vl, w, n, icase);
	default:
		return 0;
	}
}

/* The element's name in lower case into buf (an unknown tag's too). */
static const char *
tag_name(GumboNode *g, char *buf, size_t size)
{
	GumboStringPiece t = g->v.element.original_tag;
	size_t k;

	if (g->v.element.tag != GUMBO_TAG_UNKNOWN)
		return gumbo_normalized_tagname(g->v.element.tag);
	if (!t.data)
		return "";
	gumbo_tag_from_original_text(&t);
	for (k = 0; k < t.length && k + 1 < size; k++)
		buf[k] = (char)tolower((unsigned char)t.data[k]);
	buf[k] = '\0';
	return k < t.length ? "" : buf;
}

/* The value of attribute name of g, or NULL. */
static const char *
attr(GumboNode *g, const char *name)
{
	GumboAttribute *a;

	a = gumbo_get_attribute(&g->v.element.attributes, name);
	return a ? a->value : NULL;
}

static int
simple_match(const struct uk_extract_select *sel, const struct simple *sp,
    GumboNode *g)
{
	const char *w = sel->strs.buf + sp->value, *v;
	char buf[128];
	int m;

	switch (sp->kind) {
	case K_ANY:
		m = 1;
		break;
	case K_TYPE:
		if (sp->tag != GUMBO_TAG_UNKNOWN)
			m = g->v.element.tag == (GumboTag)sp->tag;
		else
			m = !strcmp(tag_name(g, buf, sizeof(buf)),
			    sel->strs.buf + sp->name);
		break;
	case K_ID:
		v = attr(g, "id");
		m = v && !strcmp(v, w);
		break;
	case K_CLASS:
		v = attr(g, "class");
		m = v && has_word(v, w, strlen(w), 0);
		break;
	default:
		m = attr_match(sel, sp, g);
	}
	return sp->neg ? !m : m;
}

static int
compound_match(const struct uk_extract_select *sel,
    const struct compound *cp, GumboNode *g)
{
	int k;

	for (k = 0; k < cp->n; k++)
		if (!simple_match(sel, &sel->simple[cp->first + k], g))
			return 0;
	return 1;
}

/*
 * The bit sets S and D (see the top of this file) of element g for each
 * complex selector, from its parent's ps and pd, into s and d; whether
 * one of them matches g.
 */
static int
element_state(const struct uk_extract_select *sel, GumboNode *g,
    const uint32_t *ps, const uint32_t *pd, uint32_t *s, uint32_t *d)
{
	int j, i, matched = 0;

	for (j = 0; j < sel->ncomplex; j++) {
		const struct complex *cx = &sel->complex[j];
		uint32_t bits = 0;

		for (i = 0; i < cx->n; i++) {
			const struct compound *cp =
			    &sel->compound[cx->first + i];
			uint32_t prev = i ? (uint32_t)1 << (i - 1) : 0;
			uint32_t up = cp->comb == '>' ? ps[j] : pd[j];

			if (i && !(up & prev))
				continue;
			if (compound_match(sel, cp, g))
				bits |= (uint32_t)1 << i;
		}
		s[j] = bits;
		d[j] = pd[j] | bits;
		if (bits & (uint32_t)1 << (cx->n - 1))
			matched = 1;
	}
	return matched;
}

static int
is_element(GumboNode *g)
{
	return g->type == GUMBO_NODE_ELEMENT || g->type == GUMBO_NODE_TEMPLATE;
}

size_t
uk_extract_select_each(const struct uk_extract_select *sel,
    struct GumboInternalNode *root,
    void (*fn)(void *arg, struct GumboInternalNode *g), void *arg)
{
	/* The walk's stack: each level's node and next child. */
	struct level {
		GumboNode *g;
		unsigned next;
	} *st = NULL;
	/*
	 * The bit sets, S then D for each complex selector, of st[k]'s
	 * element at level k + 1; level 0 (above the root) and a
	 * document's level are all empty.
	 */
	uint32_t *bits = NULL;
	size_t nc = (size_t)sel->ncomplex, lv = 2 * nc, matched = 0;
	int sn = 0, salloc = 16;

	if (root->type != GUMBO_NODE_DOCUMENT && !is_element(root))
		return 0;
	st = uk_util_xmalloc((size_t)salloc * sizeof(*st));
	bits = uk_util_xcalloc(((size_t)salloc + 1) * lv, sizeof(*bits));
	if (is_element(root) &&
	    element_state(sel, root, bits, bits + nc, bits + lv,
		bits + lv + nc)) {
		fn(arg, root);
		matched++;
	}
	st[0].g = root;
	st[0].next = 0;
	sn = 1;
	while (sn) {
		GumboNode *g = st[sn - 1].g, *ch;
		GumboVector *kids = g->type == GUMBO_NODE_DOCUMENT ?
		    &g->v.document.children : &g->v.element.children;
		uint32_t *ps;

		if (st[sn - 1].next >= kids->length) {
			sn--;
			continue;
		}
		ch = kids->data[st[sn - 1].next++];
		if (!is_element(ch))
			continue;
		if (sn == salloc) {
			salloc *= 2;
			st = uk_util_xrealloc(st, (size_t)salloc * sizeof(*st));
			bits = uk_util_xrealloc(bits,
			    ((size_t)salloc + 1) * lv * sizeof(*bits));
		}
		ps = bits + (size_t)sn * lv;
		if (element_state(sel, ch, ps, ps + nc, ps + lv,
			ps + lv + nc)) {
			fn(arg, ch);
			matched++;
		}
		st[sn].g = ch;
		st[sn].next = 0;
		sn++;
	}
	free(st);
	free(bits);
	return matched;
}
