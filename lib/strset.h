/* SPDX-License-Identifier: MIT */
#ifndef UK_STRSET_H
#define UK_STRSET_H

/*
 * A set of byte strings, for de-duplication.  Open addressing over a
 * hash seeded at random in each process (input cannot aim at a slot),
 * the strings copied into one arena: written here because neither libc's
 * hsearch (one global table, no clearing) nor our other libraries offer
 * a set.  A string of 4 GiB or more is never kept (add says it is new,
 * has that it is not there).  Zeroed memory is an empty set.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct uk_strset {
	uint64_t *slots;  /* 0, or the record's offset + 1 and a tag */
	size_t cap, len;
	char *arena;      /* the records: length, hash, the bytes */
	size_t used, room;
};

#define UK_STRSET_INIT { NULL, 0, 0, NULL, 0, 0 }

/* Add s[0..n); returns 1 if it was new, 0 if already there. */
int uk_strset_add(struct uk_strset *set, const char *s, size_t n);

/*
 * The same in two steps, for a caller with work to do in between:
 * uk_strset_hash gives s[0..n)'s hash and asks the processor to fetch
 * the table's line where its search starts; uk_strset_add_hashed then
 * adds as uk_strset_add does (h must be uk_strset_hash(set, s, n)).  On
 * a large set the search's first read is a cache miss, which the work in
 * between then hides.
 */
uint64_t uk_strset_hash(const struct uk_strset *set, const char *s,
    size_t n);
int uk_strset_add_hashed(struct uk_strset *set, const char *s, size_t n,
    uint64_t h);
int uk_strset_has(const struct uk_strset *set, const char *s, size_t n);
/* Empty the set, keeping its table and its arena. */
void uk_strset_reset(struct uk_strset *set);
void uk_strset_release(struct uk_strset *set);

#endif
