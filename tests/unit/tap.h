/* SPDX-License-Identifier: MIT */
#ifndef UK_TAP_H
#define UK_TAP_H

/*
 * A few lines of TAP for the C unit tests.
 *
 * ok(cond, fmt, ...) prints "ok N - " or "not ok N - ", then the
 * description formatted as printf does; tap_done() prints the plan
 * "1..N" and gives main() its exit status: 0 when every test passed, 1
 * otherwise.  A test file that wants every description to begin with the
 * module's name defines TAP_PREFIX (a string literal, "sse: ") before
 * including this header.
 */

#include <stdio.h>

#ifndef TAP_PREFIX
#define TAP_PREFIX ""
#endif

static int tap_n, tap_failed;

#define ok(cond, ...)                                                     \
	do {                                                              \
		int ok_ = (cond);                                         \
		tap_n++;                                                  \
		if (!ok_)                                                 \
			tap_failed++;                                     \
		printf("%sok %d - " TAP_PREFIX, ok_ ? "" : "not ", tap_n); \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
	} while (0)

#define tap_done() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)

#endif
