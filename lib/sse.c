/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "sse.h"

#include "banned.h"

void
uk_sse_init(struct uk_sse *p, uk_sse_event_fn *fn, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->ctx = ctx;
	p->max = UK_SSE_MAX;
	uk_buf_init(&p->line, 0);
	uk_buf_init(&p->event, 0);
	uk_buf_init(&p->data, 0);
	uk_buf_init(&p->last_id, 0);
}

void
uk_sse_release(struct uk_sse *p)
{
	uk_buf_release(&p->line);
	uk_buf_release(&p->event);
	uk_buf_release(&p->data);
	uk_buf_release(&p->last_id);
}

void
uk_sse_reset(struct uk_sse *p)
{
	uk_buf_reset(&p->line);
	uk_buf_reset(&p->event);
	uk_buf_reset(&p->data);
	p->cr = p->has_data = 0;
}

/* One complete line; -1 to stop. */
static int
line(struct uk_sse *p)
{
	char *l = p->line.buf, *v;
	size_t n = p->line.len, fl;
	int r = 0;

	if (n == 0) {
		if (p->has_data)
			r = p->fn(p->ctx,
				p->event.len ? p->event.buf : "message",
				p->data.buf, p->last_id.buf) ?
			    -1 :
			    0;
		uk_buf_reset(&p->event);
		uk_buf_reset(&p->data);
		p->has_data = 0;
		return r;
	}
	if (l[0] == ':')
		return 0;
	v = memchr(l, ':', n);
	fl = v ? (size_t)(v - l) : n;
	if (v) {
		v++;
		if (v < l + n && *v == ' ')
			v++;
	} else
		v = l + n;
	if (fl == 5 && !memcmp(l, "event", 5)) {
		uk_buf_reset(&p->event);
		uk_buf_add(&p->event, v, (size_t)(l + n - v));
	} else if (fl == 4 && !memcmp(l, "data", 4)) {
		if (p->has_data)
			uk_buf_addch(&p->data, '\n');
		uk_buf_add(&p->data, v, (size_t)(l + n - v));
		p->has_data = 1;
		if (p->data.len > p->max)
			return -1;
	} else if (fl == 2 && !memcmp(l, "id", 2) &&
	    !memchr(v, '\0', (size_t)(l + n - v))) {
		uk_buf_reset(&p->last_id);
		uk_buf_add(&p->last_id, v, (size_t)(l + n - v));
	}
	return 0;
}

int
uk_sse_feed(struct uk_sse *p, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n' && p->cr) {
			p->cr = 0;
			continue;
		}
		p->cr = s[i] == '\r';
		if (s[i] == '\n' || s[i] == '\r') {
			if (line(p))
				return -1;
			uk_buf_reset(&p->line);
			continue;
		}
		uk_buf_addch(&p->line, s[i]);
		if (p->line.len > p->max)
			return -1;
	}
	return 0;
}
