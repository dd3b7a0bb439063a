/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "strset.h"
#include "util.h"
#include "banned.h"

/*
 * A slot: the string is arena.buf + off, n1 its length + 1 (0: the slot
 * is empty), tag the hash's low bits (which also give the slot).  The
 * strings live in one arena, not a malloc each: urldetect's per-message
 * set spent a tenth of a records run in malloc and free.
 */
struct uk_strset_slot {
	uint32_t tag;
	uint32_t n1;
	size_t off;
};

/* The hash's seed, random in each process: input cannot aim at a slot. */
static uint64_t seed = 0x9e3779b97f4a7c15ULL;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void
seed_init(void)
{
	(void)getrandom(&seed, sizeof(seed), GRND_NONBLOCK);
}

/* Eight bytes at a time: a byte at a time (FNV-1a) was slower. */
static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = seed ^ n, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 31;
	}
	return h ^ (h >> 29);
}

static struct uk_strset_slot *
find(const struct uk_strset *set, const char *s, size_t n, uint64_t h)
{
	size_t i = (size_t)h & (set->cap - 1);
	struct uk_strset_slot *sl;

	for (;; i = (i + 1) & (set->cap - 1)) {
		sl = &set->slots[i];
		if (!sl->n1 || (sl->tag == (uint32_t)h && sl->n1 == n + 1 &&
		    !memcmp(set->arena.buf + sl->off, s, n)))
			return sl;
	}
}

static void
grow(struct uk_strset *set)
{
	struct uk_strset_slot *old = set->slots;
	size_t i, oldcap = set->cap;

	set->cap = oldcap ? oldcap * 2 : 64;
	set->slots = uk_util_xcalloc(set->cap, sizeof(*set->slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].n1)
			*find(set, set->arena.buf + old[i].off, old[i].n1 - 1,
			    old[i].tag) = old[i];
	free(old);
}

int
uk_strset_add(struct uk_strset *set, const char *s, size_t n)
{
	struct uk_strset_slot *sl;
	uint64_t h;

	if (n >= UINT32_MAX)
		return 1; /* not kept: see strset.h */
	pthread_once(&seed_once, seed_init);
	h = hash(s, n);
	if ((set->len + 1) * 4 > set->cap * 3)
		grow(set);
	sl = find(set, s, n, h);
	if (sl->n1)
		return 0;
	sl->tag = (uint32_t)h;
	sl->off = set->arena.len;
	sl->n1 = (uint32_t)n + 1;
	uk_buf_add(&set->arena, s, n);
	set->len++;
	return 1;
}

int
uk_strset_has(const struct uk_strset *set, const char *s, size_t n)
{
	if (!set->cap || n >= UINT32_MAX)
		return 0;
	pthread_once(&seed_once, seed_init);
	return find(set, s, n, hash(s, n))->n1 != 0;
}

void
uk_strset_reset(struct uk_strset *set)
{
	if (!set->len)
		return;
	memset(set->slots, 0, set->cap * sizeof(*set->slots));
	set->arena.len = 0;
	set->len = 0;
}

void
uk_strset_release(struct uk_strset *set)
{
	free(set->slots);
	set->slots = NULL;
	set->cap = set->len = 0;
	uk_buf_release(&set->arena);
}
