/* SPDX-License-Identifier: MIT */
/* urlcache's upkeep of the cache: clear, cleanup, list, stats and path. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "cache_remote.h"
#include "cache_stats.h"
#include "cli.h"
#include "session.h"
#include "json.h"
#include "jsonl.h"
#include "record.h"
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
	case UK_CACHE_PACK:
		return "pack";
	default:
		return "other";
	}
}

/*
 * The URLs of the entries, by key, for cleanup -v: read before cleanup
 * runs, since it reports a file once it is gone.
 */
struct keyurl {
	char key[17];
	char *url;
};

struct urls {
	int verbose;
	struct keyurl *a;
	size_t n, alloc;
};

/* The url of the entry f (uk_cache_file_read leaves its recency as it
 * was), or NULL (the caller frees it). */
static char *
entry_url(const struct uk_cache_file *f)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val rec = NULL;
	const char *url;
	char *r = NULL, k[17];

	if (!uk_cache_file_read(f, &b) &&
	    (rec = uk_json_parse(b.buf, b.len, NULL)) &&
	    (url = uk_json_get_str(rec, "url"))) {
		uk_cache_key(url, k);
		if (!strcmp(k, f->key))
			r = uk_util_xstrdup(url);
	}
	uk_json_free(rec);
	uk_buf_release(&b);
	return r;
}

static int
url_one(void *ctx, const struct uk_cache_file *f)
{
	struct urls *u = ctx;
	char *url;

	if (f->kind != UK_CACHE_ENTRY || !(url = entry_url(f)))
		return 0;
	if (u->n == u->alloc) {
		u->alloc = u->alloc ? 2 * u->alloc : 256;
		u->a = uk_util_xrealloc(u->a, u->alloc * sizeof(*u->a));
	}
	memcpy(u->a[u->n].key, f->key, sizeof(f->key));
	u->a[u->n++].url = url;
	return 0;
}

static int
keyurl_cmp(const void *a, const void *b)
{
	return strcmp(((const struct keyurl *)a)->key,
	    ((const struct keyurl *)b)->key);
}

static void
cleanup_report(void *ctx, const struct uk_cache_file *f, const char *reason)
{
	struct urls *u = ctx;
	struct keyurl k, *hit;
	yajl_val v;

	if (!u->verbose)
		return;
	v = uk_json_object();
	uk_json_set_str(v, "path", f->path);
	uk_json_set_str(v, "key", f->key);
	/* Two URLs may share a key; the entry held one of them. */
	memcpy(k.key, f->key, sizeof(k.key));
	hit = f->kind == UK_CACHE_ENTRY && u->n ?
	    bsearch(&k, u->a, u->n, sizeof(*u->a), keyurl_cmp) :
	    NULL;
	if (hit)
		uk_json_set_str(v, "url", hit->url);
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
	s.local_only = 1; /* the store's copy expires there (session.h) */
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

/* Entries a cleanup removed count as evictions (cache_stats.h). */
static void
count_evictions(const struct uk_cache_clean *o)
{
	struct uk_cache_counts ev;
	struct uk_err err;

	if (o->dry_run || o->expired + o->corrupt + o->evicted == 0)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.evictions = (unsigned long)(o->expired + o->corrupt + o->evicted);
	if (uk_cache_stats_add(cache.dir, &ev, NULL, &err))
		lib_error(&err);
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
		"      --pack                pack small entries however few\n"
		"  -s, --max-size=SIZE       then evict the least recently used "
		"entries\n"
		"                            until the rest fit in SIZE (with a "
		"unit: 500M)\n"
		"  -v, --verbose             a record for each file removed, "
		"with its URL\n"
		"      --fast                do not read fresh entries to find "
		"corrupt ones\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "fast", no_argument, NULL, OPT_FAST },
		{ "max-size", required_argument, NULL, 's' },
		{ "pack", no_argument, NULL, OPT_PACK },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_cache_clean o;
	struct urls urls;
	struct expire x;
	struct uk_err err;
	const char *output = NULL;
	unsigned long long size;
	yajl_val v;
	long n;
	size_t i;
	int ch, verbose = 0;

	memset(&o, 0, sizeof(o));
	memset(&urls, 0, sizeof(urls));
	uk_cli_subcommand("cleanup");
	while ((ch = uk_cli_getopt(&c, argc, argv, "hno:s:v", lo)) != -1) {
		switch (ch) {
		case OPT_FAST:
			o.no_verify = 1;
			break;
		case OPT_PACK:
			o.pack = 1;
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
	urls.verbose = verbose;
	if (verbose && uk_cache_clean_walk(&cache, url_one, &urls, &err) >= 0 &&
	    urls.n)
		qsort(urls.a, urls.n, sizeof(*urls.a), keyurl_cmp);
	o.fn = cleanup_report;
	o.ctx = &urls;
	n = uk_cache_clean_run(&cache, &o, &err);
	for (i = 0; i < urls.n; i++)
		free(urls.a[i].url);
	free(urls.a);
	count_evictions(&o);
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
	if (o.packed)
		uk_json_set_int(v, "packed", o.packed);
	if (o.failed)
		uk_json_set_int(v, "failed", o.failed);
	if (o.dry_run)
		uk_json_set_bool(v, "dry_run", 1);
	emit(v);
	uk_json_free(v);
	if (o.failed) {
		if (n < 0)
			lib_error(&err);
		uk_util_warn("cannot remove %ld file%s: %s", o.failed,
		    o.failed == 1 ? "" : "s", strerror(o.fail_errno));
		uk_util_status_set(UK_EXIT_FAIL);
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
	r = uk_cache_file_load(f, &rec, NULL);
	if (r < 0)
		return 0; /* gone meanwhile */
	v = uk_json_object();
	if (r == 1)
		uk_json_set_str(v, "url", uk_json_get_str(rec, "url"));
	uk_json_set_str(v, "key", f->key);
	uk_util_time_fmt(f->mtime_ns, when, sizeof(when));
	uk_json_set_str(v, "cached_at", when);
	uk_util_time_fmt(f->atime_ns, when, sizeof(when));
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
	case UK_CACHE_PACK:
		break; /* its entries were counted */
	default:
		s->other++;
	}
	return 0;
}

/* A count of the stats record, for the table. */
static long long
num(yajl_val v, const char *key)
{
	long long n;

	return uk_json_get_int(v, key, &n) ? 0 : n;
}

/* "3 / 4 (75.00 %)": n of all, as ccache -s shows a hit rate. */
static void
rate(FILE *fp, const char *label, long long n, long long all)
{
	fprintf(fp, "%-22s%lld / %lld", label, n, all);
	if (all)
		fprintf(fp, " (%.2f %%)", 100.0 * (double)n / (double)all);
	fputc('\n', fp);
}

/*
 * The stats record as a table, for a terminal (as ccache -s prints):
 * the directory's entries, then the counters since zeroed_at, then each
 * remote store's.
 */
static void
stats_table(FILE *fp, yajl_val v)
{
	yajl_val rem = uk_json_get(v, "remote"), s;
	long long h = num(v, "hits"), m = num(v, "misses");
	size_t i;

	fprintf(fp, "%-22s%s\n", "Cache directory:", uk_json_get_str(v, "dir"));
	fprintf(fp, "%-22s%lld (%lld bytes), %lld expired\n", "Entries:",
	    num(v, "entries"), num(v, "bytes"), num(v, "expired"));
	fprintf(fp, "%-22s%s\n", "Counted since:",
	    uk_json_get_str(v, "zeroed_at") ? uk_json_get_str(v, "zeroed_at") :
					     "-");
	rate(fp, "Hits:", h, h + m);
	rate(fp, "Misses:", m, h + m);
	fprintf(fp, "%-22s%lld\n", "Stores:", num(v, "stores"));
	fprintf(fp, "%-22s%lld\n", "Evictions:", num(v, "evictions"));
	fprintf(fp, "%-22s%lld\n", "Errors:", num(v, "errors"));
	for (i = 0; rem && YAJL_IS_OBJECT(rem) && i < rem->u.object.len; i++) {
		s = rem->u.object.values[i];
		h = num(s, "hits");
		m = num(s, "misses");
		fprintf(fp, "Remote %s:\n", rem->u.object.keys[i]);
		rate(fp, "  Hits:", h, h + m);
		rate(fp, "  Misses:", m, h + m);
		fprintf(fp, "%-22s%lld\n", "  Stores:", num(s, "stores"));
		fprintf(fp, "%-22s%lld\n", "  Errors:", num(s, "errors"));
		fprintf(fp, "%-22s%lld\n", "  Corrupt:", num(s, "corrupt"));
	}
	fflush(fp);
}

int
cmd_stats(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache stats",
		U SYN_STATS,
		"Write one record about the cache: entries, bytes, expired, "
		"oldest, newest,\n"
		"and the counters since they were zeroed (a table on a "
		"terminal).\n"
		"\n" OPT_O
		"      --zero                zero the counters (after "
		"showing them)\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "zero", no_argument, NULL, OPT_ZERO },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct stats s;
	struct uk_err err;
	char when[40];
	yajl_val v, counts = NULL, x;
	size_t i;
	int ch, zero = 0;

	uk_cli_subcommand("stats");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:", lo)) != -1) {
		if (ch == 'o')
			output = optarg;
		else if (ch == OPT_ZERO)
			zero = 1;
		else
			uk_cli_usage(&c, NULL);
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	opt.quiet_messages = opt.quiet;
	start(output);
	memset(&s, 0, sizeof(s));
	if (uk_cache_clean_walk(&cache, stats_one, &s, &err) < 0) {
		lib_error(&err);
		return 0;
	}
	if (zero ? uk_cache_stats_zero(cache.dir, &counts, &err) :
		   uk_cache_stats_read(cache.dir, &counts, &err)) {
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
		uk_util_time_fmt(s.oldest, when, sizeof(when));
		uk_json_set_str(v, "oldest", when);
		uk_util_time_fmt(s.newest, when, sizeof(when));
		uk_json_set_str(v, "newest", when);
	} else {
		uk_json_set(v, "oldest", uk_json_null());
		uk_json_set(v, "newest", uk_json_null());
	}
	/* The counters, as cache_stats.h keeps them. */
	for (i = 0; i < counts->u.object.len; i++) {
		x = counts->u.object.values[i];
		counts->u.object.values[i] = uk_json_null();
		uk_json_set(v, counts->u.object.keys[i], x);
	}
	uk_json_free(counts);
	if (uk_jsonl_output == UK_JSONL_AUTO && isatty(fileno(out.fp))) {
		uk_jsonl_out_flush(&out);
		stats_table(out.fp, v);
	} else {
		uk_jsonl_out_record(&out, v);
	}
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
		p = uk_cache_where(&cache, argv[optind]);
		uk_jsonl_out_raw(&out, p, strlen(p));
		free(p);
	} else {
		uk_jsonl_out_raw(&out, cache.dir, strlen(cache.dir));
	}
	uk_jsonl_out_raw(&out, "\n", 1);
	return 0;
}

/*
 * clear --remote's part: every writable store that can list its entries
 * cleared, one object per store in "remote".
 */
static void
clear_remote(yajl_val v)
{
	yajl_val a = uk_json_array(), o;
	const char *name, *why;
	size_t i;
	long n;

	for (i = 0; (name = uk_cache_remote_store(cache.remote, i, NULL));
	     i++) {
		o = uk_json_object();
		uk_json_set_str(o, "store", name);
		if ((n = uk_cache_remote_clear(cache.remote, i, &why)) >= 0) {
			uk_json_set_int(o, "removed", n);
		} else if (why && !strncmp(why, "read-only", 9)) {
			/* Not a failure: the store is not ours to clear. */
			uk_json_set_str(o, "left", why);
		} else {
			uk_record_error(o, why ? why : "failed");
			if (!opt.quiet_messages)
				uk_util_warn("cache remote '%s': %s", name,
				    why ? why : "failed");
			uk_util_status_set(UK_EXIT_FAIL);
		}
		uk_json_push(a, o);
	}
	uk_json_set(v, "remote", a);
}

/* clear: every entry deleted (and -S's session emptied; with --remote,
 * the remote stores' too). */
int
cmd_clear(int argc, char **argv)
{
	enum { OPT_REMOTE = UK_OPT_FIRST };
	static const struct uk_cli c = { "urlcache clear", U SYN_CLEAR,
		"Delete every entry of the cache and write {\"removed\":N}.\n"
		"\n" OPT_O
		"      --remote              clear the remote stores too (read-only\n"
		"                            ones are left alone)\n"
		"  -S, --session=NAME        empty session NAME too\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "remote", no_argument, NULL, OPT_REMOTE },
		{ "session", required_argument, NULL, 'S' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_session s;
	struct uk_err err;
	const char *sname = NULL, *output = NULL;
	long n, ns = 0;
	yajl_val v;
	int ch, remote = 0;

	uk_cli_subcommand("clear");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:S:", lo)) != -1) {
		if (ch == 'S')
			sname = optarg;
		else if (ch == 'o')
			output = optarg;
		else if (ch == OPT_REMOTE)
			remote = 1;
		else
			uk_cli_usage(&c, NULL);
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	session_name_check(&c, sname);
	start(output);
	/* Asked for, so a run without stores is a mistake, not a no-op. */
	if (remote && !uk_cache_remote_count(cache.remote))
		uk_cli_usage(&c, "--remote: no remote store (URLKIT_CACHE_REMOTE "
			     "or --cache-remote)");
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
	if (remote)
		clear_remote(v);
	emit(v);
	uk_json_free(v);
	return 0;
}
