/* SPDX-License-Identifier: MIT */
/* Unit tests of the record builder (lib/record). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "record.h"
#include "util.h"
#define TAP_PREFIX "record: "
#include "tap.h"

#include "banned.h"

static yajl_val
parse(const char *s)
{
	return uk_json_parse(s, strlen(s), NULL);
}

/* rec as compact JSON, into a buffer the next call reuses. */
static const char *
text(yajl_val rec)
{
	static struct uk_buf b = UK_BUF_INIT;

	uk_buf_reset(&b);
	uk_json_to_buf(rec, &b);
	return b.buf;
}

/*
 * Whether rec, "fetched_at" taken out, is want, and its "fetched_at", if
 * it had one, RFC 3339 UTC with milliseconds.
 */
static int
is(yajl_val rec, const char *want)
{
	const char *t = uk_json_get_str(rec, "fetched_at");
	int good = !t || (strlen(t) == 24 && t[10] == 'T' && t[23] == 'Z');

	uk_json_del(rec, "fetched_at");
	if (strcmp(text(rec), want)) {
		printf("# got  %s\n# want %s\n", text(rec), want);
		return 0;
	}
	return good;
}

/* Fields "f0": 0 ... "fN-1": N-1 in rec: a size no string holds. */
static void
add_fields(yajl_val rec, size_t n)
{
	char k[24];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "f%zu", i);
		uk_json_set_int(rec, k, (long long)i);
	}
}

/* A record of in too big to fit 1024 bytes is finished as want. */
static void
over_limit(yajl_val in, const char *want, const char *what)
{
	yajl_val rec = uk_record_new(NULL, in, "web");

	add_fields(rec, 400);
	rec = uk_record_finish(rec, in, 1024);
	ok(!strcmp(text(rec), want), "finish: over the limit: %s (%s)", what,
	    text(rec));
	uk_json_free(rec);
}

static void
test_new(void)
{
	yajl_val in = parse("{\"url\":\"https://a.example/j\\u0000evil\","
			    "\"id\":7}");
	yajl_val rec;
	size_t n;

	rec = uk_record_new("https://a.example/", NULL, "web");
	ok(uk_json_get_str(rec, "fetched_at") && rec->u.object.len == 3 &&
		!strcmp(rec->u.object.keys[0], "url") &&
		!strcmp(rec->u.object.keys[1], "url_type") &&
		!strcmp(rec->u.object.keys[2], "fetched_at"),
	    "new: url, url_type, fetched_at, in that order");
	ok(is(rec, "{\"url\":\"https://a.example/\",\"url_type\":\"web\"}"),
	    "new: fetched_at is RFC 3339 UTC with milliseconds");
	uk_json_free(rec);

	rec = uk_record_new(NULL, in, "unknown");
	uk_json_get_strn(rec, "url", &n);
	ok(n == 24, "new: the input's url copied whole, NUL and all (%zu)", n);
	ok(!uk_json_get(rec, "id"),
	    "new: the input's other fields wait for "
	    "finish");
	uk_json_free(rec);

	rec = uk_record_new(NULL, NULL, NULL);
	ok(uk_json_get(rec, "fetched_at") && is(rec, "{}"),
	    "new: no url and no type: fetched_at alone");
	uk_json_free(rec);
	uk_json_free(in);
}

static void
test_http(void)
{
	struct uk_record_http h = { .final_url = "https://a.example/",
		.status = 200,
		.content_type = "text/html; charset=utf-8",
		.etag = "\"e1\"" };
	yajl_val rec = uk_record_new("https://a.example/", NULL, "web");

	uk_record_set_http(rec, &h);
	ok(is(rec,
	       "{\"url\":\"https://a.example/\",\"url_type\":\"web\","
	       "\"http\":{\"status\":200,\"content_type\":\"text/html; "
	       "charset=utf-8\",\"etag\":\"\\\"e1\\\"\"}}"),
	    "http: the object, no final_url where it is the url");
	h.final_url = "https://a.example/moved";
	h.status = 404;
	h.content_type = h.etag = NULL;
	h.last_modified = "Sun, 06 Dec 2026 06:00:00 GMT";
	uk_record_set_http(rec, &h);
	ok(is(rec,
	       "{\"url\":\"https://a.example/\",\"url_type\":\"web\","
	       "\"http\":{\"status\":404,\"last_modified\":\"Sun, 06 Dec "
	       "2026 06:00:00 GMT\"},"
	       "\"final_url\":\"https://a.example/moved\"}"),
	    "http: replaced; final_url where it differs");
	uk_json_free(rec);

	rec = uk_record_new("https://a.example/", NULL, NULL);
	h.status = 0;
	h.final_url = NULL;
	uk_record_set_http(rec, &h);
	ok(is(rec, "{\"url\":\"https://a.example/\"}"),
	    "http: no status, no object");
	uk_json_free(rec);
}

static void
test_error(void)
{
	yajl_val rec = parse("{\"url\":\"u\",\"content\":\"c\"}");

	uk_record_error(rec, "HTTP 404");
	ok(!strcmp(text(rec),
	       "{\"url\":\"u\",\"content\":\"c\","
	       "\"error\":\"HTTP 404\"}"),
	    "error: set, the rest kept");
	uk_record_error(rec, "then this");
	ok(!strcmp(uk_json_get_str(rec, "error"), "then this"),
	    "error: replaced, not repeated (%s)", text(rec));
	uk_json_free(rec);
}

static void
test_carry(void)
{
	yajl_val rec = parse("{\"url\":\"u\",\"url_type\":\"web\","
			     "\"title\":\"T\"}");
	yajl_val in = parse("{\"url\":\"x\",\"type\":\"web\",\"display\":\"d\","
			    "\"start\":1,\"end\":2,\"github\":{},"
			    "\"message\":3,\"id\":\"m1\",\"title\":\"other\","
			    "\"hint\":\"api\"}");

	uk_record_carry(rec, in);
	ok(!strcmp(text(rec),
	       "{\"url\":\"u\",\"url_type\":\"web\",\"title\":\"T\","
	       "\"display\":\"d\",\"start\":1,\"end\":2,\"message\":3,"
	       "\"id\":\"m1\",\"hint\":\"api\"}"),
	    "carry: the url record's fields in but type and github, nothing "
	    "overwritten: %s",
	    text(rec));
	uk_record_carry(rec, NULL);
	ok(rec->u.object.len == 9, "carry: no input, nothing carried");
	uk_json_free(rec);
	uk_json_free(in);
}

static void
test_fit(void)
{
	struct uk_buf big = UK_BUF_INIT;
	yajl_val rec;
	size_t i, n;
	const char *s;

	for (i = 0; i < 4000; i++)
		uk_buf_addstr(&big, "\xc3\xa9"); /* é, two bytes */
	rec = parse("{\"url\":\"u\",\"title\":\"short\"}");
	ok(uk_record_fit(rec, 4096) == 0 && rec->u.object.len == 2,
	    "fit: a small record fits as it is");
	uk_json_set(rec, "content", uk_json_strn(big.buf, big.len));
	ok(uk_record_fit(rec, 4096) == 1, "fit: a long string is cut");
	ok(text(rec) && strlen(text(rec)) <= 4096,
	    "fit: the line is within the limit (%zu)", strlen(text(rec)));
	s = uk_json_get_strn(rec, "content", &n);
	ok(n > 0 && n % 2 == 0 && (unsigned char)s[n - 1] == 0xa9,
	    "fit: cut at a character boundary (%zu bytes)", n);
	ok(uk_json_get_bool(rec, "truncated") &&
		strstr(uk_json_get_str(rec, "truncated_reason"),
		    "'content' cut from 8000 to "),
	    "fit: truncated and its reason (%s)",
	    uk_json_get_str(rec, "truncated_reason"));
	uk_json_free(rec);

	/* The size in many small fields: no string to cut. */
	rec = uk_json_object();
	add_fields(rec, 400);
	ok(uk_record_fit(rec, 1024) == -1, "fit: -1 when no string can fit it");
	uk_json_free(rec);
	over_limit(NULL, "{\"error\":\"the record is over the line limit\"}",
	    "no url: the error alone");
	uk_buf_release(&big);
}

static void
test_finish(void)
{
	yajl_val in = parse("{\"url\":\"u\",\"type\":\"web\",\"display\":\"d\","
			    "\"id\":1,\"cached\":true,\"pad\":\"\"}");
	yajl_val rec, big;
	struct uk_buf b = UK_BUF_INIT;
	size_t i;

	rec = uk_record_new(NULL, in, "web");
	rec = uk_record_finish(rec, in, 1 << 20);
	ok(is(rec,
	       "{\"url\":\"u\",\"url_type\":\"web\","
	       "\"cached\":false,\"display\":\"d\",\"id\":1,\"pad\":\"\"}"),
	    "finish: carried, cached false, the input's cached not taken");
	uk_json_free(rec);

	rec = uk_record_new("u", NULL, "web");
	uk_json_set_bool(rec, "cached", 1);
	rec = uk_record_finish(rec, NULL, 1 << 20);
	ok(uk_json_get_bool(rec, "cached"), "finish: cached true kept");
	uk_json_free(rec);

	/* Carried fields count: a long input field is cut to fit too. */
	for (i = 0; i < 3000; i++)
		uk_buf_addstr(&b, "ab");
	big = parse("{\"url\":\"u\"}");
	uk_json_set(big, "note", uk_json_strn(b.buf, b.len));
	rec = uk_record_new(NULL, big, "web");
	uk_json_set_str(rec, "content", "short");
	rec = uk_record_finish(rec, big, 4096);
	ok(strlen(text(rec)) <= 4096 && uk_json_get_bool(rec, "truncated") &&
		uk_json_strlen(uk_json_get(rec, "note")) < 6000 &&
		!strcmp(uk_json_get_str(rec, "content"), "short"),
	    "finish: a carried field is what is cut (%s)",
	    uk_json_get_str(rec, "truncated_reason"));
	uk_json_free(rec);

	uk_json_del(big, "note");
	over_limit(big,
	    "{\"url\":\"u\",\"error\":\"the record is over the line limit\"}",
	    "the url and the error");
	uk_json_free(big);
	uk_json_free(in);
	uk_buf_release(&b);
}

int
main(void)
{
	uk_util_prog_set("t_record");
	test_new();
	test_http();
	test_error();
	test_carry();
	test_fit();
	test_finish();
	return tap_done();
}
