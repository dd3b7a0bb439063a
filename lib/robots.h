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

#endif
