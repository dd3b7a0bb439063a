/* SPDX-License-Identifier: MIT */
/*
 * What changed since the last store of a URL (cache.h): the entry's
 * previous version, the record's "change" and "diff".
 */
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "cache_int.h"
#include "diff.h"
#include "json.h"
#include "sha256.h"
#include "util.h"

#include "banned.h"

/* The fields of one fetch, never stored. */
static const char *const fetch_only[] = { "change", "diff", "diff_truncated",
	"diff_too_large", NULL };

/* Whether s is a content_hash: 64 lower-case hex digits. */
static int
is_hash(const char *s)
{
	size_t i;

	for (i = 0; s && i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s && !s[64];
}

/* old's content hash into hex: its content_hash when it has one (a record
 * stored by a program of its own), else computed.  0, or -1 when old has
 * no content. */
static int
old_hash(yajl_val old, char hex[65])
{
	const char *h = uk_json_get_str(old, "content_hash"), *s;
	size_t n;

	if (!(s = uk_json_get_strn(old, "content", &n)))
		return -1;
	if (is_hash(h))
		memcpy(hex, h, 65);
	else
		uk_sha256_hex(s, n, hex);
	return 0;
}

/* Move old's field key (if any) to entry, replacing entry's. */
static void
keep(yajl_val entry, yajl_val old, const char *key)
{
	yajl_val v = uk_json_get(old, key);

	uk_json_del(entry, key);
	if (v)
		uk_json_set(entry, key, uk_json_copy(v));
}

/* rec's diff of old's content against new (n bytes), c->diff_lines. */
static void
set_diff(const struct uk_cache *c, yajl_val rec, yajl_val old, const char *s,
    size_t n)
{
	struct uk_buf d = UK_BUF_INIT;
	const char *t;
	size_t tn;
	int cut;

	t = uk_json_get_strn(old, "content", &tn);
	if (uk_diff_unified(t, tn, s, n, c->diff_lines, &d, &cut)) {
		uk_json_set_bool(rec, "diff_too_large", 1);
	} else {
		uk_json_set(rec, "diff", uk_json_strn(d.buf ? d.buf : "", d.len));
		uk_json_set_bool(rec, "diff_truncated", cut);
	}
	uk_buf_release(&d);
}

void
uk_cache_change_note(const struct uk_cache *c, yajl_val rec, yajl_val entry,
    yajl_val old, const char *when)
{
	const char *const *f;
	yajl_val prev;
	char hex[65], was[65];
	const char *s;
	size_t n;

	for (f = fetch_only; *f; f++) {
		uk_json_del(entry, *f);
		uk_json_del(rec, *f);
	}
	uk_json_del(entry, "previous");
	uk_json_del(entry, "changed_at");
	/* Not stored: a get gives the record as it was set, and the hash
	 * of the entry replaced is made again, a fraction of the fetch's
	 * cost (some 4 us a KB). */
	uk_json_del(entry, "content_hash");
	if (!(s = uk_json_get_strn(entry, "content", &n)))
		return;
	uk_sha256_hex(s, n, hex);
	uk_json_set_str(rec, "content_hash", hex);
	if (!old || old_hash(old, was)) {
		uk_json_set_str(rec, "change", "new");
		return;
	}
	if (!strcmp(was, hex)) {
		/* The same content: the older version stays the previous
		 * one, and the time it changed stays too. */
		uk_json_set_str(rec, "change", "same");
		keep(entry, old, "changed_at");
		keep(entry, old, "previous");
		return;
	}
	uk_json_set_str(rec, "change", "changed");
	if (c->diff_lines > 0)
		set_diff(c, rec, old, s, n);
	prev = uk_json_object();
	uk_json_set_str(prev, "content_hash", was);
	keep(prev, old, "content");
	keep(prev, old, "fetched_at");
	uk_json_set_str(entry, "changed_at", when);
	uk_json_set(entry, "previous", prev);
}
