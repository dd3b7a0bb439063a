/* SPDX-License-Identifier: MIT */
/* Unit tests of the progress line (lib/progress) on a pseudo-terminal. */
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "buf.h"
#include "progress.h"
#include "tap.h"
#include "util.h"

#include "banned.h"

/*
 * What was written to the slave side of the pty since the last call: a
 * marker byte written after it tells where it ends (a pty delivers its
 * bytes in order, but not at once).
 */
static void
drain(int m, int s, struct uk_buf *b)
{
	char tmp[4096];
	ssize_t n;

	uk_buf_reset(b);
	if (write(s, "\001", 1) != 1)
		return;
	while ((n = read(m, tmp, sizeof(tmp))) > 0) {
		uk_buf_add(b, tmp, n);
		if (b->buf[b->len - 1] == '\001')
			break;
	}
	if (b->len)
		uk_buf_setlen(b, b->len - 1);
}

int
main(void)
{
	struct uk_progress p;
	struct uk_buf b = UK_BUF_INIT;
	struct winsize ws = { .ws_row = 24, .ws_col = 20 };
	int m, s, fds[2], i, err2;

	unsetenv("URLKIT_PROGRESS");
	unsetenv("TERM");
	if (openpty(&m, &s, NULL, NULL, &ws) < 0) {
		printf("1..0 # SKIP no pty\n");
		return 0;
	}

	uk_progress_init(&p, s, 0);
	ok(uk_progress_on(&p), "progress: on for a terminal");
	ok(uk_progress_show(&p, 0, "%d/%d %s", 1, 10, "a.test") == 1,
	    "progress: the first line is drawn");
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\r1/10 a.test\033[K"),
	    "progress: \\r, line, erase "
	    "to end: %s",
	    b.buf + 1);
	ok(uk_progress_show(&p, 0, "2/10") == 0,
	    "progress: a line within the interval is skipped");
	ok(uk_progress_show(&p, 1, "3/10") == 1, "progress: force draws");
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\r3/10\033[K"), "progress: forced line");
	uk_progress_show(&p, 1, "%s", "0123456789abcdefghijklmnopqrstuvwxyz");
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\r0123456789abcdefghi\033[K"),
	    "progress: cut to the width less one: %s", b.buf + 1);
	uk_buf_reset(&b);
	uk_buf_addstr(&b, "caf");
	for (i = 0; i < 30; i++)
		uk_buf_addstr(&b, "\xc3\xa9");
	uk_progress_show(&p, 1, "%s", b.buf);
	drain(m, s, &b);
	ok(uk_buf_utf8_valid(b.buf, b.len) && b.len == 1 + 3 + 16 * 2 + 3,
	    "progress: cut on a character boundary (%zu)", b.len);
	uk_progress_show(&p, 1, "a\nb\tc");
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\ra b c\033[K"),
	    "progress: control characters "
	    "become spaces");
	err2 = dup(2);
	dup2(open("/dev/null", O_WRONLY), 2);
	uk_util_warn("warned");
	dup2(err2, 2);
	close(err2);
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\r\033[K"),
	    "progress: uk_util_warn erases the line");
	uk_progress_show(&p, 1, "z");
	uk_progress_erase(&p);
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\rz\033[K\r\033[K"), "progress: clear erases");
	uk_progress_erase(&p);
	drain(m, s, &b);
	ok(b.len == 0, "progress: clear with nothing shown writes nothing");
	uk_progress_show(&p, 1, "x");
	uk_progress_done(&p);
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\rx\033[K\r\033[K"), "progress: done erases");
	ok(!uk_progress_on(&p) && uk_progress_show(&p, 1, "y") == 0,
	    "progress: off after done");

	setenv("TERM", "dumb", 1);
	uk_progress_init(&p, s, 0);
	uk_progress_show(&p, 1, "abcdef");
	uk_progress_show(&p, 1, "ab");
	uk_progress_done(&p);
	drain(m, s, &b);
	ok(!strcmp(b.buf, "\rabcdef\rab    \rab\r  \r"),
	    "progress: TERM=dumb erases with spaces");
	unsetenv("TERM");

	uk_progress_init(&p, s, 1);
	ok(!uk_progress_on(&p) && uk_progress_show(&p, 1, "q") == 0,
	    "progress: quiet is off");
	if (pipe(fds) == 0) {
		uk_progress_init(&p, fds[1], 0);
		ok(!uk_progress_on(&p), "progress: off for a pipe");
		setenv("URLKIT_PROGRESS", "1", 1);
		uk_progress_init(&p, fds[1], 0);
		ok(uk_progress_on(&p), "progress: URLKIT_PROGRESS=1 forces it");
		uk_progress_done(&p);
		setenv("URLKIT_PROGRESS", "0", 1);
		uk_progress_init(&p, s, 0);
		ok(!uk_progress_on(&p), "progress: URLKIT_PROGRESS=0 stops it");
		close(fds[0]);
		close(fds[1]);
	}
	close(m);
	close(s);
	uk_buf_release(&b);
	return tap_done();
}
