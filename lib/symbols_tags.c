/* SPDX-License-Identifier: MIT */
/*
 * A file's tags: its definitions and references, found by its language's
 * tags query on tree-sitter's parse (or, for a file that only gives
 * evidence, by symbols_lex.c).  See symbols_int.h.
 *
 * tree-sitter 0.20 parses the predicates of a query but applies
 * none of them, so they are applied here: #eq?, #not-eq?, #match?,
 * #not-match?, #any-of? filter matches; #select-adjacent! and
 * #set-adjacent! keep only the comments that touch the definition;
 * #strip! removes a regular expression (Rust syntax, hence PCRE2) from
 * them; #is-not? local drops names assigned or bound as parameters in the
 * same file (Ruby: a file-wide approximation of scopes).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "strset.h"
#include "symbols.h"
#include "symbols_int.h"
#include "util.h"

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

struct symworker {
	struct symarena arena;
	pcre2_match_data *md;
};

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

void
uk_symtags_query_release(struct qstate *st)
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

/* Python's captures, as walk_tree (below) gives them: for the cache's kinds. */
static const char *const py_captures[] = { "name", "definition.constant",
	"definition.class", "definition.function", "reference.call",
	"reference.type", "reference.class", "reference.import",
	"reference.module", NULL };

/*
 * Whether every language uses its query: UK_SYMBOLS_QUERY set in the
 * environment, to check walk_tree against the queries it replaces.
 */
static int
use_query(void)
{
	const char *v = getenv("UK_SYMBOLS_QUERY");

	return v && *v;
}

struct walklang;
static const struct walklang *walker(int li);
static const char *const *walker_caps(const struct walklang *wl);

/*
 * Capture i of st is named n: its role, and the kind of a definition or a
 * reference ("definition.function" is a definition of kind "function").
 * st->role and st->kind have room for st->ncaps captures.
 */
static void
capture_role(struct qstate *st, uint32_t i, const char *n)
{
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

/* A language walked without its query: the captures its walk gives. */
static void
walk_captures(struct qstate *st, const char *const *caps)
{
	uint32_t i;

	while (caps[st->ncaps])
		st->ncaps++;
	st->role = uk_xcalloc(st->ncaps + 1, 1);
	st->kind = uk_xcalloc(st->ncaps + 1, sizeof(char *));
	for (i = 0; i < st->ncaps; i++)
		capture_role(st, i, caps[i]);
	st->ok = 1;
}

/* Compile language li's query into st (once, under query_lock). */
static void
query_compile(struct qstate *st, int li)
{
	const struct symlang *l = &uk_symlangs[li];
	struct uk_buf src = UK_BUF_INIT;
	uint32_t off = 0, i, len;
	TSQueryError qerr = TSQueryErrorNone;
	/* A worker compiles between its parse and its query: not in its
	 * arena, which is reset after each file. */
	struct symarena *arena = uk_symarena_pause();

	if (walker(li) && !use_query()) {
		walk_captures(st, walker_caps(walker(li)));
		goto out;
	}
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
	for (i = 0; i < st->ncaps; i++)
		capture_role(st, i,
		    ts_query_capture_name_for_id(st->q, i, &len));
	st->npats = ts_query_pattern_count(st->q);
	st->pats = uk_xcalloc(st->npats + 1, sizeof(*st->pats));
	for (i = 0; i < st->npats; i++)
		setup_predicates(st, i);
	st->ok = 1;
out:
	uk_symarena_resume(arena);
}

/*
 * Queries are compiled on first use, by whichever thread needs one first:
 * the parsing threads rather than the one reading the archive, so that
 * reading goes on meanwhile (ts_query_new takes 15 to 30 ms for Python's
 * or Rust's, most of a small repository's parse).  tried is set, with
 * release order, only once the query is complete; the lock makes one
 * thread compile and the others wait for it.  One lock for the process:
 * two languages compile one after the other, which costs nothing when a
 * worker has something else to wait for.
 */
static pthread_mutex_t query_lock = PTHREAD_MUTEX_INITIALIZER;

static int
query_ready(struct qstate *st, int li)
{
	if (!__atomic_load_n(&st->tried, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&query_lock);
		if (!st->tried) {
			query_compile(st, li);
			__atomic_store_n(&st->tried, 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&query_lock);
	}
	return st->ok;
}

int
uk_symtags_query(struct uk_symbols *s, int li, struct uk_err *err)
{
	struct qstate *st = &s->qs[li];

	if (!query_ready(st, li))
		return uk_err_set(err, UK_EXIT_FAIL, "%s", st->errmsg);
	return 0;
}

int
uk_symtags_query_failed(const struct uk_symbols *s, int li)
{
	const struct qstate *st = &s->qs[li];

	return __atomic_load_n(&st->tried, __ATOMIC_ACQUIRE) && !st->ok;
}

const char *
uk_symtags_def_kind(const struct qstate *st, const char *kind)
{
	uint32_t i;

	for (i = 0; i < st->ncaps; i++)
		if (st->role[i] == R_DEF && !strcmp(st->kind[i], kind))
			return st->kind[i];
	return NULL;
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
	uint32_t qstart, qend; /* the qualifier's bytes (rtag.qual), if any */
};

struct filectx {
	struct symworker *w;
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
 * the root each time (tree-sitter 0.20), which made this walk quadratic
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
		 * tree-sitter 0.20 reports a leading (comment)* . (def)
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

		/*
		 * A block comment's opening and closing stars and slashes are
		 * no text: the grammars' #strip! expressions take only what
		 * starts a line, so a doc comment on one line kept its end
		 * ("A router. *\/") and Go's kept both.
		 */
		if (e - a >= 4 && fc->text[a] == '/' && fc->text[a + 1] == '*' &&
		    fc->text[e - 2] == '*' && fc->text[e - 1] == '/') {
			for (a += 2; a < e - 2 && (fc->text[a] == '*' ||
			    fc->text[a] == ' ' || fc->text[a] == '\t'); a++)
				;
			for (e -= 2; e > a && (fc->text[e - 1] == '*' ||
			    fc->text[e - 1] == ' ' || fc->text[e - 1] == '\t');
			    e--)
				;
		}
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

/* The file's lines (the last need not end in a newline), and its mark. */
static void
file_facts(const char *text, size_t len, struct fres *r)
{
	const char *p;
	uint32_t nl = 0;

	for (p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++)
		nl++;
	if (len && text[len - 1] != '\n')
		nl++;
	r->nlines = nl;
	r->generated = looks_generated(text, len);
}

struct symworker *
uk_symtags_worker_new(void)
{
	struct symworker *w = uk_xcalloc(1, sizeof(*w));

	w->md = pcre2_match_data_create(4, NULL);
	if (!w->md)
		uk_die(UK_EXIT_FATAL, "out of memory");
	return w;
}

void
uk_symtags_worker_free(struct symworker *w)
{
	if (!w)
		return;
	uk_symarena_release(&w->arena);
	pcre2_match_data_free(w->md);
	free(w);
}

/* The tags of a file, sorted, into r: one per name, first pattern wins. */
static void
emit_tags(struct tag *tags, size_t ntags, const char *text, size_t len,
    struct fres *r)
{
	size_t k, ar = 0;

	if (ntags)
		qsort(tags, ntags, sizeof(*tags), tag_cmp);
	file_facts(text, len, r);
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
		rt->qual = t->qend > t->qstart ?
		    uk_xmemdup(text + t->qstart, t->qend - t->qstart) :
		    NULL;
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
 * Python without the query cursor.  ts_query_cursor_next_match walks every
 * node of the tree and matches every pattern at each (tree-sitter 0.20:
 * a fifth of a Python file's instructions, the parse most of the rest),
 * and the bound names of collect_locals took a second walk.  walk_tree finds
 * what Python's query (the upstream tags.scm, then python_extra in
 * symbols_queries.c) finds in one walk that also collects the bound names,
 * and gives each tag the index of the pattern that would have matched it,
 * so that emit_tags keeps the same tag of each name.  Python's query is
 * then never compiled (its ts_query_new was most of the fixed cost of a
 * small tree).  The query stays the reference: with UK_SYMBOLS_QUERY set
 * in the environment, every language uses its query, and
 * tests/repo-tagwalk.bats compares the two; a pattern added to Python's
 * query must be added here too, under its index.
 */
enum {
	PY_ASSIGN_DEF = 0,
	PY_CLASS_DEF,
	PY_FUNC_DEF,
	PY_CALL,
	PY_TYPE,
	PY_TYPE_ATTR,
	PY_GENERIC,
	PY_TYPE_PARAM,
	PY_SUPER,
	PY_SUPER_ATTR,
	PY_DECO,
	PY_DECO_ATTR,
	PY_DECO_CALL,
	PY_FROM_NAME,
	PY_FROM_ALIAS,
	PY_ISINSTANCE,
	PY_EXCEPT,
	PY_RAISE,
	PY_FROM_MODULE,
	PY_IMPORT_MODULE,
	PY_NPATTERNS
};

/* Python's node types and fields, as the query resolves them. */
struct pysyms {
	TSSymbol ident, assignment, opassign, exprstmt, module, classdef,
	    funcdef, call, attribute, type, generic, typeparam, arglist,
	    decorator, dotted, fromimport, aliased, tuple, except, raise,
	    import, string;
	TSFieldId left, name, function, attribute_f, object, superclasses,
	    arguments;
	unsigned char *binding; /* per symbol: is_binding_parent */
	uint32_t nsyms;
};

static struct pysyms pys;
static pthread_once_t pys_once = PTHREAD_ONCE_INIT;

static TSSymbol
lang_sym(const TSLanguage *l, const char *name)
{
	return ts_language_symbol_for_name(l, name, (uint32_t)strlen(name),
	    true);
}

static TSFieldId
lang_field(const TSLanguage *l, const char *name)
{
	return ts_language_field_id_for_name(l, name, (uint32_t)strlen(name));
}

static void
pys_init(void)
{
	const TSLanguage *l = uk_symlangs[UK_SYMLANG_PYTHON].fn();
	uint32_t i;

	pys.ident = lang_sym(l, "identifier");
	pys.assignment = lang_sym(l, "assignment");
	pys.opassign = lang_sym(l, "augmented_assignment");
	pys.exprstmt = lang_sym(l, "expression_statement");
	pys.module = lang_sym(l, "module");
	pys.string = lang_sym(l, "string");
	pys.classdef = lang_sym(l, "class_definition");
	pys.funcdef = lang_sym(l, "function_definition");
	pys.call = lang_sym(l, "call");
	pys.attribute = lang_sym(l, "attribute");
	pys.type = lang_sym(l, "type");
	pys.generic = lang_sym(l, "generic_type");
	pys.typeparam = lang_sym(l, "type_parameter");
	pys.arglist = lang_sym(l, "argument_list");
	pys.decorator = lang_sym(l, "decorator");
	pys.dotted = lang_sym(l, "dotted_name");
	pys.fromimport = lang_sym(l, "import_from_statement");
	pys.aliased = lang_sym(l, "aliased_import");
	pys.tuple = lang_sym(l, "tuple");
	pys.except = lang_sym(l, "except_clause");
	pys.raise = lang_sym(l, "raise_statement");
	pys.import = lang_sym(l, "import_statement");
	pys.left = lang_field(l, "left");
	pys.name = lang_field(l, "name");
	pys.function = lang_field(l, "function");
	pys.attribute_f = lang_field(l, "attribute");
	pys.object = lang_field(l, "object");
	pys.superclasses = lang_field(l, "superclasses");
	pys.arguments = lang_field(l, "arguments");
	pys.nsyms = ts_language_symbol_count(l);
	pys.binding = uk_xcalloc(pys.nsyms + 1, 1);
	for (i = 0; i < pys.nsyms; i++)
		pys.binding[i] = (unsigned char)is_binding_parent(
		    ts_language_symbol_name(l, (TSSymbol)i));
}

struct walkframe {
	TSNode node;
	TSSymbol sym;
	TSFieldId field; /* in its parent, for the types the patterns ask */
	/*
	 * For a pattern of two children (a name, then a value that decides),
	 * the name among this node's children so far, or a null node.
	 */
	TSNode first;
	/*
	 * The comments just before this node (walktags.cm.v[run..+nrun)),
	 * and the run among its children so far (crun, ncrun; gap: a node
	 * without a name came after its last comment): JavaScript's docs.
	 */
	uint32_t run, nrun, crun, ncrun;
	int gap;
	/*
	 * The same for make_doc's own look at the siblings: the comments
	 * (any type named so) just before this node with nothing between
	 * (walktags.cs.v[sib..+nsib)), whether it has a sibling before it
	 * and whether that is a comment; and the run among its children so
	 * far.
	 */
	uint32_t sib, nsib, csib, ncsib, nchildren;
	unsigned char has_prev, prev_comment;
};

/* Nodes, for runs of comments. */
struct nodevec {
	TSNode *v;
	size_t n, a;
};

/* A pattern of a walked language: the kind it captures, and whether a
 * definition. */
struct wpat {
	const char *kind;
	int def;
};

struct walktags {
	const struct wpat *pats; /* the language's, by pattern index */
	struct tag *tags;
	size_t n, a;
	size_t *bare; /* the tags of bare calls, for calls_local */
	size_t nbare, abare;
	/* The runs of comments (walkframe.run and crun, sib and csib), one
	 * vector each so that pushing to one never moves the other. */
	struct nodevec cm, cs;
};

static const struct wpat py_pats[PY_NPATTERNS] = { { "constant", 1 },
	{ "class", 1 }, { "function", 1 }, { "call", 0 }, { "type", 0 },
	{ "type", 0 }, { "type", 0 }, { "type", 0 }, { "class", 0 },
	{ "class", 0 }, { "call", 0 }, { "call", 0 }, { "call", 0 },
	{ "import", 0 }, { "import", 0 }, { "type", 0 }, { "type", 0 },
	{ "type", 0 }, { "module", 0 }, { "module", 0 } };

static const char *
walk_kind(const struct qstate *st, int role, const char *kind)
{
	uint32_t i;

	for (i = 0; i < st->ncaps; i++)
		if (st->role[i] == role && !strcmp(st->kind[i], kind))
			return st->kind[i];
	return NULL;
}

static void
walk_tag(struct filectx *fc, struct walktags *pt, TSNode name, TSNode node,
    uint32_t pattern)
{
	struct tag *t;

	if (ts_node_end_byte(name) <= ts_node_start_byte(name))
		return;
	GROW(pt->tags, pt->n, pt->a);
	t = &pt->tags[pt->n++];
	memset(t, 0, sizeof(*t));
	t->start = ts_node_start_byte(name);
	t->end = ts_node_end_byte(name);
	t->pattern = pattern;
	t->def = pt->pats[pattern].def;
	/* The qstate's own strings, as the query's tags have them. */
	t->kind =
	    walk_kind(fc->st, t->def ? R_DEF : R_REF, pt->pats[pattern].kind);
	t->node_start = ts_node_start_byte(node);
	t->row = ts_node_start_point(node).row;
	t->node = node;
}

/*
 * The qualifier of an attribute's reference: the identifier the chain of
 * objects starts with (`logging` of logging.getLogger, `urllib` of
 * urllib.parse.urlsplit), for symbols_rank.c to tell a module's name
 * from the project's.  Calls on anything else (self.x.y, f().z) have none.
 */
static void
py_qualify(struct tag *t, TSNode attr)
{
	TSNode o = ts_node_child_by_field_id(attr, pys.object);
	int depth = 0;

	while (!ts_node_is_null(o) && ts_node_symbol(o) == pys.attribute &&
	    depth++ < 16)
		o = ts_node_child_by_field_id(o, pys.object);
	if (ts_node_is_null(o) || ts_node_symbol(o) != pys.ident)
		return;
	t->qstart = ts_node_start_byte(o);
	t->qend = ts_node_end_byte(o);
}

/* An identifier, or an attribute's attribute: the name, or a null node. */
static TSNode
py_name_of(TSNode x)
{
	TSSymbol s = ts_node_symbol(x);
	TSNode none = { 0 };

	if (s == pys.ident)
		return x;
	if (s == pys.attribute) {
		TSNode a = ts_node_child_by_field_id(x, pys.attribute_f);

		if (!ts_node_is_null(a) && ts_node_symbol(a) == pys.ident)
			return a;
	}
	return none;
}

/*
 * `[(identifier) @name (attribute attribute: (identifier) @name) (tuple
 * [(identifier) @name (attribute ...)])]` at x: the isinstance and
 * except patterns.
 */
static void
py_types_in(struct filectx *fc, struct walktags *pt, TSNode x, TSNode node,
    uint32_t pattern)
{
	TSNode n = py_name_of(x);
	TSTreeCursor c;
	size_t before = pt->n;

	if (!ts_node_is_null(n)) {
		walk_tag(fc, pt, n, node, pattern);
		if (pt->n > before && ts_node_symbol(x) == pys.attribute)
			py_qualify(&pt->tags[pt->n - 1], x);
		return;
	}
	if (ts_node_symbol(x) != pys.tuple)
		return;
	c = ts_tree_cursor_new(x);
	if (ts_tree_cursor_goto_first_child(&c))
		do {
			TSNode y = ts_tree_cursor_current_node(&c);

			n = py_name_of(y);
			if (ts_node_is_null(n))
				continue;
			before = pt->n;
			walk_tag(fc, pt, n, node, pattern);
			if (pt->n > before && ts_node_symbol(y) == pys.attribute)
				py_qualify(&pt->tags[pt->n - 1], y);
		} while (ts_tree_cursor_goto_next_sibling(&c));
	ts_tree_cursor_delete(&c);
}

/* A call of isinstance or issubclass: its second argument's types. */
static void
py_isinstance(struct filectx *fc, struct walktags *pt, TSNode call)
{
	TSNode f = ts_node_child_by_field_id(call, pys.function), args;

	if (ts_node_is_null(f) || ts_node_symbol(f) != pys.ident ||
	    (!node_text_eq(fc, f, "isinstance", 10) &&
		!node_text_eq(fc, f, "issubclass", 10)))
		return;
	args = ts_node_child_by_field_id(call, pys.arguments);
	if (ts_node_is_null(args) || ts_node_symbol(args) != pys.arglist ||
	    ts_node_named_child_count(args) < 2)
		return;
	py_types_in(fc, pt, ts_node_named_child(args, 1), call, PY_ISINSTANCE);
}

/* A dotted_name's last named child, if it is an identifier. */
static void
py_dotted_last(struct filectx *fc, struct walktags *pt, TSNode d, TSNode node,
    uint32_t pattern)
{
	uint32_t k = ts_node_named_child_count(d);
	TSNode last;

	if (!k)
		return;
	last = ts_node_named_child(d, k - 1);
	if (ts_node_symbol(last) == pys.ident)
		walk_tag(fc, pt, last, node, pattern);
}

/* What the patterns find at f, the top of the stack fr[0..depth). */
static void
py_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	const struct walkframe *f = &fr[depth - 1];
	const struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	const struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	const struct walkframe *gg = depth >= 4 ? &fr[depth - 4] : NULL;
	TSSymbol s = f->sym;

	if (s == pys.fromimport || s == pys.import) {
		walk_tag(fc, pt, f->node, f->node,
		    s == pys.fromimport ? PY_FROM_MODULE : PY_IMPORT_MODULE);
		return;
	}
	if (s == pys.call) {
		py_isinstance(fc, pt, f->node);
		return;
	}
	if (s == pys.dotted) {
		if (f->field == pys.name && p && p->sym == pys.fromimport)
			py_dotted_last(fc, pt, f->node, p->node, PY_FROM_NAME);
		else if (f->field == pys.name && p && p->sym == pys.aliased &&
		    p->field == pys.name && g && g->sym == pys.fromimport)
			py_dotted_last(fc, pt, f->node, g->node, PY_FROM_ALIAS);
		return;
	}
	if (s != pys.ident || !p)
		return;
	/* The bound names, as collect_locals finds them. */
	if ((p->sym < pys.nsyms && pys.binding[p->sym]) ||
	    ((p->sym == pys.assignment || p->sym == pys.opassign) &&
		f->field == pys.left)) {
		uint32_t a = ts_node_start_byte(f->node);

		uk_strset_add(&fc->locals, fc->text + a,
		    ts_node_end_byte(f->node) - a);
	}
	if (p->sym == pys.assignment && f->field == pys.left && g &&
	    g->sym == pys.exprstmt && gg && gg->sym == pys.module)
		walk_tag(fc, pt, f->node, p->node, PY_ASSIGN_DEF);
	else if (p->sym == pys.classdef && f->field == pys.name)
		walk_tag(fc, pt, f->node, p->node, PY_CLASS_DEF);
	else if (p->sym == pys.funcdef && f->field == pys.name)
		walk_tag(fc, pt, f->node, p->node, PY_FUNC_DEF);
	else if (p->sym == pys.call && f->field == pys.function) {
		GROW(pt->bare, pt->nbare, pt->abare);
		pt->bare[pt->nbare++] = pt->n;
		walk_tag(fc, pt, f->node, p->node, PY_CALL);
		if (pt->n == pt->bare[pt->nbare - 1])
			pt->nbare--; /* not tagged: empty */
		if (g && g->sym == pys.decorator)
			walk_tag(fc, pt, f->node, g->node, PY_DECO_CALL);
	} else if (p->sym == pys.attribute && f->field == pys.attribute_f &&
	    g) {
		size_t before = pt->n;

		/* An attribute's attribute: its parent decides. */
		if (g->sym == pys.call && p->field == pys.function)
			walk_tag(fc, pt, f->node, g->node, PY_CALL);
		else if (g->sym == pys.type)
			walk_tag(fc, pt, f->node, g->node, PY_TYPE_ATTR);
		else if (g->sym == pys.arglist &&
		    g->field == pys.superclasses && gg &&
		    gg->sym == pys.classdef)
			walk_tag(fc, pt, f->node, gg->node, PY_SUPER_ATTR);
		else if (g->sym == pys.decorator)
			walk_tag(fc, pt, f->node, g->node, PY_DECO_ATTR);
		else if (g->sym == pys.except)
			walk_tag(fc, pt, f->node, g->node, PY_EXCEPT);
		else if (g->sym == pys.tuple && gg && gg->sym == pys.except)
			walk_tag(fc, pt, f->node, gg->node, PY_EXCEPT);
		else if (g->sym == pys.raise)
			walk_tag(fc, pt, f->node, g->node, PY_RAISE);
		if (pt->n > before)
			py_qualify(&pt->tags[pt->n - 1], p->node);
	} else if (p->sym == pys.type) {
		walk_tag(fc, pt, f->node, p->node, PY_TYPE);
		if (g && g->sym == pys.typeparam)
			walk_tag(fc, pt, f->node, g->node, PY_TYPE_PARAM);
	} else if (p->sym == pys.generic) {
		walk_tag(fc, pt, f->node, p->node, PY_GENERIC);
	} else if (p->sym == pys.arglist && p->field == pys.superclasses && g &&
	    g->sym == pys.classdef) {
		walk_tag(fc, pt, f->node, g->node, PY_SUPER);
	} else if (p->sym == pys.decorator) {
		walk_tag(fc, pt, f->node, p->node, PY_DECO);
	} else if (p->sym == pys.except) {
		walk_tag(fc, pt, f->node, p->node, PY_EXCEPT);
	} else if (p->sym == pys.tuple && g && g->sym == pys.except) {
		walk_tag(fc, pt, f->node, g->node, PY_EXCEPT);
	} else if (p->sym == pys.raise) {
		walk_tag(fc, pt, f->node, p->node, PY_RAISE);
	}
}

/* Whether t's type is one whose field in its parent a pattern asks. */
static int
py_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == pys.ident || t == pys.attribute || t == pys.arglist ||
	    t == pys.dotted || t == pys.aliased;
}

/*
 * C's tags without the query cursor, as Python's: upstream's
 * tags.scm (definitions), then c_extra's patterns, by index.
 */
enum {
	C_STRUCT_DEF = 0,
	C_UNION_DEF,
	C_FUNC_DEF,
	C_TYPEDEF_DEF,
	C_ENUM_DEF,
	C_CALL,
	C_FIELD_CALL,
	C_TYPE,
	C_MACRO_DEF,
	C_INCLUDE_MODULE,
	C_NPATTERNS
};

static const struct wpat c_pats[C_NPATTERNS] = { { "class", 1 }, { "class", 1 },
	{ "function", 1 }, { "type", 1 }, { "type", 1 }, { "call", 0 },
	{ "call", 0 }, { "type", 0 }, { "macro", 1 }, { "module", 0 } };

static const char *const c_captures[] = { "name", "definition.class",
	"definition.function", "definition.type", "definition.macro",
	"reference.call", "reference.type", "reference.module", NULL };

static struct {
	TSSymbol tident, ident, fident, strlit, structs, unions, decl, funcdecl,
	    typedef_, enums, call, fieldexpr, macro, include, charlit;
	TSFieldId name, body, type, declarator, function, field, path;
} cs;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void
cs_init(void)
{
	const TSLanguage *l = NULL;
	size_t i;

	for (i = 0; i < UK_SYMLANGS && !l; i++)
		if (!strcmp(uk_symlangs[i].name, "c"))
			l = uk_symlangs[i].fn();

	cs.tident = lang_sym(l, "type_identifier");
	cs.ident = lang_sym(l, "identifier");
	cs.fident = lang_sym(l, "field_identifier");
	cs.strlit = lang_sym(l, "string_literal");
	cs.charlit = lang_sym(l, "char_literal");
	cs.structs = lang_sym(l, "struct_specifier");
	cs.unions = lang_sym(l, "union_specifier");
	cs.decl = lang_sym(l, "declaration");
	cs.funcdecl = lang_sym(l, "function_declarator");
	cs.typedef_ = lang_sym(l, "type_definition");
	cs.enums = lang_sym(l, "enum_specifier");
	cs.call = lang_sym(l, "call_expression");
	cs.fieldexpr = lang_sym(l, "field_expression");
	cs.macro = lang_sym(l, "preproc_function_def");
	cs.include = lang_sym(l, "preproc_include");
	cs.name = lang_field(l, "name");
	cs.body = lang_field(l, "body");
	cs.type = lang_field(l, "type");
	cs.declarator = lang_field(l, "declarator");
	cs.function = lang_field(l, "function");
	cs.field = lang_field(l, "field");
	cs.path = lang_field(l, "path");
}

static int
c_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == cs.tident || t == cs.ident || t == cs.fident ||
	    t == cs.strlit || t == cs.unions || t == cs.fieldexpr;
}

static void
c_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	const struct walkframe *f = &fr[depth - 1];
	const struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	const struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	TSSymbol s = f->sym;

	if (s == cs.tident) {
		walk_tag(fc, pt, f->node, f->node, C_TYPE);
		if (!p)
			return;
		if (p->sym == cs.structs && f->field == cs.name) {
			TSNode b = ts_node_child_by_field_id(p->node, cs.body);

			if (!ts_node_is_null(b) && ts_node_is_named(b))
				walk_tag(fc, pt, f->node, p->node,
				    C_STRUCT_DEF);
		} else if (p->sym == cs.unions && f->field == cs.name &&
		    p->field == cs.type && g && g->sym == cs.decl) {
			walk_tag(fc, pt, f->node, g->node, C_UNION_DEF);
		} else if (p->sym == cs.typedef_ && f->field == cs.declarator) {
			walk_tag(fc, pt, f->node, p->node, C_TYPEDEF_DEF);
		} else if (p->sym == cs.enums && f->field == cs.name) {
			walk_tag(fc, pt, f->node, p->node, C_ENUM_DEF);
		}
	} else if (s == cs.ident && p) {
		if (p->sym == cs.funcdecl && f->field == cs.declarator)
			walk_tag(fc, pt, f->node, p->node, C_FUNC_DEF);
		else if (p->sym == cs.call && f->field == cs.function)
			walk_tag(fc, pt, f->node, p->node, C_CALL);
		else if (p->sym == cs.macro && f->field == cs.name)
			walk_tag(fc, pt, f->node, p->node, C_MACRO_DEF);
	} else if (s == cs.fident && p) {
		if (f->field == cs.field && p->sym == cs.fieldexpr &&
		    p->field == cs.function && g && g->sym == cs.call)
			walk_tag(fc, pt, f->node, g->node, C_FIELD_CALL);
	} else if (s == cs.strlit && p) {
		if (f->field == cs.path && p->sym == cs.include)
			walk_tag(fc, pt, f->node, p->node, C_INCLUDE_MODULE);
	}
}

/*
 * Rust's tags without the query cursor, as Python's: upstream's tags.scm,
 * then rust_extra's patterns, by index.  Rust's tags.scm has no @doc
 * capture: a definition's doc comment comes from uk_symsig_doc, walked or
 * not.
 */
enum {
	RS_STRUCT_DEF = 0,
	RS_ENUM_DEF,
	RS_UNION_DEF,
	RS_TYPE_DEF,
	RS_METHOD_DEF,
	RS_FUNC_DEF,
	RS_TRAIT_DEF,
	RS_MOD_DEF,
	RS_MACRO_DEF,
	RS_CALL,
	RS_FIELD_CALL,
	RS_MACRO_CALL,
	RS_IMPL_TRAIT,
	RS_IMPL_TYPE,
	RS_TYPE,
	RS_PATH_TYPE,
	RS_SCOPED_CALL,
	RS_USE_SCOPED,
	RS_USE_LIST,
	RS_USE_LIST_SCOPED,
	RS_CONST_DEF,
	RS_STATIC_DEF,
	RS_USE_MODULE,
	RS_NPATTERNS
};

static const struct wpat rs_pats[RS_NPATTERNS] = { { "class", 1 },
	{ "class", 1 }, { "class", 1 }, { "class", 1 }, { "method", 1 },
	{ "function", 1 }, { "interface", 1 }, { "module", 1 }, { "macro", 1 },
	{ "call", 0 }, { "call", 0 }, { "call", 0 }, { "implementation", 0 },
	{ "implementation", 0 }, { "type", 0 }, { "type", 0 }, { "call", 0 },
	{ "import", 0 }, { "import", 0 }, { "import", 0 }, { "constant", 1 },
	{ "constant", 1 }, { "module", 0 } };

static const char *const rs_captures[] = { "name", "definition.class",
	"definition.method", "definition.function", "definition.interface",
	"definition.module", "definition.macro", "definition.constant",
	"reference.call", "reference.implementation", "reference.type",
	"reference.import", "reference.module", NULL };

static struct {
	TSSymbol tident, ident, fident, structs, enums, unions, typeitem,
	    decllist, func, trait, mod, macrodef, call, fieldexpr, macrocall,
	    impl, scoped, use, uselist, constitem, staticitem, tokentree,
	    linecomment, blockcomment, string, rawstring;
	TSFieldId name, function, field, macro, trait_f, type, path, argument;
} rss;
static pthread_once_t rss_once = PTHREAD_ONCE_INIT;

static void
rss_init(void)
{
	const TSLanguage *l = NULL;
	size_t i;

	for (i = 0; i < UK_SYMLANGS && !l; i++)
		if (!strcmp(uk_symlangs[i].name, "rust"))
			l = uk_symlangs[i].fn();
	rss.tident = lang_sym(l, "type_identifier");
	rss.ident = lang_sym(l, "identifier");
	rss.fident = lang_sym(l, "field_identifier");
	rss.structs = lang_sym(l, "struct_item");
	rss.enums = lang_sym(l, "enum_item");
	rss.unions = lang_sym(l, "union_item");
	rss.typeitem = lang_sym(l, "type_item");
	rss.decllist = lang_sym(l, "declaration_list");
	rss.func = lang_sym(l, "function_item");
	rss.trait = lang_sym(l, "trait_item");
	rss.mod = lang_sym(l, "mod_item");
	rss.macrodef = lang_sym(l, "macro_definition");
	rss.call = lang_sym(l, "call_expression");
	rss.fieldexpr = lang_sym(l, "field_expression");
	rss.macrocall = lang_sym(l, "macro_invocation");
	rss.impl = lang_sym(l, "impl_item");
	rss.scoped = lang_sym(l, "scoped_identifier");
	rss.use = lang_sym(l, "use_declaration");
	rss.uselist = lang_sym(l, "use_list");
	rss.constitem = lang_sym(l, "const_item");
	rss.staticitem = lang_sym(l, "static_item");
	rss.tokentree = lang_sym(l, "token_tree");
	rss.linecomment = lang_sym(l, "line_comment");
	rss.blockcomment = lang_sym(l, "block_comment");
	rss.string = lang_sym(l, "string_literal");
	rss.rawstring = lang_sym(l, "raw_string_literal");
	rss.name = lang_field(l, "name");
	rss.function = lang_field(l, "function");
	rss.field = lang_field(l, "field");
	rss.macro = lang_field(l, "macro");
	rss.trait_f = lang_field(l, "trait");
	rss.type = lang_field(l, "type");
	rss.path = lang_field(l, "path");
	rss.argument = lang_field(l, "argument");
}

static int
rs_wants_field(TSSymbol t, TSSymbol parent)
{
	return t == rss.tident || t == rss.ident || t == rss.fident ||
	    t == rss.fieldexpr || t == rss.scoped || parent == rss.use;
}

/*
 * Nodes whose children no pattern names: a macro's token tree holds only
 * tokens (identifiers, literals, nested token trees), a comment its
 * markers, a string its pieces.  The walk does not enter them (on syn,
 * 23% of the nodes are inside token trees and 9% inside comments and
 * strings; each step of tree-sitter's cursor costs hundreds of
 * instructions).
 */
static int
rs_opaque(const struct filectx *fc, const struct walkframe *f)
{
	TSSymbol t = f->sym;

	(void)fc;
	return t == rss.tokentree || t == rss.linecomment ||
	    t == rss.blockcomment || t == rss.string || t == rss.rawstring;
}

static void
rs_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	const struct walkframe *f = &fr[depth - 1];
	const struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	const struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	TSSymbol s = f->sym;

	if (!p)
		return;
	/* (use_declaration argument: (_) @name): any named node. */
	if (p->sym == rss.use && f->field == rss.argument &&
	    ts_node_is_named(f->node))
		walk_tag(fc, pt, f->node, p->node, RS_USE_MODULE);
	if (s == rss.tident) {
		walk_tag(fc, pt, f->node, f->node, RS_TYPE);
		if (f->field == rss.name) {
			if (p->sym == rss.structs)
				walk_tag(fc, pt, f->node, p->node,
				    RS_STRUCT_DEF);
			else if (p->sym == rss.enums)
				walk_tag(fc, pt, f->node, p->node, RS_ENUM_DEF);
			else if (p->sym == rss.unions)
				walk_tag(fc, pt, f->node, p->node,
				    RS_UNION_DEF);
			else if (p->sym == rss.typeitem)
				walk_tag(fc, pt, f->node, p->node, RS_TYPE_DEF);
			else if (p->sym == rss.trait)
				walk_tag(fc, pt, f->node, p->node,
				    RS_TRAIT_DEF);
		} else if (p->sym == rss.impl && f->field == rss.trait_f) {
			walk_tag(fc, pt, f->node, p->node, RS_IMPL_TRAIT);
		} else if (p->sym == rss.impl && f->field == rss.type &&
		    ts_node_is_null(
			ts_node_child_by_field_id(p->node, rss.trait_f))) {
			/* The query's !trait, tested as the cursor tests it. */
			walk_tag(fc, pt, f->node, p->node, RS_IMPL_TYPE);
		}
	} else if (s == rss.ident) {
		if (p->sym == rss.func && f->field == rss.name) {
			if (g && g->sym == rss.decllist)
				walk_tag(fc, pt, f->node, p->node,
				    RS_METHOD_DEF);
			walk_tag(fc, pt, f->node, p->node, RS_FUNC_DEF);
		} else if (p->sym == rss.mod && f->field == rss.name) {
			walk_tag(fc, pt, f->node, p->node, RS_MOD_DEF);
		} else if (p->sym == rss.macrodef && f->field == rss.name) {
			walk_tag(fc, pt, f->node, p->node, RS_MACRO_DEF);
		} else if (p->sym == rss.call && f->field == rss.function) {
			walk_tag(fc, pt, f->node, p->node, RS_CALL);
		} else if (p->sym == rss.macrocall && f->field == rss.macro) {
			walk_tag(fc, pt, f->node, p->node, RS_MACRO_CALL);
		} else if (p->sym == rss.scoped && f->field == rss.path) {
			/* #match? @name "^[A-Z]" */
			uint32_t a = ts_node_start_byte(f->node);

			if (a < fc->len && fc->text[a] >= 'A' &&
			    fc->text[a] <= 'Z')
				walk_tag(fc, pt, f->node, p->node,
				    RS_PATH_TYPE);
		} else if (p->sym == rss.scoped && f->field == rss.name && g) {
			if (g->sym == rss.call && p->field == rss.function)
				walk_tag(fc, pt, f->node, g->node,
				    RS_SCOPED_CALL);
			else if (g->sym == rss.use && p->field == rss.argument)
				walk_tag(fc, pt, f->node, g->node,
				    RS_USE_SCOPED);
			else if (g->sym == rss.uselist)
				walk_tag(fc, pt, f->node, g->node,
				    RS_USE_LIST_SCOPED);
		} else if (p->sym == rss.uselist) {
			walk_tag(fc, pt, f->node, p->node, RS_USE_LIST);
		} else if (p->sym == rss.constitem && f->field == rss.name) {
			walk_tag(fc, pt, f->node, p->node, RS_CONST_DEF);
		} else if (p->sym == rss.staticitem && f->field == rss.name) {
			walk_tag(fc, pt, f->node, p->node, RS_STATIC_DEF);
		}
	} else if (s == rss.fident) {
		if (f->field == rss.field && p->sym == rss.fieldexpr &&
		    p->field == rss.function && g && g->sym == rss.call)
			walk_tag(fc, pt, f->node, g->node, RS_FIELD_CALL);
	}
}

/*
 * JavaScript's tags without the query cursor, as Python's: upstream's
 * tags.scm, then js_extra's patterns, by index.  Five of upstream's
 * patterns take the comments before a definition, `(comment)* @doc .
 * (definition)`, with #strip! and #select-adjacent!; the doc is made by
 * make_doc from the comments the query cursor of tree-sitter 0.20
 * captures: the run of comments just before the definition's node, with
 * nothing between two of them and only nodes without a name (a `;`)
 * between the last and the node.  In the patterns of classes and
 * functions, alternations (`[(class ...) (class_declaration ...)]`), it
 * captures them for the first alternative only; for the others make_doc
 * looks at the siblings itself, as it does when there is no comment.
 */
enum {
	JS_METHOD_DEF = 0,
	JS_CLASS_DEF,
	JS_FUNC_DEF,
	JS_LEXICAL_DEF,
	JS_VAR_DEF,
	JS_ASSIGN_DEF,
	JS_PAIR_DEF,
	JS_CALL,
	JS_MEMBER_CALL,
	JS_NEW,
	JS_EXPORT_CONST,
	JS_IMPORT,
	JS_IMPORT_MODULE,
	JS_EXPORT_MODULE,
	JS_REQUIRE_MODULE,
	JS_NPATTERNS
};

static const struct wpat js_pats[JS_NPATTERNS] = { { "method", 1 },
	{ "class", 1 }, { "function", 1 }, { "function", 1 }, { "function", 1 },
	{ "function", 1 }, { "function", 1 }, { "call", 0 }, { "call", 0 },
	{ "class", 0 }, { "constant", 1 }, { "import", 0 }, { "module", 0 },
	{ "module", 0 }, { "module", 0 } };

static const char *const js_captures[] = { "name", "definition.method",
	"definition.class", "definition.function", "definition.constant",
	"reference.call", "reference.class", "reference.import",
	"reference.module", NULL };

/*
 * What a walk needs for the comments before a definition (JavaScript's
 * and Go's `(comment)* @doc . (definition)`): the comment's symbol, which
 * symbols have a name and which have "comment" in it, and the doc
 * pattern's #strip! and #select-adjacent! (or #set-adjacent!, the same
 * to make_doc) on capture 0.
 */
struct docsyms {
	TSSymbol comment;
	unsigned char *named;      /* per symbol: a node with a name */
	unsigned char *commentish; /* per symbol: "comment" in its name */
	uint32_t nsyms;
	struct pred preds[2];
	struct pattern pat;
};

/* d for language l, whose doc patterns strip the expression strip. */
static void
docsyms_init(struct docsyms *d, const TSLanguage *l, const char *strip)
{
	uint32_t i;

	d->comment = lang_sym(l, "comment");
	d->nsyms = ts_language_symbol_count(l);
	d->named = uk_xcalloc(d->nsyms + 1, 1);
	d->commentish = uk_xcalloc(d->nsyms + 1, 1);
	for (i = 0; i < d->nsyms; i++) {
		d->named[i] = ts_language_symbol_type(l, (TSSymbol)i) ==
		    TSSymbolTypeRegular;
		d->commentish[i] =
		    strstr(ts_language_symbol_name(l, (TSSymbol)i),
			"comment") != NULL;
	}
	d->preds[0].op = P_STRIP;
	d->preds[0].cap2 = ~0u;
	d->preds[0].re = compile_re(strip);
	if (!d->preds[0].re)
		uk_die(UK_EXIT_FATAL, "doc expression of a walked language");
	d->preds[1].op = P_ADJACENT;
	d->preds[1].cap2 = 1;
	d->pat.preds = d->preds;
	d->pat.npreds = 2;
}

static struct {
	TSSymbol ident, propident, method, class_, classdecl, funcexpr,
	    funcdecl, gen, gendecl, lexical, vardecl, declarator, arrow, assign,
	    member, pair, call, arguments, string, new_, export, import,
	    importspec, number, undefined, null, binary, regex;
	TSFieldId name, value, left, right, key, function, property,
	    arguments_f, constructor, source;
	unsigned char *fielded; /* per symbol: its children's fields asked */
	struct docsyms doc;
} jss;
static pthread_once_t jss_once = PTHREAD_ONCE_INIT;

static void
jss_init(void)
{
	const TSLanguage *l = NULL;
	static const char *const fielded[] = { "method_definition",
		"member_expression", "pair", "function_expression",
		"function_declaration", "generator_function",
		"generator_function_declaration", "variable_declarator",
		"assignment_expression", "call_expression", "import_specifier",
		"class", "class_declaration", "new_expression",
		"import_statement", "export_statement", NULL };
	size_t i;

	for (i = 0; i < UK_SYMLANGS && !l; i++)
		if (!strcmp(uk_symlangs[i].name, "javascript"))
			l = uk_symlangs[i].fn();
	jss.ident = lang_sym(l, "identifier");
	jss.propident = lang_sym(l, "property_identifier");
	jss.method = lang_sym(l, "method_definition");
	jss.class_ = lang_sym(l, "class");
	jss.classdecl = lang_sym(l, "class_declaration");
	jss.funcexpr = lang_sym(l, "function_expression");
	jss.funcdecl = lang_sym(l, "function_declaration");
	jss.gen = lang_sym(l, "generator_function");
	jss.gendecl = lang_sym(l, "generator_function_declaration");
	jss.lexical = lang_sym(l, "lexical_declaration");
	jss.vardecl = lang_sym(l, "variable_declaration");
	jss.declarator = lang_sym(l, "variable_declarator");
	jss.arrow = lang_sym(l, "arrow_function");
	jss.assign = lang_sym(l, "assignment_expression");
	jss.member = lang_sym(l, "member_expression");
	jss.pair = lang_sym(l, "pair");
	jss.call = lang_sym(l, "call_expression");
	jss.arguments = lang_sym(l, "arguments");
	jss.string = lang_sym(l, "string");
	jss.regex = lang_sym(l, "regex");
	jss.new_ = lang_sym(l, "new_expression");
	jss.export = lang_sym(l, "export_statement");
	jss.import = lang_sym(l, "import_statement");
	jss.importspec = lang_sym(l, "import_specifier");
	jss.number = lang_sym(l, "number");
	jss.undefined = lang_sym(l, "undefined");
	jss.null = lang_sym(l, "null");
	jss.binary = lang_sym(l, "binary_expression");
	jss.name = lang_field(l, "name");
	jss.value = lang_field(l, "value");
	jss.left = lang_field(l, "left");
	jss.right = lang_field(l, "right");
	jss.key = lang_field(l, "key");
	jss.function = lang_field(l, "function");
	jss.property = lang_field(l, "property");
	jss.arguments_f = lang_field(l, "arguments");
	jss.constructor = lang_field(l, "constructor");
	jss.source = lang_field(l, "source");
	/* tags.scm's expression, once its string is unescaped. */
	docsyms_init(&jss.doc, l, "^[\\s\\*/]+|^[\\s\\*/]$");
	jss.fielded = uk_xcalloc(jss.doc.nsyms + 1, 1);
	for (i = 0; fielded[i]; i++)
		jss.fielded[lang_sym(l, fielded[i])] = 1;
}

static int
js_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)t;
	return parent < jss.doc.nsyms && jss.fielded[parent];
}

/* Whether x is a node with a name, not an error: the query's (_). */
static int
js_wildcard(const struct walkframe *x)
{
	if (x->sym < jss.doc.nsyms)
		return jss.doc.named[x->sym];
	return 0; /* ERROR */
}

/*
 * Add node to the run v[*start..*start+*n), moved last if need be (a
 * comment has no children, so a deeper run never comes between two
 * comments of one run; this is a safety net).
 */
static void
run_push(struct nodevec *vec, uint32_t *start, uint32_t *n, TSNode node)
{
	if (!*n) {
		*start = (uint32_t)vec->n;
	} else if (*start + *n != vec->n) {
		uint32_t k, from = *start;

		*start = (uint32_t)vec->n;
		for (k = 0; k < *n; k++) {
			GROW(vec->v, vec->n, vec->a);
			vec->v[vec->n++] = vec->v[from + k];
		}
	}
	GROW(vec->v, vec->n, vec->a);
	vec->v[vec->n++] = node;
	(*n)++;
}

/*
 * The definition p of a doc pattern (g its parent), its comments as the
 * query captures them cm.v[run..+nrun).  With none, make_doc would look
 * at the siblings before p, or before g when g starts on p's line and p
 * follows no comment, with ts_node_parent and ts_node_prev_sibling (each
 * a walk down from the root in tree-sitter 0.20): the walk has them.
 */
static void
doc_def(struct filectx *fc, struct walktags *pt, const struct docsyms *ds,
    TSNode name, const struct walkframe *p, const struct walkframe *g,
    uint32_t pattern, uint32_t run, uint32_t nrun)
{
	size_t before = pt->n;
	const struct nodevec *vec = &pt->cm;
	TSQueryCapture *caps = NULL;
	TSQueryMatch m;
	uint32_t k;

	walk_tag(fc, pt, name, p->node, pattern);
	if (pt->n == before)
		return;
	if (!nrun) {
		const struct walkframe *at = p;

		if (g &&
		    ts_node_start_point(g->node).row ==
			ts_node_start_point(p->node).row &&
		    (!p->has_prev || !p->prev_comment))
			at = g;
		vec = &pt->cs;
		run = at->sib;
		nrun = at->nsib;
		if (!nrun)
			return;
	}
	/* A match holds at most 65535 captures; make_doc reads the last. */
	if (nrun > UINT16_MAX) {
		run += nrun - UINT16_MAX;
		nrun = UINT16_MAX;
	}
	memset(&m, 0, sizeof(m));
	caps = uk_xcalloc(nrun, sizeof(*caps));
	for (k = 0; k < nrun; k++)
		caps[k].node = vec->v[run + k];
	m.captures = caps;
	m.capture_count = (uint16_t)nrun;
	pt->tags[pt->n - 1].doc = make_doc(fc, &ds->pat, &m, 0, p->node);
	free(caps);
}

/* The comment runs among p's children, with f the node visited. */
static void
doc_comments(struct walktags *pt, const struct docsyms *ds,
    struct walkframe *p, struct walkframe *f)
{
	f->has_prev = p->nchildren > 0;
	f->prev_comment = p->ncsib > 0;
	f->sib = p->csib;
	f->nsib = p->ncsib;
	p->nchildren++;
	if (f->sym < ds->nsyms && ds->commentish[f->sym])
		run_push(&pt->cs, &p->csib, &p->ncsib, f->node);
	else
		p->ncsib = 0;
	if (f->sym == ds->comment) {
		if (p->gap)
			p->ncrun = 0;
		p->gap = 0;
		run_push(&pt->cm, &p->crun, &p->ncrun, f->node);
	} else if (f->sym < ds->nsyms && !ds->named[f->sym]) {
		if (p->ncrun)
			p->gap = 1;
	} else {
		f->run = p->crun;
		f->nrun = p->ncrun;
		p->ncrun = 0;
		p->gap = 0;
	}
}

static void
js_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	struct walkframe *f = &fr[depth - 1];
	struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	TSSymbol s = f->sym;

	if (!p)
		return;
	doc_comments(pt, &jss.doc, p, f);
	if (s == jss.doc.comment)
		return;
	if (s == jss.propident) {
		if (f->field == jss.name && p->sym == jss.method) {
			/* #not-eq? @name "constructor" */
			if (!node_text_eq(fc, f->node, "constructor", 11))
				doc_def(fc, pt, &jss.doc, f->node, p, g,
				    JS_METHOD_DEF, p->run, p->nrun);
		} else if (f->field == jss.property && p->sym == jss.member &&
		    g) {
			if ((p->field == jss.function && g->sym == jss.call) ||
			    (p->field == jss.left && g->sym == jss.assign))
				g->first = f->node;
		} else if (f->field == jss.key && p->sym == jss.pair) {
			p->first = f->node;
		}
	} else if (s == jss.ident) {
		if (f->field == jss.name &&
		    (p->sym == jss.funcexpr || p->sym == jss.funcdecl ||
			p->sym == jss.gen || p->sym == jss.gendecl))
			doc_def(fc, pt, &jss.doc, f->node, p, g, JS_FUNC_DEF,
			    p->run, p->sym == jss.funcexpr ? p->nrun : 0);
		else if (f->field == jss.name && p->sym == jss.declarator)
			p->first = f->node;
		else if (f->field == jss.left && p->sym == jss.assign)
			p->first = f->node;
		else if (f->field == jss.function && p->sym == jss.call) {
			/* #not-match? @name "^(require)$", and require's
			 * call for the module's pattern. */
			if (node_text_eq(fc, f->node, "require", 7))
				p->first = f->node;
			else
				walk_tag(fc, pt, f->node, p->node, JS_CALL);
		} else if (f->field == jss.name && p->sym == jss.importspec)
			walk_tag(fc, pt, f->node, p->node, JS_IMPORT);
	} else if (s == jss.string && f->field == jss.source) {
		if (p->sym == jss.import)
			walk_tag(fc, pt, f->node, p->node, JS_IMPORT_MODULE);
		else if (p->sym == jss.export)
			walk_tag(fc, pt, f->node, p->node, JS_EXPORT_MODULE);
	}
	if (f->field == jss.name &&
	    (p->sym == jss.class_ || p->sym == jss.classdecl) && js_wildcard(f))
		doc_def(fc, pt, &jss.doc, f->node, p, g, JS_CLASS_DEF, p->run,
		    p->sym == jss.class_ ? p->nrun : 0);
	if (f->field == jss.constructor && p->sym == jss.new_ && js_wildcard(f))
		walk_tag(fc, pt, f->node, p->node, JS_NEW);
	/* The second child of the patterns of two. */
	if (ts_node_is_null(p->first))
		return;
	if (f->field == jss.value && (s == jss.arrow || s == jss.funcexpr)) {
		if (p->sym == jss.declarator && g &&
		    (g->sym == jss.lexical || g->sym == jss.vardecl))
			doc_def(fc, pt, &jss.doc, p->first, p, g,
			    g->sym == jss.lexical ? JS_LEXICAL_DEF : JS_VAR_DEF,
			    g->run, g->nrun);
		else if (p->sym == jss.pair)
			walk_tag(fc, pt, p->first, p->node, JS_PAIR_DEF);
	} else if (f->field == jss.right && p->sym == jss.assign) {
		if (s == jss.arrow || s == jss.funcexpr)
			walk_tag(fc, pt, p->first, p->node, JS_ASSIGN_DEF);
		if (p->field == jss.value && g && g->sym == jss.export &&
		    ts_node_symbol(p->first) == jss.ident &&
		    (s == jss.number || s == jss.string || s == jss.ident ||
			s == jss.undefined || s == jss.null || s == jss.new_ ||
			s == jss.binary || s == jss.call))
			walk_tag(fc, pt, p->first, g->node, JS_EXPORT_CONST);
	} else if (f->field == jss.arguments_f && p->sym == jss.call) {
		if (ts_node_symbol(p->first) == jss.propident) {
			if (js_wildcard(f))
				walk_tag(fc, pt, p->first, f->node,
				    JS_MEMBER_CALL);
		} else if (s == jss.arguments) {
			/* (arguments . (string) @name) */
			TSNode a = ts_node_named_child(f->node, 0);

			if (!ts_node_is_null(a) &&
			    ts_node_symbol(a) == jss.string)
				walk_tag(fc, pt, a, p->node, JS_REQUIRE_MODULE);
		}
	}
}

/*
 * Go's tags without the query cursor, as JavaScript's: upstream's
 * tags.scm by index (Go has no extra patterns).  Its last six patterns
 * capture a name with neither a definition nor a reference, so the query
 * never made a tag of them: they are not walked.  The function and method
 * patterns take the comments before the definition, `(comment)* @doc .
 * (definition)`, with #strip! and #set-adjacent!; the query cursor of
 * tree-sitter 0.20 captures the run JavaScript's does (asked with a
 * scratch program printing every match): the comments just before the
 * definition, nothing between two of them (an empty statement, `;` on its
 * own, ends the run) and only nameless nodes (a line's end) after the
 * last.
 */
enum {
	GO_FUNC_DEF = 0,
	GO_METHOD_DEF,
	GO_CALL,
	GO_TYPE_DEF,
	GO_TYPE,
	GO_NPATTERNS
};

static const struct wpat go_pats[GO_NPATTERNS] = { { "function", 1 },
	{ "method", 1 }, { "call", 0 }, { "type", 1 }, { "type", 0 } };

static const char *const go_captures[] = { "name", "definition.function",
	"definition.method", "reference.call", "definition.type",
	"reference.type", NULL };

static struct {
	TSSymbol ident, fident, tident, funcdecl, methoddecl, call, paren,
	    selector, typespec, str, rawstr;
	TSFieldId name, function, field;
	struct docsyms doc;
} gos;
static pthread_once_t gos_once = PTHREAD_ONCE_INIT;

static void
gos_init(void)
{
	const TSLanguage *l = NULL;
	size_t i;

	for (i = 0; i < UK_SYMLANGS && !l; i++)
		if (!strcmp(uk_symlangs[i].name, "go"))
			l = uk_symlangs[i].fn();
	gos.ident = lang_sym(l, "identifier");
	gos.fident = lang_sym(l, "field_identifier");
	gos.tident = lang_sym(l, "type_identifier");
	gos.funcdecl = lang_sym(l, "function_declaration");
	gos.methoddecl = lang_sym(l, "method_declaration");
	gos.call = lang_sym(l, "call_expression");
	gos.paren = lang_sym(l, "parenthesized_expression");
	gos.selector = lang_sym(l, "selector_expression");
	gos.typespec = lang_sym(l, "type_spec");
	gos.str = lang_sym(l, "interpreted_string_literal");
	gos.rawstr = lang_sym(l, "raw_string_literal");
	gos.name = lang_field(l, "name");
	gos.function = lang_field(l, "function");
	gos.field = lang_field(l, "field");
	/* tags.scm's "^//\\s*", once its string is unescaped. */
	docsyms_init(&gos.doc, l, "^//\\s*");
}

static int
go_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == gos.ident || t == gos.fident || t == gos.tident ||
	    t == gos.paren || t == gos.selector;
}

static void
go_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	struct walkframe *f = &fr[depth - 1];
	struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	struct walkframe *gg = depth >= 4 ? &fr[depth - 4] : NULL;
	TSSymbol s = f->sym;

	if (!p)
		return;
	doc_comments(pt, &gos.doc, p, f);
	if (s == gos.ident) {
		if (f->field == gos.name && p->sym == gos.funcdecl)
			doc_def(fc, pt, &gos.doc, f->node, p, g, GO_FUNC_DEF,
			    p->run, p->nrun);
		else if (f->field == gos.function && p->sym == gos.call)
			walk_tag(fc, pt, f->node, p->node, GO_CALL);
		else if (p->sym == gos.paren && p->field == gos.function && g &&
		    g->sym == gos.call)
			/* (parenthesized_expression (identifier) @name) */
			walk_tag(fc, pt, f->node, g->node, GO_CALL);
	} else if (s == gos.fident) {
		if (f->field == gos.name && p->sym == gos.methoddecl)
			doc_def(fc, pt, &gos.doc, f->node, p, g, GO_METHOD_DEF,
			    p->run, p->nrun);
		else if (f->field == gos.field && p->sym == gos.selector && g) {
			if (p->field == gos.function && g->sym == gos.call)
				walk_tag(fc, pt, f->node, g->node, GO_CALL);
			else if (g->sym == gos.paren &&
			    g->field == gos.function && gg &&
			    gg->sym == gos.call)
				walk_tag(fc, pt, f->node, gg->node, GO_CALL);
		}
	} else if (s == gos.tident) {
		if (f->field == gos.name && p->sym == gos.typespec)
			walk_tag(fc, pt, f->node, p->node, GO_TYPE_DEF);
		walk_tag(fc, pt, f->node, f->node, GO_TYPE);
	}
}

/*
 * The nodes each walk does not enter (see rs_opaque): strings, whose
 * pieces no pattern names, and JavaScript's regular expressions.  Not
 * Python's f-strings, nor JavaScript's template strings: their
 * interpolations hold expressions.
 */
static int
py_opaque(const struct filectx *fc, const struct walkframe *f)
{
	uint32_t a;

	if (f->sym != pys.string)
		return 0;
	/* Its prefix: only r, b and u (no f) before the quote. */
	for (a = ts_node_start_byte(f->node);
	     a < fc->len && fc->text[a] != '"' && fc->text[a] != '\''; a++)
		if (!strchr("rRbBuU", fc->text[a]) || !fc->text[a])
			return 0;
	return 1;
}

static int
c_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == cs.strlit || f->sym == cs.charlit;
}

static int
js_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == jss.string || f->sym == jss.regex;
}

static int
go_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == gos.str || f->sym == gos.rawstr;
}

/* A language whose tags are walked, not queried. */
struct walklang {
	const struct wpat *pats;
	const char *const *caps;
	pthread_once_t *once;
	void (*init)(void);
	/* Whether a node's field in its parent (the second) is asked. */
	int (*wants_field)(TSSymbol, TSSymbol);
	void (*visit)(struct filectx *, struct walktags *, struct walkframe *,
	    size_t);
	/*
	 * Whether no pattern can match below a node of this symbol (NULL:
	 * none such); a node with an error below it is entered all the
	 * same, since error recovery may put any node there.
	 */
	int (*opaque)(const struct filectx *, const struct walkframe *);
};

static const struct walklang py_walk = { py_pats, py_captures, &pys_once,
	pys_init, py_wants_field, py_visit, py_opaque };
static const struct walklang c_walk = { c_pats, c_captures, &cs_once, cs_init,
	c_wants_field, c_visit, c_opaque };
static const struct walklang rs_walk = { rs_pats, rs_captures, &rss_once,
	rss_init, rs_wants_field, rs_visit, rs_opaque };
static const struct walklang js_walk = { js_pats, js_captures, &jss_once,
	jss_init, js_wants_field, js_visit, js_opaque };
static const struct walklang go_walk = { go_pats, go_captures, &gos_once,
	gos_init, go_wants_field, go_visit, go_opaque };

/* The walked languages, by index in uk_symlangs. */
static const struct walklang *
walker(int li)
{
	if (li == UK_SYMLANG_PYTHON)
		return &py_walk;
	if (!strcmp(uk_symlangs[li].name, "c"))
		return &c_walk;
	if (!strcmp(uk_symlangs[li].name, "rust"))
		return &rs_walk;
	if (!strcmp(uk_symlangs[li].name, "javascript"))
		return &js_walk;
	if (!strcmp(uk_symlangs[li].name, "go"))
		return &go_walk;
	return NULL;
}

static const char *const *
walker_caps(const struct walklang *wl)
{
	return wl->caps;
}

/*
 * One walk down fc's tree: the tags language wl's query would give into
 * tags[0..*ntags), and (Python) the bound names into fc->locals.  A bare
 * call of a bound name is dropped, as calls_local drops it after the
 * query.
 */
static void
walk_tree(struct filectx *fc, const struct walklang *wl, struct tag **tags,
    size_t *ntags, size_t *atags)
{
	TSTreeCursor c = ts_tree_cursor_new(fc->root);
	struct walkframe *fr = NULL;
	struct walktags pt = { wl->pats, *tags, *ntags, *atags, NULL, 0, 0,
		{ NULL, 0, 0 }, { NULL, 0, 0 } };
	size_t depth = 0, afr = 0, k, out, b;

	pthread_once(wl->once, wl->init);
	GROW(fr, depth, afr);
	memset(&fr[depth], 0, sizeof(*fr));
	fr[depth].node = fc->root;
	fr[depth++].sym = ts_node_symbol(fc->root);
	wl->visit(fc, &pt, fr, depth);
	for (;;) {
		struct walkframe *f = &fr[depth - 1];

		if (!(wl->opaque && wl->opaque(fc, f) &&
			!ts_node_has_error(f->node)) &&
		    ts_tree_cursor_goto_first_child(&c)) {
			GROW(fr, depth, afr);
			depth++;
		} else if (!ts_tree_cursor_goto_next_sibling(&c)) {
			for (;;) {
				if (!ts_tree_cursor_goto_parent(&c))
					goto done;
				depth--;
				if (ts_tree_cursor_goto_next_sibling(&c))
					break;
			}
		}
		f = &fr[depth - 1];
		memset(f, 0, sizeof(*f));
		f->node = ts_tree_cursor_current_node(&c);
		f->sym = ts_node_symbol(f->node);
		f->field = wl->wants_field(f->sym, fr[depth - 2].sym) ?
		    ts_tree_cursor_current_field_id(&c) :
		    0;
		wl->visit(fc, &pt, fr, depth);
	}
done:
	if (wl == &py_walk)
		fc->locals_done = 1;
	/* calls_local's rule, now that every bound name is known. */
	for (k = out = b = 0; k < pt.n; k++) {
		if (b < pt.nbare && pt.bare[b] == k) {
			struct tag *t = &pt.tags[k];

			b++;
			if (uk_strset_has(&fc->locals, fc->text + t->start,
				t->end - t->start))
				continue;
		}
		pt.tags[out++] = pt.tags[k];
	}
	*tags = pt.tags;
	*ntags = out;
	*atags = pt.a;
	free(pt.bare);
	free(pt.cm.v);
	free(pt.cs.v);
	free(fr);
	ts_tree_cursor_delete(&c);
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Parse and query one file with w's parser and cursor.  Reads s only (its
 * compiled queries), so that several workers run at once.
 */
static void
index_tree(const struct uk_symbols *s, struct symworker *w, TSParser *parser,
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
	if (!ts_parser_set_language(parser, uk_symlangs[li].fn())) {
		snprintf(r->err, sizeof(r->err),
		    "grammar '%s': ABI %u not loadable", uk_symlangs[li].name,
		    ts_language_version(uk_symlangs[li].fn()));
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
	/*
	 * The query after the parse: a worker that must wait for another
	 * to compile it has parsed meanwhile.  s is the caller's, not
	 * const: its queries are compiled once, under query_ready's lock.
	 */
	if (!query_ready((struct qstate *)&s->qs[li], li)) {
		snprintf(r->err, sizeof(r->err), "%s", s->qs[li].errmsg);
		return;
	}
	fc.root = ts_tree_root_node(tree);
	if (!fc.st->q)
		walk_tree(&fc, walker(li), &tags, &ntags, &atags);
	else
		ts_query_cursor_exec(cursor, fc.st->q, fc.root);
	while (fc.st->q && ts_query_cursor_next_match(cursor, &m)) {
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
		if (!def && li == UK_SYMLANG_PYTHON &&
		    calls_local(&fc, name, node))
			continue;
		GROW(tags, ntags, atags);
		t = &tags[ntags++];
		t->qstart = t->qend = 0;
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
		/* The walk's qualifier (py_visit), for the same ranks. */
		if (!def && li == UK_SYMLANG_PYTHON) {
			TSNode par = ts_node_parent(name);

			pthread_once(&pys_once, pys_init);
			if (!ts_node_is_null(par) &&
			    ts_node_symbol(par) == pys.attribute &&
			    ts_node_eq(ts_node_child_by_field_id(par,
					   pys.attribute_f),
				name))
				py_qualify(t, par);
		}
	}
	{
		/* The definitions' ancestors, for their scopes and docs. */
		uint32_t *starts = uk_xcalloc(ntags + 1, sizeof(*starts));
		size_t k, n = 0;

		for (k = 0; k < ntags; k++)
			if (tags[k].def)
				starts[n++] = tags[k].node_start;
		qsort(starts, n, sizeof(*starts), u32_cmp);
		uk_symsig_family_begin(fc.root, starts, n);
		free(starts);
	}
	emit_tags(tags, ntags, text, len, r);
	uk_symsig_family_end();
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

	file_facts(text, len, r);
	uk_symlex_refs(uk_symlangs[li].name, text, len, lex_ref, &lc);
	r->status = 1;
	r->lexed = 1;
}

void
uk_symtags_file(const struct uk_symbols *s, struct symworker *w, int li,
    int lex, const char *path, const char *text, size_t len, struct fres *r)
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

void
uk_symtags_release(struct fres *r)
{
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		free(r->tags[k].name);
		free(r->tags[k].qual);
		free(r->tags[k].d.sig);
		free(r->tags[k].d.doc);
		free(r->tags[k].d.scope);
		free(r->tags[k].d.scope_name);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}
