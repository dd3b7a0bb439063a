/* SPDX-License-Identifier: MIT */
#ifndef UK_CDP_H
#define UK_CDP_H

/*
 * The Chrome DevTools Protocol (CDP) as a message stream.
 *
 * Two transports carry the same JSON messages:
 *
 *  - the pipe of --remote-debugging-pipe: each message is JSON followed by
 *    a NUL byte; the browser reads its fd 3 and writes its fd 4;
 *  - a WebSocket (RFC 6455) to a browser's DevTools address, for a browser
 *    that is already running.  The client here is small: text frames,
 *    masking, 7/16/64-bit lengths, continuation frames, ping/pong and
 *    close; the handshake's Sec-WebSocket-Accept is checked; no Origin
 *    header is sent (Chromium refuses one unless told otherwise).
 *
 * Commands get increasing ids; replies carry the id back, events carry a
 * method.  With sessions attached through Target.attachToTarget with
 * flatten, a session's commands and events carry its "sessionId" on the
 * top level of the message.
 *
 * Every wait has a timeout, and every wait returns at once (with -1 and
 * "interrupted") once uk_cdp_stop is set, which a signal handler may do.
 * Library code: nothing here prints or exits.
 *
 * Usage: uk_cdp_init_pipe or uk_cdp_init_ws; then uk_cdp_call for a
 * command whose reply is waited for, or uk_cdp_send and, as uk_cdp_fd
 * polls readable (or while uk_cdp_ready), uk_cdp_next for replies and
 * events as they come (lib/page's loop); uk_cdp_release at the end.  The
 * struct owns its descriptors and messages; every message returned is the
 * caller's.
 */

#include <signal.h>
#include <stddef.h>
#include <yajl/yajl_tree.h>

#include "buf.h"
#include "util.h"

/* Set (by a signal handler) to make every wait give up at once. */
extern volatile sig_atomic_t uk_cdp_stop;

struct uk_cdp_msg; /* a queued message (private) */

struct uk_cdp {
	int ws;            /* 1: WebSocket, 0: pipe */
	int rfd, wfd;      /* the same socket for a WebSocket */
	long next_id;      /* id of the next command */
	int dead;          /* the stream has ended or failed */
	char why[256];     /* why it is dead */
	struct uk_buf in;  /* bytes read but not yet taken apart */
	size_t inpos;      /* in: where the untaken bytes start */
	size_t scanned;    /* in: bytes from inpos known to hold no NUL */
	struct uk_buf msg; /* a WebSocket message being assembled */
	int inmsg;         /* a fragmented WebSocket message is open */
	struct uk_cdp_msg *qhead, *qtail; /* parsed messages not yet taken */
};

/*
 * Use the two ends of a --remote-debugging-pipe: rfd is where the browser
 * writes (its fd 4), wfd where it reads (its fd 3).  The struct owns them.
 */
void uk_cdp_init_pipe(struct uk_cdp *c, int rfd, int wfd);

/*
 * Open a WebSocket to url (ws://host:port/path) and finish the handshake
 * within timeout seconds.  0, or -1 with err.  On a timeout err->code is
 * UK_EXIT_FAIL and err->msg starts with "timeout"; other failures are
 * UK_EXIT_FATAL.
 */
int uk_cdp_init_ws(struct uk_cdp *c, const char *url, double timeout,
    struct uk_err *err);

/* Close the transport and free everything; c may be used again after init. */
void uk_cdp_release(struct uk_cdp *c);

/*
 * Send method with params (borrowed; NULL for none) to session (NULL for
 * the browser).  Returns the command's id (> 0), or -1 with err when the
 * stream is dead.
 */
long uk_cdp_send(struct uk_cdp *c, const char *session, const char *method,
    yajl_val params, struct uk_err *err);

/*
 * The next message, replies and events alike, waiting at most timeout
 * seconds (0: do not wait; < 0: wait without end, still interruptible).
 * 1 with *msg set (the caller frees it with uk_json_free), 0 when the time
 * ran out, -1 with err when the stream has ended or failed (c->dead is set)
 * or the wait was interrupted.
 */
int uk_cdp_next(struct uk_cdp *c, double timeout, yajl_val *msg,
    struct uk_err *err);

/* Whether a message is waiting that uk_cdp_next returns without reading. */
int uk_cdp_ready(struct uk_cdp *c);

/* The descriptor to poll for reading. */
int uk_cdp_fd(const struct uk_cdp *c);

/*
 * Send a command and wait up to timeout seconds for its reply; messages
 * that arrive meanwhile are kept for uk_cdp_next, in order.  Returns the
 * reply's "result" (the caller frees it) or NULL with err: the browser's
 * error message (code UK_EXIT_FAIL), a timeout ("timeout ..."), or a dead
 * stream (UK_EXIT_FATAL).
 */
yajl_val uk_cdp_call(struct uk_cdp *c, const char *session, const char *method,
    yajl_val params, double timeout, struct uk_err *err);

/*
 * Ask the DevTools HTTP endpoint at host:port for /json/version (plain
 * HTTP/1.1, Connection: close), the body appended to body (the caller's).
 * Returns the HTTP status, or -1 with err: a timeout is code UK_EXIT_FAIL
 * with a message starting "timeout" (the port answered the connection
 * but not the request), every other failure UK_EXIT_FATAL.
 */
int uk_cdp_json_version(const char *host, const char *port, double timeout,
    struct uk_buf *body, struct uk_err *err);

/*
 * Split an address such as http://127.0.0.1:9222/x or ws://[::1]:9222/x
 * into its parts (each freed by the caller; host without brackets, port
 * defaulting to 80, path to "/").  -1 with err (UK_EXIT_USAGE) when it is
 * not an http or ws URL.
 */
int uk_cdp_split_url(const char *url, char **scheme, char **host, char **port,
    char **path, struct uk_err *err);

#endif
