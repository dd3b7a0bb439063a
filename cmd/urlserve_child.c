/* SPDX-License-Identifier: MIT */
/*
 * urlserve: the tools that run a sibling program, open_url (toolack call,
 * answered by a frontend through a running toolack serve) and render_url
 * (pwfetch fetch, Chromium).  Each runs as a child with a deadline, and a
 * cancelled call stops it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "child.h"
#include "extract_select.h"
#include "json.h"
#include "mcp.h"
#include "netguard.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "util.h"
#include "banned.h"

/* Output kept of a child: a content record is at most this. */
#define CHILD_MAX (32UL << 20)

/*
 * The watcher of a call's cancel fd while its child runs: uk_child stops
 * the child when *stop is set (it polls it), so a thread waits on the fd
 * and sets it.  The pipe wakes the watcher when the child is done first.
 */
struct watch {
	struct uk_mcp_call *c;
	volatile sig_atomic_t stop;
	int wake[2];
	pthread_t th;
};

static void *
watcher(void *arg)
{
	struct watch *w = arg;
	struct pollfd p[2] = { { uk_mcp_call_cancel_fd(w->c), POLLIN, 0 },
		{ w->wake[0], POLLIN, 0 } };

	while (poll(p, 2, -1) < 0 && errno == EINTR)
		;
	if (p[0].revents)
		w->stop = 1;
	return NULL;
}

int
us_child_run(struct uk_mcp_call *c, struct uk_child *ch, int *cancelled,
    struct uk_err *err)
{
	struct watch w;
	int st;

	memset(&w, 0, sizeof(w));
	w.c = c;
	*cancelled = 0;
	if (pipe2(w.wake, O_CLOEXEC))
		return uk_util_err_set(err, UK_EXIT_FAIL, "pipe: %s",
		    strerror(errno));
	ch->stop = &w.stop;
	st = -1;
	if (pthread_create(&w.th, NULL, watcher, &w) == 0) {
		if (uk_child_start(ch, err) == 0)
			st = uk_child_finish(ch);
		/* A byte in an empty pipe: this write cannot block or fail. */
		if (write(w.wake[1], "", 1) < 0)
			uk_util_warn("wake: %s", strerror(errno));
		pthread_join(w.th, NULL);
	} else {
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot start a thread");
	}
	ch->stop = NULL;
	close(w.wake[0]);
	close(w.wake[1]);
	*cancelled = w.stop;
	return st;
}

/*
 * Run argv to its end or to the deadline (seconds), its standard output
 * into out: the wait status, or -1 with err (not started).
 */
static int
run_child(struct uk_mcp_call *c, const char *const *argv, double deadline,
    struct uk_buf *out, struct uk_buf *errout, int *cancelled,
    struct uk_err *err)
{
	struct uk_child ch = UK_CHILD_INIT;

	ch.argv = argv;
	ch.deadline = uk_util_mono_ms() + (long long)(deadline * 1000);
	ch.out = out;
	ch.err = errout;
	ch.max = CHILD_MAX;
	return us_child_run(c, &ch, cancelled, err);
}

/* The last line of a child's standard error, for a message. */
static const char *
last_line(struct uk_buf *b)
{
	char *p;

	uk_buf_trim(b);
	p = strrchr(b->buf, '\n');
	return p ? p + 1 : b->buf;
}

/* The JSON objects of a child's stderr (pwfetch --explain's), an array. */
static yajl_val
explain_records(const struct uk_buf *errout)
{
	yajl_val arr = uk_json_array(), v;
	const char *p = errout->buf, *end = errout->buf + errout->len, *nl;

	for (; p < end; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		if (*p != '{')
			continue;
		v = uk_json_parse(p, (size_t)(nl - p), NULL);
		if (v && YAJL_IS_OBJECT(v))
			uk_json_push(arr, v);
		else
			uk_json_free(v);
	}
	return arr;
}

/* The first record a child printed, or NULL. */
static yajl_val
first_record(const struct uk_buf *out)
{
	const char *nl = memchr(out->buf, '\n', out->len);
	yajl_val v = uk_json_parse(out->buf,
	    nl ? (size_t)(nl - out->buf) : out->len, NULL);

	if (v && !YAJL_IS_OBJECT(v)) {
		uk_json_free(v);
		v = NULL;
	}
	return v;
}

/* The tool call toolack call reads, in a private temporary file. */
static char *
call_file(const char *url, long timeout, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT, b = UK_BUF_INIT;
	const char *tmp = getenv("TMPDIR");
	yajl_val rec = uk_json_object(), in = uk_json_object();
	int fd, ok;

	uk_json_set_str(in, "url", url);
	uk_json_set_str(rec, "toolName", "open_url");
	uk_json_set(rec, "input", in);
	uk_json_set_int(rec, "timeoutSec", timeout);
	uk_json_to_buf(rec, &b);
	uk_json_free(rec);
	uk_buf_addch(&b, '\n');
	uk_buf_addf(&path, "%s/urlserve-call.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path.buf);
	ok = fd >= 0 && write(fd, b.buf, b.len) == (ssize_t)b.len;
	if (!ok)
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot write '%s': %s",
		    path.buf, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (!ok && fd >= 0)
		unlink(path.buf);
	uk_buf_release(&b);
	if (!ok) {
		uk_buf_release(&path);
		return NULL;
	}
	return uk_buf_detach(&path, NULL);
}

/*
 * Whether the user's browser must not be sent to url: its host is, or
 * resolves to, an address lib/netguard refuses (loopback, private,
 * link-local such as 169.254.169.254), as fetch_url would refuse it.  A
 * prompt-injected agent must not make the browser request the LAN.  A
 * name that does not resolve here is let through (the browser's DNS is
 * the same).  URLKIT_ALLOW_PRIVATE lets through what it lets fetch_url
 * reach; -O lets everything through.  1 and the address in addr when
 * refused.
 */
static int
open_refused(const char *url, char *addr, size_t size)
{
	struct uk_netguard g;
	CURLU *u;
	char *host = NULL;
	int r = 0;

	uk_netguard_init(&g);
	if (us_srv.open_private || g.allow_private)
		return 0;
	if (!(u = curl_url()))
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		r = uk_netguard_host_allowed(host, addr, size) == 0;
	else {
		/* No host curl can read: not a URL a browser should get. */
		snprintf(addr, size, "no host");
		r = 1;
	}
	curl_free(host);
	curl_url_cleanup(u);
	return r;
}

void
us_tool_open_url(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "url", 's', 1, 0, 0 },
		{ "timeoutSec", 'i', 0, 1, 3600 },
		{ NULL, 0, 0, 0, 0 },
	};
	struct uk_buf out = UK_BUF_INIT, errout = UK_BUF_INIT;
	struct uk_err err;
	const char *url, *status, *et;
	const char *argv[6];
	char addr[64];
	char *prog = NULL, *file = NULL;
	long timeout;
	int st, cancelled = 0;
	yajl_val ack;

	(void)session;
	if (us_args_check(c, args, spec))
		return;
	url = uk_json_get_str(args, "url");
	if (us_check_url(c, url))
		return;
	if (open_refused(url, addr, sizeof(addr))) {
		char *u = uk_util_str_printable(uk_util_xstrdup(url));

		uk_mcp_call_error(c,
		    "open_url: '%s' refused: %s is an internal or "
		    "private address (urlserve -O opens those too)",
		    u, addr);
		free(u);
		return;
	}
	timeout = (long)us_arg_int(args, "timeoutSec", 60);
	if (!(file = call_file(url, timeout, &err))) {
		uk_mcp_call_error(c, "open_url: %s", err.msg);
		return;
	}
	prog = us_sibling("toolack");
	argv[0] = prog;
	argv[1] = "call";
	argv[2] = "-q";
	argv[3] = file;
	argv[4] = NULL;
	st = run_child(c, argv, (double)timeout + 15, &out, &errout,
	    &cancelled, &err);
	unlink(file);
	if (cancelled) {
		uk_mcp_call_error(c, "cancelled");
	} else if (st < 0) {
		uk_mcp_call_error(c, "open_url: %s", err.msg);
	} else if (!(ack = first_record(&out))) {
		uk_mcp_call_error(c,
		    "open_url: no toolack server answered (%s); start "
		    "'toolack serve' and set TOOLACK_URL and TOOLACK_TOKEN "
		    "(or TOOLACK_TOKEN_FILE)",
		    errout.len ? last_line(&errout) :
		    WIFEXITED(st) ? "toolack call failed" :
				     "toolack call was killed");
	} else {
		status = uk_json_get_str(ack, "status");
		et = uk_json_get_str(ack, "errorText");
		if (status && !strcmp(status, "success"))
			uk_mcp_call_result(c, ack, NULL, 0);
		else
			uk_mcp_call_result(c, ack,
			    et ? et : status ? status : "no status", 1);
	}
	free(prog);
	free(file);
	uk_buf_release(&out);
	uk_buf_release(&errout);
}

/*
 * Whether wait is one pwfetch fetch -w takes (load, domcontentloaded,
 * networkidle, selector:CSS): checked here, so that a bad one is said
 * as such, not as pwfetch's usage line.
 */
static int
wait_ok(const char *wait)
{
	static const char *const names[] = { "load", "domcontentloaded",
		"networkidle", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(wait, names[i]))
			return 1;
	return !strncmp(wait, "selector:", 9) && wait[9];
}

void
us_tool_render_url(struct uk_mcp_call *c, yajl_val args, void *session)
{
	static const struct us_arg spec[] = {
		{ "url", 's', 1, 0, 0 },
		{ "wait", 's', 0, 0, 0 },
		{ "select", 'S', 0, 0, 0 }, /* us_selectors_arg */
		{ "remove", 'S', 0, 0, 0 },
		{ "whole", 'b', 0, 0, 0 },
		{ "explain", 'b', 0, 0, 0 },
		{ "max_tokens", 'i', 0, 100, US_MAX_TOKENS_MAX },
		{ "offset", 'i', 0, 0, 1LL << 40 },
		{ NULL, 0, 0, 0, 0 },
	};
	struct uk_buf out = UK_BUF_INIT, errout = UK_BUF_INIT,
		      tbuf = UK_BUF_INIT, hint = UK_BUF_INIT;
	struct uk_err err;
	const char *url, *wait;
	const char *argv[12 + 4 * UK_EXTRACT_SELECT_MAXLIST];
	const char *sel[UK_EXTRACT_SELECT_MAXLIST];
	const char *rem[UK_EXTRACT_SELECT_MAXLIST];
	char *prog;
	int st, cancelled = 0, i = 0, explain;
	size_t nsel, nrem, k;
	yajl_val rec;

	if (us_args_check(c, args, spec))
		return;
	url = uk_json_get_str(args, "url");
	if (us_check_url(c, url) ||
	    us_selectors_arg(c, args, "select", sel, &nsel) ||
	    us_selectors_arg(c, args, "remove", rem, &nrem))
		return;
	if ((wait = uk_json_get_str(args, "wait")) && !wait_ok(wait)) {
		char *w = uk_util_str_printable(uk_util_xstrdup(wait));

		uk_mcp_call_error(c, "render_url: wait must be load, "
		    "domcontentloaded, networkidle or selector:CSS, not '%s'",
		    w);
		free(w);
		return;
	}
	if ((st = us_robots_ok(c, url, 0)) < 1) {
		if (st < 0)
			uk_mcp_call_error(c, "cancelled");
		return;
	}
	explain = us_arg_bool(args, "explain", 0);
	prog = us_sibling("pwfetch");
	uk_buf_addf(&tbuf, "%g", us_srv.timeout);
	argv[i++] = prog;
	argv[i++] = "fetch";
	argv[i++] = "-q";
	argv[i++] = "-t";
	argv[i++] = tbuf.buf;
	if (wait) {
		argv[i++] = "-w";
		argv[i++] = wait;
	}
	/* The overrides, as pwfetch's options. */
	for (k = 0; k < nsel; k++) {
		argv[i++] = "--select";
		argv[i++] = sel[k];
	}
	for (k = 0; k < nrem; k++) {
		argv[i++] = "--remove";
		argv[i++] = rem[k];
	}
	if (us_arg_bool(args, "whole", 0))
		argv[i++] = "--whole";
	if (explain)
		argv[i++] = "--explain";
	argv[i++] = "--";
	argv[i++] = url;
	argv[i] = NULL;
	st = run_child(c, argv, us_srv.timeout * 2 + 30, &out, &errout,
	    &cancelled, &err);
	if (cancelled) {
		uk_mcp_call_error(c, "cancelled");
	} else if (st < 0) {
		uk_mcp_call_error(c, "render_url: %s", err.msg);
	} else if (!(rec = first_record(&out))) {
		uk_buf_addstr(&hint, "render_url: ");
		us_error_hint(errout.len ? last_line(&errout) : "pwfetch failed",
		    1, &hint);
		uk_mcp_call_error(c, "%s", hint.buf);
	} else {
		if (us_fetched_add(session, rec, &err))
			uk_mcp_call_log(c, "warning", "session: %s", err.msg);
		/* explain: pwfetch's records on stderr, in the result. */
		if (explain)
			uk_json_set(rec, "explain", explain_records(&errout));
		us_answer_page(c, rec, args, 1);
	}
	free(prog);
	uk_buf_release(&tbuf);
	uk_buf_release(&out);
	uk_buf_release(&errout);
	uk_buf_release(&hint);
}
