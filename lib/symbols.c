/* SPDX-License-Identifier: MIT */
/*
 * The symbol index: tree-sitter tags queries, a file graph, PageRank and
 * the map.  See symbols.h.
 *
 * Debian's tree-sitter 0.20.7 parses the predicates of a query but applies
 * none of them, so they are applied here: #eq?, #not-eq?, #match?,
 * #not-match?, #any-of? filter matches; #select-adjacent! and
 * #set-adjacent! keep only the comments that touch the definition;
 * #strip! removes a regular expression (Rust syntax, hence PCRE2) from
 * them; #is-not? local drops names assigned or bound as parameters in the
 * same file (Ruby: a file-wide approximation of scopes).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>
#include <unistd.h>

#include "banned.h"
#include "json.h"
#include "strset.h"
#include "symbols.h"

/* Grammars, from .grammars/obj. */
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_rust(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_ruby(void);
/* Tags queries, embedded by scripts/grammars --queries. */
extern const char uk_tags_python[], uk_tags_javascript[], uk_tags_c[],
    uk_tags_cpp[], uk_tags_go[], uk_tags_rust[], uk_tags_java[], uk_tags_ruby[],
    uk_tags_typescript[];

/*
 * The upstream tags queries of C and C++ find definitions only.  These
 * add the references (calls and type names) that the file graph needs,
 * and function-like macros as definitions.
 */
static const char c_extra[] =
    "(call_expression function: (identifier) @name) @reference.call\n"
    "(call_expression function: (field_expression field: "
    "(field_identifier) @name)) @reference.call\n"
    "(type_identifier) @name @reference.type\n"
    "(preproc_function_def name: (identifier) @name) @definition.macro\n";
static const char cpp_extra[] =
    "(call_expression function: (identifier) @name) @reference.call\n"
    "(call_expression function: (field_expression field: "
    "(field_identifier) @name)) @reference.call\n"
    "(call_expression function: (qualified_identifier name: "
    "(identifier) @name)) @reference.call\n"
    "(type_identifier) @name @reference.type\n"
    "(preproc_function_def name: (identifier) @name) @definition.macro\n";

struct lang {
	const char *name;
	const char *exts; /* ".a.b." */
	const TSLanguage *(*fn)(void);
	const char *tags;
	const char *extra;
};

static const struct lang langs[] = {
	{ "python", ".py.pyi.", tree_sitter_python, uk_tags_python, NULL },
	{ "javascript", ".js.jsx.mjs.cjs.", tree_sitter_javascript,
	    uk_tags_javascript, NULL },
	{ "typescript", ".ts.mts.cts.", tree_sitter_typescript,
	    uk_tags_typescript, NULL },
	{ "tsx", ".tsx.", tree_sitter_tsx, uk_tags_typescript, NULL },
	{ "c", ".c.h.", tree_sitter_c, uk_tags_c, c_extra },
	{ "cpp", ".cc.cpp.cxx.c++.hpp.hh.hxx.h++.", tree_sitter_cpp,
	    uk_tags_cpp, cpp_extra },
	{ "go", ".go.", tree_sitter_go, uk_tags_go, NULL },
	{ "rust", ".rs.", tree_sitter_rust, uk_tags_rust, NULL },
	{ "java", ".java.", tree_sitter_java, uk_tags_java, NULL },
	{ "ruby", ".rb.", tree_sitter_ruby, uk_tags_ruby, NULL },
};
#define NLANGS (sizeof(langs) / sizeof(langs[0]))

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

struct qstate {
	int tried, ok;
	char errmsg[200];
	TSQuery *q;
	uint32_t ncaps;
	unsigned char *role;
	char **kind; /* per capture: "function", "call", ... */
	struct pattern *pats;
	uint32_t npats;
};

struct sfile {
	char *path;
	uint32_t nlines;
	double rank;
};

struct sdef {
	uint32_t file, name, line;
	const char *kind;
	char *sig, *doc;
	double rank;
};

struct sref {
	uint32_t file, name;
};

struct name_slot {
	char *s;
	uint32_t id;
	uint32_t hash;
};

/*
 * tree-sitter's memory.  Parsing a file makes and frees a great many small
 * objects, and ts_tree_delete walks the whole tree again to free them one
 * by one.  Instead each worker gives tree-sitter an arena for the time of
 * one file: the parser, the tree and the query cursor are made in it, and
 * the whole arena is reset when the file is done, with no walk.  Blocks
 * come from large chunks by size class (multiples of 16 bytes up to 1 KiB,
 * then powers of two); a freed block goes on its class's free list for the
 * next block of that class, so that a file whose parse makes and drops many
 * subtrees (error recovery) needs no more memory than with malloc.  On a
 * thread with no arena (compiling queries) tree-sitter gets malloc, as by
 * default.  The allocator is process-wide (ts_set_allocator), installed
 * once by uk_symbols_new; tree-sitter is used by this module only, and
 * everything it allocates inside an arena is freed inside it.
 */
struct arena_chunk {
	struct arena_chunk *next;
	char *base;
	size_t size, used;
};

#define ARENA_ALIGN   16
#define ARENA_HDR     16 /* holds the block's requested size */
#define ARENA_SMALL   64 /* classes of 16, 32, ... 1024 bytes */
#define ARENA_CLASSES (ARENA_SMALL + 64)
#define ARENA_MIN     (1 << 20)  /* the first chunk */
#define ARENA_KEEP    (64 << 20) /* kept between files, at most */
#define ARENA_CHUNK_HDR                                                        \
	((sizeof(struct arena_chunk) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1))

struct arena {
	struct arena_chunk *head;
	size_t total;              /* bytes of all chunks */
	void *free[ARENA_CLASSES]; /* freed blocks by class */
};

static _Thread_local struct arena *ts_arena;

/* The class of a block of n bytes, and its capacity in *cap. */
static unsigned
arena_class(size_t n, size_t *cap)
{
	unsigned k;

	if (n > SIZE_MAX / 4)
		uk_die(UK_EXIT_FATAL, "out of memory");
	if (n <= ARENA_SMALL * ARENA_ALIGN) {
		k = n ? (unsigned)((n + ARENA_ALIGN - 1) / ARENA_ALIGN) : 1;
		*cap = (size_t)k * ARENA_ALIGN;
		return k - 1;
	}
	for (k = 0, *cap = 2 * ARENA_SMALL * ARENA_ALIGN; *cap < n; k++)
		*cap *= 2;
	return ARENA_SMALL + k;
}

static void
arena_chunk_new(struct arena *a, size_t need)
{
	size_t size = a->total > ARENA_MIN ? a->total : ARENA_MIN;
	struct arena_chunk *c;

	if (size < need)
		size = need;
	c = uk_xmalloc(ARENA_CHUNK_HDR + size);
	c->base = (char *)c + ARENA_CHUNK_HDR;
	c->size = size;
	c->used = 0;
	c->next = a->head;
	a->head = c;
	a->total += size;
}

static void *
arena_alloc(struct arena *a, size_t n)
{
	size_t cap, need;
	unsigned k = arena_class(n, &cap);
	struct arena_chunk *c = a->head;
	char *p;

	if (a->free[k]) {
		/* A freed block of the class, likely still in the cache. */
		p = a->free[k];
		memcpy(&a->free[k], p, sizeof(void *));
	} else {
		need = ARENA_HDR + cap;
		if (!c || c->size - c->used < need) {
			arena_chunk_new(a, need);
			c = a->head;
		}
		p = c->base + c->used + ARENA_HDR;
		c->used += need;
	}
	memcpy(p - ARENA_HDR, &n, sizeof(n));
	return p;
}

/* Whether p is a block of a. */
static int
arena_owns(const struct arena *a, const void *p)
{
	const struct arena_chunk *c;
	const char *q = p;

	for (c = a->head; c; c = c->next)
		if (q > c->base && q < c->base + c->used)
			return 1;
	return 0;
}

static void
arena_free(struct arena *a, void *p)
{
	size_t n, cap;
	unsigned k;

	memcpy(&n, (char *)p - ARENA_HDR, sizeof(n));
	k = arena_class(n, &cap);
	memcpy(p, &a->free[k], sizeof(void *));
	a->free[k] = p;
}

/* Forget every block; keep one chunk of up to ARENA_KEEP bytes. */
static void
arena_reset(struct arena *a)
{
	struct arena_chunk *c, *next;
	size_t total = a->total;

	memset(a->free, 0, sizeof(a->free));
	if (a->head && !a->head->next) {
		a->head->used = 0;
		return;
	}
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->total = 0;
	if (total)
		arena_chunk_new(a, total < ARENA_KEEP ? total : ARENA_KEEP);
}

static void
arena_release(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(a, 0, sizeof(*a));
}

static void *
ts_mem_malloc(size_t n)
{
	return ts_arena ? arena_alloc(ts_arena, n) : uk_xmalloc(n);
}

static void *
ts_mem_calloc(size_t nmemb, size_t size)
{
	void *p;

	if (!ts_arena)
		return uk_xcalloc(nmemb, size);
	if (size && nmemb > SIZE_MAX / 4 / size)
		uk_die(UK_EXIT_FATAL, "out of memory");
	p = arena_alloc(ts_arena, nmemb * size);
	memset(p, 0, nmemb * size);
	return p;
}

static void *
ts_mem_realloc(void *p, size_t n)
{
	size_t old, cap, cap2;
	void *q;

	if (!p)
		return ts_mem_malloc(n);
	if (!ts_arena || !arena_owns(ts_arena, p))
		return uk_xrealloc(p, n);
	memcpy(&old, (char *)p - ARENA_HDR, sizeof(old));
	if (arena_class(n, &cap) == arena_class(old, &cap2)) {
		memcpy((char *)p - ARENA_HDR, &n, sizeof(n));
		return p;
	}
	q = arena_alloc(ts_arena, n);
	memcpy(q, p, old < n ? old : n);
	arena_free(ts_arena, p);
	return q;
}

static void
ts_mem_free(void *p)
{
	if (!p)
		return;
	if (ts_arena && arena_owns(ts_arena, p))
		arena_free(ts_arena, p);
	else
		free(p);
}

static pthread_once_t ts_mem_once = PTHREAD_ONCE_INIT;

static void
ts_mem_install(void)
{
	ts_set_allocator(ts_mem_malloc, ts_mem_calloc, ts_mem_realloc,
	    ts_mem_free);
}

/* What one thread needs to parse and query. */
struct worker {
	struct arena arena;
	pcre2_match_data *md;
};

struct uk_symbols {
	struct worker w;
	struct qstate qs[NLANGS];
	double deadline; /* CLOCK_MONOTONIC seconds, 0 for none */
	double file_limit; /* seconds one file may parse, 0 for no limit */

	struct sfile *files;
	size_t nfiles, afiles;
	struct sdef *defs;
	size_t ndefs, adefs;
	struct sref *refs;
	size_t nrefs, arefs;

	/* Interned names. */
	struct name_slot *slots;
	size_t cap, nnames;
	char **names;
	size_t anames;

	int ranked;
	uint32_t *chosen; /* def indexes of the last map, best first */
	size_t nchosen;
};

#define GROW(p, n, a)                                                          \
	do {                                                                   \
		if ((n) >= (a)) {                                              \
			(a) = (a) ? (a)*2 : 64;                                \
			(p) = uk_xrealloc((p), (a) * sizeof(*(p)));            \
		}                                                              \
	} while (0)

const char *
uk_symbols_lang(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;
	char ext[16];
	size_t i, n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	n = strlen(dot);
	if (n + 2 > sizeof(ext))
		return NULL;
	for (i = 0; i < n; i++)
		ext[i] = (char)tolower((unsigned char)dot[i]);
	ext[n] = '.';
	ext[n + 1] = '\0';
	for (i = 0; i < NLANGS; i++)
		if (strstr(langs[i].exts, ext))
			return langs[i].name;
	return NULL;
}

static int
lang_index(const char *path)
{
	const char *name = uk_symbols_lang(path);
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < NLANGS; i++)
		if (!strcmp(langs[i].name, name))
			return (int)i;
	return -1;
}

/* Names. */

static uint32_t
hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t
intern(struct uk_symbols *s, const char *name, size_t n)
{
	uint32_t h = hash_name(name, n);
	size_t i;

	if (s->nnames * 2 >= s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024, j;
		struct name_slot *ns = uk_xcalloc(ncap, sizeof(*ns));

		for (j = 0; j < s->cap; j++) {
			if (!s->slots[j].s)
				continue;
			i = s->slots[j].hash & (ncap - 1);
			while (ns[i].s)
				i = (i + 1) & (ncap - 1);
			ns[i] = s->slots[j];
		}
		free(s->slots);
		s->slots = ns;
		s->cap = ncap;
	}
	i = h & (s->cap - 1);
	while (s->slots[i].s) {
		if (s->slots[i].hash == h && !strncmp(s->slots[i].s, name, n) &&
		    s->slots[i].s[n] == '\0')
			return s->slots[i].id;
		i = (i + 1) & (s->cap - 1);
	}
	s->slots[i].s = uk_xmemdup(name, n);
	s->slots[i].hash = h;
	s->slots[i].id = (uint32_t)s->nnames;
	GROW(s->names, s->nnames, s->anames);
	s->names[s->nnames] = s->slots[i].s;
	return (uint32_t)s->nnames++;
}

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

static void
qstate_release(struct qstate *st)
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

static int
qstate_get(struct uk_symbols *s, int li, struct uk_err *err)
{
	struct qstate *st = &s->qs[li];
	const struct lang *l = &langs[li];
	struct uk_buf src = UK_BUF_INIT;
	uint32_t off = 0, i, len;
	TSQueryError qerr = TSQueryErrorNone;

	if (st->tried)
		goto out;
	st->tried = 1;
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
	for (i = 0; i < st->ncaps; i++) {
		const char *n = ts_query_capture_name_for_id(st->q, i, &len);

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
	st->npats = ts_query_pattern_count(st->q);
	st->pats = uk_xcalloc(st->npats + 1, sizeof(*st->pats));
	for (i = 0; i < st->npats; i++)
		setup_predicates(st, i);
	st->ok = 1;
out:
	if (!st->ok)
		return uk_err_set(err, UK_EXIT_FAIL, "%s", st->errmsg);
	return 0;
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
};

struct filectx {
	struct worker *w;
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

/* Collect the names bound in the file: assigned, or parameters. */
static void
collect_locals(struct filectx *fc)
{
	TSTreeCursor c = ts_tree_cursor_new(fc->root);
	int down = 1;

	fc->locals_done = 1;
	for (;;) {
		if (down && ts_tree_cursor_goto_first_child(&c))
			;
		else if (ts_tree_cursor_goto_next_sibling(&c))
			;
		else {
			while (ts_tree_cursor_goto_parent(&c))
				if (ts_tree_cursor_goto_next_sibling(&c))
					goto visit;
			break;
		}
	visit:
		down = 1;
		{
			TSNode n = ts_tree_cursor_current_node(&c);
			TSNode p;
			const char *pt;

			if (strcmp(ts_node_type(n), "identifier"))
				continue;
			p = ts_node_parent(n);
			if (ts_node_is_null(p))
				continue;
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
	ts_tree_cursor_delete(&c);
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
		 * tree-sitter 0.20.7 reports a leading (comment)* . (def)
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

/* The signature: the definition's first line, trimmed, at most 200 bytes. */
static char *
signature(const char *text, size_t len, uint32_t at, int c_style)
{
	size_t a = at, e = at, pa, pe;
	struct uk_buf b = UK_BUF_INIT;

	while (a > 0 && text[a - 1] != '\n')
		a--;
	while (e < len && text[e] != '\n')
		e++;
	while (e > a && isspace((unsigned char)text[e - 1]))
		e--;
	if (e - a > 200)
		e = a + uk_utf8_cut(text + a, 200);
	/*
	 * C written in KNF puts the return type on the line before a
	 * function's name: "int\nmain(void)" reads as "int main(void)".
	 */
	if (c_style && a == at && a > 0) {
		pe = a - 1;
		pa = pe;
		while (pa > 0 && text[pa - 1] != '\n')
			pa--;
		if (pe > pa && pe - pa < 80 &&
		    (isalnum((unsigned char)text[pe - 1]) ||
			text[pe - 1] == '*' || text[pe - 1] == '_') &&
		    !isspace((unsigned char)text[pa]) && text[pa] != '#' &&
		    !memchr(text + pa, ';', pe - pa) &&
		    !memchr(text + pa, '/', pe - pa)) {
			uk_buf_add_utf8(&b, text + pa, pe - pa);
			if (text[pe - 1] != '*')
				uk_buf_addch(&b, ' ');
		}
	}
	uk_buf_add_utf8(&b, text + a, e - a);
	return uk_buf_detach(&b, NULL);
}

/* What indexing one file found, before names are interned. */
struct rtag {
	int def;
	const char *kind;
	uint32_t line;
	char *name, *sig, *doc;
};

struct fres {
	int status; /* 1 indexed, 0 not a language of ours, -1 failed */
	uint32_t nlines;
	struct rtag *tags;
	size_t ntags;
	char err[256];
};

static double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
worker_init(struct worker *w)
{
	memset(w, 0, sizeof(*w));
	w->md = pcre2_match_data_create(4, NULL);
	if (!w->md)
		uk_die(UK_EXIT_FATAL, "out of memory");
}

static void
worker_release(struct worker *w)
{
	arena_release(&w->arena);
	pcre2_match_data_free(w->md);
	memset(w, 0, sizeof(*w));
}

/*
 * Parse and query one file with w's parser and cursor.  Reads s only (its
 * compiled queries), so that several workers run at once.
 */
static void
index_tree(const struct uk_symbols *s, struct worker *w, TSParser *parser,
    TSQueryCursor *cursor, int li, const char *path, const char *text,
    size_t len, struct fres *r)
{
	struct filectx fc;
	TSTree *tree = NULL;
	TSQueryMatch m;
	struct tag *tags = NULL;
	size_t ntags = 0, atags = 0, k, ar = 0;
	uint32_t nl = 0;
	const char *p;
	double limit;

	memset(&fc, 0, sizeof(fc));
	fc.w = w;
	fc.st = &s->qs[li];
	fc.text = text;
	fc.len = len;
	if (!ts_parser_set_language(parser, langs[li].fn())) {
		snprintf(r->err, sizeof(r->err),
		    "grammar '%s': ABI %u not loadable", langs[li].name,
		    ts_language_version(langs[li].fn()));
		return;
	}
	limit = s->file_limit;
	if (s->deadline > 0) {
		double left = s->deadline - now_mono();

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
		if (s->deadline > 0 && now_mono() >= s->deadline)
			snprintf(r->err, sizeof(r->err),
			    "'%s': time limit reached", path);
		else
			snprintf(r->err, sizeof(r->err),
			    "'%s': parse failed or took over %g s", path,
			    s->file_limit);
		return;
	}
	fc.root = ts_tree_root_node(tree);
	ts_query_cursor_exec(cursor, fc.st->q, fc.root);
	while (ts_query_cursor_next_match(cursor, &m)) {
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
		GROW(tags, ntags, atags);
		t = &tags[ntags++];
		t->start = ts_node_start_byte(name);
		t->end = ts_node_end_byte(name);
		t->pattern = m.pattern_index;
		t->def = def;
		t->kind = kind;
		t->node_start = ts_node_start_byte(node);
		t->row = ts_node_start_point(node).row;
		t->doc = def && doccap != ~0u ?
		    make_doc(&fc, pat, &m, doccap, node) :
		    NULL;
	}
	if (ntags)
		qsort(tags, ntags, sizeof(*tags), tag_cmp);

	for (p = text; (p = memchr(p, '\n', len - (size_t)(p - text))); p++)
		nl++;
	if (len && text[len - 1] != '\n')
		nl++;
	r->nlines = nl;
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
		rt->sig = t->def ? signature(text, len, t->node_start,
				       langs[li].extra != NULL &&
					   !strcmp(t->kind, "function")) :
				   NULL;
		rt->doc = t->doc;
	}
	r->status = 1;
	free(tags);
	free(fc.docs);
	uk_strset_release(&fc.locals);
	/* The tree goes with the arena. */
}

static void
index_file(const struct uk_symbols *s, struct worker *w, int li,
    const char *path, const char *text, size_t len, struct fres *r)
{
	TSParser *parser;
	TSQueryCursor *cursor;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (len > UINT32_MAX / 2) {
		snprintf(r->err, sizeof(r->err), "'%s': too large", path);
		return;
	}
	ts_arena = &w->arena;
	parser = ts_parser_new();
	cursor = ts_query_cursor_new();
	index_tree(s, w, parser, cursor, li, path, text, len, r);
	ts_query_cursor_delete(cursor);
	/* Also ends the external scanner, which has its own malloc. */
	ts_parser_delete(parser);
	ts_arena = NULL;
	arena_reset(&w->arena);
}

/* Add what index_file found as the next file of s; frees r's tags. */
static void
merge(struct uk_symbols *s, const char *path, struct fres *r)
{
	uint32_t fi;
	size_t k;

	GROW(s->files, s->nfiles, s->afiles);
	fi = (uint32_t)s->nfiles++;
	s->files[fi].path = uk_xstrdup(path);
	s->files[fi].nlines = r->nlines;
	s->files[fi].rank = 0;
	s->ranked = 0;
	for (k = 0; k < r->ntags; k++) {
		struct rtag *t = &r->tags[k];
		uint32_t id = intern(s, t->name, strlen(t->name));

		if (t->def) {
			struct sdef *d;

			GROW(s->defs, s->ndefs, s->adefs);
			d = &s->defs[s->ndefs++];
			d->file = fi;
			d->name = id;
			d->line = t->line;
			d->kind = t->kind;
			d->sig = t->sig;
			d->doc = t->doc;
			d->rank = 0;
		} else {
			GROW(s->refs, s->nrefs, s->arefs);
			s->refs[s->nrefs].file = fi;
			s->refs[s->nrefs++].name = id;
		}
		free(t->name);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}

static void
fres_release(struct fres *r)
{
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		free(r->tags[k].name);
		free(r->tags[k].sig);
		free(r->tags[k].doc);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}

int
uk_symbols_add(struct uk_symbols *s, const char *path, const char *text,
    size_t len, struct uk_err *err)
{
	int li = lang_index(path);
	struct fres r;

	if (li < 0)
		return 0;
	if (qstate_get(s, li, err) < 0)
		return -1;
	index_file(s, &s->w, li, path, text, len, &r);
	if (r.status < 0)
		return uk_err_set(err, UK_EXIT_FAIL, "%s", r.err);
	merge(s, path, &r);
	return 1;
}

/* Indexing files as they arrive: a queue that worker threads take from. */
struct sitem {
	const char *path, *text;
	size_t len;
	int li;
	int done;
	struct fres res;
};

struct uk_symbols_stream {
	struct uk_symbols *s;
	struct sitem *items; /* grows: read and written under lock */
	size_t n, a;
	size_t next;   /* the first item no worker took */
	size_t ndone;  /* items done */
	size_t merged; /* items added to s, in order (caller's thread) */
	int closed, cancel;
	pthread_mutex_t lock;
	pthread_cond_t more; /* for workers: an item, or the end */
	pthread_cond_t done; /* for the caller: an item done */
	pthread_t tid[UK_SYMBOLS_MAX_THREADS];
	int nt;
	long indexed;
	int timeout;
	uk_symbols_progress_fn *progress;
	void *progress_arg;
	size_t reported; /* ndone when progress was last called */
};

/* Take the next item and index it; 0 when there is none (yet). */
static int
stream_work(struct uk_symbols_stream *st, struct worker *w, int wait)
{
	struct sitem it;
	size_t i;

	pthread_mutex_lock(&st->lock);
	while (wait && st->next >= st->n && !st->closed && !st->cancel)
		pthread_cond_wait(&st->more, &st->lock);
	if (st->next >= st->n || st->cancel) {
		pthread_mutex_unlock(&st->lock);
		return 0;
	}
	i = st->next++;
	it = st->items[i];
	pthread_mutex_unlock(&st->lock);
	index_file(st->s, w, it.li, it.path, it.text, it.len, &it.res);
	pthread_mutex_lock(&st->lock);
	st->items[i].res = it.res;
	st->items[i].done = 1;
	st->ndone++;
	pthread_cond_signal(&st->done);
	pthread_mutex_unlock(&st->lock);
	return 1;
}

static void *
stream_worker(void *arg)
{
	struct uk_symbols_stream *st = arg;
	struct worker w;

	worker_init(&w);
	while (stream_work(st, &w, 1))
		;
	worker_release(&w);
	return NULL;
}

/* Whether the next item to merge is done, or there is none (lock held). */
static int
stream_next_ready(const struct uk_symbols_stream *st)
{
	return st->merged >= st->n || st->items[st->merged].done;
}

/*
 * On the caller's thread: add the items done, in order, to the index, and
 * report progress.  With wait, until every item is merged.
 */
static void
stream_merge(struct uk_symbols_stream *st, int wait)
{
	for (;;) {
		size_t from = st->merged, to, ndone, n, k;

		pthread_mutex_lock(&st->lock);
		while (wait && !stream_next_ready(st))
			pthread_cond_wait(&st->done, &st->lock);
		for (to = from; to < st->n && st->items[to].done; to++)
			;
		ndone = st->ndone;
		n = st->n;
		pthread_mutex_unlock(&st->lock);
		/* Items done stay as they are: only this thread moves items. */
		for (k = from; k < to; k++) {
			struct sitem *it = &st->items[k];

			if (it->res.status == 1) {
				merge(st->s, it->path, &it->res);
				st->indexed++;
			} else if (it->res.status < 0 &&
			    strstr(it->res.err, "time limit")) {
				st->timeout = 1;
			}
			fres_release(&it->res);
		}
		st->merged = to;
		if (st->progress && ndone != st->reported) {
			st->reported = ndone;
			st->progress(st->progress_arg, ndone, n);
		}
		if (!wait || st->merged >= n)
			return;
	}
}

struct uk_symbols_stream *
uk_symbols_stream_start(struct uk_symbols *s, int nthreads)
{
	struct uk_symbols_stream *st = uk_xcalloc(1, sizeof(*st));
	int t;

	if (nthreads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = c > 0 ? (int)c : 1;
	}
	if (nthreads > UK_SYMBOLS_MAX_THREADS)
		nthreads = UK_SYMBOLS_MAX_THREADS;
	st->s = s;
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->more, NULL);
	pthread_cond_init(&st->done, NULL);
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&st->tid[st->nt], NULL, stream_worker, st) ==
		    0)
			st->nt++;
	return st;
}

void
uk_symbols_stream_progress(struct uk_symbols_stream *st,
    uk_symbols_progress_fn *fn, void *arg)
{
	st->progress = fn;
	st->progress_arg = arg;
}

int
uk_symbols_stream_add(struct uk_symbols_stream *st, const char *path,
    const char *text, size_t len, struct uk_err *err)
{
	int li = lang_index(path);
	struct sitem *it;

	if (li < 0)
		return 0;
	if (qstate_get(st->s, li, err) < 0)
		return -1;
	pthread_mutex_lock(&st->lock);
	if (st->n == st->a) {
		st->a = st->a ? 2 * st->a : 256;
		st->items = uk_xrealloc(st->items, st->a * sizeof(*st->items));
	}
	it = &st->items[st->n++];
	memset(it, 0, sizeof(*it));
	it->path = path;
	it->text = text;
	it->len = len;
	it->li = li;
	pthread_cond_signal(&st->more);
	pthread_mutex_unlock(&st->lock);
	stream_merge(st, 0);
	return 1;
}

static void
stream_free(struct uk_symbols_stream *st)
{
	size_t k;
	int t;

	pthread_mutex_lock(&st->lock);
	st->closed = 1;
	pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
	for (t = 0; t < st->nt; t++)
		pthread_join(st->tid[t], NULL);
	for (k = st->merged; k < st->n; k++)
		fres_release(&st->items[k].res);
	free(st->items);
	pthread_cond_destroy(&st->more);
	pthread_cond_destroy(&st->done);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

long
uk_symbols_stream_end(struct uk_symbols_stream *st, struct uk_err *err)
{
	long indexed;
	int timeout;

	pthread_mutex_lock(&st->lock);
	st->closed = 1;
	pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
	/* No worker thread could start: index here. */
	if (!st->nt) {
		while (stream_work(st, &st->s->w, 0))
			stream_merge(st, 0);
	}
	stream_merge(st, 1);
	indexed = st->indexed;
	timeout = st->timeout;
	stream_free(st);
	if (timeout)
		return uk_err_set(err, UK_EXIT_FAIL,
		    "time limit reached while indexing symbols");
	return indexed;
}

void
uk_symbols_stream_cancel(struct uk_symbols_stream *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	st->cancel = 1;
	pthread_mutex_unlock(&st->lock);
	stream_free(st);
}

long
uk_symbols_add_files(struct uk_symbols *s, const struct uk_symbols_file *files,
    size_t n, int nthreads, struct uk_err *err)
{
	struct uk_symbols_stream *st;
	size_t i;

	/* Every query first: a query that cannot be used indexes nothing. */
	for (i = 0; i < n; i++) {
		int li = lang_index(files[i].path);

		if (li >= 0 && qstate_get(s, li, err) < 0)
			return -1;
	}
	if (nthreads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		nthreads = c > 0 ? (int)c : 1;
	}
	if ((size_t)nthreads > n)
		nthreads = n ? (int)n : 1;
	st = uk_symbols_stream_start(s, nthreads);
	for (i = 0; i < n; i++)
		uk_symbols_stream_add(st, files[i].path, files[i].text,
		    files[i].len, err);
	return uk_symbols_stream_end(st, err);
}

void
uk_symbols_set_deadline(struct uk_symbols *s, double seconds)
{
	s->deadline = seconds > 0 ? now_mono() + seconds : 0;
}

void
uk_symbols_set_file_limit(struct uk_symbols *s, double seconds)
{
	s->file_limit = seconds > 0 ? seconds : 0;
}

struct uk_symbols *
uk_symbols_new(void)
{
	struct uk_symbols *s = uk_xcalloc(1, sizeof(*s));

	pthread_once(&ts_mem_once, ts_mem_install);
	worker_init(&s->w);
	s->file_limit = UK_SYMBOLS_FILE_SECONDS;
	return s;
}

void
uk_symbols_free(struct uk_symbols *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < NLANGS; i++)
		qstate_release(&s->qs[i]);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	for (i = 0; i < s->ndefs; i++) {
		free(s->defs[i].sig);
		free(s->defs[i].doc);
	}
	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->files);
	free(s->defs);
	free(s->refs);
	free(s->slots);
	free(s->names);
	free(s->chosen);
	worker_release(&s->w);
	free(s);
}

size_t
uk_symbols_nfiles(const struct uk_symbols *s)
{
	return s->nfiles;
}

size_t
uk_symbols_ndefs(const struct uk_symbols *s)
{
	return s->ndefs;
}

size_t
uk_symbols_nrefs(const struct uk_symbols *s)
{
	return s->nrefs;
}

size_t
uk_symbols_tokens(const char *str, size_t len)
{
	(void)str;
	return (len + 3) / 4;
}

/* Ranking. */

struct edge {
	uint32_t from, to;
	double w;
	uint32_t group; /* index into the (name, file) groups of defs */
};

static int
def_name_cmp(const void *a, const void *b, void *ctx)
{
	const struct uk_symbols *sort_ctx = ctx;
	const struct sdef *x = &sort_ctx->defs[*(const uint32_t *)a];
	const struct sdef *y = &sort_ctx->defs[*(const uint32_t *)b];

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return 0;
}

static int
ref_cmp(const void *a, const void *b)
{
	const struct sref *x = a, *y = b;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return 0;
}

static int
def_rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct uk_symbols *sort_ctx = ctx;
	const struct sdef *x = &sort_ctx->defs[*(const uint32_t *)a];
	const struct sdef *y = &sort_ctx->defs[*(const uint32_t *)b];
	double fx = sort_ctx->files[x->file].rank;
	double fy = sort_ctx->files[y->file].rank;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (fx != fy)
		return fx > fy ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/* aider's weights: long descriptive names count more, private less. */
static double
name_weight(const char *n, size_t ndefiners)
{
	size_t len = strlen(n), i;
	int lower = 0, upper = 0, under = 0;
	double mul = 1;

	for (i = 0; i < len; i++) {
		lower |= islower((unsigned char)n[i]) != 0;
		upper |= isupper((unsigned char)n[i]) != 0;
		under |= n[i] == '_';
	}
	if (len >= 8 && (under || (lower && upper)))
		mul *= 10;
	if (n[0] == '_')
		mul *= 0.1;
	if (ndefiners > 5)
		mul *= 0.1;
	return mul;
}

static void
rank(struct uk_symbols *s)
{
	uint32_t *byname = NULL, *group_of = NULL;
	struct edge *edges = NULL;
	size_t nedges = 0, aedges = 0, i, j, r, ngroups = 0;
	double *out = NULL, *pr = NULL, *next = NULL, *grank = NULL;
	size_t n = s->nfiles, it;

	if (s->ranked)
		return;
	s->ranked = 1;
	if (!n)
		return;
	/* Definitions by (name, file): groups. */
	byname = uk_xcalloc(s->ndefs + 1, sizeof(*byname));
	group_of = uk_xcalloc(s->ndefs + 1, sizeof(*group_of));
	for (i = 0; i < s->ndefs; i++)
		byname[i] = (uint32_t)i;
	qsort_r(byname, s->ndefs, sizeof(*byname), def_name_cmp, s);
	if (s->nrefs)
		qsort(s->refs, s->nrefs, sizeof(*s->refs), ref_cmp);
	for (i = 0; i < s->ndefs; i++) {
		if (i && def_name_cmp(&byname[i - 1], &byname[i], s))
			ngroups++;
		group_of[byname[i]] = (uint32_t)ngroups;
	}
	ngroups++;

	/* Edges: for each name, referencers to definers. */
	for (i = 0, r = 0; i < s->ndefs;) {
		uint32_t name = s->defs[byname[i]].name;
		size_t e = i, ndefiners = 0;
		double mul;

		while (e < s->ndefs && s->defs[byname[e]].name == name) {
			if (e == i ||
			    s->defs[byname[e]].file !=
				s->defs[byname[e - 1]].file)
				ndefiners++;
			e++;
		}
		while (r < s->nrefs && s->refs[r].name < name)
			r++;
		mul = name_weight(s->names[name], ndefiners);
		while (r < s->nrefs && s->refs[r].name == name) {
			uint32_t from = s->refs[r].file;
			size_t cnt = 0, k;
			int local = 0;

			while (r < s->nrefs && s->refs[r].name == name &&
			    s->refs[r].file == from) {
				cnt++;
				r++;
			}
			for (k = i; k < e; k++)
				local |= s->defs[byname[k]].file == from;
			if (local)
				continue;
			for (k = i; k < e; k++) {
				const struct sdef *d = &s->defs[byname[k]];

				if (k > i &&
				    d->file == s->defs[byname[k - 1]].file)
					continue;
				GROW(edges, nedges, aedges);
				edges[nedges].from = from;
				edges[nedges].to = d->file;
				edges[nedges].w = mul * sqrt((double)cnt);
				edges[nedges].group = group_of[byname[k]];
				nedges++;
			}
		}
		i = e;
	}

	/* PageRank, damping 0.85, dangling files spread evenly. */
	out = uk_xcalloc(n, sizeof(double));
	pr = uk_xcalloc(n, sizeof(double));
	next = uk_xcalloc(n, sizeof(double));
	for (j = 0; j < nedges; j++)
		out[edges[j].from] += edges[j].w;
	for (i = 0; i < n; i++)
		pr[i] = 1.0 / (double)n;
	for (it = 0; it < 100; it++) {
		double dangling = 0, diff = 0;

		for (i = 0; i < n; i++)
			if (out[i] == 0)
				dangling += pr[i];
		for (i = 0; i < n; i++)
			next[i] = (1 - 0.85) / (double)n +
			    0.85 * dangling / (double)n;
		for (j = 0; j < nedges; j++)
			next[edges[j].to] += 0.85 * pr[edges[j].from] *
			    edges[j].w / out[edges[j].from];
		for (i = 0; i < n; i++) {
			diff += fabs(next[i] - pr[i]);
			pr[i] = next[i];
		}
		if (diff < 1e-10)
			break;
	}
	for (i = 0; i < n; i++)
		s->files[i].rank = pr[i];

	/* Each definition gets the rank flowing along its edges. */
	grank = uk_xcalloc(ngroups, sizeof(double));
	for (j = 0; j < nedges; j++)
		grank[edges[j].group] +=
		    pr[edges[j].from] * edges[j].w / out[edges[j].from];
	for (i = 0; i < s->ndefs; i++) {
		struct sdef *d = &s->defs[i];

		d->rank = grank[group_of[i]];
		if (d->rank == 0) /* unreferenced: after, by file rank */
			d->rank = s->files[d->file].rank * 1e-6;
	}
	free(byname);
	free(group_of);
	free(edges);
	free(out);
	free(pr);
	free(next);
	free(grank);
}

static int
chosen_cmp(const void *a, const void *b, void *ctx)
{
	const struct uk_symbols *sort_ctx = ctx;
	const struct sdef *x = &sort_ctx->defs[*(const uint32_t *)a];
	const struct sdef *y = &sort_ctx->defs[*(const uint32_t *)b];
	double fx = sort_ctx->files[x->file].rank;
	double fy = sort_ctx->files[y->file].rank;

	if (x->file != y->file) {
		if (fx != fy)
			return fx > fy ? -1 : 1;
		return strcmp(sort_ctx->files[x->file].path,
		    sort_ctx->files[y->file].path);
	}
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

static void
render(struct uk_symbols *s, const uint32_t *order, size_t nsel,
    struct uk_buf *out)
{
	uint32_t *sel = uk_xcalloc(nsel + 1, sizeof(*sel));
	size_t i;
	uint32_t file = UINT32_MAX, last = 0;

	memcpy(sel, order, nsel * sizeof(*sel));
	qsort_r(sel, nsel, sizeof(*sel), chosen_cmp, s);
	for (i = 0; i < nsel; i++) {
		const struct sdef *d = &s->defs[sel[i]];

		if (d->file != file) {
			if (file != UINT32_MAX && last < s->files[file].nlines)
				uk_buf_addstr(out, "\xe2\x8b\xae\n");
			if (file != UINT32_MAX)
				uk_buf_addch(out, '\n');
			file = d->file;
			last = 0;
			uk_buf_addf(out, "%s:\n", s->files[file].path);
		}
		if (d->line == last)
			continue;
		if (d->line > last + 1)
			uk_buf_addstr(out, "\xe2\x8b\xae\n");
		uk_buf_addf(out, "\xe2\x94\x82%s\n", d->sig);
		last = d->line;
	}
	if (file != UINT32_MAX && last < s->files[file].nlines)
		uk_buf_addstr(out, "\xe2\x8b\xae\n");
	free(sel);
}

size_t
uk_symbols_map(struct uk_symbols *s, long budget, struct uk_buf *out)
{
	uint32_t *order;
	size_t i, lo = 0, hi, mid;
	struct uk_buf b = UK_BUF_INIT;

	rank(s);
	order = uk_xcalloc(s->ndefs + 1, sizeof(*order));
	for (i = 0; i < s->ndefs; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, s->ndefs, sizeof(*order), def_rank_cmp, s);
	/* The largest count that fits: the map grows with each definition. */
	hi = s->ndefs;
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		uk_buf_reset(&b);
		render(s, order, mid, &b);
		if (budget >= 0 &&
		    uk_symbols_tokens(b.buf, b.len) <= (size_t)budget)
			lo = mid;
		else
			hi = mid - 1;
	}
	uk_buf_reset(&b);
	render(s, order, lo, &b);
	uk_buf_add(out, b.buf, b.len);
	uk_buf_release(&b);
	free(s->chosen);
	s->chosen = order;
	s->nchosen = lo;
	return lo;
}

yajl_val
uk_symbols_json(struct uk_symbols *s)
{
	yajl_val arr = uk_json_array();
	size_t i;

	for (i = 0; i < s->nchosen; i++) {
		const struct sdef *d = &s->defs[s->chosen[i]];
		yajl_val o = uk_json_object();
		char num[64];

		uk_json_set_str(o, "file", s->files[d->file].path);
		uk_json_set_str(o, "name", s->names[d->name]);
		uk_json_set_str(o, "kind", d->kind);
		uk_json_set_int(o, "line", d->line);
		snprintf(num, sizeof(num), "%.6g", d->rank);
		uk_json_set(o, "rank", uk_json_num(num));
		if (d->doc)
			uk_json_set_str(o, "doc", d->doc);
		uk_json_push(arr, o);
	}
	return arr;
}

const char *
uk_symbols_top_file(struct uk_symbols *s)
{
	size_t i, best = 0;

	rank(s);
	if (!s->nfiles)
		return NULL;
	for (i = 1; i < s->nfiles; i++)
		if (s->files[i].rank > s->files[best].rank)
			best = i;
	return s->files[best].path;
}
