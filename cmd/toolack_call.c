/* SPDX-License-Identifier: MIT */
/* toolack call: send tool calls to the server, print their acks in order. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "cli.h"
#include "json.h"
#include "jsonl.h"
#include "progress.h"
#include "toolack.h"
#include "toolack_proto.h"
#include "util.h"

#include "banned.h"

static void
raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct xfer {
	struct uk_jsonl_item *slot; /* its place in cl.q */
	char *id;
	char *tool;
	double started;           /* uk_util_mono_now() when dispatched */
	struct xfer *prev, *next; /* in flight, oldest first */
	const char *file;
	unsigned long line;
	struct uk_buf resp;
	struct uk_http_sink sink; /* resp, a record's length at most */
	struct curl_slist *hd;
	char errbuf[CURL_ERROR_SIZE];
};

static struct {
	const char *tool;
	long timeout; /* -1: the server's default */
	long jobs;
	int unordered, nowait;
	/* The records in input order (lib/jsonl's ordered queue), and
	 * where they go. */
	struct uk_jsonl_queue q;
	struct uk_jsonl_out out;
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
	    uk_util_mono_now() - cl.prog.last < cl.prog.interval)
		return;
	now = uk_util_mono_now();
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
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	if (code != 200) {
		client_reason(&resp, code, msg, sizeof(msg));
		uk_util_die(UK_EXIT_FATAL, "%s: %s", client_base, msg);
	}
	if ((v = uk_json_parse(resp.buf, resp.len, NULL)) &&
	    !uk_json_get_int(v, "defaultTimeoutSec", &t) && t > 0 &&
	    t <= UK_TOOLACK_PROTO_MAX_TIMEOUT)
		cl.server_timeout = (long)t;
	uk_json_free(v);
	uk_buf_release(&resp);
}

/* A place in the output for the next input line. */
static struct uk_jsonl_item *
slot_new(void)
{
	return uk_jsonl_queue_add(&cl.q, NULL, "-", 0);
}

/* The queue's write hook: the progress line out of the way, then the
 * record (none for a slot already written, with -u). */
static void
slot_write(struct uk_jsonl_item *it, void *arg)
{
	(void)arg;
	if (!it->rec)
		return;
	if (cl.out_tty)
		uk_progress_erase(&cl.prog);
	uk_jsonl_out_record(&cl.out, it->rec);
}

static void
slot_flush(void)
{
	uk_jsonl_queue_flush(&cl.q);
	uk_jsonl_out_flush(&cl.out);
	if (ferror(stdout))
		uk_util_die(UK_EXIT_FATAL, "cannot write to standard output");
}

/* Slot it's record is v (copied); with -u it goes out at once. */
static void
slot_done(struct uk_jsonl_item *it, yajl_val v)
{
	it->done = 1;
	if (cl.unordered) {
		if (cl.out_tty)
			uk_progress_erase(&cl.prog);
		uk_jsonl_out_record(&cl.out, v);
	} else {
		it->rec = uk_json_copy(v);
	}
	slot_flush();
}

/* An error record for slot i (with the call's id when it has one). */
static void
slot_error(struct uk_jsonl_item *i, const char *file, unsigned long line, const char *id,
    const char *msg)
{
	yajl_val e = uk_jsonl_error_record(file, line, msg);

	if (id)
		uk_json_set_str(e, "toolCallId", id);
	if (line)
		uk_util_warn("%s:%lu: %s",
		    !strcmp(file, "-") ? "<stdin>" : file, line, msg);
	else
		uk_util_warn("%s", msg);
	uk_util_status_set(UK_EXIT_FAIL);
	cl.nfailed++;
	slot_done(i, e);
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
	struct uk_jsonl_item *i = slot_new();
	CURL *h;
	struct uk_buf body = UK_BUF_INIT;

	if (uk_jsonl_is_error(rec)) {
		slot_done(i, rec);
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
	x = uk_util_xcalloc(1, sizeof(*x));
	x->slot = i;
	x->file = file;
	x->line = line;
	x->id = uk_util_xstrdup(uk_json_get_str(call, "toolCallId"));
	x->tool = uk_util_xstrdup(uk_json_get_str(call, "toolName"));
	x->started = uk_util_mono_now();
	x->prev = cl.last;
	if (cl.last)
		cl.last->next = x;
	else
		cl.first = x;
	cl.last = x;
	uk_buf_init(&x->resp, 0);
	x->sink.buf = &x->resp;
	x->sink.max = UK_JSONL_MAX_LINE;
	h = client_handle(NULL,
	    cl.nowait ? "/api/tools/dispatch?wait=0" : "/api/tools/dispatch",
	    body.buf, cl.nowait ? 30000L : (long)(t + 30) * 1000L, &x->sink,
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
		snprintf(msg, sizeof(msg), "%s: %s", client_base,
		    x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc));
		slot_error(x->slot, x->file, x->line, x->id, msg);
	} else if ((code == 200 || code == 202 || code == 409) &&
	    (v = uk_json_parse(x->resp.buf, x->resp.len, NULL)) &&
	    YAJL_IS_OBJECT(v) && uk_json_get_str(v, "status")) {
		/* 409: the id is taken; the server's failed ack says so. */
		uk_json_del(v, "ok");
		st = uk_json_get_str(v, "status");
		if (!st || (strcmp(st, "success") && strcmp(st, "pending"))) {
			uk_util_status_set(UK_EXIT_FAIL);
			cl.nfailed++;
		}
		slot_done(x->slot, v);
		uk_json_free(v);
	} else {
		uk_json_free(v);
		client_reason(&x->resp, code, msg, sizeof(msg));
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

/*
 * The input.  lib/jsonl reads it (the record policy of every program),
 * with blocking reads; the transfers must go on while a line is awaited
 * (an agent writes a call and waits for its ack before it writes the
 * next), so the reader runs in a thread of its own.  It hands the main
 * thread one line at a time, a record or the message of a line that is
 * not one, and wakes it with an eventfd among curl's.  The mailbox holds
 * one line: the reader waits while it is full, so the input is read
 * only as far as the calls dispatched (-j) allow, as the lines are taken.
 */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int efd;
	char **files; /* the operands, or NULL for standard input */
	int nfiles;
	int full;         /* a line is in the mailbox */
	int end;          /* every file read (or a read error) */
	int status;       /* the reader's exit status, taken at the end */
	yajl_val rec;     /* the record, or NULL ... */
	char *msg;        /* ... with why the line is not one */
	const char *file; /* where it was read: an operand or "-" */
	unsigned long line;
} in = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

/* Put a line in the mailbox (end: no more lines), when it is empty. */
static void
input_put(yajl_val rec, const char *msg, const char *file, unsigned long line,
    int end)
{
	uint64_t one = 1;

	pthread_mutex_lock(&in.mu);
	while (in.full)
		pthread_cond_wait(&in.cv, &in.mu);
	if (end)
		in.end = 1;
	else {
		in.full = 1;
		in.rec = rec;
		in.msg = msg ? uk_util_xstrdup(msg) : NULL;
		in.file = file;
		in.line = line;
	}
	pthread_mutex_unlock(&in.mu);
	/* A failure means the counter is full: the main thread is awake. */
	(void)!write(in.efd, &one, sizeof(one));
}

/*
 * The reader: every record comes to call_start, those that arrived failed
 * too (they pass through in their places), and a line that is not one
 * comes back as its message; with -t, bare URLs are records.
 */
static void *
input_read(void *arg)
{
	struct uk_jsonl_policy p = { .flags = UK_JSONL_TAKE_FAILED |
		    UK_JSONL_GIVE_BAD | (cl.tool ? UK_JSONL_BARE_URL : 0) };
	struct uk_jsonl_src src;
	struct uk_err err;
	yajl_val rec;
	int i, r;

	(void)arg;
	uk_jsonl_src_init(&src, &p);
	for (i = 0; i < in.nfiles; i++)
		uk_jsonl_src_add(&src, in.files[i], UK_JSONL_SRC_FILE);
	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
		if (r == UK_JSONL_SRC_REC) {
			input_put(rec, NULL, src.name, src.lineno, 0);
			continue;
		}
		if (r == UK_JSONL_SRC_REFUSED) {
			uk_json_free(rec);
			input_put(NULL, err.msg, src.name, src.lineno, 0);
			continue;
		}
		uk_util_warn("%s", err.msg);
		if (err.code == UK_EXIT_FATAL) {
			in.status = UK_EXIT_FATAL;
			break;
		}
		in.status = UK_EXIT_FAIL;
	}
	uk_jsonl_src_release(&src);
	input_put(NULL, NULL, NULL, 0, 1);
	return NULL;
}

/* Dispatch the line in the mailbox, if any; 0 when it is empty. */
static int
input_take(void)
{
	yajl_val rec;
	char *msg;
	const char *file;
	unsigned long line;

	pthread_mutex_lock(&in.mu);
	if (!in.full) {
		pthread_mutex_unlock(&in.mu);
		return 0;
	}
	rec = in.rec;
	msg = in.msg;
	file = in.file;
	line = in.line;
	in.full = 0;
	pthread_cond_signal(&in.cv);
	pthread_mutex_unlock(&in.mu);
	if (msg)
		slot_error(slot_new(), file, line, NULL, msg);
	else
		call_start(file, line, rec);
	uk_json_free(rec);
	free(msg);
	return 1;
}

/*
 * Read the input (the files, or standard input) and dispatch its lines,
 * keeping the transfers moving, until it ends or a signal stops us.
 * Returns 0, or -1 when the reader thread cannot start.
 */
static int
call_input(char **files, int nfiles)
{
	struct curl_waitfd w;
	sigset_t block, old;
	pthread_t th;
	uint64_t n;
	int end = 0;

	in.files = files;
	in.nfiles = nfiles;
	if ((in.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return -1;
	/* The signals are the main thread's: they must wake its poll. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	if (pthread_create(&th, NULL, input_read, NULL)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!stopping) {
		if (cl.inflight < cl.jobs && input_take())
			continue;
		pthread_mutex_lock(&in.mu);
		end = in.end && !in.full;
		pthread_mutex_unlock(&in.mu);
		if (end)
			break;
		w.fd = in.efd;
		w.events = CURL_WAIT_POLLIN;
		w.revents = 0;
		call_pump(-1, NULL, 0);
		curl_multi_poll(cl.multi, &w, cl.inflight < cl.jobs ? 1 : 0,
		    1000, NULL);
		/* Empty the counter; what it counted is in the mailbox. */
		if (w.revents & CURL_WAIT_POLLIN)
			(void)!read(in.efd, &n, sizeof(n));
	}
	if (!end) {
		/* Stopped: the reader may be blocked in a read; it goes
		 * with the process. */
		pthread_detach(th);
		return 0;
	}
	pthread_join(th, NULL);
	close(in.efd);
	uk_util_status_set(in.status);
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
	double end = uk_util_mono_now() + 3;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	snprintf(why, sizeof(why), "the caller stopped on %s",
	    sig == SIGINT     ? "SIGINT" :
		sig == SIGHUP ? "SIGHUP" :
				"SIGTERM");
	uk_util_time_rfc3339(ts, sizeof(ts));
	for (x = cl.first; x && uk_util_mono_now() < end; x = x->next) {
		uk_buf_reset(&b);
		uk_toolack_proto_ack(&b, x->id, "failed", NULL, why, ts);
		uk_buf_reset(&resp);
		client_request(NULL, "/api/tools/ack", b.buf, 1000, &resp,
		    &err);
	}
	uk_buf_release(&b);
	uk_buf_release(&resp);
	while (cl.inflight && uk_util_mono_now() < end)
		call_pump(100, NULL, 0);
}

/*
 * After the options: the server's client, the calls' id prefix, the
 * server's hello, the progress line, the output queue, the transfers and
 * the signals that stop the run.
 */
static void
call_setup(const char *url)
{
	unsigned char rnd[4];
	struct sigaction sa;

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
	uk_jsonl_out_init(&cl.out, stdout);
	uk_jsonl_queue_init(&cl.q, &cl.out);
	cl.q.write = slot_write;
	cl.multi = curl_multi_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a read returns */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int
cmd_call(int argc, char **argv)
{
	static const struct uk_cli c = { "toolack call", "usage: " TA_SYN_CALL,
		"Send the tool calls of the files (none or '-': stdin); write "
		"their acks in\n"
		"input order.\n"
		"\n"
		"Calls:\n"
		"  -U, --url=URL             the server (default: $TOOLACK_URL, "
		"else\n"
		"                            http://127.0.0.1:7077)\n"
		"  -t, --timeout=SECONDS     a call's timeout when it gives none "
		"(default:\n"
		"                            the server's)\n"
		"  -j, --jobs=N              calls in flight at once (default: "
		"16)\n"
		"      --tool=TOOL           bare URLs and records without a "
		"tool call TOOL\n"
		"      --no-wait             dispatch, write \"pending\", do "
		"not wait\n"
		"\n"
		"Output:\n"
		"  -o, --output=FILE         write the acks to FILE, not stdout\n"
		"  -q, --quiet               no progress line on a terminal\n"
		"      --unordered           write acks as they come\n"
		"      --compact             one JSON line per record, even on a "
		"terminal\n"
		"      --pretty              indented records, even in a pipe\n"
		"\n"
		"  -h, --help                the synopsis (-h) or this help "
		"(--help)\n"
		"\n"
		"Examples:\n"
		"  urldetect notes.txt | toolack call --tool open_url    open "
		"its URLs\n"
		"  toolack call --no-wait calls.jsonl    dispatch now, toolack "
		"wait later\n"
		"\n"
		"See toolack(1).\n" };
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-wait", no_argument, NULL, TA_OPT_NO_WAIT },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "tool", required_argument, NULL, TA_OPT_TOOL },
		{ "timeout", required_argument, NULL, 't' },
		{ "unordered", no_argument, NULL, TA_OPT_UNORDERED },
		{ "url", required_argument, NULL, 'U' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *output = NULL;
	int ch;

	uk_cli_subcommand("call");
	while ((ch = uk_cli_getopt(&c, argc, argv, "hj:o:qt:U:", longopts)) !=
	    -1) {
		switch (ch) {
		case 'j':
			if (uk_util_parse_long(optarg, 1, 10000, &cl.jobs))
				uk_cli_usage(&c, "-j: not a count: '%s'",
				    optarg);
			break;
		case TA_OPT_NO_WAIT:
			cl.nowait = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			cl.quiet = 1;
			break;
		case TA_OPT_TOOL:
			cl.tool = optarg;
			break;
		case 't':
			if (uk_util_parse_long(optarg, 1,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &cl.timeout))
				uk_cli_usage(&c, "-t: not a timeout: '%s'",
				    optarg);
			break;
		case TA_OPT_UNORDERED:
			cl.unordered = 1;
			break;
		case 'U':
			url = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	output_to(output);
	argc -= optind;
	argv += optind;
	call_setup(url);
	if (call_input(argc ? argv : NULL, argc))
		uk_util_die(UK_EXIT_FATAL,
		    "cannot start the input's thread: %s", strerror(errno));
	while (cl.inflight && !stopping)
		call_pump(1000, NULL, 0);
	if (stopping)
		call_cancel(stopping);
	uk_progress_done(&cl.prog);
	slot_flush();
	curl_multi_cleanup(cl.multi);
	uk_jsonl_queue_release(&cl.q);
	uk_jsonl_out_finish(&cl.out);
	uk_jsonl_out_release(&cl.out);
	client_release();
	if (fflush(stdout) || ferror(stdout))
		uk_util_die(UK_EXIT_FATAL, "cannot write to standard output");
	if (stopping) {
		/* Die of the signal, as the shell expects (130 for ^C). */
		signal(stopping, SIG_DFL);
		raise(stopping);
	}
	return uk_status;
}
