/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
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

yajl_val
uk_json_parse(const char *s, size_t len, struct uk_err *err)
{
	char ebuf[256];
	yajl_val v;
	char *nl;

	if (memchr(s, '\0', len)) {
		uk_err_set(err, UK_EXIT_FAIL, "invalid JSON: NUL byte");
		return NULL;
	}
	if (!max_depth_ok(s, len)) {
		uk_err_set(err, UK_EXIT_FAIL,
		    "invalid JSON: nested deeper than %d", UK_JSON_MAX_DEPTH);
		return NULL;
	}
	ebuf[0] = '\0';
	v = yajl_tree_parse(s, ebuf, sizeof(ebuf));
	if (!v) {
		/* yajl's message spans lines and quotes the input: keep line 1. */
		if ((nl = strchr(ebuf, '\n')))
			*nl = '\0';
		uk_err_set(err, UK_EXIT_FAIL, "invalid JSON: %s",
		    *ebuf ? ebuf : "parse error");
	}
	return v;
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

static yajl_val
node(yajl_type t)
{
	yajl_val v = uk_xcalloc(1, sizeof(*v));

	v->type = t;
	return v;
}

yajl_val
uk_json_strn(const char *s, size_t len)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val v = node(yajl_t_string);

	uk_buf_add_utf8(&b, s, len);
	v->u.string = uk_buf_detach(&b, NULL);
	return v;
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

	v->u.number.r = uk_xstrdup(text);
	v->u.number.i = strtoll(text, &end, 10);
	if (!*end)
		v->u.number.flags |= YAJL_NUMBER_INT_VALID;
	v->u.number.d = strtod(text, &end);
	if (!*end)
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
		uk_die(UK_EXIT_FATAL, "uk_json_set on a non-object");
	n = obj->u.object.len;
	for (i = 0; i < n; i++)
		if (!strcmp(obj->u.object.keys[i], key)) {
			yajl_tree_free(obj->u.object.values[i]);
			obj->u.object.values[i] = v;
			return;
		}
	obj->u.object.keys =
	    uk_xrealloc(obj->u.object.keys, (n + 1) * sizeof(char *));
	obj->u.object.values =
	    uk_xrealloc(obj->u.object.values, (n + 1) * sizeof(yajl_val));
	obj->u.object.keys[n] = uk_xstrdup(key);
	obj->u.object.values[n] = v;
	obj->u.object.len = n + 1;
}

void
uk_json_set_str(yajl_val obj, const char *key, const char *s)
{
	uk_json_set(obj, key, s ? uk_json_str(s) : uk_json_null());
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
		uk_die(UK_EXIT_FATAL, "uk_json_push on a non-array");
	n = arr->u.array.len;
	arr->u.array.values =
	    uk_xrealloc(arr->u.array.values, (n + 1) * sizeof(yajl_val));
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
		return uk_json_str(v->u.string);
	case yajl_t_number:
		c = node(yajl_t_number);
		c->u.number = v->u.number;
		c->u.number.r = uk_xstrdup(v->u.number.r);
		return c;
	case yajl_t_object:
		c = uk_json_object();
		for (i = 0; i < v->u.object.len; i++)
			uk_json_set(c, v->u.object.keys[i],
			    uk_json_copy(v->u.object.values[i]));
		return c;
	case yajl_t_array:
		c = uk_json_array();
		for (i = 0; i < v->u.array.len; i++)
			uk_json_push(c, uk_json_copy(v->u.array.values[i]));
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
		    strlen(v->u.string));
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
		uk_die(UK_EXIT_FATAL, "out of memory");
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
		uk_die(UK_EXIT_FATAL, "cannot serialise a JSON value");
	yajl_gen_get_buf(g, &p, &n);
	uk_buf_add(out, p, n);
	yajl_gen_free(g);
}
