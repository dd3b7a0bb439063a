/* SPDX-License-Identifier: MIT */
/*
 * JavaScript's walker: the patterns of its tags query (upstream's
 * tags.scm, then js_extra in symbols_queries.c) found in one walk, with
 * the comments before definitions.  See symbols_walk.h.
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
 * JavaScript's tags without the query cursor, as Python's: upstream's
 * tags.scm, then js_extra's patterns, by index.  Five of upstream's
 * patterns take the comments before a definition, `(comment)* @doc .
 * (definition)`, with #strip! and #select-adjacent!; the doc is made by
 * uk_sympred_doc from the comments the query cursor of tree-sitter 0.20
 * captures: the run of comments just before the definition's node, with
 * nothing between two of them and only nodes without a name (a `;`)
 * between the last and the node.  In the patterns of classes and
 * functions, alternations (`[(class ...) (class_declaration ...)]`), it
 * captures them for the first alternative only; for the others uk_sympred_doc
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

struct js_grammar {
	TSSymbol ident, propident, method, class_, classdecl, funcexpr,
	    funcdecl, gen, gendecl, lexical, vardecl, declarator, arrow, assign,
	    member, pair, call, arguments, string, new_, export, import,
	    importspec, number, undefined, null, binary, regex;
	TSFieldId name, value, left, right, key, function, property,
	    arguments_f, constructor, source;
	unsigned char *fielded; /* per symbol: its children's fields asked */
	struct docsyms doc;
};

static struct js_grammar js_grammar;
static pthread_once_t js_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name js_grammar_names[] = {
	GRAMMAR_NODE(struct js_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct js_grammar, propident, "property_identifier"),
	GRAMMAR_NODE(struct js_grammar, method, "method_definition"),
	GRAMMAR_NODE(struct js_grammar, class_, "class"),
	GRAMMAR_NODE(struct js_grammar, classdecl, "class_declaration"),
	GRAMMAR_NODE(struct js_grammar, funcexpr, "function_expression"),
	GRAMMAR_NODE(struct js_grammar, funcdecl, "function_declaration"),
	GRAMMAR_NODE(struct js_grammar, gen, "generator_function"),
	GRAMMAR_NODE(struct js_grammar, gendecl,
	    "generator_function_declaration"),
	GRAMMAR_NODE(struct js_grammar, lexical, "lexical_declaration"),
	GRAMMAR_NODE(struct js_grammar, vardecl, "variable_declaration"),
	GRAMMAR_NODE(struct js_grammar, declarator, "variable_declarator"),
	GRAMMAR_NODE(struct js_grammar, arrow, "arrow_function"),
	GRAMMAR_NODE(struct js_grammar, assign, "assignment_expression"),
	GRAMMAR_NODE(struct js_grammar, member, "member_expression"),
	GRAMMAR_NODE(struct js_grammar, pair, "pair"),
	GRAMMAR_NODE(struct js_grammar, call, "call_expression"),
	GRAMMAR_NODE(struct js_grammar, arguments, "arguments"),
	GRAMMAR_NODE(struct js_grammar, string, "string"),
	GRAMMAR_NODE(struct js_grammar, regex, "regex"),
	GRAMMAR_NODE(struct js_grammar, new_, "new_expression"),
	GRAMMAR_NODE(struct js_grammar, export, "export_statement"),
	GRAMMAR_NODE(struct js_grammar, import, "import_statement"),
	GRAMMAR_NODE(struct js_grammar, importspec, "import_specifier"),
	GRAMMAR_NODE(struct js_grammar, number, "number"),
	GRAMMAR_NODE(struct js_grammar, undefined, "undefined"),
	GRAMMAR_NODE(struct js_grammar, null, "null"),
	GRAMMAR_NODE(struct js_grammar, binary, "binary_expression"),
	GRAMMAR_FIELD(struct js_grammar, name, "name"),
	GRAMMAR_FIELD(struct js_grammar, value, "value"),
	GRAMMAR_FIELD(struct js_grammar, left, "left"),
	GRAMMAR_FIELD(struct js_grammar, right, "right"),
	GRAMMAR_FIELD(struct js_grammar, key, "key"),
	GRAMMAR_FIELD(struct js_grammar, function, "function"),
	GRAMMAR_FIELD(struct js_grammar, property, "property"),
	GRAMMAR_FIELD(struct js_grammar, arguments_f, "arguments"),
	GRAMMAR_FIELD(struct js_grammar, constructor, "constructor"),
	GRAMMAR_FIELD(struct js_grammar, source, "source"),
	{ NULL, 0, 0 },
};

static void
js_grammar_init(void)
{
	static const char *const fielded[] = { "method_definition",
		"member_expression", "pair", "function_expression",
		"function_declaration", "generator_function",
		"generator_function_declaration", "variable_declarator",
		"assignment_expression", "call_expression", "import_specifier",
		"class", "class_declaration", "new_expression",
		"import_statement", "export_statement", NULL };
	const TSLanguage *l;
	size_t i;

	l = uk_symwalk_grammar("javascript", js_grammar_names, &js_grammar);
	/* tags.scm's expression, once its string is unescaped. */
	uk_symwalk_docsyms_init(&js_grammar.doc, l, "^[\\s\\*/]+|^[\\s\\*/]$");
	js_grammar.fielded = uk_util_xcalloc(js_grammar.doc.nsyms + 1, 1);
	for (i = 0; fielded[i]; i++)
		js_grammar.fielded[uk_symwalk_sym(l, fielded[i])] = 1;
}

static int
js_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)t;
	return parent < js_grammar.doc.nsyms && js_grammar.fielded[parent];
}

/* Whether x is a node with a name, not an error: the query's (_). */
static int
js_wildcard(const struct walkframe *x)
{
	if (x->sym < js_grammar.doc.nsyms)
		return js_grammar.doc.named[x->sym];
	return 0; /* ERROR */
}

/*
 * The second child f of the patterns of two (a name, then the value that
 * decides), p its parent and g its grandparent.
 */
static void
js_second_child(struct filectx *fc, struct walktags *pt,
    const struct walkframe *f, const struct walkframe *p,
    const struct walkframe *g)
{
	TSSymbol s = f->sym;

	if (ts_node_is_null(p->first))
		return;
	if (f->field == js_grammar.value &&
	    (s == js_grammar.arrow || s == js_grammar.funcexpr)) {
		if (p->sym == js_grammar.declarator && g &&
		    (g->sym == js_grammar.lexical ||
			g->sym == js_grammar.vardecl))
			uk_symwalk_doc_def(fc, pt, &js_grammar.doc, p->first, p,
			    g,
			    g->sym == js_grammar.lexical ? JS_LEXICAL_DEF :
							   JS_VAR_DEF,
			    g->run, g->nrun);
		else if (p->sym == js_grammar.pair)
			uk_symwalk_tag(fc, pt, p->first, p->node, JS_PAIR_DEF);
	} else if (f->field == js_grammar.right &&
	    p->sym == js_grammar.assign) {
		if (s == js_grammar.arrow || s == js_grammar.funcexpr)
			uk_symwalk_tag(fc, pt, p->first, p->node,
			    JS_ASSIGN_DEF);
		if (p->field == js_grammar.value && g &&
		    g->sym == js_grammar.export &&
		    ts_node_symbol(p->first) == js_grammar.ident &&
		    (s == js_grammar.number || s == js_grammar.string ||
			s == js_grammar.ident || s == js_grammar.undefined ||
			s == js_grammar.null || s == js_grammar.new_ ||
			s == js_grammar.binary || s == js_grammar.call))
			uk_symwalk_tag(fc, pt, p->first, g->node,
			    JS_EXPORT_CONST);
	} else if (f->field == js_grammar.arguments_f &&
	    p->sym == js_grammar.call) {
		if (ts_node_symbol(p->first) == js_grammar.propident) {
			if (js_wildcard(f))
				uk_symwalk_tag(fc, pt, p->first, f->node,
				    JS_MEMBER_CALL);
		} else if (s == js_grammar.arguments) {
			/* (arguments . (string) @name) */
			TSNode a = ts_node_named_child(f->node, 0);

			if (!ts_node_is_null(a) &&
			    ts_node_symbol(a) == js_grammar.string)
				uk_symwalk_tag(fc, pt, a, p->node,
				    JS_REQUIRE_MODULE);
		}
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
	uk_symwalk_doc_comments(pt, &js_grammar.doc, p, f);
	if (s == js_grammar.doc.comment)
		return;
	if (s == js_grammar.propident) {
		if (f->field == js_grammar.name &&
		    p->sym == js_grammar.method) {
			/* #not-eq? @name "constructor" */
			if (!uk_sympred_text_eq(fc, f->node, "constructor", 11))
				uk_symwalk_doc_def(fc, pt, &js_grammar.doc,
				    f->node, p, g, JS_METHOD_DEF, p->run,
				    p->nrun);
		} else if (f->field == js_grammar.property &&
		    p->sym == js_grammar.member && g) {
			if ((p->field == js_grammar.function &&
				g->sym == js_grammar.call) ||
			    (p->field == js_grammar.left &&
				g->sym == js_grammar.assign))
				g->first = f->node;
		} else if (f->field == js_grammar.key &&
		    p->sym == js_grammar.pair) {
			p->first = f->node;
		}
	} else if (s == js_grammar.ident) {
		if (f->field == js_grammar.name &&
		    (p->sym == js_grammar.funcexpr ||
			p->sym == js_grammar.funcdecl ||
			p->sym == js_grammar.gen ||
			p->sym == js_grammar.gendecl))
			uk_symwalk_doc_def(fc, pt, &js_grammar.doc, f->node, p,
			    g, JS_FUNC_DEF, p->run,
			    p->sym == js_grammar.funcexpr ? p->nrun : 0);
		else if (f->field == js_grammar.name &&
		    p->sym == js_grammar.declarator)
			p->first = f->node;
		else if (f->field == js_grammar.left &&
		    p->sym == js_grammar.assign)
			p->first = f->node;
		else if (f->field == js_grammar.function &&
		    p->sym == js_grammar.call) {
			/* #not-match? @name "^(require)$", and require's
			 * call for the module's pattern. */
			if (uk_sympred_text_eq(fc, f->node, "require", 7))
				p->first = f->node;
			else
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    JS_CALL);
		} else if (f->field == js_grammar.name &&
		    p->sym == js_grammar.importspec)
			uk_symwalk_tag(fc, pt, f->node, p->node, JS_IMPORT);
	} else if (s == js_grammar.string && f->field == js_grammar.source) {
		if (p->sym == js_grammar.import)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    JS_IMPORT_MODULE);
		else if (p->sym == js_grammar.export)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    JS_EXPORT_MODULE);
	}
	if (f->field == js_grammar.name &&
	    (p->sym == js_grammar.class_ || p->sym == js_grammar.classdecl) &&
	    js_wildcard(f))
		uk_symwalk_doc_def(fc, pt, &js_grammar.doc, f->node, p, g,
		    JS_CLASS_DEF, p->run,
		    p->sym == js_grammar.class_ ? p->nrun : 0);
	if (f->field == js_grammar.constructor && p->sym == js_grammar.new_ &&
	    js_wildcard(f))
		uk_symwalk_tag(fc, pt, f->node, p->node, JS_NEW);
	js_second_child(fc, pt, f, p, g);
}

/*
 * The nodes the walk does not enter (as symbols_rust.c's rs_opaque):
 * strings and regular expressions, whose pieces no pattern names; not
 * template strings, whose interpolations hold expressions.
 */
static int
js_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == js_grammar.string || f->sym == js_grammar.regex;
}

const struct walklang uk_symjs_walker = { js_pats, js_captures,
	&js_grammar_once, js_grammar_init, js_wants_field, js_visit, js_opaque,
	0 };
