/* SPDX-License-Identifier: MIT */
/*
 * The stdio transport (lib/mcp.h): one JSON-RPC message per line on in,
 * one per line on out.  A line longer than max_message is refused and
 * skipped in pieces as it comes, so memory stays bounded whatever the
 * client sends.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "mcp.h"
#include "mcp_int.h"

#include "banned.h"

/* How often the read loop and the wait at the end look at *stop. */
#define TICK_MS 200
/*
 * Calls a session may have (running and waiting their turn) before input
 * is read no further until some end: each holds its arguments, and a
 * client that sends calls faster than they finish must not grow memory
 * without end.  opts.max_queued bounds their bytes the same way.
 */
#define MAX_PENDING 1024

struct out {
	int fd;
	int dead; /* a write failed: the client is gone */
	int err;
};

/*
 * One message and its newline in one writev (the session's write lock is
 * held), the rest retried when the write is partial.
 */
static void
out_write(void *ctx, const char *msg, size_t len)
{
	struct out *o = ctx;
	struct iovec iov[2];
	int n = 2, i = 0;
	ssize_t w;

	if (o->dead)
		return;
	iov[0].iov_base = (void *)msg;
	iov[0].iov_len = len;
	iov[1].iov_base = (void *)"\n";
	iov[1].iov_len = 1;
	while (i < n) {
		w = writev(o->fd, iov + i, n - i);
		if (w < 0) {
			struct pollfd p = { o->fd, POLLOUT, 0 };

			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && poll(&p, 1, 1000) >= 0)
				continue;
			o->err = errno;
			__atomic_store_n(&o->dead, 1, __ATOMIC_SEQ_CST);
			return;
		}
		while (i < n && (size_t)w >= iov[i].iov_len)
			w -= (ssize_t)iov[i++].iov_len;
		if (i < n) {
			iov[i].iov_base = (char *)iov[i].iov_base + w;
			iov[i].iov_len -= (size_t)w;
		}
	}
}

struct reader {
	struct uk_mcp_session *s;
	struct uk_buf line;
	int skipping; /* inside a line already refused as too long */
	volatile const int *stop;
	struct out *o;
};

/*
 * Whether s has MAX_PENDING calls, or a message of len bytes would not
 * fit beside the calls held (opts.max_queued); if so, wait a tick for
 * one to end.
 */
static int
backlog(struct uk_mcp_session *s, size_t len)
{
	int full;

	full = !uk_mcp_call_room(s->m, len);
	pthread_mutex_lock(&s->mu);
	full = full || s->ncalls >= MAX_PENDING;
	if (full) {
		uk_mcp_call_wait_tick(&s->cv, &s->mu, TICK_MS);
	}
	pthread_mutex_unlock(&s->mu);
	return full;
}

static void
take_line(struct reader *r)
{
	struct uk_buf *l = &r->line;
	size_t i;

	if (l->len && l->buf[l->len - 1] == '\r')
		uk_buf_setlen(l, l->len - 1);
	for (i = 0; i < l->len && strchr(" \t\r", l->buf[i]); i++)
		;
	/* Held while the session has too many calls (see MAX_PENDING). */
	while (i < l->len && !(r->stop && *r->stop) &&
	    !__atomic_load_n(&r->o->dead, __ATOMIC_SEQ_CST) &&
	    backlog(r->s, l->len))
		;
	if (i < l->len)
		uk_mcp_dispatch(r->s, l->buf, l->len, &r->s->sink);
	uk_buf_reset(l);
}

static void
too_long(struct reader *r)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "message too long: over %zu bytes",
	    r->s->m->o.max_message);
	{
		struct uk_buf e = UK_BUF_INIT;

		uk_mcp_error_json(&e, NULL, -32600, b.buf);
		r->s->sink.emit(&r->s->sink, e.buf, e.len);
		uk_buf_release(&e);
	}
	uk_buf_release(&b);
	uk_buf_release(&r->line);
}

/* Split what was read into lines; each whole one is dispatched. */
static void
feed(struct reader *r, const char *p, size_t n)
{
	size_t max = r->s->m->o.max_message;

	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t seg = nl ? (size_t)(nl - p) : n;

		if (!r->skipping) {
			/* +1: the \r of a CRLF line is not the message's. */
			if (r->line.len + seg > max + 1) {
				too_long(r);
				r->skipping = 1;
			} else {
				uk_buf_add(&r->line, p, seg);
				if (nl)
					take_line(r);
			}
		}
		if (nl)
			r->skipping = 0;
		p += seg + (nl ? 1 : 0);
		n -= seg + (nl ? 1 : 0);
	}
}

/*
 * Wait for the session's calls to end; cancel them when *stop is set or
 * the client is gone.
 */
static void
drain(struct uk_mcp_session *s, volatile const int *stop, struct out *o)
{
	int cancelled = 0;

	pthread_mutex_lock(&s->mu);
	while (s->ncalls) {
		if (!cancelled &&
		    ((stop && *stop) ||
			__atomic_load_n(&o->dead, __ATOMIC_SEQ_CST))) {
			pthread_mutex_unlock(&s->mu);
			uk_mcp_session_cancel_all(s);
			pthread_mutex_lock(&s->mu);
			cancelled = 1;
			continue;
		}
		uk_mcp_call_wait_tick(&s->cv, &s->mu, TICK_MS);
	}
	pthread_mutex_unlock(&s->mu);
}

int
uk_mcp_stdio_serve(struct uk_mcp *m, int in, int out, volatile const int *stop,
    struct uk_err *err)
{
	struct out o = { out, 0, 0 };
	struct reader r;
	sigset_t pipe, old;
	struct timespec zero = { 0, 0 };
	char *chunk = uk_util_xmalloc(65536);
	int read_err = 0;

	/* A closed out is EPIPE for this thread, not the end of the process. */
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	memset(&r, 0, sizeof(r));
	r.s = uk_mcp_session_make(m, out_write, &o);
	r.stop = stop;
	r.o = &o;
	uk_buf_init(&r.line, 0);
	for (;;) {
		struct pollfd p = { in, POLLIN, 0 };
		ssize_t got;
		int n;

		if ((stop && *stop) ||
		    __atomic_load_n(&o.dead, __ATOMIC_SEQ_CST))
			break;
		n = poll(&p, 1, TICK_MS);
		if (n < 0 && errno != EINTR) {
			read_err = errno;
			break;
		}
		if (n <= 0)
			continue;
		got = read(in, chunk, 65536);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			read_err = errno;
			break;
		}
		if (got == 0) {
			/* The last line may lack its newline. */
			if (r.line.len && !r.skipping)
				take_line(&r);
			break;
		}
		feed(&r, chunk, (size_t)got);
	}
	/*
	 * At the end of input the calls still running finish and are
	 * answered (a client that wrote its requests and closed its end of
	 * the pipe reads the answers); *stop or a closed out cancels them.
	 */
	drain(r.s, stop, &o);
	uk_mcp_session_finish(r.s, 1);
	uk_buf_release(&r.line);
	free(chunk);
	if (sigtimedwait(&pipe, NULL, &zero) < 0) {
		/* No SIGPIPE was pending: nothing to take back. */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (o.dead && o.err != EPIPE)
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot write output: %s", strerror(o.err));
	if (read_err)
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot read input: %s", strerror(read_err));
	return 0;
}
