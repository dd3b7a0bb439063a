/* SPDX-License-Identifier: MIT */
/* A fan-out directory's pack of small entries: see cache_pack.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_int.h"
#include "cache_pack.h"
#include "util.h"

#include "banned.h"

#define NS    1000000000LL
#define MAGIC "urlkit-pack 1\n\0\0"

/*
 * CRC-32 by a table, written here rather than taken from zlib: none of
 * urlcache, urlfetch and urlsum links zlib, and a hit's cost is counted
 * in the libraries a program loads (cache.c, sha256_head).
 */
unsigned long
uk_cache_pack_crc32(const void *data, size_t len)
{
	static uint32_t table[256];
	static int made;
	const unsigned char *p = data;
	uint32_t c = 0xffffffffu, k;
	int i, j;

	if (!__atomic_load_n(&made, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < 256; i++) {
			k = (uint32_t)i;
			for (j = 0; j < 8; j++)
				k = k & 1 ? 0xedb88320u ^ (k >> 1) : k >> 1;
			table[i] = k;
		}
		__atomic_store_n(&made, 1, __ATOMIC_RELEASE);
	}
	while (len--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return (unsigned long)(c ^ 0xffffffffu);
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

static void
put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

static const char hexd[] = "0123456789abcdef";

static void
key_bin(const char *key, unsigned char out[8])
{
	int i;

	for (i = 0; i < 8; i++)
		out[i] =
		    (unsigned char)((strchr(hexd, key[2 * i]) - hexd) << 4 |
			(strchr(hexd, key[2 * i + 1]) - hexd));
}

static void
key_hex(const unsigned char in[8], char key[17])
{
	int i;

	for (i = 0; i < 8; i++) {
		key[2 * i] = hexd[in[i] >> 4];
		key[2 * i + 1] = hexd[in[i] & 15];
	}
	key[16] = '\0';
}

static ssize_t
pread_all(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int
uk_cache_pack_open(int dfd, int flags, struct uk_cache_packhdr *h,
    struct stat *st)
{
	unsigned char b[UK_CACHE_PACK_HDR];
	int fd;

	fd = openat(dfd, UK_CACHE_PACK_NAME,
	    flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) || !S_ISREG(st->st_mode) ||
	    pread_all(fd, b, sizeof(b), 0) != (ssize_t)sizeof(b) ||
	    memcmp(b, MAGIC, 16))
		goto bad;
	h->count = get32(b + 16);
	h->dirty = get32(b + 20);
	h->oldest = (long long)get64(b + 24);
	h->first_exp = (long long)get64(b + 32);
	h->bytes = get64(b + 40);
	if ((unsigned long long)UK_CACHE_PACK_HDR +
		(unsigned long long)h->count * UK_CACHE_PACK_SLOT + h->bytes !=
	    (unsigned long long)st->st_size)
		goto bad;
	return fd;
bad:
	close(fd);
	errno = EINVAL;
	return -1;
}

/* Slot i of raw (48 bytes) into s, checked against the file: 0, or -1. */
static int
slot_parse(const unsigned char *p, unsigned long i,
    const struct uk_cache_packhdr *h, struct uk_cache_slot *s)
{
	unsigned long long start = UK_CACHE_PACK_HDR +
	    (unsigned long long)h->count * UK_CACHE_PACK_SLOT;

	key_hex(p, s->key);
	s->off = get64(p + 8);
	s->len = get32(p + 16);
	s->crc = get32(p + 20);
	s->mtime = (long long)get64(p + 24);
	s->atime = (long long)get64(p + 32);
	s->expires = (long long)get64(p + 40);
	s->idx = i;
	if (s->off < start || s->len > UK_CACHE_MAX_ENTRY ||
	    s->off + s->len > start + h->bytes)
		return -1;
	return 0;
}

int
uk_cache_pack_find(int fd, const struct uk_cache_packhdr *h, long long size,
    const char *key, struct uk_cache_slot *s)
{
	unsigned char want[8], p[UK_CACHE_PACK_SLOT];
	unsigned long lo = 0, hi = h->count, mid;
	int c;

	(void)size;
	key_bin(key, want);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pread_all(fd, p, sizeof(p),
			(off_t)(UK_CACHE_PACK_HDR +
			    (unsigned long long)mid * UK_CACHE_PACK_SLOT)) !=
		    (ssize_t)sizeof(p))
			return -1;
		c = memcmp(want, p, 8);
		if (!c)
			return slot_parse(p, mid, h, s) ? -1 : 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

int
uk_cache_pack_index(int fd, const struct uk_cache_packhdr *h, long long size,
    struct uk_cache_slot **slots, size_t *n)
{
	unsigned char *raw;
	size_t len = (size_t)h->count * UK_CACHE_PACK_SLOT, i;
	struct uk_cache_slot *s;

	(void)size;
	*slots = NULL;
	*n = 0;
	if (!h->count)
		return 0;
	raw = uk_util_xmalloc(len);
	if (pread_all(fd, raw, len, UK_CACHE_PACK_HDR) != (ssize_t)len) {
		free(raw);
		return -1;
	}
	s = uk_util_xmalloc(h->count * sizeof(*s));
	for (i = 0; i < h->count; i++) {
		if (slot_parse(raw + i * UK_CACHE_PACK_SLOT, (unsigned long)i,
			h, &s[i]) ||
		    (i &&
			memcmp(raw + (i - 1) * UK_CACHE_PACK_SLOT,
			    raw + i * UK_CACHE_PACK_SLOT, 8) >= 0)) {
			free(raw);
			free(s);
			return -1;
		}
	}
	free(raw);
	*slots = s;
	*n = h->count;
	return 0;
}

int
uk_cache_pack_read(int fd, const struct uk_cache_slot *s, struct uk_buf *b)
{
	ssize_t n;

	uk_buf_reset(b);
	uk_buf_grow(b, s->len + 1);
	n = pread_all(fd, b->buf, s->len, (off_t)s->off);
	if (n < 0)
		return -1;
	uk_buf_setlen(b, (size_t)n);
	if ((unsigned long)n != s->len ||
	    uk_cache_pack_crc32(b->buf, b->len) != s->crc)
		return 1;
	return 0;
}

/* The offset of field off of slot s. */
static off_t
slot_at(const struct uk_cache_slot *s, int off)
{
	return (off_t)(UK_CACHE_PACK_HDR +
	    (unsigned long long)s->idx * UK_CACHE_PACK_SLOT + (unsigned)off);
}

void
uk_cache_pack_touch(int dfd, const struct stat *st,
    const struct uk_cache_slot *s, long long now)
{
	unsigned char b[8];
	struct stat now_st;
	int fd;

	fd = openat(dfd, UK_CACHE_PACK_NAME,
	    O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	if (!fstat(fd, &now_st) && now_st.st_ino == st->st_ino &&
	    now_st.st_dev == st->st_dev) {
		put64(b, (uint64_t)now);
		(void)!pwrite(fd, b, 8, slot_at(s, 32));
	}
	close(fd);
}

int
uk_cache_pack_kill(int dfd, const char *key)
{
	struct uk_cache_packhdr h;
	struct uk_cache_slot s;
	struct stat st;
	unsigned char z[8], one[4];
	int fd, r = 0, e;

	/* Cheap first: no pack, or no live slot, takes no lock. */
	if ((fd = uk_cache_pack_open(dfd, O_RDONLY, &h, &st)) < 0)
		return errno == ENOENT || errno == EINVAL ? 0 : -1;
	r = uk_cache_pack_find(fd, &h, st.st_size, key, &s);
	close(fd);
	if (r <= 0 || !s.mtime)
		return 0;
	while (flock(dfd, LOCK_EX) && errno == EINTR)
		;
	r = 0;
	if ((fd = uk_cache_pack_open(dfd, O_RDWR, &h, &st)) < 0) {
		r = errno == ENOENT || errno == EINVAL ? 0 : -1;
		goto out;
	}
	if (uk_cache_pack_find(fd, &h, st.st_size, key, &s) == 1 && s.mtime) {
		put64(z, 0);
		put32(one, 1);
		if (pwrite(fd, z, 8, slot_at(&s, 24)) == 8 &&
		    pwrite(fd, one, 4, 20) == 4)
			r = 1;
		else
			r = -1;
	}
	close(fd);
out:
	e = errno;
	flock(dfd, LOCK_UN);
	errno = e;
	return r;
}

void
uk_cache_pack_build(const struct uk_cache_slot *sl, const char *const *texts,
    size_t n, struct uk_buf *out)
{
	unsigned char hdr[UK_CACHE_PACK_HDR], p[UK_CACHE_PACK_SLOT];
	unsigned long long off, bytes = 0;
	long long oldest = 0, first = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		bytes += sl[i].len;
		if (!oldest || sl[i].mtime < oldest)
			oldest = sl[i].mtime;
		if (sl[i].expires > 0 && (!first || sl[i].expires < first))
			first = sl[i].expires;
	}
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, MAGIC, 16);
	put32(hdr + 16, (uint32_t)n); /* dirty, bytes 20..23: 0 */
	put64(hdr + 24, (uint64_t)oldest);
	put64(hdr + 32, (uint64_t)first);
	put64(hdr + 40, bytes);
	uk_buf_reset(out);
	uk_buf_add(out, (const char *)hdr, sizeof(hdr));
	off = UK_CACHE_PACK_HDR + (unsigned long long)n * UK_CACHE_PACK_SLOT;
	for (i = 0; i < n; i++) {
		memset(p, 0, sizeof(p));
		key_bin(sl[i].key, p);
		put64(p + 8, off);
		put32(p + 16, (uint32_t)sl[i].len);
		put32(p + 20, (uint32_t)sl[i].crc);
		put64(p + 24, (uint64_t)sl[i].mtime);
		put64(p + 32, (uint64_t)sl[i].atime);
		put64(p + 40, (uint64_t)sl[i].expires);
		uk_buf_add(out, (const char *)p, sizeof(p));
		off += sl[i].len;
	}
	for (i = 0; i < n; i++)
		uk_buf_add(out, texts[i], sl[i].len);
}
