/* SPDX-License-Identifier: MIT */
/*
 * Tool calls (lib/mcp.h): the pool of worker threads that runs them in
 * arrival order, at most opts.jobs at once; their results, cancellation,
 * progress and logging.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "mcp.h"
#include "mcp_int.h"

#include "banned.h"

/* RFC 5424's severities, as logging/setLevel names them, lowest first. */
static const char *const levels[] = { "debug", "info", "notice", "warning",
	"error", "critical", "alert", "emergency", NULL };

int
uk_mcp_call_level(const char *name)
{
	int i;

	for (i = 0; name && levels[i]; i++)
		if (!strcmp(levels[i], name))
			return i;
	return -1;
}

void
uk_mcp_call_add_str(struct uk_buf *b, const char *s)
{
	yajl_val v = uk_json_str(s);

	uk_json_to_buf(v, b);
	uk_json_free(v);
}

void
uk_mcp_call_send_result(struct mcp_sink *k, const char *id,
    const char *result)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}", id,
	    result);
	k->emit(k, b.buf, b.len);
	uk_buf_release(&b);
}

void
uk_mcp_call_cancel_locked(struct uk_mcp_call *c)
{
	uint64_t one = 1;

	if (c->cancelled)
		return;
	c->cancelled = 1;
	if (write(c->cancel_fd, &one, sizeof(one)) < 0) {
		/* An eventfd's counter cannot overflow from one write. */
	}
}

void
uk_mcp_call_release(struct uk_mcp_call *c)
{
	struct uk_mcp_session *s = c->s;

	c->k->done(c->k);
	uk_json_free(c->args);
	uk_json_free(c->progress);
	c->args = c->progress = NULL;
	if (c->bytes) {
		pthread_mutex_lock(&s->m->mu);
		s->m->held -= c->bytes;
		pthread_mutex_unlock(&s->m->mu);
	}
	pthread_mutex_lock(&s->mu);
	/*
	 * The descriptor is closed before the session lets the call go: once
	 * ncalls is 0 the caller may open files, which must not get a number
	 * this thread is about to close.
	 */
	close(c->cancel_fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		s->calls = c->next;
	if (c->next)
		c->next->prev = c->prev;
	s->ncalls--;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	free(c->id);
	free(c);
}

int
uk_mcp_call_room(struct uk_mcp *m, size_t len)
{
	int ok;

	pthread_mutex_lock(&m->mu);
	ok = !m->o.max_queued || !m->held ||
	    m->held + len <= m->o.max_queued;
	pthread_mutex_unlock(&m->mu);
	return ok;
}

int
uk_mcp_call_hold(struct uk_mcp *m, size_t len)
{
	int ok;

	pthread_mutex_lock(&m->mu);
	ok = !m->o.max_queued || !m->held ||
	    m->held + len <= m->o.max_queued;
	if (ok)
		m->held += len;
	pthread_mutex_unlock(&m->mu);
	return ok;
}

static void
run_call(struct uk_mcp_call *c)
{
	if (!uk_mcp_call_cancelled(c))
		c->tool->t->fn(c, c->args, c->s->app);
	if (!c->finished)
		uk_mcp_call_error(c, "tool %s ended without a result",
		    c->tool->t->name);
	uk_mcp_call_release(c);
}

/*
 * A worker: calls from the queue, in arrival order.  Every asynchronous
 * signal is blocked here, so that the program's handlers run on its main
 * thread, and a write to a closed pipe fails with EPIPE instead of
 * killing the process.
 */
static void *
worker(void *arg)
{
	struct uk_mcp *m = arg;
	struct uk_mcp_call *c;

	pthread_mutex_lock(&m->mu);
	for (;;) {
		while (!m->qhead && !m->quit) {
			m->idle++;
			pthread_cond_wait(&m->cv, &m->mu);
			m->idle--;
		}
		if (!m->qhead)
			break;
		c = m->qhead;
		m->qhead = c->qnext;
		if (!m->qhead)
			m->qtail = NULL;
		m->qlen--;
		pthread_mutex_unlock(&m->mu);
		run_call(c);
		pthread_mutex_lock(&m->mu);
	}
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

static void
block_signals(sigset_t *old)
{
	sigset_t set;

	sigfillset(&set);
	sigdelset(&set, SIGSEGV);
	sigdelset(&set, SIGBUS);
	sigdelset(&set, SIGFPE);
	sigdelset(&set, SIGILL);
	sigdelset(&set, SIGABRT);
	sigdelset(&set, SIGTRAP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
uk_mcp_call_enqueue(struct uk_mcp *m, struct uk_mcp_call *c)
{
	sigset_t old;

	pthread_mutex_lock(&m->mu);
	if (m->qtail)
		m->qtail->qnext = c;
	else
		m->qhead = c;
	m->qtail = c;
	m->qlen++;
	if (m->qlen > (size_t)m->idle && m->nthreads < m->o.jobs) {
		block_signals(&old);
		if (!pthread_create(&m->threads[m->nthreads], NULL, worker, m))
			m->nthreads++;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_cond_signal(&m->cv);
	pthread_mutex_unlock(&m->mu);
	if (!m->nthreads) {
		/* No thread could be made: run it here rather than never. */
		pthread_mutex_lock(&m->mu);
		m->qhead = m->qtail = NULL;
		m->qlen = 0;
		pthread_mutex_unlock(&m->mu);
		run_call(c);
	}
}

/* The results a tool gives. */

static void
finish(struct uk_mcp_call *c, yajl_val structured, const char *text,
    int is_error)
{
	yajl_val res, content, block;
	struct uk_buf b = UK_BUF_INIT, t = UK_BUF_INIT;
	int cancelled;

	pthread_mutex_lock(&c->s->mu);
	cancelled = c->cancelled;
	pthread_mutex_unlock(&c->s->mu);
	if (c->finished || cancelled) {
		/* A cancelled call is never answered (the protocol's rule). */
		c->finished = 1;
		uk_json_free(structured);
		return;
	}
	c->finished = 1;
	if (!text && structured)
		uk_json_to_buf(structured, &t);
	res = uk_json_object();
	content = uk_json_array();
	block = uk_json_object();
	uk_json_set_str(block, "type", "text");
	uk_json_set_str(block, "text", text ? text : t.buf);
	uk_json_push(content, block);
	uk_json_set(res, "content", content);
	if (structured)
		uk_json_set(res, "structuredContent", structured);
	uk_json_set_bool(res, "isError", is_error);
	uk_json_to_buf(res, &b);
	uk_json_free(res);
	uk_mcp_call_send_result(c->k, c->id, b.buf);
	uk_buf_release(&b);
	uk_buf_release(&t);
}

void
uk_mcp_call_result(struct uk_mcp_call *c, yajl_val structured, const char *text,
    int is_error)
{
	if (structured && !YAJL_IS_OBJECT(structured)) {
		/* structuredContent must be an object: give it as text. */
		struct uk_buf t = UK_BUF_INIT;

		uk_json_to_buf(structured, &t);
		uk_json_free(structured);
		finish(c, NULL, text ? text : t.buf, is_error);
		uk_buf_release(&t);
		return;
	}
	finish(c, structured, text, is_error);
}

void
uk_mcp_call_error(struct uk_mcp_call *c, const char *fmt, ...)
{
	struct uk_buf msg = UK_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	uk_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	finish(c, NULL, msg.buf, 1);
	uk_buf_release(&msg);
}

int
uk_mcp_call_cancel_fd(struct uk_mcp_call *c)
{
	return c->cancel_fd;
}

int
uk_mcp_call_cancelled(struct uk_mcp_call *c)
{
	int r;

	pthread_mutex_lock(&c->s->mu);
	r = c->cancelled;
	pthread_mutex_unlock(&c->s->mu);
	return r;
}

/* A number as JSON: finite, shortest that reads back the same. */
static void
add_number(struct uk_buf *b, double d)
{
	char tmp[64];

	snprintf(tmp, sizeof(tmp), "%.17g", isfinite(d) ? d : 0.0);
	uk_buf_addstr(b, tmp);
}

void
uk_mcp_call_progress(struct uk_mcp_call *c, double progress, double total,
    const char *message)
{
	struct uk_buf b = UK_BUF_INIT;

	if (!c->progress || c->finished || uk_mcp_call_cancelled(c))
		return;
	uk_buf_addstr(&b,
	    "{\"jsonrpc\":\"2.0\",\"method\":"
	    "\"notifications/progress\",\"params\":"
	    "{\"progressToken\":");
	uk_json_to_buf(c->progress, &b);
	uk_buf_addstr(&b, ",\"progress\":");
	add_number(&b, progress);
	if (total >= 0) {
		uk_buf_addstr(&b, ",\"total\":");
		add_number(&b, total);
	}
	if (message) {
		uk_buf_addstr(&b, ",\"message\":");
		uk_mcp_call_add_str(&b, message);
	}
	uk_buf_addstr(&b, "}}");
	c->k->emit(c->k, b.buf, b.len);
	uk_buf_release(&b);
}

void
uk_mcp_call_log(struct uk_mcp_call *c, const char *level, const char *fmt, ...)
{
	struct uk_buf msg = UK_BUF_INIT, b = UK_BUF_INIT;
	int l = uk_mcp_call_level(level), min;
	va_list ap;

	if (l < 0) {
		level = "info";
		l = 1;
	}
	va_start(ap, fmt);
	uk_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* The header's promise: every log line reaches stderr too. */
	flockfile(stderr);
	fprintf(stderr, "%s: %s: ", uk_prog ? uk_prog : "mcp", level);
	uk_util_fputs_clean(msg.buf, stderr);
	fputc('\n', stderr);
	funlockfile(stderr);
	pthread_mutex_lock(&c->s->mu);
	min = c->s->log_level;
	pthread_mutex_unlock(&c->s->mu);
	if (l >= min && !c->finished && !uk_mcp_call_cancelled(c)) {
		uk_buf_addstr(&b,
		    "{\"jsonrpc\":\"2.0\",\"method\":"
		    "\"notifications/message\",\"params\":"
		    "{\"level\":");
		uk_mcp_call_add_str(&b, level);
		uk_buf_addstr(&b, ",\"logger\":");
		uk_mcp_call_add_str(&b,
		    c->s->m->o.name ? c->s->m->o.name : "mcp");
		uk_buf_addstr(&b, ",\"data\":");
		uk_mcp_call_add_str(&b, msg.buf);
		uk_buf_addstr(&b, "}}");
		c->k->emit(c->k, b.buf, b.len);
	}
	uk_buf_release(&b);
	uk_buf_release(&msg);
}

void
uk_mcp_call_wait_tick(pthread_cond_t *cv, pthread_mutex_t *mu, long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(cv, mu, &ts);
}
