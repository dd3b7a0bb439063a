/* SPDX-License-Identifier: MIT */
/*
 * robots.txt for one user agent (RFC 9309), and "may this agent fetch
 * URL?": robots.txt fetched, judged and kept.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "buf.h"
#include "cache.h"
#include "http.h"
#include "json.h"
#include "netguard.h"
#include "robots.h"
#include "url.h"
#include "util.h"
#include "banned.h"

void
uk_robots_init(struct uk_robots *r)
{
	memset(r, 0, sizeof(*r));
	r->mode = UK_ROBOTS_ALLOW_ALL;
}

static void
rules_free(struct uk_robots_rule *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void
uk_robots_release(struct uk_robots *r)
{
	size_t i;

	rules_free(r->rules, r->nrules);
	for (i = 0; i < r->nsitemaps; i++)
		free(r->sitemaps[i]);
	free(r->sitemaps);
	uk_robots_init(r);
}

void
uk_robots_set(struct uk_robots *r, enum uk_robots_mode mode)
{
	rules_free(r->rules, r->nrules);
	r->rules = NULL;
	r->nrules = 0;
	r->crawl_delay = 0;
	r->mode = mode;
}

/* A list of rules being gathered for one kind of group. */
struct ruleset {
	struct uk_robots_rule *v;
	size_t n, cap;
	double delay;
	int seen; /* a group of this kind was seen */
};

static void
ruleset_add(struct ruleset *s, const char *p, size_t n, int allow)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = uk_util_xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n].path = uk_util_xmemdup(p, n);
	s->v[s->n].allow = allow;
	s->n++;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * Whether the user-agent line's value v[0..n) names agent: its product
 * token (the leading letters, digits, '_' and '-') compared without case.
 */
static int
agent_match(const char *v, size_t n, const char *agent)
{
	size_t k = 0, alen = strlen(agent);

	while (k < n && (((v[k] | 0x20) >= 'a' && (v[k] | 0x20) <= 'z') ||
	    (v[k] >= '0' && v[k] <= '9') || v[k] == '_' || v[k] == '-'))
		k++;
	return k > 0 && k == alen && strncasecmp(v, agent, k) == 0;
}

static int
key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(k, name, n) == 0;
}

void
uk_robots_parse(struct uk_robots *r, const char *text, size_t len,
    const char *agent)
{
	struct ruleset mine = { 0 }, star = { 0 }, *use;
	const char *p = text, *end, *eol, *k, *ke, *v, *ve, *hash;
	int in_agents = 0, g_mine = 0, g_star = 0;

	if (len > UK_ROBOTS_MAX)
		len = UK_ROBOTS_MAX;
	end = text + len;
	uk_robots_set(r, UK_ROBOTS_RULES);
	for (; p < end; p = eol + (eol < end)) {
		for (eol = p; eol < end && *eol != '\n' && *eol != '\r'; eol++)
			;
		hash = memchr(p, '#', (size_t)(eol - p));
		ve = hash ? hash : eol;
		for (k = p; k < ve && is_blank(*k); k++)
			;
		for (ke = k; ke < ve && *ke != ':'; ke++)
			;
		if (ke == ve)
			continue; /* no "key:": not a line of the protocol */
		for (v = ke + 1; v < ve && is_blank(*v); v++)
			;
		while (ke > k && is_blank(ke[-1]))
			ke--;
		while (ve > v && is_blank(ve[-1]))
			ve--;
		if (key_is(k, (size_t)(ke - k), "user-agent")) {
			if (!in_agents)
				g_mine = g_star = 0; /* a new group starts */
			in_agents = 1;
			if (ve - v == 1 && *v == '*')
				g_star = 1;
			else if (agent_match(v, (size_t)(ve - v), agent))
				g_mine = 1;
			mine.seen |= g_mine;
			star.seen |= g_star;
			continue;
		}
		if (key_is(k, (size_t)(ke - k), "sitemap")) {
			if (ve > v) {
				r->sitemaps = uk_util_xrealloc(r->sitemaps,
				    (r->nsitemaps + 1) * sizeof(*r->sitemaps));
				r->sitemaps[r->nsitemaps++] =
				    uk_util_xmemdup(v, (size_t)(ve - v));
			}
			continue;
		}
		in_agents = 0;
		/* A group for the agent wins over "*": rules go to both. */
		use = g_mine ? &mine : g_star ? &star : NULL;
		if (!use)
			continue;
		if (key_is(k, (size_t)(ke - k), "allow") && ve > v)
			ruleset_add(use, v, (size_t)(ve - v), 1);
		else if (key_is(k, (size_t)(ke - k), "disallow") && ve > v)
			ruleset_add(use, v, (size_t)(ve - v), 0);
		else if (key_is(k, (size_t)(ke - k), "crawl-delay") && ve > v) {
			char *s = uk_util_xmemdup(v, (size_t)(ve - v)), *e;
			double d = strtod(s, &e);

			if (e != s && *e == '\0' && d > 0 && d < 1e6)
				use->delay = d;
			free(s);
		}
	}
	use = mine.seen ? &mine : &star;
	r->rules = use->v;
	r->nrules = use->n;
	r->crawl_delay = use->delay;
	rules_free(use == &mine ? star.v : mine.v,
	    use == &mine ? star.n : mine.n);
}

/*
 * Whether the pattern p[0..pn), with '*' for any bytes, matches the whole
 * of s[0..sn): the usual wildcard walk, going back to the last '*' on a
 * mismatch (time at most pn * sn).
 */
static int
wild(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t i = 0, j = 0, star_i = (size_t)-1, star_j = 0;

	while (j < sn) {
		if (i < pn && p[i] == '*') {
			star_i = i++;
			star_j = j;
		} else if (i < pn && p[i] == s[j]) {
			i++;
			j++;
		} else if (star_i != (size_t)-1) {
			i = star_i + 1;
			j = ++star_j;
		} else
			return 0;
	}
	while (i < pn && p[i] == '*')
		i++;
	return i == pn;
}

/* Whether rule pattern p matches path (a prefix of it, unless p ends in $). */
static int
rule_match(const char *p, const char *path)
{
	size_t pn = strlen(p), sn = strlen(path), i;
	int ok;
	char *q;

	if (pn > 0 && p[pn - 1] == '$')
		return wild(p, pn - 1, path, sn);
	/* A prefix match: the pattern followed by '*'. */
	q = uk_util_xmalloc(pn + 2);
	for (i = 0; i < pn; i++)
		q[i] = p[i];
	q[pn] = '*';
	q[pn + 1] = '\0';
	ok = wild(q, pn + 1, path, sn);
	free(q);
	return ok;
}

int
uk_robots_allowed(const struct uk_robots *r, const char *path)
{
	size_t i, best = 0, n;
	int allow = 1, found = 0;

	if (strcmp(path, "/robots.txt") == 0)
		return 1;
	if (r->mode != UK_ROBOTS_RULES)
		return r->mode == UK_ROBOTS_ALLOW_ALL;
	for (i = 0; i < r->nrules; i++) {
		if (!rule_match(r->rules[i].path, path))
			continue;
		n = strlen(r->rules[i].path);
		if (!found || n > best || (n == best && r->rules[i].allow)) {
			allow = r->rules[i].allow;
			best = n;
			found = 1;
		}
	}
	return allow;
}

struct uk_robots_origin {
	char *origin;      /* "https://host:port" (owned) */
	struct uk_robots r; /* its verdict */
	char *why;         /* why it disallows all, or NULL (owned) */
	double until;      /* uk_util_mono_now() time it is forgotten */
};

void
uk_robots_cache_init(struct uk_robots_cache *rc, const char *agent)
{
	memset(rc, 0, sizeof(*rc));
	rc->agent = agent;
	rc->timeout = UK_HTTP_TIMEOUT;
	pthread_mutex_init(&rc->mu, NULL);
}

static void
origin_free(struct uk_robots_origin *o)
{
	free(o->origin);
	free(o->why);
	uk_robots_release(&o->r);
}

void
uk_robots_cache_release(struct uk_robots_cache *rc)
{
	size_t i;

	for (i = 0; i < rc->norigins; i++)
		origin_free(&rc->origins[i]);
	free(rc->origins);
	rc->origins = NULL;
	rc->norigins = 0;
	pthread_mutex_destroy(&rc->mu);
}

int
uk_robots_split_url(const char *url, char **origin, char **host, char **pathq)
{
	CURLU *h = curl_url();
	char *scheme = NULL, *hs = NULL, *port = NULL, *path = NULL;
	char *query = NULL;
	struct uk_buf b = UK_BUF_INIT;
	int r = -1;

	if (!h)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
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
		*host = uk_util_xstrdup(hs);
	if (pathq) {
		uk_buf_addf(&b, "%s%s%s", *path ? path : "/", query ? "?" : "",
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

/* url's origin and its path and query; -1 when it is not http(s). */
static int
split(const char *url, char **origin, char **pathq)
{
	if (uk_robots_split_url(url, origin, NULL, pathq))
		return -1;
	if (strncmp(*origin, "http://", 7) && strncmp(*origin, "https://", 8)) {
		free(*origin);
		free(*pathq);
		return -1;
	}
	return 0;
}

/*
 * The body kept up to UK_ROBOTS_MAX bytes, the rest not read: RFC 9309
 * asks to parse at least 500 KiB, and uk_http's engine fails a body
 * over its cap where this takes the file's start (the engine's callback
 * cannot be told to keep it).
 */
struct sink {
	struct uk_buf *body;
	int cut;
};

static size_t
on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct sink *s = ctx;
	size_t room = UK_ROBOTS_MAX - s->body->len;

	(void)size; /* always 1 */
	if (n > room) {
		uk_buf_add(s->body, p, room);
		s->cut = 1;
		return 0; /* stop the transfer: enough is read */
	}
	uk_buf_add(s->body, p, n);
	return n;
}

/* libcurl's progress callback: non-zero stops the transfer. */
static int
on_progress(void *ctx, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	struct pollfd p = { *(int *)ctx, POLLIN, 0 };

	(void)dt, (void)dn, (void)ut, (void)un;
	return p.fd >= 0 && poll(&p, 1, 0) > 0;
}

/* The cache's key for origin's robots.txt. */
static char *
cache_key(const char *origin)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "%s/robots.txt#robots", origin);
	return uk_buf_detach(&b, NULL);
}

/* 1 with *status and body from rc->cache, else 0. */
static int
cache_get(struct uk_robots_cache *rc, const char *origin, long *status,
    struct uk_buf *body)
{
	yajl_val rec = NULL;
	struct uk_err err;
	long long st;
	const char *t;
	char *key = cache_key(origin);
	size_t n;
	int hit = 0;

	if (uk_cache_get(rc->cache, key, 0, &rec, NULL, &err) == 1 &&
	    (t = uk_json_get_strn(rec, "content", &n)) &&
	    !uk_json_get_int(uk_json_get(rec, "http"), "status", &st)) {
		uk_buf_add(body, t, n);
		*status = (long)st;
		hit = 1;
	}
	uk_json_free(rec);
	free(key);
	return hit;
}

/* Keep a 2xx or 4xx answer in rc->cache (text that is not UTF-8: not). */
static void
cache_put(struct uk_robots_cache *rc, const char *origin, long status,
    const struct uk_buf *body)
{
	yajl_val rec, h;
	struct uk_err err;
	char *key;

	if (memchr(body->buf, '\0', body->len) ||
	    !uk_buf_utf8_valid(body->buf, body->len))
		return;
	key = cache_key(origin);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", key);
	h = uk_json_object();
	uk_json_set_int(h, "status", status);
	uk_json_set(rec, "http", h);
	uk_json_set(rec, "content", uk_json_strn(body->buf, body->len));
	(void)uk_cache_set(rc->cache, rec, &err); /* a cache that fails
	                                           * costs a request later */
	uk_json_free(rec);
	free(key);
}

/*
 * GET origin's robots.txt into o (o->origin set): 0, or -1 when
 * cancelled.
 */
static int
fetch(struct uk_robots_cache *rc, struct uk_robots_origin *o, double timeout,
    int cancel_fd)
{
	struct uk_http_easy eo = { 0 };
	struct uk_netguard g;
	struct uk_buf body = UK_BUF_INIT, url = UK_BUF_INIT;
	struct sink s = { &body, 0 };
	char errbuf[CURL_ERROR_SIZE];
	long ms = (long)((timeout > 0 ? timeout : rc->timeout) * 1000);
	long status = 0;
	CURLcode rc_;
	CURL *e;
	int ret = 0;

	uk_robots_init(&o->r);
	o->until = uk_util_mono_now() + UK_ROBOTS_KEEP;
	if (rc->cache && cache_get(rc, o->origin, &status, &body))
		goto judge;
	uk_netguard_init(&g);
	if (rc->allow_private)
		g.allow_private = 1;
	eo.follow = 1;
	eo.max_redirs = UK_ROBOTS_REDIRS;
	eo.timeout_ms = ms > 0 ? ms : 1;
	eo.connect_ms = ms < 10000 ? eo.timeout_ms : 10000L;
	eo.user_agent = rc->user_agent ? rc->user_agent : UK_HTTP_USER_AGENT;
	eo.insecure = rc->insecure;
	eo.errbuf = errbuf;
	eo.guard = &g;
	e = uk_http_easy_new(&eo);
	uk_buf_addf(&url, "%s/robots.txt", o->origin);
	curl_easy_setopt(e, CURLOPT_URL, url.buf);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(e, CURLOPT_XFERINFODATA, &cancel_fd);
	rc_ = curl_easy_perform(e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(e);
	pthread_mutex_lock(&rc->mu);
	rc->fetched++;
	pthread_mutex_unlock(&rc->mu);
	if (rc_ == CURLE_ABORTED_BY_CALLBACK) {
		ret = -1;
		goto out;
	}
	if (rc_ == CURLE_TOO_MANY_REDIRECTS) {
		/* RFC 9309 2.3.1.2: taken as unavailable, as a 4xx. */
		uk_robots_set(&o->r, UK_ROBOTS_ALLOW_ALL);
		goto out;
	}
	if (rc_ != CURLE_OK && !(rc_ == CURLE_WRITE_ERROR && s.cut)) {
		o->until = uk_util_mono_now() + UK_ROBOTS_KEEP_FAIL;
		/* The guard refuses the page too, and says why better. */
		uk_robots_set(&o->r, g.refused ? UK_ROBOTS_ALLOW_ALL :
		    UK_ROBOTS_DISALLOW_ALL);
		o->why = uk_util_xstrdup(errbuf[0] ? errbuf :
		    curl_easy_strerror(rc_));
		goto out;
	}
	if (rc->cache && status >= 200 && status < 500)
		cache_put(rc, o->origin, status, &body);
judge:
	if (status >= 200 && status < 300) {
		uk_robots_parse(&o->r, body.buf, body.len, rc->agent);
	} else if (status >= 500 || status < 200) {
		uk_robots_set(&o->r, UK_ROBOTS_DISALLOW_ALL);
		o->until = uk_util_mono_now() + UK_ROBOTS_KEEP_FAIL;
		uk_buf_reset(&url);
		uk_buf_addf(&url, "it answered HTTP %ld", status);
		o->why = uk_buf_detach(&url, NULL);
	} else {
		uk_robots_set(&o->r, UK_ROBOTS_ALLOW_ALL); /* 3xx left, 4xx */
	}
out:
	uk_buf_release(&body);
	uk_buf_release(&url);
	return ret;
}

/* The index of origin in rc (rc->mu held), or rc->norigins. */
static size_t
lookup(struct uk_robots_cache *rc, const char *origin)
{
	double now = uk_util_mono_now();
	size_t i;

	for (i = 0; i < rc->norigins; i++)
		if (!strcmp(rc->origins[i].origin, origin))
			break;
	if (i < rc->norigins && rc->origins[i].until <= now) {
		origin_free(&rc->origins[i]);
		rc->origins[i] = rc->origins[--rc->norigins];
		return rc->norigins;
	}
	return i;
}

/* Keep o (moved in) in rc (rc->mu held), unless its origin is there. */
static void
keep(struct uk_robots_cache *rc, struct uk_robots_origin *o)
{
	if (lookup(rc, o->origin) < rc->norigins) {
		origin_free(o); /* another thread's fetch came first */
		return;
	}
	if (rc->norigins == UK_ROBOTS_ORIGINS) {
		origin_free(&rc->origins[0]);
		memmove(rc->origins, rc->origins + 1,
		    (rc->norigins - 1) * sizeof(*rc->origins));
		rc->norigins--;
	}
	rc->origins = uk_util_xrealloc(rc->origins,
	    (rc->norigins + 1) * sizeof(*rc->origins));
	rc->origins[rc->norigins++] = *o;
}

/* The verdict of o for pathq: 1, or 0 with why. */
static int
judge(const struct uk_robots_origin *o, const char *pathq, const char *agent,
    struct uk_buf *why)
{
	if (uk_robots_allowed(&o->r, pathq))
		return 1;
	if (o->why)
		uk_buf_addf(why, "robots.txt forbids it: %s/robots.txt could "
		    "not be read (%s), which RFC 9309 takes as disallowing "
		    "all", o->origin, o->why);
	else
		uk_buf_addf(why, "robots.txt forbids it: %s/robots.txt "
		    "disallows %s for %s", o->origin, pathq, agent);
	return 0;
}

int
uk_robots_may_fetch(struct uk_robots_cache *rc, const char *url,
    double timeout, int cancel_fd, struct uk_buf *why)
{
	struct uk_robots_origin o;
	char *origin, *pathq;
	size_t i;
	int ok;

	uk_buf_reset(why);
	if (split(url, &origin, &pathq))
		return 1;
	pthread_mutex_lock(&rc->mu);
	if ((i = lookup(rc, origin)) < rc->norigins) {
		ok = judge(&rc->origins[i], pathq, rc->agent, why);
		pthread_mutex_unlock(&rc->mu);
		goto out;
	}
	pthread_mutex_unlock(&rc->mu);
	/* Fetched without the lock: other origins are not held up. */
	memset(&o, 0, sizeof(o));
	o.origin = origin;
	if (fetch(rc, &o, timeout, cancel_fd) < 0) {
		uk_robots_release(&o.r);
		free(o.why);
		ok = -1;
		goto out;
	}
	ok = judge(&o, pathq, rc->agent, why);
	origin = uk_util_xstrdup(origin);
	pthread_mutex_lock(&rc->mu);
	keep(rc, &o);
	pthread_mutex_unlock(&rc->mu);
out:
	free(origin);
	free(pathq);
	return ok;
}

int
uk_robots_applies(const char *url)
{
	struct uk_url u;
	int r;

	uk_url_classify(url, &u);
	r = u.type == UK_URL_WEB || u.type == UK_URL_DOCUMENTATION ||
	    u.type == UK_URL_UNKNOWN;
	uk_url_release(&u);
	return r;
}
