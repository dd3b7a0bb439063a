/* SPDX-License-Identifier: MIT */
/*
 * uk_cache_digest_sha256 (cache.h): a file of its own, so that a program that
 * only looks entries up (urlcache) does not link libcrypto for it.
 */
#include <stddef.h>

/* SHA256_Init and its kin: see uk_cache_digest_sha256. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include "cache.h"
#include "util.h"

#include "banned.h"

/*
 * SHA-256 by libcrypto's SHA256_Init/Update/Final, not EVP: OpenSSL 3's
 * EVP_MD_fetch loads the provider and its configuration on first use,
 * 5.3M of the 8.9M instructions of a whole `urlcache get` (callgrind),
 * while these call the same block function (SHA-NI where the CPU has
 * it) directly.  They are deprecated in OpenSSL 3 but kept by every 3.x
 * (hence the define above the include).
 */
void
uk_cache_digest_sha256(const void *data, size_t len, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[SHA256_DIGEST_LENGTH];
	SHA256_CTX ctx;
	int i;

	if (!SHA256_Init(&ctx) || !SHA256_Update(&ctx, data, len) ||
	    !SHA256_Final(md, &ctx))
		uk_util_die(UK_EXIT_FATAL, "SHA-256 failed");
	for (i = 0; i < SHA256_DIGEST_LENGTH; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}
