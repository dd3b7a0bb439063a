/* SPDX-License-Identifier: MIT */
/* urlcache's upkeep of the cache: clear, cleanup, list, stats and path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cache_clean.h"
#include "cli.h"
#include "session.h"
#include "json.h"
#include "jsonl.h"
#include "util.h"
#include "urlcache.h"

#include "banned.h"

static const char *
kind_name(const struct uk_cache_file *f)
{
	switch (f->kind) {
	case UK_CACHE_ENTRY:
		return "entry";
	case UK_CACHE_TEMP:
		return "temp";
	default:
		return "other";
	}
}

static void
cleanup_report(void *ctx, const struct uk_cache_file *f, const char *reason)
{
	int *verbose = ctx;
	yajl_val v;

	if (!*verbose)
		return;
	v = uk_json_object();
	uk_json_set_str(v, "path", f->path);
	uk_json_set_str(v, "key", f->key);
	uk_json_set_str(v, "kind", kind_name(f));
	uk_json_set_str(v, "reason", reason);
	uk_json_set_int(v, "size", f->size);
	emit(v);
	uk_json_free(v);
}

/* cleanup's walk of the sessions: expired ones go (not kept ones). */
struct expire {
	int dry_run, verbose;
	long removed;
};

static int
expire_one(void *ctx, const char *name)
{
	struct expire *x = ctx;
	struct uk_session_stat st;
	struct uk_session s;
	struct uk_err err;
	yajl_val v;

	if (uk_session_open(&s, &cache, name, &err))
		return 0;
	if (uk_session_stat(&s, &st, &err)) {
		lib_error(&err);
	} else if (st.expired) {
		if (!x->dry_run && uk_session_delete(&s, &err) < 0) {
			lib_error(&err);
		} else {
			x->removed++;
			if (x->verbose) {
				v = uk_json_object();
				uk_json_set_str(v, "path", s.dir);
				uk_json_set_str(v, "session", name);
				uk_json_set_str(v, "kind", "session");
				uk_json_set_str(v, "reason", "expired");
				uk_json_set_int(v, "size", st.bytes);
				emit(v);
				uk_json_free(v);
			}
		}
	}
	uk_session_release(&s);
	return 0;
}

int
cmd_cleanup(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache cleanup", U SYN_CLEANUP,
		"Delete expired, corrupt and temporary files, and expired "
		"sessions.\n"
		"\n"
		"  -n, --dry-run             remove nothing; say what would go\n"
		OPT_O
		"  -s, --max-size=SIZE       then evict the least recently used "
		"entries\n"
		"                            until the rest fit in SIZE (with a "
		"unit: 500M)\n"
		"  -v, --verbose             a record for each file removed\n"
		"      --fast                do not read fresh entries to find "
		"corrupt ones\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "fast", no_argument, NULL, OPT_FAST },
		{ "max-size", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_cache_clean o;
	struct expire x;
	struct uk_err err;
	const char *output = NULL;
	unsigned long long size;
	yajl_val v;
	long n;
	int ch, verbose = 0;

	memset(&o, 0, sizeof(o));
	uk_cli_subcommand("cleanup");
	while ((ch = uk_cli_getopt(&c, argc, argv, "hno:s:v", lo)) != -1) {
		switch (ch) {
		case OPT_FAST:
			o.no_verify = 1;
			break;
		case 's':
			/* A bare number is refused: "500" meant as
			 * megabytes would empty a cache. */
			if (uk_cli_size(optarg, &size) || !size)
				uk_cli_usage(&c,
				    "-s: not a size with a unit (B, K, M, G, "
				    "T): '%s'",
				    optarg);
			o.max_size = size;
			break;
		case 'n':
			o.dry_run = verbose = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	start(output);
	o.fn = cleanup_report;
	o.ctx = &verbose;
	n = uk_cache_clean_run(&cache, &o, &err);
	if (n < 0 && o.failed == 0)
		lib_error(&err); /* could not even walk */
	memset(&x, 0, sizeof(x));
	x.dry_run = o.dry_run;
	x.verbose = verbose;
	if (uk_session_walk(&cache, expire_one, &x, &err))
		lib_error(&err);
	v = uk_json_object();
	uk_json_set_int(v, o.dry_run ? "would_remove" : "removed",
	    o.expired + o.corrupt + o.temp + o.evicted);
	uk_json_set_int(v, "expired", o.expired);
	uk_json_set_int(v, "corrupt", o.corrupt);
	uk_json_set_int(v, "temp", o.temp);
	uk_json_set_int(v, "evicted", o.evicted);
	uk_json_set_int(v, "bytes_freed", (long long)o.bytes_freed);
	uk_json_set_int(v, "entries", o.entries_left);
	uk_json_set_int(v, "bytes", (long long)o.bytes_left);
	uk_json_set_int(v, "sessions_expired", x.removed);
	if (o.failed)
		uk_json_set_int(v, "failed", o.failed);
	if (o.dry_run)
		uk_json_set_bool(v, "dry_run", 1);
	emit(v);
	uk_json_free(v);
	if (o.failed) {
		if (n < 0)
			lib_error(&err);
		uk_warn("cannot remove %ld file%s: %s", o.failed,
		    o.failed == 1 ? "" : "s", strerror(o.fail_errno));
		uk_status_set(UK_EXIT_FAIL);
	}
	return 0;
}

static int
list_one(void *ctx, const struct uk_cache_file *f)
{
	char when[40];
	yajl_val v, rec = NULL;
	int r;

	(void)ctx;
	if (f->kind != UK_CACHE_ENTRY)
		return 0;
	r = uk_cache_load_at(f->dirfd, f->name, f->path, f->key, &rec, NULL);
	if (r < 0)
		return 0; /* gone meanwhile */
	v = uk_json_object();
	if (r == 1)
		uk_json_set_str(v, "url", uk_json_get_str(rec, "url"));
	uk_json_set_str(v, "key", f->key);
	uk_time_fmt(f->mtime_ns, when, sizeof(when));
	uk_json_set_str(v, "cached_at", when);
	uk_time_fmt(f->atime_ns, when, sizeof(when));
	uk_json_set_str(v, "used_at", when);
	uk_json_set_int(v, "size", f->size);
	uk_json_set_bool(v, "expired",
	    f->expired || (r == 1 && uk_cache_past_lifetime(rec)));
	if (r == 1 && uk_json_get_str(rec, "summary"))
		uk_json_set_bool(v, "summary", 1);
	if (r == 0)
		uk_json_set_bool(v, "corrupt", 1);
	uk_jsonl_out_record(&out, v);
	uk_json_free(v);
	uk_json_free(rec);
	return 0;
}

/* The options of list and stats: -o and the output's. */
static void
simple_opts(const struct uk_cli *c, const char *sub, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;

	uk_cli_subcommand(sub);
	out_opts(c, argc, argv, lo, 0, NULL, &output);
	if (optind != argc)
		uk_cli_usage(c, "unexpected operand '%s'", argv[optind]);
	/* -q: their output is what was asked for, so it quiets only the
	 * messages. */
	opt.quiet_messages = opt.quiet;
	start(output);
}

#define SIMPLE_HELP "\n" OPT_O OPT_TAIL

int
cmd_list(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache list",
		U SYN_LIST,
		"Write one record per cache entry (url, key, times, size, "
		"expired).\n" SIMPLE_HELP };
	struct uk_err err;

	simple_opts(&c, "list", argc, argv);
	if (uk_cache_clean_walk(&cache, list_one, NULL, &err) < 0)
		lib_error(&err);
	return 0;
}

struct stats {
	long entries, expired, temp, other;
	long long bytes, oldest, newest;
};

static int
stats_one(void *ctx, const struct uk_cache_file *f)
{
	struct stats *s = ctx;

	switch (f->kind) {
	case UK_CACHE_ENTRY:
		s->entries++;
		s->bytes += f->size;
		s->expired += f->expired;
		if (!s->oldest || f->mtime_ns < s->oldest)
			s->oldest = f->mtime_ns;
		if (f->mtime_ns > s->newest)
			s->newest = f->mtime_ns;
		break;
	case UK_CACHE_TEMP:
		s->temp++;
		break;
	default:
		s->other++;
	}
	return 0;
}

int
cmd_stats(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache stats",
		U SYN_STATS,
		"Write one record about the cache: entries, bytes, expired, "
		"oldest, newest.\n" SIMPLE_HELP };
	struct stats s;
	struct uk_err err;
	char when[40];
	yajl_val v;

	simple_opts(&c, "stats", argc, argv);
	memset(&s, 0, sizeof(s));
	if (uk_cache_clean_walk(&cache, stats_one, &s, &err) < 0) {
		lib_error(&err);
		return 0;
	}
	v = uk_json_object();
	uk_json_set_str(v, "dir", cache.dir);
	uk_json_set_int(v, "ttl", cache.ttl);
	uk_json_set_int(v, "entries", s.entries);
	uk_json_set_int(v, "bytes", s.bytes);
	uk_json_set_int(v, "expired", s.expired);
	uk_json_set_int(v, "temp", s.temp);
	if (s.other)
		uk_json_set_int(v, "other", s.other);
	if (s.entries) {
		uk_time_fmt(s.oldest, when, sizeof(when));
		uk_json_set_str(v, "oldest", when);
		uk_time_fmt(s.newest, when, sizeof(when));
		uk_json_set_str(v, "newest", when);
	} else {
		uk_json_set(v, "oldest", uk_json_null());
		uk_json_set(v, "newest", uk_json_null());
	}
	uk_jsonl_out_record(&out, v);
	uk_json_free(v);
	return 0;
}

int
cmd_path(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache path", U SYN_PATH,
		"Print the cache directory, or the file of a URL's entry.\n"
		"\n" OPT_END };
	static const struct option lo[] = {
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	char *p;
	int ch;

	uk_cli_subcommand("path");
	while ((ch = uk_cli_getopt(&c, argc, argv, "h", lo)) != -1)
		uk_cli_usage(&c, NULL);
	if (argc - optind > 1)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind + 1]);
	start(NULL);
	if (argc - optind == 1) {
		p = uk_cache_path(&cache, argv[optind]);
		uk_jsonl_out_raw(&out, p, strlen(p));
		free(p);
	} else {
		uk_jsonl_out_raw(&out, cache.dir, strlen(cache.dir));
	}
	uk_jsonl_out_raw(&out, "\n", 1);
	return 0;
}

/* clear: every entry deleted (and -S's session emptied). */
int
cmd_clear(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache clear", U SYN_CLEAR,
		"Delete every entry of the cache and write {\"removed\":N}.\n"
		"\n" OPT_O
		"  -S, --session=NAME        empty session NAME too\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "session", required_argument, NULL, 'S' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_session s;
	struct uk_err err;
	const char *sname = NULL, *output = NULL;
	long n, ns = 0;
	yajl_val v;
	int ch;

	uk_cli_subcommand("clear");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:S:", lo)) != -1) {
		if (ch == 'S')
			sname = optarg;
		else if (ch == 'o')
			output = optarg;
		else
			uk_cli_usage(&c, NULL);
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	session_name_check(&c, sname);
	start(output);
	if (sname)
		session_open(&c, &s, sname);
	if ((n = uk_cache_clean_remove_all(&cache, &err)) < 0)
		lib_error(&err);
	if (sname) {
		if ((ns = uk_session_remove_all(&s, &err)) < 0)
			lib_error(&err);
		uk_session_release(&s);
	}
	if (n < 0 || ns < 0)
		return 0;
	v = uk_json_object();
	uk_json_set_int(v, "removed", n);
	if (sname)
		uk_json_set_int(v, "session_removed", ns);
	emit(v);
	uk_json_free(v);
	return 0;
}
