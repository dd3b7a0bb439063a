/* SPDX-License-Identifier: MIT */
/* Files written atomically: see write.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"
#include "write.h"

#include "banned.h"

#define NS 1000000000LL

/*
 * For the crash tests only: URLKIT_TEST_WRITE_DELAY=N (microseconds) makes
 * writes go in 4 KiB pieces with a pause between, so that a SIGKILL lands
 * inside a write far more often than in real use.
 */
static size_t
test_chunk(size_t n)
{
	static long delay = -1;
	const char *e;

	if (delay < 0) {
		e = getenv("URLKIT_TEST_WRITE_DELAY");
		delay = e ? atol(e) : 0;
		if (delay < 0 || delay > 1000000)
			delay = 0;
	}
	if (!delay)
		return n;
	usleep((useconds_t)delay);
	return n < 4096 ? n : 4096;
}

/*
 * SIGINT, SIGTERM and SIGHUP wait while a temporary file exists: a signal
 * that ends the program lands after the rename or the unlink, never
 * between, so no temporary file is left behind (SIGKILL still can; cleanup
 * removes those): uk_util_signals_hold.  The programs that write the cache do
 * it from one thread.
 *
 * Write data to a new temporary file for dir/name; *tmp gets its path.
 * Its times are left as the writes made them, so that a temporary file's
 * mtime always tells when its writer last wrote to it (cleanup's age).
 */
int
uk_write_tmp(int dfd, const char *dir, const char *name, const char *data,
    size_t len, char **tmp, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	unsigned int rnd;
	size_t off = 0, skip = dfd == AT_FDCWD ? 0 : strlen(dir) + 1;
	ssize_t n;
	int fd = -1, tries, e;

	*tmp = NULL;
	for (tries = 0; tries < 2; tries++) {
		if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) !=
		    (ssize_t)sizeof(rnd))
			rnd = (unsigned int)uk_util_time_now_ns() ^
			    (unsigned int)rand();
		uk_buf_reset(&b);
		uk_buf_addf(&b, "%s/.%s.tmp.%ld.%08x", dir, name,
		    (long)getpid(), rnd);
		fd = openat(dfd, b.buf + skip,
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0)
			break;
		if (errno == ENOENT && tries == 0 && dfd == AT_FDCWD) {
			if (uk_util_mkdir_p(dir, err))
				goto fail;
			continue;
		}
		if (errno == EEXIST && tries == 0)
			continue;
		e = errno;
		uk_util_err_set(err,
		    uk_util_errno_fatal(e) ? UK_EXIT_FATAL : UK_EXIT_FAIL,
		    "cannot create '%s': %s", b.buf, strerror(e));
		goto fail;
	}
	if (fd < 0) {
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot create '%s': %s",
		    b.buf, strerror(errno));
		goto fail;
	}
	while (off < len) {
		n = write(fd, data + off, test_chunk(len - off));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			uk_util_err_set(err,
			    uk_util_errno_fatal(e) ? UK_EXIT_FATAL :
						     UK_EXIT_FAIL,
			    "cannot write '%s': %s", b.buf, strerror(e));
			goto fail_unlink;
		}
		off += (size_t)n;
	}
	if (close(fd)) {
		fd = -1;
		e = errno;
		uk_util_err_set(err,
		    uk_util_errno_fatal(e) ? UK_EXIT_FATAL : UK_EXIT_FAIL,
		    "cannot write '%s': %s", b.buf, strerror(e));
		goto fail_unlink;
	}
	/* What the *at calls of dfd take: relative to it, or the path. */
	*tmp = uk_util_xstrdup(b.buf + skip);
	uk_buf_release(&b);
	return 0;

fail_unlink:
	if (fd >= 0)
		close(fd);
	unlinkat(dfd, b.buf + skip, 0);
fail:
	uk_buf_release(&b);
	return -1;
}

/*
 * Rename tmp to dir/name; then, when mtime_ns is not negative, set the
 * entry's mtime to it through a descriptor opened before the rename (so it
 * is this file's, whoever renames next).
 */
int
uk_write_rename(int dfd, char *tmp, const char *dir, const char *name,
    long long mtime_ns, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	int r = 0, fd = -1;

	uk_buf_addf(&b, "%s/%s", dir, name);
	if (mtime_ns >= 0)
		fd = openat(dfd, tmp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (renameat(dfd, tmp, dfd, dfd == AT_FDCWD ? b.buf : name)) {
		int e = errno;

		unlinkat(dfd, tmp, 0);
		if (e == EISDIR || e == ENOTEMPTY || e == EEXIST)
			r = uk_util_err_set(err, UK_EXIT_FAIL,
			    "cannot replace '%s': it is a directory", b.buf);
		else
			r = uk_util_err_set(err,
			    uk_util_errno_fatal(e) ? UK_EXIT_FATAL :
						     UK_EXIT_FAIL,
			    "cannot rename to '%s': %s", b.buf, strerror(e));
	} else if (fd >= 0) {
		struct timespec ts[2] = { { 0, UTIME_OMIT },
			{ (time_t)(mtime_ns / NS), (long)(mtime_ns % NS) } };

		futimens(fd, ts);
	}
	if (fd >= 0)
		close(fd);
	uk_buf_release(&b);
	return r;
}

int
uk_write_file_at(int dfd, const char *dir, const char *name, const char *data,
    size_t len, long long mtime_ns, struct uk_err *err)
{
	char *tmp;
	sigset_t old;
	int r;

	uk_util_signals_hold(&old);
	if (uk_write_tmp(dfd, dir, name, data, len, &tmp, err)) {
		uk_util_signals_release(&old);
		return -1;
	}
	r = uk_write_rename(dfd, tmp, dir, name, mtime_ns, err);
	uk_util_signals_release(&old);
	free(tmp);
	return r;
}

int
uk_write_file(const char *dir, const char *name, const char *data,
    size_t len, long long mtime_ns, struct uk_err *err)
{
	return uk_write_file_at(AT_FDCWD, dir, name, data, len, mtime_ns,
	    err);
}
