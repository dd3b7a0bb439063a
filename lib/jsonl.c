/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonl.h"
#include "record.h"
#include "url.h"
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
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot open '%s': %s", path, strerror(errno));
	}
	l->rbuf = uk_util_xmalloc(RBUF_SIZE);
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
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "%s: read error: %s", uk_jsonl_name(l),
			    strerror(errno));
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
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "%s: read error: %s", uk_jsonl_name(l),
			    strerror(errno));
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

/* The length of the URI scheme (RFC 3986) s starts with, or 0. */
static size_t
scheme_len(const char *s, size_t n)
{
	size_t i = 0;

	if (!n || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	while (i < n &&
	    ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		(s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' ||
		s[i] == '.'))
		i++;
	return i;
}

/*
 * Whether the line s (n bytes, trimmed, not an object) is a bare URL: not
 * an array (brackets inside are an IPv6 host), and either a scheme and a
 * colon, whatever follows (its taker says what is wrong with it), or with
 * no blank, quote or NUL in it (a host, a local path): prose is neither.
 */
static int
bare_url(const char *s, size_t n)
{
	size_t i = scheme_len(s, n);

	if (*s == '[')
		return 0;
	if (i && i < n && s[i] == ':')
		return 1;
	for (i = 0; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '"' || !s[i])
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
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "line longer than %zu bytes", l->max);
		if (!blank(l->line.buf, l->line.len))
			break;
	}
	s = l->line.buf;
	n = l->line.len;
	if (!uk_buf_utf8_valid(s, n)) {
		uk_buf_add_utf8(&clean, s, n);
		s = clean.buf;
		n = clean.len;
	}
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (*s != '{') {
		struct uk_buf u = UK_BUF_INIT;

		if (flags & UK_JSONL_BARE_URL) {
			uk_buf_add(&u, s, n);
			uk_buf_trim(&u);
		}
		if (u.len && bare_url(u.buf, u.len)) {
			v = uk_json_object();
			uk_json_set(v, "url", uk_json_strn(u.buf, u.len));
			uk_buf_release(&u);
			uk_buf_release(&clean);
			*rec = v;
			return 1;
		}
		uk_buf_release(&u);
		uk_buf_release(&clean);
		return uk_util_err_set(err, UK_EXIT_FAIL, "%s",
		    flags & UK_JSONL_BARE_URL ? "not a JSON object or a URL" :
						"not a JSON object");
	}
	v = uk_json_parse(s, n, err);
	uk_buf_release(&clean);
	if (!v)
		return -1;
	if (v->type != yajl_t_object) {
		uk_json_free(v);
		return uk_util_err_set(err, UK_EXIT_FAIL, "not a JSON object");
	}
	*rec = v;
	return 1;
}

int uk_jsonl_output = UK_JSONL_AUTO;

void
uk_jsonl_out_init(struct uk_jsonl_out *o, FILE *fp)
{
	int tty = isatty(fileno(fp));

	o->fp = fp;
	o->g = uk_json_gen_new();
	o->batch = 0;
	o->pretty = uk_jsonl_output == UK_JSONL_PRETTY ||
	    (uk_jsonl_output == UK_JSONL_AUTO && tty);
	o->colour = o->pretty && uk_jsonl_colour(fileno(fp));
}

int
uk_jsonl_colour(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(fd) && !(nc && *nc) && term && *term &&
	    strcmp(term, "dumb");
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
	uk_util_die(UK_EXIT_FATAL, "write error: %s", strerror(errno));
}

/*
 * Output is whole records, even when SIGINT, SIGTERM or SIGHUP ends the
 * program: those wait while bytes go out, and stdio's buffer is flushed
 * only between records (a record that does not fit what is left of it
 * goes after a flush), so a signal that lands between writes loses whole
 * buffered records, never half of one (uk_util_signals_hold).
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
		uk_util_signals_hold(&old);
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
		uk_util_signals_release(&old);
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
	uk_util_signals_hold(&old);
	r = fflush(o->fp);
	uk_util_signals_release(&old);
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
		uk_json_pretty_add(&b, rec, o->colour);
		put_unit(o, b.buf, b.len, 1);
		uk_buf_release(&b);
		return;
	}
	yajl_gen_reset(o->g, NULL);
	if (uk_json_gen(o->g, rec) != yajl_gen_status_ok)
		uk_util_die(UK_EXIT_FATAL, "cannot serialise a record");
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
	uk_util_warn("%s:%lu: %s", strcmp(file, "-") ? file : "<stdin>", line,
	    msg);
	uk_util_status_set(UK_EXIT_FAIL);
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

/*
 * Input that is not a record to process (rule 1): its error record goes
 * where p says, or with give back to the caller in *rec (returns
 * UK_JSONL_SRC_REFUSED, err->msg the message); else returns 0.
 */
static int
refuse(struct uk_jsonl_in *l, const struct uk_jsonl_policy *p, int give,
    const char *msg, yajl_val *rec, struct uk_err *err)
{
	if (give) {
		*rec = uk_jsonl_error_record(l->name, l->lineno, msg);
		if (msg != err->msg)
			uk_util_err_set(err, UK_EXIT_FAIL, "%s", msg);
		err->code = UK_EXIT_FAIL;
		return UK_JSONL_SRC_REFUSED;
	}
	if (p->q)
		uk_jsonl_queue_error(p->q, l->name, l->lineno, msg);
	else
		uk_jsonl_out_error(p->out, l->name, l->lineno, msg);
	return 0;
}

/* uk_jsonl_take, and with give bad lines given back (UK_JSONL_GIVE_BAD). */
static int
take(struct uk_jsonl_in *l, const struct uk_jsonl_policy *p, int give,
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
			if ((r = refuse(l, p, give, err->msg, rec, err)))
				return r;
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
			if ((r = refuse(l, p, give,
				 p->missing ? p->missing : msg, rec, err)))
				return r;
			continue;
		}
		*rec = v;
		return 1;
	}
}

int
uk_jsonl_take(struct uk_jsonl_in *l, const struct uk_jsonl_policy *p,
    yajl_val *rec, struct uk_err *err)
{
	return take(l, p, 0, rec, err);
}

int
uk_jsonl_pending(const struct uk_jsonl_in *l)
{
	return l->rpos < l->rend || l->eof;
}

int
uk_jsonl_is_url_operand(const char *s)
{
	struct stat st;
	size_t n = scheme_len(s, strlen(s));

	if (n && !strncmp(s + n, "://", 3))
		return 1;
	return !stat(s, &st) && S_ISDIR(st.st_mode);
}

void
uk_jsonl_src_init(struct uk_jsonl_src *s, const struct uk_jsonl_policy *p)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
}

void
uk_jsonl_src_add(struct uk_jsonl_src *s, const char *arg, int what)
{
	s->v = uk_util_xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n].arg = arg;
	s->v[s->n].what = what;
	s->n++;
}

/*
 * Open the next input when it is a file and nothing is open: s->open,
 * or s->failed with s->err saying why.
 */
static void
src_open(struct uk_jsonl_src *s)
{
	if (!s->n)
		uk_jsonl_src_add(s, "-", UK_JSONL_SRC_FILE);
	if (s->open || s->failed || s->next >= s->n ||
	    s->v[s->next].what != UK_JSONL_SRC_FILE)
		return;
	s->index = s->next++;
	if (uk_jsonl_open(&s->in, s->v[s->index].arg, &s->err))
		s->failed = 1;
	else
		s->open = 1;
}

/* Refuse rec, setting its "error" to msg (err->msg too). */
static int
src_refuse(yajl_val rec, const char *msg, struct uk_err *err)
{
	uk_record_error(rec, msg);
	uk_util_err_set(err, UK_EXIT_FAIL, "%s", msg);
	return UK_JSONL_SRC_REFUSED;
}

/* The next operand's record, refused when it is not a URL. */
static int
src_operand(struct uk_jsonl_src *s, yajl_val *rec, struct uk_err *err)
{
	const char *a;
	struct uk_buf msg = UK_BUF_INIT;
	int r = UK_JSONL_SRC_REC;

	s->index = s->next++;
	s->name = NULL;
	s->lineno = 0;
	a = s->v[s->index].arg;
	*rec = uk_json_object();
	uk_json_set_str(*rec, "url", a);
	if (!uk_jsonl_is_url_operand(a)) {
		uk_buf_addf(&msg,
		    "not a URL: '%s' (to read records from a file, use -i %s)",
		    a, a);
		r = src_refuse(*rec, msg.buf, err);
		uk_buf_release(&msg);
	}
	return r;
}

int
uk_jsonl_src_next(struct uk_jsonl_src *s, yajl_val *rec, struct uk_err *err)
{
	const char *url;
	size_t len;
	int r;

	*rec = NULL;
	for (;;) {
		src_open(s);
		if (s->failed) {
			s->failed = 0;
			*err = s->err;
			s->name = s->v[s->index].arg;
			s->lineno = 0;
			return -1;
		}
		if (!s->open) {
			if (s->next >= s->n)
				return 0;
			return src_operand(s, rec, err);
		}
		r = take(&s->in, s->p, s->p->flags & UK_JSONL_GIVE_BAD, rec,
		    err);
		if (r < 0)
			return -1;
		if (r == 0) {
			uk_jsonl_close(&s->in);
			s->open = 0;
			continue;
		}
		s->name = s->in.name;
		s->lineno = s->in.lineno;
		url = uk_json_get_strn(*rec, "url", &len);
		if (r == 1 && url && len != strlen(url))
			return src_refuse(*rec, UK_URL_NUL_ERROR, err);
		return r == 1 ? UK_JSONL_SRC_REC : r;
	}
}

int
uk_jsonl_src_fd(struct uk_jsonl_src *s)
{
	src_open(s);
	if (!s->open)
		return -1;
	return uk_jsonl_pending(&s->in) ? -1 : s->in.fd;
}

int
uk_jsonl_src_more(const struct uk_jsonl_src *s)
{
	return !s->n || s->open || s->failed || s->next < s->n;
}

void
uk_jsonl_src_release(struct uk_jsonl_src *s)
{
	if (s->open)
		uk_jsonl_close(&s->in);
	free(s->v);
	memset(s, 0, sizeof(*s));
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
	struct uk_jsonl_item *it = uk_util_xcalloc(1, sizeof(*it));

	if (q->head + q->n == q->cap) {
		if (q->head > 0) {
			memmove(q->v, q->v + q->head, q->n * sizeof(*q->v));
			q->head = 0;
		} else {
			q->cap = q->cap ? 2 * q->cap : 64;
			q->v = uk_util_xrealloc(q->v, q->cap * sizeof(*q->v));
		}
	}
	it->kind = kind;
	it->rec = rec;
	it->file = uk_util_xstrdup(file ? file : "-");
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
	queue_push(q, UK_JSONL_ERROR, NULL, file, line)->msg =
	    uk_util_xstrdup(msg);
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
