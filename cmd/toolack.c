/* SPDX-License-Identifier: MIT */
/* toolack: frontend-executed tools: a pending registry and its clients. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "json.h"
#include "jsonl.h"
#include "progress.h"
#include "sse.h"
#include "strset.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "toolack_server.h"
#include "util.h"

#include "banned.h"

extern char **environ;

static const char usage_text[] =
    "usage: toolack serve [-l address] [-f token-file] [-b heartbeat] "
    "[-T timeout]\n"
    "       toolack call [-nquV] [-j jobs] [-t tool] [-T timeout] "
    "[-U url] [file ...]\n"
    "       toolack ack [-e text] [-o json] [-r time] [-U url] "
    "-s status id\n"
    "       toolack exec [-H tool=command] [-i idle] [-j jobs] "
    "[-T timeout] [-U url]\n"
    "                    [-x executor]\n"
    "       toolack wait [-T timeout] [-U url] id ...\n";

static void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

/* Shared option state of the clients. */
static const char *base_url;
static struct uk_buf token = UK_BUF_INIT;
static volatile sig_atomic_t stopping;

static void
on_signal(int sig)
{
	stopping = sig;
}

static void
raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* The server's base URL (-U, TOOLACK_URL, default) without a final '/'. */
static void
client_setup(const char *given)
{
	struct uk_err err;
	char host[64];
	int port;
	static char url[128];

	if (!given && !(given = getenv("TOOLACK_URL")))
		given = UK_TOOLACK_PROTO_URL;
	if (uk_toolack_proto_addr_parse(given, host, sizeof(host), &port,
		&err)) {
		uk_warn("%s", err.msg);
		usage(UK_EXIT_USAGE);
	}
	snprintf(url, sizeof(url), "http://%s:%d", host, port);
	base_url = url;
	if (uk_toolack_proto_token_read(NULL, &token, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		uk_die(UK_EXIT_FATAL, "cannot initialise libcurl");
}

static size_t
to_buf(char *p, size_t size, size_t n, void *ctx)
{
	struct uk_buf *b = ctx;

	/* An answer is a record: the limit every reader of records keeps. */
	if (b->len + size * n > UK_JSONL_MAX_LINE)
		return 0;
	uk_buf_add(b, p, size * n);
	return size * n;
}

/* A curl handle for path on the server; headers must be freed. */
static CURL *
client_handle_on(CURL *h, const char *path, const char *body, long timeout_ms,
    struct uk_buf *resp, struct curl_slist **headers, char *errbuf)
{
	struct uk_buf b = UK_BUF_INIT;

	if (h)
		curl_easy_reset(h);
	else
		h = curl_easy_init();
	if (!h)
		uk_die(UK_EXIT_FATAL, "out of memory");
	uk_buf_addf(&b, "%s%s", base_url, path);
	curl_easy_setopt(h, CURLOPT_URL, b.buf);
	uk_buf_reset(&b);
	uk_buf_addf(&b, "Authorization: Bearer %s", token.buf);
	*headers = curl_slist_append(NULL, b.buf);
	uk_buf_release(&b);
	if (body) {
		*headers = curl_slist_append(*headers,
		    "Content-Type: application/json");
		curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, body);
	}
	*headers = curl_slist_append(*headers, "Expect:");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, *headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, to_buf);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, resp);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
	if (timeout_ms > 0)
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http");
	errbuf[0] = '\0';
	return h;
}

static CURL *
client_handle(const char *path, const char *body, long timeout_ms,
    struct uk_buf *resp, struct curl_slist **headers, char *errbuf)
{
	return client_handle_on(NULL, path, body, timeout_ms, resp, headers,
	    errbuf);
}

/*
 * One blocking request, on *reuse when not NULL (kept for the next
 * request, so the connection is reused).  Returns the HTTP status with
 * the body in resp, or -1 with err filled when there was no answer.
 */
static long
client_request(CURL **reuse, const char *path, const char *body,
    long timeout_ms, struct uk_buf *resp, struct uk_err *err)
{
	struct curl_slist *hd = NULL;
	char errbuf[CURL_ERROR_SIZE];
	CURL *h = client_handle_on(reuse ? *reuse : NULL, path, body,
	    timeout_ms, resp, &hd, errbuf);
	CURLcode rc;
	long code = -1;

	rc = curl_easy_perform(h);
	if (rc != CURLE_OK)
		uk_err_set(err, UK_EXIT_FATAL, "%s%s: %s", base_url, path,
		    errbuf[0] ? errbuf : curl_easy_strerror(rc));
	else
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(hd);
	if (reuse)
		*reuse = h;
	else
		curl_easy_cleanup(h);
	return code;
}

/* The reason of a {"ok":false,"reason":...} answer, or the body. */
static void
reason_of(const struct uk_buf *resp, long code, char *out, size_t size)
{
	yajl_val v = uk_json_parse(resp->buf, resp->len, NULL);
	const char *r = v ? uk_json_get_str(v, "reason") : NULL;

	if (r)
		snprintf(out, size, "HTTP %ld: %s", code, r);
	else
		snprintf(out, size, "HTTP %ld", code);
	uk_json_free(v);
}

/* serve */

static void
serve_ready(void *ctx, const char *url)
{
	const char *tok = ctx;

	printf("%s\n", url);
	if (fflush(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
	if (isatty(2))
		uk_warn("frontend at %s/?token=%s", url, tok);
	else
		uk_warn("listening on %s", url);
}

static int
cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 'f' },
		{ "heartbeat", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_toolack_server_opts o;
	struct uk_err err;
	const char *listen = getenv("TOOLACK_URL"), *file = NULL;
	char host[64];
	double d;
	long t;
	int c, port, sfd;
	sigset_t set;

	memset(&o, 0, sizeof(o));
	if (!listen)
		listen = UK_TOOLACK_PROTO_URL;
	while (
	    (c = getopt_long(argc, argv, "l:f:b:T:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			listen = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'b':
			if (uk_parse_seconds(optarg, &d) || d < 0.01 ||
			    d > 3600) {
				uk_warn("-b: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			o.heartbeat_ms = (long)(d * 1000);
			break;
		case 'T':
			if (uk_parse_long(optarg, 1,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &t)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			o.default_timeout = t;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc)
		usage(UK_EXIT_USAGE);
	if (uk_toolack_proto_addr_parse(listen, host, sizeof(host), &port,
		&err)) {
		uk_warn("%s", err.msg);
		usage(UK_EXIT_USAGE);
	}
	if (uk_toolack_proto_token_serve(NULL, file, &token, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		uk_die(UK_EXIT_FATAL, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	o.host = host;
	o.port = port;
	o.token = token.buf;
	o.ready = serve_ready;
	o.ctx = token.buf;
	if (uk_toolack_server_run(&o, sfd, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	close(sfd);
	uk_buf_release(&token);
	return UK_EXIT_OK;
}

/* call */

struct slot {
	int done;
	char *text; /* the line to print, newline included */
};

struct xfer {
	size_t slot;
	char *id;
	char *tool;
	double started;           /* uk_mono_now() when dispatched */
	struct xfer *prev, *next; /* in flight, oldest first */
	const char *file;
	unsigned long line;
	struct uk_buf resp;
	struct curl_slist *hd;
	char errbuf[CURL_ERROR_SIZE];
};

static struct {
	const char *tool;
	long timeout; /* -1: the server's default */
	long jobs;
	int unordered, nowait;
	struct slot *slots;
	size_t nslots, alloc, printed;
	char prefix[16];
	unsigned long seq;
	CURLM *multi;
	long inflight;
	long server_timeout; /* the server's default timeoutSec */
	/* Progress on a terminal: the calls waiting on acks, and for how long. */
	int quiet, out_tty;
	struct uk_progress prog;
	struct xfer *first, *last;
	unsigned long ndone, nfailed;
} cl = { .timeout = -1,
	.jobs = 16,
	.server_timeout = UK_TOOLACK_PROTO_TIMEOUT };

/*
 * "toolack: 2 done, 0 failed, 3 pending: c1 open_url 12s, c2 ..." (the
 * oldest first; the line is cut to the terminal's width), once a second.
 */
static void
call_progress(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct xfer *x;
	double now;

	if (!uk_progress_on(&cl.prog) ||
	    uk_mono_now() - cl.prog.last < cl.prog.interval)
		return;
	now = uk_mono_now();
	uk_buf_addf(&b, "toolack: %lu done, %lu failed, %ld pending", cl.ndone,
	    cl.nfailed, cl.inflight);
	for (x = cl.first; x && b.len < 512; x = x->next)
		uk_buf_addf(&b, "%s %s %s %.0fs", x == cl.first ? ":" : ",",
		    x->id, x->tool, now - x->started);
	uk_progress_show(&cl.prog, 1, "%s", b.buf);
	uk_buf_release(&b);
}

/*
 * Ask the server for its default timeout, which also finds out early
 * whether it is there and takes our token: if not, nothing can work.
 */
static void
call_hello(void)
{
	struct uk_buf resp = UK_BUF_INIT;
	struct uk_err err;
	char msg[600];
	long code;
	long long t;
	yajl_val v;

	code = client_request(NULL, "/api/tools/calls?limit=0", NULL, 10000,
	    &resp, &err);
	if (code < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	if (code != 200) {
		reason_of(&resp, code, msg, sizeof(msg));
		uk_die(UK_EXIT_FATAL, "%s: %s", base_url, msg);
	}
	if ((v = uk_json_parse(resp.buf, resp.len, NULL)) &&
	    !uk_json_get_int(v, "defaultTimeoutSec", &t) && t > 0 &&
	    t <= UK_TOOLACK_PROTO_MAX_TIMEOUT)
		cl.server_timeout = (long)t;
	uk_json_free(v);
	uk_buf_release(&resp);
}

static size_t
slot_new(void)
{
	if (cl.nslots == cl.alloc) {
		cl.alloc = cl.alloc ? 2 * cl.alloc : 64;
		cl.slots = uk_xrealloc(cl.slots, cl.alloc * sizeof(*cl.slots));
	}
	cl.slots[cl.nslots].done = 0;
	cl.slots[cl.nslots].text = NULL;
	return cl.nslots++;
}

static void
slot_flush(void)
{
	struct slot *s;

	while (cl.printed < cl.nslots && cl.slots[cl.printed].done) {
		s = &cl.slots[cl.printed++];
		if (cl.out_tty)
			uk_progress_erase(&cl.prog);
		if (s->text && fputs(s->text, stdout) == EOF)
			uk_die(UK_EXIT_FATAL,
			    "cannot write to standard output");
		free(s->text);
		s->text = NULL;
	}
	if (fflush(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
}

static void
slot_done(size_t i, char *text)
{
	cl.slots[i].done = 1;
	cl.slots[i].text = text;
	if (cl.unordered) {
		if (cl.out_tty)
			uk_progress_erase(&cl.prog);
		if (fputs(text, stdout) == EOF || fflush(stdout))
			uk_die(UK_EXIT_FATAL,
			    "cannot write to standard output");
		free(text);
		cl.slots[i].text = NULL;
	} else
		slot_flush();
}

static char *
record_line(yajl_val v)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_json_to_buf(v, &b);
	uk_buf_addch(&b, '\n');
	return uk_buf_detach(&b, NULL);
}

/* An error record for slot i. */
static void
slot_error(size_t i, const char *file, unsigned long line, const char *id,
    const char *msg)
{
	yajl_val e = uk_json_object();

	uk_json_set_str(e, "error", msg);
	uk_json_set_str(e, "tool", "toolack");
	uk_json_set_str(e, "file", file);
	uk_json_set_int(e, "line", (long long)line);
	if (id)
		uk_json_set_str(e, "toolCallId", id);
	if (line)
		uk_warn("%s:%lu: %s", !strcmp(file, "-") ? "<stdin>" : file,
		    line, msg);
	else
		uk_warn("%s", msg);
	uk_status_set(UK_EXIT_FAIL);
	cl.nfailed++;
	slot_done(i, record_line(e));
	uk_json_free(e);
}

static void
call_start(const char *file, unsigned long line, yajl_val rec)
{
	struct uk_err err;
	struct xfer *x;
	yajl_val call;
	char gen[48];
	long long t;
	size_t i = slot_new();
	CURL *h;
	struct uk_buf body = UK_BUF_INIT;

	if (uk_json_get(rec, "error")) {
		slot_done(i, record_line(rec));
		return;
	}
	snprintf(gen, sizeof(gen), "%s-%lu", cl.prefix, ++cl.seq);
	if (!(call = uk_toolack_proto_call_from_record(rec, cl.tool, gen,
		  &err))) {
		slot_error(i, file, line, NULL, err.msg);
		return;
	}
	if (cl.timeout > 0 && uk_json_get_int(call, "timeoutSec", &t))
		uk_json_set_int(call, "timeoutSec", cl.timeout);
	if (uk_toolack_proto_call_check(call, &err)) {
		slot_error(i, file, line, uk_json_get_str(call, "toolCallId"),
		    err.msg);
		uk_json_free(call);
		return;
	}
	if (uk_json_get_int(call, "timeoutSec", &t))
		t = cl.server_timeout; /* the server's default applies */
	uk_json_to_buf(call, &body);
	x = uk_xcalloc(1, sizeof(*x));
	x->slot = i;
	x->file = file;
	x->line = line;
	x->id = uk_xstrdup(uk_json_get_str(call, "toolCallId"));
	x->tool = uk_xstrdup(uk_json_get_str(call, "toolName"));
	x->started = uk_mono_now();
	x->prev = cl.last;
	if (cl.last)
		cl.last->next = x;
	else
		cl.first = x;
	cl.last = x;
	uk_buf_init(&x->resp, 0);
	h = client_handle(cl.nowait ? "/api/tools/dispatch?wait=0" :
				      "/api/tools/dispatch",
	    body.buf, cl.nowait ? 30000L : (long)(t + 30) * 1000L, &x->resp,
	    &x->hd, x->errbuf);
	curl_easy_setopt(h, CURLOPT_PRIVATE, x);
	curl_multi_add_handle(cl.multi, h);
	cl.inflight++;
	uk_buf_release(&body);
	uk_json_free(call);
}

static void
call_finish(CURL *h, CURLcode rc)
{
	struct xfer *x;
	long code = 0;
	char msg[600];
	yajl_val v = NULL;
	const char *st;

	curl_easy_getinfo(h, CURLINFO_PRIVATE, (char **)&x);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (x->prev)
		x->prev->next = x->next;
	else
		cl.first = x->next;
	if (x->next)
		x->next->prev = x->prev;
	else
		cl.last = x->prev;
	cl.ndone++;
	if (rc != CURLE_OK) {
		snprintf(msg, sizeof(msg), "%s: %s", base_url,
		    x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc));
		slot_error(x->slot, x->file, x->line, x->id, msg);
	} else if ((code == 200 || code == 202 || code == 409) &&
	    (v = uk_json_parse(x->resp.buf, x->resp.len, NULL)) &&
	    YAJL_IS_OBJECT(v) && uk_json_get_str(v, "status")) {
		/* 409: the id is taken; the server's failed ack says so. */
		uk_json_del(v, "ok");
		st = uk_json_get_str(v, "status");
		if (!st || (strcmp(st, "success") && strcmp(st, "pending"))) {
			uk_status_set(UK_EXIT_FAIL);
			cl.nfailed++;
		}
		slot_done(x->slot, record_line(v));
		uk_json_free(v);
	} else {
		uk_json_free(v);
		reason_of(&x->resp, code, msg, sizeof(msg));
		slot_error(x->slot, x->file, x->line, x->id, msg);
	}
	curl_multi_remove_handle(cl.multi, h);
	curl_easy_cleanup(h);
	curl_slist_free_all(x->hd);
	uk_buf_release(&x->resp);
	free(x->id);
	free(x->tool);
	free(x);
	cl.inflight--;
}

static void
call_pump(int timeout_ms, struct curl_waitfd *extra, unsigned nextra)
{
	CURLMsg *m;
	int running, left;

	curl_multi_perform(cl.multi, &running);
	while ((m = curl_multi_info_read(cl.multi, &left)))
		if (m->msg == CURLMSG_DONE)
			call_finish(m->easy_handle, m->data.result);
	call_progress();
	if (timeout_ms >= 0 && cl.inflight)
		curl_multi_poll(cl.multi, extra, nextra, timeout_ms, NULL);
}

/* One input line: a record, or with -t a bare URL. */
static void
call_line(const char *file, unsigned long lineno, const char *s, size_t n)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec;
	size_t i = 0;

	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == n)
		return;
	uk_buf_add_utf8(&b, s + i, n - i);
	if (b.buf[0] != '{' && cl.tool) {
		rec = uk_json_object();
		uk_json_set_str(rec, "url", b.buf);
	} else if (!(rec = uk_json_parse(b.buf, b.len, &err)) ||
	    !YAJL_IS_OBJECT(rec)) {
		uk_json_free(rec);
		slot_error(slot_new(), file, lineno, NULL,
		    rec ? "not a JSON object" : err.msg);
		uk_buf_release(&b);
		return;
	}
	call_start(file, lineno, rec);
	uk_json_free(rec);
	uk_buf_release(&b);
}

/* Read fd's lines and dispatch them, keeping the transfers moving. */
static int
call_file(const char *file, int fd)
{
	struct uk_buf in = UK_BUF_INIT;
	struct curl_waitfd w;
	unsigned long lineno = 0;
	char *nl;
	size_t off = 0;
	ssize_t n;
	int eof = 0;

	while ((!eof || off < in.len) && !stopping) {
		/* Take the complete lines we have, while there is room. */
		while (cl.inflight < cl.jobs &&
		    (nl = memchr(in.buf + off, '\n', in.len - off))) {
			lineno++;
			call_line(file, lineno, in.buf + off,
			    (size_t)(nl - (in.buf + off)));
			off = (size_t)(nl - in.buf) + 1;
		}
		if (eof && off < in.len && cl.inflight < cl.jobs) {
			lineno++;
			call_line(file, lineno, in.buf + off, in.len - off);
			off = in.len;
		}
		if (off == in.len) {
			uk_buf_reset(&in);
			off = 0;
		}
		if (eof || cl.inflight >= cl.jobs ||
		    memchr(in.buf + off, '\n', in.len - off)) {
			if (eof && off == in.len)
				break;
			call_pump(1000, NULL, 0);
			continue;
		}
		w.fd = fd;
		w.events = CURL_WAIT_POLLIN;
		w.revents = 0;
		call_pump(-1, NULL, 0);
		curl_multi_poll(cl.multi, &w, 1, 1000, NULL);
		if (!(w.revents & CURL_WAIT_POLLIN))
			continue;
		uk_buf_grow(&in, 65536);
		n = read(fd, in.buf + in.len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			uk_warn("%s: %s", file, strerror(errno));
			uk_buf_release(&in);
			return -1;
		}
		if (n == 0)
			eof = 1;
		else
			uk_buf_setlen(&in, in.len + (size_t)n);
		if (in.len - off > UK_JSONL_MAX_LINE &&
		    !memchr(in.buf + off, '\n', in.len - off)) {
			slot_error(slot_new(), file, lineno + 1, NULL,
			    "line too long");
			uk_buf_reset(&in);
			off = 0;
		}
	}
	uk_buf_release(&in);
	return 0;
}

/*
 * Stopped by a signal: the calls still waiting were asked for by a run
 * that is over, and a frontend should not carry them out now (tabs opening
 * after ^C).  Each is acked failed, as its caller may; the server resolves
 * it and tells the frontends, and its dispatch answers with that ack, so
 * every call read has its record.  A few seconds at most, then whatever
 * is left is left; a second signal ends it at once.
 */
static void
call_cancel(int sig)
{
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	struct xfer *x;
	char ts[40], why[80];
	double end = uk_mono_now() + 3;
	yajl_val body;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	snprintf(why, sizeof(why), "the caller stopped on %s",
	    sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM");
	uk_time_rfc3339(ts, sizeof(ts));
	for (x = cl.first; x && uk_mono_now() < end; x = x->next) {
		body = uk_json_object();
		uk_json_set_str(body, "toolCallId", x->id);
		uk_json_set_str(body, "status", "failed");
		uk_json_set(body, "output", uk_json_null());
		uk_json_set_str(body, "errorText", why);
		uk_json_set_str(body, "requestedAt", ts);
		uk_buf_reset(&b);
		uk_json_to_buf(body, &b);
		uk_json_free(body);
		uk_buf_reset(&resp);
		client_request(NULL, "/api/tools/ack", b.buf, 1000, &resp, &err);
	}
	uk_buf_release(&b);
	uk_buf_release(&resp);
	while (cl.inflight && uk_mono_now() < end)
		call_pump(100, NULL, 0);
}

static int
cmd_call(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-wait", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "tool", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "unordered", no_argument, NULL, 'u' },
		{ "url", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL;
	unsigned char rnd[4];
	struct sigaction sa;
	int c, i, fd;

	while ((c = getopt_long(argc, argv, "j:nqt:T:uU:hV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'j':
			if (uk_parse_long(optarg, 1, 10000, &cl.jobs)) {
				uk_warn("-j: not a count: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'n':
			cl.nowait = 1;
			break;
		case 'q':
			cl.quiet = 1;
			break;
		case 't':
			cl.tool = optarg;
			break;
		case 'T':
			if (uk_parse_long(optarg, 1,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &cl.timeout)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'u':
			cl.unordered = 1;
			break;
		case 'U':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		case 'V':
			printf("toolack %s\n", UK_VERSION);
			return UK_EXIT_OK;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	client_setup(url);
	raise_nofile();
	if (getentropy(rnd, sizeof(rnd)))
		memset(rnd, 0, sizeof(rnd));
	snprintf(cl.prefix, sizeof(cl.prefix), "tc%02x%02x%02x%02x", rnd[0],
	    rnd[1], rnd[2], rnd[3]);
	call_hello();
	uk_progress_init(&cl.prog, STDERR_FILENO, cl.quiet);
	cl.prog.interval = 1;
	cl.out_tty = isatty(STDOUT_FILENO);
	cl.multi = curl_multi_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a read returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (i = 0; i < (argc ? argc : 1) && !stopping; i++) {
		const char *f = argc ? argv[i] : "-";

		if (!strcmp(f, "-"))
			fd = 0;
		else if ((fd = open(f, O_RDONLY | O_CLOEXEC)) < 0) {
			uk_warn("'%s': %s", f, strerror(errno));
			uk_status_set(UK_EXIT_FAIL);
			continue;
		}
		if (call_file(f, fd))
			uk_status_set(UK_EXIT_FATAL);
		if (fd)
			close(fd);
		if (uk_status == UK_EXIT_FATAL)
			break;
	}
	while (cl.inflight && !stopping)
		call_pump(1000, NULL, 0);
	if (stopping)
		call_cancel(stopping);
	uk_progress_done(&cl.prog);
	slot_flush();
	curl_multi_cleanup(cl.multi);
	free(cl.slots);
	uk_buf_release(&token);
	curl_global_cleanup();
	if (fflush(stdout) || ferror(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
	if (stopping) {
		/* Die of the signal, as the shell expects (130 for ^C). */
		signal(stopping, SIG_DFL);
		raise(stopping);
	}
	return uk_status;
}

/* ack */

static int
cmd_ack(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "error", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "requested-at", required_argument, NULL, 'r' },
		{ "status", required_argument, NULL, 's' },
		{ "url", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *status = NULL, *etext = NULL, *at = NULL;
	yajl_val output = NULL, body;
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	char ts[40], msg[600];
	long code;
	int c;

	while ((c = getopt_long(argc, argv, "e:o:r:s:U:h", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'e':
			etext = optarg;
			break;
		case 'o':
			uk_json_free(output);
			if (!(output = uk_json_parse(optarg, strlen(optarg),
				  &err))) {
				uk_warn("-o: %s", err.msg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'r':
			at = optarg;
			break;
		case 's':
			status = optarg;
			break;
		case 'U':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc - 1 || !status) {
		uk_json_free(output);
		usage(UK_EXIT_USAGE);
	}
	if (!uk_toolack_registry_status_ok(status)) {
		uk_warn("-s: status must be success, failed or timeout");
		uk_json_free(output);
		usage(UK_EXIT_USAGE);
	}
	client_setup(url);
	if (!at) {
		uk_time_rfc3339(ts, sizeof(ts));
		at = ts;
	}
	body = uk_json_object();
	uk_json_set_str(body, "toolCallId", argv[optind]);
	uk_json_set_str(body, "status", status);
	uk_json_set(body, "output", output ? output : uk_json_null());
	uk_json_set(body, "errorText",
	    etext ? uk_json_str(etext) : uk_json_null());
	uk_json_set_str(body, "requestedAt", at);
	uk_json_to_buf(body, &b);
	uk_json_free(body);
	code =
	    client_request(NULL, "/api/tools/ack", b.buf, 10000, &resp, &err);
	uk_buf_release(&b);
	if (code < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	fwrite(resp.buf, 1, resp.len, stdout);
	if (code != 200) {
		reason_of(&resp, code, msg, sizeof(msg));
		uk_warn("'%s': %s", argv[optind], msg);
		uk_status_set(code == 400 ? UK_EXIT_USAGE : UK_EXIT_FAIL);
	}
	uk_buf_release(&resp);
	uk_buf_release(&token);
	curl_global_cleanup();
	if (fflush(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
	return uk_status;
}

/* wait */

static int
cmd_wait(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "timeout", required_argument, NULL, 'T' },
		{ "url", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL;
	struct uk_buf path = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	long timeout = UK_TOOLACK_PROTO_MAX_TIMEOUT, code, chunk;
	long long until;
	char msg[600], *esc;
	yajl_val v;
	const char *st;
	int c, i;

	while ((c = getopt_long(argc, argv, "T:U:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'T':
			if (uk_parse_long(optarg, 0,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &timeout)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'U':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind == argc)
		usage(UK_EXIT_USAGE);
	client_setup(url);
	for (i = optind; i < argc; i++) {
		until = uk_mono_ms() + timeout * 1000LL;
		for (;;) {
			chunk = (long)((until - uk_mono_ms()) / 1000);
			if (chunk > 30)
				chunk = 30;
			if (chunk < 0)
				chunk = 0;
			esc = curl_easy_escape(NULL, argv[i], 0);
			uk_buf_reset(&path);
			uk_buf_addf(&path, "/api/tools/result/%s?timeout=%ld",
			    esc, chunk);
			curl_free(esc);
			uk_buf_reset(&resp);
			code = client_request(NULL, path.buf, NULL,
			    (chunk + 10) * 1000, &resp, &err);
			if (code < 0)
				uk_die(UK_EXIT_FATAL, "%s", err.msg);
			if (code != 202 || uk_mono_ms() >= until ||
			    stopping)
				break;
		}
		if (code == 200 &&
		    (v = uk_json_parse(resp.buf, resp.len, NULL))) {
			st = uk_json_get_str(v, "status");
			if (!st || strcmp(st, "success"))
				uk_status_set(UK_EXIT_FAIL);
			uk_json_free(v);
			fwrite(resp.buf, 1, resp.len, stdout);
		} else if (code == 202) {
			fwrite(resp.buf, 1, resp.len, stdout);
			uk_warn("'%s': still pending", argv[i]);
			uk_status_set(UK_EXIT_FAIL);
		} else {
			reason_of(&resp, code, msg, sizeof(msg));
			uk_warn("'%s': %s", argv[i], msg);
			uk_status_set(UK_EXIT_FAIL);
		}
		if (fflush(stdout))
			uk_die(UK_EXIT_FATAL,
			    "cannot write to standard output");
	}
	uk_buf_release(&path);
	uk_buf_release(&resp);
	uk_buf_release(&token);
	curl_global_cleanup();
	return uk_status;
}

/* exec */

struct handler {
	char *tool;
	char **argv; /* the command split into words, NULL-terminated */
	int argc;
};

struct job {
	char *id, *tool, *input, *requested_at;
	struct job *next;
};

static struct {
	struct handler *h;
	size_t nh;
	long jobs, idle, timeout;
	const char *executor;
	struct uk_buf tools;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct job *head, *tail;
	struct uk_strset seen; /* ids queued or running: never twice */
	struct uk_sse sse;
	int connected;
	long busy;
} ex = { .jobs = 4,
	.idle = 45,
	.timeout = 30,
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER };

/* Split a command into words: blanks separate, quotes group, no shell. */
static int
split_words(const char *s, struct handler *h)
{
	struct uk_buf w = UK_BUF_INIT;
	int inword = 0;
	char q = 0;

	h->argv = NULL;
	h->argc = 0;
	for (;; s++) {
		if (!*s || (!q && (*s == ' ' || *s == '\t'))) {
			if (inword) {
				h->argv = uk_xrealloc(h->argv,
				    (size_t)(h->argc + 2) * sizeof(char *));
				h->argv[h->argc++] = uk_buf_detach(&w, NULL);
				h->argv[h->argc] = NULL;
				inword = 0;
			}
			if (!*s)
				break;
			continue;
		}
		inword = 1;
		if (q && *s == q)
			q = 0;
		else if (!q && (*s == '\'' || *s == '"'))
			q = *s;
		else if (*s == '\\' && q != '\'' && s[1])
			uk_buf_addch(&w, *++s);
		else
			uk_buf_addch(&w, *s);
	}
	uk_buf_release(&w);
	return q || !h->argc ? -1 : 0;
}

static struct handler *
handler_for(const char *tool)
{
	size_t i;

	for (i = 0; i < ex.nh; i++)
		if (!strcmp(ex.h[i].tool, tool))
			return &ex.h[i];
	return NULL;
}

/* Read both pipes until both close or the deadline; kill at the deadline. */
static int
run_handler(struct handler *h, const char *arg, struct job *j,
    struct uk_buf *out, struct uk_buf *errout, int *timed_out, int *out_cut)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	sigset_t none, def;
	int po[2], pe[2], status = -1, termed = 0;
	char **argv, envbuf[3][300], **env;
	size_t i, n;
	pid_t pid;
	long long until = uk_mono_ms() + ex.timeout * 1000;
	struct pollfd p[2];
	char buf[4096];
	ssize_t k;
	int open_fds = 2;

	*timed_out = 0;
	*out_cut = 0;
	argv = uk_xcalloc((size_t)h->argc + 2, sizeof(char *));
	for (i = 0; i < (size_t)h->argc; i++)
		argv[i] = h->argv[i];
	argv[i] = (char *)arg;
	for (n = 0; environ[n]; n++)
		;
	env = uk_xcalloc(n + 4, sizeof(char *));
	for (i = 0; i < n; i++)
		env[i] = environ[i];
	snprintf(envbuf[0], sizeof(envbuf[0]), "TOOLACK_TOOL=%s", j->tool);
	snprintf(envbuf[1], sizeof(envbuf[1]), "TOOLACK_CALL_ID=%s", j->id);
	snprintf(envbuf[2], sizeof(envbuf[2]), "TOOLACK_REQUESTED_AT=%s",
	    j->requested_at);
	env[n] = envbuf[0];
	env[n + 1] = envbuf[1];
	env[n + 2] = envbuf[2];
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		uk_die(UK_EXIT_FATAL, "pipe: %s", strerror(errno));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	/* The handler leads a process group of its own, so that what it
	 * starts is stopped with it; it gets the signals as a shell would
	 * give them (SIGPIPE not ignored, nothing blocked). */
	posix_spawnattr_init(&sa);
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGINT);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setsigdefault(&sa, &def);
	posix_spawnattr_setpgroup(&sa, 0);
	posix_spawnattr_setflags(&sa,
	    POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
		POSIX_SPAWN_SETSIGDEF);
	errno = posix_spawnp(&pid, argv[0], &fa, &sa, argv, env);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	free(argv);
	free(env);
	if (errno) {
		uk_buf_addf(errout, "cannot run '%s': %s", h->argv[0],
		    strerror(errno));
		close(po[0]);
		close(pe[0]);
		return -1;
	}
	p[0].fd = po[0];
	p[1].fd = pe[0];
	p[0].events = p[1].events = POLLIN;
	while (open_fds) {
		long long left = until - uk_mono_ms();

		if (stopping && !termed) {
			/* SIGTERM or SIGINT: the handler gets SIGTERM and two
			 * seconds, then SIGKILL, and is reaped. */
			kill(-pid, SIGTERM);
			termed = 1;
			if (left > 2000) {
				until -= left - 2000;
				left = 2000;
			}
		}
		if (left <= 0) {
			*timed_out = 1;
			kill(-pid, SIGKILL);
			break;
		}
		/* Slices of 200 ms: the signal wakes only the main thread. */
		if (poll(p, 2, left < 200 ? (int)left : 200) < 0 &&
		    errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			k = read(p[i].fd, buf, sizeof(buf));
			if (k <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
				continue;
			}
			if ((i ? errout : out)->len < UK_TOOLACK_PROTO_MAX_BODY)
				uk_buf_add(i ? errout : out, buf, (size_t)k);
			else if (!i)
				*out_cut = 1; /* read on, keep none */
		}
	}
	for (i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Each worker's handle, so acks go over a kept-alive connection. */
static __thread CURL *ack_handle;

static void
post_ack(struct job *j, const char *status, yajl_val output, const char *etext)
{
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	yajl_val body = uk_json_object();
	long code = -1;
	int tries;

	uk_json_set_str(body, "toolCallId", j->id);
	uk_json_set_str(body, "status", status);
	uk_json_set(body, "output", output ? output : uk_json_null());
	uk_json_set(body, "errorText",
	    etext ? uk_json_str(etext) : uk_json_null());
	uk_json_set_str(body, "requestedAt", j->requested_at);
	uk_json_to_buf(body, &b);
	uk_json_free(body);
	/* Stopping: one try, so that the caller hears at once. */
	for (tries = 0; tries < 5 && (!tries || !stopping); tries++) {
		uk_buf_reset(&resp);
		code = client_request(&ack_handle, "/api/tools/ack", b.buf,
		    10000, &resp, &err);
		if (code >= 0)
			break;
		uk_warn("ack '%s': %s", j->id, err.msg);
		usleep(200000 * (tries + 1));
	}
	if (code > 0 && code != 200) {
		char msg[600];

		reason_of(&resp, code, msg, sizeof(msg));
		uk_warn("ack '%s': %s", j->id, msg);
	}
	uk_buf_release(&b);
	uk_buf_release(&resp);
}

/*
 * The output of a successful call: the JSON object the handler printed,
 * else {"url"?, "stdout"?}.  The ack must fit the server's body limit
 * (UK_TOOLACK_PROTO_MAX_BODY) or the server refuses it and the caller hears
 * nothing but a timeout, so an output too large for it becomes its text,
 * cut at a UTF-8 boundary until it fits, with "truncated":true.
 */
static yajl_val
success_output(struct job *j, const char *url, struct uk_buf *out, int cut)
{
	struct uk_buf b = UK_BUF_INIT;
	/* Room for the ack's other fields: the id escaped (at most twice
	 * its length), requestedAt and the keys. */
	size_t room = UK_TOOLACK_PROTO_MAX_BODY - 1024 - 2 * strlen(j->id) -
	    2 * strlen(j->requested_at);
	size_t n = out->len;
	yajl_val v;

	if (!cut && out->len && out->buf[0] == '{' &&
	    (v = uk_json_parse(out->buf, out->len, NULL))) {
		if (YAJL_IS_OBJECT(v)) {
			uk_json_to_buf(v, &b);
			if (b.len <= room) {
				uk_buf_release(&b);
				return v;
			}
			cut = 1;
		}
		uk_json_free(v);
	}
	for (;;) {
		v = uk_json_object();
		if (url)
			uk_json_set_str(v, "url", url);
		if (n)
			uk_json_set(v, "stdout", uk_json_strn(out->buf, n));
		if (cut)
			uk_json_set_bool(v, "truncated", 1);
		uk_buf_reset(&b);
		uk_json_to_buf(v, &b);
		if (b.len <= room || !n)
			break;
		uk_json_free(v);
		/* Escapes make the text longer than its bytes: cut by the
		 * excess and measure again. */
		n -= b.len - room < n ? b.len - room : n;
		n = uk_utf8_cut(out->buf, n);
		cut = 1;
	}
	uk_buf_release(&b);
	return v;
}

static void
run_job(struct job *j)
{
	struct handler *h = handler_for(j->tool);
	struct uk_buf out = UK_BUF_INIT, err = UK_BUF_INIT, msg = UK_BUF_INIT;
	yajl_val input = uk_json_parse(j->input, strlen(j->input), NULL);
	yajl_val output = NULL;
	const char *arg = j->input, *u;
	int status, timed_out, cut;

	if (!h) {
		uk_buf_addf(&msg, "no handler for tool '%s'", j->tool);
		post_ack(j, "failed", NULL, msg.buf);
		goto out;
	}
	if (!strcmp(j->tool, "open_url")) {
		if (!input || !(u = uk_json_get_str(input, "url"))) {
			post_ack(j, "failed", NULL, "url is required");
			goto out;
		}
		arg = u;
	}
	status = run_handler(h, arg, j, &out, &err, &timed_out, &cut);
	uk_buf_trim(&err);
	if (stopping && (timed_out || (status != -1 && WIFSIGNALED(status)))) {
		post_ack(j, "failed", NULL,
		    "executor stopped while the handler ran");
	} else if (timed_out) {
		uk_buf_addf(&msg, "handler timed out after %ld s", ex.timeout);
		post_ack(j, "failed", NULL, msg.buf);
	} else if (status == -1) {
		post_ack(j, "failed", NULL, err.buf);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFEXITED(status))
			uk_buf_addf(&msg, "handler exited %d",
			    WEXITSTATUS(status));
		else
			uk_buf_addf(&msg, "handler killed by signal %d",
			    WTERMSIG(status));
		if (err.len)
			uk_buf_addf(&msg, ": %.*s",
			    (int)uk_utf8_cut(err.buf,
				err.len > 2000 ? 2000 : err.len),
			    err.buf);
		post_ack(j, "failed", NULL, msg.buf);
	} else {
		/* Success: a JSON object on stdout is the output itself. */
		uk_buf_trim(&out);
		output = success_output(j,
		    !strcmp(j->tool, "open_url") ? arg : NULL, &out, cut);
		post_ack(j, "success", output, NULL);
	}
out:
	uk_json_free(input);
	uk_buf_release(&out);
	uk_buf_release(&err);
	uk_buf_release(&msg);
}

static void
job_free(struct job *j)
{
	free(j->id);
	free(j->tool);
	free(j->input);
	free(j->requested_at);
	free(j);
}

static void *
worker(void *arg)
{
	struct job *j;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&ex.mu);
		while (!ex.head && !stopping)
			pthread_cond_wait(&ex.cv, &ex.mu);
		if (stopping) {
			pthread_mutex_unlock(&ex.mu);
			if (ack_handle)
				curl_easy_cleanup(ack_handle);
			return NULL;
		}
		j = ex.head;
		ex.head = j->next;
		if (!ex.head)
			ex.tail = NULL;
		ex.busy++;
		pthread_mutex_unlock(&ex.mu);
		run_job(j);
		pthread_mutex_lock(&ex.mu);
		/* Ids stay seen (a late replay never runs twice); the set
		 * is emptied only when it grows large and nothing is left. */
		if (--ex.busy == 0 && !ex.head && ex.seen.len > 100000)
			uk_strset_reset(&ex.seen);
		pthread_mutex_unlock(&ex.mu);
		job_free(j);
	}
}

static int
on_event(void *ctx, const char *event, const char *data, const char *id)
{
	yajl_val v;
	struct job *j;
	const char *cid, *tool, *at;
	struct uk_buf in = UK_BUF_INIT, key = UK_BUF_INIT;
	int fresh;

	(void)ctx;
	if (!strcmp(event, "hello")) {
		ex.connected = 1;
		return 0;
	}
	if (strcmp(event, "call"))
		return 0;
	if (!(v = uk_json_parse(data, strlen(data), NULL)))
		return 0;
	cid = uk_json_get_str(v, "toolCallId");
	tool = uk_json_get_str(v, "toolName");
	at = uk_json_get_str(v, "requestedAt");
	if (!cid || !tool) {
		uk_json_free(v);
		return 0; /* no id: never run */
	}
	/* A call is its id and its registration (the event id): a replay
	 * repeats both, a caller that reuses an id after its call resolved
	 * makes a new registration, which must run. */
	uk_buf_addf(&key, "%s\n%s", cid, id ? id : "");
	pthread_mutex_lock(&ex.mu);
	fresh = uk_strset_add(&ex.seen, key.buf, key.len);
	uk_buf_release(&key);
	if (!fresh) {
		pthread_mutex_unlock(&ex.mu);
		uk_json_free(v);
		return 0; /* already queued or running: a replay */
	}
	j = uk_xcalloc(1, sizeof(*j));
	j->id = uk_xstrdup(cid);
	j->tool = uk_xstrdup(tool);
	if (uk_json_get(v, "input"))
		uk_json_to_buf(uk_json_get(v, "input"), &in);
	else
		uk_buf_addstr(&in, "{}");
	j->input = uk_buf_detach(&in, NULL);
	if (at && uk_toolack_registry_time_ok(at))
		j->requested_at = uk_xstrdup(at);
	else {
		char ts[40];

		uk_time_rfc3339(ts, sizeof(ts));
		j->requested_at = uk_xstrdup(ts);
	}
	if (ex.tail)
		ex.tail->next = j;
	else
		ex.head = j;
	ex.tail = j;
	pthread_cond_signal(&ex.cv);
	pthread_mutex_unlock(&ex.mu);
	uk_json_free(v);
	return 0;
}

static size_t
sse_write(char *p, size_t size, size_t n, void *ctx)
{
	(void)ctx;
	if (uk_sse_feed(&ex.sse, p, size * n))
		return 0;
	return size * n;
}

static int
sse_progress(void *ctx, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	(void)ctx;
	(void)a;
	(void)b;
	(void)c;
	(void)d;
	return stopping != 0;
}

/* One connection to the event stream; returns the HTTP status or -1. */
static long
stream_once(char *errbuf)
{
	struct uk_buf path = UK_BUF_INIT, b = UK_BUF_INIT;
	struct curl_slist *hd = NULL;
	char *e1, *e2;
	CURL *h;
	CURLcode rc;
	long code = -1;

	e1 = curl_easy_escape(NULL, ex.executor, 0);
	e2 = curl_easy_escape(NULL, ex.tools.buf, 0);
	uk_buf_addf(&path, "%s/api/tools/events?executor=%s&tools=%s", base_url,
	    e1, e2);
	curl_free(e1);
	curl_free(e2);
	if (!(h = curl_easy_init()))
		uk_die(UK_EXIT_FATAL, "out of memory");
	curl_easy_setopt(h, CURLOPT_URL, path.buf);
	uk_buf_addf(&b, "Authorization: Bearer %s", token.buf);
	hd = curl_slist_append(hd, b.buf);
	if (ex.sse.last_id.len) {
		uk_buf_reset(&b);
		uk_buf_addf(&b, "Last-Event-ID: %s", ex.sse.last_id.buf);
		hd = curl_slist_append(hd, b.buf);
	}
	hd = curl_slist_append(hd, "Accept: text/event-stream");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sse_write);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, ex.idle);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, sse_progress);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http");
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, 4096L);
	errbuf[0] = '\0';
	uk_sse_reset(&ex.sse);
	ex.connected = 0;
	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	if (rc == CURLE_OK || rc == CURLE_PARTIAL_FILE)
		errbuf[0] = '\0';
	else if (!errbuf[0])
		snprintf(errbuf, CURL_ERROR_SIZE, "%s", curl_easy_strerror(rc));
	curl_slist_free_all(hd);
	curl_easy_cleanup(h);
	uk_buf_release(&path);
	uk_buf_release(&b);
	return code;
}

static int
cmd_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "handler", required_argument, NULL, 'H' },
		{ "idle", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "url", required_argument, NULL, 'U' },
		{ "executor", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *eq;
	char errbuf[CURL_ERROR_SIZE], name[64];
	struct sigaction sa;
	pthread_t *th;
	long code, backoff = 100, i;
	struct job *j;
	size_t k;
	int c, warned = 0;

	while ((c = getopt_long(argc, argv, "H:i:j:T:U:x:h", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'H':
			if (!(eq = strchr(optarg, '=')) || eq == optarg) {
				uk_warn("-H: expected tool=command: '%s'",
				    optarg);
				usage(UK_EXIT_USAGE);
			}
			ex.h = uk_xrealloc(ex.h, (ex.nh + 1) * sizeof(*ex.h));
			ex.h[ex.nh].tool =
			    uk_xmemdup(optarg, (size_t)(eq - optarg));
			if (split_words(eq + 1, &ex.h[ex.nh])) {
				uk_warn("-H: bad command: '%s'", eq + 1);
				usage(UK_EXIT_USAGE);
			}
			ex.nh++;
			break;
		case 'i':
			if (uk_parse_long(optarg, 1, 3600, &ex.idle)) {
				uk_warn("-i: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'j':
			if (uk_parse_long(optarg, 1, 256, &ex.jobs)) {
				uk_warn("-j: not a count: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'T':
			if (uk_parse_long(optarg, 1, 86400, &ex.timeout)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'U':
			url = optarg;
			break;
		case 'x':
			ex.executor = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc || !ex.nh) {
		if (!ex.nh)
			uk_warn("no handler: give -H tool=command");
		usage(UK_EXIT_USAGE);
	}
	client_setup(url);
	if (!ex.executor) {
		snprintf(name, sizeof(name), "exec-%ld-%lx", (long)getpid(),
		    (unsigned long)time(NULL));
		ex.executor = name;
	}
	uk_buf_init(&ex.tools, 0);
	for (k = 0; k < ex.nh; k++)
		uk_buf_addf(&ex.tools, "%s%s", k ? "," : "", ex.h[k].tool);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	uk_sse_init(&ex.sse, on_event, NULL);
	th = uk_xcalloc((size_t)ex.jobs, sizeof(*th));
	for (i = 0; i < ex.jobs; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			uk_die(UK_EXIT_FATAL, "cannot start a thread");
	while (!stopping) {
		code = stream_once(errbuf);
		if (stopping)
			break;
		if (code == 401 || code == 403) {
			uk_warn("%s: HTTP %ld: refused (wrong token?)",
			    base_url, code);
			uk_status_set(UK_EXIT_FATAL);
			break;
		}
		if (ex.connected)
			backoff = 100;
		if (!warned || ex.connected)
			uk_warn("event stream ended%s%s; reconnecting",
			    errbuf[0] ? ": " : "", errbuf);
		warned = 1;
		for (i = 0; i < backoff && !stopping; i += 50)
			usleep(50000);
		if (backoff < 5000)
			backoff *= 2;
	}
	pthread_mutex_lock(&ex.mu);
	stopping = 1;
	pthread_cond_broadcast(&ex.cv);
	pthread_mutex_unlock(&ex.mu);
	for (i = 0; i < ex.jobs; i++)
		pthread_join(th[i], NULL);
	free(th);
	while ((j = ex.head)) {
		ex.head = j->next;
		job_free(j);
	}
	uk_sse_release(&ex.sse);
	uk_strset_release(&ex.seen);
	for (k = 0; k < ex.nh; k++) {
		for (c = 0; c < ex.h[k].argc; c++)
			free(ex.h[k].argv[c]);
		free(ex.h[k].argv);
		free(ex.h[k].tool);
	}
	free(ex.h);
	uk_buf_release(&ex.tools);
	uk_buf_release(&token);
	curl_global_cleanup();
	return uk_status;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "serve", cmd_serve },
	{ "call", cmd_call },
	{ "ack", cmd_ack },
	{ "exec", cmd_exec },
	{ "wait", cmd_wait },
};

int
main(int argc, char **argv)
{
	size_t i;

	uk_prog_set(argv[0]);
	if (argc < 2)
		usage(UK_EXIT_USAGE);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(UK_EXIT_OK);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("toolack %s\n", UK_VERSION);
		return UK_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			optind = 1;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	uk_warn("unknown command '%s'", argv[1]);
	usage(UK_EXIT_USAGE);
}
