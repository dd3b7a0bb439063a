/* SPDX-License-Identifier: MIT */
/*
 * A unified line diff: see diff.h.
 *
 * Written here because no C library in Debian fits: libxdiff is not
 * packaged, dtl (libdtl-dev) is C++, and libgit2's git_patch_from_buffers,
 * though urlfetch links libgit2, would bring it into every program that
 * stores in the cache (urlcache, urlsum, urlmap), and it bounds neither
 * time nor memory.  This is Myers' O((N+M)D) greedy algorithm ("An O(ND)
 * Difference Algorithm and Its Variations", 1986) with the whole trace
 * kept for the walk back, after the common head and tail are set aside,
 * which is where a page's edits leave most of its lines.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"
#include "util.h"

#include "banned.h"

#define CONTEXT 3

struct line {
	const char *s;
	size_t n;
	uint64_t h;
};

/* FNV-1a: lines are compared by hash first, then by their bytes. */
static uint64_t
line_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* The lines of s[0..len) into *out: their count, or -1 when too many. */
static long
split(const char *s, size_t len, long room, struct line **out)
{
	const char *p = s, *end = len ? s + len : s, *nl; /* s may be NULL */
	long n = 0, cap = 1;
	/* Never NULL, even for no line: the caller adds offsets to it. */
	struct line *l = uk_util_xmalloc(sizeof(*l));

	while (p < end) {
		if (n >= room) {
			free(l);
			return -1;
		}
		if (n == cap) {
			cap *= 2;
			l = uk_util_xrealloc(l, (size_t)cap * sizeof(*l));
		}
		nl = memchr(p, '\n', (size_t)(end - p));
		l[n].s = p;
		l[n].n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		l[n].h = line_hash(p, l[n].n);
		n++;
		p = nl ? nl + 1 : end;
	}
	*out = l;
	return n;
}

static int
same(const struct line *x, const struct line *y)
{
	return x->h == y->h && x->n == y->n && !memcmp(x->s, y->s, x->n);
}

/*
 * Myers between a[0..n) and b[0..m): the edit script into ops (n + m
 * bytes at most: '=' a line kept, '-' deleted, '+' inserted), its length
 * in *nops.  0, or -1 beyond UK_DIFF_MAX_EDITS or UK_DIFF_MAX_WORK.
 */
static int
myers(const struct line *a, long n, const struct line *b, long m, char *ops,
    long *nops)
{
	long dmax = n + m < UK_DIFF_MAX_EDITS ? n + m : UK_DIFF_MAX_EDITS;
	long off = dmax + 1, d, k, x, y, work = 0, i, pk, px, py;
	long *v, **trace;
	int found = 0;

	v = uk_util_xcalloc((size_t)(2 * dmax + 3), sizeof(*v));
	trace = uk_util_xcalloc((size_t)dmax + 1, sizeof(*trace));
	for (d = 0; d <= dmax && !found; d++) {
		for (k = -d; k <= d; k += 2) {
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			y = x - k;
			while (x < n && y < m && same(&a[x], &b[y])) {
				x++;
				y++;
				work++;
			}
			v[off + k] = x;
			if (++work > UK_DIFF_MAX_WORK)
				goto fail;
			if (x >= n && y >= m) {
				found = 1;
				break;
			}
		}
		/* v[-d..d] after step d, for the walk back. */
		trace[d] = uk_util_xmalloc((size_t)(2 * d + 1) *
		    sizeof(long));
		memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof(long));
	}
	if (!found)
		goto fail;
	/* Walk back from (n, m), writing the script from its end. */
	i = n + m;
	x = n;
	y = m;
	for (d = d - 1; d > 0; d--) {
		long *pv = trace[d - 1] + (d - 1); /* pv[k], k in -(d-1)..d-1 */

		k = x - y;
		if (k == -d || (k != d && pv[k - 1] < pv[k + 1]))
			pk = k + 1; /* down: b[py] inserted */
		else
			pk = k - 1; /* right: a[px] deleted */
		px = pv[pk];
		py = px - pk;
		while (x > (pk == k + 1 ? px : px + 1) && y > py + (pk == k + 1)) {
			ops[--i] = '=';
			x--;
			y--;
		}
		ops[--i] = pk == k + 1 ? '+' : '-';
		x = px;
		y = py;
	}
	while (x > 0 && y > 0) { /* step 0: the first snake */
		ops[--i] = '=';
		x--;
		y--;
	}
	*nops = n + m - i;
	memmove(ops, ops + i, (size_t)*nops);
	for (d = 0; d <= dmax; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return 0;
fail:
	for (d = 0; d <= dmax; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return -1;
}

/* The output, with its line count and bound. */
struct out {
	struct uk_buf *b;
	long lines, max;
	int truncated;
};

static int
put(struct out *o, char mark, const struct line *l)
{
	if (o->lines >= o->max) {
		o->truncated = 1;
		return -1;
	}
	uk_buf_addch(o->b, mark);
	uk_buf_add(o->b, l->s, l->n);
	uk_buf_addch(o->b, '\n');
	o->lines++;
	return 0;
}

/* "-a,n" as diff -u writes it: the line before an empty range, no ",1". */
static void
range(struct uk_buf *b, char sign, long start, long len)
{
	if (len == 1)
		uk_buf_addf(b, "%c%ld", sign, start + 1);
	else
		uk_buf_addf(b, "%c%ld,%ld", sign, len ? start + 1 : start, len);
}

/* The hunks of the script ops[0..nops) of a against b. */
static void
hunks(const struct line *a, const struct line *b, const char *ops, long nops,
    struct out *o)
{
	long i = 0, j, end, last, ia = 0, ib = 0, na, nb, ja, jb, t;

	while (i < nops) {
		if (ops[i] == '=') {
			i++;
			ia++;
			ib++;
			continue;
		}
		/* A hunk: from CONTEXT lines before this change to CONTEXT
		 * after the last change that is within 2 * CONTEXT of the
		 * one before it. */
		j = i;
		for (t = 0; t < CONTEXT && j > 0 && ops[j - 1] == '='; t++)
			j--;
		ja = ia - t;
		jb = ib - t;
		last = i;
		for (end = i; end < nops; end++) {
			if (ops[end] != '=')
				last = end;
			else if (end - last > 2 * CONTEXT)
				break;
		}
		end = last + 1;
		for (t = 0; t < CONTEXT && end < nops && ops[end] == '='; t++)
			end++;
		for (na = nb = 0, t = j; t < end; t++) {
			na += ops[t] != '+';
			nb += ops[t] != '-';
		}
		if (o->lines + 1 >= o->max) {
			o->truncated = 1;
			return;
		}
		uk_buf_addstr(o->b, "@@ ");
		range(o->b, '-', ja, na);
		uk_buf_addch(o->b, ' ');
		range(o->b, '+', jb, nb);
		uk_buf_addstr(o->b, " @@\n");
		o->lines++;
		for (ia = ja, ib = jb, t = j; t < end; t++) {
			if (ops[t] == '=') {
				if (put(o, ' ', &a[ia]))
					return;
				ia++;
				ib++;
			} else if (ops[t] == '-') {
				if (put(o, '-', &a[ia++]))
					return;
			} else if (put(o, '+', &b[ib++])) {
				return;
			}
		}
		i = end;
	}
}

int
uk_diff_unified(const char *ta, size_t alen, const char *tb, size_t blen,
    long max_lines, struct uk_buf *out, int *truncated)
{
	struct line *a = NULL, *b = NULL;
	struct out o = { out, 0, max_lines, 0 };
	long n, m, head = 0, tail = 0, nops = 0, r = -1;
	char *ops = NULL;

	*truncated = 0;
	if ((n = split(ta, alen, UK_DIFF_MAX_LINES, &a)) < 0)
		return -1;
	if ((m = split(tb, blen, UK_DIFF_MAX_LINES - n, &b)) < 0)
		goto done;
	while (head < n && head < m && same(&a[head], &b[head]))
		head++;
	while (tail < n - head && tail < m - head &&
	    same(&a[n - 1 - tail], &b[m - 1 - tail]))
		tail++;
	if (head == n && head == m) {
		r = 0; /* equal */
		goto done;
	}
	ops = uk_util_xmalloc((size_t)(n + m) + 1);
	memset(ops, '=', (size_t)head);
	if (myers(a + head, n - head - tail, b + head, m - head - tail,
		ops + head, &nops))
		goto done;
	memset(ops + head + nops, '=', (size_t)tail);
	nops += head + tail;
	if (max_lines < 3) {
		o.truncated = 1;
	} else {
		uk_buf_addstr(out, "--- previous\n+++ current\n");
		o.lines = 2;
		hunks(a, b, ops, nops, &o);
	}
	*truncated = o.truncated;
	r = 0;
done:
	free(ops);
	free(a);
	free(b);
	return (int)r;
}
