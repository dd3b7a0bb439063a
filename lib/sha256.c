/* SPDX-License-Identifier: MIT */
/* SHA-256: see sha256.h. */
#include <stdint.h>
#include <string.h>

#include "sha256.h"

#include "banned.h"

/*
 * Written here rather than taken from libcrypto: the cache key is a URL, a
 * block or two, and linking libcrypto only for it made every `urlcache
 * get` load it (its relocations: 2.3M of the 2.8M instructions of a whole
 * hit, callgrind, and about a millisecond); urldetect and urlextract,
 * which write records with a content_hash, link no libcrypto at all.
 * uk_cache_digest_sha256 (cache_digest.c) keeps libcrypto's, whose SHA-NI
 * code is several times faster on large inputs.  FIPS 180-4, section 6.2;
 * tests/unit/t_cache checks the two agree.
 */
static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) ((x) >> (n) | (x) << (32 - (n)))

static void
sha_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		    (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ w[i - 15] >> 3) +
		    (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ w[i - 2] >> 10);
	a = h[0];
	b = h[1];
	c = h[2];
	d = h[3];
	e = h[4];
	f = h[5];
	g = h[6];
	hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		    ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		    ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void
uk_sha256(const void *data, size_t len, unsigned char md[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *p = data;
	unsigned char last[128];
	unsigned long long bits = (unsigned long long)len * 8;
	size_t n = len, tail;
	int i;

	for (; n >= 64; n -= 64, p += 64)
		sha_block(h, p);
	/* The rest, 0x80, zeros, and the length in bits: one or two blocks. */
	memset(last, 0, sizeof(last));
	if (n)
		memcpy(last, p, n);
	last[n] = 0x80;
	tail = n < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[tail - 1 - i] = (unsigned char)(bits >> (8 * i));
	sha_block(h, last);
	if (tail == 128)
		sha_block(h, last + 64);
	for (i = 0; i < 32; i++)
		md[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

/* uk_sha256_use's function, or NULL. */
static void (*use_fn)(const void *, size_t, char[65]);

void
uk_sha256_use(void (*fn)(const void *data, size_t len, char hex[65]))
{
	use_fn = fn;
}

void
uk_sha256_hex(const void *data, size_t len, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[32];
	int i;

	if (use_fn) {
		use_fn(data, len, hex);
		return;
	}
	uk_sha256(data, len, md);
	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}
