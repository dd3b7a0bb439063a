/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_H
#define UK_CACHE_H

/*
 * The filesystem cache of content records (urlkit(7), urlcache(1)).
 *
 * An entry is one JSON file, DIR/KK/KEY.json, where KEY is the first 16 hex
 * digits of SHA-256 of the URL and KK its first two.  The entry holds the
 * content record with the full URL (a get whose stored URL differs is a
 * miss), cached_at and fetched_at.  Writes go to a temporary file in the
 * same directory and are renamed into place, so readers see the old entry
 * or the new one, never half of one.
 *
 * (This header is the contract between the cache and its users; urlcache's
 * implementation may add to it.)
 */

#include "json.h"
#include "util.h"

#define UK_CACHE_TTL_DEFAULT 86400L

struct uk_cache {
	char *dir; /* the cache directory, absolute or as given */
	long ttl;  /* seconds */
};

/*
 * Set up c: dir, else URLKIT_CACHE_DIR, else $XDG_CACHE_HOME/urlkit, else
 * ~/.cache/urlkit; ttl >= 0, else URLKIT_CACHE_TTL, else 24 hours.  Does
 * not create the directory (the first write does, mode 0700).  -1 with err
 * (code UK_EXIT_FATAL) when no directory can be found or the TTL is bad.
 */
int uk_cache_open(struct uk_cache *c, const char *dir, long ttl,
    struct uk_err *err);
void uk_cache_release(struct uk_cache *c);

/* The key of url: 16 lower-case hex digits and a NUL. */
void uk_cache_key(const char *url, char key[17]);

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
 * field "cached" is not stored.  0, or -1 with err.
 */
int uk_cache_set(struct uk_cache *c, yajl_val rec, struct uk_err *err);

/*
 * Add summary and summary_type to the entry of url in place (read, modify,
 * atomic write), leaving the source content as it is.  1 done, 0 no such
 * entry, -1 with err.
 */
int uk_cache_update_summary(struct uk_cache *c, const char *url,
    const char *summary, const char *summary_type, struct uk_err *err);

/* Delete the entry of url: 1 found and removed, 0 not there, -1 error. */
int uk_cache_invalidate(struct uk_cache *c, const char *url,
    struct uk_err *err);

/* Delete every entry; returns how many, or -1 with err. */
long uk_cache_clear(struct uk_cache *c, struct uk_err *err);

/*
 * Delete expired and corrupt entries and stray temporary files; returns
 * how many, or -1 with err.
 */
long uk_cache_cleanup(struct uk_cache *c, struct uk_err *err);

#endif
