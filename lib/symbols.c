/* SPDX-License-Identifier: MIT */
/*
 * The symbol index: tree-sitter tags queries, a file graph, PageRank and
 * the map.  See symbols.h.
 *
 * Debian's tree-sitter 0.20.7 parses the predicates of a query but applies
 * none of them, so they are applied here: #eq?, #not-eq?, #match?,
 * #not-match?, #any-of? filter matches; #select-adjacent! and
 * #set-adjacent! keep only the comments that touch the definition;
 * #strip! removes a regular expression (Rust syntax, hence PCRE2) from
 * them; #is-not? local drops names assigned or bound as parameters in the
 * same file (Ruby: a file-wide approximation of scopes).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include "banned.h"
#include "json.h"
#include "strset.h"
#include "symbols.h"
#include "symbols_int.h"
#include "symcache.h"
#include "util.h"

/* Grammars, from .grammars/obj. */
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_rust(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_ruby(void);
/* Tags queries, embedded by scripts/grammars --queries. */
extern const char uk_tags_python[], uk_tags_javascript[], uk_tags_c[],
    uk_tags_cpp[], uk_tags_go[], uk_tags_rust[], uk_tags_java[], uk_tags_ruby[],
    uk_tags_typescript[];

struct lang {
	const char *name;
	const char *exts; /* ".a.b." */
	const TSLanguage *(*fn)(void);
	const char *tags;
	const char *extra;
};

static const struct lang langs[] = {
	{ "python", ".py.pyi.", tree_sitter_python, uk_tags_python,
	    uk_symq_python_extra },
	{ "javascript", ".js.jsx.mjs.cjs.", tree_sitter_javascript,
	    uk_tags_javascript, uk_symq_js_extra },
	{ "typescript", ".ts.mts.cts.", tree_sitter_typescript,
	    uk_tags_typescript, uk_symq_ts_extra },
	{ "tsx", ".tsx.", tree_sitter_tsx, uk_tags_typescript,
	    uk_symq_ts_extra },
	{ "c", ".c.h.", tree_sitter_c, uk_tags_c, uk_symq_c_extra },
	{ "cpp", ".cc.cpp.cxx.c++.hpp.hh.hxx.h++.", tree_sitter_cpp,
	    uk_tags_cpp, uk_symq_cpp_extra },
	{ "go", ".go.", tree_sitter_go, uk_tags_go, NULL },
	{ "rust", ".rs.", tree_sitter_rust, uk_tags_rust, uk_symq_rust_extra },
	{ "java", ".java.", tree_sitter_java, uk_tags_java,
	    uk_symq_java_extra },
	{ "ruby", ".rb.", tree_sitter_ruby, uk_tags_ruby, NULL },
};
#define NLANGS (sizeof(langs) / sizeof(langs[0]))
#define LANG_PYTHON 0 /* langs[0] */

enum role { R_NONE, R_NAME, R_DEF, R_REF, R_DOC };

enum pred_op {
	P_EQ,
	P_NOT_EQ,
	P_MATCH,
	P_NOT_MATCH,
	P_ANY_OF,
	P_STRIP,
	P_ADJACENT,
	P_NOT_LOCAL
};

struct pred {
	enum pred_op op;
	uint32_t cap, cap2; /* cap2 for #eq? against a capture, else ~0 */
	const char *str;    /* for #eq? against a string */
	pcre2_code *re;
	const char **strs; /* #any-of? */
	size_t nstrs;
};

struct pattern {
	struct pred *preds;
	size_t npreds;
	int never;       /* a predicate we could not compile: no match */
	uint32_t doccap; /* the comments' capture, or ~0 */
};

struct qstate {
	int tried, ok;
	char errmsg[200];
	TSQuery *q;
	uint32_t ncaps;
	unsigned char *role;
	char **kind; /* per capture: "function", "call", ... */
	struct pattern *pats;
	uint32_t npats;
};

struct name_slot {
	char *s;
	uint32_t id;
	uint32_t hash;
};

/* What one thread needs to parse and query. */
struct worker {
	struct symarena arena;
	pcre2_match_data *md;
};

struct uk_symbols {
	struct worker w;
	struct qstate qs[NLANGS];
	double deadline; /* CLOCK_MONOTONIC seconds, 0 for none */
	double file_limit; /* seconds one file may parse, 0 for no limit */

	struct symtab t;

	/* Interned names (their strings are t.names). */
	struct name_slot *slots;
	size_t cap, anames;

	/* Evidence files are lexed, not parsed, unless under one of these. */
	int lex_evidence;
	char **parse_under;
	size_t nparse_under;
	struct uk_symbols_counts counts;
	struct uk_symcache *cache; /* not owned; NULL: none */
};

const char *
uk_symbols_lang(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;
	char ext[16];
	size_t i, n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	n = strlen(dot);
	if (n + 2 > sizeof(ext))
		return NULL;
	for (i = 0; i < n; i++)
		ext[i] = (char)tolower((unsigned char)dot[i]);
	ext[n] = '.';
	ext[n + 1] = '\0';
	for (i = 0; i < NLANGS; i++)
		if (strstr(langs[i].exts, ext))
			return langs[i].name;
	return NULL;
}

static int
lang_index(const char *path)
{
	const char *name = uk_symbols_lang(path);
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < NLANGS; i++)
		if (!strcmp(langs[i].name, name))
			return (int)i;
	return -1;
}

/* Names. */

static uint32_t
hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t
intern(struct uk_symbols *s, const char *name, size_t n)
{
	uint32_t h = hash_name(name, n);
	size_t i;

	if (s->t.nnames * 2 >= s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024, j;
		struct name_slot *ns = uk_xcalloc(ncap, sizeof(*ns));

		for (j = 0; j < s->cap; j++) {
			if (!s->slots[j].s)
				continue;
			i = s->slots[j].hash & (ncap - 1);
			while (ns[i].s)
				i = (i + 1) & (ncap - 1);
			ns[i] = s->slots[j];
		}
		free(s->slots);
		s->slots = ns;
		s->cap = ncap;
	}
	i = h & (s->cap - 1);
	while (s->slots[i].s) {
		if (s->slots[i].hash == h && !strncmp(s->slots[i].s, name, n) &&
		    s->slots[i].s[n] == '\0')
			return s->slots[i].id;
		i = (i + 1) & (s->cap - 1);
	}
	s->slots[i].s = uk_xmemdup(name, n);
	s->slots[i].hash = h;
	s->slots[i].id = (uint32_t)s->t.nnames;
	GROW(s->t.names, s->t.nnames, s->anames);
	s->t.names[s->t.nnames] = s->slots[i].s;
	return (uint32_t)s->t.nnames++;
}

/* Queries and their predicates. */

static pcre2_code *
compile_re(const char *pat)
{
	int errcode;
	PCRE2_SIZE erroff;

	return pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
	    &errcode, &erroff, NULL);
}

static void
setup_predicates(struct qstate *st, uint32_t p)
{
	uint32_t nsteps, i, start;
	const TSQueryPredicateStep *steps;
	struct pattern *pat = &st->pats[p];
	size_t apreds = 0;

	pat->doccap = ~0u;
	steps = ts_query_predicates_for_pattern(st->q, p, &nsteps);
	for (start = 0; start < nsteps; start = i + 1) {
		const TSQueryPredicateStep *a = &steps[start];
		const char *fn;
		uint32_t len, nargs;
		struct pred pr;

		for (i = start; i < nsteps; i++)
			if (steps[i].type == TSQueryPredicateStepTypeDone)
				break;
		nargs = i - start - 1;
		if (i == start || a[0].type != TSQueryPredicateStepTypeString)
			continue;
		fn = ts_query_string_value_for_id(st->q, a[0].value_id, &len);
		memset(&pr, 0, sizeof(pr));
		pr.cap2 = ~0u;
		if (!strcmp(fn, "eq?") || !strcmp(fn, "not-eq?")) {
			pr.op = fn[0] == 'e' ? P_EQ : P_NOT_EQ;
			if (nargs != 2 ||
			    a[1].type != TSQueryPredicateStepTypeCapture)
				goto bad;
			pr.cap = a[1].value_id;
			if (a[2].type == TSQueryPredicateStepTypeCapture)
				pr.cap2 = a[2].value_id;
			else
				pr.str = ts_query_string_value_for_id(st->q,
				    a[2].value_id, &len);
		} else if (!strcmp(fn, "match?") || !strcmp(fn, "not-match?") ||
		    !strcmp(fn, "strip!")) {
			pr.op = fn[0] == 'm' ? P_MATCH :
			    fn[0] == 'n'     ? P_NOT_MATCH :
					       P_STRIP;
			if (nargs != 2 ||
			    a[1].type != TSQueryPredicateStepTypeCapture ||
			    a[2].type != TSQueryPredicateStepTypeString)
				goto bad;
			pr.cap = a[1].value_id;
			pr.re = compile_re(ts_query_string_value_for_id(st->q,
			    a[2].value_id, &len));
			if (!pr.re)
				goto bad;
		} else if (!strcmp(fn, "any-of?")) {
			uint32_t k;

			pr.op = P_ANY_OF;
			if (nargs < 1 ||
			    a[1].type != TSQueryPredicateStepTypeCapture)
				goto bad;
			pr.cap = a[1].value_id;
			pr.nstrs = nargs - 1;
			pr.strs = uk_xcalloc(pr.nstrs + 1, sizeof(char *));
			for (k = 0; k < pr.nstrs; k++)
				pr.strs[k] = ts_query_string_value_for_id(st->q,
				    a[2 + k].value_id, &len);
		} else if (!strcmp(fn, "select-adjacent!") ||
		    !strcmp(fn, "set-adjacent!")) {
			pr.op = P_ADJACENT;
			if (nargs != 2 ||
			    a[1].type != TSQueryPredicateStepTypeCapture ||
			    a[2].type != TSQueryPredicateStepTypeCapture)
				goto bad;
			pr.cap = a[1].value_id;
			pr.cap2 = a[2].value_id;
		} else if (!strcmp(fn, "is-not?") && nargs == 1 &&
		    a[1].type == TSQueryPredicateStepTypeString &&
		    !strcmp(ts_query_string_value_for_id(st->q, a[1].value_id,
				&len),
			"local")) {
			pr.op = P_NOT_LOCAL;
		} else {
			/* A property we do not use (#set!, #is?): no effect. */
			continue;
		}
		if ((pr.op == P_STRIP || pr.op == P_ADJACENT) &&
		    st->role[pr.cap] == R_DOC)
			pat->doccap = pr.cap;
		GROW(pat->preds, pat->npreds, apreds);
		pat->preds[pat->npreds++] = pr;
		continue;
	bad:
		free(pr.strs);
		pat->never = 1;
	}
}

static void
qstate_release(struct qstate *st)
{
	uint32_t i;
	size_t j;

	for (i = 0; i < st->npats; i++) {
		for (j = 0; j < st->pats[i].npreds; j++) {
			pcre2_code_free(st->pats[i].preds[j].re);
			free(st->pats[i].preds[j].strs);
		}
		free(st->pats[i].preds);
	}
	free(st->pats);
	for (i = 0; i < st->ncaps; i++)
		free(st->kind[i]);
	free(st->kind);
	free(st->role);
	if (st->q)
		ts_query_delete(st->q);
	memset(st, 0, sizeof(*st));
}

static int
qstate_get(struct uk_symbols *s, int li, struct uk_err *err)
{
	struct qstate *st = &s->qs[li];
	const struct lang *l = &langs[li];
	struct uk_buf src = UK_BUF_INIT;
	uint32_t off = 0, i, len;
	TSQueryError qerr = TSQueryErrorNone;

	if (st->tried)
		goto out;
	st->tried = 1;
	uk_buf_addstr(&src, l->tags);
	if (l->extra)
		uk_buf_addstr(&src, l->extra);
	st->q = ts_query_new(l->fn(), src.buf, (uint32_t)src.len, &off, &qerr);
	uk_buf_release(&src);
	if (!st->q) {
		snprintf(st->errmsg, sizeof(st->errmsg),
		    "tags query of '%s': error %d at offset %u", l->name,
		    (int)qerr, off);
		goto out;
	}
	st->ncaps = ts_query_capture_count(st->q);
	st->role = uk_xcalloc(st->ncaps + 1, 1);
	st->kind = uk_xcalloc(st->ncaps + 1, sizeof(char *));
	for (i = 0; i < st->ncaps; i++) {
		const char *n = ts_query_capture_name_for_id(st->q, i, &len);

		if (!strcmp(n, "name"))
			st->role[i] = R_NAME;
		else if (!strcmp(n, "doc"))
			st->role[i] = R_DOC;
		else if (!strncmp(n, "definition.", 11)) {
			st->role[i] = R_DEF;
			st->kind[i] = uk_xstrdup(n + 11);
		} else if (!strncmp(n, "reference.", 10)) {
			st->role[i] = R_REF;
			st->kind[i] = uk_xstrdup(n + 10);
		}
	}
	st->npats = ts_query_pattern_count(st->q);
	st->pats = uk_xcalloc(st->npats + 1, sizeof(*st->pats));
	for (i = 0; i < st->npats; i++)
		setup_predicates(st, i);
	st->ok = 1;
out:
	if (!st->ok)
		return uk_err_set(err, UK_EXIT_FAIL, "%s", st->errmsg);
	return 0;
}

/* One file. */

struct tag {
	uint32_t start, end; /* the name's bytes */
	uint32_t pattern;
	int def;
	const char *kind;
	uint32_t node_start; /* the definition's first byte */
	uint32_t row;
	char *doc;
	TSNode node;
};

struct filectx {
	struct worker *w;
	const struct qstate *st;
	const char *text;
	size_t len;
	TSNode root;
	int locals_done;
	struct uk_strset locals;
	TSNode *docs;
	size_t ndocs, adocs;
};

static void add_comment(struct filectx *fc, struct uk_buf *b,
    const struct pred *strip, TSNode n);

static int
node_text_eq(const struct filectx *fc, TSNode n, const char *str, size_t sl)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);

	return b - a == sl && !memcmp(fc->text + a, str, sl);
}

static int
re_match(struct filectx *fc, pcre2_code *re, TSNode n)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);

	return pcre2_match(re, (PCRE2_SPTR)(fc->text + a), b - a, 0,
		   PCRE2_NO_UTF_CHECK, fc->w->md, NULL) >= 0;
}

static int
is_binding_parent(const char *t)
{
	size_t n = strlen(t);

	return (n >= 9 && !strcmp(t + n - 9, "parameter")) ||
	    (n >= 10 && !strcmp(t + n - 10, "parameters")) ||
	    !strcmp(t, "left_assignment_list") ||
	    !strcmp(t, "rest_assignment") ||
	    !strcmp(t, "destructured_left_assignment");
}

/*
 * Collect the names bound in the file: assigned, or parameters.  The
 * parents of the walk are kept on a stack: ts_node_parent walks down from
 * the root each time (tree-sitter 0.20.7), which made this walk quadratic
 * in the depth and a tenth of the time on Django.
 */
static void
collect_locals(struct filectx *fc)
{
	TSTreeCursor c = ts_tree_cursor_new(fc->root);
	TSNode *stack = NULL;
	size_t depth = 0, astack = 0;

	fc->locals_done = 1;
	GROW(stack, depth, astack);
	stack[depth++] = fc->root;
	for (;;) {
		TSNode n, p;
		const char *pt;

		if (ts_tree_cursor_goto_first_child(&c)) {
			GROW(stack, depth, astack);
			stack[depth++] = n = ts_tree_cursor_current_node(&c);
		} else if (ts_tree_cursor_goto_next_sibling(&c)) {
			stack[depth - 1] = n = ts_tree_cursor_current_node(&c);
		} else {
			for (;;) {
				if (!ts_tree_cursor_goto_parent(&c))
					goto done;
				depth--;
				if (ts_tree_cursor_goto_next_sibling(&c))
					break;
			}
			stack[depth - 1] = n = ts_tree_cursor_current_node(&c);
		}
		/* stack[depth - 1] is n, stack[depth - 2] its parent. */
		if (depth < 2 || strcmp(ts_node_type(n), "identifier"))
			continue;
		p = stack[depth - 2];
		{
			pt = ts_node_type(p);
			if (is_binding_parent(pt) ||
			    ((!strcmp(pt, "assignment") ||
				 !strcmp(pt, "operator_assignment")) &&
				ts_node_eq(ts_node_child_by_field_name(p,
					       "left", 4),
				    n))) {
				uint32_t a = ts_node_start_byte(n);

				uk_strset_add(&fc->locals, fc->text + a,
				    ts_node_end_byte(n) - a);
			}
		}
	}
done:
	free(stack);
	ts_tree_cursor_delete(&c);
}

/*
 * Whether name, called bare in Python, is bound in the file (a parameter
 * or an assigned name): func(x) with a parameter func calls the argument,
 * not a definition of func elsewhere.  File-wide, as for Ruby's locals.
 */
static int
calls_local(struct filectx *fc, TSNode name, TSNode ref)
{
	uint32_t a = ts_node_start_byte(name);

	/*
	 * The call is the node the query captured (not ts_node_parent, which
	 * walks down from the root): a bare call when its function is name.
	 */
	if (strcmp(ts_node_type(ref), "call") ||
	    strcmp(ts_node_type(name), "identifier") ||
	    !ts_node_eq(ts_node_child_by_field_name(ref, "function", 8),
		name))
		return 0;
	if (!fc->locals_done)
		collect_locals(fc);
	return uk_strset_has(&fc->locals, fc->text + a,
	    ts_node_end_byte(name) - a);
}

/* The nodes captured as cap in m. */
#define FOR_CAP(m, cap, i)                                                     \
	for ((i) = 0; (i) < (m)->capture_count; (i)++)                         \
		if ((m)->captures[(i)].index == (cap))

static int
preds_pass(struct filectx *fc, const struct pattern *pat, const TSQueryMatch *m,
    TSNode name)
{
	size_t k;
	uint16_t i, j;

	if (pat->never)
		return 0;
	for (k = 0; k < pat->npreds; k++) {
		const struct pred *p = &pat->preds[k];

		switch (p->op) {
		case P_EQ:
		case P_NOT_EQ:
			FOR_CAP(m, p->cap, i)
			{
				TSNode n = m->captures[i].node;
				int eq;

				if (p->cap2 != ~0u) {
					eq = 1;
					FOR_CAP(m, p->cap2, j)
					{
						TSNode o = m->captures[j].node;
						uint32_t a =
						    ts_node_start_byte(o);

						eq = node_text_eq(fc, n,
						    fc->text + a,
						    ts_node_end_byte(o) - a);
					}
				} else {
					eq = node_text_eq(fc, n, p->str,
					    strlen(p->str));
				}
				if (eq != (p->op == P_EQ))
					return 0;
			}
			break;
		case P_MATCH:
		case P_NOT_MATCH:
			FOR_CAP(m, p->cap, i)
			if (re_match(fc, p->re, m->captures[i].node) !=
			    (p->op == P_MATCH))
				return 0;
			break;
		case P_ANY_OF:
			FOR_CAP(m, p->cap, i)
			{
				size_t q;
				int any = 0;

				for (q = 0; q < p->nstrs && !any; q++)
					any = node_text_eq(fc,
					    m->captures[i].node, p->strs[q],
					    strlen(p->strs[q]));
				if (!any)
					return 0;
			}
			break;
		case P_NOT_LOCAL:
			if (ts_node_is_null(name))
				break;
			if (!fc->locals_done)
				collect_locals(fc);
			{
				uint32_t a = ts_node_start_byte(name);

				if (!strcmp(ts_node_type(name), "identifier") &&
				    uk_strset_has(&fc->locals, fc->text + a,
					ts_node_end_byte(name) - a))
					return 0;
			}
			break;
		default:
			break;
		}
	}
	return 1;
}

/*
 * The doc comment of a definition: the doc nodes, restricted by
 * #select-adjacent! to the run that ends on the line before the
 * definition, each with #strip!'s expression removed, joined by newlines.
 */
static char *
make_doc(struct filectx *fc, const struct pattern *pat, const TSQueryMatch *m,
    uint32_t doccap, TSNode def)
{
	struct uk_buf b = UK_BUF_INIT;
	const struct pred *strip = NULL;
	int adjacent = 0;
	size_t k;
	uint16_t i;
	uint32_t next_row = ts_node_start_point(def).row;
	int first = -1;

	for (k = 0; k < pat->npreds; k++) {
		if (pat->preds[k].op == P_STRIP && pat->preds[k].cap == doccap)
			strip = &pat->preds[k];
		if (pat->preds[k].op == P_ADJACENT &&
		    pat->preds[k].cap == doccap)
			adjacent = 1;
	}
	/* Walk the doc nodes backwards from the definition. */
	for (i = m->capture_count; i-- > 0;) {
		TSNode n;

		if (m->captures[i].index != doccap)
			continue;
		n = m->captures[i].node;
		if (adjacent && ts_node_end_point(n).row + 1 < next_row)
			break;
		next_row = ts_node_start_point(n).row;
		first = i;
	}
	if (first < 0) {
		/*
		 * tree-sitter 0.20.7 reports a leading (comment)* . (def)
		 * without its comments: collect them from the siblings.
		 */
		TSNode n = def, p = ts_node_parent(def);
		size_t k2;

		next_row = ts_node_start_point(def).row;
		if (!ts_node_is_null(p) &&
		    ts_node_start_point(p).row == next_row &&
		    (ts_node_is_null(ts_node_prev_sibling(def)) ||
			!strstr(ts_node_type(ts_node_prev_sibling(def)),
			    "comment")))
			n = p;
		for (n = ts_node_prev_sibling(n); !ts_node_is_null(n);
		     n = ts_node_prev_sibling(n)) {
			if (!strstr(ts_node_type(n), "comment"))
				break;
			if (ts_node_end_point(n).row + 1 < next_row)
				break;
			next_row = ts_node_start_point(n).row;
			GROW(fc->docs, fc->ndocs, fc->adocs);
			fc->docs[fc->ndocs++] = n;
		}
		for (k2 = fc->ndocs; k2-- > 0;)
			add_comment(fc, &b, strip, fc->docs[k2]);
		fc->ndocs = 0;
	} else {
		for (i = (uint16_t)first; i < m->capture_count; i++)
			if (m->captures[i].index == doccap)
				add_comment(fc, &b, strip, m->captures[i].node);
	}
	uk_buf_trim(&b);
	if (b.len > 300)
		uk_buf_setlen(&b, uk_utf8_cut(b.buf, 300));
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

/* Append comment n, each line stripped by strip's expression, to b. */
static void
add_comment(struct filectx *fc, struct uk_buf *b, const struct pred *strip,
    TSNode n)
{
	{
		uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
		const char *line = fc->text + a;

		/* Strip each line of the comment. */
		while (a < e) {
			const char *nl = memchr(fc->text + a, '\n', e - a);
			uint32_t le = nl ? (uint32_t)(nl - fc->text) : e;
			size_t off = 0;

			line = fc->text + a;
			if (strip &&
			    pcre2_match(strip->re, (PCRE2_SPTR)line, le - a, 0,
				PCRE2_NO_UTF_CHECK, fc->w->md, NULL) >= 0) {
				PCRE2_SIZE *ov =
				    pcre2_get_ovector_pointer(fc->w->md);

				if (ov[0] == 0)
					off = ov[1];
			}
			if (le - a > off) {
				if (b->len)
					uk_buf_addch(b, '\n');
				uk_buf_add(b, line + off, le - a - off);
			}
			a = le + 1;
		}
	}
}

static int
tag_cmp(const void *a, const void *b)
{
	const struct tag *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->pattern != y->pattern)
		return x->pattern < y->pattern ? -1 : 1;
	/* The same pattern with and without its comments: the longer. */
	if (x->node_start != y->node_start)
		return x->node_start < y->node_start ? -1 : 1;
	if ((x->doc != NULL) != (y->doc != NULL))
		return x->doc ? -1 : 1;
	return 0;
}

/* What indexing one file found, before names are interned. */
struct rtag {
	int def;
	const char *kind;
	uint32_t line;
	char *name;
	struct sdef d; /* sig, nlines, doc and scope of a definition */
};

struct fres {
	int status; /* 1 indexed, 0 not a language of ours, -1 failed */
	int lexed;  /* references only, by symbols_lex.c */
	int cached; /* from the tag cache */
	int generated;
	uint32_t nlines;
	struct rtag *tags;
	size_t ntags;
	char err[256];
};

/*
 * Whether a file says in its first 2 KiB that a tool wrote it: a parser
 * generator (tree-sitter, bison, flex), a protocol compiler, a bundler.
 * Such a file is often the largest of a repository and defines many
 * names that nobody reads.
 */
static int
looks_generated(const char *text, size_t len)
{
	static const char *const marks[] = { "@generated", "DO NOT EDIT",
		"Do not edit", "do not edit", "generated by", "Generated by",
		"autogenerated", "auto-generated", "Autogenerated",
		"Auto-generated", "LANGUAGE_VERSION", "A Bison parser",
		"A lexical scanner generated", NULL };
	size_t head = len < 2048 ? len : 2048, i;

	for (i = 0; marks[i]; i++)
		if (memmem(text, head, marks[i], strlen(marks[i])))
			return 1;
	return 0;
}

static void
worker_init(struct worker *w)
{
	memset(w, 0, sizeof(*w));
	w->md = pcre2_match_data_create(4, NULL);
	if (!w->md)
		uk_die(UK_EXIT_FATAL, "out of memory");
}

static void
worker_release(struct worker *w)
{
	uk_symarena_release(&w->arena);
	pcre2_match_data_free(w->md);
	memset(w, 0, sizeof(*w));
}

/* The tags of a file, sorted, into r: one per name, first pattern wins. */
static void
emit_tags(struct tag *tags, size_t ntags, const char *text, size_t len,
    struct fres *r)
{
	size_t k, ar = 0;
	uint32_t nl = 0;
	const char *p;

	if (ntags)
		qsort(tags, ntags, sizeof(*tags), tag_cmp);

	for (p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++)
		nl++;
	if (len && text[len - 1] != '\n')
		nl++;
	r->nlines = nl;
	r->generated = looks_generated(text, len);
	for (k = 0; k < ntags; k++) {
		struct tag *t = &tags[k];
		struct rtag *rt;

		if (k && tags[k - 1].start == t->start &&
		    tags[k - 1].end == t->end) {
			free(t->doc);
			continue;
		}
		GROW(r->tags, r->ntags, ar);
		rt = &r->tags[r->ntags++];
		rt->def = t->def;
		rt->kind = t->kind;
		rt->line = t->row + 1;
		rt->name = uk_xmemdup(text + t->start, t->end - t->start);
		memset(&rt->d, 0, sizeof(rt->d));
		if (t->def) {
			rt->d.sig = uk_symsig_signature(text, t->node,
			    &rt->d.nlines);
			if (!rt->d.sig) {
				rt->d.sig = uk_xstrdup(rt->name);
				rt->d.nlines = 1;
			}
			uk_symsig_scope(text, t->node, &rt->d);
			rt->d.doc = t->doc ? t->doc :
					     uk_symsig_doc(text, t->node);
		} else {
			free(t->doc);
		}
	}
}

/*
 * Parse and query one file with w's parser and cursor.  Reads s only (its
 * compiled queries), so that several workers run at once.
 */
static void
index_tree(const struct uk_symbols *s, struct worker *w, TSParser *parser,
    TSQueryCursor *cursor, int li, const char *path, const char *text,
    size_t len, struct fres *r)
{
	struct filectx fc;
	TSTree *tree = NULL;
	TSQueryMatch m;
	struct tag *tags = NULL;
	size_t ntags = 0, atags = 0;
	double limit;

	memset(&fc, 0, sizeof(fc));
	fc.w = w;
	fc.st = &s->qs[li];
	fc.text = text;
	fc.len = len;
	if (!ts_parser_set_language(parser, langs[li].fn())) {
		snprintf(r->err, sizeof(r->err),
		    "grammar '%s': ABI %u not loadable", langs[li].name,
		    ts_language_version(langs[li].fn()));
		return;
	}
	limit = s->file_limit;
	if (s->deadline > 0) {
		double left = s->deadline - uk_mono_now();

		if (left <= 0) {
			snprintf(r->err, sizeof(r->err), "time limit reached");
			return;
		}
		if (limit <= 0 || left < limit)
			limit = left;
	}
	if (limit > 0)
		ts_parser_set_timeout_micros(parser,
		    (uint64_t)(limit * 1e6) + 1);
	tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	if (!tree) {
		/*
		 * Past the deadline the whole index fails; past the file's
		 * own limit (error recovery on a large file of garbage can
		 * take tree-sitter a minute) only this file is left out.
		 */
		if (s->deadline > 0 && uk_mono_now() >= s->deadline)
			snprintf(r->err, sizeof(r->err),
			    "'%s': time limit reached", path);
		else
			snprintf(r->err, sizeof(r->err),
			    "'%s': parse failed or took over %g s", path,
			    s->file_limit);
		return;
	}
	fc.root = ts_tree_root_node(tree);
	ts_query_cursor_exec(cursor, fc.st->q, fc.root);
	while (ts_query_cursor_next_match(cursor, &m)) {
		const struct pattern *pat = &fc.st->pats[m.pattern_index];
		TSNode name = { 0 }, node = { 0 };
		const char *kind = NULL;
		int def = 0, have_name = 0, have_node = 0;
		uint32_t doccap = pat->doccap;
		uint16_t i;
		struct tag *t;

		for (i = 0; i < m.capture_count; i++) {
			uint32_t ci = m.captures[i].index;

			switch (fc.st->role[ci]) {
			case R_NAME:
				if (!have_name) {
					name = m.captures[i].node;
					have_name = 1;
				}
				break;
			case R_DEF:
			case R_REF:
				if (!have_node) {
					node = m.captures[i].node;
					kind = fc.st->kind[ci];
					def = fc.st->role[ci] == R_DEF;
					have_node = 1;
				}
				break;
			default:
				break;
			}
		}
		if (!have_name || !have_node)
			continue;
		if (!preds_pass(&fc, pat, &m, name))
			continue;
		if (ts_node_end_byte(name) <= ts_node_start_byte(name))
			continue;
		if (!def && li == LANG_PYTHON && calls_local(&fc, name, node))
			continue;
		GROW(tags, ntags, atags);
		t = &tags[ntags++];
		t->start = ts_node_start_byte(name);
		t->end = ts_node_end_byte(name);
		t->pattern = m.pattern_index;
		t->def = def;
		t->kind = kind;
		t->node_start = ts_node_start_byte(node);
		t->row = ts_node_start_point(node).row;
		t->node = node;
		t->doc = def && doccap != ~0u ?
		    make_doc(&fc, pat, &m, doccap, node) :
		    NULL;
	}
	emit_tags(tags, ntags, text, len, r);
	r->status = 1;
	free(tags);
	free(fc.docs);
	uk_strset_release(&fc.locals);
	/* The tree goes with the arena. */
}

struct lexctx {
	struct fres *r;
	size_t ar;
};

static void
lex_ref(void *arg, const char *name, size_t n, uint32_t line)
{
	struct lexctx *lc = arg;
	struct rtag *rt;

	GROW(lc->r->tags, lc->r->ntags, lc->ar);
	rt = &lc->r->tags[lc->r->ntags++];
	memset(rt, 0, sizeof(*rt));
	rt->kind = "call";
	rt->line = line;
	rt->name = uk_xmemdup(name, n);
}

/* A file that only gives evidence: its references, lexed (symbols_lex.c). */
static void
lex_file(int li, const char *text, size_t len, struct fres *r)
{
	struct lexctx lc = { r, 0 };
	const char *p;
	uint32_t nl = 0;

	for (p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++)
		nl++;
	if (len && text[len - 1] != '\n')
		nl++;
	r->nlines = nl;
	r->generated = looks_generated(text, len);
	uk_symlex_refs(langs[li].name, text, len, lex_ref, &lc);
	r->status = 1;
	r->lexed = 1;
}

static void
index_file(const struct uk_symbols *s, struct worker *w, int li, int lex,
    const char *path, const char *text, size_t len, struct fres *r)
{
	TSParser *parser;
	TSQueryCursor *cursor;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (len > UINT32_MAX / 2) {
		snprintf(r->err, sizeof(r->err), "'%s': too large", path);
		return;
	}
	if (lex) {
		lex_file(li, text, len, r);
		return;
	}
	uk_symarena_enter(&w->arena);
	parser = ts_parser_new();
	cursor = ts_query_cursor_new();
	index_tree(s, w, parser, cursor, li, path, text, len, r);
	ts_query_cursor_delete(cursor);
	/* Also ends the external scanner, which has its own malloc. */
	ts_parser_delete(parser);
	uk_symarena_leave();
}

/* Add what index_file found as the next file of s; frees r's tags. */
static void
merge(struct uk_symbols *s, const char *path, struct fres *r)
{
	uint32_t fi;
	size_t k;

	GROW(s->t.files, s->t.nfiles, s->t.afiles);
	fi = (uint32_t)s->t.nfiles++;
	memset(&s->t.files[fi], 0, sizeof(s->t.files[fi]));
	s->t.files[fi].path = uk_xstrdup(path);
	s->t.files[fi].nlines = r->nlines;
	s->t.files[fi].generated = r->generated;
	s->t.ranked = 0;
	if (r->lexed)
		s->counts.lexed++;
	else if (r->cached)
		s->counts.cached++;
	else
		s->counts.parsed++;
	for (k = 0; k < r->ntags; k++) {
		struct rtag *t = &r->tags[k];
		uint32_t id = intern(s, t->name, strlen(t->name));

		if (t->def) {
			struct sdef *d;

			GROW(s->t.defs, s->t.ndefs, s->t.adefs);
			d = &s->t.defs[s->t.ndefs++];
			*d = t->d;
			d->file = fi;
			d->name = id;
			d->line = t->line;
			d->kind = t->kind;
			d->hidden = 0;
			d->rank = 0;
		} else {
			GROW(s->t.refs, s->t.nrefs, s->t.arefs);
			s->t.refs[s->t.nrefs].file = fi;
			s->t.refs[s->t.nrefs++].name = id;
		}
		free(t->name);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}

static void
fres_release(struct fres *r)
{
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		free(r->tags[k].name);
		free(r->tags[k].d.sig);
		free(r->tags[k].d.doc);
		free(r->tags[k].d.scope);
		free(r->tags[k].d.scope_name);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}

/*
 * Whether path only gives evidence (a test, an example...) and is outside
 * every path the caller wants parsed: lexed then.
 */
static int
lex_it(const struct uk_symbols *s, const char *path)
{
	size_t i;

	if (!s->lex_evidence || !uk_symtab_is_noise(path))
		return 0;
	for (i = 0; i < s->nparse_under; i++) {
		size_t n = strlen(s->parse_under[i]);

		if (!n || (!strncmp(path, s->parse_under[i], n) &&
			      (path[n] == '/' || !path[n])))
			return 0;
	}
	return 1;
}

void
uk_symbols_set_lex(struct uk_symbols *s, int on)
{
	s->lex_evidence = on;
}

void
uk_symbols_parse_under(struct uk_symbols *s, const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (!path)
		return;
	while (n && path[n - 1] == '/')
		n--;
	s->parse_under = uk_xrealloc(s->parse_under,
	    (s->nparse_under + 1) * sizeof(char *));
	s->parse_under[s->nparse_under++] = uk_xmemdup(path, n);
}

void
uk_symbols_get_counts(const struct uk_symbols *s, struct uk_symbols_counts *c)
{
	*c = s->counts;
}

int
uk_symbols_add(struct uk_symbols *s, const char *path, const char *text,
    size_t len, struct uk_err *err)
{
	int li = lang_index(path);
	struct fres r;

	if (li < 0)
		return 0;
	if (qstate_get(s, li, err) < 0)
		return -1;
	index_file(s, &s->w, li, lex_it(s, path), path, text, len, &r);
	if (r.status < 0)
		return uk_err_set(err, UK_EXIT_FAIL, "%s", r.err);
	merge(s, path, &r);
	return 1;
}

/*
 * The tag cache (symcache.h).  A file's tags are the object
 * {"n": lines, "g": generated, "s": SEQ, "d": [DEF...]}: SEQ holds one
 * line per tag in the order found, a reference's name (seq_add) or an
 * empty line for the next definition of "d", each an array [name, kind, line,
 * signature, lines of it, doc, scope, scope's name, scope's line, scope's
 * lines] (null for a missing doc or scope).
 */
#define TAGS_FORMAT 2 /* bump when what a tag holds changes (symbols_sig.c) */

static char tags_version[40];

/* The format, and a hash of every grammar's ABI and query text. */
static void
make_version(void)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < NLANGS; i++) {
		const char *parts[3] = { langs[i].name, langs[i].tags,
			langs[i].extra ? langs[i].extra : "" };
		uint32_t abi = ts_language_version(langs[i].fn());
		size_t k;
		const char *p;

		for (k = 0; k < 3; k++)
			for (p = parts[k]; *p; p++) {
				h ^= (unsigned char)*p;
				h *= 1099511628211ULL;
			}
		h ^= abi;
		h *= 1099511628211ULL;
	}
	snprintf(tags_version, sizeof(tags_version), "%d-%016llx",
	    TAGS_FORMAT, (unsigned long long)h);
}

const char *
uk_symbols_tags_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_version);
	return tags_version;
}

static yajl_val
str_or_null(const char *str)
{
	return str ? uk_json_str(str) : uk_json_null();
}

/*
 * A reference's name as a line of SEQ: a backslash and a newline written
 * as \\ and \n.  A Python import over several lines is one reference
 * (symbols_rank.c reads the statement), and a file holding one was never
 * cached: Django parsed 164 of its 871 files again on every fetch.
 */
static void
seq_add(struct uk_buf *seq, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		if (*p == '\\')
			uk_buf_addstr(seq, "\\\\");
		else if (*p == '\n')
			uk_buf_addstr(seq, "\\n");
		else
			uk_buf_addch(seq, *p);
	}
	uk_buf_addch(seq, '\n');
}

/* A line of SEQ back into the name (seq_add); NULL when it is not one. */
static char *
seq_name(const char *p, size_t n)
{
	char *out = uk_xcalloc(n + 1, 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != '\\') {
			*o++ = p[i];
			continue;
		}
		if (++i == n || (p[i] != '\\' && p[i] != 'n')) {
			free(out);
			return NULL;
		}
		*o++ = p[i] == 'n' ? '\n' : '\\';
	}
	return out;
}

static void
cache_put(struct uk_symbols *s, const char *hash, const struct fres *r)
{
	struct uk_buf seq = UK_BUF_INIT;
	yajl_val o, d = uk_json_array();
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		const struct rtag *t = &r->tags[k];
		yajl_val a;

		if (!t->name[0] || (t->def && strchr(t->name, '\n')))
			goto fail;
		if (!t->def) {
			seq_add(&seq, t->name);
			continue;
		}
		uk_buf_addch(&seq, '\n');
		a = uk_json_array();
		uk_json_push(a, uk_json_str(t->name));
		uk_json_push(a, uk_json_str(t->kind));
		uk_json_push(a, uk_json_int(t->line));
		uk_json_push(a, uk_json_str(t->d.sig));
		uk_json_push(a, uk_json_int(t->d.nlines));
		uk_json_push(a, str_or_null(t->d.doc));
		uk_json_push(a, str_or_null(t->d.scope));
		uk_json_push(a, str_or_null(t->d.scope_name));
		uk_json_push(a, uk_json_int(t->d.scope_line));
		uk_json_push(a, uk_json_int(t->d.scope_nlines));
		uk_json_push(d, a);
	}
	o = uk_json_object();
	uk_json_set_int(o, "n", r->nlines);
	uk_json_set_int(o, "g", r->generated);
	uk_json_set(o, "s", uk_json_strn(seq.buf ? seq.buf : "", seq.len));
	uk_json_set(o, "d", d);
	uk_symcache_put(s->cache, hash, o);
	uk_buf_release(&seq);
	return;
fail:
	uk_json_free(d);
	uk_buf_release(&seq);
}

/* An integer in [lo, UINT32_MAX] from v, or -1. */
static long long
get_u32(yajl_val v, long long lo)
{
	long long x;

	if (!v || !YAJL_IS_INTEGER(v))
		return -1;
	x = YAJL_GET_INTEGER(v);
	return x < lo || x > (long long)UINT32_MAX ? -1 : x;
}

/* A string of v, a copy; NULL for null; -1 when v is neither. */
static int
get_str(yajl_val v, int null_ok, char **out)
{
	*out = NULL;
	if (v && YAJL_IS_STRING(v)) {
		*out = uk_xstrdup(YAJL_GET_STRING(v));
		return 0;
	}
	return null_ok && v && YAJL_IS_NULL(v) ? 0 : -1;
}

/* One definition of "d" into t; -1 when it does not check out. */
static int
cached_def(const struct qstate *st, yajl_val a, struct rtag *t)
{
	yajl_val *v;
	const char *kind;
	long long line, nl, sl, snl;
	uint32_t i;

	if (!a || !YAJL_IS_ARRAY(a) || a->u.array.len != 10)
		return -1;
	v = a->u.array.values;
	if (!YAJL_IS_STRING(v[1]))
		return -1;
	kind = YAJL_GET_STRING(v[1]);
	/* The kind, as the query names it (sdef.kind is not owned). */
	for (i = 0; i < st->ncaps; i++)
		if (st->role[i] == R_DEF && !strcmp(st->kind[i], kind))
			break;
	if (i == st->ncaps)
		return -1;
	t->kind = st->kind[i];
	t->def = 1;
	if ((line = get_u32(v[2], 1)) < 0 || (nl = get_u32(v[4], 1)) < 0 ||
	    (sl = get_u32(v[8], 0)) < 0 || (snl = get_u32(v[9], 0)) < 0)
		return -1;
	t->line = (uint32_t)line;
	t->d.nlines = (uint32_t)nl;
	t->d.scope_line = (uint32_t)sl;
	t->d.scope_nlines = (uint32_t)snl;
	if (get_str(v[0], 0, &t->name) < 0 || !t->name[0] ||
	    get_str(v[3], 0, &t->d.sig) < 0 ||
	    get_str(v[5], 1, &t->d.doc) < 0 ||
	    get_str(v[6], 1, &t->d.scope) < 0 ||
	    get_str(v[7], 1, &t->d.scope_name) < 0)
		return -1;
	return 0;
}

static void fres_release(struct fres *r);

/*
 * The tags of hash from the cache into r (as index_file would have made
 * them): 0, or -1 when there are none or they do not check out (then
 * they are dropped from the cache and r is empty).
 */
static int
cache_get(struct uk_symbols *s, int li, const char *hash, struct fres *r)
{
	yajl_val o = uk_symcache_get(s->cache, hash), seq, d;
	const char *p, *e, *end;
	long long nl;
	size_t nd = 0, ar = 0;

	memset(r, 0, sizeof(*r));
	if (!o)
		return -1;
	seq = uk_json_get(o, "s");
	d = uk_json_get(o, "d");
	if ((nl = get_u32(uk_json_get(o, "n"), 0)) < 0 || !seq ||
	    !YAJL_IS_STRING(seq) || !d || !YAJL_IS_ARRAY(d) ||
	    get_u32(uk_json_get(o, "g"), 0) < 0)
		goto bad;
	r->nlines = (uint32_t)nl;
	r->generated = get_u32(uk_json_get(o, "g"), 0) != 0;
	p = YAJL_GET_STRING(seq);
	end = p + strlen(p);
	for (; p < end; p = e + 1) {
		struct rtag *t;

		if (!(e = memchr(p, '\n', (size_t)(end - p))))
			goto bad;
		GROW(r->tags, r->ntags, ar);
		t = &r->tags[r->ntags++];
		memset(t, 0, sizeof(*t));
		if (e > p) {
			t->kind = "call";
			if (!(t->name = seq_name(p, (size_t)(e - p))))
				goto bad;
			continue;
		}
		if (nd >= d->u.array.len ||
		    cached_def(&s->qs[li], d->u.array.values[nd++], t) < 0)
			goto bad;
	}
	if (nd != d->u.array.len)
		goto bad;
	r->status = 1;
	r->cached = 1;
	return 0;
bad:
	fres_release(r);
	memset(r, 0, sizeof(*r));
	uk_symcache_drop(s->cache, hash);
	return -1;
}

void
uk_symbols_set_cache(struct uk_symbols *s, struct uk_symcache *sc)
{
	s->cache = sc;
}

/* Indexing files as they arrive: a queue that worker threads take from. */
struct sitem {
	const char *path, *text;
	size_t len;
	int li;
	int lex; /* only evidence: lexed, not parsed */
	char hash[65]; /* with a tag cache: the text's SHA-256, else "" */
	int done;
	struct fres res;
};

struct uk_symbols_stream {
	struct uk_symbols *s;
	struct sitem *items; /* grows: read and written under lock */
	size_t n, a;
	size_t next;   /* the first item no worker took */
	size_t ndone;  /* items done */
	size_t merged; /* items added to s, in order (caller's thread) */
	int closed, cancel;
	pthread_mutex_t lock;
	pthread_cond_t more; /* for workers: an item, or the end */
	pthread_cond_t done; /* for the caller: an item done */
	pthread_t tid[UK_SYMBOLS_MAX_THREADS];
	int nt;
	long indexed;
	int timeout;
	uk_symbols_progress_fn *progress;
	void *progress_arg;
	size_t reported; /* ndone when progress was last called */
};

/* Take the next item and index it; 0 when there is none (yet). */
static int
stream_work(struct uk_symbols_stream *st, struct worker *w, int wait)
{
	struct sitem it;
	size_t i;

	pthread_mutex_lock(&st->lock);
	for (;;) {
		/* Items from the tag cache are done when they are added. */
		while (st->next < st->n && st->items[st->next].done)
			st->next++;
		if (st->next < st->n || !wait || st->closed || st->cancel)
			break;
		pthread_cond_wait(&st->more, &st->lock);
	}
	if (st->next >= st->n || st->cancel) {
		pthread_mutex_unlock(&st->lock);
		return 0;
	}
	i = st->next++;
	it = st->items[i];
	pthread_mutex_unlock(&st->lock);
	index_file(st->s, w, it.li, it.lex, it.path, it.text, it.len,
	    &it.res);
	pthread_mutex_lock(&st->lock);
	st->items[i].res = it.res;
	st->items[i].done = 1;
	st->ndone++;
	pthread_cond_signal(&st->done);
	pthread_mutex_unlock(&st->lock);
	return 1;
}

static void *
stream_worker(void *arg)
{
	struct uk_symbols_stream *st = arg;
	struct worker w;

	worker_init(&w);
	while (stream_work(st, &w, 1))
		;
	worker_release(&w);
	return NULL;
}

/* Whether the next item to merge is done, or there is none (lock held). */
static int
stream_next_ready(const struct uk_symbols_stream *st)
{
	return st->merged >= st->n || st->items[st->merged].done;
}

/*
 * On the caller's thread: add the items done, in order, to the index, and
 * report progress.  With wait, until every item is merged.
 */
static void
stream_merge(struct uk_symbols_stream *st, int wait)
{
	for (;;) {
		size_t from = st->merged, to, ndone, n, k;

		pthread_mutex_lock(&st->lock);
		while (wait && !stream_next_ready(st))
			pthread_cond_wait(&st->done, &st->lock);
		for (to = from; to < st->n && st->items[to].done; to++)
			;
		ndone = st->ndone;
		n = st->n;
		pthread_mutex_unlock(&st->lock);
		/* Items done stay as they are: only this thread moves items. */
		for (k = from; k < to; k++) {
			struct sitem *it = &st->items[k];

			if (it->res.status == 1) {
				if (st->s->cache && it->hash[0] &&
				    !it->res.cached && !it->res.lexed)
					cache_put(st->s, it->hash, &it->res);
				merge(st->s, it->path, &it->res);
				st->indexed++;
			} else if (it->res.status < 0 &&
			    strstr(it->res.err, "time limit")) {
				st->timeout = 1;
			}
			fres_release(&it->res);
		}
		st->merged = to;
		if (st->progress && ndone != st->reported) {
			st->reported = ndone;
			st->progress(st->progress_arg, ndone, n);
		}
		if (!wait || st->merged >= n)
			return;
	}
}

struct uk_symbols_stream *
uk_symbols_stream_start(struct uk_symbols *s, int nthreads)
{
	struct uk_symbols_stream *st = uk_xcalloc(1, sizeof(*st));
	int t;

	if (nthreads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = c > 0 ? (int)c : 1;
	}
	if (nthreads > UK_SYMBOLS_MAX_THREADS)
		nthreads = UK_SYMBOLS_MAX_THREADS;
	st->s = s;
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->more, NULL);
	pthread_cond_init(&st->done, NULL);
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&st->tid[st->nt], NULL, stream_worker, st) ==
		    0)
			st->nt++;
	return st;
}

void
uk_symbols_stream_progress(struct uk_symbols_stream *st,
    uk_symbols_progress_fn *fn, void *arg)
{
	st->progress = fn;
	st->progress_arg = arg;
}

int
uk_symbols_stream_add(struct uk_symbols_stream *st, const char *path,
    const char *text, size_t len, struct uk_err *err)
{
	int li = lang_index(path);
	struct sitem *it;
	struct fres res;
	char hash[65];
	int lex, hit = 0;

	if (li < 0)
		return 0;
	if (qstate_get(st->s, li, err) < 0)
		return -1;
	/* Outside the lock: the workers go on meanwhile. */
	lex = lex_it(st->s, path);
	hash[0] = '\0';
	if (st->s->cache && !lex && len <= UINT32_MAX / 2) {
		uk_symcache_hash(text, len, hash);
		hit = cache_get(st->s, li, hash, &res) == 0;
	}
	pthread_mutex_lock(&st->lock);
	if (st->n == st->a) {
		st->a = st->a ? 2 * st->a : 256;
		st->items = uk_xrealloc(st->items, st->a * sizeof(*st->items));
	}
	it = &st->items[st->n++];
	memset(it, 0, sizeof(*it));
	it->path = path;
	it->text = text;
	it->len = len;
	it->li = li;
	it->lex = lex;
	memcpy(it->hash, hash, sizeof(hash));
	if (hit) {
		it->res = res;
		it->done = 1;
		st->ndone++;
	}
	pthread_cond_signal(&st->more);
	pthread_mutex_unlock(&st->lock);
	stream_merge(st, 0);
	return 1;
}

static void
stream_free(struct uk_symbols_stream *st)
{
	size_t k;
	int t;

	pthread_mutex_lock(&st->lock);
	st->closed = 1;
	pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
	for (t = 0; t < st->nt; t++)
		pthread_join(st->tid[t], NULL);
	for (k = st->merged; k < st->n; k++)
		fres_release(&st->items[k].res);
	free(st->items);
	pthread_cond_destroy(&st->more);
	pthread_cond_destroy(&st->done);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/*
 * A tree that is nothing but evidence (a repository of examples, a focus
 * on docs/ that is not one) would have an empty map: its files are then
 * parsed after all, on this thread, as the index's only files.
 */
static void
reparse_evidence(struct uk_symbols_stream *st)
{
	struct uk_symbols *s = st->s;
	struct symtab *t = &s->t;
	size_t k;

	if (!s->counts.lexed || s->counts.parsed || s->counts.cached ||
	    t->ndefs)
		return;
	for (k = 0; k < t->nfiles; k++)
		free(t->files[k].path);
	t->nfiles = 0;
	t->nrefs = 0;
	t->ranked = 0;
	s->counts.lexed = 0;
	st->indexed = 0;
	for (k = 0; k < st->n; k++) {
		struct sitem *it = &st->items[k];

		index_file(s, &s->w, it->li, 0, it->path, it->text, it->len,
		    &it->res);
		if (it->res.status == 1) {
			merge(s, it->path, &it->res);
			st->indexed++;
		} else if (it->res.status < 0 &&
		    strstr(it->res.err, "time limit")) {
			st->timeout = 1;
			fres_release(&it->res);
			break;
		}
		fres_release(&it->res);
	}
}

long
uk_symbols_stream_end(struct uk_symbols_stream *st, struct uk_err *err)
{
	long indexed;
	int timeout;

	pthread_mutex_lock(&st->lock);
	st->closed = 1;
	pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
	/* No worker thread could start: index here. */
	if (!st->nt) {
		while (stream_work(st, &st->s->w, 0))
			stream_merge(st, 0);
	}
	stream_merge(st, 1);
	if (!st->timeout)
		reparse_evidence(st);
	indexed = st->indexed;
	timeout = st->timeout;
	stream_free(st);
	if (timeout)
		return uk_err_set(err, UK_EXIT_FAIL,
		    "time limit reached while indexing symbols");
	return indexed;
}

void
uk_symbols_stream_cancel(struct uk_symbols_stream *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	st->cancel = 1;
	pthread_mutex_unlock(&st->lock);
	stream_free(st);
}

long
uk_symbols_add_files(struct uk_symbols *s, const struct uk_symbols_file *files,
    size_t n, int nthreads, struct uk_err *err)
{
	struct uk_symbols_stream *st;
	size_t i;

	/* Every query first: a query that cannot be used indexes nothing. */
	for (i = 0; i < n; i++) {
		int li = lang_index(files[i].path);

		if (li >= 0 && qstate_get(s, li, err) < 0)
			return -1;
	}
	if (nthreads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = c > 0 ? (int)c : 1;
	}
	if ((size_t)nthreads > n)
		nthreads = n ? (int)n : 1;
	st = uk_symbols_stream_start(s, nthreads);
	for (i = 0; i < n; i++)
		uk_symbols_stream_add(st, files[i].path, files[i].text,
		    files[i].len, err);
	return uk_symbols_stream_end(st, err);
}

void
uk_symbols_set_deadline(struct uk_symbols *s, double seconds)
{
	s->deadline = seconds > 0 ? uk_mono_now() + seconds : 0;
}

void
uk_symbols_set_file_limit(struct uk_symbols *s, double seconds)
{
	s->file_limit = seconds > 0 ? seconds : 0;
}

struct uk_symbols *
uk_symbols_new(void)
{
	struct uk_symbols *s = uk_xcalloc(1, sizeof(*s));

	uk_symarena_install();
	worker_init(&s->w);
	s->file_limit = UK_SYMBOLS_FILE_SECONDS;
	s->lex_evidence = 1;
	return s;
}

void
uk_symbols_free(struct uk_symbols *s)
{
	struct symtab *t;
	size_t i;

	if (!s)
		return;
	t = &s->t;
	for (i = 0; i < NLANGS; i++)
		qstate_release(&s->qs[i]);
	for (i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	for (i = 0; i < t->ndefs; i++) {
		free(t->defs[i].sig);
		free(t->defs[i].doc);
		free(t->defs[i].scope);
		free(t->defs[i].scope_name);
	}
	for (i = 0; i < t->nnotes; i++) {
		free(t->notes[i].path);
		free(t->notes[i].text);
	}
	for (i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->files);
	free(t->defs);
	free(t->refs);
	free(t->notes);
	free(s->slots);
	free(t->names);
	free(t->chosen);
	free(t->focus);
	for (i = 0; i < s->nparse_under; i++)
		free(s->parse_under[i]);
	free(s->parse_under);
	worker_release(&s->w);
	free(s);
}

size_t
uk_symbols_nfiles(const struct uk_symbols *s)
{
	return s->t.nfiles;
}

size_t
uk_symbols_ndefs(const struct uk_symbols *s)
{
	return s->t.ndefs;
}

size_t
uk_symbols_nrefs(const struct uk_symbols *s)
{
	return s->t.nrefs;
}

struct symtab *
uk_symtab_of(struct uk_symbols *s)
{
	return &s->t;
}
