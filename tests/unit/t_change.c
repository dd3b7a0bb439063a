/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of what "what changed" is made of: the line diff (lib/diff),
 * SHA-256 (lib/sha256) and the RFC 3339 parse (uk_util_time_parse).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "diff.h"
#include "sha256.h"
#include "util.h"
#define TAP_PREFIX "change: "
#include "tap.h"

#include "banned.h"

/* The diff of a against b, max lines, into a buffer the next call reuses;
 * NULL when too large. */
static const char *
diff(const char *a, const char *b, long max, int *cut)
{
	static struct uk_buf o = UK_BUF_INIT;

	uk_buf_reset(&o);
	if (uk_diff_unified(a, strlen(a), b, strlen(b), max, &o, cut))
		return NULL;
	return o.len ? o.buf : "";
}

/*
 * Apply the unified diff d to a (each line ending in '\n') into out: what
 * patch(1) does, checking every context and deleted line.  0, or -1 when
 * the diff does not apply.
 */
static int
apply(const char *a, const char *d, struct uk_buf *out)
{
	const char *p = a, *q = d, *nl, *e;
	long at = 1, from, n;

	q = strstr(q, "+++ current\n");
	if (!q)
		return *d ? -1 : (uk_buf_addstr(out, a), 0);
	q += strlen("+++ current\n");
	while (*q) {
		if (sscanf(q, "@@ -%ld", &from) != 1)
			return -1;
		if (!strchr(strchr(q, ' ') + 1, ',') ||
		    strchr(strchr(q, ' ') + 1, ',') > strchr(q, '+'))
			n = 1;
		else
			n = strtol(strchr(strchr(q, ' ') + 1, ',') + 1, NULL, 10);
		if (n == 0)
			from++; /* an empty range names the line before */
		for (; at < from; at++) { /* the lines before the hunk */
			nl = strchr(p, '\n');
			uk_buf_add(out, p, (size_t)(nl - p + 1));
			p = nl + 1;
		}
		q = strchr(q, '\n') + 1;
		while (*q && *q != '@') {
			e = strchr(q, '\n');
			if (*q == ' ' || *q == '-') {
				nl = strchr(p, '\n');
				if (!nl || nl - p != e - q - 1 ||
				    memcmp(p, q + 1, (size_t)(nl - p)))
					return -1;
				if (*q == ' ')
					uk_buf_add(out, p, (size_t)(nl - p + 1));
				p = nl + 1;
				at++;
			} else if (*q == '+') {
				uk_buf_add(out, q + 1, (size_t)(e - q));
			} else {
				return -1;
			}
			q = e + 1;
		}
	}
	uk_buf_addstr(out, p);
	return 0;
}

/* A text of n lines, each one of k words chosen by seed. */
static void
text(struct uk_buf *b, int n, int k, unsigned *seed)
{
	int i;

	uk_buf_reset(b);
	for (i = 0; i < n; i++)
		uk_buf_addf(b, "w%d\n", (int)(rand_r(seed) % (unsigned)k));
}

static void
diffs_apply(void)
{
	struct uk_buf a = UK_BUF_INIT, b = UK_BUF_INIT, out = UK_BUF_INIT;
	unsigned seed = 7;
	const char *d;
	int i, bad = -1, cut;

	for (i = 0; i < 300 && bad < 0; i++) {
		text(&a, (int)(rand_r(&seed) % 40), 1 + i % 6, &seed);
		text(&b, (int)(rand_r(&seed) % 40), 1 + i % 6, &seed);
		d = diff(a.buf ? a.buf : "", b.buf ? b.buf : "", 100000, &cut);
		uk_buf_reset(&out);
		if (!d || cut || apply(a.buf ? a.buf : "", d, &out) ||
		    strcmp(out.buf ? out.buf : "", b.buf ? b.buf : ""))
			bad = i;
	}
	ok(bad < 0, "300 random pairs: each diff applied to the old text "
		    "gives the new one");
	if (bad >= 0)
		printf("# pair %d:\n# a=%s\n# b=%s\n# diff=%s\n", bad, a.buf,
		    b.buf, d ? d : "(none)");
	uk_buf_release(&a);
	uk_buf_release(&b);
	uk_buf_release(&out);
}

static void
diffs(void)
{
	struct uk_buf a = UK_BUF_INIT, b = UK_BUF_INIT;
	const char *d;
	int cut = -1, i;

	d = diff("a\nb\nc\n", "a\nb\nc\n", 200, &cut);
	ok(d && !*d && !cut, "equal texts: no diff");
	d = diff("a\nb\nc\n", "a\nB\nc\n", 200, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n@@ -1,3 +1,3 @@\n"
			    " a\n-b\n+B\n c\n") &&
		!cut,
	    "one line changed: diff -u's hunk");
	d = diff("", "x\n", 200, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n@@ -0,0 +1 @@\n+x\n"),
	    "from nothing: -0,0 +1");
	d = diff("x", "", 200, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n@@ -1 +0,0 @@\n-x\n"),
	    "to nothing, a last line without newline");
	d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
	    "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n", 200, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n"
			   "@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n"
			   "@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"),
	    "changes 9 lines apart: two hunks");
	d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n",
	    200, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n"
			   "@@ -1,9 +1,9 @@\n 1\n-2\n+X\n 3\n 4\n 5\n 6\n 7\n"
			   " 8\n-9\n+Y\n"),
	    "changes 6 lines apart: one hunk");
	d = diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n",
	    6, &cut);
	ok(d && !strcmp(d, "--- previous\n+++ current\n"
			   "@@ -1,9 +1,9 @@\n 1\n-2\n+X\n") &&
		cut == 1,
	    "max 6 lines: cut there, truncated");
	/* Too large: more edits than the bound, past the common head. */
	uk_buf_addstr(&a, "same head\n");
	uk_buf_addstr(&b, "same head\n");
	for (i = 0; i < (int)UK_DIFF_MAX_EDITS; i++) {
		uk_buf_addf(&a, "a%d\n", i);
		uk_buf_addf(&b, "b%d\n", i);
	}
	d = diff(a.buf, b.buf, 200, &cut);
	ok(d == NULL, "%ld lines replaced: too large, no diff",
	    UK_DIFF_MAX_EDITS);
	/* A long text with one change: the head and tail are skipped. */
	uk_buf_reset(&a);
	uk_buf_reset(&b);
	for (i = 0; i < 200000; i++) {
		uk_buf_addf(&a, "line %d\n", i);
		uk_buf_addf(&b, "line %d\n", i == 100000 ? -1 : i);
	}
	d = diff(a.buf, b.buf, 200, &cut);
	ok(d && strstr(d, "@@ -99998,7 +99998,7 @@\n") &&
		strstr(d, "-line 100000\n+line -1\n"),
	    "200,000 lines, one changed: its hunk");
	uk_buf_release(&a);
	uk_buf_release(&b);
	diffs_apply();
}

static void
hashes(void)
{
	char hex[65];

	uk_sha256_hex("", 0, hex);
	ok(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4"
			"95991b7852b855"),
	    "SHA-256 of nothing");
	uk_sha256_hex("abc", 3, hex);
	ok(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb4"
			"10ff61f20015ad"),
	    "SHA-256 of abc");
}

static void
times(void)
{
	long long t;

	t = uk_util_time_parse("2026-11-24T14:30:00Z", 20);
	ok(t == 1795530600LL * 1000000000LL,
	    "RFC 3339 without a fraction: %lld", t);
	t = uk_util_time_parse("2026-11-24T14:30:00.250Z", 24);
	ok(t == 1795530600LL * 1000000000LL + 250000000LL,
	    "with a fraction, kept: %lld", t);
	ok(uk_util_time_parse("2026-11-24T14:30:00.Z", 21) == -1,
	    "a dot without digits: refused");
	ok(uk_util_time_parse("2026-11-24T14:30:00", 19) == -1,
	    "no Z: refused");
	ok(uk_util_time_parse("2026-11-24T14:30:00Zx", 21) == -1,
	    "trailing bytes: refused");
	ok(uk_util_time_parse("2026-11-24 14:30:00Z", 20) == -1,
	    "no T: refused");
}

int
main(void)
{
	diffs();
	hashes();
	times();
	return tap_done();
}
