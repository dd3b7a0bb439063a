/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the unified line diff (lib/diff).  The input is two
 * texts split at its first NUL (or its middle), each made to end in a
 * newline; their diff, when it is made whole, applied to the first must
 * give the second, and a cut one must keep to its bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of *p (end e) into *s, *n, without its newline. */
static int
next_line(const char **p, const char *e, const char **s, size_t *n)
{
	const char *nl;

	if (*p >= e)
		return 0;
	nl = memchr(*p, '\n', (size_t)(e - *p));
	*s = *p;
	*n = nl ? (size_t)(nl - *p) : (size_t)(e - *p);
	*p = nl ? nl + 1 : e;
	return 1;
}

/* patch(1) of d onto a into out, checking every line: 0, or -1. */
static int
apply(const struct uk_buf *a, const struct uk_buf *d, struct uk_buf *out)
{
	const char *p = a->buf, *ae = a->buf + a->len;
	const char *q = d->buf, *de = d->buf + d->len, *s, *t;
	size_t n, m;
	long from, at = 1;

	if (!d->len) {
		uk_buf_add(out, a->buf, a->len);
		return 0;
	}
	if (!next_line(&q, de, &t, &m) || !next_line(&q, de, &t, &m))
		return -1; /* the two header lines */
	while (next_line(&q, de, &t, &m)) {
		if (m < 4 || memcmp(t, "@@ -", 4))
			return -1;
		from = strtol(t + 4, NULL, 10);
		if (memchr(t, ',', m) && memchr(t, ',', m) < (void *)memchr(t, '+', m) &&
		    strtol((char *)memchr(t, ',', m) + 1, NULL, 10) == 0)
			from++;
		for (; at < from; at++) {
			if (!next_line(&p, ae, &s, &n))
				return -1;
			uk_buf_add(out, s, n);
			uk_buf_addch(out, '\n');
		}
		while (q < de && *q != '@' && next_line(&q, de, &t, &m)) {
			if (!m)
				return -1;
			if (t[0] == '+') {
				uk_buf_add(out, t + 1, m - 1);
				uk_buf_addch(out, '\n');
				continue;
			}
			if (!next_line(&p, ae, &s, &n) || n != m - 1 ||
			    memcmp(s, t + 1, n))
				return -1;
			if (t[0] == ' ') {
				uk_buf_add(out, s, n);
				uk_buf_addch(out, '\n');
			}
			at++;
		}
	}
	uk_buf_add(out, p, (size_t)(ae - p));
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_buf a = UK_BUF_INIT, b = UK_BUF_INIT, d = UK_BUF_INIT;
	struct uk_buf out = UK_BUF_INIT;
	const char *s = (const char *)data, *z;
	long max = size ? 3 + data[0] % 40 : 3;
	size_t half;
	int cut, lines = 0;

	z = memchr(s, '\0', size);
	half = z ? (size_t)(z - s) : size / 2;
	uk_buf_add(&a, s, half);
	if (z)
		half++;
	uk_buf_add(&b, s + half, size - half);
	if (a.len && a.buf[a.len - 1] != '\n')
		uk_buf_addch(&a, '\n');
	if (b.len && b.buf[b.len - 1] != '\n')
		uk_buf_addch(&b, '\n');
	if (uk_diff_unified(a.buf, a.len, b.buf, b.len, 1000000, &d, &cut) ==
	    0) {
		if (cut || apply(&a, &d, &out) || out.len != b.len ||
		    (b.len && memcmp(out.buf, b.buf, b.len)))
			abort();
	}
	uk_buf_reset(&d);
	if (uk_diff_unified(a.buf, a.len, b.buf, b.len, max, &d, &cut) == 0) {
		for (z = d.buf; z && z < d.buf + d.len; z++)
			lines += *z == '\n';
		if (lines > max)
			abort();
	}
	uk_buf_release(&a);
	uk_buf_release(&b);
	uk_buf_release(&d);
	uk_buf_release(&out);
	return 0;
}
