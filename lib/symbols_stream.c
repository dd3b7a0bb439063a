/* SPDX-License-Identifier: MIT */
/*
 * Indexing files as they arrive (uk_symbols_stream_*, symbols.h): a queue
 * that worker threads take files from, each parsing with a worker of its
 * own, and the results added to the index in order on the caller's
 * thread.  See symbols_int.h.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "banned.h"
#include "symbols.h"
#include "symbols_int.h"
#include "symcache.h"
#include "util.h"

/* A file handed over, and what indexing it found. */
struct sitem {
	const char *path, *text;
	size_t len;
	size_t cost; /* what parsing it may take, in bytes of parsing */
	int li;
	int lex; /* only evidence: lexed, not parsed */
	char hash[65]; /* with a tag cache: the text's SHA-256, else "" */
	int done;
	struct fres res;
};

struct uk_symbols_stream {
	struct uk_symbols *s;
	struct sitem *items; /* grows: read and written under lock */
	size_t n, a;
	/*
	 * The items no worker took, as a heap: the costliest first, then
	 * the first handed over (under lock).
	 */
	size_t *heap;
	size_t nheap, aheap;
	/*
	 * The window: items [merged, admitted) may be taken, pushed on the
	 * heap in order as the window moves; wbytes is their text.
	 */
	size_t admitted;
	size_t wbytes;
	size_t ndone;  /* items done */
	size_t merged; /* items added to s, in order (caller's thread) */
	int closed, cancel;
	int qfailed;    /* a worker found a query that cannot be used */
	char qerr[256]; /* its error */
	pthread_mutex_t lock;
	pthread_cond_t more; /* for workers: an item, or the end */
	pthread_cond_t done; /* for the caller: an item done */
	pthread_t tid[UK_SYMBOLS_MAX_THREADS];
	int nt;
	long indexed;
	int timeout;
	uk_symbols_done_fn *done_fn;
	void *done_arg;
	uk_symbols_progress_fn *progress;
	void *progress_arg;
	size_t reported; /* ndone when progress was last called */
};

/* The processors online: threads when the caller asks for no number. */
static int
processors(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	return c > 0 ? (int)c : 1;
}

/*
 * Whether item i goes to a worker before item j.  Largest first: a large
 * file taken last would keep one thread parsing while the other has
 * nothing left (syn's expr.rs and item.rs, 120 KB each, come late in its
 * archive).  Lexing costs a small part of what parsing does.
 */
static int
heap_before(const struct uk_symbols_stream *st, size_t i, size_t j)
{
	size_t ci = st->items[i].cost, cj = st->items[j].cost;

	return ci != cj ? ci > cj : i < j;
}

/* Add item i to the heap (lock held). */
static void
heap_push(struct uk_symbols_stream *st, size_t i)
{
	size_t k;

	if (st->nheap == st->aheap) {
		st->aheap = st->aheap ? 2 * st->aheap : 256;
		st->heap =
		    uk_util_xrealloc(st->heap, st->aheap * sizeof(*st->heap));
	}
	for (k = st->nheap++; k > 0; k = (k - 1) / 2) {
		size_t up = st->heap[(k - 1) / 2];

		if (!heap_before(st, i, up))
			break;
		st->heap[k] = up;
	}
	st->heap[k] = i;
}

/* Take the first item off the heap (lock held, the heap not empty). */
static size_t
heap_pop(struct uk_symbols_stream *st)
{
	size_t top = st->heap[0], last = st->heap[--st->nheap], k = 0;

	for (;;) {
		size_t c = 2 * k + 1;

		if (c >= st->nheap)
			break;
		if (c + 1 < st->nheap &&
		    heap_before(st, st->heap[c + 1], st->heap[c]))
			c++;
		if (!heap_before(st, st->heap[c], last))
			break;
		st->heap[k] = st->heap[c];
		k = c;
	}
	if (st->nheap)
		st->heap[k] = last;
	return top;
}

/*
 * The window of items workers may take, ahead of the next item to merge.
 * The index takes files in the order they were handed over, so an item
 * done out of order waits, tags and all, until every item before it is
 * merged.  Taking the costliest item of the whole queue first kept nearly
 * every result waiting to the end (on /usr/include/boost, 131 MB of
 * headers, 2.45 GB peak RSS against 1.89 GB with the window).  Within
 * the window the costliest still goes first, so the last files still
 * share the threads.
 * A window of WINDOW_BYTES of text keeps both threads busy (a file is at
 * most 1 MiB, UK_REPO_FILE_MAX) with only that much waiting.
 */
#define WINDOW_FILES 1024
#define WINDOW_BYTES (8 << 20)

/* Push the items that enter the window on the heap (lock held). */
static int
window_admit(struct uk_symbols_stream *st)
{
	int k = 0;

	while (st->admitted < st->n &&
	    (st->admitted == st->merged ||
		(st->admitted - st->merged < WINDOW_FILES &&
		    st->wbytes < WINDOW_BYTES))) {
		struct sitem *it = &st->items[st->admitted];

		st->wbytes += it->len;
		if (!it->done) {
			heap_push(st, st->admitted);
			k++;
		}
		st->admitted++;
	}
	return k;
}

/* No more items: workers end when the queue is empty. */
static void
stream_close(struct uk_symbols_stream *st)
{
	pthread_mutex_lock(&st->lock);
	st->closed = 1;
	pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
}

/* Take the next item and index it; 0 when there is none (yet). */
static int
stream_work(struct uk_symbols_stream *st, struct symworker *w, int wait)
{
	struct sitem it;
	size_t i;

	pthread_mutex_lock(&st->lock);
	/* Closed, the items outside the window are still to come. */
	while (!st->nheap && wait && !st->cancel &&
	    (!st->closed || st->admitted < st->n))
		pthread_cond_wait(&st->more, &st->lock);
	if (!st->nheap || st->cancel) {
		pthread_mutex_unlock(&st->lock);
		return 0;
	}
	i = heap_pop(st);
	it = st->items[i];
	pthread_mutex_unlock(&st->lock);
	uk_symtags_file(st->s, w, it.li, it.lex, it.path, it.text, it.len,
	    &it.res);
	pthread_mutex_lock(&st->lock);
	st->items[i].res = it.res;
	st->items[i].done = 1;
	st->ndone++;
	pthread_cond_signal(&st->done);
	pthread_mutex_unlock(&st->lock);
	return 1;
}

static void *
stream_worker(void *arg)
{
	struct uk_symbols_stream *st = arg;
	struct symworker *w = uk_symtags_worker_new();

	while (stream_work(st, w, 1))
		;
	uk_symtags_worker_free(w);
	return NULL;
}

/* Whether the next item to merge is done, or there is none (lock held). */
static int
stream_next_ready(const struct uk_symbols_stream *st)
{
	return st->merged >= st->n || st->items[st->merged].done;
}

/*
 * On the caller's thread: add the items done, in order, to the index, and
 * report progress.  With wait, until every item is merged.
 */
static void
stream_merge(struct uk_symbols_stream *st, int wait)
{
	for (;;) {
		size_t from = st->merged, to, ndone, n, k;

		pthread_mutex_lock(&st->lock);
		while (wait && !stream_next_ready(st))
			pthread_cond_wait(&st->done, &st->lock);
		for (to = from; to < st->n && st->items[to].done; to++)
			;
		ndone = st->ndone;
		n = st->n;
		pthread_mutex_unlock(&st->lock);
		/* Items done stay as they are: only this thread moves items. */
		for (k = from; k < to; k++) {
			struct sitem *it = &st->items[k];

			if (it->res.status == 1) {
				if (st->s->cache && it->hash[0] &&
				    !it->res.cached && !it->res.lexed)
					uk_symtagcache_put(st->s, it->hash,
					    &it->res);
				uk_symbols_merge(st->s, it->path, &it->res);
				st->indexed++;
				if (st->done_fn && !it->lex) {
					st->done_fn(st->done_arg, it->path,
					    it->text);
					it->text = NULL;
				}
			} else if (it->res.status < 0 &&
			    uk_symtags_query_failed(st->s, it->li)) {
				if (!st->qfailed)
					snprintf(st->qerr, sizeof(st->qerr),
					    "%s", it->res.err);
				st->qfailed = 1;
			} else if (it->res.status < 0 &&
			    strstr(it->res.err, "time limit")) {
				st->timeout = 1;
			}
			uk_symtags_release(&it->res);
		}
		if (to > from) {
			pthread_mutex_lock(&st->lock);
			for (k = from; k < to; k++)
				st->wbytes -= st->items[k].len;
			st->merged = to;
			if (window_admit(st))
				pthread_cond_broadcast(&st->more);
			pthread_mutex_unlock(&st->lock);
		}
		if (st->progress && ndone != st->reported) {
			st->reported = ndone;
			st->progress(st->progress_arg, ndone, n);
		}
		if (!wait || st->merged >= n)
			return;
	}
}

struct uk_symbols_stream *
uk_symbols_stream_start(struct uk_symbols *s, int nthreads)
{
	struct uk_symbols_stream *st = uk_util_xcalloc(1, sizeof(*st));
	int t;

	if (nthreads <= 0)
		nthreads = processors();
	if (nthreads > UK_SYMBOLS_MAX_THREADS)
		nthreads = UK_SYMBOLS_MAX_THREADS;
	st->s = s;
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->more, NULL);
	pthread_cond_init(&st->done, NULL);
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&st->tid[st->nt], NULL, stream_worker, st) ==
		    0)
			st->nt++;
	return st;
}

void
uk_symbols_stream_progress(struct uk_symbols_stream *st,
    uk_symbols_progress_fn *fn, void *arg)
{
	st->progress = fn;
	st->progress_arg = arg;
}

int
uk_symbols_stream_add(struct uk_symbols_stream *st, const char *path,
    const char *text, size_t len, struct uk_err *err)
{
	int li = uk_symqueries_lang_index(path);
	struct sitem *it;
	struct fres res;
	char hash[65];
	int lex, hit = 0;

	if (li < 0)
		return 0;
	/* setup.py is parsed and read for its console scripts. */
	if (uk_symclass_is_script_manifest(uk_sympath_base(path)))
		uk_symbols_note(st->s, path, text, len);
	/* The query is compiled by the first worker that needs it: here
	 * only a query that could not be is an error. */
	if (uk_symtags_query_failed(st->s, li))
		return uk_symtags_query(st->s, li, err);
	/* Outside the lock: the workers go on meanwhile. */
	lex = uk_symbols_use_lex(st->s, path);
	hash[0] = '\0';
	/* A scanned header costs less than its hash and lookup. */
	if (st->s->cache && !lex && !uk_symtags_scanned(li, path) &&
	    len <= UINT32_MAX / 2) {
		uk_symcache_hash(text, len, hash);
		hit = uk_symtagcache_get(st->s, li, hash, &res) == 0;
	}
	pthread_mutex_lock(&st->lock);
	if (st->n == st->a) {
		st->a = st->a ? 2 * st->a : 256;
		st->items =
		    uk_util_xrealloc(st->items, st->a * sizeof(*st->items));
	}
	it = &st->items[st->n++];
	memset(it, 0, sizeof(*it));
	it->path = path;
	it->text = text;
	it->len = len;
	it->li = li;
	it->lex = lex;
	memcpy(it->hash, hash, sizeof(hash));
	it->cost = lex ? len / 64 : len;
	/* An item from the tag cache is done when it is added. */
	if (hit) {
		it->res = res;
		it->done = 1;
		st->ndone++;
	}
	if (window_admit(st))
		pthread_cond_broadcast(&st->more);
	pthread_mutex_unlock(&st->lock);
	stream_merge(st, 0);
	return 1;
}

static void
stream_free(struct uk_symbols_stream *st)
{
	size_t k;
	int t;

	stream_close(st);
	for (t = 0; t < st->nt; t++)
		pthread_join(st->tid[t], NULL);
	for (k = st->merged; k < st->n; k++)
		uk_symtags_release(&st->items[k].res);
	free(st->items);
	free(st->heap);
	pthread_cond_destroy(&st->more);
	pthread_cond_destroy(&st->done);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/*
 * A tree that is nothing but evidence (a repository of examples, a focus
 * on docs/ that is not one) would have an empty map: its files are then
 * parsed after all, on this thread, as the index's only files.
 */
static void
reparse_evidence(struct uk_symbols_stream *st)
{
	struct uk_symbols *s = st->s;
	struct symtab *t = &s->t;
	size_t k;

	if (!s->counts.lexed || s->counts.parsed || s->counts.cached ||
	    t->ndefs)
		return;
	for (k = 0; k < t->nfiles; k++)
		free(t->files[k].path);
	t->nfiles = 0;
	t->nrefs = 0;
	t->ranked = 0;
	s->counts.lexed = 0;
	st->indexed = 0;
	for (k = 0; k < st->n; k++) {
		struct sitem *it = &st->items[k];

		uk_symtags_file(s, s->w, it->li, 0, it->path, it->text, it->len,
		    &it->res);
		if (it->res.status == 1) {
			uk_symbols_merge(s, it->path, &it->res);
			st->indexed++;
		} else if (it->res.status < 0 &&
		    strstr(it->res.err, "time limit")) {
			st->timeout = 1;
			uk_symtags_release(&it->res);
			break;
		}
		uk_symtags_release(&it->res);
	}
}

long
uk_symbols_stream_end(struct uk_symbols_stream *st, struct uk_err *err)
{
	long indexed;
	int timeout, qfailed;

	stream_close(st);
	/* No worker thread could start: index here. */
	if (!st->nt) {
		while (stream_work(st, st->s->w, 0))
			stream_merge(st, 0);
	}
	stream_merge(st, 1);
	if (!st->timeout)
		reparse_evidence(st);
	indexed = st->indexed;
	timeout = st->timeout;
	qfailed = st->qfailed;
	if (qfailed)
		uk_util_err_set(err, UK_EXIT_FAIL, "%s", st->qerr);
	stream_free(st);
	if (qfailed)
		return -1;
	if (timeout)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "time limit reached while indexing symbols");
	return indexed;
}

void
uk_symbols_stream_cancel(struct uk_symbols_stream *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->lock);
	st->cancel = 1;
	pthread_mutex_unlock(&st->lock);
	stream_free(st);
}

long
uk_symstream_add_files(struct uk_symbols *s,
    const struct uk_symbols_file *files, size_t n, int nthreads,
    struct uk_err *err)
{
	struct uk_symbols_stream *st;
	size_t i;

	/* Every query first: a query that cannot be used indexes nothing. */
	for (i = 0; i < n; i++) {
		int li = uk_symqueries_lang_index(files[i].path);

		if (li >= 0 && uk_symtags_query(s, li, err) < 0)
			return -1;
	}
	if (nthreads <= 0)
		nthreads = processors();
	if ((size_t)nthreads > n)
		nthreads = n ? (int)n : 1;
	st = uk_symbols_stream_start(s, nthreads);
	for (i = 0; i < n; i++)
		uk_symbols_stream_add(st, files[i].path, files[i].text,
		    files[i].len, err);
	return uk_symbols_stream_end(st, err);
}

void
uk_symbols_stream_on_done(struct uk_symbols_stream *st,
    uk_symbols_done_fn *fn, void *arg)
{
	st->done_fn = fn;
	st->done_arg = arg;
}
