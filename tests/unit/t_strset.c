/* SPDX-License-Identifier: MIT */
/*
 * uk_strset against a plain list: strings of every length from 0 to 40
 * (each tail of the hash: 0-3, 4-7, 8-15, 16 and up), strings that
 * differ in one byte only, many repeats, through the table's growth from
 * the malloc'd sizes to the mapped ones, a reset and the set filled
 * again, with a fixed seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "tap.h"

#define TAP_N 60000

/* The i-th string of the run: of length i % 41, bytes from i, NULs. */
static size_t
make(unsigned long i, char *out)
{
	size_t n = i % 41, k;
	unsigned long x = i / 41 * 2654435761UL;

	for (k = 0; k < n; k++) {
		out[k] = (char)(x >> (k % 24));
		if (k % 7 == 3)
			out[k] = 0;
	}
	/* A last byte under 0x80: the tests' others end in one above. */
	if (n)
		out[n - 1] &= 0x7f;
	return n;
}

static char strs[TAP_N][41];
static size_t lens[TAP_N];
static unsigned long order[TAP_N];
static int first[TAP_N]; /* the string's first time in the run */

static int
by_string(const void *a, const void *b)
{
	unsigned long i = *(const unsigned long *)a, j = *(const unsigned long *)b;
	int c;

	if (lens[i] != lens[j])
		return lens[i] < lens[j] ? -1 : 1;
	if ((c = memcmp(strs[i], strs[j], lens[i])))
		return c;
	return i < j ? -1 : i > j;
}

int
main(void)
{
	struct uk_strset s = UK_STRSET_INIT;
	char buf[64], other[64];
	unsigned long i;
	size_t n;
	int round, bad_new, bad_again, bad_has, bad_not;
	size_t distinct = 0;

	/* What is new when, from the strings sorted. */
	for (i = 0; i < TAP_N; i++) {
		lens[i] = make(i, strs[i]);
		order[i] = i;
	}
	qsort(order, TAP_N, sizeof(*order), by_string);
	for (i = 0; i < TAP_N; i++)
		if (!i || lens[order[i - 1]] != lens[order[i]] ||
		    memcmp(strs[order[i - 1]], strs[order[i]], lens[order[i]])) {
			first[order[i]] = 1;
			distinct++;
		}

	for (round = 0; round < 2; round++) {
		bad_new = bad_again = bad_has = bad_not = 0;
		for (i = 0; i < TAP_N; i++) {
			n = make(i, buf);
			if (uk_strset_add(&s, buf, n) != first[i])
				bad_new++;
			if (uk_strset_add(&s, buf, n) != 0)
				bad_again++;
		}
		for (i = 0; i < TAP_N; i++) {
			n = make(i, buf);
			if (!uk_strset_has(&s, buf, n))
				bad_has++;
			if (!n)
				continue;
			/* The same string with its last byte changed, or one
			 * byte longer: none was added. */
			memcpy(other, buf, n);
			other[n - 1] ^= (char)0x80;
			if (uk_strset_has(&s, other, n))
				bad_not++;
			other[n - 1] ^= (char)0x80;
			other[n] = (char)0x80;
			if (uk_strset_has(&s, other, n + 1))
				bad_not++;
		}
		ok(bad_new == 0, "round %d: every string new once (%d wrong)",
		    round, bad_new);
		ok(bad_again == 0, "round %d: every string a repeat after (%d)",
		    round, bad_again);
		ok(bad_has == 0, "round %d: has every string added (%d)", round,
		    bad_has);
		ok(bad_not == 0, "round %d: has none of the others (%d)", round,
		    bad_not);
		ok(s.len == distinct && distinct > TAP_N / 2,
		    "round %d: %zu strings (%zu distinct)", round, s.len,
		    distinct);
		uk_strset_reset(&s);
		ok(s.len == 0 && !uk_strset_has(&s, "", 0) &&
		    !uk_strset_has(&s, buf, make(TAP_N - 1, buf)),
		    "round %d: reset empties it", round);
	}
	uk_strset_release(&s);
	ok(!uk_strset_has(&s, "", 0) && uk_strset_add(&s, "a", 1) &&
	    !uk_strset_add(&s, "a", 1), "released, then used again");
	uk_strset_release(&s);
	return tap_done();
}
