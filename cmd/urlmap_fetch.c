/* SPDX-License-Identifier: MIT */
/*
 * urlmap's fetching: each origin's robots.txt and delay, and the cache of
 * the documents it reads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base64.h"
#include "buf.h"
#include "cache.h"
#include "http.h"
#include "json.h"
#include "jsonl.h"
#include "progress.h"
#include "record.h"
#include "robots.h"
#include "util.h"
#include "urlmap.h"

#include "banned.h"

struct uk_http http;
struct uk_progress prog;
struct uk_cache cache;
int have_cache;
struct site *sites;
size_t nsites;

void
progress(int force)
{
	uk_progress_show(&prog, force,
	    "%s: %lu URLs, %lu requests, %lu cached, %lu pages", uk_prog,
	    st.records, st.requests, st.cached, st.pages);
}

/* The delay between two requests to s. */
static double
site_delay(const struct site *s)
{
	double d = opt.delay >= 0 ? opt.delay : opt.crawl ? 0.5 : 0;
	double cd = s->robots.crawl_delay;

	if (!opt.ignore_robots && cd > d)
		d = cd < MAX_CRAWL_DELAY ? cd : MAX_CRAWL_DELAY;
	return d;
}

/* Sleep until s may be asked again. */
static void
site_wait(struct site *s)
{
	double left = s->next - uk_util_mono_now();
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The cache: each document urlmap reads (robots.txt, a sitemap, a feed,
 * llms.txt, a page) is kept as it was answered, under its URL with
 * "#urlmap" added, a key no fetched page has (a fragment is never sent),
 * so that urlfetch's entry for the same URL, its extracted text, stays
 * apart.  A fresh entry is the answer and costs no request; answers
 * that the server says not to store, 5xx answers and bodies over
 * CACHE_BODY_MAX are not kept.
 */
#define CACHE_BODY_MAX (8UL << 20)

static char *
cache_key(const char *url)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "%.*s#urlmap", (int)strcspn(url, "#"), url);
	return uk_buf_detach(&b, NULL);
}

/* 1 with r filled from the cache, 0 on a miss. */
static int
cache_get(struct uk_http_req *r)
{
	yajl_val rec = NULL, h;
	const char *body, *ct, *fu, *enc;
	char *key = cache_key(r->url);
	struct uk_err err;
	long long status = 0;
	size_t len;
	int hit = 0;

	if (uk_cache_get(&cache, key, 0, &rec, NULL, &err) != 1)
		goto out;
	h = uk_json_get(rec, "http");
	body = uk_json_get_strn(rec, "content", &len);
	if (!body || uk_json_get_int(h, "status", &status))
		goto out;
	enc = uk_json_get_str(rec, "content_encoding");
	uk_buf_reset(&r->body);
	if (enc && !strcmp(enc, "base64")) {
		if (uk_base64_decode(body, len, &r->body))
			goto out;
	} else {
		uk_buf_add(&r->body, body, len);
	}
	r->status = (long)status;
	if ((ct = uk_json_get_str(h, "content_type")))
		r->content_type = uk_util_xstrdup(ct);
	if ((fu = uk_json_get_str(rec, "final_url")))
		r->final_url = uk_util_xstrdup(fu);
	r->failed = 0;
	hit = 1;
	st.cached++;
out:
	uk_json_free(rec);
	free(key);
	return hit;
}

static void
cache_put(const struct uk_http_req *r)
{
	yajl_val rec, h;
	struct uk_buf b64 = UK_BUF_INIT;
	struct uk_err err;
	char *key;

	if (r->failed || r->status >= 500 || r->body.len > CACHE_BODY_MAX)
		return;
	key = cache_key(r->url);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", key);
	if (r->final_url && strcmp(r->final_url, r->url))
		uk_json_set_str(rec, "final_url", r->final_url);
	h = uk_json_object();
	uk_json_set_int(h, "status", r->status);
	if (r->content_type)
		uk_json_set_str(h, "content_type", r->content_type);
	uk_json_set(rec, "http", h);
	/* A gzip sitemap, or text that is not UTF-8, goes as base64. */
	if (memchr(r->body.buf, '\0', r->body.len) ||
	    !uk_buf_utf8_valid(r->body.buf, r->body.len)) {
		uk_base64_encode(r->body.buf, r->body.len, &b64);
		uk_json_set(rec, "content", uk_json_strn(b64.buf, b64.len));
		uk_json_set_str(rec, "content_encoding", "base64");
	} else {
		uk_json_set(rec, "content", uk_json_strn(r->body.buf,
		    r->body.len));
	}
	if (!uk_cache_lifetime(rec, r->cache_life) &&
	    uk_cache_set(&cache, rec, &err) < 0)
		uk_util_warn("cache: %s", err.msg);
	uk_json_free(rec);
	uk_buf_release(&b64);
	free(key);
}

/*
 * GET url into r (set up by the caller), waiting for it, unless the cache
 * has it; the delay of site s (may be NULL) is kept before and set after
 * a request.
 */
static void
get(struct site *s, struct uk_http_req *r)
{
	struct uk_http_req *d;

	if (have_cache && cache_get(r))
		return;
	if (s)
		site_wait(s);
	uk_http_add(&http, r);
	while ((d = uk_http_wait(&http, -1, NULL)) && d != r)
		;
	st.requests++;
	if (s)
		s->next = uk_util_mono_now() + site_delay(s);
	if (have_cache)
		cache_put(r);
	progress(0);
}

/*
 * The site of url, with its robots.txt read (RFC 9309: 2xx its rules, 4xx
 * allow all, 5xx or no answer disallow all).  NULL when url has no origin.
 */
struct site *
site_of(const char *url)
{
	struct uk_http_req r;
	struct site *s;
	char *origin, *ru;
	size_t i;

	if (uk_robots_split_url(url, &origin, NULL, NULL))
		return NULL;
	for (i = 0; i < nsites; i++)
		if (strcmp(sites[i].origin, origin) == 0) {
			free(origin);
			return &sites[i];
		}
	sites = uk_util_xrealloc(sites, (nsites + 1) * sizeof(*sites));
	s = &sites[nsites++];
	memset(s, 0, sizeof(*s));
	s->origin = origin;
	uk_robots_init(&s->robots);
	st.bytes += strlen(origin) + sizeof(*s);
	ru = uk_util_xmalloc(strlen(origin) + 12);
	memcpy(ru, origin, strlen(origin));
	memcpy(ru + strlen(origin), "/robots.txt", 12);
	uk_http_req_init(&r, ru);
	free(ru);
	get(s, &r);
	if (!r.failed && r.status >= 200 && r.status < 300)
		uk_robots_parse(&s->robots, r.body.buf, r.body.len, AGENT);
	else if (!r.failed && r.status >= 400 && r.status < 500)
		uk_robots_set(&s->robots, UK_ROBOTS_ALLOW_ALL);
	else
		uk_robots_set(&s->robots, UK_ROBOTS_DISALLOW_ALL);
	s->loaded = 1;
	/* Its delay now that its Crawl-delay is known. */
	s->next = uk_util_mono_now() + site_delay(s);
	uk_http_req_release(&r);
	return s;
}

/* Whether robots.txt lets urlmap fetch url (always with --ignore-robots). */
int
allowed(const char *url)
{
	struct site *s;
	char *pathq;
	int ok;

	if (opt.ignore_robots)
		return 1;
	if (!(s = site_of(url)) || uk_robots_split_url(url, NULL, NULL, &pathq))
		return 0;
	ok = uk_robots_allowed(&s->robots, pathq);
	free(pathq);
	return ok;
}

/* A failure record for what could not be read: {"url", "via", "error"}. */
void
fail(const char *url, const char *via, const char *fmt, ...)
{
	yajl_val rec = uk_json_object();
	struct uk_buf b = UK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	uk_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	uk_json_set_str(rec, "url", url);
	if (via)
		uk_json_set_str(rec, "via", via);
	uk_record_error(rec, b.buf);
	if (opt.urls)
		uk_util_warn("'%s': %s", url, b.buf);
	else
		uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
	uk_buf_release(&b);
	uk_util_status_set(UK_EXIT_FAIL);
}

/*
 * Fetch url for a source (robots.txt honoured unless --ignore-robots).
 * 0 with r's answer (any HTTP status), 1 when robots.txt refused it, -1
 * when no answer came (r->err says why).  The caller releases r.
 */
int
fetch(const char *url, struct uk_http_req *r)
{
	struct site *s;

	uk_http_req_init(r, url);
	if (!allowed(url)) {
		st.refused++;
		return 1;
	}
	s = site_of(url);
	get(s, r);
	return r->failed ? -1 : 0;
}

/* Why a fetch failed, for an error record. */
void
fetch_error(const char *url, const char *via, int rc, struct uk_http_req *r)
{
	if (rc == 1)
		fail(url, via, "disallowed by robots.txt");
	else if (rc < 0)
		fail(url, via, "%s", r->err.msg);
	else
		fail(url, via, "HTTP %ld", r->status);
}

