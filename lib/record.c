/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "record.h"
#include "sha256.h"
#include "util.h"
#include "banned.h"

yajl_val
uk_record_new(const char *url, yajl_val in, const char *url_type)
{
	yajl_val rec = uk_json_object(), u;
	char now[40];

	if (url)
		uk_json_set_str(rec, "url", url);
	else if ((u = uk_json_get(in, "url")))
		uk_json_set(rec, "url", uk_json_copy(u));
	if (url_type)
		uk_json_set_str(rec, "url_type", url_type);
	uk_util_time_rfc3339(now, sizeof(now));
	uk_json_set_str(rec, "fetched_at", now);
	return rec;
}

void
uk_record_set_http(yajl_val rec, const struct uk_record_http *h)
{
	const char *url = uk_json_get_str(rec, "url");
	yajl_val o;

	if (h->final_url && (!url || strcmp(h->final_url, url)))
		uk_json_set_str(rec, "final_url", h->final_url);
	if (h->status <= 0)
		return;
	o = uk_json_object();
	uk_json_set_int(o, "status", h->status);
	if (h->content_type)
		uk_json_set_str(o, "content_type", h->content_type);
	if (h->etag)
		uk_json_set_str(o, "etag", h->etag);
	if (h->last_modified)
		uk_json_set_str(o, "last_modified", h->last_modified);
	uk_json_set(rec, "http", o);
}

void
uk_record_error(yajl_val rec, const char *msg)
{
	uk_json_set_str(rec, "error", msg);
}

/* The url record's fields a content record has under names of its own. */
static const char *const own_names[] = { "type", "github", NULL };

void
uk_record_carry(yajl_val rec, yajl_val in)
{
	uk_json_add_missing(rec, in, own_names);
}

/* An upper bound on v's length as JSON: 6 bytes a string byte (\\u00XX). */
static size_t
json_bound(yajl_val v)
{
	size_t i, n = 2;

	if (!v)
		return 4;
	switch (v->type) {
	case yajl_t_string:
		return 6 * uk_json_strlen(v) + 2;
	case yajl_t_number:
		return strlen(v->u.number.r);
	case yajl_t_object:
		for (i = 0; i < v->u.object.len; i++)
			n += 6 * strlen(v->u.object.keys[i]) + 4 +
			    json_bound(v->u.object.values[i]);
		return n;
	case yajl_t_array:
		for (i = 0; i < v->u.array.len; i++)
			n += json_bound(v->u.array.values[i]) + 1;
		return n;
	default:
		return 5;
	}
}

static size_t
json_len(yajl_val v)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t n;

	uk_json_to_buf(v, &b);
	n = b.len;
	uk_buf_release(&b);
	return n;
}

int
uk_record_fit(yajl_val rec, size_t max)
{
	/* Room for "truncated" and "truncated_reason" added at the end. */
	const size_t room = 512;
	struct uk_buf why = UK_BUF_INIT;
	size_t len, i, best, over, keep;
	yajl_val v;
	int cut = 0;

	if (!rec || rec->type != yajl_t_object || max <= room ||
	    json_bound(rec) <= max)
		return 0;
	while ((len = json_len(rec)) > max - room) {
		/* The longest string: each byte cut takes one or more
		 * bytes off the line, so cutting the excess is enough. */
		for (best = i = 0; i < rec->u.object.len; i++)
			if (uk_json_strlen(rec->u.object.values[i]) >
			    uk_json_strlen(rec->u.object.values[best]))
				best = i;
		v = rec->u.object.len ? rec->u.object.values[best] : NULL;
		over = len - (max - room);
		if (!v || v->type != yajl_t_string ||
		    uk_json_strlen(v) < over) {
			uk_buf_release(&why);
			return -1;
		}
		keep = uk_buf_utf8_cut(v->u.string, uk_json_strlen(v) - over);
		if (why.len)
			uk_buf_addstr(&why, ", ");
		uk_buf_addf(&why, "'%s' cut from %zu to %zu bytes",
		    rec->u.object.keys[best], uk_json_strlen(v), keep);
		uk_json_set(rec, rec->u.object.keys[best],
		    uk_json_strn(v->u.string, keep));
		cut = 1;
	}
	if (cut) {
		uk_buf_addf(&why,
		    " to keep the record under the line limit of "
		    "%lu MiB",
		    (unsigned long)(max >> 20));
		uk_json_set_bool(rec, "truncated", 1);
		uk_json_set_str(rec, "truncated_reason", why.buf);
	}
	uk_buf_release(&why);
	return cut;
}

void
uk_record_hash(yajl_val rec)
{
	const char *s;
	char hex[65];
	size_t n;

	if (!(s = uk_json_get_strn(rec, "content", &n))) {
		uk_json_del(rec, "content_hash");
		return;
	}
	uk_sha256_hex(s, n, hex);
	uk_json_set_str(rec, "content_hash", hex);
}

yajl_val
uk_record_finish(yajl_val rec, yajl_val in, size_t max)
{
	yajl_val r;

	if (!uk_json_get(rec, "cached"))
		uk_json_set_bool(rec, "cached", 0);
	uk_record_carry(rec, in);
	if (uk_record_fit(rec, max) >= 0) {
		/* After the fit: the hash of the content as written (the
		 * 64 bytes it adds are within the fit's room). */
		uk_record_hash(rec);
		return rec;
	}
	r = uk_record_new(NULL, rec, NULL);
	uk_json_del(r, "fetched_at");
	uk_record_error(r, "the record is over the line limit");
	uk_json_free(rec);
	return r;
}
