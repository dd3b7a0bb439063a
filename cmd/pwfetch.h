/* SPDX-License-Identifier: MIT */
#ifndef PWFETCH_H
#define PWFETCH_H

/*
 * What pwfetch's own files share (cmd/pwfetch*.c, private to the
 * program): the run that every function works on, its input, the command
 * line (pwfetch_opts.c) and the reading of the input (pwfetch_input.c).
 */

#include "browser.h"
#include "cli.h"
#include "extract.h"
#include "jsonl.h"
#include "page.h"
#include "progress.h"

/* Where input comes from, in command-line order: a URL or -i FILE. */
struct source {
	const char *arg;
	int file;
};

/*
 * Input: URL operands and the records and bare URLs of -i files (standard
 * input when there is neither), in command-line order: src as the
 * command line gives it, read through lib/jsonl's source.
 */
struct input {
	struct source *src;
	int nsrc;
	int nurls; /* operands: the total when there is no file */
	/* Private to pwfetch_input.c. */
	struct uk_jsonl_policy pol;
	struct uk_jsonl_src lines;
	int started, eof;
};

/* A record in the output queue, until it is written. */
struct slot {
	unsigned long no; /* the number uk_page_events_start gave; 0: none */
	char *url, *msg;  /* msg: what to say on stderr, for a failed one */
};

/* The run: what every function here works on. */
struct run {
	struct uk_page_opts o;
	/* --select, --remove, --whole, --explain (o.extract points here). */
	struct uk_extract_opts xo;
	const char **select, **remove; /* borrowed from argv */
	const char *address; /* attach here; NULL: launch */
	double total;        /* -T; 0: none */
	int quiet;
	struct uk_browser browser;
	int have_browser, browser_gone, timed_out;
	char gone_why[300];
	struct uk_pages ps;
	struct uk_jsonl_out out;
	/* Records in input order (-j pages finish in any order). */
	struct uk_jsonl_queue q;
	struct uk_jsonl_item **slots; /* the pages' items, o.jobs of them */
	struct uk_jsonl_item *cur;    /* the item of the record being read */
	/* Progress on a terminal: URLs done and failed, the last host. */
	struct uk_progress prog;
	int json;             /* --json: records, even on a terminal */
	const char *query;    /* --query: the question; NULL: none */
	long max_tokens;      /* --max-tokens; 0: the whole text */
	int view, view_width; /* lib/view's pages in place of records */
	unsigned long ndone, nfailed, seq;
	char last_host[128];
};

/* What the command line gave besides the page options. */
struct cmdline {
	int attach;
	const char *output; /* -o, or NULL: stdout */
	struct input *in;
};

/* The program's -h and --help, then each command's: find, open, fetch. */
extern const struct uk_cli pwfetch_cli_top;
extern const struct uk_cli pwfetch_cli_cmds[3];

/*
 * The options and operands of a command into r and cl (cl->in set by the
 * caller), or exit 2 with cli's usage line.
 */
void parse_opts(const struct uk_cli *cli, struct run *r, struct cmdline *cl,
    int argc, char **argv);

/*
 * The next URL record to fetch (the caller's to free), or NULL at the
 * end of the input.  Input that cannot be fetched is answered (its error
 * record queued) and skipped; r->cur is the record's item.
 */
yajl_val next_input(struct run *r, struct input *in);
/* Whether reading input now would not block (or it is over). */
int input_ready(struct input *in);
/* The descriptor reading input would wait on, or -1: none. */
int input_fd(struct input *in);
/* Whether input may remain to be read. */
int input_more(const struct input *in);
/* Close what is open (after the last next_input). */
void input_release(struct input *in);

#endif
