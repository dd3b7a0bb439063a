/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_REMOTE_H
#define UK_CACHE_REMOTE_H

/*
 * Remote stores behind the local cache directory (urlcache(1), "REMOTE
 * STORAGE"), in the manner of ccache's remote storage.  cache.c is the
 * only caller: a get that misses locally asks the stores in order, a set
 * writes to each writable store, an invalidate deletes from each.
 *
 * A store is named by a URL and attributes after '|' (ccache's syntax):
 *
 *	redis://[[USER:]PASSWORD@]HOST[:PORT][/DB][|ATTR[=VALUE]]...
 *	http[s]://[USER[:PASSWORD]@]HOST[:PORT]/PATH/[|ATTR[=VALUE]]...
 *
 * with the attributes read-only, remote-only (entries from and for this
 * store are not kept in the local directory), connect-timeout=MS and
 * operation-timeout=MS (both 1000 by default) and password-file=PATH (the
 * password is the file's first line, so it need not be on a command
 * line).  A spec holds several stores separated by white space; they are
 * tried in that order.
 *
 * A value in a store is a header line, "urlkit-entry 1 SUM LEN EXPIRES\n"
 * (SUM: the checksum given to uk_cache_remote_open, LEN the entry's length
 * in bytes, EXPIRES its expiry in seconds since the epoch), then the
 * entry's bytes as the local file holds them.  A value whose header,
 * length or sum does not match is corrupt: ignored, counted, never
 * served; one past EXPIRES is a miss (an http store has no expiry of its
 * own).
 *
 * Errors never fail a record: a store that cannot be reached or does not
 * answer within its timeouts is a miss, the error is counted, and after
 * UK_CACHE_REMOTE_MAX_ERRORS errors in a row the store is skipped for the
 * rest of the run, with one warning on stderr (uk_util_warn).  Connections are
 * made at a store's first use and kept.
 */

#include <stddef.h>

#include "buf.h"
#include "util.h"

#define UK_CACHE_REMOTE_MAX_ERRORS 3
#define UK_CACHE_REMOTE_TIMEOUT_MS 1000

/* What one store has done in this run (urlcache stats). */
struct uk_cache_remote_count {
	unsigned long hits, misses, stores, errors, corrupt;
};

/* The stores of one cache (opaque). */
struct uk_cache_remote;

/* The checksum of an entry: 16 hex digits and a NUL (uk_cache_sum). */
typedef void uk_cache_remote_sum_fn(const void *data, size_t len,
    char sum[17]);

/*
 * Parse spec into *rp (NULL when spec is NULL or only white space), its
 * entries to be checked with sum (cache.c's, given here so that this
 * module calls none of cache.c's): 0, or -1 with err (code UK_EXIT_USAGE)
 * naming the bad store or attribute.  Nothing is connected yet.
 * uk_cache_remote_free is NULL-safe.
 */
int uk_cache_remote_open(struct uk_cache_remote **rp, const char *spec,
    uk_cache_remote_sum_fn *sum, struct uk_err *err);
void uk_cache_remote_free(struct uk_cache_remote *r);

/*
 * Check the stores URLKIT_CACHE_REMOTE names, as a program does before
 * any work so that a bad value is a usage error (exit 2) as --cache-remote
 * is: 0 when it is unset or good, else -1 with err (code UK_EXIT_USAGE),
 * its message naming the variable.
 */
int uk_cache_remote_check_env(struct uk_err *err);

/*
 * The entry of key (the cache key, 16 hex digits) from the first store
 * that has one whole: 1 with the entry's bytes in out (reset first), *left
 * the milliseconds the store still keeps it (-1: no expiry known) and
 * *keep_local whether the entry may be written to the local directory (0
 * when it came from a remote-only store); 0 when no store has it.
 */
int uk_cache_remote_get(struct uk_cache_remote *r, const char *key,
    struct uk_buf *out, long long *left, int *keep_local);

/*
 * Store the entry data[0..len) under key, to expire after ttl seconds
 * (> 0), in every writable store.  Failures are counted, never returned.
 */
void uk_cache_remote_put(struct uk_cache_remote *r, const char *key,
    const char *data, size_t len, long ttl);

/* Delete key from every writable store: 1 when one had it, else 0. */
int uk_cache_remote_del(struct uk_cache_remote *r, const char *key);

/*
 * Delete every entry of the i-th store (urlcache clear --remote): the
 * count deleted (>= 0), or -1 with *why saying why nothing was: the store
 * is read-only, cannot list its entries (http) or failed (its error,
 * counted).  *why points into r or to a constant; it lives as long as r.
 */
long uk_cache_remote_clear(struct uk_cache_remote *r, size_t i,
    const char **why);

/*
 * Values other than entries, for sessions (session.h): name is the
 * store's whole name ("urlkit-session:NAME"), the value wrapped and
 * checked as an entry is.  They live in one store, the first that is
 * neither read-only nor skipped, and are not counted as hits, misses or
 * stores (errors and corrupt values are).
 *
 * uk_cache_remote_fetch: 1 with the value's bytes in out and its version
 * in ver (for uk_cache_remote_replace), 0 when the store has none (ver
 * ""), -1 when there is no store or it did not answer.
 */
int uk_cache_remote_fetch(struct uk_cache_remote *r, const char *name,
    struct uk_buf *out, char ver[96]);

/*
 * Store data[0..len) as name, to expire after ttl seconds (0: never),
 * unless the value changed since the fetch that gave ver: 1 stored, 0 it
 * changed (fetch again and retry), -1 failed (counted).  A store that
 * cannot compare (http) stores it anyway: the last writer wins.
 */
int uk_cache_remote_replace(struct uk_cache_remote *r, const char *name,
    const char *data, size_t len, long ttl, const char *ver);

/* Whether a set keeps its entry in the local directory (no store is
 * remote-only). */
int uk_cache_remote_local(const struct uk_cache_remote *r);

/*
 * The number of stores, and the i-th one's name (its URL without a
 * password) and counts; NULL past the end.
 */
size_t uk_cache_remote_count(const struct uk_cache_remote *r);
const char *uk_cache_remote_store(struct uk_cache_remote *r, size_t i,
    struct uk_cache_remote_count *count);

#endif
