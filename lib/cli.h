/* SPDX-License-Identifier: MIT */
#ifndef UK_CLI_H
#define UK_CLI_H

/*
 * The command line every program shares (urlkit(7), "Command line"):
 * option errors that name the program and its subcommand and end with
 * "try 'NAME --help'", -h for the synopsis and --help for the synopsis
 * with one line per option, -V, and the output options --compact and
 * --pretty.
 *
 * A program lists UK_CLI_LONGOPTS at the end of its option table (before
 * the terminating zero entry) and calls uk_cli_getopt in place of
 * getopt_long:
 *
 *	static const struct uk_cli cli = { "urlcache get", synopsis, help };
 *	while ((c = uk_cli_getopt(&cli, argc, argv, "i:qS:", longopts)) != -1)
 *		switch (c) { ... default: uk_cli_usage(&cli, NULL); }
 *
 * Options may follow operands (getopt_long's permutation), unless the
 * option string starts with '+' (a program whose first operand is a
 * subcommand); "--" ends the options.
 */

#include <getopt.h>
#include <stdio.h>

/* Values of the long-only options every program has.  A program's own
 * long-only options take values from UK_OPT_FIRST on. */
enum {
	UK_OPT_HELP = 0x1000,
	UK_OPT_COMPACT,
	UK_OPT_PRETTY,
	UK_OPT_FIRST = 0x1100,
};

#define UK_CLI_LONGOPTS                                   \
	{ "help", no_argument, NULL, UK_OPT_HELP },       \
	{ "compact", no_argument, NULL, UK_OPT_COMPACT }, \
	{ "pretty", no_argument, NULL, UK_OPT_PRETTY }

struct uk_cli {
	const char *name;     /* "urlfetch", "urlcache get": messages' prefix */
	const char *synopsis; /* the usage lines, each ending in '\n' */
	const char *options;  /* --help's option lines after the synopsis */
};

/*
 * getopt_long with the toolkit's messages.  It handles -h (the synopsis on
 * stdout, exit 0), --help (synopsis and options, exit 0), -V when the
 * option string has it ("NAME VERSION", exit 0), --compact and --pretty
 * (uk_jsonl_output), and an unknown option or missing value (a usage
 * error, exit 2).  Returns the next option for the program, or -1 at the
 * end of the options (optind is the first operand).
 */
int uk_cli_getopt(const struct uk_cli *cli, int argc, char *const argv[],
    const char *optstring, const struct option *longopts);

/*
 * A usage error: "NAME: MSG" (printf-style; nothing when fmt is NULL, as
 * after getopt's own message) and "try 'NAME --help'" on stderr, then exit
 * UK_EXIT_USAGE.
 */
void uk_cli_usage(const struct uk_cli *cli, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/*
 * Set the name that uk_util_warn and uk_util_die put before messages to
 * "PROG SUB" (a subcommand's), for the rest of the run.  sub is borrowed
 * and must outlive the program (a string literal or argv).
 */
void uk_cli_subcommand(const char *sub);

struct uk_buf;

/*
 * Check the standard descriptors, first thing in main() (after
 * uk_util_prog_set): a closed 0 or 2 is opened on /dev/null, so that no
 * descriptor the program opens later (libcurl's wake-up socket, a pipe to
 * the browser) takes its number and gets records or messages meant for
 * it; a closed 1 is fatal ("standard output is closed", exit
 * UK_EXIT_FATAL), since the records would be lost.
 */
void uk_cli_check_stdio(void);

/*
 * Make the text in b safe for a terminal, in place: every C0 control but
 * NUL, tab and line feed (BEL, ESC, CR, ...), DEL, and every C1 control
 * (U+0080 to U+009F) becomes U+FFFD, as such bytes in a page's HTML
 * already do (the HTML parser replaces them).  NUL, which no terminal
 * acts on, stays: a record's "\u0000" is written whole.  Text a page or a record
 * holds reaches a person's terminal through -T and urlsum -p and -c; a
 * control decoded from a character reference (&#27;]52;...&#7; writes
 * the clipboard, &#27;[2J clears the screen) must not act there.  Bytes
 * that are not UTF-8 are left as they are.  Returns the number replaced.
 */
size_t uk_cli_printable(struct uk_buf *b);

/*
 * The argument parsers of every program, for values the toolkit shares.
 * Each returns 0 with *out set, or -1 for a value it refuses.
 *
 * A size needs a unit: B, K, M, G or T (powers of 1024; "KB", "KiB" and
 * lower case are read alike), so "500" is refused, as a cache emptied by
 * "500 bytes" meant as megabytes would be.  0 needs none.
 */
int uk_cli_size(const char *s, unsigned long long *out);


/*
 * What the input path ("-": standard input) holds when it is a document
 * given where URLs or records are expected: "an HTML document" when its
 * first bytes (after a byte order mark and white space) are markup, "a
 * PDF document" when they are "%PDF-", else NULL.  Nothing is consumed:
 * a regular file is read with pread, standard input as a pipe is looked
 * at with tee(2), which copies what the pipe holds without taking it
 * (it waits for the first bytes, as reading the input would); a
 * terminal, a socket or a path that cannot be read gives NULL.
 */
const char *uk_cli_document(const char *path);

#endif
