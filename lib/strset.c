/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "util.h"
#include "banned.h"

struct uk_strset_slot {
	char *s;
	size_t n;
	unsigned long long h;
};

static unsigned long long
fnv1a(const char *s, size_t n)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static struct uk_strset_slot *
find(const struct uk_strset *set, const char *s, size_t n,
    unsigned long long h)
{
	size_t i = (size_t)h & (set->cap - 1);

	for (;;) {
		struct uk_strset_slot *sl = &set->slots[i];

		if (!sl->s ||
		    (sl->h == h && sl->n == n && !memcmp(sl->s, s, n)))
			return sl;
		i = (i + 1) & (set->cap - 1);
	}
}

static void
grow(struct uk_strset *set)
{
	struct uk_strset_slot *old = set->slots;
	size_t i, oldcap = set->cap;

	set->cap = oldcap ? oldcap * 2 : 64;
	set->slots = uk_xcalloc(set->cap, sizeof(*set->slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].s)
			*find(set, old[i].s, old[i].n, old[i].h) = old[i];
	free(old);
}

int
uk_strset_add(struct uk_strset *set, const char *s, size_t n)
{
	struct uk_strset_slot *sl;
	unsigned long long h = fnv1a(s, n);

	if ((set->len + 1) * 4 > set->cap * 3)
		grow(set);
	sl = find(set, s, n, h);
	if (sl->s)
		return 0;
	sl->s = uk_xmemdup(s, n);
	sl->n = n;
	sl->h = h;
	set->len++;
	return 1;
}

int
uk_strset_has(const struct uk_strset *set, const char *s, size_t n)
{
	if (!set->cap)
		return 0;
	return find(set, s, n, fnv1a(s, n))->s != NULL;
}

void
uk_strset_reset(struct uk_strset *set)
{
	size_t i;

	if (!set->len)
		return;
	for (i = 0; i < set->cap; i++) {
		free(set->slots[i].s);
		set->slots[i].s = NULL;
	}
	set->len = 0;
}

void
uk_strset_release(struct uk_strset *set)
{
	uk_strset_reset(set);
	free(set->slots);
	set->slots = NULL;
	set->cap = 0;
}
