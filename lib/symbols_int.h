/* SPDX-License-Identifier: MIT */
#ifndef UK_SYMBOLS_INT_H
#define UK_SYMBOLS_INT_H

/*
 * Private to lib/symbols*.c.  The index (struct uk_symbols, symbols.c)
 * takes each file's tags from the tags queries or walks (symbols_tags.c,
 * with symbols_walk.h's predicate engine and walkers), the lexer
 * (symbols_lex.c) or the tag cache (symbols_tagcache.c), on the caller's
 * thread or on a stream's threads (symbols_stream.c), and fills the table
 * (struct symtab); the ranking reads the table (symbols_class.c
 * classifies and pairs the files, symbols_imports.c resolves imports,
 * symbols_rank.c runs PageRank) and the map renders it (symbols_map.c).
 * A name's prefix says its file: uk_symclass_* is in symbols_class.c,
 * uk_sympath_* in symbols_path.c, uk_symqueries_* in symbols_queries.c.
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
	int root;      /* a package's root module (__init__.py, lib.rs) */
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
	uint32_t qual; /* `logging` of logging.getLogger(): a name id, or
			  UINT32_MAX */
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
	int unvendors; /* a .gitattributes noted unmarks some vendored path */

	int ranked;
	char *focus;      /* the focus of the last ranking, or NULL */
	uint32_t *chosen; /* def indexes of the last map, best first */
	size_t nchosen;

	/*
	 * Where a header's function declarations are defined: the files of
	 * def i are sites[site_start[i]..site_start[i + 1]) (by path), the
	 * .c files whose definitions of the name hide_duplicates hid.  Set
	 * by the ranking; NULL before.
	 */
	uint32_t *site_start;
	uint32_t *sites;
	/*
	 * By def: what the map writes after the declaration ("  //
	 * networking.c"), the sites outside the header's own unit, each
	 * relative to the header's directory when under it; or NULL.
	 */
	char **site_note;
	size_t nsite_note; /* its length: t->ndefs when it was made */

	/*
	 * By def, for the last map (symbols_map.c): a file's many exception
	 * classes shown as one line, that line on the best of them
	 * (fold_text), the others left out (folded); NULL when none.
	 */
	char **fold_text;
	unsigned char *folded;
	size_t nfold; /* their length: t->ndefs when they were made */
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
/* Out of this thread's arena for a while (malloc), and back into it. */
struct symarena *uk_symarena_pause(void);
void uk_symarena_resume(struct symarena *a);

#ifdef TREE_SITTER_API_H_
/*
 * symbols_sig.c, on the node a tags query captured as a definition:
 * its whole signature (malloc'd, *nlines lines), its enclosing scope into
 * d's scope fields (1 when there is one), its doc comment or docstring.
 */
char *uk_symsig_signature(const char *text, TSNode def, uint32_t *nlines);
int uk_symsig_scope(const char *text, TSNode def, struct sdef *d);
char *uk_symsig_doc(const char *text, TSNode def);
/*
 * ts_node_parent and ts_node_prev_sibling, answered from a map of the
 * nodes around the definitions that start at starts (sorted) made by
 * family_begin, for this thread until family_end.
 */
void uk_symsig_family_begin(TSNode root, const uint32_t *starts, size_t n);
void uk_symsig_family_end(void);
TSNode uk_symsig_parent(TSNode n);
TSNode uk_symsig_prev_sibling(TSNode n);
/*
 * symbols_skel.c: a C or C++ header's function bodies blanked to spaces
 * in t[0..n) (newlines kept), fn called with each body's bytes [start,
 * end) before they are blanked (fn may be NULL); returns the bytes
 * blanked.  uk_symskel_wants is whether the file path of language li is
 * such a header.
 */
typedef void uk_symskel_fn(void *arg, size_t start, size_t end);
size_t uk_symskel_blank(char *t, size_t n, uk_symskel_fn *fn, void *arg);
int uk_symskel_wants(int li, const char *path);

#endif

#define GROW(p, n, a)                                                          \
	do {                                                                   \
		if ((n) >= (a)) {                                              \
			(a) = (a) ? (a)*2 : 64;                                \
			(p) = uk_util_xrealloc((p), (a) * sizeof(*(p)));       \
		}                                                              \
	} while (0)

/*
 * The languages (symbols_queries.c), each with the file extensions that
 * name it, its grammar, its tags query and the patterns added to that.
 */
struct symlang {
	const char *name;
	const char *exts; /* ".a.b." */
	const struct TSLanguage *(*fn)(void);
	const char *tags;
	const char *extra; /* NULL: nothing added */
};

#define UK_SYMLANGS 10
extern const struct symlang uk_symqueries_langs[UK_SYMLANGS];
#define UK_SYMLANG_PYTHON 0 /* uk_symqueries_langs[0] */
#define UK_SYMLANG_C 4      /* uk_symqueries_langs[4] */
#define UK_SYMLANG_CPP 5    /* uk_symqueries_langs[5] */
#define UK_SYMLANG_GO 6     /* uk_symqueries_langs[6] */

/* The index in uk_symqueries_langs of path's language, or -1 when none. */
int uk_symqueries_lang_index(const char *path);
/* The name of path's language, or NULL (uk_symbols_lang). */
const char *uk_symqueries_lang(const char *path);

/*
 * A language's tags query, compiled on first use (symbols_tags.c): its
 * captures' roles and kinds, and its patterns' predicates, which
 * tree-sitter 0.20 parses but does not apply.
 */
struct qstate {
	int tried, ok;
	char errmsg[200];
	struct TSQuery *q;
	uint32_t ncaps;
	unsigned char *role;   /* per capture: what it captures */
	char **kind;           /* per capture: "function", "call", ... */
	struct pattern *pats;  /* per pattern: its predicates */
	uint32_t npats;
};

/* What one thread needs to parse and query (symbols_tags.c). */
struct symworker;

/* An interned name (symbols.c). */
struct name_slot;

/* The index: the table, with what filling it needs. */
struct uk_symbols {
	struct symworker *w; /* the caller's thread's */
	struct qstate qs[UK_SYMLANGS];
	double deadline;   /* CLOCK_MONOTONIC seconds, 0 for none */
	double file_limit; /* seconds one file may parse, 0 for no limit */

	struct symtab t;

	/* Interned names (their strings are t.names). */
	struct name_slot *slots;
	size_t cap, anames;

	/* Evidence files are lexed, not parsed, unless under one of these. */
	int lex_evidence;
	char **parse_under;
	size_t nparse_under;
	struct uk_symbols_counts counts;
	struct uk_symcache *cache; /* not owned; NULL: none */
};

/* What indexing one file found, before names are interned. */
struct rtag {
	int def;
	const char *kind; /* not owned: a query's, or a string constant */
	uint32_t line;
	char *name;
	char *qual; /* a reference's qualifier (sref.qual), or NULL */
	struct sdef d; /* sig, nlines, doc and scope of a definition */
};

struct fres {
	int status; /* 1 indexed, 0 not a language of ours, -1 failed */
	int lexed;  /* references only, by symbols_lex.c */
	int cached; /* from the tag cache */
	int generated;
	uint32_t nlines;
	struct rtag *tags;
	size_t ntags;
	char err[256]; /* with status -1 */
};

/*
 * symbols_tags.c.  uk_symtags_query compiles the query of language li
 * once per index: 0, or -1 with err when it cannot be used (every later
 * call fails alike); any thread may call it, and uk_symtags_file compiles
 * the query itself when no one did.  uk_symtags_query_failed is whether
 * it was compiled and failed (then uk_symtags_query gives the error).  uk_symtags_def_kind is the query's own string for
 * the definition kind named kind ("function"), or NULL when its query
 * defines no such kind.
 */
int uk_symtags_query(struct uk_symbols *s, int li, struct uk_err *err);
int uk_symtags_query_failed(const struct uk_symbols *s, int li);
void uk_symtags_query_release(struct qstate *st);
const char *uk_symtags_def_kind(const struct qstate *st, const char *kind);

/* A worker, for one thread at a time; free it with uk_symtags_worker_free. */
struct symworker *uk_symtags_worker_new(void);
void uk_symtags_worker_free(struct symworker *w);

/*
 * The tags of the file path (language li) into r, with w: parsed, or
 * lexed with lex (uk_symlex_refs).  r->status is 1, or -1 with r->err.
 * Reads s only (its queries and time limits; a query not yet compiled is
 * compiled under a lock), so that several workers run at once.  Free r's tags with uk_symtags_release.
 */
void uk_symtags_file(const struct uk_symbols *s, struct symworker *w,
    int li, int lex, const char *path, const char *text, size_t len,
    struct fres *r);
void uk_symtags_release(struct fres *r);
/*
 * Whether uk_symtags_file scans the file path of language li with
 * symbols_cscan.c (a C or C++ header): cheaper than the tag cache's
 * lookup, so such a file is not cached.
 */
int uk_symtags_scanned(int li, const char *path);

/*
 * The tag cache (symbols_tagcache.c, over symcache.h): put r's tags under
 * the hash of the file's bytes; get them back into r as uk_symtags_file
 * made them (0), or -1 with r empty when there are none or they do not
 * check out (then they are dropped from the cache).
 */
/* The tags' format and grammars, for the cache (uk_symbols_tag_version). */
const char *uk_symtagcache_version(void);
void uk_symtagcache_put(struct uk_symbols *s, const char *hash,
    const struct fres *r);
int uk_symtagcache_get(struct uk_symbols *s, int li, const char *hash,
    struct fres *r);

/*
 * symbols.c: add what uk_symtags_file found as the next file of s (r's
 * tags move to the table; r is left empty); whether path is to be lexed
 * (evidence or vendored by its path, outside every uk_symbols_parse_under
 * path).
 */
void uk_symbols_merge(struct uk_symbols *s, const char *path, struct fres *r);
int uk_symbols_use_lex(const struct uk_symbols *s, const char *path);

/* The table of index s (symbols.c). */
struct symtab *uk_symbols_table(struct uk_symbols *s);

/*
 * symbols_rank.c: classify the files, pair .c with .h, hide duplicates,
 * run PageRank; sets the ranks of the files and definitions of t.
 */
void uk_symrank_table(struct symtab *t, const char *focus);

/*
 * symbols_path.c, on the paths of a tree: the last component of path;
 * the length of a file name without its extension; whether path's
 * extension (with its dot) is one of exts (".h.hh."); path's directory
 * with its slash ("a/b/", "" at the root; malloc'd); whether path is C or
 * C++ by its extension.
 */
#define UK_SYM_C_HEADERS ".h.hh.hpp.hxx."
#define UK_SYM_C_SOURCES ".c.cc.cpp.cxx."
const char *uk_sympath_base(const char *path);
size_t uk_sympath_stem_len(const char *base);
int uk_sympath_has_ext(const char *path, const char *exts);
char *uk_sympath_dir(const char *path);
int uk_sympath_is_c(const char *path);

/* Whether path (a tree path) is under a directory of tests, docs... */
int uk_symclass_is_noise(const char *path);

/* Whether path is vendored or generated by its path (deps/, *.pb.go...). */
int uk_symclass_is_vendor_path(const char *path);

/* Whether path names a module of helpers (utils/, util.h, compat.py...). */
int uk_symclass_is_helper(const char *path);
/* Whether a file of name base may declare Python console scripts. */
int uk_symclass_is_script_manifest(const char *base);
/*
 * exc[i]: whether the definition order[i] (of n) is an exception class
 * (a top-level class named or derived as exceptions are, or derived
 * from one of its file's); cnt[file] counts them (symbols_exc.c).
 */
void uk_symexc_classes(const struct symtab *t, const uint32_t *order,
    size_t n, unsigned char *exc, uint32_t *cnt);

/*
 * symbols_class.c: each file's cls (enum file_class), from its path, the
 * licences and build files noted, .gitattributes and its generated mark;
 * then each file's unit (a .c file shares its header's: one node of the
 * graph).  classify reads each file's focus, pair_units its entry.
 */
void uk_symclass_classify(struct symtab *t);
void uk_symclass_pair_units(struct symtab *t);

/*
 * An edge of the file graph (symbols_rank.c, symbols_imports.c), to a
 * definition (a name or an imported name) when group is not UINT32_MAX.
 * 20 bytes, not 24 (packed, 4-byte aligned: boost's headers make 18.7
 * million of them, the ranking's peak).
 */
struct edge {
	uint32_t from, to; /* units */
	double w;
	uint32_t group; /* the target definition's (name, file) group */
} __attribute__((packed, aligned(4)));

/*
 * symbols_names.c: the names many units define, each one node between
 * its referrers and its definers (the edges between them implied, not
 * stored): begin a name of weight b, add its definers (unit, group) and
 * its referrers (unit, weight a), end it (a name nobody refers to is
 * dropped).  flow adds to y what x (by unit) sends along the implied
 * edges of weight a * b, times scale: forward to the definers, or with
 * rev backward to the referrers (a referrer has no edge to its own
 * unit); flow_groups forward into each definer's group; hit_groups
 * marks the groups that have an edge (hit, and their unit in gunit);
 * mark_used sets used[k] when the
 * pair keys[k] (from << 32 | to, sorted) has an edge.
 */
struct nname {
	uint32_t ref0, nref, def0, ndef, pair0, npair;
	double b;
};
struct nname_ref {
	uint32_t unit;
	double a;
};
struct nname_def {
	uint32_t unit, group;
};
struct nname_pair {
	uint32_t ref, def; /* within the name's referrers and definers */
};
struct namegraph {
	struct nname *v;
	size_t n, a;
	struct nname_ref *r;
	size_t nr, ar;
	struct nname_def *d;
	size_t nd, ad;
	struct nname_pair *p;
	size_t np, ap;
};

void uk_symnames_begin(struct namegraph *g, double b);
void uk_symnames_def(struct namegraph *g, uint32_t unit, uint32_t group);
void uk_symnames_ref(struct namegraph *g, uint32_t unit, double a);
void uk_symnames_end(struct namegraph *g);
void uk_symnames_flow(const struct namegraph *g, const double *x, double *y,
    int rev, double scale);
void uk_symnames_flow_groups(const struct namegraph *g, const double *x,
    double *grank);
void uk_symnames_hit_groups(const struct namegraph *g, unsigned char *hit,
    uint32_t *gunit);
void uk_symnames_mark_used(const struct namegraph *g, const uint64_t *keys,
    size_t n, unsigned char *used);
void uk_symnames_release(struct namegraph *g);

/* A name a file imports from outside the tree. */
struct extname {
	uint32_t file;
	char *name; /* malloc'd */
};

/* A name a Python file binds to a module of the tree. */
struct modname {
	uint32_t file;
	char *name; /* malloc'd */
	uint32_t module; /* the module's file */
};

/*
 * A name a file imports from a file of the tree that defines it: the
 * file's references to the name are that definition's.
 */
struct binding {
	uint32_t file, name; /* the importing file, the name's id */
	uint32_t unit;       /* the defining file's unit */
};

/* What a file's imports say of the names it uses. */
struct extnames {
	struct extname *v;
	size_t n, a;
	struct binding *b; /* sorted by (file, name) */
	size_t nb, ab;
	struct modname *mod; /* sorted by (file, name) */
	size_t nmod, amod;
};

/* Whether d is shown and counts as a definer: not hidden, not vendored. */
static inline int
symtab_visible(const struct symtab *t, const struct sdef *d)
{
	return !d->hidden && t->files[d->file].cls != FC_VENDOR;
}

/*
 * symbols_imports.c: append to edges[0..*nedges) (allocated *aedges) an
 * edge per importing unit, imported unit and imported definition, with
 * byname the definitions sorted by (name, file, line) and group[d] the
 * (name, file) group of definition d; append to ext the names imported
 * from outside the tree, and sort it for uk_symimports_is_external.
 */
void uk_symimports_edges(struct symtab *t, const uint32_t *byname,
    const uint32_t *group, struct extnames *ext, struct edge **edges,
    size_t *nedges, size_t *aedges);

/* Whether file imports name from outside the tree (ext sorted). */
int uk_symimports_is_external(const struct extnames *x, uint32_t file,
    const char *name);

/*
 * The file of the tree that file binds name to as a module (`from django
 * import forms`, `import pkg.sub as s`), or UINT32_MAX.
 */
uint32_t uk_symimports_module_of(const struct extnames *x, uint32_t file,
    const char *name);

/* The unit that file's import of name binds it to, or UINT32_MAX. */
uint32_t uk_symimports_bound_unit(const struct extnames *x, uint32_t file,
    uint32_t name);

/*
 * symbols_gopkg.c, Go's packages: whether path is a Go file of a package
 * (a .go file, not a _test.go one); whether files a and b are of one
 * package (one directory); the packages of t's tree and the module paths
 * of its go.mod files (init, release); whether an import path names a
 * package of the tree (1, its first file by path in *file), one outside
 * it (0) or nobody knows (-1: no go.mod says); the name an import binds
 * when it gives none (malloc'd).
 */
struct gopkgs {
	const struct symtab *t;
	uint32_t *files; /* the Go files, by path */
	size_t nfiles;
	struct gomod {
		char *path; /* "github.com/spf13/afero" */
		char *dir;  /* its go.mod's directory, "" at the root */
	} *mods;
	size_t nmods;
};

int uk_symgopkg_is_go(const char *path);
int uk_symgopkg_same(const struct symtab *t, uint32_t a, uint32_t b);
void uk_symgopkg_init(struct gopkgs *g, const struct symtab *t);
void uk_symgopkg_release(struct gopkgs *g);
int uk_symgopkg_resolve(const struct gopkgs *g, const char *ipath,
    uint32_t *file);
char *uk_symgopkg_name(const char *ipath);

/* The map, as uk_symbols_set_map_opts describes it. */
size_t uk_symmap_render(struct symtab *t, const struct uk_symbols_opts *o,
    struct uk_buf *out);

/* Whether path is a manifest or build file (Makefile, Cargo.toml...). */
int uk_symclass_is_build_file(const char *path);

/* The JSON of uk_symbols_json. */
struct yajl_val_s *uk_symmap_json(const struct symtab *t);

/*
 * s[0..n) with control characters as \n, \t, \x1b: never a line of its
 * own (symbols_escape.c).
 */
void uk_symescape_add(struct uk_buf *b, const char *s, size_t n);

/*
 * symbols_lex.c: the references of a file of language lang ("python"...)
 * without a parse, for a file that only gives evidence: fn(arg, name, n,
 * line) for each, in order.
 */
typedef void uk_symlex_fn(void *arg, const char *name, size_t n,
    uint32_t line);
void uk_symlex_refs(const char *lang, const char *text, size_t len,
    uk_symlex_fn *fn, void *arg);

/*
 * symbols_skel.c: a C or C++ header's function bodies blanked to spaces
 * in t[0..n) (newlines kept), fn called with each body's bytes [start,
 * end) before they are blanked (fn may be NULL); returns the bytes
 * blanked.  uk_symskel_wants is whether the file path of language li is
 * such a header.
 */
typedef void uk_symskel_fn(void *arg, size_t start, size_t end);
size_t uk_symskel_blank(char *t, size_t n, uk_symskel_fn *fn, void *arg);
int uk_symskel_wants(int li, const char *path);

/*
 * symbols_sig.c's rules on text alone, for symbols_cscan.c: the signature
 * of what starts at text[a] (a line's start) and has its body at e (body),
 * or ends at e (its first line, or the line where its brackets close);
 * the doc of the comments text[start[k]..end[k]) (k < n), in order.  Both
 * malloc'd, or NULL when empty; *nlines the signature's lines.
 */
char *uk_symsig_text(const char *text, size_t a, size_t e, int body,
    uint32_t *nlines);
char *uk_symsig_comments(const char *text, const size_t *start,
    const size_t *end, size_t n);

/*
 * symbols_cscan.c: the tags of a C or C++ header (language li) in
 * text[0..len) without tree-sitter, appended to r->tags in the order of
 * the text (r's other fields untouched).  uk_symcscan_enabled is whether
 * headers are scanned so (1), or parsed by tree-sitter (0:
 * UK_SYMBOLS_TSHEADERS set in the environment, to compare the two).
 */
void uk_symcscan_tags(int li, const char *text, size_t len, struct fres *r);
int uk_symcscan_enabled(void);

#endif
