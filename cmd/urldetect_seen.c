/* SPDX-License-Identifier: MIT */
/* urldetect's set of the URLs a message has given (urldetect.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"
#include "urldetect.h"
#include "banned.h"

/* The hash's seed, random in each process: input cannot aim at a slot. */
uint64_t seen_seed = 0x9e3779b97f4a7c15ULL;

static uint64_t
seen_hash(const char *s, size_t n)
{
	uint64_t h = seen_seed ^ n, w;
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

static struct seen_slot *
seen_find(const struct seen *st, const char *s, size_t n, uint64_t h)
{
	size_t i = (size_t)h & (st->cap - 1);
	struct seen_slot *sl;

	for (;; i = (i + 1) & (st->cap - 1)) {
		sl = &st->slots[i];
		if (!sl->n1 || (sl->tag == (uint32_t)h &&
		    sl->n1 == n + 1 && !memcmp(st->arena.buf + sl->off, s, n)))
			return sl;
	}
}

static void
seen_grow(struct seen *st)
{
	struct seen_slot *old = st->slots;
	size_t i, oldcap = st->cap;

	st->cap = oldcap ? oldcap * 2 : 64;
	st->slots = uk_xcalloc(st->cap, sizeof(*st->slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].n1)
			*seen_find(st, st->arena.buf + old[i].off,
			    old[i].n1 - 1, old[i].tag) = old[i];
	free(old);
}

/* Add s[0..n); 1 when it is new. */
int
seen_add(struct seen *st, const char *s, size_t n)
{
	uint64_t h = seen_hash(s, n);
	struct seen_slot *sl;

	if (n >= UINT32_MAX)
		return 1; /* never: a URL is at most UK_DETECT_MAX_URL */
	if ((st->len + 1) * 4 > st->cap * 3)
		seen_grow(st);
	sl = seen_find(st, s, n, h);
	if (sl->n1)
		return 0;
	sl->tag = (uint32_t)h;
	sl->off = st->arena.len;
	sl->n1 = (uint32_t)n + 1;
	uk_buf_add(&st->arena, s, n);
	st->len++;
	return 1;
}

/* Empty the set; a large table goes (a message of many URLs is rare). */
void
seen_reset(struct seen *st)
{
	if (!st->len)
		return;
	if (st->cap > 4096) {
		free(st->slots);
		st->slots = NULL;
		st->cap = 0;
		uk_buf_release(&st->arena);
	} else {
		memset(st->slots, 0, st->cap * sizeof(*st->slots));
		st->arena.len = 0;
	}
	st->len = 0;
}

void
seen_release(struct seen *st)
{
	free(st->slots);
	st->slots = NULL;
	st->cap = st->len = 0;
	uk_buf_release(&st->arena);
}
