/* SPDX-License-Identifier: MIT */
/*
 * Python's walker: the patterns of its tags query (upstream's tags.scm,
 * then python_extra in symbols_queries.c) found in one walk of the tree,
 * which also collects the file's bound names.  See symbols_walk.h.
 */
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

/*
 * Python without the query cursor.  ts_query_cursor_next_match walks every
 * node of the tree and matches every pattern at each (tree-sitter 0.20:
 * a fifth of a Python file's instructions, the parse most of the rest),
 * and the bound names of uk_sympred_calls_local took a second walk.
 * uk_symwalk_tree finds what Python's query (the upstream tags.scm, then
 * python_extra in symbols_queries.c) finds in one walk that also
 * collects the bound names,
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

/* Python's captures, as the walk gives them: for the cache's kinds. */
static const char *const py_captures[] = { "name", "definition.constant",
	"definition.class", "definition.function", "reference.call",
	"reference.type", "reference.class", "reference.import",
	"reference.module", NULL };

static const struct wpat py_pats[PY_NPATTERNS] = { { "constant", 1 },
	{ "class", 1 }, { "function", 1 }, { "call", 0 }, { "type", 0 },
	{ "type", 0 }, { "type", 0 }, { "type", 0 }, { "class", 0 },
	{ "class", 0 }, { "call", 0 }, { "call", 0 }, { "call", 0 },
	{ "import", 0 }, { "import", 0 }, { "type", 0 }, { "type", 0 },
	{ "type", 0 }, { "module", 0 }, { "module", 0 } };

struct py_grammar {
	TSSymbol ident, assignment, opassign, exprstmt, module, classdef,
	    funcdef, call, attribute, type, generic, typeparam, arglist,
	    decorator, dotted, fromimport, aliased, tuple, except, raise,
	    import, string;
	TSFieldId left, name, function, attribute_f, object, superclasses,
	    arguments;
	unsigned char *binding; /* per symbol: uk_sympred_is_binding_parent */
	uint32_t nsyms;
};

/* Python's node types and fields, as the query resolves them. */
static struct py_grammar py_grammar;
static pthread_once_t py_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name py_grammar_names[] = {
	GRAMMAR_NODE(struct py_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct py_grammar, assignment, "assignment"),
	GRAMMAR_NODE(struct py_grammar, opassign, "augmented_assignment"),
	GRAMMAR_NODE(struct py_grammar, exprstmt, "expression_statement"),
	GRAMMAR_NODE(struct py_grammar, module, "module"),
	GRAMMAR_NODE(struct py_grammar, string, "string"),
	GRAMMAR_NODE(struct py_grammar, classdef, "class_definition"),
	GRAMMAR_NODE(struct py_grammar, funcdef, "function_definition"),
	GRAMMAR_NODE(struct py_grammar, call, "call"),
	GRAMMAR_NODE(struct py_grammar, attribute, "attribute"),
	GRAMMAR_NODE(struct py_grammar, type, "type"),
	GRAMMAR_NODE(struct py_grammar, generic, "generic_type"),
	GRAMMAR_NODE(struct py_grammar, typeparam, "type_parameter"),
	GRAMMAR_NODE(struct py_grammar, arglist, "argument_list"),
	GRAMMAR_NODE(struct py_grammar, decorator, "decorator"),
	GRAMMAR_NODE(struct py_grammar, dotted, "dotted_name"),
	GRAMMAR_NODE(struct py_grammar, fromimport, "import_from_statement"),
	GRAMMAR_NODE(struct py_grammar, aliased, "aliased_import"),
	GRAMMAR_NODE(struct py_grammar, tuple, "tuple"),
	GRAMMAR_NODE(struct py_grammar, except, "except_clause"),
	GRAMMAR_NODE(struct py_grammar, raise, "raise_statement"),
	GRAMMAR_NODE(struct py_grammar, import, "import_statement"),
	GRAMMAR_FIELD(struct py_grammar, left, "left"),
	GRAMMAR_FIELD(struct py_grammar, name, "name"),
	GRAMMAR_FIELD(struct py_grammar, function, "function"),
	GRAMMAR_FIELD(struct py_grammar, attribute_f, "attribute"),
	GRAMMAR_FIELD(struct py_grammar, object, "object"),
	GRAMMAR_FIELD(struct py_grammar, superclasses, "superclasses"),
	GRAMMAR_FIELD(struct py_grammar, arguments, "arguments"),
	{ NULL, 0, 0 },
};

static void
py_grammar_init(void)
{
	const TSLanguage *l;
	uint32_t i;

	l = uk_symwalk_grammar("python", py_grammar_names, &py_grammar);
	py_grammar.nsyms = ts_language_symbol_count(l);
	py_grammar.binding = uk_util_xcalloc(py_grammar.nsyms + 1, 1);
	for (i = 0; i < py_grammar.nsyms; i++)
		py_grammar.binding[i] =
		    (unsigned char)uk_sympred_is_binding_parent(
			ts_language_symbol_name(l, (TSSymbol)i));
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
	TSNode o = ts_node_child_by_field_id(attr, py_grammar.object);
	int depth = 0;

	while (!ts_node_is_null(o) &&
	    ts_node_symbol(o) == py_grammar.attribute && depth++ < 16)
		o = ts_node_child_by_field_id(o, py_grammar.object);
	if (ts_node_is_null(o) || ts_node_symbol(o) != py_grammar.ident)
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

	if (s == py_grammar.ident)
		return x;
	if (s == py_grammar.attribute) {
		TSNode a = ts_node_child_by_field_id(x, py_grammar.attribute_f);

		if (!ts_node_is_null(a) &&
		    ts_node_symbol(a) == py_grammar.ident)
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
		uk_symwalk_tag(fc, pt, n, node, pattern);
		if (pt->n > before && ts_node_symbol(x) == py_grammar.attribute)
			py_qualify(&pt->tags[pt->n - 1], x);
		return;
	}
	if (ts_node_symbol(x) != py_grammar.tuple)
		return;
	c = ts_tree_cursor_new(x);
	if (ts_tree_cursor_goto_first_child(&c))
		do {
			TSNode y = ts_tree_cursor_current_node(&c);

			n = py_name_of(y);
			if (ts_node_is_null(n))
				continue;
			before = pt->n;
			uk_symwalk_tag(fc, pt, n, node, pattern);
			if (pt->n > before &&
			    ts_node_symbol(y) == py_grammar.attribute)
				py_qualify(&pt->tags[pt->n - 1], y);
		} while (ts_tree_cursor_goto_next_sibling(&c));
	ts_tree_cursor_delete(&c);
}

/* A call of isinstance or issubclass: its second argument's types. */
static void
py_isinstance(struct filectx *fc, struct walktags *pt, TSNode call)
{
	TSNode f = ts_node_child_by_field_id(call, py_grammar.function), args;

	if (ts_node_is_null(f) || ts_node_symbol(f) != py_grammar.ident ||
	    (!uk_sympred_text_eq(fc, f, "isinstance", 10) &&
		!uk_sympred_text_eq(fc, f, "issubclass", 10)))
		return;
	args = ts_node_child_by_field_id(call, py_grammar.arguments);
	if (ts_node_is_null(args) ||
	    ts_node_symbol(args) != py_grammar.arglist ||
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
	if (ts_node_symbol(last) == py_grammar.ident)
		uk_symwalk_tag(fc, pt, last, node, pattern);
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

	if (s == py_grammar.fromimport || s == py_grammar.import) {
		uk_symwalk_tag(fc, pt, f->node, f->node,
		    s == py_grammar.fromimport ? PY_FROM_MODULE :
						 PY_IMPORT_MODULE);
		return;
	}
	if (s == py_grammar.call) {
		py_isinstance(fc, pt, f->node);
		return;
	}
	if (s == py_grammar.dotted) {
		if (f->field == py_grammar.name && p &&
		    p->sym == py_grammar.fromimport)
			py_dotted_last(fc, pt, f->node, p->node, PY_FROM_NAME);
		else if (f->field == py_grammar.name && p &&
		    p->sym == py_grammar.aliased &&
		    p->field == py_grammar.name && g &&
		    g->sym == py_grammar.fromimport)
			py_dotted_last(fc, pt, f->node, g->node, PY_FROM_ALIAS);
		return;
	}
	if (s != py_grammar.ident || !p)
		return;
	/* The bound names, as collect_locals finds them. */
	if ((p->sym < py_grammar.nsyms && py_grammar.binding[p->sym]) ||
	    ((p->sym == py_grammar.assignment ||
		 p->sym == py_grammar.opassign) &&
		f->field == py_grammar.left)) {
		uint32_t a = ts_node_start_byte(f->node);

		uk_strset_add(&fc->locals, fc->text + a,
		    ts_node_end_byte(f->node) - a);
	}
	if (p->sym == py_grammar.assignment && f->field == py_grammar.left &&
	    g && g->sym == py_grammar.exprstmt && gg &&
	    gg->sym == py_grammar.module)
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_ASSIGN_DEF);
	else if (p->sym == py_grammar.classdef && f->field == py_grammar.name)
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_CLASS_DEF);
	else if (p->sym == py_grammar.funcdef && f->field == py_grammar.name)
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_FUNC_DEF);
	else if (p->sym == py_grammar.call && f->field == py_grammar.function) {
		GROW(pt->bare, pt->nbare, pt->abare);
		pt->bare[pt->nbare++] = pt->n;
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_CALL);
		if (pt->n == pt->bare[pt->nbare - 1])
			pt->nbare--; /* not tagged: empty */
		if (g && g->sym == py_grammar.decorator)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_DECO_CALL);
	} else if (p->sym == py_grammar.attribute &&
	    f->field == py_grammar.attribute_f && g) {
		size_t before = pt->n;

		/* An attribute's attribute: its parent decides. */
		if (g->sym == py_grammar.call &&
		    p->field == py_grammar.function)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_CALL);
		else if (g->sym == py_grammar.type)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_TYPE_ATTR);
		else if (g->sym == py_grammar.arglist &&
		    g->field == py_grammar.superclasses && gg &&
		    gg->sym == py_grammar.classdef)
			uk_symwalk_tag(fc, pt, f->node, gg->node,
			    PY_SUPER_ATTR);
		else if (g->sym == py_grammar.decorator)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_DECO_ATTR);
		else if (g->sym == py_grammar.except)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_EXCEPT);
		else if (g->sym == py_grammar.tuple && gg &&
		    gg->sym == py_grammar.except)
			uk_symwalk_tag(fc, pt, f->node, gg->node, PY_EXCEPT);
		else if (g->sym == py_grammar.raise)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_RAISE);
		if (pt->n > before)
			py_qualify(&pt->tags[pt->n - 1], p->node);
	} else if (p->sym == py_grammar.type) {
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_TYPE);
		if (g && g->sym == py_grammar.typeparam)
			uk_symwalk_tag(fc, pt, f->node, g->node, PY_TYPE_PARAM);
	} else if (p->sym == py_grammar.generic) {
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_GENERIC);
	} else if (p->sym == py_grammar.arglist &&
	    p->field == py_grammar.superclasses && g &&
	    g->sym == py_grammar.classdef) {
		uk_symwalk_tag(fc, pt, f->node, g->node, PY_SUPER);
	} else if (p->sym == py_grammar.decorator) {
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_DECO);
	} else if (p->sym == py_grammar.except) {
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_EXCEPT);
	} else if (p->sym == py_grammar.tuple && g &&
	    g->sym == py_grammar.except) {
		uk_symwalk_tag(fc, pt, f->node, g->node, PY_EXCEPT);
	} else if (p->sym == py_grammar.raise) {
		uk_symwalk_tag(fc, pt, f->node, p->node, PY_RAISE);
	}
}

/* Whether t's type is one whose field in its parent a pattern asks. */
static int
py_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == py_grammar.ident || t == py_grammar.attribute ||
	    t == py_grammar.arglist || t == py_grammar.dotted ||
	    t == py_grammar.aliased;
}

/*
 * The nodes the walk does not enter (as symbols_rust.c's rs_opaque):
 * strings, whose pieces no pattern names; not f-strings, whose
 * interpolations hold expressions.
 */
static int
py_opaque(const struct filectx *fc, const struct walkframe *f)
{
	uint32_t a;

	if (f->sym != py_grammar.string)
		return 0;
	/* Its prefix: only r, b and u (no f) before the quote. */
	for (a = ts_node_start_byte(f->node);
	     a < fc->len && fc->text[a] != '"' && fc->text[a] != '\''; a++)
		if (!strchr("rRbBuU", fc->text[a]) || !fc->text[a])
			return 0;
	return 1;
}

const struct walklang uk_sympy_walker = { py_pats, py_captures,
	&py_grammar_once, py_grammar_init, py_wants_field, py_visit, py_opaque,
	1 };

/* The walk's qualifier (py_visit) of a reference the query found. */
void
uk_sympy_qualify_ref(struct tag *t, TSNode name)
{
	TSNode par = ts_node_parent(name);

	pthread_once(&py_grammar_once, py_grammar_init);
	if (!ts_node_is_null(par) &&
	    ts_node_symbol(par) == py_grammar.attribute &&
	    ts_node_eq(ts_node_child_by_field_id(par, py_grammar.attribute_f),
		name))
		py_qualify(t, par);
}
