/* SPDX-License-Identifier: MIT */
#ifndef UK_TOOLACK_SERVER_H
#define UK_TOOLACK_SERVER_H

/*
 * toolack's HTTP server on libmicrohttpd: the pending registry
 * (toolack_registry.h) behind the ack endpoint, a dispatch endpoint, an
 * event stream for frontends and the built-in web frontend.
 *
 * Threading: one thread.  libmicrohttpd runs in external-epoll mode with
 * suspend/resume (MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME) inside our own
 * poll loop, which also fires deadlines and heartbeats, so the registry
 * needs no lock and a waiting request (a dispatch long-poll, an idle event
 * stream) costs a suspended connection, not a thread.  On the way out every
 * suspended connection is resumed and answered before MHD_stop_daemon,
 * which would otherwise abort.
 *
 * Endpoints (all under /api need the token, as "Authorization: Bearer T"
 * or, for EventSource, "?token=T"):
 *     GET  /?token=T               the web frontend, token embedded
 *     POST /api/tools/dispatch     register a call; waits for its ack
 *                                  record (?wait=0: 202 at once)
 *     POST /api/tools/ack          the ack: 200, 404 unknown, 410 expired
 *     GET  /api/tools/events       Server-Sent Events of calls to run
 *                                  (?executor=ID&tools=a,b)
 *     GET  /api/tools/result/ID    wait for a result (?timeout=S)
 *     GET  /api/tools/calls        the pending calls, as JSON
 * A request whose Host is not the server's own (DNS rebinding) or whose
 * Origin is another origin is refused with 403; a body over max_body
 * with 413.
 */

#include <stddef.h>

#include "util.h"

struct uk_toolack_server_opts {
	const char *host;     /* IPv4 address to bind */
	int port;             /* 0: any free port */
	const char *token;    /* required */
	/* Where the token is read from, named by a 401 and the page's
	 * refusal (never the token): the token file, or NULL for
	 * $TOOLACK_TOKEN. */
	const char *token_file;
	long heartbeat_ms;    /* event stream heartbeat; 0: 15000 */
	size_t max_body;      /* 0: UK_TOOLACK_PROTO_MAX_BODY */
	long default_timeout; /* seconds; 0: UK_TOOLACK_PROTO_TIMEOUT */
	/* Called once listening, with the base URL ("http://127.0.0.1:N"). */
	void (*ready)(void *ctx, const char *url);
	void *ctx;
};

/*
 * Serve until stop_fd becomes readable (a signalfd or the read end of a
 * self-pipe), then shut down cleanly.  Returns 0, or -1 with err filled
 * (code UK_EXIT_FATAL) when the server cannot start.
 */
int uk_toolack_server_run(const struct uk_toolack_server_opts *o, int stop_fd,
    struct uk_err *err);

/* The web frontend's page; "@TOKEN@" stands for the token. */
extern const char uk_toolack_web_html[];

#endif
