/* SPDX-License-Identifier: MIT */
/*
 * urlfetch: the extraction part only (--extract), so that extraction can be
 * tested and benchmarked; the networked urlfetch replaces this file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "extract.h"
#include "json.h"
#include "jsonl.h"
#include "util.h"

/* Extraction input larger than this is refused rather than truncated. */
#define EXTRACT_MAX (64UL << 20)

static const char usage_text[] = "usage: urlfetch -x file [-T] [-u url]\n";

static void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

/* Read all of path ("-": standard input) into b; -1 with err. */
static int
read_all(const char *path, struct uk_buf *b, struct uk_err *err)
{
	int fd = 0;
	ssize_t r;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
	}
	for (;;) {
		uk_buf_grow(b, 65536);
		r = read(fd, b->buf + b->len, b->alloc - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
			break;
		}
		if (!r)
			break;
		uk_buf_setlen(b, b->len + (size_t)r);
		if (b->len > EXTRACT_MAX) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: larger than %lu MiB",
			    path, EXTRACT_MAX >> 20);
			r = -1;
			break;
		}
	}
	if (fd)
		close(fd);
	return r < 0 ? -1 : 0;
}

static void
set_opt_str(yajl_val rec, const char *key, const char *s)
{
	if (s)
		uk_json_set_str(rec, key, s);
	else
		uk_json_set(rec, key, uk_json_null());
}

static int
extract_file(const char *path, const char *url, int text_only)
{
	struct uk_buf in = UK_BUF_INIT, u = UK_BUF_INIT;
	struct uk_extract x;
	struct uk_err err = { 0 };
	struct uk_out out;
	yajl_val rec;
	char now[64];
	int failed;

	memset(&x, 0, sizeof(x));
	failed = read_all(path, &in, &err) < 0 ||
	    uk_extract_html(in.buf, in.len, NULL, url, &x, &err) < 0;
	if (!url) {
		uk_buf_addstr(&u, "file://");
		if (strcmp(path, "-") && path[0] != '/') {
			char *cwd = getcwd(NULL, 0);

			if (cwd) {
				uk_buf_addstr(&u, cwd);
				uk_buf_addch(&u, '/');
				free(cwd);
			}
		}
		uk_buf_addstr(&u, strcmp(path, "-") ? path : "/dev/stdin");
		url = u.buf;
	}
	if (!failed && x.blocked)
		uk_err_set(&err, UK_EXIT_FAIL,
		    "'%s' is a block or challenge page, not content", url);
	if (text_only) {
		if (failed || x.blocked) {
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
		} else if (x.text[0]) {
			if (fputs(x.text, stdout) == EOF ||
			    putchar('\n') == EOF)
				uk_status_set(UK_EXIT_FATAL);
		}
		if (fflush(stdout) == EOF || ferror(stdout)) {
			uk_warn("write error: %s", strerror(errno));
			uk_status_set(UK_EXIT_FATAL);
		}
		goto out;
	}
	uk_out_init(&out, stdout);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", url);
	uk_json_set_str(rec, "url_type", "web");
	if (failed) {
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	} else {
		set_opt_str(rec, "title", x.title);
		set_opt_str(rec, "description", x.description);
		set_opt_str(rec, "author", x.author);
		set_opt_str(rec, "date", x.date);
		if (!x.blocked)
			uk_json_set_str(rec, "content", x.text);
	}
	uk_time_rfc3339(now, sizeof(now));
	uk_json_set_str(rec, "fetched_at", now);
	if (!failed && x.fallback)
		uk_json_set_str(rec, "extraction", "fallback");
	if (!failed && x.blocked) {
		uk_json_set_bool(rec, "blocked", 1);
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	}
	uk_out_record(&out, rec);
	uk_json_free(rec);
	uk_out_finish(&out);
	uk_out_release(&out);
out:
	uk_extract_release(&x);
	uk_buf_release(&in);
	uk_buf_release(&u);
	return uk_status;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "extract", required_argument, NULL, 'x' },
		{ "text", no_argument, NULL, 'T' },
		{ "url", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *url = NULL;
	int c, text = 0;

	uk_prog_set(argv[0]);
	while ((c = getopt_long(argc, argv, "x:Tu:hV", longopts, NULL)) != -1)
		switch (c) {
		case 'x':
			file = optarg;
			break;
		case 'T':
			text = 1;
			break;
		case 'u':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		case 'V':
			printf("urlfetch %s\n", UK_VERSION);
			return UK_EXIT_OK;
		default:
			usage(UK_EXIT_USAGE);
		}
	if (optind != argc || !file)
		usage(UK_EXIT_USAGE);
	return extract_file(file, url, text);
}
