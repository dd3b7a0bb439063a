/* SPDX-License-Identifier: MIT */
/*
 * urlserve: urlkit's URL service for agents, a Model Context Protocol
 * server over stdio or the streamable HTTP transport (lib/mcp does the
 * protocol; the tools are in cmd/urlserve_tools.c).
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser.h"
#include "buf.h"
#include "cli.h"
#include "httpd.h"
#include "json.h"
#include "mcp.h"
#include "session.h"
#include "summary.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "util.h"
#include "banned.h"

static const char synopsis[] =
    "usage: urlserve [-O] [-G size] [-j jobs] [-l address] [-Q size]\n"
    "                [-S name] [--ignore-robots] [--tools list] [-t timeout]\n"
    "                [--token-file file]\n"
    "       urlserve -h | -V\n";

static const char options[] =
    "Serve urlkit's URL tools to agents over the Model Context Protocol.\n"
    "\n"
    "Transport:\n"
    "  -l, --listen=ADDRESS      serve HTTP at http://ADDRESS/mcp, not stdio\n"
    "                            (HOST:PORT, :PORT or PORT; 127.0.0.1)\n"
    "      --token-file=FILE     HTTP's token file (default: made in\n"
    "                            $XDG_RUNTIME_DIR/urlkit/urlserve-token)\n"
    "\n"
    "Tools:\n"
    "      --tools=LIST          only these tools (names, comma-separated),\n"
    "                            or lean: fetch_url, get_url_content,\n"
    "                            render_url\n"
    "  -O, --open-private        open_url opens internal and private\n"
    "                            addresses too\n"
    "  -t, --timeout=SECONDS     a fetch's time limit (default: 30)\n"
    "      --ignore-robots       fetch what robots.txt disallows urlkit\n"
    "  -S, --session=NAME        keep the fetched set as urlcache session NAME\n"
    "\n"
    "Limits:\n"
    "  -j, --jobs=N              tool calls at once (default: 8)\n"
    "  -G, --max-fetched=SIZE    a session's fetched set, oldest out past it\n"
    "                            (default: 16M)\n"
    "  -Q, --max-queued=SIZE     calls waiting or running, their messages'\n"
    "                            bytes (default: 64M)\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urlserve                              MCP over stdio, for an agent's config\n"
    "  urlserve -l 8808                      over HTTP at http://127.0.0.1:8808/mcp\n"
    "  urlserve --tools lean -S research     three tools, the fetched set kept\n"
    "\n"
    "See urlserve(1).\n";

static const struct uk_cli cli = { "urlserve", synopsis, options };

enum { OPT_TOKEN_FILE = UK_OPT_FIRST, OPT_TOOLS, OPT_IGNORE_ROBOTS };

struct us_server us_srv;

static volatile int stopping;

static void
on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

/* The fetched set: with -S the named session (under us_srv.mu). */

static int
rec_url_is(yajl_val rec, const char *url)
{
	const char *u = uk_json_get_str(rec, "url");

	return u && !strcmp(u, url);
}

/*
 * The bytes a record holds in memory: its strings and keys, and a node's
 * worth (yajl's struct and the pointers to it) for each value.
 */
static size_t
rec_bytes(yajl_val v)
{
	size_t n = 32, i;

	if (!v)
		return 0;
	if (YAJL_IS_STRING(v))
		return n + uk_json_strlen(v);
	if (YAJL_IS_NUMBER(v))
		return n + (v->u.number.r ? strlen(v->u.number.r) : 0);
	if (YAJL_IS_OBJECT(v))
		for (i = 0; i < v->u.object.len; i++)
			n += strlen(v->u.object.keys[i]) + 1 +
			    rec_bytes(v->u.object.values[i]);
	else if (YAJL_IS_ARRAY(v))
		for (i = 0; i < v->u.array.len; i++)
			n += rec_bytes(v->u.array.values[i]);
	return n;
}

/*
 * Give freed memory back to the system: glibc keeps what free(3) took
 * in its arenas (a session's megabytes of pages stayed in its RSS after
 * clear_fetched), and malloc_trim(3) returns the free pages of every
 * arena.  Only after a megabyte or more: it walks the heaps.
 */
static void
give_back(size_t freed)
{
	if (freed >= (1UL << 20))
		malloc_trim(0);
}

/* Drop the record at i of s's fetched set (s->mu held): its bytes. */
static size_t
fetched_drop_locked(struct us_session *s, size_t i)
{
	yajl_val a = s->fetched;
	size_t n = rec_bytes(a->u.array.values[i]);

	uk_json_free(a->u.array.values[i]);
	memmove(a->u.array.values + i, a->u.array.values + i + 1,
	    (a->u.array.len - i - 1) * sizeof(yajl_val));
	a->u.array.len--;
	s->bytes -= n;
	return n;
}

int
us_fetched_add(struct us_session *s, yajl_val rec, struct uk_err *err)
{
	yajl_val copy;
	size_t i, freed = 0;
	int r = 0;

	if (us_srv.session) {
		pthread_mutex_lock(&us_srv.mu);
		r = uk_session_add(&us_srv.named, rec, err);
		pthread_mutex_unlock(&us_srv.mu);
		return r;
	}
	copy = uk_json_copy(rec);
	uk_json_del(copy, "cached");
	pthread_mutex_lock(&s->mu);
	for (i = 0; i < s->fetched->u.array.len; i++)
		if (rec_url_is(s->fetched->u.array.values[i],
			uk_json_get_str(rec, "url")))
			break;
	if (i < s->fetched->u.array.len) {
		freed += rec_bytes(s->fetched->u.array.values[i]);
		s->bytes -= rec_bytes(s->fetched->u.array.values[i]);
		uk_json_free(s->fetched->u.array.values[i]);
		s->fetched->u.array.values[i] = copy;
	} else {
		uk_json_push(s->fetched, copy);
	}
	s->bytes += rec_bytes(copy);
	/* Past -G the oldest go, never the record just added. */
	while (s->bytes > us_srv.max_fetched && s->fetched->u.array.len > 1 &&
	    s->fetched->u.array.values[0] != copy)
		freed += fetched_drop_locked(s, 0);
	pthread_mutex_unlock(&s->mu);
	give_back(freed);
	return r;
}

int
us_fetched_get(struct us_session *s, const char *url, yajl_val *rec,
    struct uk_err *err)
{
	size_t i;
	int r = 0;

	*rec = NULL;
	if (us_srv.session) {
		pthread_mutex_lock(&us_srv.mu);
		r = uk_session_get(&us_srv.named, url, rec, err);
		pthread_mutex_unlock(&us_srv.mu);
		return r;
	}
	pthread_mutex_lock(&s->mu);
	for (i = 0; i < s->fetched->u.array.len; i++)
		if (rec_url_is(s->fetched->u.array.values[i], url)) {
			*rec = uk_json_copy(s->fetched->u.array.values[i]);
			r = 1;
			break;
		}
	pthread_mutex_unlock(&s->mu);
	return r;
}

int
us_fetched_remove(struct us_session *s, const char *url, struct uk_err *err)
{
	yajl_val a;
	size_t i, freed = 0;
	int r = 0;

	if (us_srv.session) {
		pthread_mutex_lock(&us_srv.mu);
		r = uk_session_remove(&us_srv.named, url, err);
		pthread_mutex_unlock(&us_srv.mu);
		return r;
	}
	pthread_mutex_lock(&s->mu);
	a = s->fetched;
	for (i = 0; i < a->u.array.len; i++)
		if (rec_url_is(a->u.array.values[i], url)) {
			freed = fetched_drop_locked(s, i);
			r = 1;
			break;
		}
	pthread_mutex_unlock(&s->mu);
	give_back(freed);
	return r;
}

long
us_fetched_clear(struct us_session *s, struct uk_err *err)
{
	size_t freed;
	long n;

	if (us_srv.session) {
		pthread_mutex_lock(&us_srv.mu);
		n = uk_session_remove_all(&us_srv.named, err);
		pthread_mutex_unlock(&us_srv.mu);
		return n;
	}
	pthread_mutex_lock(&s->mu);
	n = (long)s->fetched->u.array.len;
	freed = s->bytes;
	uk_json_free(s->fetched);
	s->fetched = uk_json_array();
	s->bytes = 0;
	pthread_mutex_unlock(&s->mu);
	give_back(freed);
	return n;
}

int
us_fetched_list(struct us_session *s, yajl_val *list, struct uk_err *err)
{
	int r;

	if (us_srv.session) {
		pthread_mutex_lock(&us_srv.mu);
		r = uk_session_list(&us_srv.named, list, err);
		pthread_mutex_unlock(&us_srv.mu);
		return r;
	}
	pthread_mutex_lock(&s->mu);
	*list = uk_json_copy(s->fetched);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

static void *
session_new(void *ctx, struct uk_err *err)
{
	struct us_session *s = uk_util_xcalloc(1, sizeof(*s));

	(void)ctx;
	(void)err;
	pthread_mutex_init(&s->mu, NULL);
	s->fetched = uk_json_array();
	return s;
}

static void
session_free(void *ctx, void *session)
{
	struct us_session *s = session;

	(void)ctx;
	if (!s)
		return;
	uk_json_free(s->fetched);
	pthread_mutex_destroy(&s->mu);
	give_back(s->bytes);
	free(s);
}

/* What a session holds in memory (the HTTP transport's eviction). */
static size_t
session_size(void *ctx, void *session)
{
	struct us_session *s = session;
	size_t n;

	(void)ctx;
	pthread_mutex_lock(&s->mu);
	n = s->bytes;
	pthread_mutex_unlock(&s->mu);
	return n;
}

/* The fetchers: one per call in flight, kept for the next call. */

struct us_fetcher *
us_fetcher_take(struct uk_err *err)
{
	struct uk_fetch_opts o;
	struct us_fetcher *f;

	pthread_mutex_lock(&us_srv.mu);
	if ((f = us_srv.idle))
		us_srv.idle = f->next;
	pthread_mutex_unlock(&us_srv.mu);
	if (f)
		return f;
	f = uk_util_xcalloc(1, sizeof(*f));
	uk_fetch_opts_init(&o);
	o.http.timeout = us_srv.timeout;
	o.cache_dir = us_srv.cache.dir;
	if (uk_fetch_init(&f->f, &o, err)) {
		free(f);
		return NULL;
	}
	return f;
}

void
us_fetcher_put(struct us_fetcher *f, int broken)
{
	if (!f)
		return;
	if (broken) {
		/* Its transfers and worker stop with it. */
		uk_fetch_release(&f->f);
		free(f);
		return;
	}
	pthread_mutex_lock(&us_srv.mu);
	f->next = us_srv.idle;
	us_srv.idle = f;
	pthread_mutex_unlock(&us_srv.mu);
}

char *
us_sibling(const char *prog)
{
	struct uk_buf b = UK_BUF_INIT;
	char self[PATH_MAX], *p;
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0 && n < (ssize_t)sizeof(self) - 1) {
		self[n] = '\0';
		if ((p = strrchr(self, '/'))) {
			*p = '\0';
			uk_buf_addf(&b, "%s/%s", self, prog);
			if (!access(b.buf, X_OK))
				return uk_buf_detach(&b, NULL);
		}
	}
	/* Not beside us: the first on PATH (uk_child looks it up). */
	uk_buf_setlen(&b, 0);
	uk_buf_addstr(&b, prog);
	return uk_buf_detach(&b, NULL);
}

/* Where -l's token is: the file's path, never the token. */
static char *token_path;

static void
listening(void *ctx, const char *host, int port)
{
	(void)ctx;
	fprintf(stderr, "%s: listening on http://%s:%d/mcp\n", uk_prog, host,
	    port);
	if (token_path)
		fprintf(stderr, "%s: token file: %s (send its first line as "
		    "'Authorization: Bearer TOKEN')\n", uk_prog, token_path);
	fflush(stderr);
}

/* HTTP's token: read from the token file, or made and written there. */
static char *
http_token(const char *file)
{
	struct uk_buf path = UK_BUF_INIT, tok = UK_BUF_INIT;
	struct uk_err err;
	const char *e;

	if (file) {
		uk_buf_addstr(&path, file);
	} else if ((e = getenv("XDG_RUNTIME_DIR")) && *e) {
		uk_buf_addf(&path, "%s/urlkit/urlserve-token", e);
	} else if ((e = getenv("HOME")) && *e) {
		uk_buf_addf(&path, "%s/.cache/urlkit/urlserve-token", e);
	} else {
		uk_util_die(UK_EXIT_FATAL, "no token file: give --token-file");
	}
	if (uk_httpd_token_serve(path.buf, &tok, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	token_path = uk_buf_detach(&path, NULL);
	return uk_buf_detach(&tok, NULL);
}

static int
chromium_found(void)
{
	const char *p = getenv("URLKIT_CHROMIUM");

	return !access(p && *p ? p : UK_BROWSER_PATH, X_OK);
}


/* The command line. */
struct opts {
	const char *listen, *token_file;
	unsigned long long fetched_max, queued_max;
	long jobs;
};

static void
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "max-fetched", required_argument, NULL, 'G' },
		{ "ignore-robots", no_argument, NULL, OPT_IGNORE_ROBOTS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "listen", required_argument, NULL, 'l' },
		{ "max-queued", required_argument, NULL, 'Q' },
		{ "open-private", no_argument, NULL, 'O' },
		{ "session", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ "tools", required_argument, NULL, OPT_TOOLS },
		{ "token-file", required_argument, NULL, OPT_TOKEN_FILE },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, UK_OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	char bad[64];
	int c;

	while ((c = uk_cli_getopt(&cli, argc, argv, "G:hj:l:OQ:S:t:V",
		    longopts)) != -1) {
		switch (c) {
		case 'G':
			if (uk_cli_size(optarg, &o->fetched_max) ||
			    !o->fetched_max)
				uk_cli_usage(&cli,
				    "-G: not a size (a number and a unit: "
				    "64M): '%s'", optarg);
			break;
		case 'O':
			us_srv.open_private = 1;
			break;
		case 'Q':
			if (uk_cli_size(optarg, &o->queued_max) ||
			    !o->queued_max)
				uk_cli_usage(&cli,
				    "-Q: not a size (a number and a unit: "
				    "64M): '%s'", optarg);
			break;
		case 'j':
			if (uk_util_parse_long(optarg, 1, 256, &o->jobs))
				uk_cli_usage(&cli,
				    "-j: not a number of jobs (1-256): '%s'",
				    optarg);
			break;
		case 'l':
			o->listen = optarg;
			break;
		case 'S':
			if (!uk_session_name_ok(optarg))
				uk_cli_usage(&cli,
				    "-S: not a session name: '%s'", optarg);
			us_srv.session = optarg;
			break;
		case 't':
			if (uk_util_parse_seconds(optarg, &us_srv.timeout) ||
			    us_srv.timeout <= 0 || us_srv.timeout > 3600)
				uk_cli_usage(&cli, "-t: not a timeout: '%s'",
				    optarg);
			break;
		case OPT_TOOLS:
			if (us_tools_choose(optarg, bad, sizeof(bad)))
				uk_cli_usage(&cli, "--tools: not a tool or a profile: "
				    "'%s'", bad);
			break;
		case OPT_TOKEN_FILE:
			o->token_file = optarg;
			break;
		case OPT_IGNORE_ROBOTS:
			us_srv.ignore_robots = 1;
			break;
		default:
			uk_cli_usage(&cli, NULL);
		}
	}
	if (optind != argc)
		uk_cli_usage(&cli, "unexpected operand '%s'", argv[optind]);
}

/* The MCP server on stdio, or on HTTP with -l, until stopped: 0 or -1. */
static int
serve(const struct opts *o)
{
	struct uk_mcp_opts mo;
	struct uk_mcp_http_opts ho;
	struct uk_mcp *m = NULL;
	struct uk_mcp_tool *tools;
	struct uk_buf ins = UK_BUF_INIT;
	struct uk_err err;
	char *token = NULL;
	int r;

	us_instructions(&ins);
	memset(&mo, 0, sizeof(mo));
	mo.name = "urlserve";
	mo.version = UK_VERSION;
	mo.instructions = ins.buf;
	mo.tools = tools = us_tool_table(&mo.ntools);
	mo.jobs = (int)o->jobs;
	mo.max_message = 4UL << 20;
	mo.session_new = session_new;
	mo.session_free = session_free;
	mo.session_size = session_size;
	mo.max_queued = (size_t)o->queued_max;
	if (o->listen)
		token = http_token(o->token_file);
	if (uk_mcp_new(&m, &mo, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	if (o->listen) {
		memset(&ho, 0, sizeof(ho));
		ho.address = o->listen;
		ho.token = token;
		ho.token_file = token_path;
		ho.path = "/mcp";
		ho.listening = listening;
		r = uk_mcp_http_serve(m, &ho, &stopping, &err);
	} else {
		r = uk_mcp_stdio_serve(m, 0, 1, &stopping, &err);
	}
	if (r && err.code == UK_EXIT_USAGE) /* a bad -l address */
		uk_cli_usage(&cli, "%s", err.msg);
	if (r)
		uk_util_warn("%s", err.msg);
	uk_mcp_free(m);
	free(tools);
	uk_buf_release(&ins);
	free(token);
	free(token_path);
	token_path = NULL;
	return r;
}

int
main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, 16ULL << 20, 64ULL << 20, 8 };
	struct us_fetcher *f;
	struct uk_err err;
	int r;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	us_srv.timeout = 30;
	parse_opts(argc, argv, &o);

	us_srv.max_fetched = (size_t)o.fetched_max;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	pthread_mutex_init(&us_srv.mu, NULL);
	if (uk_cache_open(&us_srv.cache, NULL, -1, &err))
		uk_util_die(err.code, "%s", err.msg);
	if (us_srv.session &&
	    uk_session_open(&us_srv.named, &us_srv.cache, us_srv.session, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	us_srv.render = chromium_found();
	uk_robots_cache_init(&us_srv.robots, UK_ROBOTS_AGENT);
	us_srv.robots.timeout = us_srv.timeout;
	us_srv.robots.cache = &us_srv.cache;
	r = serve(&o);
	while ((f = us_srv.idle)) {
		us_srv.idle = f->next;
		uk_fetch_release(&f->f);
		free(f);
	}
	if (us_srv.session)
		uk_session_release(&us_srv.named);
	uk_robots_cache_release(&us_srv.robots);
	uk_cache_release(&us_srv.cache);
	pthread_mutex_destroy(&us_srv.mu);
	us_tools_release();
	return r ? UK_EXIT_FATAL : UK_EXIT_OK;
}
