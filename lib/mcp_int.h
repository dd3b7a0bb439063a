/* SPDX-License-Identifier: MIT */
#ifndef UK_MCP_INT_H
#define UK_MCP_INT_H

/*
 * What lib/mcp.c (the protocol: sessions, dispatch, the worker pool),
 * lib/mcp_stdio.c and lib/mcp_http.c (the transports) share.  Not for
 * programs: lib/mcp.h is the interface.
 *
 * Output goes through a sink: the session's own (stdio and the session
 * API: every message to the write callback, under the session's write
 * lock) or one HTTP request's (its response and, for a tools/call on an
 * event stream, the notifications before it).  A sink's done is called
 * once when its request is answered or will never be (a cancelled call);
 * after done the request's code never touches the sink again.
 */

#include <pthread.h>

#include "mcp.h"

struct mcp_sink {
	void (*emit)(struct mcp_sink *k, const char *msg, size_t len);
	void (*done)(struct mcp_sink *k);
};

struct mcp_tool {
	const struct uk_mcp_tool *t;
	yajl_val input; /* the parsed input schema */
};

struct uk_mcp {
	struct uk_mcp_opts o;
	struct mcp_tool *tools;
	char *tools_list; /* tools/list's result, as JSON text */
	/* The worker pool: at most o.jobs threads, started when needed. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct uk_mcp_call *qhead, *qtail;
	size_t qlen;
	size_t held; /* the messages' bytes of the calls not yet released */
	int nthreads, idle, quit;
	pthread_t *threads;
};

struct uk_mcp_session {
	struct uk_mcp *m;
	void (*write)(void *wctx, const char *msg, size_t len);
	void *wctx;
	struct mcp_sink sink; /* the session's own: to write */
	pthread_mutex_t wmu;  /* one message written at a time */
	pthread_mutex_t mu;   /* what follows */
	pthread_cond_t cv;    /* a call ended */
	int initialized, ending;
	int log_level;
	void *app; /* opts.session_new's */
	struct uk_mcp_call *calls;
	size_t ncalls;
	/* The HTTP transport's: the Mcp-Session-Id, the requests in hand. */
	char sid[33];
	char client[46]; /* its client's address (INET6_ADDRSTRLEN) */
	int refs;
	long long used; /* uk_util_mono_ms of its last request */
	struct uk_mcp_session *hnext;
};

/* One tools/call, from its request to its release. */
struct uk_mcp_call {
	struct uk_mcp_session *s;
	struct mcp_sink *k;
	const struct mcp_tool *tool;
	char *id;          /* the request's id, as JSON text */
	yajl_val args;     /* the arguments object */
	yajl_val progress; /* _meta.progressToken, or NULL */
	int cancel_fd;     /* an eventfd, written once when cancelled */
	size_t bytes;      /* its message's length, counted in m->held */
	int cancelled, finished;
	struct uk_mcp_call *qnext;       /* the pool's queue */
	struct uk_mcp_call *prev, *next; /* the session's calls */
};

/* How uk_mcp_dispatch took a message. */
enum mcp_took {
	MCP_REQUEST, /* a request: k gets its response (and done) */
	MCP_NOTICE,  /* a notification or a response: nothing to say */
	MCP_INVALID  /* not a valid message: k got an error with id null */
};

/* The protocol revisions answered, newest first (NULL-terminated). */
extern const char *const uk_mcp_protocols[];

/*
 * Take one message msg[0..len) (NUL-terminated at len) of session s, its
 * output to k.
 */
enum mcp_took uk_mcp_dispatch(struct uk_mcp_session *s, const char *msg,
    size_t len, struct mcp_sink *k);

/*
 * A session without its write callback (the HTTP transport's, whose
 * output goes to each request's sink).
 */
struct uk_mcp_session *uk_mcp_session_make(struct uk_mcp *m,
    void (*write)(void *wctx, const char *msg, size_t len), void *wctx);
/*
 * Wait for s's calls to end (cancel them first when cancel is set), then
 * drop the program's state and s.
 */
void uk_mcp_session_finish(struct uk_mcp_session *s, int cancel);
/* Cancel every call of s (they end on their own). */
void uk_mcp_session_cancel_all(struct uk_mcp_session *s);

/*
 * Check a call's arguments against its tool's input schema, the parts of
 * JSON Schema a tool's arguments use: required, additionalProperties
 * false, and for each property its type (one or a list), enum, minimum,
 * maximum, minLength, maxLength, and an array's items' type.  0, or -1
 * with the reason in why.
 */
int uk_mcp_schema_check_args(yajl_val schema, yajl_val args,
    struct uk_buf *why);

/*
 * Calls (lib/mcp_call.c).  uk_mcp_call_enqueue: run c on the pool.
 * uk_mcp_call_cancel_locked: cancel c (its session's lock held).
 * uk_mcp_call_release: the end of c (its sink done, its session told,
 * c freed).
 */
void uk_mcp_call_enqueue(struct uk_mcp *m, struct uk_mcp_call *c);
/*
 * Calls' memory (opts.max_queued): uk_mcp_call_room, whether a message of len
 * bytes would fit beside the calls held now; uk_mcp_call_hold, the same, and
 * when it fits counted as held (until the call's release).  One call
 * always fits when none is held.
 */
int uk_mcp_call_room(struct uk_mcp *m, size_t len);
int uk_mcp_call_hold(struct uk_mcp *m, size_t len);
void uk_mcp_call_cancel_locked(struct uk_mcp_call *c);
void uk_mcp_call_release(struct uk_mcp_call *c);
/*
 * Wait on cv (mu held) until signalled or ms milliseconds have passed,
 * whichever comes first: the loops that also poll a stop flag.
 */
void uk_mcp_call_wait_tick(pthread_cond_t *cv, pthread_mutex_t *mu, long ms);

/* The rank of a log level (0 debug ... 7 emergency), or -1. */
int uk_mcp_call_level(const char *name);
/* Append s as a JSON string. */
void uk_mcp_call_add_str(struct uk_buf *b, const char *s);
/* A response to the request id (JSON text) whose result is JSON text. */
void uk_mcp_call_send_result(struct mcp_sink *k, const char *id,
    const char *result);

/* An error response {"jsonrpc":"2.0","id":null,"error":...} into b. */
void uk_mcp_error_json(struct uk_buf *b, const char *id, int code,
    const char *msg);

#endif
