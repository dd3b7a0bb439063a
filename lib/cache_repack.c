/* SPDX-License-Identifier: MIT */
/* The rewrite of a fan-out directory's pack: see cache_repack.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_int.h"
#include "cache_pack.h"
#include "cache_repack.h"
#include "util.h"
#include "write.h"

#include "banned.h"

/* A slot of the new pack, with where its text is (in old, or in b). */
struct newslot {
	struct uk_cache_slot s;
	const char *text;
	size_t bi; /* offset in the loose texts' buffer, when text is NULL */
};

static int
newslot_cmp(const void *a, const void *b)
{
	return strcmp(((const struct newslot *)a)->s.key,
	    ((const struct newslot *)b)->s.key);
}

static int
key_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* A loose entry moved in, to unlink once the pack is in place. */
struct moved {
	char name[24];
	unsigned long long dev, ino;
};

/*
 * Read the loose entry key of dfd for the rewrite: 1 with its text
 * appended to b and ns filled, 0 when it is not to be packed (gone,
 * large, expired, not sound).
 */
static int
loose_take(int dfd, const char *key, const struct uk_cache_repack *r,
    struct uk_buf *b, struct newslot *ns, struct moved *mv)
{
	struct uk_buf t = UK_BUF_INIT;
	struct stat st;
	long long exp = 0;
	int fd, ok = 0;

	snprintf(mv->name, sizeof(mv->name), "%s.json", key);
	fd = openat(dfd, mv->name,
	    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = openat(dfd, mv->name,
		    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > UK_CACHE_PACK_MAX || st.st_size < 10 ||
	    uk_cache_ts_ns(&st.st_mtim) + r->ttl_ns <= r->now ||
	    uk_cache_read_fd(fd, st.st_size, &t) ||
	    !uk_cache_entry_check(&t, key, NULL, NULL, &exp) ||
	    (exp > 0 && exp <= r->now))
		goto out;
	memset(ns, 0, sizeof(*ns));
	memcpy(ns->s.key, key, 17);
	ns->s.len = t.len;
	ns->s.crc = uk_cache_pack_crc32(t.buf, t.len);
	ns->s.mtime = uk_cache_ts_ns(&st.st_mtim);
	ns->s.atime = uk_cache_ts_ns(&st.st_atim);
	ns->s.expires = exp;
	ns->bi = b->len;
	uk_buf_add(b, t.buf, t.len);
	mv->dev = (unsigned long long)st.st_dev;
	mv->ino = (unsigned long long)st.st_ino;
	ok = 1;
out:
	close(fd);
	uk_buf_release(&t);
	return ok;
}

/*
 * Whether the loose file of key is there now, under the lock: the walk
 * that listed it may be old news, another cleanup having packed it since.
 */
static int
shadowed(int dfd, const char *key)
{
	char name[24];
	struct stat st;

	snprintf(name, sizeof(name), "%s.json", key);
	return !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

/*
 * The slots sl[0..nsl) of the old pack (its whole file in old) that
 * stay, into ns; counts in r.  Returns how many.
 */
static size_t
pack_keep(int dfd, const struct uk_buf *old, const struct uk_cache_slot *sl,
    size_t nsl, struct uk_cache_repack *r, struct newslot *ns)
{
	size_t i, n = 0;

	for (i = 0; i < nsl; i++) {
		const struct uk_cache_slot *s = &sl[i];

		if (!s->mtime ||
		    (r->nshadow &&
			bsearch(s->key, r->shadow, r->nshadow, 17, key_cmp) &&
			shadowed(dfd, s->key))) {
			r->dropped++;
			continue;
		}
		if (s->mtime + r->ttl_ns <= r->now ||
		    (s->expires > 0 && s->expires <= r->now)) {
			r->expired++;
			continue;
		}
		if (s->off + s->len > old->len ||
		    uk_cache_pack_crc32(old->buf + s->off, s->len) != s->crc) {
			r->corrupt++;
			continue;
		}
		ns[n].s = *s;
		ns[n].text = old->buf + s->off;
		n++;
	}
	return n;
}

/* The old pack of dfd, whole, into old and its slots: 0 (none: *nsl 0),
 * 1 when it does not hold together, -1 with errno. */
static int
pack_load(int dfd, struct uk_buf *old, struct uk_cache_slot **sl, size_t *nsl)
{
	struct uk_cache_packhdr h;
	struct stat st;
	int fd, r = 0;

	*sl = NULL;
	*nsl = 0;
	if ((fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &st)) < 0)
		return errno == ENOENT ? 0 : errno == EINVAL ? 1 : -1;
	if (uk_cache_pack_index(fd, &h, st.st_size, sl, nsl))
		r = 1;
	else if (uk_cache_read_fd(fd, st.st_size, old))
		r = -1;
	close(fd);
	return r;
}

int
uk_cache_repack_run(int dfd, const char *dir, struct uk_cache_repack *r,
    struct uk_err *err)
{
	struct uk_buf old = UK_BUF_INIT, loose = UK_BUF_INIT, out = UK_BUF_INIT;
	struct uk_cache_slot *sl = NULL, *nsl_out = NULL;
	const char **texts = NULL;
	struct newslot *ns = NULL;
	struct moved *mv = NULL;
	size_t nsl = 0, n = 0, nmv = 0, i;
	int rc = 0, lr;

	r->expired = r->corrupt = r->dropped = r->packed = r->count = 0;
	while (flock(dfd, LOCK_EX) && errno == EINTR)
		;
	if ((lr = pack_load(dfd, &old, &sl, &nsl)) < 0) {
		rc = uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot read '%s/%s': %s", dir, UK_CACHE_PACK_NAME,
		    strerror(errno));
		goto out;
	}
	if (lr == 1)
		r->corrupt++; /* a pack that does not hold together goes */
	ns = uk_util_xmalloc((nsl + r->nadd + 1) * sizeof(*ns));
	mv = uk_util_xmalloc((r->nadd + 1) * sizeof(*mv));
	n = pack_keep(dfd, &old, sl, nsl, r, ns);
	for (i = 0; i < r->nadd; i++)
		if (loose_take(dfd, r->add[i], r, &loose, &ns[n], &mv[nmv])) {
			ns[n++].text = NULL;
			nmv++;
		}
	qsort(ns, n, sizeof(*ns), newslot_cmp);
	r->packed = (long)nmv;
	r->count = (long)n;
	if (!n) {
		if (unlinkat(dfd, UK_CACHE_PACK_NAME, 0) && errno != ENOENT)
			rc = uk_util_err_set(err,
			    uk_util_errno_fatal(errno) ? UK_EXIT_FATAL :
							 UK_EXIT_FAIL,
			    "cannot remove '%s/%s': %s", dir,
			    UK_CACHE_PACK_NAME, strerror(errno));
		goto out;
	}
	nsl_out = uk_util_xmalloc(n * sizeof(*nsl_out));
	texts = uk_util_xmalloc(n * sizeof(*texts));
	for (i = 0; i < n; i++) {
		nsl_out[i] = ns[i].s;
		texts[i] = ns[i].text ? ns[i].text : loose.buf + ns[i].bi;
	}
	uk_cache_pack_build(nsl_out, texts, n, &out);
	if (uk_write_file_at(dfd, dir, UK_CACHE_PACK_NAME, out.buf, out.len, -1,
		err)) {
		rc = -1;
		r->packed = 0;
		goto out;
	}
	/* In place: the loose copies go, unless a writer replaced them. */
	for (i = 0; i < nmv; i++)
		uk_cache_unlink_same(dfd, mv[i].name, mv[i].dev, mv[i].ino);
out:
	flock(dfd, LOCK_UN);
	free(sl);
	free(nsl_out);
	free(texts);
	free(ns);
	free(mv);
	uk_buf_release(&old);
	uk_buf_release(&loose);
	uk_buf_release(&out);
	return rc;
}
