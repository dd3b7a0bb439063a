/* SPDX-License-Identifier: MIT */
/*
 * uk_cache_since_list (cache.h): a file of its own, so that the programs
 * that store entries do not link the walk (cache_clean.c) for it.
 */
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "cache_int.h"
#include "json.h"
#include "sha256.h"
#include "util.h"

#include "banned.h"

/* uk_cache_since_list's walk. */
struct since {
	struct uk_cache *c;
	long long since;
	int (*fn)(void *ctx, const char *text, size_t len, int expired);
	void *ctx;
	struct uk_buf b;
};

/*
 * Whether the entry file f has a "changed_at" at all, by its bytes: most
 * entries never changed, and a parse of each of them cost the walk most of
 * its time.  (Those that have one are read again, and checked, by
 * uk_cache_load_at.)
 */
static int
has_changed_at(const struct uk_cache_file *f, struct uk_buf *b)
{
	return !uk_cache_file_read(f, b) && b->len &&
	    memmem(b->buf, b->len, "\"changed_at\"", 12);
}

static int
since_one(void *ctx, const struct uk_cache_file *f)
{
	struct since *w = ctx;
	struct uk_err err;
	yajl_val rec = NULL;
	const char *t;
	char hex[65];
	long long at;
	size_t n;
	int r = 0;

	if (f->kind != UK_CACHE_ENTRY || !has_changed_at(f, &w->b) ||
	    uk_cache_file_load(f, &rec, &err) != 1)
		return 0;
	if ((t = uk_json_get_str(rec, "changed_at")) &&
	    (at = uk_util_time_parse(t, strlen(t))) > w->since) {
		uk_json_del(rec, "previous");
		uk_json_del(rec, "cached");
		uk_json_del(rec, "expired");
		/* What changed is told by the hash too. */
		if ((t = uk_json_get_strn(rec, "content", &n))) {
			uk_sha256_hex(t, n, hex);
			uk_json_set_str(rec, "content_hash", hex);
		}
		uk_buf_reset(&w->b);
		uk_json_to_buf(rec, &w->b);
		r = w->fn(w->ctx, w->b.buf, w->b.len, f->expired);
	}
	uk_json_free(rec);
	return r;
}

int
uk_cache_since_list(struct uk_cache *c, long long since,
    int (*fn)(void *ctx, const char *text, size_t len, int expired),
    void *ctx, struct uk_err *err)
{
	struct since w = { c, since, fn, ctx, UK_BUF_INIT };
	int r;

	r = uk_cache_clean_walk(c, since_one, &w, err);
	uk_buf_release(&w.b);
	return r < 0 ? -1 : 0;
}
