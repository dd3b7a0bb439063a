/* SPDX-License-Identifier: MIT */
#ifndef UK_FETCH_H
#define UK_FETCH_H

/*
 * Fetch orchestration (urlfetch): for each URL, the cache check, the type,
 * the handler for the type, and the cache write on success, with many URLs
 * in flight at once on one struct uk_http.
 *
 *   1. Cache: a fresh entry is the answer ("cached": true) and costs no
 *      request.  An expired entry that kept its validators (http.etag,
 *      http.last_modified) is revalidated: a 304 keeps the entry, summary
 *      and all ("revalidated": true), and renews it.  refresh skips the
 *      lookup; use_cache 0 skips the cache altogether.
 *   2. Type: the url record's "type" when it needs no GitHub fields (web,
 *      documentation), else uk_url_classify's.
 *   3. Handler:
 *      web, documentation: GET; HTML goes through uk_extract_html (main
 *        text and metadata; a block page is an error), text types are
 *        taken as they are, anything else is an error.  Unless
 *        no_negotiate (or --select, --remove, --whole, --explain, which
 *        are about the HTML), Markdown first (lib/negotiate.h): the GET
 *        asks for it, then the HTML's Markdown alternate or (for
 *        documentation) the site's llms.txt may cost one more request
 *        ("source" says which).
 *      github_file: GET RAW/owner/repo/branch/path; a 404 on branch main
 *        tries master; title is the file name.
 *      github_issue, github_pr: the API (API/repos/owner/repo/issues/N)
 *        when it answers: title, state, labels, body, comment count;
 *        otherwise the web page WEB/owner/repo/issues/N (or pull/N).
 *      github_repo: uk_repo_fetch (lib/repo.h), run to its end before
 *        the other transfers go on, and only when none is running (no
 *        new one starts until those running are done): a transfer's
 *        timeout never counts a repository's time.  A git URL that is
 *        not GitHub's (a path, file://, git://, ssh://, an http(s) URL
 *        ending in .git, or any URL whose record says "type":
 *        "github_repo") goes to uk_repo_fetch too, as url_type
 *        github_repo, and is never cached (a local checkout changes
 *        under the cache).
 *      RAW, API and WEB are URLKIT_GITHUB_RAW_URL, URLKIT_GITHUB_API_URL
 *      and URLKIT_GITHUB_URL, with GitHub's hosts by default;
 *      URLKIT_GITHUB_TOKEN (or GITHUB_TOKEN) goes to the API only.
 *   4. Cache write of a record without error.  Errors are never cached,
 *      nor is anything fetched with TLS verification off (-k).
 *
 * Summaries are not made here: a cached entry without one is returned as
 * it is, and urlsum adds it.
 *
 * Extraction (uk_extract_html, uk_pdf_extract, and the block-page check of
 * an error answer) runs on a worker thread, started at the first page, so
 * that a heavy page never holds up the transfers: the loop hands the body
 * over and goes on driving libcurl, and the job is finished on the loop's
 * thread when the worker is done.  At most UK_FETCH_BACKLOG bodies wait
 * for the worker; while that many wait, no new transfer starts (those
 * queued keep their timeout unstarted), so bodies held at once are at
 * most UK_FETCH_BACKLOG, plus one being extracted, plus the transfers
 * already running.  A body is freed as soon as its record is made.
 */

#include "cache.h"
#include "extract.h"
#include "http.h"
#include "json.h"
#include "negotiate.h"
#include "repo.h"
#include "url.h"
#include "util.h"

/* Bodies waiting for extraction before new transfers are held back. */
#define UK_FETCH_BACKLOG 4

struct uk_fetch_opts {
	struct uk_http_opts http;
	int use_cache;         /* 0: neither read nor write the cache */
	int refresh;           /* 1: do not read the cache, still write it */
	const char *cache_dir; /* NULL: from the environment */
	long ttl;              /* -1: from the environment */
	struct uk_repo_opts repo; /* github_repo: limits, map budget */
	struct uk_extract_opts extract; /* pages and PDFs: format, links... */
	int no_negotiate; /* 1: ask for no Markdown (lib/negotiate.h) */
};

void uk_fetch_opts_init(struct uk_fetch_opts *o);

struct uk_fetch {
	struct uk_fetch_opts o;
	struct uk_http http;
	struct uk_cache cache;
	int have_cache;
	const char *web_base, *raw_base, *api_base; /* without trailing '/' */
	char *web_buf, *raw_buf, *api_buf;
	const char *token;
	long cache_errors;          /* cache writes that failed */
	struct uk_err cache_err;    /* the last of them */
	/* Private to fetch.c. */
	struct uk_fetch_pool *pool;              /* the extraction worker */
	struct uk_fetch_job *repos, *repos_last; /* waiting for no transfer */
	long jobs; /* the engine's transfers at once, as configured */
	/* Origins and their llms.txt (lib/negotiate.h). */
	struct uk_negotiate_site *sites;
	/* Jobs another's step finished (an llms.txt's waiters). */
	struct uk_fetch_job *ready, *ready_last;
};

/* One URL being fetched. */
struct uk_fetch_job {
	/* The content record once done is 1 (owned by the job). */
	yajl_val rec;
	int done;

	/* Private to fetch.c. */
	struct uk_fetch *f;
	char *url;
	struct uk_url u;
	int state;
	int branch_fallback;
	struct uk_http_req req;
	yajl_val stale;
	int nocache; /* a repository that is not GitHub's */
	/* Handed to the extraction worker (fetch.c's pool). */
	struct uk_fetch_job *next;
	int xkind;
	yajl_val xrec; /* the page's record, or NULL: xmsg says why */
	struct uk_buf xmsg;
	int xblocked; /* an error answer is a block page */
	/* Markdown the site has (lib/negotiate.h). */
	int neg;   /* the page is asked for as Markdown first */
	int extra; /* its one extra request is made (or not to be made) */
	struct uk_http_req req2; /* the extra request or /llms.txt */
	char *xalt;        /* the worker found this Markdown alternate */
	yajl_val fallback; /* the HTML's record, while Markdown is sought */
	struct uk_fetch_job *site_next; /* an llms.txt's waiters; ready */
};

/*
 * Set up f: the HTTP engine and, unless o->use_cache is 0, the cache.
 * -1 with err (code UK_EXIT_FATAL) when either cannot be set up.
 */
int uk_fetch_init(struct uk_fetch *f, const struct uk_fetch_opts *o,
    struct uk_err *err);
void uk_fetch_release(struct uk_fetch *f);

/*
 * Start fetching url into j; type is the url record's "type" or NULL.
 * A cache hit or an immediate error finishes the job at once (j->done is
 * set on return; uk_fetch_wait will not return it).  Otherwise j must
 * stay put until done.
 */
void uk_fetch_start(struct uk_fetch *f, struct uk_fetch_job *j, const char *url,
    const char *type);

/*
 * Drive the transfers and the extraction worker until a job finishes and
 * return it; NULL when no job is in flight, or as soon as fd (when >= 0)
 * is readable, with *fd_ready set.  fd may change from call to call.
 */
struct uk_fetch_job *uk_fetch_wait(struct uk_fetch *f, int fd, int *fd_ready);

/* Whether jobs are in flight (transferring or being extracted). */
int uk_fetch_busy(const struct uk_fetch *f);

/* Free what j holds (j must be done or never started). */
void uk_fetch_job_release(struct uk_fetch_job *j);

#endif
