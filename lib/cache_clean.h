/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_CLEAN_H
#define UK_CACHE_CLEAN_H

/*
 * The cache's upkeep, for urlcache(1): a walk over its files, cleanup of
 * what is expired, corrupt or left behind, and eviction to a size limit.
 * An entry's age and recency are as cache.h says.
 *
 * Cleanup reads a fresh entry once: a fan-out directory's DIR/KK/.verified
 * (urlcache(1), FILES) vouches for the entries whose ctime is before its
 * time, with their expires_at, and the walk reads only the others.
 *
 * Temporary files are DIR/KK/.KEY.json.tmp.PID.RAND; cleanup removes one
 * whose writer is gone (no process PID, or one that started after the file
 * was last written: the PID was reused, as /proc tells) or that has not
 * been written for UK_CACHE_TMP_AGE seconds.  (A temporary file keeps the
 * times its writes gave it; an entry whose age must be kept gets its
 * mtime after the rename.)
 */

#include "cache.h"
#include "util.h"

#define UK_CACHE_TMP_AGE 60 /* seconds */

/* What the walk hands its callback for each file it meets. */
enum uk_cache_kind {
	UK_CACHE_ENTRY, /* KK/KEY.json, a regular file */
	UK_CACHE_TEMP,  /* KK/.KEY.json.tmp.PID.RAND */
	UK_CACHE_OTHER  /* KK/KEY.json that is not a regular file */
};

struct uk_cache_file {
	enum uk_cache_kind kind;
	const char *path;             /* DIR/KK/NAME */
	const char *name;             /* NAME */
	char key[17];                 /* KEY */
	long long mtime_ns, atime_ns; /* since the epoch */
	long long ctime_ns;           /* the inode's last change */
	long long size;
	int expired; /* entries: mtime + ttl <= now */
	long pid;    /* temporary files: the writer's PID */
	int dirfd;   /* DIR/KK, for the *at calls, during the callback */
	unsigned long long dev, ino;
};

/*
 * Call fn for every file under the fan-out directories DIR/KK, in no
 * particular order; fn returns non-zero to stop the walk (that value is
 * returned).  0 when done (also when DIR does not exist), -1 with err.
 */
int uk_cache_clean_walk(struct uk_cache *c,
    int (*fn)(void *ctx, const struct uk_cache_file *f), void *ctx,
    struct uk_err *err);

/* Options and results of uk_cache_clean_run. */
struct uk_cache_clean {
	int dry_run;                 /* report, remove nothing */
	int no_verify; /* do not read fresh entries; empty ones still go */
	unsigned long long max_size; /* 0: none; else evict oldest atime */
	/* Called for each file removed (or that would be); may be NULL. */
	void (
	    *fn)(void *ctx, const struct uk_cache_file *f, const char *reason);
	void *ctx;
	/* Filled in: what went, by reason, and what is left. */
	long expired, corrupt, temp, evicted;
	unsigned long long bytes_freed, bytes_left;
	long entries_left;
	long failed;    /* files that could not be removed */
	int fail_errno; /* why, for the last of them */
};

/*
 * Clean the cache up: expired entries, corrupt ones (unless no_verify),
 * stray temporary files, then with max_size the least recently used
 * entries until the rest fit.  o NULL: all zero (no limit, nothing
 * reported).  Returns how many files went (or would go), or -1 with err:
 * also when files could not be removed for lack of permission or a
 * read-only file system (code UK_EXIT_FATAL; the counts are filled all
 * the same).
 */
long uk_cache_clean_run(struct uk_cache *c, struct uk_cache_clean *o,
    struct uk_err *err);

/* Delete every entry; returns how many, or -1 with err. */
long uk_cache_clean_remove_all(struct uk_cache *c, struct uk_err *err);

#endif
