/* SPDX-License-Identifier: MIT */
/*
 * The http(s) backend of cache_remote.c, through libcurl, as ccache's
 * http storage speaks: one object per key at BASE/KK/NAME, read with GET
 * (200 a hit, 404 a miss), written whole with PUT, removed with DELETE.
 * A WebDAV server (nginx's dav module with create_full_put_path), a
 * bazel-remote style server or an object store's endpoint serves it.  The
 * store has no expiry of its own: the value's header carries it
 * (cache_remote.c).  TLS is verified as libcurl does by default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "buf.h"
#include "cache_remote_int.h"
#include "util.h"

#include "banned.h"

/* A body larger than this is no entry of ours (cache_int.h's limit). */
#define MAX_BODY (1LL << 30)

struct hconn {
	char *base; /* the URL, ending in '/' */
	CURL *curl; /* kept between requests: one connection */
	struct uk_buf *body;
};

static int
h_parse(struct uk_cache_store *s)
{
	struct hconn *c = uk_xcalloc(1, sizeof(*c));
	struct uk_buf b = UK_BUF_INIT;
	CURLU *u;

	s->conn = c;
	/* Checked by libcurl's own parser, so that a bad URL is a usage
	 * error now rather than an error at each request. */
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, s->url, 0) != CURLUE_OK) {
		if (u)
			curl_url_cleanup(u);
		snprintf(s->msg, sizeof(s->msg), "not an http(s) URL");
		return -1;
	}
	curl_url_cleanup(u);
	uk_buf_addstr(&b, s->url);
	if (b.len && b.buf[b.len - 1] != '/')
		uk_buf_addch(&b, '/');
	c->base = uk_buf_detach(&b, NULL);
	return 0;
}

static size_t
h_write(char *p, size_t size, size_t n, void *ctx)
{
	struct hconn *c = ctx;

	if ((long long)(c->body->len + size * n) > MAX_BODY)
		return 0; /* ends the transfer with an error */
	uk_buf_add(c->body, p, size * n);
	return size * n;
}

static size_t
h_discard(char *p, size_t size, size_t n, void *ctx)
{
	(void)p;
	(void)ctx;
	return size * n;
}

/*
 * One request: method on the object of name, with body data[0..len) for
 * a PUT, the response body into out (or dropped).  The HTTP status, or -1
 * with s->msg (the handle is then dropped, as a connection that failed).
 */
static long
h_request(struct uk_cache_store *s, const char *method, const char *name,
    const char *data, size_t len, struct uk_buf *out)
{
	struct hconn *c = s->conn;
	struct uk_buf url = UK_BUF_INIT;
	CURLcode rc;
	long status = -1;

	if (!c->curl && !(c->curl = curl_easy_init())) {
		snprintf(s->msg, sizeof(s->msg), "cannot start libcurl");
		return -1;
	}
	curl_easy_reset(c->curl);
	/* "urlkit:KEY": the object KK/KEY, as the local layout. */
	name += strlen("urlkit:");
	uk_buf_addf(&url, "%s%.2s/%s", c->base, name, name);
	curl_easy_setopt(c->curl, CURLOPT_URL, url.buf);
	curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)s->connect_ms);
	/* The whole request, connection included, as ccache's http
	 * storage bounds it. */
	curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, (long)s->op_ms);
	curl_easy_setopt(c->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c->curl, CURLOPT_USERAGENT, "urlkit/" UK_VERSION);
	if (s->password)
		curl_easy_setopt(c->curl, CURLOPT_PASSWORD, s->password);
	c->body = out;
	curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION,
	    out ? h_write : h_discard);
	curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, c);
	if (!strcmp(method, "PUT")) {
		curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, "PUT");
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, data);
		curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)len);
	} else if (!strcmp(method, "DELETE")) {
		curl_easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, "DELETE");
		curl_easy_setopt(c->curl, CURLOPT_NOBODY, 0L);
	}
	rc = curl_easy_perform(c->curl);
	if (rc != CURLE_OK) {
		snprintf(s->msg, sizeof(s->msg), "%s: %s", method,
		    curl_easy_strerror(rc));
		curl_easy_cleanup(c->curl);
		c->curl = NULL;
	} else {
		curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
	}
	c->body = NULL;
	uk_buf_release(&url);
	return status;
}

static int
h_get(struct uk_cache_store *s, const char *name, struct uk_buf *out,
    long long *left)
{
	long st = h_request(s, "GET", name, NULL, 0, out);

	*left = -1;
	if (st == 200)
		return 1;
	if (st == 404)
		return 0;
	if (st >= 0)
		snprintf(s->msg, sizeof(s->msg), "GET: HTTP status %ld", st);
	return -1;
}

static int
h_put(struct uk_cache_store *s, const char *name, const char *data,
    size_t len, long ttl)
{
	long st = h_request(s, "PUT", name, data, len, NULL);

	(void)ttl; /* in the value's header */
	if (st >= 200 && st <= 299)
		return 0;
	if (st >= 0)
		snprintf(s->msg, sizeof(s->msg), "PUT: HTTP status %ld", st);
	return -1;
}

static int
h_del(struct uk_cache_store *s, const char *name)
{
	long st = h_request(s, "DELETE", name, NULL, 0, NULL);

	if (st >= 200 && st <= 299)
		return 1;
	if (st == 404)
		return 0;
	if (st >= 0)
		snprintf(s->msg, sizeof(s->msg), "DELETE: HTTP status %ld", st);
	return -1;
}

static void
h_close(struct uk_cache_store *s)
{
	struct hconn *c = s->conn;

	if (c->curl)
		curl_easy_cleanup(c->curl);
	free(c->base);
	free(c);
	s->conn = NULL;
}

const struct uk_cache_backend uk_cache_backend_http = {
	"http", h_parse, h_get, h_put, h_del, h_close,
};

const struct uk_cache_backend uk_cache_backend_https = {
	"https", h_parse, h_get, h_put, h_del, h_close,
};
