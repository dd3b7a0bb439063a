/* SPDX-License-Identifier: MIT */
/*
 * The tags without the query cursor: one walk down a file's tree, in
 * which a language's walker (its visit function) finds what its query
 * would, and the comments before definitions for their docs.  See
 * symbols_walk.h and symbols_py.c.
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

TSSymbol
uk_symwalk_sym(const TSLanguage *l, const char *name)
{
	return ts_language_symbol_for_name(l, name, (uint32_t)strlen(name),
	    true);
}

static TSFieldId
lang_field(const TSLanguage *l, const char *name)
{
	return ts_language_field_id_for_name(l, name, (uint32_t)strlen(name));
}

static const char *
walk_kind(const struct qstate *st, int role, const char *kind)
{
	uint32_t i;

	for (i = 0; i < st->ncaps; i++)
		if (st->role[i] == role && !strcmp(st->kind[i], kind))
			return st->kind[i];
	return NULL;
}

void
uk_symwalk_tag(struct filectx *fc, struct walktags *pt, TSNode name,
    TSNode node, uint32_t pattern)
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

/* d for language l, whose doc patterns strip the expression strip. */
void
uk_symwalk_docsyms_init(struct docsyms *d, const TSLanguage *l,
    const char *strip)
{
	uint32_t i;

	d->comment = uk_symwalk_sym(l, "comment");
	d->nsyms = ts_language_symbol_count(l);
	d->named = uk_util_xcalloc(d->nsyms + 1, 1);
	d->commentish = uk_util_xcalloc(d->nsyms + 1, 1);
	for (i = 0; i < d->nsyms; i++) {
		d->named[i] = ts_language_symbol_type(l, (TSSymbol)i) ==
		    TSSymbolTypeRegular;
		d->commentish[i] =
		    strstr(ts_language_symbol_name(l, (TSSymbol)i),
			"comment") != NULL;
	}
	d->preds[0].op = P_STRIP;
	d->preds[0].cap2 = ~0u;
	d->preds[0].re = uk_sympred_compile_re(strip);
	if (!d->preds[0].re)
		uk_util_die(UK_EXIT_FATAL,
		    "doc expression of a walked language");
	d->preds[1].op = P_ADJACENT;
	d->preds[1].cap2 = 1;
	d->pat.preds = d->preds;
	d->pat.npreds = 2;
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
 * query captures them cm.v[run..+nrun).  With none, uk_sympred_doc would look
 * at the siblings before p, or before g when g starts on p's line and p
 * follows no comment, with ts_node_parent and ts_node_prev_sibling (each
 * a walk down from the root in tree-sitter 0.20): the walk has them.
 */
void
uk_symwalk_doc_def(struct filectx *fc, struct walktags *pt,
    const struct docsyms *ds, TSNode name, const struct walkframe *p,
    const struct walkframe *g, uint32_t pattern, uint32_t run, uint32_t nrun)
{
	size_t before = pt->n;
	const struct nodevec *vec = &pt->cm;
	TSQueryCapture *caps = NULL;
	TSQueryMatch m;
	uint32_t k;

	uk_symwalk_tag(fc, pt, name, p->node, pattern);
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
	/* A match holds at most 65535 captures; the doc is of the last. */
	if (nrun > UINT16_MAX) {
		run += nrun - UINT16_MAX;
		nrun = UINT16_MAX;
	}
	memset(&m, 0, sizeof(m));
	caps = uk_util_xcalloc(nrun, sizeof(*caps));
	for (k = 0; k < nrun; k++)
		caps[k].node = vec->v[run + k];
	m.captures = caps;
	m.capture_count = (uint16_t)nrun;
	pt->tags[pt->n - 1].doc = uk_sympred_doc(fc, &ds->pat, &m, 0, p->node);
	free(caps);
}

/* The comment runs among p's children, with f the node visited. */
void
uk_symwalk_doc_comments(struct walktags *pt, const struct docsyms *ds,
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

/*
 * The ids of names[] (node types and fields) in language lang's grammar,
 * each written at its offset in grammar (a language's struct of ids, all
 * TSSymbol or TSFieldId); the language.
 */
const TSLanguage *
uk_symwalk_grammar(const char *lang, const struct grammar_name *names,
    void *grammar)
{
	const TSLanguage *l = NULL;
	size_t i;

	_Static_assert(sizeof(TSSymbol) == sizeof(TSFieldId),
	    "a grammar's ids are of one size");
	for (i = 0; i < UK_SYMLANGS && !l; i++)
		if (!strcmp(uk_symqueries_langs[i].name, lang))
			l = uk_symqueries_langs[i].fn();
	for (i = 0; names[i].name; i++) {
		TSSymbol id = names[i].field ?
		    lang_field(l, names[i].name) :
		    uk_symwalk_sym(l, names[i].name);

		memcpy((char *)grammar + names[i].offset, &id, sizeof(id));
	}
	return l;
}

/*
 * One walk down fc's tree: the tags language wl's query would give into
 * tags[0..*ntags), and (Python) the bound names into fc->locals.  A bare
 * call of a bound name is dropped, as uk_sympred_calls_local drops it after the
 * query.
 */
void
uk_symwalk_tree(struct filectx *fc, const struct walklang *wl,
    struct tag **tags, size_t *ntags, size_t *atags)
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
		} else if (!ts_tree_cursor_goto_next_sibling(&c) &&
		    uk_sympred_climb(&c, &depth) == -1)
			goto done;
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
	if (wl->binds)
		fc->locals_done = 1;
	/* uk_sympred_calls_local's rule, now that every bound name is known. */
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
