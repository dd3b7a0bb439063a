/* SPDX-License-Identifier: MIT */
/* urlserve: the tools (their table and schemas: urlserve_table.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "detect.h"
#include "extract.h"
#include "extract_select.h"
#include "json.h"
#include "mcp.h"
#include "record.h"
#include "strset.h"
#include "summary.h"
#include "url.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "util.h"
#include "banned.h"

/*
 * Arguments.  The client may not have checked them against the input
 * schema, so each tool checks its own: an unknown name or a value of the
 * wrong type is an error result that names it, which a model can act on.
 */
int
us_args_check(struct uk_mcp_call *c, yajl_val args, const struct us_arg *spec)
{
	const struct us_arg *a;
	yajl_val v;
	size_t i, k;

	if (args && !YAJL_IS_OBJECT(args)) {
		uk_mcp_call_error(c, "the arguments are not an object");
		return -1;
	}
	for (i = 0; args && i < args->u.object.len; i++) {
		const char *key = args->u.object.keys[i];

		v = args->u.object.values[i];
		for (a = spec; a->name && strcmp(a->name, key); a++)
			;
		if (!a->name) {
			uk_mcp_call_error(c, "unknown argument '%s'", key);
			return -1;
		}
		if ((a->type == 's' && !YAJL_IS_STRING(v)) ||
		    (a->type == 'i' && !YAJL_IS_INTEGER(v)) ||
		    (a->type == 'b' && !YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v)) ||
		    (a->type == 'a' && !YAJL_IS_ARRAY(v))) {
			uk_mcp_call_error(c, "argument '%s' is not %s", key,
			    a->type == 's' ? "a string" :
			    a->type == 'i' ? "an integer" :
			    a->type == 'b' ? "a boolean" :
					     "an array of strings");
			return -1;
		}
		if (a->type == 's' && uk_json_strlen(v) != strlen(v->u.string)) {
			uk_mcp_call_error(c, "argument '%s' holds a NUL", key);
			return -1;
		}
		if (a->type == 'i' &&
		    (YAJL_GET_INTEGER(v) < a->min ||
			YAJL_GET_INTEGER(v) > a->max)) {
			uk_mcp_call_error(c,
			    "argument '%s' is out of range (%lld-%lld)", key,
			    a->min, a->max);
			return -1;
		}
		for (k = 0; a->type == 'a' && k < v->u.array.len; k++)
			if (!YAJL_IS_STRING(v->u.array.values[k])) {
				uk_mcp_call_error(c,
				    "argument '%s' is not an array "
				    "of strings",
				    key);
				return -1;
			}
	}
	for (a = spec; a->name; a++)
		if (a->required && !uk_json_get(args, a->name)) {
			uk_mcp_call_error(c, "argument '%s' is required",
			    a->name);
			return -1;
		}
	return 0;
}

long long
us_arg_int(yajl_val args, const char *name, long long def)
{
	long long v;

	return uk_json_get_int(args, name, &v) ? def : v;
}

int
us_arg_bool(yajl_val args, const char *name, int def)
{
	yajl_val v = uk_json_get(args, name);

	return v ? YAJL_IS_TRUE(v) : def;
}

/* An http or https URL: 0, else an error result and -1. */
int
us_check_url(struct uk_mcp_call *c, const char *url)
{
	if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8)) {
		uk_mcp_call_error(c, "'%s' is not an http or https URL", url);
		return -1;
	}
	return 0;
}

/*
 * The text block of a page: "# TITLE (URL)", the summary when there is
 * one, the slice, and when more is left the offset to ask for.
 */
void
us_page_text(yajl_val rec, size_t left, struct uk_buf *b)
{
	const char *title = uk_json_get_str(rec, "title");
	const char *url = uk_json_get_str(rec, "url");
	const char *s, *t;
	long long off = 0, next = 0, total = 0;
	size_t n;

	uk_json_get_int(rec, "offset", &off);
	uk_json_get_int(rec, "next_offset", &next);
	uk_json_get_int(rec, "total_length", &total);
	if (title && *title) {
		size_t at = b->len;

		/* The page's title is shown text: no live HTML. */
		uk_buf_addf(b, "# %s", title);
		uk_extract_md_escape(b, at + 2);
		uk_buf_addf(b, " (%s)", url ? url : "");
	} else
		uk_buf_addf(b, "# %s", url ? url : "");
	if (off > 0)
		uk_buf_addf(b, " [from character %lld of %lld]", off, total);
	uk_buf_addstr(b, "\n\n");
	if ((s = uk_json_get_strn(rec, "summary", &n)) && n &&
	    (t = uk_json_get_str(rec, "summary_backend")) &&
	    !strcmp(t, "outline")) {
		uk_buf_addstr(b, "Outline (each heading's offset, for "
				 "fetch_url):\n");
		uk_buf_add(b, s, n);
		uk_buf_addstr(b, "\n");
	} else if (s && n) {
		uk_buf_addf(b, "Summary (%s):\n",
		    uk_json_get_str(rec, "summary_type") ?
			uk_json_get_str(rec, "summary_type") :
			"BRIEF");
		uk_buf_add(b, s, n);
		uk_buf_addstr(b, "\n\n");
	}
	if ((s = uk_json_get_strn(rec, "content", &n)))
		uk_buf_add(b, s, n);
	if (left)
		uk_buf_addf(b,
		    "\n\n[... %zu more characters: call fetch_url again with "
		    "offset %lld]",
		    left, next);
}

/*
 * What the model can do next after an error record's message e, in
 * urlserve's own terms: lib/fetch.c's messages are urlfetch's and name
 * its options and pwfetch, which a model calling urlserve does not have.
 * The message is matched here, not changed in lib/, so urlfetch's stay.
 */
void
us_error_hint(const char *e, int rendered, struct uk_buf *b)
{
	const char *p;

	/* urlfetch's and pwfetch's advice, in parentheses, goes. */
	if ((p = strstr(e, " (pwfetch")) || (p = strstr(e, " (--allow")) ||
	    (p = strstr(e, " (it may need")) ||
	    (p = strstr(e, " (private network")))
		uk_buf_add(b, e, (size_t)(p - e));
	else
		uk_buf_addstr(b, e);
	if (!strncmp(e, "robots.txt forbids it", 21)) {
		uk_buf_addstr(b, ": the site asks automated clients not to "
				 "fetch it; tell the user (who may open it), "
				 "or use another URL");
	} else if (strstr(e, "block or challenge") ||
	    strstr(e, "no text in the page")) {
		if (rendered)
			uk_buf_addstr(b, ": the browser got no further; try "
					 "another URL for the same content");
		else if (us_tool_on("render_url"))
			uk_buf_addstr(b, ": call render_url with this URL, "
					 "which loads it in a browser");
		else
			uk_buf_addstr(b, ": it needs a browser, and render_url "
					 "is not available here");
	} else if (strstr(e, "private address") ||
	    strstr(e, "private network")) {
		uk_buf_addstr(b, ": urlserve does not fetch internal or "
				 "private addresses; use a public URL");
	} else if (strstr(e, "timed out")) {
		uk_buf_addf(b, ": call fetch_url again later (its timeout is "
			       "at most %g seconds)",
		    us_srv.timeout);
	} else if (!strncmp(e, "HTTP 4", 6) && strncmp(e, "HTTP 429", 8)) {
		uk_buf_addstr(b, ": check the URL");
		if (us_tool_on("map_site"))
			uk_buf_addstr(b, "; map_site lists a site's URLs");
	} else if (!strncmp(e, "HTTP 5", 6) || !strncmp(e, "HTTP 429", 8)) {
		uk_buf_addstr(b, ": the server failed; call fetch_url again "
				 "later");
	}
}

/* Finish c with rec paged (an error record as an error result). */
void
us_answer_page(struct uk_mcp_call *c, yajl_val rec, yajl_val args,
    int rendered)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *e = uk_json_get_str(rec, "error"), *q;
	size_t left, off;
	long long total = 0;

	if (e) {
		us_error_hint(e, rendered, &b);
		uk_record_error(rec, b.buf);
		uk_mcp_call_result(c, rec, b.buf, 1);
		uk_buf_release(&b);
		return;
	}
	/* (The schema's maxLength bounds query.) */
	if ((q = uk_json_get_str(args, "query")) && uk_json_get(rec, "content")) {
		us_answer_query(c, rec, q, (size_t)us_arg_int(args, "max_tokens",
		    US_MAX_TOKENS_DEFAULT));
		return;
	}
	off = (size_t)us_arg_int(args, "offset", 0);
	left = us_page(rec, off,
	    (size_t)us_arg_int(args, "max_tokens", US_MAX_TOKENS_DEFAULT));
	uk_json_get_int(rec, "total_length", &total);
	if (uk_json_get(rec, "needs_browser") && total == 0) {
		/* An app shell: no text until its scripts run. */
		uk_buf_addstr(&b, us_tool_on("render_url") ?
			"the page's text is built by scripts: call render_url "
			"with this URL" :
			"the page's text is built by scripts, and render_url is "
			"not available here");
		uk_record_error(rec, b.buf);
		uk_mcp_call_result(c, rec, b.buf, 1);
		uk_buf_release(&b);
		return;
	}
	if (total > 0 && off >= (size_t)total) {
		uk_buf_addf(&b, "offset %zu is past the end of the text "
				"(%lld characters): call again with a smaller "
				"offset, or 0",
		    off, total);
		uk_record_error(rec, b.buf);
		uk_mcp_call_result(c, rec, b.buf, 1);
		uk_buf_release(&b);
		return;
	}
	us_page_text(rec, left, &b);
	us_links_text(rec, &b);
	uk_mcp_call_result(c, rec, b.buf, 0);
	uk_buf_release(&b);
}

/* detect_urls and detect_and_fetch: the URLs of one text. */

struct found {
	const char *text;
	yajl_val list;
	struct uk_strset seen;
	long max;
};

static int
on_url(void *ctx, const char *s, size_t start, size_t end)
{
	struct found *f = ctx;
	struct uk_url u;
	yajl_val rec;
	char *url;

	(void)s;
	if (f->max && (long)f->list->u.array.len >= f->max)
		return 1;
	if (!uk_strset_add(&f->seen, f->text + start, end - start))
		return 0;
	url = uk_util_xmemdup(f->text + start, end - start);
	uk_url_classify(url, &u);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", url);
	uk_url_to_record(&u, rec);
	uk_json_set_int(rec, "start", (long long)start);
	uk_json_set_int(rec, "end", (long long)end);
	uk_json_set_int(rec, "message", 1);
	if (uk_json_get(rec, "github")) {
		/* github last, after the offsets, as urldetect writes it. */
		yajl_val gh = uk_json_copy(uk_json_get(rec, "github"));

		uk_json_del(rec, "github");
		uk_json_set(rec, "github", gh);
	}
	uk_json_push(f->list, rec);
	uk_url_release(&u);
	free(url);
	return 0;
}

/* The url records of text (every URL once, at most max; 0: all). */
yajl_val
us_detect(const char *text, size_t len, long max)
{
	struct found f = { NULL, NULL, UK_STRSET_INIT, 0 };
	struct uk_detect d;

	f.text = text;
	f.list = uk_json_array();
	f.max = max;
	uk_detect_init(&d);
	uk_detect_scan(&d, text, 0, len, 1, on_url, &f);
	uk_strset_release(&f.seen);
	return f.list;
}

void
us_tool_detect_urls(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "text", 's', 1, 0, 0 },
		{ "max", 'i', 0, 0, 10000 },
		{ NULL, 0, 0, 0, 0 },
	};
	yajl_val list, res;
	const char *text;
	size_t len;

	(void)session;
	if (us_args_check(c, args, spec))
		return;
	text = uk_json_get_strn(args, "text", &len);
	if (len > US_MAX_TEXT) {
		uk_mcp_call_error(c, "the text is over %lu bytes", US_MAX_TEXT);
		return;
	}
	list = us_detect(text, len, (long)us_arg_int(args, "max", 0));
	res = uk_json_object();
	uk_json_set_int(res, "count", (long long)list->u.array.len);
	uk_json_set(res, "urls", list);
	/* Empty: what to do next, not an empty list. */
	uk_mcp_call_result(c, res,
	    list->u.array.len ? NULL :
				"(no http or https URLs in the text: "
				"fetch_url takes a URL as it is)",
	    0);
}

int
us_selectors_arg(struct uk_mcp_call *c, yajl_val args, const char *name,
    const char **list, size_t *n)
{
	yajl_val v = uk_json_get(args, name);
	struct uk_extract_select *sel;
	struct uk_err err;
	size_t k, count;

	*n = 0;
	if (!v)
		return 0;
	if (!YAJL_IS_STRING(v) && !YAJL_IS_ARRAY(v)) {
		uk_mcp_call_error(c,
		    "argument '%s' is not a string or an array of "
		    "strings",
		    name);
		return -1;
	}
	count = YAJL_IS_STRING(v) ? 1 : v->u.array.len;
	if (count > UK_EXTRACT_SELECT_MAXLIST) {
		uk_mcp_call_error(c, "argument '%s' has more than %d selectors",
		    name, UK_EXTRACT_SELECT_MAXLIST);
		return -1;
	}
	for (k = 0; k < count; k++) {
		yajl_val e = YAJL_IS_STRING(v) ? v : v->u.array.values[k];

		if (!YAJL_IS_STRING(e) ||
		    uk_json_strlen(e) != strlen(e->u.string)) {
			uk_mcp_call_error(c,
			    "argument '%s' is not a string or an "
			    "array of strings",
			    name);
			return -1;
		}
		if (uk_extract_select_compile(e->u.string, &sel, &err) < 0) {
			uk_mcp_call_error(c, "%s '%s': %s", name, e->u.string,
			    err.msg);
			return -1;
		}
		uk_extract_select_free(sel);
		list[(*n)++] = e->u.string;
	}
	return 0;
}

void
us_tool_fetch_url(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "url", 's', 1, 0, 0 },
		{ "use_cache", 'b', 0, 0, 0 },
		{ "summarize", 'b', 0, 0, 0 },
		{ "summary_type", 's', 0, 0, 0 },
		{ "hint", 's', 0, 0, 0 },
		{ "format", 's', 0, 0, 0 },
		{ "select", 'S', 0, 0, 0 }, /* string or array: us_selectors_arg */
		{ "remove", 'S', 0, 0, 0 },
		{ "whole", 'b', 0, 0, 0 },
		{ "explain", 'b', 0, 0, 0 },
		{ "max_tokens", 'i', 0, 100, US_MAX_TOKENS_MAX },
		{ "offset", 'i', 0, 0, 1LL << 40 },
		{ "timeout", 'i', 0, 1, 3600 },
		{ "query", 's', 0, 0, 0 },
		{ "links", 'b', 0, 0, 0 },
		{ NULL, 0, 0, 0, 0 },
	};
	struct us_fetch_req q = { 1, 1, NULL, NULL, 0, 0 };
	struct uk_extract_opts xo = UK_EXTRACT_OPTS_INIT;
	const char *sel[UK_EXTRACT_SELECT_MAXLIST];
	const char *rem[UK_EXTRACT_SELECT_MAXLIST];
	struct uk_err err;
	const char *url, *fmt, *st;
	yajl_val rec = NULL;
	int type = -1;

	if (us_args_check(c, args, spec))
		return;
	url = uk_json_get_str(args, "url");
	if (us_check_url(c, url))
		return;
	if ((fmt = uk_json_get_str(args, "format")) && strcmp(fmt, "text") &&
	    strcmp(fmt, "markdown")) {
		uk_mcp_call_error(c, "format is 'markdown' or 'text', not '%s'",
		    fmt);
		return;
	}
	if ((st = uk_json_get_str(args, "summary_type")) &&
	    (type = uk_summary_type_parse(st)) < 0) {
		uk_mcp_call_error(c, "unknown summary_type '%s'", st);
		return;
	}
	if (us_selectors_arg(c, args, "select", sel, &xo.nselect) ||
	    us_selectors_arg(c, args, "remove", rem, &xo.nremove))
		return;
	xo.select = sel;
	xo.remove = rem;
	xo.whole = us_arg_bool(args, "whole", 0);
	xo.explain = us_arg_bool(args, "explain", 0);
	if (xo.nselect || xo.nremove || xo.whole || xo.explain)
		q.overrides = &xo;
	q.use_cache = us_arg_bool(args, "use_cache", 1);
	q.timeout = (double)us_arg_int(args, "timeout", 0);
	q.links = us_arg_bool(args, "links", 0);
	q.markdown = !fmt || !strcmp(fmt, "markdown");
	if (us_fetch_urls(c, &q, &url, 1, &rec) < 0 ||
	    (us_arg_bool(args, "summarize", 0) &&
		us_summarize(c, rec, type, uk_json_get_str(args, "hint")) <
		    0)) {
		uk_json_free(rec);
		uk_mcp_call_error(c, "cancelled");
		return;
	}
	/* explain: the records in the result, not in the session. */
	if (xo.explain) {
		yajl_val ex = uk_json_get(rec, "explain");

		ex = ex ? uk_json_copy(ex) : uk_json_array();
		uk_json_del(rec, "explain");
		if (us_fetched_add(session, rec, &err))
			uk_mcp_call_log(c, "warning", "session: %s", err.msg);
		uk_json_set(rec, "explain", ex);
	} else if (us_fetched_add(session, rec, &err)) {
		uk_mcp_call_log(c, "warning", "session: %s", err.msg);
	}
	us_answer_page(c, rec, args, 0);
}

/* Progress of detect_and_fetch: one notification per URL done. */
static void
each_done(struct uk_mcp_call *c, size_t ndone, size_t n, const char *url)
{
	uk_mcp_call_progress(c, (double)ndone, (double)n, url);
}

/* The text block of detect_and_fetch: each record's page, or error. */
static void
results_text(yajl_val list, const size_t *left, struct uk_buf *b)
{
	size_t i;

	for (i = 0; i < list->u.array.len; i++) {
		yajl_val r = list->u.array.values[i];
		const char *e = uk_json_get_str(r, "error");

		if (i)
			uk_buf_addstr(b, UK_SUMMARY_SEPARATOR);
		if (e) {
			uk_buf_addf(b, "# %s\n\n(error: ",
			    uk_json_get_str(r, "url"));
			us_error_hint(e, 0, b);
			uk_buf_addstr(b, ")");
		} else
			us_page_text(r, left[i], b);
	}
	if (!list->u.array.len)
		uk_buf_addstr(b, "(no http or https URLs in the text: pass a "
		    "URL to fetch_url)");
}

void
us_tool_detect_and_fetch(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "text", 's', 1, 0, 0 },
		{ "use_cache", 'b', 0, 0, 0 },
		{ "summarize", 'b', 0, 0, 0 },
		{ "max_tokens", 'i', 0, 100, US_MAX_TOKENS_MAX },
		{ NULL, 0, 0, 0, 0 },
	};
	struct us_fetch_req q = { 1, 1, each_done, NULL, 0, 0 };
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val found, list = NULL, res, *recs;
	const char **urls;
	size_t len, i, n, nf, *left, budget, failed = 0;
	const char *text;

	if (us_args_check(c, args, spec))
		return;
	text = uk_json_get_strn(args, "text", &len);
	if (len > US_MAX_TEXT) {
		uk_mcp_call_error(c, "the text is over %lu bytes", US_MAX_TEXT);
		return;
	}
	q.use_cache = us_arg_bool(args, "use_cache", 1);
	found = us_detect(text, len, 0);
	n = found->u.array.len;
	nf = n < US_PER_MESSAGE ? n : US_PER_MESSAGE;
	urls = uk_util_xcalloc(n + 1, sizeof(*urls));
	recs = uk_util_xcalloc(n + 1, sizeof(*recs));
	left = uk_util_xcalloc(n + 1, sizeof(*left));
	for (i = 0; i < nf; i++)
		urls[i] = uk_json_get_str(found->u.array.values[i], "url");
	if (us_fetch_urls(c, &q, urls, nf, recs) < 0)
		goto cancelled;
	budget = (size_t)us_arg_int(args, "max_tokens", US_TEXT_TOKENS_DEFAULT);
	budget = nf ? budget / nf : budget;
	list = uk_json_array();
	for (i = 0; i < n; i++) {
		if (i >= nf) {
			/* Over the per-message limit: said, not fetched. */
			recs[i] = uk_json_object();
			uk_json_set_str(recs[i], "url",
			    uk_json_get_str(found->u.array.values[i], "url"));
			uk_buf_addf(&b, "over the limit of %d URLs per message",
			    US_PER_MESSAGE);
			uk_record_error(recs[i], b.buf);
			uk_json_set_bool(recs[i], "skipped", 1);
			uk_buf_setlen(&b, 0);
		} else {
			if (us_arg_bool(args, "summarize", 0) &&
			    us_summarize(c, recs[i], -1, NULL) < 0)
				goto cancelled;
			if (us_fetched_add(session, recs[i], &err))
				uk_mcp_call_log(c, "warning", "session: %s",
				    err.msg);
		}
		if (uk_json_get(recs[i], "error"))
			failed++;
		else
			left[i] = us_page(recs[i], 0, budget < 100 ? 100 : budget);
		uk_json_push(list, recs[i]);
		recs[i] = NULL;
	}
	results_text(list, left, &b);
	res = uk_json_object();
	uk_json_set_int(res, "count", (long long)n);
	uk_json_set_int(res, "failed", (long long)failed);
	uk_json_set(res, "results", list);
	uk_mcp_call_result(c, res, b.buf, n && failed == n);
	goto out;
cancelled:
	for (i = 0; i < n; i++)
		uk_json_free(recs[i]);
	uk_json_free(list);
	uk_mcp_call_error(c, "cancelled");
out:
	uk_buf_release(&b);
	uk_json_free(found);
	free(urls);
	free(recs);
	free(left);
}
