/* SPDX-License-Identifier: MIT */
#ifndef UK_ROBOTS_H
#define UK_ROBOTS_H

/*
 * robots.txt (RFC 9309, the Robots Exclusion Protocol) for one user agent:
 * the rules of the group that names it (several such groups are merged;
 * with none, the "*" groups), the file's Sitemap lines, and the group's
 * Crawl-delay (no part of RFC 9309, honoured as well-behaved crawlers do).
 *
 *	struct uk_robots r;
 *
 *	uk_robots_init(&r);
 *	if (the fetch answered 2xx)
 *		uk_robots_parse(&r, body, len, "urlmap");
 *	else
 *		uk_robots_set(&r, 400 <= status && status < 500 ?
 *		    UK_ROBOTS_ALLOW_ALL : UK_ROBOTS_DISALLOW_ALL);
 *	if (uk_robots_allowed(&r, "/path?query")) ...
 *	uk_robots_release(&r);
 *
 * Matching is RFC 9309's: a rule's path is a prefix of the URL's path
 * and query, with '*' for any run of bytes and a final '$' for the end;
 * the longest matching rule wins, and of an Allow and a Disallow of the
 * same length, the Allow.  "/robots.txt" is always allowed.  Only the
 * first UK_ROBOTS_MAX bytes of the file are read (RFC 9309 asks for at
 * least 500 KiB).
 */

#include <stddef.h>

#define UK_ROBOTS_MAX (512UL << 10)

enum uk_robots_mode {
	UK_ROBOTS_RULES,        /* the rules below */
	UK_ROBOTS_ALLOW_ALL,    /* none, or a 4xx answer */
	UK_ROBOTS_DISALLOW_ALL  /* a 5xx answer, or no answer */
};

struct uk_robots_rule {
	char *path; /* the pattern as written (owned) */
	int allow;  /* 1: Allow, 0: Disallow */
};

struct uk_robots {
	enum uk_robots_mode mode;
	struct uk_robots_rule *rules; /* of the group for the agent */
	size_t nrules;
	double crawl_delay; /* seconds; 0: none given */
	char **sitemaps;    /* the Sitemap lines' URLs, in order (owned) */
	size_t nsitemaps;
};

/* Set r up as allowing all, with no sitemaps. */
void uk_robots_init(struct uk_robots *r);
/* Free what r holds; r is then ready for uk_robots_init. */
void uk_robots_release(struct uk_robots *r);

/*
 * Take the rules of text[0..len) (not NUL-terminated; bytes past
 * UK_ROBOTS_MAX ignored) for the user agent whose product token is agent
 * ("urlmap": matched without regard to case), replacing r's.  Lines that
 * mean nothing are skipped, as RFC 9309 asks.
 */
void uk_robots_parse(struct uk_robots *r, const char *text, size_t len,
    const char *agent);

/* Make r allow all or disallow all, dropping its rules (not its sitemaps). */
void uk_robots_set(struct uk_robots *r, enum uk_robots_mode mode);

/*
 * 1 when r lets the agent fetch path (the URL's path and query, starting
 * with '/'), else 0.
 */
int uk_robots_allowed(const struct uk_robots *r, const char *path);

/*
 * "May this user agent fetch url?", for a program that fetches on its
 * own (urlserve by default, urlfetch --robots): the robots.txt of url's
 * origin (scheme, host and port) is fetched through libcurl set up as
 * every urlkit transfer is (uk_http_easy_new: the SSRF guard, the
 * User-Agent, TLS verified unless insecure), with at most
 * UK_ROBOTS_REDIRS redirects, a timeout for the whole transfer and its
 * first UK_ROBOTS_MAX bytes read (the rest is not downloaded).  As RFC
 * 9309 asks: 2xx its rules for rc->agent (and "*"), 4xx or too many
 * redirects allow all, 5xx or no answer (refused, timed out) disallow
 * all.
 *
 * The verdict for an origin is kept in memory (per struct, shared by
 * threads): a file's rules for UK_ROBOTS_KEEP seconds, a failure (5xx, no
 * answer) for UK_ROBOTS_KEEP_FAIL, and at most UK_ROBOTS_ORIGINS origins
 * (the oldest go).  With rc->cache, a 2xx or 4xx answer is also kept in
 * the cache under "ORIGIN/robots.txt#robots" (a key no page has), with
 * the cache's TTL, so that the next process does not ask again.
 *
 *	struct uk_robots_cache rc;
 *
 *	uk_robots_cache_init(&rc, "urlkit");
 *	rc.timeout = 30;
 *	switch (uk_robots_may_fetch(&rc, url, -1, &why)) ...
 *	uk_robots_cache_release(&rc);
 */

#include <pthread.h>

#include "buf.h"

#define UK_ROBOTS_AGENT     "urlkit" /* urlfetch's and urlserve's token */
#define UK_ROBOTS_REDIRS    5
#define UK_ROBOTS_KEEP      86400.0 /* RFC 9309: at most 24 hours */
#define UK_ROBOTS_KEEP_FAIL 60.0
#define UK_ROBOTS_ORIGINS   1024

struct uk_cache;
struct uk_robots_origin; /* private */

struct uk_robots_cache {
	/* Set by the caller after uk_robots_cache_init; not copied. */
	const char *agent;      /* the product token matched ("urlkit") */
	const char *user_agent; /* the User-Agent sent; NULL: urlkit's */
	double timeout;         /* one robots.txt fetch, seconds */
	int insecure;           /* TLS not verified */
	int allow_private;      /* the SSRF guard off (as -P) */
	struct uk_cache *cache; /* robots.txt kept there too, or NULL */

	long fetched; /* robots.txt requests made (for a progress line) */

	/* Private. */
	pthread_mutex_t mu;
	struct uk_robots_origin *origins;
	size_t norigins;
};

/* Set rc up for agent (not copied), timeout UK_HTTP_TIMEOUT, no cache. */
void uk_robots_cache_init(struct uk_robots_cache *rc, const char *agent);
void uk_robots_cache_release(struct uk_robots_cache *rc);

/*
 * Whether rc->agent may fetch url: 1 yes (also for a URL that is not
 * http or https, or that curl cannot parse, and when the SSRF guard
 * refused the robots.txt: other checks refuse those), 0 no, with a
 * sentence in why that begins "robots.txt forbids it: " and says which
 * file disallows what, or why it could not be read; -1 when cancel_fd
 * (when >= 0) became readable during the fetch.  why is emptied first.
 * On an origin not yet known it blocks for at most timeout seconds (0:
 * rc->timeout).
 */
int uk_robots_may_fetch(struct uk_robots_cache *rc, const char *url,
    double timeout, int cancel_fd, struct uk_buf *why);

/*
 * The parts of url that robots.txt works with, as libcurl's URL API
 * parses it: *origin "scheme://host" with ":port" when the port is not
 * the scheme's default, *host the host alone, *pathq the path ("/" when
 * it is empty) with "?query" when there is one.  Each is the caller's to
 * free; a NULL pointer asks for none.  0, or -1 (nothing set) when curl
 * cannot parse url.  Any scheme curl knows is taken: the caller that
 * wants only http and https checks *origin.
 */
int uk_robots_split_url(const char *url, char **origin, char **host,
    char **pathq);

/*
 * Whether robots.txt governs urlfetch's fetch of url: 1 for a page (web
 * and documentation URLs, fetched as what they name), 0 for a GitHub
 * URL (uk_url_classify's GitHub types), which urlfetch reads through the
 * API, raw files and archives, not as the page the URL names.
 */
int uk_robots_applies(const char *url);

#endif
