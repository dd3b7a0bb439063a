/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "json.h"
#include "strset.h"
#include "banned.h"

static int
max_depth_ok(const char *s, size_t len)
{
	size_t i;
	int depth = 0, in_str = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '[' || c == '{') {
			if (++depth > UK_JSON_MAX_DEPTH)
				return 0;
		} else if (c == ']' || c == '}')
			depth--;
	}
	return 1;
}

static yajl_val
node(yajl_type t)
{
	yajl_val v = uk_util_xcalloc(1, sizeof(*v));

	v->type = t;
	return v;
}

/*
 * A string node: yajl_val has no room for a length, so string nodes are
 * allocated with one after it.  yajl_tree_free frees the node by its
 * address, the start of this struct.  Every string node is made here
 * (uk_json_strn, the parser), so every one has its length.
 */
struct strnode {
	struct yajl_val_s v;
	size_t len;
};

/* Four hex digits at s into *out; 0 when they are not. */
static int
hex4(const char *s, unsigned long *out)
{
	unsigned long v = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = (unsigned char)s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return 0;
		v = v << 4 | (unsigned long)c;
	}
	*out = v;
	return 1;
}

/*
 * Rewrite the escapes of lone surrogates (a \\uD800-\\uDBFF not followed by
 * a \\uDC00-\\uDFFF, or the latter alone) to \\ufffd, in a copy; NULL when
 * there is none.  yajl would turn a lone high surrogate into '?' or join it
 * with whatever escape follows, and a lone low one into invalid UTF-8.
 */
static char *
fix_surrogates(const char *s, size_t len)
{
	char *copy = NULL;
	size_t i;
	unsigned long h, h2;
	int in_str = 0;

	for (i = 0; i < len; i++) {
		if (!in_str) {
			in_str = s[i] == '"';
			continue;
		}
		if (s[i] == '"') {
			in_str = 0;
			continue;
		}
		if (s[i] != '\\' || i + 1 >= len)
			continue;
		if (s[i + 1] != 'u' || i + 6 > len || !hex4(s + i + 2, &h)) {
			i++;
			continue;
		}
		if (h >= 0xd800 && h <= 0xdbff && i + 12 <= len &&
		    s[i + 6] == '\\' && s[i + 7] == 'u' &&
		    hex4(s + i + 8, &h2) && h2 >= 0xdc00 && h2 <= 0xdfff) {
			i += 11; /* a pair */
			continue;
		}
		if (h >= 0xd800 && h <= 0xdfff) {
			if (!copy)
				copy = uk_util_xmemdup(s, len);
			memcpy(copy + i + 2, "fffd", 4);
		}
		i += 5;
	}
	return copy;
}

/*
 * The tree is built here from yajl's callbacks, not with yajl_tree_parse:
 * yajl gives each string's length, which yajl_tree drops, so "\\u0000"
 * would cut a string short.  Strings are kept with their length (struct
 * strnode).  Containers grow by doubling; cap[] holds their capacity.
 */
struct builder {
	yajl_val root;
	yajl_val *stack;
	size_t *cap;
	size_t depth, stack_cap;
	const char *error; /* why a callback stopped the parse */
};

/* Add v to the container on top of the stack, or make it the root. */
static int
add_value(struct builder *b, yajl_val v)
{
	yajl_val top;

	if (!b->depth) {
		b->root = v;
		return 1;
	}
	top = b->stack[b->depth - 1];
	if (top->type == yajl_t_object) {
		/* map_key left the key with a NULL value. */
		top->u.object.values[top->u.object.len - 1] = v;
		return 1;
	}
	if (top->u.array.len == b->cap[b->depth - 1]) {
		b->cap[b->depth - 1] = 2 * b->cap[b->depth - 1] + 4;
		top->u.array.values = uk_util_xrealloc(top->u.array.values,
		    b->cap[b->depth - 1] * sizeof(yajl_val));
	}
	top->u.array.values[top->u.array.len++] = v;
	return 1;
}

static int
push_container(struct builder *b, yajl_val v)
{
	add_value(b, v);
	if (b->depth == UK_JSON_MAX_DEPTH) {
		b->error = "nested too deep";
		return 0;
	}
	if (b->depth == b->stack_cap) {
		b->stack_cap = 2 * b->stack_cap + 8;
		b->stack = uk_util_xrealloc(b->stack,
		    b->stack_cap * sizeof(*b->stack));
		b->cap =
		    uk_util_xrealloc(b->cap, b->stack_cap * sizeof(*b->cap));
	}
	b->stack[b->depth] = v;
	b->cap[b->depth++] = 0;
	return 1;
}

static int
b_null(void *ctx)
{
	return add_value(ctx, node(yajl_t_null));
}

static int
b_boolean(void *ctx, int v)
{
	return add_value(ctx, node(v ? yajl_t_true : yajl_t_false));
}

static int
b_number(void *ctx, const char *s, size_t len)
{
	char *text = uk_util_xmemdup(s, len);
	int r = add_value(ctx, uk_json_num(text));

	free(text);
	return r;
}

static int
b_string(void *ctx, const unsigned char *s, size_t len)
{
	return add_value(ctx, uk_json_strn((const char *)s, len));
}

static int
b_start_map(void *ctx)
{
	return push_container(ctx, node(yajl_t_object));
}

static int
b_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct builder *b = ctx;
	yajl_val top = b->stack[b->depth - 1];
	size_t n = top->u.object.len;

	if (memchr(key, '\0', len)) {
		/* Keys are C strings in yajl_val: one with NUL cannot be
		 * kept whole, and a key cut short could pass for another. */
		b->error = "a key holds \\u0000";
		return 0;
	}
	if (n == b->cap[b->depth - 1]) {
		b->cap[b->depth - 1] = 2 * n + 4;
		top->u.object.keys = uk_util_xrealloc(top->u.object.keys,
		    b->cap[b->depth - 1] * sizeof(char *));
		top->u.object.values = uk_util_xrealloc(top->u.object.values,
		    b->cap[b->depth - 1] * sizeof(yajl_val));
	}
	top->u.object.keys[n] = uk_util_xmemdup(key, len);
	top->u.object.values[n] = NULL;
	top->u.object.len = n + 1;
	return 1;
}

static int
b_end(void *ctx)
{
	struct builder *b = ctx;

	b->depth--;
	return 1;
}

static int
b_start_array(void *ctx)
{
	return push_container(ctx, node(yajl_t_array));
}

static const yajl_callbacks build_cb = {
	b_null, b_boolean, NULL, NULL, b_number, b_string,
	b_start_map, b_map_key, b_end, b_start_array, b_end,
};

yajl_val
uk_json_parse(const char *s, size_t len, struct uk_err *err)
{
	struct builder b;
	yajl_handle h;
	yajl_status st;
	unsigned char *msg;
	char *fixed, *nl;

	if (memchr(s, '\0', len)) {
		uk_util_err_set(err, UK_EXIT_FAIL, "invalid JSON: NUL byte");
		return NULL;
	}
	if (!max_depth_ok(s, len)) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "invalid JSON: nested deeper than %d", UK_JSON_MAX_DEPTH);
		return NULL;
	}
	if ((fixed = fix_surrogates(s, len)))
		s = fixed;
	memset(&b, 0, sizeof(b));
	if (!(h = yajl_alloc(&build_cb, NULL, &b)))
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	yajl_config(h, yajl_allow_comments, 1); /* as yajl_tree_parse */
	st = yajl_parse(h, (const unsigned char *)s, len);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	if (st != yajl_status_ok || b.depth || !b.root) {
		if (b.error) {
			uk_util_err_set(err, UK_EXIT_FAIL, "invalid JSON: %s",
			    b.error);
		} else {
			msg = yajl_get_error(h, 0, (const unsigned char *)s,
			    len);
			/* yajl's message may span lines: keep line 1. */
			if (msg && (nl = strchr((char *)msg, '\n')))
				*nl = '\0';
			uk_util_err_set(err, UK_EXIT_FAIL, "invalid JSON: %s",
			    msg && *msg ? (char *)msg : "parse error");
			if (msg)
				yajl_free_error(h, msg);
		}
		uk_json_free(b.root);
		b.root = NULL;
	}
	yajl_free(h);
	free(b.stack);
	free(b.cap);
	free(fixed);
	return b.root;
}

yajl_val
uk_json_get(yajl_val obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != yajl_t_object)
		return NULL;
	for (i = 0; i < obj->u.object.len; i++)
		if (!strcmp(obj->u.object.keys[i], key))
			return obj->u.object.values[i];
	return NULL;
}

const char *
uk_json_get_str(yajl_val obj, const char *key)
{
	yajl_val v = uk_json_get(obj, key);

	return v && v->type == yajl_t_string ? v->u.string : NULL;
}

int
uk_json_get_int(yajl_val obj, const char *key, long long *out)
{
	yajl_val v = uk_json_get(obj, key);

	if (!v || v->type != yajl_t_number ||
	    !(v->u.number.flags & YAJL_NUMBER_INT_VALID))
		return -1;
	*out = v->u.number.i;
	return 0;
}

int
uk_json_get_bool(yajl_val obj, const char *key)
{
	yajl_val v = uk_json_get(obj, key);

	return v && v->type == yajl_t_true;
}

yajl_val
uk_json_strn(const char *s, size_t len)
{
	struct uk_buf b = UK_BUF_INIT;
	struct strnode *n = uk_util_xcalloc(1, sizeof(*n));

	uk_buf_add_utf8(&b, s, len);
	n->v.type = yajl_t_string;
	n->v.u.string = uk_buf_detach(&b, &n->len);
	return &n->v;
}

size_t
uk_json_strlen(yajl_val v)
{
	if (!v || v->type != yajl_t_string)
		return 0;
	return ((struct strnode *)v)->len;
}

const char *
uk_json_get_strn(yajl_val obj, const char *key, size_t *len)
{
	yajl_val v = uk_json_get(obj, key);

	if (!v || v->type != yajl_t_string)
		return NULL;
	*len = uk_json_strlen(v);
	return v->u.string;
}

yajl_val
uk_json_str(const char *s)
{
	return uk_json_strn(s, strlen(s));
}

yajl_val
uk_json_int(long long i)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%lld", i);
	return uk_json_num(tmp);
}

yajl_val
uk_json_num(const char *text)
{
	yajl_val v = node(yajl_t_number);
	char *end;

	v->u.number.r = uk_util_xstrdup(text);
	errno = 0;
	v->u.number.i = strtoll(text, &end, 10);
	if (!*end && !errno)
		v->u.number.flags |= YAJL_NUMBER_INT_VALID;
	errno = 0;
	v->u.number.d = strtod(text, &end);
	if (!*end && !errno)
		v->u.number.flags |= YAJL_NUMBER_DOUBLE_VALID;
	return v;
}

yajl_val
uk_json_bool(int b)
{
	return node(b ? yajl_t_true : yajl_t_false);
}

yajl_val
uk_json_null(void)
{
	return node(yajl_t_null);
}

yajl_val
uk_json_str_or_null(const char *s)
{
	return s ? uk_json_str(s) : uk_json_null();
}

yajl_val
uk_json_object(void)
{
	return node(yajl_t_object);
}

yajl_val
uk_json_array(void)
{
	return node(yajl_t_array);
}

void
uk_json_set(yajl_val obj, const char *key, yajl_val v)
{
	size_t i, n;

	if (!obj || obj->type != yajl_t_object)
		uk_util_die(UK_EXIT_FATAL, "uk_json_set on a non-object");
	n = obj->u.object.len;
	for (i = 0; i < n; i++)
		if (!strcmp(obj->u.object.keys[i], key)) {
			yajl_tree_free(obj->u.object.values[i]);
			obj->u.object.values[i] = v;
			return;
		}
	obj->u.object.keys =
	    uk_util_xrealloc(obj->u.object.keys, (n + 1) * sizeof(char *));
	obj->u.object.values =
	    uk_util_xrealloc(obj->u.object.values, (n + 1) * sizeof(yajl_val));
	obj->u.object.keys[n] = uk_util_xstrdup(key);
	obj->u.object.values[n] = v;
	obj->u.object.len = n + 1;
}

/* Make room in obj for n more fields, keys and values arrays both. */
static void
reserve(yajl_val obj, size_t n)
{
	size_t len = obj->u.object.len;

	obj->u.object.keys =
	    uk_util_xrealloc(obj->u.object.keys, (len + n) * sizeof(char *));
	obj->u.object.values = uk_util_xrealloc(obj->u.object.values,
	    (len + n) * sizeof(yajl_val));
}

void
uk_json_add_missing(yajl_val obj, yajl_val from, const char *const *skip)
{
	struct uk_strset seen = UK_STRSET_INIT;
	const char *key;
	size_t i, k, n;

	if (!obj || obj->type != yajl_t_object || !from ||
	    from->type != yajl_t_object)
		return;
	/* A set of the keys present, not uk_json_get per key: a record
	 * may hold hundreds of thousands of fields. */
	for (i = 0; i < obj->u.object.len; i++)
		uk_strset_add(&seen, obj->u.object.keys[i],
		    strlen(obj->u.object.keys[i]));
	reserve(obj, from->u.object.len);
	for (i = 0; i < from->u.object.len; i++) {
		key = from->u.object.keys[i];
		for (k = 0; skip && skip[k]; k++)
			if (!strcmp(key, skip[k]))
				break;
		if ((skip && skip[k]) || !uk_strset_add(&seen, key, strlen(key)))
			continue;
		n = obj->u.object.len++;
		obj->u.object.keys[n] = uk_util_xstrdup(key);
		obj->u.object.values[n] = uk_json_copy(from->u.object.values[i]);
	}
	uk_strset_release(&seen);
}

void
uk_json_set_str(yajl_val obj, const char *key, const char *s)
{
	uk_json_set(obj, key, s ? uk_json_str(s) : uk_json_null());
}

void
uk_json_set_str_nonempty(yajl_val obj, const char *key, const char *s)
{
	if (s && *s)
		uk_json_set_str(obj, key, s);
}

void
uk_json_set_int(yajl_val obj, const char *key, long long v)
{
	uk_json_set(obj, key, uk_json_int(v));
}

void
uk_json_set_bool(yajl_val obj, const char *key, int v)
{
	uk_json_set(obj, key, uk_json_bool(v));
}

int
uk_json_del(yajl_val obj, const char *key)
{
	size_t i, n;

	if (!obj || obj->type != yajl_t_object)
		return 0;
	n = obj->u.object.len;
	for (i = 0; i < n; i++) {
		if (strcmp(obj->u.object.keys[i], key))
			continue;
		free((char *)obj->u.object.keys[i]);
		yajl_tree_free(obj->u.object.values[i]);
		memmove(obj->u.object.keys + i, obj->u.object.keys + i + 1,
		    (n - i - 1) * sizeof(char *));
		memmove(obj->u.object.values + i,
		    obj->u.object.values + i + 1,
		    (n - i - 1) * sizeof(yajl_val));
		obj->u.object.len = n - 1;
		return 1;
	}
	return 0;
}

void
uk_json_push(yajl_val arr, yajl_val v)
{
	size_t n;

	if (!arr || arr->type != yajl_t_array)
		uk_util_die(UK_EXIT_FATAL, "uk_json_push on a non-array");
	n = arr->u.array.len;
	arr->u.array.values =
	    uk_util_xrealloc(arr->u.array.values, (n + 1) * sizeof(yajl_val));
	arr->u.array.values[n] = v;
	arr->u.array.len = n + 1;
}

yajl_val
uk_json_copy(yajl_val v)
{
	yajl_val c;
	size_t i;

	if (!v)
		return NULL;
	switch (v->type) {
	case yajl_t_string:
		return uk_json_strn(v->u.string, uk_json_strlen(v));
	case yajl_t_number:
		c = node(yajl_t_number);
		c->u.number = v->u.number;
		c->u.number.r = uk_util_xstrdup(v->u.number.r);
		return c;
	case yajl_t_object:
		/* Field by field, not with uk_json_set, which would look each
		 * key up (quadratic); duplicate keys are copied as they are. */
		c = uk_json_object();
		reserve(c, v->u.object.len);
		for (i = 0; i < v->u.object.len; i++) {
			c->u.object.keys[i] =
			    uk_util_xstrdup(v->u.object.keys[i]);
			c->u.object.values[i] =
			    uk_json_copy(v->u.object.values[i]);
		}
		c->u.object.len = v->u.object.len;
		return c;
	case yajl_t_array:
		c = uk_json_array();
		c->u.array.values = uk_util_xmalloc(
		    (v->u.array.len ? v->u.array.len : 1) * sizeof(yajl_val));
		for (i = 0; i < v->u.array.len; i++)
			c->u.array.values[i] =
			    uk_json_copy(v->u.array.values[i]);
		c->u.array.len = v->u.array.len;
		return c;
	default:
		return node(v->type);
	}
}

void
uk_json_free(yajl_val v)
{
	if (v)
		yajl_tree_free(v);
}

int
uk_json_gen(yajl_gen g, yajl_val v)
{
	yajl_gen_status st = yajl_gen_status_ok;
	size_t i;

	if (!v)
		return yajl_gen_null(g);
	switch (v->type) {
	case yajl_t_string:
		return yajl_gen_string(g, (const unsigned char *)v->u.string,
		    uk_json_strlen(v));
	case yajl_t_number:
		return yajl_gen_number(g, v->u.number.r, strlen(v->u.number.r));
	case yajl_t_object:
		if ((st = yajl_gen_map_open(g)) != yajl_gen_status_ok)
			return st;
		for (i = 0; i < v->u.object.len; i++) {
			const char *k = v->u.object.keys[i];

			st = yajl_gen_string(g, (const unsigned char *)k,
			    strlen(k));
			if (st != yajl_gen_status_ok)
				return st;
			st = uk_json_gen(g, v->u.object.values[i]);
			if (st != yajl_gen_status_ok)
				return st;
		}
		return yajl_gen_map_close(g);
	case yajl_t_array:
		if ((st = yajl_gen_array_open(g)) != yajl_gen_status_ok)
			return st;
		for (i = 0; i < v->u.array.len; i++) {
			st = uk_json_gen(g, v->u.array.values[i]);
			if (st != yajl_gen_status_ok)
				return st;
		}
		return yajl_gen_array_close(g);
	case yajl_t_true:
		return yajl_gen_bool(g, 1);
	case yajl_t_false:
		return yajl_gen_bool(g, 0);
	default:
		return yajl_gen_null(g);
	}
}

yajl_gen
uk_json_gen_new(void)
{
	yajl_gen g = yajl_gen_alloc(NULL);

	if (!g)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	yajl_gen_config(g, yajl_gen_validate_utf8, 1);
	return g;
}

void
uk_json_to_buf(yajl_val v, struct uk_buf *out)
{
	yajl_gen g = uk_json_gen_new();
	const unsigned char *p;
	size_t n;

	if (uk_json_gen(g, v) != yajl_gen_status_ok)
		uk_util_die(UK_EXIT_FATAL, "cannot serialise a JSON value");
	yajl_gen_get_buf(g, &p, &n);
	uk_buf_add(out, p, n);
	yajl_gen_free(g);
}
