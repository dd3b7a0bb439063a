/* SPDX-License-Identifier: MIT */
/* urlcache: the cache of content records and named sessions, for cron. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "json.h"
#include "jsonl.h"
#include "session.h"
#include "util.h"
#include "urlcache.h"

#include "banned.h"

static const char usage_text[] =
    "usage: urlcache [-q] [-d dir] [-t ttl] get [-s] [-S name] [url ...]\n"
    "       urlcache [-q] [-d dir] set [-p] [file ...]\n"
    "       urlcache [-q] [-d dir] invalidate [-S name] url ...\n"
    "       urlcache [-q] [-d dir] clear [-S name]\n"
    "       urlcache [-q] [-d dir] [-t ttl] cleanup [-fnv] [-m size]\n"
    "       urlcache [-d dir] [-t ttl] list\n"
    "       urlcache [-d dir] [-t ttl] stats\n"
    "       urlcache [-d dir] path [url]\n"
    "       urlcache [-q] [-d dir] session name list|clear\n"
    "       urlcache [-q] [-d dir] session name add [url ...]\n"
    "       urlcache [-q] [-d dir] session name get|remove url ...\n";

struct urlcache_opt opt = { NULL, -1, 0 };
struct uk_cache cache;
struct uk_jsonl_out out;

void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

void
lib_error(const struct uk_err *err)
{
	if (err->code == UK_EXIT_FATAL) {
		uk_jsonl_out_flush(&out);
		uk_die(UK_EXIT_FATAL, "%s", err->msg);
	}
	uk_warn("%s", err->msg);
	uk_status_set(err->code ? err->code : UK_EXIT_FAIL);
}

void
emit(yajl_val v)
{
	if (!opt.quiet)
		uk_jsonl_out_record(&out, v);
}

/* What urlfetch says of a URL that holds NUL; it is neither read nor kept. */
#define NUL_URL "the URL holds a NUL byte (\\u0000)"

/*
 * How records are read (lib/jsonl): bad lines become error records, and
 * records that arrive failed pass through (not with -q, which writes
 * nothing).
 */
static void
policy_init(struct uk_jsonl_policy *p, int flags, const char *require)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags | (opt.quiet ? UK_JSONL_DROP_PASS : 0);
	p->require = require;
	p->out = &out;
}

/*
 * Run fn for each URL: the operands, else url records or bare URLs on
 * standard input.  fn gets the record read (or NULL for operands).
 */
static void
each_url(int argc, char **argv, void (*fn)(const char *url, yajl_val in))
{
	struct uk_jsonl_policy p;
	struct uk_jsonl_in in;
	struct uk_err err;
	yajl_val rec, v;
	const char *url;
	size_t len;
	int i, r;

	if (argc) {
		for (i = 0; i < argc; i++)
			fn(argv[i], NULL);
		return;
	}
	if (uk_jsonl_open(&in, "-", &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	policy_init(&p, UK_JSONL_BARE_URL, "url");
	while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
		url = uk_json_get_strn(rec, "url", &len);
		if (len != strlen(url)) {
			/* As urlfetch: "https://a.example/j\u0000evil" is
			 * not https://a.example/j, whose entry it would
			 * name. */
			v = uk_json_object();
			uk_json_set(v, "url", uk_json_strn(url, len));
			uk_json_set_str(v, "error", NUL_URL);
			emit(v);
			uk_json_free(v);
			uk_warn("%s:%lu: %s", uk_jsonl_name(&in), in.lineno,
			    NUL_URL);
			uk_status_set(UK_EXIT_FAIL);
		} else {
			fn(url, rec);
		}
		uk_json_free(rec);
	}
	if (r < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_close(&in);
}

/* A record for url with error set, as a miss is answered. */
static void
emit_missing(const char *url, const char *msg)
{
	yajl_val v = uk_json_object();

	uk_json_set_str(v, "url", url);
	uk_json_set_str(v, "error", msg);
	uk_json_set_bool(v, "cached", 0);
	emit(v);
	uk_json_free(v);
	uk_status_set(UK_EXIT_FAIL);
}

static struct {
	int stale;
	struct uk_session *session;
} get_opt;

static void
get_one(const char *url, yajl_val in)
{
	static struct uk_buf raw = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec;
	int r, expired = 0;

	(void)in;
	if (!url) { /* the end: free what is kept between calls */
		uk_buf_release(&raw);
		return;
	}
	if (get_opt.session) {
		r = uk_session_content(get_opt.session, url, &rec, &err);
		if (r == 0) {
			emit_missing(url,
			    "not fetched: in neither the session "
			    "nor the cache");
			return;
		}
		if (r > 0) {
			emit(rec);
			uk_json_free(rec);
			return;
		}
	} else {
		/* The entry's text as it is, plus "cached": no tree. */
		r = uk_cache_get_raw(&cache, url,
		    get_opt.stale ? UK_CACHE_STALE : 0, &raw, &expired, &err);
		if (r == 0) {
			emit_missing(url, "not in the cache");
			return;
		}
		if (r > 0) {
			if (opt.quiet)
				return;
			uk_buf_setlen(&raw,
			    raw.len - 1); /* the closing brace */
			uk_buf_addstr(&raw, ",\"cached\":true");
			if (expired)
				uk_buf_addstr(&raw, ",\"expired\":true");
			uk_buf_addstr(&raw, "}\n");
			uk_jsonl_out_raw(&out, raw.buf, raw.len);
			if (!out.batch)
				uk_jsonl_out_flush(&out);
			return;
		}
	}
	lib_error(&err);
	emit_missing(url, err.msg);
}

/* Parse a session name operand, or exit 2. */
static void
session_open(struct uk_session *s, const char *name)
{
	struct uk_err err;

	if (uk_session_open(s, &cache, name, &err)) {
		uk_warn("%s", err.msg);
		usage(UK_EXIT_USAGE);
	}
}

static int
cmd_get(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "stale", no_argument, NULL, 's' },
		{ "session", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_session s;
	const char *sname = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "+sS:", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			get_opt.stale = 1;
			break;
		case 'S':
			sname = optarg;
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (sname) {
		session_open(&s, sname);
		get_opt.session = &s;
	}
	each_url(argc - optind, argv + optind, get_one);
	get_one(NULL, NULL);
	if (sname)
		uk_session_release(&s);
	return 0;
}

/* set: content records from files or standard input into the cache. */
static int
cmd_set(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "pass", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_jsonl_policy p;
	struct uk_jsonl_in in;
	struct uk_err err;
	yajl_val rec;
	const char *url;
	size_t len;
	int c, i, r, pass = 0;

	while ((c = getopt_long(argc, argv, "+p", lo, NULL)) != -1) {
		if (c == 'p')
			pass = 1;
		else
			usage(UK_EXIT_USAGE);
	}
	argc -= optind;
	argv += optind;
	/* A failed fetch is never cached; with -p it passes on. */
	policy_init(&p, pass ? 0 : UK_JSONL_DROP_PASS, "url");
	for (i = 0; i < (argc ? argc : 1); i++) {
		if (uk_jsonl_open(&in, argc ? argv[i] : "-", &err)) {
			if (err.code == UK_EXIT_FATAL)
				uk_die(UK_EXIT_FATAL, "%s", err.msg);
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
			continue;
		}
		while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
			url = uk_json_get_strn(rec, "url", &len);
			if (len != strlen(url)) {
				/* Kept, it would be served for the URL cut
				 * at the NUL.  The record goes on with its
				 * error, as urlfetch answers it. */
				uk_json_set_str(rec, "error", NUL_URL);
				uk_jsonl_out_record(&out, rec);
				uk_warn("%s:%lu: %s", uk_jsonl_name(&in),
				    in.lineno, NUL_URL);
				uk_status_set(UK_EXIT_FAIL);
				uk_json_free(rec);
				continue;
			}
			if (uk_cache_set(&cache, rec, &err)) {
				char msg[600];

				snprintf(msg, sizeof(msg), "%s", err.msg);
				uk_jsonl_out_error(&out, in.name, in.lineno,
				    msg);
				if (err.code == UK_EXIT_FATAL) {
					/* Disk full, read-only: the record
					 * that failed is named, then stop. */
					uk_json_free(rec);
					uk_jsonl_out_finish(&out);
					exit(UK_EXIT_FATAL);
				}
			} else if (pass) {
				emit(rec);
			}
			uk_json_free(rec);
		}
		if (r < 0)
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
		uk_jsonl_close(&in);
	}
	return 0;
}

static struct uk_session *inv_session;

static void
invalidate_one(const char *url, yajl_val in)
{
	struct uk_err err;
	yajl_val v;
	int r, rs = 0;

	(void)in;
	if ((r = uk_cache_invalidate(&cache, url, &err)) < 0) {
		lib_error(&err);
		return;
	}
	if (inv_session &&
	    (rs = uk_session_remove(inv_session, url, &err)) < 0) {
		lib_error(&err);
		return;
	}
	v = uk_json_object();
	uk_json_set_str(v, "url", url);
	uk_json_set_bool(v, "found", r);
	if (inv_session)
		uk_json_set_bool(v, "in_session", rs);
	emit(v);
	uk_json_free(v);
}

static int
cmd_invalidate(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "session", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_session s;
	const char *sname = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "+S:", lo, NULL)) != -1) {
		if (c == 'S')
			sname = optarg;
		else
			usage(UK_EXIT_USAGE);
	}
	if (optind == argc) {
		uk_warn("invalidate: no URL given");
		usage(UK_EXIT_USAGE);
	}
	if (sname) {
		session_open(&s, sname);
		inv_session = &s;
	}
	each_url(argc - optind, argv + optind, invalidate_one);
	if (sname)
		uk_session_release(&s);
	return 0;
}

static int
cmd_clear(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "session", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_session s;
	struct uk_err err;
	const char *sname = NULL;
	long n, ns = 0;
	yajl_val v;
	int c;

	while ((c = getopt_long(argc, argv, "+S:", lo, NULL)) != -1) {
		if (c == 'S')
			sname = optarg;
		else
			usage(UK_EXIT_USAGE);
	}
	if (optind != argc)
		usage(UK_EXIT_USAGE);
	if (sname)
		session_open(&s, sname);
	if ((n = uk_cache_remove_all(&cache, &err)) < 0)
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

/* session NAME add: the URLs' cache entries, or records on stdin. */
static struct uk_session *cur;

static void
session_add_url(const char *url, yajl_val in)
{
	struct uk_err err;
	yajl_val rec;
	int r;

	(void)in;
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
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	/* A session keeps failures too: they are its records. */
	policy_init(&p, UK_JSONL_TAKE_FAILED, NULL);
	while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
		if (uk_session_add(cur, rec, &err)) {
			if (err.code == UK_EXIT_FATAL)
				uk_die(UK_EXIT_FATAL, "%s", err.msg);
			uk_jsonl_out_error(&out, in.name, in.lineno,
			    err.msg);
		}
		uk_json_free(rec);
	}
	if (r < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_close(&in);
}

static void
session_get_one(const char *url, yajl_val in)
{
	get_opt.session = cur;
	get_one(url, in);
}

static void
session_remove_one(const char *url, yajl_val in)
{
	struct uk_err err;
	yajl_val v;
	int r;

	(void)in;
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

static int
cmd_session(int argc, char **argv)
{
	struct uk_session s;
	struct uk_err err;
	const char *verb;
	yajl_val list, v;
	size_t i;
	long n;

	if (argc < 3) {
		uk_warn("session: name and list, add, get, remove or clear "
			"expected");
		usage(UK_EXIT_USAGE);
	}
	session_open(&s, argv[1]);
	cur = &s;
	verb = argv[2];
	argc -= 3;
	argv += 3;
	if (!strcmp(verb, "list") && !argc) {
		if (uk_session_list(&s, &list, &err) == 0) {
			for (i = 0; i < list->u.array.len; i++)
				emit(list->u.array.values[i]);
			uk_json_free(list);
		} else {
			lib_error(&err);
		}
	} else if (!strcmp(verb, "clear") && !argc) {
		if ((n = uk_session_remove_all(&s, &err)) < 0) {
			lib_error(&err);
		} else {
			v = uk_json_object();
			uk_json_set_int(v, "removed", n);
			emit(v);
			uk_json_free(v);
		}
	} else if (!strcmp(verb, "add")) {
		if (argc)
			each_url(argc, argv, session_add_url);
		else
			session_add_stdin();
	} else if (!strcmp(verb, "get") && argc) {
		each_url(argc, argv, session_get_one);
	} else if (!strcmp(verb, "remove") && argc) {
		each_url(argc, argv, session_remove_one);
	} else {
		uk_warn("session: bad use of '%s'", verb);
		uk_session_release(&s);
		usage(UK_EXIT_USAGE);
	}
	uk_session_release(&s);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "get", cmd_get },
	{ "set", cmd_set },
	{ "invalidate", cmd_invalidate },
	{ "clear", cmd_clear },
	{ "cleanup", cmd_cleanup },
	{ "list", cmd_list },
	{ "stats", cmd_stats },
	{ "path", cmd_path },
	{ "session", cmd_session },
};

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "ttl", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_err err;
	double d;
	size_t i;
	int c;

	uk_prog_set(argv[0]);
	while (
	    (c = getopt_long(argc, argv, "+d:qt:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!*optarg) {
				uk_warn("-d: empty directory name");
				usage(UK_EXIT_USAGE);
			}
			opt.dir = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 't':
			if (uk_parse_seconds(optarg, &d) || d > 1e15) {
				uk_warn("-t: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			opt.ttl = (long)d;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		case 'V':
			printf("urlcache %s\n", UK_VERSION);
			return UK_EXIT_OK;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		uk_warn("no command given");
		usage(UK_EXIT_USAGE);
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[0], cmds[i].name))
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0])) {
		uk_warn("unknown command '%s'", argv[0]);
		usage(UK_EXIT_USAGE);
	}
	if (uk_cache_open(&cache, opt.dir, opt.ttl, &err))
		uk_die(err.code ? err.code : UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_out_init(&out, stdout);
	optind = 0; /* getopt: start again, for the command's options */
	cmds[i].fn(argc, argv);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	uk_cache_release(&cache);
	return uk_status;
}
