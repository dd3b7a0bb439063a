/* SPDX-License-Identifier: MIT */
/*
 * C's walker: the patterns of its tags query (upstream's tags.scm, then
 * c_extra in symbols_queries.c) found in one walk.  See symbols_walk.h.
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

struct c_grammar {
	TSSymbol tident, ident, fident, strlit, structs, unions, decl, funcdecl,
	    typedef_, enums, call, fieldexpr, macro, include, charlit;
	TSFieldId name, body, type, declarator, function, field, path;
};

static struct c_grammar c_grammar;
static pthread_once_t c_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name c_grammar_names[] = {
	GRAMMAR_NODE(struct c_grammar, tident, "type_identifier"),
	GRAMMAR_NODE(struct c_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct c_grammar, fident, "field_identifier"),
	GRAMMAR_NODE(struct c_grammar, strlit, "string_literal"),
	GRAMMAR_NODE(struct c_grammar, charlit, "char_literal"),
	GRAMMAR_NODE(struct c_grammar, structs, "struct_specifier"),
	GRAMMAR_NODE(struct c_grammar, unions, "union_specifier"),
	GRAMMAR_NODE(struct c_grammar, decl, "declaration"),
	GRAMMAR_NODE(struct c_grammar, funcdecl, "function_declarator"),
	GRAMMAR_NODE(struct c_grammar, typedef_, "type_definition"),
	GRAMMAR_NODE(struct c_grammar, enums, "enum_specifier"),
	GRAMMAR_NODE(struct c_grammar, call, "call_expression"),
	GRAMMAR_NODE(struct c_grammar, fieldexpr, "field_expression"),
	GRAMMAR_NODE(struct c_grammar, macro, "preproc_function_def"),
	GRAMMAR_NODE(struct c_grammar, include, "preproc_include"),
	GRAMMAR_FIELD(struct c_grammar, name, "name"),
	GRAMMAR_FIELD(struct c_grammar, body, "body"),
	GRAMMAR_FIELD(struct c_grammar, type, "type"),
	GRAMMAR_FIELD(struct c_grammar, declarator, "declarator"),
	GRAMMAR_FIELD(struct c_grammar, function, "function"),
	GRAMMAR_FIELD(struct c_grammar, field, "field"),
	GRAMMAR_FIELD(struct c_grammar, path, "path"),
	{ NULL, 0, 0 },
};

static void
c_grammar_init(void)
{
	uk_symwalk_grammar("c", c_grammar_names, &c_grammar);
}

static int
c_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == c_grammar.tident || t == c_grammar.ident ||
	    t == c_grammar.fident || t == c_grammar.strlit ||
	    t == c_grammar.unions || t == c_grammar.fieldexpr;
}

static void
c_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	const struct walkframe *f = &fr[depth - 1];
	const struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	const struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	TSSymbol s = f->sym;

	if (s == c_grammar.tident) {
		uk_symwalk_tag(fc, pt, f->node, f->node, C_TYPE);
		if (!p)
			return;
		if (p->sym == c_grammar.structs && f->field == c_grammar.name) {
			TSNode b =
			    ts_node_child_by_field_id(p->node, c_grammar.body);

			if (!ts_node_is_null(b) && ts_node_is_named(b))
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    C_STRUCT_DEF);
		} else if (p->sym == c_grammar.unions &&
		    f->field == c_grammar.name && p->field == c_grammar.type &&
		    g && g->sym == c_grammar.decl) {
			uk_symwalk_tag(fc, pt, f->node, g->node, C_UNION_DEF);
		} else if (p->sym == c_grammar.typedef_ &&
		    f->field == c_grammar.declarator) {
			uk_symwalk_tag(fc, pt, f->node, p->node, C_TYPEDEF_DEF);
		} else if (p->sym == c_grammar.enums &&
		    f->field == c_grammar.name) {
			uk_symwalk_tag(fc, pt, f->node, p->node, C_ENUM_DEF);
		}
	} else if (s == c_grammar.ident && p) {
		if (p->sym == c_grammar.funcdecl &&
		    f->field == c_grammar.declarator)
			uk_symwalk_tag(fc, pt, f->node, p->node, C_FUNC_DEF);
		else if (p->sym == c_grammar.call &&
		    f->field == c_grammar.function)
			uk_symwalk_tag(fc, pt, f->node, p->node, C_CALL);
		else if (p->sym == c_grammar.macro &&
		    f->field == c_grammar.name)
			uk_symwalk_tag(fc, pt, f->node, p->node, C_MACRO_DEF);
	} else if (s == c_grammar.fident && p) {
		if (f->field == c_grammar.field &&
		    p->sym == c_grammar.fieldexpr &&
		    p->field == c_grammar.function && g &&
		    g->sym == c_grammar.call)
			uk_symwalk_tag(fc, pt, f->node, g->node, C_FIELD_CALL);
	} else if (s == c_grammar.strlit && p) {
		if (f->field == c_grammar.path && p->sym == c_grammar.include)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    C_INCLUDE_MODULE);
	}
}

/* The nodes the walk does not enter: string and character literals. */
static int
c_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == c_grammar.strlit || f->sym == c_grammar.charlit;
}

const struct walklang uk_symc_walker = { c_pats, c_captures,
	&c_grammar_once, c_grammar_init, c_wants_field, c_visit, c_opaque, 0 };
