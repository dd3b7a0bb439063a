/* SPDX-License-Identifier: MIT */
/*
 * The streamable HTTP transport (lib/mcp.h) on libmicrohttpd, one thread
 * per connection: a POST that carries a request blocks its connection's
 * thread until the call answers, which is what the transport wants (the
 * response is the POST's answer) and costs no state machine.
 *
 *     POST   /mcp  one message.  A request: application/json with its
 *                  response, or text/event-stream (notifications, then
 *                  the response) when the client accepts it and the call
 *                  carries a progressToken.  A notification or a
 *                  response: 202.  An invalid message: 400 with the
 *                  JSON-RPC error.
 *     DELETE /mcp  ends the session named by Mcp-Session-Id.
 *     GET    /mcp  405: see do_get.
 *
 * Mcp-Session-Id is issued with initialize's response (128 random bits in
 * hex) and needed on every later request: 400 without it, 404 when it
 * names no session (ended, or never issued).  A request without the
 * token is 401, one whose Origin or Host is not ours 403 (DNS rebinding:
 * a page elsewhere must not reach a server on loopback), a body over
 * max_message 413, a Content-Length that is not digits or an
 * MCP-Protocol-Version we do not speak 400, an initialize with no room
 * for its session (below) or a body past max_queued 503.  These checks, the listen
 * address and the common response headers are lib/httpd.h's, shared with
 * toolack serve.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "buf.h"
#include "httpd.h"
#include "json.h"
#include "mcp.h"
#include "mcp_int.h"

#include "banned.h"

/*
 * Sessions at once, and of one client (its address: every client holds
 * the one token).  Past either, initialize ends the client's (or, past
 * MAX_SESSIONS, anyone's) session idle longest (no request in hand, no
 * call running) that holds nothing (opts.session_size 0), as a client
 * that never sends DELETE would otherwise fill the table; one that
 * holds fetched pages is never ended for a new, empty one.  With none
 * to end it is 503.
 */
#define MAX_SESSIONS        256
#define MAX_CLIENT_SESSIONS 64
#define TICK_MS      200

/*
 * Slow clients, as nginx (client_header_timeout,
 * limit_conn) and libmicrohttpd's own options have it: a connection
 * must send its request's headers with no pause of HEADER_TIMEOUT
 * seconds (MHD_OPTION_CONNECTION_TIMEOUT, then IDLE_TIMEOUT from the
 * headers to the end of the request); MAX_CONNECTIONS at once, so that
 * a thousand stalled ones leave room (each a thread blocked in poll and
 * a descriptor: RLIMIT_NOFILE is raised for them, and the connections
 * are fewer where it cannot be), half of them at most from one address
 * (MHD_OPTION_PER_IP_CONNECTION_LIMIT).  poll, not select: a descriptor
 * over FD_SETSIZE (1024) cannot be selected.
 */
#define HEADER_TIMEOUT  10u
#define IDLE_TIMEOUT    300u
#define MAX_CONNECTIONS 4096u
#define STACK_SIZE      (2UL << 20)

struct http {
	struct uk_mcp *m;
	const struct uk_mcp_http_opts *h;
	char host[64]; /* the address listened on, without the port */
	const char *path;
	pthread_mutex_t mu; /* sessions */
	struct uk_mcp_session *sessions;
	size_t nsessions;
	size_t inbytes; /* request bodies being read (under mu) */
	int stopping;
	char *why401; /* a 401's reason: names the token file */
};

/*
 * One request's output: the sink its messages go to.  Held by the
 * connection (until the response is sent) and by the request (until its
 * sink is done); freed by whichever lets go last.
 */
struct hout {
	struct mcp_sink sink;
	struct http *hs;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct uk_buf out; /* JSON: the last message; SSE: events to send */
	size_t off;
	int sse, done, refs;
};

/* A connection's request, from its headers to its completion. */
struct hreq {
	struct uk_buf body;
	size_t held; /* of hs->inbytes */
	int too_large, busy, answered;
};

static void
hout_unref(struct hout *o)
{
	int n;

	pthread_mutex_lock(&o->mu);
	n = --o->refs;
	pthread_mutex_unlock(&o->mu);
	if (n)
		return;
	pthread_cond_destroy(&o->cv);
	pthread_mutex_destroy(&o->mu);
	uk_buf_release(&o->out);
	free(o);
}

static void
hout_emit(struct mcp_sink *k, const char *msg, size_t len)
{
	struct hout *o = (struct hout *)k;

	pthread_mutex_lock(&o->mu);
	if (o->sse) {
		uk_buf_addstr(&o->out, "event: message\ndata: ");
		uk_buf_add(&o->out, msg, len);
		uk_buf_addstr(&o->out, "\n\n");
	} else {
		/* Only the response is sent: notifications need a stream. */
		uk_buf_reset(&o->out);
		uk_buf_add(&o->out, msg, len);
	}
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
}

static void
hout_done(struct mcp_sink *k)
{
	struct hout *o = (struct hout *)k;

	pthread_mutex_lock(&o->mu);
	o->done = 1;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	hout_unref(o);
}

static struct hout *
hout_new(struct http *hs, int sse)
{
	struct hout *o = uk_util_xcalloc(1, sizeof(*o));

	o->sink.emit = hout_emit;
	o->sink.done = hout_done;
	o->hs = hs;
	o->sse = sse;
	o->refs = 2;
	uk_buf_init(&o->out, 0);
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	return o;
}

/* The event stream: what the call has said so far, then its end. */
static ssize_t
sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct hout *o = cls;
	size_t n = 0;
	int end = 0;

	(void)pos;
	pthread_mutex_lock(&o->mu);
	while (o->off == o->out.len && !o->done)
		uk_mcp_call_wait_tick(&o->cv, &o->mu, TICK_MS);
	if (o->off < o->out.len) {
		n = o->out.len - o->off < max ? o->out.len - o->off : max;
		memcpy(buf, o->out.buf + o->off, n);
		o->off += n;
		if (o->off == o->out.len) {
			uk_buf_reset(&o->out);
			o->off = 0;
		}
	} else
		end = 1;
	pthread_mutex_unlock(&o->mu);
	return end ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

static void
sse_free(void *cls)
{
	hout_unref(cls);
}

/* Sessions. */

static void
session_unref(struct http *hs, struct uk_mcp_session *s)
{
	int n;

	pthread_mutex_lock(&hs->mu);
	n = --s->refs;
	pthread_mutex_unlock(&hs->mu);
	if (!n)
		uk_mcp_session_finish(s, 1);
}

/* The session named sid, with a reference taken; NULL when none. */
static struct uk_mcp_session *
session_find(struct http *hs, const char *sid)
{
	struct uk_mcp_session *s;

	pthread_mutex_lock(&hs->mu);
	for (s = hs->sessions; s; s = s->hnext)
		if (!strcmp(s->sid, sid))
			break;
	if (s) {
		s->refs++;
		s->used = uk_util_mono_ms();
	}
	pthread_mutex_unlock(&hs->mu);
	return s;
}

/* The bytes the program holds for s (0: nothing, or not told). */
static size_t
session_size(struct http *hs, struct uk_mcp_session *s)
{
	return s->app && hs->m->o.session_size ?
	    hs->m->o.session_size(hs->m->o.ctx, s->app) : 0;
}

/*
 * The idle session holding nothing that was used longest ago (of client,
 * or of anyone when client is NULL), taken out of the table (hs->mu
 * held), or NULL when there is none.
 */
static struct uk_mcp_session *
session_evict_locked(struct http *hs, const char *client)
{
	struct uk_mcp_session *s, *best = NULL, **p;
	size_t calls;

	for (s = hs->sessions; s; s = s->hnext) {
		if (s->refs != 1 || (client && strcmp(s->client, client)))
			continue;
		pthread_mutex_lock(&s->mu);
		calls = s->ncalls;
		pthread_mutex_unlock(&s->mu);
		/* <=: the table is newest first, so of a tie the oldest. */
		if (!calls && (!best || s->used <= best->used) &&
		    !session_size(hs, s))
			best = s;
	}
	if (!best)
		return NULL;
	for (p = &hs->sessions; *p != best; p = &(*p)->hnext)
		;
	*p = best->hnext;
	hs->nsessions--;
	return best;
}

/*
 * A new session of client in the table (one reference for the table,
 * one ours), or NULL with *why.  The room is made and the session added
 * under one hold of the lock, so that no session made between the two
 * takes the room and fails an initialize while sessions sit idle.
 */
static struct uk_mcp_session *
session_add(struct http *hs, const char *client, const char **why)
{
	struct uk_mcp_session *s, *old = NULL;
	unsigned char r[16];
	size_t i, mine = 0;

	*why = "too many sessions";
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return NULL;
	pthread_mutex_lock(&hs->mu);
	if (hs->stopping) {
		pthread_mutex_unlock(&hs->mu);
		return NULL;
	}
	for (s = hs->sessions; s; s = s->hnext)
		mine += !strcmp(s->client, client);
	if (mine >= MAX_CLIENT_SESSIONS &&
	    !(old = session_evict_locked(hs, client))) {
		pthread_mutex_unlock(&hs->mu);
		*why = "too many sessions for this client: end some (DELETE)";
		return NULL;
	}
	if (!old && hs->nsessions >= MAX_SESSIONS &&
	    !(old = session_evict_locked(hs, NULL))) {
		pthread_mutex_unlock(&hs->mu);
		return NULL;
	}
	s = uk_mcp_session_make(hs->m, NULL, NULL);
	s->used = uk_util_mono_ms();
	for (i = 0; i < sizeof(r); i++)
		snprintf(s->sid + 2 * i, 3, "%02x", r[i]);
	snprintf(s->client, sizeof(s->client), "%s", client);
	s->refs = 2;
	s->hnext = hs->sessions;
	hs->sessions = s;
	hs->nsessions++;
	pthread_mutex_unlock(&hs->mu);
	if (old) {
		/* Its refs is 1 (the table's): nobody else can reach it now. */
		old->refs = 0;
		uk_mcp_session_finish(old, 1);
	}
	return s;
}

/* Take s out of the table and drop the table's reference. */
static void
session_remove(struct http *hs, struct uk_mcp_session *s)
{
	struct uk_mcp_session **p;
	int found = 0;

	pthread_mutex_lock(&hs->mu);
	for (p = &hs->sessions; *p; p = &(*p)->hnext)
		if (*p == s) {
			*p = s->hnext;
			hs->nsessions--;
			found = 1;
			break;
		}
	pthread_mutex_unlock(&hs->mu);
	if (!found)
		return;
	uk_mcp_session_cancel_all(s);
	session_unref(hs, s);
}

/* Responses. */

static enum MHD_Result
reply(struct MHD_Connection *conn, unsigned code, const char *type,
    const char *body, const char *sid)
{
	struct MHD_Response *resp = uk_httpd_response(type, body);

	if (!resp)
		return MHD_NO;
	if (sid)
		MHD_add_response_header(resp, "Mcp-Session-Id", sid);
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, "Allow", "POST, DELETE");
	if (code == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(resp, "WWW-Authenticate", "Bearer");
	return uk_httpd_queue(conn, code, resp);
}

/* An HTTP error with a JSON-RPC error (id null) as its body. */
static enum MHD_Result
reply_error(struct MHD_Connection *conn, unsigned code, int rpc,
    const char *msg)
{
	struct uk_buf b = UK_BUF_INIT;
	enum MHD_Result ret;

	uk_mcp_error_json(&b, NULL, rpc, msg);
	ret = reply(conn, code, "application/json", b.buf, NULL);
	uk_buf_release(&b);
	return ret;
}

/* Gatekeeping. */

static int
protocol_ok(const char *v)
{
	size_t i;

	for (i = 0; uk_mcp_protocols[i]; i++)
		if (!strcmp(v, uk_mcp_protocols[i]))
			return 1;
	return 0;
}

/*
 * Check a request on its first call: 0 to go on, or an HTTP status with
 * *why set.
 */
static unsigned
gate(struct http *hs, struct MHD_Connection *conn, const char *url,
    const char *method, const char **why)
{
	const char *host = uk_httpd_header(conn, "Host");
	const char *origin = uk_httpd_header(conn, "Origin");
	const char *ver = uk_httpd_header(conn, "MCP-Protocol-Version");

	if (host && !uk_httpd_host_ok(hs->host, host, strlen(host))) {
		*why = "unexpected Host header";
		return MHD_HTTP_FORBIDDEN;
	}
	if (origin && !uk_httpd_origin_ours(hs->host, origin)) {
		*why = "cross-origin request refused";
		return MHD_HTTP_FORBIDDEN;
	}
	if (strcmp(url, hs->path)) {
		*why = "no such endpoint";
		return MHD_HTTP_NOT_FOUND;
	}
	if (!uk_httpd_token_ok(conn, hs->h->token, 0)) {
		*why = hs->why401;
		return MHD_HTTP_UNAUTHORIZED;
	}
	if (strcmp(method, "POST") && strcmp(method, "DELETE") &&
	    strcmp(method, "GET")) {
		*why = "method not allowed";
		return MHD_HTTP_METHOD_NOT_ALLOWED;
	}
	if (ver && !protocol_ok(ver)) {
		*why = "unsupported MCP-Protocol-Version";
		return MHD_HTTP_BAD_REQUEST;
	}
	return uk_httpd_length(uk_httpd_header(conn, "Content-Length"),
	    hs->m->o.max_message, why);
}

/* Methods. */

/*
 * GET opens a stream for messages the server sends on its own.  We send
 * none (no server requests, no list changes), and the specification
 * (2025-11-25, Transports, "Listening for Messages from the Server")
 * lets a server answer 405 Method Not Allowed instead of the stream.
 */
static enum MHD_Result
do_get(struct MHD_Connection *conn)
{
	return reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED, -32600,
	    "this server offers no stream: POST messages to it");
}

static enum MHD_Result
do_delete(struct http *hs, struct MHD_Connection *conn)
{
	const char *sid = uk_httpd_header(conn, "Mcp-Session-Id");
	struct uk_mcp_session *s;

	if (!sid)
		return reply_error(conn, MHD_HTTP_BAD_REQUEST, -32600,
		    "Mcp-Session-Id header required");
	if (!(s = session_find(hs, sid)))
		return reply_error(conn, MHD_HTTP_NOT_FOUND, -32600,
		    "no such session");
	session_remove(hs, s);
	session_unref(hs, s);
	return reply(conn, MHD_HTTP_OK, NULL, "", NULL);
}

/* What the message is, read before dispatch: a method and a token. */
static int
peek(const char *body, size_t len, int *initialize, int *progress)
{
	struct uk_err err;
	yajl_val v = uk_json_parse(body, len, &err);
	int parsed = v != NULL;
	const char *method = uk_json_get_str(v, "method");
	yajl_val params = uk_json_get(v, "params");

	*initialize =
	    method && !strcmp(method, "initialize") && uk_json_get(v, "id");
	*progress =
	    uk_json_get(uk_json_get(params, "_meta"), "progressToken") != NULL;
	uk_json_free(v);
	return parsed;
}

/* The client's address, as text ("" when MHD cannot tell). */
static void
client_of(struct MHD_Connection *conn, char *buf, size_t size)
{
	const union MHD_ConnectionInfo *ci;
	const struct sockaddr *sa;

	*buf = '\0';
	ci = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!ci || !(sa = ci->client_addr))
		return;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
		    buf, (socklen_t)size);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
		    &((const struct sockaddr_in6 *)sa)->sin6_addr, buf,
		    (socklen_t)size);
}

/* The session a POST goes to (a reference taken), or a refusal sent. */
static struct uk_mcp_session *
post_session(struct http *hs, struct MHD_Connection *conn, int initialize,
    int *created, enum MHD_Result *ret)
{
	const char *sid = uk_httpd_header(conn, "Mcp-Session-Id");
	struct uk_mcp_session *s;
	const char *why;
	char client[INET6_ADDRSTRLEN];

	*created = 0;
	if (sid) {
		if (!(s = session_find(hs, sid)))
			*ret = reply_error(conn, MHD_HTTP_NOT_FOUND, -32600,
			    "no such session: initialize a new one");
		return s;
	}
	if (!initialize) {
		*ret = reply_error(conn, MHD_HTTP_BAD_REQUEST, -32600,
		    "Mcp-Session-Id header required");
		return NULL;
	}
	client_of(conn, client, sizeof(client));
	if (!(s = session_add(hs, client, &why)))
		*ret = reply_error(conn, MHD_HTTP_SERVICE_UNAVAILABLE, -32603,
		    why);
	*created = s != NULL;
	return s;
}

/* The POST's answer once uk_mcp_dispatch took the message. */
static enum MHD_Result
post_answer(struct http *hs, struct MHD_Connection *conn, struct hout *o,
    enum mcp_took took, const char *sid)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char *body;

	(void)hs;
	if (took != MCP_REQUEST)
		hout_unref(o); /* the request's share: done is never called */
	if (took == MCP_NOTICE) {
		hout_unref(o);
		return reply(conn, MHD_HTTP_ACCEPTED, NULL, "", NULL);
	}
	if (took == MCP_INVALID) {
		body = uk_util_xstrdup(o->out.buf);
		hout_unref(o);
		ret = reply(conn, MHD_HTTP_BAD_REQUEST, "application/json",
		    body, NULL);
		free(body);
		return ret;
	}
	if (o->sse) {
		resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN,
		    16384, sse_read, o, sse_free);
		if (!resp) {
			hout_unref(o);
			return MHD_NO;
		}
		MHD_add_response_header(resp, "Content-Type",
		    "text/event-stream");
		MHD_add_response_header(resp, "Cache-Control", "no-store");
		if (sid)
			MHD_add_response_header(resp, "Mcp-Session-Id", sid);
		return uk_httpd_queue(conn, MHD_HTTP_OK, resp);
	}
	pthread_mutex_lock(&o->mu);
	while (!o->done)
		uk_mcp_call_wait_tick(&o->cv, &o->mu, TICK_MS);
	body = o->out.len ? uk_util_xstrdup(o->out.buf) : NULL;
	pthread_mutex_unlock(&o->mu);
	hout_unref(o);
	/* A cancelled call has no response: the POST gets 202. */
	ret = body ? reply(conn, MHD_HTTP_OK, "application/json", body, sid) :
		     reply(conn, MHD_HTTP_ACCEPTED, NULL, "", sid);
	free(body);
	return ret;
}

/* Let go of r's body and its bytes in hs->inbytes. */
static void
body_release(struct http *hs, struct hreq *r)
{
	if (r->held) {
		pthread_mutex_lock(&hs->mu);
		hs->inbytes -= r->held;
		pthread_mutex_unlock(&hs->mu);
		r->held = 0;
	}
	uk_buf_release(&r->body);
}

static enum MHD_Result
do_post(struct http *hs, struct MHD_Connection *conn, struct hreq *r)
{
	const char *accept = uk_httpd_header(conn, "Accept");
	struct uk_mcp_session *s;
	struct hout *o;
	enum MHD_Result ret = MHD_NO;
	enum mcp_took took;
	int initialize, progress, created;
	char sid[33];

	if (!peek(r->body.buf, r->body.len, &initialize, &progress))
		return reply_error(conn, MHD_HTTP_BAD_REQUEST, -32700,
		    "parse error: the body is not JSON");
	if (!(s = post_session(hs, conn, initialize, &created, &ret)))
		return ret;
	o = hout_new(hs,
	    progress && accept && strstr(accept, "text/event-stream"));
	took = uk_mcp_dispatch(s, r->body.buf, r->body.len, &o->sink);
	/* Taken: a call holds its own copy (counted by uk_mcp_call_hold). */
	body_release(hs, r);
	snprintf(sid, sizeof(sid), "%s", s->sid);
	if (created && !s->initialized) {
		/* initialize failed: the session it was for is not kept. */
		session_remove(hs, s);
		created = 0;
	}
	ret = post_answer(hs, conn, o, took, created ? sid : NULL);
	session_unref(hs, s);
	return ret;
}

/*
 * Count n more bytes of r's body in hs->inbytes: 0 when that would pass
 * opts.max_queued (the bodies of many connections, each up to
 * max_message, must not add up without end), else 1.  The one body
 * being read always fits, as one call does (uk_mcp_call_hold).
 */
static int
body_hold(struct http *hs, struct hreq *r, size_t n)
{
	size_t max = hs->m->o.max_queued;
	int ok;

	pthread_mutex_lock(&hs->mu);
	ok = !max || hs->inbytes == r->held || hs->inbytes + n <= max;
	if (ok) {
		hs->inbytes += n;
		r->held += n;
	}
	pthread_mutex_unlock(&hs->mu);
	return ok;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	struct http *hs = cls;
	struct hreq *r = *con_cls;
	const char *why = NULL;
	unsigned code;

	(void)version;
	if (!r) {
		r = uk_util_xcalloc(1, sizeof(*r));
		uk_buf_init(&r->body, 0);
		*con_cls = r;
		/* The headers are in: the rest of the request has longer. */
		MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
		    IDLE_TIMEOUT);
		if ((code = gate(hs, conn, url, method, &why))) {
			r->answered = 1;
			return reply_error(conn, code, -32600, why);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (r->body.len + *upload_size > hs->m->o.max_message)
			r->too_large = 1;
		else if (!r->too_large && !r->busy &&
		    !(r->busy = !body_hold(hs, r, *upload_size)))
			uk_buf_add(&r->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (r->answered)
		return MHD_YES;
	r->answered = 1;
	if (r->too_large)
		return reply_error(conn, MHD_HTTP_CONTENT_TOO_LARGE, -32600,
		    "request body too large");
	if (r->busy)
		return reply_error(conn, MHD_HTTP_SERVICE_UNAVAILABLE, -32603,
		    "server busy: the requests being read hold too many bytes; "
		    "try again later");
	if (!strcmp(method, "GET"))
		return do_get(conn);
	if (!strcmp(method, "DELETE"))
		return do_delete(hs, conn);
	return do_post(hs, conn, r);
}

static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct http *hs = cls;
	struct hreq *r = *con_cls;

	(void)toe;
	if (!r)
		return;
	/* The next request on the connection: its headers in time. */
	MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
	    HEADER_TIMEOUT);
	body_release(hs, r);
	*con_cls = NULL;
	free(r);
}

int
uk_mcp_http_serve(struct uk_mcp *m, const struct uk_mcp_http_opts *h,
    volatile const int *stop, struct uk_err *err)
{
	struct http hs;
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;
	struct MHD_Daemon *d;
	struct uk_mcp_session *s;
	struct rlimit rl;
	sigset_t all, old;
	unsigned conns = MAX_CONNECTIONS;
	struct uk_buf why401 = UK_BUF_INIT;
	int port;

	memset(&hs, 0, sizeof(hs));
	hs.m = m;
	hs.h = h;
	hs.path = h->path ? h->path : "/mcp";
	if (uk_httpd_addr_parse(h->address, UK_HTTPD_ADDR_HOST, hs.host,
		sizeof(hs.host), &port, NULL))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "bad address '%s': want HOST:PORT, HOST or PORT with an "
		    "IPv4 HOST",
		    h->address);
	uk_httpd_sockaddr(&sa, hs.host, port); /* parsed: cannot fail */
	uk_httpd_token_why(&why401, h->token_file, "the token file");
	hs.why401 = why401.buf;
	pthread_mutex_init(&hs.mu, NULL);
	/*
	 * A descriptor for each connection, and some for the fetches: the
	 * soft limit raised to what the hard one allows, the connections
	 * fewer when that is not enough.
	 */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		if (rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < MAX_CONNECTIONS + 1024) {
			rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
				rl.rlim_max > MAX_CONNECTIONS + 1024 ?
			    MAX_CONNECTIONS + 1024 : rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < MAX_CONNECTIONS + 1024)
			conns = rl.rlim_cur > 2048 ?
			    (unsigned)rl.rlim_cur - 1024 : (unsigned)rl.rlim_cur / 2;
	}
	/* MHD's threads take our mask: signals stay with the caller. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
		MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL,
	    0, NULL, NULL, handle, &hs, MHD_OPTION_SOCK_ADDR, &sa,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, &hs,
	    MHD_OPTION_CONNECTION_TIMEOUT, HEADER_TIMEOUT,
	    MHD_OPTION_CONNECTION_LIMIT, conns,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, conns / 2,
	    MHD_OPTION_THREAD_STACK_SIZE, (size_t)STACK_SIZE, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d) {
		pthread_mutex_destroy(&hs.mu);
		uk_buf_release(&why401);
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot listen on %s:%d: %s", hs.host, ntohs(sa.sin_port),
		    strerror(errno));
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	port = info ? info->port : ntohs(sa.sin_port);
	if (h->listening)
		h->listening(h->ctx, hs.host, port);
	while (!*stop)
		usleep(TICK_MS * 1000);

	/* Cancel every call, so that each waiting connection is answered. */
	pthread_mutex_lock(&hs.mu);
	hs.stopping = 1;
	for (s = hs.sessions; s; s = s->hnext)
		uk_mcp_session_cancel_all(s);
	pthread_mutex_unlock(&hs.mu);
	MHD_stop_daemon(d);
	while (hs.sessions)
		session_remove(&hs, hs.sessions);
	pthread_mutex_destroy(&hs.mu);
	uk_buf_release(&why401);
	return 0;
}
