/* SPDX-License-Identifier: MIT */
/* The extraction worker of lib/fetch.c: see fetch_pool.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "fetch.h"
#include "fetch_pool.h"
#include "util.h"

#include "banned.h"

/*
 * Extraction threads.  One: measured on this project's 2-core machine
 * (shared, load average 15 to 20), six heavy pages of 5 MB took 20 to 24 s
 * with one worker and 29 to 31 s with two, in 148 MB of memory against
 * 230 MB, two workers and the loop competing for the cores; the test of
 * tests/urlfetch-extract-thread.bats took 14 s against 17 s.  One worker
 * also leaves the loop a core of its own, and a PDF's reader child
 * (lib/pdf.c, forked) never inherits another reader's pipe.  The pool
 * takes more (POOL_MAX) should a machine with more cores want them.
 */
#define POOL_MAX 1

/*
 * The extraction worker: one thread, started at the first page.  Jobs go
 * to it through todo and come back through done, both under mu; a byte on
 * wake[1] tells the loop.  The loop waits on libcurl's sockets and, through
 * the epoll set ep, on wake[0] and the caller's input together, since
 * uk_http_wait watches one descriptor besides its own (an epoll set is one
 * descriptor that is readable when any of its members is).
 */
struct uk_fetch_pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th[POOL_MAX];
	int nth; /* threads running */
	int stop;
	struct uk_fetch_job *todo, *todo_last, *done, *done_last;
	long waiting; /* in todo */
	long busy;    /* in todo, being extracted or in done */
	int wake[2];
	int ep;
	int ep_fd; /* the caller's descriptor in ep, or -1 */
	void (*run)(struct uk_fetch_job *j); /* the worker's part of a job */
};

/*
 * Signals are for the loop's thread: the worker blocks those a process is
 * sent (uk_util_signals_hold on the loop's thread defers SIGTERM during a cache
 * write; the kernel would give it to the worker instead, and the process
 * would die with the write half done).  A child the worker forks (a PDF's
 * reader, lib/pdf.c) gets the loop's mask back, so that ^C still ends it.
 */
static pthread_once_t signals_once = PTHREAD_ONCE_INIT;
static sigset_t worker_blocks, child_mask;
static _Thread_local int in_worker;

static void
after_fork_child(void)
{
	if (in_worker)
		pthread_sigmask(SIG_SETMASK, &child_mask, NULL);
}

static void
signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM,
		SIGUSR1, SIGUSR2, SIGCHLD, SIGWINCH, SIGTSTP, SIGCONT };
	size_t i;

	sigemptyset(&worker_blocks);
	for (i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaddset(&worker_blocks, sigs[i]);
	pthread_atfork(NULL, NULL, after_fork_child);
}

/* Append j to the queue from *first to *last (mu held). */
static void
enqueue(struct uk_fetch_job **first, struct uk_fetch_job **last,
    struct uk_fetch_job *j)
{
	if (*last)
		(*last)->next = j;
	else
		*first = j;
	*last = j;
}

static void *
worker(void *arg)
{
	struct uk_fetch_pool *p = arg;
	struct uk_fetch_job *j;
	char c = 1;

	in_worker = 1;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->todo && !p->stop)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop)
			break;
		j = p->todo;
		if (!(p->todo = j->next))
			p->todo_last = NULL;
		j->next = NULL;
		p->waiting--;
		pthread_mutex_unlock(&p->mu);
		p->run(j);
		pthread_mutex_lock(&p->mu);
		enqueue(&p->done, &p->done_last, j);
		/* A full pipe (EAGAIN) already holds a byte for the loop. */
		if (write(p->wake[1], &c, 1) < 0)
			continue;
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void
uk_fetch_pool_free(struct uk_fetch_pool *p)
{
	int i;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->nth; i++)
		pthread_join(p->th[i], NULL);
	if (p->ep >= 0)
		close(p->ep);
	if (p->wake[0] >= 0)
		close(p->wake[0]);
	if (p->wake[1] >= 0)
		close(p->wake[1]);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

struct uk_fetch_pool *
uk_fetch_pool_new(void (*run)(struct uk_fetch_job *j))
{
	struct uk_fetch_pool *p = uk_util_xcalloc(1, sizeof(*p));
	struct epoll_event ev = { .events = EPOLLIN };
	int i;

	p->run = run;
	p->wake[0] = p->wake[1] = p->ep = p->ep_fd = -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	if (pipe2(p->wake, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    (p->ep = epoll_create1(EPOLL_CLOEXEC)) < 0)
		return p;
	ev.data.fd = p->wake[0];
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, p->wake[0], &ev) < 0)
		return p;
	/* The worker starts with the signals blocked (signals_init). */
	pthread_once(&signals_once, signals_init);
	pthread_sigmask(SIG_BLOCK, &worker_blocks, &child_mask);
	for (i = 0; i < POOL_MAX; i++)
		if (!pthread_create(&p->th[p->nth], NULL, worker, p))
			p->nth++;
	pthread_sigmask(SIG_SETMASK, &child_mask, NULL);
	return p;
}

int
uk_fetch_pool_running(const struct uk_fetch_pool *p)
{
	return p && p->nth;
}

int
uk_fetch_pool_submit(struct uk_fetch_pool *p, struct uk_fetch_job *j)
{
	if (!uk_fetch_pool_running(p))
		return -1;
	pthread_mutex_lock(&p->mu);
	enqueue(&p->todo, &p->todo_last, j);
	p->waiting++;
	p->busy++;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

struct uk_fetch_job *
uk_fetch_pool_take(struct uk_fetch_pool *p)
{
	struct uk_fetch_job *j;
	char c[64];

	if (!uk_fetch_pool_running(p))
		return NULL;
	while (read(p->wake[0], c, sizeof(c)) > 0)
		;
	pthread_mutex_lock(&p->mu);
	if ((j = p->done)) {
		if (!(p->done = j->next))
			p->done_last = NULL;
		j->next = NULL;
		p->busy--;
	}
	pthread_mutex_unlock(&p->mu);
	return j;
}

int
uk_fetch_pool_wait_fd(struct uk_fetch_pool *p, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (p->ep_fd >= 0 && p->ep_fd != fd) {
		/* Gone already when closed: ENOENT and EBADF are fine. */
		epoll_ctl(p->ep, EPOLL_CTL_DEL, p->ep_fd, NULL);
		p->ep_fd = -1;
	}
	if (fd < 0)
		return p->wake[0];
	ev.data.fd = fd;
	/* EEXIST: still in the set.  A descriptor closed and opened again
	 * under the same number left the set when it was closed. */
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, fd, &ev) < 0 && errno != EEXIST)
		return fd;
	p->ep_fd = fd;
	return p->ep;
}

long
uk_fetch_pool_busy(const struct uk_fetch_pool *p)
{
	/* busy is the loop's own count (submit, take): no lock. */
	return p ? p->busy : 0;
}

long
uk_fetch_pool_waiting(struct uk_fetch_pool *p)
{
	long n;

	if (!p)
		return 0;
	pthread_mutex_lock(&p->mu);
	n = p->waiting;
	pthread_mutex_unlock(&p->mu);
	return n;
}

int
uk_fetch_pool_wake_fd(const struct uk_fetch_pool *p)
{
	return p->wake[0];
}
