/* SPDX-License-Identifier: MIT */
/*
 * urlmap: the URLs of a site, from its robots.txt, sitemaps, feeds,
 * llms.txt and a bounded crawl, as url records.
 */
#include <errno.h>
#include <stdarg.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "base64.h"
#include "buf.h"
#include "cache.h"
#include "cli.h"
#include "date.h"
#include "feed.h"
#include "http.h"
#include "json.h"
#include "jsonl.h"
#include "links.h"
#include "llmstxt.h"
#include "progress.h"
#include "record.h"
#include "robots.h"
#include "sitemap.h"
#include "strset.h"
#include "url.h"
#include "urlnorm.h"
#include "urlref.h"
#include "util.h"
#include "banned.h"

/* The product token urlmap looks for in robots.txt. */
#define AGENT "urlmap"
/* The longest Crawl-delay honoured, seconds: a larger one would stall. */
#define MAX_CRAWL_DELAY 30.0
/* Sitemaps read for one start URL, and how deep indexes nest. */
#define MAX_SITEMAPS 1000
#define MAX_SITEMAP_LEVEL 5
/* Links taken from one page. */
#define MAX_PAGE_LINKS 50000
/* The largest document (-s), compressed or inflated. */
static unsigned long long max_doc;

static const char synopsis[] =
    "usage: urlmap [-CPkquV] [-I glob] [-i file] [-o file] [-s size]\n"
    "              [-t seconds] [-W seconds] [-X glob] [--any-host] [--crawl]\n"
    "              [--depth n] [--ignore-robots] [--limit n] [--max-memory size]\n"
    "              [--no-feeds] [--no-llms] [--no-sitemaps] [--since date]\n"
    "              [--subdomains] [url ...]\n";

static const char options[] =
    "Write the URLs of a site as url records: from its robots.txt, sitemaps,\n"
    "feeds and llms.txt, and with --crawl from the links of its pages.\n"
    "\n"
    "      --any-host            keep URLs of any host (default: the start URL's)\n"
    "  -C, --no-cache            neither read nor write the cache\n"
    "      --crawl               follow the links of pages, breadth first\n"
    "      --depth=N             crawl N links deep (default: 3)\n"
    "  -I, --include=GLOB        keep only paths matching GLOB (repeatable)\n"
    "  -i, --input=FILE          url records or URLs from FILE (- is stdin)\n"
    "      --ignore-robots       do not honour robots.txt's rules\n"
    "  -k, --insecure            do not verify TLS certificates\n"
    "      --limit=N             at most N records, after the filters (0: all)\n"
    "      --max-memory=SIZE     cap on the seen set and the frontier (64M)\n"
    "      --no-feeds            do not read feeds\n"
    "      --no-llms             do not read /llms.txt\n"
    "      --no-sitemaps         do not read sitemaps\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "  -P, --allow-private       allow private and loopback addresses\n"
    "  -q, --quiet               no progress line\n"
    "  -s, --max-size=SIZE       largest document read (default: 50M)\n"
    "      --since=DATE          only URLs whose lastmod is DATE or later\n"
    "      --subdomains          keep URLs of the start host's subdomains too\n"
    "  -t, --timeout=SECONDS     one request's limit (default: 30)\n"
    "  -u, --urls                print bare URLs, not records\n"
    "  -W, --delay=SECONDS       between requests to one host (crawl: 0.5)\n"
    "  -X, --exclude=GLOB        drop paths matching GLOB (repeatable)\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "See urlmap(1).\n";

static const struct uk_cli cli = { "urlmap", synopsis, options };

static struct {
	int crawl, any_host, subdomains, ignore_robots, quiet, urls;
	int no_sitemaps, no_feeds, no_llms, no_cache;
	long depth, limit;
	double delay; /* < 0: not given */
	long long since;
	int have_since;
	unsigned long long max_memory;
	const char **include, **exclude;
	size_t ninclude, nexclude;
	const char *output;
} opt = { .depth = 3, .delay = -1, .max_memory = 64ULL << 20 };

static struct uk_http http;
static struct uk_jsonl_out out;
static struct uk_progress prog;
static struct uk_cache cache;
static int have_cache;

/* What the run has done, for the progress line and the last message. */
static struct {
	unsigned long records, requests, refused, pages, cached;
	unsigned long long bytes; /* held by the sets and the frontier */
	int full;                 /* the limit was reached */
	int memory;               /* --max-memory was reached */
} st;

/* One origin (scheme, host, port): its robots.txt and its clock. */
struct site {
	char *origin;
	struct uk_robots robots;
	int loaded;
	double next; /* uk_mono_now() before which no request goes */
};

static struct site *sites;
static size_t nsites;

/* URLs written (normal form), pages queued for the crawl, and URLs
 * robots.txt refused (each counted once). */
static struct uk_strset seen = UK_STRSET_INIT, queued = UK_STRSET_INIT,
			refused = UK_STRSET_INIT;

/* The hosts in scope for the current start URL. */
static char *scope[2];

static void
progress(int force)
{
	uk_progress_show(&prog, force,
	    "%s: %lu URLs, %lu requests, %lu cached, %lu pages", uk_prog,
	    st.records, st.requests, st.cached, st.pages);
}

/* The parts of url curl gives (NULL when it cannot parse it). */
static int
parts(const char *url, char **origin, char **host, char **pathq)
{
	CURLU *h = curl_url();
	char *scheme = NULL, *hs = NULL, *port = NULL, *path = NULL;
	char *query = NULL;
	struct uk_buf b = UK_BUF_INIT;
	int r = -1;

	if (!h)
		uk_die(UK_EXIT_FATAL, "out of memory");
	if (curl_url_set(h, CURLUPART_URL, url, 0) ||
	    curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) ||
	    curl_url_get(h, CURLUPART_HOST, &hs, 0) ||
	    curl_url_get(h, CURLUPART_PATH, &path, 0))
		goto out;
	curl_url_get(h, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT);
	curl_url_get(h, CURLUPART_QUERY, &query, 0);
	if (origin) {
		uk_buf_addf(&b, "%s://%s%s%s", scheme, hs, port ? ":" : "",
		    port ? port : "");
		*origin = uk_buf_detach(&b, NULL);
	}
	if (host)
		*host = uk_xstrdup(hs);
	if (pathq) {
		uk_buf_addf(&b, "%s%s%s", path, query ? "?" : "",
		    query ? query : "");
		*pathq = uk_buf_detach(&b, NULL);
	}
	r = 0;
out:
	curl_free(scheme);
	curl_free(hs);
	curl_free(port);
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(h);
	uk_buf_release(&b);
	return r;
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
	double left = s->next - uk_mono_now();
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
		r->content_type = uk_xstrdup(ct);
	if ((fu = uk_json_get_str(rec, "final_url")))
		r->final_url = uk_xstrdup(fu);
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
		uk_warn("cache: %s", err.msg);
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
		s->next = uk_mono_now() + site_delay(s);
	if (have_cache)
		cache_put(r);
	progress(0);
}

/*
 * The site of url, with its robots.txt read (RFC 9309: 2xx its rules, 4xx
 * allow all, 5xx or no answer disallow all).  NULL when url has no origin.
 */
static struct site *
site_of(const char *url)
{
	struct uk_http_req r;
	struct site *s;
	char *origin, *ru;
	size_t i;

	if (parts(url, &origin, NULL, NULL))
		return NULL;
	for (i = 0; i < nsites; i++)
		if (strcmp(sites[i].origin, origin) == 0) {
			free(origin);
			return &sites[i];
		}
	sites = uk_xrealloc(sites, (nsites + 1) * sizeof(*sites));
	s = &sites[nsites++];
	memset(s, 0, sizeof(*s));
	s->origin = origin;
	uk_robots_init(&s->robots);
	st.bytes += strlen(origin) + sizeof(*s);
	ru = uk_xmalloc(strlen(origin) + 12);
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
	s->next = uk_mono_now() + site_delay(s);
	uk_http_req_release(&r);
	return s;
}

/* Whether robots.txt lets urlmap fetch url (always with --ignore-robots). */
static int
allowed(const char *url)
{
	struct site *s;
	char *pathq;
	int ok;

	if (opt.ignore_robots)
		return 1;
	if (!(s = site_of(url)) || parts(url, NULL, NULL, &pathq))
		return 0;
	ok = uk_robots_allowed(&s->robots, pathq);
	free(pathq);
	return ok;
}

/* A failure record for what could not be read: {"url", "via", "error"}. */
static void
fail(const char *url, const char *via, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
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
		uk_warn("'%s': %s", url, b.buf);
	else
		uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
	uk_buf_release(&b);
	uk_status_set(UK_EXIT_FAIL);
}

/*
 * Fetch url for a source (robots.txt honoured unless --ignore-robots).
 * 0 with r's answer (any HTTP status), 1 when robots.txt refused it, -1
 * when no answer came (r->err says why).  The caller releases r.
 */
static int
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
static void
fetch_error(const char *url, const char *via, int rc, struct uk_http_req *r)
{
	if (rc == 1)
		fail(url, via, "disallowed by robots.txt");
	else if (rc < 0)
		fail(url, via, "%s", r->err.msg);
	else
		fail(url, via, "HTTP %ld", r->status);
}

/* Whether host h is in the current scope. */
static int
in_scope(const char *h)
{
	size_t i, n, m;

	if (opt.any_host)
		return 1;
	for (i = 0; i < 2; i++) {
		if (!scope[i])
			continue;
		if (strcmp(h, scope[i]) == 0)
			return 1;
		n = strlen(h);
		m = strlen(scope[i]);
		if (opt.subdomains && n > m && h[n - m - 1] == '.' &&
		    strcmp(h + n - m, scope[i]) == 0)
			return 1;
	}
	return 0;
}

/* Whether url's host is in the current scope. */
static int
url_in_scope(const char *url)
{
	char *host;
	int ok;

	if (parts(url, NULL, &host, NULL))
		return 0;
	ok = in_scope(host);
	free(host);
	return ok;
}

/* Whether the path (and query) p passes --include and --exclude. */
static int
path_ok(const char *p)
{
	size_t i;
	int in = !opt.ninclude;

	for (i = 0; i < opt.ninclude && !in; i++)
		in = fnmatch(opt.include[i], p, 0) == 0;
	for (i = 0; in && i < opt.nexclude; i++)
		if (fnmatch(opt.exclude[i], p, 0) == 0)
			in = 0;
	return in;
}

/* Count n bytes against --max-memory: -1 when over (said once). */
static int
hold(size_t n)
{
	st.bytes += n;
	if (st.bytes <= opt.max_memory)
		return 0;
	if (!st.memory)
		fail(scope[0] ? scope[0] : "", NULL,
		    "the seen set and the frontier reached %llu bytes "
		    "(--max-memory)", opt.max_memory);
	st.memory = 1;
	return -1;
}

/* Whether the run stops: the limit or the memory cap was reached. */
static int
stopped(void)
{
	return st.full || st.memory;
}

/*
 * The normal form of ref (resolved against base) when it passes the
 * filters: in scope, the paths, robots.txt; else NULL.
 */
static char *
filter(const char *base, const char *ref)
{
	char *abs = uk_urlref_resolve(base, ref), *n = NULL, *host = NULL;
	char *pathq = NULL;

	if (!abs || !(n = uk_urlnorm(abs)) || parts(n, NULL, &host, &pathq) ||
	    !in_scope(host) || !path_ok(pathq))
		goto drop;
	if (!allowed(n)) {
		if (uk_strset_add(&refused, n, strlen(n)) && !hold(strlen(n)))
			st.refused++;
		goto drop;
	}
	free(abs);
	free(host);
	free(pathq);
	return n;
drop:
	free(abs);
	free(n);
	free(host);
	free(pathq);
	return NULL;
}

/* Collapse runs of white space in s to one space, in place. */
static void
squeeze(char *s)
{
	char *d = s, *start = s;
	int sp = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			sp = 1;
			continue;
		}
		if (sp && d > start) {
			*d++ = ' ';
		}
		sp = 0;
		*d++ = *s;
	}
	*d = '\0';
}

/*
 * Write the record of n (a normal form that passed the filters) unless
 * it was written already: 1 written, 0 not, -1 the run is to stop.
 */
static int
emit(const char *n, const char *via, long depth, const char *from,
    const char *lastmod, const char *title)
{
	struct uk_url u;
	yajl_val rec;
	long long t;
	char date[32];
	char *tt;

	if (stopped())
		return -1;
	if (opt.have_since &&
	    (!lastmod || uk_date_parse(lastmod, &t) || t < opt.since))
		return 0;
	if (uk_strset_has(&seen, n, strlen(n)))
		return 0;
	if (opt.limit && st.records >= (unsigned long)opt.limit) {
		st.full = 1;
		return -1;
	}
	if (hold(strlen(n) + 32))
		return -1;
	uk_strset_add(&seen, n, strlen(n));
	st.records++;
	if (opt.urls) {
		uk_jsonl_out_raw(&out, n, strlen(n));
		uk_jsonl_out_raw(&out, "\n", 1);
		return 1;
	}
	rec = uk_json_object();
	uk_json_set_str(rec, "url", n);
	uk_url_classify(n, &u);
	uk_url_to_record(&u, rec);
	uk_url_release(&u);
	uk_json_set_str(rec, "via", via);
	uk_json_set_int(rec, "depth", depth);
	if (from)
		uk_json_set_str(rec, "from", from);
	if (lastmod) {
		if (uk_date_parse(lastmod, &t) == 0) {
			uk_date_format(t, date, sizeof(date));
			uk_json_set_str(rec, "lastmod", date);
		} else
			uk_json_set_str(rec, "lastmod", lastmod);
	}
	if (title && *title) {
		tt = uk_xstrdup(title);
		squeeze(tt);
		uk_json_set_str(rec, "title", tt);
		free(tt);
	}
	uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
	if (opt.limit && st.records >= (unsigned long)opt.limit)
		st.full = 1;
	return 1;
}

/* ---- sitemaps ---------------------------------------------------------- */

struct smq {
	char **url;
	long *level;
	int *probe; /* 1: /sitemap.xml, guessed: its absence is fine */
	size_t n, head;
	struct uk_strset names;
};

static void
smq_add(struct smq *q, const char *url, long level, int probe)
{
	if (q->n >= MAX_SITEMAPS || level > MAX_SITEMAP_LEVEL ||
	    !uk_strset_add(&q->names, url, strlen(url)))
		return;
	q->url = uk_xrealloc(q->url, (q->n + 1) * sizeof(*q->url));
	q->level = uk_xrealloc(q->level, (q->n + 1) * sizeof(*q->level));
	q->probe = uk_xrealloc(q->probe, (q->n + 1) * sizeof(*q->probe));
	q->url[q->n] = uk_xstrdup(url);
	q->level[q->n] = level;
	q->probe[q->n] = probe;
	q->n++;
}

static void
smq_release(struct smq *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		free(q->url[i]);
	free(q->url);
	free(q->level);
	free(q->probe);
	uk_strset_release(&q->names);
}

struct smctx {
	struct smq *q;
	const char *url; /* the sitemap read */
	long level;
};

static int
sitemap_entry(void *arg, int index, const char *loc, const char *lastmod)
{
	struct smctx *c = arg;
	long long t;
	char *n;

	if (index) {
		char *abs = uk_urlref_resolve(c->url, loc);

		/* A child sitemap older than --since holds nothing newer. */
		if (abs && !(opt.have_since && lastmod &&
		    uk_date_parse(lastmod, &t) == 0 && t < opt.since))
			smq_add(c->q, abs, c->level + 1, 0);
		free(abs);
		return 0;
	}
	if (!(n = filter(c->url, loc)))
		return stopped();
	if (emit(n, "sitemap", c->level, c->url, lastmod, NULL) < 0) {
		free(n);
		return 1;
	}
	free(n);
	return 0;
}

/* Read the sitemaps in q, breadth first (indexes add to it). */
static void
sitemaps(struct smq *q)
{
	struct uk_http_req r;
	struct uk_err err;
	struct smctx c;
	int rc;

	for (; q->head < q->n && !stopped(); q->head++) {
		const char *url = q->url[q->head];
		int probe = q->probe[q->head];

		rc = fetch(url, &r);
		if (rc || r.status != 200) {
			if (!probe || rc < 0)
				fetch_error(url, "sitemap", rc, &r);
			uk_http_req_release(&r);
			continue;
		}
		c.q = q;
		c.url = r.final_url ? r.final_url : url;
		c.level = q->level[q->head];
		rc = uk_sitemap_parse(r.body.buf, r.body.len,
		    UK_SITEMAP_TEXT, max_doc, sitemap_entry, &c, &err);
		if (rc < 0)
			fail(url, "sitemap", "%s", err.msg);
		else if (rc == 1 && !probe)
			fail(url, "sitemap", "not a sitemap");
		uk_http_req_release(&r);
	}
}

/* ---- feeds and llms.txt ------------------------------------------------- */

struct fctx {
	const char *url;
	const char *via;
};

static int
feed_entry(void *arg, const char *link, const char *title, const char *date)
{
	struct fctx *c = arg;
	char *n;
	int r;

	if (!(n = filter(c->url, link)))
		return stopped();
	r = emit(n, c->via, 1, c->url, date, title);
	free(n);
	return r < 0;
}

static int
llms_entry(void *arg, const char *link, const char *title)
{
	return feed_entry(arg, link, title, NULL);
}

/* Read the feed at url (named: any failure is an error record). */
static void
feed(const char *url)
{
	struct uk_http_req r;
	struct uk_err err;
	struct fctx c;
	int rc;

	if ((rc = fetch(url, &r)) || r.status != 200) {
		fetch_error(url, "feed", rc, &r);
		uk_http_req_release(&r);
		return;
	}
	c.url = r.final_url ? r.final_url : url;
	c.via = "feed";
	rc = uk_feed_parse(r.body.buf, r.body.len, max_doc, feed_entry, &c,
	    &err);
	if (rc < 0)
		fail(url, "feed", "%s", err.msg);
	else if (rc == 1)
		fail(url, "feed", "not an RSS, Atom or JSON feed");
	uk_http_req_release(&r);
}

/* Whether a Content-Type is HTML (a soft 404 page, for a text file). */
static int
is_html(const char *ct)
{
	return ct && (strncasecmp(ct, "text/html", 9) == 0 ||
	    strncasecmp(ct, "application/xhtml", 17) == 0);
}

/* Read origin's /llms.txt; its absence is no error. */
static void
llms(const char *origin)
{
	struct uk_http_req r;
	struct uk_buf u = UK_BUF_INIT;
	struct fctx c;

	uk_buf_addf(&u, "%s/llms.txt", origin);
	if (fetch(u.buf, &r) == 0 && r.status == 200 &&
	    !is_html(r.content_type)) {
		c.url = r.final_url ? r.final_url : u.buf;
		c.via = "llms.txt";
		uk_llmstxt_links(r.body.buf, r.body.len, llms_entry, &c);
	}
	uk_http_req_release(&r);
	uk_buf_release(&u);
}

/* ---- the crawl ---------------------------------------------------------- */

struct page {
	char *url;
	char *from;
	long depth;
};

/* The frontier: a FIFO of pages to fetch, breadth first. */
static struct {
	struct page *v;
	size_t head, n, cap;
} front;

static void
front_push(const char *url, const char *from, long depth)
{
	if (front.head && front.head == front.n)
		front.head = front.n = 0;
	if (front.n == front.cap) {
		if (front.head) {
			memmove(front.v, front.v + front.head,
			    (front.n - front.head) * sizeof(*front.v));
			front.n -= front.head;
			front.head = 0;
		}
		if (front.n == front.cap) {
			front.cap = front.cap ? 2 * front.cap : 64;
			front.v = uk_xrealloc(front.v,
			    front.cap * sizeof(*front.v));
		}
	}
	front.v[front.n].url = uk_xstrdup(url);
	front.v[front.n].from = from ? uk_xstrdup(from) : NULL;
	front.v[front.n].depth = depth;
	front.n++;
}

static void
front_clear(void)
{
	for (; front.head < front.n; front.head++) {
		free(front.v[front.head].url);
		free(front.v[front.head].from);
	}
	front.head = front.n = 0;
}

/*
 * Take link (a normal form that passed the filters) found at depth on
 * page from: write it, and queue it for the crawl while there is depth
 * left.
 */
static void
crawl_link(const char *n, const char *from, long depth)
{
	if (emit(n, "link", depth, from, NULL, NULL) < 0)
		return;
	if (depth >= opt.depth || !uk_strset_add(&queued, n, strlen(n)))
		return;
	if (hold(2 * strlen(n) + strlen(from ? from : "") + 48))
		return;
	front_push(n, from, depth);
}

/* Crawl from the start page (already fetched into start). */
static void
crawl(const char *seed, struct uk_http_req *start, struct uk_links *sl)
{
	struct uk_http_req r;
	struct uk_links l;
	struct page p;
	const char *base;
	size_t i;
	char *n;
	int rc;

	(void)start;
	uk_strset_add(&queued, seed, strlen(seed));
	for (i = 0; i < sl->nlinks && !stopped(); i++)
		if ((n = filter(seed, sl->links[i]))) {
			crawl_link(n, seed, 1);
			free(n);
		}
	while (front.head < front.n && !stopped()) {
		p = front.v[front.head++];
		rc = fetch(p.url, &r);
		base = r.final_url ? r.final_url : p.url;
		/* A redirect out of scope is not followed further. */
		if (rc == 0 && r.status == 200 &&
		    (is_html(r.content_type) || !r.content_type) &&
		    (base == p.url || url_in_scope(base)) &&
		    uk_links_scan(&l, r.body.buf, r.body.len, r.content_type,
		    base, MAX_PAGE_LINKS) == 0) {
			st.pages++;
			for (i = 0; i < l.nlinks && !stopped(); i++)
				if ((n = filter(base, l.links[i]))) {
					crawl_link(n, p.url, p.depth + 1);
					free(n);
				}
			uk_links_release(&l);
		}
		uk_http_req_release(&r);
		free(p.url);
		free(p.from);
	}
	front_clear();
}

/* ---- one start URL ----------------------------------------------------- */

/*
 * The start page as something other than a page: a sitemap, a feed, or
 * a text file of Markdown links.  1 when it was one (and was read).
 */
static int
start_direct(const char *url, struct uk_http_req *r)
{
	struct uk_err err;
	struct smq q;
	struct fctx c;
	int rc;

	if (is_html(r->content_type))
		return 0;
	memset(&q, 0, sizeof(q));
	/* A sitemap given directly: its entries, and its children's. */
	smq_add(&q, url, 1, 0);
	if (uk_sitemap_parse(r->body.buf, r->body.len, 0, max_doc,
	    sitemap_entry, &(struct smctx){ &q, url, 1 }, &err) == 0) {
		q.head = 1;
		sitemaps(&q);
		smq_release(&q);
		return 1;
	}
	smq_release(&q);
	c.url = url;
	c.via = "feed";
	rc = uk_feed_parse(r->body.buf, r->body.len, max_doc, feed_entry, &c,
	    &err);
	if (rc == 0)
		return 1;
	if (rc < 0) {
		fail(url, NULL, "%s", err.msg);
		return 1;
	}
	if (r->content_type &&
	    (strncasecmp(r->content_type, "text/plain", 10) == 0 ||
	    strncasecmp(r->content_type, "text/markdown", 13) == 0)) {
		c.via = "llms.txt";
		uk_llmstxt_links(r->body.buf, r->body.len, llms_entry, &c);
		return 1;
	}
	return 0;
}

static void
map_url(const char *url)
{
	struct uk_http_req r;
	struct uk_links sl;
	struct smq q;
	struct site *s;
	char *seed, *origin = NULL, *final_host = NULL;
	const char *base;
	unsigned long before;
	size_t i;
	int rc, page = 0;

	if (!(seed = uk_urlnorm(url))) {
		fail(url, NULL, "not an http(s) URL");
		return;
	}
	parts(seed, &origin, &scope[0], NULL);
	memset(&sl, 0, sizeof(sl));
	/* robots.txt first: its rules and its Sitemap lines. */
	s = site_of(seed);
	rc = fetch(seed, &r);
	base = r.final_url ? r.final_url : seed;
	if (rc == 0 && r.status == 200) {
		if (r.final_url && parts(r.final_url, NULL, &final_host,
		    NULL) == 0 && strcmp(final_host, scope[0]) != 0)
			scope[1] = final_host;
		else
			free(final_host);
		if (start_direct(base, &r))
			goto out;
		page = uk_links_scan(&sl, r.body.buf, r.body.len,
		    r.content_type, base, MAX_PAGE_LINKS) == 0;
		st.pages += page;
	}
	before = st.records;
	if (opt.crawl && page) {
		char *n = filter(seed, seed);

		if (n)
			emit(n, "link", 0, NULL, NULL, sl.title);
		free(n);
	}
	if (!opt.no_sitemaps && s) {
		struct uk_buf b = UK_BUF_INIT;

		memset(&q, 0, sizeof(q));
		for (i = 0; i < s->robots.nsitemaps; i++) {
			char *abs = uk_urlref_resolve(s->origin,
			    s->robots.sitemaps[i]);

			if (abs)
				smq_add(&q, abs, 1, 0);
			free(abs);
		}
		uk_buf_addf(&b, "%s/sitemap.xml", origin);
		smq_add(&q, b.buf, 1, 1);
		uk_buf_release(&b);
		sitemaps(&q);
		smq_release(&q);
	}
	if (!opt.no_feeds)
		for (i = 0; i < sl.nfeeds && !stopped(); i++)
			feed(sl.feeds[i]);
	if (!opt.no_llms && !stopped())
		llms(origin);
	if (opt.crawl && page && !stopped())
		crawl(seed, &r, &sl);
	/*
	 * A start page that cannot be read is an error when the crawl
	 * needed it or nothing was found without it; else a warning.
	 */
	if (rc || r.status != 200) {
		if (opt.crawl || st.records == before)
			fetch_error(seed, NULL, rc, &r);
		else
			uk_warn("'%s': %s", seed, rc == 1 ?
			    "disallowed by robots.txt" : rc < 0 ? r.err.msg :
			    "no page (not HTTP 200)");
	}
out:
	uk_links_release(&sl);
	uk_http_req_release(&r);
	free(seed);
	free(origin);
	free(scope[0]);
	free(scope[1]);
	scope[0] = scope[1] = NULL;
}

static void
add_glob(const char ***v, size_t *n, const char *g)
{
	*v = uk_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = g;
}

int
main(int argc, char **argv)
{
	enum {
		OPT_ANY_HOST = UK_OPT_FIRST, OPT_CRAWL, OPT_DEPTH,
		OPT_IGNORE_ROBOTS, OPT_LIMIT, OPT_MAX_MEMORY, OPT_NO_FEEDS,
		OPT_NO_LLMS, OPT_NO_SITEMAPS, OPT_SINCE, OPT_SUBDOMAINS
	};
	static const struct option longopts[] = {
		{ "allow-private", no_argument, NULL, 'P' },
		{ "any-host", no_argument, NULL, OPT_ANY_HOST },
		{ "crawl", no_argument, NULL, OPT_CRAWL },
		{ "delay", required_argument, NULL, 'W' },
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "exclude", required_argument, NULL, 'X' },
		{ "ignore-robots", no_argument, NULL, OPT_IGNORE_ROBOTS },
		{ "include", required_argument, NULL, 'I' },
		{ "input", required_argument, NULL, 'i' },
		{ "insecure", no_argument, NULL, 'k' },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
		{ "max-size", required_argument, NULL, 's' },
		{ "no-cache", no_argument, NULL, 'C' },
		{ "no-feeds", no_argument, NULL, OPT_NO_FEEDS },
		{ "no-llms", no_argument, NULL, OPT_NO_LLMS },
		{ "no-sitemaps", no_argument, NULL, OPT_NO_SITEMAPS },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "subdomains", no_argument, NULL, OPT_SUBDOMAINS },
		{ "timeout", required_argument, NULL, 't' },
		{ "urls", no_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_jsonl_policy pol = { .flags = UK_JSONL_BARE_URL,
		.require = "url", .out = &out };
	struct uk_http_opts ho;
	struct uk_jsonl_src src;
	struct uk_err err;
	yajl_val rec;
	const char **inputs = NULL;
	size_t ninputs = 0, i;
	int c, r;

	uk_prog_set(argv[0]);
	uk_cli_check_stdio();
	uk_http_opts_init(&ho);
	ho.max_size = 50ULL << 20;
	ho.jobs = 1;
	ho.per_host = 1;
	while ((c = uk_cli_getopt(&cli, argc, argv, "ChI:i:ko:Pqs:t:uVW:X:",
		    longopts)) != -1) {
		switch (c) {
		case OPT_ANY_HOST:
			opt.any_host = 1;
			break;
		case OPT_CRAWL:
			opt.crawl = 1;
			break;
		case OPT_DEPTH:
			if (uk_parse_long(optarg, 0, 1000, &opt.depth))
				uk_cli_usage(&cli, "--depth: not a count from "
				    "0 to 1000: '%s'", optarg);
			break;
		case OPT_IGNORE_ROBOTS:
			opt.ignore_robots = 1;
			break;
		case OPT_LIMIT:
			if (uk_parse_long(optarg, 0, 1000000000L, &opt.limit))
				uk_cli_usage(&cli, "--limit: not a count: '%s'",
				    optarg);
			break;
		case OPT_MAX_MEMORY:
			if (uk_cli_size(optarg, &opt.max_memory) ||
			    !opt.max_memory)
				uk_cli_usage(&cli, "--max-memory: not a size "
				    "(such as 64M): '%s'", optarg);
			break;
		case OPT_NO_FEEDS:
			opt.no_feeds = 1;
			break;
		case OPT_NO_LLMS:
			opt.no_llms = 1;
			break;
		case OPT_NO_SITEMAPS:
			opt.no_sitemaps = 1;
			break;
		case OPT_SINCE:
			if (uk_date_parse(optarg, &opt.since))
				uk_cli_usage(&cli, "--since: not a date "
				    "(2026-11-01, 2026-11-01T12:00:00Z): '%s'",
				    optarg);
			opt.have_since = 1;
			break;
		case OPT_SUBDOMAINS:
			opt.subdomains = 1;
			break;
		case 'C':
			opt.no_cache = 1;
			break;
		case 'I':
			add_glob(&opt.include, &opt.ninclude, optarg);
			break;
		case 'i':
			add_glob(&inputs, &ninputs, optarg);
			break;
		case 'k':
			ho.insecure = 1;
			break;
		case 'o':
			if (!*optarg)
				uk_cli_usage(&cli, "-o: an empty file name");
			opt.output = optarg;
			break;
		case 'P':
			ho.allow_private = 1;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 's':
			if (uk_cli_size(optarg, &ho.max_size) || !ho.max_size)
				uk_cli_usage(&cli, "-s: not a size (such as "
				    "50M): '%s'", optarg);
			break;
		case 't':
			if (uk_parse_seconds(optarg, &ho.timeout) ||
			    ho.timeout <= 0)
				uk_cli_usage(&cli, "-t: not a duration: '%s'",
				    optarg);
			break;
		case 'u':
			opt.urls = 1;
			break;
		case 'W':
			if (uk_parse_seconds(optarg, &opt.delay))
				uk_cli_usage(&cli, "-W: not a duration: '%s'",
				    optarg);
			break;
		case 'X':
			add_glob(&opt.exclude, &opt.nexclude, optarg);
			break;
		default:
			uk_cli_usage(&cli, NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&cli, "-o: cannot open '%s': %s", opt.output,
		    strerror(errno));
	uk_jsonl_out_init(&out, stdout);
	uk_progress_init(&prog, STDERR_FILENO, opt.quiet);
	max_doc = ho.max_size;
	if (!opt.no_cache) {
		if (uk_cache_open(&cache, NULL, -1, &err) < 0)
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
		have_cache = 1;
	}
	if (uk_http_init(&http, &ho, &err) < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_src_init(&src, &pol);
	for (i = 0; i < ninputs; i++)
		uk_jsonl_src_add(&src, inputs[i], UK_JSONL_SRC_FILE);
	for (i = 0; i < (size_t)argc; i++)
		uk_jsonl_src_add(&src, argv[i], UK_JSONL_SRC_URL);
	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
		if (r == UK_JSONL_SRC_REC) {
			map_url(uk_json_get_str(rec, "url"));
		} else if (r == UK_JSONL_SRC_REFUSED) {
			uk_jsonl_out_record(&out, rec);
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
		} else if (err.code == UK_EXIT_FAIL) {
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
		} else {
			uk_progress_erase(&prog);
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
		}
		uk_json_free(rec);
		if (st.memory)
			break;
		/* The limit is the run's: a later start URL adds nothing. */
		if (st.full)
			break;
	}
	uk_progress_done(&prog);
	if (st.refused)
		uk_warn("%lu URL%s refused by robots.txt", st.refused,
		    st.refused == 1 ? "" : "s");
	uk_jsonl_src_release(&src);
	uk_http_release(&http);
	if (have_cache)
		uk_cache_release(&cache);
	for (i = 0; i < nsites; i++) {
		uk_robots_release(&sites[i].robots);
		free(sites[i].origin);
	}
	free(sites);
	free(front.v);
	free(inputs);
	free(opt.include);
	free(opt.exclude);
	uk_strset_release(&seen);
	uk_strset_release(&queued);
	uk_strset_release(&refused);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	return uk_status;
}
