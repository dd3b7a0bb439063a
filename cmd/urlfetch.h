/* SPDX-License-Identifier: MIT */
#ifndef URLFETCH_H
#define URLFETCH_H

/*
 * urlfetch's command line (urlfetch_opts.c): the network's options, a
 * repository's, and extraction's (urlextract.h), which it shares with
 * urlextract; and its progress line (urlfetch_progress.c).
 */

#include <stdio.h> /* cli.h uses FILE */

#include "cli.h"
#include "fetch.h"
#include "progress.h"
#include "repo.h"
#include "urlextract.h"
#include "util.h"

/* One input, in command-line order: a URL operand or an -i FILE. */
struct urlfetch_in {
	const char *arg; /* borrowed from argv */
	int file;        /* -i FILE ("-": standard input), else an operand */
};

struct urlfetch_args {
	/*
	 * Fetch options: the caller sets their defaults (uk_fetch_opts_init)
	 * before parsing.
	 */
	struct uk_fetch_opts fo;
	struct extract_args ea; /* fills fo.extract */
	long max_per_msg;    /* -m, 3 by default; 0: no limit */
	const char *session; /* -S */
	const char *output;  /* -o FILE, or NULL: standard output */
	int text;            /* -T */
	int header;          /* --header: -T's header even for one URL */
	int json;            /* --json: records, even on a terminal */
	long max_tokens;     /* --max-tokens: the slice's size; 0: whole */
	long offset;         /* --offset: the slice's first character */
	long diff_lines;     /* --diff: at most this many lines; 0: none */
	const char *query;   /* --query: the question; NULL: none */
	int quiet;           /* -q: no progress line */
	/*
	 * The inputs in command-line order: URL operands and -i FILEs.
	 * None: standard input.
	 */
	struct urlfetch_in *in;
	int nin;
};

/* --help's and usage errors' command line (the SYNOPSIS of urlfetch(1)). */
extern const struct uk_cli urlfetch_cli;

/* Set a's fields to their defaults (fo to zero). */
void urlfetch_args_init(struct urlfetch_args *a);
void urlfetch_args_release(struct urlfetch_args *a);

/*
 * Parse argc/argv (uk_cli_getopt; call it once per process) into a.  -h,
 * --help, -V and every usage error are answered there (exit 0 or 2), so
 * this returns only with a good command line.  -x and -B, which are
 * urlextract's, are usage errors that name it.
 */
void urlfetch_args_parse(struct urlfetch_args *a, int argc, char **argv);

/*
 * The progress line (urlfetch_progress.c), on standard error when it is a
 * terminal and -q is not given: records done of those read so far,
 * failures, and the host of the latest fetch started.
 */
struct urlfetch_progress {
	struct uk_progress p;
	int tfd, ep;  /* the line's clock (a timerfd) and, with the input,
			 the epoll set the fetches wait on; -1: none */
	unsigned long done, total, failed;
	char host[48];
	const char *repo; /* a repository's progress, instead of host */
};

extern struct urlfetch_progress prog;

/* Erase the line. */
void progress_clear(void);
/*
 * Draw the line (force: even before its interval), once the run has
 * gone on for a second and unless a record has just gone out.
 */
void progress_draw(int force);
/*
 * The line's clock: a timerfd, in an epoll set with the input, that wakes
 * uk_fetch_wait to draw the line while fetches go on.  Without it the
 * line is drawn as fetches end.
 */
void progress_clock_init(void);
/*
 * The descriptor to wait on for input fd (-1: none): the epoll set with
 * fd in it, or fd itself when there is no clock or epoll refuses fd.
 */
int progress_wait_fd(int fd);
/*
 * After a wait on wfd (progress_wait_fd's) for input fd: take fd out of
 * the set, let the clock's ticks go; whether fd itself is readable.
 */
int progress_waited(int wfd, int fd, int ready);
void progress_clock_release(void);
/* Note the host of url as the current one (control bytes shown as '?'). */
void progress_host(const char *url);
/* A repository's progress (uk_repo_progress_fn) in the line's place. */
void progress_repo(const struct uk_repo_progress *p, void *arg);
/* Erase the line before a record goes out; drawn again after an interval. */
void progress_make_way(void);

#endif
