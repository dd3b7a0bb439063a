/* SPDX-License-Identifier: MIT */
/* Unit tests of running a child program (lib/child). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "buf.h"
#include "child.h"
#include "util.h"
#define TAP_PREFIX "child: "
#include "tap.h"

#include "banned.h"

/* Run sh -c script; the status, with its output in out and err. */
static int
run(const char *script, const char *const *env, long ms, size_t max,
    struct uk_buf *out, struct uk_buf *err, struct uk_child *c)
{
	const char *argv[] = { "sh", "-c", script, NULL };
	struct uk_err e;
	struct uk_child init = UK_CHILD_INIT;

	*c = init;
	c->argv = argv;
	c->env = env;
	c->deadline = ms ? uk_util_mono_ms() + ms : 0;
	c->out = out;
	c->err = err;
	c->max = max;
	uk_buf_reset(out);
	uk_buf_reset(err);
	if (uk_child_start(c, &e)) {
		uk_buf_addstr(err, e.msg);
		return -1;
	}
	return uk_child_finish(c);
}

int
main(void)
{
	struct uk_buf out = UK_BUF_INIT, err = UK_BUF_INIT;
	const char *env[] = { "UK_T_A=one", "HOME=/nowhere", NULL };
	const char *none[] = { "no-such-program-here", NULL };
	volatile sig_atomic_t stop = 1;
	struct uk_child c;
	struct uk_err e;
	long long t0;
	int st;

	st = run("echo out; echo err >&2; exit 3", NULL, 0, 0, &out, &err, &c);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 3 && !strcmp(out.buf, "out\n") &&
		!strcmp(err.buf, "err\n") && !c.timed_out,
	    "exit status, stdout and stderr apart");

	st = run("read x; echo \"[$x]\"", NULL, 0, 0, &out, &err, &c);
	ok(WIFEXITED(st) && !strcmp(out.buf, "[]\n"),
	    "standard input is /dev/null");

	{
		/* env(1) prints the environment as it came, duplicates and
		 * all, where a shell would have merged them. */
		const char *argv[] = { "env", NULL };
		struct uk_child k = UK_CHILD_INIT;
		const char *p;
		int homes = 0;

		k.argv = argv;
		k.env = env;
		k.out = &out;
		uk_buf_reset(&out);
		if (!uk_child_start(&k, &e))
			uk_child_finish(&k);
		for (p = out.buf; (p = strstr(p, "HOME=")); p++)
			homes += p == out.buf || p[-1] == '\n';
		ok(strstr(out.buf, "\nUK_T_A=one\n") &&
			strstr(out.buf, "HOME=/nowhere\n") && homes == 1,
		    "env is added, replacing a variable of the same name");
	}

	st = run("head -c 10000 /dev/zero", NULL, 0, 100, &out, &err, &c);
	ok(WIFEXITED(st) && !WEXITSTATUS(st) && out.len >= 100 &&
		out.len < 10000 && c.out_cut,
	    "stdout over max: read to the end, the start kept, out_cut");

	t0 = uk_util_mono_ms();
	st = run("sleep 5 & sleep 5; echo never", NULL, 300, 0, &out, &err, &c);
	ok(c.timed_out && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL &&
		!out.len && uk_util_mono_ms() - t0 < 2000,
	    "at the deadline the group gets SIGKILL: timed_out");

	{
		/* A child that ignores SIGTERM (unless it comes before the
		 * trap is set) is killed when the grace is over. */
		const char *argv[] = { "sh", "-c", "trap '' TERM; sleep 5",
			NULL };
		struct uk_child k = UK_CHILD_INIT;

		k.argv = argv;
		k.stop = &stop;
		k.deadline = uk_util_mono_ms() + 10000;
		t0 = uk_util_mono_ms();
		st = -1;
		if (!uk_child_start(&k, &e))
			st = uk_child_finish(&k);
		ok(st != -1 && WIFSIGNALED(st) &&
			uk_util_mono_ms() - t0 < UK_CHILD_GRACE_MS + 1500,
		    "stop: SIGTERM to the group, SIGKILL after the grace");
	}

	c = (struct uk_child)UK_CHILD_INIT;
	c.argv = none;
	ok(uk_child_start(&c, &e) == -1 &&
		strstr(e.msg, "cannot run 'no-such-program-here'"),
	    "a program not found: -1 and the reason");

	uk_buf_release(&out);
	uk_buf_release(&err);
	return tap_done();
}
