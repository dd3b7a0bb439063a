/* SPDX-License-Identifier: MIT */
#ifndef UK_CHILD_H
#define UK_CHILD_H

/*
 * Running a child program and collecting what it prints, in the manner of
 * git's run-command.h: one struct describes the child, uk_child_start
 * starts it and uk_child_finish waits for it.
 *
 * The child runs without a shell (argv[0] is looked up in PATH), with
 * standard input from /dev/null and standard output and error on pipes to
 * us.  It leads a process group of its own, so that whatever it starts is
 * stopped with it, and it gets the signals as a shell would give them
 * (nothing blocked; SIGPIPE, SIGTERM and SIGINT at their defaults).
 *
 * Usage:
 *
 *     struct uk_child c = UK_CHILD_INIT;
 *
 *     c.argv = argv;
 *     c.deadline = uk_util_mono_ms() + 30000;
 *     c.out = &out;
 *     c.err = &err;
 *     if (uk_child_start(&c, &e))
 *             ... e.msg says why ...
 *     status = uk_child_finish(&c);
 *     ... WIFEXITED(status), c.timed_out, c.out_cut ...
 *
 * Safe to use from several threads at once, each with its own struct.
 */

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "util.h"

/* The grace a child gets between SIGTERM (on stop) and SIGKILL. */
#define UK_CHILD_GRACE_MS 2000

struct uk_child {
	/* Set by the caller; not copied, they must outlive the child. */
	const char *const *argv; /* NULL-terminated, argv[0] the program */
	/* NAME=VALUE strings, NULL-terminated, added to the environment
	 * (each replaces a variable of the same name), or NULL. */
	const char *const *env;
	long long deadline; /* uk_util_mono_ms() time of the SIGKILL, 0: none */
	/* When *stop becomes non-zero, the group gets SIGTERM, then SIGKILL
	 * UK_CHILD_GRACE_MS later (or at the deadline if sooner).  May be
	 * NULL.  A signal handler sets it, so it is polled every 200 ms. */
	const volatile sig_atomic_t *stop;
	/* Where the child's output goes (appended), or NULL to drop it. */
	struct uk_buf *out, *err;
	size_t max; /* bytes kept of each, 0: no limit; the rest is read
	             * and dropped */

	/* Results, set by uk_child_start and uk_child_finish. */
	pid_t pid;
	int timed_out; /* killed at the deadline (or the stop's grace end) */
	int out_cut;   /* standard output was over max: out holds the start */

	/* Private. */
	int out_fd, err_fd;
};

#define UK_CHILD_INIT                                                          \
	{                                                                      \
		.out_fd = -1, .err_fd = -1                                     \
	}

/*
 * Start the child c describes.  Returns 0, or -1 with err filled ("cannot
 * run 'prog': No such file or directory"; code UK_EXIT_FAIL) when it could
 * not be started; then there is nothing to finish.
 */
int uk_child_start(struct uk_child *c, struct uk_err *err);

/*
 * Read the child's output into c->out and c->err until both pipes close,
 * killing its process group at the deadline (c->timed_out is then set),
 * then reap it.  Returns its wait status (for WIFEXITED and friends), or
 * -1 when it could not be waited for.
 */
int uk_child_finish(struct uk_child *c);

/*
 * In a child just forked (no exec to follow), keep standard input, output
 * and error and fd, and close every other descriptor the parent had open:
 * another thread's pipes must not stay open in the child, or their reader
 * waits for its end.  Returns the descriptor fd now has (3 unless fd was
 * below 3), or -1 if it could not be moved.
 */
int uk_child_keep_fd(int fd);

#endif
