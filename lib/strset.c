/* SPDX-License-Identifier: MIT */
#include <sys/mman.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "strset.h"
#include "util.h"
#include "banned.h"

/*
 * The layout, for urldetect's set of 100,000 distinct URLs a message
 * (issue 40): a slot is 8 bytes, 0 when empty, else the offset + 1 of
 * the string's record in the arena (bits 24 and up) and 24 bits of its
 * hash (the tag: a probe reads the arena only when the tag matches).  A
 * record is the string's length and the 32 bits of its hash that pick
 * its slot (4 bytes each), then its bytes: the table grows by walking
 * the arena in order, without hashing a string again or reading the old
 * table.  The table and the arena, once past SMALL bytes, are mappings
 * of their own grown with mremap: the pages already touched stay (a
 * malloc'd table grown by doubling touched twice its final size, freed
 * tables were given back and the next one faulted in afresh).
 */
#define TAG_BITS 24
#define TAG_MASK ((1U << TAG_BITS) - 1)
#define HDR 8
#define SMALL (64 * 1024)
/* The largest arena a slot can point into (offsets of 40 bits). */
#define ARENA_MAX ((uint64_t)1 << (64 - TAG_BITS))

/* The hash's seed, random in each process: input cannot aim at a slot. */
static uint64_t seed = 0x9e3779b97f4a7c15ULL;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static int seed_ready;

static void
seed_init(void)
{
	(void)getrandom(&seed, sizeof(seed), GRND_NONBLOCK);
	__atomic_store_n(&seed_ready, 1, __ATOMIC_RELEASE);
}

/* The seed, set once: a flag read first spares a call a string. */
static inline void
seed_set(void)
{
	if (!__atomic_load_n(&seed_ready, __ATOMIC_ACQUIRE))
		pthread_once(&seed_once, seed_init);
}

/*
 * Sixteen bytes a step, each step one 64x64->128-bit multiply folded
 * (wyhash's mixing; eight bytes a step and a shift-xor cost twice the
 * instructions on URLs).
 */
static inline uint64_t
mix(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
#else
	uint64_t h = (a ^ (b * 0xbf58476d1ce4e5b9ULL)) * 0x94d049bb133111ebULL;

	return h ^ (h >> 31);
#endif
}

#define K1 0xa0761d6478bd642fULL
#define K2 0xe7037ed1a0b428dbULL
#define K3 0x8ebc6af09c88c6e3ULL

static inline uint64_t
rd64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint64_t
hash(const char *s, size_t n)
{
	uint64_t h = seed ^ (n * K3), a, b;
	size_t i = 0;

	/* The last (up to) 16 bytes as two words, overlapping what came
	 * before when n is not a multiple of 8: no byte loop, no memcpy of
	 * a variable length. */
	if (n >= 16) {
		for (; i + 16 < n; i += 16)
			h = mix(rd64(s + i) ^ K1 ^ h, rd64(s + i + 8) ^ K2);
		a = rd64(s + n - 16);
		b = rd64(s + n - 8);
	} else if (n >= 8) {
		a = rd64(s);
		b = rd64(s + n - 8);
	} else if (n >= 4) {
		uint32_t x, y;

		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		a = x;
		b = y;
	} else {
		a = n ? (uint64_t)(unsigned char)s[0] << 16 |
		    (uint64_t)(unsigned char)s[n / 2] << 8 |
		    (unsigned char)s[n - 1] : 0;
		b = 0;
	}
	return mix(a ^ K1 ^ h, b ^ K2 ^ n);
}

/* Resize the region p of old bytes to new bytes (see SMALL). */
static void *
region(void *p, size_t old, size_t new)
{
	void *q;

	if (new < SMALL && old < SMALL)
		return new ? uk_util_xrealloc(p, new) : (free(p), NULL);
	if (old >= SMALL && new >= SMALL) {
		q = mremap(p, old, new, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			uk_util_die(UK_EXIT_FATAL, "out of memory");
		return q;
	}
	if (new >= SMALL) {
		q = mmap(NULL, new, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			uk_util_die(UK_EXIT_FATAL, "out of memory");
		if (old)
			memcpy(q, p, old);
		free(p);
		return q;
	}
	/* Smaller than SMALL from a mapping. */
	q = new ? uk_util_xmalloc(new) : NULL;
	if (new)
		memcpy(q, p, new);
	munmap(p, old);
	return q;
}

static inline uint32_t
rd32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The 32 bits of a hash a record keeps: its low bits pick the slot, its
 * top 24 are the tag (they overlap on tables of more than 256 slots: a
 * tag then tells apart fewer strings of the same first slot, and a
 * string whose tag matches is compared in full anyway).
 */
static inline uint32_t
fold(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

#define SLOT(off, hr) ((uint64_t)((off) + 1) << TAG_BITS | (hr) >> 8)

/* The slot of s[0..n) (hr: fold of its hash): its own, or the empty one
 * it would take. */
static inline uint64_t *
find(const struct uk_strset *set, const char *s, size_t n, uint32_t hr)
{
	size_t mask = set->cap - 1, i = hr & mask;
	uint32_t tag = hr >> 8;
	const char *r;
	uint64_t *sl;

	for (;; i = (i + 1) & mask) {
		sl = &set->slots[i];
		if (!*sl)
			return sl;
		if ((uint32_t)(*sl & TAG_MASK) != tag)
			continue;
		r = set->arena + (*sl >> TAG_BITS) - 1;
		if (rd32(r) == n && !memcmp(r + HDR, s, n))
			return sl;
	}
}

/* Double the table: every record of the arena put in again, in order. */
static void
grow(struct uk_strset *set)
{
	size_t old = set->cap, off, i, mask;
	uint32_t hr;

	set->cap = old ? old * 2 : 64;
	set->slots = region(set->slots, old * sizeof(*set->slots),
	    set->cap * sizeof(*set->slots));
	memset(set->slots, 0, set->cap * sizeof(*set->slots));
	mask = set->cap - 1;
	for (off = 0; off < set->used; off += HDR + rd32(set->arena + off)) {
		hr = rd32(set->arena + off + 4);
		for (i = hr & mask; set->slots[i]; i = (i + 1) & mask)
			;
		set->slots[i] = SLOT(off, hr);
	}
}

uint64_t
uk_strset_hash(const struct uk_strset *set, const char *s, size_t n)
{
	uint64_t h;

	seed_set();
	h = hash(s, n);
	if (set->cap)
		__builtin_prefetch(&set->slots[fold(h) & (set->cap - 1)]);
	return h;
}

int
uk_strset_add_hashed(struct uk_strset *set, const char *s, size_t n,
    uint64_t h)
{
	uint64_t *sl;
	uint32_t hr = fold(h), n32;
	size_t want;

	if (n >= UINT32_MAX || set->used + HDR + n >= ARENA_MAX - 1 ||
	    set->cap >= ((size_t)1 << 31))
		return 1; /* not kept: see strset.h */
	if ((set->len + 1) * 4 > set->cap * 3)
		grow(set);
	sl = find(set, s, n, hr);
	if (*sl)
		return 0;
	if (set->used + HDR + n > set->room) {
		want = set->room ? set->room * 2 : 1024;
		while (want < set->used + HDR + n)
			want *= 2;
		set->arena = region(set->arena, set->room, want);
		set->room = want;
	}
	*sl = SLOT(set->used, hr);
	n32 = (uint32_t)n;
	memcpy(set->arena + set->used, &n32, 4);
	memcpy(set->arena + set->used + 4, &hr, 4);
	memcpy(set->arena + set->used + HDR, s, n);
	set->used += HDR + n;
	set->len++;
	return 1;
}

int
uk_strset_add(struct uk_strset *set, const char *s, size_t n)
{
	seed_set();
	return uk_strset_add_hashed(set, s, n, hash(s, n));
}

int
uk_strset_has(const struct uk_strset *set, const char *s, size_t n)
{
	if (!set->cap || n >= UINT32_MAX)
		return 0;
	seed_set();
	return *find(set, s, n, fold(hash(s, n))) != 0;
}

void
uk_strset_reset(struct uk_strset *set)
{
	if (!set->len)
		return;
	memset(set->slots, 0, set->cap * sizeof(*set->slots));
	set->used = 0;
	set->len = 0;
}

void
uk_strset_release(struct uk_strset *set)
{
	region(set->slots, set->cap * sizeof(*set->slots), 0);
	region(set->arena, set->room, 0);
	memset(set, 0, sizeof(*set));
}
