/* SPDX-License-Identifier: MIT */
/*
 * urlcache session: the named sessions, listed, or one of them listed,
 * cleared, added to, read from or removed from.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cli.h"
#include "json.h"
#include "jsonl.h"
#include "session.h"
#include "util.h"
#include "urlcache.h"

#include "banned.h"

/* session NAME add: the URLs' cache entries, or records on stdin. */
static struct uk_session *cur;

static void
session_add_url(const char *url)
{
	struct uk_err err;
	yajl_val rec;
	int r;

	r = uk_cache_get(&cache, url, 0, &rec, NULL, &err);
	if (r < 0) {
		lib_error(&err);
		return;
	}
	if (r == 0) {
		emit_missing(url, "not in the cache");
		return;
	}
	if (uk_session_add(cur, rec, &err))
		lib_error(&err);
	uk_json_free(rec);
}

static void
session_add_stdin(void)
{
	struct uk_jsonl_policy p;
	struct uk_jsonl_in in;
	struct uk_err err;
	yajl_val rec;
	int r;

	if (uk_jsonl_open(&in, "-", &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	/* A session keeps failures too: they are its records. */
	policy_init(&p, UK_JSONL_TAKE_FAILED, NULL);
	while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
		if (uk_session_add(cur, rec, &err)) {
			if (err.code == UK_EXIT_FATAL)
				uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
			uk_jsonl_out_error(&out, in.name, in.lineno,
			    err.msg);
		}
		uk_json_free(rec);
	}
	if (r < 0)
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_close(&in);
}

static void
session_get_one(const char *url)
{
	emit_cached(url, cur, 0);
}

static void
session_remove_one(const char *url)
{
	struct uk_err err;
	yajl_val v;
	int r;

	if ((r = uk_session_remove(cur, url, &err)) < 0) {
		lib_error(&err);
		return;
	}
	v = uk_json_object();
	uk_json_set_str(v, "url", url);
	uk_json_set_bool(v, "found", r);
	emit(v);
	uk_json_free(v);
}

/* urlcache session: one record per session. */
static int
session_list_one(void *ctx, const char *name)
{
	struct uk_session_stat st;
	struct uk_session s;
	struct uk_err err;
	char when[40];
	yajl_val v;

	(void)ctx;
	if (uk_session_open(&s, &cache, name, &err))
		return 0; /* uk_session_walk gives valid names only */
	if (uk_session_stat(&s, &st, &err)) {
		lib_error(&err);
		uk_session_release(&s);
		return 0;
	}
	if (st.deleted) {
		/* Cleared through another directory: no session, as
		 * "session NAME list" says. */
		uk_session_release(&s);
		return 0;
	}
	v = uk_json_object();
	uk_json_set_str(v, "session", name);
	uk_json_set_int(v, "records", st.records);
	uk_json_set_int(v, "bytes", st.bytes);
	uk_util_time_fmt(st.changed, when, sizeof(when));
	uk_json_set_str(v, "changed_at", when);
	uk_json_set_bool(v, "keep", st.keep);
	uk_json_set_bool(v, "expired", st.expired);
	uk_json_set_bool(v, "store", st.store);
	emit(v);
	uk_json_free(v);
	uk_session_release(&s);
	return 0;
}

int
cmd_session(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache session", U SYN_SESSION,
		"List the sessions (no name), or list, clear, add to, get "
		"from a session.\n"
		"\n"
		"      --keep                keep the session past the time to "
		"live\n" OPT_O OPT_TAIL };
	static const struct option lo[] = {
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "output", required_argument, NULL, 'o' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_jsonl_src in;
	struct uk_session s;
	struct uk_err err;
	const char *verb, *output = NULL;
	yajl_val list, v;
	size_t i;
	long n;
	int keep = 0, r;

	uk_cli_subcommand("session");
	out_opts(&c, argc, argv, lo, OPT_KEEP, &keep, &output);
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		if (keep)
			uk_cli_usage(&c, "--keep needs a session name");
		start(output);
		if (uk_session_walk(&cache, session_list_one, NULL, &err))
			lib_error(&err);
		return 0;
	}
	if (argc < 2)
		uk_cli_usage(&c, "'%s': list, add, get, remove or clear "
				 "expected after the name",
		    argv[0]);
	verb = argv[1];
	if (!((!strcmp(verb, "list") || !strcmp(verb, "clear")) && argc == 2) &&
	    strcmp(verb, "add") &&
	    !((!strcmp(verb, "get") || !strcmp(verb, "remove")) && argc > 2))
		uk_cli_usage(&c, "bad use of '%s'", verb);
	session_name_check(&c, argv[0]);
	start(output);
	session_open(&c, &s, argv[0]);
	cur = &s;
	urls_init(&in);
	for (i = 2; i < (size_t)argc; i++)
		uk_jsonl_src_add(&in, argv[i], UK_JSONL_SRC_URL);
	if (strcmp(verb, "add") && strcmp(verb, "clear")) {
		/* Reading or removing from a session that is not there is
		 * a mistake to say (a name mistyped), not an empty answer. */
		if ((r = uk_session_exists(&s, &err)) <= 0) {
			if (r < 0)
				lib_error(&err);
			else
				uk_util_warn("no session '%s'", s.name);
			uk_util_status_set(UK_EXIT_FAIL);
			uk_session_release(&s);
			uk_jsonl_src_release(&in);
			return 0;
		}
	}
	if (!strcmp(verb, "list")) {
		if (uk_session_list(&s, &list, &err) == 0) {
			for (i = 0; i < list->u.array.len; i++)
				emit(list->u.array.values[i]);
			uk_json_free(list);
		} else {
			lib_error(&err);
		}
	} else if (!strcmp(verb, "clear")) {
		/* The session goes, its mark too (unless --keep again). */
		if ((n = uk_session_delete(&s, &err)) < 0) {
			lib_error(&err);
		} else {
			v = uk_json_object();
			uk_json_set_int(v, "removed", n);
			emit(v);
			uk_json_free(v);
		}
	} else if (!strcmp(verb, "add") && argc == 2) {
		session_add_stdin();
	} else if (!strcmp(verb, "add")) {
		urls_run(&in, session_add_url);
	} else if (!strcmp(verb, "get")) {
		urls_run(&in, session_get_one);
	} else {
		urls_run(&in, session_remove_one);
	}
	if (keep && uk_session_keep(&s, &err))
		lib_error(&err);
	uk_session_release(&s);
	uk_jsonl_src_release(&in);
	return 0;
}
