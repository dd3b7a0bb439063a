/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_PACK_H
#define UK_CACHE_PACK_H

/*
 * A fan-out directory's pack, DIR/KK/pack: the small entries that cleanup
 * moved out of their loose files, with an index sorted by key
 * (doc/CACHE.md: the layout, and what each operation does with it).  A
 * pack is written whole, to a temporary file renamed into place, under
 * the fan-out directory's lock (flock(2) on DIR/KK, exclusive); in place
 * only a slot's recency (no lock) and its clock, set to 0 to mark the
 * slot dead (under the lock).  A loose entry shadows a packed one of the
 * same key.  The rewrite is cache_repack.h's.  Private to the cache's
 * modules.
 */

#include <sys/stat.h>

#include "buf.h"
#include "util.h"

/* A loose file of UK_CACHE_PACK_MAX bytes or fewer is small; cleanup
 * packs a directory of UK_CACHE_PACK_MIN small ones or more. */
#define UK_CACHE_PACK_NAME "pack"
#define UK_CACHE_PACK_MAX  4096L
#define UK_CACHE_PACK_MIN  16
#define UK_CACHE_PACK_HDR  48
#define UK_CACHE_PACK_SLOT 48

struct uk_cache_packhdr {
	unsigned long count; /* slots */
	unsigned long dirty; /* non-zero: a slot was marked dead in place */
	long long oldest;    /* the oldest live entry's clock, 0 none */
	long long first_exp; /* the earliest expires_at, 0 none */
	unsigned long long bytes; /* the entries' text */
};

struct uk_cache_slot {
	char key[17];
	unsigned long long off;
	unsigned long len, crc;
	long long mtime, atime, expires; /* ns; mtime 0: dead */
	unsigned long idx;               /* its place in the index */
};

/* The CRC-32 (ISO-HDLC, zlib's) of data[0..len). */
unsigned long uk_cache_pack_crc32(const void *data, size_t len);

/*
 * Open dfd's pack (flags O_RDONLY or O_RDWR) and read its header, checked
 * against the file's size: the descriptor with *h and *st, or -1 with
 * errno (ENOENT: none; EINVAL: not a pack that holds together).
 */
int uk_cache_pack_open(int dfd, int flags, struct uk_cache_packhdr *h,
    struct stat *st);

/* Look key up in the index: 1 with *s (dead or not), 0 absent, -1 when
 * the index does not hold together or cannot be read. */
int uk_cache_pack_find(int fd, const struct uk_cache_packhdr *h, long long size,
    const char *key, struct uk_cache_slot *s);

/* All of the index: 0 with *slots (the caller frees them) and *n, or -1
 * when it does not hold together (unsorted keys, a slot out of the file). */
int uk_cache_pack_index(int fd, const struct uk_cache_packhdr *h,
    long long size, struct uk_cache_slot **slots, size_t *n);

/* The text of s into b (replacing it): 0, 1 when its CRC fails, -1 with
 * errno when it cannot be read. */
int uk_cache_pack_read(int fd, const struct uk_cache_slot *s, struct uk_buf *b);

/* Write s's recency now in the pack st describes (if still dfd's pack):
 * a lost update loses only recency. */
void uk_cache_pack_touch(int dfd, const struct stat *st,
    const struct uk_cache_slot *s, long long now);

/*
 * Mark key's slot in dfd's pack dead, under the lock: 1 marked, 0 no
 * live slot, -1 with errno.
 */
int uk_cache_pack_kill(int dfd, const char *key);

/*
 * A pack's bytes (header, index, texts) into out from n slots sorted by
 * key (their key, len, crc, clocks) and texts[i], slot i's text.
 */
void uk_cache_pack_build(const struct uk_cache_slot *sl,
    const char *const *texts, size_t n, struct uk_buf *out);

#endif
