/* SPDX-License-Identifier: MIT */
/* urlcache's upkeep of the cache: cleanup, list, stats and path. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
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

int
cmd_cleanup(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "fast", no_argument, NULL, 'f' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_cache_cleanup o;
	struct uk_err err;
	yajl_val v;
	long n;
	int c, verbose = 0;

	memset(&o, 0, sizeof(o));
	while ((c = getopt_long(argc, argv, "+fm:nv", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.no_verify = 1;
			break;
		case 'm':
			if (uk_parse_size(optarg, &o.max_size) || !o.max_size) {
				uk_warn("-m: not a size: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'n':
			o.dry_run = verbose = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc)
		usage(UK_EXIT_USAGE);
	o.fn = cleanup_report;
	o.ctx = &verbose;
	n = uk_cache_cleanup_opt(&cache, &o, &err);
	if (n < 0 && o.failed == 0)
		lib_error(&err); /* could not even walk */
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

int
cmd_list(int argc, char **argv)
{
	struct uk_err err;

	(void)argv;
	if (argc > 1)
		usage(UK_EXIT_USAGE);
	if (uk_cache_walk(&cache, list_one, NULL, &err) < 0)
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
	struct stats s;
	struct uk_err err;
	char when[40];
	yajl_val v;

	(void)argv;
	if (argc > 1)
		usage(UK_EXIT_USAGE);
	memset(&s, 0, sizeof(s));
	if (uk_cache_walk(&cache, stats_one, &s, &err) < 0) {
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
	char *p;

	if (argc > 2)
		usage(UK_EXIT_USAGE);
	if (argc == 2) {
		p = uk_cache_path(&cache, argv[1]);
		uk_jsonl_out_raw(&out, p, strlen(p));
		free(p);
	} else {
		uk_jsonl_out_raw(&out, cache.dir, strlen(cache.dir));
	}
	uk_jsonl_out_raw(&out, "\n", 1);
	return 0;
}
