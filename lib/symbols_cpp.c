/* SPDX-License-Identifier: MIT */
/*
 * C++'s walker: the patterns of its tags query (upstream's tags.scm, then
 * cpp_extra in symbols_queries.c) found in one walk, as C's are (the
 * query cursor took a tenth of a header-heavy tree's time).  See
 * symbols_walk.h.
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

/* Upstream's eight patterns, then cpp_extra's six, by index. */
enum {
	CPP_STRUCT_DEF = 0,
	CPP_UNION_DEF,
	CPP_FUNC_DEF,
	CPP_FIELD_FUNC_DEF,
	CPP_METHOD_DEF,
	CPP_TYPEDEF_DEF,
	CPP_ENUM_DEF,
	CPP_CLASS_DEF,
	CPP_CALL,
	CPP_FIELD_CALL,
	CPP_QUAL_CALL,
	CPP_TYPE,
	CPP_MACRO_DEF,
	CPP_INCLUDE_MODULE,
	CPP_NPATTERNS
};

static const struct wpat cpp_pats[CPP_NPATTERNS] = { { "class", 1 },
	{ "class", 1 }, { "function", 1 }, { "function", 1 }, { "method", 1 },
	{ "type", 1 }, { "type", 1 }, { "class", 1 }, { "call", 0 },
	{ "call", 0 }, { "call", 0 }, { "type", 0 }, { "macro", 1 },
	{ "module", 0 } };

static const char *const cpp_captures[] = { "name", "definition.class",
	"definition.function", "local.scope", "definition.method",
	"definition.type", "reference.call", "reference.type",
	"definition.macro", "reference.module", NULL };

struct cpp_grammar {
	TSSymbol tident, ident, fident, nsident, strlit, rawstr, charlit,
	    structs, unions, classes, decl, funcdecl, typedef_, enums, call,
	    fieldexpr, qualid, macro, include;
	TSFieldId name, body, type, declarator, function, field, path, scope;
};

static struct cpp_grammar cpp_grammar;
static pthread_once_t cpp_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name cpp_grammar_names[] = {
	GRAMMAR_NODE(struct cpp_grammar, tident, "type_identifier"),
	GRAMMAR_NODE(struct cpp_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct cpp_grammar, fident, "field_identifier"),
	GRAMMAR_NODE(struct cpp_grammar, nsident, "namespace_identifier"),
	GRAMMAR_NODE(struct cpp_grammar, strlit, "string_literal"),
	GRAMMAR_NODE(struct cpp_grammar, rawstr, "raw_string_literal"),
	GRAMMAR_NODE(struct cpp_grammar, charlit, "char_literal"),
	GRAMMAR_NODE(struct cpp_grammar, structs, "struct_specifier"),
	GRAMMAR_NODE(struct cpp_grammar, unions, "union_specifier"),
	GRAMMAR_NODE(struct cpp_grammar, classes, "class_specifier"),
	GRAMMAR_NODE(struct cpp_grammar, decl, "declaration"),
	GRAMMAR_NODE(struct cpp_grammar, funcdecl, "function_declarator"),
	GRAMMAR_NODE(struct cpp_grammar, typedef_, "type_definition"),
	GRAMMAR_NODE(struct cpp_grammar, enums, "enum_specifier"),
	GRAMMAR_NODE(struct cpp_grammar, call, "call_expression"),
	GRAMMAR_NODE(struct cpp_grammar, fieldexpr, "field_expression"),
	GRAMMAR_NODE(struct cpp_grammar, qualid, "qualified_identifier"),
	GRAMMAR_NODE(struct cpp_grammar, macro, "preproc_function_def"),
	GRAMMAR_NODE(struct cpp_grammar, include, "preproc_include"),
	GRAMMAR_FIELD(struct cpp_grammar, name, "name"),
	GRAMMAR_FIELD(struct cpp_grammar, body, "body"),
	GRAMMAR_FIELD(struct cpp_grammar, type, "type"),
	GRAMMAR_FIELD(struct cpp_grammar, declarator, "declarator"),
	GRAMMAR_FIELD(struct cpp_grammar, function, "function"),
	GRAMMAR_FIELD(struct cpp_grammar, field, "field"),
	GRAMMAR_FIELD(struct cpp_grammar, path, "path"),
	GRAMMAR_FIELD(struct cpp_grammar, scope, "scope"),
	{ NULL, 0, 0 },
};

static void
cpp_grammar_init(void)
{
	uk_symwalk_grammar("cpp", cpp_grammar_names, &cpp_grammar);
}

static int
cpp_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == cpp_grammar.tident || t == cpp_grammar.ident ||
	    t == cpp_grammar.fident || t == cpp_grammar.strlit ||
	    t == cpp_grammar.unions || t == cpp_grammar.fieldexpr ||
	    t == cpp_grammar.qualid;
}

/* A type_identifier: a reference, and the name of what p defines. */
static void
cpp_type(struct filectx *fc, struct walktags *pt, const struct walkframe *f,
    const struct walkframe *p, const struct walkframe *g)
{
	uk_symwalk_tag(fc, pt, f->node, f->node, CPP_TYPE);
	if (!p || f->field != cpp_grammar.name) {
		if (p && p->sym == cpp_grammar.typedef_ &&
		    f->field == cpp_grammar.declarator)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    CPP_TYPEDEF_DEF);
		return;
	}
	if (p->sym == cpp_grammar.structs) {
		TSNode b = ts_node_child_by_field_id(p->node, cpp_grammar.body);

		if (!ts_node_is_null(b) && ts_node_is_named(b))
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    CPP_STRUCT_DEF);
	} else if (p->sym == cpp_grammar.unions &&
	    p->field == cpp_grammar.type && g && g->sym == cpp_grammar.decl) {
		uk_symwalk_tag(fc, pt, f->node, g->node, CPP_UNION_DEF);
	} else if (p->sym == cpp_grammar.enums) {
		uk_symwalk_tag(fc, pt, f->node, p->node, CPP_ENUM_DEF);
	} else if (p->sym == cpp_grammar.classes) {
		uk_symwalk_tag(fc, pt, f->node, p->node, CPP_CLASS_DEF);
	}
}

/* An identifier: a function's or a macro's name, or a call's. */
static void
cpp_ident(struct filectx *fc, struct walktags *pt, const struct walkframe *f,
    const struct walkframe *p, const struct walkframe *g)
{
	if (p->sym == cpp_grammar.funcdecl &&
	    f->field == cpp_grammar.declarator) {
		uk_symwalk_tag(fc, pt, f->node, p->node, CPP_FUNC_DEF);
	} else if (p->sym == cpp_grammar.call &&
	    f->field == cpp_grammar.function) {
		uk_symwalk_tag(fc, pt, f->node, p->node, CPP_CALL);
	} else if (p->sym == cpp_grammar.macro &&
	    f->field == cpp_grammar.name) {
		uk_symwalk_tag(fc, pt, f->node, p->node, CPP_MACRO_DEF);
	} else if (p->sym == cpp_grammar.qualid &&
	    f->field == cpp_grammar.name && g) {
		if (g->sym == cpp_grammar.funcdecl &&
		    p->field == cpp_grammar.declarator) {
			TSNode sc = ts_node_child_by_field_id(p->node,
			    cpp_grammar.scope);

			if (!ts_node_is_null(sc) &&
			    ts_node_symbol(sc) == cpp_grammar.nsident)
				uk_symwalk_tag(fc, pt, f->node, g->node,
				    CPP_METHOD_DEF);
		} else if (g->sym == cpp_grammar.call &&
		    p->field == cpp_grammar.function) {
			uk_symwalk_tag(fc, pt, f->node, g->node, CPP_QUAL_CALL);
		}
	}
}

static void
cpp_visit(struct filectx *fc, struct walktags *pt, struct walkframe *fr,
    size_t depth)
{
	const struct walkframe *f = &fr[depth - 1];
	const struct walkframe *p = depth >= 2 ? &fr[depth - 2] : NULL;
	const struct walkframe *g = depth >= 3 ? &fr[depth - 3] : NULL;
	TSSymbol s = f->sym;

	if (s == cpp_grammar.tident) {
		cpp_type(fc, pt, f, p, g);
	} else if (s == cpp_grammar.ident && p) {
		cpp_ident(fc, pt, f, p, g);
	} else if (s == cpp_grammar.fident && p) {
		if (p->sym == cpp_grammar.funcdecl &&
		    f->field == cpp_grammar.declarator)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    CPP_FIELD_FUNC_DEF);
		else if (f->field == cpp_grammar.field &&
		    p->sym == cpp_grammar.fieldexpr &&
		    p->field == cpp_grammar.function && g &&
		    g->sym == cpp_grammar.call)
			uk_symwalk_tag(fc, pt, f->node, g->node,
			    CPP_FIELD_CALL);
	} else if (s == cpp_grammar.strlit && p) {
		if (f->field == cpp_grammar.path &&
		    p->sym == cpp_grammar.include)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    CPP_INCLUDE_MODULE);
	}
}

/* The nodes the walk does not enter: string and character literals. */
static int
cpp_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == cpp_grammar.strlit || f->sym == cpp_grammar.rawstr ||
	    f->sym == cpp_grammar.charlit;
}

const struct walklang uk_symcpp_walker = { cpp_pats, cpp_captures,
	&cpp_grammar_once, cpp_grammar_init, cpp_wants_field, cpp_visit,
	cpp_opaque, 0 };
