/* SPDX-License-Identifier: MIT */
/*
 * urlmap: the URLs of a site, from its robots.txt, sitemaps, feeds,
 * llms.txt and a bounded crawl, as url records.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "date.h"
#include "http.h"
#include "json.h"
#include "jsonl.h"
#include "links.h"
#include "progress.h"
#include "robots.h"
#include "strset.h"
#include "url.h"
#include "urlnorm.h"
#include "urlref.h"
#include "util.h"
#include "urlmap.h"

#include "banned.h"

unsigned long long max_doc;
struct uk_jsonl_out out;
struct urlmap_stats st;
struct uk_strset seen = UK_STRSET_INIT, queued = UK_STRSET_INIT,
		 refused = UK_STRSET_INIT;
char *scope[2];

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
int
url_in_scope(const char *url)
{
	char *host;
	int ok;

	if (uk_robots_split_url(url, NULL, &host, NULL))
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
int
stopped(void)
{
	return st.full || st.memory;
}

/*
 * The normal form of ref (resolved against base) when it passes the
 * filters: in scope, the paths, robots.txt; else NULL.
 */
char *
filter(const char *base, const char *ref)
{
	char *abs = uk_urlref_resolve(base, ref), *n = NULL, *host = NULL;
	char *pathq = NULL;

	if (!abs || !(n = uk_urlnorm(abs)) ||
	    uk_robots_split_url(n, NULL, &host, &pathq) || !in_scope(host) ||
	    !path_ok(pathq))
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
int
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
		tt = uk_util_xstrdup(title);
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
			front.v = uk_util_xrealloc(front.v,
			    front.cap * sizeof(*front.v));
		}
	}
	front.v[front.n].url = uk_util_xstrdup(url);
	front.v[front.n].from = from ? uk_util_xstrdup(from) : NULL;
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
	uk_robots_split_url(seed, &origin, &scope[0], NULL);
	memset(&sl, 0, sizeof(sl));
	/* robots.txt first: its rules and its Sitemap lines. */
	s = site_of(seed);
	rc = fetch(seed, &r);
	base = r.final_url ? r.final_url : seed;
	if (rc == 0 && r.status == 200) {
		if (r.final_url &&
		    uk_robots_split_url(r.final_url, NULL, &final_host, NULL) ==
			0 &&
		    strcmp(final_host, scope[0]) != 0)
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
			uk_util_warn("'%s': %s", seed,
			    rc == 1    ? "disallowed by robots.txt" :
				rc < 0 ? r.err.msg :
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

int
main(int argc, char **argv)
{
	struct uk_jsonl_policy pol = { .flags = UK_JSONL_BARE_URL,
		.require = "url", .out = &out };
	struct uk_http_opts ho;
	struct uk_jsonl_src src;
	struct uk_err err;
	yajl_val rec;
	size_t i;
	int r;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	uk_http_opts_init(&ho);
	ho.max_size = 50ULL << 20;
	ho.jobs = 1;
	ho.per_host = 1;
	r = parse_opts(argc, argv, &ho);
	argc -= r;
	argv += r;
	uk_jsonl_out_init(&out, stdout);
	uk_progress_init(&prog, STDERR_FILENO, opt.quiet);
	max_doc = ho.max_size;
	if (!opt.no_cache) {
		if (uk_cache_open(&cache, NULL, -1, &err) < 0)
			uk_util_die(err.code, "%s", err.msg);
		have_cache = 1;
	}
	if (uk_http_init(&http, &ho, &err) < 0)
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_src_init(&src, &pol);
	for (i = 0; i < opt.ninputs; i++)
		uk_jsonl_src_add(&src, opt.inputs[i], UK_JSONL_SRC_FILE);
	for (i = 0; i < (size_t)argc; i++)
		uk_jsonl_src_add(&src, argv[i], UK_JSONL_SRC_URL);
	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
		if (r == UK_JSONL_SRC_REC) {
			map_url(uk_json_get_str(rec, "url"));
		} else if (r == UK_JSONL_SRC_REFUSED) {
			uk_jsonl_out_record(&out, rec);
			uk_util_warn("%s", err.msg);
			uk_util_status_set(UK_EXIT_FAIL);
		} else if (err.code == UK_EXIT_FAIL) {
			uk_util_warn("%s", err.msg);
			uk_util_status_set(UK_EXIT_FAIL);
		} else {
			uk_progress_erase(&prog);
			uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
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
		uk_util_warn("%lu URL%s refused by robots.txt", st.refused,
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
	free(opt.inputs);
	free(opt.include);
	free(opt.exclude);
	uk_strset_release(&seen);
	uk_strset_release(&queued);
	uk_strset_release(&refused);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	return uk_status;
}
