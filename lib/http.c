/* SPDX-License-Identifier: MIT */
#include <curl/curl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http.h"
#include "netguard.h"
#include "util.h"
#include "banned.h"

void
uk_http_opts_init(struct uk_http_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->jobs = UK_HTTP_JOBS;
	o->per_host = UK_HTTP_PER_HOST;
	o->timeout = UK_HTTP_TIMEOUT;
	o->max_redirs = UK_HTTP_MAX_REDIRS;
	o->max_size = UK_HTTP_MAX_SIZE;
	o->user_agent = UK_HTTP_USER_AGENT;
	o->retries = UK_HTTP_RETRIES;
	o->retry_max_wait = UK_HTTP_RETRY_WAIT;
}

/* The host of url, lower case, for the per-host limit ("" if none). */
static char *
host_of(const char *url)
{
	CURLU *u = curl_url();
	char *host = NULL, *ret;

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0))
		curl_url_get(u, CURLUPART_HOST, &host, 0);
	ret = uk_util_xstrdup(host ? host : "");
	curl_free(host);
	curl_url_cleanup(u);
	return ret;
}

static void
clear_results(struct uk_http_req *r)
{
	free(r->final_url);
	free(r->content_type);
	free(r->etag_out);
	free(r->last_modified_out);
	free(r->content_language);
	r->final_url = r->content_type = r->etag_out = NULL;
	r->last_modified_out = r->content_language = NULL;
	uk_buf_reset(&r->body);
	r->failed = r->too_big = r->refused = r->timed_out = 0;
	r->status = 0;
	r->retry_after = 0;
	r->cache_life = 0;
	r->err.code = 0;
	r->err.msg[0] = '\0';
	r->errbuf[0] = '\0';
}

void
uk_http_req_init(struct uk_http_req *r, const char *url)
{
	memset(r, 0, sizeof(*r));
	uk_buf_init(&r->body, 0);
	r->url = uk_util_xstrdup(url);
	r->host = host_of(url);
}

void
uk_http_req_header(struct uk_http_req *r, const char *line)
{
	struct curl_slist *l = curl_slist_append(r->headers, line);

	if (!l)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	r->headers = l;
}

void
uk_http_req_reset(struct uk_http_req *r, const char *url)
{
	clear_results(r);
	r->attempts = 0;
	r->not_before = 0;
	if (url) {
		curl_slist_free_all(r->headers);
		r->headers = NULL;
		free(r->url);
		free(r->host);
		r->url = uk_util_xstrdup(url);
		r->host = host_of(url);
	}
}

void
uk_http_req_release(struct uk_http_req *r)
{
	clear_results(r);
	uk_buf_release(&r->body);
	if (r->easy)
		curl_easy_cleanup(r->easy);
	curl_slist_free_all(r->headers);
	curl_slist_free_all(r->sent);
	free(r->guard);
	free(r->url);
	free(r->host);
	memset(r, 0, sizeof(*r));
	uk_buf_init(&r->body, 0);
}

int
uk_http_init(struct uk_http *h, const struct uk_http_opts *o,
    struct uk_err *err)
{
	struct uk_netguard g;

	memset(h, 0, sizeof(*h));
	h->o = *o;
	if (h->o.jobs < 1)
		h->o.jobs = 1;
	if (h->o.per_host < 1)
		h->o.per_host = 1;
	if (h->o.timeout <= 0)
		h->o.timeout = UK_HTTP_TIMEOUT;
	if (!h->o.max_size)
		h->o.max_size = UK_HTTP_MAX_SIZE;
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot start libcurl");
	if (!(h->multi = curl_multi_init()))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot start libcurl");
	uk_netguard_init(&g);
	h->allow_private = o->allow_private || g.allow_private;
	return 0;
}

static void
list_remove(struct uk_http_req **head, struct uk_http_req *r)
{
	for (; *head; head = &(*head)->next)
		if (*head == r) {
			*head = r->next;
			r->next = NULL;
			return;
		}
}

static void
list_append(struct uk_http_req **head, struct uk_http_req *r)
{
	while (*head)
		head = &(*head)->next;
	r->next = NULL;
	*head = r;
}

void
uk_http_release(struct uk_http *h)
{
	struct uk_http_req *r;

	while ((r = h->active)) {
		h->active = r->next;
		r->next = NULL;
		curl_multi_remove_handle(h->multi, r->easy);
	}
	h->queue = h->done = NULL;
	if (h->multi)
		curl_multi_cleanup(h->multi);
	memset(h, 0, sizeof(*h));
}

void
uk_http_add(struct uk_http *h, struct uk_http_req *r)
{
	list_append(&h->queue, r);
}

int
uk_http_busy(const struct uk_http *h)
{
	return h->queue || h->active || h->done;
}

size_t
uk_http_sink_write(char *p, size_t size, size_t n, void *sink)
{
	struct uk_http_sink *s = sink;

	if (s->buf->len + size * n > s->max)
		return 0;
	uk_buf_add(s->buf, p, size * n);
	return size * n;
}

static size_t
on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct uk_http_req *r = ctx;

	(void)size; /* always 1 */
	if ((unsigned long long)r->body.len + n > r->cap) {
		r->too_big = 1;
		return 0;
	}
	uk_buf_add(&r->body, p, n);
	return n;
}

/* Whether the caller's headers already have a header called name. */
static int
has_header(const struct curl_slist *l, const char *name)
{
	size_t n = strlen(name);

	for (; l; l = l->next)
		if (!strncasecmp(l->data, name, n) && l->data[n] == ':')
			return 1;
	return 0;
}

static struct curl_slist *
add_line(struct curl_slist *l, const char *fmt, const char *v)
{
	struct uk_buf b = UK_BUF_INIT;
	struct curl_slist *n;

	uk_buf_addf(&b, fmt, v);
	n = curl_slist_append(l, b.buf);
	uk_buf_release(&b);
	if (!n)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	return n;
}

static void
easy_set(CURL *e, const struct uk_http_easy *o)
{
	const char *protocols = o->protocols ? o->protocols : "http,https";

	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, protocols);
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, o->follow ? 1L : 0L);
	if (o->follow)
		curl_easy_setopt(e, CURLOPT_MAXREDIRS, o->max_redirs);
	if (o->timeout_ms > 0)
		curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, o->timeout_ms);
	if (o->connect_ms > 0)
		curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, o->connect_ms);
	if (o->user_agent)
		curl_easy_setopt(e, CURLOPT_USERAGENT, o->user_agent);
	if (o->insecure) {
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (o->errbuf) {
		o->errbuf[0] = '\0';
		curl_easy_setopt(e, CURLOPT_ERRORBUFFER, o->errbuf);
	}
	if (o->guard)
		uk_netguard_install(e, o->guard);
}

void *
uk_http_easy_new(const struct uk_http_easy *o)
{
	CURL *e = curl_easy_init();

	if (!e)
		uk_util_die(UK_EXIT_FATAL, "cannot start libcurl");
	easy_set(e, o);
	return e;
}

void *
uk_http_easy_setup(void *e, const struct uk_http_easy *o)
{
	curl_easy_reset(e);
	easy_set(e, o);
	return e;
}

static void
start(struct uk_http *h, struct uk_http_req *r)
{
	struct uk_netguard *g;
	struct uk_http_easy eo = { 0 };
	struct curl_slist *l = NULL, *p;
	CURL *e;
	double t = h->o.timeout > 0 ? h->o.timeout : UK_HTTP_TIMEOUT;
	long ms = (long)(t * 1000);
	long slow = (long)t < 15 ? (long)t : 15;

	if (!r->guard)
		r->guard = uk_util_xmalloc(sizeof(struct uk_netguard));
	g = r->guard;
	uk_netguard_init(g);
	g->allow_private = h->allow_private;
	eo.follow = 1;
	eo.max_redirs = h->o.max_redirs;
	eo.timeout_ms = ms;
	eo.connect_ms = ms < 10000 ? ms : 10000L;
	eo.user_agent = h->o.user_agent ? h->o.user_agent : UK_HTTP_USER_AGENT;
	eo.insecure = h->o.insecure;
	eo.errbuf = r->errbuf;
	eo.guard = g;
	if (r->easy)
		e = uk_http_easy_setup(r->easy, &eo);
	else
		e = r->easy = uk_http_easy_new(&eo);
	clear_results(r);
	r->cap = h->o.max_size ? h->o.max_size : UK_HTTP_MAX_SIZE;
	r->attempts++;

	for (p = r->headers; p; p = p->next)
		l = add_line(l, "%s", p->data);
	if (!has_header(r->headers, "Accept"))
		l = add_line(l, "%s",
		    "Accept: text/html,application/xhtml+xml,"
		    "application/xml;q=0.9,*/*;q=0.8");
	if (!has_header(r->headers, "Accept-Language"))
		l = add_line(l, "%s", "Accept-Language: en-US,en;q=0.9");
	if (r->etag && *r->etag)
		l = add_line(l, "If-None-Match: %s", r->etag);
	if (r->last_modified && *r->last_modified)
		l = add_line(l, "If-Modified-Since: %s", r->last_modified);
	curl_slist_free_all(r->sent);
	r->sent = l;

	curl_easy_setopt(e, CURLOPT_URL, r->url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, r);
	curl_easy_setopt(e, CURLOPT_AUTOREFERER, 1L);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, l);
	r->connect_s = eo.connect_ms / 1000.0;
	r->slow = slow > 0 ? slow : 1L;
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, r->slow);
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)r->cap);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	if (curl_multi_add_handle(h->multi, e))
		uk_util_die(UK_EXIT_FATAL, "cannot start a transfer");
	list_append(&h->active, r);
	h->nactive++;
}

static long
host_active(const struct uk_http *h, const char *host)
{
	const struct uk_http_req *r;
	long n = 0;

	for (r = h->active; r; r = r->next)
		n += !strcmp(r->host, host);
	return n;
}

/*
 * Start what may start now; returns the seconds until a queued request
 * waiting for its retry time may start (or 1 when none waits).
 */
static double
start_ready(struct uk_http *h)
{
	struct uk_http_req *r, *next;
	double t = uk_util_mono_now(), wait = 1;

	for (r = h->queue; r && h->nactive < h->o.jobs; r = next) {
		next = r->next;
		if (r->not_before > t) {
			if (r->not_before - t < wait)
				wait = r->not_before - t;
			continue;
		}
		if (host_active(h, r->host) >= h->o.per_host)
			continue;
		list_remove(&h->queue, r);
		start(h, r);
	}
	return wait;
}

static char *
header_value(CURL *e, const char *name)
{
	struct curl_header *hh;

	if (curl_easy_header(e, name, 0, CURLH_HEADER, -1, &hh) != CURLHE_OK)
		return NULL;
	return uk_util_xstrdup(hh->value);
}

/* Every value of header name, joined with ", " (RFC 9110 5.3), or NULL. */
static char *
header_values(CURL *e, const char *name)
{
	struct curl_header *hh;
	struct uk_buf b = UK_BUF_INIT;
	size_t i, n = 1;

	for (i = 0; i < n; i++) {
		if (curl_easy_header(e, name, i, CURLH_HEADER, -1, &hh) !=
		    CURLHE_OK)
			break;
		n = hh->amount;
		uk_buf_addf(&b, "%s%s", i ? ", " : "", hh->value);
	}
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

/* The delta-seconds after "name=" at s (quotes allowed), or -1. */
static long
directive_secs(const char *s)
{
	long long v = 0;
	int q = *s == '"', any = 0;

	s += q;
	while (*s >= '0' && *s <= '9') {
		if (v < 1000000000LL)
			v = v * 10 + (*s - '0');
		s++;
		any = 1;
	}
	return any ? (long)v : -1;
}

/*
 * The cache lifetime of a response from its Cache-Control, Expires and
 * Date header values (each may be NULL), as a private cache that may be
 * shared between users would take it: -1 when it must not be stored
 * (no-store, private, no-cache, a max-age of 0, an Expires not after
 * Date), else the seconds of s-maxage, then max-age, then Expires minus
 * Date; 0 when none is given.
 */
static long
cache_life(const char *cache_control, const char *expires,
    const char *date)
{
	const char *p = cache_control, *t;
	long max_age = -1, s_maxage = -1, v;
	size_t n;
	time_t ex, now;

	/* Directives are case-insensitive tokens separated by commas; a
	 * value is a token or a quoted string (RFC 9111 5.2). */
	while (p && *p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		t = p;
		while (*p && *p != ',' && *p != '=' && *p != ' ' &&
		    *p != '\t')
			p++;
		n = (size_t)(p - t);
		while (*p == ' ' || *p == '\t')
			p++;
		v = *p == '=' ? directive_secs(p + 1) : -1;
		if ((n == 8 && !strncasecmp(t, "no-store", n)) ||
		    (n == 7 && !strncasecmp(t, "private", n)) ||
		    (n == 8 && !strncasecmp(t, "no-cache", n)))
			return -1;
		if (n == 7 && !strncasecmp(t, "max-age", n) && v >= 0)
			max_age = v;
		if (n == 8 && !strncasecmp(t, "s-maxage", n) && v >= 0)
			s_maxage = v;
		/* Skip the value, quoted commas included. */
		if (*p == '=') {
			p++;
			if (*p == '"') {
				for (p++; *p && *p != '"'; p++)
					if (*p == '\\' && p[1])
						p++;
				if (*p)
					p++;
			}
			while (*p && *p != ',')
				p++;
		}
	}
	if (s_maxage >= 0)
		max_age = s_maxage;
	if (max_age == 0)
		return -1;
	if (max_age > 0)
		return max_age;
	if (!expires)
		return 0;
	/* An Expires that does not parse means already expired. */
	if ((ex = curl_getdate(expires, NULL)) == -1)
		return -1;
	now = date ? curl_getdate(date, NULL) : -1;
	if (now == -1)
		now = time(NULL);
	return ex > now ? (long)(ex - now < 1000000000 ? ex - now : 1000000000)
			: -1;
}

static void
size_text(unsigned long long n, char *buf, size_t size)
{
	if (n >= (1ULL << 20) && n % (1ULL << 20) == 0)
		snprintf(buf, size, "%llu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, size, "%llu KiB", n >> 10);
	else
		snprintf(buf, size, "%llu bytes", n);
}

static int
retryable(const struct uk_http_req *r, CURLcode rc)
{
	if (!r->failed)
		return r->status == 429 || r->status == 502 ||
		    r->status == 503 || r->status == 504;
	if (r->refused || r->too_big || r->timed_out)
		return 0;
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static void
finish(struct uk_http *h, CURL *e, CURLcode rc)
{
	struct uk_http_req *r = NULL;
	struct uk_netguard *g;
	char *s = NULL, sz[64];
	curl_off_t ra = -1;
	double wait;
	int left;

	curl_easy_getinfo(e, CURLINFO_PRIVATE, &s);
	r = (struct uk_http_req *)(void *)s;
	g = r->guard;
	curl_multi_remove_handle(h->multi, e);
	list_remove(&h->active, r);
	h->nactive--;

	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &r->status);
	s = NULL;
	curl_easy_getinfo(e, CURLINFO_EFFECTIVE_URL, &s);
	r->final_url = uk_util_xstrdup(s ? s : r->url);
	s = NULL;
	curl_easy_getinfo(e, CURLINFO_CONTENT_TYPE, &s);
	r->content_type = s ? uk_util_xstrdup(s) : NULL;
	r->etag_out = header_value(e, "ETag");
	r->last_modified_out = header_value(e, "Last-Modified");
	r->content_language = header_value(e, "Content-Language");
	{
		char *cc = header_values(e, "Cache-Control"),
		     *ex = header_value(e, "Expires"),
		     *dt = header_value(e, "Date");

		r->cache_life = cache_life(cc, ex, dt);
		free(cc);
		free(ex);
		free(dt);
	}

	if (rc != CURLE_OK) {
		r->failed = 1;
		if (r->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
			r->too_big = 1;
			size_text(r->cap, sz, sizeof(sz));
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "body larger than %s", sz);
		} else if (g->refused) {
			r->refused = 1;
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "refused to connect to private address %s "
			    "(--allow-private or URLKIT_ALLOW_PRIVATE=1 allow it)",
			    g->addr);
		} else if (rc == CURLE_OUT_OF_MEMORY || (int)rc == 100) {
			/* libcurl answers a response header over its limit
			 * (CURL_MAX_HTTP_HEADER, 100 KiB) with "out of memory"
			 * (CURLE_TOO_LARGE, 100, from 8.6); our own memory
			 * running out ends the program in the x-alloc family,
			 * so this is the server's doing. */
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "response header too large (over libcurl's limit "
			    "of 100 KiB)");
		} else if (rc == CURLE_OPERATION_TIMEDOUT) {
			long hdr = 0;

			r->timed_out = 1;
			/* Low speed counts body bytes only: a server that
			 * drips its headers is slow, not silent. */
			curl_easy_getinfo(e, CURLINFO_HEADER_SIZE, &hdr);
			if (strstr(r->errbuf, "too slow") && r->body.len)
				uk_util_err_set(&r->err, UK_EXIT_FAIL,
				    "too slow: the body stalled for %ld s "
				    "after %zu bytes",
				    r->slow, r->body.len);
			else if (strstr(r->errbuf, "too slow") && hdr > 0)
				uk_util_err_set(&r->err, UK_EXIT_FAIL,
				    "too slow: the response headers had not "
				    "ended after %ld s (%ld bytes of headers "
				    "received)",
				    r->slow, hdr);
			else if (strstr(r->errbuf, "too slow"))
				uk_util_err_set(&r->err, UK_EXIT_FAIL,
				    "too slow: nothing received for %ld s",
				    r->slow);
			else if (strstr(r->errbuf, "onnect"))
				uk_util_err_set(&r->err, UK_EXIT_FAIL,
				    "timed out connecting after %g s",
				    r->connect_s);
			else
				uk_util_err_set(&r->err, UK_EXIT_FAIL,
				    "timed out after %g s", h->o.timeout);
		} else if (rc == CURLE_TOO_MANY_REDIRECTS)
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "too many redirects (more than %ld)",
			    h->o.max_redirs);
		else
			uk_util_err_set(&r->err, UK_EXIT_FAIL, "%s",
			    r->errbuf[0] ? r->errbuf : curl_easy_strerror(rc));
	}
	if (!r->failed && !curl_easy_getinfo(e, CURLINFO_RETRY_AFTER, &ra) &&
	    ra > 0)
		r->retry_after = (long)ra;
	if (retryable(r, rc) && r->attempts <= h->o.retries) {
		if (ra > 0)
			wait = (double)ra;
		else {
			/* 0.25 s, doubling, with a jitter of +-25%. */
			wait = 0.25 * (0.75 + (double)(rand() % 1000) / 2000.0);
			for (left = 1; left < r->attempts; left++)
				wait *= 2;
		}
		if (wait <= h->o.retry_max_wait) {
			r->not_before = uk_util_mono_now() + wait;
			list_append(&h->queue, r);
			return;
		}
	}
	list_append(&h->done, r);
}

/* Whether fd has input or reached its end, without waiting. */
static int
fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR));
}

struct uk_http_req *
uk_http_wait(struct uk_http *h, int fd, int *fd_ready)
{
	struct uk_http_req *r;
	struct curl_waitfd wfd;
	CURLMsg *m;
	long ms, t;
	double wait;
	int running, left;

	for (;;) {
		if ((r = h->done)) {
			h->done = r->next;
			r->next = NULL;
			return r;
		}
		wait = start_ready(h);
		if (!h->active && !h->queue)
			return NULL;
		curl_multi_perform(h->multi, &running);
		while ((m = curl_multi_info_read(h->multi, &left)))
			if (m->msg == CURLMSG_DONE)
				finish(h, m->easy_handle, m->data.result);
		if (h->done)
			continue;
		if (fd >= 0 && fd_readable(fd)) {
			*fd_ready = 1;
			return NULL;
		}
		ms = (long)(wait * 1000) + 1;
		if (!curl_multi_timeout(h->multi, &t) && t >= 0 && t < ms)
			ms = t;
		if (ms > 1000)
			ms = 1000;
		wfd.fd = fd;
		wfd.events = CURL_WAIT_POLLIN;
		wfd.revents = 0;
		curl_multi_poll(h->multi, fd >= 0 ? &wfd : NULL,
		    fd >= 0 ? 1 : 0, (int)ms, NULL);
	}
}
