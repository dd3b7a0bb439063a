/* SPDX-License-Identifier: MIT */
#ifndef UK_SYMBOLS_INT_H
#define UK_SYMBOLS_INT_H

/*
 * Private to lib/symbols*.c: the table the index fills (symbols.c) and
 * the ranking (symbols_rank.c) and the map (symbols_map.c) read.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "symbols.h"

/* What a file is to the project (symbols_rank.c decides). */
enum file_class {
	FC_CORE,   /* the project's own code */
	FC_NOISE,  /* tests, examples, docs, benchmarks, fixtures */
	FC_VENDOR, /* vendored or generated: left out of the map */
};

struct sfile {
	char *path;
	uint32_t nlines;
	uint32_t ndefs; /* definitions shown (not hidden) */
	double rank;
	int cls;       /* enum file_class */
	uint32_t unit; /* the graph node: a .c file shares its header's */
	int focus;     /* under the focus path */
	int generated; /* its first lines say a tool wrote it */
	int entry;     /* defines a program's main */
};

struct sdef {
	uint32_t file, name, line;
	uint32_t nlines; /* of sig */
	const char *kind;
	char *sig; /* the whole signature, lines joined by '\n' */
	char *doc;
	char *scope;      /* the enclosing scope's header, or NULL */
	char *scope_name; /* its name ("Session", "impl Foo"), or NULL */
	uint32_t scope_line, scope_nlines;
	int hidden; /* an overload or a .c definition of a header's */
	double rank;
};

struct sref {
	uint32_t file, name;
};

/* A file of the tree that is not (only) source: see uk_symbols_note. */
struct snote {
	char *path;
	char *text; /* NULL unless uk_symbols_wants_text(path) */
	size_t len;
};

struct symtab {
	struct sfile *files;
	size_t nfiles, afiles;
	struct sdef *defs;
	size_t ndefs, adefs;
	struct sref *refs;
	size_t nrefs, arefs;
	char **names; /* by id, owned by the interning table */
	size_t nnames;
	struct snote *notes;
	size_t nnotes, anotes;

	int ranked;
	char *focus;      /* the focus of the last ranking, or NULL */
	uint32_t *chosen; /* def indexes of the last map, best first */
	size_t nchosen;
};

/*
 * tree-sitter's memory (symbols_arena.c): a thread that entered an arena
 * has tree-sitter allocate in it until it leaves, when the arena is reset
 * (the tree, parser and cursor made in it are gone).  install, once per
 * process, makes tree-sitter use this allocator (malloc outside arenas).
 */
struct symarena {
	struct arena_chunk *head;
	size_t total;    /* bytes of all chunks */
	void *free[128]; /* freed blocks by size class */
};

void uk_symarena_install(void);
void uk_symarena_enter(struct symarena *a);
void uk_symarena_leave(void);
void uk_symarena_release(struct symarena *a);

#ifdef TREE_SITTER_API_H_
/*
 * symbols_sig.c, on the node a tags query captured as a definition:
 * its whole signature (malloc'd, *nlines lines), its enclosing scope into
 * d's scope fields (1 when there is one), its doc comment or docstring.
 */
char *uk_symsig_signature(const char *text, TSNode def, uint32_t *nlines);
int uk_symsig_scope(const char *text, TSNode def, struct sdef *d);
char *uk_symsig_doc(const char *text, TSNode def);
#endif

#define GROW(p, n, a)                                                          \
	do {                                                                   \
		if ((n) >= (a)) {                                              \
			(a) = (a) ? (a)*2 : 64;                                \
			(p) = uk_xrealloc((p), (a) * sizeof(*(p)));            \
		}                                                              \
	} while (0)

/* Query patterns added to the grammars' tags queries (symbols_queries.c). */
extern const char uk_symq_c_extra[], uk_symq_cpp_extra[],
    uk_symq_python_extra[], uk_symq_rust_extra[], uk_symq_java_extra[],
    uk_symq_js_extra[], uk_symq_ts_extra[];

/* The table of index s (symbols.c). */
struct symtab *uk_symtab_of(struct uk_symbols *s);

/* Classify the files, pair .c with .h, hide duplicates, run PageRank. */
void uk_symtab_rank(struct symtab *t, const char *focus);

/* Whether path (a tree path) is under a directory of tests, docs... */
int uk_symtab_is_noise(const char *path);

/* The map, as uk_symbols_map_opts describes it. */
size_t uk_symtab_map(struct symtab *t, const struct uk_symbols_opts *o,
    struct uk_buf *out);

/* Whether path is a manifest or build file (Makefile, Cargo.toml...). */
int uk_symtab_is_build_file(const char *path);

/* The JSON of uk_symbols_json. */
struct yajl_val_s *uk_symtab_json(const struct symtab *t);

/* path with control characters as \n, \t, \x1b: never a line of its own. */
void uk_symtab_add_escaped(struct uk_buf *b, const char *s, size_t n);

/*
 * symbols_lex.c: the references of a file of language lang ("python"...)
 * without a parse, for a file that only gives evidence: fn(arg, name, n,
 * line) for each, in order.
 */
typedef void uk_symlex_fn(void *arg, const char *name, size_t n,
    uint32_t line);
void uk_symlex_refs(const char *lang, const char *text, size_t len,
    uk_symlex_fn *fn, void *arg);

#endif
