/* SPDX-License-Identifier: MIT */
#ifndef URLSUM_H
#define URLSUM_H

/*
 * What urlsum's own files share (cmd/urlsum*.c, private to the program):
 * the options as the command line gave them (urlsum_opts.c).
 */

#include "cli.h"

/* What urlsum writes: summarised records, -p's context, -c's. */
enum { MODE_JSON, MODE_PROMPT, MODE_CONTEXT };

struct urlsum_opt {
	int mode, force, no_cache, no_summary, offline, dry_run;
	int type; /* -1: choose */
	const char *hint, *url, *model, *key_file, *prompt_dir, *prompt_file;
	double timeout;
	long retries, jobs, max_length, max_tokens;
	int no_fallback, quiet;
	const char *output;
	const char **excluded;
	size_t nexcluded;
};
extern struct urlsum_opt opt;
extern const struct uk_cli urlsum_cli;

/*
 * The command line into opt; exits on -h, -V and a usage error (exit 2).
 * Returns optind.
 */
int parse_opts(int argc, char **argv);

/*
 * The API key: the first line of the file at path, trimmed (the caller's
 * to free), or exit 2 when it cannot be read or is empty.
 */
char *read_key(const char *path);

#endif
