/* SPDX-License-Identifier: MIT */
/*
 * Text of the tree on one line of the map: valid UTF-8, with control
 * characters escaped, for the map (symbols_map.c) and the notes the
 * ranking writes (symbols_rank.c).  See symbols_int.h.
 */
#include <stddef.h>

#include "banned.h"
#include "buf.h"
#include "symbols_int.h"

void
uk_symescape_add(struct uk_buf *b, const char *s, size_t n)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t i, from = 0;

	/* Valid UTF-8 first, then no control character on the line. */
	uk_buf_add_utf8(&t, s, n);
	for (i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.buf[i];

		if (c >= 0x20 && c != 0x7f && c != '\\')
			continue;
		uk_buf_add(b, t.buf + from, i - from);
		if (c == '\n')
			uk_buf_addstr(b, "\\n");
		else if (c == '\t')
			uk_buf_addstr(b, "\\t");
		else if (c == '\r')
			uk_buf_addstr(b, "\\r");
		else if (c == '\\')
			uk_buf_addstr(b, "\\\\");
		else
			uk_buf_addf(b, "\\x%02x", c);
		from = i + 1;
	}
	uk_buf_add(b, t.buf + from, t.len - from);
	uk_buf_release(&t);
}
