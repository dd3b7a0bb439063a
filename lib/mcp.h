/* SPDX-License-Identifier: MIT */
#ifndef UK_MCP_H
#define UK_MCP_H

/*
 * A Model Context Protocol server (urlserve(1)): JSON-RPC 2.0 messages,
 * the protocol's lifecycle (initialize, notifications/initialized, ping),
 * tools (tools/list, tools/call), progress and cancellation, over two
 * transports: newline-delimited messages on a pair of file descriptors
 * (stdio) and the streamable HTTP transport (libmicrohttpd).
 *
 * The program gives a table of tools; this module does the rest.  Each
 * tools/call runs its tool's function on a worker thread (at most
 * opts.jobs at once, the others wait in arrival order), so that calls are
 * answered in any order and a slow fetch holds up nothing else.  Every
 * other method is answered on the thread that read it.
 *
 * A tool function finishes its call exactly once, with uk_mcp_call_result or
 * uk_mcp_call_error, before it returns.  Failures of the work a tool does (a
 * refused address, a timeout, a 404) are results with isError set, never
 * protocol errors: protocol errors are for bad messages (-32700, -32600),
 * unknown methods (-32601), bad params or an unknown tool (-32602), and a
 * request before initialize.
 *
 * A session is what one client sees: the stdio connection, or one HTTP
 * session (Mcp-Session-Id).  opts.session_new makes the program's state
 * for it at initialize, opts.session_free drops it when the connection
 * closes or the session is deleted (after every call of it has finished).
 */

#include <stddef.h>

#include "json.h"
#include "util.h"

/* The protocol revision answered when the client asks for one unknown. */
#define UK_MCP_PROTOCOL "2025-11-25"

struct uk_mcp;
struct uk_mcp_call;

/* A tool's function: finish c with uk_mcp_call_result or uk_mcp_call_error. */
typedef void uk_mcp_tool_fn(struct uk_mcp_call *c, yajl_val args,
    void *session);

struct uk_mcp_tool {
	const char *name;
	const char *title;        /* NULL: none */
	const char *description;
	const char *input_schema;  /* a JSON Schema object, as JSON text */
	const char *output_schema; /* the same, or NULL: none declared */
	const char *annotations;   /* JSON object text (readOnlyHint...), or NULL */
	uk_mcp_tool_fn *fn;
};

struct uk_mcp_opts {
	const char *name;         /* serverInfo.name */
	const char *version;      /* serverInfo.version */
	const char *instructions; /* initialize's instructions, or NULL */
	const struct uk_mcp_tool *tools;
	size_t ntools;
	int jobs;           /* tool calls running at once (>= 1) */
	size_t max_message; /* longest message taken, in bytes */
	void *ctx;          /* given to session_new and session_free */
	void *(*session_new)(void *ctx, struct uk_err *err);
	void (*session_free)(void *ctx, void *session);
	/*
	 * The bytes the program holds for session (its fetched pages), or
	 * NULL: the HTTP transport never ends an idle session that holds
	 * any to make room for a new one.
	 */
	size_t (*session_size)(void *ctx, void *session);
	/*
	 * The bytes of the messages of the calls waiting or running, at
	 * most (0: no bound): stdio reads no further until some end, HTTP
	 * answers -32603 "server busy".
	 */
	size_t max_queued;
};

/*
 * Check the tools' schemas (each must parse as a JSON object) and set up
 * m (allocated here): 0, or -1 with err.
 */
int uk_mcp_new(struct uk_mcp **m, const struct uk_mcp_opts *o,
    struct uk_err *err);
void uk_mcp_free(struct uk_mcp *m);

/*
 * Serve one session on in and out (newline-delimited messages, nothing
 * else written to out) until in ends or *stop is set (looked at every
 * 200 ms).  At the end of in the calls still running finish and are
 * answered (a client that wrote its requests and closed the pipe reads
 * the answers); *stop, or out closed, cancels them instead.  Returns once
 * every call has ended: 0 (out closed by the client too), or -1 with err
 * (in cannot be read, out cannot be written).
 */
int uk_mcp_stdio_serve(struct uk_mcp *m, int in, int out,
    volatile const int *stop, struct uk_err *err);

struct uk_mcp_http_opts {
	const char *address; /* HOST:PORT or HOST (port 0: any); loopback by default */
	const char *token;   /* the bearer token every request must carry, or NULL */
	const char *path;    /* the endpoint, "/mcp" */
	/* Called once listening, with the port (to print it), or NULL. */
	void (*listening)(void *ctx, const char *host, int port);
	void *ctx;
	const char *token_file; /* where token was read: a 401 names it */
};

/*
 * Serve the streamable HTTP transport until *stop is set: 0, or -1 with
 * err (the address cannot be bound).  Requests must carry the token, and
 * an Origin header, when present, must name the host listened on.
 */
int uk_mcp_http_serve(struct uk_mcp *m, const struct uk_mcp_http_opts *h,
    volatile const int *stop, struct uk_err *err);

/*
 * Finish c.  structured (an object, owned by c from here; NULL: none) is
 * the result's structuredContent; text (copied; NULL: the JSON text of
 * structured) its one text content block.  is_error sets isError.
 */
void uk_mcp_call_result(struct uk_mcp_call *c, yajl_val structured,
    const char *text, int is_error);

/* Finish c as an error result whose text is the message. */
void uk_mcp_call_error(struct uk_mcp_call *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * A descriptor that becomes readable when c is cancelled (by
 * notifications/cancelled, or the session ending): give it to poll, or
 * to uk_fetch_wait as its fd.  uk_mcp_call_cancelled says whether it is.
 */
int uk_mcp_call_cancel_fd(struct uk_mcp_call *c);
int uk_mcp_call_cancelled(struct uk_mcp_call *c);

/*
 * notifications/progress for c, when the client gave a progressToken
 * (else nothing); total < 0: unknown; message may be NULL.
 */
void uk_mcp_call_progress(struct uk_mcp_call *c, double progress, double total,
    const char *message);

/*
 * notifications/message (logging) to c's client at level ("info",
 * "warning", "error", ...), when it is at or above the level the client
 * set with logging/setLevel; always to stderr as well.
 */
void uk_mcp_call_log(struct uk_mcp_call *c, const char *level, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));

/*
 * For the fuzz harness and the unit test: one session fed messages by
 * hand, its output given to write (one message a call, without the
 * newline).  uk_mcp_session_input takes one message (not
 * NUL-terminated); uk_mcp_session_end cancels and waits for its calls.
 */
struct uk_mcp_session;
struct uk_mcp_session *uk_mcp_session_new(struct uk_mcp *m,
    void (*write)(void *wctx, const char *msg, size_t len), void *wctx);
void uk_mcp_session_input(struct uk_mcp_session *s, const char *msg,
    size_t len);
void uk_mcp_session_end(struct uk_mcp_session *s);

#endif
