/* SPDX-License-Identifier: MIT */
#ifndef URLFETCH_H
#define URLFETCH_H

/*
 * urlfetch's command line (urlfetch_opts.c): the network's options, a
 * repository's, and extraction's (urlextract.h), which it shares with
 * urlextract.
 */

#include <stdio.h> /* cli.h uses FILE */

#include "cli.h"
#include "fetch.h"
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

#endif
