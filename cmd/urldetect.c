/* SPDX-License-Identifier: MIT */
/* urldetect: find http(s) URLs in text and classify them. */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "detect.h"
#include "json.h"
#include "jsonl.h"
#include "url.h"
#include "util.h"
#include "urldetect.h"
#include "banned.h"

void
seen_reset(struct uk_strset *st)
{
	if (st->cap > 4096)
		uk_strset_release(st);
	else
		uk_strset_reset(st);
}

#define WINDOW (1UL << 20)

struct urldetect_opts opt = { .type = -1, .with_filename = -1 };
const char *cur_file;
struct uk_jsonl_out out;
int found;
struct uk_detect *detector;
int cur_bare;

/* Text mode: the window, and newline accounting for -L. */
struct text {
	struct msg m;
	const char *win;
	unsigned long long nl_upto; /* newlines counted up to here */
};

/* Count messages (lines, for -L) up to the absolute offset pos. */
static void
advance(struct text *t, unsigned long long pos)
{
	const char *p, *end;

	if (!opt.lines || pos <= t->nl_upto)
		return;
	p = t->win + (t->nl_upto - t->m.abs);
	end = t->win + (pos - t->m.abs);
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		p++;
		t->m.no++;
		t->m.base = t->m.abs + (unsigned long long)(p - t->win);
		t->m.count = 0;
		seen_reset(&t->m.seen);
	}
	t->nl_upto = pos;
}

static int
text_found(void *ctx, const char *s, size_t start, size_t end)
{
	struct text *t = ctx;
	unsigned long long a = t->m.abs + start;

	advance(t, a);
	return emit(&t->m, s + start, end - start, a - t->m.base,
	    t->m.abs + end - t->m.base);
}

static int
text_found_bare(void *ctx, const char *s, size_t start, size_t end)
{
	struct text *t = ctx;
	unsigned long long a = t->m.abs + start;

	advance(t, a);
	return emit_bare(&t->m, s, start, end, a - t->m.base,
	    t->m.abs + end - t->m.base);
}

/* Whether in has bytes (or its end) to read at once, without waiting. */
static int
more_now(struct uk_jsonl_in *in)
{
	struct pollfd p = { in->fd, POLLIN, 0 };

	if (in->rpos < in->rend)
		return 1;
	return poll(&p, 1, 0) > 0;
}

/* Scan one input stream as text; returns -1 on a fatal read error. */
static int
scan_text(struct uk_jsonl_in *in, struct text *t)
{
	struct uk_detect d;
	struct uk_err err;
	size_t cap = WINDOW + UK_DETECT_MAX_URL + 2 * UK_DETECT_LOOKBACK;
	char *win = uk_util_xmalloc(cap);
	size_t len = 0, from = 0, done, keep;
	long n;
	int final = 0;

	uk_detect_init(&d);
	if (opt.bare)
		uk_detect_bare(&d);
	detector = &d;
	t->win = win;
	while (!final) {
		n = uk_jsonl_read(in, win + len, cap - len, &err);
		if (n < 0) {
			uk_util_warn("%s", err.msg);
			free(win);
			return -1;
		}
		final = n == 0;
		len += (size_t)n;
		/*
		 * What the pipe holds already is read before the scan: one
		 * scan and one write of records for a window, not for each
		 * 64 KiB a pipe gives at a time (1,000 writes and as many
		 * signal masks on 64 MB); when nothing more is there, the
		 * records of what came go out now, as the input streams.
		 */
		while (!final && len < WINDOW && more_now(in)) {
			n = uk_jsonl_read(in, win + len, cap - len, &err);
			if (n < 0) {
				uk_util_warn("%s", err.msg);
				free(win);
				return -1;
			}
			final = n == 0;
			len += (size_t)n;
		}
		done = uk_detect_scan(&d, win, from, len, final,
		    opt.bare ? text_found_bare : text_found, t);
		if (done == (size_t)-1)
			break;
		out_flush();
		if (final)
			break;
		/* Keep the unfinished tail and some context before it. */
		keep = done > UK_DETECT_LOOKBACK ? done - UK_DETECT_LOOKBACK : 0;
		advance(t, t->m.abs + keep);
		memmove(win, win + keep, len - keep);
		t->m.abs += keep;
		len -= keep;
		from = done - keep;
	}
	if (d.toolong)
		uk_util_warn("%s: skipped %lu URL%s longer than %d bytes",
		    uk_jsonl_name(in), d.toolong, d.toolong == 1 ? "" : "s",
		    UK_DETECT_MAX_URL);
	detector = NULL;
	free(win);
	return 0;
}

static int
scan_found(void *ctx, const char *s, size_t start, size_t end)
{
	return emit(ctx, s + start, end - start, start, end);
}

static int
scan_found_bare(void *ctx, const char *s, size_t start, size_t end)
{
	return emit_bare(ctx, s, start, end, start, end);
}

/*
 * How records are read (lib/jsonl): bad lines become error records; those
 * that arrive failed pass through, unless the output is URLs (-u) or
 * nothing (-q).
 */
static void
policy_init(struct uk_jsonl_policy *p, int flags, const char *require)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags | (opt.urls || opt.quiet ? UK_JSONL_DROP_PASS : 0);
	p->require = require;
	p->out = &out;
}

/* --json: the message is a field of each record. */
static int
scan_records(struct uk_jsonl_in *in)
{
	struct uk_jsonl_policy p;
	struct uk_detect d;
	struct uk_err err;
	struct msg m;
	yajl_val rec;
	const char *text;
	size_t len;
	int r;

	memset(&m, 0, sizeof(m));
	policy_init(&p, 0, opt.field);
	while ((r = uk_jsonl_take(in, &p, &rec, &err)) > 0) {
		text = uk_json_get_strn(rec, opt.field, &len);
		m.no = in->lineno;
		m.count = 0;
		m.id = uk_json_get(rec, "id");
		if (!m.id)
			m.id = uk_json_int((long long)in->lineno);
		id_of = NULL; /* a new id, perhaps at the last one's address */
		seen_reset(&m.seen);
		uk_detect_init(&d);
		if (opt.bare)
			uk_detect_bare(&d);
		detector = &d;
		/* All of it: a NUL ends a URL, not the message. */
		r = uk_detect_scan(&d, text, 0, len, 1,
		    opt.bare ? scan_found_bare : scan_found, &m) == (size_t)-1;
		detector = NULL;
		if (!uk_json_get(rec, "id"))
			uk_json_free(m.id);
		uk_json_free(rec);
		out_flush();
		if (r)
			break;
	}
	uk_strset_release(&m.seen);
	if (r < 0) {
		uk_util_warn("%s", err.msg);
		return -1;
	}
	return 0;
}

/*
 * A record refused by lib/jsonl's source (its URL holds NUL: classified,
 * the URL would be what comes before): said, and written with its error.
 */
static void
classify_refused(const struct uk_jsonl_src *src, yajl_val rec, const char *msg)
{
	uk_util_warn("%s:%lu: '%s': %s",
	    strcmp(src->name, "-") ? src->name : "<stdin>", src->lineno,
	    uk_json_get_str(rec, "url"), msg);
	uk_util_status_set(UK_EXIT_FAIL);
	if (!opt.urls && !opt.quiet)
		uk_jsonl_out_record(&out, rec);
}

/*
 * --classify: the url records or bare URLs of the file at path classified
 * again.  Returns 1 when -q found one, -1 on a read error, else 0.
 */
static int
classify_file(const char *path)
{
	struct uk_jsonl_policy p;
	struct uk_jsonl_src src;
	struct uk_err err;
	struct uk_url u;
	yajl_val rec;
	const char *url;
	int r;

	policy_init(&p, UK_JSONL_BARE_URL, "url");
	uk_jsonl_src_init(&src, &p);
	uk_jsonl_src_add(&src, path, UK_JSONL_SRC_FILE);
	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
		if (r < 0) {
			uk_util_warn("%s", err.msg);
			if (err.code == UK_EXIT_FATAL)
				break;
			uk_util_status_set(UK_EXIT_FAIL);
			continue;
		}
		if (r == UK_JSONL_SRC_REFUSED) {
			classify_refused(&src, rec, err.msg);
			uk_json_free(rec);
			continue;
		}
		url = uk_json_get_str(rec, "url");
		uk_url_classify(url, &u);
		if (opt.type < 0 || (int)u.type == opt.type) {
			found = 1;
			if (opt.quiet) {
				uk_url_release(&u);
				uk_json_free(rec);
				r = 1;
				break;
			}
			if (opt.urls) {
				uk_jsonl_out_raw(&out, url, strlen(url));
				uk_jsonl_out_raw(&out, "\n", 1);
				out_flush();
			} else {
				uk_url_to_record(&u, rec);
				if (cur_file)
					uk_json_set_str(rec, "file", cur_file);
				uk_jsonl_out_record(&out, rec);
			}
		}
		uk_url_release(&u);
		uk_json_free(rec);
	}
	uk_jsonl_src_release(&src);
	return r;
}

/* The name -H gives a file: as given, "-" as grep(1) names it. */
static const char *
file_label(const char *path)
{
	return strcmp(path, "-") ? path : "(standard input)";
}

/*
 * Scan the file at path, the i-th operand (0 for standard input), as the
 * options say.  Returns what the scan returned (-1: fatal), or 0 when the
 * file cannot be opened (said, and exit status 1).
 */
static int
scan_file(const char *path, int i, struct text *t)
{
	struct uk_jsonl_in in;
	struct uk_err err;
	int r;

	if (opt.classify) {
		cur_file = opt.with_filename ? file_label(path) : NULL;
		file_of = NULL;
		return classify_file(path);
	}
	if (uk_jsonl_open(&in, path, &err)) {
		uk_util_warn("%s", err.msg);
		uk_util_status_set(UK_EXIT_FAIL);
		return 0;
	}
	cur_file = opt.with_filename ? file_label(in.name) : NULL;
	file_of = NULL;
	if (opt.field) {
		r = scan_records(&in);
	} else {
		/* Each file is a message of its own; with -L, lines are
		 * numbered within the file. */
		t->m.no = opt.lines ? 1 : (unsigned long)i + 1;
		t->m.count = 0;
		seen_reset(&t->m.seen);
		t->m.abs = t->m.base = t->nl_upto = 0;
		r = scan_text(&in, t);
	}
	uk_jsonl_close(&in);
	return r;
}

int
main(int argc, char **argv)
{
	struct text t;
	const char *e;
	int i, r = 0;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	reference = (e = getenv("UK_URLDETECT_REFERENCE")) && *e;
	i = urldetect_opts_parse(argc, argv);
	argc -= i;
	argv += i;
	/* As grep: file names when several files are given, unless told. */
	if (opt.with_filename < 0)
		opt.with_filename = argc > 1;
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&urldetect_cli, "-o: cannot open '%s': %s",
		    opt.output, strerror(errno));

	/* Records go out after each chunk of input is scanned, not each URL:
	 * a large buffer in between saves a write per URL. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	uk_jsonl_out_init(&out, stdout);
	out.batch = 1;
	memset(&t, 0, sizeof(t));
	t.m.no = 1;
	for (i = 0; i < (argc ? argc : 1); i++) {
		r = scan_file(argc ? argv[i] : "-", i, &t);
		if (r < 0)
			uk_util_status_set(UK_EXIT_FATAL);
		if (r || (opt.quiet && found))
			break;
	}
	out_flush();
	uk_strset_release(&t.m.seen);
	uk_buf_release(&rbuf);
	uk_buf_release(&bare_url);
	uk_buf_release(&id_json);
	uk_buf_release(&file_json);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	if (opt.quiet && uk_status < UK_EXIT_USAGE)
		return found ? UK_EXIT_OK : UK_EXIT_FAIL;
	/* As grep: 1 when no URL was found (or none of -y's type). */
	if (!found && uk_status < UK_EXIT_FAIL)
		return UK_EXIT_FAIL;
	return uk_status;
}

