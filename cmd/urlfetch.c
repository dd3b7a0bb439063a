/* SPDX-License-Identifier: MIT */
/* urlfetch: fetch what URLs point to, many at once, through the cache. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "extract.h"
#include "fetch.h"
#include "json.h"
#include "jsonl.h"
#include "session.h"
#include "util.h"
#include "banned.h"

/* Extraction input larger than this is refused rather than truncated. */
#define EXTRACT_MAX (64UL << 20)

static const char usage_text[] =
    "usage: urlfetch [-cJkPrV] [-A agent] [-j jobs] [-m max] [-S session] "
    "[-s size]\n"
    "                [-t timeout] [-l ttl] [-F count] [-M tokens] "
    "[-R duration]\n"
    "                [-Z size] [file ...]\n"
    "       urlfetch -x file [-T] [-u url]\n";

static struct {
	long max_per_msg;
	const char *extract;
	const char *url;
	const char *session;
	int text;
} opt = { .max_per_msg = 3 };

static struct uk_out out;

static void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

/* Read all of path ("-": standard input) into b; -1 with err. */
static int
read_all(const char *path, struct uk_buf *b, struct uk_err *err)
{
	int fd = 0;
	ssize_t r;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
	}
	for (;;) {
		uk_buf_grow(b, 65536);
		r = read(fd, b->buf + b->len, b->alloc - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
			break;
		}
		if (!r)
			break;
		uk_buf_setlen(b, b->len + (size_t)r);
		if (b->len > EXTRACT_MAX) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: larger than %lu MiB",
			    path, EXTRACT_MAX >> 20);
			r = -1;
			break;
		}
	}
	if (fd)
		close(fd);
	return r < 0 ? -1 : 0;
}

static void
set_opt_str(yajl_val rec, const char *key, const char *s)
{
	if (s)
		uk_json_set_str(rec, key, s);
	else
		uk_json_set(rec, key, uk_json_null());
}

/*
 * --extract: a local HTML file, no network (kept as the extraction
 * scaffold wrote it: the benchmarks and evaluators call it).
 */
static int
extract_file(const char *path, const char *url, int text_only)
{
	struct uk_buf in = UK_BUF_INIT, u = UK_BUF_INIT;
	struct uk_extract x;
	struct uk_err err = { 0 };
	yajl_val rec;
	char now[64];
	int failed;

	memset(&x, 0, sizeof(x));
	failed = read_all(path, &in, &err) < 0 ||
	    uk_extract_html(in.buf, in.len, NULL, url, &x, &err) < 0;
	if (!url) {
		char *abs = strcmp(path, "-") ? realpath(path, NULL) : NULL;

		uk_buf_addstr(&u, "file://");
		uk_buf_addstr(&u,
		    abs                   ? abs :
			strcmp(path, "-") ? path :
					    "/dev/stdin");
		free(abs);
		url = u.buf;
	}
	if (!failed && x.blocked)
		uk_err_set(&err, UK_EXIT_FAIL,
		    "'%s' is a block or challenge page, not content", url);
	if (text_only) {
		if (failed || x.blocked) {
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
		} else if (x.text[0]) {
			if (fputs(x.text, stdout) == EOF ||
			    putchar('\n') == EOF)
				uk_status_set(UK_EXIT_FATAL);
		}
		if (fflush(stdout) == EOF || ferror(stdout)) {
			uk_warn("write error: %s", strerror(errno));
			uk_status_set(UK_EXIT_FATAL);
		}
		goto out;
	}
	uk_out_init(&out, stdout);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", url);
	uk_json_set_str(rec, "url_type", "web");
	if (failed) {
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	} else {
		set_opt_str(rec, "title", x.title);
		set_opt_str(rec, "description", x.description);
		set_opt_str(rec, "author", x.author);
		set_opt_str(rec, "date", x.date);
		if (!x.blocked)
			uk_json_set_str(rec, "content", x.text);
	}
	uk_time_rfc3339(now, sizeof(now));
	uk_json_set_str(rec, "fetched_at", now);
	if (!failed && x.fallback)
		uk_json_set_str(rec, "extraction", "fallback");
	if (!failed && x.blocked) {
		uk_json_set_bool(rec, "blocked", 1);
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	}
	uk_out_record(&out, rec);
	uk_json_free(rec);
	uk_out_finish(&out);
	uk_out_release(&out);
out:
	uk_extract_release(&x);
	uk_buf_release(&in);
	uk_buf_release(&u);
	return uk_status;
}

/* One input record's place in the output order. */
struct slot {
	enum { S_JOB, S_PASS, S_BAD } kind;
	struct uk_fetch_job job;
	yajl_val in;        /* the input record (S_JOB, S_PASS) */
	char *file, *msg;   /* S_BAD */
	unsigned long line; /* S_BAD */
};

struct run {
	struct uk_fetch f;
	struct slot **q; /* the window, in input order */
	size_t head, n, cap;
	struct uk_cache scache; /* the session's cache directory */
	struct uk_session sess; /* -S */
	int have_sess;
	char *msgkey; /* the message being counted */
	long msgcount;
	long cache_errors;
};

static struct slot *
push_slot(struct run *r, int kind)
{
	struct slot *s = uk_xcalloc(1, sizeof(*s));

	if (r->head + r->n == r->cap) {
		if (r->head > 0) {
			memmove(r->q, r->q + r->head, r->n * sizeof(*r->q));
			r->head = 0;
		} else {
			r->cap = r->cap ? 2 * r->cap : 64;
			r->q = uk_xrealloc(r->q, r->cap * sizeof(*r->q));
		}
	}
	s->kind = kind;
	r->q[r->head + r->n++] = s;
	return s;
}

/* Write every finished record at the head of the window. */
static void
flush_head(struct run *r)
{
	struct uk_err err;
	struct slot *s;
	const char *e;

	while (r->n > 0) {
		s = r->q[r->head];
		if (s->kind == S_JOB && !s->job.done)
			break;
		switch (s->kind) {
		case S_JOB:
			uk_fetch_carry(s->job.rec, s->in);
			if ((e = uk_json_get_str(s->job.rec, "error"))) {
				uk_warn("'%s': %s", s->job.url, e);
				uk_status_set(UK_EXIT_FAIL);
			}
			uk_out_record(&out, s->job.rec);
			if (r->have_sess &&
			    uk_session_add(&r->sess, s->job.rec, &err)) {
				uk_warn("session '%s': %s", opt.session,
				    err.msg);
				uk_status_set(err.code);
			}
			uk_fetch_job_release(&s->job);
			break;
		case S_PASS:
			uk_out_record(&out, s->in);
			break;
		case S_BAD:
			uk_out_error(&out, s->file, s->line, s->msg);
			break;
		}
		uk_json_free(s->in);
		free(s->file);
		free(s->msg);
		free(s);
		r->head++;
		r->n--;
	}
	if (r->f.cache_errors > r->cache_errors) {
		uk_warn("cache: %s", r->f.cache_err.msg);
		uk_status_set(UK_EXIT_FAIL);
		r->cache_errors = r->f.cache_errors;
	}
}

static void
bad(struct run *r, struct uk_lines *in, const char *msg)
{
	struct slot *s = push_slot(r, S_BAD);

	s->file = uk_xstrdup(in->name);
	s->line = in->lineno;
	s->msg = uk_xstrdup(msg);
}

/* The per-message limit: 1 when rec is one URL too many. */
static int
over_limit(struct run *r, yajl_val rec)
{
	yajl_val m = uk_json_get(rec, "message");
	struct uk_buf key = UK_BUF_INIT;

	if (!opt.max_per_msg || !m)
		return 0;
	uk_json_to_buf(m, &key);
	if (!r->msgkey || strcmp(r->msgkey, key.buf)) {
		free(r->msgkey);
		r->msgkey = uk_buf_detach(&key, NULL);
		r->msgcount = 0;
	}
	uk_buf_release(&key);
	return ++r->msgcount > opt.max_per_msg;
}

/* Take one input record; returns 0 at the end of input, -1 on fatal. */
static int
take(struct run *r, struct uk_lines *in)
{
	struct uk_err err;
	yajl_val rec;
	const char *url, *type;
	struct slot *s;
	int n;

	n = uk_jsonl_next(in, UK_JSONL_BARE_URL, &rec, &err);
	if (n == 0)
		return 0;
	if (n < 0) {
		if (err.code == UK_EXIT_FATAL) {
			uk_warn("%s", err.msg);
			return -1;
		}
		bad(r, in, err.msg);
		return 1;
	}
	if (uk_json_get(rec, "error")) {
		s = push_slot(r, S_PASS);
		s->in = rec;
		return 1;
	}
	if (!(url = uk_json_get_str(rec, "url"))) {
		bad(r, in, "no string field 'url'");
		uk_json_free(rec);
		return 1;
	}
	if (over_limit(r, rec)) {
		uk_warn("%s:%lu: '%s': over the limit of %ld URLs per message "
			"(-m), not fetched",
		    uk_lines_display(in), in->lineno, url, opt.max_per_msg);
		uk_json_free(rec);
		return 1;
	}
	type = uk_json_get_str(rec, "type");
	s = push_slot(r, S_JOB);
	s->in = rec;
	uk_fetch_start(&r->f, &s->job, url, type);
	return 1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "user-agent", required_argument, NULL, 'A' },
		{ "no-cache", no_argument, NULL, 'c' },
		{ "extract", required_argument, NULL, 'x' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "insecure", no_argument, NULL, 'k' },
		{ "max-per-message", required_argument, NULL, 'm' },
		{ "text", no_argument, NULL, 'T' },
		{ "allow-private", no_argument, NULL, 'P' },
		{ "refresh", no_argument, NULL, 'r' },
		{ "session", required_argument, NULL, 'S' },
		{ "max-size", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "ttl", required_argument, NULL, 'l' },
		{ "url", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "repo-max-files", required_argument, NULL, 'F' },
		{ "map-json", no_argument, NULL, 'J' },
		{ "map-tokens", required_argument, NULL, 'M' },
		{ "repo-timeout", required_argument, NULL, 'R' },
		{ "repo-max-size", required_argument, NULL, 'Z' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_fetch_opts fo;
	struct uk_err err;
	struct uk_lines in;
	struct run r;
	unsigned long long size;
	double secs;
	long window, n_long;
	int c, i, eof, open_in = 0, fd_ready = 0, n;

	uk_prog_set(argv[0]);
	uk_fetch_opts_init(&fo);
	while ((c = getopt_long(argc, argv, "A:cF:j:JkM:l:m:PR:rS:s:t:Tu:x:Z:hV",
		    longopts, NULL)) != -1) {
		switch (c) {
		case 'A':
			fo.http.user_agent = optarg;
			break;
		case 'c':
			fo.use_cache = 0;
			break;
		case 'x':
			opt.extract = optarg;
			break;
		case 'j':
			if (uk_parse_long(optarg, 1, 1000, &fo.http.jobs)) {
				uk_warn("-j: not a count from 1 to 1000: '%s'",
				    optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'k':
			fo.http.insecure = 1;
			break;
		case 'm':
			if (uk_parse_long(optarg, 0, 1000000000L,
				&opt.max_per_msg)) {
				uk_warn("-m: not a count: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'T':
			opt.text = 1;
			break;
		case 'P':
			fo.http.allow_private = 1;
			break;
		case 'r':
			fo.refresh = 1;
			break;
		case 'S':
			if (!uk_session_name_ok(optarg)) {
				uk_warn("-S: not a session name: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			opt.session = optarg;
			break;
		case 's':
			if (uk_parse_size(optarg, &size) || size == 0) {
				uk_warn("-s: not a size: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.http.max_size = size;
			break;
		case 't':
			if (uk_parse_seconds(optarg, &secs) || secs <= 0) {
				uk_warn("-t: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.http.timeout = secs;
			break;
		case 'l':
			if (uk_parse_seconds(optarg, &secs) || secs < 0 ||
			    secs > 1e12) {
				uk_warn("-l: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.ttl = (long)secs;
			break;
		case 'u':
			opt.url = optarg;
			break;
		case 'F':
			if (uk_parse_long(optarg, 1, 100000000L, &n_long)) {
				uk_warn("-F: not a count: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.repo.max_files = (unsigned long)n_long;
			break;
		case 'J':
			fo.repo.map_json = 1;
			break;
		case 'M':
			if (uk_parse_long(optarg, 0, 100000000L,
				&fo.repo.map_tokens)) {
				uk_warn("-M: not a token count: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'R':
			if (uk_parse_seconds(optarg, &secs) || secs <= 0) {
				uk_warn("-R: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.repo.timeout = secs;
			break;
		case 'Z':
			if (uk_parse_size(optarg, &size) || size == 0) {
				uk_warn("-Z: not a size: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			fo.repo.max_bytes = size;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		case 'V':
			printf("urlfetch %s\n", UK_VERSION);
			return UK_EXIT_OK;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.extract) {
		if (argc) {
			uk_warn("-x takes no operands");
			usage(UK_EXIT_USAGE);
		}
		return extract_file(opt.extract, opt.url, opt.text);
	}
	if (opt.text || opt.url) {
		uk_warn("-T and -u go with -x");
		usage(UK_EXIT_USAGE);
	}

	memset(&r, 0, sizeof(r));
	if (uk_fetch_init(&r.f, &fo, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	if (opt.session) {
		if (uk_cache_open(&r.scache, fo.cache_dir, fo.ttl, &err) ||
		    uk_session_open(&r.sess, &r.scache, opt.session, &err))
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
		r.have_sess = 1;
	}
	uk_out_init(&out, stdout);
	window = 4 * fo.http.jobs < 16 ? 16 : 4 * fo.http.jobs;

	i = 0;
	eof = 0;
	for (;;) {
		int fd = -1;

		flush_head(&r);
		if (!eof && !open_in) {
			if (i >= (argc ? argc : 1)) {
				eof = 1;
			} else if (uk_lines_open(&in, argc ? argv[i] : "-",
				       &err)) {
				uk_warn("%s", err.msg);
				uk_status_set(err.code);
				i++;
				continue;
			} else {
				open_in = 1;
				free(r.msgkey);
				r.msgkey = NULL;
			}
		}
		if (open_in && (long)r.n < window) {
			if (!uk_fetch_busy(&r.f) || fd_ready ||
			    in.rpos < in.rend) {
				fd_ready = 0;
				n = take(&r, &in);
				if (n <= 0) {
					uk_lines_close(&in);
					open_in = 0;
					i++;
					if (n < 0) {
						uk_status_set(UK_EXIT_FATAL);
						eof = 1;
					}
				}
				continue;
			}
			fd = in.fd;
		}
		if (eof && r.n == 0)
			break;
		if (!uk_fetch_wait(&r.f, fd, &fd_ready) && !fd_ready &&
		    !uk_fetch_busy(&r.f) && eof) {
			/* Nothing left in flight: the window is done. */
			flush_head(&r);
			if (r.n)
				uk_die(UK_EXIT_FATAL,
				    "internal error: "
				    "a fetch went missing");
		}
	}
	if (open_in)
		uk_lines_close(&in);
	free(r.msgkey);
	free(r.q);
	uk_fetch_release(&r.f);
	if (r.have_sess) {
		uk_session_release(&r.sess);
		uk_cache_release(&r.scache);
	}
	uk_out_finish(&out);
	uk_out_release(&out);
	return uk_status;
}
