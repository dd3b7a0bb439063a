/* SPDX-License-Identifier: MIT */
#ifndef URLMAP_H
#define URLMAP_H

/*
 * What urlmap's own files share (cmd/urlmap*.c, private to the program):
 * the options as the command line gave them (urlmap_opts.c), the run's
 * state, the fetching of a site's documents with its robots.txt, its
 * delay and the cache (urlmap_fetch.c), the sources read for a start URL
 * (urlmap_sources.c), and the filters and the writing of records
 * (urlmap.c).
 */

#include <stddef.h>

#include "cache.h"
#include "cli.h"
#include "http.h"
#include "jsonl.h"
#include "progress.h"
#include "robots.h"
#include "strset.h"

/* The product token urlmap looks for in robots.txt. */
#define AGENT "urlmap"
/* The longest Crawl-delay honoured, seconds: a larger one would stall. */
#define MAX_CRAWL_DELAY 30.0
/* Sitemaps read for one start URL, and how deep indexes nest. */
#define MAX_SITEMAPS 1000
#define MAX_SITEMAP_LEVEL 5
/* Links taken from one page. */
#define MAX_PAGE_LINKS 50000

struct urlmap_opt {
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
	const char **inputs; /* -i's files, in command-line order */
	size_t ninputs;
};
extern struct urlmap_opt opt;

/*
 * The command line into opt and into ho (set up by the caller), and
 * standard output to -o's file; exits on -h, -V and a usage error (exit
 * 2).  Returns optind.
 */
int parse_opts(int argc, char **argv, struct uk_http_opts *ho);

/* The largest document (-s), compressed or inflated. */
extern unsigned long long max_doc;

extern struct uk_http http;
extern struct uk_jsonl_out out;
extern struct uk_progress prog;
extern struct uk_cache cache;
extern int have_cache;

/* What the run has done, for the progress line and the last message. */
struct urlmap_stats {
	unsigned long records, requests, refused, pages, cached;
	unsigned long long bytes; /* held by the sets and the frontier */
	int full;                 /* the limit was reached */
	int memory;               /* --max-memory was reached */
};
extern struct urlmap_stats st;

/* One origin (scheme, host, port): its robots.txt and its clock. */
struct site {
	char *origin;
	struct uk_robots robots;
	int loaded;
	double next; /* uk_util_mono_now() before which no request goes */
};
extern struct site *sites;
extern size_t nsites;

/* URLs written (normal form), pages queued for the crawl, and URLs
 * robots.txt refused (each counted once). */
extern struct uk_strset seen, queued, refused;

/* The hosts in scope for the current start URL. */
extern char *scope[2];

/* urlmap_fetch.c */

/* The progress line (at once when force). */
void progress(int force);

/*
 * The site of url, with its robots.txt read (RFC 9309: 2xx its rules, 4xx
 * allow all, 5xx or no answer disallow all).  NULL when url has no origin.
 */
struct site *site_of(const char *url);

/* Whether robots.txt lets urlmap fetch url (always with --ignore-robots). */
int allowed(const char *url);

/* A failure record for what could not be read: {"url", "via", "error"}. */
void fail(const char *url, const char *via, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Fetch url for a source (robots.txt honoured unless --ignore-robots).
 * 0 with r's answer (any HTTP status), 1 when robots.txt refused it, -1
 * when no answer came (r->err says why).  The caller releases r.
 */
int fetch(const char *url, struct uk_http_req *r);

/* Why a fetch failed (fetch's rc, and r), as an error record. */
void fetch_error(const char *url, const char *via, int rc,
    struct uk_http_req *r);

/* urlmap.c */

/* Whether url's host is in the current scope. */
int url_in_scope(const char *url);

/* Whether the run stops: the limit or the memory cap was reached. */
int stopped(void);

/*
 * The normal form of ref (resolved against base) when it passes the
 * filters: in scope, the paths, robots.txt; else NULL.  The caller's to
 * free.
 */
char *filter(const char *base, const char *ref);

/*
 * Write the record of n (a normal form that passed the filters) unless
 * it was written already: 1 written, 0 not, -1 the run is to stop.
 */
int emit(const char *n, const char *via, long depth, const char *from,
    const char *lastmod, const char *title);

/* urlmap_sources.c */

/* The sitemaps to read for one start URL, in order, each once. */
struct smq {
	char **url;
	long *level;
	int *probe; /* 1: /sitemap.xml, guessed: its absence is fine */
	size_t n, head;
	struct uk_strset names;
};

/* Queue url at level (nothing past MAX_SITEMAPS or MAX_SITEMAP_LEVEL). */
void smq_add(struct smq *q, const char *url, long level, int probe);
void smq_release(struct smq *q);

/* Read the sitemaps in q, breadth first (indexes add to it). */
void sitemaps(struct smq *q);

/* Read the feed at url (named: any failure is an error record). */
void feed(const char *url);

/* Read origin's /llms.txt; its absence is no error. */
void llms(const char *origin);

/* Whether a Content-Type is HTML (a soft 404 page, for a text file). */
int is_html(const char *ct);

/*
 * The start page (url, answered in r) as something other than a page: a
 * sitemap, a feed, or a text file of Markdown links.  1 when it was one
 * (and was read), else 0.
 */
int start_direct(const char *url, struct uk_http_req *r);

#endif
