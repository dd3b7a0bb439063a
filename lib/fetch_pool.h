/* SPDX-License-Identifier: MIT */
#ifndef UK_FETCH_POOL_H
#define UK_FETCH_POOL_H

/*
 * The extraction worker of lib/fetch.c: the thread that parses page
 * bodies while the loop's thread goes on with the transfers.
 *
 * Usage: uk_fetch_pool_new(run) at the first page; uk_fetch_pool_submit
 * hands it a job (-1: no worker runs, do the job on this thread), the
 * worker calls run on it, and uk_fetch_pool_take gives it back on the
 * loop's thread.  The loop waits on uk_fetch_pool_wait_fd (or, with no
 * transfer running, on uk_fetch_pool_wake_fd), which becomes readable
 * when a job is back.  Only the loop's thread calls these; run reads the
 * job and writes only its x fields (fetch.h), and the loop touches none
 * of a job until it is back.  Every function takes a NULL pool as one
 * with no worker.
 */

struct uk_fetch_job;
struct uk_fetch_pool;

/*
 * Start the worker, its threads with the signals a process is sent
 * blocked (a child they fork gets the caller's mask back).  Always a pool
 * (free it with uk_fetch_pool_free), which may have no worker when a
 * thread, pipe or epoll set cannot be made: uk_fetch_pool_running tells.
 */
struct uk_fetch_pool *uk_fetch_pool_new(void (*run)(struct uk_fetch_job *j));
int uk_fetch_pool_running(const struct uk_fetch_pool *p);

/* Queue j (linked through j->next) for the worker: 0, or -1 when none. */
int uk_fetch_pool_submit(struct uk_fetch_pool *p, struct uk_fetch_job *j);
/* A job the worker is done with, or NULL. */
struct uk_fetch_job *uk_fetch_pool_take(struct uk_fetch_pool *p);

/* Jobs submitted and not yet taken back; those not yet started. */
long uk_fetch_pool_busy(const struct uk_fetch_pool *p);
long uk_fetch_pool_waiting(struct uk_fetch_pool *p);

/*
 * The descriptor uk_http_wait is to watch: the wake pipe, or the epoll
 * set of the pipe and fd (fd < 0: none).  fd itself when it cannot join
 * an epoll set (a regular file or /dev/null, which are always readable
 * anyway).  uk_fetch_pool_wake_fd: the wake pipe alone, readable when a
 * job is back.  p must be running.
 */
int uk_fetch_pool_wait_fd(struct uk_fetch_pool *p, int fd);
int uk_fetch_pool_wake_fd(const struct uk_fetch_pool *p);

/* Stop and join the threads, then free p (NULL: nothing). */
void uk_fetch_pool_free(struct uk_fetch_pool *p);

#endif
