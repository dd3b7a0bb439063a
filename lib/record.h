/* SPDX-License-Identifier: MIT */
#ifndef UK_RECORD_H
#define UK_RECORD_H

/*
 * Records: the one builder of the content record every fetching program
 * writes for a URL (urlfetch, pwfetch, urlextract, urlserve's fetch), and
 * the one place that sets "error" on any record.
 *
 * A content record is made in three steps:
 *
 *	rec = uk_record_new(url, in, url_type);    url, url_type, fetched_at
 *	... the fetcher's own fields: title, content, github_info ...
 *	uk_record_set_http(rec, &h);    final_url and the http part
 *	uk_record_error(rec, msg);      when the fetch failed
 *	rec = uk_record_finish(rec, in, UK_JSONL_MAX_LINE);
 *
 * and uk_record_finish is the last thing done to it before it is written:
 * it carries the input record's fields, says whether the record came from
 * a cache, and fits it to the line limit.  A record that goes into a cache
 * is fitted (uk_record_fit) before it is stored and finished when it goes
 * out, so that the cache never holds the fields of one input.
 *
 * The fields a content record carries from its url record: all of them
 * but "type" and "github", which it has under its own names ("url_type"
 * and "github_info", the fetcher's view of the URL).  Where the record and
 * its input both have a field, the record's stays.
 *
 * This module depends on json, buf, sha256 and util alone, so that the JSON Lines
 * reader (lib/jsonl) can build its error records with it.
 */

#include <stddef.h>
#include <yajl/yajl_tree.h>

/*
 * Start a content record: {"url", "url_type", "fetched_at"}.  "url" is
 * url, or when url is NULL the "url" of in copied as it is (a URL that
 * holds a NUL byte keeps it), and absent when in has none; "url_type" is
 * set when url_type is not NULL; "fetched_at" is now (RFC 3339 UTC, as
 * uk_util_time_rfc3339).  in is borrowed and may be NULL; its other fields come
 * in at uk_record_finish.  The caller owns the record.
 */
yajl_val uk_record_new(const char *url, yajl_val in, const char *url_type);

/*
 * What an HTTP answer says of a record.  A member that is 0 or NULL is not
 * known and not written.
 */
struct uk_record_http {
	const char *final_url;    /* the address after redirects */
	long status;              /* the HTTP status */
	const char *content_type; /* the Content-Type header as sent */
	const char *etag;         /* the validators a revalidation sends */
	const char *last_modified;
};

/*
 * Set rec's "final_url" when h->final_url differs from rec's "url", and
 * its "http" object ({"status", "content_type", "etag", "last_modified"},
 * the members known) when h->status is known.  Both replace any there.
 */
void uk_record_set_http(yajl_val rec, const struct uk_record_http *h);

/*
 * Set rec's "error" to msg: the record failed (STYLE.md's error model:
 * `jq 'select(.error)'` finds every failure).  Any record, not only a
 * content record; the other fields are left as they are.
 */
void uk_record_error(yajl_val rec, const char *msg);

/*
 * Copy onto rec the fields of its url record in that rec does not have,
 * leaving out in's "type" and "github".  NULL in copies nothing.
 */
void uk_record_carry(yajl_val rec, yajl_val in);

/*
 * Make rec fit in max bytes as one line (as uk_jsonl_out_record writes
 * it; max is the line limit, UK_JSONL_MAX_LINE for the toolkit's readers):
 * while it is longer, its longest top-level string is cut at a UTF-8
 * boundary, and then "truncated" is set to true and "truncated_reason"
 * says which fields were cut and why.  Returns 0 when rec fitted as it
 * was, 1 when it was cut, -1 when cutting strings cannot make it fit (its
 * size is elsewhere).
 */
int uk_record_fit(yajl_val rec, size_t max);

/*
 * Set rec's "content_hash" to the SHA-256 of its "content" as it stands
 * (64 lower-case hex digits, as sha256sum(1) prints it), or take it out
 * when rec has no string content.  Whatever changes the content after
 * (a slice) calls it again.
 */
void uk_record_hash(yajl_val rec);

/*
 * Make rec (owned) the record to write for the url record in (borrowed,
 * may be NULL): in's fields carried (uk_record_carry), "cached" false
 * unless rec says, the whole fitted in max bytes (uk_record_fit), and
 * its content_hash set (uk_record_hash).
 * Returns rec, or, when rec cannot be made to fit, a new record of rec's
 * "url" with the error "the record is over the line limit" (rec freed).
 */
yajl_val uk_record_finish(yajl_val rec, yajl_val in, size_t max);

#endif
