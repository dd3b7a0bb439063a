/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "buf.h"
#include "httpd.h"
#include "json.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "toolack_server.h"

#include "banned.h"

enum kind { K_ERROR, K_PAGE, K_DISPATCH, K_ACK, K_EVENTS, K_RESULT, K_CALLS };

struct srv;
struct sse;

/* One request; lives from the first handler call to NOTIFY_COMPLETED. */
struct req {
	struct srv *s;
	struct MHD_Connection *conn;
	enum kind kind;
	int started, too_large, suspended;
	struct uk_buf body;
	/* Waiting for a call's result (dispatch, result). */
	char *id;
	struct uk_toolack_registry_call
	    *call;                   /* waited on; NULL once detached */
	struct req *wprev, *wnext;   /* the call's waiters */
	char *result;                /* the answer once there is one */
	unsigned result_code;
	long long until;           /* result waits: give up then */
	struct req *rprev, *rnext; /* srv->rwaits */
	struct sse *sse;           /* event stream */
	struct req *prev, *next;   /* srv->reqs */
};

/* An event stream: one executor's connection. */
struct sse {
	struct req *r;
	char *executor;
	char *tools; /* ",a,b," or NULL for every tool */
	struct uk_buf out;
	size_t off;
	int ending;
	struct sse *prev, *next;
};

struct srv {
	const struct uk_toolack_server_opts *o;
	struct MHD_Daemon *d;
	struct uk_toolack_registry *reg;
	const char *token;
	char *why401;  /* a 401's reason: where the token is */
	char *page401; /* the page's refusal */
	char url[80];
	size_t max_body;
	long hb_ms, def_timeout;
	int stopping;
	int woke; /* a connection was resumed: run MHD again at once */
	unsigned long anon;
	struct req *reqs, *rwaits;
	struct sse *ssehead, *ssetail;
};

/* Lists. */

#define LINK(head, x, p, n)                                                    \
	do {                                                                   \
		(x)->p = NULL;                                                 \
		(x)->n = (head);                                               \
		if (head)                                                      \
			(head)->p = (x);                                       \
		(head) = (x);                                                  \
	} while (0)
#define UNLINK(head, x, p, n)                                                  \
	do {                                                                   \
		if ((x)->p)                                                    \
			(x)->p->n = (x)->n;                                    \
		else                                                           \
			(head) = (x)->n;                                       \
		if ((x)->n)                                                    \
			(x)->n->p = (x)->p;                                    \
		(x)->p = (x)->n = NULL;                                        \
	} while (0)

static void
wake(struct req *r)
{
	if (r->suspended) {
		r->suspended = 0;
		r->s->woke = 1;
		MHD_resume_connection(r->conn);
	}
}

static void
sleep_req(struct req *r)
{
	if (!r->suspended) {
		r->suspended = 1;
		MHD_suspend_connection(r->conn);
	}
}

/* Event streams. */

static void
sse_append(struct sse *e, const char *s)
{
	uk_buf_addstr(&e->out, s);
	wake(e->r);
}

static int
sse_takes(const struct sse *e, const char *tool)
{
	char pat[160];

	if (e->ending)
		return 0;
	if (!e->tools)
		return 1;
	snprintf(pat, sizeof(pat), ",%s,", tool);
	return strstr(e->tools, pat) != NULL;
}

/* How many executors are connected: live event streams. */
static long long
executors(const struct srv *s)
{
	const struct sse *e;
	long long n = 0;

	for (e = s->ssehead; e; e = e->next)
		if (!e->ending)
			n++;
	return n;
}

/* Hand c to e: claim it and send it. */
static void
sse_send_call(struct sse *e, struct uk_toolack_registry_call *c)
{
	yajl_val o = uk_json_object(), in;
	long long left;

	c->owner = e;
	in = uk_json_parse(c->input, strlen(c->input), NULL);
	uk_json_set_str(o, "toolCallId", c->id);
	uk_json_set_str(o, "toolName", c->tool);
	uk_json_set(o, "input", in ? in : uk_json_object());
	uk_json_set_int(o, "timeoutSec", c->timeout_sec);
	/* What is left of it on the server's clock: the web page acks a
	 * blocked pop-up before the server would time the call out. */
	left = c->deadline - uk_util_mono_ms();
	uk_json_set_int(o, "remainingMs", left > 0 ? left : 0);
	uk_json_set_str(o, "requestedAt", c->requested_at);
	uk_buf_addf(&e->out, "id: %llu\nevent: call\ndata: ", c->seq);
	uk_json_to_buf(o, &e->out);
	uk_json_free(o);
	sse_append(e, "\n\n");
}

/*
 * Offer c to an executor that takes its tool: the first in the list, which
 * then goes to the back (round robin).  Stays unclaimed when none does.
 */
static void
offer(struct srv *s, struct uk_toolack_registry_call *c)
{
	struct sse *e;

	for (e = s->ssehead; e; e = e->next)
		if (sse_takes(e, c->tool))
			break;
	if (!e)
		return;
	sse_send_call(e, c);
	if (e != s->ssetail) {
		UNLINK(s->ssehead, e, prev, next);
		if (!s->ssehead)
			s->ssetail = NULL;
		e->prev = s->ssetail;
		s->ssetail->next = e;
		s->ssetail = e;
	}
}

static void
sse_unlink(struct srv *s, struct sse *e)
{
	if (s->ssetail == e)
		s->ssetail = e->prev;
	UNLINK(s->ssehead, e, prev, next);
}

/* The stream is gone: its unacked calls go to other executors. */
static void
sse_close(struct srv *s, struct sse *e)
{
	struct uk_toolack_registry_call *c;

	sse_unlink(s, e);
	for (c = uk_toolack_registry_first(s->reg); c;
	     c = uk_toolack_registry_next(c))
		if (c->owner == e) {
			c->owner = NULL;
			if (!s->stopping)
				offer(s, c);
		}
	free(e->executor);
	free(e->tools);
	uk_buf_release(&e->out);
	free(e);
}

static ssize_t
sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct req *r = cls;
	struct sse *e = r->sse;
	size_t n;

	(void)pos;
	if (e->off < e->out.len) {
		n = e->out.len - e->off;
		if (n > max)
			n = max;
		memcpy(buf, e->out.buf + e->off, n);
		e->off += n;
		if (e->off == e->out.len) {
			uk_buf_reset(&e->out);
			e->off = 0;
		}
		return (ssize_t)n;
	}
	if (e->ending || r->s->stopping)
		return MHD_CONTENT_READER_END_OF_STREAM;
	sleep_req(r);
	return 0;
}

/* Waiters. */

static void
waiter_detach(struct req *r)
{
	struct req *head;

	if (!r->call)
		return;
	head = r->call->udata;
	UNLINK(head, r, wprev, wnext);
	r->call->udata = head;
	r->call = NULL;
}

static void
waiter_attach(struct req *r, struct uk_toolack_registry_call *c)
{
	struct req *head = c->udata;

	LINK(head, r, wprev, wnext);
	c->udata = head;
	r->call = c;
}

static void
answer(struct srv *s, struct req *r, unsigned code, const char *text)
{
	if (r->until >= 0)
		UNLINK(s->rwaits, r, rprev, rnext);
	r->until = -1;
	free(r->result);
	r->result = uk_util_xstrdup(text);
	r->result_code = code;
	wake(r);
}

static void
on_resolve(void *ctx, struct uk_toolack_registry_call *c, const char *result)
{
	struct srv *s = ctx;
	struct req *r;
	struct sse *e = c->owner;

	while ((r = c->udata)) {
		waiter_detach(r);
		answer(s, r, MHD_HTTP_OK, result);
	}
	if (e) {
		uk_buf_addstr(&e->out, "event: resolved\ndata: ");
		uk_buf_addstr(&e->out, result);
		sse_append(e, "\n\n");
	}
}

/* Responses. */

static enum MHD_Result
reply(struct MHD_Connection *conn, unsigned code, const char *type,
    const char *body)
{
	struct MHD_Response *resp = uk_httpd_response(type, body);

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	return uk_httpd_queue(conn, code, resp);
}

static enum MHD_Result
reply_json(struct MHD_Connection *conn, unsigned code, const char *json)
{
	struct uk_buf b = UK_BUF_INIT;
	enum MHD_Result ret;

	uk_buf_addf(&b, "%s\n", json);
	ret = reply(conn, code, "application/json", b.buf);
	uk_buf_release(&b);
	return ret;
}

/* {"ok":false,"reason":reason} with code. */
static enum MHD_Result
reply_fail(struct MHD_Connection *conn, unsigned code, const char *reason)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val o = uk_json_object();
	enum MHD_Result ret;

	uk_json_set_bool(o, "ok", 0);
	uk_json_set_str(o, "reason", reason);
	uk_json_to_buf(o, &b);
	uk_json_free(o);
	ret = reply_json(conn, code, b.buf);
	uk_buf_release(&b);
	return ret;
}

/* Gatekeeping. */

static const char *
arg(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

/*
 * Route and check a request on its first call.  Returns 0 to go on, or
 * an HTTP status with *why set, to refuse it.
 */
static unsigned
gate(struct srv *s, struct req *r, const char *url, const char *method,
    const char **why)
{
	struct MHD_Connection *conn = r->conn;
	const char *host = uk_httpd_header(conn, "Host");
	const char *origin = uk_httpd_header(conn, "Origin");
	const char *site = uk_httpd_header(conn, "Sec-Fetch-Site");
	int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	int post = !strcmp(method, "POST");
	unsigned code;

	if (host && !uk_httpd_host_ok(s->o->host, host, strlen(host))) {
		*why = "unexpected Host header";
		return MHD_HTTP_FORBIDDEN;
	}
	if (origin && !uk_httpd_origin_same(origin, host)) {
		*why = "cross-origin request refused";
		return MHD_HTTP_FORBIDDEN;
	}
	if (site && !strcmp(site, "cross-site")) {
		*why = "cross-site request refused";
		return MHD_HTTP_FORBIDDEN;
	}
	if (!strcmp(url, "/") || !strcmp(url, "/index.html"))
		r->kind = K_PAGE;
	else if (!strcmp(url, "/api/tools/dispatch"))
		r->kind = K_DISPATCH;
	else if (!strcmp(url, "/api/tools/ack"))
		r->kind = K_ACK;
	else if (!strcmp(url, "/api/tools/events"))
		r->kind = K_EVENTS;
	else if (!strncmp(url, "/api/tools/result/", 18) && url[18])
		r->kind = K_RESULT;
	else if (!strcmp(url, "/api/tools/calls"))
		r->kind = K_CALLS;
	else {
		*why = "no such endpoint";
		return MHD_HTTP_NOT_FOUND;
	}
	if (((r->kind == K_DISPATCH || r->kind == K_ACK) && !post) ||
	    (r->kind != K_DISPATCH && r->kind != K_ACK && !get)) {
		*why = "method not allowed";
		return MHD_HTTP_METHOD_NOT_ALLOWED;
	}
	if (!uk_httpd_token_ok(conn, s->token, 1)) {
		*why = s->why401;
		return MHD_HTTP_UNAUTHORIZED;
	}
	if ((code = uk_httpd_length(uk_httpd_header(conn, "Content-Length"),
		 s->max_body, why)))
		return code;
	if (r->kind == K_RESULT)
		r->id = uk_util_xstrdup(url + 18);
	return 0;
}

/* Handlers. */

static enum MHD_Result
do_page(struct srv *s, struct req *r)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *p = uk_toolack_web_html, *q;
	struct MHD_Response *resp;

	while ((q = strstr(p, "@TOKEN@"))) {
		uk_buf_add(&b, p, (size_t)(q - p));
		uk_buf_addstr(&b, s->token);
		p = q + 7;
	}
	uk_buf_addstr(&b, p);
	resp = uk_httpd_response("text/html; charset=utf-8", b.buf);
	uk_buf_release(&b);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Content-Security-Policy",
	    "default-src 'none'; script-src 'unsafe-inline'; "
	    "style-src 'unsafe-inline'; connect-src 'self'; "
	    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
	return uk_httpd_queue(r->conn, MHD_HTTP_OK, resp);
}

static yajl_val
body_object(struct req *r, struct uk_err *err)
{
	yajl_val v = uk_json_parse(r->body.buf, r->body.len, err);

	if (v && !YAJL_IS_OBJECT(v)) {
		uk_json_free(v);
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "the body must be a JSON object");
		return NULL;
	}
	return v;
}

/*
 * 409 with a failed ack record: the id is pending or was used lately.  A
 * frontend that ran the old call would take the new one for a replay of
 * it (and ack it with the old output), so the id is refused, never joined
 * or run again; the record says why, so the caller has an answer.
 */
static enum MHD_Result
reply_taken(struct MHD_Connection *conn, const char *id, int pending)
{
	struct uk_buf b = UK_BUF_INIT, why = UK_BUF_INIT;
	enum MHD_Result ret;
	char ts[40];

	uk_util_time_rfc3339(ts, sizeof(ts));
	uk_buf_addf(&why,
	    pending ? "toolCallId '%s' is already pending: ids are not reused" :
		      "toolCallId '%s' was used within the last hour: "
		      "ids are not reused",
	    id);
	uk_toolack_proto_ack(&b, id, "failed", NULL, why.buf, ts);
	ret = reply_json(conn, MHD_HTTP_CONFLICT, b.buf);
	uk_buf_release(&b);
	uk_buf_release(&why);
	return ret;
}

static enum MHD_Result
do_dispatch(struct srv *s, struct req *r)
{
	struct uk_err err;
	struct uk_buf in = UK_BUF_INIT;
	yajl_val rec = NULL, call = NULL, input;
	struct uk_toolack_registry_call *c;
	const char *id, *tool, *w = arg(r->conn, "wait");
	const char *res;
	enum MHD_Result ret;
	long long t;
	int nowait = w && !strcmp(w, "0");
	long long now = uk_util_mono_ms();

	if (!(rec = body_object(r, &err)) ||
	    !(call =
		    uk_toolack_proto_call_from_record(rec, NULL, NULL, &err)) ||
	    uk_toolack_proto_call_check(call, &err)) {
		ret = reply_fail(r->conn, MHD_HTTP_BAD_REQUEST, err.msg);
		goto out;
	}
	id = uk_json_get_str(call, "toolCallId");
	tool = uk_json_get_str(call, "toolName");
	input = uk_json_get(call, "input");
	if (uk_json_get_int(call, "timeoutSec", &t))
		t = s->def_timeout;
	if (uk_toolack_registry_find(s->reg, id) ||
	    uk_toolack_registry_done(s->reg, id)) {
		ret = reply_taken(r->conn, id,
		    uk_toolack_registry_find(s->reg, id) != NULL);
		goto out;
	}
	if (uk_toolack_proto_validate(tool, input, &err)) {
		res = uk_toolack_registry_refuse(s->reg, id, err.msg, now);
		ret = reply_json(r->conn, MHD_HTTP_OK, res);
		goto out;
	}
	uk_json_to_buf(input, &in);
	c = uk_toolack_registry_add(s->reg, id, tool, in.buf, (long)t, NULL,
	    now, NULL);
	offer(s, c);
	if (nowait) {
		yajl_val o = uk_json_object();

		uk_buf_reset(&in);
		uk_json_set_bool(o, "ok", 1);
		uk_json_set_str(o, "toolCallId", id);
		uk_json_set_str(o, "status", "pending");
		uk_json_to_buf(o, &in);
		uk_json_free(o);
		ret = reply_json(r->conn, MHD_HTTP_ACCEPTED, in.buf);
		goto out;
	}
	waiter_attach(r, c);
	sleep_req(r);
	ret = MHD_YES;
out:
	uk_buf_release(&in);
	uk_json_free(rec);
	uk_json_free(call);
	return ret;
}

static enum MHD_Result
do_ack(struct srv *s, struct req *r)
{
	struct uk_err err;
	yajl_val rec, output, et;
	const char *id, *status, *at;
	const struct uk_toolack_registry_done *d;
	enum MHD_Result ret;

	if (!(rec = body_object(r, &err)))
		return reply_fail(r->conn, MHD_HTTP_BAD_REQUEST, err.msg);
	id = uk_json_get_str(rec, "toolCallId");
	status = uk_json_get_str(rec, "status");
	at = uk_json_get_str(rec, "requestedAt");
	output = uk_json_get(rec, "output");
	et = uk_json_get(rec, "errorText");
	if (!id || !*id)
		ret = reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "toolCallId is required");
	else if (!uk_toolack_registry_status_ok(status))
		ret = reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "status must be success, failed or timeout");
	else if (!uk_toolack_registry_time_ok(at))
		ret = reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "requestedAt must be an ISO 8601 date-time");
	else if (et && !YAJL_IS_STRING(et) && !YAJL_IS_NULL(et))
		ret = reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "errorText must be a string or null");
	else
		switch (uk_toolack_registry_ack(s->reg, id, status, output,
		    et && YAJL_IS_STRING(et) ? YAJL_GET_STRING(et) : NULL, at,
		    uk_util_mono_ms())) {
		case UK_TOOLACK_REGISTRY_OK:
			ret = reply_json(r->conn, MHD_HTTP_OK, "{\"ok\":true}");
			break;
		case UK_TOOLACK_REGISTRY_IGNORED:
			ret = reply_json(r->conn, MHD_HTTP_OK,
			    "{\"ok\":true,\"ignored\":true}");
			break;
		case UK_TOOLACK_REGISTRY_EXPIRED:
			d = uk_toolack_registry_done(s->reg, id);
			ret = reply_fail(r->conn, MHD_HTTP_GONE,
			    d && d->how == UK_TOOLACK_REGISTRY_REFUSED ?
				"expired: the call was refused" :
				"expired: the call timed out");
			break;
		default:
			ret = reply_fail(r->conn, MHD_HTTP_NOT_FOUND,
			    "unknown toolCallId");
		}
	uk_json_free(rec);
	return ret;
}

static enum MHD_Result
do_events(struct srv *s, struct req *r)
{
	const char *ex = arg(r->conn, "executor"),
		   *tools = arg(r->conn, "tools");
	struct MHD_Response *resp;
	struct uk_toolack_registry_call *c;
	struct sse *e, *old;
	char name[64];
	yajl_val o;

	if (ex && (!*ex || strlen(ex) > 128))
		return reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "executor must be 1 to 128 characters");
	if (tools && strlen(tools) > 1024)
		return reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "tools too long");
	if (!ex) {
		snprintf(name, sizeof(name), "anonymous-%lu", ++s->anon);
		ex = name;
	}
	e = uk_util_xcalloc(1, sizeof(*e));
	e->r = r;
	e->executor = uk_util_xstrdup(ex);
	if (tools && *tools && strcmp(tools, "*")) {
		struct uk_buf b = UK_BUF_INIT;

		uk_buf_addf(&b, ",%s,", tools);
		e->tools = uk_buf_detach(&b, NULL);
	}
	uk_buf_init(&e->out, 0);
	r->sse = e;
	/* The same executor again (a reload, a reconnect): take over. */
	for (old = s->ssehead; old; old = old->next)
		if (!old->ending && !strcmp(old->executor, ex))
			break;
	if (old) {
		for (c = uk_toolack_registry_first(s->reg); c;
		     c = uk_toolack_registry_next(c))
			if (c->owner == old)
				c->owner = e;
		old->ending = 1;
		wake(old->r);
	}
	e->prev = s->ssetail;
	if (s->ssetail)
		s->ssetail->next = e;
	else
		s->ssehead = e;
	s->ssetail = e;
	o = uk_json_object();
	uk_json_set_str(o, "executor", ex);
	uk_json_set_int(o, "heartbeatMs", s->hb_ms);
	uk_json_set_int(o, "executors", executors(s));
	uk_buf_addstr(&e->out, "retry: 1000\n\nevent: hello\ndata: ");
	uk_json_to_buf(o, &e->out);
	uk_buf_addstr(&e->out, "\n\n");
	uk_json_free(o);
	/* Everything still pending that is ours or nobody's. */
	for (c = uk_toolack_registry_first(s->reg); c;
	     c = uk_toolack_registry_next(c))
		if (c->owner == e || (!c->owner && sse_takes(e, c->tool)))
			sse_send_call(e, c);
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
	    sse_read, r, NULL);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", "text/event-stream");
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "X-Accel-Buffering", "no");
	return uk_httpd_queue(r->conn, MHD_HTTP_OK, resp);
}

static enum MHD_Result
do_result(struct srv *s, struct req *r)
{
	const struct uk_toolack_registry_done *d =
	    uk_toolack_registry_done(s->reg, r->id);
	struct uk_toolack_registry_call *c =
	    uk_toolack_registry_find(s->reg, r->id);
	const char *ts = arg(r->conn, "timeout");
	long t = 30;

	if (d)
		return reply_json(r->conn, MHD_HTTP_OK, d->result);
	if (!c)
		return reply_fail(r->conn, MHD_HTTP_NOT_FOUND,
		    "unknown toolCallId");
	if (ts && uk_util_parse_long(ts, 0, 600, &t))
		return reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "timeout must be 0 to 600 seconds");
	waiter_attach(r, c);
	r->until = uk_util_mono_ms() + t * 1000;
	LINK(s->rwaits, r, rprev, rnext);
	sleep_req(r);
	return MHD_YES;
}

static enum MHD_Result
do_calls(struct srv *s, struct req *r)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_toolack_registry_call *c;
	yajl_val o = uk_json_object(), arr = uk_json_array(), x, in;
	enum MHD_Result ret;
	const char *ls = arg(r->conn, "limit");
	long limit = -1;

	if (ls && uk_util_parse_long(ls, 0, 1000000000L, &limit)) {
		uk_json_free(o);
		uk_json_free(arr);
		return reply_fail(r->conn, MHD_HTTP_BAD_REQUEST,
		    "limit must be a count");
	}
	for (c = uk_toolack_registry_first(s->reg); c && limit != 0;
	     c = uk_toolack_registry_next(c), limit--) {
		x = uk_json_object();
		uk_json_set_str(x, "toolCallId", c->id);
		uk_json_set_str(x, "toolName", c->tool);
		in = uk_json_parse(c->input, strlen(c->input), NULL);
		uk_json_set(x, "input", in ? in : uk_json_object());
		uk_json_set_str(x, "requestedAt", c->requested_at);
		uk_json_set(x, "executor",
		    c->owner ? uk_json_str(((struct sse *)c->owner)->executor) :
			       uk_json_null());
		uk_json_push(arr, x);
	}
	uk_json_set_int(o, "defaultTimeoutSec", s->def_timeout);
	uk_json_set_int(o, "pending",
	    (long long)uk_toolack_registry_pending(s->reg));
	uk_json_set_int(o, "done",
	    (long long)uk_toolack_registry_ndone(s->reg));
	uk_json_set_int(o, "executors", executors(s));
	uk_json_set(o, "calls", arr);
	uk_json_to_buf(o, &b);
	uk_json_free(o);
	ret = reply_json(r->conn, MHD_HTTP_OK, b.buf);
	uk_buf_release(&b);
	return ret;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct srv *s = cls;
	struct req *r = *con_cls;
	const char *why = NULL;
	unsigned code;

	(void)version;
	if (!r) {
		r = uk_util_xcalloc(1, sizeof(*r));
		r->s = s;
		r->conn = conn;
		r->until = -1;
		uk_buf_init(&r->body, 0);
		LINK(s->reqs, r, prev, next);
		*con_cls = r;
		if ((code = gate(s, r, url, method, &why))) {
			enum kind k = r->kind;

			r->kind = K_ERROR;
			r->started = 1;
			if (k != K_PAGE || code != MHD_HTTP_UNAUTHORIZED)
				return reply_fail(conn, code, why);
			return reply(conn, code, "text/plain; charset=utf-8",
			    s->page401);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (r->body.len + *upload_size > s->max_body)
			r->too_large = 1;
		else if (!r->too_large)
			uk_buf_add(&r->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->kind == K_ERROR)
		return MHD_YES;
	if (r->started) {
		if (r->result)
			return reply_json(conn, r->result_code, r->result);
		sleep_req(r); /* woken with nothing to say: wait on */
		return MHD_YES;
	}
	r->started = 1;
	if (r->too_large)
		return reply_fail(conn, MHD_HTTP_CONTENT_TOO_LARGE,
		    "request body too large");
	if (s->stopping)
		return reply_fail(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "server shutting down");
	switch (r->kind) {
	case K_PAGE:
		return do_page(s, r);
	case K_DISPATCH:
		return do_dispatch(s, r);
	case K_ACK:
		return do_ack(s, r);
	case K_EVENTS:
		return do_events(s, r);
	case K_RESULT:
		return do_result(s, r);
	case K_CALLS:
		return do_calls(s, r);
	default:
		return MHD_NO;
	}
}

static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct srv *s = cls;
	struct req *r = *con_cls;

	(void)conn;
	(void)toe;
	if (!r)
		return;
	*con_cls = NULL;
	if (r->sse)
		sse_close(s, r->sse);
	waiter_detach(r);
	if (r->until >= 0)
		UNLINK(s->rwaits, r, rprev, rnext);
	UNLINK(s->reqs, r, prev, next);
	uk_buf_release(&r->body);
	free(r->id);
	free(r->result);
	free(r);
}

/* Result waits past their time answer 202 "still pending". */
static long long
rwaits_expire(struct srv *s, long long now)
{
	struct req *r, *rn;
	long long next = -1;
	struct uk_buf b = UK_BUF_INIT;

	for (r = s->rwaits; r; r = rn) {
		rn = r->rnext;
		if (r->until <= now) {
			uk_buf_reset(&b);
			uk_buf_addstr(&b,
			    "{\"ok\":false,\"status\":\"pending\","
			    "\"toolCallId\":");
			{
				yajl_val v = uk_json_str(r->id);

				uk_json_to_buf(v, &b);
				uk_json_free(v);
			}
			uk_buf_addch(&b, '}');
			waiter_detach(r);
			answer(s, r, MHD_HTTP_ACCEPTED, b.buf);
		} else if (next < 0 || r->until < next)
			next = r->until;
	}
	uk_buf_release(&b);
	return next;
}

static void
heartbeat(struct srv *s)
{
	struct sse *e;

	for (e = s->ssehead; e; e = e->next)
		sse_append(e, ": heartbeat\n\n");
}

/* Answer everything that waits, so no connection stays suspended. */
static void
wake_all(struct srv *s)
{
	struct req *r;

	for (r = s->reqs; r; r = r->next) {
		if (r->sse)
			r->sse->ending = 1;
		else if (r->suspended && !r->result) {
			waiter_detach(r);
			answer(s, r, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "{\"ok\":false,\"reason\":\"server shutting "
			    "down\"}");
			continue;
		}
		wake(r);
	}
}

static int
any_suspended(struct srv *s)
{
	struct req *r;

	for (r = s->reqs; r; r = r->next)
		if (r->suspended)
			return 1;
	return 0;
}

static int
run_once(struct srv *s, int epfd, int stop_fd, long long timeout)
{
	struct pollfd p[2];
	MHD_UNSIGNED_LONG_LONG mt;
	int n;

	if (MHD_get_timeout(s->d, &mt) == MHD_YES &&
	    (timeout < 0 || (long long)mt < timeout))
		timeout = (long long)mt;
	if (timeout > 60000)
		timeout = 60000;
	/* MHD takes resumed connections back at the start of MHD_run. */
	if (s->woke)
		timeout = 0;
	s->woke = 0;
	p[0].fd = epfd;
	p[0].events = POLLIN;
	p[1].fd = stop_fd;
	p[1].events = POLLIN;
	n = poll(p, stop_fd >= 0 ? 2 : 1, (int)timeout);
	if (n < 0 && errno != EINTR)
		return -1;
	MHD_run(s->d);
	return n > 0 && stop_fd >= 0 && (p[1].revents & POLLIN);
}

/* What a request without the token is told: where the token is. */
static void
refusals(struct srv *s)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *f = s->o->token_file;

	uk_httpd_token_why(&b, f, "TOOLACK_TOKEN");
	s->why401 = uk_buf_detach(&b, NULL);
	uk_buf_addf(&b, "toolack: this page needs the token: open %s/?token= "
	    "followed by ", s->url);
	if (f && *f)
		uk_buf_addf(&b, "the first line of %s, the token file this "
		    "server reads\n", f);
	else
		uk_buf_addstr(&b, "the token this server was given in "
		    "TOOLACK_TOKEN\n");
	s->page401 = uk_buf_detach(&b, NULL);
}

int
uk_toolack_server_run(const struct uk_toolack_server_opts *o, int stop_fd,
    struct uk_err *err)
{
	struct uk_toolack_registry_opts ro = { 0 };
	struct srv s;
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;
	struct rlimit rl;
	unsigned limit = 1000;
	long long now, next_hb, t, dl, rw;
	int epfd, port, lfd;
	MHD_socket ls;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.token = o->token;
	s.hb_ms = o->heartbeat_ms > 0 ? o->heartbeat_ms : 15000;
	s.max_body = o->max_body ? o->max_body : UK_TOOLACK_PROTO_MAX_BODY;
	s.def_timeout = o->default_timeout > 0 ? o->default_timeout :
						 UK_TOOLACK_PROTO_TIMEOUT;
	if (uk_httpd_sockaddr(&sa, o->host, o->port))
		return uk_util_err_set(err, UK_EXIT_FATAL, "bad address '%s'",
		    o->host);
	/* Many waiting clients are many sockets: use what we may. */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur > 64)
			limit = rl.rlim_cur > 100000 ?
			    100000 :
			    (unsigned)rl.rlim_cur - 32;
	}
	ro.on_resolve = on_resolve;
	ro.ctx = &s;
	s.reg = uk_toolack_registry_new(&ro);
	s.d = MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, 0,
	    NULL, NULL, handle, &s, MHD_OPTION_SOCK_ADDR, &sa,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, &s,
	    MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_CONNECTION_LIMIT,
	    limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
	    MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_END);
	if (!s.d) {
		uk_toolack_registry_free(s.reg);
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot listen on %s:%d: %s", o->host, o->port,
		    strerror(errno));
	}
	info = MHD_get_daemon_info(s.d, MHD_DAEMON_INFO_BIND_PORT);
	port = info ? info->port : o->port;
	info = MHD_get_daemon_info(s.d, MHD_DAEMON_INFO_EPOLL_FD);
	epfd = info->epoll_fd;
	snprintf(s.url, sizeof(s.url), "http://%s:%d", o->host, port);
	refusals(&s);
	if (o->ready)
		o->ready(o->ctx, s.url);

	next_hb = uk_util_mono_ms() + s.hb_ms;
	for (;;) {
		now = uk_util_mono_ms();
		uk_toolack_registry_expire(s.reg, now);
		rw = rwaits_expire(&s, now);
		if (now >= next_hb) {
			heartbeat(&s);
			next_hb = now + s.hb_ms;
		}
		t = next_hb - now;
		dl = uk_toolack_registry_next_deadline(s.reg);
		if (dl >= 0 && dl - now < t)
			t = dl - now < 0 ? 0 : dl - now;
		if (rw >= 0 && rw - now < t)
			t = rw - now < 0 ? 0 : rw - now;
		if (run_once(&s, epfd, stop_fd, t))
			break;
	}

	/* Shut down: stop accepting, answer everyone, then stop. */
	s.stopping = 1;
	ls = MHD_quiesce_daemon(s.d);
	lfd = (int)ls;
	if (ls != MHD_INVALID_SOCKET)
		close(lfd);
	wake_all(&s);
	/* Until every request is answered (or 2 s), so none stays suspended. */
	for (t = uk_util_mono_ms() + 2000; s.reqs && uk_util_mono_ms() < t;) {
		run_once(&s, epfd, -1, 10);
		wake_all(&s);
	}
	if (any_suspended(&s)) {
		/* MHD_stop_daemon would abort: leave the rest to exit(). */
		uk_toolack_registry_free(s.reg);
		free(s.why401);
		free(s.page401);
		return 0;
	}
	MHD_run(s.d);
	MHD_stop_daemon(s.d);
	uk_toolack_registry_free(s.reg);
	free(s.why401);
	free(s.page401);
	return 0;
}
