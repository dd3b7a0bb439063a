/* SPDX-License-Identifier: MIT */
/*
 * urlserve: map_site, the URLs of a site for an agent.  It runs urlmap
 * (beside urlserve, else on PATH) as a child with a deadline, robots.txt
 * always honoured, and answers with the URLs and their titles: a text
 * block of one "URL  title" line each, which costs a model the fewest
 * tokens, and the same as structured content.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "buf.h"
#include "child.h"
#include "json.h"
#include "mcp.h"
#include "record.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "urlserve_map.h"
#include "util.h"
#include "banned.h"

#define MAP_OUT_MAX (8UL << 20) /* urlmap's output kept (5000 URLs) */
#define MAP_ERRORS_MAX 10        /* error records named in the result */

/* Whether the sources array names s (absent: the defaults). */
static int
source(yajl_val args, const char *s, int def)
{
	yajl_val v = uk_json_get(args, "sources");
	size_t i;

	if (!v)
		return def;
	for (i = 0; i < v->u.array.len; i++)
		if (!strcmp(v->u.array.values[i]->u.string, s))
			return 1;
	return 0;
}

/*
 * The length of the origin ("https://host:port") every record's URL in
 * urls starts with, followed by '/'; 0 when they do not share one.
 */
static size_t
common_origin(yajl_val urls)
{
	const char *first, *u, *p;
	size_t n, i;

	if (!urls->u.array.len)
		return 0;
	first = uk_json_get_str(urls->u.array.values[0], "url");
	if (!(p = strstr(first, "://")))
		return 0;
	n = (size_t)(p + 3 - first) + strcspn(p + 3, "/");
	for (i = 0; i < urls->u.array.len; i++) {
		u = uk_json_get_str(urls->u.array.values[i], "url");
		if (strncmp(u, first, n) || u[n] != '/')
			return 0;
	}
	return n;
}

/*
 * The text block: one line a URL, its title after two spaces; when the
 * URLs share an origin, it is said once and each line is the path (half
 * the tokens of whole URLs).
 */
static void
map_text(yajl_val urls, struct uk_buf *b)
{
	size_t o = common_origin(urls), i;
	const char *u, *t;

	if (o)
		uk_buf_addf(b, "URLs of %.*s (paths):\n", (int)o,
		    uk_json_get_str(urls->u.array.values[0], "url"));
	for (i = 0; i < urls->u.array.len; i++) {
		u = uk_json_get_str(urls->u.array.values[i], "url");
		t = uk_json_get_str(urls->u.array.values[i], "title");
		uk_buf_addstr(b, u + o);
		if (t) {
			uk_buf_addstr(b, "  ");
			uk_buf_addstr(b, t);
		}
		uk_buf_addch(b, '\n');
	}
}

/* The result of urlmap's output: {count, urls, errors, limited}. */
static void
answer(struct uk_mcp_call *c, const struct uk_buf *out, long limit)
{
	yajl_val res = uk_json_object(), urls = uk_json_array(),
		 errs = uk_json_array(), rec, e;
	struct uk_buf text = UK_BUF_INIT;
	const char *p = out->buf, *end = out->buf + out->len, *nl;
	const char *url, *title, *err;
	struct uk_err perr;
	long n = 0, nerr = 0;

	for (; p < end; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		if (!(rec = uk_json_parse(p, (size_t)(nl - p), &perr)))
			continue;
		url = uk_json_get_str(rec, "url");
		title = uk_json_get_str(rec, "title");
		if ((err = uk_json_get_str(rec, "error"))) {
			if (nerr++ < MAP_ERRORS_MAX) {
				e = uk_json_object();
				uk_json_set_str(e, "url", url ? url : "");
				uk_record_error(e, err);
				uk_json_push(errs, e);
			}
		} else if (url) {
			e = uk_json_object();
			uk_json_set_str(e, "url", url);
			uk_json_set_str_nonempty(e, "title", title);
			uk_json_push(urls, e);
			n++;
		}
		uk_json_free(rec);
	}
	map_text(urls, &text);
	if (nerr)
		uk_buf_addf(&text, "(%ld error%s: %s)\n", nerr,
		    nerr == 1 ? "" : "s",
		    uk_json_get_str(errs->u.array.values[0], "error"));
	if (n == limit)
		uk_buf_addf(&text, "(the limit, %ld, was reached)\n", limit);
	if (!n && !nerr)
		uk_buf_addstr(&text, "(no URLs found)\n");
	uk_json_set_int(res, "count", n);
	uk_json_set(res, "urls", urls);
	uk_json_set(res, "errors", errs);
	uk_json_set_bool(res, "limited", n == limit);
	uk_mcp_call_result(c, res, text.buf, !n && nerr);
	uk_buf_release(&text);
}

/*
 * urlmap's command line for a map_site call (args checked): argv[0] is
 * prog, the numbers are written into tbuf, lbuf and dbuf, which must
 * outlive it.  The caller frees the array, not its strings.
 */
static const char **
map_argv(yajl_val args, const char *url, char *prog, long limit,
    struct uk_buf *tbuf, struct uk_buf *lbuf, struct uk_buf *dbuf)
{
	yajl_val inc, exc;
	const char **argv;
	size_t i, n = 0;

	inc = uk_json_get(args, "include");
	exc = uk_json_get(args, "exclude");
	argv = uk_util_xcalloc(24 +
		2 *
		    ((inc ? inc->u.array.len : 0) +
			(exc ? exc->u.array.len : 0)),
	    sizeof(*argv));
	uk_buf_addf(tbuf, "%g", us_srv.timeout);
	uk_buf_addf(lbuf, "%ld", limit);
	uk_buf_addf(dbuf, "%lld", us_arg_int(args, "depth", 2));
	argv[n++] = prog;
	argv[n++] = "--compact";
	argv[n++] = "-q";
	argv[n++] = "-t";
	argv[n++] = tbuf->buf;
	argv[n++] = "--limit";
	argv[n++] = lbuf->buf;
	if (!source(args, "sitemap", 1))
		argv[n++] = "--no-sitemaps";
	if (!source(args, "feed", 1))
		argv[n++] = "--no-feeds";
	if (!source(args, "llms", 1))
		argv[n++] = "--no-llms";
	if (source(args, "crawl", 0)) {
		argv[n++] = "--crawl";
		argv[n++] = "--depth";
		argv[n++] = dbuf->buf;
	}
	for (i = 0; inc && i < inc->u.array.len; i++) {
		argv[n++] = "-I";
		argv[n++] = inc->u.array.values[i]->u.string;
	}
	for (i = 0; exc && i < exc->u.array.len; i++) {
		argv[n++] = "-X";
		argv[n++] = exc->u.array.values[i]->u.string;
	}
	argv[n++] = "--";
	argv[n++] = url;
	argv[n] = NULL;
	return argv;
}

void
us_tool_map_site(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "url", 's', 1, 0, 0 },
		{ "sources", 'a', 0, 0, 0 },
		{ "limit", 'i', 0, 1, US_MAP_LIMIT_MAX },
		{ "include", 'a', 0, 0, 0 },
		{ "exclude", 'a', 0, 0, 0 },
		{ "depth", 'i', 0, 0, 10 },
		{ NULL, 0, 0, 0, 0 },
	};
	static const char *const known[] = { "sitemap", "feed", "llms",
		"crawl", NULL };
	struct uk_buf out = UK_BUF_INIT, errout = UK_BUF_INIT,
		      tbuf = UK_BUF_INIT, lbuf = UK_BUF_INIT,
		      dbuf = UK_BUF_INIT;
	struct uk_child ch = UK_CHILD_INIT;
	const char **argv = NULL;
	yajl_val src;
	struct uk_err err;
	const char *url;
	char *prog = NULL;
	size_t i, k;
	long limit;
	int st, cancelled;

	(void)session;
	if (us_args_check(c, args, spec))
		return;
	url = uk_json_get_str(args, "url");
	if (us_check_url(c, url))
		return;
	if ((src = uk_json_get(args, "sources")))
		for (i = 0; i < src->u.array.len; i++) {
			for (k = 0; known[k]; k++)
				if (!strcmp(src->u.array.values[i]->u.string,
				    known[k]))
					break;
			if (!known[k]) {
				uk_mcp_call_error(c, "map_site: sources are "
				    "sitemap, feed, llms and crawl");
				return;
			}
		}
	limit = (long)us_arg_int(args, "limit", 100);
	prog = us_sibling("urlmap");
	argv = map_argv(args, url, prog, limit, &tbuf, &lbuf, &dbuf);

	ch.argv = argv;
	/* The crawl waits between requests: a generous deadline. */
	ch.deadline =
	    uk_util_mono_ms() + (long long)((us_srv.timeout * 4 + 120) * 1000);
	ch.out = &out;
	ch.err = &errout;
	ch.max = MAP_OUT_MAX;
	st = us_child_run(c, &ch, &cancelled, &err);
	if (cancelled)
		uk_mcp_call_error(c, "cancelled");
	else if (st < 0)
		uk_mcp_call_error(c, "map_site: %s", err.msg);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
		uk_mcp_call_error(c, "map_site: urlmap %s%s%.*s",
		    ch.timed_out ? "timed out" : "failed",
		    errout.len ? ": " : "", (int)strcspn(errout.buf, "\n"),
		    errout.buf);
	else
		answer(c, &out, limit);
	free(prog);
	free(argv);
	uk_buf_release(&tbuf);
	uk_buf_release(&lbuf);
	uk_buf_release(&dbuf);
	uk_buf_release(&out);
	uk_buf_release(&errout);
}
