/* SPDX-License-Identifier: MIT */
#ifndef URLDETECT_H
#define URLDETECT_H

/*
 * What urldetect's files share: its options (urldetect_opts.c), the set
 * of the URLs a message has given (urldetect.c), and the writing of
 * url records (urldetect_emit.c); urldetect.c reads the input.
 */

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cli.h"
#include "detect.h"
#include "json.h"
#include "jsonl.h"
#include "strset.h"

struct urldetect_opts {
	int all, bare, classify, lines, quiet, urls;
	int with_filename; /* -H: 1, --no-filename: 0, -1: not said */
	const char *field;
	const char *output;
	long max;
	int type; /* -1: any */
};

/* The options (urldetect.c); -y's type -1 and -H's -1 by default. */
extern struct urldetect_opts opt;

/* The file each record comes from, for -H; NULL without -H. */
extern const char *cur_file;

extern struct uk_jsonl_out out;
/* A URL was found (of -y's type): the exit status. */
extern int found;

/*
 * --bare: the detector of the scan under way (its bare_hit says the URL
 * it gives has no scheme), whether the URL being written had none, and
 * the URL written for one (urldetect_emit.c): https:// and the text
 * without its "//".
 */
extern struct uk_detect *detector;
extern int cur_bare;
extern struct uk_buf bare_url;

/* --help's and usage errors' command line (the SYNOPSIS of urldetect(1)). */
extern const struct uk_cli urldetect_cli;

/*
 * Parse argc/argv into opt (uk_cli_getopt; once per process).  -h, --help,
 * -V and every usage error are answered there (exit 0 or 2).  Returns
 * optind: the first operand.
 */
int urldetect_opts_parse(int argc, char **argv);

/*
 * Empty a message's set of the URLs given (the default output writes one
 * record per URL and message, uk_strset); a large table goes (a message
 * of many URLs is rare).
 */
void seen_reset(struct uk_strset *st);

/* One message: its number, where it starts, what it has given so far. */
struct msg {
	unsigned long no;
	unsigned long long base;
	unsigned long count;
	struct uk_strset seen;
	yajl_val id; /* the input record's id, for --json; not owned */
	unsigned long long abs; /* absolute offset of the window's byte 0 */
};

/*
 * The records of compact output collected before they go out, and
 * UK_URLDETECT_REFERENCE (every record the slow way, from libcurl's
 * parse); see urldetect_emit.c.
 */
extern struct uk_buf rbuf;
extern int reference;
/*
 * m->id and cur_file as JSON, and what they were made from: set id_of
 * and file_of to NULL when a new id or file may sit at the last one's
 * address.
 */
extern struct uk_buf id_json, file_json;
extern yajl_val id_of;
extern const char *file_of;

/* Write the records collected in rbuf, then what stdio holds. */
void out_flush(void);
/* Emit url[0..n) found at [start, end) of message m; 1 to stop (-q). */
int emit(struct msg *m, const char *url, size_t n, unsigned long long start,
    unsigned long long end);
/*
 * --bare: emit the URL s[start..end) the detector gives; one without a
 * scheme goes out as https:// and its text without "//", marked bare.
 */
int emit_bare(struct msg *m, const char *s, size_t start, size_t end,
    unsigned long long rs, unsigned long long re);

#endif
