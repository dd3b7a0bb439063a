/* SPDX-License-Identifier: MIT */
/* A page's text one slice at a time, by tokens: see slice.h. */
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "slice.h"
#include "tokens.h"
#include "banned.h"

/*
 * The text a record's pages are cut from: its content, else its README
 * and symbol map (a repository's).
 */
static void
page_text(yajl_val rec, struct uk_buf *t)
{
	const char *s;
	size_t n;

	if ((s = uk_json_get_strn(rec, "content", &n))) {
		uk_buf_add(t, s, n);
		return;
	}
	if ((s = uk_json_get_strn(rec, "readme", &n)))
		uk_buf_add(t, s, n);
	if ((s = uk_json_get_strn(rec, "symbol_map", &n)) && n) {
		if (t->len)
			uk_buf_addstr(t, "\n\n");
		uk_buf_addstr(t, "```\n");
		uk_buf_add(t, s, n);
		uk_buf_addstr(t, s[n - 1] == '\n' ? "```\n" : "\n```\n");
	}
}

/*
 * The byte length of the longest prefix of s[0..len) within max tokens,
 * near enough: start from four bytes a token and correct by the count a
 * few times (a prefix's count grows with its length).
 */
static size_t
fit_tokens(const char *s, size_t len, size_t max)
{
	size_t n, tok, i;

	/* A token is at least one byte: a text that short fits uncounted. */
	if (len <= max)
		return len;
	n = max * 4 < len ? uk_buf_utf8_cut(s, max * 4) : len;
	for (i = 0; i < 8 && n > 0; i++) {
		tok = uk_tokens_count(UK_TOKENS_CL100K, s, n);
		if (tok > max) {
			n = uk_buf_utf8_cut(s, (size_t)((double)n * max / tok * 0.97));
			continue;
		}
		if (n == len || tok >= max - max / 20)
			break;
		/* Room left: grow towards the budget. */
		n = (size_t)((double)n * max / (tok ? tok : 1));
		n = n < len ? uk_buf_utf8_cut(s, n) : len;
	}
	while (n > 0 && uk_tokens_count(UK_TOKENS_CL100K, s, n) > max)
		n = uk_buf_utf8_cut(s, n - n / 10 - 1);
	return n;
}

/* A cut at a paragraph, else a line, break in the last fifth of s[0..n). */
static size_t
at_boundary(const char *s, size_t n)
{
	size_t lo = n - n / 5, i;

	for (i = n; i > lo + 1; i--)
		if (s[i - 1] == '\n' && s[i - 2] == '\n')
			return i;
	for (i = n; i > lo; i--)
		if (s[i - 1] == '\n')
			return i;
	return n;
}

size_t
uk_slice_page(yajl_val rec, size_t offset, size_t max_tokens)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t total, start, n, chars;

	page_text(rec, &t);
	total = uk_buf_utf8_chars(t.buf ? t.buf : "", t.len);
	if (offset > total)
		offset = total;
	start = uk_buf_utf8_prefix(t.buf ? t.buf : "", t.len, offset);
	n = fit_tokens(t.buf + start, t.len - start, max_tokens);
	if (start + n < t.len && n > 0)
		n = at_boundary(t.buf + start, n);
	if (n == 0 && start < t.len) {
		/* Always a step forward, however small the budget. */
		n = uk_buf_utf8_seqlen((unsigned char *)t.buf + start,
		    t.len - start);
		if (!n)
			n = 1;
	}
	chars = uk_buf_utf8_chars(t.buf + start, n);
	uk_json_del(rec, "readme");
	uk_json_del(rec, "symbol_map");
	uk_json_set(rec, "content", uk_json_strn(t.buf + start, n));
	uk_json_set_int(rec, "offset", (long long)offset);
	uk_json_set(rec, "next_offset",
	    start + n < t.len ? uk_json_int((long long)(offset + chars)) :
				uk_json_null());
	uk_json_set_int(rec, "total_length", (long long)total);
	uk_buf_release(&t);
	return total - offset - chars;
}
