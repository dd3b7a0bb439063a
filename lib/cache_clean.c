/* SPDX-License-Identifier: MIT */
/* The cache's upkeep: the walk over its files, cleanup and eviction. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "cache_int.h"
#include "cache_pack.h"
#include "cache_repack.h"
#include "util.h"
#include "write.h"

#include "banned.h"

#define NS 1000000000LL

static const char hexd[] = "0123456789abcdef";

static int
is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
			(s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Classify name: 0 ignore, else the kind + 1, with key and pid filled. */
static int
classify(const char *name, char key[17], long *pid)
{
	size_t n = strlen(name);
	const char *p;
	char *end;

	*pid = 0;
	if (n == 21 && is_hex(name, 16) && !strcmp(name + 16, ".json")) {
		memcpy(key, name, 16);
		key[16] = '\0';
		return UK_CACHE_ENTRY + 1;
	}
	if (n > 27 && name[0] == '.' && is_hex(name + 1, 16) &&
	    !strncmp(name + 17, ".json.tmp.", 10)) {
		memcpy(key, name + 1, 16);
		key[16] = '\0';
		p = name + 27;
		errno = 0;
		*pid = strtol(p, &end, 10);
		if (errno || end == p || *end != '.' || *pid <= 0)
			*pid = 0;
		return UK_CACHE_TEMP + 1;
	}
	/* A pack's rewrite (cache_pack.c): .pack.tmp.PID.RAND, no key. */
	if (n > 10 && !strncmp(name, "." UK_CACHE_PACK_NAME ".tmp.", 10)) {
		key[0] = '\0';
		p = name + 10;
		errno = 0;
		*pid = strtol(p, &end, 10);
		if (errno || end == p || *end != '.' || *pid <= 0)
			*pid = 0;
		return UK_CACHE_TEMP + 1;
	}
	return 0;
}

/* The loose keys of a fan-out directory, for the pack's shadows. */
struct keys {
	char (*k)[17];
	size_t n, alloc;
};

static void
keys_add(struct keys *ks, const char *key)
{
	if (ks->n == ks->alloc) {
		ks->alloc = ks->alloc ? 2 * ks->alloc : 64;
		ks->k = uk_util_xrealloc(ks->k, ks->alloc * sizeof(*ks->k));
	}
	memcpy(ks->k[ks->n++], key, 17);
}

static int
key_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/*
 * The entries of dfd's pack, then the pack itself, to fn; with brief, only
 * the pack when its header says nothing in it is dead or expired and no
 * loose entry can shadow one of it.  The walk's return.
 */
static int
walk_pack(struct uk_cache *c, int dfd, struct uk_buf *path, size_t base,
    const struct keys *ks, int brief, long long now,
    int (*fn)(void *ctx, const struct uk_cache_file *f), void *ctx)
{
	struct uk_cache_packhdr h;
	struct uk_cache_slot *sl = NULL;
	struct uk_cache_file f;
	struct stat st;
	size_t n = 0, i;
	long long ttl = (long long)c->ttl * NS;
	int fd, r = 0;

	memset(&f, 0, sizeof(f));
	uk_buf_setlen(path, base);
	uk_buf_addstr(path, UK_CACHE_PACK_NAME);
	f.kind = UK_CACHE_PACK;
	f.path = path->buf;
	f.name = UK_CACHE_PACK_NAME;
	f.dirfd = dfd;
	f.packfd = -1;
	if ((fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &st)) < 0) {
		if (errno != EINVAL ||
		    fstatat(dfd, UK_CACHE_PACK_NAME, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			return 0;
		f.bad = 1;
	} else if (brief && !h.dirty && !ks->n &&
	    (!h.count || h.oldest + ttl > now) &&
	    (!h.first_exp || h.first_exp > now)) {
		f.brief = 1;
		f.count = (long)h.count;
		f.size = (long long)h.bytes;
	} else if (uk_cache_pack_index(fd, &h, st.st_size, &sl, &n)) {
		f.bad = 1;
	}
	f.mtime_ns = uk_cache_ts_ns(&st.st_mtim);
	f.atime_ns = uk_cache_ts_ns(&st.st_atim);
	f.ctime_ns = uk_cache_ts_ns(&st.st_ctim);
	f.dev = (unsigned long long)st.st_dev;
	f.ino = (unsigned long long)st.st_ino;
	for (i = 0; !r && i < n; i++) {
		struct uk_cache_file e = f;

		if (!sl[i].mtime ||
		    (ks->n && bsearch(sl[i].key, ks->k, ks->n, 17, key_cmp))) {
			f.drop++;
			continue;
		}
		e.kind = UK_CACHE_ENTRY;
		e.packed = 1;
		e.packfd = fd;
		memcpy(e.key, sl[i].key, 17);
		e.mtime_ns = e.ctime_ns = sl[i].mtime;
		e.atime_ns = sl[i].atime;
		e.size = (long long)sl[i].len;
		e.expired = sl[i].mtime + ttl <= now;
		e.off = sl[i].off;
		e.crc = sl[i].crc;
		e.idx = sl[i].idx;
		e.expires_ns = sl[i].expires;
		f.count++;
		r = fn(ctx, &e);
	}
	if (!r) {
		if (!f.brief)
			f.size = (long long)st.st_size;
		r = fn(ctx, &f);
	}
	free(sl);
	if (fd >= 0)
		close(fd);
	return r;
}

/*
 * uk_cache_clean_walk, with dirfn (when not NULL) called for each fan-out
 * directory before its files (end 0) and after them (end 1, only when
 * the walk goes on); brief as walk_pack.
 */
static int
walk(struct uk_cache *c, int (*fn)(void *ctx, const struct uk_cache_file *f),
    void (*dirfn)(void *ctx, int dfd, const char *dir, int end), void *ctx,
    int brief, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	struct uk_cache_file f;
	struct keys ks = { NULL, 0, 0 };
	struct dirent *d, *e;
	struct stat st;
	DIR *top, *sub;
	long long now = uk_util_time_now_ns();
	size_t base;
	int r = 0, k, pack;

	if (!(top = opendir(c->dir))) {
		if (errno == ENOENT)
			return 0;
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot open '%s': %s", c->dir, strerror(errno));
	}
	while (!r && (d = readdir(top))) {
		int dfd;

		if (strlen(d->d_name) != 2 || !is_hex(d->d_name, 2))
			continue;
		dfd = openat(dirfd(top), d->d_name,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (dfd < 0)
			continue;
		if (!(sub = fdopendir(dfd))) {
			close(dfd);
			continue;
		}
		uk_buf_reset(&path);
		uk_buf_addf(&path, "%s/%s", c->dir, d->d_name);
		if (dirfn)
			dirfn(ctx, dfd, path.buf, 0);
		uk_buf_addch(&path, '/');
		base = path.len;
		ks.n = 0;
		pack = 0;
		while (!r && (e = readdir(sub))) {
			memset(&f, 0, sizeof(f));
			if (!strcmp(e->d_name, UK_CACHE_PACK_NAME)) {
				pack = 1;
				continue;
			}
			if (!(k = classify(e->d_name, f.key, &f.pid)))
				continue;
			if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			f.kind = (enum uk_cache_kind)(k - 1);
			if (f.kind == UK_CACHE_ENTRY && !S_ISREG(st.st_mode))
				f.kind = UK_CACHE_OTHER;
			if (f.kind == UK_CACHE_TEMP && !S_ISREG(st.st_mode))
				continue;
			if (f.kind != UK_CACHE_TEMP)
				keys_add(&ks, f.key);
			uk_buf_setlen(&path, base);
			uk_buf_addstr(&path, e->d_name);
			f.path = path.buf;
			f.name = e->d_name;
			f.mtime_ns = uk_cache_ts_ns(&st.st_mtim);
			f.atime_ns = uk_cache_ts_ns(&st.st_atim);
			f.ctime_ns = uk_cache_ts_ns(&st.st_ctim);
			f.size = (long long)st.st_size;
			f.expired = f.kind == UK_CACHE_ENTRY &&
			    f.mtime_ns + (long long)c->ttl * NS <= now;
			f.dirfd = dfd;
			f.packfd = -1;
			f.dev = (unsigned long long)st.st_dev;
			f.ino = (unsigned long long)st.st_ino;
			r = fn(ctx, &f);
		}
		if (!r && pack) {
			if (ks.n > 1)
				qsort(ks.k, ks.n, sizeof(*ks.k), key_cmp);
			r = walk_pack(c, dfd, &path, base, &ks, brief, now, fn,
			    ctx);
		}
		if (dirfn && !r) {
			uk_buf_setlen(&path, base - 1);
			dirfn(ctx, dfd, path.buf, 1);
		}
		closedir(sub);
	}
	closedir(top);
	free(ks.k);
	uk_buf_release(&path);
	return r;
}

int
uk_cache_clean_walk(struct uk_cache *c,
    int (*fn)(void *ctx, const struct uk_cache_file *f), void *ctx,
    struct uk_err *err)
{
	return walk(c, fn, NULL, ctx, 0, err);
}

/* What cleanup keeps of an entry, for the size limit. */
struct kept {
	char *path;
	char key[17];
	int packed; /* in its fan-out directory's pack */
	long long atime_ns, size;
	unsigned long long dev, ino;
};

/* An entry's expires_at, as a fan-out directory's VERIFIED file keeps it. */
struct vexp {
	char key[17];
	long long expires;
};

struct cleanup_ctx {
	struct uk_cache *c;
	struct uk_cache_clean *o;
	struct uk_buf b;
	long long now;
	struct kept *kept;
	size_t nkept, akept;
	/* The fan-out directory being walked: its VERIFIED file (stamp 0:
	 * none), and what the next one will say. */
	long long stamp, t0;
	struct vexp *old, *nw;
	size_t nold, aold, nnew, anew;
	int fresh;  /* an entry was read and found sound */
	int unsure; /* an entry could not be read */
	/* Its pack (doc/CACHE.md): the loose keys, which shadow packed
	 * ones; the small sound loose entries to move in; whether the pack
	 * has anything to drop. */
	struct keys shadow, add;
	int repack;
};

/* The boot time in ns since the epoch (from /proc/stat), or 0. */
static long long
boot_ns(void)
{
	static long long boot = -1;
	char line[256];
	FILE *fp;

	if (boot >= 0)
		return boot;
	boot = 0;
	if (!(fp = fopen("/proc/stat", "re")))
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "btime ", 6)) {
			boot = atoll(line + 6) * NS;
			break;
		}
	fclose(fp);
	return boot;
}

/* When process pid started, in ns since the epoch; -1 when unknown. */
static long long
start_ns(long pid)
{
	char path[64], buf[1024], *p;
	long long ticks, boot = boot_ns();
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!boot || hz <= 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* After the command's closing parenthesis: state is field 3,
	 * starttime field 22. */
	if (!(p = strrchr(buf, ')')))
		return -1;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	ticks = atoll(p + 1);
	return boot + ticks / hz * NS + ticks % hz * (NS / hz);
}

/*
 * Whether the writer of a temporary file last written at mtime_ns is
 * gone: no process pid, or one that started after that change (a reused
 * PID; with a second's margin, boot time having one-second precision).
 */
static int
writer_gone(long pid, long long mtime_ns)
{
	long long st;

	if (pid <= 0)
		return 0;
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 1;
	st = start_ns(pid);
	return st > 0 && st > mtime_ns + NS;
}

/*
 * Remove f (unless a dry run) and report it; 1 when it went.  The walk
 * has just looked at f, so an entry expired by its age is unlinked at once
 * (checking it again would narrow no window); one read since (read set:
 * corrupt, or past its expires_at) is checked to be the same file first.
 */
static int
drop(struct cleanup_ctx *x, const struct uk_cache_file *f, const char *why,
    int read)
{
	int r = 0;

	if (!x->o->dry_run) {
		/* An older copy in the pack must not come back
		 * (doc/CACHE.md). */
		if (f->kind == UK_CACHE_ENTRY)
			uk_cache_pack_kill(f->dirfd, f->key);
		if (read)
			r = uk_cache_unlink_same(f->dirfd, f->name, f->dev,
			    f->ino);
		else
			r = unlinkat(f->dirfd, f->name, 0);
	}
	if (r) {
		if (errno != ENOENT && errno != ESTALE) {
			x->o->failed++;
			x->o->fail_errno = errno;
		}
		return 0;
	}
	if (x->o->fn)
		x->o->fn(x->o->ctx, f, why);
	if (f->kind == UK_CACHE_ENTRY)
		x->o->bytes_freed += (unsigned long long)f->size;
	return 1;
}

/*
 * Whether the entry file is valid JSON for its key; 1 also when unsure.
 * *expires is set to its expires_at (ns), or 0.
 */
static int
entry_ok(struct cleanup_ctx *x, const struct uk_cache_file *f,
    long long *expires)
{
	int fd, ok;

	*expires = 0;
	x->fresh = 1;
	fd = openat(f->dirfd, f->name,
	    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		x->unsure = 1;
		return 1;
	}
	uk_buf_reset(&x->b);
	if (f->size > UK_CACHE_MAX_ENTRY) {
		close(fd);
		return 0;
	}
	if (uk_cache_read_fd(fd, f->size, &x->b)) {
		close(fd);
		x->unsure = 1;
		return 1;
	}
	close(fd);
	ok = uk_cache_entry_check(&x->b, f->key, NULL, NULL, expires);
	if (x->b.alloc > (1 << 20))
		uk_buf_release(&x->b);
	return ok;
}

/*
 * The VERIFIED file of a fan-out directory: what cleanup need not read
 * again (urlcache(1), FILES).  Its first line is VERIFIED_MAGIC, its
 * second "T ns": every entry whose ctime is before that time was read and
 * found sound by a cleanup, and has not changed since (writing, renaming
 * or touching a file sets its ctime to now, and nothing can set it back).
 * Then one line "KEY ns" for each such entry with an expires_at, sorted
 * by key.  Cleanup writes it when it has read entries of the directory
 * and could read all it tried; a file it cannot parse is no file.  The
 * idea is ccache's: a small file per fan-out directory that a walk reads
 * instead of every entry.
 */
#define VERIFIED       ".verified"
#define VERIFIED_MAGIC "urlkit-cache-verified 1"
#define VERIFIED_MAX   (64L << 20)
/* Clocks: a file's ctime comes from the kernel's coarse clock, which may
 * lag the one uk_util_time_now_ns reads; the stamp is taken this much early. */
#define VERIFIED_SLACK (NS)

static int
vexp_cmp(const void *a, const void *b)
{
	return strcmp(((const struct vexp *)a)->key,
	    ((const struct vexp *)b)->key);
}

static void
vexp_add(struct cleanup_ctx *x, const char *key, long long expires)
{
	if (x->nnew == x->anew) {
		x->anew = x->anew ? 2 * x->anew : 64;
		x->nw = uk_util_xrealloc(x->nw, x->anew * sizeof(*x->nw));
	}
	memcpy(x->nw[x->nnew].key, key, 17);
	x->nw[x->nnew++].expires = expires;
}

/* A decimal number of exactly the bytes s[0..n), or -1. */
static long long
vnum(const char *s, size_t n)
{
	long long v = 0;
	size_t i;

	if (!n || n > 19)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Read dfd's VERIFIED file into x->stamp and x->old (stamp 0: none). */
static void
verified_read(struct cleanup_ctx *x, int dfd)
{
	struct stat st;
	const char *p, *end, *nl;
	long long t;
	int fd;

	x->stamp = 0;
	x->nold = 0;
	fd = openat(dfd, VERIFIED, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK);
	if (fd < 0)
		return;
	uk_buf_reset(&x->b);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > VERIFIED_MAX ||
	    uk_cache_read_fd(fd, st.st_size, &x->b)) {
		close(fd);
		return;
	}
	close(fd);
	p = x->b.buf;
	end = p + x->b.len;
	if (!(nl = memchr(p, '\n', (size_t)(end - p))) ||
	    (size_t)(nl - p) != strlen(VERIFIED_MAGIC) ||
	    memcmp(p, VERIFIED_MAGIC, (size_t)(nl - p)))
		return;
	p = nl + 1;
	if (!(nl = memchr(p, '\n', (size_t)(end - p))) || nl - p < 3 ||
	    memcmp(p, "T ", 2) || (t = vnum(p + 2, (size_t)(nl - p - 2))) <= 0)
		return;
	/* A time to come: written by a clock since set back, whose entries
	 * to come would pass for read.  No file. */
	if (t > x->now)
		return;
	for (p = nl + 1; p < end; p = nl + 1) {
		struct vexp *v;
		long long e;

		if (!(nl = memchr(p, '\n', (size_t)(end - p))) ||
		    nl - p < 18 || !is_hex(p, 16) || p[16] != ' ' ||
		    (e = vnum(p + 17, (size_t)(nl - p - 17))) <= 0)
			return;
		if (x->nold && memcmp(p, x->old[x->nold - 1].key, 16) <= 0)
			return; /* not sorted */
		if (x->nold == x->aold) {
			x->aold = x->aold ? 2 * x->aold : 64;
			x->old =
			    uk_util_xrealloc(x->old, x->aold * sizeof(*x->old));
		}
		v = &x->old[x->nold++];
		memcpy(v->key, p, 16);
		v->key[16] = '\0';
		v->expires = e;
	}
	x->stamp = t;
}

/*
 * Whether the VERIFIED file vouches for the entry f (read and found
 * sound, unchanged since): 1 with *expires its expires_at (0: none).
 */
static int
verified(struct cleanup_ctx *x, const struct uk_cache_file *f,
    long long *expires)
{
	struct vexp k, *v;

	*expires = 0;
	if (!x->stamp || f->ctime_ns >= x->stamp)
		return 0;
	memcpy(k.key, f->key, 17);
	if (x->nold && (v = bsearch(&k, x->old, x->nold, sizeof(k),
	    vexp_cmp)))
		*expires = v->expires;
	return 1;
}

/*
 * After the files of a fan-out directory: rewrite its pack when it has
 * anything to drop, or to take in enough small loose entries
 * (doc/CACHE.md).
 */
static void
pack_dir(struct cleanup_ctx *x, int dfd, const char *dir)
{
	struct uk_cache_repack r;
	struct uk_err err;

	if (!x->repack && x->add.n < UK_CACHE_PACK_MIN &&
	    !(x->o->pack && x->add.n))
		return;
	memset(&r, 0, sizeof(r));
	r.now = x->now;
	r.ttl_ns = (long long)x->c->ttl * NS;
	if (x->shadow.n > 1)
		qsort(x->shadow.k, x->shadow.n, sizeof(*x->shadow.k), key_cmp);
	r.shadow = (const char(*)[17])x->shadow.k;
	r.nshadow = x->shadow.n;
	r.add = (const char(*)[17])x->add.k;
	r.nadd = x->add.n;
	if (uk_cache_repack_run(dfd, dir, &r, &err)) {
		/* Packing only saves disk: a read-only cache is left loose.
		 * Entries to drop that stay are a failure to remove. */
		if (x->repack) {
			x->o->failed++;
			x->o->fail_errno =
			    err.code == UK_EXIT_FATAL ? EACCES : EIO;
		}
		return;
	}
	x->o->packed += r.packed;
	/* Found corrupt by their CRC as they were copied. */
	x->o->corrupt += r.corrupt;
	x->o->entries_left -= r.corrupt;
}

/* Before and after the files of a fan-out directory. */
static void
cleanup_dir(void *ctx, int dfd, const char *dir, int end)
{
	struct cleanup_ctx *x = ctx;
	struct uk_buf out = UK_BUF_INIT;
	struct uk_err err;
	size_t i;

	if (!end) {
		x->shadow.n = x->add.n = 0;
		x->repack = 0;
	} else if (!x->o->dry_run) {
		pack_dir(x, dfd, dir);
	}
	if (x->o->no_verify)
		return;
	if (!end) {
		x->t0 = uk_util_time_now_ns() - VERIFIED_SLACK;
		x->nnew = 0;
		x->fresh = x->unsure = 0;
		verified_read(x, dfd);
		return;
	}
	/* Nothing new read: the old file still says all there is to say. */
	if (x->o->dry_run || !x->fresh || x->unsure)
		return;
	if (x->nnew) /* x->nw is NULL then */
		qsort(x->nw, x->nnew, sizeof(*x->nw), vexp_cmp);
	uk_buf_addf(&out, "%s\nT %lld\n", VERIFIED_MAGIC, x->t0);
	for (i = 0; i < x->nnew; i++)
		uk_buf_addf(&out, "%s %lld\n", x->nw[i].key, x->nw[i].expires);
	/* A failure costs only a read of every entry next time. */
	(void)uk_write_file_at(dfd, dir, VERIFIED, out.buf, out.len, -1, &err);
	uk_buf_release(&out);
}

/* Count f as left, and keep it for the size limit. */
static void
keep(struct cleanup_ctx *x, const struct uk_cache_file *f)
{
	struct kept *k;

	x->o->entries_left++;
	x->o->bytes_left += (unsigned long long)f->size;
	if (!x->o->max_size)
		return;
	if (x->nkept == x->akept) {
		x->akept = x->akept ? 2 * x->akept : 1024;
		x->kept =
		    uk_util_xrealloc(x->kept, x->akept * sizeof(*x->kept));
	}
	k = &x->kept[x->nkept++];
	k->path = uk_util_xstrdup(f->path);
	memcpy(k->key, f->key, 17);
	k->packed = f->packed;
	k->atime_ns = f->atime_ns;
	k->size = f->size;
	k->dev = f->dev;
	k->ino = f->ino;
}

/*
 * A packed entry: expired ones are reported here and go with the pack's
 * rewrite (pack_dir); the others are taken as sound, their CRC checked on
 * each read and at each rewrite.
 */
static int
cleanup_packed(struct cleanup_ctx *x, const struct uk_cache_file *f)
{
	if (f->expired || (f->expires_ns > 0 && f->expires_ns <= x->now)) {
		x->repack = 1;
		x->o->expired++;
		if (x->o->fn)
			x->o->fn(x->o->ctx, f, "expired");
		x->o->bytes_freed += (unsigned long long)f->size;
		return 0;
	}
	keep(x, f);
	return 0;
}

/* The pack itself, after its entries. */
static int
cleanup_pack(struct cleanup_ctx *x, const struct uk_cache_file *f)
{
	if (f->bad) {
		/* Its entries cannot be told apart: the file goes. */
		x->o->corrupt += drop(x, f, "corrupt", 1);
		return 0;
	}
	if (f->drop)
		x->repack = 1;
	if (f->brief) {
		x->o->entries_left += f->count;
		x->o->bytes_left += (unsigned long long)f->size;
	}
	return 0;
}

static int
cleanup_one(void *ctx, const struct uk_cache_file *f)
{
	struct cleanup_ctx *x = ctx;
	long long exp_at = 0;

	switch (f->kind) {
	case UK_CACHE_TEMP:
		if (f->mtime_ns + UK_CACHE_TMP_AGE * NS < x->now ||
		    writer_gone(f->pid, f->mtime_ns))
			x->o->temp += drop(x, f, "temp", 0);
		return 0;
	case UK_CACHE_OTHER:
		keys_add(&x->shadow, f->key);
		return 0;
	case UK_CACHE_PACK:
		return cleanup_pack(x, f);
	case UK_CACHE_ENTRY:
		break;
	}
	if (f->packed)
		return cleanup_packed(x, f);
	keys_add(&x->shadow, f->key);
	if (f->expired) {
		x->o->expired += drop(x, f, "expired", 0);
		return 0;
	}
	/* The smallest entry, {"url":""}, has 10 bytes: an empty file (what
	 * a power failure can leave without fsync) is corrupt even to
	 * no_verify. */
	if (f->size < 10 || (!x->o->no_verify && !verified(x, f, &exp_at) &&
	    !entry_ok(x, f, &exp_at))) {
		x->o->corrupt += drop(x, f, "corrupt", 1);
		return 0;
	}
	/* A lifetime the response gave (uk_cache_lifetime) that is over:
	 * expired as by the TTL, as get_entry judges it.  (--fast reads no
	 * entry, so only the TTL counts there.) */
	if (exp_at > 0 && exp_at <= x->now) {
		x->o->expired += drop(x, f, "expired", 1);
		return 0;
	}
	if (exp_at > 0)
		vexp_add(x, f->key, exp_at);
	/* --fast reads no entry, so it packs none. */
	if (f->size <= UK_CACHE_PACK_MAX && !x->o->no_verify)
		keys_add(&x->add, f->key);
	keep(x, f);
	return 0;
}

static int
by_atime(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->atime_ns != y->atime_ns)
		return x->atime_ns < y->atime_ns ? -1 : 1;
	return strcmp(x->path, y->path);
}

/*
 * Remove the kept entry k (not in a dry run): 0, or -1 when it is not
 * there any more or cannot be removed.  A packed one is marked dead, and
 * its fan-out directory noted in repack for a rewrite.
 */
static int
evict_one(struct cleanup_ctx *x, const struct kept *k, unsigned char *repack)
{
	struct uk_cache_clean *o = x->o;
	char name[24];
	struct stat st;
	int dfd, e = 0;

	if (o->dry_run)
		return 0;
	if ((dfd = uk_cache_fanout_open(x->c, k->key, 0)) < 0)
		return -1;
	if (k->packed) {
		errno = 0;
		if (uk_cache_pack_kill(dfd, k->key) != 1)
			e = errno ? errno : ENOENT;
		else
			repack[(strchr(hexd, k->key[0]) - hexd) * 16 +
			    (strchr(hexd, k->key[1]) - hexd)] = 1;
	} else {
		snprintf(name, sizeof(name), "%s.json", k->key);
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) ||
		    (unsigned long long)st.st_ino != k->ino ||
		    (unsigned long long)st.st_dev != k->dev)
			e = ENOENT;
		else if (unlinkat(dfd, name, 0))
			e = errno;
	}
	close(dfd);
	if (e && e != ENOENT) {
		o->failed++;
		o->fail_errno = e;
	}
	return e ? -1 : 0;
}

/* Rewrite the packs of the fan-out directories marked in repack. */
static void
evict_repack(struct cleanup_ctx *x, const unsigned char *repack)
{
	struct uk_cache_repack r;
	struct uk_buf dir = UK_BUF_INIT;
	struct uk_err err;
	char kk[3];
	int i, dfd;

	for (i = 0; i < 256; i++) {
		if (!repack[i])
			continue;
		kk[0] = hexd[i / 16];
		kk[1] = hexd[i % 16];
		kk[2] = '\0';
		if ((dfd = uk_cache_fanout_open(x->c, kk, 0)) < 0)
			continue;
		memset(&r, 0, sizeof(r));
		r.now = x->now;
		r.ttl_ns = (long long)x->c->ttl * NS;
		uk_buf_reset(&dir);
		uk_buf_addf(&dir, "%s/%s", x->c->dir, kk);
		if (uk_cache_repack_run(dfd, dir.buf, &r, &err)) {
			x->o->failed++;
			x->o->fail_errno =
			    err.code == UK_EXIT_FATAL ? EACCES : EIO;
		}
		close(dfd);
	}
	uk_buf_release(&dir);
}

/* Evict the least recently used entries until the rest fit. */
static void
evict(struct cleanup_ctx *x)
{
	struct uk_cache_clean *o = x->o;
	struct uk_cache_file f;
	unsigned char repack[256];
	size_t i;

	memset(repack, 0, sizeof(repack));
	qsort(x->kept, x->nkept, sizeof(*x->kept), by_atime);
	for (i = 0; i < x->nkept && o->bytes_left > o->max_size; i++) {
		struct kept *k = &x->kept[i];
		const char *slash = strrchr(k->path, '/');

		if (evict_one(x, k, repack))
			continue;
		memset(&f, 0, sizeof(f));
		f.kind = UK_CACHE_ENTRY;
		f.path = k->path;
		f.name = slash ? slash + 1 : k->path;
		memcpy(f.key, k->key, 17);
		f.packed = k->packed;
		f.atime_ns = k->atime_ns;
		f.size = k->size;
		f.dirfd = AT_FDCWD;
		f.packfd = -1;
		if (o->fn)
			o->fn(o->ctx, &f, "size");
		o->evicted++;
		o->bytes_freed += (unsigned long long)k->size;
		o->bytes_left -= (unsigned long long)k->size;
		o->entries_left--;
	}
	evict_repack(x, repack);
}

long
uk_cache_clean_run(struct uk_cache *c, struct uk_cache_clean *o,
    struct uk_err *err)
{
	struct uk_cache_clean dflt;
	struct cleanup_ctx x;
	size_t i;
	int r;

	if (!o) {
		memset(&dflt, 0, sizeof(dflt));
		o = &dflt;
	}
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.o = o;
	x.now = uk_util_time_now_ns();
	uk_buf_init(&x.b, 0);
	o->expired = o->corrupt = o->temp = o->evicted = o->failed = 0;
	o->fail_errno = 0;
	o->bytes_freed = o->bytes_left = 0;
	o->entries_left = 0;
	o->packed = 0;
	/* Without a size limit, a pack with nothing to do is taken by its
	 * header alone. */
	r = walk(c, cleanup_one, cleanup_dir, &x, !o->max_size, err);
	if (r >= 0 && o->max_size && o->bytes_left > o->max_size)
		evict(&x);
	for (i = 0; i < x.nkept; i++)
		free(x.kept[i].path);
	free(x.kept);
	free(x.old);
	free(x.nw);
	free(x.shadow.k);
	free(x.add.k);
	uk_buf_release(&x.b);
	if (r < 0)
		return -1;
	if (o->failed && uk_util_errno_fatal(o->fail_errno))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot remove %ld file%s in '%s': %s", o->failed,
		    o->failed == 1 ? "" : "s", c->dir, strerror(o->fail_errno));
	return o->expired + o->corrupt + o->temp + o->evicted;
}

struct clear_ctx {
	long n, failed, packed;
	long long now;
	int fail_errno;
};

static int
clear_one(void *ctx, const struct uk_cache_file *f)
{
	struct clear_ctx *x = ctx;

	if (f->kind == UK_CACHE_ENTRY && f->packed) {
		x->packed++; /* they go with their pack */
	} else if (f->kind == UK_CACHE_PACK) {
		if (!unlinkat(f->dirfd, f->name, 0))
			x->n += x->packed;
		else if (errno != ENOENT) {
			x->failed += x->packed;
			x->fail_errno = errno;
		}
		x->packed = 0;
	} else if (f->kind == UK_CACHE_ENTRY) {
		if (!unlinkat(f->dirfd, f->name, 0))
			x->n++;
		else if (errno != ENOENT) {
			x->failed++;
			x->fail_errno = errno;
		}
	} else if (f->kind == UK_CACHE_TEMP &&
	    (f->mtime_ns + UK_CACHE_TMP_AGE * NS < x->now ||
		writer_gone(f->pid, f->mtime_ns))) {
		unlinkat(f->dirfd, f->name, 0);
	}
	return 0;
}

long
uk_cache_clean_remove_all(struct uk_cache *c, struct uk_err *err)
{
	struct clear_ctx x;

	memset(&x, 0, sizeof(x));
	x.now = uk_util_time_now_ns();
	if (uk_cache_clean_walk(c, clear_one, &x, err) < 0)
		return -1;
	if (x.failed)
		return uk_util_err_set(err,
		    uk_util_errno_fatal(x.fail_errno) ? UK_EXIT_FATAL :
							UK_EXIT_FAIL,
		    "removed %ld, cannot remove %ld in '%s': %s", x.n, x.failed,
		    c->dir, strerror(x.fail_errno));
	return x.n;
}
