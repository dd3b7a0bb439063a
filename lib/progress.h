/* SPDX-License-Identifier: MIT */
#ifndef UK_PROGRESS_H
#define UK_PROGRESS_H

/*
 * A progress line for long work: one line on a terminal, rewritten in
 * place with a carriage return, at most once per interval, cut to the
 * terminal's width, and erased when the work is done.
 *
 * It shows only when the descriptor given (stderr, as a rule) is a
 * terminal and the program was not told to be quiet (-q); otherwise every
 * call does nothing, so callers need no tests of their own.  This is the
 * one library module that writes: to the descriptor its caller names, and
 * only when that is a terminal.
 *
 *	struct uk_progress p;
 *
 *	uk_progress_init(&p, STDERR_FILENO, quiet);
 *	for (i = 0; i < n; i++) {
 *		uk_progress_show(&p, 0, "%zu/%zu %s", i, n, host);
 *		...
 *	}
 *	uk_progress_done(&p);
 *
 * While a line is on screen, uk_util_warn erases it before its message (the
 * next uk_progress_show draws it again), so warnings never land in the
 * middle of the line.  Callers that write to the terminal otherwise call
 * uk_progress_erase first.  One line at a time: the last struct
 * initialised is the one uk_util_warn clears.
 */

#include <stddef.h>

#define UK_PROGRESS_INTERVAL 0.2 /* default seconds between redraws */

struct uk_progress {
	int fd;          /* where the line goes; -1: progress is off */
	double interval; /* seconds between redraws; the caller may change it */
	double last;     /* when the line was last drawn (uk_util_mono_now) */
	size_t shown;    /* columns on screen now; 0: nothing shown */
	int dumb;        /* TERM=dumb: erase with spaces, not ESC [ K */
};

/*
 * Set p up for fd.  Progress is on when fd is a terminal and quiet is 0;
 * URLKIT_PROGRESS=0 in the environment turns it off, =1 turns it on even
 * when fd is not a terminal (for tests).
 */
void uk_progress_init(struct uk_progress *p, int fd, int quiet);

/* Whether p draws anything at all. */
int uk_progress_on(const struct uk_progress *p);

/*
 * Draw the line (printf format) in place of the one shown, unless less
 * than p->interval seconds have passed since the last draw and force is
 * 0.  Returns 1 when it drew, 0 when it did not.
 */
int uk_progress_show(struct uk_progress *p, int force, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Erase the line shown, if any; the next uk_progress_show draws again. */
void uk_progress_erase(struct uk_progress *p);

/* Erase the line and turn p off; p may be initialised again. */
void uk_progress_done(struct uk_progress *p);

#endif
