/* SPDX-License-Identifier: MIT */
#ifndef UK_SYMCACHE_H
#define UK_SYMCACHE_H

/*
 * The tag cache: what parsing a file gave the symbol index (its
 * definitions with signatures, scopes and docs, its references), kept
 * by the SHA-256 of the file's bytes, so that fetching a repository again
 * after a few commits parses only the files that changed.
 *
 * The tags of one repository are one entry of the content cache
 * (cache.h), whose URL is "urlkit-tags:" and the repository's URL: a JSON
 * object {"url", "version", "files": {SHA256: tags, ...}}.  One file per
 * fetch, not one per source file: a read and an atomic write per fetch,
 * and the entry expires with the cache's TTL, is counted in its size and
 * removed by urlcache cleanup (or evicted, least recently used first)
 * like any other.  The entry holds the files of the last fetch only, so
 * it never grows past the repository.  "version" names the grammars'
 * queries and this format: an entry of another version is not read.
 *
 * The cache is a hint: an entry that cannot be read, or a file's tags
 * that do not check out, are ignored and the file is parsed.
 *
 * Usage (on one thread):
 *	struct uk_symcache *sc = uk_symcache_open(&cache, url, version);
 *	uk_symcache_hash(text, len, hash);
 *	if ((v = uk_symcache_get(sc, hash))) ...use v, else parse and
 *		uk_symcache_put(sc, hash, tags);
 *	uk_symcache_save(sc, &err);
 *	uk_symcache_free(sc);
 */

#include <stddef.h>

#include "cache.h"
#include "json.h"
#include "util.h"

struct uk_symcache;

/* The hex SHA-256 of text[0..len), NUL-terminated. */
void uk_symcache_hash(const char *text, size_t len, char hash[65]);

/*
 * The tags of the repository url in c (which must outlive the result),
 * for the version given (copied).  Never NULL: a missing, expired,
 * corrupt or other version's entry gives an empty cache.
 */
struct uk_symcache *uk_symcache_open(struct uk_cache *c, const char *url,
    const char *version);

/*
 * The tags of the file whose hash is given, or NULL; owned by sc.  A file
 * looked up and found is kept by uk_symcache_save.
 */
yajl_val uk_symcache_get(struct uk_symcache *sc, const char *hash);

/* Forget hash's tags (they did not check out): not saved. */
void uk_symcache_drop(struct uk_symcache *sc, const char *hash);

/* Add the tags of the file whose hash is given (v taken over). */
void uk_symcache_put(struct uk_symcache *sc, const char *hash, yajl_val v);

/*
 * Write the entry: the tags found by uk_symcache_get and those put (an
 * entry written again starts its TTL again).  0, or -1 with err.
 */
int uk_symcache_save(struct uk_symcache *sc, struct uk_err *err);

/* Free sc (NULL-safe). */
void uk_symcache_free(struct uk_symcache *sc);

#endif
