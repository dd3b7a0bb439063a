/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_H
#define UK_CACHE_H

/*
 * The filesystem cache of content records (urlkit(7), urlcache(1)).
 *
 * An entry is one JSON file, DIR/KK/KEY.json, where KEY is the first 16 hex
 * digits of SHA-256 of the URL and KK its first two, or, once cleanup has
 * packed it, a slot of DIR/KK/pack (cache_pack.h, doc/CACHE.md), which a
 * loose file of the same key shadows.  The entry holds the
 * content record with the full URL (a get whose stored URL differs is a
 * miss), cached_at and fetched_at.  Writes go to a temporary file in the
 * same directory and are renamed into place, so readers see the old entry
 * or the new one, never half of one.  SIGINT, SIGTERM and SIGHUP are
 * blocked in the calling thread while a temporary file exists, so a
 * signal never leaves one behind.
 *
 * What changed (urlkit(7)): uk_cache_set compares the content it stores
 * with the entry it replaces, by SHA-256 (as uk_record_hash gives it; the
 * entry keeps no top-level content_hash, so that a get returns what was
 * set).  When they differ, the entry keeps the one it replaces as
 * "previous": {"content_hash", "content", "fetched_at"} (one version back,
 * in the same file, so its size, cleanup, the size limit and the remote
 * stores all count it) and "changed_at" (RFC 3339) says when that store
 * was; when they are the same, the older "previous" and "changed_at" stay
 * as they were.  A get never returns "previous".
 */

#include "buf.h"
#include "json.h"
#include "util.h"

#define UK_CACHE_TTL_DEFAULT 86400L

struct uk_cache_remote;

/*
 * What a run did with the cache directory (cache_stats.h): gets that hit
 * and missed, entries stored, entries removed as expired or corrupt (by
 * a get, or by cleanup), and I/O errors.  Updated atomically, so threads
 * may share a cache.
 */
struct uk_cache_counts {
	unsigned long hits, misses, stores, evictions, errors;
};

struct uk_cache {
	char *dir; /* the cache directory, absolute or as given */
	long ttl;  /* seconds */
	/* The remote stores behind dir (cache_remote.h), or NULL. */
	struct uk_cache_remote *remote;
	/* This run's counts, added to DIR/stats by uk_cache_release unless
	 * count_off (urlcache sets it: a query is not the cache's use, and
	 * the file's update would triple the time of its one hit). */
	struct uk_cache_counts count;
	int count_off;
	/* uk_cache_set's "diff" of a changed content: 0 none, else at most
	 * this many lines of it (diff.h).  uk_cache_open sets 0. */
	long diff_lines;
};

/*
 * Set up c: dir, else URLKIT_CACHE_DIR, else $XDG_CACHE_HOME/urlkit, else
 * ~/.cache/urlkit; ttl >= 0, else URLKIT_CACHE_TTL, else 24 hours; the
 * remote stores URLKIT_CACHE_REMOTE names (cache_remote.h: get, set and
 * invalidate then go through them too; no connection is made yet).  Does
 * not create the directory (the first write does, mode 0700).  -1 with err
 * (code UK_EXIT_FATAL) when no directory can be found or the TTL is bad,
 * UK_EXIT_USAGE when URLKIT_CACHE_REMOTE is.
 */
int uk_cache_open(struct uk_cache *c, const char *dir, long ttl,
    struct uk_err *err);
/* Add this run's counts to the cache's (cache_stats.h) when there are any,
 * and free c's contents. */
void uk_cache_release(struct uk_cache *c);

/* The key of url: 16 lower-case hex digits and a NUL. */
void uk_cache_key(const char *url, char key[17]);
/* The SHA-256 of data[0..len) in lower-case hex, NUL-terminated (the
 * cache key is its first 16 digits).  Takes libcrypto in (cache_digest.c):
 * for large data; uk_cache_key has its own, for a URL. */
void uk_cache_digest_sha256(const void *data, size_t len, char hex[65]);

/* Flags for uk_cache_get. */
#define UK_CACHE_STALE 1 /* return an expired entry too, and keep it */

/*
 * Look url up.  Returns 1 with *rec set (owned by the caller; "cached" is
 * not set, the caller decides), 0 on a miss (an expired or corrupt entry
 * is deleted first, unless UK_CACHE_STALE), -1 with err on an I/O error
 * other than absence.  With UK_CACHE_STALE, an expired entry is returned
 * with *expired set to 1 (expired may be NULL otherwise).
 */
int uk_cache_get(struct uk_cache *c, const char *url, int flags,
    yajl_val *rec, int *expired, struct uk_err *err);

/*
 * Store the content record rec (it must have a string "url" and no
 * "error").  Sets cached_at to now and fetched_at if rec has none; the
 * fields "cached", "change", "diff", "diff_truncated" and "diff_too_large"
 * are not stored.  When rec has a string "content", rec itself gets its
 * "content_hash" and "change": "new" (no entry before, or one without
 * content), "same" or "changed" against the entry replaced (looked up in
 * the directory whatever its age, or in a remote-only store), and with
 * c->diff_lines and a change, "diff" (diff.h: the entry's content against
 * rec's) and "diff_truncated", or "diff_too_large": true.  0, or -1 with
 * err.
 */
int uk_cache_set(struct uk_cache *c, yajl_val rec, struct uk_err *err);

/*
 * Give rec, before uk_cache_set, the lifetime its response allows (life
 * as a request's cache_life says, http.h): with life > 0, "expires_at"
 * (RFC 3339) life seconds from now, after which a get takes the entry as
 * expired even within the TTL; with 0 none (the TTL alone).  Returns 1
 * when the response must not be stored at all (life < 0: no-store,
 * private), 0 otherwise.
 */
int uk_cache_lifetime(yajl_val rec, long life);
/* Whether rec has an expires_at (as uk_cache_lifetime sets it) now past. */
int uk_cache_past_lifetime(yajl_val rec);

/*
 * Add summary (summary_len bytes, a NUL in it kept) and summary_type to
 * the entry of url in place (read, modify, atomic write), leaving the
 * source content as it is.  1 done, 0 no such entry, -1 with err.
 */
int uk_cache_update_summary(struct uk_cache *c, const char *url,
    const char *summary, size_t summary_len, const char *summary_type,
    struct uk_err *err);

/* Delete the entry of url: 1 found and removed, 0 not there, -1 error. */
int uk_cache_invalidate(struct uk_cache *c, const char *url,
    struct uk_err *err);

/*
 * Expiry: an entry's clock is its file's mtime, the moment uk_cache_set
 * wrote it (within microseconds of the cached_at it wrote); an entry is
 * expired when mtime + ttl <= now.  (So `touch -d yesterday FILE`
 * expires an entry, and find(1) -mmin sees the ages urlcache sees.)
 * Recency for a size limit (cache_clean.h) is the file's atime, which
 * uk_cache_get sets to now on a hit (at most once a minute per entry),
 * whatever the mount's atime options.
 */

/*
 * Call fn with the text of each entry of the directory (one line ending in
 * '}', as uk_cache_get_raw leaves it, plus its "content_hash") whose
 * "changed_at" is after since
 * (ns since the epoch), and whether it is expired (it is listed all the
 * same), in no particular order; fn returns non-zero to stop.  Entries
 * that cannot be read are left out.  0 done, -1 with err (the walk's).
 */
int uk_cache_since_list(struct uk_cache *c, long long since,
    int (*fn)(void *ctx, const char *text, size_t len, int expired),
    void *ctx, struct uk_err *err);

/*
 * uk_cache_get without the tree, for programs that only pass the record
 * on: the entry is checked with yajl's streaming parser and its text left
 * in out as one line of JSON ending in '}' (no newline), without the keys
 * "cached" and "expired", ready to have fields appended.  Same returns.
 */
int uk_cache_get_raw(struct uk_cache *c, const char *url, int flags,
    struct uk_buf *out, int *expired, struct uk_err *err);

/* Path of the entry file of url (the caller frees it). */
char *uk_cache_path(const struct uk_cache *c, const char *url);
/*
 * The file that holds the entry of url: its loose file when there is one,
 * else its fan-out directory's pack (DIR/KK/pack) when that holds it,
 * else the loose file's path, where a store puts it (doc/CACHE.md).  The
 * caller frees it.
 */
char *uk_cache_where(const struct uk_cache *c, const char *url);

/*
 * Read and check the entry file at path (not its age): 1 with *rec set
 * (the caller frees it; rec may be NULL to only check), 0 when it is
 * corrupt (not a JSON object, no string url, or key given and the url's
 * key differs), -1 with err when it cannot be read (ENOENT: code 0).
 */
int uk_cache_load(const char *path, const char *key, yajl_val *rec,
    struct uk_err *err);
/*
 * uk_cache_load of the file name in the directory dirfd (a walk's
 * f->dirfd and f->name), never following a link; path is for messages.
 */
int uk_cache_load_at(int dirfd, const char *name, const char *path,
    const char *key, yajl_val *rec, struct uk_err *err);

#endif
