/* SPDX-License-Identifier: MIT */
/*
 * The exception classes among a tree's definitions, by their names and
 * first bases, for the ranking (symbols_rank.c: a module of them crowds
 * out the API) and the map (symbols_map.c: it folds a file's many into
 * one line).  See symbols_int.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

/* Whether name[0..n) is an exception's by the languages' conventions. */
static int
exception_name(const char *name, size_t n)
{
	static const char *const sfx[] = { "Error", "Exception", "Warning",
		NULL };
	size_t i, l;

	for (i = 0; sfx[i]; i++) {
		l = strlen(sfx[i]);
		if (n > l && !memcmp(name + n - l, sfx[i], l))
			return 1;
	}
	return 0;
}

/*
 * The first base class a class's signature names: Python's
 * `class A(B, C):`, `class A extends B` (JavaScript, TypeScript, Java),
 * Ruby's `class A < B`; its last dotted part.  *n is 0 when none.
 */
static const char *
first_base(const char *sig, size_t *n)
{
	const char *p, *e = strchr(sig, '\n');
	size_t len = e ? (size_t)(e - sig) : strlen(sig);

	*n = 0;
	if ((p = memmem(sig, len, " extends ", 9)))
		p += 9;
	else if ((p = memmem(sig, len, " < ", 3)))
		p += 3;
	else if ((p = memchr(sig, '(', len)))
		p++;
	else
		return NULL;
	for (;;) {
		size_t k = strcspn(p, ".,()<>{}: \t\n");

		if (p[k] != '.') {
			*n = k;
			return p;
		}
		p += k + 1;
	}
}

/*
 * An exception class: a top-level class whose name or first base's
 * name ends as exceptions' do (HTTPError, ConnectTimeout(ConnectionError)).
 */
static int
exception_class(const struct symtab *t, const struct sdef *d)
{
	const char *name = t->names[d->name], *b;
	size_t n;

	if (strcmp(d->kind, "class") || d->scope)
		return 0;
	if (exception_name(name, strlen(name)))
		return 1;
	b = first_base(d->sig, &n);
	return b && exception_name(b, n);
}

/* An exception class by (file, name), for exc_find. */
struct exc_key {
	uint32_t file;
	const char *name;
	size_t len;
};

static int
exc_key_cmp(const void *a, const void *b)
{
	const struct exc_key *x = a, *y = b;
	size_t l = x->len < y->len ? x->len : y->len;
	int c;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if ((c = memcmp(x->name, y->name, l)))
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/*
 * exc[i] for order[0..n): exception_class, then the classes whose first
 * base is an exception class of their file (ReadTimeout(Timeout) where
 * Timeout(RequestException)), to a fixed point (at most 8 rounds); cnt,
 * each file's count.
 */
void
uk_symexc_classes(const struct symtab *t, const uint32_t *order,
    size_t n, unsigned char *exc, uint32_t *cnt)
{
	struct exc_key *v = uk_util_xcalloc(n + 1, sizeof(*v));
	size_t i, nv = 0, round, added = 1;

	for (i = 0; i < n; i++)
		if ((exc[i] = (unsigned char)exception_class(t,
			 &t->defs[order[i]])))
			cnt[t->defs[order[i]].file]++;
	for (round = 0; round < 8 && added; round++) {
		nv = 0;
		for (i = 0; i < n; i++)
			if (exc[i]) {
				v[nv].file = t->defs[order[i]].file;
				v[nv].name = t->names[t->defs[order[i]].name];
				v[nv].len = strlen(v[nv].name);
				nv++;
			}
		if (!nv)
			break;
		qsort(v, nv, sizeof(*v), exc_key_cmp);
		added = 0;
		for (i = 0; i < n; i++) {
			const struct sdef *d = &t->defs[order[i]];
			struct exc_key k;

			if (exc[i] || !cnt[d->file] || strcmp(d->kind, "class") ||
			    d->scope)
				continue;
			k.file = d->file;
			if (!(k.name = first_base(d->sig, &k.len)) || !k.len ||
			    !bsearch(&k, v, nv, sizeof(*v), exc_key_cmp))
				continue;
			exc[i] = 1;
			cnt[d->file]++;
			added = 1;
		}
	}
	free(v);
}
