/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonl.h"
#include "record.h"
#include "banned.h"

#define RBUF_SIZE 65536

int
uk_jsonl_open(struct uk_jsonl_in *l, const char *path, struct uk_err *err)
{
	memset(l, 0, sizeof(*l));
	uk_buf_init(&l->line, 0);
	l->max = UK_JSONL_MAX_LINE;
	if (!path || !strcmp(path, "-")) {
		l->fd = 0;
		l->name = "-";
	} else {
		l->name = path;
		l->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (l->fd < 0)
			return uk_err_set(err, UK_EXIT_FAIL, "cannot open '%s': %s",
			    path, strerror(errno));
	}
	l->rbuf = uk_xmalloc(RBUF_SIZE);
	return 0;
}

void
uk_jsonl_close(struct uk_jsonl_in *l)
{
	if (l->fd > 0)
		close(l->fd);
	l->fd = -1;
	free(l->rbuf);
	l->rbuf = NULL;
	uk_buf_release(&l->line);
}

const char *
uk_jsonl_name(const struct uk_jsonl_in *l)
{
	return strcmp(l->name, "-") ? l->name : "<stdin>";
}

static int
fill(struct uk_jsonl_in *l, struct uk_err *err)
{
	ssize_t n;

	if (l->eof)
		return 0;
	for (;;) {
		n = read(l->fd, l->rbuf, RBUF_SIZE);
		if (n >= 0)
			break;
		if (errno != EINTR)
			return uk_err_set(err, UK_EXIT_FATAL, "%s: read error: %s",
			    uk_jsonl_name(l), strerror(errno));
	}
	l->rpos = 0;
	l->rend = (size_t)n;
	if (!n)
		l->eof = 1;
	return n ? 1 : 0;
}

int
uk_jsonl_line(struct uk_jsonl_in *l, struct uk_err *err)
{
	int toolong = 0, any = 0, r;

	uk_buf_reset(&l->line);
	for (;;) {
		char *p, *nl;
		size_t n;

		if (l->rpos == l->rend) {
			if ((r = fill(l, err)) < 0)
				return -1;
			if (!r) {
				if (!any)
					return UK_JSONL_EOF;
				break;
			}
		}
		any = 1;
		p = l->rbuf + l->rpos;
		n = l->rend - l->rpos;
		nl = memchr(p, '\n', n);
		if (nl)
			n = (size_t)(nl - p);
		if (!toolong && l->line.len + n > l->max) {
			toolong = 1;
			uk_buf_release(&l->line);
		}
		if (!toolong)
			uk_buf_add(&l->line, p, n);
		l->rpos += n + (nl ? 1 : 0);
		if (nl)
			break;
	}
	l->lineno++;
	if (toolong)
		return UK_JSONL_TOOLONG;
	if (l->line.len && l->line.buf[l->line.len - 1] == '\r')
		uk_buf_setlen(&l->line, l->line.len - 1);
	return UK_JSONL_OK;
}

long
uk_jsonl_read(struct uk_jsonl_in *l, char *dst, size_t n, struct uk_err *err)
{
	size_t have;
	ssize_t r;

	if (l->rpos < l->rend) {
		have = l->rend - l->rpos;
		if (have > n)
			have = n;
		memcpy(dst, l->rbuf + l->rpos, have);
		l->rpos += have;
		return (long)have;
	}
	if (l->eof)
		return 0;
	for (;;) {
		r = read(l->fd, dst, n);
		if (r >= 0)
			break;
		if (errno != EINTR)
			return uk_err_set(err, UK_EXIT_FATAL, "%s: read error: %s",
			    uk_jsonl_name(l), strerror(errno));
	}
	if (!r)
		l->eof = 1;
	return (long)r;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f' &&
		    s[i] != '\v')
			return 0;
	return 1;
}

int
uk_jsonl_next(struct uk_jsonl_in *l, int flags, yajl_val *rec,
    struct uk_err *err)
{
	struct uk_buf clean = UK_BUF_INIT;
	const char *s;
	yajl_val v;
	size_t n;
	int r;

	*rec = NULL;
	for (;;) {
		r = uk_jsonl_line(l, err);
		if (r < 0)
			return -1;
		if (r == UK_JSONL_EOF)
			return 0;
		if (r == UK_JSONL_TOOLONG)
			return uk_err_set(err, UK_EXIT_FAIL,
			    "line longer than %zu bytes", l->max);
		if (!blank(l->line.buf, l->line.len))
			break;
	}
	s = l->line.buf;
	n = l->line.len;
	if (!uk_utf8_valid(s, n)) {
		uk_buf_add_utf8(&clean, s, n);
		s = clean.buf;
		n = clean.len;
	}
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (*s != '{') {
		if ((flags & UK_JSONL_BARE_URL) && n && !memchr(s, '\0', n)) {
			struct uk_buf u = UK_BUF_INIT;

			uk_buf_add(&u, s, n);
			uk_buf_trim(&u);
			/* Not an array; brackets inside are an IPv6 host. */
			if (u.len && u.buf[0] != '[' &&
			    !strpbrk(u.buf, " \t\"")) {
				v = uk_json_object();
				uk_json_set(v, "url", uk_json_strn(u.buf, u.len));
				uk_buf_release(&u);
				uk_buf_release(&clean);
				*rec = v;
				return 1;
			}
			uk_buf_release(&u);
		}
		uk_buf_release(&clean);
		return uk_err_set(err, UK_EXIT_FAIL, "%s",
		    flags & UK_JSONL_BARE_URL ?
			"not a JSON object or a URL" :
			"not a JSON object");
	}
	v = uk_json_parse(s, n, err);
	uk_buf_release(&clean);
	if (!v)
		return -1;
	if (v->type != yajl_t_object) {
		uk_json_free(v);
		return uk_err_set(err, UK_EXIT_FAIL, "not a JSON object");
	}
	*rec = v;
	return 1;
}

int uk_jsonl_output = UK_JSONL_AUTO;

void
uk_jsonl_out_init(struct uk_jsonl_out *o, FILE *fp)
{
	int tty = isatty(fileno(fp));
	const char *nc = getenv("NO_COLOR");

	o->fp = fp;
	o->g = uk_json_gen_new();
	o->batch = 0;
	o->pretty = uk_jsonl_output == UK_JSONL_PRETTY ||
	    (uk_jsonl_output == UK_JSONL_AUTO && tty);
	o->colour = o->pretty && tty && !(nc && *nc);
}

void
uk_jsonl_out_release(struct uk_jsonl_out *o)
{
	if (o->g)
		yajl_gen_free(o->g);
	o->g = NULL;
}

static void
write_failed(struct uk_jsonl_out *o)
{
	(void)o;
	uk_die(UK_EXIT_FATAL, "write error: %s", strerror(errno));
}

/*
 * Output is whole records, even when SIGINT, SIGTERM or SIGHUP ends the
 * program: those wait while bytes go out, and stdio's buffer is flushed
 * only between records (a record that does not fit what is left of it
 * goes after a flush), so a signal that lands between writes loses whole
 * buffered records, never half of one (uk_signals_hold).
 *
 * Write s and, when nl, a newline, as one unit.
 */
static void
put_unit(struct uk_jsonl_out *o, const char *s, size_t len, int nl)
{
	size_t total = len + (nl != 0), size = __fbufsize(o->fp);
	size_t pending = __fpending(o->fp);
	sigset_t old;
	int held = 0;

	/* A unit that leaves in one write(2) of at most PIPE_BUF bytes from
	 * an empty buffer needs nothing held: such a write to a pipe is all
	 * or nothing, and one to a file is not cut by a signal. */
	if (!o->batch && !pending && total <= PIPE_BUF && total < size) {
		if (fwrite(s, 1, len, o->fp) != len ||
		    (nl && fwrite("\n", 1, 1, o->fp) != 1) ||
		    fflush(o->fp) == EOF)
			write_failed(o);
		return;
	}
	if (!o->batch || pending + total > size) {
		uk_signals_hold(&old);
		held = 1;
		if (__fpending(o->fp) && fflush(o->fp) == EOF)
			write_failed(o);
	}
	if (fwrite(s, 1, len, o->fp) != len ||
	    (nl && fwrite("\n", 1, 1, o->fp) != 1))
		write_failed(o);
	if ((!o->batch || total > size) && fflush(o->fp) == EOF)
		write_failed(o);
	if (held)
		uk_signals_release(&old);
}

void
uk_jsonl_out_raw(struct uk_jsonl_out *o, const char *s, size_t len)
{
	put_unit(o, s, len, 0);
}

void
uk_jsonl_out_flush(struct uk_jsonl_out *o)
{
	sigset_t old;
	int r;

	if (!__fpending(o->fp))
		return; /* nothing to write: no need to hold anything */
	uk_signals_hold(&old);
	r = fflush(o->fp);
	uk_signals_release(&old);
	if (r == EOF)
		write_failed(o);
}

void
uk_jsonl_out_record(struct uk_jsonl_out *o, yajl_val rec)
{
	const unsigned char *p;
	size_t n;

	if (o->pretty) {
		struct uk_buf b;

		uk_buf_init(&b, 256);
		uk_json_pretty(&b, rec, o->colour);
		put_unit(o, b.buf, b.len, 1);
		uk_buf_release(&b);
		return;
	}
	yajl_gen_reset(o->g, NULL);
	if (uk_json_gen(o->g, rec) != yajl_gen_status_ok)
		uk_die(UK_EXIT_FATAL, "cannot serialise a record");
	yajl_gen_get_buf(o->g, &p, &n);
	put_unit(o, (const char *)p, n, 1);
	yajl_gen_clear(o->g);
}

yajl_val
uk_jsonl_error_record(const char *file, unsigned long line, const char *msg)
{
	yajl_val v = uk_json_object();

	uk_record_error(v, msg);
	/* The program, not the subcommand uk_cli_subcommand adds to uk_prog
	 * for messages: the field names a tool ("urlcache"). */
	uk_json_set(v, "tool", uk_json_strn(uk_prog, strcspn(uk_prog, " ")));
	uk_json_set_str(v, "file", file);
	uk_json_set_int(v, "line", (long long)line);
	return v;
}

void
uk_jsonl_out_error(struct uk_jsonl_out *o, const char *file, unsigned long line,
    const char *msg)
{
	yajl_val v;

	if (o) {
		v = uk_jsonl_error_record(file, line, msg);
		uk_jsonl_out_record(o, v);
		uk_json_free(v);
	}
	uk_warn("%s:%lu: %s", strcmp(file, "-") ? file : "<stdin>", line, msg);
	uk_status_set(UK_EXIT_FAIL);
}

void
uk_jsonl_out_finish(struct uk_jsonl_out *o)
{
	uk_jsonl_out_flush(o);
	if (ferror(o->fp))
		write_failed(o);
}

int
uk_jsonl_fit(yajl_val rec, size_t max)
{
	return uk_record_fit(rec, max);
}

int
uk_jsonl_is_error(yajl_val rec)
{
	yajl_val e = uk_json_get(rec, "error");

	return e && !YAJL_IS_NULL(e);
}

int
uk_jsonl_take(struct uk_jsonl_in *l, const struct uk_jsonl_policy *p,
    yajl_val *rec, struct uk_err *err)
{
	char msg[300];
	yajl_val v;
	int r;

	for (;;) {
		*rec = NULL;
		r = uk_jsonl_next(l, p->flags & UK_JSONL_BARE_URL, &v, err);
		if (r == 0)
			return 0;
		if (r < 0) {
			if (err->code == UK_EXIT_FATAL)
				return -1;
			if (p->q)
				uk_jsonl_queue_error(p->q, l->name, l->lineno,
				    err->msg);
			else
				uk_jsonl_out_error(p->out, l->name, l->lineno,
				    err->msg);
			continue;
		}
		if (!(p->flags & UK_JSONL_TAKE_FAILED) &&
		    uk_jsonl_is_error(v)) {
			if (p->q)
				uk_jsonl_queue_pass(p->q, v, l->name,
				    l->lineno);
			else {
				if (p->out && !(p->flags & UK_JSONL_DROP_PASS))
					uk_jsonl_out_record(p->out, v);
				uk_json_free(v);
			}
			continue;
		}
		if (p->require && !uk_json_get_str(v, p->require)) {
			if (!p->missing)
				snprintf(msg, sizeof(msg),
				    "no string field '%s'", p->require);
			uk_json_free(v);
			if (p->q)
				uk_jsonl_queue_error(p->q, l->name, l->lineno,
				    p->missing ? p->missing : msg);
			else
				uk_jsonl_out_error(p->out, l->name, l->lineno,
				    p->missing ? p->missing : msg);
			continue;
		}
		*rec = v;
		return 1;
	}
}

void
uk_jsonl_queue_init(struct uk_jsonl_queue *q, struct uk_jsonl_out *out)
{
	memset(q, 0, sizeof(*q));
	q->out = out;
}

static struct uk_jsonl_item *
queue_push(struct uk_jsonl_queue *q, enum uk_jsonl_kind kind, yajl_val rec,
    const char *file, unsigned long line)
{
	struct uk_jsonl_item *it = uk_xcalloc(1, sizeof(*it));

	if (q->head + q->n == q->cap) {
		if (q->head > 0) {
			memmove(q->v, q->v + q->head, q->n * sizeof(*q->v));
			q->head = 0;
		} else {
			q->cap = q->cap ? 2 * q->cap : 64;
			q->v = uk_xrealloc(q->v, q->cap * sizeof(*q->v));
		}
	}
	it->kind = kind;
	it->rec = rec;
	it->file = uk_xstrdup(file ? file : "-");
	it->line = line;
	it->done = kind != UK_JSONL_RECORD;
	q->v[q->head + q->n++] = it;
	q->total++;
	return it;
}

struct uk_jsonl_item *
uk_jsonl_queue_add(struct uk_jsonl_queue *q, yajl_val rec, const char *file,
    unsigned long line)
{
	return queue_push(q, UK_JSONL_RECORD, rec, file, line);
}

void
uk_jsonl_queue_pass(struct uk_jsonl_queue *q, yajl_val rec, const char *file,
    unsigned long line)
{
	queue_push(q, UK_JSONL_PASS, rec, file, line);
}

void
uk_jsonl_queue_error(struct uk_jsonl_queue *q, const char *file,
    unsigned long line, const char *msg)
{
	queue_push(q, UK_JSONL_ERROR, NULL, file, line)->msg = uk_xstrdup(msg);
}

void
uk_jsonl_item_write(struct uk_jsonl_out *o, const struct uk_jsonl_item *it)
{
	if (it->kind == UK_JSONL_ERROR)
		uk_jsonl_out_error(o, it->file, it->line, it->msg);
	else if (o && it->rec)
		uk_jsonl_out_record(o, it->rec);
}

static void
item_free(struct uk_jsonl_item *it)
{
	uk_json_free(it->rec);
	free(it->file);
	free(it->msg);
	free(it);
}

size_t
uk_jsonl_queue_flush(struct uk_jsonl_queue *q)
{
	struct uk_jsonl_item *it;
	size_t n = 0;

	while (q->n > 0 && (it = q->v[q->head])->done) {
		/* Off the queue first: the hook may add to it. */
		q->head++;
		q->n--;
		if (!q->n)
			q->head = 0;
		if (q->write)
			q->write(it, q->arg);
		else
			uk_jsonl_item_write(q->out, it);
		item_free(it);
		n++;
	}
	return n;
}

void
uk_jsonl_queue_release(struct uk_jsonl_queue *q)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		item_free(q->v[q->head + i]);
	free(q->v);
	memset(q, 0, sizeof(*q));
}
