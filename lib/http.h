/* SPDX-License-Identifier: MIT */
#ifndef UK_HTTP_H
#define UK_HTTP_H

/*
 * HTTP GET, many at once, on libcurl's multi interface (urlfetch).
 *
 * A struct uk_http runs transfers concurrently: at most opts.jobs at a
 * time and at most opts.per_host to one host; the rest wait in a queue, so
 * a queued request's timeout does not start before its transfer does.
 * Every handle gets the same treatment: a browser-like User-Agent, a total
 * timeout, a connect timeout and a low-speed limit (a server that drips a
 * byte now and then is cut off by the total timeout), redirects followed
 * up to a limit over http and https only, every encoding libcurl knows
 * accepted (gzip, br, zstd), proxies from the environment (libcurl's
 * http_proxy, https_proxy, no_proxy), TLS always verified unless
 * opts.insecure, and the SSRF guard of netguard.h.
 *
 * The body is capped on decoded bytes: a body over opts.max_size is an
 * error, never a truncated page, and a compressed bomb stops at the cap.
 * Failures that a repeat may cure (connection refused or reset, nothing
 * received, HTTP 429, 502, 503, 504) are retried up to opts.retries times
 * after a backoff, or after the server's Retry-After when it asks for no
 * more than opts.retry_max_wait seconds.
 *
 * Usage: uk_http_init, then for each request uk_http_req_init and
 * uk_http_add; call uk_http_wait until it returns NULL, handling each
 * finished request it returns (it may be added again, reset with
 * uk_http_req_reset first); uk_http_release at the end.
 */

#include <stddef.h>

#include "buf.h"
#include "util.h"

struct uk_netguard;

#define UK_HTTP_JOBS       8
#define UK_HTTP_PER_HOST   3
#define UK_HTTP_TIMEOUT    30.0
#define UK_HTTP_MAX_REDIRS 10
#define UK_HTTP_MAX_SIZE   (20ULL << 20)
#define UK_HTTP_RETRIES    2
#define UK_HTTP_RETRY_WAIT 10.0
#define UK_HTTP_USER_AGENT                                                     \
	"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "     \
	"Gecko) Chrome/124.0.0.0 Safari/537.36"

struct uk_http_opts {
	long jobs;                   /* transfers at once (UK_HTTP_JOBS) */
	long per_host;               /* transfers at once to one host */
	double timeout;              /* one attempt, whole transfer, seconds */
	long max_redirs;             /* redirects followed */
	unsigned long long max_size; /* decoded body cap, bytes */
	const char *user_agent;      /* not copied: must outlive the engine */
	int insecure;                /* -k: TLS not verified */
	int allow_private;     /* SSRF guard off (also URLKIT_ALLOW_PRIVATE) */
	int retries;           /* extra attempts for failures worth repeating */
	double retry_max_wait; /* longest Retry-After honoured, seconds */
};

/* Fill o with the defaults above. */
void uk_http_opts_init(struct uk_http_opts *o);

struct uk_http_req {
	/* Set by the caller (uk_http_req_init and the fields below). */
	char *url;                 /* owned */
	const char *etag;          /* If-None-Match, not owned, or NULL */
	const char *last_modified; /* If-Modified-Since, not owned, or NULL */
	void *data;                /* the caller's */

	/* Results, valid once uk_http_wait has returned the request. */
	int failed; /* 1: no HTTP answer; err says why */
	struct uk_err err;
	long status;             /* HTTP status of the last response */
	char *final_url;         /* after redirects (owned) */
	char *content_type;      /* Content-Type header or NULL (owned) */
	char *etag_out;          /* ETag of the response or NULL (owned) */
	char *last_modified_out; /* Last-Modified or NULL (owned) */
	char *content_language;  /* Content-Language or NULL (owned) */
	struct uk_buf body;      /* decoded body */
	int attempts;            /* how many times it was sent */
	long retry_after;        /* Retry-After seconds of the last response */
	/*
	 * How long the response may be cached, by its Cache-Control,
	 * Expires and Date as a private cache takes them: -1 not at all
	 * (no-store, private, no-cache, a max-age of 0, an Expires not
	 * after Date), 0 no limit given (the cache's TTL), else seconds.
	 */
	long cache_life;
	int too_big;             /* failed because of max_size */
	int refused;             /* failed because of the SSRF guard */
	int timed_out;           /* failed because of the timeout */

	/* Private to http.c. */
	struct uk_http_req *next;
	void *easy;
	void *headers;
	void *sent;
	void *guard;
	char *host;
	unsigned long long cap;
	long slow;        /* low-speed window, seconds */
	double connect_s; /* connect timeout, seconds */
	double not_before;
	char errbuf[256];
};

/*
 * One libcurl easy handle set up as every urlkit transfer is, for the
 * callers that drive libcurl themselves (llm, repo, toolack; the engine
 * below uses it too): no signals (libcurl's timeouts without SIGALRM, so
 * threads are safe), only the protocols given, for redirects as well,
 * redirects followed or not, the timeouts, the User-Agent, TLS verified
 * unless insecure, libcurl's message in errbuf, and the SSRF guard of
 * netguard.h.  What else a transfer needs (the URL, headers, callbacks,
 * a low-speed limit) its caller sets on the handle.
 */
struct uk_http_easy {
	const char *protocols;  /* "http" or "http,https" (NULL: the latter) */
	int follow;             /* 1: follow redirects, up to max_redirs */
	long max_redirs;        /* with follow */
	long timeout_ms;        /* the whole transfer; 0: no limit */
	long connect_ms;        /* connecting; 0: libcurl's default */
	const char *user_agent; /* not copied; NULL: no User-Agent sent */
	int insecure;           /* 1: TLS not verified (-k) */
	char *errbuf;           /* CURL_ERROR_SIZE bytes, emptied, or NULL */
	struct uk_netguard *guard; /* installed when not NULL: must outlive
	                            * the handle's transfers */
};

/*
 * A body kept whole in buf, up to max bytes: a longer one fails the
 * transfer.  uk_http_sink_write is the libcurl write callback, with a
 * struct uk_http_sink (which must outlive the transfer) as its data.
 */
struct uk_http_sink {
	struct uk_buf *buf;
	size_t max;
};

size_t uk_http_sink_write(char *p, size_t size, size_t n, void *sink);

/*
 * A new easy handle (a CURL *, freed with curl_easy_cleanup) set up as o
 * says.  libcurl failing to make one is out of memory: exits 3.
 */
void *uk_http_easy_new(const struct uk_http_easy *o);

/*
 * Reset easy handle e (curl_easy_reset: its options go, its connections
 * stay for the next transfer) and set it up as o says.  Returns e.
 */
void *uk_http_easy_setup(void *e, const struct uk_http_easy *o);

/* Set up r to GET url (copied). */
void uk_http_req_init(struct uk_http_req *r, const char *url);
/* Add a request header line ("Accept: application/json"). */
void uk_http_req_header(struct uk_http_req *r, const char *line);
/*
 * Forget results and attempts; with url, also the headers added, and make
 * r GET url instead.
 */
void uk_http_req_reset(struct uk_http_req *r, const char *url);
/* Free everything r holds; r must not be in an engine. */
void uk_http_req_release(struct uk_http_req *r);

struct uk_http {
	struct uk_http_opts o;
	void *multi;
	struct uk_http_req *queue;  /* waiting to start, in order */
	struct uk_http_req *active; /* transferring */
	struct uk_http_req *done;   /* finished, not yet returned */
	long nactive;
	int allow_private;
};

/* 0, or -1 with err (code UK_EXIT_FATAL) when libcurl cannot start. */
int uk_http_init(struct uk_http *h, const struct uk_http_opts *o,
    struct uk_err *err);
/* Abandon every request still in h (they are not released) and free h. */
void uk_http_release(struct uk_http *h);

/* Queue r (it is not copied and must stay put until returned). */
void uk_http_add(struct uk_http *h, struct uk_http_req *r);

/*
 * Run transfers until one finishes and return it.  Returns NULL when no
 * request is left, or, when fd >= 0, as soon as fd is readable (then
 * *fd_ready is set to 1).  fd lets a caller read its input while the
 * transfers go on.
 */
struct uk_http_req *uk_http_wait(struct uk_http *h, int fd, int *fd_ready);

/* Requests queued or transferring. */
int uk_http_busy(const struct uk_http *h);

#endif
