/* SPDX-License-Identifier: MIT */
/* urlcache: the cache of content records and named sessions, for cron. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_remote.h"
#include "cli.h"
#include "json.h"
#include "jsonl.h"
#include "record.h"
#include "util.h"
#include "urlcache.h"

#include "banned.h"

static const struct uk_cli cli = { "urlcache",
	U SYN_GET I SYN_SET I SYN_INVALIDATE I SYN_CLEAR I SYN_CLEANUP I SYN_LIST
	    I SYN_STATS I SYN_PATH I SYN_SESSION,
	"Manage the cache of content records and the named sessions.\n"
	"\n"
	"Global options (before the command):\n"
	"      --cache-remote=STORES remote stores behind the cache, for get,"
	" set,\n"
	"                            invalidate, clear --remote (default:\n"
	"                            $URLKIT_CACHE_REMOTE)\n"
	"  -d, --dir=DIR             the cache directory (default: "
	"$URLKIT_CACHE_DIR,\n"
	"                            else ~/.cache/urlkit)\n"
	"  -q, --quiet               no output from get, set, invalidate, "
	"clear,\n"
	"                            cleanup, session; no messages from list,"
	" stats\n"
	"      --ttl=DURATION        the time to live of entries and sessions\n"
	"                            (default: $URLKIT_CACHE_TTL, else 24h)\n"
	"\n"
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
	"Examples:\n"
	"  urlcache get https://example.org/      the URL's cached record\n"
	"  urlcache --ttl 7d cleanup -n -v        what a week's time to live "
	"deletes\n"
	"  urlcache cleanup -s 500M               expired entries, then the "
	"oldest\n"
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
		uk_util_die(UK_EXIT_USAGE, "-o: cannot open '%s': %s", output,
		    strerror(errno));
	if (uk_cache_open(&cache, opt.dir, opt.ttl, &err))
		uk_util_die(err.code ? err.code : UK_EXIT_FATAL, "%s", err.msg);
	/* The counters are the fetching programs' (cleanup adds its
	 * evictions itself). */
	cache.count_off = 1;
	uk_jsonl_out_init(&out, fp);
	opt.started = 1;
}

void
lib_error(const struct uk_err *err)
{
	if (err->code == UK_EXIT_FATAL) {
		uk_jsonl_out_flush(&out);
		uk_util_die(UK_EXIT_FATAL, "%s", err->msg);
	}
	if (!opt.quiet_messages)
		uk_util_warn("%s", err->msg);
	uk_util_status_set(err->code ? err->code : UK_EXIT_FAIL);
}

void
emit(yajl_val v)
{
	if (!opt.quiet)
		uk_jsonl_out_record(&out, v);
}

void
out_opts(const struct uk_cli *c, int argc, char **argv,
    const struct option *lo, int flag_ch, int *flag, const char **output)
{
	int ch;

	while ((ch = uk_cli_getopt(c, argc, argv, "ho:", lo)) != -1) {
		if (flag_ch && ch == flag_ch)
			*flag = 1;
		else if (ch == 'o')
			*output = optarg;
		else
			uk_cli_usage(c, NULL);
	}
}

void
policy_init(struct uk_jsonl_policy *p, int flags, const char *require)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags | (opt.quiet ? UK_JSONL_DROP_PASS : 0);
	p->require = require;
	p->out = &out;
}

/* Refused input (see uk_jsonl_src_next): its record, said, exit 1. */
static void
refused(const struct uk_jsonl_src *src, yajl_val rec, const char *msg)
{
	emit(rec);
	if (src->name)
		uk_util_warn("%s:%lu: %s",
		    strcmp(src->name, "-") ? src->name : "<stdin>", src->lineno,
		    msg);
	else
		uk_util_warn("%s", msg);
	uk_util_status_set(UK_EXIT_FAIL);
}

/*
 * The next record of src to work on, or NULL at the end.  Refused input
 * and files that cannot be opened are answered here; a read error is
 * fatal.
 */
static yajl_val
next_record(struct uk_jsonl_src *src)
{
	struct uk_err err;
	yajl_val rec;
	int r;

	while ((r = uk_jsonl_src_next(src, &rec, &err)) != 0) {
		if (r == UK_JSONL_SRC_REC)
			return rec;
		if (r == UK_JSONL_SRC_REFUSED) {
			refused(src, rec, err.msg);
			uk_json_free(rec);
		} else if (err.code == UK_EXIT_FATAL) {
			uk_jsonl_out_flush(&out);
			uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
		} else {
			uk_util_warn("%s", err.msg);
			uk_util_status_set(UK_EXIT_FAIL);
		}
	}
	return NULL;
}

static struct uk_jsonl_policy url_policy;

void
urls_init(struct uk_jsonl_src *src)
{
	policy_init(&url_policy, UK_JSONL_BARE_URL, "url");
	uk_jsonl_src_init(src, &url_policy);
}

void
urls_run(struct uk_jsonl_src *src, void (*fn)(const char *url))
{
	yajl_val rec;

	while ((rec = next_record(src))) {
		fn(uk_json_get_str(rec, "url"));
		uk_json_free(rec);
	}
	uk_jsonl_src_release(src);
}

void
emit_missing(const char *url, const char *msg)
{
	yajl_val v = uk_json_object();

	uk_json_set_str(v, "url", url);
	uk_record_error(v, msg);
	uk_json_set_bool(v, "cached", 0);
	emit(v);
	uk_json_free(v);
	uk_util_status_set(UK_EXIT_FAIL);
}

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

void
emit_cached(const char *url, struct uk_session *s, int stale)
{
	static struct uk_buf raw = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec;
	int r, expired = 0;

	if (!url) { /* the end: free what is kept between calls */
		uk_buf_release(&raw);
		return;
	}
	if (s) {
		r = uk_session_content(s, url, &rec, &err);
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
		    stale ? UK_CACHE_STALE : 0, &raw, &expired, &err);
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

void
session_open(const struct uk_cli *c, struct uk_session *s, const char *name)
{
	struct uk_err err;

	if (uk_session_open(s, &cache, name, &err))
		uk_cli_usage(c, "%s", err.msg);
}

void
session_name_check(const struct uk_cli *c, const char *name)
{
	if (name && !uk_session_name_ok(name))
		uk_cli_usage(c,
		    "bad session name '%.64s': use 1-64 of A-Z a-z 0-9 . _ -, "
		    "not starting with a dot",
		    name);
}

/*
 * What get and invalidate share: the URLs (operands and -i files, in
 * their order: the option string starts with '-', so that getopt hands
 * operands over in their place), -o and -S.
 */
struct url_cmd {
	struct uk_jsonl_src in;
	int nin; /* inputs given */
	const char *output, *sname;
	struct uk_session s;
};

#define URL_CMD_SHORTOPTS "-hi:o:S:"
#define URL_CMD_LONGOPTS                                \
	{ "input", required_argument, NULL, 'i' },      \
	{ "output", required_argument, NULL, 'o' },     \
	{ "session", required_argument, NULL, 'S' }

/* One of url_cmd's options: 1, or 0 when ch is none of them. */
static int
url_cmd_opt(struct url_cmd *u, int ch)
{
	switch (ch) {
	case 1:
	case 'i':
		uk_jsonl_src_add(&u->in, optarg,
		    ch == 'i' ? UK_JSONL_SRC_FILE : UK_JSONL_SRC_URL);
		u->nin++;
		break;
	case 'o':
		u->output = optarg;
		break;
	case 'S':
		u->sname = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/*
 * After the options: the operands after "--", the checks (need_url: no
 * URL at all is a usage error), then start() and the -S session opened.
 * Returns the session, or NULL without -S.
 */
static struct uk_session *
url_cmd_start(const struct uk_cli *c, struct url_cmd *u, int argc,
    char **argv, int need_url)
{
	while (optind < argc) { /* after "--" */
		uk_jsonl_src_add(&u->in, argv[optind++], UK_JSONL_SRC_URL);
		u->nin++;
	}
	if (need_url && !u->nin)
		uk_cli_usage(c, "no URL given (for standard input, use -i -)");
	session_name_check(c, u->sname);
	start(u->output);
	if (!u->sname)
		return NULL;
	session_open(c, &u->s, u->sname);
	return &u->s;
}

static void
url_cmd_release(struct url_cmd *u)
{
	if (u->sname)
		uk_session_release(&u->s);
}

static struct {
	int stale;
	struct uk_session *session;
	const char *since; /* --changed-since */
} get_opt;

static void
get_one(const char *url)
{
	emit_cached(url, get_opt.session, get_opt.stale);
}

/* --changed-since: one entry's record, as get writes it. */
static int
changed_one(void *ctx, const char *text, size_t len, int expired)
{
	struct uk_buf *b = ctx;

	if (opt.quiet)
		return 0;
	uk_buf_reset(b);
	uk_buf_add(b, text, len - 1); /* the closing brace */
	uk_buf_addstr(b, ",\"cached\":true");
	if (expired)
		uk_buf_addstr(b, ",\"expired\":true");
	uk_buf_addstr(b, "}\n");
	emit_raw(b->buf, b->len);
	return 0;
}

/* get --changed-since TIME: RFC 3339, or a duration back from now. */
static void
get_changed(const struct uk_cli *c, const char *output)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	long long since;
	double d;

	since = uk_util_time_parse(get_opt.since, strlen(get_opt.since));
	if (since < 0 && !uk_util_parse_seconds(get_opt.since, &d) &&
	    d < 1e10)
		since = uk_util_time_now_ns() - (long long)(d * 1e9);
	if (since < 0)
		uk_cli_usage(c,
		    "--changed-since: not an RFC 3339 time (2026-11-24T14:30:00Z)"
		    " or a duration (1d): '%s'",
		    get_opt.since);
	start(output);
	if (uk_cache_since_list(&cache, since, changed_one, &b, &err))
		lib_error(&err);
	uk_buf_release(&b);
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
		"\"expired\": true\n"
		"      --changed-since=TIME  every entry whose content changed "
		"after TIME\n"
		"                            (RFC 3339, or a duration back: "
		"1d)\n" OPT_TAIL };
	static const struct option lo[] = {
		URL_CMD_LONGOPTS,
		{ "stale", no_argument, NULL, OPT_STALE },
		{ "changed-since", required_argument, NULL, OPT_CHANGED_SINCE },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct url_cmd u;
	int ch;

	memset(&u, 0, sizeof(u));
	urls_init(&u.in);
	uk_cli_subcommand("get");
	while ((ch = uk_cli_getopt(&c, argc, argv, URL_CMD_SHORTOPTS, lo)) !=
	    -1) {
		if (ch == OPT_STALE)
			get_opt.stale = 1;
		else if (ch == OPT_CHANGED_SINCE)
			get_opt.since = optarg;
		else if (!url_cmd_opt(&u, ch))
			uk_cli_usage(&c, NULL);
	}
	if (get_opt.since) {
		if (u.nin || optind < argc || u.sname || get_opt.stale)
			uk_cli_usage(&c,
			    "--changed-since: lists the whole cache; no URL, "
			    "-i, -S or --stale");
		uk_jsonl_src_release(&u.in);
		get_changed(&c, u.output);
		return 0;
	}
	get_opt.session = url_cmd_start(&c, &u, argc, argv, 0);
	urls_run(&u.in, get_one);
	emit_cached(NULL, NULL, 0);
	url_cmd_release(&u);
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
	struct uk_jsonl_src src;
	struct uk_err err;
	yajl_val rec;
	const char *output = NULL;
	int i, pass = 0;

	uk_cli_subcommand("set");
	out_opts(&c, argc, argv, lo, OPT_PASS, &pass, &output);
	argc -= optind;
	argv += optind;
	start(output);
	/* A failed fetch is never cached; with --pass it passes on.  A
	 * record whose URL holds NUL is refused: kept, it would be served
	 * for the URL cut at the NUL. */
	policy_init(&p, pass ? 0 : UK_JSONL_DROP_PASS, "url");
	uk_jsonl_src_init(&src, &p);
	for (i = 0; i < argc; i++)
		uk_jsonl_src_add(&src, argv[i], UK_JSONL_SRC_FILE);
	while ((rec = next_record(&src))) {
		if (uk_cache_set(&cache, rec, &err)) {
			char msg[600];

			snprintf(msg, sizeof(msg), "%s", err.msg);
			uk_jsonl_out_error(&out, src.name, src.lineno, msg);
			if (err.code == UK_EXIT_FATAL) {
				/* Disk full, read-only: the record that
				 * failed is named, then stop. */
				uk_json_free(rec);
				uk_jsonl_out_finish(&out);
				exit(UK_EXIT_FATAL);
			}
		} else if (pass) {
			emit(rec);
		}
		uk_json_free(rec);
	}
	uk_jsonl_src_release(&src);
	return 0;
}

static struct uk_session *inv_session;

static void
invalidate_one(const char *url)
{
	struct uk_err err;
	yajl_val v;
	int r, rs = 0;

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
		URL_CMD_LONGOPTS,
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct url_cmd u;
	int ch;

	memset(&u, 0, sizeof(u));
	urls_init(&u.in);
	uk_cli_subcommand("invalidate");
	while ((ch = uk_cli_getopt(&c, argc, argv, URL_CMD_SHORTOPTS, lo)) !=
	    -1)
		if (!url_cmd_opt(&u, ch))
			uk_cli_usage(&c, NULL);
	/* Not every entry for a forgotten operand: give '-i -' for stdin. */
	inv_session = url_cmd_start(&c, &u, argc, argv, 1);
	urls_run(&u.in, invalidate_one);
	url_cmd_release(&u);
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
		{ "cache-remote", required_argument, NULL, OPT_CACHE_REMOTE },
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_cache_remote *remote;
	struct uk_err err;
	double d;
	size_t i;
	int ch;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
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
			if (uk_util_parse_seconds(optarg, &d) || d > 1e15)
				uk_cli_usage(&cli,
				    "--ttl: not a duration: '%s'", optarg);
			opt.ttl = (long)d;
			break;
		case OPT_CACHE_REMOTE:
			/* Checked here, a usage error; then as
			 * URLKIT_CACHE_REMOTE, which uk_cache_open reads. */
			if (uk_cache_remote_open(&remote, optarg, NULL, &err))
				uk_cli_usage(&cli, "--cache-remote: %s",
				    err.msg);
			uk_cache_remote_free(remote);
			if (setenv("URLKIT_CACHE_REMOTE", optarg, 1))
				uk_util_die(UK_EXIT_FATAL, "out of memory");
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
