/* SPDX-License-Identifier: MIT */
/*
 * The snapshot both routes fill (repo_int.h): what it keeps of each file,
 * its caps, its progress, and the parsing that goes on while it arrives.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "repo.h"
#include "repo_int.h"
#include "symbols.h"
#include "util.h"

#include "banned.h"

/* Filters. */

int
uk_repo_snap_readme_rank(const char *name)
{
	static const char *const names[] = { "readme.md", "readme.rst",
		"readme.txt", "readme", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcasecmp(name, names[i]))
			return (int)i + 1;
	return 0;
}

int
uk_repo_snap_skip_dir(const char *path)
{
	static const char *const names[] = { "node_modules", "vendor", "dist",
		"build", NULL };
	const char *p = path, *slash;
	size_t n, i;

	/* Every component but the last (the file's own name). */
	while ((slash = strchr(p, '/'))) {
		n = (size_t)(slash - p);
		if (n && p[0] == '.')
			return 1;
		for (i = 0; names[i]; i++)
			if (n == strlen(names[i]) && !strncmp(p, names[i], n))
				return 1;
		p = slash + 1;
	}
	return 0;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

int
uk_repo_snap_skip_file(const char *path, const char *text, size_t len)
{
	static const char *const suffixes[] = { ".min.js", "-min.js",
		".min.mjs", ".bundle.js", ".pb.go", ".pb.cc", ".pb.h",
		"_pb2.py", "_pb2_grpc.py", NULL };
	const char *base = strrchr(path, '/');
	size_t i, head, lines = 0, longest = 0, cur = 0, scan;

	base = base ? base + 1 : path;
	for (i = 0; suffixes[i]; i++)
		if (ends_with(base, suffixes[i]))
			return 1;
	if (strstr(base, ".generated."))
		return 1;
	if (!text)
		return 0;
	head = len < 1024 ? len : 1024;
	if (memmem(text, head, "@generated", 10))
		return 1;
	{
		const char *cg = memmem(text, head, "Code generated", 14);

		if (cg &&
		    memmem(cg, head - (size_t)(cg - text), "DO NOT EDIT", 11))
			return 1;
	}
	scan = len < 65536 ? len : 65536;
	for (i = 0; i < scan; i++) {
		if (text[i] == '\n') {
			lines++;
			if (cur > longest)
				longest = cur;
			cur = 0;
		} else {
			cur++;
		}
	}
	if (cur > longest)
		longest = cur;
	lines++;
	return longest > 1000 && scan / lines > 300;
}

static void snap_indexed(void *arg, size_t indexed, size_t total);

/*
 * Start parsing while the snapshot arrives, when there is a map to make.
 * The git route calls this only after its clone child has exited: the
 * stream's threads must not exist when the process forks.
 */
/*
 * A source the stream has parsed, freed when no pack reads it again:
 * boost's 125 MB of headers were all held until the parse ended, the
 * step's peak once the ranking's edges shrank.  The stream is done with
 * files in the order they were handed over, so the file is at or after
 * done_at.
 */
static void
snap_text_done(void *arg, const char *path, const char *text)
{
	struct snap *s = arg;
	size_t i;

	for (i = s->done_at; i < s->nfiles; i++)
		if (s->files[i].path == path && s->files[i].text == text) {
			free((char *)s->files[i].text);
			s->files[i].text = NULL;
			s->files[i].len = 0;
			s->done_at = i + 1;
			return;
		}
}

void
uk_repo_snap_stream_start(struct snap *s)
{
	if (!s->sym || s->stream)
		return;
	uk_symbols_set_deadline(s->sym, s->deadline - uk_util_mono_now());
	s->stream = uk_symbols_stream_start(s->sym, s->o->threads);
	uk_symbols_stream_progress(s->stream, snap_indexed, s);
	if (s->o->pack_tokens <= 0)
		uk_symbols_stream_on_done(s->stream, snap_text_done, s);
}

void
uk_repo_snap_report(struct snap *s)
{
	if (s->o->progress)
		s->o->progress(&s->prog, s->o->progress_arg);
}

/* From the symbol stream, on this thread. */
static void
snap_indexed(void *arg, size_t indexed, size_t total)
{
	struct snap *s = arg;

	s->prog.indexed = indexed;
	s->prog.to_index = total;
	uk_repo_snap_report(s);
}

void
uk_repo_snap_drop_texts(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		free((char *)s->files[i].text);
		s->files[i].text = NULL;
		s->files[i].len = 0;
	}
	/*
	 * The heap keeps what is freed (uk_util_heap_init) and the
	 * ranking's big arrays are mapped apart: give the texts' pages back.
	 */
	malloc_trim(0);
}

void
uk_repo_snap_release(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		free((char *)s->files[i].path);
		free((char *)s->files[i].text);
	}
	free(s->files);
	uk_repo_pack_ignore_release(s);
	free(s->readme);
	free(s->readme_name);
}

int
uk_repo_snap_cap_exceeded(struct snap *s, struct uk_err *err)
{
	if (s->total_files > s->o->max_files || s->total_bytes > s->o->max_bytes)
		s->capped = 1;
	if (s->total_files > s->o->max_files)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "repository has more than %lu files (--repo-max-files)",
		    s->o->max_files);
	if (s->total_bytes > s->o->max_bytes)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "repository is larger than %llu bytes (--repo-max-size)",
		    s->o->max_bytes);
	return 0;
}

/*
 * A regular file of size bytes at path: count it, and say whether to keep
 * it (1: README candidate or source file; read its content and call
 * snap_keep).
 */
int
uk_repo_snap_wants(struct snap *s, const char *path, unsigned long long size)
{
	int r;

	s->total_files++;
	s->total_bytes += size;
	s->prog.files = s->total_files;
	if (!strchr(path, '/') && (r = uk_repo_snap_readme_rank(path)) &&
	    (!s->readme_rank || r < s->readme_rank))
		return 1;
	/* --include and --exclude, .gitignore: the map's and the pack's. */
	if (!uk_repo_pack_selected(s->o, path) || uk_repo_pack_ignored(s, path))
		return 0;
	if (uk_repo_pack_is_gitignore(path))
		return size <= UK_REPO_FILE_MAX;
	/* The index's notes: manifests, licences, .gitattributes. */
	if (s->sym && !uk_symbols_lang(path)) {
		if (uk_symbols_wants_text(path) && size <= UK_REPO_FILE_MAX)
			return 1;
		uk_symbols_note(s->sym, path, NULL, 0);
	}
	if (!uk_symbols_lang(path) || uk_repo_snap_skip_dir(path))
		return 0;
	if (size > UK_REPO_FILE_MAX || uk_repo_snap_skip_file(path, NULL, 0)) {
		s->skipped++;
		return 0;
	}
	return 1;
}

/* Keep path's content (taken over); a source file is parsed meanwhile. */
void
uk_repo_snap_keep(struct snap *s, const char *path, char *text, size_t len)
{
	struct uk_err later;
	int r;

	if (!strchr(path, '/') && (r = uk_repo_snap_readme_rank(path)) &&
	    (!s->readme_rank || r < s->readme_rank)) {
		struct uk_buf b = UK_BUF_INIT;

		if (len > UK_REPO_README_MAX)
			len = uk_buf_utf8_cut(text, UK_REPO_README_MAX);
		uk_buf_add_utf8(&b, text, len);
		free(s->readme);
		free(s->readme_name);
		s->readme = uk_buf_detach(&b, &s->readme_len);
		s->readme_name = uk_util_xstrdup(path);
		s->readme_rank = r;
		free(text);
		return;
	}
	if (uk_repo_pack_is_gitignore(path)) {
		uk_repo_pack_ignore_add(s, path, text, len);
		free(text);
		return;
	}
	if (s->sym && !uk_symbols_lang(path) && uk_symbols_wants_text(path))
		uk_symbols_note(s->sym, path, text, len);
	if (!uk_symbols_lang(path) || uk_repo_snap_skip_file(path, text, len)) {
		if (uk_symbols_lang(path))
			s->skipped++;
		free(text);
		return;
	}
	if (s->nfiles == s->afiles) {
		s->afiles = s->afiles ? 2 * s->afiles : 256;
		s->files =
		    uk_util_xrealloc(s->files, s->afiles * sizeof(*s->files));
	}
	s->files[s->nfiles].path = uk_util_xstrdup(path);
	s->files[s->nfiles].text = text;
	s->files[s->nfiles].len = len;
	s->prog.kept++;
	/* The first error is kept: a query that cannot be used. */
	if (s->stream) {
		r = uk_symbols_stream_add(s->stream, s->files[s->nfiles].path,
		    text, len, s->stream_failed ? &later : &s->stream_err);
		if (r < 0)
			s->stream_failed = 1;
		else if (r > 0)
			s->prog.to_index = ++s->handed;
	}
	s->nfiles++;
	uk_repo_snap_report(s);
}

