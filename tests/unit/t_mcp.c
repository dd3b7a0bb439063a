/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the MCP server module (lib/mcp): the lifecycle, the
 * framing's edge cases, tools/call on worker threads (results in any
 * order, cancellation, progress), over the session API and over the
 * stdio transport on pipes.
 */
#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "mcp.h"
#define TAP_PREFIX "mcp: "
#include "tap.h"

#include "banned.h"

/* The messages a session wrote, in order. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static char *msgs[4096];
static size_t nmsgs;
static int sessions_made, sessions_freed;

static void
collect(void *wctx, const char *msg, size_t len)
{
	(void)wctx;
	pthread_mutex_lock(&mu);
	if (nmsgs < sizeof(msgs) / sizeof(msgs[0]))
		msgs[nmsgs++] = uk_util_xmemdup(msg, len);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void
reset(void)
{
	size_t i;

	pthread_mutex_lock(&mu);
	for (i = 0; i < nmsgs; i++)
		free(msgs[i]);
	nmsgs = 0;
	pthread_mutex_unlock(&mu);
}

/* Whether a message holds needle, waiting up to 5 s for one. */
static int
wait_for(const char *needle)
{
	long long until = uk_util_mono_ms() + 5000;
	struct timespec ts;
	const char *found = NULL;
	size_t i;

	pthread_mutex_lock(&mu);
	while (!found) {
		for (i = 0; i < nmsgs && !found; i++)
			if (strstr(msgs[i], needle))
				found = msgs[i];
		if (found || uk_util_mono_ms() > until)
			break;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&cv, &mu, &ts);
	}
	pthread_mutex_unlock(&mu);
	return found != NULL;
}

/* Index of the first message holding needle, or -1 (no wait). */
static int
index_of(const char *needle)
{
	size_t i;
	int r = -1;

	pthread_mutex_lock(&mu);
	for (i = 0; i < nmsgs && r < 0; i++)
		if (strstr(msgs[i], needle))
			r = (int)i;
	pthread_mutex_unlock(&mu);
	return r;
}

static size_t
count_of(const char *needle)
{
	size_t i, n = 0;

	pthread_mutex_lock(&mu);
	for (i = 0; i < nmsgs; i++)
		if (strstr(msgs[i], needle))
			n++;
	pthread_mutex_unlock(&mu);
	return n;
}

/* Tools. */

static void
t_echo(struct uk_mcp_call *c, yajl_val args, void *session)
{
	yajl_val o = uk_json_object();

	(void)session;
	uk_json_set_str(o, "echo", uk_json_get_str(args, "text"));
	uk_mcp_call_result(c, o, NULL, 0);
}

/* Waits for its cancellation, 5 s at most. */
static void
t_slow(struct uk_mcp_call *c, yajl_val args, void *session)
{
	struct pollfd p = { uk_mcp_call_cancel_fd(c), POLLIN, 0 };
	long long ms = 5000;

	(void)session;
	uk_json_get_int(args, "ms", &ms);
	poll(&p, 1, (int)ms);
	uk_mcp_call_result(c, NULL,
	    uk_mcp_call_cancelled(c) ? "cancelled" : "slept", 0);
}

static void
t_progress(struct uk_mcp_call *c, yajl_val args, void *session)
{
	int i;

	(void)args;
	(void)session;
	for (i = 1; i <= 3; i++)
		uk_mcp_call_progress(c, i, 3, i == 3 ? "last" : NULL);
	uk_mcp_call_log(c, "debug", "not sent at the default level");
	uk_mcp_call_log(c, "warning", "a warning for the client");
	uk_mcp_call_result(c, NULL, "progressed", 0);
}

static void
t_noresult(struct uk_mcp_call *c, yajl_val args, void *session)
{
	(void)c;
	(void)args;
	(void)session;
}

static void
t_fail(struct uk_mcp_call *c, yajl_val args, void *session)
{
	(void)args;
	(void)session;
	uk_mcp_call_error(c, "it failed: %d", 42);
	uk_mcp_call_error(c, "a second finish is ignored");
}

static const struct uk_mcp_tool tools[] = {
	{ "echo", "Echo", "Says it back.",
	    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":"
	    "\"string\",\"maxLength\":10},\"n\":{\"type\":\"integer\","
	    "\"minimum\":1},\"mode\":{\"enum\":[\"a\",\"b\"]}},\"required\":"
	    "[\"text\"],\"additionalProperties\":false}",
	    "{\"type\":\"object\",\"properties\":{\"echo\":{\"type\":"
	    "\"string\"}}}",
	    "{\"readOnlyHint\":true}", t_echo },
	{ "slow", NULL, "Waits.",
	    "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":"
	    "\"integer\"}}}",
	    NULL, NULL, t_slow },
	{ "progress", NULL, "Progresses.", "{\"type\":\"object\"}", NULL, NULL,
	    t_progress },
	{ "noresult", NULL, "Forgets.", "{\"type\":\"object\"}", NULL, NULL,
	    t_noresult },
	{ "fail", NULL, "Fails.", "{\"type\":\"object\"}", NULL, NULL, t_fail },
};

static void *
app_new(void *ctx, struct uk_err *err)
{
	(void)ctx;
	(void)err;
	pthread_mutex_lock(&mu);
	sessions_made++;
	pthread_mutex_unlock(&mu);
	return uk_util_xstrdup("state");
}

static void
app_free(void *ctx, void *session)
{
	(void)ctx;
	pthread_mutex_lock(&mu);
	sessions_freed++;
	pthread_mutex_unlock(&mu);
	free(session);
}

static struct uk_mcp *
make(int jobs, size_t max)
{
	struct uk_mcp_opts o = { "t", "1.2.3", "Use it.", tools,
		sizeof(tools) / sizeof(tools[0]), jobs, max, NULL, app_new,
		app_free, NULL, 0 };
	struct uk_mcp *m;
	struct uk_err err;

	if (uk_mcp_new(&m, &o, &err)) {
		printf("# uk_mcp_new: %s\n", err.msg);
		exit(1);
	}
	return m;
}

static void
in(struct uk_mcp_session *s, const char *msg)
{
	uk_mcp_session_input(s, msg, strlen(msg));
}

#define INIT                                                                   \
	"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"  \
	"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"             \
	"\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"

static void
test_lifecycle(struct uk_mcp *m)
{
	struct uk_mcp_session *s = uk_mcp_session_new(m, collect, NULL);

	reset();
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
	ok(wait_for("\"id\":1,\"error\":{\"code\":-32600,\"message\":\"not "
		    "initialized"),
	    "a request before initialize is -32600 not initialized");
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
	ok(wait_for("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}"),
	    "ping before initialize");
	in(s, INIT);
	ok(wait_for("\"id\":0,\"result\":{\"protocolVersion\":\"2025-06-18\","
		    "\"capabilities\":{\"tools\":{\"listChanged\":false},"
		    "\"logging\":{}},\"serverInfo\":{\"name\":\"t\","
		    "\"version\":\"1.2.3\"},\"instructions\":\"Use it.\"}"),
	    "initialize answers the client's known revision");
	ok(sessions_made == 1, "session_new called at initialize");
	in(s, INIT);
	ok(wait_for("\"error\":{\"code\":-32600,\"message\":\"already "
		    "initialized"),
	    "a second initialize is refused");
	in(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
	ok(wait_for("\"id\":3,\"result\":{\"tools\":[{\"name\":\"echo\","
		    "\"title\":\"Echo\",\"description\":\"Says it back.\","
		    "\"inputSchema\":{\"type\":\"object\"") &&
		wait_for("\"outputSchema\":{\"type\":\"object\",\"properties\":"
			 "{\"echo\":{\"type\":\"string\"}}},\"annotations\":"
			 "{\"readOnlyHint\":true}}"),
	    "tools/list gives the schemas and annotations");
	ok(nmsgs == 5, "the notification got no answer (%zu messages)", nmsgs);
	uk_mcp_session_end(s);
	ok(sessions_freed == 1, "session_free called at the end");

	reset();
	s = uk_mcp_session_new(m, collect, NULL);
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"1999-01-01\"}}");
	ok(wait_for("\"id\":\"a\",\"result\":{\"protocolVersion\":"
		    "\"2025-11-25\""),
	    "an unknown revision is answered with the newest");
	uk_mcp_session_end(s);
	reset();
	s = uk_mcp_session_new(m, collect, NULL);
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"initialize\","
	    "\"params\":{}}");
	ok(wait_for("\"id\":\"b\",\"error\":{\"code\":-32602"),
	    "initialize without protocolVersion is -32602");
	uk_mcp_session_end(s);
	ok(sessions_made == 2 && sessions_freed == 2,
	    "a failed initialize makes no session (%d %d)", sessions_made,
	    sessions_freed);
}

static void
test_framing(struct uk_mcp *m)
{
	struct uk_mcp_session *s = uk_mcp_session_new(m, collect, NULL);
	char *big;

	reset();
	in(s, INIT);
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":1,");
	ok(wait_for("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
		    "-32700"),
	    "malformed JSON is -32700 with id null");
	in(s, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
	ok(wait_for("\"id\":null,\"error\":{\"code\":-32600,\"message\":"
		    "\"batches are not supported\""),
	    "a batch is one -32600");
	ok(index_of("\"id\":1,\"result\"") < 0, "nothing in the batch ran");
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope/nope\"}");
	ok(wait_for("\"id\":2,\"error\":{\"code\":-32601"),
	    "an unknown method is -32601");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
	    "\"notifications/initialized\"}");
	ok(wait_for("\"id\":3,\"error\":{\"code\":-32601"),
	    "a notification with an id is a request");
	in(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}");
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
	in(s, "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}");
	ok(wait_for("\"id\":null,\"error\":{\"code\":-32600,\"message\":"
		    "\"invalid request: id must be"),
	    "an id that is neither string nor number is -32600");
	in(s, "{\"id\":5,\"method\":\"ping\"}");
	ok(wait_for("\"id\":5,\"error\":{\"code\":-32600"),
	    "no jsonrpc member is -32600");
	in(s, "\"just a string\"");
	ok(count_of("not a JSON object") == 1, "a scalar is -32600");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\","
	    "\"params\":[1]}");
	ok(wait_for("\"id\":6,\"error\":{\"code\":-32602"),
	    "tools/call with params not an object is -32602");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
	    "\"params\":{\"name\":\"zap\\u001b[2J\"}}");
	ok(wait_for("\"id\":7,\"error\":{\"code\":-32602,\"message\":"
		    "\"unknown tool zap?[2J\"}"),
	    "an unknown tool is -32602 naming it, made printable");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"logging/setLevel\","
	    "\"params\":{\"level\":\"loud\"}}");
	ok(wait_for("\"id\":8,\"error\":{\"code\":-32602"),
	    "a bad log level is -32602");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\","
	    "\"params\":{\"level\":\"debug\"}}");
	ok(wait_for("\"id\":9,\"result\":{}"), "logging/setLevel");
	big = uk_util_xmalloc(70000);
	memset(big, ' ', 70000);
	uk_mcp_session_input(s, big, 70000);
	free(big);
	ok(wait_for("\"message\":\"message too long: over 65536 bytes\""),
	    "a message over max_message is -32600 naming the limit");
	ok(nmsgs == 13, "one answer each, no more (%zu)", nmsgs);
	uk_mcp_session_end(s);
}

#define CALL(id, tool, args)                                                   \
	"{\"jsonrpc\":\"2.0\",\"id\":" id ",\"method\":\"tools/call\","        \
	"\"params\":{\"name\":\"" tool "\",\"arguments\":" args "}}"

static void
test_calls(struct uk_mcp *m)
{
	struct uk_mcp_session *s = uk_mcp_session_new(m, collect, NULL);
	long long t0;

	reset();
	in(s, INIT);
	in(s, CALL("1", "echo", "{\"text\":\"hi\"}"));
	ok(wait_for(
	       "\"id\":1,\"result\":{\"content\":[{\"type\":\"text\","
	       "\"text\":\"{\\\"echo\\\":\\\"hi\\\"}\"}],"
	       "\"structuredContent\":{\"echo\":\"hi\"},\"isError\":false}"),
	    "a call's structured result and its text");
	in(s, CALL("2", "echo", "{}"));
	ok(wait_for("\"id\":2,\"result\":{\"content\":[{\"type\":\"text\","
		    "\"text\":\"invalid arguments for echo: 'text' is "
		    "required\"}],\"isError\":true}"),
	    "a missing required argument is an error result");
	in(s, CALL("3", "echo", "{\"text\":1}"));
	ok(wait_for("'text' must be a string"), "a wrong type");
	in(s, CALL("4", "echo", "{\"text\":\"x\",\"more\":1}"));
	ok(wait_for("unknown argument 'more'"), "additionalProperties false");
	in(s, CALL("5", "echo", "{\"text\":\"x\",\"n\":0}"));
	ok(wait_for("'n' must be at least 1"), "minimum");
	in(s, CALL("6", "echo", "{\"text\":\"x\",\"mode\":\"c\"}"));
	ok(wait_for("'mode' is not one of"), "enum");
	in(s,
	    CALL("7", "echo",
		"{\"text\":\"\\u00e9\\u00e9\\u00e9\\u00e9"
		"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\"}"));
	ok(wait_for("\"id\":7,\"result\":{\"content\":[{\"type\":\"text\","
		    "\"text\":\"{\\\"echo\\\""),
	    "maxLength counts characters, not bytes");
	in(s, CALL("8", "noresult", "null"));
	ok(wait_for("\"id\":8,\"result\":{\"content\":[{\"type\":\"text\","
		    "\"text\":\"tool noresult ended without a result\"}],"
		    "\"isError\":true}"),
	    "a tool that gives no result");
	in(s, CALL("9", "fail", "{}"));
	ok(wait_for("\"id\":9,\"result\":{\"content\":[{\"type\":\"text\","
		    "\"text\":\"it failed: 42\"}],\"isError\":true}"),
	    "uk_mcp_call_error");
	ok(count_of("\"id\":9,") == 1, "a second finish is ignored");

	/* Any order, and cancellation. */
	reset();
	t0 = uk_util_mono_ms();
	in(s, CALL("\"slow\"", "slow", "{}"));
	in(s, CALL("\"slow\"", "slow", "{}"));
	ok(wait_for("\"id\":\"slow\",\"error\":{\"code\":-32600,\"message\":"
		    "\"request id \\\"slow\\\" is already in use\""),
	    "an id in use is refused");
	in(s, CALL("11", "echo", "{\"text\":\"fast\"}"));
	ok(wait_for("\"id\":11,\"result\""),
	    "a fast call is answered while "
	    "a slow one runs");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
	    "\"params\":{\"requestId\":\"slow\",\"reason\":\"bored\"}}");
	in(s, CALL("12", "slow", "{\"ms\":10}"));
	ok(wait_for("\"id\":12,\"result\":{\"content\":[{\"type\":\"text\","
		    "\"text\":\"slept\"}"),
	    "the call after the cancel runs");
	ok(uk_util_mono_ms() - t0 < 2000,
	    "the cancelled call stopped at once "
	    "(%lld ms)",
	    uk_util_mono_ms() - t0);
	ok(index_of("\"id\":\"slow\",\"result\"") < 0,
	    "a cancelled call is not answered");

	/* Progress and logging. */
	reset();
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\","
	    "\"params\":{\"name\":\"progress\",\"_meta\":"
	    "{\"progressToken\":\"tok\"}}}");
	ok(wait_for("\"id\":20,\"result\""), "a call with a progress token");
	ok(nmsgs == 5 &&
		!strcmp(msgs[0],
		    "{\"jsonrpc\":\"2.0\",\"method\":"
		    "\"notifications/progress\",\"params\":"
		    "{\"progressToken\":\"tok\",\"progress\":1,"
		    "\"total\":3}}") &&
		strstr(msgs[2],
		    "\"progress\":3,\"total\":3,\"message\":"
		    "\"last\"") &&
		strstr(msgs[3],
		    "\"method\":\"notifications/message\","
		    "\"params\":{\"level\":\"warning\",\"logger\":"
		    "\"t\",\"data\":\"a warning for the client\"}"),
	    "three progress notifications and a warning, then the result");
	in(s,
	    "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"logging/setLevel\","
	    "\"params\":{\"level\":\"debug\"}}");
	reset();
	in(s, CALL("22", "progress", "{}"));
	ok(wait_for("\"id\":22,\"result\"") && nmsgs == 3 &&
		count_of("notifications/progress") == 0,
	    "no token, no progress; debug logs once asked for (%zu)", nmsgs);

	/* The end cancels what runs. */
	reset();
	in(s, CALL("30", "slow", "{}"));
	t0 = uk_util_mono_ms();
	uk_mcp_session_end(s);
	ok(uk_util_mono_ms() - t0 < 1000 && nmsgs == 0,
	    "uk_mcp_session_end cancels and waits (%lld ms, %zu)",
	    uk_util_mono_ms() - t0, nmsgs);
}

/* At most jobs calls at once; the rest wait their turn. */
static void
test_jobs(void)
{
	struct uk_mcp *m = make(2, 0);
	struct uk_mcp_session *s = uk_mcp_session_new(m, collect, NULL);
	long long t0;

	reset();
	in(s, INIT);
	t0 = uk_util_mono_ms();
	in(s, CALL("1", "slow", "{\"ms\":300}"));
	in(s, CALL("2", "slow", "{\"ms\":300}"));
	in(s, CALL("3", "slow", "{\"ms\":300}"));
	ok(wait_for("\"id\":3,\"result\"") && uk_util_mono_ms() - t0 >= 550 &&
		index_of("\"id\":3,\"result\"") == 3,
	    "three calls on two jobs: the third waits (%lld ms)",
	    uk_util_mono_ms() - t0);
	uk_mcp_session_end(s);
	uk_mcp_free(m);
}

struct feeder {
	int fd;
	size_t big;
	const char *after;
	int keep_open; /* do not close: the test sets stop */
};

static void *
feed(void *arg)
{
	struct feeder *f = arg;
	char chunk[65536];
	size_t left = f->big;

	memset(chunk, 'a', sizeof(chunk));
	if (f->big && write(f->fd, "{\"x\":\"", 6) != 6)
		return NULL;
	while (left) {
		size_t n = left < sizeof(chunk) ? left : sizeof(chunk);
		ssize_t w = write(f->fd, chunk, n);

		if (w <= 0)
			return NULL;
		left -= (size_t)w;
	}
	if (f->big && write(f->fd, "\"}\n", 3) != 3)
		return NULL;
	if (write(f->fd, f->after, strlen(f->after)) < 0)
		return NULL;
	if (!f->keep_open)
		close(f->fd);
	return NULL;
}

struct server {
	struct uk_mcp *m;
	int in, out, rc;
	volatile int stop;
};

static void *
serve(void *arg)
{
	struct server *sv = arg;
	struct uk_err err;

	sv->rc = uk_mcp_stdio_serve(sv->m, sv->in, sv->out, &sv->stop, &err);
	if (sv->rc)
		printf("# serve_stdio: %s\n", err.msg);
	close(sv->out);
	return NULL;
}

static int
count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void
slurp(int fd, struct uk_buf *b)
{
	char tmp[4096];
	ssize_t n;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		uk_buf_add(b, tmp, (size_t)n);
}

static void
test_stdio(void)
{
	struct uk_mcp *m = make(4, 65536);
	struct server sv = { m, -1, -1, -1, 0 };
	struct feeder f;
	struct uk_buf out = UK_BUF_INIT;
	pthread_t ft, st;
	struct rusage ru;
	long before;
	int pin[2], pout[2];
	long long t0;

	/*
	 * A 16 MiB line, skipped with memory bounded (the limit is 64 KiB
	 * here, so that holding the line would show even under ASan), then
	 * a ping.
	 */
	if (pipe(pin) || pipe(pout))
		exit(1);
	sv.in = pin[0];
	sv.out = pout[1];
	f.fd = pin[1];
	f.big = 16u << 20;
	f.after =
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n  \n" INIT
	    "\n" CALL("2", "slow",
		"{\"ms\":200}") "\n"
				"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}";
	f.keep_open = 0;
	getrusage(RUSAGE_SELF, &ru);
	before = ru.ru_maxrss;
	pthread_create(&ft, NULL, feed, &f);
	pthread_create(&st, NULL, serve, &sv);
	slurp(pout[0], &out);
	pthread_join(ft, NULL);
	pthread_join(st, NULL);
	getrusage(RUSAGE_SELF, &ru);
	ok(sv.rc == 0, "serve_stdio returns 0 at the end of input");
	ok(strstr(out.buf,
	       "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"
	       "-32600,\"message\":\"message too long: over "
	       "65536 bytes\"}}\n{\"jsonrpc\":\"2.0\",\"id\":1,"
	       "\"result\":{}}\n") != NULL,
	    "a 16 MiB line is refused, the next one answered");
	ok(ru.ru_maxrss - before < 8 * 1024,
	    "memory stays bounded (max RSS grew %ld KiB)",
	    ru.ru_maxrss - before);
	ok(strstr(out.buf, "\"id\":3,\"result\":{}}\n") != NULL,
	    "a last line without its newline is taken");
	ok(strstr(out.buf,
	       "\"id\":2,\"result\":{\"content\":[{\"type\":"
	       "\"text\",\"text\":\"slept\"") != NULL,
	    "a call running at the end of input is answered");
	close(pout[0]); /* pin[1]: the feeder closed it */
	uk_buf_reset(&out);

	/* *stop cancels a running call and returns. */
	if (pipe(pin) || pipe(pout))
		exit(1);
	sv.in = pin[0];
	sv.out = pout[1];
	sv.stop = 0;
	f.fd = pin[1];
	f.big = 0;
	f.after = INIT "\n" CALL("1", "slow", "{}") "\n";
	f.keep_open = 1;
	pthread_create(&ft, NULL, feed, &f);
	pthread_create(&st, NULL, serve, &sv);
	pthread_join(ft, NULL);
	usleep(100000);
	t0 = uk_util_mono_ms();
	sv.stop = 1;
	slurp(pout[0], &out);
	pthread_join(st, NULL);
	ok(sv.rc == 0 && uk_util_mono_ms() - t0 < 1000 &&
		!strstr(out.buf, "\"id\":1,"),
	    "stop cancels the running call, unanswered (%lld ms, rc %d)",
	    uk_util_mono_ms() - t0, sv.rc);
	if (strstr(out.buf, "\"id\":1,"))
		printf("# %s\n", out.buf);
	close(pin[0]);
	close(pin[1]);
	close(pout[0]);

	/*
	 * A flood of calls: past 1024 pending, input waits for calls to
	 * end (one job, each call 1 ms), so the ping after 1500 calls is
	 * answered only once some 476 of them are.
	 */
	{
		struct uk_buf flood = UK_BUF_INIT;
		struct uk_mcp *m1 = make(1, 65536);
		const char *ping;
		int i, before_ping = 0;

		uk_buf_addstr(&flood, INIT "\n");
		for (i = 1; i <= 1500; i++)
			uk_buf_addf(&flood,
			    "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":"
			    "\"tools/call\",\"params\":{\"name\":\"slow\","
			    "\"arguments\":{\"ms\":1}}}\n",
			    i);
		uk_buf_addstr(&flood,
		    "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":"
		    "\"ping\"}\n");
		if (pipe(pin) || pipe(pout))
			exit(1);
		sv.m = m1;
		sv.in = pin[0];
		sv.out = pout[1];
		sv.stop = 0;
		f.fd = pin[1];
		f.big = 0;
		f.after = flood.buf;
		f.keep_open = 0;
		uk_buf_reset(&out);
		pthread_create(&ft, NULL, feed, &f);
		pthread_create(&st, NULL, serve, &sv);
		slurp(pout[0], &out);
		pthread_join(ft, NULL);
		pthread_join(st, NULL);
		ping = strstr(out.buf, "\"id\":\"p\"");
		for (i = 0; ping && out.buf + i < ping; i++)
			before_ping += out.buf[i] == '\n';
		ok(ping && before_ping >= 1 + 1500 - 1024 - 8 &&
			count_lines(out.buf) == 1502,
		    "1500 calls at once: input waits past 1024 pending "
		    "(%d answers before the ping's)",
		    before_ping);
		close(pin[0]);
		close(pout[0]);
		sv.m = m;
		uk_mcp_free(m1);
		uk_buf_release(&flood);
	}

	/* A closed output ends the session. */
	if (pipe(pin) || pipe(pout))
		exit(1);
	sv.in = pin[0];
	sv.out = pout[1];
	sv.stop = 0;
	close(pout[0]);
	f.fd = pin[1];
	f.after = INIT "\n";
	pthread_create(&ft, NULL, feed, &f);
	pthread_create(&st, NULL, serve, &sv);
	pthread_join(ft, NULL);
	pthread_join(st, NULL);
	ok(sv.rc == 0, "a closed output ends the session quietly");
	close(pin[0]);
	close(pin[1]);
	uk_buf_release(&out);
	uk_mcp_free(m);
}

/* The HTTP transport, driven with libcurl. */

struct hserver {
	struct uk_mcp *m;
	volatile int stop;
	int port, rc;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void
listening(void *ctx, const char *host, int port)
{
	struct hserver *hs = ctx;

	(void)host;
	pthread_mutex_lock(&hs->mu);
	hs->port = port;
	pthread_cond_broadcast(&hs->cv);
	pthread_mutex_unlock(&hs->mu);
}

static void *
serve_http(void *arg)
{
	struct hserver *hs = arg;
	struct uk_mcp_http_opts h = { "127.0.0.1:0", "sekrit", "/mcp",
		listening, hs, NULL };
	struct uk_err err;

	hs->rc = uk_mcp_http_serve(hs->m, &h, &hs->stop, &err);
	if (hs->rc) {
		printf("# serve_http: %s\n", err.msg);
		listening(hs, NULL, -1);
	}
	return NULL;
}

static size_t
gather(char *p, size_t size, size_t n, void *ud)
{
	uk_buf_add(ud, p, size * n);
	return size * n;
}

/*
 * One request: its status, its headers and body in hdr and body.  extra:
 * headers, NULL-terminated; the token's is added unless notoken.
 */
static long
hreq(int port, const char *method, const char *body, size_t len,
    const char *const *extra, int notoken, struct uk_buf *hdr,
    struct uk_buf *out)
{
	CURL *c = curl_easy_init();
	struct curl_slist *l = NULL;
	char url[64];
	long code = -1;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/mcp", port);
	uk_buf_reset(hdr);
	uk_buf_reset(out);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	if (body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)len);
	}
	l = curl_slist_append(l, "Content-Type: application/json");
	l = curl_slist_append(l, "Accept: application/json, text/event-stream");
	if (!notoken)
		l = curl_slist_append(l, "Authorization: Bearer sekrit");
	while (extra && *extra)
		l = curl_slist_append(l, *extra++);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, l);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, gather);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, hdr);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, gather);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
	if (curl_easy_perform(c) == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(l);
	curl_easy_cleanup(c);
	return code;
}

static long
post(int port, const char *body, const char *const *extra, struct uk_buf *hdr,
    struct uk_buf *out)
{
	return hreq(port, "POST", body, strlen(body), extra, 0, hdr, out);
}

static void
test_http(void)
{
	struct hserver hs = { make(4, 1u << 20), 0, 0, -1,
		PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	struct uk_buf hdr = UK_BUF_INIT, out = UK_BUF_INIT;
	char sidh[80], *p, *big;
	const char *with[3] = { sidh, NULL, NULL };
	pthread_t t;
	long code;
	int port;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	pthread_create(&t, NULL, serve_http, &hs);
	pthread_mutex_lock(&hs.mu);
	while (!hs.port)
		pthread_cond_wait(&hs.cv, &hs.mu);
	pthread_mutex_unlock(&hs.mu);
	port = hs.port;
	ok(port > 0, "serve_http listens on a port of its choice (%d)", port);

	code = hreq(port, "POST", INIT, strlen(INIT), NULL, 1, &hdr, &out);
	ok(code == 401, "no token: 401 (%ld)", code);
	{
		const char *bad[] = { "Authorization: Bearer nope", NULL };

		code =
		    hreq(port, "POST", INIT, strlen(INIT), bad, 1, &hdr, &out);
		ok(code == 401, "a wrong token: 401 (%ld)", code);
	}
	{
		const char *o[] = { "Origin: http://evil.test", NULL };

		code = post(port, INIT, o, &hdr, &out);
		ok(code == 403, "a foreign Origin: 403 (%ld)", code);
		o[0] = "Origin: http://localhost:5173";
		code = post(port,
		    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
		    "\"ping\"}",
		    o, &hdr, &out);
		ok(code == 400 &&
			strstr(out.buf,
			    "Mcp-Session-Id header "
			    "required"),
		    "a localhost Origin passes; no session id: 400 (%ld)",
		    code);
	}
	code = post(port, "{\"jsonrpc\":", NULL, &hdr, &out);
	ok(code == 400 && strstr(out.buf, "\"code\":-32700"),
	    "malformed JSON: 400 with -32700 (%ld)", code);
	code = post(port, INIT, NULL, &hdr, &out);
	p = strcasestr(hdr.buf, "mcp-session-id: ");
	ok(code == 200 && p &&
		strstr(out.buf,
		    "\"protocolVersion\":"
		    "\"2025-06-18\""),
	    "initialize: 200 with a session id (%ld)", code);
	snprintf(sidh, sizeof(sidh), "Mcp-Session-Id: %.32s", p ? p + 16 : "");
	ok(strlen(sidh) == 16 + 32, "the session id is 128 bits in hex: %s",
	    sidh);
	code = post(port,
	    "{\"jsonrpc\":\"2.0\",\"method\":"
	    "\"notifications/initialized\"}",
	    with, &hdr, &out);
	ok(code == 202 && out.len == 0, "a notification: 202 (%ld)", code);
	code = post(port, CALL("2", "echo", "{\"text\":\"hi\"}"), with, &hdr,
	    &out);
	ok(code == 200 && strstr(hdr.buf, "application/json") &&
		strstr(out.buf,
		    "\"id\":2,\"result\":{\"content\":[{\"type\":"
		    "\"text\",\"text\":\"{\\\"echo\\\":\\\"hi\\\"}\"}]"),
	    "tools/call: 200 application/json with the result (%ld)", code);
	code = post(port,
	    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":"
	    "\"tools/call\",\"params\":{\"name\":\"progress\","
	    "\"_meta\":{\"progressToken\":7}}}",
	    with, &hdr, &out);
	ok(code == 200 && strstr(hdr.buf, "text/event-stream") &&
		strstr(out.buf,
		    "event: message\ndata: {\"jsonrpc\":\"2.0\","
		    "\"method\":\"notifications/progress\","
		    "\"params\":{\"progressToken\":7,"
		    "\"progress\":1,\"total\":3}}\n\n") &&
		strstr(out.buf,
		    "data: {\"jsonrpc\":\"2.0\",\"id\":3,"
		    "\"result\""),
	    "a call with a progress token: an event stream (%ld)", code);
	with[1] = "MCP-Protocol-Version: 1999-01-01";
	code = post(port, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}",
	    with, &hdr, &out);
	ok(code == 400, "an unknown MCP-Protocol-Version: 400 (%ld)", code);
	with[1] = "MCP-Protocol-Version: 2025-06-18";
	code = post(port, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}",
	    with, &hdr, &out);
	ok(code == 200 && strstr(out.buf, "\"id\":4,\"result\":{}"),
	    "a known one passes (%ld)", code);
	with[1] = NULL;
	code = post(port, "[]", with, &hdr, &out);
	ok(code == 400 && strstr(out.buf, "batches are not supported"),
	    "a batch: 400 (%ld)", code);
	big = uk_util_xmalloc((2u << 20) + 1);
	memset(big, ' ', 2u << 20);
	big[2u << 20] = 0;
	code = hreq(port, "POST", big, 2u << 20, with, 0, &hdr, &out);
	free(big);
	ok(code == 413, "a body over max_message: 413 (%ld)", code);
	code = hreq(port, "GET", NULL, 0, with, 0, &hdr, &out);
	ok(code == 405 && strcasestr(hdr.buf, "allow: POST, DELETE"),
	    "GET: 405 (%ld)", code);
	code = hreq(port, "DELETE", NULL, 0, with, 0, &hdr, &out);
	ok(code == 200, "DELETE ends the session (%ld)", code);
	code = post(port, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}",
	    with, &hdr, &out);
	ok(code == 404, "an ended session: 404 (%ld)", code);
	code = hreq(port, "DELETE", NULL, 0, with, 0, &hdr, &out);
	ok(code == 404, "DELETE it again: 404 (%ld)", code);

	/* Past 256 sessions the one idle longest makes room. */
	{
		char first[80] = "";
		int i, made = 0;

		for (i = 0; i < 257; i++) {
			code = post(port, INIT, NULL, &hdr, &out);
			p = strcasestr(hdr.buf, "mcp-session-id: ");
			if (code == 200 && p)
				made++;
			if (!i && p)
				snprintf(first, sizeof(first),
				    "Mcp-Session-Id: %.32s", p + 16);
		}
		with[0] = first;
		code = post(port,
		    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":"
		    "\"ping\"}",
		    with, &hdr, &out);
		ok(made == 257 && code == 404,
		    "the 257th session ends the oldest idle one (%d, %ld)",
		    made, code);
		with[0] = sidh;
	}

	hs.stop = 1;
	pthread_join(t, NULL);
	ok(hs.rc == 0, "serve_http returns 0 once stopped");
	uk_buf_release(&hdr);
	uk_buf_release(&out);
	uk_mcp_free(hs.m);
	curl_global_cleanup();
}

static void
test_bad_tools(void)
{
	struct uk_mcp_tool bad[] = { { "x", NULL, "d", "[1]", NULL, NULL,
	    t_echo } };
	struct uk_mcp_opts o = { "t", "1", NULL, bad, 1, 1, 0, NULL, NULL,
		NULL, NULL, 0 };
	struct uk_mcp *m;
	struct uk_err err;

	ok(uk_mcp_new(&m, &o, &err) == -1 && m == NULL &&
		!strcmp(err.msg, "tool 'x': inputSchema is not a JSON object"),
	    "a schema that is not an object is refused: %s", err.msg);
}

int
main(void)
{
	struct uk_mcp *m = make(4, 65536);

	test_lifecycle(m);
	test_framing(m);
	test_calls(m);
	uk_mcp_free(m);
	test_jobs();
	test_stdio();
	test_http();
	test_bad_tools();
	reset();
	return tap_done();
}
