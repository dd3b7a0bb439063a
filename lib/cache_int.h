/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_INT_H
#define UK_CACHE_INT_H

/*
 * What cache.c lends cache_clean.c: private to the two (cache.h and
 * cache_clean.h are the API).
 */

#include <sys/stat.h>

#include "buf.h"
#include "cache.h"

/* An entry larger than this is taken as corrupt rather than read. */
#define UK_CACHE_MAX_ENTRY (1LL << 30)

/* A get flag of the cache's own: keep the entry's "previous". */
#define UK_CACHE_PREVIOUS 0x100

/*
 * For uk_cache_set (cache_change.c): entry, the copy of rec about to be
 * stored at time when (RFC 3339), gets its previous and changed_at against
 * old, the entry it replaces ("previous" and all; NULL: none); rec gets
 * content_hash, change and, with c->diff_lines, the diff (cache.h).
 */
void uk_cache_change_note(const struct uk_cache *c, yajl_val rec,
    yajl_val entry, yajl_val old, const char *when);

/* A file time in ns since the epoch. */
static inline long long
uk_cache_ts_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/*
 * The fan-out directory DIR/KK of key, never through a link (create: make
 * it): its descriptor, or -1 with errno (ELOOP: KK is a link or not a
 * directory).
 */
int uk_cache_fanout_open(const struct uk_cache *c, const char *key,
    int create);

/* Read all of fd (size as fstat gave it) into b: 0, or -1 with errno. */
int uk_cache_read_fd(int fd, long long size, struct uk_buf *b);

/*
 * Whether b holds one JSON object whose string url has the key key (or,
 * with url, is url), by yajl's streaming parser; *marked (may be NULL)
 * tells a top-level "cached" or "expired", *expires (may be NULL) the
 * entry's expires_at in ns (0: none).
 */
int uk_cache_entry_check(const struct uk_buf *b, const char *key,
    const char *url, int *marked, long long *expires);

/*
 * unlinkat(dirfd, name) only while it is still the file dev and ino
 * name: 0, or -1 with errno (ESTALE: replaced meanwhile).
 */
int uk_cache_unlink_same(int dirfd, const char *name, unsigned long long dev,
    unsigned long long ino);

#endif
