/* SPDX-License-Identifier: MIT */
#ifndef UK_UTIL_H
#define UK_UTIL_H

/*
 * Program name, exit codes, allocation and error reporting shared by every
 * urlkit program.
 *
 * Library code never prints and never exits, except the x-alloc family,
 * for which running out of memory is fatal (exit UK_EXIT_FATAL).  It
 * returns -1 and fills the caller's struct uk_err instead.
 */

#include <stdarg.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes, the contract of urlkit(7). */
#define UK_EXIT_OK    0 /* all input read, every record handled */
#define UK_EXIT_FAIL  1 /* some record failed, or a predicate said no */
#define UK_EXIT_USAGE 2 /* bad option, argument or operand */
#define UK_EXIT_FATAL 3 /* stopped before the end of input */

#define UK_VERSION "0.2.0"

/*
 * An error a library function reports to its caller: a message in lower
 * case without a full stop, and a code, by default UK_EXIT_FAIL; a caller
 * that must stop sets UK_EXIT_FATAL.
 */
struct uk_err {
	int code;
	char msg[512];
};

/*
 * Fill err (which may be NULL) and return -1, for
 * "return uk_util_err_set(...)".
 */
int uk_util_err_set(struct uk_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The program name used in messages; set it first thing in main(). */
extern const char *uk_prog;
void uk_util_prog_set(const char *argv0);

/* Huge pages for the heap of a program that builds big trees (see util.c). */
void uk_util_heap_init(void);

/*
 * The sticky exit status: uk_util_status_set keeps the highest code seen,
 * so one failed record makes the run exit 1 however later records go.
 */
extern int uk_status;
void uk_util_status_set(int code);

/*
 * Write s to f with the bytes a terminal would act on shown as \xHH: C0
 * controls (newline too), DEL, and C1 controls (U+0080-U+009F, as UTF-8).
 * For anything that echoes input on stderr.
 */
void uk_util_fputs_clean(const char *s, FILE *f);

/*
 * "prog: message" on stderr, the message cleaned by uk_util_fputs_clean.  For
 * programs, not for library code.
 */
void uk_util_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Called by uk_util_warn and uk_util_die before they write, when set:
 * lib/progress erases its line here.
 */
extern void (*uk_warn_hook)(void);
/* uk_util_warn, then exit with code. */
void uk_util_die(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Allocation that exits UK_EXIT_FATAL when memory runs out. */
void *uk_util_xmalloc(size_t n);
void *uk_util_xcalloc(size_t nmemb, size_t size);
void *uk_util_xrealloc(void *p, size_t n);
char *uk_util_xstrdup(const char *s);
char *uk_util_xmemdup(const void *p, size_t n); /* NUL-terminated copy */

/* Parse a non-negative integer in [min, max]; -1 when s is not one. */
int uk_util_parse_long(const char *s, long min, long max, long *out);

/*
 * Parse a duration or size with an optional suffix: for durations s, m, h,
 * d (default seconds), for sizes B, K, M, G, T (powers of 1024; "KB",
 * "KiB" and lower case alike; default bytes).  -1 on error.  A size a
 * user gives on the command line needs its unit: uk_cli_size.
 */
int uk_util_parse_seconds(const char *s, double *out);
int uk_util_parse_size(const char *s, unsigned long long *out);

/*
 * The monotonic clock (CLOCK_MONOTONIC), for deadlines and intervals:
 * uk_util_mono_now in seconds, uk_util_mono_ms in milliseconds.  Its zero is
 * arbitrary; only differences mean anything.
 */
double uk_util_mono_now(void);
long long uk_util_mono_ms(void);

/*
 * RFC 3339 UTC with milliseconds ("2026-11-24T14:30:00.123Z") into buf
 * (size >= 32): uk_util_time_fmt of ns nanoseconds since the epoch,
 * uk_util_time_rfc3339 of the current time.
 */
void uk_util_time_fmt(long long ns, char *buf, size_t size);
void uk_util_time_rfc3339(char *buf, size_t size);
/*
 * The inverse of uk_util_time_fmt: ns since the epoch of the RFC 3339 UTC time
 * in s[0..len) ("2026-11-24T14:30:00Z", or with a fraction of a second,
 * "...:00.123Z", kept to the nanosecond), or -1 when it is not one.
 */
long long uk_util_time_parse(const char *s, size_t len);

/* Now, wall-clock time, in ns since the epoch. */
long long uk_util_time_now_ns(void);

/*
 * Files.  uk_util_errno_fatal: whether errno value e means a directory cannot
 * be written at all (EACCES, EPERM, EROFS, ENOSPC, EDQUOT): callers make
 * such errors UK_EXIT_FATAL.
 */
int uk_util_errno_fatal(int e);

/*
 * mkdir -p: create dir and any missing parent, mode 0700 for what is
 * created.  0 when dir is (now) a directory, or -1 with err (code
 * UK_EXIT_FATAL by uk_util_errno_fatal, else UK_EXIT_FAIL; err may be NULL).
 */
int uk_util_mkdir_p(const char *dir, struct uk_err *err);

/*
 * Hold SIGINT, SIGTERM and SIGHUP in the calling thread (the old mask in
 * *old) for a step that must not be cut in half, such as writing a record
 * or a cache entry; uk_util_signals_release lets them land.
 */
void uk_util_signals_hold(sigset_t *old);
void uk_util_signals_release(const sigset_t *old);

/*
 * Make s safe to print on a terminal, in place: every C0 control (line
 * feeds and tabs too), DEL, and C1 control (U+0080 to U+009F, two bytes in
 * UTF-8, one '?' each) becomes '?', so that text from input (a record's
 * URL in a message) cannot move the cursor, change colours, ring the bell
 * or forge a line.  Returns s.
 */
char *uk_util_str_printable(char *s);

#endif
