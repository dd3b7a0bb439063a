/* SPDX-License-Identifier: MIT */
#ifndef URLCACHE_H
#define URLCACHE_H

/*
 * What urlcache's own files share (cmd/urlcache*.c, private to the
 * program): its global options, the cache and output it opened, and the
 * subcommands that live in urlcache_maint.c.
 */

#include "cache.h"
#include "cli.h"
#include "jsonl.h"
#include "util.h"

struct urlcache_opt {
	const char *dir; /* -d, else the default (NULL) */
	long ttl;        /* -t in seconds, -1: the default */
	int quiet;       /* -q */
	int quiet_messages; /* -q for list and stats: no warnings */
	int started;     /* start() ran: the cache and out are open */
};

/* Long-only options' values. */
enum {
	OPT_TTL = UK_OPT_FIRST,
	OPT_STALE,
	OPT_PASS,
	OPT_FAST,
	OPT_KEEP,
};
extern struct urlcache_opt opt;
/* The cache (opened by main before any subcommand runs) and stdout. */
extern struct uk_cache cache;
extern struct uk_jsonl_out out;

/*
 * After a subcommand's options: open output (-o FILE; NULL or "-" is
 * stdout) or exit 2, open the cache or exit 3, and set up out.
 */
void start(const char *output);
/* A library error: a warning (none with quiet_messages) and exit status 1,
 * or exit 3 when fatal. */
void lib_error(const struct uk_err *err);
/* Write v to stdout unless -q (v stays the caller's). */
void emit(yajl_val v);

/* Subcommands of urlcache_maint.c: argc and argv from the subcommand's
 * name on; each returns the exit status. */
int cmd_cleanup(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_path(int argc, char **argv);

#endif
