/* SPDX-License-Identifier: MIT */
/*
 * toolack exec: an executor.  It follows the server's event stream and
 * runs a handler command for each call of its tools, a few at a time,
 * then acks the call with what the handler printed.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "child.h"
#include "cli.h"
#include "http.h"
#include "json.h"
#include "sse.h"
#include "strset.h"
#include "toolack.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "util.h"

#include "banned.h"

struct job {
	char *id, *tool, *input, *requested_at;
	const char *said; /* the status it was acked with */
	struct job *next;
};

static struct {
	long jobs, idle, timeout;
	const char *executor;
	int log; /* a line per call on stderr: a terminal, and no -q */
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

/*
 * Run h with arg as its last argument and the call in its environment
 * (lib/child.h), its output in out and errout, for ex.timeout seconds at
 * most.  Returns its wait status, or -1 with the reason in errout when it
 * could not be started.
 */
static int
run_handler(struct handler *h, const char *arg, struct job *j,
    struct uk_buf *out, struct uk_buf *errout, int *timed_out, int *out_cut)
{
	struct uk_child c = UK_CHILD_INIT;
	struct uk_buf env[3] = { UK_BUF_INIT, UK_BUF_INIT, UK_BUF_INIT };
	const char *envp[4];
	const char **argv;
	struct uk_err err;
	int i, status = -1;

	argv = uk_util_xcalloc((size_t)h->argc + 2, sizeof(char *));
	for (i = 0; i < h->argc; i++)
		argv[i] = h->argv[i];
	argv[i] = arg;
	uk_buf_addf(&env[0], "TOOLACK_TOOL=%s", j->tool);
	uk_buf_addf(&env[1], "TOOLACK_CALL_ID=%s", j->id);
	uk_buf_addf(&env[2], "TOOLACK_REQUESTED_AT=%s", j->requested_at);
	for (i = 0; i < 3; i++)
		envp[i] = env[i].buf;
	envp[3] = NULL;
	c.argv = argv;
	c.env = envp;
	c.deadline = uk_util_mono_ms() + ex.timeout * 1000;
	c.stop = &stopping;
	c.out = out;
	c.err = errout;
	c.max = UK_TOOLACK_PROTO_MAX_BODY;
	if (uk_child_start(&c, &err))
		uk_buf_addstr(errout, err.msg);
	else
		status = uk_child_finish(&c);
	*timed_out = c.timed_out;
	*out_cut = c.out_cut;
	for (i = 0; i < 3; i++)
		uk_buf_release(&env[i]);
	free(argv);
	return status;
}

/* Each worker's handle, so acks go over a kept-alive connection. */
static __thread CURL *ack_handle;

static void
post_ack(struct job *j, const char *status, yajl_val output, const char *etext)
{
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	long code = -1;
	int tries;

	j->said = status;
	uk_toolack_proto_ack(&b, j->id, status, output, etext, j->requested_at);
	/* Stopping: one try, so that the caller hears at once. */
	for (tries = 0; tries < 5 && (!tries || !stopping); tries++) {
		uk_buf_reset(&resp);
		code = client_request(&ack_handle, "/api/tools/ack", b.buf,
		    10000, &resp, &err);
		if (code >= 0)
			break;
		uk_util_warn("ack '%s': %s", j->id, err.msg);
		usleep(200000 * (tries + 1));
	}
	if (code > 0 && code != 200) {
		char msg[600];

		client_reason(&resp, code, msg, sizeof(msg));
		uk_util_warn("ack '%s': %s", j->id, msg);
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
		n = uk_buf_utf8_cut(out->buf, n);
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
	const char *arg = j->input, *u = NULL;
	double t0 = uk_util_mono_now();
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
			    (int)uk_buf_utf8_cut(err.buf,
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
	if (ex.log)
		uk_util_warn("%s %s %s %.2fs", j->tool, u ? u : "-",
		    j->said ? j->said : "?", uk_util_mono_now() - t0);
	uk_json_free(input);
	uk_json_free(output);
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
	j = uk_util_xcalloc(1, sizeof(*j));
	j->id = uk_util_xstrdup(cid);
	j->tool = uk_util_xstrdup(tool);
	if (uk_json_get(v, "input"))
		uk_json_to_buf(uk_json_get(v, "input"), &in);
	else
		uk_buf_addstr(&in, "{}");
	j->input = uk_buf_detach(&in, NULL);
	if (at && uk_toolack_registry_time_ok(at))
		j->requested_at = uk_util_xstrdup(at);
	else {
		char ts[40];

		uk_util_time_rfc3339(ts, sizeof(ts));
		j->requested_at = uk_util_xstrdup(ts);
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
	struct uk_http_easy eo = { 0 };
	struct curl_slist *hd = NULL;
	char *e1, *e2;
	CURL *h;
	CURLcode rc;
	long code = -1;

	e1 = curl_easy_escape(NULL, ex.executor, 0);
	e2 = curl_easy_escape(NULL, ex.tools.buf, 0);
	uk_buf_addf(&path, "%s/api/tools/events?executor=%s&tools=%s",
	    client_base, e1, e2);
	curl_free(e1);
	curl_free(e2);
	eo.protocols = "http";
	eo.connect_ms = 5000;
	eo.errbuf = errbuf;
	h = uk_http_easy_new(&eo);
	curl_easy_setopt(h, CURLOPT_URL, path.buf);
	uk_buf_addf(&b, "Authorization: Bearer %s", client_token.buf);
	hd = curl_slist_append(hd, b.buf);
	if (ex.sse.last_id.len) {
		uk_buf_reset(&b);
		uk_buf_addf(&b, "Last-Event-ID: %s", ex.sse.last_id.buf);
		hd = curl_slist_append(hd, b.buf);
	}
	hd = curl_slist_append(hd, "Accept: text/event-stream");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sse_write);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, ex.idle);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, sse_progress);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, 4096L);
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

/*
 * Follow the event stream until a signal stops us or the server refuses
 * our token, reconnecting (with a backoff) whenever it ends.
 */
static void
follow_stream(void)
{
	char errbuf[CURL_ERROR_SIZE];
	long code, backoff = 100, i;
	int warned = 0;

	while (!stopping) {
		code = stream_once(errbuf);
		if (stopping)
			break;
		if (code == 401 || code == 403) {
			uk_util_warn("%s: HTTP %ld: refused (wrong token?)",
			    client_base, code);
			uk_util_status_set(UK_EXIT_FATAL);
			break;
		}
		if (ex.connected)
			backoff = 100;
		if (!warned || ex.connected)
			uk_util_warn("event stream ended%s%s; reconnecting",
			    errbuf[0] ? ": " : "", errbuf);
		warned = 1;
		for (i = 0; i < backoff && !stopping; i += 50)
			usleep(50000);
		if (backoff < 5000)
			backoff *= 2;
	}
}

/* Free what the executor holds, once its workers are gone. */
static void
exec_release(void)
{
	struct job *j;

	while ((j = ex.head)) {
		ex.head = j->next;
		job_free(j);
	}
	uk_sse_release(&ex.sse);
	uk_strset_release(&ex.seen);
	handlers_release();
	uk_buf_release(&ex.tools);
}

/*
 * The workers started, the event stream followed until the run is to
 * stop, then the workers stopped (each ends its job first).
 */
static void
run_workers(void)
{
	pthread_t *th;
	long i;

	th = uk_util_xcalloc((size_t)ex.jobs, sizeof(*th));
	for (i = 0; i < ex.jobs; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			uk_util_die(UK_EXIT_FATAL, "cannot start a thread");
	follow_stream();
	pthread_mutex_lock(&ex.mu);
	stopping = 1;
	pthread_cond_broadcast(&ex.cv);
	pthread_mutex_unlock(&ex.mu);
	for (i = 0; i < ex.jobs; i++)
		pthread_join(th[i], NULL);
	free(th);
}

int
cmd_exec(int argc, char **argv)
{
	static const struct uk_cli c = { "toolack exec", "usage: " TA_SYN_EXEC,
		"Run a command for each call of its tools, and ack the call "
		"with its output.\n"
		"\n"
		"  -H, --handler=TOOL=CMD    run CMD for calls of TOOL; repeat "
		"for more tools\n"
		"                            (default: open_url=" TA_DEFAULT_OPEN
		", when on PATH)\n"
		"  -j, --jobs=N              handlers running at once (default: "
		"4)\n"
		"  -q, --quiet               no line per call on a terminal\n"
		"  -t, --timeout=SECONDS     how long a handler may run "
		"(default: 30)\n"
		"  -U, --url=URL             the server (default: $TOOLACK_URL, "
		"else\n"
		"                            http://127.0.0.1:7077)\n"
		"      --executor=NAME       the executor's name (default: "
		"exec-PID-TIME)\n"
		"      --idle=SECONDS        reconnect after this long silent "
		"(default: 45)\n"
		"  -h, --help                the synopsis (-h) or this help "
		"(--help)\n"
		"\n"
		"Examples:\n"
		"  toolack exec -H open_url=xdg-open    open each URL in the "
		"desktop's browser\n"
		"  toolack exec -H open_url=true -j 1   ack every call: success\n"
		"\n"
		"See toolack(1).\n" };
	static const struct option longopts[] = {
		{ "handler", required_argument, NULL, 'H' },
		{ "idle", required_argument, NULL, TA_OPT_IDLE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "timeout", required_argument, NULL, 't' },
		{ "url", required_argument, NULL, 'U' },
		{ "executor", required_argument, NULL, TA_OPT_EXECUTOR },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL;
	char name[64];
	struct sigaction sa;
	int ch, quiet = 0;

	uk_cli_subcommand("exec");
	while ((ch = uk_cli_getopt(&c, argc, argv, "H:hj:qt:U:", longopts)) !=
	    -1) {
		switch (ch) {
		case 'H':
			handler_add(&c, optarg);
			break;
		case TA_OPT_IDLE:
			if (uk_util_parse_long(optarg, 1, 3600, &ex.idle))
				uk_cli_usage(&c, "--idle: not a duration: '%s'",
				    optarg);
			break;
		case 'j':
			if (uk_util_parse_long(optarg, 1, 256, &ex.jobs))
				uk_cli_usage(&c, "-j: not a count: '%s'",
				    optarg);
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			if (uk_util_parse_long(optarg, 1, 86400, &ex.timeout))
				uk_cli_usage(&c, "-t: not a timeout: '%s'",
				    optarg);
			break;
		case 'U':
			url = optarg;
			break;
		case TA_OPT_EXECUTOR:
			ex.executor = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	handlers_check(&c);
	ex.log = !quiet && isatty(STDERR_FILENO);
	client_setup(url);
	if (!ex.executor) {
		snprintf(name, sizeof(name), "exec-%ld-%lx", (long)getpid(),
		    (unsigned long)time(NULL));
		ex.executor = name;
	}
	uk_buf_init(&ex.tools, 0);
	handlers_tools(&ex.tools);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	uk_sse_init(&ex.sse, on_event, NULL);
	run_workers();
	exec_release();
	client_release();
	return uk_status;
}
