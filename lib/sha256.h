/* SPDX-License-Identifier: MIT */
#ifndef UK_SHA256_H
#define UK_SHA256_H

/*
 * SHA-256 (FIPS 180-4) written here, with no library: for the cache key
 * (cache.h) and a record's content_hash (record.h), which programs that
 * do not link libcrypto (urldetect, urlextract) compute too.  Where the
 * data is large and libcrypto is linked anyway, uk_cache_digest_sha256
 * (cache.h) is five times faster (SHA-NI): a program that links it hands
 * it to uk_sha256_use, and uk_sha256_hex goes through it.
 */

#include <stddef.h>

/* The digest of data[0..len) into md. */
void uk_sha256(const void *data, size_t len, unsigned char md[32]);
/* The same in lower-case hex, NUL-terminated. */
void uk_sha256_hex(const void *data, size_t len, char hex[65]);
/*
 * Have uk_sha256_hex call fn instead (NULL: the code here again).  Once,
 * before any thread starts: the pointer is read without a lock.
 */
void uk_sha256_use(void (*fn)(const void *data, size_t len, char hex[65]));

#endif
