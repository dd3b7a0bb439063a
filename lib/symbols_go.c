/* SPDX-License-Identifier: MIT */
/*
 * Go's walker: the patterns of its tags query (upstream's tags.scm)
 * found in one walk, with the comments before definitions.  See
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
	GO_IMPORT = 11, /* after tags.scm's six that tag nothing */
	GO_IFACE_METHOD,
	GO_NPATTERNS
};

/*
 * GO_IMPORT and GO_IFACE_METHOD are ours (go_extra), not tags.scm's: an
 * import's path as a reference to a module (`"github.com/spf13/afero"`,
 * quotes and all, as C's include is), its alias as the qualifier, for
 * symbols_imports.c to resolve; a method an interface declares as a
 * definition, so that fs.Open() reaches the interface's file as well as
 * each implementation's (Fs's afero.go, hcl's decoder.go).
 */
static const struct wpat go_pats[GO_NPATTERNS] = { { "function", 1 },
	{ "method", 1 }, { "call", 0 }, { "type", 1 }, { "type", 0 },
	[GO_IMPORT] = { "module", 0 }, [GO_IFACE_METHOD] = { "method", 1 } };

static const char *const go_captures[] = { "name", "definition.function",
	"definition.method", "reference.call", "definition.type",
	"reference.type", "reference.module", NULL };

struct go_grammar {
	TSSymbol ident, fident, tident, pident, funcdecl, methoddecl, call,
	    paren, selector, qualtype, importspec, typespec, str, rawstr,
	    methodelem;
	TSFieldId name, function, field, operand, package, path;
	struct docsyms doc;
};

static struct go_grammar go_grammar;
static pthread_once_t go_grammar_once = PTHREAD_ONCE_INIT;

/* The node types and fields the walk asks, by name. */
static const struct grammar_name go_grammar_names[] = {
	GRAMMAR_NODE(struct go_grammar, ident, "identifier"),
	GRAMMAR_NODE(struct go_grammar, fident, "field_identifier"),
	GRAMMAR_NODE(struct go_grammar, tident, "type_identifier"),
	GRAMMAR_NODE(struct go_grammar, pident, "package_identifier"),
	GRAMMAR_NODE(struct go_grammar, funcdecl, "function_declaration"),
	GRAMMAR_NODE(struct go_grammar, methoddecl, "method_declaration"),
	GRAMMAR_NODE(struct go_grammar, call, "call_expression"),
	GRAMMAR_NODE(struct go_grammar, paren, "parenthesized_expression"),
	GRAMMAR_NODE(struct go_grammar, selector, "selector_expression"),
	GRAMMAR_NODE(struct go_grammar, qualtype, "qualified_type"),
	GRAMMAR_NODE(struct go_grammar, importspec, "import_spec"),
	GRAMMAR_NODE(struct go_grammar, methodelem, "method_elem"),
	GRAMMAR_NODE(struct go_grammar, typespec, "type_spec"),
	GRAMMAR_NODE(struct go_grammar, str, "interpreted_string_literal"),
	GRAMMAR_NODE(struct go_grammar, rawstr, "raw_string_literal"),
	GRAMMAR_FIELD(struct go_grammar, name, "name"),
	GRAMMAR_FIELD(struct go_grammar, function, "function"),
	GRAMMAR_FIELD(struct go_grammar, field, "field"),
	GRAMMAR_FIELD(struct go_grammar, operand, "operand"),
	GRAMMAR_FIELD(struct go_grammar, package, "package"),
	GRAMMAR_FIELD(struct go_grammar, path, "path"),
	{ NULL, 0, 0 },
};

static void
go_grammar_init(void)
{
	const TSLanguage *l;

	l = uk_symwalk_grammar("go", go_grammar_names, &go_grammar);
	/* tags.scm's "^//\\s*", once its string is unescaped. */
	uk_symwalk_docsyms_init(&go_grammar.doc, l, "^//\\s*");
}

static int
go_wants_field(TSSymbol t, TSSymbol parent)
{
	(void)parent;
	return t == go_grammar.ident || t == go_grammar.fident ||
	    t == go_grammar.tident || t == go_grammar.paren ||
	    t == go_grammar.selector || t == go_grammar.str ||
	    t == go_grammar.rawstr;
}

/*
 * The qualifier of the last tag (if one was added after before): x of
 * the selector x.Name() or the package of the type pkg.Name, when it is
 * a plain identifier; an import's alias.  symbols_rank.c resolves it
 * through the file's imports (a package of the tree, or one from outside
 * it) and treats any other x (a variable) as before.
 */
static void
go_qualify(struct walktags *pt, size_t before, TSNode parent, TSFieldId fid,
    TSSymbol want)
{
	TSNode o;

	if (pt->n == before)
		return;
	o = ts_node_child_by_field_id(parent, fid);
	if (ts_node_is_null(o) || ts_node_symbol(o) != want)
		return;
	pt->tags[pt->n - 1].qstart = ts_node_start_byte(o);
	pt->tags[pt->n - 1].qend = ts_node_end_byte(o);
}

/* The walk's qualifier (go_qualify) of a tag the query found. */
void
uk_symgo_qualify_ref(struct tag *t, TSNode name)
{
	TSNode par = ts_node_parent(name), o;
	TSSymbol ps, s = ts_node_symbol(name);
	TSFieldId fid;
	TSSymbol want;

	pthread_once(&go_grammar_once, go_grammar_init);
	if (ts_node_is_null(par))
		return;
	ps = ts_node_symbol(par);
	if (s == go_grammar.fident && ps == go_grammar.selector) {
		fid = go_grammar.operand;
		want = go_grammar.ident;
	} else if (s == go_grammar.tident && ps == go_grammar.qualtype) {
		fid = go_grammar.package;
		want = go_grammar.pident;
	} else if ((s == go_grammar.str || s == go_grammar.rawstr) &&
	    ps == go_grammar.importspec) {
		fid = go_grammar.name;
		want = go_grammar.pident;
	} else {
		return;
	}
	o = ts_node_child_by_field_id(par, fid);
	if (ts_node_is_null(o) || ts_node_symbol(o) != want)
		return;
	t->qstart = ts_node_start_byte(o);
	t->qend = ts_node_end_byte(o);
}

/* An import's path as GO_IMPORT, its alias (not `.` or `_`) the qual. */
static void
go_import(struct filectx *fc, struct walktags *pt, struct walkframe *f,
    struct walkframe *p)
{
	size_t before = pt->n;

	uk_symwalk_tag(fc, pt, f->node, p->node, GO_IMPORT);
	go_qualify(pt, before, p->node, go_grammar.name, go_grammar.pident);
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
	uk_symwalk_doc_comments(pt, &go_grammar.doc, p, f);
	if (s == go_grammar.ident) {
		if (f->field == go_grammar.name &&
		    p->sym == go_grammar.funcdecl)
			uk_symwalk_doc_def(fc, pt, &go_grammar.doc, f->node, p,
			    g, GO_FUNC_DEF, p->run, p->nrun);
		else if (f->field == go_grammar.function &&
		    p->sym == go_grammar.call)
			uk_symwalk_tag(fc, pt, f->node, p->node, GO_CALL);
		else if (p->sym == go_grammar.paren &&
		    p->field == go_grammar.function && g &&
		    g->sym == go_grammar.call)
			/* (parenthesized_expression (identifier) @name) */
			uk_symwalk_tag(fc, pt, f->node, g->node, GO_CALL);
	} else if (s == go_grammar.fident) {
		if (f->field == go_grammar.name &&
		    p->sym == go_grammar.methoddecl)
			uk_symwalk_doc_def(fc, pt, &go_grammar.doc, f->node, p,
			    g, GO_METHOD_DEF, p->run, p->nrun);
		else if (f->field == go_grammar.name &&
		    p->sym == go_grammar.methodelem)
			uk_symwalk_tag(fc, pt, f->node, p->node,
			    GO_IFACE_METHOD);
		else if (f->field == go_grammar.field &&
		    p->sym == go_grammar.selector && g) {
			size_t before = pt->n;

			if (p->field == go_grammar.function &&
			    g->sym == go_grammar.call)
				uk_symwalk_tag(fc, pt, f->node, g->node,
				    GO_CALL);
			else if (g->sym == go_grammar.paren &&
			    g->field == go_grammar.function && gg &&
			    gg->sym == go_grammar.call)
				uk_symwalk_tag(fc, pt, f->node, gg->node,
				    GO_CALL);
			go_qualify(pt, before, p->node, go_grammar.operand,
			    go_grammar.ident);
		}
	} else if (s == go_grammar.tident) {
		size_t before;

		if (f->field == go_grammar.name &&
		    p->sym == go_grammar.typespec)
			uk_symwalk_tag(fc, pt, f->node, p->node, GO_TYPE_DEF);
		before = pt->n;
		uk_symwalk_tag(fc, pt, f->node, f->node, GO_TYPE);
		if (p->sym == go_grammar.qualtype)
			go_qualify(pt, before, p->node, go_grammar.package,
			    go_grammar.pident);
	} else if ((s == go_grammar.str || s == go_grammar.rawstr) &&
	    f->field == go_grammar.path && p->sym == go_grammar.importspec) {
		go_import(fc, pt, f, p);
	}
}

/* The nodes the walk does not enter: string literals. */
static int
go_opaque(const struct filectx *fc, const struct walkframe *f)
{
	(void)fc;
	return f->sym == go_grammar.str || f->sym == go_grammar.rawstr;
}

const struct walklang uk_symgo_walker = { go_pats, go_captures,
	&go_grammar_once, go_grammar_init, go_wants_field, go_visit, go_opaque,
	0 };
