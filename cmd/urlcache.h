/* SPDX-License-Identifier: MIT */
#ifndef URLCACHE_H
#define URLCACHE_H

/*
 * What urlcache's own files share (cmd/urlcache*.c, private to the
 * program): its global options, the cache and output it opened, and the
 * subcommands that live in urlcache_maint.c.
 */

#include "cache.h"
#include "jsonl.h"
#include "util.h"

struct urlcache_opt {
	const char *dir; /* -d, else the default (NULL) */
	long ttl;        /* -t in seconds, -1: the default */
	int quiet;       /* -q */
};
extern struct urlcache_opt opt;
/* The cache (opened by main before any subcommand runs) and stdout. */
extern struct uk_cache cache;
extern struct uk_jsonl_out out;

/* Print the usage text (to stdout when code is 0, else stderr), exit. */
void usage(int code) __attribute__((noreturn));
/* A library error: a warning and exit status 1, or exit 3 when fatal. */
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
