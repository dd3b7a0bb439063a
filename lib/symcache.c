/* SPDX-License-Identifier: MIT */
/*
 * The tag cache: one content-cache entry per repository holding the tags
 * of its files by SHA-256.  See symcache.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "banned.h"
#include "symcache.h"

#define SC_PREFIX "urlkit-tags:"

struct sc_slot {
	char hash[65];
	yajl_val v;
	yajl_val *origin; /* where v sits in the loaded entry, or NULL */
	int keep;
};

struct uk_symcache {
	struct uk_cache *c;
	char *url, *version;
	yajl_val old; /* the entry read, or NULL */
	struct sc_slot *slots;
	size_t cap, n;
};

void
uk_symcache_hash(const char *text, size_t len, char hash[65])
{
	uk_cache_digest_sha256(text, len, hash);
}

static int
is_hash(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
			(s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* The slot of hash: its own, or the empty one where it would go. */
static struct sc_slot *
find(struct uk_symcache *sc, const char *hash)
{
	size_t i;
	uint64_t h = 0;

	/* The hash is SHA-256: its first hex digits are spread already. */
	for (i = 0; i < 15; i++)
		h = h * 16 +
		    (uint64_t)(hash[i] <= '9' ? hash[i] - '0' :
						hash[i] - 'a' + 10);
	i = (size_t)h & (sc->cap - 1);
	while (sc->slots[i].v && strcmp(sc->slots[i].hash, hash))
		i = (i + 1) & (sc->cap - 1);
	return &sc->slots[i];
}

static struct sc_slot *
insert(struct uk_symcache *sc, const char *hash)
{
	struct sc_slot *sl;

	if ((sc->n + 1) * 2 > sc->cap) {
		struct sc_slot *old = sc->slots;
		size_t ocap = sc->cap, i;

		sc->cap = sc->cap ? sc->cap * 2 : 256;
		sc->slots = uk_util_xcalloc(sc->cap, sizeof(*sc->slots));
		for (i = 0; i < ocap; i++)
			if (old[i].v)
				*find(sc, old[i].hash) = old[i];
		free(old);
	}
	sl = find(sc, hash);
	if (!sl->v) {
		memcpy(sl->hash, hash, 65);
		sc->n++;
	}
	return sl;
}

struct uk_symcache *
uk_symcache_open(struct uk_cache *c, const char *url, const char *version)
{
	struct uk_symcache *sc = uk_util_xcalloc(1, sizeof(*sc));
	struct uk_buf key = UK_BUF_INIT;
	struct uk_err err;
	const char *ver;
	yajl_val files;
	size_t i;

	sc->c = c;
	uk_buf_addf(&key, SC_PREFIX "%s", url);
	sc->url = uk_buf_detach(&key, NULL);
	sc->version = uk_util_xstrdup(version);
	sc->cap = 256;
	sc->slots = uk_util_xcalloc(sc->cap, sizeof(*sc->slots));
	/* A miss, an expired or corrupt entry, an I/O error: all empty. */
	if (uk_cache_get(c, sc->url, 0, &sc->old, NULL, &err) != 1)
		sc->old = NULL;
	if (!sc->old || !(ver = uk_json_get_str(sc->old, "version")) ||
	    strcmp(ver, version) || !(files = uk_json_get(sc->old, "files")) ||
	    !YAJL_IS_OBJECT(files))
		return sc;
	for (i = 0; i < files->u.object.len; i++) {
		const char *h = files->u.object.keys[i];
		yajl_val v = files->u.object.values[i];
		struct sc_slot *sl;

		if (!is_hash(h) || !YAJL_IS_OBJECT(v))
			continue;
		sl = insert(sc, h);
		sl->v = v;
		sl->origin = &files->u.object.values[i];
	}
	return sc;
}

yajl_val
uk_symcache_get(struct uk_symcache *sc, const char *hash)
{
	struct sc_slot *sl;

	if (!sc || !is_hash(hash))
		return NULL;
	sl = find(sc, hash);
	if (!sl->v)
		return NULL;
	sl->keep = 1;
	return sl->v;
}

void
uk_symcache_drop(struct uk_symcache *sc, const char *hash)
{
	struct sc_slot *sl;

	if (!sc || !is_hash(hash))
		return;
	sl = find(sc, hash);
	sl->keep = 0;
}

void
uk_symcache_put(struct uk_symcache *sc, const char *hash, yajl_val v)
{
	struct sc_slot *sl;

	if (!sc || !is_hash(hash)) {
		uk_json_free(v);
		return;
	}
	sl = insert(sc, hash);
	if (sl->v && !sl->origin)
		uk_json_free(sl->v);
	/* One loaded but replaced stays in the old tree, freed with it. */
	sl->v = v;
	sl->origin = NULL;
	sl->keep = 1;
}

int
uk_symcache_save(struct uk_symcache *sc, struct uk_err *err)
{
	yajl_val rec, files;
	size_t i, n = 0;
	int r;

	if (!sc)
		return 0;
	rec = uk_json_object();
	uk_json_set_str(rec, "url", sc->url);
	uk_json_set_str(rec, "version", sc->version);
	files = uk_json_object();
	/* Built directly: uk_json_set looks every key up. */
	files->u.object.keys = uk_util_xcalloc(sc->n + 1, sizeof(char *));
	files->u.object.values = uk_util_xcalloc(sc->n + 1, sizeof(yajl_val));
	for (i = 0; i < sc->cap; i++) {
		struct sc_slot *sl = &sc->slots[i];

		if (!sl->v || !sl->keep)
			continue;
		files->u.object.keys[n] = uk_util_xstrdup(sl->hash);
		files->u.object.values[n] = sl->v;
		n++;
	}
	files->u.object.len = n;
	uk_json_set(rec, "files", files);
	r = uk_cache_set(sc->c, rec, err);
	/* The values belong to sc and the old tree: take them back out. */
	for (i = 0; i < n; i++)
		free((char *)files->u.object.keys[i]);
	files->u.object.len = 0;
	uk_json_free(rec);
	return r;
}

void
uk_symcache_free(struct uk_symcache *sc)
{
	size_t i;

	if (!sc)
		return;
	for (i = 0; i < sc->cap; i++)
		if (sc->slots[i].v && !sc->slots[i].origin)
			uk_json_free(sc->slots[i].v);
	free(sc->slots);
	uk_json_free(sc->old);
	free(sc->url);
	free(sc->version);
	free(sc);
}
