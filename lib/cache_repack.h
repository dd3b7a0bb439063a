/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_REPACK_H
#define UK_CACHE_REPACK_H

/*
 * The rewrite of a fan-out directory's pack (cache_pack.h, doc/CACHE.md),
 * for cleanup: under the directory's lock, the pack read again, its live
 * slots copied unless expired, shadowed or corrupt, small loose entries
 * added, the new pack renamed into place, and only then the loose files
 * it took unlinked (each only while it is the file that was read).
 */

#include <stddef.h>

#include "util.h"

struct uk_cache_repack {
	long long now, ttl_ns;
	/* Loose entries of the directory, sorted: their slots are dropped
	 * (shadowed: the loose one is newer). */
	const char (*shadow)[17];
	size_t nshadow;
	/* Loose entries KEY.json to move in (each read and checked again;
	 * a large, expired or corrupt one is left where it is); each is in
	 * shadow too, so that the pack keeps no older copy beside it. */
	const char (*add)[17];
	size_t nadd;
	/* Out: slots dropped as expired, as corrupt (CRC), others (dead or
	 * shadowed); entries moved in; the pack's entries after. */
	long expired, corrupt, dropped, packed, count;
};

/*
 * Rewrite dfd's pack (dir for messages) as above; the pack is removed
 * when nothing is left in it.  0, or -1 with err.
 */
int uk_cache_repack_run(int dfd, const char *dir, struct uk_cache_repack *r,
    struct uk_err *err);

#endif
