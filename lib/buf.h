/* SPDX-License-Identifier: MIT */
#ifndef UK_BUF_H
#define UK_BUF_H

/*
 * A growable byte buffer in the style of git's strbuf.
 *
 * buf is always NUL-terminated (so it can be used as a C string when the
 * content has no NUL), and len is authoritative: the content may hold NUL
 * bytes.  An initialised buffer with nothing allocated points at a shared
 * empty string, so buf is never NULL.  Growing past memory exits 3.
 */

#include <stdarg.h>
#include <stddef.h>

struct uk_buf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char uk_buf_empty[];
#define UK_BUF_INIT { uk_buf_empty, 0, 0 }

void uk_buf_init(struct uk_buf *b, size_t hint);
/* Free the contents and leave b initialised. */
void uk_buf_release(struct uk_buf *b);
/* Make room for at least extra more bytes after len. */
void uk_buf_grow(struct uk_buf *b, size_t extra);
void uk_buf_setlen(struct uk_buf *b, size_t len);
#define uk_buf_reset(b) uk_buf_setlen((b), 0)
/* Hand the string to the caller, who frees it; b is initialised again. */
char *uk_buf_detach(struct uk_buf *b, size_t *len);

void uk_buf_add(struct uk_buf *b, const void *data, size_t len);
void uk_buf_addstr(struct uk_buf *b, const char *s);
void uk_buf_addch(struct uk_buf *b, int c);
void uk_buf_addf(struct uk_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void uk_buf_vaddf(struct uk_buf *b, const char *fmt, va_list ap);
/* Remove len bytes at pos. */
void uk_buf_remove(struct uk_buf *b, size_t pos, size_t len);
/* Strip ASCII whitespace from both ends. */
void uk_buf_trim(struct uk_buf *b);

/*
 * Append s with every invalid UTF-8 sequence (overlong forms, surrogates,
 * code points past U+10FFFF, stray continuation bytes, truncated
 * sequences) replaced by U+FFFD.  Returns how many replacements were made.
 */
size_t uk_buf_add_utf8(struct uk_buf *b, const char *s, size_t len);

/*
 * Length of the valid UTF-8 sequence at s (1-4), or 0 when the bytes at s
 * do not start one.
 */
size_t uk_buf_utf8_seqlen(const unsigned char *s, size_t avail);
/* Whether s[0..len) is entirely valid UTF-8. */
int uk_buf_utf8_valid(const char *s, size_t len);
/* The largest n <= len that does not cut a UTF-8 sequence of s. */
size_t uk_buf_utf8_cut(const char *s, size_t len);
/*
 * The number of characters (code points) of s[0..len): the bytes that do
 * not continue a sequence, so an invalid byte counts as one.
 */
size_t uk_buf_utf8_chars(const char *s, size_t len);
/*
 * The byte length of the longest prefix of s[0..len) that holds at most
 * max characters (as uk_buf_utf8_chars counts them); it never cuts a sequence.
 */
size_t uk_buf_utf8_prefix(const char *s, size_t len, size_t max);

#endif
