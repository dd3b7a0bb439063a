/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the Server-Sent Events parser, fed all at once and
 * in pieces of a size the first byte picks; both must give the same
 * events, and stop at the same point.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
on_event(void *ctx, const char *event, const char *data, const char *id)
{
	struct uk_buf *b = ctx;

	uk_buf_addf(b, "%zu:%s|%zu:%s|%zu:%s\n", strlen(event), event,
	    strlen(data), data, strlen(id), id);
	return b->len > 100000; /* stop once there is a lot */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_buf one = UK_BUF_INIT, many = UK_BUF_INIT;
	struct uk_sse p;
	const char *s = (const char *)data;
	size_t step = size ? data[0] % 13 + 1 : 1, i, n;
	int r1, r2 = 0;

	uk_sse_init(&p, on_event, &one);
	p.max = size ? (size_t)data[size - 1] * 4 : UK_SSE_MAX;
	r1 = uk_sse_feed(&p, s, size);
	uk_sse_release(&p);

	uk_sse_init(&p, on_event, &many);
	p.max = size ? (size_t)data[size - 1] * 4 : UK_SSE_MAX;
	for (i = 0; i < size && r2 == 0; i += n) {
		n = size - i < step ? size - i : step;
		r2 = uk_sse_feed(&p, s + i, n);
	}
	if (r1 != r2 || one.len != many.len ||
	    memcmp(one.buf, many.buf, one.len))
		abort();
	/* A new connection after whatever came: a clean event gets through. */
	uk_buf_reset(&many);
	uk_sse_reset(&p);
	p.max = UK_SSE_MAX;
	if (uk_sse_feed(&p, "data: x\n\n", 9) || !strstr(many.buf, "|1:x|"))
		abort();
	uk_sse_release(&p);
	uk_buf_release(&one);
	uk_buf_release(&many);
	return 0;
}
