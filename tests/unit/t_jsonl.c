/* SPDX-License-Identifier: MIT */
/* Unit tests for lib/jsonl's record policy and ordered output queue. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAP_PREFIX "jsonl: "
#include "jsonl.h"
#include "url.h"
#include "tap.h"

static char in_path[] = "/tmp/t_jsonl.in.XXXXXX";
static char err_path[] = "/tmp/t_jsonl.err.XXXXXX";

/* Write data as the input file and open it under the name "in". */
static void
open_input(struct uk_jsonl_in *l, const char *data)
{
	struct uk_err err;
	int fd = open(in_path, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, data, strlen(data)) != (ssize_t)strlen(data))
		abort();
	close(fd);
	if (uk_jsonl_open(l, in_path, &err))
		abort();
	l->name = "in";
}

/* The whole of fp from its start, in b. */
static void
slurp(FILE *fp, struct uk_buf *b)
{
	char chunk[4096];
	size_t n;

	fflush(fp);
	rewind(fp);
	uk_buf_reset(b);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		uk_buf_add(b, chunk, n);
}

/* What standard error received since the last call. */
static void
stderr_text(struct uk_buf *b)
{
	int fd;

	fflush(stderr);
	fd = open(err_path, O_RDONLY);
	uk_buf_reset(b);
	if (fd >= 0) {
		char chunk[4096];
		ssize_t n;

		while ((n = read(fd, chunk, sizeof(chunk))) > 0)
			uk_buf_add(b, chunk, (size_t)n);
		close(fd);
	}
	if (ftruncate(STDERR_FILENO, 0) || lseek(STDERR_FILENO, 0, SEEK_SET))
		abort();
}

static void
test_take(void)
{
	struct uk_jsonl_policy p = { .require = "url" };
	struct uk_buf got = UK_BUF_INIT, errs = UK_BUF_INIT;
	struct uk_jsonl_out o;
	struct uk_jsonl_in l;
	struct uk_err err;
	FILE *fp = tmpfile();
	yajl_val rec;
	int r;

	uk_jsonl_out_init(&o, fp);
	p.out = &o;
	open_input(&l,
	    "{\"url\":\"https://a.example/\"}\n"
	    "\n  \t\n"
	    "not json\n"
	    "{\"url\":\"https://b.example/\",\"error\":\"HTTP 404\"}\n"
	    "{\"title\":\"no url\"}\n"
	    "{\"url\":7}\n"
	    "{\"url\":\"https://c.example/\",\"error\":null}\n"
	    "[1]\n"
	    "https://d.example/\n");
	uk_status = 0;
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 1 && l.lineno == 1 &&
		!strcmp(uk_json_get_str(rec, "url"), "https://a.example/"),
	    "take: the first record, line 1");
	uk_json_free(rec);
	stderr_text(&errs);
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 1 && l.lineno == 8 &&
		!strcmp(uk_json_get_str(rec, "url"), "https://c.example/"),
	    "take: blank lines, a bad line, a pass-through and missing "
	    "fields handled; \"error\":null is no error");
	uk_json_free(rec);
	slurp(fp, &got);
	ok(!strcmp(got.buf,
	       "{\"error\":\"not a JSON object\",\"tool\":\"t_jsonl\","
	       "\"file\":\"in\",\"line\":4}\n"
	       "{\"url\":\"https://b.example/\",\"error\":\"HTTP 404\"}\n"
	       "{\"error\":\"no string field 'url'\",\"tool\":\"t_jsonl\","
	       "\"file\":\"in\",\"line\":6}\n"
	       "{\"error\":\"no string field 'url'\",\"tool\":\"t_jsonl\","
	       "\"file\":\"in\",\"line\":7}\n"),
	    "take: error records in order, the pass-through untouched");
	stderr_text(&errs);
	ok(strstr(errs.buf, "t_jsonl: in:4: not a JSON object\n") &&
		strstr(errs.buf, "t_jsonl: in:6: no string field 'url'\n") &&
		!strstr(errs.buf, "HTTP 404"),
	    "take: one stderr line per error record, none for a "
	    "pass-through");
	ok(uk_status == UK_EXIT_FAIL, "take: error records set status 1");
	uk_jsonl_close(&l);

	/* A pass-through alone leaves the status as it was. */
	uk_status = 0;
	open_input(&l, "{\"error\":\"upstream\",\"tool\":\"x\"}\n");
	p.missing = "give me a url";
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 0 && uk_status == 0, "take: a pass-through keeps status 0");
	uk_jsonl_close(&l);

	/* The program's message for a missing field; bare URLs. */
	open_input(&l, "{\"x\":1}\nhttps://d.example/\n");
	p.flags = UK_JSONL_BARE_URL;
	uk_buf_reset(&got);
	rewind(fp);
	if (ftruncate(fileno(fp), 0))
		abort();
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 1 && !strcmp(uk_json_get_str(rec, "url"), "https://d.example/"),
	    "take: a bare URL is a url record");
	uk_json_free(rec);
	slurp(fp, &got);
	ok(strstr(got.buf, "\"error\":\"give me a url\"") != NULL,
	    "take: the program's message for a missing field");
	ok(uk_jsonl_take(&l, &p, &rec, &err) == 0 && rec == NULL,
	    "take: 0 at the end of input");
	uk_jsonl_close(&l);

	/* No output: errors said on stderr only, pass-throughs dropped. */
	uk_status = 0;
	p.out = NULL;
	p.flags = 0;
	p.missing = NULL;
	p.require = NULL;
	rewind(fp);
	if (ftruncate(fileno(fp), 0))
		abort();
	stderr_text(&errs);
	open_input(&l, "oops\n{\"error\":\"e\"}\n{\"a\":1}\n");
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 1 && l.lineno == 3, "take without output: the record");
	uk_json_free(rec);
	slurp(fp, &got);
	stderr_text(&errs);
	ok(got.len == 0 && strstr(errs.buf, "in:1: not a JSON object") &&
		uk_status == UK_EXIT_FAIL,
	    "take without output: the error on stderr, status 1");
	uk_jsonl_close(&l);

	/* UK_JSONL_DROP_PASS: errors written, pass-throughs not. */
	p.out = &o;
	p.flags = UK_JSONL_DROP_PASS;
	open_input(&l, "{\"error\":\"e\"}\n[]\n");
	ok(uk_jsonl_take(&l, &p, &rec, &err) == 0, "drop: end of input");
	slurp(fp, &got);
	ok(!strstr(got.buf, "\"error\":\"e\"") && strstr(got.buf, "\"line\":2"),
	    "drop: the pass-through dropped, the error record written");
	stderr_text(&errs);
	uk_jsonl_close(&l);

	/* UK_JSONL_TAKE_FAILED: a failure is a record like any other. */
	p.flags = UK_JSONL_TAKE_FAILED;
	p.require = "url";
	open_input(&l, "{\"error\":\"e\"}\n{\"url\":\"u\",\"error\":\"e\"}\n");
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == 1 && l.lineno == 2 && uk_jsonl_is_error(rec),
	    "take failed: returned, and the required field still applies");
	uk_json_free(rec);
	stderr_text(&errs);
	uk_jsonl_close(&l);

	/* A read error is fatal and comes back to the caller. */
	open_input(&l, "{}\n");
	close(l.fd);
	l.fd = open("/", O_RDONLY | O_DIRECTORY);
	r = uk_jsonl_take(&l, &p, &rec, &err);
	ok(r == -1 && err.code == UK_EXIT_FATAL && strstr(err.msg, "read"),
	    "take: a read error is -1 with UK_EXIT_FATAL");
	uk_jsonl_close(&l);

	uk_jsonl_out_release(&o);
	fclose(fp);
	uk_buf_release(&got);
	uk_buf_release(&errs);
}

/* The queue's write hook: note the order, then write as by default. */
static void
hook(struct uk_jsonl_item *it, void *arg)
{
	struct uk_jsonl_queue *q = arg;
	static const char kinds[] = "RPE";

	fputc(kinds[it->kind], stderr);
	uk_jsonl_item_write(q->out, it);
}

static void
test_queue(void)
{
	struct uk_jsonl_policy p = { .require = "url" };
	struct uk_buf got = UK_BUF_INIT, errs = UK_BUF_INIT;
	struct uk_jsonl_item *a, *b;
	struct uk_jsonl_queue q;
	struct uk_jsonl_out o;
	struct uk_jsonl_in l;
	struct uk_err err;
	FILE *fp = tmpfile();
	yajl_val rec;

	uk_jsonl_out_init(&o, fp);
	uk_jsonl_queue_init(&q, &o);
	p.q = &q;
	uk_status = 0;
	open_input(&l,
	    "{\"url\":\"a\"}\n"
	    "bad\n"
	    "{\"url\":\"b\"}\n"
	    "{\"error\":\"up\"}\n"
	    "{\"nourl\":1}\n");
	ok(uk_jsonl_take(&l, &p, &rec, &err) == 1, "queue: record a");
	a = uk_jsonl_queue_add(&q, rec, l.name, l.lineno);
	ok(uk_jsonl_take(&l, &p, &rec, &err) == 1, "queue: record b");
	b = uk_jsonl_queue_add(&q, NULL, l.name, l.lineno);
	b->rec = rec;
	ok(uk_jsonl_take(&l, &p, &rec, &err) == 0, "queue: end of input");
	ok(q.n == 5 && q.total == 5, "queue: five items waiting");
	stderr_text(&errs);
	ok(uk_jsonl_queue_flush(&q) == 0 && errs.len == 0 && uk_status == 0,
	    "queue: nothing goes out before the head is done, not even "
	    "the error's stderr line");
	uk_json_set_str(b->rec, "done", "b");
	b->done = 1;
	ok(uk_jsonl_queue_flush(&q) == 0, "queue: b done, a not: nothing");
	uk_json_set_str(a->rec, "done", "a");
	a->done = 1;
	q.write = hook;
	q.arg = &q;
	ok(uk_jsonl_queue_flush(&q) == 5 && q.n == 0, "queue: all five out");
	slurp(fp, &got);
	ok(!strcmp(got.buf,
	       "{\"url\":\"a\",\"done\":\"a\"}\n"
	       "{\"error\":\"not a JSON object\",\"tool\":\"t_jsonl\","
	       "\"file\":\"in\",\"line\":2}\n"
	       "{\"url\":\"b\",\"done\":\"b\"}\n"
	       "{\"error\":\"up\"}\n"
	       "{\"error\":\"no string field 'url'\",\"tool\":\"t_jsonl\","
	       "\"file\":\"in\",\"line\":5}\n"),
	    "queue: input order kept, errors and pass-throughs in place");
	stderr_text(&errs);
	ok(!strncmp(errs.buf, "RE", 2) &&
		strstr(errs.buf, "in:2: not a JSON") &&
		strstr(errs.buf, "RP") && strstr(errs.buf, "in:5: no string"),
	    "queue: the hook sees every item in order");
	ok(uk_status == UK_EXIT_FAIL, "queue: the error records set status 1");
	uk_jsonl_close(&l);

	/* Items left when the queue is released are freed, unwritten. */
	q.write = NULL;
	uk_jsonl_queue_add(&q, uk_json_object(), "-", 1);
	uk_jsonl_queue_error(&q, "-", 2, "x");
	uk_jsonl_queue_release(&q);
	ok(q.n == 0 && q.v == NULL, "queue: released with items left");

	/* No output: a record is not written, an error only said. */
	uk_jsonl_queue_init(&q, NULL);
	uk_jsonl_queue_pass(&q, uk_json_object(), "-", 1);
	uk_jsonl_queue_error(&q, "-", 2, "said");
	rewind(fp);
	if (ftruncate(fileno(fp), 0))
		abort();
	ok(uk_jsonl_queue_flush(&q) == 2, "queue without output: flushed");
	slurp(fp, &got);
	stderr_text(&errs);
	ok(got.len == 0 && strstr(errs.buf, "<stdin>:2: said"),
	    "queue without output: nothing written, the error said");
	uk_jsonl_queue_release(&q);

	uk_jsonl_out_release(&o);
	fclose(fp);
	uk_buf_release(&got);
	uk_buf_release(&errs);
}

static void
test_error_record(void)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val v = uk_jsonl_error_record("-", 12, "bad \"x\"");

	uk_json_to_buf(v, &b);
	ok(!strcmp(b.buf,
	       "{\"error\":\"bad \\\"x\\\"\",\"tool\":\"t_jsonl\","
	       "\"file\":\"-\",\"line\":12}"),
	    "the error record's shape");
	ok(uk_jsonl_is_error(v), "is_error: a string");
	uk_json_set(v, "error", uk_json_null());
	ok(!uk_jsonl_is_error(v), "is_error: null is not an error");
	uk_json_del(v, "error");
	ok(!uk_jsonl_is_error(v), "is_error: absent");
	uk_json_free(v);
	uk_buf_release(&b);
}

/* Write data to path. */
static void
write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

static void
write_str(const char *path, const char *data)
{
	write_file(path, data, strlen(data));
}

static void
test_operand_rule(void)
{
	char dir[] = "/tmp/t_jsonl.dir.XXXXXX";

	ok(uk_jsonl_is_url_operand("https://a.example/x"), "operand: https");
	ok(uk_jsonl_is_url_operand("HTTP://A.EXAMPLE"), "operand: upper case");
	ok(uk_jsonl_is_url_operand("git+ssh://h.example/r.git"),
	    "operand: a scheme with '+'");
	ok(uk_jsonl_is_url_operand("file:///etc"), "operand: file://");
	ok(!uk_jsonl_is_url_operand("mailto:a@b.example"),
	    "operand: ':' without '//' is not a URL");
	ok(!uk_jsonl_is_url_operand("a.example:80/x"),
	    "operand: host:port is not a URL");
	ok(!uk_jsonl_is_url_operand("-"), "operand: '-' is not a URL");
	ok(!uk_jsonl_is_url_operand(""), "operand: empty");
	ok(!uk_jsonl_is_url_operand("1http://x"),
	    "operand: a scheme starts with a letter");
	ok(!uk_jsonl_is_url_operand("://x"), "operand: no scheme");
	ok(!uk_jsonl_is_url_operand(in_path), "operand: a file is not a URL");
	if (!mkdtemp(dir))
		abort();
	ok(uk_jsonl_is_url_operand(dir),
	    "operand: a directory is (a local repository)");
	rmdir(dir);
	ok(!uk_jsonl_is_url_operand(dir), "operand: ... once it exists");
}

/* The next record of s, its "url" in *url (a static copy; "" if none). */
static int
src_next(struct uk_jsonl_src *s, struct uk_err *err, const char **url,
    yajl_val *keep)
{
	static char u[256];
	yajl_val rec;
	const char *v;
	int r = uk_jsonl_src_next(s, &rec, err);

	v = rec ? uk_json_get_str(rec, "url") : NULL;
	snprintf(u, sizeof(u), "%s", v ? v : "");
	*url = u;
	if (keep)
		*keep = rec;
	else
		uk_json_free(rec);
	return r;
}

static void
test_src(void)
{
	static const char nul_rec[] =
	    "{\"url\":\"https://a.example/j\\u0000evil\",\"id\":7}\n";
	static const char raw_nul[] = "https://a.example/k\0evil\n";
	char b_path[] = "/tmp/t_jsonl.b.XXXXXX";
	struct uk_jsonl_policy p = { .flags = UK_JSONL_BARE_URL,
		.require = "url" };
	struct uk_buf got = UK_BUF_INIT, errs = UK_BUF_INIT;
	struct uk_jsonl_src s;
	struct uk_jsonl_out o;
	struct uk_err err;
	const char *url;
	FILE *fp = tmpfile();
	long long line;
	yajl_val rec;
	int r, fd;

	if ((fd = mkstemp(b_path)) < 0)
		abort();
	close(fd);
	uk_jsonl_out_init(&o, fp);
	p.out = &o;

	/* Operands and -i files, in the order given. */
	write_str(in_path,
	    "https://b.example/\n\n{\"url\":\"https://c."
	    "example/\",\"id\":\"c\"}\n");
	write_str(b_path, "  https://e.example/  \n");
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, "https://a.example/", UK_JSONL_SRC_URL);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	uk_jsonl_src_add(&s, "https://d.example/", UK_JSONL_SRC_URL);
	uk_jsonl_src_add(&s, b_path, UK_JSONL_SRC_FILE);
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://a.example/") &&
		!s.name && s.lineno == 0 && s.index == 0,
	    "src: an operand first, no file, no line");
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://b.example/") &&
		!strcmp(s.name, in_path) && s.lineno == 1 && s.index == 1,
	    "src: then the -i file's bare URL, line 1");
	r = src_next(&s, &err, &url, &rec);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://c.example/") &&
		!strcmp(uk_json_get_str(rec, "id"), "c") && s.lineno == 3,
	    "src: its record, fields kept, line 3");
	uk_json_free(rec);
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://d.example/") &&
		s.index == 2,
	    "src: the operand after the file");
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://e.example/") &&
		s.index == 3 && !strcmp(s.name, b_path),
	    "src: the second -i file, blanks trimmed");
	ok(src_next(&s, &err, &url, NULL) == 0 &&
		src_next(&s, &err, &url, NULL) == 0,
	    "src: 0 at the end, and again");
	uk_jsonl_src_release(&s);

	/* Refused input: an operand that is not a URL, a URL with NUL. */
	write_file(in_path, nul_rec, sizeof(nul_rec) - 1);
	write_file(b_path, raw_nul, sizeof(raw_nul) - 1);
	uk_status = 0;
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, "mailto:a@b.example", UK_JSONL_SRC_URL);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	uk_jsonl_src_add(&s, b_path, UK_JSONL_SRC_FILE);
	r = src_next(&s, &err, &url, &rec);
	ok(r == UK_JSONL_SRC_REFUSED && !strcmp(url, "mailto:a@b.example") &&
		!strcmp(err.msg,
		    "not a URL: 'mailto:a@b.example' (to read records from a "
		    "file, use -i mailto:a@b.example)") &&
		!strcmp(uk_json_get_str(rec, "error"), err.msg),
	    "src: an operand that is not a URL is refused, saying -i");
	uk_json_free(rec);
	r = src_next(&s, &err, &url, &rec);
	ok(r == UK_JSONL_SRC_REFUSED && !strcmp(err.msg, UK_URL_NUL_ERROR) &&
		!strcmp(uk_json_get_str(rec, "error"), UK_URL_NUL_ERROR) &&
		uk_json_get(rec, "id") && s.lineno == 1,
	    "src: a url record holding \\u0000 is refused, fields kept");
	uk_json_free(rec);
	r = src_next(&s, &err, &url, &rec);
	ok(r == UK_JSONL_SRC_REFUSED && !strcmp(err.msg, UK_URL_NUL_ERROR) &&
		uk_json_strlen(uk_json_get(rec, "url")) == 24,
	    "src: a bare URL line holding a NUL byte is refused too");
	uk_json_free(rec);
	ok(src_next(&s, &err, &url, NULL) == 0, "src: refused, then the end");
	slurp(fp, &got);
	ok(got.len == 0 && uk_status == 0,
	    "src: refused input is the caller's to write");
	uk_jsonl_src_release(&s);

	/* A file that cannot be opened: said, and the rest still read. */
	unlink(b_path);
	write_str(in_path, "https://f.example/\n");
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, b_path, UK_JSONL_SRC_FILE);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	r = src_next(&s, &err, &url, NULL);
	ok(r == -1 && err.code == UK_EXIT_FAIL && !strcmp(s.name, b_path) &&
		strstr(err.msg, "No such file"),
	    "src: a missing -i file is -1, UK_EXIT_FAIL, named");
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://f.example/"),
	    "src: the next file is read after it");
	uk_jsonl_src_release(&s);

	/* Bad lines go where the policy says, or come back (GIVE_BAD). */
	write_str(in_path,
	    "[1]\n{\"x\":1}\nnot a url {\nhttp://exa mple.com/\n");
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	stderr_text(&errs);
	r = src_next(&s, &err, &url, NULL);
	slurp(fp, &got);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "http://exa mple.com/") &&
		strstr(got.buf, "\"error\":\"not a JSON object or a URL\"") &&
		strstr(got.buf, "\"error\":\"no string field 'url'\"") &&
		strstr(got.buf, "\"line\":3"),
	    "src: bad lines written under the policy (prose is not a URL); "
	    "a scheme and a blank is a URL, for its taker to judge");
	stderr_text(&errs);
	uk_jsonl_src_release(&s);
	p.flags |= UK_JSONL_GIVE_BAD;
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	rewind(fp);
	if (ftruncate(fileno(fp), 0))
		abort();
	r = src_next(&s, &err, &url, &rec);
	ok(r == UK_JSONL_SRC_REFUSED && err.code == UK_EXIT_FAIL &&
		!strcmp(err.msg, "not a JSON object or a URL") &&
		uk_json_get_int(rec, "line", &line) == 0 && line == 1 &&
		!strcmp(uk_json_get_str(rec, "file"), in_path) &&
		!strcmp(uk_json_get_str(rec, "error"), err.msg),
	    "src give bad: the error record comes back");
	uk_json_free(rec);
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REFUSED && s.lineno == 2 &&
		!strcmp(err.msg, "no string field 'url'"),
	    "src give bad: and a record without the field");
	slurp(fp, &got);
	stderr_text(&errs);
	ok(got.len == 0 && errs.len == 0, "src give bad: nothing written");
	uk_jsonl_src_release(&s);
	p.flags &= ~UK_JSONL_GIVE_BAD;

	/* The descriptor to wait on, and no wait when input is pending. */
	write_str(in_path, "https://g.example/\nhttps://h.example/\n");
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, "https://a.example/", UK_JSONL_SRC_URL);
	uk_jsonl_src_add(&s, in_path, UK_JSONL_SRC_FILE);
	ok(uk_jsonl_src_fd(&s) == -1, "src fd: none before an operand");
	src_next(&s, &err, &url, NULL);
	fd = uk_jsonl_src_fd(&s);
	ok(fd > 2 && !uk_jsonl_pending(&s.in), "src fd: the file, opened");
	src_next(&s, &err, &url, NULL);
	ok(uk_jsonl_src_fd(&s) == -1 && uk_jsonl_pending(&s.in),
	    "src fd: none while a line is buffered");
	src_next(&s, &err, &url, NULL);
	ok(!strcmp(url, "https://h.example/") && uk_jsonl_src_fd(&s) == fd,
	    "src fd: the file's again once what was read is used up");
	ok(uk_jsonl_src_more(&s), "src more: the file's end not yet seen");
	ok(src_next(&s, &err, &url, NULL) == 0 && uk_jsonl_src_fd(&s) == -1,
	    "src fd: none at the end");
	ok(!uk_jsonl_src_more(&s), "src more: none at the end");
	uk_jsonl_src_release(&s);

	/* No input given, or "-": standard input. */
	write_str(b_path, "https://s.example/\n");
	if ((fd = open(b_path, O_RDONLY)) < 0 || dup2(fd, 0) < 0)
		abort();
	close(fd);
	uk_jsonl_src_init(&s, &p);
	ok(uk_jsonl_src_more(&s), "src more: standard input to read");
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://s.example/") &&
		!strcmp(s.name, "-"),
	    "src: no input given: standard input, named '-'");
	ok(src_next(&s, &err, &url, NULL) == 0, "src: stdin's end");
	uk_jsonl_src_release(&s);
	if ((fd = open(b_path, O_RDONLY)) < 0 || dup2(fd, 0) < 0)
		abort();
	close(fd);
	uk_jsonl_src_init(&s, &p);
	uk_jsonl_src_add(&s, "https://a.example/", UK_JSONL_SRC_URL);
	uk_jsonl_src_add(&s, "-", UK_JSONL_SRC_FILE);
	src_next(&s, &err, &url, NULL);
	r = src_next(&s, &err, &url, NULL);
	ok(r == UK_JSONL_SRC_REC && !strcmp(url, "https://s.example/") &&
		!strcmp(s.name, "-"),
	    "src: -i - is standard input, in its place");
	ok(src_next(&s, &err, &url, NULL) == 0, "src: -i -'s end");
	uk_jsonl_src_release(&s);

	unlink(b_path);
	uk_jsonl_out_release(&o);
	fclose(fp);
	uk_buf_release(&got);
	uk_buf_release(&errs);
}

int
main(int argc, char **argv)
{
	int fd, efd;

	(void)argc;
	uk_util_prog_set(argv[0]);
	fd = mkstemp(in_path);
	efd = mkstemp(err_path);
	if (fd < 0 || efd < 0)
		return 99;
	close(fd);
	/* Standard error to a file, so that its lines can be checked. */
	if (dup2(efd, STDERR_FILENO) < 0)
		return 99;
	close(efd);
	setvbuf(stderr, NULL, _IONBF, 0);
	test_error_record();
	test_take();
	test_queue();
	test_operand_rule();
	test_src();
	unlink(in_path);
	unlink(err_path);
	return tap_done();
}
