/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"
#include "banned.h"

char uk_buf_empty[1];

void
uk_buf_init(struct uk_buf *b, size_t hint)
{
	b->buf = uk_buf_empty;
	b->len = b->alloc = 0;
	if (hint)
		uk_buf_grow(b, hint);
}

void
uk_buf_release(struct uk_buf *b)
{
	if (b->alloc)
		free(b->buf);
	uk_buf_init(b, 0);
}

void
uk_buf_grow(struct uk_buf *b, size_t extra)
{
	size_t want;

	if (extra >= ~(size_t)0 - b->len - 1)
		uk_util_die(UK_EXIT_FATAL, "buffer size overflow");
	want = b->len + extra + 1;
	if (want <= b->alloc)
		return;
	if (!b->alloc)
		b->buf = NULL;
	if (want < b->alloc + b->alloc / 2)
		want = b->alloc + b->alloc / 2;
	if (want < 64)
		want = 64;
	b->buf = uk_util_xrealloc(b->buf, want);
	if (!b->alloc)
		b->buf[0] = '\0';
	b->alloc = want;
}

void
uk_buf_setlen(struct uk_buf *b, size_t len)
{
	if (len > (b->alloc ? b->alloc - 1 : 0))
		uk_util_die(UK_EXIT_FATAL, "uk_buf_setlen beyond allocation");
	b->len = len;
	if (b->alloc)
		b->buf[len] = '\0';
}

char *
uk_buf_detach(struct uk_buf *b, size_t *len)
{
	char *s;

	if (!b->alloc)
		uk_buf_grow(b, 0);
	s = b->buf;
	if (len)
		*len = b->len;
	uk_buf_init(b, 0);
	return s;
}

void
uk_buf_add(struct uk_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	uk_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void
uk_buf_addstr(struct uk_buf *b, const char *s)
{
	uk_buf_add(b, s, strlen(s));
}

void
uk_buf_addch(struct uk_buf *b, int c)
{
	uk_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

void
uk_buf_vaddf(struct uk_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	uk_buf_grow(b, 64);
	va_copy(cp, ap);
	n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		uk_util_die(UK_EXIT_FATAL, "vsnprintf failed");
	if ((size_t)n >= b->alloc - b->len) {
		uk_buf_grow(b, (size_t)n);
		n = vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void
uk_buf_addf(struct uk_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	uk_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void
uk_buf_remove(struct uk_buf *b, size_t pos, size_t len)
{
	if (pos > b->len || len > b->len - pos)
		uk_util_die(UK_EXIT_FATAL, "uk_buf_remove out of range");
	memmove(b->buf + pos, b->buf + pos + len, b->len - pos - len);
	uk_buf_setlen(b, b->len - len);
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

void
uk_buf_trim(struct uk_buf *b)
{
	size_t i = 0;

	while (b->len && is_space((unsigned char)b->buf[b->len - 1]))
		b->len--;
	while (i < b->len && is_space((unsigned char)b->buf[i]))
		i++;
	if (b->alloc) {
		memmove(b->buf, b->buf + i, b->len - i);
		uk_buf_setlen(b, b->len - i);
	}
}

size_t
uk_buf_utf8_seqlen(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c < 0xc2)
		return 0;
	if (c < 0xe0) {
		if (avail < 2 || (s[1] & 0xc0) != 0x80)
			return 0;
		return 2;
	}
	if (c < 0xf0) {
		if (avail < 3 || (s[1] & 0xc0) != 0x80 ||
		    (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0; /* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0; /* surrogate */
		return 3;
	}
	if (c < 0xf5) {
		if (avail < 4 || (s[1] & 0xc0) != 0x80 ||
		    (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0; /* overlong */
		if (c == 0xf4 && s[1] >= 0x90)
			return 0; /* past U+10FFFF */
		return 4;
	}
	return 0;
}

int
uk_buf_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if (!(n = uk_buf_utf8_seqlen(p + i, len - i)))
			return 0;
		i += n;
	}
	return 1;
}

size_t
uk_buf_utf8_cut(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = len, back = 0;

	/* Step back over continuation bytes to the lead of the last sequence. */
	while (i > 0 && back < 4 && (p[i - 1] & 0xc0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0)
		return len;
	if (p[i - 1] >= 0xc0) {
		size_t n = uk_buf_utf8_seqlen(p + i - 1, len - (i - 1));
		return n ? len : i - 1;
	}
	return len;
}

size_t
uk_buf_add_utf8(struct uk_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0, n, bad = 0;

	uk_buf_grow(b, len);
	while (i < len) {
		if (p[i] < 0x80) {
			uint64_t w;

			/* ASCII eight bytes at a time. */
			i++;
			while (i + 8 <= len) {
				memcpy(&w, p + i, 8);
				if (w & 0x8080808080808080ULL)
					break;
				i += 8;
			}
			continue;
		}
		if ((n = uk_buf_utf8_seqlen(p + i, len - i))) {
			i += n;
			continue;
		}
		uk_buf_add(b, s + start, i - start);
		uk_buf_add(b, "\xef\xbf\xbd", 3);
		bad++;
		/* One U+FFFD for a lead byte and the continuation bytes that
		 * follow it (a truncated sequence), as WHATWG decoders do. */
		n = p[i] >= 0xf0 ? 4 : p[i] >= 0xe0 ? 3 : p[i] >= 0xc2 ? 2 : 1;
		if (p[i] > 0xf4)
			n = 1;
		i++;
		while (--n && i < len && (p[i] & 0xc0) == 0x80)
			i++;
		start = i;
	}
	uk_buf_add(b, s + start, i - start);
	return bad;
}

size_t
uk_buf_utf8_chars(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

size_t
uk_buf_utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (n == max)
				return i;
			n++;
		}
	}
	return len;
}
