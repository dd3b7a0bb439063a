/* SPDX-License-Identifier: MIT */
#ifndef UK_PAGE_H
#define UK_PAGE_H

/*
 * Pages rendered in a browser over the DevTools protocol, several at once
 * on one CDP stream (pwfetch's find, open and fetch).
 *
 * Each page goes through one state machine: its state is one enum, and a
 * table of transitions (state x event -> action, next state) says what a
 * reply or an event of the browser does in each state; what does not
 * apply to a state is dropped.  The states, in order:
 *
 *	CONTEXT      its own browser context asked for (open)
 *	RUN_CONTEXT  waiting for the run's context (fetch, attached, guarded)
 *	TARGET       a page asked for (Target.createTarget), or the list of
 *	             pages to pick from (find)
 *	ATTACH       attaching a session to the page
 *	WARM         attached ahead of need, no URL yet
 *	SETUP        set up; waiting for its lifecycle events to be on
 *	FRAME        find: the document now asked for, to tell the reload
 *	MARK         find: the old document being marked
 *	NAVIGATE     Page.navigate sent, its load not known yet
 *	LOADING      the load is the page's own: waiting for -w's condition
 *	LOADED       -w networkidle: loaded, waiting for the network to rest
 *	COLLECT      the value, screenshot and HTML asked for
 *
 * A page that fails or is written goes back to FREE.  The record a page
 * ends with (content or error) goes to the caller's emit function.
 *
 * Private addresses: with opts.guard, every request of a page stops
 * (Fetch.requestPaused) until its host is judged (lib/netguard's
 * asynchronous look-ups, so that a slow name holds up no other page); a
 * refused document, WebSocket or response address fails the page.
 *
 * Usage (see cmd/pwfetch.c):
 *
 *	uk_page_events_init(&ps, &opts, &browser.cdp, emit, ctx);
 *	while (...) {
 *		if (ps.nactive < opts.jobs)
 *			uk_page_events_start(&ps, rec, no);
 *		poll the CDP stream, uk_page_events_guard_fd(&ps), until
 *		    uk_page_events_next_wake(&ps);
 *		uk_page_events_guard_read(&ps);
 *		uk_page_events_dispatch(&ps, msg) for each message;
 *		uk_page_events_tick(&ps, uk_util_mono_now());
 *	}
 *	uk_page_events_end(&ps); uk_page_events_release(&ps);
 *
 * Library code: nothing here prints or exits; failures are error records
 * given to emit.
 */

#include <stddef.h>
#include <yajl/yajl_tree.h>

#include "cdp.h"
#include "netguard.h"

struct uk_extract_opts; /* extract.h */

enum uk_page_cmd { UK_PAGE_FIND, UK_PAGE_OPEN, UK_PAGE_FETCH };
enum uk_page_wait {
	UK_PAGE_WAIT_LOAD,
	UK_PAGE_WAIT_DOM,
	UK_PAGE_WAIT_IDLE,
	UK_PAGE_WAIT_SELECTOR
};

/* What the pages are to do: pwfetch's options. */
struct uk_page_opts {
	enum uk_page_cmd cmd;
	int attached;     /* a browser the user runs, not launched */
	int html;         /* -H: the page's HTML in the record */
	const char *eval; /* -e: an expression, or NULL */
	const char *shot; /* -s: a screenshot path, or NULL */
	int shot_dir;     /* shot is a directory */
	double timeout;   /* -t: seconds a page may take */
	const char *ua;   /* -u, or NULL */
	long vw, vh;      /* -v; 0: the browser's */
	enum uk_page_wait wait;
	const char *selector; /* -w selector:CSS */
	int guard;            /* refuse private addresses (no -P) */
	long jobs;            /* -j: pages at once */
	/* The overrides (--select, --remove, --whole, --explain); NULL:
	 * extraction's defaults.  Borrowed.  x->explain's records go in
	 * the record as "explain" (an array) for the program to take out. */
	const struct uk_extract_opts *extract;
	/* Called with the emit's ctx on a rendered page's record (rec,
	 * "html" in it with -H) before the record is fitted to the line
	 * limit, which would cut the HTML first: for what reads the whole
	 * HTML and may then drop it (pwfetch --links-out).  NULL: none. */
	void (*before_fit)(void *ctx, yajl_val rec, const char *url);
};

/*
 * A record is done: rec (borrowed) is written by the caller.  msg is NULL
 * for a record that succeeded; otherwise the record carries "error" and
 * msg is what to say on stderr (with url).  no is the number the page was
 * started with (uk_page_events_start), 0 for uk_page_error's records: records
 * finish out of order, and the caller puts them back in its own.
 */
typedef void uk_page_emit_fn(void *ctx, yajl_val rec, const char *url,
    const char *msg, unsigned long no);

struct uk_page;      /* one page (private) */
struct uk_page_call; /* a command awaiting its reply (private) */

struct uk_pages {
	struct uk_page_opts o;
	struct uk_cdp *cdp; /* borrowed */
	uk_page_emit_fn *emit;
	void *ctx;
	struct uk_page *pages; /* o.jobs slots */
	struct uk_page *warm;  /* a page made ahead for the next URL */
	int nactive;           /* pages in use, warm not counted */
	struct uk_page_call *calls;
	size_t ncalls, acalls;
	char *spare;        /* the blank page a launched browser opens */
	char ctx_proxy[64]; /* the proxy of contexts made when attached */
	int proxied;        /* the browser's requests go through guardproxy */
	char *run_ctx;      /* fetch attached and guarded: the run's context */
	int run_ctx_making;
	struct uk_netguard_async guard;
	int trace;      /* $PWFETCH_TRACE: the protocol on stderr */
	double t_start; /* for the trace's times */
};

/* Set up ps for opts (copied) on cdp; emit gets every record. */
void uk_page_events_init(struct uk_pages *ps, const struct uk_page_opts *opts,
    struct uk_cdp *cdp, uk_page_emit_fn *emit, void *ctx);
/* Free every page and what ps holds; cdp is left alone. */
void uk_page_events_release(struct uk_pages *ps);

/*
 * Start a page for rec (taken; its "url" an http(s) URL) in a free slot;
 * no is its number in the run (1 for the first), for screenshot names.
 * The caller keeps ps->nactive under o.jobs.
 */
void uk_page_events_start(struct uk_pages *ps, yajl_val rec, unsigned long no);
/* Make a page ahead of need (a launched browser, open and fetch). */
void uk_page_events_warm(struct uk_pages *ps);
/* A launched browser's own blank page, for the first fetch to use. */
void uk_page_events_find_spare(struct uk_pages *ps);

/* Take one CDP message (borrowed): a reply or an event. */
void uk_page_events_dispatch(struct uk_pages *ps, yajl_val msg);
/*
 * The next time (uk_util_mono_now) a page needs uk_page_events_tick;
 * -1: none.
 */
double uk_page_events_next_wake(const struct uk_pages *ps);
/* Timeouts, selector polls and network-idle waits due at now. */
void uk_page_events_tick(struct uk_pages *ps, double now);
/* Fail every page in use with msg (the browser has gone, the run's time). */
void uk_page_events_fail_all(struct uk_pages *ps, const char *msg);
/*
 * -T ran out: fail every page in use with "the run timed out (total s)
 * waiting for ..." saying what each one waited for.
 */
void uk_page_events_time_out(struct uk_pages *ps, double total);

/* The guard's look-ups: the descriptor to poll (-1: none), and a read. */
int uk_page_events_guard_fd(const struct uk_pages *ps);
int uk_page_events_guard_read(struct uk_pages *ps);

/*
 * Write an error record for rec (borrowed) without a page: input that
 * cannot be fetched.  emit gets it at once, with no 0.
 */
void uk_page_error(struct uk_pages *ps, yajl_val rec, const char *url,
    const char *msg);

/*
 * The end of the run: dispose of the run's context, and when attached
 * wait up to secs for the cleanup commands to be carried out.
 */
void uk_page_events_end(struct uk_pages *ps, double secs);

#endif
