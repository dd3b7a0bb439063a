/* SPDX-License-Identifier: MIT */
#ifndef UK_SSE_H
#define UK_SSE_H

/*
 * A parser of Server-Sent Events (the text/event-stream format of the
 * HTML standard): feed it bytes as they come, in pieces of any size, and
 * it calls back once per complete event.  Lines end in LF, CRLF or CR;
 * "data" lines are joined with LF; comments (":...") and "retry" are
 * skipped; "id" is remembered as the last event id, for Last-Event-ID.
 */

#include <stddef.h>

#include "buf.h"

/* Called per event; a non-zero return stops uk_sse_feed (it returns -1). */
typedef int uk_sse_event_fn(void *ctx, const char *event, const char *data,
    const char *id);

struct uk_sse {
	uk_sse_event_fn *fn;
	void *ctx;
	size_t max;            /* longest event taken (bytes of data) */
	struct uk_buf line;    /* the line being read */
	struct uk_buf event;   /* "event" of the event being read */
	struct uk_buf data;    /* its data */
	struct uk_buf last_id; /* the last "id" seen */
	int cr;                /* the last byte was CR */
	int has_data;
};

#define UK_SSE_MAX (1UL << 20)

/*
 * Set up p to call fn(ctx, ...) for each event it parses; uk_sse_release
 * frees the buffers it holds (p is then ready for uk_sse_init again).
 */
void uk_sse_init(struct uk_sse *p, uk_sse_event_fn *fn, void *ctx);
void uk_sse_release(struct uk_sse *p);
/*
 * Start over for a new connection: the event being read is dropped,
 * the last event id is kept.
 */
void uk_sse_reset(struct uk_sse *p);
/*
 * Parse len bytes.  Returns 0, or -1 when the callback asked to stop or
 * an event grew past max (the stream cannot be trusted further).
 */
int uk_sse_feed(struct uk_sse *p, const char *s, size_t len);

#endif
