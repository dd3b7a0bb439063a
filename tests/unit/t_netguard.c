/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/netguard's asynchronous verdicts (TAP): numeric
 * addresses at once, names on a look-up thread, cookies handed back once,
 * verdicts kept.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "netguard.h"
#include "tap.h"
#include "util.h"

struct answers {
	int n, ok[8];
	void *cookie[8];
	char addr[8][64];
};

static void
answer(void *ctx, void *cookie, int ok, const char *addr)
{
	struct answers *a = ctx;

	if (a->n < 8) {
		a->ok[a->n] = ok;
		a->cookie[a->n] = cookie;
		snprintf(a->addr[a->n], sizeof(a->addr[0]), "%s", addr);
	}
	a->n++;
}

/* The verdict cookie got: 1 or 0, -1 when none, -2 when more than one. */
static int
got(const struct answers *a, void *cookie)
{
	int i, r = -1;

	for (i = 0; i < a->n && i < 8; i++)
		if (a->cookie[i] == cookie)
			r = r == -1 ? a->ok[i] : -2;
	return r;
}

/* Read verdicts until want answers came or 10 s passed. */
static void
wait_answers(struct uk_netguard_async *g, struct answers *a, int want)
{
	double end = uk_util_mono_now() + 10;
	struct pollfd p;

	while (a->n < want && uk_util_mono_now() < end) {
		p.fd = uk_netguard_async_fd(g);
		p.events = POLLIN;
		if (p.fd < 0)
			break;
		poll(&p, 1, 100);
		while (uk_netguard_async_read(g, answer, a))
			;
	}
}

int
main(void)
{
	struct uk_netguard_async g;
	struct answers a;
	int c1, c2, c3;

	unsetenv("URLKIT_ALLOW_PRIVATE");
	memset(&a, 0, sizeof(a));
	uk_netguard_async_init(&g);
	ok(uk_netguard_async_fd(&g) == -1, "no look-up, nothing to poll");
	ok(uk_netguard_async_verdict(&g, "127.0.0.2") == 0,
	    "a loopback address is refused at once");
	ok(uk_netguard_async_verdict(&g, "203.0.113.7") == 1,
	    "a public address is allowed at once");
	ok(uk_netguard_async_verdict(&g, "localhost") == -1,
	    "a name is not known before its look-up");
	uk_netguard_async_wait(&g, "localhost", &c1);
	uk_netguard_async_wait(&g, "localhost", &c2);
	uk_netguard_async_wait(&g, "name.invalid", &c3);
	ok(uk_netguard_async_fd(&g) >= 0, "a look-up runs: a pipe to poll");
	wait_answers(&g, &a, 3);
	ok(a.n == 3, "every cookie answered once (%d)", a.n);
	ok(got(&a, &c1) == 0 && got(&a, &c2) == 0,
	    "localhost refused, for both of its cookies");
	ok(got(&a, &c3) == 1,
	    "a name that does not resolve is let through (the browser says)");
	ok(uk_netguard_async_verdict(&g, "localhost") == 0,
	    "the verdict is kept");
	ok(!uk_netguard_async_read(&g, answer, &a), "nothing more to read");
	uk_netguard_async_release(&g, free);
	return tap_done();
}
