/* SPDX-License-Identifier: MIT */
/*
 * The tree ensembles' raw scores (extract_int.h).  The trees themselves
 * are compiled into C by scripts/train-extract.d/export.py
 * (extract_model.c): each model's add function adds the leaves a
 * feature vector reaches, tree after tree.
 */
#include <gumbo.h>
#include <stddef.h>
#include <string.h>

#include "banned.h"
#include "extract_int.h"

/*
 * The page type model's last vector and its scores, for each thread:
 * a page's type is read twice (the part a type picks, then the blocks'
 * features) from the same page features.  The same bits give the same
 * scores: the cache is exact.  It serves once, the second read, so
 * that a page's first read is always worked out (a page read again
 * costs what it did, in scripts/extract-cost too).
 */
static _Thread_local struct {
	int set;
	double x[UK_EX_NPF], raw[UK_EX_NTYPES];
} last_type;

void
uk_ex_trees_eval(const struct uk_ex_trees *m, const double *x, double *raw)
{
	int k, type = m == &uk_ex_type_model && m->nclass <= UK_EX_NTYPES;

	if (type && last_type.set &&
	    !memcmp(last_type.x, x, sizeof(last_type.x))) {
		memcpy(raw, last_type.raw, (size_t)m->nclass * sizeof(*raw));
		last_type.set = 0;
		return;
	}
	for (k = 0; k < m->nclass; k++)
		raw[k] = m->base[k];
	/* x <= thr goes left; features are finite (no NaN). */
	for (k = 0; k < m->nadd; k++)
		m->add[k](x, raw);
	if (type) {
		memcpy(last_type.x, x, sizeof(last_type.x));
		memcpy(last_type.raw, raw, (size_t)m->nclass * sizeof(*raw));
		last_type.set = 1;
	}
}

double
uk_ex_trees_side(const struct uk_ex_trees *m, const double *x,
    const double *t, int nt)
{
	double s = m->base[0], lo, hi, eps;
	int j, i;

	for (j = 0; j < m->nadd; j++) {
		m->add[j](x, &s);
		if (!m->rest || j + 1 == m->nadd)
			continue;
		/*
		 * The score ends within [lo, hi]: the leaves' bounds, widened
		 * by far more than the rounding of the additions left (each
		 * within half an ulp of a partial sum, some 1e-16 of it).
		 */
		eps = 1e-9 * (1 + (s < 0 ? -s : s) + m->rest[2 * j] -
		    m->rest[2 * j + 1]);
		lo = s + m->rest[2 * j + 1] - eps;
		hi = s + m->rest[2 * j] + eps;
		for (i = 0; i < nt && (hi < t[i] || lo >= t[i]); i++)
			;
		if (i == nt)
			return lo;
	}
	return s;
}
