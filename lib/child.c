/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

#include "banned.h"

extern char **environ;

/* Whether the variable "NAME=..." of env is named in extra. */
static int
replaced(const char *env, const char *const *extra)
{
	const char *eq;

	for (; extra && *extra; extra++)
		if ((eq = strchr(*extra, '=')) &&
		    !strncmp(env, *extra, (size_t)(eq - *extra) + 1))
			return 1;
	return 0;
}

/* The child's environment: ours, with c->env added (the array only). */
static char **
child_env(const struct uk_child *c)
{
	size_t n = 0, k = 0, i;
	char **env;

	while (environ[n])
		n++;
	for (i = 0; c->env && c->env[i]; i++)
		;
	env = uk_util_xcalloc(n + i + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		if (!replaced(environ[i], c->env))
			env[k++] = environ[i];
	for (i = 0; c->env && c->env[i]; i++)
		env[k++] = (char *)c->env[i];
	env[k] = NULL;
	return env;
}

int
uk_child_start(struct uk_child *c, struct uk_err *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	sigset_t none, def;
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, rc;
	char **env;

	c->timed_out = c->out_cut = 0;
	c->out_fd = c->err_fd = -1;
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		uk_util_err_set(err, UK_EXIT_FAIL, "pipe: %s", strerror(errno));
		if (po[0] >= 0) {
			close(po[0]);
			close(po[1]);
		}
		return -1;
	}
	env = child_env(c);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	posix_spawnattr_init(&sa);
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGINT);
	posix_spawnattr_setsigmask(&sa, &none);
	posix_spawnattr_setsigdefault(&sa, &def);
	posix_spawnattr_setpgroup(&sa, 0);
	posix_spawnattr_setflags(&sa,
	    POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
		POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&c->pid, c->argv[0], &fa, &sa, (char *const *)c->argv,
	    env);
	posix_spawnattr_destroy(&sa);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	free(env);
	if (rc) {
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot run '%s': %s",
		    c->argv[0], strerror(rc));
		close(po[0]);
		close(pe[0]);
		return -1;
	}
	c->out_fd = po[0];
	c->err_fd = pe[0];
	return 0;
}

/* Take what fd i has to read; returns 0 once it is closed. */
static int
take(struct uk_child *c, struct pollfd *p, int i)
{
	struct uk_buf *b = i ? c->err : c->out;
	char buf[4096];
	ssize_t k = read(p->fd, buf, sizeof(buf));

	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (k <= 0) {
		close(p->fd);
		p->fd = -1;
		return 0;
	}
	if (b && (!c->max || b->len < c->max))
		uk_buf_add(b, buf, (size_t)k);
	else if (!i)
		c->out_cut = 1; /* read on, keep none */
	return 1;
}

int
uk_child_finish(struct uk_child *c)
{
	struct pollfd p[2];
	long long until = c->deadline, left;
	int i, open_fds = 2, termed = 0, status = -1;

	p[0].fd = c->out_fd;
	p[1].fd = c->err_fd;
	p[0].events = p[1].events = POLLIN;
	while (open_fds) {
		left = until ? until - uk_util_mono_ms() : 200;
		if (c->stop && *c->stop && !termed) {
			kill(-c->pid, SIGTERM);
			termed = 1;
			if (!until || left > UK_CHILD_GRACE_MS) {
				until = uk_util_mono_ms() + UK_CHILD_GRACE_MS;
				left = UK_CHILD_GRACE_MS;
			}
		}
		if (left <= 0) {
			c->timed_out = 1;
			kill(-c->pid, SIGKILL);
			break;
		}
		/* Slices of 200 ms: a signal may wake another thread. */
		if (poll(p, 2, left < 200 ? (int)left : 200) < 0 &&
		    errno != EINTR)
			break;
		for (i = 0; i < 2; i++)
			if (p[i].fd >= 0 &&
			    (p[i].revents & (POLLIN | POLLHUP)) &&
			    !take(c, &p[i], i))
				open_fds--;
	}
	for (i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	c->out_fd = c->err_fd = -1;
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int
uk_child_keep_fd(int fd)
{
	if (fd > 3) {
		if (dup2(fd, 3) < 0)
			return -1;
		fd = 3;
	}
	/* close_range (Linux 5.9, glibc 2.34) closes the rest in one call. */
	close_range(fd < 3 ? 3 : 4, ~0U, 0);
	return fd;
}
