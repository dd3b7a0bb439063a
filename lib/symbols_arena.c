/* SPDX-License-Identifier: MIT */
/*
 * tree-sitter's memory for the symbol index: an arena per parsing thread.
 * See symbols_int.h.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

/*
 * tree-sitter's memory.  Parsing a file makes and frees a great many small
 * objects, and ts_tree_delete walks the whole tree again to free them one
 * by one.  Instead each worker gives tree-sitter an arena for the time of
 * one file: the parser, the tree and the query cursor are made in it, and
 * the whole arena is reset when the file is done, with no walk.  Blocks
 * come from large chunks by size class (multiples of 16 bytes up to 1 KiB,
 * then powers of two); a freed block goes on its class's free list for the
 * next block of that class, so that a file whose parse makes and drops many
 * subtrees (error recovery) needs no more memory than with malloc.  On a
 * thread with no arena (compiling queries) tree-sitter gets malloc, as by
 * default.  The allocator is process-wide (ts_set_allocator), installed
 * once by uk_symbols_new; tree-sitter is used by this module only, and
 * everything it allocates inside an arena is freed inside it.
 */
struct arena_chunk {
	struct arena_chunk *next;
	char *base;
	size_t size, used;
};

#define ARENA_ALIGN   16
#define ARENA_HDR     16                 /* holds the block's requested size */
#define ARENA_SMALL   64                 /* classes of 16, 32, ... 1024 bytes */
#define ARENA_CLASSES (ARENA_SMALL + 64) /* the size of symarena.free */
#define ARENA_MIN     (1 << 20)          /* the first chunk */
#define ARENA_KEEP    (64 << 20)         /* kept between files, at most */
#define ARENA_CHUNK_HDR                                                        \
	((sizeof(struct arena_chunk) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1))

static _Thread_local struct symarena *ts_arena;

/* The class of a block of n bytes, and its capacity in *cap. */
static unsigned
arena_class(size_t n, size_t *cap)
{
	unsigned k;

	if (n > SIZE_MAX / 4)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	if (n <= ARENA_SMALL * ARENA_ALIGN) {
		k = n ? (unsigned)((n + ARENA_ALIGN - 1) / ARENA_ALIGN) : 1;
		*cap = (size_t)k * ARENA_ALIGN;
		return k - 1;
	}
	for (k = 0, *cap = 2 * ARENA_SMALL * ARENA_ALIGN; *cap < n; k++)
		*cap *= 2;
	return ARENA_SMALL + k;
}

static void
arena_chunk_new(struct symarena *a, size_t need)
{
	size_t size = a->total > ARENA_MIN ? a->total : ARENA_MIN;
	struct arena_chunk *c;

	if (size < need)
		size = need;
	c = uk_util_xmalloc(ARENA_CHUNK_HDR + size);
	c->base = (char *)c + ARENA_CHUNK_HDR;
	c->size = size;
	c->used = 0;
	c->next = a->head;
	a->head = c;
	a->total += size;
}

static void *
arena_alloc(struct symarena *a, size_t n)
{
	size_t cap, need;
	unsigned k = arena_class(n, &cap);
	struct arena_chunk *c = a->head;
	char *p;

	if (a->free[k]) {
		/* A freed block of the class, likely still in the cache. */
		p = a->free[k];
		memcpy(&a->free[k], p, sizeof(void *));
	} else {
		need = ARENA_HDR + cap;
		if (!c || c->size - c->used < need) {
			arena_chunk_new(a, need);
			c = a->head;
		}
		p = c->base + c->used + ARENA_HDR;
		c->used += need;
	}
	memcpy(p - ARENA_HDR, &n, sizeof(n));
	return p;
}

/* Whether p is a block of a. */
static int
arena_owns(const struct symarena *a, const void *p)
{
	const struct arena_chunk *c;
	const char *q = p;

	for (c = a->head; c; c = c->next)
		if (q > c->base && q < c->base + c->used)
			return 1;
	return 0;
}

static void
arena_free(struct symarena *a, void *p)
{
	size_t n, cap;
	unsigned k;

	memcpy(&n, (char *)p - ARENA_HDR, sizeof(n));
	k = arena_class(n, &cap);
	memcpy(p, &a->free[k], sizeof(void *));
	a->free[k] = p;
}

/* Forget every block; keep one chunk of up to ARENA_KEEP bytes. */
static void
arena_reset(struct symarena *a)
{
	struct arena_chunk *c, *next;
	size_t total = a->total;

	memset(a->free, 0, sizeof(a->free));
	if (a->head && !a->head->next) {
		a->head->used = 0;
		return;
	}
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
	a->total = 0;
	if (total)
		arena_chunk_new(a, total < ARENA_KEEP ? total : ARENA_KEEP);
}

static void
arena_release(struct symarena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(a, 0, sizeof(*a));
}

static void *
ts_mem_malloc(size_t n)
{
	return ts_arena ? arena_alloc(ts_arena, n) : uk_util_xmalloc(n);
}

static void *
ts_mem_calloc(size_t nmemb, size_t size)
{
	void *p;

	if (!ts_arena)
		return uk_util_xcalloc(nmemb, size);
	if (size && nmemb > SIZE_MAX / 4 / size)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	p = arena_alloc(ts_arena, nmemb * size);
	memset(p, 0, nmemb * size);
	return p;
}

static void *
ts_mem_realloc(void *p, size_t n)
{
	size_t old, cap, cap2;
	void *q;

	if (!p)
		return ts_mem_malloc(n);
	if (!ts_arena || !arena_owns(ts_arena, p))
		return uk_util_xrealloc(p, n);
	memcpy(&old, (char *)p - ARENA_HDR, sizeof(old));
	if (arena_class(n, &cap) == arena_class(old, &cap2)) {
		memcpy((char *)p - ARENA_HDR, &n, sizeof(n));
		return p;
	}
	q = arena_alloc(ts_arena, n);
	memcpy(q, p, old < n ? old : n);
	arena_free(ts_arena, p);
	return q;
}

static void
ts_mem_free(void *p)
{
	if (!p)
		return;
	if (ts_arena && arena_owns(ts_arena, p))
		arena_free(ts_arena, p);
	else
		free(p);
}

static pthread_once_t ts_mem_once = PTHREAD_ONCE_INIT;

static void
ts_mem_install(void)
{
	ts_set_allocator(ts_mem_malloc, ts_mem_calloc, ts_mem_realloc,
	    ts_mem_free);
}

void
uk_symarena_install(void)
{
	pthread_once(&ts_mem_once, ts_mem_install);
}

void
uk_symarena_enter(struct symarena *a)
{
	ts_arena = a;
}

void
uk_symarena_leave(void)
{
	struct symarena *a = ts_arena;

	ts_arena = NULL;
	if (a)
		arena_reset(a);
}

struct symarena *
uk_symarena_pause(void)
{
	struct symarena *a = ts_arena;

	ts_arena = NULL;
	return a;
}

void
uk_symarena_resume(struct symarena *a)
{
	ts_arena = a;
}

void
uk_symarena_release(struct symarena *a)
{
	arena_release(a);
}
