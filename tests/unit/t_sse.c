/* SPDX-License-Identifier: MIT */
/* Unit tests of the Server-Sent Events parser (lib/sse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sse.h"
#define TAP_PREFIX "sse: "
#include "tap.h"

#include "banned.h"

static struct uk_buf got = UK_BUF_INIT;

static int
on_event(void *ctx, const char *event, const char *data, const char *id)
{
	(void)ctx;
	uk_buf_addf(&got, "[%s|%s|%s]", event, data, id);
	return !strcmp(data, "stop");
}

/* Feed s one byte at a time, then all at once; both must agree. */
static int
check(const char *s, const char *want)
{
	struct uk_sse p;
	size_t i;
	int same;
	char *one;

	uk_buf_reset(&got);
	uk_sse_init(&p, on_event, NULL);
	for (i = 0; s[i]; i++)
		uk_sse_feed(&p, s + i, 1);
	uk_sse_release(&p);
	one = uk_buf_detach(&got, NULL);
	uk_sse_init(&p, on_event, NULL);
	uk_sse_feed(&p, s, strlen(s));
	uk_sse_release(&p);
	same = !strcmp(one, got.buf) && !strcmp(got.buf, want);
	if (!same)
		printf("# got '%s' / '%s', want '%s'\n", one, got.buf, want);
	free(one);
	return same;
}

int
main(void)
{
	struct uk_sse p;

	ok(check("event: call\ndata: {\"a\":1}\nid: 7\n\n",
	       "[call|{\"a\":1}|7]"),
	    "one event with id");
	ok(check("data: x\n\n", "[message|x|]"), "default event name");
	ok(check(": heartbeat\n\nretry: 1000\n\n", ""), "comments and retry");
	ok(check("data: a\ndata: b\n\n", "[message|a\nb|]"),
	    "data lines joined with LF");
	ok(check("data: a\r\n\r\ndata:b\r\r", "[message|a|][message|b|]"),
	    "CRLF and CR line ends, no space after colon");
	ok(check("id: 1\nevent: call\ndata: x\n\nevent: resolved\ndata: y\n\n",
	       "[call|x|1][resolved|y|1]"),
	    "the last id is kept");
	ok(check("data: x\n", ""), "no event without its blank line");
	uk_sse_init(&p, on_event, NULL);
	ok(uk_sse_feed(&p, "data: stop\n\ndata: more\n\n", 24) == -1,
	    "a callback can stop the parser");
	uk_sse_release(&p);
	uk_sse_init(&p, on_event, NULL);
	p.max = 8;
	ok(uk_sse_feed(&p, "data: 0123456789\n\n", 18) == -1,
	    "an event over the limit stops the parser");
	uk_sse_release(&p);
	uk_buf_release(&got);
	return tap_done();
}
