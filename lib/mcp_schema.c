/* SPDX-License-Identifier: MIT */
/*
 * A tool call's arguments checked against the tool's input schema
 * (lib/mcp_int.h).  Written here rather than taken from a library: Debian
 * packages no JSON Schema validator for C on yajl, and a tool's schema
 * uses a handful of keywords, each a few lines.  What is not checked
 * here the tool checks itself.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "mcp_int.h"

#include "banned.h"

static int
is_type(yajl_val v, const char *type)
{
	if (!strcmp(type, "string"))
		return YAJL_IS_STRING(v);
	if (!strcmp(type, "integer"))
		return YAJL_IS_INTEGER(v);
	if (!strcmp(type, "number"))
		return YAJL_IS_NUMBER(v);
	if (!strcmp(type, "boolean"))
		return YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v);
	if (!strcmp(type, "array"))
		return YAJL_IS_ARRAY(v);
	if (!strcmp(type, "object"))
		return YAJL_IS_OBJECT(v);
	if (!strcmp(type, "null"))
		return YAJL_IS_NULL(v);
	return 1; /* a type we do not know: the tool decides */
}

/* Whether v has the schema's type (a name or a list of names). */
static int
type_ok(yajl_val v, yajl_val type, struct uk_buf *want)
{
	size_t i;

	if (!type)
		return 1;
	if (YAJL_IS_STRING(type)) {
		uk_buf_addf(want, "%s", type->u.string);
		return is_type(v, type->u.string);
	}
	if (!YAJL_IS_ARRAY(type))
		return 1;
	for (i = 0; i < type->u.array.len; i++) {
		yajl_val t = type->u.array.values[i];

		if (!YAJL_IS_STRING(t))
			continue;
		uk_buf_addf(want, "%s%s", want->len ? " or " : "", t->u.string);
		if (is_type(v, t->u.string))
			return 1;
	}
	return !want->len;
}

static int
enum_ok(yajl_val v, yajl_val e)
{
	struct uk_buf a = UK_BUF_INIT, b = UK_BUF_INIT;
	size_t i;
	int found = 0;

	if (!e || !YAJL_IS_ARRAY(e))
		return 1;
	uk_json_to_buf(v, &a);
	for (i = 0; i < e->u.array.len && !found; i++) {
		uk_buf_reset(&b);
		uk_json_to_buf(e->u.array.values[i], &b);
		found = !strcmp(a.buf, b.buf);
	}
	uk_buf_release(&a);
	uk_buf_release(&b);
	return found;
}

/* One property's value against its schema; -1 with why. */
static int
check_value(const char *name, yajl_val v, yajl_val ps, struct uk_buf *why)
{
	struct uk_buf want = UK_BUF_INIT;
	yajl_val items = uk_json_get(ps, "items");
	long long n;
	size_t i;
	int r = -1;

	if (!type_ok(v, uk_json_get(ps, "type"), &want)) {
		uk_buf_addf(why, "'%s' must be %s %s", name,
		    strchr("aeiou", want.buf[0]) ? "an" : "a", want.buf);
		goto out;
	}
	if (!enum_ok(v, uk_json_get(ps, "enum"))) {
		uk_buf_addf(why, "'%s' is not one of the values allowed", name);
		goto out;
	}
	if (YAJL_IS_NUMBER(v)) {
		yajl_val lo = uk_json_get(ps, "minimum");
		yajl_val hi = uk_json_get(ps, "maximum");

		if (lo && YAJL_IS_NUMBER(lo) &&
		    v->u.number.d < lo->u.number.d) {
			uk_buf_addf(why, "'%s' must be at least %s", name,
			    lo->u.number.r);
			goto out;
		}
		if (hi && YAJL_IS_NUMBER(hi) &&
		    v->u.number.d > hi->u.number.d) {
			uk_buf_addf(why, "'%s' must be at most %s", name,
			    hi->u.number.r);
			goto out;
		}
	}
	if (YAJL_IS_STRING(v)) {
		size_t len = uk_buf_utf8_chars(v->u.string, uk_json_strlen(v));

		if (!uk_json_get_int(ps, "minLength", &n) &&
		    (long long)len < n) {
			uk_buf_addf(why,
			    "'%s' must hold at least %lld characters", name,
			    n);
			goto out;
		}
		if (!uk_json_get_int(ps, "maxLength", &n) &&
		    (long long)len > n) {
			uk_buf_addf(why,
			    "'%s' must hold at most %lld characters", name, n);
			goto out;
		}
	}
	if (YAJL_IS_ARRAY(v) && items && YAJL_IS_OBJECT(items))
		for (i = 0; i < v->u.array.len; i++) {
			uk_buf_reset(&want);
			if (!type_ok(v->u.array.values[i],
				uk_json_get(items, "type"), &want)) {
				uk_buf_addf(why, "'%s' items must be %s %s",
				    name,
				    strchr("aeiou", want.buf[0]) ? "an" : "a",
				    want.buf);
				goto out;
			}
		}
	r = 0;
out:
	uk_buf_release(&want);
	return r;
}

int
uk_mcp_schema_check_args(yajl_val schema, yajl_val args, struct uk_buf *why)
{
	yajl_val props = uk_json_get(schema, "properties");
	yajl_val req = uk_json_get(schema, "required");
	yajl_val extra = uk_json_get(schema, "additionalProperties");
	size_t i;

	if (req && YAJL_IS_ARRAY(req))
		for (i = 0; i < req->u.array.len; i++) {
			yajl_val r = req->u.array.values[i];

			if (YAJL_IS_STRING(r) &&
			    !uk_json_get(args, r->u.string)) {
				uk_buf_addf(why, "'%s' is required",
				    r->u.string);
				return -1;
			}
		}
	for (i = 0; i < args->u.object.len; i++) {
		const char *k = args->u.object.keys[i];
		yajl_val ps = uk_json_get(props, k);
		char *n;
		int bad;

		if (!ps && extra && YAJL_IS_FALSE(extra)) {
			n = uk_util_str_printable(uk_util_xstrdup(k));
			uk_buf_addf(why, "unknown argument '%s'", n);
			free(n);
			return -1;
		}
		if (!ps || !YAJL_IS_OBJECT(ps))
			continue;
		n = uk_util_str_printable(uk_util_xstrdup(k));
		bad = check_value(n, args->u.object.values[i], ps, why);
		free(n);
		if (bad)
			return -1;
	}
	return 0;
}
