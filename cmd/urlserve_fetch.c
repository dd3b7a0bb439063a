/* SPDX-License-Identifier: MIT */
/* urlserve: the fetching, paging and summaries its tools share. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "extract_md.h"
#include "fetch.h"
#include "json.h"
#include "llm.h"
#include "mcp.h"
#include "query.h"
#include "record.h"
#include "slice.h"
#include "summary.h"
#include "tokens.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "util.h"
#include "banned.h"

static yajl_val
error_record(const char *url, const char *msg)
{
	yajl_val rec = uk_json_object();

	uk_json_set_str(rec, "url", url);
	uk_record_error(rec, msg);
	return rec;
}

/* Take the finished job's record into recs[i]. */
static void
finish(struct uk_mcp_call *c, const struct us_fetch_req *q,
    struct uk_fetch_job *j, yajl_val *rec, size_t *ndone, size_t n)
{
	const char *url;

	*rec = j->rec;
	j->rec = NULL;
	uk_fetch_job_release(j);
	(*ndone)++;
	url = uk_json_get_str(*rec, "url");
	if (q->done)
		q->done(c, *ndone, n, url ? url : "");
}

int
us_robots_ok(struct uk_mcp_call *c, const char *url, double timeout)
{
	struct uk_buf why = UK_BUF_INIT, hint = UK_BUF_INIT;
	int ok;

	if (us_srv.ignore_robots)
		return 1;
	ok = uk_robots_may_fetch(&us_srv.robots, url, timeout,
	    uk_mcp_call_cancel_fd(c), &why);
	if (ok == 0) {
		us_error_hint(why.buf, 0, &hint);
		uk_mcp_call_error(c, "%s", hint.buf);
	}
	uk_buf_release(&why);
	uk_buf_release(&hint);
	return ok;
}

/*
 * recs[i] set to an error record for each URL robots.txt refuses, NULL
 * for the others: 0, or -1 when cancelled (recs all NULL).
 */
static int
robots_check(struct uk_mcp_call *c, const struct us_fetch_req *q,
    const char *const *urls, size_t n, yajl_val *recs)
{
	struct uk_buf why = UK_BUF_INIT;
	size_t i;
	int ok = 1;

	for (i = 0; i < n; i++)
		recs[i] = NULL;
	for (i = 0; i < n && !us_srv.ignore_robots; i++) {
		if (!uk_robots_applies(urls[i]))
			continue;
		ok = uk_robots_may_fetch(&us_srv.robots, urls[i], q->timeout,
		    uk_mcp_call_cancel_fd(c), &why);
		if (ok < 0)
			break;
		if (!ok)
			recs[i] = error_record(urls[i], why.buf);
	}
	uk_buf_release(&why);
	if (ok >= 0)
		return 0;
	for (i = 0; i < n; i++) {
		uk_json_free(recs[i]);
		recs[i] = NULL;
	}
	return -1;
}

int
us_fetch_urls(struct uk_mcp_call *c, const struct us_fetch_req *q,
    const char *const *urls, size_t n, yajl_val *recs)
{
	struct uk_fetch_job *jobs, *j;
	struct us_fetcher *fe;
	struct uk_err err;
	size_t i, ndone = 0;
	int ready = 0;

	if (robots_check(c, q, urls, n, recs))
		return -1;
	if (!(fe = us_fetcher_take(&err))) {
		for (i = 0; i < n; i++)
			if (!recs[i])
				recs[i] = error_record(urls[i], err.msg);
		return 0;
	}
	/* One call at a time has the fetcher: its options are the call's. */
	fe->f.o.refresh = !q->use_cache;
	fe->f.o.extract.format =
	    q->markdown ? UK_EXTRACT_MARKDOWN : UK_EXTRACT_TEXT;
	fe->f.o.extract.select = q->overrides ? q->overrides->select : NULL;
	fe->f.o.extract.nselect = q->overrides ? q->overrides->nselect : 0;
	fe->f.o.extract.remove = q->overrides ? q->overrides->remove : NULL;
	fe->f.o.extract.nremove = q->overrides ? q->overrides->nremove : 0;
	fe->f.o.extract.whole = q->overrides && q->overrides->whole;
	fe->f.o.extract.explain = q->overrides && q->overrides->explain;
	fe->f.o.extract.links_out = q->links;
	fe->f.http.o.timeout = q->timeout > 0 && q->timeout < us_srv.timeout ?
	    q->timeout : us_srv.timeout;
	jobs = uk_util_xcalloc(n ? n : 1, sizeof(*jobs));
	for (i = 0; i < n; i++) {
		if (recs[i]) { /* refused by robots.txt */
			ndone++;
			continue;
		}
		uk_fetch_start(&fe->f, &jobs[i], urls[i], NULL);
		if (jobs[i].done)
			finish(c, q, &jobs[i], &recs[i], &ndone, n);
	}
	while (ndone < n) {
		j = uk_fetch_wait(&fe->f, uk_mcp_call_cancel_fd(c), &ready);
		if (j) {
			finish(c, q, j, &recs[j - jobs], &ndone, n);
			continue;
		}
		if (ready || !uk_fetch_busy(&fe->f))
			break;
	}
	if (ndone < n) {
		/* Cancelled: the fetcher goes, and its transfers with it. */
		us_fetcher_put(fe, 1);
		for (i = 0; i < n; i++) {
			uk_fetch_job_release(&jobs[i]);
			uk_json_free(recs[i]);
			recs[i] = NULL;
		}
		free(jobs);
		return -1;
	}
	if (fe->f.cache_errors) {
		uk_mcp_call_log(c, "warning", "cache: %s", fe->f.cache_err.msg);
		fe->f.cache_errors = 0;
	}
	us_fetcher_put(fe, 0);
	free(jobs);
	return 0;
}

/* The slice of rec: lib/slice, the same code as urlfetch -T's. */
size_t
us_page(yajl_val rec, size_t offset, size_t max_tokens)
{
	const char *b = uk_json_get_str(rec, "summary_backend"), *s;
	struct uk_buf o = UK_BUF_INIT;
	long long next = 0, total = 0;
	char *full = NULL;
	size_t left, n = 0;

	/* An outline: made again without the sentences the slice shows. */
	if (b && !strcmp(b, "outline") &&
	    (s = uk_json_get_strn(rec, "content", &n)))
		full = uk_util_xmemdup(s, n);
	left = uk_slice_page(rec, offset, max_tokens);
	uk_record_hash(rec); /* of the slice the record holds */
	if (full) {
		uk_json_get_int(rec, "total_length", &total);
		if (uk_json_get_int(rec, "next_offset", &next) || next <= 0)
			next = total;
		if (uk_summary_offline_outline(full, n, offset, (size_t)next,
			&o) == 0)
			uk_json_set(rec, "summary", uk_json_strn(o.buf, o.len));
		free(full);
		uk_buf_release(&o);
	}
	return left;
}

static void
set_summary(yajl_val rec, const char *text, size_t len, int type,
    const char *reason, const char *backend)
{
	uk_json_set(rec, "summary", uk_json_strn(text, len));
	uk_json_set_str(rec, "summary_type",
	    uk_summary_type_name((enum uk_summary_type)type));
	uk_json_set_str(rec, "summary_reason", reason);
	uk_json_set_str(rec, "summary_backend", backend);
	uk_json_del(rec, "summary_error");
}

/*
 * The model's summary, as urlsum makes it: 1 done (set on rec), 0 failed
 * (msg says why), -1 cancelled.
 */
static int
ask_model(struct uk_mcp_call *c, yajl_val rec, int type, const char *hint,
    const char *reason, struct uk_buf *msg)
{
	struct uk_llm_opts lo;
	struct uk_llm l;
	struct uk_llm_req req, *r;
	struct uk_buf sys = UK_BUF_INIT, user = UK_BUF_INIT;
	struct uk_err err;
	const char *e, *url = uk_json_get_str(rec, "url");
	int ready = 0, ret = 0;

	uk_llm_opts_init(&lo);
	lo.url = getenv("URLKIT_LLM_URL");
	if ((e = getenv("URLKIT_LLM_MODEL")) && *e)
		lo.model = e;
	if (((e = getenv("URLKIT_LLM_KEY")) && *e) ||
	    ((e = getenv("OPENAI_API_KEY")) && *e))
		lo.key = e;
	if (uk_llm_init(&l, &lo, &err)) {
		uk_buf_addstr(msg, err.msg);
		return 0;
	}
	uk_buf_addstr(&sys,
	    uk_summary_prompt_builtin((enum uk_summary_type)type));
	if (hint && *hint) {
		uk_buf_addstr(&sys, "\n\nThe reader's request: ");
		uk_buf_addstr(&sys, hint);
	}
	uk_summary_assemble(rec, 0, &user);
	memset(&req, 0, sizeof(req));
	req.system = sys.buf;
	req.system_len = sys.len;
	req.user = user.buf;
	req.user_len = user.len;
	uk_llm_submit(&l, &req);
	while (!(r = uk_llm_wait(&l, uk_mcp_call_cancel_fd(c), -1, &ready)))
		if (ready) {
			ret = -1;
			break;
		}
	if (r && r->ok) {
		set_summary(rec, r->text, r->text_len, type, reason,
		    lo.model ? lo.model : r->model ? r->model : "llm");
		if (url && uk_cache_update_summary(&us_srv.cache, url, r->text,
			       r->text_len,
			       uk_summary_type_name((enum uk_summary_type)type),
			       &err) < 0)
			uk_mcp_call_log(c, "warning", "cache: '%s': %s", url,
			    err.msg);
		ret = 1;
	} else if (r) {
		uk_buf_addstr(msg, r->err.msg);
	}
	/* Releasing the engine stops a request still in flight. */
	uk_llm_release(&l);
	uk_llm_req_release(&req);
	uk_buf_release(&sys);
	uk_buf_release(&user);
	return ret;
}

int
us_summarize(struct uk_mcp_call *c, yajl_val rec, int type, const char *hint)
{
	struct uk_buf b = UK_BUF_INIT, msg = UK_BUF_INIT;
	char reason[128];
	const char *s, *t, *e;
	size_t n;
	int r = 0, asked = type;

	if (uk_json_get(rec, "error"))
		return 0;
	if (type < 0) {
		type = (int)uk_summary_select_record(rec, hint, reason,
		    sizeof(reason));
	} else {
		snprintf(reason, sizeof(reason), "summary_type given");
	}
	/* The entry's summary of that type (a cache hit carries it). */
	if ((s = uk_json_get_strn(rec, "summary", &n)) && n &&
	    (t = uk_json_get_str(rec, "summary_type")) &&
	    !strcmp(t, uk_summary_type_name((enum uk_summary_type)type))) {
		uk_json_set_str(rec, "summary_reason", reason);
		uk_json_set_str(rec, "summary_backend", "cache");
		return 0;
	}
	if ((e = getenv("URLKIT_LLM_URL")) && *e) {
		r = ask_model(c, rec, type, hint, reason, &msg);
		if (r != 0)
			goto out;
	}
	/*
	 * No model, or it failed: a page's outline, which us_page keeps from
	 * repeating the slice after it (the lead paragraphs, urlsum's
	 * fallback, are what the slice starts with); a type named other
	 * than BRIEF, or a repository's readme, gets that offline summary.
	 */
	if ((asked < 0 || asked == UK_SUMMARY_BRIEF) &&
	    !uk_json_get(rec, "readme") &&
	    (s = uk_json_get_strn(rec, "content", &n)) &&
	    uk_summary_offline_outline(s, n, 0, 0, &b) == 0) {
		set_summary(rec, b.buf, b.len, type, reason, "outline");
		if (msg.len)
			uk_json_set_str(rec, "summary_error", msg.buf);
	} else if (uk_summary_write_offline(rec, (enum uk_summary_type)type,
	    &b) == 0) {
		set_summary(rec, b.buf, b.len, type, reason, "offline");
		if (msg.len)
			uk_json_set_str(rec, "summary_error", msg.buf);
	} else {
		uk_json_set_str(rec, "summary_error",
		    msg.len ? msg.buf : "nothing to summarise");
	}
out:
	uk_buf_release(&b);
	uk_buf_release(&msg);
	return r < 0 ? -1 : 0;
}

/*
 * fetch_url's links: a compact list after the text, one "URL  TEXT" line
 * each (map_site's form, the fewest tokens), those in the page's main
 * text first, at most US_LINKS_TEXT_MAX (the result's links hold all).
 */
void
us_links_text(yajl_val rec, struct uk_buf *b)
{
	yajl_val l = uk_json_get(rec, "links"), v, ic;
	const char *u, *t;
	size_t i, n = 0, at;
	int pass, head;

	if (!l || !YAJL_IS_ARRAY(l))
		return;
	uk_buf_addf(b, "\n\n[%zu link%s%s]", l->u.array.len,
	    l->u.array.len == 1 ? "" : "s",
	    uk_json_get(rec, "links_truncated") ? ", more left out" : "");
	for (pass = 1; pass >= 0; pass--) {
		head = 0;
		for (i = 0; i < l->u.array.len; i++) {
			v = l->u.array.values[i];
			ic = uk_json_get(v, "in_content");
			if ((ic && YAJL_IS_TRUE(ic)) != pass ||
			    !(u = uk_json_get_str(v, "url")))
				continue;
			if (n == US_LINKS_TEXT_MAX)
				break;
			if (!head++)
				uk_buf_addstr(b, pass ? "\nIn the text:" :
				    "\nElsewhere (navigation, footer):");
			uk_buf_addf(b, "\n%s", u);
			if ((t = uk_json_get_str(v, "text")) && *t) {
				uk_buf_addstr(b, "  ");
				/* The page's words are shown text: no live HTML. */
				at = b->len;
				uk_buf_addstr(b, t);
				uk_extract_md_escape(b, at);
			}
			n++;
		}
	}
	if (n < l->u.array.len)
		uk_buf_addf(b, "\n(%zu more in the result's links)",
		    l->u.array.len - n);
}

/*
 * fetch_url's and get_url_content's query: rec's content (a page's)
 * becomes the sections that answer it (lib/query), within max_tokens,
 * with where each starts, so the model can read around one by offset.
 */
void
us_answer_query(struct uk_mcp_call *c, yajl_val rec, const char *query,
    size_t max_tokens)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val secs, s;
	const char *h;
	long long total = 0, off = 0;
	size_t i, len = 0;

	uk_query_record(rec, query, max_tokens);
	uk_record_hash(rec); /* of the sections the record holds */
	uk_json_get_int(rec, "total_length", &total);
	uk_json_get_strn(rec, "content", &len);
	us_page_text(rec, 0, &b);
	secs = uk_json_get(rec, "sections");
	if (secs && YAJL_IS_ARRAY(secs) &&
	    uk_buf_utf8_chars(uk_json_get_str(rec, "content"), len) <
		(size_t)total) {
		uk_buf_addf(&b, "\n\n[the sections of the page (%lld characters) "
				"that answer the query; \u2026 marks what was "
				"left out. To read on from one, call fetch_url "
				"with its offset:",
		    total);
		for (i = 0; i < secs->u.array.len; i++) {
			s = secs->u.array.values[i];
			h = uk_json_get_str(s, "heading");
			uk_json_get_int(s, "offset", &off);
			uk_buf_addf(&b, "%s %s at %lld", i ? ";" : "",
			    h && *h ? h : "(the start)", off);
		}
		uk_buf_addch(&b, ']');
	}
	us_links_text(rec, &b);
	uk_mcp_call_result(c, rec, b.buf, 0);
	uk_buf_release(&b);
}
