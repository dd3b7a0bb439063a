/* SPDX-License-Identifier: MIT */
#ifndef UK_REPO_INT_H
#define UK_REPO_INT_H

/*
 * Private to lib/repo*.c: the snapshot being taken (repo_snap.c), filled
 * by the archive route (repo_archive.c) or the libgit2 route (repo_git.c:
 * a clone or a local repository read from the tree of HEAD), and made a
 * record by repo.c.  Calls go one way: repo.c calls the routes, the
 * routes call the snapshot, the snapshot calls repo_pack.c.
 */

#include "repo.h"
#include "symbols.h"
#include "util.h"

/* What the snapshot kept. */
struct snap {
	const struct uk_repo_opts *o;
	double deadline;
	struct uk_symbols_file *files;
	size_t nfiles, afiles;
	char *readme, *readme_name;
	size_t readme_len;
	int readme_rank;
	unsigned long total_files;
	unsigned long long total_bytes;
	unsigned long skipped; /* source files skipped: size, generated */
	/* Parsing while the snapshot arrives (with a map), and its error. */
	struct uk_symbols *sym; /* with a map: where the stream goes */
	struct uk_symbols_stream *stream;
	int stream_failed;
	struct uk_err stream_err;
	unsigned long handed; /* files handed to the stream */
	size_t done_at; /* files before it whose text the stream is done with */
	struct uk_repo_progress prog;
	int capped;       /* a file or size cap stopped the snapshot */
	long http_status; /* of the archive request (404: no such ref) */
	struct ignore *ign; /* the .gitignore patterns read so far */
	size_t nign, aign;
};

/* A pattern of a .gitignore of directory dir ("" at the root, "a/b/"). */
struct ignore {
	char *dir;
	char *pat;
	int neg; /* "!pattern": includes again */
};

/*
 * The .gitignore files (repo_pack.c): whether path is a .gitignore to
 * read; add the patterns of the one at path (text[0..len)); whether the
 * patterns read so far ignore path (the last that matches decides, from
 * the root's down: a tree gives a directory's .gitignore before its
 * other files); free them.
 */
int uk_repo_pack_is_gitignore(const char *path);
void uk_repo_pack_ignore_add(struct snap *s, const char *path, const char *text,
    size_t len);
int uk_repo_pack_ignored(const struct snap *s, const char *path);
void uk_repo_pack_ignore_release(struct snap *s);

/*
 * The snapshot's steps, for both routes (repo_snap.c).  Start parsing
 * while the snapshot arrives, when there is a map to make (the git route
 * calls it only once its clone child has exited: no threads across a
 * fork).  A regular file of size bytes at path: count it, and say whether
 * to keep it (1: a README candidate or a source file; read it and give it
 * to uk_repo_snap_keep, which takes text over).
 * uk_repo_snap_cap_exceeded: -1 with err when the file or byte cap is
 * passed, else 0.  uk_repo_snap_report: hand the progress to o->progress.
 * uk_repo_snap_drop_texts: free the kept files' texts (their paths stay,
 * each text NULL and len 0), once nothing is to read them again: the
 * stream has ended and no pack is wanted.
 * uk_repo_snap_release: free what s kept (not the stream).
 */
void uk_repo_snap_stream_start(struct snap *s);
int uk_repo_snap_wants(struct snap *s, const char *path,
    unsigned long long size);
void uk_repo_snap_keep(struct snap *s, const char *path, char *text,
    size_t len);
int uk_repo_snap_cap_exceeded(struct snap *s, struct uk_err *err);
void uk_repo_snap_report(struct snap *s);
void uk_repo_snap_drop_texts(struct snap *s);
void uk_repo_snap_release(struct snap *s);

/*
 * The archive route (repo_archive.c): the GitHub repository u's archive
 * into s.  With u->branch, a /tree/ URL, BRANCH/PATH is split where the
 * host knows the branch, and *branch and *path (NULL: none) are set,
 * allocated.  0, or -1 with err.
 */
struct uk_url;
int uk_repo_archive_fetch(const struct uk_url *u, struct snap *s,
    char **branch, char **path, struct uk_err *err);

/*
 * The libgit2 route (repo_git.c), filling s: a git URL (http(s), ssh,
 * git) cloned by a child process, its redirects judged first; with local,
 * a local repository (a path or file:// URL) read in place.  0, or -1
 * with err.
 */
int uk_repo_git_fetch(const char *url, int local, struct snap *s,
    struct uk_err *err);

/*
 * What ref (of a /tree/ or /commit/ URL) is to the GitHub repository
 * owner/repo: "branch", "tag" or "commit", as GitHub resolves it (a
 * branch first, then a tag, then a commit id), from the refs its git
 * server advertises (URLKIT_GITHUB_GIT_URL, else https://github.com), or
 * NULL when that cannot be read and ref is no commit id (repo_git.c).
 */
const char *uk_repo_git_ref_kind(const char *owner, const char *repo,
    const char *ref, const struct snap *s);

/*
 * The pack (repo_pack.c): the files of sym whose texts s kept, whole, in
 * rank order within o->pack_tokens, as a Markdown document in rec's
 * "content" (a heading with title, a fenced block per file under its
 * path, the files left out); info (github_info) gets pack_budget,
 * pack_tokens, pack_files and files_ranked (each ranked file's path, rank,
 * tokens and whether it is packed).
 */
struct yajl_val_s;
void uk_repo_pack_make(struct uk_symbols *sym, const struct snap *s,
    const struct uk_repo_opts *o, const char *title, struct yajl_val_s *rec,
    struct yajl_val_s *info);

#endif
