/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "progress.h"
#include "util.h"

#include "banned.h"

/* The line uk_util_warn erases before it writes. */
static struct uk_progress *active;

static void
write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= n;
	}
}

static void
warn_hook(void)
{
	if (active)
		uk_progress_erase(active);
}

void
uk_progress_init(struct uk_progress *p, int fd, int quiet)
{
	const char *env = getenv("URLKIT_PROGRESS");
	const char *term = getenv("TERM");
	int on = !quiet && isatty(fd);
	struct stat st;

	if (env && *env)
		on = !quiet && strcmp(env, "0");
	memset(p, 0, sizeof(*p));
	p->fd = on ? fd : -1;
	p->interval = UK_PROGRESS_INTERVAL;
	p->dumb = term && !strcmp(term, "dumb");
	p->start = uk_util_mono_now();
	p->shared = isatty(STDOUT_FILENO) ||
	    (!fstat(STDOUT_FILENO, &st) && !S_ISREG(st.st_mode));
	if (on) {
		active = p;
		uk_warn_hook = warn_hook;
	}
}

int
uk_progress_on(const struct uk_progress *p)
{
	return p->fd >= 0;
}

/* Columns of the terminal, less one so the cursor never wraps. */
static size_t
columns(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col - 1;
	return 79;
}

/* Code points in s[0..len): the columns of a line without wide glyphs. */
static size_t
width(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

int
uk_progress_show(struct uk_progress *p, int force, const char *fmt, ...)
{
	struct uk_buf line = UK_BUF_INIT, out = UK_BUF_INIT;
	double now;
	size_t cols, i, w;
	va_list ap;

	if (p->fd < 0)
		return 0;
	now = uk_util_mono_now();
	if (now < p->start + p->after || now < p->hold)
		return 0;
	if (!force && p->shown && now - p->last < p->interval)
		return 0;
	va_start(ap, fmt);
	uk_buf_vaddf(&line, fmt, ap);
	va_end(ap);
	/* One line: control characters (a newline in a host name) go. */
	for (i = 0; i < line.len; i++)
		if ((unsigned char)line.buf[i] < 0x20 || line.buf[i] == 0x7f)
			line.buf[i] = ' ';
	cols = columns(p->fd);
	if (line.len > cols * 4)
		uk_buf_setlen(&line, uk_buf_utf8_cut(line.buf, cols * 4));
	while (width(line.buf, line.len) > cols)
		uk_buf_setlen(&line, uk_buf_utf8_cut(line.buf, line.len - 1));
	w = width(line.buf, line.len);
	uk_buf_addch(&out, '\r');
	uk_buf_add(&out, line.buf, line.len);
	if (p->dumb) {
		for (i = w; i < p->shown; i++)
			uk_buf_addch(&out, ' ');
		if (p->shown > w) {
			uk_buf_addch(&out, '\r');
			uk_buf_add(&out, line.buf, line.len);
		}
	} else {
		uk_buf_addstr(&out, "\033[K");
	}
	write_all(p->fd, out.buf, out.len);
	p->shown = w ? w : 1;
	p->last = now;
	uk_buf_release(&line);
	uk_buf_release(&out);
	return 1;
}

double
uk_progress_due(const struct uk_progress *p)
{
	double t = p->start + p->after;

	if (p->fd < 0)
		return 0;
	if (p->hold > t)
		t = p->hold;
	return t > uk_util_mono_now() ? t : 0;
}

void
uk_progress_make_way(struct uk_progress *p)
{
	if (p->fd < 0 || !p->shared)
		return;
	uk_progress_erase(p);
	p->hold = uk_util_mono_now() + p->interval;
}

void
uk_progress_erase(struct uk_progress *p)
{
	struct uk_buf out = UK_BUF_INIT;
	size_t i;

	if (p->fd < 0 || !p->shown)
		return;
	uk_buf_addch(&out, '\r');
	if (p->dumb) {
		for (i = 0; i < p->shown; i++)
			uk_buf_addch(&out, ' ');
		uk_buf_addch(&out, '\r');
	} else {
		uk_buf_addstr(&out, "\033[K");
	}
	write_all(p->fd, out.buf, out.len);
	uk_buf_release(&out);
	p->shown = 0;
}

void
uk_progress_done(struct uk_progress *p)
{
	uk_progress_erase(p);
	if (active == p) {
		active = NULL;
		uk_warn_hook = NULL;
	}
	p->fd = -1;
}
