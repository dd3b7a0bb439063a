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
#include "cache_remote.h"
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

/*
 * The remote store (session.h): the session is one value, "urlkit-
 * session:NAME", a line {"changed":NS,"keep":BOOL} then the records, one
 * a line, in the order added.  A change reads it, changes it and writes
 * it back if nobody wrote it meanwhile (uk_cache_remote_replace), else
 * reads it again.
 */
#define REMOTE_PREFIX "urlkit-session:"
#define REMOTE_TRIES 32

struct rsess {
	yajl_val recs; /* the records, an array */
	long long changed;
	int keep;
	long long bytes;
	int deleted; /* a tombstone: the session was deleted */
	char ver[96];
};

static int
remote_on(const struct uk_session *s)
{
	return !s->local_only && uk_cache_remote_count(s->cache->remote) > 0;
}

static void
remote_name(const struct uk_session *s, char name[96])
{
	snprintf(name, 96, REMOTE_PREFIX "%s", s->name);
}

static void
rsess_free(struct rsess *rs)
{
	uk_json_free(rs->recs);
	rs->recs = NULL;
}

/*
 * The session's value into rs (rs->recs always set): 1 found, 0 the
 * store has none, -1 no store or it did not answer.  Lines that do not
 * parse are skipped, as corrupt files are in the directory.
 */
static int
remote_load(struct uk_session *s, struct rsess *rs)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *p, *nl, *end;
	char name[96];
	yajl_val v;
	long long n;
	int r, first = 1;

	memset(rs, 0, sizeof(*rs));
	rs->recs = uk_json_array();
	if (!remote_on(s))
		return -1;
	remote_name(s, name);
	r = uk_cache_remote_fetch(s->cache->remote, name, &b, rs->ver);
	for (p = b.buf, end = b.buf + b.len; r == 1 && p < end; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		v = uk_json_parse(p, (size_t)(nl - p), NULL);
		if (first && YAJL_IS_OBJECT(v)) {
			if (!uk_json_get_int(v, "changed", &n))
				rs->changed = n;
			rs->keep = uk_json_get_bool(v, "keep");
			rs->deleted = uk_json_get_bool(v, "deleted");
		} else if (YAJL_IS_OBJECT(v) && uk_json_get_str(v, "url")) {
			uk_json_push(rs->recs, v);
			rs->bytes += nl - p + 1;
			v = NULL;
		}
		uk_json_free(v);
		first = 0;
	}
	uk_buf_release(&b);
	return r;
}

/* Write rs back, changed now: 1 stored, 0 changed meanwhile, -1. */
static int
remote_save(struct uk_session *s, struct rsess *rs)
{
	struct uk_buf b = UK_BUF_INIT;
	char name[96];
	yajl_val v;
	size_t i;
	int r;

	v = uk_json_object();
	uk_json_set_int(v, "changed", uk_util_time_now_ns());
	uk_json_set_bool(v, "keep", rs->keep);
	if (rs->deleted)
		uk_json_set_bool(v, "deleted", 1);
	uk_json_to_buf(v, &b);
	uk_buf_addch(&b, '\n');
	uk_json_free(v);
	for (i = 0; i < rs->recs->u.array.len; i++) {
		uk_json_to_buf(rs->recs->u.array.values[i], &b);
		uk_buf_addch(&b, '\n');
	}
	remote_name(s, name);
	/* Kept: no expiry; else the cache's TTL from the last change, as
	 * the local directory's. */
	r = uk_cache_remote_replace(s->cache->remote, name, b.buf, b.len,
	    rs->keep && !rs->deleted ? 0 : s->cache->ttl, rs->ver);
	uk_buf_release(&b);
	return r;
}

/* The index of url's record in rs, or -1. */
static long
rsess_find(const struct rsess *rs, const char *url)
{
	const char *u;
	size_t i;

	for (i = 0; i < rs->recs->u.array.len; i++)
		if ((u = uk_json_get_str(rs->recs->u.array.values[i], "url")) &&
		    !strcmp(u, url))
			return (long)i;
	return -1;
}

static void
rsess_drop(struct rsess *rs, size_t i)
{
	yajl_val a = rs->recs;

	uk_json_free(a->u.array.values[i]);
	memmove(a->u.array.values + i, a->u.array.values + i + 1,
	    (a->u.array.len - i - 1) * sizeof(*a->u.array.values));
	a->u.array.len--;
}

/* A change of the remote value: 1 to write it back, 0 to leave it. */
typedef int remote_fn(struct rsess *rs, void *arg, long *out);

static int local_list(struct uk_session *s, yajl_val *list,
    struct uk_err *err);

/*
 * Apply fn to the session's remote value, from the local records when
 * the store has none and seed says so; *out is fn's.  Returns 1 when the
 * store had the session, 0 when not, -1 when it did not answer.
 */
static int
remote_update(struct uk_session *s, remote_fn *fn, void *arg, int seed,
    long *out)
{
	struct uk_buf b = UK_BUF_INIT;
	struct rsess rs;
	struct stat st;
	int i, r = -1, w;

	for (i = 0; i < REMOTE_TRIES; i++) {
		r = remote_load(s, &rs);
		if (r < 0 || (r == 0 && !seed)) {
			rsess_free(&rs);
			break;
		}
		if (r == 0) {
			uk_json_free(rs.recs);
			if (local_list(s, &rs.recs, NULL))
				rs.recs = uk_json_array();
			uk_buf_reset(&b);
			uk_buf_addf(&b, "%s/.keep", s->dir);
			rs.keep = lstat(b.buf, &st) == 0;
		}
		w = fn(&rs, arg, out) ? remote_save(s, &rs) : 1;
		rsess_free(&rs);
		if (w != 0)
			break; /* stored, left alone, or failed (counted) */
	}
	uk_buf_release(&b);
	return r;
}

static int
fn_add(struct rsess *rs, void *arg, long *out)
{
	yajl_val v = uk_json_copy(arg);
	long i = rsess_find(rs, uk_json_get_str(v, "url"));

	(void)out;
	if (rs->deleted)
		rs->keep = rs->deleted = 0; /* a new session */
	uk_json_del(v, "cached");
	if (i < 0) {
		uk_json_push(rs->recs, v);
	} else {
		uk_json_free(rs->recs->u.array.values[i]);
		rs->recs->u.array.values[i] = v;
	}
	return 1;
}

static int
fn_remove(struct rsess *rs, void *arg, long *out)
{
	long i = rsess_find(rs, arg);

	if ((*out = i >= 0))
		rsess_drop(rs, (size_t)i);
	return *out != 0;
}

static int
fn_clear(struct rsess *rs, void *arg, long *out)
{
	(void)arg;
	*out = (long)rs->recs->u.array.len;
	while (rs->recs->u.array.len)
		rsess_drop(rs, rs->recs->u.array.len - 1);
	return 1;
}

static int
fn_keep(struct rsess *rs, void *arg, long *out)
{
	(void)arg;
	(void)out;
	rs->keep = 1;
	rs->deleted = 0;
	return 1;
}

/*
 * Deleting leaves a tombstone for the TTL, not nothing: another host's
 * directory still holds its copy, which a store without the session
 * would let it answer from (a session made before the store was set).
 */
static int
fn_delete(struct rsess *rs, void *arg, long *out)
{
	fn_clear(rs, arg, out);
	if (rs->deleted)
		return 0;
	rs->deleted = 1;
	rs->keep = 0;
	return 1;
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
	if (!r && remote_on(s))
		remote_update(s, fn_add, rec, 1, NULL);
	uk_buf_release(&b);
	free(path);
	return r;
}

int
uk_session_get(struct uk_session *s, const char *url, yajl_val *rec,
    struct uk_err *err)
{
	char name[24], *path;
	struct uk_err e;
	struct rsess rs;
	const char *u;
	long i;
	int r;

	*rec = NULL;
	if ((r = remote_load(s, &rs)) == 1 &&
	    (i = rsess_find(&rs, url)) >= 0)
		*rec = uk_json_copy(rs.recs->u.array.values[i]);
	rsess_free(&rs);
	if (r == 1)
		return *rec != NULL; /* the store's is the session */
	path = entry_path(s, url, name);
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
	long found = 0;
	int r = 1;

	if (unlink(path)) {
		if (errno == ENOENT || errno == ENOTDIR)
			r = 0;
		else
			r = uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot remove '%s': %s", path, strerror(errno));
	}
	free(path);
	if (r >= 0 && remote_on(s) &&
	    remote_update(s, fn_remove, (void *)url, 0, &found) == 1)
		r = found != 0;
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

static long
local_remove_all(struct uk_session *s, struct uk_err *err)
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

long
uk_session_remove_all(struct uk_session *s, struct uk_err *err)
{
	long n, rn = 0;

	if ((n = local_remove_all(s, err)) >= 0 && remote_on(s) &&
	    remote_update(s, fn_clear, NULL, 0, &rn) == 1)
		n = rn;
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
	struct rsess rs;

	if (remote_load(s, &rs) == 1) {
		*list = rs.recs;
		return 0;
	}
	rsess_free(&rs);
	return local_list(s, list, err);
}

static int
local_list(struct uk_session *s, yajl_val *list, struct uk_err *err)
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
	struct rsess rs;
	struct stat st;
	int r = remote_load(s, &rs);

	rsess_free(&rs);
	if (r == 1)
		return !rs.deleted;
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
	if (uk_write_file(s->dir, ".keep", "", 0, -1, err))
		return -1;
	if (remote_on(s))
		remote_update(s, fn_keep, NULL, 1, NULL);
	return 0;
}

int
uk_session_stat(struct uk_session *s, struct uk_session_stat *st,
    struct uk_err *err)
{
	struct rsess rs;
	struct stat sb;
	struct dirent *d;
	DIR *dir;

	memset(st, 0, sizeof(*st));
	if (remote_load(s, &rs) == 1) {
		st->records = (long)rs.recs->u.array.len;
		st->bytes = rs.bytes;
		st->changed = rs.changed;
		st->keep = rs.keep;
		st->store = 1;
		st->deleted = rs.deleted;
		rsess_free(&rs);
		goto expired;
	}
	rsess_free(&rs);
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
expired:
	st->expired = !st->keep &&
	    st->changed + s->cache->ttl * 1000000000LL <= uk_util_time_now_ns();
	return 0;
}

long
uk_session_delete(struct uk_session *s, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	long n, rn = 0;

	if (remote_on(s))
		remote_update(s, fn_delete, NULL, 0, &rn);
	if ((n = local_remove_all(s, err)) < 0)
		return -1;
	if (rn > n)
		n = rn; /* the store's copy is the session */
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
