/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_feat.c's uk_ex_trees_eval and the layout of
 * the generated lib/extract_model.c: each tree's nodes in preorder (a
 * split's left child is the node after it, only the right one written),
 * a split's threshold and a leaf's value in one field.
 */
#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

#define TAP_PREFIX "trees: "
#include "banned.h"
#include "extract_int.h"
#include "tap.h"

/*
 * Two trees: the first (class 0) splits x[0] at 1.5, its left a leaf of
 * 10, its right a split of x[1] at 0 into leaves 1 and 2; the second
 * (class 1) a single leaf of 0.5.
 */
static const struct uk_ex_tnode nodes[] = {
	{ 0, 2, 1.5 }, { -1, 0, 10 }, { 1, 4, 0 }, { -1, 0, 1 },
	{ -1, 0, 2 }, { -1, 0, 0.5 },
};
static const int root[] = { 0, 5 };
static const int cls[] = { 0, 1 };
static const double base[] = { 0.25, -0.25 };
static const struct uk_ex_trees two = { 2, 2, root, cls, nodes, base };

static int
raw_is(const double *x, double want0)
{
	double raw[2];

	uk_ex_trees_eval(&two, x, raw);
	return raw[0] == want0 && raw[1] == 0.25;
}

/*
 * Whether every tree of m is laid out in preorder within its own
 * nodes: a split's right child after its left one and before the next
 * tree, features in [0, nfeat).  n: the number of nodes.
 */
static int
preorder(const struct uk_ex_trees *m, int n, int nfeat)
{
	int t, i, end;

	for (t = 0; t < m->ntrees; t++) {
		end = t + 1 < m->ntrees ? m->root[t + 1] : n;
		if (m->root[t] < 0 || m->root[t] >= end)
			return 0;
		for (i = m->root[t]; i < end; i++) {
			if (m->nodes[i].feat < 0)
				continue;
			if (m->nodes[i].feat >= nfeat ||
			    m->nodes[i].right <= i + 1 ||
			    m->nodes[i].right >= end)
				return 0;
		}
		/* The last node of a tree is a leaf. */
		if (m->nodes[end - 1].feat >= 0)
			return 0;
	}
	return 1;
}

/* The nodes of m: one past the last root's tree's last leaf. */
static int
nnodes(const struct uk_ex_trees *m)
{
	int i, far;

	if (!m->ntrees)
		return 0;
	/* Walk the last tree: its nodes are the last in the table. */
	for (i = far = m->root[m->ntrees - 1]; i <= far; i++)
		if (m->nodes[i].feat >= 0 && m->nodes[i].right > far)
			far = m->nodes[i].right;
	return far + 1;
}

int
main(void)
{
	double a[2] = { 1, 5 }, b[2] = { 2, 0 }, c[2] = { 2, 3 };
	double d[2] = { 1.5, 9 };

	ok(raw_is(a, 10.25), "x[0] under the threshold goes left");
	ok(raw_is(b, 1.25), "right, then left at x[1] == 0");
	ok(raw_is(c, 2.25), "right, then right");
	ok(raw_is(d, 10.25), "a value equal to the threshold goes left");
	ok(preorder(&two, 6, 2), "the hand-made trees are in preorder");
	ok(uk_ex_type_model.ntrees > 0 &&
	    preorder(&uk_ex_type_model, nnodes(&uk_ex_type_model), UK_EX_NPF),
	    "the page type model's trees are in preorder");
	ok(uk_ex_block_model.ntrees > 0 &&
	    preorder(&uk_ex_block_model, nnodes(&uk_ex_block_model),
		UK_EX_NBF),
	    "the block model's trees are in preorder");
	ok(uk_ex_region_model.ntrees == 0 ||
	    preorder(&uk_ex_region_model, nnodes(&uk_ex_region_model),
		UK_EX_NRF),
	    "the region model is empty or in preorder");
	ok(uk_ex_stack_model.ntrees == 0 ||
	    preorder(&uk_ex_stack_model, nnodes(&uk_ex_stack_model),
		UK_EX_NSTK),
	    "the stacked model is empty or its trees are in preorder and "
	    "read its features only");
	ok(uk_ex_back_model.ntrees == 0 ||
	    preorder(&uk_ex_back_model, nnodes(&uk_ex_back_model),
		UK_EX_NBK),
	    "the back model is empty or its trees are in preorder and read "
	    "its features only");
	return tap_done();
}
