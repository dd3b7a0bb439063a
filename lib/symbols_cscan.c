/* SPDX-License-Identifier: MIT */
/*
 * A C or C++ header's tags without tree-sitter: a declaration scanner as
 * universal-ctags's C and C++ parsers are.  Written by hand because
 * tree-sitter's C++ grammar took 57% of a header-heavy tree's time (its
 * error recovery on the macros it cannot parse most of that: 46% of
 * boost's headers err, 73% of their parse time), and no library that
 * Debian packages parses C++ declarations cheaply; the map wants only
 * what a header declares and what it refers to.
 *
 * A token stream (comments, strings, raw strings, character literals and
 * preprocessor lines skipped; `#if 0` groups skipped; an `#else` or
 * `#elif` branch skipped when the branch before it left the braces
 * unbalanced, so that braces pair up) feeds a recogniser of declarations
 * at namespace and class scope: namespace, class, struct, union, enum,
 * typedef, `using X =`, function declarations and definitions, and the
 * function-like macros of #define lines.  Function bodies, enumerator
 * lists and initialisers are skipped by their braces; the identifiers a
 * body calls or names with a capital are references, as symbols_lex.c
 * takes them.  In declarations, an identifier followed by a name, `*`,
 * `&`, `<` or `...`, or one written with a capital, is a type reference;
 * a quoted #include is a module reference.  Each definition gets what
 * tree-sitter's walk gave it (symbols_sig.c's rules by text): the
 * signature from the start of its line to its body or the end of its
 * brackets, the header and name of the class or namespace around it, the
 * comments right above it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

enum tk { T_EOF, T_ID, T_PUNCT, T_STR, T_NUM };

struct tok {
	enum tk kind;
	size_t start, end;
	uint32_t line;
	int nl; /* the first token of its line */
};

#define MAX_COMMENTS 64
#define MAX_COND     64
#define MAX_SCOPES   256

struct comment {
	size_t start, end;
	uint32_t line, last;
};

/* An #if group: the brace depth at its #if, and after its first branch. */
struct cond {
	int depth, first_end, have_first;
};

enum scope_kind { S_BLOCK, S_NAMESPACE, S_CLASS };

struct scope {
	enum scope_kind kind;
	char *sig, *name; /* malloc'd; NULL for a block */
	uint32_t line, nlines;
	/* The declaration the class's body is part of: `typedef struct
	 * {...} name;` goes on after it. */
	int typedef_;
	size_t dstart;
	uint32_t dline;
	char *doc;
};

/* What a tag needs before the tags are sorted by position. */
struct ctag {
	size_t pos;
	struct rtag t;
};

struct cscan {
	const char *t;
	size_t n, i;
	uint32_t line;
	int bol, c; /* c: whether the file is C (no "method" kind) */
	int depth;  /* braces open */
	struct cond cond[MAX_COND];
	int ncond;
	struct comment com[MAX_COMMENTS];
	int ncom;
	struct scope sc[MAX_SCOPES];
	int nsc;
	struct ctag *tags;
	size_t ntags, atags;
	struct tok la; /* one token of lookahead, when have_la */
	int have_la;
};

/* C and C++'s reserved words and the standard type names: never names. */
static const char *const keywords[] = { "_Alignas", "_Alignof", "_Atomic",
	"_Bool", "_Complex", "_Noreturn", "_Static_assert", "_Thread_local",
	"__asm", "__asm__", "__attribute", "__attribute__", "__cdecl",
	"__declspec", "__extension__", "__inline", "__inline__", "__restrict",
	"__restrict__", "__stdcall", "__typeof__", "__volatile__", "alignas",
	"alignof", "and", "asm", "auto", "bool", "break", "case", "catch",
	"char", "char16_t", "char32_t", "char8_t", "class", "co_await",
	"co_return", "co_yield", "concept", "const", "const_cast", "consteval",
	"constexpr", "constinit", "continue", "decltype", "default", "defined",
	"delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
	"export", "extern", "false", "final", "float", "for", "friend", "goto",
	"if", "inline", "int", "int16_t", "int32_t", "int64_t", "int8_t",
	"intptr_t", "long", "mutable", "namespace", "new", "noexcept", "not",
	"nullptr", "operator", "or", "override", "private", "protected",
	"ptrdiff_t", "public", "register", "reinterpret_cast", "requires",
	"restrict", "return", "short", "signed", "size_t", "sizeof", "ssize_t",
	"static", "static_assert", "static_cast", "struct", "switch",
	"template", "this", "thread_local", "throw", "true", "try", "typedef",
	"typeid", "typename", "typeof", "uint16_t", "uint32_t", "uint64_t",
	"uint8_t", "uintptr_t", "union", "unsigned", "using", "virtual",
	"void", "volatile", "wchar_t", "while" };

static int
kw_cmp(const void *key, const void *elt)
{
	return strcmp(*(const char *const *)key, *(const char *const *)elt);
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

static int
is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int
tok_is(const struct cscan *s, const struct tok *k, const char *w)
{
	size_t n = strlen(w);

	return k->end - k->start == n && !memcmp(s->t + k->start, w, n);
}

static int
punct(const struct cscan *s, const struct tok *k, char c)
{
	return k->kind == T_PUNCT && k->end - k->start == 1 &&
	    s->t[k->start] == c;
}

/* Lines and comments. */

static void
add_comment(struct cscan *s, size_t a, size_t e, uint32_t line)
{
	if (s->ncom == MAX_COMMENTS) {
		memmove(s->com, s->com + 1, (MAX_COMMENTS - 1) * sizeof(*s->com));
		s->ncom--;
	}
	s->com[s->ncom].start = a;
	s->com[s->ncom].end = e;
	s->com[s->ncom].line = line;
	s->com[s->ncom++].last = s->line;
}

/* Past a block comment opened at s->i, lines counted. */
static void
skip_block_comment(struct cscan *s)
{
	size_t i = s->i + 2;

	while (i + 1 < s->n && !(s->t[i] == '*' && s->t[i + 1] == '/'))
		s->line += s->t[i++] == '\n';
	s->i = i + 1 < s->n ? i + 2 : s->n;
}

/* To the end of the line (its newline not taken), continuations kept. */
static void
skip_to_eol(struct cscan *s)
{
	while (s->i < s->n && s->t[s->i] != '\n') {
		if (s->t[s->i] == '\\' && s->i + 1 < s->n &&
		    s->t[s->i + 1] == '\n') {
			s->line++;
			s->i += 2;
		} else if (s->t[s->i] == '\\' && s->i + 2 < s->n &&
		    s->t[s->i + 1] == '\r' && s->t[s->i + 2] == '\n') {
			s->line++;
			s->i += 3;
		} else if (s->t[s->i] == '/' && s->i + 1 < s->n &&
		    s->t[s->i + 1] == '*') {
			skip_block_comment(s);
		} else {
			s->i++;
		}
	}
}

/* Past a quoted literal opened by q at s->i. */
static void
skip_quoted(struct cscan *s, char q)
{
	size_t i = s->i + 1;

	for (; i < s->n && s->t[i] != q && s->t[i] != '\n'; i++)
		if (s->t[i] == '\\' && i + 1 < s->n)
			s->line += s->t[++i] == '\n';
	s->i = i < s->n && s->t[i] == q ? i + 1 : i;
}

/* Past a raw string whose quote is at s->i: R"delim( ... )delim". */
static int
skip_raw(struct cscan *s)
{
	size_t i = s->i, d = i + 1, dl, j;

	while (d < s->n && s->t[d] != '(' && s->t[d] != '"' && d - i <= 17)
		d++;
	if (d >= s->n || s->t[d] != '(')
		return 0;
	dl = d - (i + 1);
	for (j = d + 1; j < s->n; j++) {
		if (s->t[j] == '\n')
			s->line++;
		else if (s->t[j] == ')' && j + 1 + dl < s->n &&
		    !memcmp(s->t + j + 1, s->t + i + 1, dl) &&
		    s->t[j + 1 + dl] == '"') {
			s->i = j + 2 + dl;
			return 1;
		}
	}
	s->i = s->n;
	return 1;
}

/* Tags. */

static struct rtag *
add_tag(struct cscan *s, size_t pos, int def, const char *kind,
    uint32_t line, size_t a, size_t e)
{
	struct ctag *c;

	GROW(s->tags, s->ntags, s->atags);
	c = &s->tags[s->ntags++];
	memset(c, 0, sizeof(*c));
	c->pos = pos;
	c->t.def = def;
	c->t.kind = kind;
	c->t.line = line;
	c->t.name = uk_util_xmemdup(s->t + a, e - a);
	return &c->t;
}

static void
ref(struct cscan *s, const struct tok *k, const char *kind)
{
	add_tag(s, k->start, 0, kind, k->line, k->start, k->end);
}

/* The preprocessor. */

/* The directive's word at s->i (past the '#'): its bounds. */
static void
directive_word(struct cscan *s, size_t *a, size_t *e)
{
	while (s->i < s->n && is_blank((unsigned char)s->t[s->i]))
		s->i++;
	*a = s->i;
	while (s->i < s->n && id_char((unsigned char)s->t[s->i]))
		s->i++;
	*e = s->i;
}

static int
word_is(const struct cscan *s, size_t a, size_t e, const char *w)
{
	return e - a == strlen(w) && !memcmp(s->t + a, w, e - a);
}

/*
 * Skip lines up to the #else, #elif or #endif that ends the group the
 * scanner is in (nested groups skipped whole), leaving s->i at its '#';
 * to_endif: past every #else and #elif too.
 */
static void
skip_group(struct cscan *s, int to_endif)
{
	int nest = 0;

	while (s->i < s->n) {
		size_t j = s->i, a, e;

		while (j < s->n && is_blank((unsigned char)s->t[j]))
			j++;
		if (j < s->n && s->t[j] == '#') {
			size_t hash = j;

			s->i = j + 1;
			directive_word(s, &a, &e);
			if (e - a >= 2 && !memcmp(s->t + a, "if", 2)) {
				nest++;
			} else if (word_is(s, a, e, "endif")) {
				if (nest-- == 0) {
					s->i = hash;
					return;
				}
			} else if (!nest && !to_endif &&
			    (word_is(s, a, e, "else") ||
				word_is(s, a, e, "elif"))) {
				s->i = hash;
				return;
			}
		} else {
			s->i = j;
		}
		skip_to_eol(s);
		if (s->i < s->n) {
			s->i++;
			s->line++;
		}
	}
}

/* A quoted #include: a module reference, its name with its quotes. */
static void
include_ref(struct cscan *s)
{
	size_t a, j;

	while (s->i < s->n && is_blank((unsigned char)s->t[s->i]))
		s->i++;
	if (s->i >= s->n || s->t[s->i] != '"')
		return;
	a = s->i;
	for (j = a + 1; j < s->n && s->t[j] != '"' && s->t[j] != '\n'; j++)
		;
	if (j < s->n && s->t[j] == '"')
		add_tag(s, a, 0, "module", s->line, a, j + 1);
}

/* #define NAME(: a macro definition, its line its signature. */
static void
define_def(struct cscan *s, size_t hash)
{
	size_t a, e, ls = hash;
	struct rtag *r;

	while (s->i < s->n && is_blank((unsigned char)s->t[s->i]))
		s->i++;
	a = s->i;
	while (s->i < s->n && id_char((unsigned char)s->t[s->i]))
		s->i++;
	e = s->i;
	if (e == a || s->i >= s->n || s->t[s->i] != '(')
		return;
	while (ls > 0 && s->t[ls - 1] != '\n')
		ls--;
	r = add_tag(s, a, 1, "macro", s->line, a, e);
	r->d.sig = uk_symsig_text(s->t, ls, s->n, 0, &r->d.nlines);
}

/*
 * The conditional directives: which branches the scanner reads.  1 when
 * a group was skipped (s->i is at the directive that ends it).
 */
static int
conditional(struct cscan *s, size_t a, size_t e)
{
	struct cond *c;

	if (e - a >= 2 && !memcmp(s->t + a, "if", 2)) {
		if (s->ncond < MAX_COND) {
			c = &s->cond[s->ncond++];
			c->depth = s->depth;
			c->have_first = 0;
		}
		/* #if 0 and #if (0): the group is dead. */
		if (word_is(s, a, e, "if")) {
			size_t j = s->i;

			while (j < s->n && (is_blank((unsigned char)s->t[j]) ||
					       s->t[j] == '('))
				j++;
			if (j < s->n && s->t[j] == '0' &&
			    (j + 1 >= s->n || !id_char((unsigned char)s->t[j + 1]))) {
				skip_to_eol(s);
				skip_group(s, 0);
				return 1;
			}
		}
	} else if (word_is(s, a, e, "else") || word_is(s, a, e, "elif")) {
		if (!s->ncond)
			return 0;
		c = &s->cond[s->ncond - 1];
		if (!c->have_first) {
			c->have_first = 1;
			c->first_end = s->depth;
		}
		/* The branch before left braces open: read it alone. */
		if (c->first_end != c->depth) {
			skip_to_eol(s);
			skip_group(s, 1);
			return 1;
		}
	} else if (word_is(s, a, e, "endif")) {
		if (s->ncond)
			s->ncond--;
	}
	return 0;
}

/* The directive whose '#' is at s->i: what it says, then past its line. */
static void
directive(struct cscan *s)
{
	size_t hash = s->i, a, e;

	s->i++;
	directive_word(s, &a, &e);
	if (word_is(s, a, e, "include"))
		include_ref(s);
	else if (word_is(s, a, e, "define"))
		define_def(s, hash);
	else if (conditional(s, a, e)) {
		s->bol = 1; /* at the directive that ended the group */
		return;
	}
	skip_to_eol(s);
}

/* The token stream. */

/* The token at s->i (no blank, comment or directive there) into k. */
static void
lex_token(struct cscan *s, struct tok *k)
{
	unsigned char c = (unsigned char)s->t[s->i];
	size_t a = s->i;

	if (id_start(c)) {
		while (s->i < s->n && id_char((unsigned char)s->t[s->i]))
			s->i++;
		k->kind = T_ID;
		/* A literal's prefix: u8"", L'', R"(...)", u8R"x(...)x". */
		if (s->i < s->n && s->i - a <= 3 &&
		    (s->t[s->i] == '"' || s->t[s->i] == '\'') &&
		    strchr("uUL8R", s->t[s->i - 1]) &&
		    strspn(s->t + a, "uUL8R") >= s->i - a) {
			k->kind = T_STR;
			if (!(s->t[s->i - 1] == 'R' && s->t[s->i] == '"' &&
				skip_raw(s)))
				skip_quoted(s, s->t[s->i]);
		}
	} else if (c >= '0' && c <= '9') {
		k->kind = T_NUM;
		while (s->i < s->n &&
		    (id_char((unsigned char)s->t[s->i]) || s->t[s->i] == '.' ||
			(s->t[s->i] == '\'' && s->i + 1 < s->n &&
			    id_char((unsigned char)s->t[s->i + 1])) ||
			((s->t[s->i] == '+' || s->t[s->i] == '-') &&
			    strchr("eEpP", s->t[s->i - 1]))))
			s->i++;
	} else if (c == '"' || c == '\'') {
		k->kind = T_STR;
		skip_quoted(s, (char)c);
	} else {
		k->kind = T_PUNCT;
		s->i++;
		if (s->i < s->n &&
		    ((c == ':' && s->t[s->i] == ':') ||
			(c == '-' && s->t[s->i] == '>')))
			s->i++;
		else if (c == '.' && s->i + 1 < s->n && s->t[s->i] == '.' &&
		    s->t[s->i + 1] == '.')
			s->i += 2;
	}
	k->end = s->i;
}

static void
lex(struct cscan *s, struct tok *k)
{
	s->ncom = 0;
	for (;;) {
		unsigned char c;
		size_t a;

		if (s->i >= s->n) {
			k->kind = T_EOF;
			k->start = k->end = s->n;
			k->line = s->line;
			k->nl = 1;
			return;
		}
		c = (unsigned char)s->t[s->i];
		if (c == '\n') {
			s->line++;
			s->bol = 1;
			s->i++;
			continue;
		}
		if (is_blank(c) || (c == '\\' && s->i + 1 < s->n &&
				       s->t[s->i + 1] == '\n')) {
			s->i++;
			continue;
		}
		if (c == '/' && s->i + 1 < s->n && s->t[s->i + 1] == '/') {
			a = s->i;
			skip_to_eol(s);
			add_comment(s, a, s->i, s->line);
			continue;
		}
		if (c == '/' && s->i + 1 < s->n && s->t[s->i + 1] == '*') {
			uint32_t l = s->line;

			a = s->i;
			skip_block_comment(s);
			add_comment(s, a, s->i, l);
			continue;
		}
		if (c == '#' && s->bol) {
			directive(s);
			s->ncom = 0;
			continue;
		}
		break;
	}
	k->nl = s->bol;
	s->bol = 0;
	k->start = s->i;
	k->line = s->line;
	lex_token(s, k);
}

/* Declarations. */

struct decl {
	int ntok;
	size_t start, dstart; /* the first token; the first past template<> */
	uint32_t start_line;
	int want_dstart;
	char *doc;
	int tmpl;     /* in a template's parameters: angles open */
	int tmpl_kw;  /* the previous token was `template` */
	int had_tmpl; /* the declaration is a template's */
	int typedef_, using_, namespace_, extern_, enum_, eq, cont;
	int typed; /* a macro's call on the line before gave the type */
	struct tok ckey, cname, ename, last, fptr, uname, nsname;
	int has_ckey, has_cname, spec, in_base, has_ename, has_last, has_fptr,
	    has_uname, has_ns;
	size_t spec_end, ns_end;
	int fstate; /* 0 none, 1 in its group, 2 after it, 3 taken */
	struct tok fname;
	int fqual, fdtor, fop, ctor_init;
	int op; /* 1 after `operator`, 2 in its `()`, 3 its name done */
	int pdepth, adepth;
	struct tok prev, prev2;
	struct tok pend;
	int has_pend;
};

static void
decl_reset(struct decl *d)
{
	free(d->doc);
	memset(d, 0, sizeof(*d));
}

/* The comments right above the line `line`: a doc comment, or NULL. */
static char *
doc_above(struct cscan *s, uint32_t line)
{
	size_t a[MAX_COMMENTS], e[MAX_COMMENTS];
	int k, n = 0;
	uint32_t next = line;

	for (k = s->ncom - 1; k >= 0; k--) {
		const struct comment *c = &s->com[k];
		const char *p = s->t + c->start;

		if (c->last + 1 < next)
			break;
		/* A comment with `!` after its marker documents its container. */
		if (c->end - c->start >= 3 && p[2] == '!')
			break;
		next = c->line;
		n++;
	}
	for (k = 0; k < n; k++) {
		a[k] = s->com[s->ncom - n + k].start;
		e[k] = s->com[s->ncom - n + k].end;
	}
	return n ? uk_symsig_comments(s->t, a, e, (size_t)n) : NULL;
}

static size_t
line_start(const struct cscan *s, size_t i)
{
	while (i > 0 && s->t[i - 1] != '\n')
		i--;
	return i;
}

/* The innermost class or namespace around, or NULL. */
static const struct scope *
cur_scope(const struct cscan *s)
{
	int k;

	for (k = s->nsc - 1; k >= 0; k--)
		if (s->sc[k].kind != S_BLOCK)
			return &s->sc[k];
	return NULL;
}

/*
 * A definition named by token k: its signature from the start of the
 * line of `from` to `to` (a body's brace when body, else the end of the
 * declaration), its doc, its scope.
 */
static void
def(struct cscan *s, const struct decl *d, const struct tok *k,
    const char *kind, size_t from, size_t to, int body, uint32_t line)
{
	struct rtag *r = add_tag(s, k->start, 1, kind, line, k->start,
	    k->end);
	const struct scope *sc = cur_scope(s);

	r->d.sig = uk_symsig_text(s->t, line_start(s, from), to, body,
	    &r->d.nlines);
	if (!r->d.sig) {
		r->d.sig = uk_util_xstrdup(r->name);
		r->d.nlines = 1;
	}
	r->d.doc = d->doc ? uk_util_xstrdup(d->doc) : NULL;
	if (sc && sc->sig) {
		r->d.scope = uk_util_xstrdup(sc->sig);
		r->d.scope_nlines = sc->nlines;
		r->d.scope_line = sc->line;
		r->d.scope_name = sc->name ? uk_util_xstrdup(sc->name) : NULL;
	}
}

static int
is_caps(const struct cscan *s, const struct tok *k)
{
	size_t i;

	if (k->kind != T_ID)
		return 0;
	for (i = k->start; i < k->end; i++)
		if ((s->t[i] >= 'a' && s->t[i] <= 'z'))
			return 0;
	return 1;
}

static int
is_name(const struct cscan *s, const struct tok *k)
{
	return k->kind == T_ID && !is_keyword(s->t + k->start, k->end - k->start);
}

/* Whether k may follow a function's parameters (`) const`, `) ->`). */
static int
after_params(const struct cscan *s, const struct tok *k)
{
	static const char *const w[] = { "const", "volatile", "noexcept",
		"override", "final", "throw", "try", "requires", "->", "&",
		"&&", "=", ":", ";", "{", "__attribute__", "[", NULL };
	size_t i;

	for (i = 0; w[i]; i++)
		if (tok_is(s, k, w[i]))
			return 1;
	return is_caps(s, k);
}

/* The enclosing class's name is n: n(...) is its constructor. */
static int
is_class_name(const struct cscan *s, const struct tok *n)
{
	const struct scope *sc = cur_scope(s);
	size_t l = n->end - n->start;

	return sc && sc->kind == S_CLASS && sc->name &&
	    !strncmp(sc->name, s->t + n->start, l) &&
	    (sc->name[l] == '\0' || sc->name[l] == '<');
}

/*
 * The identifier pending before k: a reference when k shows it a type
 * (a name, `*`, `&`, `<` or `...` after it) or it has a capital; a call
 * when `(` follows it in an expression.
 */
static void
settle(struct cscan *s, struct decl *d, const struct tok *k)
{
	const struct tok *p = &d->pend;

	d->has_pend = 0;
	if (d->namespace_ || punct(s, k, ':') || tok_is(s, k, "::"))
		return;
	if (punct(s, k, '(')) {
		if (d->pdepth > 0 || d->eq)
			ref(s, p, "call");
		return;
	}
	if (is_name(s, k) || punct(s, k, '*') || punct(s, k, '&') ||
	    punct(s, k, '<') || tok_is(s, k, "...") ||
	    (d->adepth > 0 && (punct(s, k, '>') || punct(s, k, ','))) ||
	    (s->t[p->start] >= 'A' && s->t[p->start] <= 'Z'))
		ref(s, p, "type");
}

/*
 * A body, an enumerator list or an initialiser, whose '{' was just read:
 * skipped to its '}', the names it calls or capitalises references when
 * refs.
 */
static void
skip_block(struct cscan *s, int refs)
{
	int depth = 1;
	struct tok k, pend;
	int has_pend = 0;

	s->depth++;
	for (;;) {
		lex(s, &k);
		if (has_pend) {
			has_pend = 0;
			if (punct(s, &k, '(') ||
			    (s->t[pend.start] >= 'A' && s->t[pend.start] <= 'Z'))
				ref(s, &pend, "call");
		}
		if (k.kind == T_EOF)
			return;
		if (k.kind == T_PUNCT && s->t[k.start] == '{') {
			depth++;
			s->depth++;
		} else if (k.kind == T_PUNCT && s->t[k.start] == '}') {
			s->depth--;
			if (--depth == 0)
				return;
		} else if (refs && is_name(s, &k)) {
			pend = k;
			has_pend = 1;
		}
	}
}

/* Push a scope whose '{' is at brace; sig from the line of `from`. */
static void
push_scope(struct cscan *s, enum scope_kind kind, size_t from, size_t brace,
    const char *name, size_t nlen, uint32_t line, int typedef_)
{
	struct scope *sc;

	s->depth++;
	if (s->nsc == MAX_SCOPES) {
		/* Too deep to be a header's: the rest of it skipped. */
		s->depth--;
		skip_block(s, 1);
		return;
	}
	sc = &s->sc[s->nsc++];
	memset(sc, 0, sizeof(*sc));
	sc->kind = kind;
	sc->typedef_ = typedef_;
	if (kind == S_BLOCK)
		return;
	sc->line = line;
	sc->sig = uk_symsig_text(s->t, line_start(s, from), brace, 1,
	    &sc->nlines);
	sc->name = nlen ? uk_util_xmemdup(name, nlen) : NULL;
}

static void
pop_scope(struct cscan *s, struct decl *d)
{
	struct scope *sc;

	if (s->depth > 0)
		s->depth--;
	decl_reset(d);
	if (!s->nsc)
		return;
	sc = &s->sc[--s->nsc];
	/* `typedef struct {...} name;`, `struct X {...} x;` go on. */
	if (sc->kind == S_CLASS) {
		d->cont = 1;
		d->ntok = 1;
		d->typedef_ = sc->typedef_;
		d->start = d->dstart = sc->dstart;
		d->start_line = sc->dline;
		d->doc = sc->doc;
		sc->doc = NULL;
	}
	free(sc->sig);
	free(sc->name);
	free(sc->doc);
}

/* The function d names: defined, or a macro's call. */
static void
function_def(struct cscan *s, struct decl *d, size_t end, int body)
{
	const char *kind = d->fqual && !s->c ? "method" : "function";

	if (d->fop || d->fdtor)
		return;
	/* `NAME(...);` with no type before it: a macro's call. */
	if (!body && d->fname.start == d->dstart && !d->fqual && !d->typed &&
	    !is_class_name(s, &d->fname)) {
		ref(s, &d->fname, "call");
		return;
	}
	def(s, d, &d->fname, kind, d->dstart, end, body, d->fname.line);
}

/* A class, struct or union's '{': its definition, and its scope. */
static void
open_class(struct cscan *s, struct decl *d, const struct tok *k)
{
	const char *name = NULL;
	size_t nlen = 0;

	if (d->has_cname) {
		name = s->t + d->cname.start;
		nlen = (d->spec && d->spec_end > d->cname.end ? d->spec_end :
							      d->cname.end) -
		    d->cname.start;
		/* A specialisation (`struct hash<Foo>`) defines no name. */
		if (!d->spec)
			def(s, d, &d->cname, "class",
			    d->had_tmpl ? d->start : d->ckey.start, k->start, 1,
			    d->ckey.line);
	}
	push_scope(s, S_CLASS, d->ckey.start, k->start, name, nlen,
	    d->ckey.line, d->typedef_);
	if (s->nsc && s->sc[s->nsc - 1].kind == S_CLASS) {
		s->sc[s->nsc - 1].dstart = d->start;
		s->sc[s->nsc - 1].dline = d->start_line;
		s->sc[s->nsc - 1].doc = d->doc;
		d->doc = NULL;
	}
	decl_reset(d);
}

/* The '{' of k: a scope, a body or an initialiser. */
static void
open_brace(struct cscan *s, struct decl *d, const struct tok *k)
{
	if (d->pdepth > 0 || (d->ctor_init && (d->prev.kind == T_ID ||
					       punct(s, &d->prev, '>')))) {
		skip_block(s, 1); /* f({1, 2}), a member's x_{x} */
		return;
	}
	if (d->fstate >= 2 && !d->eq) {
		function_def(s, d, k->start, 1);
		skip_block(s, 1);
		decl_reset(d);
		return;
	}
	if (d->namespace_) {
		size_t a = d->has_ns ? d->nsname.start : k->start;

		push_scope(s, S_NAMESPACE, d->start, k->start, s->t + a,
		    d->has_ns ? d->ns_end - a : 0, d->start_line, 0);
		decl_reset(d);
		return;
	}
	if (d->extern_ && d->prev.kind == T_STR) {
		push_scope(s, S_BLOCK, 0, 0, NULL, 0, 0, 0);
		decl_reset(d);
		return;
	}
	if (d->has_ckey && !d->eq && !d->enum_) {
		open_class(s, d, k);
		return;
	}
	if (d->enum_ && !d->eq) {
		if (d->has_ename)
			def(s, d, &d->ename, "type", d->ename.start, k->start,
			    1, d->ename.line);
		d->has_ename = 0;
		skip_block(s, 0);
		return;
	}
	if (!d->ntok) {
		push_scope(s, S_BLOCK, 0, 0, NULL, 0, 0, 0);
		return;
	}
	skip_block(s, 1);
}

/* The ';' that ends d. */
static void
end_decl(struct cscan *s, struct decl *d, const struct tok *k)
{
	if (d->typedef_ && d->pdepth == 0) {
		if (d->has_fptr)
			def(s, d, &d->fptr, "type", d->start, k->end, 0,
			    d->start_line);
		else if (d->has_last)
			def(s, d, &d->last, "type", d->start, k->end, 0,
			    d->start_line);
	} else if (d->using_ && d->has_uname && d->eq) {
		def(s, d, &d->uname, "type", d->dstart, k->end, 0,
		    d->uname.line);
	} else if (d->fstate >= 2 && !d->typedef_) {
		function_def(s, d, k->end, 0);
	}
	decl_reset(d);
}

/* An identifier of d at k. */
static void
decl_word(struct cscan *s, struct decl *d, const struct tok *k)
{
	int top = d->pdepth == 0 && d->adepth == 0;

	if (tok_is(s, k, "template")) {
		d->tmpl_kw = 1;
		return;
	}
	if (top && tok_is(s, k, "typedef"))
		d->typedef_ = 1;
	else if (top && tok_is(s, k, "using"))
		d->using_ = 1;
	else if (top && tok_is(s, k, "namespace"))
		d->namespace_ = 1;
	else if (top && tok_is(s, k, "extern"))
		d->extern_ = 1;
	else if (top && tok_is(s, k, "enum"))
		d->enum_ = 1;
	else if (top && !d->enum_ && !d->has_ckey && !d->fstate &&
	    (tok_is(s, k, "class") || tok_is(s, k, "struct") ||
		tok_is(s, k, "union"))) {
		d->has_ckey = 1;
		d->ckey = *k;
	} else if (tok_is(s, k, "operator") && top && !d->fstate) {
		d->op = 1;
		d->fname = *k;
	}
	if (!is_name(s, k))
		return;
	if (top) {
		d->last = *k;
		d->has_last = 1;
		if (d->has_ckey && !d->in_base && !d->fstate) {
			d->cname = *k;
			d->has_cname = 1;
			d->spec = 0;
		}
		if (d->enum_ && !d->in_base && !d->has_ename) {
			d->ename = *k;
			d->has_ename = 1;
		}
		if (d->using_ && !d->has_uname && !d->eq) {
			d->uname = *k;
			d->has_uname = 1;
		}
		if (d->namespace_) {
			if (!d->has_ns)
				d->nsname = *k;
			d->has_ns = 1;
			d->ns_end = k->end;
		}
	}
	/* typedef int (*name)(...): the name right after "(*". */
	if (d->typedef_ && d->pdepth == 1 && !d->has_fptr &&
	    punct(s, &d->prev, '*') && punct(s, &d->prev2, '(')) {
		d->fptr = *k;
		d->has_fptr = 1;
	}
	d->pend = *k;
	d->has_pend = 1;
}

/*
 * After a parenthesised group that followed a name (d->fstate 2), k: the
 * group was the function's parameters (3), a macro's call before the
 * declaration (0), or a macro's call on a line of its own with no `;`
 * (-1: the declaration starts again at k).
 */
static int
after_group(struct cscan *s, struct decl *d, const struct tok *k)
{
	if (after_params(s, k))
		return 3;
	if (d->fname.start == d->dstart && !d->fop && !d->fdtor &&
	    !is_class_name(s, &d->fname) && k->nl) {
		ref(s, &d->fname, "call");
		return -1;
	}
	if (!d->fop)
		ref(s, &d->fname, "call");
	return 0;
}

/* A '(' of d at k: perhaps the group of a function's parameters. */
static void
open_paren(struct cscan *s, struct decl *d, const struct tok *k)
{
	const struct tok *p = &d->prev;

	(void)k;
	d->pdepth++;
	if (d->pdepth != 1 || d->adepth || d->eq || d->fstate)
		return;
	if (d->op) {
		if (d->op == 1 && tok_is(s, p, "operator")) {
			d->op = 2; /* operator() */
			return;
		}
		if (d->op == 2)
			return;
		d->fop = 1;
		d->fstate = 1;
		return;
	}
	if (!is_name(s, p) || d->typedef_ || d->using_)
		return;
	d->fstate = 1;
	d->fname = *p;
	d->fqual = tok_is(s, &d->prev2, "::");
	d->fdtor = punct(s, &d->prev2, '~');
}

/* A punctuator of d at k, but braces and ';'. */
static void
decl_punct(struct cscan *s, struct decl *d, const struct tok *k)
{
	int top = d->pdepth == 0 && d->adepth == 0;
	char c = s->t[k->start];

	if (k->end - k->start > 1) {
		if (tok_is(s, k, "::") && d->namespace_)
			d->ns_end = k->end;
		return;
	}
	switch (c) {
	case '(':
	case '[':
		if (c == '(')
			open_paren(s, d, k);
		else
			d->pdepth++;
		break;
	case ')':
	case ']':
		if (d->pdepth > 0)
			d->pdepth--;
		if (d->pdepth == 0 && c == ')') {
			if (d->op == 2)
				d->op = 3;
			else if (d->fstate == 1)
				d->fstate = 2;
		}
		break;
	case '<':
		if (d->pdepth == 0 && d->prev.kind == T_ID && !d->op) {
			if (d->adepth == 0 && d->has_cname &&
			    d->prev.start == d->cname.start)
				d->spec = 1;
			d->adepth++;
		}
		break;
	case '>':
		if (d->pdepth == 0 && d->adepth > 0 && --d->adepth == 0 &&
		    d->spec)
			d->spec_end = k->end;
		break;
	case ':':
		if (!top)
			break;
		if (d->has_ckey && !d->fstate)
			d->in_base = 1;
		else if (d->enum_)
			d->in_base = 1;
		else if (d->fstate >= 2)
			d->ctor_init = 1;
		else if ((d->ntok == 2 || d->prev.nl) &&
		    (tok_is(s, &d->prev, "public") ||
					     tok_is(s, &d->prev, "private") ||
					     tok_is(s, &d->prev, "protected")))
			decl_reset(d); /* an access label */
		break;
	case '=':
		if (top && (!d->op || d->fstate))
			d->eq = 1;
		break;
	case ',':
		/* typedef int a, *b; */
		if (top && d->typedef_ && d->has_last && !d->has_ckey) {
			def(s, d, &d->last, "type", d->start, k->end, 0,
			    d->start_line);
			d->has_last = 0;
		}
		break;
	default:
		break;
	}
}

/* Token k of the declaration d; 1 when d starts again at k. */
static int
decl_token(struct cscan *s, struct decl *d, const struct tok *k)
{
	if (d->has_pend)
		settle(s, d, k);
	if (d->fstate == 2) {
		int r = after_group(s, d, k);

		if (r < 0)
			return 1;
		d->fstate = r;
	}
	if (!d->ntok) {
		d->start = d->dstart = k->start;
		d->start_line = k->line;
		d->doc = doc_above(s, k->line);
	}
	if (d->want_dstart) {
		d->dstart = k->start;
		d->want_dstart = 0;
	}
	d->ntok++;
	if (d->tmpl) {
		/* template <...>: its parameters. */
		if (punct(s, k, '<'))
			d->tmpl++;
		else if (punct(s, k, '>') && --d->tmpl == 0)
			d->want_dstart = 1;
	} else if (d->tmpl_kw && punct(s, k, '<')) {
		d->tmpl = 1;
		d->had_tmpl = 1;
	} else if (k->kind == T_ID) {
		d->tmpl_kw = 0;
		decl_word(s, d, k);
	} else if (k->kind == T_PUNCT) {
		decl_punct(s, d, k);
	}
	if (k->kind != T_ID)
		d->tmpl_kw = 0;
	if (d->ntok) {
		d->prev2 = d->prev;
		d->prev = *k;
	}
	return 0;
}

static int
ctag_cmp(const void *a, const void *b)
{
	const struct ctag *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->t.def < y->t.def ? 1 : x->t.def > y->t.def ? -1 : 0;
}

/* The declarations of s, to its end. */
static void
scan(struct cscan *s)
{
	struct decl d;
	struct tok k;

	memset(&d, 0, sizeof(d));
	for (;;) {
		lex(s, &k);
		if (k.kind == T_EOF)
			break;
		if (punct(s, &k, '{') && !d.tmpl) {
			if (d.has_pend)
				settle(s, &d, &k);
			if (d.fstate == 2)
				d.fstate = 3;
			if (!d.ntok) {
				d.start = d.dstart = k.start;
				d.start_line = k.line;
			}
			open_brace(s, &d, &k);
			if (d.ntok) {
				d.prev2 = d.prev;
				d.prev = k;
				d.ntok++;
			}
		} else if (punct(s, &k, '}')) {
			if (d.has_pend)
				settle(s, &d, &k);
			pop_scope(s, &d);
		} else if (punct(s, &k, ';') && !d.tmpl) {
			if (d.has_pend)
				settle(s, &d, &k);
			if (d.fstate == 2)
				d.fstate = 3;
			end_decl(s, &d, &k);
		} else if (decl_token(s, &d, &k)) {
			/* MACRO(type)\nname(...): the macro's call a type. */
			decl_reset(&d);
			d.typed = 1;
			decl_token(s, &d, &k);
		}
	}
	decl_reset(&d);
	while (s->nsc > 0) {
		s->nsc--;
		free(s->sc[s->nsc].sig);
		free(s->sc[s->nsc].name);
		free(s->sc[s->nsc].doc);
	}
}

void
uk_symcscan_tags(int li, const char *text, size_t len, struct fres *r)
{
	struct cscan s;
	size_t k, ar = 0;

	memset(&s, 0, sizeof(s));
	s.t = text;
	s.n = len;
	s.line = 1;
	s.bol = 1;
	s.c = li == UK_SYMLANG_C;
	scan(&s);
	if (s.ntags)
		qsort(s.tags, s.ntags, sizeof(*s.tags), ctag_cmp);
	for (k = 0; k < s.ntags; k++) {
		GROW(r->tags, r->ntags, ar);
		r->tags[r->ntags++] = s.tags[k].t;
	}
	free(s.tags);
}

int
uk_symcscan_enabled(void)
{
	const char *v = getenv("UK_SYMBOLS_TSHEADERS");

	return !(v && *v);
}
