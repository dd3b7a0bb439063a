/* SPDX-License-Identifier: MIT */
/*
 * urlfetch's progress line (lib/progress): its clock, the host or the
 * repository it names, and its making way for the records.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "repo.h"
#include "urlfetch.h"
#include "util.h"
#include "banned.h"

struct urlfetch_progress prog;

void
progress_clear(void)
{
	uk_progress_erase(&prog.p);
}

void
progress_draw(int force)
{
	if (!prog.total || !uk_progress_on(&prog.p))
		return;
	uk_progress_show(&prog.p, force, "%s: %lu/%lu done, %lu failed%s%s",
	    uk_prog, prog.done, prog.total, prog.failed,
	    prog.repo || prog.host[0] ? ", " : "",
	    prog.repo ? prog.repo : prog.host);
}

/*
 * The line is drawn while fetches go on, not only when one ends: a
 * timer from UK_PROGRESS_AFTER on, every interval, wakes the wait.
 * uk_fetch_wait waits on one descriptor besides its transfers, so the
 * timer and the input's descriptor are put in one epoll set.
 */
void
progress_clock_init(void)
{
	struct itimerspec its = { { 0, (long)(UK_PROGRESS_INTERVAL * 1e9) },
		{ (time_t)UK_PROGRESS_AFTER, 0 } };
	struct epoll_event ev = { .events = EPOLLIN };

	/* A run that is done within a second needs no progress line. */
	prog.p.after = UK_PROGRESS_AFTER;
	prog.tfd = prog.ep = -1;
	if (!uk_progress_on(&prog.p))
		return;
	if ((prog.tfd = timerfd_create(CLOCK_MONOTONIC,
		 TFD_NONBLOCK | TFD_CLOEXEC)) < 0 ||
	    timerfd_settime(prog.tfd, 0, &its, NULL) ||
	    (prog.ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    epoll_ctl(prog.ep, EPOLL_CTL_ADD, prog.tfd, &ev)) {
		/* No clock: the line is drawn as fetches end. */
		if (prog.tfd >= 0)
			close(prog.tfd);
		if (prog.ep >= 0)
			close(prog.ep);
		prog.tfd = prog.ep = -1;
	}
}

/*
 * The descriptor to wait on for input fd (-1: none): the epoll set with
 * fd in it, or fd itself when there is no clock or epoll refuses fd (a
 * regular file, which is always ready).
 */
int
progress_wait_fd(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (prog.ep < 0)
		return fd;
	if (fd >= 0) {
		ev.data.fd = fd;
		if (epoll_ctl(prog.ep, EPOLL_CTL_ADD, fd, &ev) &&
		    errno != EEXIST)
			return fd;
	}
	return prog.ep;
}

/*
 * After a wait on wfd (progress_wait_fd's) for input fd: take fd out of
 * the set again (the next input may reuse its number), let the clock's
 * ticks go, and say whether fd itself is readable.
 */
int
progress_waited(int wfd, int fd, int ready)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	uint64_t ticks;

	if (wfd != prog.ep || prog.ep < 0)
		return ready;
	if (fd >= 0)
		epoll_ctl(prog.ep, EPOLL_CTL_DEL, fd, NULL);
	while (read(prog.tfd, &ticks, sizeof(ticks)) > 0)
		;
	return ready && fd >= 0 && poll(&pf, 1, 0) > 0;
}

void
progress_clock_release(void)
{
	if (prog.tfd >= 0)
		close(prog.tfd);
	if (prog.ep >= 0)
		close(prog.ep);
	prog.tfd = prog.ep = -1;
}

/* Note the host of url as the current one (control bytes shown as '?'). */
void
progress_host(const char *url)
{
	const char *p = strstr(url, "://"), *at;
	size_t i, n;

	if (!uk_progress_on(&prog.p))
		return;
	p = p ? p + 3 : url;
	n = strcspn(p, "/?#");
	if ((at = memchr(p, '@', n))) {
		n -= (size_t)(at + 1 - p);
		p = at + 1;
	}
	if (n >= sizeof(prog.host))
		n = sizeof(prog.host) - 1;
	for (i = 0; i < n; i++)
		prog.host[i] =
		    (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i];
	prog.host[n] = '\0';
}

/*
 * The repository step runs to its end before other transfers go on: its
 * progress (lib/repo.h) takes the line's place after the counts.
 */
void
progress_repo(const struct uk_repo_progress *p, void *arg)
{
	static int last_phase = -1;
	char line[100];
	int force = (int)p->phase != last_phase; /* each phase shows once */

	(void)arg;
	last_phase = (int)p->phase;
	if (p->phase == UK_REPO_FETCHING && p->received)
		snprintf(line, sizeof(line),
		    "%s: %.1f MB received, %lu files, %lu/%lu indexed",
		    prog.host, p->received / 1e6, p->files, p->indexed,
		    p->kept);
	else
		snprintf(line, sizeof(line), "%s: %lu files, %lu/%lu indexed",
		    prog.host, p->files, p->indexed,
		    p->phase == UK_REPO_INDEXING ? p->to_index : p->kept);
	prog.repo = line;
	progress_draw(force);
	prog.repo = NULL;
}

/* Before a record goes out, the progress line makes way (lib/progress). */
void
progress_make_way(void)
{
	uk_progress_make_way(&prog.p);
}
