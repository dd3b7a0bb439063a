/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_STATS_H
#define UK_CACHE_STATS_H

/*
 * The cache's counters since they were last zeroed (urlcache stats), kept
 * in DIR/stats: hits, misses, stores, evictions and errors of the
 * cache directory, and hits, misses, stores, errors and corrupt entries
 * of each remote store (by its name, cache_remote.h).  A program adds its
 * run's counts once, when it releases its cache (uk_cache_release), not
 * at each request: under an flock(2) on DIR/stats.lock it reads the
 * file, adds, and renames a new one into place, so that concurrent runs
 * lose no count and a reader never sees half a file.
 *
 * The file:
 *
 *	{"zeroed_at":"2026-12-06T07:00:00.000Z","hits":3,"misses":1,
 *	 "stores":1,"evictions":0,"errors":0,
 *	 "remote":{"redis://127.0.0.1:6379":{"hits":1,"misses":0,
 *	 "stores":1,"errors":0,"corrupt":0}}}
 *
 * A missing or unreadable file counts as all zero.
 */

#include "cache.h"
#include "json.h"
#include "util.h"

struct uk_cache_remote;

/*
 * Add local and the counts of each store of remote (may be NULL) to dir's
 * file: 0, or -1 with err.  Nothing when dir does not exist: a cache
 * directory is made by its first write, and a run that only missed leaves
 * no trace.
 */
int uk_cache_stats_add(const char *dir, const struct uk_cache_counts *local,
    struct uk_cache_remote *remote, struct uk_err *err);

/* The counters of dir as the object above (the caller frees it; all zero
 * when there is no file): 0, or -1 with err. */
int uk_cache_stats_read(const char *dir, yajl_val *rec, struct uk_err *err);

/*
 * Zero the counters of dir, zeroed_at now, and when old is not NULL leave
 * what they were in *old (the caller frees it; NULL on failure), read
 * under the same lock so that no count falls between: 0, or -1 with err.
 */
int uk_cache_stats_zero(const char *dir, yajl_val *old, struct uk_err *err);

#endif
