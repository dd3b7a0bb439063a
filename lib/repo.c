/* SPDX-License-Identifier: MIT */
/*
 * Repositories for urlfetch: the snapshot (archive or libgit2), the
 * README, and the symbol map.  See repo.h.
 */
#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <git2.h>
#include <git2/sys/stream.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "json.h"
#include "http.h"
#include "netguard.h"
#include "repo.h"
#include "repo_int.h"
#include "symbols.h"
#include "symcache.h"
#include "util.h"

void
uk_repo_opts_init(struct uk_repo_opts *o)
{
	struct uk_netguard g;

	memset(o, 0, sizeof(*o));
	o->timeout = 120;
	o->max_bytes = 256ULL * 1024 * 1024;
	o->max_files = 50000;
	o->map_tokens = UK_SYMBOLS_TOKENS;
	o->readme_tokens = UK_REPO_README_TOKENS;
	o->tokenizer = UK_TOKENS_CL100K;
	uk_netguard_init(&g);
	o->allow_private = g.allow_private;
}

/* Filters. */

int
uk_repo_readme_rank(const char *name)
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
uk_repo_skip_dir(const char *path)
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
uk_repo_skip_file(const char *path, const char *text, size_t len)
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

/* Whether the array a (or NULL) holds the n globs of g, in order. */
static int
same_globs(yajl_val a, const char *const *g, size_t n)
{
	size_t i;

	if (!a || !YAJL_IS_ARRAY(a))
		return n == 0;
	if (a->u.array.len != n)
		return 0;
	for (i = 0; i < n; i++) {
		const char *v = YAJL_IS_STRING(a->u.array.values[i]) ?
		    YAJL_GET_STRING(a->u.array.values[i]) :
		    NULL;

		if (!v || strcmp(v, g[i]))
			return 0;
	}
	return 1;
}

int
uk_repo_cached_ok(yajl_val rec, const struct uk_repo_opts *o)
{
	yajl_val info = uk_json_get(rec, "github_info");
	const char *tok = uk_json_get_str(info, "tokenizer");
	long long budget, readme, pack;

	if (uk_json_get_int(info, "pack_budget", &pack) < 0)
		pack = 0;
	if (pack != o->pack_tokens ||
	    !same_globs(uk_json_get(info, "include"), o->include,
		o->ninclude) ||
	    !same_globs(uk_json_get(info, "exclude"), o->exclude,
		o->nexclude))
		return 0;
	if (uk_json_get_int(info, "map_budget", &budget) < 0 ||
	    budget != o->map_tokens ||
	    uk_json_get_int(info, "readme_budget", &readme) < 0 ||
	    readme != o->readme_tokens || !tok ||
	    strcmp(tok, uk_tokens_name(o->tokenizer)) ||
	    uk_json_get(rec, "truncated"))
		return 0;
	return !o->map_json || uk_json_get(rec, "symbols") != NULL;
}

int
uk_repo_is_git_url(const char *url)
{
	static const char *const schemes[] = { "http://", "https://", "git://",
		"ssh://", "file://", NULL };
	size_t i;

	if (url[0] == '/' || !strncmp(url, "./", 2) ||
	    !strncmp(url, "../", 3) || !strcmp(url, ".") || !strcmp(url, ".."))
		return 1;
	for (i = 0; schemes[i]; i++)
		if (!strncasecmp(url, schemes[i], strlen(schemes[i])))
			return 1;
	return 0;
}


static void snap_indexed(void *arg, size_t indexed, size_t total);

/*
 * Start parsing while the snapshot arrives, when there is a map to make.
 * The git route calls this only after its clone child has exited: the
 * stream's threads must not exist when the process forks.
 */
void
uk_repo_snap_stream_start(struct snap *s)
{
	if (!s->sym || s->stream)
		return;
	uk_symbols_set_deadline(s->sym, s->deadline - uk_mono_now());
	s->stream = uk_symbols_stream_start(s->sym, s->o->threads);
	uk_symbols_stream_progress(s->stream, snap_indexed, s);
}

static void
snap_report(struct snap *s)
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
	snap_report(s);
}

static void
snap_release(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->nfiles; i++) {
		free((char *)s->files[i].path);
		free((char *)s->files[i].text);
	}
	free(s->files);
	uk_repo_ignore_release(s);
	free(s->readme);
	free(s->readme_name);
}

int
uk_repo_cap_exceeded(struct snap *s, struct uk_err *err)
{
	if (s->total_files > s->o->max_files || s->total_bytes > s->o->max_bytes)
		s->capped = 1;
	if (s->total_files > s->o->max_files)
		return uk_err_set(err, UK_EXIT_FAIL,
		    "repository has more than %lu files (--repo-max-files)",
		    s->o->max_files);
	if (s->total_bytes > s->o->max_bytes)
		return uk_err_set(err, UK_EXIT_FAIL,
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
	if (!strchr(path, '/') && (r = uk_repo_readme_rank(path)) &&
	    (!s->readme_rank || r < s->readme_rank))
		return 1;
	/* --include and --exclude, .gitignore: the map's and the pack's. */
	if (!uk_repo_selected(s->o, path) || uk_repo_ignored(s, path))
		return 0;
	if (uk_repo_is_gitignore(path))
		return size <= UK_REPO_FILE_MAX;
	/* The index's notes: manifests, licences, .gitattributes. */
	if (s->sym && !uk_symbols_lang(path)) {
		if (uk_symbols_wants_text(path) && size <= UK_REPO_FILE_MAX)
			return 1;
		uk_symbols_note(s->sym, path, NULL, 0);
	}
	if (!uk_symbols_lang(path) || uk_repo_skip_dir(path))
		return 0;
	if (size > UK_REPO_FILE_MAX || uk_repo_skip_file(path, NULL, 0)) {
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

	if (!strchr(path, '/') && (r = uk_repo_readme_rank(path)) &&
	    (!s->readme_rank || r < s->readme_rank)) {
		struct uk_buf b = UK_BUF_INIT;

		if (len > UK_REPO_README_MAX)
			len = uk_utf8_cut(text, UK_REPO_README_MAX);
		uk_buf_add_utf8(&b, text, len);
		free(s->readme);
		free(s->readme_name);
		s->readme = uk_buf_detach(&b, &s->readme_len);
		s->readme_name = uk_xstrdup(path);
		s->readme_rank = r;
		free(text);
		return;
	}
	if (uk_repo_is_gitignore(path)) {
		uk_repo_ignore_add(s, path, text, len);
		free(text);
		return;
	}
	if (s->sym && !uk_symbols_lang(path) && uk_symbols_wants_text(path))
		uk_symbols_note(s->sym, path, text, len);
	if (!uk_symbols_lang(path) || uk_repo_skip_file(path, text, len)) {
		if (uk_symbols_lang(path))
			s->skipped++;
		free(text);
		return;
	}
	if (s->nfiles == s->afiles) {
		s->afiles = s->afiles ? 2 * s->afiles : 256;
		s->files = uk_xrealloc(s->files, s->afiles * sizeof(*s->files));
	}
	s->files[s->nfiles].path = uk_xstrdup(path);
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
	snap_report(s);
}

/* The archive route: libcurl's multi interface feeds libarchive. */

struct stream {
	struct snap *snap;
	CURLM *multi;
	CURL *easy;
	struct uk_buf buf[2]; /* filled by curl; one is libarchive's */
	int fill;
	int running, done, timed_out, too_big;
	CURLcode result;
	double deadline;
	unsigned long long received, max;
	char curlerr[CURL_ERROR_SIZE];
};

static size_t
stream_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct stream *st = arg;
	size_t n = size * nmemb;

	st->received += n;
	if (st->received > st->max) {
		st->too_big = 1;
		return 0;
	}
	uk_buf_add(&st->buf[st->fill], data, n);
	return n;
}

static la_ssize_t
stream_read(struct archive *a, void *arg, const void **out)
{
	struct stream *st = arg;
	struct uk_buf *b;

	/* The block handed out last time is no longer needed. */
	uk_buf_reset(&st->buf[!st->fill]);
	b = &st->buf[st->fill];
	while (!b->len && !st->done) {
		CURLMsg *msg;
		int left;
		double rem = st->deadline - uk_mono_now();

		if (rem <= 0) {
			st->timed_out = 1;
			archive_set_error(a, ETIMEDOUT, "time limit reached");
			return -1;
		}
		if (curl_multi_perform(st->multi, &st->running) != CURLM_OK) {
			archive_set_error(a, EIO, "curl multi failed");
			return -1;
		}
		while ((msg = curl_multi_info_read(st->multi, &left)))
			if (msg->msg == CURLMSG_DONE) {
				st->done = 1;
				st->result = msg->data.result;
			}
		if (b->len || st->done)
			break;
		rem = st->deadline - uk_mono_now();
		curl_multi_poll(st->multi, NULL, 0,
		    rem > 1 ? 1000 : (int)(rem * 1000) + 1, NULL);
	}
	if (!b->len) {
		if (st->result != CURLE_OK) {
			archive_set_error(a, EIO, "%s",
			    st->curlerr[0] ? st->curlerr :
					     curl_easy_strerror(st->result));
			return -1;
		}
		return 0;
	}
	*out = b->buf;
	st->fill = !st->fill;
	st->snap->prog.received = st->received;
	snap_report(st->snap);
	return (la_ssize_t)b->len;
}

/* A repository path from an archive entry: drop the top directory. */
static int
entry_path(const char *raw, const char **out, struct uk_err *err)
{
	const char *p = raw, *c;

	if (raw[0] == '/')
		return uk_err_set(err, UK_EXIT_FAIL,
		    "archive entry '%s' is an absolute path: refused", raw);
	for (c = raw; *c;) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return uk_err_set(err, UK_EXIT_FAIL,
			    "archive entry '%s' leaves the repository: "
			    "refused",
			    raw);
		c += n;
		while (*c == '/')
			c++;
	}
	/* GitHub's archives hold everything under OWNER-REPO-SHA/. */
	c = strchr(p, '/');
	*out = c ? c + 1 : p;
	return 0;
}

/*
 * The limits on what an archive entry decompresses to.  The sizes in the
 * headers cannot be trusted (a zip entry with a data descriptor has none
 * until its end, a tar.gz may understate), so the bytes are counted as
 * libarchive hands them over: what goes beyond the size snap_wants counted
 * is added to the repository's total, checked against max_bytes at every
 * chunk, and a file kept is dropped (as skipped) past UK_REPO_FILE_MAX,
 * or a README cut at UK_REPO_README_MAX, while the rest is read on and
 * counted.  -2 with err when the total is over its limit, -1 on a read
 * error (libarchive's), 0 done.
 */
static int
entry_count(struct snap *s, unsigned long long declared,
    unsigned long long *seen, size_t n, struct uk_err *err)
{
	unsigned long long before = *seen;

	*seen += n;
	if (*seen > declared)
		s->total_bytes += *seen - (before > declared ? before : declared);
	return uk_repo_cap_exceeded(s, err) < 0 ? -2 : 0;
}

static int
entry_drain(struct archive *a, struct snap *s, unsigned long long declared,
    struct uk_err *err)
{
	char chunk[65536];
	unsigned long long seen = 0;
	la_ssize_t n;

	while ((n = archive_read_data(a, chunk, sizeof(chunk))) > 0)
		if (entry_count(s, declared, &seen, (size_t)n, err) < 0)
			return -2;
	return n < 0 ? -1 : 0;
}

static int
entry_read(struct archive *a, struct snap *s, const char *path,
    unsigned long long declared, struct uk_err *err)
{
	struct uk_buf data = UK_BUF_INIT;
	char chunk[65536];
	unsigned long long seen = 0;
	int readme = !strchr(path, '/') && uk_repo_readme_rank(path);
	size_t limit = readme ? UK_REPO_README_MAX : UK_REPO_FILE_MAX;
	int over = 0;
	la_ssize_t n;
	size_t dl;
	char *t;

	/*
	 * The size the header declares, within the limit, is made room for
	 * at once, and the data read straight into it: no copy through
	 * chunk and no growing (the reading thread is the one that feeds
	 * the parsing threads; these copies were 6% of its time).
	 */
	if (declared && declared <= limit)
		uk_buf_grow(&data, (size_t)declared);
	for (;;) {
		char *to = chunk;
		size_t room = sizeof(chunk);

		if (!over && data.alloc > data.len + 1) {
			to = data.buf + data.len;
			room = data.alloc - data.len - 1;
		}
		if ((n = archive_read_data(a, to, room)) <= 0)
			break;
		if (entry_count(s, declared, &seen, (size_t)n, err) < 0) {
			uk_buf_release(&data);
			return -2;
		}
		if (over)
			continue;
		if (data.len + (size_t)n > limit && !readme) {
			/* Past the per-file rule: not kept, read on. */
			over = 1;
			uk_buf_release(&data);
			continue;
		}
		if (to != chunk) {
			/* Read in place; a readme past its limit is cut. */
			uk_buf_setlen(&data, data.len + (size_t)n > limit ?
				limit :
				data.len + (size_t)n);
		} else {
			uk_buf_add(&data, chunk,
			    data.len + (size_t)n > limit ? limit - data.len :
							   (size_t)n);
		}
		over = readme && data.len >= limit;
	}
	if (n < 0) {
		uk_buf_release(&data);
		return -1;
	}
	if (over && !readme) {
		s->skipped++;
		return 0;
	}
	t = uk_buf_detach(&data, &dl);
	uk_repo_snap_keep(s, path, t, dl);
	return 0;
}

/*
 * Read the archive's entries into the snapshot: 0 at its end, 1 when the
 * archive cannot be read on (the caller says why), -1 with err (a limit,
 * the time, a path refused).
 */
static int
read_entries(struct archive *a, struct snap *s, struct uk_err *err)
{
	struct archive_entry *e;
	int r;

	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		const char *path = NULL;
		const char *name = archive_entry_pathname_utf8(e);
		la_int64_t size = archive_entry_size(e);

		/*
		 * libarchive gives no name it cannot convert to the
		 * locale's charset (a zip entry flagged UTF-8, in the C
		 * locale the programs run in): its UTF-8 form first, else
		 * the bytes as they are.  An entry with neither is not
		 * read, its bytes still counted.
		 */
		if (!name)
			name = archive_entry_pathname(e);
		if (!name) {
			s->total_files++;
			s->skipped++;
			if (uk_repo_cap_exceeded(s, err) < 0)
				return -1;
			if ((r = entry_drain(a, s, 0, err)) == -2)
				return -1;
			if (r < 0)
				return 1;
			continue;
		}
		if (entry_path(name, &path, err) < 0)
			return -1;
		/* Only regular files: links are never read nor followed. */
		if (archive_entry_filetype(e) != AE_IFREG ||
		    archive_entry_hardlink(e) || !*path)
			continue;
		if (size < 0 || !archive_entry_size_is_set(e))
			size = 0;
		if (!uk_repo_snap_wants(s, path, (unsigned long long)size)) {
			if (uk_repo_cap_exceeded(s, err) < 0)
				return -1;
			/* Read through all the same: a size the header does
			 * not give (a zip entry with a data descriptor) or
			 * understates counts as it is decompressed. */
			if ((r = entry_drain(a, s, (unsigned long long)size,
				 err)) == -2)
				return -1;
			if (r < 0)
				return 1;
			continue;
		}
		if (uk_repo_cap_exceeded(s, err) < 0)
			return -1;
		if ((r = entry_read(a, s, path, (unsigned long long)size,
			 err)) == -2)
			return -1;
		if (r < 0)
			return 1;
	}
	return r == ARCHIVE_EOF ? 0 : 1;
}

static int
fetch_archive(const struct uk_url *u, struct snap *s, struct uk_err *err)
{
	const char *base = getenv("URLKIT_GITHUB_ARCHIVE_URL");
	const char *token = getenv("URLKIT_GITHUB_TOKEN");
	struct uk_buf url = UK_BUF_INIT, hdr = UK_BUF_INIT;
	struct curl_slist *headers = NULL;
	struct stream st;
	struct archive *a = NULL;
	struct uk_netguard guard;
	struct uk_http_easy eo = { 0 };
	char *esc = NULL;
	int ret = -1, r;

	if (!base || !*base)
		base = "https://codeload.github.com";
	if (!token || !*token)
		token = getenv("GITHUB_TOKEN");
	uk_buf_addstr(&url, base);
	while (url.len && url.buf[url.len - 1] == '/')
		uk_buf_setlen(&url, url.len - 1);
	memset(&st, 0, sizeof(st));
	st.snap = s;
	uk_buf_init(&st.buf[0], 0);
	uk_buf_init(&st.buf[1], 0);
	st.deadline = s->deadline;
	st.max = s->o->max_bytes;
	uk_netguard_init(&guard);
	if (s->o->allow_private)
		guard.allow_private = 1;
	eo.follow = 1;
	eo.max_redirs = 5;
	eo.user_agent = "urlkit/" UK_VERSION;
	eo.insecure = s->o->insecure;
	eo.errbuf = st.curlerr;
	eo.guard = &guard;
	st.easy = uk_http_easy_new(&eo);
	st.multi = curl_multi_init();
	if (!st.multi) {
		uk_err_set(err, UK_EXIT_FATAL, "cannot start libcurl");
		goto out;
	}
	esc = curl_easy_escape(st.easy, u->owner, 0);
	uk_buf_addf(&url, "/%s/", esc);
	curl_free(esc);
	esc = curl_easy_escape(st.easy, u->repo, 0);
	uk_buf_addf(&url, "%s/tar.gz/", esc);
	curl_free(esc);
	esc = NULL;
	uk_buf_addstr(&url, u->branch ? u->branch : "HEAD");

	curl_easy_setopt(st.easy, CURLOPT_URL, url.buf);
	curl_easy_setopt(st.easy, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(st.easy, CURLOPT_WRITEFUNCTION, stream_write);
	curl_easy_setopt(st.easy, CURLOPT_WRITEDATA, &st);
	if (token && *token) {
		/* curl drops it when a redirect leaves the host. */
		uk_buf_addf(&hdr, "Authorization: Bearer %s", token);
		headers = curl_slist_append(NULL, hdr.buf);
		curl_easy_setopt(st.easy, CURLOPT_HTTPHEADER, headers);
	}
	curl_multi_add_handle(st.multi, st.easy);

	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip_streamable(a);
	if (archive_read_open(a, &st, NULL, stream_read, NULL) != ARCHIVE_OK)
		goto fail;
	if ((r = read_entries(a, s, err)) < 0)
		goto out;
	if (r > 0)
		goto fail;
	ret = 0;
	goto out;
fail:
	if (st.timed_out)
		uk_err_set(err, UK_EXIT_FAIL,
		    "time limit of %gs reached fetching '%s'", s->o->timeout,
		    url.buf);
	else if (st.too_big) {
		s->capped = 1; /* what was read is kept (keep_partial) */
		uk_err_set(err, UK_EXIT_FAIL,
		    "archive of '%s' is larger than %llu bytes "
		    "(--repo-max-size)",
		    url.buf, s->o->max_bytes);
	}
	else if (guard.refused)
		uk_err_set(err, UK_EXIT_FAIL,
		    "'%s': address %s refused (private network; "
		    "URLKIT_ALLOW_PRIVATE=1 allows it)",
		    url.buf, guard.addr);
	else if (st.done && st.result != CURLE_OK)
		uk_err_set(err, UK_EXIT_FAIL, "'%s': %s", url.buf,
		    st.curlerr[0] ? st.curlerr : curl_easy_strerror(st.result));
	else
		uk_err_set(err, UK_EXIT_FAIL,
		    "'%s': not a readable archive: %s", url.buf,
		    a ? archive_error_string(a) : "?");
out:
	if (st.easy)
		curl_easy_getinfo(st.easy, CURLINFO_RESPONSE_CODE, &s->http_status);
	if (a)
		archive_read_free(a);
	if (st.multi && st.easy)
		curl_multi_remove_handle(st.multi, st.easy);
	if (st.easy)
		curl_easy_cleanup(st.easy);
	if (st.multi)
		curl_multi_cleanup(st.multi);
	curl_slist_free_all(headers);
	uk_buf_release(&st.buf[0]);
	uk_buf_release(&st.buf[1]);
	uk_buf_release(&url);
	uk_buf_release(&hdr);
	return ret;
}

/* The record. */

/*
 * The GitHub route with a /tree/ URL: BRANCH/PATH split where the host
 * knows the branch.  A branch may hold slashes, so each prefix of
 * BRANCH/PATH ending at a slash is tried, shortest first: git forbids a
 * ref that is a directory of another ("a" and "a/b"), so at most one
 * prefix is a branch and the order only saves requests (the usual URL,
 * whose branch has no slash, costs one).  A prefix that the host answers
 * 404 is not a branch; any other failure ends the search.  On success
 * *branch and *path (NULL: none) are set, allocated.
 */
#define MAX_REF_TRIES 8

static int
fetch_tree(const struct uk_url *u, struct snap *s, char **branch,
    char **path, struct uk_err *err)
{
	struct uk_buf full = UK_BUF_INIT, tried = UK_BUF_INIT;
	struct uk_url v = *u;
	size_t cut;
	int ret = -1, tries = 0;

	uk_buf_addstr(&full, u->branch);
	if (u->file && *u->file)
		uk_buf_addf(&full, "/%s", u->file);
	while (full.len && full.buf[full.len - 1] == '/')
		uk_buf_setlen(&full, full.len - 1);
	for (cut = 0; cut <= full.len && tries < MAX_REF_TRIES; cut++) {
		if (cut < full.len && full.buf[cut] != '/')
			continue;
		if (!cut)
			continue;
		tries++;
		v.branch = uk_xmemdup(full.buf, cut);
		s->http_status = 0;
		ret = fetch_archive(&v, s, err);
		if (!ret || s->http_status != 404 || s->total_files) {
			/* Read, whole or in part: this is the branch. */
			if (!ret || s->total_files) {
				*branch = v.branch;
				*path = cut < full.len ?
				    uk_xstrdup(full.buf + cut + 1) : NULL;
			} else {
				free(v.branch);
			}
			break;
		}
		uk_buf_addf(&tried, "%s'%s'", tried.len ? ", " : "", v.branch);
		free(v.branch);
	}
	if (ret && tried.len && s->http_status == 404 && !s->total_files)
		uk_err_set(err, UK_EXIT_FAIL,
		    "%s/%s: no branch at the start of '%s' (tried %s)",
		    u->owner, u->repo, full.buf, tried.buf);
	uk_buf_release(&full);
	uk_buf_release(&tried);
	return ret;
}

/*
 * A fetch that failed at a limit (a cap, the time limit) after reading
 * something goes on with what it read: the reason into why, 1.
 */
static int
keep_partial(const struct snap *s, const struct uk_err *err,
    struct uk_buf *why)
{
	if (!(s->capped || uk_mono_now() >= s->deadline) || !s->total_files)
		return 0;
	uk_buf_addstr(why, err->msg);
	return 1;
}

/*
 * The map of sym for o.  With the options of symbols.h (the ranking's
 * branch), the tokenizer and the focus path go to it; without them, the
 * budget only (counted as bytes / 4 there).
 */
static void
make_map(struct uk_symbols *sym, const struct uk_repo_opts *o,
    const char *focus, struct uk_buf *map)
{
	struct uk_symbols_opts so = UK_SYMBOLS_OPTS_INIT;

	so.budget = o->map_tokens;
	so.tokenizer = o->tokenizer;
	so.focus = focus;
	uk_symbols_map_opts(sym, &so, map);
}

/*
 * Tests and docs are lexed, not parsed (symbols.h), unless under the
 * focus: which part of /tree/A/B/C is the path is known only once the
 * archive of a branch arrives, so every candidate (B/C, C) is parsed.
 */
static void
parse_focus(struct uk_symbols *sym, const struct uk_url *u)
{
	struct uk_buf full = UK_BUF_INIT;
	size_t i;

	if (!u->branch)
		return;
	uk_buf_addstr(&full, u->branch);
	if (u->file && *u->file)
		uk_buf_addf(&full, "/%s", u->file);
	for (i = 0; i < full.len; i++)
		if (full.buf[i] == '/' && full.buf[i + 1])
			uk_symbols_parse_under(sym, full.buf + i + 1);
	uk_buf_release(&full);
}

/*
 * The tag cache of the repository, set on sym: one entry per repository,
 * whatever the branch or path (u: a GitHub repository, else url names it).
 */
static struct uk_symcache *
open_tags(struct uk_symbols *sym, const struct uk_repo_opts *o,
    const struct uk_url *u, const char *url)
{
	struct uk_buf key = UK_BUF_INIT;
	struct uk_symcache *tags;

	if (u)
		uk_buf_addf(&key, "https://github.com/%s/%s", u->owner,
		    u->repo);
	else
		uk_buf_addstr(&key, url);
	tags = uk_symcache_open(o->tag_cache, key.buf,
	    uk_symbols_tags_version());
	uk_symbols_set_cache(sym, tags);
	uk_buf_release(&key);
	return tags;
}

/*
 * A git URL, or a local repository (a path or file://): the snapshot into
 * s, *route and the title (the last path component less ".git").  0, or
 * -1 with err; a partial snapshot is kept with the reason in why.
 */
static int
fetch_git_url_1(const char *url, struct snap *s, const char **route,
    struct uk_buf *title, struct uk_buf *why, struct uk_err *err)
{
	const char *b, *e;
	char *real = NULL;

	if (url[0] == '/' || url[0] == '.' ||
	    !strncasecmp(url, "file://", 7)) {
		*route = "local";
		/*
		 * A path or file:// reads this machine's files: like
		 * loopback addresses, only when the guard is off, so
		 * an agent's input cannot read a local repository.
		 */
		if (!s->o->allow_private) {
			uk_err_set(err, UK_EXIT_FAIL,
			    "'%s': a local repository: refused "
			    "(-P or URLKIT_ALLOW_PRIVATE=1 allows it)",
			    url);
			return -1;
		}
		uk_repo_snap_stream_start(s);
		if (uk_repo_fetch_local(url, s, err) < 0 &&
		    !keep_partial(s, err, why))
			return -1;
	} else {
		*route = "git";
		if (uk_repo_fetch_git(url, s, err) < 0 &&
		    !keep_partial(s, err, why))
			return -1;
	}
	/* The title: the last path component, less ".git". */
	if (!strcmp(*route, "local") && url[0] != 'f' && url[0] != 'F' &&
	    (real = realpath(url, NULL)))
		url = real;
	e = url + strlen(url);
	while (e > url && e[-1] == '/')
		e--;
	b = e;
	while (b > url && b[-1] != '/')
		b--;
	if (e - b > 4 && !strncmp(e - 4, ".git", 4))
		e -= 4;
	uk_buf_add(title, b, (size_t)(e - b));
	free(real);
	return 0;
}

/*
 * libgit2 is started for these routes only: git_libgit2_init loads the
 * system's CA certificates for its TLS (35 to 45 ms of CPU measured on
 * the development machine), which the archive route, through curl, does
 * not need.
 */
static int
fetch_git_url(const char *url, struct snap *s, const char **route,
    struct uk_buf *title, struct uk_buf *why, struct uk_err *err)
{
	int r;

	git_libgit2_init();
	r = fetch_git_url_1(url, s, route, title, why, err);
	git_libgit2_shutdown();
	return r;
}

/* What the fetch found, for repo_record. */
struct fetched {
	const char *route, *branch, *path, *title;
	const char *ref_kind; /* of branch: "tag", ... (uk_repo_ref_kind) */
	long indexed;
	long path_files; /* files indexed under path; -1: not counted */
	const char *why; /* why the snapshot is partial, or NULL */
};

/* github_info.ref: the URL's ref and what it is, or the default branch. */
static void
set_ref(yajl_val info, const char *name, const char *kind)
{
	yajl_val r = uk_json_object();

	if (name)
		uk_json_set_str(r, "name", name);
	uk_json_set_str(r, "type", !name ? "default" : kind ? kind : "unknown");
	uk_json_set(info, "ref", r);
}

/* The globs of --include or --exclude as an array of github_info. */
static void
set_globs(yajl_val info, const char *key, const char *const *g, size_t n)
{
	yajl_val a;
	size_t i;

	if (!n)
		return;
	a = uk_json_array();
	for (i = 0; i < n; i++)
		uk_json_push(a, uk_json_str(g[i]));
	uk_json_set(info, key, a);
}

/*
 * The record's title, description, README (cut to its budget), map,
 * github_info (u: a GitHub repository, else NULL) and truncation.
 */
static void
repo_record(yajl_val rec, const struct uk_url *u, const struct snap *s,
    struct uk_symbols *sym, const struct uk_repo_opts *o,
    const struct uk_buf *map, const struct fetched *f)
{
	struct uk_symbols_counts counts = { 0, 0, 0 };
	struct uk_buf desc = UK_BUF_INIT;
	size_t readme_tokens = 0;
	int readme_cut = 0;
	yajl_val info;

	uk_symbols_get_counts(sym, &counts);

	uk_json_set_str(rec, "title", f->title);
	if (s->readme) {
		struct uk_buf rd = UK_BUF_INIT;

		uk_repo_describe(s->readme, &desc);
		if (desc.len)
			uk_json_set_str(rec, "description", desc.buf);
		readme_tokens = uk_repo_readme_fit(o->tokenizer, s->readme,
		    s->readme_len, o->readme_tokens, &rd, &readme_cut);
		if (rd.len)
			uk_json_set(rec, "readme",
			    uk_json_strn(rd.buf, rd.len));
		uk_buf_release(&rd);
	}
	if (map->len)
		uk_json_set_str(rec, "symbol_map", map->buf);
	info = uk_json_object();
	if (u) {
		uk_json_set_str(info, "owner", u->owner);
		uk_json_set_str(info, "repo", u->repo);
		if (f->branch)
			uk_json_set_str(info, "branch", f->branch);
		set_ref(info, f->branch, f->ref_kind);
		if (f->path)
			uk_json_set_str(info, "path", f->path);
		if (f->path && f->path_files >= 0)
			uk_json_set_int(info, "path_files", f->path_files);
	}
	uk_json_set_str(info, "route", f->route);
	if (s->readme_name)
		uk_json_set_str(info, "readme_file", s->readme_name);
	uk_json_set_int(info, "files", (long long)s->total_files);
	uk_json_set_int(info, "bytes", (long long)s->total_bytes);
	uk_json_set_int(info, "files_indexed", f->indexed);
	uk_json_set_int(info, "files_skipped", (long long)s->skipped);
	uk_json_set_int(info, "files_parsed", (long long)counts.parsed);
	uk_json_set_int(info, "files_lexed", (long long)counts.lexed);
	uk_json_set_int(info, "files_cached", (long long)counts.cached);
	uk_json_set_int(info, "definitions", (long long)uk_symbols_ndefs(sym));
	uk_json_set_int(info, "references", (long long)uk_symbols_nrefs(sym));
	if (uk_symbols_top_file(sym))
		uk_json_set_str(info, "top_file", uk_symbols_top_file(sym));
	uk_json_set_str(info, "tokenizer", uk_tokens_name(o->tokenizer));
	uk_json_set_int(info, "map_tokens",
	    (long long)uk_tokens_count(o->tokenizer, map->buf, map->len));
	uk_json_set_int(info, "map_budget", o->map_tokens);
	uk_json_set_int(info, "readme_tokens", (long long)readme_tokens);
	uk_json_set_int(info, "readme_budget", o->readme_tokens);
	if (readme_cut)
		uk_json_set_bool(info, "readme_cut", 1);
	set_globs(info, "include", o->include, o->ninclude);
	set_globs(info, "exclude", o->exclude, o->nexclude);
	if (o->pack_tokens > 0)
		uk_repo_pack(sym, s, o, f->title, rec, info);
	uk_json_set(rec, "github_info", info);
	if (f->why) {
		uk_json_set_bool(rec, "truncated", 1);
		uk_json_set_str(rec, "truncated_reason", f->why);
	}
	if (o->map_json)
		uk_json_set(rec, "symbols", uk_symbols_json(sym));
	uk_buf_release(&desc);
}

int
uk_repo_fetch(const struct uk_url *u, const char *url,
    const struct uk_repo_opts *o, yajl_val rec, struct uk_err *err)
{
	struct snap s;
	struct uk_symbols *sym = NULL;
	struct uk_symcache *tags = NULL;
	struct uk_buf map = UK_BUF_INIT, title = UK_BUF_INIT;
	struct fetched f;
	const char *route;
	long indexed = 0;
	const char *focus = NULL;
	char *branch = NULL, *path = NULL;
	struct uk_buf why = UK_BUF_INIT; /* why the snapshot is partial */
	int ret = -1,
	    github = u && u->type == UK_URL_GITHUB_REPO && u->owner && u->repo;
	double left;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.deadline = uk_mono_now() + (o->timeout > 0 ? o->timeout : 120);
	s.prog.phase = UK_REPO_FETCHING;
	sym = uk_symbols_new();
	/* A budget of 0 tokens: no map, so nothing to parse. */
	if (o->map_tokens > 0 || o->pack_tokens > 0)
		s.sym = sym;
	if (s.sym && o->tag_cache)
		tags = open_tags(sym, o, github ? u : NULL, url);
	if (github) {
		route = "archive";
		parse_focus(sym, u);
		uk_repo_snap_stream_start(&s);
		if (u->branch ? fetch_tree(u, &s, &branch, &path, err) < 0 :
		    fetch_archive(u, &s, err) < 0) {
			if (!keep_partial(&s, err, &why))
				goto out;
		}
		focus = path;
		uk_buf_addf(&title, "%s/%s", u->owner, u->repo);
	} else if (uk_repo_is_git_url(url)) {
		if (fetch_git_url(url, &s, &route, &title, &why, err) < 0)
			goto out;
	} else {
		uk_err_set(err, UK_EXIT_FAIL, "'%s': not a git repository URL",
		    url);
		goto out;
	}

	left = s.deadline - uk_mono_now();
	if (left <= 0 && !why.len) {
		uk_err_set(err, UK_EXIT_FAIL,
		    "time limit of %gs reached before indexing", o->timeout);
		goto out;
	}
	if (s.stream) {
		struct uk_symbols_stream *st = s.stream;

		s.prog.phase = UK_REPO_INDEXING;
		snap_report(&s);
		s.stream = NULL;
		indexed = uk_symbols_stream_end(st, err);
		if (indexed < 0) {
			/* The time limit: the map of what was parsed. */
			if (uk_mono_now() < s.deadline)
				goto out;
			if (!why.len)
				uk_buf_addstr(&why, err->msg);
			indexed = (long)uk_symbols_nfiles(sym);
		}
		if (s.stream_failed) {
			*err = s.stream_err;
			goto out;
		}
	}
	make_map(sym, o, focus, &map);
	if (tags) {
		struct uk_err terr;

		/* A hint: a cache that cannot be written costs the next run. */
		(void)uk_symcache_save(tags, &terr);
	}
	f.route = route;
	f.branch = branch;
	f.ref_kind = github && branch ?
	    uk_repo_ref_kind(u->owner, u->repo, branch, &s) : NULL;
	f.path = path;
	f.path_files = -1;
	/*
	 * A path that names nothing indexed (a typo, a directory of images)
	 * focuses nothing: say so rather than hand over the whole tree's map
	 * as if it were the path's.
	 */
	if (path && *path && s.sym) {
		f.path_files = (long)uk_symbols_nfiles_under(sym, path);
		if (!f.path_files)
			uk_warn("'%s': no file under '%s' was indexed: the "
			    "map is of the whole tree", url, path);
	}
	f.title = title.buf;
	f.indexed = indexed;
	f.why = why.len ? why.buf : NULL;
	repo_record(rec, github ? u : NULL, &s, sym, o, &map, &f);
	ret = 0;
out:
	/* The parsing threads read the snapshot's texts: stop them first. */
	uk_symbols_stream_cancel(s.stream);
	uk_symbols_free(sym);
	uk_symcache_free(tags);
	snap_release(&s);
	uk_buf_release(&map);
	uk_buf_release(&why);
	free(branch);
	free(path);
	uk_buf_release(&title);
	return ret;
}
