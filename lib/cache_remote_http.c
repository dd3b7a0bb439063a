/* SPDX-License-Identifier: MIT */
/*
 * The http(s) backend of cache_remote.c, through libcurl, as ccache's
 * http storage speaks: one object per key at BASE/KK/NAME, read with GET
 * (200 a hit, 404 a miss), written whole with PUT, removed with DELETE;
 * listed for urlcache clear --remote with WebDAV's PROPFIND (Depth 1, on
 * BASE and on each BASE/KK/), which nginx's dav_ext module answers.
 * A WebDAV server (nginx's dav module with create_full_put_path), a
 * bazel-remote style server or an object store's endpoint serves it.  The
 * store has no expiry of its own: the value's header carries it
 * (cache_remote.c).  TLS is verified as libcurl does by default.
 *
 * libcurl is loaded with dlopen at an http store's first request, not
 * linked: linked, it and its thirty libraries were loaded at every start
 * of urlcache, whose one hit went from 1.6 ms to 21.7 ms (hyperfine, 300
 * runs each, on a loaded machine).  Programs that link libcurl anyway
 * (urlfetch-net, urlsum, urlserve) get the copy already loaded.
 */
#include <dlfcn.h>
#include <pthread.h>
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

/* The libcurl functions used, found by dlsym. */
static struct {
	CURL *(*easy_init)(void);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} cl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded; /* 1: every symbol found */
static char load_err[200];

static void
load(void)
{
	void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(load_err, sizeof(load_err), "cannot load libcurl: %s",
		    dlerror());
		return;
	}
#define SYM(field, name)                                                 \
	do {                                                             \
		*(void **)&cl.field = dlsym(h, #name);                   \
		if (!cl.field) {                                         \
			snprintf(load_err, sizeof(load_err),             \
			    "no %s in libcurl.so.4", #name);             \
			return;                                          \
		}                                                        \
	} while (0)
	SYM(easy_init, curl_easy_init);
	SYM(easy_reset, curl_easy_reset);
	SYM(easy_setopt, curl_easy_setopt);
	SYM(easy_perform, curl_easy_perform);
	SYM(easy_getinfo, curl_easy_getinfo);
	SYM(easy_cleanup, curl_easy_cleanup);
	SYM(easy_strerror, curl_easy_strerror);
	SYM(slist_append, curl_slist_append);
	SYM(slist_free_all, curl_slist_free_all);
#undef SYM
	loaded = 1;
}

struct hconn {
	char *base; /* the URL, ending in '/' */
	CURL *curl; /* kept between requests: one connection */
	struct uk_buf *body;
};

static int
h_parse(struct uk_cache_store *s)
{
	struct hconn *c = uk_util_xcalloc(1, sizeof(*c));
	struct uk_buf b = UK_BUF_INIT;
	const char *host = strstr(s->url, "://") + 3;

	s->conn = c;
	/* A host at least; libcurl judges the rest at the first request. */
	if (!*host || *host == '/' || strpbrk(s->url, " \t\r\n")) {
		snprintf(s->msg, sizeof(s->msg), "not an http(s) URL");
		return -1;
	}
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
 * One request: method on url, with body data[0..len) for a PUT, the
 * header hdr (or NULL), the response body into out (or dropped).  The
 * HTTP status, or -1 with s->msg (the handle is then dropped, as a
 * connection that failed).
 */
static long
h_perform(struct uk_cache_store *s, const char *method, const char *url,
    const char *hdr, const char *data, size_t len, struct uk_buf *out)
{
	struct hconn *c = s->conn;
	struct curl_slist *hl = NULL;
	CURLcode rc;
	long status = -1;

	pthread_once(&load_once, load);
	if (!loaded) {
		snprintf(s->msg, sizeof(s->msg), "%s", load_err);
		return -1;
	}
	if (!c->curl && !(c->curl = cl.easy_init())) {
		snprintf(s->msg, sizeof(s->msg), "cannot start libcurl");
		return -1;
	}
	cl.easy_reset(c->curl);
	cl.easy_setopt(c->curl, CURLOPT_URL, url);
	cl.easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	cl.easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)s->connect_ms);
	/* The whole request, connection included, as ccache's http
	 * storage bounds it. */
	cl.easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, (long)s->op_ms);
	cl.easy_setopt(c->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	cl.easy_setopt(c->curl, CURLOPT_USERAGENT, "urlkit/" UK_VERSION);
	if (s->password)
		cl.easy_setopt(c->curl, CURLOPT_PASSWORD, s->password);
	if (hdr) {
		hl = cl.slist_append(NULL, hdr);
		cl.easy_setopt(c->curl, CURLOPT_HTTPHEADER, hl);
	}
	c->body = out;
	cl.easy_setopt(c->curl, CURLOPT_WRITEFUNCTION,
	    out ? h_write : h_discard);
	cl.easy_setopt(c->curl, CURLOPT_WRITEDATA, c);
	if (!strcmp(method, "PUT")) {
		cl.easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, "PUT");
		cl.easy_setopt(c->curl, CURLOPT_POSTFIELDS, data);
		cl.easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)len);
	} else if (strcmp(method, "GET")) {
		cl.easy_setopt(c->curl, CURLOPT_CUSTOMREQUEST, method);
		cl.easy_setopt(c->curl, CURLOPT_NOBODY, 0L);
	}
	rc = cl.easy_perform(c->curl);
	if (rc != CURLE_OK) {
		snprintf(s->msg, sizeof(s->msg), "%s: %s", method,
		    cl.easy_strerror(rc));
		cl.easy_cleanup(c->curl);
		c->curl = NULL;
	} else {
		cl.easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
	}
	c->body = NULL;
	if (hl)
		cl.slist_free_all(hl);
	return status;
}

/* h_perform on the object of name. */
static long
h_request(struct uk_cache_store *s, const char *method, const char *name,
    const char *data, size_t len, struct uk_buf *out)
{
	struct hconn *c = s->conn;
	struct uk_buf url = UK_BUF_INIT;
	const char *p;
	long status;

	/* "urlkit:KEY": the object KK/KEY, as the local layout; any other
	 * "PREFIX:NAME" (a session's) the object PREFIX/NAME. */
	if (!strncmp(name, "urlkit:", 7)) {
		name += strlen("urlkit:");
		uk_buf_addf(&url, "%s%.2s/%s", c->base, name, name);
	} else {
		p = strchr(name, ':');
		uk_buf_addf(&url, "%s%.*s/%s", c->base,
		    (int)(p ? p - name : 0), name, p ? p + 1 : name);
	}
	status = h_perform(s, method, url.buf, NULL, data, len, out);
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

/* Whether name[0..len) is n lowercase hexadecimal digits. */
static int
is_hex(const char *name, size_t len, size_t n)
{
	size_t i;

	if (len != n)
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
			(name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return 1;
}

/*
 * Call fn for the last segment of each href in a PROPFIND answer (dir: it
 * ended in '/').  By hand rather than through libxml2: the hrefs are all
 * that is read, and the names urlkit writes need no unescaping.
 */
static void
each_href(const struct uk_buf *b, void (*fn)(void *ctx, const char *name,
    size_t len, int dir), void *ctx)
{
	const char *p = b->buf, *end = b->buf + b->len, *v, *e, *seg;
	size_t n;
	int dir;

	while (p < end && (v = memmem(p, (size_t)(end - p), "href>", 5))) {
		p = v + 5;
		/* An opening tag: "<href>" or "<PREFIX:href>". */
		e = v;
		while (e > b->buf && e[-1] != '<' && e[-1] != '/' &&
		    e[-1] != '>')
			e--;
		if (e == b->buf || e[-1] != '<')
			continue;
		if (!(e = memchr(p, '<', (size_t)(end - p))))
			break;
		n = (size_t)(e - p);
		dir = n > 0 && p[n - 1] == '/';
		if (dir)
			n--;
		for (seg = p + n; seg > p && seg[-1] != '/'; seg--)
			;
		fn(ctx, seg, (size_t)(p + n - seg), dir);
		p = e;
	}
}

struct hclear {
	struct uk_cache_store *s;
	struct uk_buf dirs; /* "KK\n" each */
	const char *kk;     /* the directory listed, or NULL */
	long deleted;
	int failed;
};

static void
clear_name(void *ctx, const char *name, size_t len, int dir)
{
	struct hclear *h = ctx;
	char key[32];

	if (!h->kk) {
		if (dir && is_hex(name, len, 2)) {
			uk_buf_add(&h->dirs, name, 2);
			uk_buf_addch(&h->dirs, '\n');
		}
		return;
	}
	if (dir || h->failed || !is_hex(name, len, 16) ||
	    memcmp(name, h->kk, 2))
		return;
	snprintf(key, sizeof(key), "urlkit:%.16s", name);
	switch (h_del(h->s, key)) {
	case 1:
		h->deleted++;
		break;
	case 0:
		break; /* gone meanwhile */
	default:
		h->failed = 1;
	}
}

/* PROPFIND, Depth 1, of the base URL and path: the status into *st. */
static int
propfind(struct uk_cache_store *s, const char *path, struct uk_buf *out)
{
	struct hconn *c = s->conn;
	struct uk_buf url = UK_BUF_INIT;
	long st;

	uk_buf_reset(out);
	uk_buf_addf(&url, "%s%s", c->base, path);
	st = h_perform(s, "PROPFIND", url.buf, "Depth: 1", NULL, 0, out);
	uk_buf_release(&url);
	if (st == 207)
		return 0;
	if (st == 404 && !*path)
		return 1; /* nothing stored yet */
	if (st == 405 || st == 501 || st == 403)
		return -2; /* no PROPFIND here: cannot list */
	if (st >= 0)
		snprintf(s->msg, sizeof(s->msg), "PROPFIND: HTTP status %ld",
		    st);
	return -1;
}

/* The entries: the KK/ directories of the base, then each one's keys. */
static long
h_clear(struct uk_cache_store *s, const char *prefix)
{
	struct hclear h = { s, UK_BUF_INIT, NULL, 0, 0 };
	struct uk_buf b = UK_BUF_INIT;
	char path[4];
	size_t i;
	int r;

	(void)prefix; /* the layout is KK/KEY (h_request) */
	if ((r = propfind(s, "", &b)) == 0)
		each_href(&b, clear_name, &h);
	for (i = 0; r == 0 && !h.failed && i + 3 <= h.dirs.len; i += 3) {
		snprintf(path, sizeof(path), "%.2s/", h.dirs.buf + i);
		h.kk = path;
		if ((r = propfind(s, path, &b)) == 0)
			each_href(&b, clear_name, &h);
		else if (r == -1 && strstr(s->msg, "status 404"))
			r = 0; /* the directory went meanwhile */
	}
	uk_buf_release(&b);
	uk_buf_release(&h.dirs);
	if (r < 0)
		return r;
	return h.failed ? -1 : h.deleted;
}

static void
h_close(struct uk_cache_store *s)
{
	struct hconn *c = s->conn;

	if (c->curl)
		cl.easy_cleanup(c->curl);
	free(c->base);
	free(c);
	s->conn = NULL;
}

const struct uk_cache_backend uk_cache_backend_http = {
	"http", h_parse, h_get, h_put, NULL, h_del, h_clear, h_close,
};

const struct uk_cache_backend uk_cache_backend_https = {
	"https", h_parse, h_get, h_put, NULL, h_del, h_clear, h_close,
};
