/* SPDX-License-Identifier: MIT */
#ifndef UK_WRITE_H
#define UK_WRITE_H

#include <stddef.h>

#include "util.h"

/*
 * Write data[0..len) to dir/name atomically: a temporary file
 * dir/.name.tmp.PID.RAND (mode 0600, O_EXCL, no symbolic link followed),
 * then rename over dir/name, with SIGINT, SIGTERM and SIGHUP held meanwhile
 * (uk_util_signals_hold) so that no signal leaves the temporary file behind.
 * The file's mtime is then set to mtime_ns when it is not negative (else
 * it is the time of writing).  uk_write_file creates dir (mode 0700) when
 * missing; uk_write_file_at works relative to the directory descriptor
 * dfd (dir is then only for messages), or like uk_write_file with
 * AT_FDCWD.  0, or -1 with err (code UK_EXIT_FATAL when the directory
 * cannot be created or written).  URLKIT_TEST_WRITE_DELAY=N, for crash
 * tests only, writes in 4 KiB pieces N microseconds apart.
 */
int uk_write_file(const char *dir, const char *name, const char *data,
    size_t len, long long mtime_ns, struct uk_err *err);
int uk_write_file_at(int dfd, const char *dir, const char *name,
    const char *data, size_t len, long long mtime_ns, struct uk_err *err);
/*
 * The two steps of uk_write_file_at, for a caller that checks something
 * between them (the signals must be held around both, and a temporary
 * file not renamed is the caller's to unlink).  uk_write_tmp: the
 * temporary file, its path (relative to dfd) in *tmp, which the caller
 * frees.  uk_write_rename: rename it to name (unlinked on failure).  0, or
 * -1 with err.
 */
int uk_write_tmp(int dfd, const char *dir, const char *name,
    const char *data, size_t len, char **tmp, struct uk_err *err);
int uk_write_rename(int dfd, char *tmp, const char *dir, const char *name,
    long long mtime_ns, struct uk_err *err);

#endif
