/* SPDX-License-Identifier: MIT */
#ifndef UK_JSON_H
#define UK_JSON_H

/*
 * JSON values on yajl's tree (yajl_val).  yajl_tree keeps object keys in
 * their order and numbers as written (u.number.r), so a record read and
 * written again keeps its unknown fields unchanged.  Nodes made here are
 * allocated as yajl_tree allocates them, so yajl_tree_free (uk_json_free)
 * frees a tree that mixes parsed and made nodes.
 *
 * Every constructor takes ownership of nothing and copies its argument;
 * uk_json_set and uk_json_push take ownership of the value they are given.
 * Strings are made valid UTF-8 on the way in (invalid bytes and lone
 * surrogates become U+FFFD).  A string keeps its length, so one holding
 * NUL ("a\u0000b") is written back whole; v->u.string and
 * uk_json_get_str see it as a C string, cut at the NUL, and code that
 * must not lose what follows uses uk_json_get_strn or uk_json_strlen.
 * Only the nodes made here have the length: build trees with this module,
 * never with yajl_tree_parse.
 */

#include <stddef.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "buf.h"
#include "util.h"

/* Deeper nesting than this is refused (yajl_tree_free recurses). */
#define UK_JSON_MAX_DEPTH 256

/*
 * Parse s[0..len), which must be NUL-terminated at len.  Returns the tree,
 * or NULL with err filled ("invalid JSON: ...").  An object key holding
 * \u0000 is refused (keys are C strings).
 */
yajl_val uk_json_parse(const char *s, size_t len, struct uk_err *err);

/* The value of key in obj (borrowed: obj owns it), or NULL when obj is
 * not an object or has no such key. */
yajl_val uk_json_get(yajl_val obj, const char *key);
/* The string value of key, or NULL when absent or not a string. */
const char *uk_json_get_str(yajl_val obj, const char *key);
/* The same with its length in *len, NUL bytes included. */
const char *uk_json_get_strn(yajl_val obj, const char *key, size_t *len);
/* The length of the string v (0 when v is not a string). */
size_t uk_json_strlen(yajl_val v);
/* 0 and *out set when key holds an integer, else -1. */
int uk_json_get_int(yajl_val obj, const char *key, long long *out);
/* 1 when key is true, 0 when false, absent or not a boolean. */
int uk_json_get_bool(yajl_val obj, const char *key);

/*
 * New values, owned by the caller (uk_json_free, or give them to an
 * object or array with uk_json_set or uk_json_push): a string copied from
 * s (NUL-terminated, or len bytes), an integer.
 */
yajl_val uk_json_str(const char *s);
yajl_val uk_json_strn(const char *s, size_t len);
yajl_val uk_json_int(long long v);
/* A number from its text as written, which must be a valid JSON number. */
yajl_val uk_json_num(const char *text);
yajl_val uk_json_bool(int v);
yajl_val uk_json_null(void);
/* A string copied from s, or null when s is NULL. */
yajl_val uk_json_str_or_null(const char *s);
yajl_val uk_json_object(void);
yajl_val uk_json_array(void);

/* Set key to v (owned): replaced in place if present, else appended. */
void uk_json_set(yajl_val obj, const char *key, yajl_val v);
/* Shorthands for uk_json_set with a new string, integer or boolean. */
void uk_json_set_str(yajl_val obj, const char *key, const char *s);
void uk_json_set_int(yajl_val obj, const char *key, long long v);
void uk_json_set_bool(yajl_val obj, const char *key, int v);
/* Set key to a new string s only when s is neither NULL nor empty. */
void uk_json_set_str_nonempty(yajl_val obj, const char *key, const char *s);
/* Remove key; returns whether it was there. */
int uk_json_del(yajl_val obj, const char *key);
/*
 * Copy onto obj each field of from whose key obj does not have and skip
 * (a NULL-terminated list of keys, or NULL) does not name; of a key that
 * from repeats, the first.  Linear in the fields of both.
 */
void uk_json_add_missing(yajl_val obj, yajl_val from,
    const char *const *skip);
/* Append v (owned) to the array arr. */
void uk_json_push(yajl_val arr, yajl_val v);
/* A deep copy. */
yajl_val uk_json_copy(yajl_val v);
void uk_json_free(yajl_val v);

/* Emit v through g; returns yajl_gen_status_ok or yajl's error. */
int uk_json_gen(yajl_gen g, yajl_val v);

/*
 * Append v to b as jq prints it: indented by two spaces, object keys in
 * their order, with colour escapes (jq's default colours) when colour is
 * set.  Strings are escaped as JSON, and so are the characters a terminal
 * would act on (C0 and C1 controls, DEL) and the bidirectional overrides
 * (U+202A-U+202E, U+2066-U+2069), so a hostile page's text cannot move
 * the cursor or reorder what is shown.  No newline at the end.
 */
void uk_json_pretty_add(struct uk_buf *b, yajl_val v, int colour);
/* A new generator set up the urlkit way (UTF-8 validated, compact). */
yajl_gen uk_json_gen_new(void);
/* Append v as compact JSON to out. */
void uk_json_to_buf(yajl_val v, struct uk_buf *out);

#endif
