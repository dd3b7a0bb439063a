/* SPDX-License-Identifier: MIT */
#ifndef UK_STRSET_H
#define UK_STRSET_H

/*
 * A set of byte strings, for de-duplication.  Open addressing with FNV-1a:
 * written here because neither libc's hsearch (one global table, no
 * clearing) nor our other libraries offer a set.
 */

#include <stddef.h>

struct uk_strset {
	struct uk_strset_slot *slots;
	size_t cap, len;
};

#define UK_STRSET_INIT { NULL, 0, 0 }

/* Add s[0..n); returns 1 if it was new, 0 if already there. */
int uk_strset_add(struct uk_strset *set, const char *s, size_t n);
int uk_strset_has(const struct uk_strset *set, const char *s, size_t n);
/* Empty the set, keeping its table. */
void uk_strset_reset(struct uk_strset *set);
void uk_strset_release(struct uk_strset *set);

#endif
