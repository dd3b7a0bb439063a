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
 *
 * A program whose records go to standard output calls
 * uk_progress_make_way before each record: the output may be the
 * terminal, or a pipe to a program that prints on it (`pwfetch fetch URL
 * | jq`), whose line would otherwise be glued to ours.  The line is then
 * erased and held back for an interval, so that the reader has printed
 * its line before ours comes back.
 */

#include <stddef.h>

#define UK_PROGRESS_INTERVAL 0.2 /* default seconds between redraws */
#define UK_PROGRESS_AFTER 1.0 /* the usual wait before a line first shows */

struct uk_progress {
	int fd;          /* where the line goes; -1: progress is off */
	double interval; /* seconds between redraws; the caller may change it */
	double last;     /* when the line was last drawn (uk_util_mono_now) */
	size_t shown;    /* columns on screen now; 0: nothing shown */
	int dumb;        /* TERM=dumb: erase with spaces, not ESC [ K */
	double start;    /* when uk_progress_init was called */
	double after;    /* no line before start + after; the caller sets it */
	double hold;     /* no line before this time (uk_progress_make_way) */
	int shared;      /* standard output may reach the terminal */
};

/*
 * Set p up for fd.  Progress is on when fd is a terminal and quiet is 0;
 * URLKIT_PROGRESS=0 in the environment turns it off, =1 turns it on even
 * when fd is not a terminal (for tests).  p->shared is set when standard
 * output is a terminal or anything but a regular file (a pipe may lead
 * to a program printing on the terminal).
 */
void uk_progress_init(struct uk_progress *p, int fd, int quiet);

/* Whether p draws anything at all. */
int uk_progress_on(const struct uk_progress *p);

/*
 * Draw the line (printf format) in place of the one shown, unless less
 * than p->interval seconds have passed since the last draw and force is
 * 0, or it is not time yet (p->after, p->hold: force does not override
 * them).  Returns 1 when it drew, 0 when it did not.
 */
int uk_progress_show(struct uk_progress *p, int force, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * When uk_progress_show would next draw a line that is due (the end of
 * p->after or of p->hold), or 0 when nothing holds it back: a caller that
 * sleeps may wake then.  uk_util_mono_now's clock.
 */
double uk_progress_due(const struct uk_progress *p);

/*
 * A record is about to go to standard output: when it may reach the
 * terminal (p->shared), erase the line and hold it back for an interval.
 */
void uk_progress_make_way(struct uk_progress *p);

/* Erase the line shown, if any; the next uk_progress_show draws again. */
void uk_progress_erase(struct uk_progress *p);

/* Erase the line and turn p off; p may be initialised again. */
void uk_progress_done(struct uk_progress *p);

#endif
