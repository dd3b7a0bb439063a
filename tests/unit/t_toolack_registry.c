/* SPDX-License-Identifier: MIT */
/* Unit tests of the pending registry (lib/toolack_registry). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "toolack_registry.h"
#define TAP_PREFIX "toolack_registry: "
#include "tap.h"

#include "banned.h"

static int resolved;
/* Two executors' identities for the claims: only their addresses count. */
static int executor_a, executor_b;
static char last[512];

static void
on_resolve(void *ctx, struct uk_toolack_registry_call *c, const char *result)
{
	(void)ctx;
	(void)c;
	resolved++;
	snprintf(last, sizeof(last), "%s", result);
}

static int
has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

int
main(void)
{
	struct uk_toolack_registry_opts o = { .max_done = 3,
		.done_ms = 5000,
		.on_resolve = on_resolve };
	struct uk_toolack_registry *r = uk_toolack_registry_new(&o);
	struct uk_toolack_registry_call *c, *c2;
	const struct uk_toolack_registry_done *d;
	yajl_val out = uk_json_parse("{\"url\":\"https://x.org/\"}", 24, NULL);
	char id[32];
	int existed, i, inorder;
	long long t;

	c = uk_toolack_registry_add(r, "a", "open_url",
	    "{\"url\":\"https://x.org/\"}", 60, "2026-01-01T00:00:00.000Z", 0,
	    &existed);
	ok(c && !existed && uk_toolack_registry_pending(r) == 1,
	    "add registers");
	ok(uk_toolack_registry_find(r, "a") == c &&
		!uk_toolack_registry_find(r, "b"),
	    "find");
	c2 = uk_toolack_registry_add(r, "a", "open_url", NULL, 5, NULL, 10,
	    &existed);
	ok(!c2 && existed == UK_TOOLACK_REGISTRY_ID_PENDING &&
		c->deadline == 60000 && uk_toolack_registry_pending(r) == 1,
	    "a pending id is refused, the call unchanged");
	ok(uk_toolack_registry_ack(r, "a", "success", out, NULL, NULL, 100) ==
		    UK_TOOLACK_REGISTRY_OK &&
		resolved == 1,
	    "ack resolves a pending call");
	ok(has(last, "\"toolCallId\":\"a\"") &&
		has(last, "\"status\":\"success\"") &&
		has(last, "\"output\":{\"url\":\"https://x.org/\"}") &&
		has(last, "\"errorText\":null") &&
		has(last, "\"requestedAt\":\"2026-01-01T00:00:00.000Z\""),
	    "result is the ack record");
	ok(!uk_toolack_registry_find(r, "a") &&
		uk_toolack_registry_pending(r) == 0,
	    "resolved call is no longer pending");
	ok(uk_toolack_registry_ack(r, "a", "failed", NULL, "x", NULL, 200) ==
		    UK_TOOLACK_REGISTRY_IGNORED &&
		resolved == 1,
	    "repeated ack is ignored: the first wins");
	d = uk_toolack_registry_done(r, "a");
	ok(d && has(d->result, "success"), "done keeps the first result");
	ok(!uk_toolack_registry_add(r, "a", "open_url", NULL, 5, NULL, 300,
	       &existed) &&
		existed == UK_TOOLACK_REGISTRY_ID_RECENT &&
		uk_toolack_registry_pending(r) == 0 &&
		has(uk_toolack_registry_done(r, "a")->result, "success"),
	    "an id resolved lately is refused, its result kept");
	ok(!uk_toolack_registry_refuse(r, "a", "x", 300) &&
		has(uk_toolack_registry_done(r, "a")->result, "success"),
	    "an id resolved lately is not refused over");
	ok(uk_toolack_registry_ack(r, "zz", "success", NULL, NULL, NULL, 200) ==
		UK_TOOLACK_REGISTRY_UNKNOWN,
	    "unknown id");

	/* Timeout. */
	uk_toolack_registry_add(r, "t1", "open_url", NULL, 2, NULL, 1000, NULL);
	uk_toolack_registry_add(r, "t2", "open_url", NULL, 1, NULL, 1000, NULL);
	ok(uk_toolack_registry_next_deadline(r) == 2000,
	    "next deadline is the earliest");
	ok(uk_toolack_registry_expire(r, 1999) == 0 &&
		uk_toolack_registry_pending(r) == 2,
	    "nothing expires before its deadline");
	ok(uk_toolack_registry_expire(r, 2000) == 1 &&
		uk_toolack_registry_find(r, "t1") &&
		!uk_toolack_registry_find(r, "t2"),
	    "expire resolves the call at its deadline");
	ok(has(last, "\"status\":\"timeout\"") && has(last, "\"t2\""),
	    "timeout result");
	ok(uk_toolack_registry_ack(r, "t2", "success", NULL, NULL, NULL,
	       2001) == UK_TOOLACK_REGISTRY_EXPIRED,
	    "ack after the deadline: expired");
	ok(uk_toolack_registry_expire(r, 3000) == 1 &&
		uk_toolack_registry_pending(r) == 0,
	    "second expires");
	ok(uk_toolack_registry_done(r, "t2") != NULL,
	    "expired id is remembered");
	ok(uk_toolack_registry_expire(r, 7000) == 0 &&
		!uk_toolack_registry_done(r, "t2") &&
		uk_toolack_registry_ack(r, "t2", "success", NULL, NULL, NULL,
		    7001) == UK_TOOLACK_REGISTRY_UNKNOWN,
	    "expired ids are forgotten after a while");
	c = uk_toolack_registry_add(r, "t2", "open_url", NULL, 1, NULL, 7002,
	    &existed);
	ok(c && !existed, "an id is taken again once forgotten");
	uk_toolack_registry_expire(r, 9000);

	/* Refused at once. */
	ok(uk_toolack_registry_refuse(r, "bad", "scheme not allowed", 7000) !=
		    NULL &&
		uk_toolack_registry_pending(r) == 0 &&
		!uk_toolack_registry_find(r, "bad"),
	    "a refused call never becomes pending");
	ok(uk_toolack_registry_ack(r, "bad", "success", NULL, NULL, NULL,
	       7001) == UK_TOOLACK_REGISTRY_EXPIRED,
	    "ack of a refused call: 410");

	/* Bounded done entries. */
	for (i = 0; i < 10; i++) {
		snprintf(id, sizeof(id), "b%d", i);
		uk_toolack_registry_refuse(r, id, "x", 7002);
	}
	ok(uk_toolack_registry_ndone(r) == 3 &&
		uk_toolack_registry_done(r, "b9") &&
		!uk_toolack_registry_done(r, "b0"),
	    "done entries are bounded, oldest forgotten");

	/* Many pending, resolved in any order, heap stays consistent. */
	resolved = 0;
	for (i = 0; i < 5000; i++) {
		snprintf(id, sizeof(id), "m%d", i);
		uk_toolack_registry_add(r, id, "x", NULL, 1 + (i * 7919) % 50,
		    NULL, 10000, NULL);
	}
	inorder = 1;
	i = 0;
	for (c = uk_toolack_registry_first(r); c;
	     c = uk_toolack_registry_next(c), i++) {
		snprintf(id, sizeof(id), "m%d", i);
		inorder &= !strcmp(c->id, id);
	}
	ok(uk_toolack_registry_pending(r) == 5000 && inorder,
	    "5000 pending, listed in registration order");
	for (i = 0; i < 5000; i += 3) {
		snprintf(id, sizeof(id), "m%d", i);
		uk_toolack_registry_ack(r, id, "success", NULL, NULL, NULL,
		    10000);
	}
	t = uk_toolack_registry_next_deadline(r);
	ok(t == 11000 + 1000LL * 0 || t >= 11000, "deadline after acks");
	for (t = 10000; uk_toolack_registry_pending(r); t += 500)
		uk_toolack_registry_expire(r, t);
	ok(resolved == 5000 && t <= 10000 + 51000,
	    "every call resolved once, by ack or timeout");

	/* Claims. */
	c = uk_toolack_registry_add(r, "o1", "x", NULL, 60, NULL, 0, NULL);
	c->owner = &executor_a;
	c2 = uk_toolack_registry_add(r, "o2", "x", NULL, 60, NULL, 0, NULL);
	c2->owner = &executor_b;
	ok(uk_toolack_registry_release_owner(r, &executor_a) == 1 &&
		!c->owner && c2->owner == &executor_b,
	    "release_owner frees one executor's claims");

	ok(uk_toolack_registry_status_ok("success") &&
		uk_toolack_registry_status_ok("failed") &&
		uk_toolack_registry_status_ok("timeout") &&
		!uk_toolack_registry_status_ok("ok") &&
		!uk_toolack_registry_status_ok(NULL),
	    "status values");
	ok(uk_toolack_registry_time_ok("2025-02-01T12:34:56.789Z") &&
		uk_toolack_registry_time_ok("2025-02-01T12:34:56Z") &&
		uk_toolack_registry_time_ok("2024-02-29T00:00:00+02:00") &&
		!uk_toolack_registry_time_ok("2025-02-29T00:00:00Z") &&
		!uk_toolack_registry_time_ok("2025-13-01T00:00:00Z") &&
		!uk_toolack_registry_time_ok("2025-02-01 12:34:56Z") &&
		!uk_toolack_registry_time_ok("2025-02-01T12:34:56") &&
		!uk_toolack_registry_time_ok("yesterday") &&
		!uk_toolack_registry_time_ok(NULL),
	    "ISO 8601 times");

	uk_json_free(out);
	uk_toolack_registry_free(r);
	return tap_done();
}
