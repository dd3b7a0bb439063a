/* SPDX-License-Identifier: MIT */
/*
 * A file's tags: its definitions and references, found by its language's
 * tags query on tree-sitter's parse (its predicates applied by
 * symbols_pred.c), or by a walk of the tree for the languages that have
 * a walker (symbols_walk.c), or, for a file that only gives evidence, by
 * symbols_lex.c.  The index driver: queries compiled once, each file
 * parsed, its tags sorted and made records.  See symbols_int.h and
 * symbols_walk.h.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
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

/*
 * Whether every language uses its query: UK_SYMBOLS_QUERY set in the
 * environment, to check uk_symwalk_tree against the queries it replaces.
 */
static int
use_query(void)
{
	const char *v = getenv("UK_SYMBOLS_QUERY");

	return v && *v;
}

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
		st->kind[i] = uk_util_xstrdup(n + 11);
	} else if (!strncmp(n, "reference.", 10)) {
		st->role[i] = R_REF;
		st->kind[i] = uk_util_xstrdup(n + 10);
	}
}

/* A language walked without its query: the captures its walk gives. */
static void
walk_captures(struct qstate *st, const char *const *caps)
{
	uint32_t i;

	while (caps[st->ncaps])
		st->ncaps++;
	st->role = uk_util_xcalloc(st->ncaps + 1, 1);
	st->kind = uk_util_xcalloc(st->ncaps + 1, sizeof(char *));
	for (i = 0; i < st->ncaps; i++)
		capture_role(st, i, caps[i]);
	st->ok = 1;
}

/*
 * The walked languages, by index in uk_symqueries_langs: the walker of
 * language li, or NULL.  The driver owns the table, so that the walk
 * (symbols_walk.c) the walkers use does not call them back.
 */
static const struct walklang *
walk_lang(int li)
{
	static const struct {
		const char *name;
		const struct walklang *wl;
	} walkers[] = { { "python", &uk_sympy_walker },
		{ "c", &uk_symc_walker }, { "cpp", &uk_symcpp_walker },
		{ "rust", &uk_symrust_walker },
		{ "javascript", &uk_symjs_walker }, { "go", &uk_symgo_walker },
		{ NULL, NULL } };
	size_t i;

	for (i = 0; walkers[i].name; i++)
		if (!strcmp(uk_symqueries_langs[li].name, walkers[i].name))
			return walkers[i].wl;
	return NULL;
}

/* Compile language li's query into st (once, under query_lock). */
static void
query_compile(struct qstate *st, int li)
{
	const struct symlang *l = &uk_symqueries_langs[li];
	struct uk_buf src = UK_BUF_INIT;
	uint32_t off = 0, i, len;
	TSQueryError qerr = TSQueryErrorNone;
	/* A worker compiles between its parse and its query: not in its
	 * arena, which is reset after each file. */
	struct symarena *arena = uk_symarena_pause();

	if (walk_lang(li) && !use_query()) {
		walk_captures(st, walk_lang(li)->caps);
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
	st->role = uk_util_xcalloc(st->ncaps + 1, 1);
	st->kind = uk_util_xcalloc(st->ncaps + 1, sizeof(char *));
	for (i = 0; i < st->ncaps; i++)
		capture_role(st, i,
		    ts_query_capture_name_for_id(st->q, i, &len));
	st->npats = ts_query_pattern_count(st->q);
	st->pats = uk_util_xcalloc(st->npats + 1, sizeof(*st->pats));
	for (i = 0; i < st->npats; i++)
		uk_sympred_setup(st, i);
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
		return uk_util_err_set(err, UK_EXIT_FAIL, "%s", st->errmsg);
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
	/* In any case: "CODE GENERATED AUTOMATICALLY WITH ..." */
	static const char *const anycase[] = { "code generated",
		"generated automatically", "automatically generated",
		"must not be edited", "do not edit", NULL };
	size_t head = len < 2048 ? len : 2048, i;
	char low[2048];

	for (i = 0; marks[i]; i++)
		if (memmem(text, head, marks[i], strlen(marks[i])))
			return 1;
	for (i = 0; i < head; i++)
		low[i] = (char)tolower((unsigned char)text[i]);
	for (i = 0; anycase[i]; i++)
		if (memmem(low, head, anycase[i], strlen(anycase[i])))
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
	struct symworker *w = uk_util_xcalloc(1, sizeof(*w));

	w->md = pcre2_match_data_create(4, NULL);
	if (!w->md)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
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
		rt->name = uk_util_xmemdup(text + t->start, t->end - t->start);
		rt->qual = t->qend > t->qstart ?
		    uk_util_xmemdup(text + t->qstart, t->qend - t->qstart) :
		    NULL;
		memset(&rt->d, 0, sizeof(rt->d));
		if (t->def) {
			rt->d.sig = uk_symsig_signature(text, t->node,
			    &rt->d.nlines);
			if (!rt->d.sig) {
				rt->d.sig = uk_util_xstrdup(rt->name);
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

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Parse text, li's language, with parser within s's limits (the file's,
 * and the index's deadline): the tree, or NULL with r->err set.
 */
static TSTree *
parse_file(const struct uk_symbols *s, TSParser *parser, int li,
    const char *path, const char *text, size_t len, struct fres *r)
{
	TSTree *tree;
	double limit;

	if (!ts_parser_set_language(parser, uk_symqueries_langs[li].fn())) {
		snprintf(r->err, sizeof(r->err),
		    "grammar '%s': ABI %u not loadable",
		    uk_symqueries_langs[li].name,
		    ts_language_version(uk_symqueries_langs[li].fn()));
		return NULL;
	}
	limit = s->file_limit;
	if (s->deadline > 0) {
		double left = s->deadline - uk_util_mono_now();

		if (left <= 0) {
			snprintf(r->err, sizeof(r->err), "time limit reached");
			return NULL;
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
		if (s->deadline > 0 && uk_util_mono_now() >= s->deadline)
			snprintf(r->err, sizeof(r->err),
			    "'%s': time limit reached", path);
		else
			snprintf(r->err, sizeof(r->err),
			    "'%s': parse failed or took over %g s", path,
			    s->file_limit);
		return NULL;
	}
	return tree;
}

/*
 * The tags of the matches of fc's query (language li's) on its tree, into
 * tags[0..*ntags), its predicates applied.
 */
static void
query_tags(struct filectx *fc, TSQueryCursor *cursor, int li,
    struct tag **tags, size_t *ntags, size_t *atags)
{
	TSQueryMatch m;

	ts_query_cursor_exec(cursor, fc->st->q, fc->root);
	while (ts_query_cursor_next_match(cursor, &m)) {
		const struct pattern *pat = &fc->st->pats[m.pattern_index];
		TSNode name = { 0 }, node = { 0 };
		const char *kind = NULL;
		int def = 0, have_name = 0, have_node = 0;
		uint32_t doccap = pat->doccap;
		uint16_t i;
		struct tag *t;

		for (i = 0; i < m.capture_count; i++) {
			uint32_t ci = m.captures[i].index;

			switch (fc->st->role[ci]) {
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
					kind = fc->st->kind[ci];
					def = fc->st->role[ci] == R_DEF;
					have_node = 1;
				}
				break;
			default:
				break;
			}
		}
		if (!have_name || !have_node)
			continue;
		if (!uk_sympred_pass(fc, pat, &m, name))
			continue;
		if (ts_node_end_byte(name) <= ts_node_start_byte(name))
			continue;
		if (!def && li == UK_SYMLANG_PYTHON &&
		    uk_sympred_calls_local(fc, name, node))
			continue;
		GROW(*tags, *ntags, *atags);
		t = &(*tags)[(*ntags)++];
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
		    uk_sympred_doc(fc, pat, &m, doccap, node) :
		    NULL;
		/* The walk's qualifier (py_visit), for the same ranks. */
		if (!def && li == UK_SYMLANG_PYTHON)
			uk_sympy_qualify_ref(t, name);
		else if (!def && li == UK_SYMLANG_GO)
			uk_symgo_qualify_ref(t, name);
	}
}

/* The definitions' ancestors, for their scopes and docs (symbols_sig.c). */
static void
definitions_family(TSNode root, const struct tag *tags, size_t ntags)
{
	uint32_t *starts = uk_util_xcalloc(ntags + 1, sizeof(*starts));
	size_t k, n = 0;

	for (k = 0; k < ntags; k++)
		if (tags[k].def)
			starts[n++] = tags[k].node_start;
	qsort(starts, n, sizeof(*starts), u32_cmp);
	uk_symsig_family_begin(root, starts, n);
	free(starts);
}

struct lexctx {
	struct fres *r;
	size_t ar;
	uint32_t line0; /* the line the lexed text starts on */
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
	rt->line = lc->line0 + line - 1;
	rt->name = uk_util_xmemdup(name, n);
}

/*
 * A header's function bodies (uk_symskel_blank): their references,
 * lexed before they are blanked, into refs.
 */
struct bodyrefs {
	struct fres refs;
	struct lexctx lc;
	const char *text, *lang;
	size_t pos;    /* text[pos] is on line */
	uint32_t line;
};

static void
body_refs(void *arg, size_t start, size_t end)
{
	struct bodyrefs *b = arg;

	for (; b->pos < start; b->pos++)
		b->line += b->text[b->pos] == '\n';
	b->lc.line0 = b->line;
	uk_symlex_refs(b->lang, b->text + start, end - start, lex_ref,
	    &b->lc);
}

/*
 * Whether a header's bodies are parsed after all: UK_SYMBOLS_BODIES set
 * in the environment, to measure what the skeleton saves and changes.
 */
static int
parse_bodies(void)
{
	const char *v = getenv("UK_SYMBOLS_BODIES");

	return v && *v;
}

/* The skeleton of a C or C++ header (symbols_skel.c), b its references. */
static char *
skeleton(int li, const char *text, size_t len, struct bodyrefs *b)
{
	char *skel = uk_util_xmalloc(len + 1);

	memcpy(skel, text, len);
	skel[len] = '\0';
	memset(b, 0, sizeof(*b));
	b->lc.r = &b->refs;
	b->text = skel;
	b->lang = uk_symqueries_langs[li].name;
	b->line = 1;
	uk_symskel_blank(skel, len, body_refs, b);
	return skel;
}

/* The references of b after r's tags. */
static void
add_body_refs(struct fres *r, struct bodyrefs *b)
{
	if (!b->refs.ntags)
		return;
	r->tags = uk_util_xrealloc(r->tags,
	    (r->ntags + b->refs.ntags) * sizeof(*r->tags));
	memcpy(r->tags + r->ntags, b->refs.tags,
	    b->refs.ntags * sizeof(*r->tags));
	r->ntags += b->refs.ntags;
	free(b->refs.tags);
	b->refs.tags = NULL;
	b->refs.ntags = 0;
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
	TSTree *tree;
	struct tag *tags = NULL;
	size_t ntags = 0, atags = 0;
	struct bodyrefs b;
	char *skel = NULL;

	memset(&fc, 0, sizeof(fc));
	memset(&b, 0, sizeof(b));
	if (uk_symskel_wants(li, path) && !parse_bodies())
		text = skel = skeleton(li, text, len, &b);
	fc.w = w;
	fc.st = &s->qs[li];
	fc.text = text;
	fc.len = len;
	if (!(tree = parse_file(s, parser, li, path, text, len, r))) {
		uk_symtags_release(&b.refs);
		free(skel);
		return;
	}
	/*
	 * The query after the parse: a worker that must wait for another
	 * to compile it has parsed meanwhile.  s is the caller's, not
	 * const: its queries are compiled once, under query_ready's lock.
	 */
	if (!query_ready((struct qstate *)&s->qs[li], li)) {
		snprintf(r->err, sizeof(r->err), "%s", s->qs[li].errmsg);
		uk_symtags_release(&b.refs);
		free(skel);
		return;
	}
	fc.root = ts_tree_root_node(tree);
	if (!fc.st->q)
		uk_symwalk_tree(&fc, walk_lang(li), &tags, &ntags, &atags);
	else
		query_tags(&fc, cursor, li, &tags, &ntags, &atags);
	definitions_family(fc.root, tags, ntags);
	emit_tags(tags, ntags, text, len, r);
	add_body_refs(r, &b);
	uk_symsig_family_end();
	r->status = 1;
	free(tags);
	free(skel);
	free(fc.docs);
	uk_strset_release(&fc.locals);
	/* The tree goes with the arena. */
}

/* A file that only gives evidence: its references, lexed (symbols_lex.c). */
static void
lex_file(int li, const char *text, size_t len, struct fres *r)
{
	struct lexctx lc = { r, 0, 1 };

	file_facts(text, len, r);
	uk_symlex_refs(uk_symqueries_langs[li].name, text, len, lex_ref, &lc);
	r->status = 1;
	r->lexed = 1;
}

int
uk_symtags_scanned(int li, const char *path)
{
	return uk_symskel_wants(li, path) && uk_symcscan_enabled() &&
	    !parse_bodies();
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
	/* A header: scanned, not parsed (symbols_cscan.c says why). */
	if (uk_symtags_scanned(li, path)) {
		file_facts(text, len, r);
		uk_symcscan_tags(li, text, len, r);
		r->status = 1;
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
