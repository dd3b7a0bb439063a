/* SPDX-License-Identifier: MIT */
/*
 * The tree ensembles' raw scores (extract_int.h).  The trees themselves
 * are compiled into C by scripts/train-extract.d/export.py
 * (extract_model.c): each model's add function adds the leaves a
 * feature vector reaches, tree after tree.
 */
#include <gumbo.h>
#include <stddef.h>

#include "banned.h"
#include "extract_int.h"

void
uk_ex_trees_eval(const struct uk_ex_trees *m, const double *x, double *raw)
{
	int k;

	for (k = 0; k < m->nclass; k++)
		raw[k] = m->base[k];
	/* x <= thr goes left; features are finite (no NaN). */
	if (m->add)
		m->add(x, raw);
}
