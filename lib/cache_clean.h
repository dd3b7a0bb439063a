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
 * Then it rewrites the directory's pack (cache_repack.h) when the pack
 * has entries to drop, or to take in 16 small loose entries or more
 * (o->pack: any); a pack with nothing to do is judged by its header.
 *
 * Temporary files are DIR/KK/.KEY.json.tmp.PID.RAND; cleanup removes one
 * whose writer is gone (no process PID, or one that started after the file
 * was last written: the PID was reused, as /proc tells) or that has not
 * been written for UK_CACHE_TMP_AGE seconds.  (A temporary file keeps the
 * times its writes gave it; an entry whose age must be kept gets its
 * mtime after the rename.)
 */

#include "buf.h"
#include "cache.h"
#include "json.h"
#include "util.h"

#define UK_CACHE_TMP_AGE 60 /* seconds */

/*
 * What the walk hands its callback for each file it meets, and for each
 * entry of a fan-out directory's pack (cache_pack.h, doc/CACHE.md).
 */
enum uk_cache_kind {
	UK_CACHE_ENTRY, /* KK/KEY.json, a regular file, or an entry of KK/pack */
	UK_CACHE_TEMP,  /* KK/.KEY.json.tmp.PID.RAND, KK/.pack.tmp.PID.RAND */
	UK_CACHE_OTHER, /* KK/KEY.json that is not a regular file */
	UK_CACHE_PACK   /* KK/pack itself, after the entries it holds */
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
	/*
	 * A packed entry (kind UK_CACHE_ENTRY): path and name are the
	 * pack's, dev and ino too, times and size the entry's (ctime: its
	 * mtime); read it with uk_cache_file_read, never by its name.  The
	 * walk leaves out dead slots and those a loose entry shadows.
	 */
	int packed;
	int packfd;           /* the pack, during the callback */
	unsigned long long off;
	unsigned long crc, idx;
	long long expires_ns; /* its expires_at, 0: none */
	/* UK_CACHE_PACK: the live entries it holds (listed before it, unless
	 * brief), the slots dead or shadowed, and bad when it does not hold
	 * together (no entry of it listed). */
	long count, drop;
	int bad, brief;
};

/*
 * The text of the entry f (loose or packed) into b: 0, 1 when a packed
 * one fails its CRC, -1 with errno.
 */
int uk_cache_file_read(const struct uk_cache_file *f, struct uk_buf *b);
/* uk_cache_load_at for f, loose or packed (a packed one failing its CRC
 * is corrupt: 0). */
int uk_cache_file_load(const struct uk_cache_file *f, yajl_val *rec,
    struct uk_err *err);

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
	int pack; /* pack small loose entries however few (doc/CACHE.md) */
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
	long packed;    /* loose entries moved into packs */
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
