/* SPDX-License-Identifier: MIT */
/* A content record as a person reads it: see view.h. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "json.h"
#include "tokens.h"
#include "util.h"
#include "view.h"
#include "banned.h"

int
uk_view_want(int fd)
{
	return isatty(fd);
}

int
uk_view_width(int fd)
{
	struct winsize ws;
	int w = 80;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		w = ws.ws_col;
	return w > UK_VIEW_MAX_WIDTH ? UK_VIEW_MAX_WIDTH : w;
}

/* Code points in s[0..n): the columns of text without wide glyphs. */
static size_t
columns(const char *s, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/*
 * Append line s[0..n) (no newline) wrapped at spaces to width columns:
 * greedy, as fmt(1) fills; a word wider than the line (a URL) stands on
 * a line of its own, whole.
 */
static void
wrap_line(struct uk_buf *b, const char *s, size_t n, size_t width)
{
	size_t col = 0, i = 0, j, w;

	if (columns(s, n) <= width) {
		uk_buf_add(b, s, n);
		return;
	}
	while (i < n) {
		for (j = i; j < n && s[j] != ' '; j++)
			;
		w = columns(s + i, j - i);
		if (col && col + 1 + w > width) {
			uk_buf_addch(b, '\n');
			col = 0;
		} else if (col) {
			uk_buf_addch(b, ' ');
			col++;
		}
		uk_buf_add(b, s + i, j - i);
		col += w;
		/* One space between words: runs of them end a line's fill. */
		for (i = j; i < n && s[i] == ' '; i++)
			;
	}
}

/* Append text[0..n) wrapped line by line, ending in a newline. */
static void
wrap(struct uk_buf *b, const char *t, size_t n, size_t width)
{
	const char *nl;
	size_t len;

	while (n) {
		nl = memchr(t, '\n', n);
		len = nl ? (size_t)(nl - t) : n;
		wrap_line(b, t, len, width);
		uk_buf_addch(b, '\n');
		if (!nl)
			break;
		n -= len + 1;
		t = nl + 1;
	}
}

void
uk_view_page(struct uk_buf *b, yajl_val rec, int width, int colour)
{
	struct uk_buf t = UK_BUF_INIT, ti = UK_BUF_INIT, meta = UK_BUF_INIT;
	const char *title = uk_json_get_str(rec, "title");
	const char *url = uk_json_get_str(rec, "url");
	const char *type = uk_json_get_str(rec, "url_type");
	const char *format = uk_json_get_str(rec, "format");
	const char *s;
	long long pages;
	size_t n, i;

	if ((s = uk_json_get_strn(rec, "content", &n))) {
		uk_buf_add(&t, s, n);
	} else {
		if ((s = uk_json_get_strn(rec, "readme", &n)))
			uk_buf_add(&t, s, n);
		if ((s = uk_json_get_strn(rec, "symbol_map", &n)) && n) {
			if (t.len)
				uk_buf_addstr(&t, "\n\n");
			uk_buf_add(&t, s, n);
		}
	}
	/* The header's strings come from the page: made harmless, apart
	 * from the bold that only this code writes. */
	if (title && *title) {
		uk_buf_addstr(&ti, title);
		for (i = 0; i < ti.len; i++)
			if (ti.buf[i] == '\n' || ti.buf[i] == '\t')
				ti.buf[i] = ' ';
		uk_cli_printable(&ti);
		uk_buf_addf(b, "%s%s%s\n", colour ? "\033[1m" : "", ti.buf,
		    colour ? "\033[0m" : "");
	}
	uk_buf_addf(&meta, "%s\n%s, %s, %zu tokens", url ? url : "",
	    type ? type : "web", format ? format : "text",
	    uk_tokens_count(UK_TOKENS_CL100K, t.buf ? t.buf : "", t.len));
	if (!uk_json_get_int(rec, "pages", &pages))
		uk_buf_addf(&meta, ", %lld pages", pages);
	uk_cli_printable(&meta);
	uk_buf_add(b, meta.buf, meta.len);
	uk_buf_addstr(b, "\n\n");
	uk_cli_printable(&t);
	wrap(b, t.buf ? t.buf : "", t.len, (size_t)(width > 20 ? width : 20));
	uk_buf_release(&t);
	uk_buf_release(&ti);
	uk_buf_release(&meta);
}

/* Whether a program named name is found on PATH (as execvp looks). */
static int
on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;
	struct uk_buf f = UK_BUF_INIT;
	int found = 0;

	for (p = path ? path : "/usr/bin:/bin"; !found && *p; p = e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		uk_buf_reset(&f);
		uk_buf_addf(&f, "%.*s/%s", (int)(e - p), p, name);
		found = access(f.buf, X_OK) == 0;
		if (*e == ':')
			e++;
	}
	uk_buf_release(&f);
	return found;
}

static pid_t pager_pid = -1;

/* At exit: the last bytes to the pager, its end of the pipe closed, and
 * the pager waited for, so the prompt comes after the text. */
static void
pager_wait(void)
{
	int st;

	if (pager_pid < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, &st, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

int
uk_view_pager_start(void)
{
	const char *pager = getenv("PAGER");
	int fd[2];
	pid_t pid;

	if (!pager) {
		if (!on_path("less"))
			return 0;
		pager = "less";
	}
	if (!*pager || !strcmp(pager, "cat") || pipe(fd))
		return 0;
	fflush(stdout);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		if (!getenv("LESS"))
			setenv("LESS", "FRX", 1);
		signal(SIGPIPE, SIG_DFL);
		/* Through the shell, as git runs it: PAGER may have words. */
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	pager_pid = pid;
	atexit(pager_wait);
	return 1;
}
