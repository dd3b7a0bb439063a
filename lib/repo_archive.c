/* SPDX-License-Identifier: MIT */
/*
 * The archive route of a GitHub repository: libcurl's multi interface
 * feeds libarchive, and each entry goes to the snapshot (repo_int.h).
 */
#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "http.h"
#include "netguard.h"
#include "repo.h"
#include "repo_int.h"
#include "url.h"
#include "util.h"

#include "banned.h"

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
		double rem = st->deadline - uk_util_mono_now();

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
		rem = st->deadline - uk_util_mono_now();
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
	uk_repo_snap_report(st->snap);
	return (la_ssize_t)b->len;
}

/* A repository path from an archive entry: drop the top directory. */
static int
entry_path(const char *raw, const char **out, struct uk_err *err)
{
	const char *p = raw, *c;

	if (raw[0] == '/')
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "archive entry '%s' is an absolute path: refused", raw);
	for (c = raw; *c;) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return uk_util_err_set(err, UK_EXIT_FAIL,
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
	return uk_repo_snap_cap_exceeded(s, err) < 0 ? -2 : 0;
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
	int readme = !strchr(path, '/') && uk_repo_snap_readme_rank(path);
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
			if (uk_repo_snap_cap_exceeded(s, err) < 0)
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
			if (uk_repo_snap_cap_exceeded(s, err) < 0)
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
		if (uk_repo_snap_cap_exceeded(s, err) < 0)
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
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot start libcurl");
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
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "time limit of %gs reached fetching '%s'", s->o->timeout,
		    url.buf);
	else if (st.too_big) {
		s->capped = 1; /* what was read is kept (keep_partial) */
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "archive of '%s' is larger than %llu bytes "
		    "(--repo-max-size)",
		    url.buf, s->o->max_bytes);
	}
	else if (guard.refused)
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s': address %s refused (private network; "
		    "URLKIT_ALLOW_PRIVATE=1 allows it)",
		    url.buf, guard.addr);
	else if (st.done && st.result != CURLE_OK)
		uk_util_err_set(err, UK_EXIT_FAIL, "'%s': %s", url.buf,
		    st.curlerr[0] ? st.curlerr : curl_easy_strerror(st.result));
	else
		uk_util_err_set(err, UK_EXIT_FAIL,
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
		v.branch = uk_util_xmemdup(full.buf, cut);
		s->http_status = 0;
		ret = fetch_archive(&v, s, err);
		if (!ret || s->http_status != 404 || s->total_files) {
			/* Read, whole or in part: this is the branch. */
			if (!ret || s->total_files) {
				*branch = v.branch;
				*path = cut < full.len ?
				    uk_util_xstrdup(full.buf + cut + 1) :
				    NULL;
			} else {
				free(v.branch);
			}
			break;
		}
		uk_buf_addf(&tried, "%s'%s'", tried.len ? ", " : "", v.branch);
		free(v.branch);
	}
	if (ret && tried.len && s->http_status == 404 && !s->total_files)
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "%s/%s: no branch at the start of '%s' (tried %s)",
		    u->owner, u->repo, full.buf, tried.buf);
	uk_buf_release(&full);
	uk_buf_release(&tried);
	return ret;
}

int
uk_repo_archive_fetch(const struct uk_url *u, struct snap *s, char **branch,
    char **path, struct uk_err *err)
{
	if (u->branch)
		return fetch_tree(u, s, branch, path, err);
	return fetch_archive(u, s, err);
}
