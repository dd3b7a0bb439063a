/* SPDX-License-Identifier: MIT */
/*
 * Records for a person at a terminal, as jq prints them.  yajl_gen's
 * beautify mode indents but cannot colour, nor escape what a terminal
 * acts on, so this walks the tree itself.
 */
#include <string.h>

#include "buf.h"
#include "json.h"
#include "banned.h"

/* jq's default colours (JQ_COLORS): null, false, true, numbers, strings,
 * arrays, objects, object keys. */
#define C_NULL "\033[0;90m"
#define C_BOOL "\033[0;39m"
#define C_NUM "\033[0;39m"
#define C_STR "\033[0;32m"
#define C_ARR "\033[1;39m"
#define C_KEY "\033[34;1m"
#define C_OFF "\033[0m"

static void
colour_on(struct uk_buf *b, int colour, const char *c)
{
	if (colour)
		uk_buf_addstr(b, c);
}

static void
colour_off(struct uk_buf *b, int colour)
{
	if (colour)
		uk_buf_addstr(b, C_OFF);
}

/* The code point of the UTF-8 sequence at s (n bytes), or -1. */
static long
code_point(const unsigned char *s, size_t n)
{
	if (n == 2)
		return ((long)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
	if (n == 3)
		return ((long)(s[0] & 0x0f) << 12) | ((long)(s[1] & 0x3f) << 6) |
		    (s[2] & 0x3f);
	return -1;
}

static int
acts_on_terminal(long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

static void
add_string(struct uk_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	uk_buf_addch(b, '"');
	while (i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '"':
			uk_buf_addstr(b, "\\\"");
			break;
		case '\\':
			uk_buf_addstr(b, "\\\\");
			break;
		case '\n':
			uk_buf_addstr(b, "\\n");
			break;
		case '\t':
			uk_buf_addstr(b, "\\t");
			break;
		case '\r':
			uk_buf_addstr(b, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				uk_buf_addf(b, "\\u%04x", c);
				break;
			}
			if (c < 0x80) {
				uk_buf_addch(b, c);
				break;
			}
			n = uk_buf_utf8_seqlen(p + i, len - i);
			if (!n) { /* not UTF-8: records are, but be safe */
				uk_buf_addstr(b, "\\ufffd");
				i++;
				continue;
			}
			if (acts_on_terminal(code_point(p + i, n)))
				uk_buf_addf(b, "\\u%04lx",
				    code_point(p + i, n));
			else
				uk_buf_add(b, p + i, n);
			i += n;
			continue;
		}
		i++;
	}
	uk_buf_addch(b, '"');
}

static void
indent(struct uk_buf *b, int depth)
{
	uk_buf_addch(b, '\n');
	for (int i = 0; i < depth; i++)
		uk_buf_addstr(b, "  ");
}

static void
pretty(struct uk_buf *b, yajl_val v, int colour, int depth)
{
	size_t i, n;

	if (!v || v->type == yajl_t_null) {
		colour_on(b, colour, C_NULL);
		uk_buf_addstr(b, "null");
	} else if (v->type == yajl_t_true || v->type == yajl_t_false) {
		colour_on(b, colour, C_BOOL);
		uk_buf_addstr(b, v->type == yajl_t_true ? "true" : "false");
	} else if (v->type == yajl_t_number) {
		colour_on(b, colour, C_NUM);
		uk_buf_addstr(b, v->u.number.r);
	} else if (v->type == yajl_t_string) {
		colour_on(b, colour, C_STR);
		add_string(b, v->u.string, uk_json_strlen(v));
	} else if (v->type == yajl_t_array) {
		n = v->u.array.len;
		colour_on(b, colour, C_ARR);
		uk_buf_addch(b, '[');
		for (i = 0; i < n; i++) {
			indent(b, depth + 1);
			pretty(b, v->u.array.values[i], colour, depth + 1);
			colour_on(b, colour, C_ARR);
			if (i + 1 < n)
				uk_buf_addch(b, ',');
		}
		if (n)
			indent(b, depth);
		colour_on(b, colour, C_ARR);
		uk_buf_addch(b, ']');
	} else if (v->type == yajl_t_object) {
		n = v->u.object.len;
		colour_on(b, colour, C_ARR);
		uk_buf_addch(b, '{');
		for (i = 0; i < n; i++) {
			const char *k = v->u.object.keys[i];

			indent(b, depth + 1);
			colour_off(b, colour);
			colour_on(b, colour, C_KEY);
			add_string(b, k, strlen(k));
			colour_off(b, colour);
			colour_on(b, colour, C_ARR);
			uk_buf_addstr(b, ": ");
			colour_off(b, colour);
			pretty(b, v->u.object.values[i], colour, depth + 1);
			colour_on(b, colour, C_ARR);
			if (i + 1 < n)
				uk_buf_addch(b, ',');
		}
		if (n)
			indent(b, depth);
		colour_on(b, colour, C_ARR);
		uk_buf_addch(b, '}');
	}
	colour_off(b, colour);
}

void
uk_json_pretty_add(struct uk_buf *b, yajl_val v, int colour)
{
	pretty(b, v, colour, 0);
}
