/* SPDX-License-Identifier: MIT */
/*
 * What a file's tags are in the tag cache (symcache.h stores them by the
 * SHA-256 of the file's bytes), and the version that tells a cache made
 * by other grammars or queries.  See symbols_int.h.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "json.h"
#include "symbols.h"
#include "symbols_int.h"
#include "symcache.h"
#include "util.h"

/*
 * The tag cache (symcache.h).  A file's tags are the object
 * {"n": lines, "g": generated, "s": SEQ, "d": [DEF...]}: SEQ holds one
 * line per tag in the order found, a reference's name (seq_add; then a
 * tab and its qualifier, when it has one) or an
 * empty line for the next definition of "d", each an array [name, kind, line,
 * signature, lines of it, doc, scope, scope's name, scope's line, scope's
 * lines] (null for a missing doc or scope).
 */
#define TAGS_FORMAT 8 /* bump when what a tag holds changes (symbols_sig.c) */

static char tags_version[40];

/* The format, and a hash of every grammar's ABI and query text. */
static void
make_version(void)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < UK_SYMLANGS; i++) {
		const char *parts[3] = { uk_symqueries_langs[i].name,
			uk_symqueries_langs[i].tags,
			uk_symqueries_langs[i].extra ?
			    uk_symqueries_langs[i].extra :
			    "" };
		uint32_t abi = ts_language_version(uk_symqueries_langs[i].fn());
		size_t k;
		const char *p;

		for (k = 0; k < 3; k++)
			for (p = parts[k]; *p; p++) {
				h ^= (unsigned char)*p;
				h *= 1099511628211ULL;
			}
		h ^= abi;
		h *= 1099511628211ULL;
	}
	snprintf(tags_version, sizeof(tags_version), "%d-%016llx",
	    TAGS_FORMAT, (unsigned long long)h);
}

const char *
uk_symtagcache_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_version);
	return tags_version;
}

/*
 * A reference's name into SEQ: a backslash, a newline and a tab written
 * as \\, \n and \t.  A Python import over several lines is one reference
 * (symbols_rank.c reads the statement), and a file holding one was never
 * cached: Django parsed 164 of its 871 files again on every fetch.  The
 * caller ends the line, after a tab and the qualifier if there is one.
 */
static void
seq_add(struct uk_buf *seq, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		if (*p == '\\')
			uk_buf_addstr(seq, "\\\\");
		else if (*p == '\n')
			uk_buf_addstr(seq, "\\n");
		else if (*p == '\t')
			uk_buf_addstr(seq, "\\t");
		else
			uk_buf_addch(seq, *p);
	}
}

/* A line of SEQ back into the name (seq_add); NULL when it is not one. */
static char *
seq_name(const char *p, size_t n)
{
	char *out = uk_util_xcalloc(n + 1, 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != '\\') {
			*o++ = p[i];
			continue;
		}
		if (++i == n || (p[i] != '\\' && p[i] != 'n' && p[i] != 't')) {
			free(out);
			return NULL;
		}
		*o++ = p[i] == 'n' ? '\n' : p[i] == 't' ? '\t' : '\\';
	}
	return out;
}

void
uk_symtagcache_put(struct uk_symbols *s, const char *hash, const struct fres *r)
{
	struct uk_buf seq = UK_BUF_INIT;
	yajl_val o, d = uk_json_array();
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		const struct rtag *t = &r->tags[k];
		yajl_val a;

		if (!t->name[0] || (t->def && strchr(t->name, '\n')))
			goto fail;
		if (!t->def) {
			seq_add(&seq, t->name);
			if (t->qual) {
				uk_buf_addch(&seq, '\t');
				seq_add(&seq, t->qual);
			}
			uk_buf_addch(&seq, '\n');
			continue;
		}
		uk_buf_addch(&seq, '\n');
		a = uk_json_array();
		uk_json_push(a, uk_json_str(t->name));
		uk_json_push(a, uk_json_str(t->kind));
		uk_json_push(a, uk_json_int(t->line));
		uk_json_push(a, uk_json_str(t->d.sig));
		uk_json_push(a, uk_json_int(t->d.nlines));
		uk_json_push(a, uk_json_str_or_null(t->d.doc));
		uk_json_push(a, uk_json_str_or_null(t->d.scope));
		uk_json_push(a, uk_json_str_or_null(t->d.scope_name));
		uk_json_push(a, uk_json_int(t->d.scope_line));
		uk_json_push(a, uk_json_int(t->d.scope_nlines));
		uk_json_push(d, a);
	}
	o = uk_json_object();
	uk_json_set_int(o, "n", r->nlines);
	uk_json_set_int(o, "g", r->generated);
	uk_json_set(o, "s", uk_json_strn(seq.buf ? seq.buf : "", seq.len));
	uk_json_set(o, "d", d);
	uk_symcache_put(s->cache, hash, o);
	uk_buf_release(&seq);
	return;
fail:
	uk_json_free(d);
	uk_buf_release(&seq);
}

/* An integer in [lo, UINT32_MAX] from v, or -1. */
static long long
get_u32(yajl_val v, long long lo)
{
	long long x;

	if (!v || !YAJL_IS_INTEGER(v))
		return -1;
	x = YAJL_GET_INTEGER(v);
	return x < lo || x > (long long)UINT32_MAX ? -1 : x;
}

/* A string of v, a copy; NULL for null; -1 when v is neither. */
static int
get_str(yajl_val v, int null_ok, char **out)
{
	*out = NULL;
	if (v && YAJL_IS_STRING(v)) {
		*out = uk_util_xstrdup(YAJL_GET_STRING(v));
		return 0;
	}
	return null_ok && v && YAJL_IS_NULL(v) ? 0 : -1;
}

/* One definition of "d" into t; -1 when it does not check out. */
static int
cached_def(const struct qstate *st, yajl_val a, struct rtag *t)
{
	yajl_val *v;
	const char *kind;
	long long line, nl, sl, snl;

	if (!a || !YAJL_IS_ARRAY(a) || a->u.array.len != 10)
		return -1;
	v = a->u.array.values;
	if (!YAJL_IS_STRING(v[1]))
		return -1;
	kind = YAJL_GET_STRING(v[1]);
	/* The kind, as the query names it (sdef.kind is not owned). */
	if (!(t->kind = uk_symtags_def_kind(st, kind)))
		return -1;
	t->def = 1;
	if ((line = get_u32(v[2], 1)) < 0 || (nl = get_u32(v[4], 1)) < 0 ||
	    (sl = get_u32(v[8], 0)) < 0 || (snl = get_u32(v[9], 0)) < 0)
		return -1;
	t->line = (uint32_t)line;
	t->d.nlines = (uint32_t)nl;
	t->d.scope_line = (uint32_t)sl;
	t->d.scope_nlines = (uint32_t)snl;
	if (get_str(v[0], 0, &t->name) < 0 || !t->name[0] ||
	    get_str(v[3], 0, &t->d.sig) < 0 ||
	    get_str(v[5], 1, &t->d.doc) < 0 ||
	    get_str(v[6], 1, &t->d.scope) < 0 ||
	    get_str(v[7], 1, &t->d.scope_name) < 0)
		return -1;
	return 0;
}

/*
 * The tags of hash from the cache into r (as index_file would have made
 * them): 0, or -1 when there are none or they do not check out (then
 * they are dropped from the cache and r is empty).
 */
int
uk_symtagcache_get(struct uk_symbols *s, int li, const char *hash,
    struct fres *r)
{
	yajl_val o = uk_symcache_get(s->cache, hash), seq, d;
	const char *p, *e, *end;
	long long nl;
	size_t nd = 0, ar = 0;
	struct uk_err qerr;

	memset(r, 0, sizeof(*r));
	if (!o)
		return -1;
	/* A hit needs the query's kinds: compiled now, on the caller's
	 * thread (a miss leaves that to the parsing threads). */
	if (uk_symtags_query(s, li, &qerr) < 0)
		return -1;
	seq = uk_json_get(o, "s");
	d = uk_json_get(o, "d");
	if ((nl = get_u32(uk_json_get(o, "n"), 0)) < 0 || !seq ||
	    !YAJL_IS_STRING(seq) || !d || !YAJL_IS_ARRAY(d) ||
	    get_u32(uk_json_get(o, "g"), 0) < 0)
		goto bad;
	r->nlines = (uint32_t)nl;
	r->generated = get_u32(uk_json_get(o, "g"), 0) != 0;
	p = YAJL_GET_STRING(seq);
	end = p + strlen(p);
	for (; p < end; p = e + 1) {
		struct rtag *t;

		if (!(e = memchr(p, '\n', (size_t)(end - p))))
			goto bad;
		GROW(r->tags, r->ntags, ar);
		t = &r->tags[r->ntags++];
		memset(t, 0, sizeof(*t));
		if (e > p) {
			const char *tab = memchr(p, '\t', (size_t)(e - p));

			t->kind = "call";
			if (!(t->name = seq_name(p, (size_t)((tab ? tab : e) - p))))
				goto bad;
			if (tab && !(t->qual = seq_name(tab + 1,
					 (size_t)(e - tab - 1))))
				goto bad;
			continue;
		}
		if (nd >= d->u.array.len ||
		    cached_def(&s->qs[li], d->u.array.values[nd++], t) < 0)
			goto bad;
	}
	if (nd != d->u.array.len)
		goto bad;
	r->status = 1;
	r->cached = 1;
	return 0;
bad:
	uk_symtags_release(r);
	memset(r, 0, sizeof(*r));
	uk_symcache_drop(s->cache, hash);
	return -1;
}
