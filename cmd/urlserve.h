/* SPDX-License-Identifier: MIT */
#ifndef URLSERVE_H
#define URLSERVE_H

/*
 * urlserve's parts (cmd/urlserve*.c): the program and its state
 * (urlserve.c), the fetching, paging and summaries the tools share
 * (urlserve_fetch.c), the tools (urlserve_tools.c: detection and
 * fetching; urlserve_store.c: the fetched set and the cache;
 * urlserve_child.c: those that run a sibling program) and their table
 * with the schemas (urlserve_table.c).  lib/mcp does the protocol.
 */

#include <pthread.h>
#include <stddef.h>

#include "cache.h"
#include "fetch.h"
#include "json.h"
#include "mcp.h"
#include "robots.h"
#include "session.h"
#include "util.h"

/*
 * fetch_url's token budget of one slice, the first look: default (chosen
 * by scripts/bench firstlook, see urlserve(1)) and largest; and
 * detect_and_fetch's, which its slices share.
 */
#define US_MAX_TOKENS_DEFAULT 4000
#define US_MAX_TOKENS_MAX     100000
#define US_TEXT_TOKENS_DEFAULT 8000
/* fetch_url's links: the most listed in the text block (all are data). */
#define US_LINKS_TEXT_MAX 100
/* detect_and_fetch's URLs per message, as urlfetch -m's default. */
#define US_PER_MESSAGE 3
/* Longest text detect_urls and detect_and_fetch take, in bytes. */
#define US_MAX_TEXT (1UL << 20)

/* The server's configuration and what every session shares. */
struct us_server {
	double timeout;          /* -t: a fetch's timeout, seconds */
	size_t max_fetched;      /* -G: a session's fetched set, bytes */
	const char *session;     /* -S NAME, or NULL: in memory */
	struct uk_cache cache;   /* the cache (and -S's directory) */
	struct uk_session named; /* -S */
	pthread_mutex_t mu;      /* the named session and the fetcher pool */
	struct us_fetcher *idle; /* fetchers not in use */
	int render;              /* render_url is listed (Chromium found) */
	int open_private;        /* -O: open_url opens internal addresses */
	int ignore_robots;       /* --ignore-robots */
	struct uk_robots_cache robots; /* robots.txt's verdicts, by origin */
};

extern struct us_server us_srv;

/*
 * One client's state: the fetched set, in memory (a JSON array of
 * records in the order first fetched), or with -S the named session.
 */
struct us_session {
	pthread_mutex_t mu;
	yajl_val fetched;
	size_t bytes; /* what its records hold, at most us_srv.max_fetched */
};

/*
 * The fetched set of s (urlserve.c).  add copies rec (a record with a
 * string url) in, replacing the one of its URL in place, and drops the
 * oldest records while the set holds over -G bytes; get answers a
 * copy (1) or 0; remove answers 1 or 0; clear how many went; list a new
 * array of copies.  Each -1 with err when the named session fails.
 */
int us_fetched_add(struct us_session *s, yajl_val rec, struct uk_err *err);
int us_fetched_get(struct us_session *s, const char *url, yajl_val *rec,
    struct uk_err *err);
int us_fetched_remove(struct us_session *s, const char *url,
    struct uk_err *err);
long us_fetched_clear(struct us_session *s, struct uk_err *err);
int us_fetched_list(struct us_session *s, yajl_val *list, struct uk_err *err);

/*
 * A fetcher (lib/fetch) for one call at a time: taken from the pool (or
 * made), given back with us_fetcher_put; broken set when a job of it was
 * left unfinished (cancelled), so that it is released, not reused.
 */
struct us_fetcher {
	struct uk_fetch f;
	struct us_fetcher *next;
};
struct us_fetcher *us_fetcher_take(struct uk_err *err);
void us_fetcher_put(struct us_fetcher *f, int broken);

/* The fetching the tools share (urlserve_fetch.c). */
struct us_fetch_req {
	int use_cache;  /* 0: fetch again (the result is still cached) */
	int markdown;   /* the format of pages fetched now */
	/* Called after each URL is done (for progress), or NULL. */
	void (*done)(struct uk_mcp_call *c, size_t ndone, size_t n,
	    const char *url);
	/* fetch_url's select, remove, whole and explain, or NULL. */
	const struct uk_extract_opts *overrides;
	/* A fetch's time limit in seconds, at most -t's; 0: -t's. */
	double timeout;
	int links; /* fetch_url's links: the pages' links as data */
};

/*
 * Whether robots.txt lets urlserve fetch url (always with
 * --ignore-robots): 1, 0 with an error result on c that says so and what
 * the model can do, -1 cancelled (no result).  timeout: the call's, 0: -t.
 */
int us_robots_ok(struct uk_mcp_call *c, const char *url, double timeout);

/*
 * Fetch urls[0..n) at once into recs[0..n) (each a content record, an
 * error record for a failure, robots.txt's refusal among them).  0, or
 * -1 when the call was cancelled (recs are then all NULL) or no fetcher
 * could be made (recs are error records then, 0 returned).
 */
int us_fetch_urls(struct uk_mcp_call *c, const struct us_fetch_req *q,
    const char *const *urls, size_t n, yajl_val *recs);

/*
 * The page of rec's text (content; else readme and the symbol map) from
 * offset characters, at most max_tokens cl100k_base tokens, ending at a
 * paragraph or line break in its last fifth when there is one.  Sets on
 * rec "content" (the slice), "offset", "next_offset" (null at the end)
 * and "total_length", and drops "readme" and "symbol_map" (in the text).
 * Returns the characters left after the slice.
 */
size_t us_page(yajl_val rec, size_t offset, size_t max_tokens);

/*
 * Add a summary to rec (of type, -1: chosen from the record and hint):
 * the cache entry's when it has one of that type, else the model's at
 * URLKIT_LLM_URL, else the offline one (also when the model fails, with
 * summary_error), written back to the cache entry.  0, -1 cancelled.
 */
int us_summarize(struct uk_mcp_call *c, yajl_val rec, int type,
    const char *hint);

/*
 * The path of the program prog beside this executable when it is there,
 * else prog itself (looked up on PATH); newly allocated.
 */
char *us_sibling(const char *prog);

/* The tools, the table's order (urlserve_table.c). */
extern const struct uk_mcp_tool us_tools[];
extern const size_t us_ntools;

#endif
