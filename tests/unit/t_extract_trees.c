/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_trees.c's uk_ex_trees_eval over the models
 * scripts/train-extract.d/export.py compiles into lib/extract_model.c:
 * the committed model.json (read from the top of the tree, where
 * tests/run runs) walked node by node, as training reads it
 * (train.py's raw_scores: x <= thr goes left, each tree's leaf added to
 * its class in the trees' order), must give the compiled code's raw
 * scores bit for bit, on vectors built of the trees' own thresholds
 * (the value itself, the doubles either side of it) and of values
 * between and beyond them.
 */
#include <gumbo.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_PREFIX "trees: "
#include "banned.h"
#include "extract_int.h"
#include "json.h"
#include "tap.h"
#include "util.h"

#define MODEL "scripts/train-extract.d/model.json"
/* Vectors drawn for each model. */
#define DRAWS 3000

/* A tree's nodes as model.json writes them. */
struct rnode {
	int feat, left, right; /* feat -1: a leaf */
	double thr, v;
};
struct rtree {
	int cls, n;
	struct rnode *nodes;
};

static uint64_t seed = 88172645463325252ULL;

static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static double
num(yajl_val v)
{
	return YAJL_IS_NUMBER(v) ? YAJL_GET_DOUBLE(v) : NAN;
}

/*
 * The trees of model json m into *tp (returns how many, -1 when one is
 * malformed: a child out of the tree, a feature outside [0, nfeat)).
 */
static int
read_trees(yajl_val m, int nfeat, struct rtree **tp)
{
	yajl_val trees = uk_json_get(m, "trees");
	struct rtree *t;
	size_t k, i, nt;

	if (!YAJL_IS_ARRAY(trees))
		return -1;
	nt = YAJL_GET_ARRAY(trees)->len;
	t = uk_util_xcalloc(nt ? nt : 1, sizeof(*t));
	*tp = t;
	for (k = 0; k < nt; k++) {
		yajl_val tr = YAJL_GET_ARRAY(trees)->values[k], nodes;

		if (!YAJL_IS_ARRAY(tr) || YAJL_GET_ARRAY(tr)->len != 2)
			return -1;
		nodes = YAJL_GET_ARRAY(tr)->values[1];
		t[k].cls = (int)num(YAJL_GET_ARRAY(tr)->values[0]);
		t[k].n = (int)YAJL_GET_ARRAY(nodes)->len;
		t[k].nodes = uk_util_xcalloc((size_t)t[k].n,
		    sizeof(*t[k].nodes));
		for (i = 0; i < (size_t)t[k].n; i++) {
			yajl_val *f = YAJL_GET_ARRAY(YAJL_GET_ARRAY(nodes)->
			    values[i])->values;
			struct rnode *r = &t[k].nodes[i];

			r->feat = (int)num(f[0]);
			r->thr = num(f[1]);
			r->left = (int)num(f[2]);
			r->right = (int)num(f[3]);
			r->v = num(f[4]);
			if (r->feat >= nfeat || (r->feat >= 0 &&
			    (r->left <= (int)i || r->left >= t[k].n ||
			    r->right <= (int)i || r->right >= t[k].n)))
				return -1;
		}
	}
	return (int)nt;
}

/* The raw scores of x, walking the trees node by node. */
static void
walk(const struct rtree *t, int nt, const double *base, int nclass,
    const double *x, double *raw)
{
	int k, i;

	for (k = 0; k < nclass; k++)
		raw[k] = base[k];
	for (k = 0; k < nt; k++) {
		const struct rnode *r = t[k].nodes;

		for (i = 0; r[i].feat >= 0;)
			i = x[r[i].feat] <= r[i].thr ? r[i].left : r[i].right;
		raw[t[k].cls] += r[i].v;
	}
}

/*
 * A vector for the trees t: each feature a threshold some split of it
 * holds, the double just above or just under it, or a value spread
 * from -1e6 to 1e6.
 */
static void
draw(const struct rtree *t, int nt, int nfeat, double *x)
{
	int f;

	for (f = 0; f < nfeat; f++)
		x[f] = ((double)(rnd() % 2000001) - 1000000) / (1 + rnd() % 997);
	if (!nt)
		return;
	for (f = 0; f < 4 * nfeat; f++) {
		const struct rtree *tr = &t[rnd() % (uint64_t)nt];
		const struct rnode *r = &tr->nodes[rnd() % (uint64_t)tr->n];

		if (r->feat < 0)
			continue;
		switch (rnd() % 3) {
		case 0:
			x[r->feat] = r->thr;
			break;
		case 1:
			x[r->feat] = nextafter(r->thr, INFINITY);
			break;
		default:
			x[r->feat] = nextafter(r->thr, -INFINITY);
			break;
		}
	}
}

/*
 * Model name of json j (absent: an empty ensemble) against its compiled
 * m, over nfeat features: returns how many vectors scored differently
 * (0: none), -1 when the two differ in shape.
 */
static int
check(yajl_val j, const char *name, const struct uk_ex_trees *m, int nfeat)
{
	yajl_val mj = uk_json_get(j, name), bj;
	struct rtree *t = NULL;
	double x[UK_EX_NSTK + UK_EX_NRF], a[UK_EX_NTYPES], b[UK_EX_NTYPES];
	double base[UK_EX_NTYPES];
	int nt, k, bad = 0, d;

	if (!mj)
		return m->ntrees == 0 && m->nadd == 0 ? 0 : -1;
	nt = read_trees(mj, nfeat, &t);
	bj = uk_json_get(mj, "base");
	if (nt < 0 || nt != m->ntrees || !YAJL_IS_ARRAY(bj) ||
	    (int)YAJL_GET_ARRAY(bj)->len != m->nclass ||
	    m->nclass > UK_EX_NTYPES || (nt > 0) != (m->nadd > 0))
		bad = -1;
	for (k = 0; !bad && k < m->nclass; k++) {
		base[k] = num(YAJL_GET_ARRAY(bj)->values[k]);
		if (memcmp(&base[k], &m->base[k], sizeof(base[k])))
			bad = -1;
	}
	for (k = 0; !bad && k < nt; k++)
		if (t[k].cls < 0 || t[k].cls >= m->nclass)
			bad = -1;
	for (d = 0; !bad && d < DRAWS; d++) {
		draw(t, nt, nfeat, x);
		walk(t, nt, base, m->nclass, x, a);
		uk_ex_trees_eval(m, x, b);
		if (memcmp(a, b, (size_t)m->nclass * sizeof(*a)))
			bad++;
	}
	for (k = 0; nt > 0 && k < nt; k++)
		free(t[k].nodes);
	free(t);
	return bad;
}

/*
 * uk_ex_trees_side against the whole score of binary model m: on DRAWS
 * vectors, each with thresholds about the score (the score itself, the
 * doubles either side, a distance away) and the model's own; returns
 * how many gave a value on the wrong side of one, and in *early how
 * many stopped before the last trees.
 */
static int
side(yajl_val j, const char *name, const struct uk_ex_trees *m, int nfeat,
    int *early)
{
	struct rtree *t = NULL;
	double x[UK_EX_NSTK], raw, got, th[4];
	int nt, k, d, bad = 0;

	*early = 0;
	nt = read_trees(uk_json_get(j, name), nfeat, &t);
	if (nt <= 0 || m->nclass != 1)
		bad = -1;
	for (d = 0; !bad && d < DRAWS; d++) {
		draw(t, nt, nfeat, x);
		uk_ex_trees_eval(m, x, &raw);
		switch (d % 4) {
		case 0:
			th[0] = raw;
			break;
		case 1:
			th[0] = nextafter(raw, INFINITY);
			break;
		case 2:
			th[0] = nextafter(raw, -INFINITY);
			break;
		default:
			th[0] = raw + ((double)(rnd() % 2001) - 1000) / 100;
			break;
		}
		th[1] = uk_ex_stack_threshold;
		th[2] = uk_ex_stack_all_threshold;
		th[3] = raw + ((double)(rnd() % 2001) - 1000) / 1000;
		got = uk_ex_trees_side(m, x, th + d % 2, 3);
		for (k = d % 2; k < d % 2 + 3; k++)
			if ((got >= th[k]) != (raw >= th[k]))
				bad++;
		*early += got != raw;
	}
	for (k = 0; k < nt; k++)
		free(t[k].nodes);
	free(t);
	return bad;
}

int
main(void)
{
	struct uk_err err = { 0 };
	yajl_val j = NULL;
	char *s = NULL;
	size_t len = 0;
	int k, early;
	FILE *f;

	if ((f = fopen(MODEL, "rb"))) {
		s = uk_util_xmalloc(1 << 24);
		len = fread(s, 1, (1 << 24) - 1, f);
		s[len] = 0;
		fclose(f);
		j = uk_json_parse(s, len, &err);
	}
	ok(j != NULL, "%s read (run from the top of the tree)", MODEL);
	if (!j)
		return tap_done();
	ok(check(j, "type", &uk_ex_type_model, UK_EX_NPF) == 0,
	    "the page type model scores as its trees walked, bit for bit");
	ok(check(j, "block", &uk_ex_block_model, UK_EX_NBF) == 0,
	    "the block model scores as its trees walked, bit for bit");
	ok(check(j, "region", &uk_ex_region_model, UK_EX_NRF) == 0,
	    "the region model is empty or scores as its trees walked");
	ok(check(j, "stack", &uk_ex_stack_model, UK_EX_NSTK) == 0,
	    "the stacked model scores as its trees walked, bit for bit");
	ok(check(j, "back", &uk_ex_back_model, UK_EX_NBK) == 0,
	    "the back model is empty or scores as its trees walked");
	for (k = 0; k < 2; k++) {
		const char *name = k ? "stack" : "block";
		const struct uk_ex_trees *m = k ? &uk_ex_stack_model :
		    &uk_ex_block_model;
		int n = k ? UK_EX_NSTK : UK_EX_NBF;

		ok(side(j, name, m, n, &early) == 0 && early > 0,
		    "the %s model's side of its thresholds, %d of %d draws "
		    "stopped early", name, early, DRAWS);
	}
	uk_json_free(j);
	free(s);
	return tap_done();
}
