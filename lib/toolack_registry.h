/* SPDX-License-Identifier: MIT */
#ifndef UK_TOOLACK_REGISTRY_H
#define UK_TOOLACK_REGISTRY_H

/*
 * The pending registry of frontend-executed tool calls: toolCallId -> a
 * call waiting for its ack, with a deadline.  The first ack wins; at the
 * deadline the call resolves as "timeout".  A resolved call leaves a
 * "done" entry behind for a while (bounded in number and in time), so a
 * repeated ack is told it was ignored, an ack after the deadline is told
 * the call expired (HTTP 410), and a late waiter still gets the result.
 *
 * The registry knows no clock and no threads: every function that needs
 * the time takes now, in milliseconds of the caller's monotonic clock,
 * and the caller serialises access.  It scales to many thousands of
 * pending calls: lookups are hashed, deadlines sit in a binary heap.
 */

#include <stddef.h>

struct yajl_val_s;

/* What uk_toolack_registry_ack answers. */
#define UK_TOOLACK_REGISTRY_OK      0 /* the call was pending, now resolved */
#define UK_TOOLACK_REGISTRY_IGNORED 1 /* already acked: the first ack won */
#define UK_TOOLACK_REGISTRY_UNKNOWN 2 /* no such call (HTTP 404) */
#define UK_TOOLACK_REGISTRY_EXPIRED                                            \
	3 /* it timed out, or was refused (HTTP 410) */

/* How a call was resolved; kept in its done entry. */
enum uk_toolack_registry_how {
	UK_TOOLACK_REGISTRY_ACKED,   /* by an ack */
	UK_TOOLACK_REGISTRY_TIMEOUT, /* by its deadline */
	UK_TOOLACK_REGISTRY_REFUSED /* at once, by _refuse (invalid input) */
};

/*
 * A pending call.  The registry owns the strings; the caller may use owner
 * and udata as it likes (the registry only reads owner in
 * uk_toolack_registry_release_owner and never touches udata).
 */
struct uk_toolack_registry_call {
	char *id;
	char *tool;
	char *input;        /* compact JSON text of the tool's input */
	char *requested_at; /* RFC 3339, when the call was registered */
	long long deadline; /* ms on the caller's clock */
	long timeout_sec;
	unsigned long long seq; /* registration order, from 1: an event id */
	void *owner;            /* the executor that claimed it, or NULL */
	void *udata;            /* the caller's: e.g. who waits for it */
	/* Private. */
	size_t heap_i;
	struct uk_toolack_registry_call *hnext, *prev, *next;
};

/* A resolved call, remembered for a while. */
struct uk_toolack_registry_done {
	char *id;
	enum uk_toolack_registry_how how;
	char *result; /* the ack record, compact JSON */
	long long until;
	/* Private. */
	struct uk_toolack_registry_done *hnext, *fnext;
};

/*
 * Called when a pending call resolves (ack or timeout), with the ack
 * record as compact JSON, before the call is freed.  The callback must not
 * add, ack or expire calls of the same registry.
 */
typedef void uk_toolack_registry_resolve_fn(void *ctx,
    struct uk_toolack_registry_call *c, const char *result);

struct uk_toolack_registry_opts {
	size_t max_done;   /* done entries kept (oldest forgotten first) */
	long long done_ms; /* how long a done entry is kept */
	uk_toolack_registry_resolve_fn *on_resolve; /* may be NULL */
	void *ctx;
};
#define UK_TOOLACK_REGISTRY_MAX_DONE 10000
#define UK_TOOLACK_REGISTRY_DONE_MS  (60LL * 60 * 1000) /* an hour */

/* Why uk_toolack_registry_add refused an id (its *existed). */
#define UK_TOOLACK_REGISTRY_ID_PENDING 1 /* a call of that id is pending */
#define UK_TOOLACK_REGISTRY_ID_RECENT  2 /* a call of that id resolved lately */

struct uk_toolack_registry;

/* A new registry; opts may be NULL for the defaults above. */
struct uk_toolack_registry *uk_toolack_registry_new(
    const struct uk_toolack_registry_opts *opts);
/* Free the registry and every call and done entry, without callbacks. */
void uk_toolack_registry_free(struct uk_toolack_registry *r);

/*
 * Register a call id for tool with input (compact JSON text, NULL for
 * {}), resolving as timeout timeout_sec seconds after now.  Returns the
 * new call with *existed set to 0.  An id is never reused while its call
 * is pending or its done entry is kept (done_ms, an hour by default): a
 * frontend that already ran the old call would take the new one for a
 * replay.  Then nothing changes, NULL is returned and *existed is
 * UK_TOOLACK_REGISTRY_ID_PENDING or UK_TOOLACK_REGISTRY_ID_RECENT.  existed
 * may be NULL.
 * requested_at may be NULL for the current time.
 */
struct uk_toolack_registry_call *
uk_toolack_registry_add(struct uk_toolack_registry *r, const char *id,
    const char *tool, const char *input, long timeout_sec,
    const char *requested_at, long long now, int *existed);

/*
 * Record a call that is refused at once (invalid input): it never becomes
 * pending, and its done entry holds a "failed" ack with error_text.  The
 * result is returned (owned by the registry, valid until the next call
 * that changes it), or NULL when id is pending or done (nothing done).
 */
const char *uk_toolack_registry_refuse(struct uk_toolack_registry *r,
    const char *id, const char *error_text, long long now);

/* The pending call id, or NULL. */
struct uk_toolack_registry_call *
uk_toolack_registry_find(struct uk_toolack_registry *r, const char *id);
/* The done entry of id, or NULL. */
const struct uk_toolack_registry_done *
uk_toolack_registry_done(struct uk_toolack_registry *r, const char *id);

/*
 * Ack id with status ("success", "failed" or "timeout"), output (any JSON
 * value or NULL), error_text (or NULL) and requested_at (or NULL: the
 * call's own).  Returns one of UK_TOOLACK_REGISTRY_OK, _IGNORED, _UNKNOWN,
 * _EXPIRED; on OK the call is resolved (on_resolve runs) and freed.
 */
int uk_toolack_registry_ack(struct uk_toolack_registry *r, const char *id,
    const char *status, struct yajl_val_s *output, const char *error_text,
    const char *requested_at, long long now);

/*
 * Resolve every call whose deadline is at or before now as "timeout", and
 * forget done entries past their time.  Returns how many calls timed out.
 */
size_t uk_toolack_registry_expire(struct uk_toolack_registry *r, long long now);
/* The earliest deadline of a pending call, or -1 when none is pending. */
long long uk_toolack_registry_next_deadline(
    const struct uk_toolack_registry *r);

/*
 * Pending calls in registration order: first, then next until NULL (the
 * registry's: valid until the registry next changes).
 */
struct uk_toolack_registry_call *uk_toolack_registry_first(
    struct uk_toolack_registry *r);
#define uk_toolack_registry_next(c) ((c)->next)
/* How many calls are pending, and how many done entries are kept. */
size_t uk_toolack_registry_pending(const struct uk_toolack_registry *r);
size_t uk_toolack_registry_ndone(const struct uk_toolack_registry *r);

/*
 * Set owner to NULL on every pending call that owner holds (an executor
 * gone: its calls go to the next one).  Returns how many it held.
 */
size_t uk_toolack_registry_release_owner(struct uk_toolack_registry *r,
    void *owner);

/* Whether s is a valid ack status (1) or not (0). */
int uk_toolack_registry_status_ok(const char *s);
/*
 * Whether s is an ISO 8601 / RFC 3339 date-time:
 * YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM), with a valid calendar date.
 */
int uk_toolack_registry_time_ok(const char *s);

#endif
