/* SPDX-License-Identifier: MIT */
/*
 * The Model Context Protocol's messages and lifecycle (lib/mcp.h): the
 * tools table, sessions, JSON-RPC dispatch.  Calls and the pool of worker
 * threads that runs them are lib/mcp_call.c, the arguments' check
 * lib/mcp_schema.c, the transports lib/mcp_stdio.c and lib/mcp_http.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "mcp.h"
#include "mcp_int.h"

#include "banned.h"

/* JSON-RPC's error codes. */
#define RPC_PARSE    -32700
#define RPC_INVALID  -32600
#define RPC_METHOD   -32601
#define RPC_PARAMS   -32602
#define RPC_INTERNAL -32603

const char *const uk_mcp_protocols[] = { UK_MCP_PROTOCOL, "2025-06-18",
	"2025-03-26", "2024-11-05", NULL };

/* What a client that never called logging/setLevel is sent. */
#define DEFAULT_LEVEL 3 /* warning */

/* Messages. */

void
uk_mcp_error_json(struct uk_buf *b, const char *id, int code, const char *msg)
{
	uk_buf_addf(b,
	    "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":%d,"
	    "\"message\":",
	    id ? id : "null", code);
	uk_mcp_call_add_str(b, msg);
	uk_buf_addstr(b, "}}");
}

static void send_error(struct mcp_sink *k, const char *id, int code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
send_error(struct mcp_sink *k, const char *id, int code, const char *fmt, ...)
{
	struct uk_buf msg = UK_BUF_INIT, b = UK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	uk_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	uk_mcp_error_json(&b, id, code, msg.buf);
	k->emit(k, b.buf, b.len);
	uk_buf_release(&b);
	uk_buf_release(&msg);
}

/* The session's own sink: each message to the write callback, whole. */
static void
session_emit(struct mcp_sink *k, const char *msg, size_t len)
{
	struct uk_mcp_session *s = (struct uk_mcp_session *)((char *)k -
	    offsetof(struct uk_mcp_session, sink));

	pthread_mutex_lock(&s->wmu);
	s->write(s->wctx, msg, len);
	pthread_mutex_unlock(&s->wmu);
}

static void
session_done(struct mcp_sink *k)
{
	(void)k;
}

/* The tools table. */

static yajl_val
parse_object(const char *text, const char *tool, const char *what,
    struct uk_err *err)
{
	yajl_val v = uk_json_parse(text, strlen(text), err);

	if (v && YAJL_IS_OBJECT(v))
		return v;
	uk_json_free(v);
	uk_util_err_set(err, UK_EXIT_FATAL,
	    "tool '%s': %s is not a JSON object", tool, what);
	return NULL;
}

/* tools/list's result, made once: the tools as the client sees them. */
static int
tools_list(struct uk_mcp *m, struct uk_err *err)
{
	yajl_val list = uk_json_array(), res = uk_json_object(), t, v;
	struct uk_buf b = UK_BUF_INIT;
	size_t i;

	for (i = 0; i < m->o.ntools; i++) {
		const struct uk_mcp_tool *d = &m->o.tools[i];

		t = uk_json_object();
		uk_json_push(list, t);
		uk_json_set_str(t, "name", d->name);
		if (d->title)
			uk_json_set_str(t, "title", d->title);
		uk_json_set_str(t, "description",
		    d->description ? d->description : "");
		if (!(v = parse_object(d->input_schema ? d->input_schema : "",
			  d->name, "inputSchema", err)))
			goto fail;
		m->tools[i].t = d;
		m->tools[i].input = v;
		uk_json_set(t, "inputSchema", uk_json_copy(v));
		if (d->output_schema) {
			if (!(v = parse_object(d->output_schema, d->name,
				  "outputSchema", err)))
				goto fail;
			uk_json_set(t, "outputSchema", v);
		}
		if (d->annotations) {
			if (!(v = parse_object(d->annotations, d->name,
				  "annotations", err)))
				goto fail;
			uk_json_set(t, "annotations", v);
		}
	}
	uk_json_set(res, "tools", list);
	uk_json_to_buf(res, &b);
	uk_json_free(res);
	m->tools_list = uk_buf_detach(&b, NULL);
	return 0;
fail:
	uk_json_free(list);
	uk_json_free(res);
	return -1;
}

int
uk_mcp_new(struct uk_mcp **mp, const struct uk_mcp_opts *o, struct uk_err *err)
{
	struct uk_mcp *m = uk_util_xcalloc(1, sizeof(*m));
	size_t i;

	*mp = NULL;
	m->o = *o;
	if (m->o.jobs < 1)
		m->o.jobs = 1;
	if (!m->o.max_message)
		m->o.max_message = 4u << 20;
	m->tools =
	    uk_util_xcalloc(o->ntools ? o->ntools : 1, sizeof(*m->tools));
	for (i = 0; i < o->ntools; i++)
		if (!o->tools[i].name || !o->tools[i].fn) {
			uk_util_err_set(err, UK_EXIT_FATAL,
			    "tool %zu has no %s", i,
			    o->tools[i].name ? "function" : "name");
			goto fail;
		}
	if (tools_list(m, err))
		goto fail;
	m->threads = uk_util_xcalloc((size_t)m->o.jobs, sizeof(*m->threads));
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cv, NULL);
	*mp = m;
	return 0;
fail:
	for (i = 0; i < o->ntools; i++)
		uk_json_free(m->tools[i].input);
	free(m->tools);
	free(m);
	return -1;
}

void
uk_mcp_free(struct uk_mcp *m)
{
	size_t i;
	int t;

	if (!m)
		return;
	pthread_mutex_lock(&m->mu);
	m->quit = 1;
	pthread_cond_broadcast(&m->cv);
	pthread_mutex_unlock(&m->mu);
	for (t = 0; t < m->nthreads; t++)
		pthread_join(m->threads[t], NULL);
	pthread_cond_destroy(&m->cv);
	pthread_mutex_destroy(&m->mu);
	for (i = 0; i < m->o.ntools; i++)
		uk_json_free(m->tools[i].input);
	free(m->tools);
	free(m->tools_list);
	free(m->threads);
	free(m);
}

/* Sessions. */

struct uk_mcp_session *
uk_mcp_session_make(struct uk_mcp *m,
    void (*write)(void *wctx, const char *msg, size_t len), void *wctx)
{
	struct uk_mcp_session *s = uk_util_xcalloc(1, sizeof(*s));

	s->m = m;
	s->write = write;
	s->wctx = wctx;
	s->sink.emit = session_emit;
	s->sink.done = session_done;
	s->log_level = DEFAULT_LEVEL;
	pthread_mutex_init(&s->wmu, NULL);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	return s;
}

struct uk_mcp_session *
uk_mcp_session_new(struct uk_mcp *m,
    void (*write)(void *wctx, const char *msg, size_t len), void *wctx)
{
	return uk_mcp_session_make(m, write, wctx);
}

void
uk_mcp_session_input(struct uk_mcp_session *s, const char *msg, size_t len)
{
	char *copy;

	if (len > s->m->o.max_message) {
		send_error(&s->sink, NULL, RPC_INVALID,
		    "message too long: over %zu bytes", s->m->o.max_message);
		return;
	}
	copy = uk_util_xmemdup(msg, len);
	uk_mcp_dispatch(s, copy, len, &s->sink);
	free(copy);
}

void
uk_mcp_session_cancel_all(struct uk_mcp_session *s)
{
	struct uk_mcp_call *c;

	pthread_mutex_lock(&s->mu);
	s->ending = 1;
	for (c = s->calls; c; c = c->next)
		uk_mcp_call_cancel_locked(c);
	pthread_mutex_unlock(&s->mu);
}

void
uk_mcp_session_finish(struct uk_mcp_session *s, int cancel)
{
	if (!s)
		return;
	if (cancel)
		uk_mcp_session_cancel_all(s);
	pthread_mutex_lock(&s->mu);
	s->ending = 1;
	while (s->ncalls)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	if (s->app && s->m->o.session_free)
		s->m->o.session_free(s->m->o.ctx, s->app);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	pthread_mutex_destroy(&s->wmu);
	free(s);
}

void
uk_mcp_session_end(struct uk_mcp_session *s)
{
	uk_mcp_session_finish(s, 1);
}

/* Methods. */

static void
do_initialize(struct uk_mcp_session *s, const char *id, yajl_val params,
    struct mcp_sink *k)
{
	const char *want = uk_json_get_str(params, "protocolVersion");
	const char *ver = UK_MCP_PROTOCOL;
	yajl_val res, caps, tools, info;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err = { 0, "" };
	int i;

	if (!want) {
		send_error(k, id, RPC_PARAMS,
		    "initialize: protocolVersion must be a string");
		return;
	}
	if (s->initialized) {
		send_error(k, id, RPC_INVALID, "already initialized");
		return;
	}
	for (i = 0; uk_mcp_protocols[i]; i++)
		if (!strcmp(want, uk_mcp_protocols[i]))
			ver = uk_mcp_protocols[i];
	if (s->m->o.session_new &&
	    !(s->app = s->m->o.session_new(s->m->o.ctx, &err))) {
		send_error(k, id, RPC_INTERNAL, "cannot start the session: %s",
		    err.msg[0] ? err.msg : "unknown error");
		return;
	}
	s->initialized = 1;
	res = uk_json_object();
	uk_json_set_str(res, "protocolVersion", ver);
	caps = uk_json_object();
	tools = uk_json_object();
	uk_json_set_bool(tools, "listChanged", 0);
	uk_json_set(caps, "tools", tools);
	uk_json_set(caps, "logging", uk_json_object());
	uk_json_set(res, "capabilities", caps);
	info = uk_json_object();
	uk_json_set_str(info, "name", s->m->o.name ? s->m->o.name : "mcp");
	uk_json_set_str(info, "version",
	    s->m->o.version ? s->m->o.version : UK_VERSION);
	uk_json_set(res, "serverInfo", info);
	if (s->m->o.instructions)
		uk_json_set_str(res, "instructions", s->m->o.instructions);
	uk_json_to_buf(res, &b);
	uk_json_free(res);
	uk_mcp_call_send_result(k, id, b.buf);
	uk_buf_release(&b);
}

static void
do_set_level(struct uk_mcp_session *s, const char *id, yajl_val params,
    struct mcp_sink *k)
{
	int l = uk_mcp_call_level(uk_json_get_str(params, "level"));

	if (l < 0) {
		send_error(k, id, RPC_PARAMS,
		    "logging/setLevel: level must be one of debug, info, "
		    "notice, warning, error, critical, alert, emergency");
		return;
	}
	pthread_mutex_lock(&s->mu);
	s->log_level = l;
	pthread_mutex_unlock(&s->mu);
	uk_mcp_call_send_result(k, id, "{}");
}

static const struct mcp_tool *
find_tool(struct uk_mcp *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->o.ntools; i++)
		if (!strcmp(m->tools[i].t->name, name))
			return &m->tools[i];
	return NULL;
}

/* Whether a call of s has the id (JSON text) already. */
static int
id_taken(struct uk_mcp_session *s, const char *id)
{
	struct uk_mcp_call *c;

	for (c = s->calls; c; c = c->next)
		if (!strcmp(c->id, id))
			return 1;
	return 0;
}

static void
do_call(struct uk_mcp_session *s, const char *id, yajl_val params,
    size_t len, struct mcp_sink *k, int *answered)
{
	const char *name = uk_json_get_str(params, "name");
	yajl_val args = uk_json_get(params, "arguments");
	yajl_val meta = uk_json_get(params, "_meta");
	yajl_val tok = uk_json_get(meta, "progressToken");
	const struct mcp_tool *t;
	struct uk_mcp_call *c;
	struct uk_buf why = UK_BUF_INIT;

	*answered = 1;
	if (!name) {
		send_error(k, id, RPC_PARAMS,
		    "tools/call: name must be a string");
		return;
	}
	if (!(t = find_tool(s->m, name))) {
		char *n = uk_util_str_printable(uk_util_xstrdup(name));

		send_error(k, id, RPC_PARAMS, "unknown tool %s", n);
		free(n);
		return;
	}
	if (args && !YAJL_IS_OBJECT(args) && !YAJL_IS_NULL(args)) {
		send_error(k, id, RPC_PARAMS,
		    "tools/call: arguments must be an object");
		return;
	}
	if (tok && !YAJL_IS_STRING(tok) && !YAJL_IS_INTEGER(tok))
		tok = NULL;
	if (!uk_mcp_call_hold(s->m, len)) {
		send_error(k, id, RPC_INTERNAL,
		    "server busy: the calls queued hold over %zu bytes; try "
		    "again later", s->m->o.max_queued);
		return;
	}
	c = uk_util_xcalloc(1, sizeof(*c));
	c->bytes = len;
	c->s = s;
	c->k = k;
	c->tool = t;
	c->id = uk_util_xstrdup(id);
	c->args = args && YAJL_IS_OBJECT(args) ? uk_json_copy(args) :
						 uk_json_object();
	c->progress = tok ? uk_json_copy(tok) : NULL;
	c->cancel_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_lock(&s->mu);
	if (id_taken(s, id) || s->ending || c->cancel_fd < 0) {
		int ending = s->ending, e = errno, fd = c->cancel_fd;

		pthread_mutex_unlock(&s->mu);
		if (fd >= 0)
			close(fd);
		pthread_mutex_lock(&s->m->mu);
		s->m->held -= c->bytes;
		pthread_mutex_unlock(&s->m->mu);
		free(c->id);
		uk_json_free(c->args);
		uk_json_free(c->progress);
		free(c);
		if (fd < 0)
			send_error(k, id, RPC_INTERNAL,
			    "cannot start the call: %s", strerror(e));
		else if (ending)
			send_error(k, id, RPC_INVALID, "the session is ending");
		else
			send_error(k, id, RPC_INVALID,
			    "request id %s is already in use", id);
		return;
	}
	c->next = s->calls;
	if (s->calls)
		s->calls->prev = c;
	s->calls = c;
	s->ncalls++;
	pthread_mutex_unlock(&s->mu);
	if (uk_mcp_schema_check_args(t->input, c->args, &why)) {
		/* Invalid arguments are a tool's error, not the protocol's. */
		uk_mcp_call_error(c, "invalid arguments for %s: %s", name,
		    why.buf);
		uk_buf_release(&why);
		uk_mcp_call_release(c);
		*answered = 0;
		return;
	}
	uk_buf_release(&why);
	*answered = 0;
	uk_mcp_call_enqueue(s->m, c);
}

static void
do_cancelled(struct uk_mcp_session *s, yajl_val params)
{
	yajl_val rid = uk_json_get(params, "requestId");
	struct uk_buf b = UK_BUF_INIT;
	struct uk_mcp_call *c;

	if (!rid || !(YAJL_IS_STRING(rid) || YAJL_IS_NUMBER(rid)))
		return;
	uk_json_to_buf(rid, &b);
	pthread_mutex_lock(&s->mu);
	for (c = s->calls; c; c = c->next)
		if (!strcmp(c->id, b.buf))
			uk_mcp_call_cancel_locked(c);
	pthread_mutex_unlock(&s->mu);
	uk_buf_release(&b);
}

/*
 * A request: the method's answer to k.  Returns 1 when k is answered
 * (its done called here), 0 when a call will answer it.
 */
static int
request(struct uk_mcp_session *s, const char *method, const char *id,
    yajl_val params, size_t len, struct mcp_sink *k)
{
	int answered = 1;

	if (!strcmp(method, "ping")) {
		uk_mcp_call_send_result(k, id, "{}");
	} else if (!strcmp(method, "initialize")) {
		if (!YAJL_IS_OBJECT(params))
			send_error(k, id, RPC_PARAMS,
			    "initialize: params must be an object");
		else
			do_initialize(s, id, params, k);
	} else if (!s->initialized) {
		send_error(k, id, RPC_INVALID,
		    "not initialized: send initialize first");
	} else if (!strcmp(method, "tools/list")) {
		if (params && !YAJL_IS_OBJECT(params))
			send_error(k, id, RPC_PARAMS,
			    "tools/list: params must be an object");
		else
			uk_mcp_call_send_result(k, id, s->m->tools_list);
	} else if (!strcmp(method, "tools/call")) {
		if (!YAJL_IS_OBJECT(params))
			send_error(k, id, RPC_PARAMS,
			    "tools/call: params must be an object");
		else
			do_call(s, id, params, len, k, &answered);
	} else if (!strcmp(method, "logging/setLevel")) {
		if (!YAJL_IS_OBJECT(params))
			send_error(k, id, RPC_PARAMS,
			    "logging/setLevel: params must be an object");
		else
			do_set_level(s, id, params, k);
	} else {
		char *m = uk_util_str_printable(uk_util_xstrdup(method));

		send_error(k, id, RPC_METHOD, "method not found: %s", m);
		free(m);
	}
	if (answered)
		k->done(k);
	return answered;
}

static void
notice(struct uk_mcp_session *s, const char *method, yajl_val params)
{
	/* notifications/initialized, and any other, need nothing. */
	if (!strcmp(method, "notifications/cancelled"))
		do_cancelled(s, params);
}

enum mcp_took
uk_mcp_dispatch(struct uk_mcp_session *s, const char *msg, size_t len,
    struct mcp_sink *k)
{
	struct uk_err err = { 0, "" };
	struct uk_buf idb = UK_BUF_INIT;
	yajl_val v, id, method, params;
	const char *ver;
	enum mcp_took took = MCP_INVALID;

	v = uk_json_parse(msg, len, &err);
	if (!v) {
		send_error(k, NULL, RPC_PARSE, "parse error: %s", err.msg);
		goto out;
	}
	if (YAJL_IS_ARRAY(v)) {
		send_error(k, NULL, RPC_INVALID, "batches are not supported");
		goto out;
	}
	if (!YAJL_IS_OBJECT(v)) {
		send_error(k, NULL, RPC_INVALID,
		    "invalid request: not a JSON object");
		goto out;
	}
	id = uk_json_get(v, "id");
	method = uk_json_get(v, "method");
	params = uk_json_get(v, "params");
	ver = uk_json_get_str(v, "jsonrpc");
	if (id && (YAJL_IS_STRING(id) || YAJL_IS_NUMBER(id)))
		uk_json_to_buf(id, &idb);
	else if (id) {
		send_error(k, NULL, RPC_INVALID,
		    "invalid request: id must be a string or a number");
		goto out;
	}
	if (!ver || strcmp(ver, "2.0")) {
		send_error(k, id ? idb.buf : NULL, RPC_INVALID,
		    "invalid request: jsonrpc must be \"2.0\"");
		took = id ? MCP_REQUEST : MCP_INVALID;
		if (id)
			k->done(k);
		goto out;
	}
	if (!method && (uk_json_get(v, "result") || uk_json_get(v, "error"))) {
		/* A response: this server sends no requests to answer. */
		took = MCP_NOTICE;
		goto out;
	}
	if (!method || !YAJL_IS_STRING(method)) {
		send_error(k, id ? idb.buf : NULL, RPC_INVALID,
		    "invalid request: method must be a string");
		took = id ? MCP_REQUEST : MCP_INVALID;
		if (id)
			k->done(k);
		goto out;
	}
	if (params && !YAJL_IS_OBJECT(params) && !YAJL_IS_ARRAY(params)) {
		send_error(k, id ? idb.buf : NULL, RPC_INVALID,
		    "invalid request: params must be an object");
		took = id ? MCP_REQUEST : MCP_INVALID;
		if (id)
			k->done(k);
		goto out;
	}
	if (id) {
		took = MCP_REQUEST;
		request(s, YAJL_GET_STRING(method), idb.buf, params, len, k);
	} else {
		took = MCP_NOTICE;
		notice(s, YAJL_GET_STRING(method), params);
	}
out:
	uk_json_free(v);
	uk_buf_release(&idb);
	return took;
}
