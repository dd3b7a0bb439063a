/* SPDX-License-Identifier: MIT */
#ifndef UK_REPO_H
#define UK_REPO_H

/*
 * Fetching a git repository for urlfetch: a snapshot (GitHub archive
 * streamed through libarchive, else a libgit2 clone into a private
 * temporary directory), the README, and the ranked symbol map.
 */

#include "buf.h"
#include "json.h"
#include "tokens.h"
#include "url.h"
#include "util.h"

struct uk_cache;

/*
 * How far uk_repo_fetch has got, for a progress line.  While the snapshot
 * is read (UK_REPO_FETCHING) its files are already being parsed, so
 * indexed and to_index move in both phases; in UK_REPO_INDEXING the
 * snapshot is complete and to_index is final.
 */
enum uk_repo_phase { UK_REPO_FETCHING, UK_REPO_INDEXING };

struct uk_repo_progress {
	enum uk_repo_phase phase;
	unsigned long long received; /* archive bytes received (as sent,
	                                compressed); 0 on the git routes */
	unsigned long files;         /* regular files of the snapshot seen */
	unsigned long kept;          /* source files kept for the map */
	unsigned long indexed;       /* of those, parsed (or failed) */
	unsigned long to_index;      /* of those, handed to the parser */
};

/*
 * Called on the thread that called uk_repo_fetch, often: for each block
 * of the archive received, each file kept, each file parsed, and once
 * when UK_REPO_INDEXING begins.  It should be cheap (a caller drawing a
 * line on a terminal limits its own rate) and must not call back into
 * this module.
 */
typedef void uk_repo_progress_fn(const struct uk_repo_progress *p, void *arg);

struct uk_repo_opts {
	double timeout;               /* whole step, seconds (120) */
	unsigned long long max_bytes; /* snapshot size cap */
	unsigned long max_files;      /* file count cap */
	long map_tokens;              /* symbol map budget (1024); 0: none,
	                                 and nothing is parsed */
	int map_json;                 /* also "symbols": [...] */
	long readme_tokens;           /* README budget (2048); 0: no README */
	enum uk_tokenizer tokenizer;  /* how both budgets count (cl100k) */
	int allow_private;            /* SSRF guard off; local paths read */
	int insecure;                 /* -k */
	int threads;                  /* parsing threads, 0: one per CPU */
	uk_repo_progress_fn *progress; /* NULL: none */
	void *progress_arg;
	/*
	 * Where parsed files' tags are kept by their SHA-256 (symcache.h),
	 * so that a fetch again parses only what changed; NULL: nowhere.
	 */
	struct uk_cache *tag_cache;
	/*
	 * The pack (uk_repo_pack_make): its budget in tokens of tokenizer; 0:
	 * none.  The files' texts are those the map was made of: no parse
	 * more.
	 */
	long pack_tokens;
	/*
	 * Paths of the tree to read (gitignore syntax, as repo_pack.c says):
	 * with any include, only files one of them matches; never a file an
	 * exclude matches.  For the map and the pack alike; not owned.
	 */
	const char *const *include;
	size_t ninclude;
	const char *const *exclude;
	size_t nexclude;
};

/*
 * Defaults: timeout 120 s, max_bytes 256 MiB, max_files 50000,
 * map_tokens UK_SYMBOLS_TOKENS (1024), readme_tokens UK_REPO_README_TOKENS
 * (2048), tokenizer cl100k_base, allow_private from
 * URLKIT_ALLOW_PRIVATE, no progress.
 */
void uk_repo_opts_init(struct uk_repo_opts *o);

/*
 * Fetch the repository that url (classified as u) names, and fill the
 * content record rec: title, description, readme, symbol_map, github_info
 * and, with map_json, symbols.  0, or -1 with err (the caller turns it
 * into the record's error).
 */
int uk_repo_fetch(const struct uk_url *u, const char *url,
    const struct uk_repo_opts *o, yajl_val rec, struct uk_err *err);

/*
 * How the repository is got:
 *
 * - A GitHub repository (u->type UK_URL_GITHUB_REPO): its archive,
 *   $URLKIT_GITHUB_ARCHIVE_URL/OWNER/REPO/tar.gz/REF (REF the branch of
 *   the URL, else HEAD, the default branch), streamed by libcurl through
 *   libarchive into memory: nothing is written to disk.  The token of
 *   URLKIT_GITHUB_TOKEN (or GITHUB_TOKEN) is sent to the archive host
 *   only.  An entry that is absolute or has a ".." component fails the
 *   fetch; symbolic and hard links are never read.
 * - Any other git URL (http, https, git, ssh): libgit2 clones it, bare
 *   (objects only, no working tree), in a child process, into a private
 *   temporary directory (mode 0700 under $TMPDIR) that is removed on
 *   every way out: success, error, time limit, and SIGINT, SIGTERM or
 *   SIGHUP (removed, then the signal is raised again).  The child is
 *   killed at the time limit.  An http or https URL's redirects are
 *   followed first, with libcurl, each hop judged by the guard as on the
 *   http route (UK_HTTP_MAX_REDIRS at most); libgit2 clones the last URL
 *   and follows no redirect to another host.  Files are read from the
 *   tree of HEAD, so symbolic links are never followed.
 * - A local repository (a path, or a file:// URL): opened in place, read
 *   only, from the tree of HEAD; nothing is copied.
 *
 * Source files are parsed as they are read (on o->threads threads), while
 * the rest of the snapshot still arrives; the map is the same as if they
 * were parsed after.
 *
 * Then the README at the root (README.md, README.rst, README.txt,
 * README, any case, in that order) and the source files of the
 * languages of symbols.h, skipping hidden directories, node_modules,
 * vendor, dist and build trees, files over UK_REPO_FILE_MAX bytes and
 * generated or minified files (uk_repo_snap_skip_file).  The caps count
 * every regular file of the snapshot: more than max_files files or max_bytes
 * bytes fails with an error naming the cap.
 */

/*
 * uk_repo_fetch may run in several threads at once; clones by libgit2 run
 * one at a time (they hold the process's SIGINT, SIGTERM and SIGHUP
 * handlers while the child runs).
 */

/* A source file larger than this is not indexed. */
#define UK_REPO_FILE_MAX (1024 * 1024)
/* The README is read up to this many bytes. */
#define UK_REPO_README_MAX (256 * 1024)
/* The README's default budget, in tokens. */
#define UK_REPO_README_TOKENS 2048

/*
 * The README text[0..len) within budget tokens of t, into out (appended):
 * the whole text when it fits, else its longest beginning that ends at a
 * paragraph boundary (a blank line outside fenced code; a line boundary,
 * then a character, when not even the first paragraph fits), followed by
 * a mark line "[README cut: N of M tokens]" (itself inside the budget).
 * Returns the tokens of what was appended; *cut is set to 1 when the text
 * was cut, else 0.
 */
size_t uk_repo_readme_fit(enum uk_tokenizer t, const char *text, size_t len,
    long budget, struct uk_buf *out, int *cut);

/*
 * The description of a README: its first paragraph of prose, skipping
 * headings (ATX, setext and rst), badges and images, HTML, fenced and
 * indented code, lists, tables, rules and rst directives; a paragraph
 * that begins in bold or inline code is prose.  Links become their text;
 * images, HTML tags and emphasis marks go.  Cut at 300 characters with
 * "...".  Appended to out (nothing when there is no such paragraph).
 */
void uk_repo_readme_describe(const char *readme, struct uk_buf *out);

/*
 * Whether a cached content record rec answers a fetch with o: its map and
 * README were made for the same budgets and tokenizer
 * (github_info.map_budget, readme_budget, tokenizer), and it has
 * "symbols" when o asks for them.
 */
int uk_repo_cached_ok(yajl_val rec, const struct uk_repo_opts *o);

/* Whether o's --include and --exclude select path. */
int uk_repo_pack_selected(const struct uk_repo_opts *o, const char *path);

/* Whether url names a git repository for the libgit2 route. */
int uk_repo_is_git_url(const char *url);

/*
 * The README priority of a root file name: 1 README.md, 2 README.rst,
 * 3 README.txt, 4 README (any case), 0 not a README.
 */
int uk_repo_snap_readme_rank(const char *name);

/*
 * Whether the repository path (relative, '/'-separated) lies in a tree
 * that is skipped: a hidden directory, node_modules, vendor, dist, build.
 */
int uk_repo_snap_skip_dir(const char *path);

/*
 * Whether a source file looks generated or minified: by name (*.min.js,
 * *-min.js, *.bundle.js, *.pb.go, *.pb.cc, *.pb.h, *_pb2.py,
 * *_pb2_grpc.py, *.generated.*), or by content when text is not NULL: a
 * "Code generated ... DO NOT EDIT" or "@generated" marker in the first
 * 1 KiB, or lines averaging over 300 bytes in the first 64 KiB with one
 * over 1000 (minified).
 */
int uk_repo_snap_skip_file(const char *path, const char *text,
    size_t len);

#endif
