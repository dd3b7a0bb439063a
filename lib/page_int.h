/* SPDX-License-Identifier: MIT */
#ifndef UK_PAGE_INT_H
#define UK_PAGE_INT_H

/*
 * What lib/page.c (the state machine and records) and lib/page_events.c
 * (the browser's messages, the run's context, the guard) share; not for
 * programs, which use page.h.
 */

#include <sys/types.h>

#include "page.h"

/* A page's state: see page.h for what each one waits for. */
enum page_state {
	S_FREE,
	S_CONTEXT,
	S_RUN_CONTEXT,
	S_TARGET,
	S_ATTACH,
	S_WARM,
	S_SETUP,
	S_FRAME,
	S_MARK,
	S_NAVIGATE,
	S_LOADING,
	S_LOADED,
	S_COLLECT
};

/*
 * What happens to a page: the reply to a command it sent (the command
 * names its event when sent; EV_NONE: a reply nobody acts on), or what
 * the page's events and the clock amount to.
 */
enum page_ev {
	EV_NONE,
	EV_CONTEXT,   /* Target.createBrowserContext, or the run's is ready */
	EV_TARGETS,   /* Target.getTargets (find) */
	EV_TARGET,    /* Target.createTarget */
	EV_ATTACHED,  /* Target.attachToTarget */
	EV_START,     /* a page made ahead is given a URL */
	EV_LIFECYCLE, /* Page.setLifecycleEventsEnabled */
	EV_FRAMETREE, /* Page.getFrameTree (find) */
	EV_MARKED,    /* the old document marked (find) */
	EV_RELOADED,  /* Page.reload (find) */
	EV_NAVIGATED, /* Page.navigate */
	EV_POLLED,    /* -w selector's query answered */
	EV_POLL_DUE,  /* time to ask it again */
	EV_LOAD,      /* -w networkidle: the page's own load event */
	EV_IDLE_DUE,  /* -w networkidle: no request for IDLE_SECONDS */
	EV_READY,     /* -w's condition holds */
	EV_EVAL,      /* -e's value */
	EV_SHOT,      /* the screenshot */
	EV_HTML,      /* the page's HTML */
	/* Replies for the run's context, not for a page (page_events.c). */
	EV_RUN_CTX,
	EV_RUN_COOKIES,
	EV_RUN_SETCOOKIES
};

/* A command awaiting its reply. */
struct uk_page_call {
	long id;
	struct uk_page *p; /* or NULL */
	unsigned gen;      /* p's generation when sent */
	enum page_ev ev;
};

#define PAGE_MAX_EVENTS 16

struct uk_page {
	struct uk_pages *ps;
	enum page_state state;
	unsigned gen;     /* tells a slot's pages apart */
	unsigned long no; /* 1 for the first URL of the run */
	yajl_val rec;     /* the input record; NULL: made ahead */
	const char *url;  /* in rec */
	double deadline, poll_at, idle_at;
	char *ctx, *target, *session, *frame, *loader, *old_loader;
	int pending;    /* commands sent, replies not in */
	int ws_waiting; /* WebSockets whose host is being looked up */
	/* -w networkidle: the page's requests in flight, by request id. */
	char **reqs;
	size_t nreqs, areqs;
	/* Lifecycle events that came before the page's load was known. */
	struct {
		char *frame, *loader, *name;
	} ev[PAGE_MAX_EVENTS];
	int nev;
	yajl_val evalv;
	char *eval_err, *shot_path, *shot_err;
	char *html, *final_url;
	long long status; /* of the main document; 0: unknown */
};

void page_call(struct uk_pages *ps, struct uk_page *p, enum page_ev ev,
    const char *session, const char *method, yajl_val params);
yajl_val page_params1(const char *key, yajl_val v);
yajl_val page_ctx_params(const struct uk_pages *ps);
void page_free(struct uk_page *p);
void page_fail(struct uk_page *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void page_maybe_finish(struct uk_page *p);
const char *page_waits_for(const struct uk_page *p);
void page_create_target(struct uk_page *p);
void page_attach(struct uk_page *p);
/*
 * A frame or worker attached to a session of ours that auto-attaches
 * (an attached browser's page behind the guard, lib/page.c): a frame gets
 * the page's script against WebRTC and the same auto-attach; each is let
 * run.  params are Target.attachedToTarget's.
 */
void page_child_attached(struct uk_pages *ps, yajl_val params);
void page_idle_check(struct uk_page *p);
void page_request(struct uk_page *p, yajl_val params, int started);
/* Run the table for ev; -1 when the page is over (S_FREE). */
int page_event(struct uk_page *p, enum page_ev ev, yajl_val res);
int act_setup(struct uk_page *p, yajl_val res);

void page_lifecycle(struct uk_page *p, const char *frame, const char *loader,
    const char *name);
void page_proxy_fail(struct uk_page *p, const char *error);
void page_save_shot(struct uk_page *p, yajl_val res);
/*
 * Fail p for a refused address addr; url is named when it is not the
 * page's own.
 */
void page_refuse(struct uk_page *p, const char *url, const char *addr);

#endif
