/* SPDX-License-Identifier: MIT */
/*
 * urlserve: the tools of the fetched set and the cache (get_url_content,
 * get_fetched_urls, remove_fetched_url, clear_fetched,
 * invalidate_url_cache, clear_url_cache, format_url_context).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "json.h"
#include "mcp.h"
#include "record.h"
#include "summary.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "util.h"
#include "banned.h"

static const struct us_arg url_only[] = {
	{ "url", 's', 1, 0, 0 },
	{ NULL, 0, 0, 0, 0 },
};
static const struct us_arg no_args[] = {
	{ NULL, 0, 0, 0, 0 },
};

/*
 * get_url_content's lookup: the fetched set's record of url, else the
 * cache's fresh entry ("cached": true), else an error record.  NULL with
 * an error result when the session cannot be read.
 */
static yajl_val
lookup(struct uk_mcp_call *c, struct us_session *s, const char *url)
{
	struct uk_err err;
	yajl_val rec = NULL;
	int r;

	if ((r = us_fetched_get(s, url, &rec, &err)) < 0) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return NULL;
	}
	if (r)
		return rec;
	r = uk_cache_get(&us_srv.cache, url, 0, &rec, NULL, &err);
	if (r < 0) {
		uk_mcp_call_error(c, "cache: %s", err.msg);
		return NULL;
	}
	if (r) {
		uk_json_set_bool(rec, "cached", 1);
		return rec;
	}
	rec = uk_json_object();
	uk_json_set_str(rec, "url", url);
	uk_record_error(rec,
	    "not fetched: neither in the fetched set nor in the cache; "
	    "call fetch_url with this URL");
	return rec;
}

void
us_tool_get_url_content(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "url", 's', 1, 0, 0 },
		{ "max_tokens", 'i', 0, 100, US_MAX_TOKENS_MAX },
		{ "offset", 'i', 0, 0, 1LL << 40 },
		{ "query", 's', 0, 0, 0 },
		{ NULL, 0, 0, 0, 0 },
	};
	yajl_val rec;

	if (us_args_check(c, args, spec))
		return;
	if ((rec = lookup(c, session, uk_json_get_str(args, "url"))))
		us_answer_page(c, rec, args, 0);
}

/* A record as get_fetched_urls lists it: its texts' lengths, not them. */
static void
outline(yajl_val rec)
{
	static const char *const texts[] = { "content", "readme", "symbol_map",
		"summary", NULL };
	struct uk_buf key = UK_BUF_INIT;
	yajl_val v;
	int i;

	for (i = 0; texts[i]; i++) {
		if (!(v = uk_json_get(rec, texts[i])) || !YAJL_IS_STRING(v))
			continue;
		uk_buf_addf(&key, "%s_length", texts[i]);
		uk_json_set_int(rec, key.buf,
		    (long long)uk_buf_utf8_chars(v->u.string,
			uk_json_strlen(v)));
		uk_json_del(rec, texts[i]);
		uk_buf_setlen(&key, 0);
	}
	uk_buf_release(&key);
}

void
us_tool_get_fetched_urls(struct uk_mcp_call *c, yajl_val args, void *session)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val list, res;
	size_t i;

	if (us_args_check(c, args, no_args))
		return;
	if (us_fetched_list(session, &list, &err)) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	for (i = 0; i < list->u.array.len; i++) {
		yajl_val r = list->u.array.values[i];
		const char *t = uk_json_get_str(r, "title");
		const char *e = uk_json_get_str(r, "error");

		outline(r);
		uk_buf_addstr(&b, uk_json_get_str(r, "url"));
		if (t && *t)
			uk_buf_addf(&b, " %s", t);
		if (e) {
			uk_buf_addstr(&b, " (error: ");
			us_error_hint(e, 0, &b);
			uk_buf_addch(&b, ')');
		}
		uk_buf_addch(&b, '\n');
	}
	if (!list->u.array.len)
		uk_buf_addstr(&b, "(no URL fetched yet: call fetch_url)");
	res = uk_json_object();
	uk_json_set_int(res, "count", (long long)list->u.array.len);
	uk_json_set(res, "urls", list);
	uk_mcp_call_result(c, res, b.buf, 0);
	uk_buf_release(&b);
}

void
us_tool_remove_fetched_url(struct uk_mcp_call *c, yajl_val args,
    void *session)
{
	struct uk_err err;
	const char *url;
	yajl_val res;
	int r;

	if (us_args_check(c, args, url_only))
		return;
	url = uk_json_get_str(args, "url");
	if ((r = us_fetched_remove(session, url, &err)) < 0) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	res = uk_json_object();
	uk_json_set_str(res, "url", url);
	uk_json_set_bool(res, "removed", r);
	uk_mcp_call_result(c, res, NULL, 0);
}

void
us_tool_clear_fetched(struct uk_mcp_call *c, yajl_val args, void *session)
{
	struct uk_err err;
	yajl_val res;
	long n;

	if (us_args_check(c, args, no_args))
		return;
	if ((n = us_fetched_clear(session, &err)) < 0) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	res = uk_json_object();
	uk_json_set_int(res, "removed", n);
	uk_mcp_call_result(c, res, NULL, 0);
}

void
us_tool_invalidate_url_cache(struct uk_mcp_call *c, yajl_val args,
    void *session)
{
	struct uk_err err;
	const char *url;
	yajl_val res;
	int fr, cr;

	if (us_args_check(c, args, url_only))
		return;
	url = uk_json_get_str(args, "url");
	if ((fr = us_fetched_remove(session, url, &err)) < 0) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	if ((cr = uk_cache_invalidate(&us_srv.cache, url, &err)) < 0) {
		uk_mcp_call_error(c, "cache: %s", err.msg);
		return;
	}
	res = uk_json_object();
	uk_json_set_str(res, "url", url);
	uk_json_set_bool(res, "removed_from_cache", cr);
	uk_json_set_bool(res, "removed_from_fetched", fr);
	uk_mcp_call_result(c, res, NULL, 0);
}

void
us_tool_clear_url_cache(struct uk_mcp_call *c, yajl_val args, void *session)
{
	struct uk_err err;
	yajl_val res;
	long fn, cn;

	if (us_args_check(c, args, no_args))
		return;
	if ((fn = us_fetched_clear(session, &err)) < 0) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	if ((cn = uk_cache_clean_remove_all(&us_srv.cache, &err)) < 0) {
		uk_mcp_call_error(c, "cache: %s", err.msg);
		return;
	}
	res = uk_json_object();
	uk_json_set_int(res, "cache_removed", cn);
	uk_json_set_int(res, "fetched_removed", fn);
	uk_mcp_call_result(c, res, NULL, 0);
}

/* The strings of an array argument, NULL-terminated (borrowed). */
static const char **
strings(yajl_val a)
{
	size_t i, n = a ? a->u.array.len : 0;
	const char **v = uk_util_xcalloc(n + 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = a->u.array.values[i]->u.string;
	return v;
}

void
us_tool_format_url_context(struct uk_mcp_call *c, yajl_val args,
    void *session)
{
	static const struct us_arg spec[] = {
		{ "urls", 'a', 0, 0, 0 },
		{ "excluded", 'a', 0, 0, 0 },
		{ "max_length", 'i', 0, 100, 10000000 },
		{ NULL, 0, 0, 0, 0 },
	};
	struct uk_summary_context ctx;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val list, res, urls = uk_json_get(args, "urls");
	const char **excl = NULL;
	size_t i;

	if (us_args_check(c, args, spec))
		return;
	if (urls) {
		list = uk_json_array();
		for (i = 0; i < urls->u.array.len; i++) {
			yajl_val r = lookup(c, session,
			    urls->u.array.values[i]->u.string);

			if (!r) {
				uk_json_free(list);
				return;
			}
			uk_json_push(list, r);
		}
	} else if (us_fetched_list(session, &list, &err)) {
		uk_mcp_call_error(c, "session: %s", err.msg);
		return;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.excluded = excl = strings(uk_json_get(args, "excluded"));
	ctx.max_chars = (size_t)us_arg_int(args, "max_length", 0);
	uk_summary_format_context(
	    (const yajl_val *)list->u.array.values, list->u.array.len, &ctx,
	    &b);
	res = uk_json_object();
	uk_json_set(res, "context", uk_json_strn(b.buf, b.len));
	uk_json_set_int(res, "records", (long long)ctx.took);
	uk_json_set_int(res, "errors", (long long)ctx.errors);
	uk_json_set_int(res, "excluded", (long long)ctx.excluded_n);
	uk_json_set_int(res, "cut", (long long)ctx.cut);
	uk_json_set_int(res, "dropped", (long long)ctx.dropped);
	uk_mcp_call_result(c, res, b.len ? b.buf : "(no context: nothing fetched; call fetch_url first)",
	    0);
	uk_json_free(list);
	free(excl);
	uk_buf_release(&b);
}
