/* SPDX-License-Identifier: MIT */
/*
 * The predicate engine of the tags queries.  tree-sitter 0.20 parses the
 * predicates of a query but applies none of them, so they are applied
 * here: #eq?, #not-eq?, #match?, #not-match?, #any-of? filter matches;
 * #select-adjacent! and #set-adjacent! keep only the comments that touch
 * the definition; #strip! removes a regular expression (Rust syntax,
 * hence PCRE2) from them; #is-not? local drops names assigned or bound
 * as parameters in the same file (Ruby: a file-wide approximation of
 * scopes).  See symbols_walk.h.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "strset.h"
#include "symbols.h"
#include "symbols_int.h"
#include "symbols_walk.h"
#include "util.h"

pcre2_code *
uk_sympred_compile_re(const char *pat)
{
	int errcode;
	PCRE2_SIZE erroff;

	return pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF,
	    &errcode, &erroff, NULL);
}

void
uk_sympred_setup(struct qstate *st, uint32_t p)
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
			pr.re = uk_sympred_compile_re(
			    ts_query_string_value_for_id(st->q, a[2].value_id,
				&len));
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
			pr.strs = uk_util_xcalloc(pr.nstrs + 1, sizeof(char *));
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

static void add_comment(struct filectx *fc, struct uk_buf *b,
    const struct pred *strip, TSNode n);

int
uk_sympred_text_eq(const struct filectx *fc, TSNode n, const char *str,
    size_t sl)
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

int
uk_sympred_is_binding_parent(const char *t)
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
			if (uk_sympred_climb(&c, &depth) == -1)
				goto done;
			stack[depth - 1] = n = ts_tree_cursor_current_node(&c);
		}
		/* stack[depth - 1] is n, stack[depth - 2] its parent. */
		if (depth < 2 || strcmp(ts_node_type(n), "identifier"))
			continue;
		p = stack[depth - 2];
		{
			pt = ts_node_type(p);
			if (uk_sympred_is_binding_parent(pt) ||
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
int
uk_sympred_calls_local(struct filectx *fc, TSNode name, TSNode ref)
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

int
uk_sympred_pass(struct filectx *fc, const struct pattern *pat,
    const TSQueryMatch *m, TSNode name)
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

						eq = uk_sympred_text_eq(fc, n,
						    fc->text + a,
						    ts_node_end_byte(o) - a);
					}
				} else {
					eq = uk_sympred_text_eq(fc, n, p->str,
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
					any = uk_sympred_text_eq(fc,
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
char *
uk_sympred_doc(struct filectx *fc, const struct pattern *pat,
    const TSQueryMatch *m, uint32_t doccap, TSNode def)
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
		uk_buf_setlen(&b, uk_buf_utf8_cut(b.buf, 300));
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
		if (e - a >= 4 && fc->text[a] == '/' &&
		    fc->text[a + 1] == '*' && fc->text[e - 2] == '*' &&
		    fc->text[e - 1] == '/') {
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

int
uk_sympred_climb(TSTreeCursor *c, size_t *depth)
{
	for (;;) {
		if (!ts_tree_cursor_goto_parent(c))
			return -1;
		(*depth)--;
		if (ts_tree_cursor_goto_next_sibling(c))
			return 0;
	}
}
