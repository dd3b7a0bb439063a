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

/* uk_record_fit (record.h), under the name urlfetch-net calls. */
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

/*
 * Whether reading l now would not wait on l->fd: bytes read and not yet
 * returned are buffered, or the end of input has been seen.  For a
 * program that polls l->fd while other work is in flight.
 */
int uk_jsonl_pending(const struct uk_jsonl_in *l);

/*
 * What uk_jsonl_next accepts besides JSON objects: a bare URL line,
 * {"url": the line, blanks trimmed}.  That is a line that is not an array
 * (it does not start with '['; brackets inside are an IPv6 host) and
 * either starts with a scheme and a colon ("https:", "javascript:"),
 * whatever follows, or has no blank, quote or NUL byte in it (a host, a
 * local repository's path).  Whether it is a good URL is for whoever
 * takes it to say, as for a record's "url"; prose is not a URL.
 */
#define UK_JSONL_BARE_URL 1

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
	int pretty; /* records indented over lines (uk_json_pretty_add) */
	int colour; /* ... and coloured */
};

/*
 * How records are written: UK_JSONL_AUTO (the default) pretty-prints them
 * when the output is a terminal, coloured unless NO_COLOR is set and not
 * empty, and writes one compact line per record otherwise;
 * UK_JSONL_COMPACT and UK_JSONL_PRETTY (--compact, --pretty) force
 * either (--pretty colours only a terminal).  Read by uk_jsonl_out_init.
 */
enum { UK_JSONL_AUTO, UK_JSONL_COMPACT, UK_JSONL_PRETTY };
extern int uk_jsonl_output;

void uk_jsonl_out_init(struct uk_jsonl_out *o, FILE *fp);

/*
 * Whether output on fd may be coloured: fd is a terminal, NO_COLOR is
 * unset or empty (no-color.org), and TERM names a terminal that is not
 * "dumb" (unset: none).  An agent in a pseudo-terminal sets TERM=dumb and
 * pays for every escape sequence in tokens.  Every program's records
 * follow it (uk_jsonl_out_init), and so does urlfetch's page view.
 */
int uk_jsonl_colour(int fd);
void uk_jsonl_out_release(struct uk_jsonl_out *o);
/* Write rec and a newline. */
void uk_jsonl_out_record(struct uk_jsonl_out *o, yajl_val rec);
/* Write raw bytes (already a line or lines of output). */
void uk_jsonl_out_raw(struct uk_jsonl_out *o, const char *s, size_t len);
void uk_jsonl_out_flush(struct uk_jsonl_out *o);
/*
 * The error record for input that could not be taken as a record:
 * {"error":msg,"tool":prog,"file":file,"line":line} on stdout, and
 * "prog: file:line: msg" on stderr; sets the exit status to 1.  With o
 * NULL, only the line on stderr and the status (output that is not
 * records).  The record is uk_jsonl_error_record's.
 */
void uk_jsonl_out_error(struct uk_jsonl_out *o, const char *file,
    unsigned long line, const char *msg);
/* Flush and check for a write error; exits 3 on one. */
void uk_jsonl_out_finish(struct uk_jsonl_out *o);

/* A file name for messages: "<stdin>" for "-". */
const char *uk_jsonl_name(const struct uk_jsonl_in *l);

/*
 * The record policy: STYLE.md's four rules for a JSON Lines input, applied
 * once here for every program.
 *
 * uk_jsonl_take returns the next record the program is to process and
 * deals with everything else itself:
 *
 *   1. A line that is not a JSON object (or over the line limit, or, with
 *      p->require, an object without that field as a string) becomes the
 *      error record {"error":msg,"tool":prog,"file":name,"line":n} plus
 *      one line on standard error, and the exit status becomes 1.
 *   3. A record that arrives with "error" set (uk_jsonl_is_error) passes
 *      through untouched and does not change the exit status.
 *   4. Blank lines are skipped.
 *
 * (Rule 2, a record whose processing fails, is the program's: it sets
 * "error" on the record it writes, and the status with uk_util_status_set.)
 *
 * Where those records go: to p->q when set, so that they keep their place
 * behind records still in flight (see struct uk_jsonl_queue), else
 * straight to p->out.  With neither, an error record is only said on
 * standard error (output that is not records, urlsum -p) and a
 * pass-through is dropped; UK_JSONL_DROP_PASS drops pass-throughs even
 * with p->out (urldetect -u writes URLs, not records).
 *
 * Usage:
 *
 *	struct uk_jsonl_policy p = { .require = "url", .out = &out };
 *
 *	while ((r = uk_jsonl_take(&in, &p, &rec, &err)) > 0) {
 *		... process rec, read at in.name:in.lineno ...
 *		uk_json_free(rec);
 *	}
 *	if (r < 0)
 *		... err.msg, a read error: stop (exit 3) ...
 */
#define UK_JSONL_DROP_PASS 2 /* records with "error" set are not written */
/*
 * Records with "error" set come back to the caller like any other, for a
 * program that keeps them rather than passing them on (urlcache session
 * add stores failures too).  p->require still applies to them.
 */
#define UK_JSONL_TAKE_FAILED 4

/*
 * For uk_jsonl_src only: bad lines (and records without p->require) come
 * back to the caller as UK_JSONL_SRC_REFUSED, with the error record that
 * uk_jsonl_take would write, for a program that keeps its output in an
 * order of its own (toolack call).
 */
#define UK_JSONL_GIVE_BAD 8

struct uk_jsonl_queue;

struct uk_jsonl_policy {
	int flags; /* UK_JSONL_BARE_URL, _DROP_PASS, _TAKE_FAILED, _GIVE_BAD */
	const char *require; /* a field every record has as a string, or NULL */
	const char *missing; /* the message when it has not: NULL for
				"no string field '<require>'" */
	struct uk_jsonl_out *out; /* where the records above go ... */
	struct uk_jsonl_queue *q; /* ... or in order, when set */
};

/*
 * Read the next record to process under policy p (not copied: it may be
 * a constant shared by every file).  Returns 1 with *rec set (the caller
 * owns it and frees it with uk_json_free; it was read at l->name, line
 * l->lineno), 0 at the end of input, or -1 on a read error (err filled,
 * code UK_EXIT_FATAL: the program stops, exit 3).  Nothing else reaches
 * the caller: see the rules above.
 */
int uk_jsonl_take(struct uk_jsonl_in *l, const struct uk_jsonl_policy *p,
    yajl_val *rec, struct uk_err *err);

/* Whether rec arrived failed: it has "error", and not as null. */
int uk_jsonl_is_error(yajl_val rec);

/*
 * The error record for input that could not be taken as a record, built
 * here only: {"error":msg,"tool":uk_prog,"file":file,"line":line}.  The
 * caller owns it (uk_json_free).  uk_jsonl_out_error writes it.
 */
yajl_val uk_jsonl_error_record(const char *file, unsigned long line,
    const char *msg);

/*
 * A source of URLs: the one way every program that takes URLs reads
 * them, as mblaze's tools read messages with blaze822_loop.  The inputs are
 * URL operands and files (-i FILE, repeated, or a filter's FILE
 * operands; "-" is standard input) in command-line order, and standard
 * input when there are none.  A file's lines are taken under the policy
 * given (uk_jsonl_take's rules: error records, pass-throughs, blank
 * lines, bare URLs with UK_JSONL_BARE_URL).  Every URL is checked the
 * same way, here only:
 *
 *   - An operand is a URL when uk_jsonl_is_url_operand says so; any
 *     other operand (a file name, most likely) is refused: "not a URL:
 *     'x' (to read records from a file, use -i x)".
 *   - A "url" that holds a NUL byte ("\u0000" in JSON) is refused with
 *     UK_URL_NUL_ERROR: "https://a.example/j\u0000evil" must never be
 *     taken for https://a.example/j.
 *
 * Usage:
 *
 *	struct uk_jsonl_policy p = { .flags = UK_JSONL_BARE_URL,
 *		.require = "url", .out = &out };
 *	struct uk_jsonl_src src;
 *
 *	uk_jsonl_src_init(&src, &p);
 *	... for each operand and -i FILE, in command-line order:
 *	uk_jsonl_src_add(&src, arg, is_file ? UK_JSONL_SRC_FILE :
 *	    UK_JSONL_SRC_URL);
 *	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
 *		if (r == UK_JSONL_SRC_REC)
 *			... fetch uk_json_get_str(rec, "url") ...
 *		else if (r == UK_JSONL_SRC_REFUSED)
 *			... write rec (it has "error"), say err.msg, status 1 ...
 *		else if (err.code == UK_EXIT_FAIL)
 *			... src.name cannot be opened: say err.msg, status 1 ...
 *		else
 *			... err.msg, a read error: stop (exit 3) ...
 *		uk_json_free(rec);
 *	}
 *	uk_jsonl_src_release(&src);
 *
 * A program that waits on other work between records polls
 * uk_jsonl_src_fd, and calls uk_jsonl_src_next without waiting when it
 * is -1.
 */
#define UK_JSONL_SRC_URL  0 /* a URL operand */
#define UK_JSONL_SRC_FILE 1 /* a file of records ("-": standard input) */

struct uk_jsonl_src {
	/* Where the last record came from (read-only). */
	const char *name;     /* the file as given ("-"), NULL: an operand */
	unsigned long lineno; /* its line; 0 for an operand */
	size_t index;         /* its input: 0 for the first added */

	/* Private. */
	const struct uk_jsonl_policy *p;
	struct uk_jsonl_src_arg {
		const char *arg;
		int what;
	} *v;
	size_t n, next;
	struct uk_jsonl_in in;
	int open;   /* in is open: v[index]'s file */
	int failed; /* ... or could not be opened: err below says why */
	struct uk_err err;
};

/*
 * Whether the operand s is a URL: a scheme (RFC 3986: a letter, then
 * letters, digits, '+', '-' and '.') followed by "://", or the name of a
 * directory (a local repository).  "mailto:x", "-" and a file's name are
 * not.
 */
int uk_jsonl_is_url_operand(const char *s);

/*
 * Set up s to read under policy p (not copied: it must outlive s), with
 * no input yet: standard input unless uk_jsonl_src_add adds one.
 */
void uk_jsonl_src_init(struct uk_jsonl_src *s, const struct uk_jsonl_policy *p);
/*
 * Append an input, UK_JSONL_SRC_URL or UK_JSONL_SRC_FILE (arg is
 * borrowed: it must outlive s).  Before the first uk_jsonl_src_next.
 */
void uk_jsonl_src_add(struct uk_jsonl_src *s, const char *arg, int what);

#define UK_JSONL_SRC_REC     1 /* a record to work on */
#define UK_JSONL_SRC_REFUSED 2 /* input refused: the record says why */
/*
 * The next record of the inputs, in order.  Returns
 *
 *   UK_JSONL_SRC_REC with *rec set: an operand's {"url": operand}, or a
 *     record read, as uk_jsonl_take returns it;
 *   UK_JSONL_SRC_REFUSED with *rec set: an operand that is not a URL
 *     ({"url": operand, "error": why}), a record whose "url" holds a NUL
 *     byte (as read, with "error" set), or with UK_JSONL_GIVE_BAD a bad
 *     line (uk_jsonl_error_record's record); err.msg is the "error".
 *     The program writes it as a record whose processing failed and sets
 *     the exit status to 1;
 *   0 at the end of the inputs;
 *   -1 with err filled: code UK_EXIT_FAIL when the file s->name cannot
 *     be opened (say so, status 1; the next call goes on with the next
 *     input), UK_EXIT_FATAL on a read error (stop, exit 3).
 *
 * The caller owns *rec (uk_json_free); it is NULL unless a record is
 * returned.  s->name, s->lineno and s->index say where it came from.
 */
int uk_jsonl_src_next(struct uk_jsonl_src *s, yajl_val *rec,
    struct uk_err *err);
/*
 * The descriptor uk_jsonl_src_next will wait on, or -1 when it will not
 * wait (input is pending; an operand, a file that cannot be opened or the
 * end comes next).  Opens the next file when its turn has come; a
 * failure to is reported by the next uk_jsonl_src_next.
 */
int uk_jsonl_src_fd(struct uk_jsonl_src *s);
/*
 * Whether input may remain: 1 until every input has been read to its end
 * (the end of the last file may not have been seen yet).
 */
int uk_jsonl_src_more(const struct uk_jsonl_src *s);
/* Close what is open and free s's contents; ready for uk_jsonl_src_init. */
void uk_jsonl_src_release(struct uk_jsonl_src *s);

/*
 * An ordered output queue: records finish out of order (concurrent
 * fetches, summaries) and go out in input order, with error records and
 * pass-throughs in their places among them.
 *
 * Usage: uk_jsonl_queue_init; for each record to process,
 * uk_jsonl_queue_add gives it an item (the caller may keep its own state
 * in it->data) and the caller sets it->done once it->rec is final;
 * uk_jsonl_queue_flush writes every finished item at the head of the
 * queue, in order, stopping at the first unfinished one.  Give the queue
 * to uk_jsonl_take (p->q) and bad lines and pass-throughs are queued too.
 * uk_jsonl_queue_release at the end.
 *
 * Each item is written by q->write when set (the program's output: it
 * may take it->rec, setting it to NULL, and it frees it->data), else by
 * uk_jsonl_item_write on q->out.  After that the queue frees the item,
 * it->rec with it.
 */
enum uk_jsonl_kind {
	UK_JSONL_RECORD, /* a record the program processes */
	UK_JSONL_PASS,   /* a record that arrived with "error" set */
	UK_JSONL_ERROR   /* input that was not a record: msg says why */
};

struct uk_jsonl_item {
	enum uk_jsonl_kind kind;
	int done;     /* set by the caller (UK_JSONL_RECORD) */
	yajl_val rec; /* owned by the item; NULL for UK_JSONL_ERROR */
	char *file;   /* where it was read, as given ("-"): owned */
	unsigned long line;
	char *msg;  /* UK_JSONL_ERROR: owned */
	void *data; /* the caller's */
};

struct uk_jsonl_queue {
	struct uk_jsonl_out *out; /* NULL: error records only said on stderr */
	void (*write)(struct uk_jsonl_item *it, void *arg); /* or NULL */
	void *arg;                                          /* for write */
	size_t n;            /* items waiting (read-only) */
	unsigned long total; /* items ever added (read-only) */

	/* Private. */
	struct uk_jsonl_item **v;
	size_t head, cap;
};

/* Set up an empty queue writing to out (NULL: see above); no write hook. */
void uk_jsonl_queue_init(struct uk_jsonl_queue *q, struct uk_jsonl_out *out);
/*
 * Append a UK_JSONL_RECORD item for rec (the item owns it from now on;
 * NULL if the caller will set it->rec later), read at file:line.  The
 * item stays valid until flushed: the caller sets it->done then flushes.
 */
struct uk_jsonl_item *uk_jsonl_queue_add(struct uk_jsonl_queue *q, yajl_val rec,
    const char *file, unsigned long line);
/* Append a pass-through (owns rec) or an error record, done at once. */
void uk_jsonl_queue_pass(struct uk_jsonl_queue *q, yajl_val rec,
    const char *file, unsigned long line);
void uk_jsonl_queue_error(struct uk_jsonl_queue *q, const char *file,
    unsigned long line, const char *msg);
/* Write the finished items at the head; returns how many went out. */
size_t uk_jsonl_queue_flush(struct uk_jsonl_queue *q);
/* Free every item left, unwritten (data is the caller's), and the queue. */
void uk_jsonl_queue_release(struct uk_jsonl_queue *q);

/*
 * Write item it as the queue does by default: a record or pass-through
 * with uk_jsonl_out_record, an error with uk_jsonl_out_error.  With o
 * NULL, an error is only said on standard error (with the status set to
 * 1) and a record is not written.  For a write hook that adds to this.
 */
void uk_jsonl_item_write(struct uk_jsonl_out *o,
    const struct uk_jsonl_item *it);

#endif
