/* SPDX-License-Identifier: MIT */
#ifndef UK_TAP_H
#define UK_TAP_H

/* A few lines of TAP for the C unit tests: ok(cond, fmt, ...), done(). */

#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                     \
	do {                                                              \
		int ok_ = (cond);                                         \
		tap_n++;                                                  \
		if (!ok_)                                                 \
			tap_failed++;                                     \
		printf("%sok %d - ", ok_ ? "" : "not ", tap_n);          \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
	} while (0)

#define tap_done() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)

#endif
