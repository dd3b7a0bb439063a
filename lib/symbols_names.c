/* SPDX-License-Identifier: MIT */
/*
 * The ranking's name nodes: a name that many units define is one node
 * between the units that refer to it and the units that define it, not
 * an edge from each referrer to each definer.  Each such edge's weight
 * is the referrer's (a: its references, SELF_W when it defines the name
 * too) times the name's (b: name_weight, split among the definers), and
 * a referrer has none to its own unit; so whatever flows along them is
 * the referrers' sum, times b, less what a definer's own unit sent,
 * found from the pairs of a referrer and a definer of one unit (few).
 * The same PageRank as over the edges, to the order of the sums:
 * boost's headers made 17.8 million edges from 2.5 million references,
 * most of them to names such as `type` and `value` that thousands of
 * headers define, and PageRank's passes over them were most of the
 * ranking's time and its peak of memory.  See symbols_int.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

static int
ndef_cmp(const void *a, const void *b)
{
	const struct nname_def *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->group < y->group ? -1 : x->group > y->group;
}

void
uk_symnames_begin(struct namegraph *g, double b)
{
	struct nname *v;

	GROW(g->v, g->n, g->a);
	v = &g->v[g->n++];
	v->ref0 = g->nr;
	v->def0 = g->nd;
	v->pair0 = g->np;
	v->nref = v->ndef = v->npair = 0;
	v->b = b;
}

void
uk_symnames_def(struct namegraph *g, uint32_t unit, uint32_t group)
{
	GROW(g->d, g->nd, g->ad);
	g->d[g->nd].unit = unit;
	g->d[g->nd++].group = group;
	g->v[g->n - 1].ndef++;
}

void
uk_symnames_ref(struct namegraph *g, uint32_t unit, double a)
{
	GROW(g->r, g->nr, g->ar);
	g->r[g->nr].unit = unit;
	g->r[g->nr++].a = a;
	g->v[g->n - 1].nref++;
}

/* The pairs of a referrer and a definer of one unit (no edge between). */
void
uk_symnames_end(struct namegraph *g)
{
	struct nname *v = &g->v[g->n - 1];
	struct nname_def *d = g->d + v->def0;
	size_t i;

	if (!v->nref) {
		/* Nobody refers to it: no node. */
		g->nd = v->def0;
		g->n--;
		return;
	}
	qsort(d, v->ndef, sizeof(*d), ndef_cmp);
	for (i = 0; i < v->nref; i++) {
		uint32_t u = g->r[v->ref0 + i].unit;
		size_t lo = 0, hi = v->ndef;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (d[mid].unit < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < v->ndef && d[lo].unit == u; lo++) {
			GROW(g->p, g->np, g->ap);
			g->p[g->np].ref = (uint32_t)i;
			g->p[g->np++].def = (uint32_t)lo;
			v->npair++;
		}
	}
}

/*
 * What flows along the name's edges from x (by unit), times scale:
 * forward into each definer's y (or its group's, when by_group), or
 * backward into each referrer's y.
 */
static void
flow_one(const struct namegraph *g, const struct nname *v, const double *x,
    double *y, int rev, int by_group, double scale, double *corr)
{
	const struct nname_ref *r = g->r + v->ref0;
	const struct nname_def *d = g->d + v->def0;
	const struct nname_pair *p = g->p + v->pair0;
	double s = 0;
	size_t i;

	if (!rev) {
		for (i = 0; i < v->nref; i++)
			s += x[r[i].unit] * r[i].a;
		for (i = 0; i < v->ndef; i++)
			corr[i] = 0;
		for (i = 0; i < v->npair; i++)
			corr[p[i].def] += x[r[p[i].ref].unit] * r[p[i].ref].a;
		for (i = 0; i < v->ndef; i++) {
			double f = s - corr[i];

			if (f <= 0)
				continue;
			if (by_group)
				y[d[i].group] += scale * v->b * f;
			else
				y[d[i].unit] += scale * v->b * f;
		}
		return;
	}
	for (i = 0; i < v->ndef; i++)
		s += x[d[i].unit];
	for (i = 0; i < v->nref; i++)
		corr[i] = 0;
	for (i = 0; i < v->npair; i++)
		corr[p[i].ref] += x[d[p[i].def].unit];
	for (i = 0; i < v->nref; i++) {
		double f = s - corr[i];

		if (f > 0)
			y[r[i].unit] += scale * r[i].a * v->b * f;
	}
}

static void
flow(const struct namegraph *g, const double *x, double *y, int rev,
    int by_group, double scale)
{
	size_t i, most = 1;
	double *corr;

	if (!g || !g->n)
		return;
	for (i = 0; i < g->n; i++) {
		if (g->v[i].ndef > most)
			most = g->v[i].ndef;
		if (g->v[i].nref > most)
			most = g->v[i].nref;
	}
	corr = uk_util_xcalloc(most, sizeof(double));
	for (i = 0; i < g->n; i++)
		flow_one(g, &g->v[i], x, y, rev, by_group, scale, corr);
	free(corr);
}

void
uk_symnames_flow(const struct namegraph *g, const double *x, double *y,
    int rev, double scale)
{
	flow(g, x, y, rev, 0, scale);
}

void
uk_symnames_flow_groups(const struct namegraph *g, const double *x,
    double *grank)
{
	flow(g, x, grank, 0, 1, 1.0);
}

void
uk_symnames_hit_groups(const struct namegraph *g, unsigned char *hit,
    uint32_t *gunit)
{
	size_t i, k, most = 1;
	uint32_t *self;

	if (!g || !g->n)
		return;
	for (i = 0; i < g->n; i++)
		if (g->v[i].ndef > most)
			most = g->v[i].ndef;
	self = uk_util_xcalloc(most, sizeof(*self));
	for (i = 0; i < g->n; i++) {
		const struct nname *v = &g->v[i];

		memset(self, 0, v->ndef * sizeof(*self));
		for (k = 0; k < v->npair; k++)
			self[g->p[v->pair0 + k].def]++;
		/* A definer has an edge when a referrer is of another unit. */
		for (k = 0; k < v->ndef; k++)
			if (self[k] < v->nref) {
				hit[g->d[v->def0 + k].group] = 1;
				gunit[g->d[v->def0 + k].group] =
				    g->d[v->def0 + k].unit;
			}
	}
	free(self);
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * keys[0..n) (from << 32 | to, sorted), the pairs a C include may make
 * bare: used[k] set when unit `from` refers to a name node that unit
 * `to` defines (and from is not to).  By unit, the nodes each refers to
 * and each defines, sorted, then each pair's two lists merged.
 */
void
uk_symnames_mark_used(const struct namegraph *g, const uint64_t *keys,
    size_t n, unsigned char *used)
{
	uint64_t *refs, *defs;
	size_t i, k, nr = 0, nd = 0;

	if (!g || !g->n || !n)
		return;
	refs = uk_util_xcalloc(g->nr + 1, sizeof(*refs));
	defs = uk_util_xcalloc(g->nd + 1, sizeof(*defs));
	for (i = 0; i < g->n; i++) {
		const struct nname *v = &g->v[i];

		for (k = 0; k < v->nref; k++)
			refs[nr++] = (uint64_t)g->r[v->ref0 + k].unit << 32 | i;
		for (k = 0; k < v->ndef; k++)
			defs[nd++] = (uint64_t)g->d[v->def0 + k].unit << 32 | i;
	}
	qsort(refs, nr, sizeof(*refs), u64_cmp);
	qsort(defs, nd, sizeof(*defs), u64_cmp);
	for (k = 0; k < n; k++) {
		uint64_t from = keys[k] >> 32, to = keys[k] & 0xffffffffu;
		size_t a = 0, b = 0, lo, hi;

		if (from == to)
			continue;
		/* The first of from's refs, the first of to's defs. */
		for (lo = 0, hi = nr; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (refs[mid] >> 32 < from)
				lo = mid + 1;
			else
				hi = mid;
		}
		a = lo;
		for (lo = 0, hi = nd; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (defs[mid] >> 32 < to)
				lo = mid + 1;
			else
				hi = mid;
		}
		b = lo;
		while (a < nr && refs[a] >> 32 == from && b < nd &&
		    defs[b] >> 32 == to) {
			uint32_t x = (uint32_t)refs[a], y = (uint32_t)defs[b];

			if (x == y) {
				used[k] = 1;
				break;
			}
			if (x < y)
				a++;
			else
				b++;
		}
	}
	free(refs);
	free(defs);
}

void
uk_symnames_release(struct namegraph *g)
{
	free(g->v);
	free(g->r);
	free(g->d);
	free(g->p);
	memset(g, 0, sizeof(*g));
}
