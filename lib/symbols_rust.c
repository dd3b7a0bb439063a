/* SPDX-License-Identifier: MIT */
/*
 * Rust's walker: the patterns of its tags query (upstream's tags.scm,
 * then rust_extra in symbols_queries.c) found in one walk.  See
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

struct rust_grammar {
	TSSymbol tident, ident, fident, structs, enums, unions, typeitem,
	    decllist, func, trait, mod, macrodef, call, fieldexpr, macrocall,
	    impl, scoped, use, uselist, constitem, staticitem, tokentree,
	    linecomment, blockcomment, string, rawstring;
	TSFieldId name, function, field, macro, trait_f, type, path, argument;
};

static struct rust_grammar rust_grammar;
static pthread_once_t rust_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name rust_grammar_names[] = {
	GRAMMAR_NODE(struct rust_grammar, tident, "type_identifier"),
	GRAMMAR_NODE(struct rust_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct rust_grammar, fident, "field_identifier"),
	GRAMMAR_NODE(struct rust_grammar, structs, "struct_item"),
	GRAMMAR_NODE(struct rust_grammar, enums, "enum_item"),
	GRAMMAR_NODE(struct rust_grammar, unions, "union_item"),
	GRAMMAR_NODE(struct rust_grammar, typeitem, "type_item"),
	GRAMMAR_NODE(struct rust_grammar, decllist, "declaration_list"),
	GRAMMAR_NODE(struct rust_grammar, func, "function_item"),
	GRAMMAR_NODE(struct rust_grammar, trait, "trait_item"),
	GRAMMAR_NODE(struct rust_grammar, mod, "mod_item"),
	GRAMMAR_NODE(struct rust_grammar, macrodef, "macro_definition"),
	GRAMMAR_NODE(struct rust_grammar, call, "call_expression"),
	GRAMMAR_NODE(struct rust_grammar, fieldexpr, "field_expression"),
	GRAMMAR_NODE(struct rust_grammar, macrocall, "macro_invocation"),
	GRAMMAR_NODE(struct rust_grammar, impl, "impl_item"),
	GRAMMAR_NODE(struct rust_grammar, scoped, "scoped_identifier"),
	GRAMMAR_NODE(struct rust_grammar, use, "use_declaration"),
	GRAMMAR_NODE(struct rust_grammar, uselist, "use_list"),
	GRAMMAR_NODE(struct rust_grammar, constitem, "const_item"),
	GRAMMAR_NODE(struct rust_grammar, staticitem, "static_item"),
	GRAMMAR_NODE(struct rust_grammar, tokentree, "token_tree"),
	GRAMMAR_NODE(struct rust_grammar, linecomment, "line_comment"),
	GRAMMAR_NODE(struct rust_grammar, blockcomment, "block_comment"),
	GRAMMAR_NODE(struct rust_grammar, string, "string_literal"),
	GRAMMAR_NODE(struct rust_grammar, rawstring, "raw_string_literal"),
	GRAMMAR_FIELD(struct rust_grammar, name, "name"),
	GRAMMAR_FIELD(struct rust_grammar, function, "function"),
	GRAMMAR_FIELD(struct rust_grammar, field, "field"),
	GRAMMAR_FIELD(struct rust_grammar, macro, "macro"),
	GRAMMAR_FIELD(struct rust_grammar, trait_f, "trait"),
	GRAMMAR_FIELD(struct rust_grammar, type, "type"),
	GRAMMAR_FIELD(struct rust_grammar, path, "path"),
	GRAMMAR_FIELD(struct rust_grammar, argument, "argument"),
	{ NULL, 0, 0 },
};

static void
rust_grammar_init(void)
{
	uk_symwalk_grammar("rust", rust_grammar_names, &rust_grammar);
}

static int
rs_wants_field(TSSymbol t, TSSymbol parent)
{
	return t == rust_grammar.tident || t == rust_grammar.ident ||
	    t == rust_grammar.fident || t == rust_grammar.fieldexpr ||
	    t == rust_grammar.scoped || parent == rust_grammar.use;
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
	return t == rust_grammar.tokentree || t == rust_grammar.linecomment ||
	    t == rust_grammar.blockcomment || t == rust_grammar.string ||
	    t == rust_grammar.rawstring;
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
	if (p->sym == rust_grammar.use && f->field == rust_grammar.argument &&
	    ts_node_is_named(f->node))
		uk_symwalk_tag(fc, pt, f->node, p->node, RS_USE_MODULE);
	if (s == rust_grammar.tident) {
		uk_symwalk_tag(fc, pt, f->node, f->node, RS_TYPE);
		if (f->field == rust_grammar.name) {
			if (p->sym == rust_grammar.structs)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_STRUCT_DEF);
			else if (p->sym == rust_grammar.enums)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_ENUM_DEF);
			else if (p->sym == rust_grammar.unions)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_UNION_DEF);
			else if (p->sym == rust_grammar.typeitem)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_TYPE_DEF);
			else if (p->sym == rust_grammar.trait)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_TRAIT_DEF);
		} else if (p->sym == rust_grammar.impl &&
		    f->field == rust_grammar.trait_f) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_IMPL_TRAIT);
		} else if (p->sym == rust_grammar.impl &&
		    f->field == rust_grammar.type &&
		    ts_node_is_null(ts_node_child_by_field_id(p->node,
			rust_grammar.trait_f))) {
			/* The query's !trait, tested as the cursor tests it. */
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_IMPL_TYPE);
		}
	} else if (s == rust_grammar.ident) {
		if (p->sym == rust_grammar.func &&
		    f->field == rust_grammar.name) {
			if (g && g->sym == rust_grammar.decllist)
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_METHOD_DEF);
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_FUNC_DEF);
		} else if (p->sym == rust_grammar.mod &&
		    f->field == rust_grammar.name) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_MOD_DEF);
		} else if (p->sym == rust_grammar.macrodef &&
		    f->field == rust_grammar.name) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_MACRO_DEF);
		} else if (p->sym == rust_grammar.call &&
		    f->field == rust_grammar.function) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_CALL);
		} else if (p->sym == rust_grammar.macrocall &&
		    f->field == rust_grammar.macro) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_MACRO_CALL);
		} else if (p->sym == rust_grammar.scoped &&
		    f->field == rust_grammar.path) {
			/* #match? @name "^[A-Z]" */
			uint32_t a = ts_node_start_byte(f->node);

			if (a < fc->len && fc->text[a] >= 'A' &&
			    fc->text[a] <= 'Z')
				uk_symwalk_tag(fc, pt, f->node, p->node,
				    RS_PATH_TYPE);
		} else if (p->sym == rust_grammar.scoped &&
		    f->field == rust_grammar.name && g) {
			if (g->sym == rust_grammar.call &&
			    p->field == rust_grammar.function)
				uk_symwalk_tag(fc, pt, f->node, g->node,
				    RS_SCOPED_CALL);
			else if (g->sym == rust_grammar.use &&
			    p->field == rust_grammar.argument)
				uk_symwalk_tag(fc, pt, f->node, g->node,
				    RS_USE_SCOPED);
			else if (g->sym == rust_grammar.uselist)
				uk_symwalk_tag(fc, pt, f->node, g->node,
				    RS_USE_LIST_SCOPED);
		} else if (p->sym == rust_grammar.uselist) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_USE_LIST);
		} else if (p->sym == rust_grammar.constitem &&
		    f->field == rust_grammar.name) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_CONST_DEF);
		} else if (p->sym == rust_grammar.staticitem &&
		    f->field == rust_grammar.name) {
			uk_symwalk_tag(fc, pt, f->node, p->node, RS_STATIC_DEF);
		}
	} else if (s == rust_grammar.fident) {
		if (f->field == rust_grammar.field &&
		    p->sym == rust_grammar.fieldexpr &&
		    p->field == rust_grammar.function && g &&
		    g->sym == rust_grammar.call)
			uk_symwalk_tag(fc, pt, f->node, g->node, RS_FIELD_CALL);
	}
}

const struct walklang uk_symrust_walker = { rs_pats, rs_captures,
	&rust_grammar_once, rust_grammar_init, rs_wants_field, rs_visit,
	rs_opaque, 0 };
