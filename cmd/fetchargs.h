/* SPDX-License-Identifier: MIT */
#ifndef UK_FETCHARGS_H
#define UK_FETCHARGS_H

/*
 * urlfetch's command line, parsed the same way by both of its programs:
 * urlfetch, the small front that links only what extraction needs
 * (--extract, --help, --version and usage errors are answered there), and
 * urlfetch-net, the fetcher it hands every other run to with argv
 * unchanged (see cmd/urlfetch.c).  Parsing links nothing but util.
 */

#include "fetch.h"
#include "util.h"

struct uk_fetchargs {
	/*
	 * Fetch options: the caller sets their defaults (uk_fetch_opts_init)
	 * before parsing when it will use them; the front leaves them zero
	 * and uses only fo.extract (-f, --links, --images, --comments,
	 * --max-pages), whose zero is extraction's default.
	 */
	struct uk_fetch_opts fo;
	long max_per_msg;    /* -m, 3 by default; 0: no limit */
	const char *extract; /* -x FILE, or NULL */
	const char *url;     /* -u */
	const char *session; /* -S */
	int text;            /* -T */
	int quiet;           /* -q: no progress line */
	int help;            /* -h seen: print the usage, nothing else parsed */
	int version;         /* -V seen, likewise */
	int argc;            /* the operands */
	char **argv;
};

/* The usage text: the SYNOPSIS of urlfetch(1), word for word. */
extern const char uk_fetchargs_usage[];

/* Set a's fields to their defaults (fo to zero). */
void uk_fetchargs_init(struct uk_fetchargs *a);

/*
 * Parse argc/argv (getopt_long; call it once per process) into a.  Parsing
 * stops at -h or -V, as it sets help or version.  0, or -1 with err (code
 * UK_EXIT_USAGE) for a usage error; err->msg is empty when getopt_long
 * has already said what was wrong on stderr.
 */
int uk_fetchargs_parse(struct uk_fetchargs *a, int argc, char **argv,
    struct uk_err *err);

#endif
