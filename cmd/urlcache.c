/* SPDX-License-Identifier: MIT */
/* urlcache: the cache of content records and named sessions, for cron. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cli.h"
#include "json.h"
#include "jsonl.h"
#include "session.h"
#include "url.h"
#include "util.h"
#include "urlcache.h"

#include "banned.h"

/*
 * The synopsis, one block per subcommand: "urlcache -h" prints them all,
 * "urlcache get -h" its own (urlcache(1)'s SYNOPSIS, word for word).
 */
#define SYN_GET                                                             \
	"urlcache [-q] [-d dir] [--ttl ttl] get [-S name] [-i file] [-o file]\n" \
	"                [--stale] [url ...]\n"
#define SYN_SET "urlcache [-q] [-d dir] set [-o file] [--pass] [file ...]\n"
#define SYN_INVALIDATE                                                       \
	"urlcache [-q] [-d dir] invalidate [-S name] [-i file] [-o file]\n" \
	"                [url ...]\n"
#define SYN_CLEAR "urlcache [-q] [-d dir] clear [-S name] [-o file]\n"
#define SYN_CLEANUP                                                     \
	"urlcache [-q] [-d dir] [--ttl ttl] cleanup [-nv] [-o file] [-s size]\n" \
	"                [--fast]\n"
#define SYN_LIST "urlcache [-q] [-d dir] [--ttl ttl] list [-o file]\n"
#define SYN_STATS "urlcache [-q] [-d dir] [--ttl ttl] stats [-o file]\n"
#define SYN_PATH "urlcache [-d dir] path [url]\n"
#define SYN_SESSION                                                         \
	"urlcache [-q] [-d dir] [--ttl ttl] session [-o file]\n"           \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name\n"  \
	"                list|clear\n"                                     \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name add\n" \
	"                [url ...]\n"                                      \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name\n"  \
	"                get|remove url ...\n"
#define U "usage: "
#define I "       "

#define OPT_O \
	"  -o, --output=FILE         write the records to FILE, not stdout\n"
#define OPT_TAIL                                                          \
	"      --compact             one JSON line per record, even on a "  \
	"terminal\n"                                                       \
	"      --pretty              indented records, even in a pipe\n"    \
	"  -h, --help                the synopsis (-h) or this help (--help)\n" \
	"\n"                                                               \
	"Global options (-d, -q, --ttl) go before the command: see "       \
	"'urlcache --help'.\n"                                             \
	"See urlcache(1).\n"

static const struct uk_cli cli = { "urlcache",
	U SYN_GET I SYN_SET I SYN_INVALIDATE I SYN_CLEAR I SYN_CLEANUP I SYN_LIST
	    I SYN_STATS I SYN_PATH I SYN_SESSION,
	"Manage the cache of content records and the named sessions.\n"
	"\n"
	"  -d, --dir=DIR             the cache directory (default: "
	"$URLKIT_CACHE_DIR,\n"
	"                            else ~/.cache/urlkit)\n"
	"  -q, --quiet               no output from get, set, invalidate, "
	"clear,\n"
	"                            cleanup, session; no messages from list,"
	" stats\n"
	"      --ttl=DURATION        the time to live of entries and sessions\n"
	"                            (default: $URLKIT_CACHE_TTL, else 24h)\n"
	"  -h, --help                the synopsis (-h) or this help (--help)\n"
	"  -V, --version             print the version\n"
	"\n"
	"Commands (each has its own --help):\n"
	"  get         cached records of URLs\n"
	"  set         store content records\n"
	"  invalidate  delete the entries of URLs\n"
	"  clear       delete every entry\n"
	"  cleanup     delete expired, corrupt and temporary files and "
	"sessions\n"
	"  list        one record per entry\n"
	"  stats       one record about the cache\n"
	"  path        the cache directory, or a URL's entry file\n"
	"  session     list sessions, or work on one\n"
	"\n"
	"See urlcache(1).\n" };

struct urlcache_opt opt = { NULL, -1, 0, 0, 0 };
struct uk_cache cache;
struct uk_jsonl_out out;

void
start(const char *output)
{
	struct uk_err err;
	FILE *fp = stdout;

	/* The output first: a file that cannot be written is a usage
	 * error (exit 2) before any work, the cache untouched. */
	if (output && strcmp(output, "-") && !(fp = fopen(output, "w")))
		uk_die(UK_EXIT_USAGE, "-o: cannot open '%s': %s", output,
		    strerror(errno));
	if (uk_cache_open(&cache, opt.dir, opt.ttl, &err))
		uk_die(err.code ? err.code : UK_EXIT_FATAL, "%s", err.msg);
	uk_jsonl_out_init(&out, fp);
	opt.started = 1;
}

void
lib_error(const struct uk_err *err)
{
	if (err->code == UK_EXIT_FATAL) {
		uk_jsonl_out_flush(&out);
		uk_die(UK_EXIT_FATAL, "%s", err->msg);
	}
	if (!opt.quiet_messages)
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
 * The URLs of get, invalidate and session: operands and -i files, in
 * command-line order (the option string starts with '-', so that getopt
 * hands operands over in their place).
 */
struct input {
	int file; /* -i FILE, else a URL operand */
	const char *s;
};
struct inputs {
	struct input *v;
	size_t n;
};

static void
inputs_add(struct inputs *in, int file, const char *s)
{
	in->v = uk_xrealloc(in->v, (in->n + 1) * sizeof(*in->v));
	in->v[in->n].file = file;
	in->v[in->n].s = s;
	in->n++;
}

/*
 * Whether an operand is a URL: a scheme (RFC 3986: a letter, then letters,
 * digits, '+', '-', '.') and "://" with something after it.  Written here
 * because the cache keys any absolute URL and needs no parser's opinion
 * of the rest; the point is to tell a file name from a URL.
 */
static int
is_url(const char *s)
{
	size_t n = 0;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	while (s[n] && (strchr("+-.", s[n]) || (s[n] >= '0' && s[n] <= '9') ||
			   (s[n] >= 'a' && s[n] <= 'z') ||
			   (s[n] >= 'A' && s[n] <= 'Z')))
		n++;
	return !strncmp(s + n, "://", 3) && s[n + 3];
}

/* Run fn for each url record or bare URL of the file path. */
static void
each_record(const char *path, void (*fn)(const char *url, yajl_val in))
{
	struct uk_jsonl_policy p;
	struct uk_jsonl_in in;
	struct uk_err err;
	yajl_val rec, v;
	const char *url;
	size_t len;
	int r;

	if (uk_jsonl_open(&in, path, &err)) {
		if (err.code == UK_EXIT_FATAL)
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
		return;
	}
	policy_init(&p, UK_JSONL_BARE_URL, "url");
	while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
		url = uk_json_get_strn(rec, "url", &len);
		if (len != strlen(url)) {
			/* As urlfetch: "https://a.example/j\u0000evil" is
			 * not https://a.example/j, whose entry it would
			 * name. */
			v = uk_json_object();
			uk_json_set(v, "url", uk_json_strn(url, len));
			uk_json_set_str(v, "error", UK_URL_NUL_ERROR);
			emit(v);
			uk_json_free(v);
			uk_warn("%s:%lu: %s", uk_jsonl_name(&in), in.lineno,
			    UK_URL_NUL_ERROR);
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

/*
 * Run fn for each URL: the operands and the records of -i files in
 * their order, else url records or bare URLs on standard input.  fn gets
 * the record read (or NULL for operands).  An operand that is not a URL
 * is an error record, and the run goes on.
 */
static void
each_url(const struct inputs *in, void (*fn)(const char *url, yajl_val in))
{
	char msg[300];
	yajl_val v;
	size_t i;

	if (!in->n) {
		each_record("-", fn);
		return;
	}
	for (i = 0; i < in->n; i++) {
		if (in->v[i].file) {
			each_record(in->v[i].s, fn);
		} else if (is_url(in->v[i].s)) {
			fn(in->v[i].s, NULL);
		} else {
			snprintf(msg, sizeof(msg),
			    "not a URL: '%.100s' (to read records from a "
			    "file, use -i %.100s)",
			    in->v[i].s, in->v[i].s);
			v = uk_json_object();
			uk_json_set_str(v, "url", in->v[i].s);
			uk_json_set_str(v, "error", msg);
			emit(v);
			uk_json_free(v);
			uk_warn("%s", msg);
			uk_status_set(UK_EXIT_FAIL);
		}
	}
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

/* Write an entry's raw text (one JSON line): as it is in a pipe, parsed
 * and written as a record when the output is pretty-printed. */
static void
emit_raw(const char *s, size_t len)
{
	struct uk_err err;
	yajl_val v;

	if (out.pretty && (v = uk_json_parse(s, len, &err))) {
		uk_jsonl_out_record(&out, v);
		uk_json_free(v);
		return;
	}
	uk_jsonl_out_raw(&out, s, len);
}

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
			emit_raw(raw.buf, raw.len);
			if (!out.batch)
				uk_jsonl_out_flush(&out);
			return;
		}
	}
	lib_error(&err);
	emit_missing(url, err.msg);
}

/* Parse a session name, or exit 2. */
static void
session_open(const struct uk_cli *c, struct uk_session *s, const char *name)
{
	struct uk_err err;

	if (uk_session_open(s, &cache, name, &err))
		uk_cli_usage(c, "%s", err.msg);
}

/* A session name given with -S: checked before any work. */
static void
session_name_check(const struct uk_cli *c, const char *name)
{
	if (name && !uk_session_name_ok(name))
		uk_cli_usage(c,
		    "bad session name '%.64s': use 1-64 of A-Z a-z 0-9 . _ -, "
		    "not starting with a dot",
		    name);
}

static int
cmd_get(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache get", U SYN_GET,
		"Write the cached content record of each URL (a miss: an error "
		"record, exit 1).\n"
		"\n"
		"  -i, --input=FILE          read url records or URLs from FILE "
		"('-': stdin)\n" OPT_O
		"  -S, --session=NAME        look in session NAME first, then "
		"in the cache\n"
		"      --stale               expired entries too, with "
		"\"expired\": true\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "session", required_argument, NULL, 'S' },
		{ "stale", no_argument, NULL, OPT_STALE },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct inputs in = { NULL, 0 };
	struct uk_session s;
	const char *sname = NULL, *output = NULL;
	int ch;

	uk_cli_subcommand("get");
	while ((ch = uk_cli_getopt(&c, argc, argv, "-hi:o:S:", lo)) != -1) {
		switch (ch) {
		case 1:
			inputs_add(&in, 0, optarg);
			break;
		case 'i':
			inputs_add(&in, 1, optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_STALE:
			get_opt.stale = 1;
			break;
		case 'S':
			sname = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	while (optind < argc) /* after "--" */
		inputs_add(&in, 0, argv[optind++]);
	session_name_check(&c, sname);
	start(output);
	if (sname) {
		session_open(&c, &s, sname);
		get_opt.session = &s;
	}
	each_url(&in, get_one);
	get_one(NULL, NULL);
	if (sname)
		uk_session_release(&s);
	free(in.v);
	return 0;
}

/* set: content records from files or standard input into the cache. */
static int
cmd_set(int argc, char **argv)
{
	static const struct uk_cli c = { "urlcache set", U SYN_SET,
		"Store the content records of the files (none or '-': stdin) "
		"in the cache.\n"
		"\n" OPT_O
		"      --pass                write each record read after "
		"storing it\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "pass", no_argument, NULL, OPT_PASS },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_jsonl_policy p;
	struct uk_jsonl_in in;
	struct uk_err err;
	yajl_val rec;
	const char *url, *output = NULL;
	size_t len;
	int ch, i, r, pass = 0;

	uk_cli_subcommand("set");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:", lo)) != -1) {
		if (ch == OPT_PASS)
			pass = 1;
		else if (ch == 'o')
			output = optarg;
		else
			uk_cli_usage(&c, NULL);
	}
	argc -= optind;
	argv += optind;
	start(output);
	/* A failed fetch is never cached; with --pass it passes on. */
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
				uk_json_set_str(rec, "error", UK_URL_NUL_ERROR);
				uk_jsonl_out_record(&out, rec);
				uk_warn("%s:%lu: %s", uk_jsonl_name(&in),
				    in.lineno, UK_URL_NUL_ERROR);
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
	static const struct uk_cli c = { "urlcache invalidate",
		U SYN_INVALIDATE,
		"Delete the entry of each URL and write {\"url\",\"found\"}.\n"
		"\n"
		"  -i, --input=FILE          read url records or URLs from FILE "
		"('-': stdin)\n" OPT_O
		"  -S, --session=NAME        remove the URLs from session NAME "
		"too\n" OPT_TAIL };
	static const struct option lo[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "session", required_argument, NULL, 'S' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct inputs in = { NULL, 0 };
	struct uk_session s;
	const char *sname = NULL, *output = NULL;
	int ch;

	uk_cli_subcommand("invalidate");
	while ((ch = uk_cli_getopt(&c, argc, argv, "-hi:o:S:", lo)) != -1) {
		switch (ch) {
		case 1:
			inputs_add(&in, 0, optarg);
			break;
		case 'i':
			inputs_add(&in, 1, optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'S':
			sname = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	while (optind < argc) /* after "--" */
		inputs_add(&in, 0, argv[optind++]);
	/* Not every entry for a forgotten operand: give '-i -' for stdin. */
	if (!in.n)
		uk_cli_usage(&c, "no URL given (for standard input, use -i -)");
	session_name_check(&c, sname);
	start(output);
	if (sname) {
		session_open(&c, &s, sname);
		inv_session = &s;
	}
	each_url(&in, invalidate_one);
	if (sname)
		uk_session_release(&s);
	free(in.v);
	return 0;
}

static int
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
	v = uk_json_object();
	uk_json_set_str(v, "session", name);
	uk_json_set_int(v, "records", st.records);
	uk_json_set_int(v, "bytes", st.bytes);
	uk_time_fmt(st.changed, when, sizeof(when));
	uk_json_set_str(v, "changed_at", when);
	uk_json_set_bool(v, "keep", st.keep);
	uk_json_set_bool(v, "expired", st.expired);
	emit(v);
	uk_json_free(v);
	uk_session_release(&s);
	return 0;
}

static int
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
	struct inputs in = { NULL, 0 };
	struct uk_session s;
	struct uk_err err;
	const char *verb, *output = NULL;
	yajl_val list, v;
	size_t i;
	long n;
	int ch, keep = 0, r;

	uk_cli_subcommand("session");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:", lo)) != -1) {
		if (ch == OPT_KEEP)
			keep = 1;
		else if (ch == 'o')
			output = optarg;
		else
			uk_cli_usage(&c, NULL);
	}
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
	for (i = 2; i < (size_t)argc; i++)
		inputs_add(&in, 0, argv[i]);
	if (strcmp(verb, "add") && strcmp(verb, "clear")) {
		/* Reading or removing from a session that is not there is
		 * a mistake to say (a name mistyped), not an empty answer. */
		if ((r = uk_session_exists(&s, &err)) <= 0) {
			if (r < 0)
				lib_error(&err);
			else
				uk_warn("no session '%s'", s.name);
			uk_status_set(UK_EXIT_FAIL);
			uk_session_release(&s);
			free(in.v);
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
	} else if (!strcmp(verb, "add")) {
		if (in.n)
			each_url(&in, session_add_url);
		else
			session_add_stdin();
	} else if (!strcmp(verb, "get")) {
		each_url(&in, session_get_one);
	} else {
		each_url(&in, session_remove_one);
	}
	if (keep && uk_session_keep(&s, &err))
		lib_error(&err);
	uk_session_release(&s);
	free(in.v);
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
		{ "ttl", required_argument, NULL, OPT_TTL },
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	double d;
	size_t i;
	int ch;

	uk_prog_set(argv[0]);
	while ((ch = uk_cli_getopt(&cli, argc, argv, "+d:hqV", longopts)) !=
	    -1) {
		switch (ch) {
		case 'd':
			if (!*optarg)
				uk_cli_usage(&cli, "-d: empty directory name");
			opt.dir = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case OPT_TTL:
			if (uk_parse_seconds(optarg, &d) || d > 1e15)
				uk_cli_usage(&cli,
				    "--ttl: not a duration: '%s'", optarg);
			opt.ttl = (long)d;
			break;
		default:
			uk_cli_usage(&cli, NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		uk_cli_usage(&cli, "no command given");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[0], cmds[i].name))
			break;
	if (i == sizeof(cmds) / sizeof(cmds[0]))
		uk_cli_usage(&cli, "unknown command '%s'", argv[0]);
	optind = 0; /* getopt: start again, for the command's options */
	cmds[i].fn(argc, argv);
	if (opt.started) {
		uk_jsonl_out_finish(&out);
		uk_jsonl_out_release(&out);
		uk_cache_release(&cache);
	}
	return uk_status;
}
