/* SPDX-License-Identifier: MIT */
/* Named sessions of fetched records: see session.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "json.h"
#include "session.h"
#include "util.h"
#include "write.h"

#include "banned.h"

int
uk_session_open(struct uk_session *s, struct uk_cache *c, const char *name,
    struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;

	memset(s, 0, sizeof(*s));
	if (!uk_session_name_ok(name))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "bad session name '%s': use 1-64 of A-Z a-z 0-9 . _ -, "
		    "not starting with a dot",
		    name);
	s->cache = c;
	s->name = uk_util_xstrdup(name);
	uk_buf_addf(&b, "%s/sessions/%s", c->dir, name);
	s->dir = uk_buf_detach(&b, NULL);
	return 0;
}

void
uk_session_release(struct uk_session *s)
{
	free(s->name);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

static char *
entry_path(struct uk_session *s, const char *url, char name[24])
{
	struct uk_buf b = UK_BUF_INIT;
	char key[17];

	uk_cache_key(url, key);
	snprintf(name, 24, "%s.json", key);
	uk_buf_addf(&b, "%s/%s", s->dir, name);
	return uk_buf_detach(&b, NULL);
}

int
uk_session_add(struct uk_session *s, yajl_val rec, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *url;
	char name[24], *path;
	struct stat st;
	long long mtime = -1;
	yajl_val v;
	int r;

	if (!YAJL_IS_OBJECT(rec) || !(url = uk_json_get_str(rec, "url")))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "not a content record: no string 'url'");
	path = entry_path(s, url, name);
	/*
	 * Replacing keeps the place in the order: the old mtime.  A new
	 * record gets the clock's time to the nanosecond: the time the
	 * kernel stamps on a write is coarse (a tick, some milliseconds),
	 * and two adds within a tick listed in the order of their names.
	 */
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		mtime = (long long)st.st_mtim.tv_sec * 1000000000LL +
		    st.st_mtim.tv_nsec;
	else
		mtime = uk_util_time_now_ns();
	v = uk_json_copy(rec);
	uk_json_del(v, "cached");
	uk_json_to_buf(v, &b);
	uk_buf_addch(&b, '\n');
	uk_json_free(v);
	r = uk_write_file(s->dir, name, b.buf, b.len, mtime, err);
	if (r && err && err->code != UK_EXIT_FATAL &&
	    (stat(s->cache->dir, &st) || !S_ISDIR(st.st_mode)))
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "cache directory '%s' is not a directory", s->cache->dir);
	uk_buf_release(&b);
	free(path);
	return r;
}

int
uk_session_get(struct uk_session *s, const char *url, yajl_val *rec,
    struct uk_err *err)
{
	char name[24], *path = entry_path(s, url, name);
	struct uk_err e;
	const char *u;
	int r;

	*rec = NULL;
	r = uk_cache_load(path, NULL, rec, &e);
	free(path);
	if (r < 0) {
		if (e.code == 0)
			return 0; /* absent */
		if (err)
			*err = e;
		return -1;
	}
	if (r == 1 && (!(u = uk_json_get_str(*rec, "url")) || strcmp(u, url))) {
		uk_json_free(*rec);
		*rec = NULL;
		return 0;
	}
	return r;
}

int
uk_session_content(struct uk_session *s, const char *url, yajl_val *rec,
    struct uk_err *err)
{
	int r;

	if ((r = uk_session_get(s, url, rec, err)) != 0)
		return r;
	r = uk_cache_get(s->cache, url, 0, rec, NULL, err);
	if (r == 1) {
		uk_json_set_bool(*rec, "cached", 1);
		return 2;
	}
	return r;
}

int
uk_session_remove(struct uk_session *s, const char *url, struct uk_err *err)
{
	char name[24], *path = entry_path(s, url, name);
	int r = 1;

	if (unlink(path)) {
		if (errno == ENOENT || errno == ENOTDIR)
			r = 0;
		else
			r = uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot remove '%s': %s", path, strerror(errno));
	}
	free(path);
	return r;
}

/* Whether name is KEY.json. */
static int
is_entry(const char *name)
{
	size_t i;

	if (strlen(name) != 21 || strcmp(name + 16, ".json"))
		return 0;
	for (i = 0; i < 16; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
			(name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return 1;
}

long
uk_session_remove_all(struct uk_session *s, struct uk_err *err)
{
	struct dirent *d;
	DIR *dir;
	long n = 0;

	if (!(dir = opendir(s->dir))) {
		if (errno == ENOENT)
			return 0;
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot open '%s': %s", s->dir, strerror(errno));
	}
	while ((d = readdir(dir)))
		if ((is_entry(d->d_name) ||
			(d->d_name[0] == '.' &&
			    strstr(d->d_name, ".json.tmp."))) &&
		    !unlinkat(dirfd(dir), d->d_name, 0) && d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

struct item {
	long long mtime;
	char name[24];
};

static int
by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->name, y->name);
}

int
uk_session_list(struct uk_session *s, yajl_val *list, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	struct item *items = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *d;
	struct stat st;
	yajl_val rec;
	DIR *dir;

	*list = uk_json_array();
	if (!(dir = opendir(s->dir))) {
		if (errno == ENOENT)
			return 0;
		uk_json_free(*list);
		*list = NULL;
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot open '%s': %s", s->dir, strerror(errno));
	}
	while ((d = readdir(dir))) {
		if (!is_entry(d->d_name) ||
		    fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			items = uk_util_xrealloc(items, alloc * sizeof(*items));
		}
		items[n].mtime = (long long)st.st_mtim.tv_sec * 1000000000LL +
		    st.st_mtim.tv_nsec;
		memcpy(items[n].name, d->d_name, 22);
		n++;
	}
	closedir(dir);
	if (n)
		qsort(items, n, sizeof(*items), by_time);
	for (i = 0; i < n; i++) {
		uk_buf_reset(&path);
		uk_buf_addf(&path, "%s/%s", s->dir, items[i].name);
		if (uk_cache_load(path.buf, NULL, &rec, NULL) == 1)
			uk_json_push(*list, rec);
	}
	free(items);
	uk_buf_release(&path);
	return 0;
}

int
uk_session_exists(struct uk_session *s, struct uk_err *err)
{
	struct stat st;

	if (lstat(s->dir, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot read '%s': %s", s->dir, strerror(errno));
	}
	return S_ISDIR(st.st_mode);
}

int
uk_session_keep(struct uk_session *s, struct uk_err *err)
{
	return uk_write_file(s->dir, ".keep", "", 0, -1, err);
}

int
uk_session_stat(struct uk_session *s, struct uk_session_stat *st,
    struct uk_err *err)
{
	struct stat sb;
	struct dirent *d;
	DIR *dir;

	memset(st, 0, sizeof(*st));
	if (!(dir = opendir(s->dir)))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot open '%s': %s", s->dir, strerror(errno));
	if (fstat(dirfd(dir), &sb) == 0)
		st->changed = (long long)sb.st_mtim.tv_sec * 1000000000LL +
		    sb.st_mtim.tv_nsec;
	while ((d = readdir(dir))) {
		if (!strcmp(d->d_name, ".keep")) {
			st->keep = 1;
			continue;
		}
		if (!is_entry(d->d_name) ||
		    fstatat(dirfd(dir), d->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(sb.st_mode))
			continue;
		st->records++;
		st->bytes += sb.st_size;
	}
	closedir(dir);
	st->expired = !st->keep &&
	    st->changed + s->cache->ttl * 1000000000LL <= uk_util_time_now_ns();
	return 0;
}

long
uk_session_delete(struct uk_session *s, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	long n;

	if ((n = uk_session_remove_all(s, err)) < 0)
		return -1;
	uk_buf_addf(&b, "%s/.keep", s->dir);
	if (unlink(b.buf) && errno != ENOENT && errno != ENOTDIR) {
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot remove '%s': %s",
		    b.buf, strerror(errno));
		uk_buf_release(&b);
		return -1;
	}
	uk_buf_release(&b);
	/* Anything else left in it (a file someone put there) keeps the
	 * directory: rmdir fails with ENOTEMPTY and that is no error. */
	if (rmdir(s->dir) && errno != ENOENT && errno != ENOTEMPTY &&
	    errno != EEXIST)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot remove '%s': %s", s->dir, strerror(errno));
	return n;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
uk_session_walk(struct uk_cache *c, int (*fn)(void *ctx, const char *name),
    void *ctx, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int r = 0;

	uk_buf_addf(&b, "%s/sessions", c->dir);
	dir = opendir(b.buf);
	if (!dir) {
		if (errno == ENOENT)
			r = 0;
		else
			r = uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot open '%s': %s", b.buf, strerror(errno));
		uk_buf_release(&b);
		return r;
	}
	while ((d = readdir(dir))) {
		if (!uk_session_name_ok(d->d_name) ||
		    fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			names = uk_util_xrealloc(names, alloc * sizeof(*names));
		}
		names[n++] = uk_util_xstrdup(d->d_name);
	}
	closedir(dir);
	uk_buf_release(&b);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		if (!r)
			r = fn(ctx, names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}
