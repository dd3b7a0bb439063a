/* SPDX-License-Identifier: MIT */
/* The filesystem cache of content records: see cache.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "cache_int.h"
#include "cache_pack.h"
#include "cache_remote.h"
#include "cache_stats.h"
#include "json.h"
#include "sha256.h"
#include "util.h"
#include "write.h"

#include "banned.h"

#define NS        1000000000LL
#define COUNT(c, what) __atomic_add_fetch(&(c)->count.what, 1, __ATOMIC_RELAXED)

static void entry_sum(const void *data, size_t len, char sum[17]);

int
uk_cache_lifetime(yajl_val rec, long life)
{
	char when[40];

	uk_json_del(rec, "expires_at");
	if (life < 0)
		return 1;
	if (life > 0) {
		uk_util_time_fmt(uk_util_time_now_ns() + (long long)life * NS,
		    when, sizeof(when));
		uk_json_set_str(rec, "expires_at", when);
	}
	return 0;
}

int
uk_cache_past_lifetime(yajl_val rec)
{
	const char *x = uk_json_get_str(rec, "expires_at");
	long long t;

	return x && (t = uk_util_time_parse(x, strlen(x))) > 0 &&
	    t <= uk_util_time_now_ns();
}

int
uk_cache_open(struct uk_cache *c, const char *dir, long ttl, struct uk_err *err)
{
	const char *e;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err e2;
	double d;

	c->dir = NULL;
	c->remote = NULL;
	c->count_off = 0;
	c->diff_lines = 0;
	memset(&c->count, 0, sizeof(c->count));
	c->ttl = UK_CACHE_TTL_DEFAULT;
	if (ttl >= 0) {
		c->ttl = ttl;
	} else if ((e = getenv("URLKIT_CACHE_TTL")) && *e) {
		if (uk_util_parse_seconds(e, &d) || d > (double)LONG_MAX)
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "URLKIT_CACHE_TTL: not a duration: '%s'", e);
		c->ttl = (long)d;
	}
	if (dir && *dir)
		uk_buf_addstr(&b, dir);
	else if ((e = getenv("URLKIT_CACHE_DIR")) && *e)
		uk_buf_addstr(&b, e);
	else if ((e = getenv("XDG_CACHE_HOME")) && *e == '/')
		uk_buf_addf(&b, "%s/urlkit", e);
	else if ((e = getenv("HOME")) && *e)
		uk_buf_addf(&b, "%s/.cache/urlkit", e);
	else
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "no cache directory: set URLKIT_CACHE_DIR or HOME");
	while (b.len > 1 && b.buf[b.len - 1] == '/')
		uk_buf_setlen(&b, b.len - 1);
	c->dir = uk_buf_detach(&b, NULL);
	if (uk_cache_remote_open(&c->remote, getenv("URLKIT_CACHE_REMOTE"),
		entry_sum, &e2)) {
		uk_cache_release(c);
		return uk_util_err_set(err, UK_EXIT_USAGE, "URLKIT_CACHE_REMOTE: %s",
		    e2.msg);
	}
	return 0;
}

void
uk_cache_release(struct uk_cache *c)
{
	struct uk_cache_counts none;
	size_t i;
	int any;

	memset(&none, 0, sizeof(none));
	any = c->dir && memcmp(&none, &c->count, sizeof(none));
	for (i = 0; c->dir && i < uk_cache_remote_count(c->remote); i++) {
		struct uk_cache_remote_count rc;

		uk_cache_remote_store(c->remote, i, &rc);
		any |= rc.hits || rc.misses || rc.stores || rc.errors ||
		    rc.corrupt;
	}
	/* Once per run; a failure to count fails nothing. */
	if (any && !c->count_off)
		uk_cache_stats_add(c->dir, &c->count, c->remote, NULL);
	memset(&c->count, 0, sizeof(c->count));
	free(c->dir);
	c->dir = NULL;
	uk_cache_remote_free(c->remote);
	c->remote = NULL;
}

/* The first 8 bytes of SHA-256 of data[0..len) (sha256.h: written there
 * rather than taken from libcrypto, whose loading cost a `urlcache get`
 * more than its one hit). */
static void
sha256_head(const void *data, size_t len, unsigned char out[8])
{
	unsigned char md[32];

	uk_sha256(data, len, md);
	memcpy(out, md, 8);
}

void
uk_cache_key(const char *url, char key[17])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[8];
	int i;

	sha256_head(url, strlen(url), md);
	for (i = 0; i < 8; i++) {
		key[2 * i] = digits[md[i] >> 4];
		key[2 * i + 1] = digits[md[i] & 15];
	}
	key[16] = '\0';
}

/* The checksum of an entry in a remote store (cache_remote.h): the first
 * 16 hex digits of its SHA-256. */
static void
entry_sum(const void *data, size_t len, char sum[17])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[8];
	int i;

	sha256_head(data, len, md);
	for (i = 0; i < 8; i++) {
		sum[2 * i] = digits[md[i] >> 4];
		sum[2 * i + 1] = digits[md[i] & 15];
	}
	sum[16] = '\0';
}

char *
uk_cache_path(const struct uk_cache *c, const char *url)
{
	struct uk_buf b = UK_BUF_INIT;
	char key[17];

	uk_cache_key(url, key);
	uk_buf_addf(&b, "%s/%.2s/%s.json", c->dir, key, key);
	return uk_buf_detach(&b, NULL);
}

char *
uk_cache_where(const struct uk_cache *c, const char *url)
{
	struct uk_cache_packhdr h;
	struct uk_cache_slot s;
	struct stat st;
	char key[17], *path = uk_cache_path(c, url);
	int dfd, fd, in = 0;

	uk_cache_key(url, key);
	if ((dfd = uk_cache_fanout_open(c, key, 0)) < 0)
		return path;
	if (fstatat(dfd, path + strlen(path) - 21, &st, AT_SYMLINK_NOFOLLOW) &&
	    errno == ENOENT &&
	    (fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &st)) >= 0) {
		in = uk_cache_pack_find(fd, &h, st.st_size, key, &s) == 1 &&
		    s.mtime;
		close(fd);
	}
	close(dfd);
	if (in)
		memcpy(path + strlen(path) - 21, UK_CACHE_PACK_NAME,
		    sizeof(UK_CACHE_PACK_NAME));
	return path;
}

/*
 * Open the fan-out directory DIR/KK of key without following a symbolic
 * link there: a link (or anything but a directory) at KK is refused with
 * ELOOP or ENOTDIR, so that no entry is ever read, written or removed
 * outside the cache through one.  (The cache directory itself may be a
 * link: whoever set it chose it.)  Every entry operation then works
 * relative to the descriptor (openat, renameat, unlinkat), so a fan-out
 * directory swapped for a link meanwhile is not followed either.  With
 * create, a missing KK is made (mode 0700, and DIR with uk_util_mkdir_p).
 * Returns the descriptor, or -1 with errno set: ELOOP when KK is a link
 * or not a directory, ENOTDIR when DIR is not one.
 */
int
uk_cache_fanout_open(const struct uk_cache *c, const char *key, int create)
{
	char kk[3] = { key[0], key[1], '\0' };
	int top, fd, e;

	top = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0 && errno == ENOENT && create) {
		if (uk_util_mkdir_p(c->dir, NULL))
			return -1;
		top = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (top < 0)
		return -1;
	fd = openat(top, kk, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT && create &&
	    (!mkdirat(top, kk, 0700) || errno == EEXIST))
		fd = openat(top, kk,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	/* ELOOP says "KK is not followed" wherever it comes from; ENOTDIR
	 * is left to the cache directory itself. */
	e = fd < 0 && errno == ENOTDIR ? ELOOP : errno;
	close(top);
	errno = e;
	return fd;
}

/* The error of a failed fanout_open of key, with code by errno. */
static int
fanout_err(const struct uk_cache *c, const char *key, int create,
    struct uk_err *err)
{
	int e = errno;

	if (e == ELOOP)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s/%.2s' is a symbolic link or not a directory: "
		    "not followed",
		    c->dir, key);
	return uk_util_err_set(err,
	    uk_util_errno_fatal(e) ? UK_EXIT_FATAL : UK_EXIT_FAIL,
	    "cannot %s '%s/%.2s': %s", create ? "create" : "open", c->dir, key,
	    strerror(e));
}

/*
 * Read all of fd (at most UK_CACHE_MAX_ENTRY bytes) into b.  Entry files
 * are never written in place (they are replaced by rename), so once size
 * bytes (the size fstat gave) are in, that is all of it: no read just to
 * see EOF.
 */
int
uk_cache_read_fd(int fd, long long size, struct uk_buf *b)
{
	ssize_t n;

	uk_buf_grow(b, (size_t)size + 1);
	for (;;) {
		if (size > 0 && (long long)b->len == size)
			break;
		if (b->alloc - b->len < 4096)
			uk_buf_grow(b, 65536);
		n = read(fd, b->buf + b->len, b->alloc - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		uk_buf_setlen(b, b->len + (size_t)n);
		if ((long long)b->len > UK_CACHE_MAX_ENTRY) {
			errno = EFBIG;
			return -1;
		}
	}
	return 0;
}

/*
 * Parse the entry text in b: 1 with *rec (when rec), 0 when corrupt.  The
 * url must be there, and when url is given equal it, when key is given
 * hash to it.
 */
static int
check_entry(struct uk_buf *b, const char *url, const char *key, yajl_val *rec)
{
	yajl_val v;
	const char *u;
	char k[17];

	if (!b->len || !(v = uk_json_parse(b->buf, b->len, NULL)))
		return 0;
	if (!YAJL_IS_OBJECT(v) || !(u = uk_json_get_str(v, "url")) ||
	    (url && strcmp(u, url))) {
		uk_json_free(v);
		return 0;
	}
	if (key) {
		uk_cache_key(u, k);
		if (strcmp(k, key)) {
			uk_json_free(v);
			return 0;
		}
	}
	if (rec)
		*rec = v;
	else
		uk_json_free(v);
	return 1;
}

/*
 * Checking an entry without building its tree (for cleanup): yajl's
 * parser with callbacks that only follow the depth and catch the
 * top-level "url".
 */
struct vcheck {
	int depth;
	int want_url;    /* the next value is the top-level url */
	int url_ok;      /* 1 matched, -1 did not */
	int marked;      /* a top-level "cached" or "expired" key */
	int want_exp;    /* the next value is the top-level expires_at */
	long long expires; /* its time in ns, or 0 */
	const char *key; /* the url must have this key, */
	const char *url; /* or be this url */
	/* The top-level "previous" (cache.h): prev counts them, and for the
	 * first one, prev_in is 1 before its value and 2 within it, and
	 * prev_key and prev_end are the offsets just past its key and its
	 * value (yajl_get_bytes_consumed in a callback: past the token). */
	yajl_handle h;
	int prev, prev_in;
	size_t prev_key, prev_end;
};

/* A top-level value, or the end of a container, seen: the end of the
 * previous version's value when it is that. */
static void
v_prev_end(struct vcheck *v)
{
	if (v->prev_in && v->depth == 1) {
		v->prev_end = yajl_get_bytes_consumed(v->h);
		v->prev_in = 0;
	}
}

static int
v_scalar(void *ctx)
{
	struct vcheck *v = ctx;

	v->want_url = v->want_exp = 0;
	if (v->prev_in == 1)
		v_prev_end(v);
	return v->depth > 0; /* a bare scalar is not an entry */
}

static int
v_bool(void *ctx, int b)
{
	(void)b;
	return v_scalar(ctx);
}

static int
v_number(void *ctx, const char *s, size_t len)
{
	(void)s;
	(void)len;
	return v_scalar(ctx);
}

static int
v_string(void *ctx, const unsigned char *s, size_t len)
{
	struct vcheck *v = ctx;
	char *u, k[17];

	if (v->want_url && v->url) {
		v->url_ok =
		    strlen(v->url) == len && !memcmp(v->url, s, len) ? 1 : -1;
	} else if (v->want_url) {
		u = uk_util_xmemdup(s, len);
		uk_cache_key(u, k);
		free(u);
		v->url_ok = strcmp(k, v->key) ? -1 : 1;
	}
	if (v->want_exp &&
	    (v->expires = uk_util_time_parse((const char *)s, len)) < 0)
		v->expires = 0;
	return v_scalar(ctx);
}

static int
v_start_map(void *ctx)
{
	struct vcheck *v = ctx;

	v->want_url = v->want_exp = 0;
	if (v->prev_in == 1 && v->depth == 1)
		v->prev_in = 2;
	return ++v->depth <= UK_JSON_MAX_DEPTH;
}

static int
v_map_key(void *ctx, const unsigned char *s, size_t len)
{
	struct vcheck *v = ctx;

	v->want_url = v->depth == 1 && len == 3 && !memcmp(s, "url", 3);
	v->want_exp =
	    v->depth == 1 && len == 10 && !memcmp(s, "expires_at", 10);
	if (v->depth == 1 &&
	    ((len == 6 && !memcmp(s, "cached", 6)) ||
		(len == 7 && !memcmp(s, "expired", 7))))
		v->marked = 1;
	if (v->depth == 1 && len == 8 && !memcmp(s, "previous", 8) &&
	    !v->prev++) {
		v->prev_key = yajl_get_bytes_consumed(v->h);
		v->prev_in = 1;
	}
	return 1;
}

static int
v_end(void *ctx)
{
	struct vcheck *v = ctx;

	v->depth--;
	v->want_url = v->want_exp = 0;
	if (v->prev_in == 2)
		v_prev_end(v);
	return 1;
}

static int
v_start_array(void *ctx)
{
	struct vcheck *v = ctx;

	v->want_url = v->want_exp = 0;
	if (v->depth == 0)
		return 0; /* an array is not an entry */
	if (v->prev_in == 1 && v->depth == 1)
		v->prev_in = 2;
	return ++v->depth <= UK_JSON_MAX_DEPTH;
}

static const yajl_callbacks vcheck_cb = {
	v_scalar,
	v_bool,
	NULL,
	NULL,
	v_number,
	v_string,
	v_start_map,
	v_map_key,
	v_end,
	v_start_array,
	v_end,
};

/* uk_cache_entry_check with all v finds (v zeroed but for key, url). */
static int
entry_check(const struct uk_buf *b, struct vcheck *v)
{
	int ok;

	if (!b->len || memchr(b->buf, '\0', b->len))
		return 0;
	v->h = yajl_alloc(&vcheck_cb, NULL, v);
	ok = yajl_parse(v->h, (const unsigned char *)b->buf, b->len) ==
		yajl_status_ok &&
	    yajl_complete_parse(v->h) == yajl_status_ok;
	yajl_free(v->h);
	v->h = NULL;
	return ok && v->url_ok == 1;
}

/*
 * Whether b holds one JSON object whose string url has the key key (or,
 * with url, is url); *marked (may be NULL) tells a top-level "cached" or
 * "expired".
 */
int
uk_cache_entry_check(const struct uk_buf *b, const char *key, const char *url,
    int *marked, long long *expires)
{
	struct vcheck v;
	int ok;

	memset(&v, 0, sizeof(v));
	v.key = key;
	v.url = url;
	ok = entry_check(b, &v);
	if (marked)
		*marked = v.marked;
	if (expires)
		*expires = v.expires;
	return ok;
}

/*
 * Take the one top-level "previous" v found out of the entry text in b,
 * with its comma, in place: the text is what the cache wrote, one line,
 * so the member is `,"previous":VALUE` (or `"previous":VALUE,` first),
 * its key unescaped.  0, or -1 when it is not so (b as it was).
 */
static int
cut_previous(struct uk_buf *b, const struct vcheck *v)
{
	size_t ks, from, to;

	if (v->prev != 1 || v->prev_end <= v->prev_key ||
	    v->prev_end > b->len || v->prev_key < 11)
		return -1;
	ks = v->prev_key - 10;
	if (memcmp(b->buf + ks, "\"previous\"", 10))
		return -1;
	from = ks;
	to = v->prev_end;
	if (b->buf[ks - 1] == ',')
		from = ks - 1;
	else if (b->buf[ks - 1] == '{' && to < b->len && b->buf[to] == ',')
		to++;
	else
		return -1;
	memmove(b->buf + from, b->buf + to, b->len - to);
	uk_buf_setlen(b, b->len - (to - from));
	return 0;
}

/* Take the previous version (cache.h) out of an entry's tree: every one,
 * where the key comes twice. */
static void
del_previous(yajl_val v)
{
	while (uk_json_del(v, "previous"))
		;
}

/*
 * For uk_cache_get_raw: check the entry text in b against url and make it
 * one line ending in '}' without "cached", "expired" or "previous" (as
 * written, or regenerated from its tree when it is not).  1, or 0 when
 * corrupt.
 */
static int
raw_entry(struct uk_buf *b, const char *url, long long *expires)
{
	struct vcheck c;
	yajl_val v;

	memset(&c, 0, sizeof(c));
	c.url = url;
	if (!entry_check(b, &c))
		return 0;
	if (expires)
		*expires = c.expires;
	while (b->len &&
	    (b->buf[b->len - 1] == '\n' || b->buf[b->len - 1] == ' ' ||
		b->buf[b->len - 1] == '\r' || b->buf[b->len - 1] == '\t'))
		uk_buf_setlen(b, b->len - 1);
	if (!c.marked && b->len && b->buf[0] == '{' &&
	    b->buf[b->len - 1] == '}' && !memchr(b->buf, '\n', b->len) &&
	    !memchr(b->buf, '\r', b->len) &&
	    (!c.prev || !cut_previous(b, &c)))
		return 1;
	/* Written by someone else (pretty-printed, or marked), or with the
	 * previous version, which is the cache's own. */
	if (!(v = uk_json_parse(b->buf, b->len, NULL)))
		return 0;
	uk_json_del(v, "cached");
	uk_json_del(v, "expired");
	del_previous(v);
	uk_buf_reset(b);
	uk_json_to_buf(v, b);
	uk_json_free(v);
	return 1;
}

/*
 * Unlink dirfd/name only if it is still the file st describes, so that a
 * reader or cleanup does not remove an entry a writer has just renamed in
 * its place.  (A rename between the check and the unlink can still lose
 * that new entry: a cache miss later, never a wrong answer.)
 */
int
uk_cache_unlink_same(int dirfd, const char *name, unsigned long long dev,
    unsigned long long ino)
{
	struct stat now;

	if (fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW))
		return -1;
	if ((unsigned long long)now.st_dev != dev ||
	    (unsigned long long)now.st_ino != ino) {
		errno = ESTALE; /* replaced meanwhile: not an error */
		return -1;
	}
	return unlinkat(dirfd, name, 0);
}

int
uk_cache_load(const char *path, const char *key, yajl_val *rec,
    struct uk_err *err)
{
	return uk_cache_load_at(AT_FDCWD, path, path, key, rec, err);
}

int
uk_cache_load_at(int dirfd, const char *name, const char *path,
    const char *key, yajl_val *rec, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	struct stat st;
	int fd, r;

	if ((fd = openat(dirfd, name,
		 O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)) < 0)
		return uk_util_err_set(err, errno == ENOENT ? 0 : UK_EXIT_FAIL,
		    "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > UK_CACHE_MAX_ENTRY) {
		close(fd);
		return 0;
	}
	if (uk_cache_read_fd(fd, st.st_size, &b)) {
		r = uk_util_err_set(err, UK_EXIT_FAIL, "cannot read '%s': %s",
		    path, strerror(errno));
		close(fd);
		uk_buf_release(&b);
		return r;
	}
	close(fd);
	r = check_entry(&b, NULL, key, rec);
	uk_buf_release(&b);
	return r;
}

int
uk_cache_file_read(const struct uk_cache_file *f, struct uk_buf *b)
{
	struct uk_cache_slot s;
	struct stat st;
	int fd, r, noatime = 1;

	uk_buf_reset(b);
	if (f->packed) {
		memset(&s, 0, sizeof(s));
		s.off = f->off;
		s.len = (unsigned long)f->size;
		s.crc = f->crc;
		return uk_cache_pack_read(f->packfd, &s, b);
	}
	/* Its atime is its recency (cache.h): O_NOATIME where the kernel
	 * allows it (our own files), else the atime put back. */
	fd = openat(f->dirfd, f->name,
	    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOATIME);
	if (fd < 0 && errno == EPERM) {
		noatime = 0;
		fd = openat(f->dirfd, f->name,
		    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > UK_CACHE_MAX_ENTRY) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	r = uk_cache_read_fd(fd, st.st_size, b);
	if (!noatime) {
		struct timespec ts[2] = { st.st_atim, { 0, UTIME_OMIT } };

		futimens(fd, ts);
	}
	close(fd);
	return r;
}

int
uk_cache_file_load(const struct uk_cache_file *f, yajl_val *rec,
    struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	int r;

	if (!f->packed)
		return uk_cache_load_at(f->dirfd, f->name, f->path, f->key, rec,
		    err);
	if ((r = uk_cache_file_read(f, &b)) < 0)
		r = uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot read '%s' (%s): %s", f->path, f->key,
		    strerror(errno));
	else
		r = r == 1 ? 0 : check_entry(&b, NULL, f->key, rec);
	uk_buf_release(&b);
	return r;
}

/*
 * Remove the loose entry name of key (the file st describes) as expired
 * or corrupt, and first the older copy its pack may hold, which would
 * otherwise come back.
 */
static void
drop_loose(struct uk_cache *c, int dfd, const char *key, const char *name,
    const struct stat *st)
{
	uk_cache_pack_kill(dfd, key);
	if (!uk_cache_unlink_same(dfd, name, st->st_dev, st->st_ino))
		COUNT(c, evictions);
}

/*
 * get_local's look in the pack of dfd (the loose file being absent): as
 * get_local, from the slot's clock and text.  A packed entry found
 * expired (without UK_CACHE_STALE) or corrupt is marked dead.
 */
static int
get_packed(struct uk_cache *c, int dfd, const char *key, const char *url,
    int flags, yajl_val *rec, struct uk_buf *b, int raw, int *expired)
{
	struct uk_cache_packhdr h;
	struct uk_cache_slot s;
	struct stat st;
	long long now, exp_at = 0;
	const char *x;
	int fd, exp, ok = 0, r = 0;

	if ((fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &st)) < 0)
		return 0; /* none, or one cleanup will remove: a miss */
	if (uk_cache_pack_find(fd, &h, st.st_size, key, &s) != 1 || !s.mtime)
		goto out;
	now = uk_util_time_now_ns();
	exp = s.mtime + (long long)c->ttl * NS <= now ||
	    (s.expires > 0 && s.expires <= now);
	if (exp && !(flags & UK_CACHE_STALE))
		goto kill;
	if (!uk_cache_pack_read(fd, &s, b))
		ok = raw ? raw_entry(b, url, &exp_at) :
			   check_entry(b, url, NULL, rec);
	if (!ok) {
		/* Corrupt, or another URL of the key: as a loose file. */
		uk_buf_reset(b);
		goto kill;
	}
	if (rec && (x = uk_json_get_str(*rec, "expires_at")) &&
	    (exp_at = uk_util_time_parse(x, strlen(x))) < 0)
		exp_at = 0;
	if (s.atime + 60 * NS < now)
		uk_cache_pack_touch(dfd, &st, &s, now);
	if (expired)
		*expired = exp;
	if (rec && !(flags & UK_CACHE_PREVIOUS))
		del_previous(*rec);
	r = 1;
	goto out;
kill:
	if (uk_cache_pack_kill(dfd, key) == 1)
		COUNT(c, evictions);
out:
	close(fd);
	return r;
}

/*
 * uk_cache_get and uk_cache_get_raw: look url up; with rec, parse the
 * entry into a tree; else check it with the streaming parser and leave
 * its text, one line ending in '}', in raw.
 */
static int
get_local(struct uk_cache *c, const char *url, int flags, yajl_val *rec,
    struct uk_buf *raw, int *expired, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT, own = UK_BUF_INIT;
	struct uk_buf *b = raw ? raw : &own;
	char key[17];
	const char *name, *x;
	struct stat st;
	long long now, exp_at = 0;
	int fd = -1, dfd = -1, r = 0, exp, ok;

	if (rec)
		*rec = NULL;
	if (expired)
		*expired = 0;
	uk_cache_key(url, key);
	uk_buf_addf(&path, "%s/%.2s/%s.json", c->dir, key, key);
	if ((dfd = uk_cache_fanout_open(c, key, 0)) < 0) {
		/* Absent, or a link not followed: a miss, left alone. */
		if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR)
			goto out;
		r = uk_util_err_set(err,
		    errno == EACCES ? UK_EXIT_FATAL : UK_EXIT_FAIL,
		    "cannot open '%s/%.2s': %s", c->dir, key, strerror(errno));
		goto out;
	}
	name = path.buf + path.len - 21;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		/* No loose file: the pack (doc/CACHE.md). */
		r = get_packed(c, dfd, key, url, flags, rec, b, raw != NULL,
		    expired);
		goto out;
	}
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR || errno == ENXIO)
			goto out;
		r = uk_util_err_set(err,
		    errno == EACCES ? UK_EXIT_FATAL : UK_EXIT_FAIL,
		    "cannot open '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st)) {
		r = uk_util_err_set(err, UK_EXIT_FAIL, "cannot stat '%s': %s",
		    path.buf, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode))
		goto out; /* not ours: a miss, left alone */
	now = uk_util_time_now_ns();
	exp = uk_cache_ts_ns(&st.st_mtim) + (long long)c->ttl * NS <= now;
	if (exp && !(flags & UK_CACHE_STALE)) {
		drop_loose(c, dfd, key, name, &st);
		goto out;
	}
	uk_buf_reset(b);
	if (st.st_size > UK_CACHE_MAX_ENTRY ||
	    uk_cache_read_fd(fd, st.st_size, b)) {
		if (errno == EFBIG || st.st_size > UK_CACHE_MAX_ENTRY)
			uk_cache_unlink_same(dfd, name, st.st_dev, st.st_ino);
		else
			r = uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot read '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	ok = rec ? check_entry(b, url, NULL, rec) : raw_entry(b, url, &exp_at);
	if (ok && rec && (x = uk_json_get_str(*rec, "expires_at")) &&
	    (exp_at = uk_util_time_parse(x, strlen(x))) < 0)
		exp_at = 0;
	/* A lifetime the response gave (uk_cache_lifetime) that is over:
	 * expired as by the TTL. */
	if (ok && !exp && exp_at > 0 && exp_at <= now) {
		exp = 1;
		if (!(flags & UK_CACHE_STALE)) {
			drop_loose(c, dfd, key, name, &st);
			if (rec) {
				uk_json_free(*rec);
				*rec = NULL;
			}
			if (raw)
				uk_buf_reset(raw);
			goto out;
		}
	}
	if (!ok) {
		drop_loose(c, dfd, key, name, &st);
		if (raw)
			uk_buf_reset(raw);
		goto out;
	}
	/* Recency for the size limit: touch atime, at most once a minute. */
	if (uk_cache_ts_ns(&st.st_atim) + 60 * NS < now) {
		struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };

		futimens(fd, ts);
	}
	if (expired)
		*expired = exp;
	if (rec && !(flags & UK_CACHE_PREVIOUS))
		del_previous(*rec);
	r = 1;
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	uk_buf_release(&path);
	uk_buf_release(&own);
	return r;
}

/*
 * After a local miss, the remote stores (cache_remote.h): an entry found
 * whole there, for url and within its lifetime, is written to the local
 * directory (unless its store is remote-only) and returned as get_local
 * would.  Never an error: the stores count their own.
 */
static int
get_remote(struct uk_cache *c, const char *url, int flags, yajl_val *rec,
    struct uk_buf *raw, int *expired)
{
	struct uk_buf b = UK_BUF_INIT, dir = UK_BUF_INIT;
	char key[17], name[24];
	long long left, exp_at = 0, now, mtime = -1;
	int keep = 1, r = 0, dfd, past;

	uk_cache_key(url, key);
	if (!uk_cache_remote_get(c->remote, key, &b, &left, &keep))
		goto out;
	/* Another URL with the same key, or no entry: a miss. */
	if (!uk_cache_entry_check(&b, NULL, url, NULL, &exp_at))
		goto out;
	now = uk_util_time_now_ns();
	past = exp_at > 0 && exp_at <= now;
	if (past && !(flags & UK_CACHE_STALE))
		goto out;
	if (keep && !past && (dfd = uk_cache_fanout_open(c, key, 1)) >= 0) {
		/* The local copy is as old as the remote one (the store
		 * keeps it ttl seconds from its writing), so that the two
		 * expire together. */
		if (left > 0 && left < (long long)c->ttl * 1000)
			mtime = now - ((long long)c->ttl * 1000 - left) *
			    1000000LL;
		snprintf(name, sizeof(name), "%s.json", key);
		uk_buf_addf(&dir, "%s/%.2s", c->dir, key);
		uk_write_file_at(dfd, dir.buf, name, b.buf, b.len, mtime,
		    NULL);
		close(dfd);
	}
	if (rec) {
		r = check_entry(&b, url, NULL, rec);
		if (r && !(flags & UK_CACHE_PREVIOUS))
			del_previous(*rec);
	} else {
		uk_buf_reset(raw);
		uk_buf_add(raw, b.buf, b.len);
		r = raw_entry(raw, url, &exp_at);
	}
	if (r && expired)
		*expired = past;
out:
	uk_buf_release(&b);
	uk_buf_release(&dir);
	return r;
}

static int
get_entry(struct uk_cache *c, const char *url, int flags, yajl_val *rec,
    struct uk_buf *raw, int *expired, struct uk_err *err)
{
	int r = get_local(c, url, flags, rec, raw, expired, err);

	if (r > 0)
		COUNT(c, hits);
	else if (r == 0)
		COUNT(c, misses);
	else
		COUNT(c, errors);
	if (r == 0 && c->remote)
		r = get_remote(c, url, flags, rec, raw, expired);
	return r;
}

/*
 * The seconds a remote store keeps the entry rec: the TTL, or less when
 * its expires_at comes sooner (0: already past, not stored).
 */
static long
remote_ttl(const struct uk_cache *c, yajl_val rec)
{
	const char *x = uk_json_get_str(rec, "expires_at");
	long long t, now;

	if (!x || (t = uk_util_time_parse(x, strlen(x))) <= 0)
		return c->ttl;
	now = uk_util_time_now_ns();
	if (t <= now)
		return 0;
	t = (t - now + NS - 1) / NS;
	return t < c->ttl ? (long)t : c->ttl;
}

int
uk_cache_get(struct uk_cache *c, const char *url, int flags, yajl_val *rec,
    int *expired, struct uk_err *err)
{
	return get_entry(c, url, flags & ~UK_CACHE_PREVIOUS, rec, NULL,
	    expired, err);
}

/*
 * The entry of url as it is before a store, "previous" and all, whatever
 * its age (the directory's, or a remote-only store's): 1 with *rec (the
 * caller frees it), 0 none.  Counts nothing.
 */
static int
get_old(struct uk_cache *c, const char *url, yajl_val *rec)
{
	struct uk_err err;
	int r;

	r = get_local(c, url, UK_CACHE_STALE | UK_CACHE_PREVIOUS, rec, NULL,
	    NULL, &err);
	if (r == 0 && c->remote && !uk_cache_remote_local(c->remote))
		r = get_remote(c, url, UK_CACHE_STALE | UK_CACHE_PREVIOUS, rec,
		    NULL, NULL);
	return r == 1;
}

int
uk_cache_get_raw(struct uk_cache *c, const char *url, int flags,
    struct uk_buf *out, int *expired, struct uk_err *err)
{
	return get_entry(c, url, flags, NULL, out, expired, err);
}

/*
 * After a failed write: when the cache directory itself is missing or not
 * a directory, the whole cache is unusable, so the error is fatal.
 */
static void
cache_dir_check(struct uk_cache *c, struct uk_err *err)
{
	struct stat st;

	if (stat(c->dir, &st) == 0 && S_ISDIR(st.st_mode))
		return;
	if (err && err->code != UK_EXIT_FATAL)
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "cache directory '%s' is not a directory", c->dir);
}

int
uk_cache_set(struct uk_cache *c, yajl_val rec, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT, dir = UK_BUF_INIT;
	char key[17], name[24], when[40];
	const char *url;
	yajl_val v, fa, old;
	long long now;
	int r, dfd;

	if (!YAJL_IS_OBJECT(rec) || !(url = uk_json_get_str(rec, "url")))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "not a content record: no string 'url'");
	if ((v = uk_json_get(rec, "error")) && !YAJL_IS_NULL(v))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "a record with an error is not cached");
	now = uk_util_time_now_ns();
	uk_util_time_fmt(now, when, sizeof(when));
	v = uk_json_copy(rec);
	uk_json_del(v, "cached");
	uk_json_del(v, "error"); /* null, if there */
	fa = uk_json_get(v, "fetched_at");
	if (!fa || YAJL_IS_NULL(fa))
		uk_json_set_str(v, "fetched_at", when);
	uk_json_set_str(v, "cached_at", when);
	old = NULL;
	get_old(c, url, &old);
	uk_cache_change_note(c, rec, v, old, when);
	uk_json_free(old);
	uk_json_to_buf(v, &b);
	uk_buf_addch(&b, '\n');
	uk_json_free(v);

	uk_cache_key(url, key);
	snprintf(name, sizeof(name), "%s.json", key);
	uk_buf_addf(&dir, "%s/%.2s", c->dir, key);
	if (!uk_cache_remote_local(c->remote)) {
		r = 0; /* a remote-only store holds it */
		goto remote;
	}
	if ((dfd = uk_cache_fanout_open(c, key, 1)) < 0) {
		int e = errno;

		r = fanout_err(c, key, 1, err);
		if (e != ELOOP)
			cache_dir_check(c, err);
		goto out;
	}
	/* The file's mtime, the moment of writing, is the entry's age. */
	r = uk_write_file_at(dfd, dir.buf, name, b.buf, b.len, -1, err);
	close(dfd);
	if (r)
		cache_dir_check(c, err);
remote:
	if (r)
		COUNT(c, errors);
	else
		COUNT(c, stores);
	if (!r && c->remote)
		uk_cache_remote_put(c->remote, key, b.buf, b.len,
		    remote_ttl(c, rec));
out:
	uk_buf_release(&b);
	uk_buf_release(&dir);
	return r;
}

/*
 * For uk_cache_update_summary, a packed entry of key: 1 with its text in
 * b and its clock as st's mtime (the rest of st zero), 0 none.
 */
static int
summary_packed(int dfd, const char *key, struct uk_buf *b, struct stat *st)
{
	struct uk_cache_packhdr h;
	struct uk_cache_slot s;
	struct stat pst;
	int fd, r = 0;

	if ((fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &pst)) < 0)
		return 0;
	if (uk_cache_pack_find(fd, &h, pst.st_size, key, &s) == 1 &&
	    s.mtime && !uk_cache_pack_read(fd, &s, b)) {
		memset(st, 0, sizeof(*st));
		st->st_mtim.tv_sec = (time_t)(s.mtime / NS);
		st->st_mtim.tv_nsec = (long)(s.mtime % NS);
		r = 1;
	}
	close(fd);
	return r;
}

int
uk_cache_update_summary(struct uk_cache *c, const char *url,
    const char *summary, size_t summary_len, const char *summary_type,
    struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT, dir = UK_BUF_INIT;
	char key[17], name[24];
	char *path = NULL, *tmp = NULL;
	struct stat st, now;
	yajl_val rec = NULL;
	sigset_t old;
	int fd = -1, dfd, r = 0, tries, packed;

	uk_cache_key(url, key);
	snprintf(name, sizeof(name), "%s.json", key);
	uk_buf_addf(&dir, "%s/%.2s", c->dir, key);
	path = uk_cache_path(c, url);
	if ((dfd = uk_cache_fanout_open(c, key, 0)) < 0) {
		if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP)
			r = fanout_err(c, key, 0, err);
		goto out;
	}
	/* Read, modify, write; retry when a writer replaced the entry. */
	for (tries = 0; tries < 5; tries++) {
		fd = openat(dfd, name,
		    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		packed = fd < 0 && errno == ENOENT;
		if (packed) {
			/* A packed entry becomes a loose one, with its age. */
			if (summary_packed(dfd, key, &b, &st) != 1)
				goto out;
		} else if (fd < 0) {
			if (errno != ENOENT && errno != ENOTDIR &&
			    errno != ELOOP)
				r = uk_util_err_set(err, UK_EXIT_FAIL,
				    "cannot open '%s': %s", path,
				    strerror(errno));
			goto out;
		}
		if (!packed && (fstat(fd, &st) || !S_ISREG(st.st_mode)))
			goto out;
		if (!packed) {
			uk_buf_reset(&b);
			if (uk_cache_read_fd(fd, st.st_size, &b)) {
				r = uk_util_err_set(err, UK_EXIT_FAIL,
				    "cannot read '%s': %s", path,
				    strerror(errno));
				goto out;
			}
			close(fd);
			fd = -1;
		}
		if (!check_entry(&b, url, NULL, &rec))
			goto out;
		if (summary)
			uk_json_set(rec, "summary",
			    uk_json_strn(summary, summary_len));
		if (summary_type)
			uk_json_set_str(rec, "summary_type", summary_type);
		uk_buf_reset(&b);
		uk_json_to_buf(rec, &b);
		uk_buf_addch(&b, '\n');
		uk_json_free(rec);
		rec = NULL;
		/* Keep the entry's age: a summary does not refresh content. */
		uk_util_signals_hold(&old);
		if (uk_write_tmp(dfd, dir.buf, name, b.buf, b.len, &tmp, err)) {
			uk_util_signals_release(&old);
			r = -1;
			goto out;
		}
		if (packed ? fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) &&
			    errno == ENOENT :
			     fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) ==
				    0 &&
			    now.st_ino == st.st_ino && now.st_dev == st.st_dev) {
			r = uk_write_rename(dfd, tmp, dir.buf, name,
				uk_cache_ts_ns(&st.st_mtim), err) ?
			    -1 :
			    1;
			uk_util_signals_release(&old);
			/* The stores get the summary too, for the time
			 * the entry has left. */
			if (r == 1 && c->remote &&
			    uk_cache_ts_ns(&st.st_mtim) +
				    (long long)c->ttl * NS >
				uk_util_time_now_ns())
				uk_cache_remote_put(c->remote, key, b.buf,
				    b.len,
				    (long)((uk_cache_ts_ns(&st.st_mtim) +
					       (long long)c->ttl * NS -
					       uk_util_time_now_ns() + NS - 1) /
					NS));
			goto out;
		}
		unlinkat(dfd, tmp, 0);
		uk_util_signals_release(&old);
		free(tmp);
		tmp = NULL;
	}
	r = uk_util_err_set(err, UK_EXIT_FAIL,
	    "'%s' kept changing while the summary was added", path);
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	uk_json_free(rec);
	free(tmp);
	free(path);
	uk_buf_release(&b);
	uk_buf_release(&dir);
	return r;
}

int
uk_cache_invalidate(struct uk_cache *c, const char *url, struct uk_err *err)
{
	char *path = uk_cache_path(c, url);
	int r = 1, dfd, packed = 0;
	char key[17];

	uk_cache_key(url, key);
	if ((dfd = uk_cache_fanout_open(c, key, 0)) < 0) {
		/* Nothing of ours there: a link is not followed. */
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			r = 0;
		else
			r = fanout_err(c, key, 0, err);
	} else if ((packed = uk_cache_pack_kill(dfd, key)) < 0) {
		/* The packed copy first: it must not outlive the loose one. */
		r = uk_util_err_set(err,
		    uk_util_errno_fatal(errno) ? UK_EXIT_FATAL : UK_EXIT_FAIL,
		    "cannot change '%s/%.2s/%s': %s", c->dir, key, UK_CACHE_PACK_NAME,
		    strerror(errno));
	} else if (unlinkat(dfd, path + strlen(path) - 21, 0)) {
		if (errno == ENOENT || errno == ENOTDIR)
			r = packed;
		else
			r = uk_util_err_set(err,
			    uk_util_errno_fatal(errno) && errno != ENOTDIR ?
				UK_EXIT_FATAL :
				UK_EXIT_FAIL,
			    "cannot remove '%s': %s", path, strerror(errno));
	}
	if (dfd >= 0)
		close(dfd);
	free(path);
	if (r >= 0 && c->remote && uk_cache_remote_del(c->remote, key))
		r = 1;
	return r;
}
