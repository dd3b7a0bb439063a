/* SPDX-License-Identifier: MIT */
#ifndef UK_SYMBOLS_H
#define UK_SYMBOLS_H

/*
 * The symbol index: definitions and references found by tree-sitter's
 * tags queries in many files, a graph of files (a reference to a name
 * defined in another file is an edge from the referring file to the
 * defining one), PageRank over that graph as aider's repository map does,
 * and the map itself: the best-ranked definitions within a token budget.
 *
 * Languages (by file extension): Python, JavaScript, TypeScript, TSX, C,
 * C++, Go, Rust, Java, Ruby.  The grammars are linked in from .grammars/
 * (see the Makefile); their tags queries are embedded at build time.
 *
 * Tokens are counted with uk_tokens_count in the tokenizer of the options
 * (cl100k_base by default); a map never exceeds its budget by that count.
 *
 * What counts as the project (urlfetch(1), "Repository map"): files under
 * vendored directories (deps/, vendor/, third_party/ ...), in a subtree
 * with its own licence and build file, marked linguist-vendored or
 * linguist-generated in .gitattributes, or generated (a parser, a bundle)
 * are left out; tests, examples, docs, benchmarks and fixtures are indexed
 * (their references count) but get little of PageRank's teleport mass.
 *
 * Usage:
 *	struct uk_symbols *s = uk_symbols_new();
 *	uk_symbols_add(s, "a.py", text, len, &err);  ...for every file
 *	uk_symbols_map(s, 1024, &map);
 *	uk_symbols_free(s);
 */

#include <stddef.h>

#include "buf.h"
#include "tokens.h"
#include "util.h"

struct uk_symbols;
struct yajl_val_s;

/* The default budget of a map, in tokens. */
#define UK_SYMBOLS_TOKENS 1024

/* The language of path by its extension ("python", ...), or NULL. */
const char *uk_symbols_lang(const char *path);

/* A new, empty index; free it with uk_symbols_free (NULL-safe). */
struct uk_symbols *uk_symbols_new(void);
void uk_symbols_free(struct uk_symbols *s);

/*
 * Index the file path (a repository-relative name, copied) whose content
 * is text[0..len).  Returns 1 when the file was indexed, 0 when its
 * extension names no supported language (nothing done), -1 with err when
 * the grammar or its query cannot be used, or parsing fails.
 */
int uk_symbols_add(struct uk_symbols *s, const char *path, const char *text,
    size_t len, struct uk_err *err);

/* A file for uk_symstream_add_files: its path and content (not copied). */
struct uk_symbols_file {
	const char *path;
	const char *text;
	size_t len;
};

#define UK_SYMBOLS_MAX_THREADS 16

/*
 * Index files[0..n) as uk_symbols_add would one after the other (same
 * order, same result), parsing on up to nthreads threads (0: one per
 * processor).  Files of no supported language are skipped, as are files
 * that fail to parse.  Returns the number indexed, or -1 with err when a
 * query cannot be used or the deadline passed (what was indexed stays).
 */
long uk_symstream_add_files(struct uk_symbols *s,
    const struct uk_symbols_file *files, size_t n, int nthreads,
    struct uk_err *err);

/*
 * Indexing files as they arrive (while an archive is still being read, for
 * instance): uk_symbols_stream_start starts nthreads parsing threads (0:
 * one per processor) that index the files handed over by
 * uk_symbols_stream_add; uk_symbols_stream_end waits for them and returns
 * what uk_symstream_add_files would for the same files in the same order
 * (the index is the same).  The path and text of every file handed over
 * must stay as they are until the stream ends or is cancelled.  Only the
 * caller's thread may call these functions (one stream per index at a
 * time); results are added to s on that thread, in order, in
 * uk_symbols_stream_add and uk_symbols_stream_end.
 */
struct uk_symbols_stream;

struct uk_symbols_stream *uk_symbols_stream_start(struct uk_symbols *s,
    int nthreads);

/*
 * Hand a file over: 1, 0 when its extension names no supported language
 * (nothing done), -1 with err when the language's query cannot be used
 * (the stream goes on).
 */
int uk_symbols_stream_add(struct uk_symbols_stream *st, const char *path,
    const char *text, size_t len, struct uk_err *err);

/*
 * Progress: fn(arg, indexed, total) with the files indexed (or failed) so
 * far and the files handed over, called on the caller's thread from
 * uk_symbols_stream_add and uk_symbols_stream_end whenever indexed has
 * changed (at most once per file).
 */
typedef void uk_symbols_progress_fn(void *arg, size_t indexed, size_t total);
void uk_symbols_stream_progress(struct uk_symbols_stream *st,
    uk_symbols_progress_fn *fn, void *arg);

/*
 * Wait for every file, add the last results to s and free st.  Returns
 * the number of files indexed, or -1 with err when the deadline passed
 * (what was indexed stays).
 */
long uk_symbols_stream_end(struct uk_symbols_stream *st, struct uk_err *err);

/*
 * Done with a text: fn(arg, path, text) on the caller's thread once a
 * file handed over has been parsed and its tags added to s; the stream
 * reads that text no more (a file only lexed stays: when nothing else
 * was parsed, uk_symbols_stream_end parses it after all).
 */
typedef void uk_symbols_done_fn(void *arg, const char *path,
    const char *text);
void uk_symbols_stream_on_done(struct uk_symbols_stream *st,
    uk_symbols_done_fn *fn, void *arg);

/* Stop: files not yet parsed are dropped; frees st (NULL-safe). */
void uk_symbols_stream_cancel(struct uk_symbols_stream *st);

/*
 * Stop indexing seconds from now (0: no limit): a parse still running
 * then is abandoned and uk_symbols_add, uk_symstream_add_files or
 * uk_symbols_stream_end fails.  Not while a stream runs.
 */
void uk_symbols_set_deadline(struct uk_symbols *s, double seconds);

/*
 * How long one file may take to parse (default UK_SYMBOLS_FILE_SECONDS;
 * 0: no limit).  A file past it is left out of the index and the others
 * go on: tree-sitter's error recovery on a large file of garbage can take
 * a minute, and a repository's contents are whatever its owner put there.
 * A file of real source up to UK_REPO_FILE_MAX parses in well under a
 * second.  Not while a stream runs.
 */
#define UK_SYMBOLS_FILE_SECONDS 5.0
void uk_symbols_set_file_limit(struct uk_symbols *s, double seconds);

/*
 * Tell the index about a file of the tree that is not source, or that it
 * should know of without parsing: manifests and build files (listed at the
 * top of the map), licence files (a subtree with its own licence, one that
 * differs from the root's, and a build file is vendored), .gitattributes
 * (linguist-vendored and linguist-generated marks) and package.json (its
 * "bin" programs are entry points) and go.mod (its module path roots the
 * tree's Go import paths).  text[0..len) is read
 * (and copied) only when uk_symbols_wants_text(path) is 1; else pass NULL.
 * Source files given to uk_symbols_add need not be noted.  Order does not
 * matter: the notes are read when the map is made.
 */
void uk_symbols_note(struct uk_symbols *s, const char *path, const char *text,
    size_t len);

/* 1 when uk_symbols_note reads path's content, else 0. */
int uk_symbols_wants_text(const char *path);

/*
 * Files that only give evidence (tests, examples, docs, benchmarks,
 * fixtures: what the ranking sends little of its teleport mass) are not
 * parsed but lexed: their references are the identifiers they call or
 * that look like types, outside comments and strings, and they define
 * nothing (neither in the map nor in uk_symbols_json).  Tree-sitter's
 * parse is most of the index's time, and a tree has often as many tests
 * as sources.  uk_symbols_parse_under(s, path) parses the files under
 * path (a directory or a file of the tree, as a focus is) whatever they
 * are: call it before adding files, once per path, for a focus that may
 * be under tests/ or docs/.
 */
void uk_symbols_parse_under(struct uk_symbols *s, const char *path);

/* How the files indexed so far were read. */
struct uk_symbols_counts {
	size_t parsed; /* by tree-sitter */
	size_t lexed;  /* evidence only: references lexed */
	size_t cached; /* tags taken from the tag cache (symcache.h) */
};

void uk_symbols_get_counts(const struct uk_symbols *s,
    struct uk_symbols_counts *c);

/*
 * Take the tags of files from the tag cache sc (symcache.h; not owned, it
 * must outlive the index; NULL: none) when their bytes' SHA-256 is there,
 * and put there the tags of the files parsed.  Streams only
 * (uk_symbols_stream_add, uk_symstream_add_files), not uk_symbols_add.
 * Files lexed (above) are not cached: lexing costs less than reading.
 * The cache is opened with the version uk_symbols_tag_version gives.
 */
struct uk_symcache;
void uk_symbols_set_cache(struct uk_symbols *s, struct uk_symcache *sc);

/* The version of what a tag holds: the grammars, the queries, the format. */
const char *uk_symbols_tag_version(void);

/* Files indexed, definitions and references found so far. */
size_t uk_symbols_nfiles(const struct uk_symbols *s);
size_t uk_symbols_ndefs(const struct uk_symbols *s);
size_t uk_symbols_nrefs(const struct uk_symbols *s);
/* How many of the files added are path or under it (a focus's files). */
size_t uk_symbols_nfiles_under(const struct uk_symbols *s, const char *path);

/* The token count of s[0..len) in cl100k_base (uk_tokens_count). */
size_t uk_symbols_tokens(const char *s, size_t len);

/* How a map is made. */
struct uk_symbols_opts {
	long budget;                 /* tokens; < 0 for no limit */
	enum uk_tokenizer tokenizer; /* how budget is counted */
	/*
	 * A path in the tree (a directory or a file, no leading or trailing
	 * slash), as in a /tree/BRANCH/PATH URL: PageRank's teleport goes to
	 * the files under it, so the map centres there.  NULL or "": none.
	 */
	const char *focus;
};

#define UK_SYMBOLS_OPTS_INIT { UK_SYMBOLS_TOKENS, UK_TOKENS_CL100K, NULL }

/*
 * Append the map to out, at most o->budget tokens of o->tokenizer.  First
 * the manifests, build files and entry points that define little, one path
 * a line, and a blank line; then files in order of rank (best first), each
 * as its path and a colon on a line, then each chosen definition in line
 * order: its whole signature (up to 10 lines, each line prefixed with
 * U+2502, a line over 100 bytes cut with U+2026) under the header of its
 * enclosing class, impl, interface or module, with a line holding U+22EE
 * where lines of the file are skipped; a blank line between files.  A
 * .c file and its header are one part: the header's path leads, and the
 * .c file's definitions follow under its path indented by two spaces.
 * A header's declaration defined in .c files of other units ends with
 * "  // " and their paths (from the header's directory; at most three);
 * a file that defines two or more of the declarations shown but is no
 * heading is listed after the top block's paths with that count.  A
 * file's four or more exception classes are one line ("24 exception
 * classes (A, B, C, ...)") at the best of them, as are its four or more
 * top-level constants ("10 constants (...)").
 * Control characters of paths and signatures are written as \n, \t,
 * \x1b...  The definitions are taken in order of rank; when the next does
 * not fit, later smaller ones are tried, so that the map fills its budget.
 * Ranks are computed when files were added or the focus changed.  Returns
 * the number of definitions shown (0: the map is empty).
 */
size_t uk_symbols_set_map_opts(struct uk_symbols *s,
    const struct uk_symbols_opts *o, struct uk_buf *out);

/* uk_symbols_set_map_opts with budget, cl100k_base and no focus. */
size_t uk_symbols_map(struct uk_symbols *s, long budget, struct uk_buf *out);

/*
 * The definitions of the last uk_symbols_map, best first, as a JSON array
 * of {"file","name","kind","line","rank"} objects, one per definition,
 * with "scope" (the enclosing class, impl, interface or module's name)
 * and "doc" (the doc comment before the definition, or a Python
 * docstring) where there is one, and "defined_in" (the paths of the .c
 * files that define a function a header declares) and "folded" (the
 * exception classes shown as one line with it).  Caller frees it
 * with uk_json_free.
 */
struct yajl_val_s *uk_symbols_json(struct uk_symbols *s);

/*
 * The files of the project and its evidence (not vendored or generated),
 * best first as the map ranks them (a header before its .c file, which
 * shares its rank), into *out (malloc'd; paths owned by s).  Returns
 * their number.
 */
struct uk_symbols_ranked {
	const char *path;
	double rank;
};

size_t uk_symbols_ranked_files(struct uk_symbols *s,
    struct uk_symbols_ranked **out);

/* The path of the file with the highest rank, or NULL when none. */
const char *uk_symbols_top_file(struct uk_symbols *s);

#endif
