/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "jsonl.h"
#include "util.h"
#include "banned.h"

/* Print the synopsis, and with full the options, to f. */
static void
help(const struct uk_cli *cli, FILE *f, int full)
{
	fputs(cli->synopsis, f);
	if (full && cli->options) {
		fputc('\n', f);
		fputs(cli->options, f);
	}
}

void
uk_cli_usage(const struct uk_cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s: ", cli->name);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "try '%s --help'\n", cli->name);
	exit(UK_EXIT_USAGE);
}

/* The long option that argv's word names, without "--" or "=value", for
 * messages (cut at 64 bytes: it is the user's input). */
static void
long_name(const char *word, char *dst, size_t size)
{
	size_t n;

	if (!word || strncmp(word, "--", 2)) {
		snprintf(dst, size, "%s", word ? word : "?");
		return;
	}
	word += 2;
	n = strcspn(word, "=");
	if (n > 64)
		n = 64;
	snprintf(dst, size, "--%.*s", (int)n, word);
}

/* The option string with ':' after any leading '+' or '-', so that a
 * missing value is told from an unknown option. */
static const char *
quiet_optstring(const char *optstring)
{
	static const char *last_in;
	static char *last_out;
	size_t lead = strspn(optstring, "+-");

	if (optstring == last_in)
		return last_out;
	free(last_out);
	last_out = uk_util_xmalloc(strlen(optstring) + 2);
	memcpy(last_out, optstring, lead);
	last_out[lead] = ':';
	memcpy(last_out + lead + 1, optstring + lead, strlen(optstring + lead) + 1);
	last_in = optstring;
	return last_out;
}

int
uk_cli_getopt(const struct uk_cli *cli, int argc, char *const argv[],
    const char *optstring, const struct option *longopts)
{
	char name[80];
	const char *word;
	int c, prev = optind;

	opterr = 0;
	for (;;) {
		/* optind 0 (getopt restarted for a subcommand) is 1. */
		prev = optind ? optind : 1;
		c = getopt_long(argc, argv, quiet_optstring(optstring), longopts,
		    NULL);
		/* The word the option came from: the last one getopt passed
		 * that starts with '-' (it may have stepped over operands,
		 * which it permutes later, or over an option's value); for a
		 * short option in a cluster, optind has not moved yet. */
		word = optind > prev ? argv[optind - 1] : argv[prev];
		for (int i = optind - 1; i >= prev; i--)
			if (argv[i] && argv[i][0] == '-') {
				word = argv[i];
				break;
			}
		switch (c) {
		case 'h':
			if (!strchr(optstring, 'h'))
				return c;
			help(cli, stdout, 0);
			exit(UK_EXIT_OK);
		case UK_OPT_HELP:
			help(cli, stdout, 1);
			exit(UK_EXIT_OK);
		case 'V':
			if (!strchr(optstring, 'V'))
				return c;
			printf("%s %s\n", uk_prog, UK_VERSION);
			exit(UK_EXIT_OK);
		case UK_OPT_COMPACT:
			uk_jsonl_output = UK_JSONL_COMPACT;
			continue;
		case UK_OPT_PRETTY:
			uk_jsonl_output = UK_JSONL_PRETTY;
			continue;
		case ':':
			if (word && !strncmp(word, "--", 2)) {
				long_name(word, name, sizeof(name));
				uk_cli_usage(cli, "option %s needs a value",
				    name);
			}
			uk_cli_usage(cli, "option -%c needs a value", optopt);
		case '?':
			if (word && !strncmp(word, "--", 2)) {
				long_name(word, name, sizeof(name));
				if (optopt && strchr(word, '='))
					uk_cli_usage(cli,
					    "option %s takes no value", name);
				uk_cli_usage(cli, "unknown option %s", name);
			}
			if (optopt > 32 && optopt < 127)
				uk_cli_usage(cli, "unknown option -%c", optopt);
			uk_cli_usage(cli, "unknown option");
		default:
			return c;
		}
	}
}

void
uk_cli_subcommand(const char *sub)
{
	static char name[64];

	if (!strchr(uk_prog, ' ')) {
		snprintf(name, sizeof(name), "%s %s", uk_prog, sub);
		uk_prog = name;
	}
}

int
uk_cli_size(const char *s, unsigned long long *out)
{
	size_t digits = s ? strspn(s, "0123456789") : 0;

	/* A number needs its unit, unless it is 0. */
	if (digits && !s[digits] && strspn(s, "0") != digits)
		return -1;
	return uk_util_parse_size(s, out);
}

/* The length of the control at s (1 or 2 bytes), or 0 for none. */
static size_t
control_len(const unsigned char *s, size_t n)
{
	if ((*s < 0x20 && *s && *s != '\t' && *s != '\n') || *s == 0x7f)
		return 1;
	if (*s == 0xc2 && n >= 2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;
	return 0;
}

size_t
uk_cli_printable(struct uk_buf *b)
{
	const unsigned char *p = (const unsigned char *)b->buf;
	struct uk_buf out = UK_BUF_INIT;
	size_t i, k, start = 0, n = 0;

	for (i = 0; i < b->len; i++)
		if (control_len(p + i, b->len - i))
			break;
	if (i == b->len)
		return 0;
	uk_buf_grow(&out, b->len + 16);
	while (i < b->len) {
		if (!(k = control_len(p + i, b->len - i))) {
			i++;
			continue;
		}
		uk_buf_add(&out, b->buf + start, i - start);
		uk_buf_add(&out, "\xef\xbf\xbd", 3);
		n++;
		i += k;
		start = i;
	}
	uk_buf_add(&out, b->buf + start, b->len - start);
	uk_buf_release(b);
	*b = out;
	return n;
}

/* Whether descriptor fd is closed. */
static int
fd_closed(int fd)
{
	return fcntl(fd, F_GETFD) < 0 && errno == EBADF;
}

/* Open /dev/null on the closed descriptor fd (0 or 2); 0 or -1. */
static int
null_on(int fd)
{
	int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);

	if (n < 0)
		return -1;
	if (n != fd) {
		/* (The lowest free number: 1 when it is closed too.) */
		if (dup2(n, fd) < 0) {
			close(n);
			return -1;
		}
		close(n);
	}
	return 0;
}

void
uk_cli_check_stdio(void)
{
	int out_closed = fd_closed(1);

	/* While 1 is closed, a descriptor opened for 0 or 2 could take it:
	 * 1 is held on /dev/null meanwhile, and closed again. */
	if (out_closed && null_on(1))
		exit(UK_EXIT_FATAL);
	if ((fd_closed(0) && null_on(0)) || (fd_closed(2) && null_on(2)))
		exit(UK_EXIT_FATAL);
	if (out_closed) {
		close(1);
		uk_util_die(UK_EXIT_FATAL, "standard output is closed");
	}
}

/* What buf[0..n) starts as: see uk_cli_document. */
static const char *
document_kind(const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;

	if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end && strchr(" \t\r\n", *p))
		p++;
	if (end - p >= 5 && !memcmp(p, "%PDF-", 5))
		return "a PDF document";
	/* A tag, a comment, a doctype or an XML declaration: no record and
	 * no URL starts with '<'. */
	if (end - p >= 2 && *p == '<' &&
	    (p[1] == '!' || p[1] == '?' ||
		((p[1] | 0x20) >= 'a' && (p[1] | 0x20) <= 'z')))
		return "an HTML document";
	return NULL;
}

const char *
uk_cli_document(const char *path)
{
	char buf[512];
	struct stat st;
	ssize_t n = -1;
	off_t at;
	int fd, p[2];

	if (strcmp(path, "-")) {
		if (stat(path, &st) || !S_ISREG(st.st_mode) ||
		    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return NULL;
		n = pread(fd, buf, sizeof(buf), 0);
		close(fd);
	} else if (fstat(STDIN_FILENO, &st)) {
		return NULL;
	} else if (S_ISREG(st.st_mode)) {
		if ((at = lseek(STDIN_FILENO, 0, SEEK_CUR)) >= 0)
			n = pread(STDIN_FILENO, buf, sizeof(buf), at);
	} else if (S_ISFIFO(st.st_mode) && !pipe2(p, O_CLOEXEC)) {
		/* tee(2) duplicates what the pipe holds into p without
		 * consuming it; reading p then is a peek at the input. */
		do
			n = tee(STDIN_FILENO, p[1], sizeof(buf), 0);
		while (n < 0 && errno == EINTR);
		if (n > 0)
			n = read(p[0], buf, (size_t)n);
		close(p[0]);
		close(p[1]);
	}
	return n > 0 ? document_kind(buf, (size_t)n) : NULL;
}
