/* SPDX-License-Identifier: MIT */
#ifndef UK_FETCHARGS_H
#define UK_FETCHARGS_H

/*
 * urlfetch's command line, parsed the same way by both of its programs:
 * urlfetch, the small front that links only what extraction needs
 * (--extract, --help, --version and usage errors are answered there), and
 * urlfetch-net, the fetcher it hands every other run to with argv
 * unchanged (see cmd/urlfetch.c).  Parsing links nothing but util and cli.
 */

#include <stdio.h> /* cli.h uses FILE */

#include "cli.h"
#include "fetch.h"
#include "util.h"

/* One input, in command-line order: a URL operand or an -i FILE. */
struct uk_fetchargs_in {
	const char *arg; /* borrowed from argv */
	int file;        /* -i FILE ("-": standard input), else an operand */
};

struct uk_fetchargs {
	/*
	 * Fetch options: the caller sets their defaults (uk_fetch_opts_init)
	 * before parsing when it will use them; the front leaves them zero
	 * and uses only fo.extract (-f, --links, --images, --comments,
	 * --max-pages, --select, --remove, --whole, --explain), whose zero
	 * is extraction's default.  fo.extract.select and remove point to
	 * select and remove.
	 */
	struct uk_fetch_opts fo;
	/* --select's and --remove's selectors (checked), borrowed from argv. */
	const char **select, **remove;
	long max_per_msg;    /* -m, 3 by default; 0: no limit */
	int extract;         /* -x seen: every input is a file to extract */
	const char *base;    /* -B: the page address for -x */
	const char *session; /* -S */
	const char *output;  /* -o FILE, or NULL: standard output */
	int text;            /* -T */
	int quiet;           /* -q: no progress line */
	/*
	 * The inputs in command-line order: operands (URLs, or with -x
	 * files), -x's own FILE and -i FILEs.  None: standard input.
	 */
	struct uk_fetchargs_in *in;
	int nin;
};

/* --help's and usage errors' command line (the SYNOPSIS of urlfetch(1)). */
extern const struct uk_cli uk_fetchargs_cli;

/* Set a's fields to their defaults (fo to zero). */
void uk_fetchargs_init(struct uk_fetchargs *a);
void uk_fetchargs_release(struct uk_fetchargs *a);

/*
 * Parse argc/argv (uk_cli_getopt; call it once per process) into a.  -h,
 * --help, -V and every usage error are answered there (exit 0 or 2), so
 * this returns only with a good command line.
 */
void uk_fetchargs_parse(struct uk_fetchargs *a, int argc, char **argv);

/*
 * Whether the operand s is to be fetched: a URL with a scheme
 * ("https://...", "file://..."), or a directory (a local repository,
 * fetched with -P only).  Anything else is a file given where a URL was
 * meant.
 */
int uk_fetchargs_is_url(const char *s);

#endif
