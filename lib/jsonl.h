/* SPDX-License-Identifier: MIT */
#ifndef UK_JSONL_H
#define UK_JSONL_H

/*
 * JSON Lines: reading input a line at a time with a bounded line length,
 * parsing each line as one record, and writing records and error records.
 *
 * A reader never holds more than max bytes of a line: a longer line is
 * read to its end and discarded, and reported as too long.  Each line is
 * parsed on its own, so a bad line never poisons the next (yajl's stream
 * parser cannot resynchronise).
 */

#include <stdio.h>

#include "buf.h"
#include "json.h"
#include "util.h"

/*
 * The line limit every reader enforces, and so the longest record a
 * writer may write (the newline not counted): the one constant for both.
 */
#define UK_JSONL_MAX_LINE (16UL << 20) /* 16 MiB */

/*
 * Make rec fit in max bytes as one line (written as uk_jsonl_out_record writes
 * it), max at most UK_JSONL_MAX_LINE: while it is longer, its longest
 * top-level string is cut at a UTF-8 boundary, and then "truncated" is set
 * to true and "truncated_reason" says which fields were cut and why.
 * Returns 0 when rec fitted as it was, 1 when it was cut, -1 when cutting
 * strings cannot make it fit (its size is elsewhere).
 */
int uk_jsonl_fit(yajl_val rec, size_t max);

struct uk_jsonl_in {
	int fd;
	const char *name;    /* as given: "-" for standard input */
	unsigned long lineno; /* of the line last returned */
	size_t max;          /* line limit, UK_JSONL_MAX_LINE by default */
	struct uk_buf line;  /* the line last returned, without its newline */
	char *rbuf;
	size_t rpos, rend;
	int eof;
};

/*
 * Open path ("-" or NULL: standard input) for reading lines.  -1 with err
 * filled (code UK_EXIT_FATAL for standard input, else UK_EXIT_FAIL) when
 * it cannot be opened.
 */
int uk_jsonl_open(struct uk_jsonl_in *l, const char *path, struct uk_err *err);
void uk_jsonl_close(struct uk_jsonl_in *l);

#define UK_JSONL_EOF     0
#define UK_JSONL_OK      1
#define UK_JSONL_TOOLONG 2
/*
 * Read the next line into l->line.  Returns UK_JSONL_OK, UK_JSONL_TOOLONG
 * (the line was longer than l->max and has been skipped; l->line is empty),
 * UK_JSONL_EOF, or -1 on a read error (err filled, code UK_EXIT_FATAL).  A
 * last line without a newline is still a line.
 */
int uk_jsonl_line(struct uk_jsonl_in *l, struct uk_err *err);
/*
 * Read up to n raw bytes, for programs that take their input as a stream
 * rather than as lines.  Returns the count, 0 at end of input, -1 on error.
 */
long uk_jsonl_read(struct uk_jsonl_in *l, char *dst, size_t n,
    struct uk_err *err);

/* What uk_jsonl_next accepts besides JSON objects. */
#define UK_JSONL_BARE_URL 1 /* a line without '{' is {"url": line} */

/*
 * Read the next record.  Blank lines are skipped; invalid UTF-8 is replaced
 * by U+FFFD before parsing.  Returns 1 with *rec set (the caller frees it
 * with uk_json_free), 0 at end of input, -1 for a bad line (err filled with
 * code UK_EXIT_FAIL: write an error record and go on) or -1 with code
 * UK_EXIT_FATAL for a read error (stop).
 */
int uk_jsonl_next(struct uk_jsonl_in *l, int flags, yajl_val *rec,
    struct uk_err *err);

/*
 * Output of records, one per line.  Records are flushed one at a time
 * unless batch is set (then uk_jsonl_out_flush flushes).  Any write error is
 * fatal: the program says so and exits 3, since output already lost
 * cannot be told apart from output never written.  What reaches fp's file
 * is whole records (or whole uk_jsonl_out_raw units), even when SIGINT, SIGTERM
 * or SIGHUP ends the program: the buffer is flushed only between records,
 * and a record goes out in one write of at most PIPE_BUF bytes or with
 * those signals blocked (the calling thread's mask).
 */
struct uk_jsonl_out {
	FILE *fp;
	yajl_gen g;
	int batch;
};

void uk_jsonl_out_init(struct uk_jsonl_out *o, FILE *fp);
void uk_jsonl_out_release(struct uk_jsonl_out *o);
/* Write rec and a newline. */
void uk_jsonl_out_record(struct uk_jsonl_out *o, yajl_val rec);
/* Write raw bytes (already a line or lines of output). */
void uk_jsonl_out_raw(struct uk_jsonl_out *o, const char *s, size_t len);
void uk_jsonl_out_flush(struct uk_jsonl_out *o);
/*
 * The error record for input that could not be taken as a record:
 * {"error":msg,"tool":prog,"file":file,"line":line} on stdout, and
 * "prog: file:line: msg" on stderr; sets the exit status to 1.
 */
void uk_jsonl_out_error(struct uk_jsonl_out *o, const char *file,
    unsigned long line, const char *msg);
/* Flush and check for a write error; exits 3 on one. */
void uk_jsonl_out_finish(struct uk_jsonl_out *o);

/* A file name for messages: "<stdin>" for "-". */
const char *uk_jsonl_name(const struct uk_jsonl_in *l);

#endif
