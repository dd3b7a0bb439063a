/* SPDX-License-Identifier: MIT */
/* The cache's counters: see cache_stats.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cache_remote.h"
#include "cache_stats.h"
#include "json.h"
#include "util.h"
#include "write.h"

#include "banned.h"

/* The stats file is small: anything larger is not ours, and is reset. */
#define STATS_MAX (1 << 20)

static const char *const local_keys[] = { "hits", "misses", "stores",
	"evictions", "errors" };
static const char *const remote_keys[] = { "hits", "misses", "stores",
	"errors", "corrupt" };

/* key of obj as a count, 0 when absent or not one. */
static long long
count_of(yajl_val obj, const char *key)
{
	long long n;

	return uk_json_get_int(obj, key, &n) || n < 0 ? 0 : n;
}

/* The file's object, or a new one with zeros; never NULL. */
static yajl_val
load(const char *dir)
{
	struct uk_buf path = UK_BUF_INIT, b = UK_BUF_INIT;
	yajl_val v = NULL, o, rem;
	char when[40];
	struct stat st;
	size_t i;
	int fd;

	uk_buf_addf(&path, "%s/stats", dir);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size < STATS_MAX) {
		uk_buf_grow(&b, (size_t)st.st_size + 1);
		for (;;) {
			ssize_t n = read(fd, b.buf + b.len, b.alloc - b.len - 1);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0 || b.len + (size_t)n >= STATS_MAX)
				break;
			uk_buf_setlen(&b, b.len + (size_t)n);
			if (b.alloc - b.len < 2)
				uk_buf_grow(&b, 4096);
		}
		v = uk_json_parse(b.buf, b.len, NULL);
	}
	if (fd >= 0)
		close(fd);
	if (v && !YAJL_IS_OBJECT(v)) {
		uk_json_free(v);
		v = NULL;
	}
	/* Rebuilt with every key, in order, from what the file had. */
	o = uk_json_object();
	if (v && uk_json_get_str(v, "zeroed_at")) {
		uk_json_set_str(o, "zeroed_at", uk_json_get_str(v, "zeroed_at"));
	} else {
		uk_util_time_rfc3339(when, sizeof(when));
		uk_json_set_str(o, "zeroed_at", when);
	}
	for (i = 0; i < sizeof(local_keys) / sizeof(local_keys[0]); i++)
		uk_json_set_int(o, local_keys[i], count_of(v, local_keys[i]));
	uk_json_set(o, "remote", uk_json_object());
	rem = uk_json_get(v, "remote");
	if (rem && YAJL_IS_OBJECT(rem)) {
		yajl_val r = uk_json_get(o, "remote"), s, one;
		size_t k, j;

		for (k = 0; k < rem->u.object.len; k++) {
			s = rem->u.object.values[k];
			if (!YAJL_IS_OBJECT(s))
				continue;
			one = uk_json_object();
			for (j = 0;
			     j < sizeof(remote_keys) / sizeof(remote_keys[0]);
			     j++)
				uk_json_set_int(one, remote_keys[j],
				    count_of(s, remote_keys[j]));
			uk_json_set(r, rem->u.object.keys[k], one);
		}
	}
	uk_json_free(v);
	uk_buf_release(&path);
	uk_buf_release(&b);
	return o;
}

/*
 * Hold dir's lock: its descriptor, -2 when dir does not exist (nothing
 * was ever stored: a run that only missed leaves no trace, as a cache
 * directory is made by its first write), or -1 with err.
 */
static int
lock(const char *dir, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	struct stat st;
	int fd;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return -2;
	uk_buf_addf(&path, "%s/stats.lock", dir);
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot lock '%s': %s",
		    path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	uk_buf_release(&path);
	return fd;
}

static int
save(const char *dir, yajl_val o, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	int r;

	uk_json_to_buf(o, &b);
	uk_buf_addch(&b, '\n');
	r = uk_write_file(dir, "stats", b.buf, b.len, -1, err);
	uk_buf_release(&b);
	return r;
}

/* Add n to the count key of obj. */
static void
bump(yajl_val obj, const char *key, unsigned long n)
{
	uk_json_set_int(obj, key, count_of(obj, key) + (long long)n);
}

int
uk_cache_stats_add(const char *dir, const struct uk_cache_counts *local,
    struct uk_cache_remote *remote, struct uk_err *err)
{
	struct uk_cache_remote_count rc;
	yajl_val o, r, s;
	const char *name;
	size_t i;
	int fd, ret;

	if ((fd = lock(dir, err)) < 0)
		return fd == -2 ? 0 : -1;
	o = load(dir);
	bump(o, "hits", local->hits);
	bump(o, "misses", local->misses);
	bump(o, "stores", local->stores);
	bump(o, "evictions", local->evictions);
	bump(o, "errors", local->errors);
	r = uk_json_get(o, "remote");
	for (i = 0; (name = uk_cache_remote_store(remote, i, &rc)); i++) {
		if (!(s = uk_json_get(r, name))) {
			s = uk_json_object();
			uk_json_set(r, name, s);
		}
		bump(s, "hits", rc.hits);
		bump(s, "misses", rc.misses);
		bump(s, "stores", rc.stores);
		bump(s, "errors", rc.errors);
		bump(s, "corrupt", rc.corrupt);
	}
	ret = save(dir, o, err);
	uk_json_free(o);
	close(fd);
	return ret;
}

int
uk_cache_stats_read(const char *dir, yajl_val *rec, struct uk_err *err)
{
	(void)err;
	*rec = load(dir);
	return 0;
}

int
uk_cache_stats_zero(const char *dir, yajl_val *old, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	int fd, r;

	if (old)
		*old = NULL;
	if ((fd = lock(dir, err)) < 0) {
		if (fd == -2 && old)
			*old = load(dir);
		return fd == -2 ? 0 : -1;
	}
	if (old)
		*old = load(dir);
	uk_buf_addf(&path, "%s/stats", dir);
	if (unlink(path.buf) && errno != ENOENT) {
		r = uk_util_err_set(err, UK_EXIT_FAIL, "cannot remove '%s': %s",
		    path.buf, strerror(errno));
	} else {
		yajl_val o = load(dir);

		r = save(dir, o, err);
		uk_json_free(o);
	}
	close(fd);
	uk_buf_release(&path);
	return r;
}
