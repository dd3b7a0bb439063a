/* SPDX-License-Identifier: MIT */
/*
 * The browser's messages to pages (see page.h): replies and events turned
 * into the state machine's events, the run's context, the private-address
 * guard of each page's requests, and the run's set of pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "guardproxy.h"
#include "json.h"
#include "page.h"
#include "page_int.h"
#include "url.h"
#include "util.h"

/*
 * The private-address guard, as urlfetch's: a request to a host that
 * resolves to a loopback, private, link-local or other internal address
 * is failed before it is sent (a refused document fails the page), and a
 * response from such an address (a name that changed its address between
 * our look-up and the browser's) fails the page, so its content is never
 * written.  Names are judged by lib/netguard's look-up threads; what waits
 * for one is a guard_wait.
 */
struct guard_wait {
	struct uk_page *p; /* the page, or NULL */
	unsigned gen;      /* p's generation when the request came */
	char *session, *id, *url, *type, *frame; /* id NULL: a WebSocket */
};

/* Whether the guard lets u's host through (1), not (0), or later (-1). */
static int
guard_host(struct uk_pages *ps, const struct uk_url *u)
{
	if (!u->host || (u->scheme && !strcmp(u->scheme, "data")))
		return 1;
	return uk_netguard_async_verdict(&ps->guard, u->host);
}

/* Answer a paused request (id) or judge a WebSocket (id NULL). */
static void
guard_answer(struct uk_pages *ps, struct uk_page *p, const struct guard_wait *w,
    int ok, const char *addr)
{
	yajl_val q;

	if (w->id) {
		q = page_params1("requestId", uk_json_str(w->id));
		if (ok) {
			page_call(ps, NULL, EV_NONE, w->session,
			    "Fetch.continueRequest", q);
		} else {
			uk_json_set_str(q, "errorReason", "AddressUnreachable");
			page_call(ps, NULL, EV_NONE, w->session,
			    "Fetch.failRequest", q);
		}
	}
	if (ok || !p || (w->id && p->state == S_COLLECT))
		return;
	/* A refused document fails the page, as does a WebSocket. */
	if (!w->id ||
	    (w->type && !strcmp(w->type, "Document") &&
		(!p->frame || (w->frame && !strcmp(w->frame, p->frame)))))
		page_refuse(p, w->url, addr);
}

static void
guard_wait_free(void *cookie)
{
	struct guard_wait *w = cookie;

	free(w->session);
	free(w->id);
	free(w->url);
	free(w->type);
	free(w->frame);
	free(w);
}

static char *
dup_or_null(const char *s)
{
	return s ? uk_util_xstrdup(s) : NULL;
}

/* Keep the request (or WebSocket) until host's verdict. */
static void
guard_wait(struct uk_pages *ps, struct uk_page *p, const char *host,
    const struct guard_wait *what)
{
	struct guard_wait *w = uk_util_xcalloc(1, sizeof(*w));

	w->p = p;
	w->gen = p ? p->gen : 0;
	w->session = dup_or_null(what->session);
	w->id = dup_or_null(what->id);
	w->url = uk_util_xstrdup(what->url ? what->url : "");
	w->type = dup_or_null(what->type);
	w->frame = dup_or_null(what->frame);
	if (p && !w->id)
		p->ws_waiting++;
	uk_netguard_async_wait(&ps->guard, host, w);
}

/* A verdict came: answer what waited for it. */
static void
guard_answered(void *ctx, void *cookie, int ok, const char *addr)
{
	struct uk_pages *ps = ctx;
	struct guard_wait *w = cookie;
	struct uk_page *p = w->p;

	if (p && (p->state == S_FREE || p->gen != w->gen))
		p = NULL;
	if (p && !w->id)
		p->ws_waiting--;
	guard_answer(ps, p, w, ok, addr);
	if (p && p->state != S_FREE && p->gen == w->gen)
		page_maybe_finish(p);
	guard_wait_free(w);
}

/*
 * A WebSocket does not pass through the Fetch domain: one to an internal
 * address fails the page, so nothing read through it is written.
 */
static void
guard_websocket(struct uk_page *p, yajl_val params)
{
	struct guard_wait what = { 0 };
	struct uk_url u;
	int ok;

	if (!(what.url = (char *)uk_json_get_str(params, "url")))
		return;
	uk_url_classify(what.url, &u);
	if ((ok = guard_host(p->ps, &u)) < 0)
		guard_wait(p->ps, p, u.host, &what);
	else if (!ok)
		page_refuse(p, what.url, u.host);
	uk_url_release(&u);
}

/* Fetch.requestPaused: answered even for a page that is over (p NULL). */
static void
guard_request(struct uk_pages *ps, struct uk_page *p, const char *session,
    yajl_val params)
{
	struct guard_wait what;
	struct uk_url u;
	int ok;

	what.p = p;
	what.session = (char *)session;
	what.id = (char *)uk_json_get_str(params, "requestId");
	what.url =
	    (char *)uk_json_get_str(uk_json_get(params, "request"), "url");
	what.type = (char *)uk_json_get_str(params, "resourceType");
	what.frame = (char *)uk_json_get_str(params, "frameId");
	if (!what.id)
		return;
	uk_url_classify(what.url ? what.url : "", &u);
	if ((ok = guard_host(ps, &u)) < 0)
		guard_wait(ps, p, u.host, &what);
	else
		guard_answer(ps, p, &what, ok, u.host ? u.host : "");
	uk_url_release(&u);
}

/*
 * Through guardproxy the address is the proxy's; the proxy judged the
 * real one and says so in a header of its answer.  The main document
 * refused fails the page (its name answered with another address for the
 * proxy than for our look-up).
 */
static void
guard_proxied_response(struct uk_page *p, yajl_val params)
{
	yajl_val res = uk_json_get(params, "response");
	const char *type = uk_json_get_str(params, "type");
	const char *frame = uk_json_get_str(params, "frameId");
	yajl_val h;
	size_t i;

	if (!type || strcmp(type, "Document") ||
	    (p->frame && (!frame || strcmp(frame, p->frame))))
		return; /* (no frame yet: the page's first document) */
	h = uk_json_get(res, "headers");
	for (i = 0; YAJL_IS_OBJECT(h) && i < h->u.object.len; i++) {
		const char *k = h->u.object.keys[i];
		yajl_val v = h->u.object.values[i];

		if (!YAJL_IS_STRING(v))
			continue;
		if (!strcasecmp(k, "x-urlkit-refused")) {
			page_refuse(p, p->url, YAJL_GET_STRING(v));
			return;
		}
		if (!strcasecmp(k, "x-urlkit-error")) {
			page_fail(p, "%s", YAJL_GET_STRING(v));
			return;
		}
	}
}

static void
guard_response(struct uk_page *p, yajl_val params)
{
	yajl_val res = uk_json_get(params, "response");
	const char *ip = uk_json_get_str(res, "remoteIPAddress");

	if (p->ps->proxied)
		guard_proxied_response(p, params);
	else if (ip && *ip && !uk_netguard_proxied() &&
	    uk_netguard_ip_allowed(ip) == 0)
		page_refuse(p, p->url, ip);
}

int
uk_page_events_guard_fd(const struct uk_pages *ps)
{
	return uk_netguard_async_fd(&ps->guard);
}

int
uk_page_events_guard_read(struct uk_pages *ps)
{
	return uk_netguard_async_read(&ps->guard, guard_answered, ps);
}

/*
 * fetch in an attached browser with the guard on makes one context for
 * the run, as a launched browser has one profile for the run: behind the
 * guard's proxy (page_ctx_params), so that everything of its pages is
 * guarded, WebSockets and workers that outlive their page included; with
 * the cookies of the browser's own context (the user's, from
 * Storage.getCookies) copied in before its first page is made, so that
 * pages are fetched as the user would see them.  Only that way: what the
 * pages set goes with the context.  One context a run, not one a page as
 * open makes: a context's first page is the slow one (10 small pages took
 * 13.1 s against 19.6 s; scripts/bench pwfetch-attached).
 */
static void
run_ctx_start(struct uk_pages *ps)
{
	if (ps->run_ctx_making)
		return;
	ps->run_ctx_making = 1;
	page_call(ps, NULL, EV_RUN_CTX, NULL, "Target.createBrowserContext",
	    page_ctx_params(ps));
}

/* The pages waiting for the run's context: made now, or failed with why. */
static void
run_ctx_done(struct uk_pages *ps, const char *why)
{
	long i;

	ps->run_ctx_making = 0;
	if (why && ps->run_ctx) {
		/* Made, but not with the user's cookies: not to be used. */
		page_call(ps, NULL, EV_NONE, NULL,
		    "Target.disposeBrowserContext",
		    page_params1("browserContextId", uk_json_str(ps->run_ctx)));
		free(ps->run_ctx);
		ps->run_ctx = NULL;
	}
	for (i = 0; i < ps->o.jobs; i++) {
		struct uk_page *p = &ps->pages[i];

		if (p->state != S_RUN_CONTEXT)
			continue;
		if (why)
			page_fail(p, "cannot make a browser context: %s", why);
		else
			page_event(p, EV_CONTEXT, NULL);
	}
}

/*
 * A reply in the making of the run's context.  The Network.Cookie objects
 * of Storage.getCookies go back to Storage.setCookies as they came, as
 * Network.CookieParam ones: Chromium ignores the fields CookieParam does
 * not have ("size", "session") and takes a session cookie's "expires" of
 * -1 as no expiry (with Chromium 156, a session cookie, one with Max-Age
 * and one HttpOnly and SameSite=Strict all reached the server;
 * tests/pwfetch-security.bats).
 */
static void
run_ctx_reply(struct uk_pages *ps, enum page_ev ev, yajl_val res,
    const char *error)
{
	yajl_val q, cookies;
	const char *s;

	if (error) {
		run_ctx_done(ps, error);
		return;
	}
	if (ev == EV_RUN_CTX) {
		if (!(s = uk_json_get_str(res, "browserContextId"))) {
			run_ctx_done(ps, "the browser made none");
			return;
		}
		ps->run_ctx = uk_util_xstrdup(s);
		page_call(ps, NULL, EV_RUN_COOKIES, NULL, "Storage.getCookies",
		    NULL);
		return;
	}
	if (ev == EV_RUN_COOKIES) {
		cookies = uk_json_get(res, "cookies");
		if (YAJL_IS_ARRAY(cookies) && cookies->u.array.len > 0) {
			q = page_params1("cookies", uk_json_copy(cookies));
			uk_json_set_str(q, "browserContextId", ps->run_ctx);
			page_call(ps, NULL, EV_RUN_SETCOOKIES, NULL,
			    "Storage.setCookies", q);
			return;
		}
	}
	run_ctx_done(ps, NULL);
}

/* A reply: to the page (or the run) that sent its command. */
static void
dispatch_reply(struct uk_pages *ps, yajl_val m)
{
	struct uk_page_call c;
	struct uk_page *p;
	yajl_val res = uk_json_get(m, "result"), e = uk_json_get(m, "error");
	const char *s = uk_json_get_str(e, "message");
	char msg[400];
	long long id;
	size_t i;

	if (uk_json_get_int(m, "id", &id))
		return;
	for (i = 0; i < ps->ncalls && ps->calls[i].id != id; i++)
		;
	if (i == ps->ncalls)
		return;
	c = ps->calls[i];
	ps->calls[i] = ps->calls[--ps->ncalls];
	snprintf(msg, sizeof(msg), "%s", s ? s : "browser error");
	if (c.ev >= EV_RUN_CTX) {
		run_ctx_reply(ps, c.ev, res, e ? msg : NULL);
		return;
	}
	p = c.p;
	if (!p || p->state == S_FREE || p->gen != c.gen) {
		/*
		 * For nobody, or for a page that is over (failed, timed out):
		 * a context made for it goes at once, not when the run ends.
		 */
		s = uk_json_get_str(res, "browserContextId");
		if (c.ev == EV_CONTEXT && s)
			page_call(ps, NULL, EV_NONE, NULL,
			    "Target.disposeBrowserContext",
			    page_params1("browserContextId", uk_json_str(s)));
		return;
	}
	if (c.ev != EV_NONE)
		p->pending--;
	if (e && c.ev == EV_SHOT) {
		free(p->shot_err);
		p->shot_err = uk_util_xstrdup(msg);
		res = NULL;
	} else if (e && c.ev == EV_EVAL) {
		free(p->eval_err);
		p->eval_err = uk_util_xstrdup(msg);
		res = NULL;
	} else if (e) {
		page_fail(p, "%s", msg);
		return;
	}
	if (c.ev == EV_NONE || page_event(p, c.ev, res) == 0)
		page_maybe_finish(p);
}

static struct uk_page *
page_by_session(struct uk_pages *ps, const char *session)
{
	long i;

	if (!session)
		return NULL;
	for (i = 0; i < ps->o.jobs; i++)
		if (ps->pages[i].state != S_FREE && ps->pages[i].session &&
		    !strcmp(ps->pages[i].session, session))
			return &ps->pages[i];
	return NULL;
}

/* An event of a page's session. */
static void
dispatch_event(struct uk_pages *ps, const char *method, yajl_val m)
{
	yajl_val params = uk_json_get(m, "params");
	const char *session = uk_json_get_str(m, "sessionId");
	struct uk_page *p;
	enum uk_page_wait w = ps->o.wait;
	int guard;

	if (!strcmp(method, "Target.detachedFromTarget")) {
		p = page_by_session(ps, uk_json_get_str(params, "sessionId"));
		if (p)
			page_fail(p, "the page was closed");
		return;
	}
	/* (Only a session's own auto-attach names a parent session.) */
	if (!strcmp(method, "Target.attachedToTarget")) {
		if (session)
			page_child_attached(ps, params);
		return;
	}
	p = page_by_session(ps, session);
	if (!strcmp(method, "Fetch.requestPaused")) {
		/* Answered even for a page that is over, or it would hang. */
		guard_request(ps, p, session, params);
		return;
	}
	if (!p)
		return;
	guard = ps->o.guard && p->state != S_COLLECT;
	if (!strcmp(method, "Network.requestWillBeSent")) {
		page_request(p, params, 1);
	} else if (!strcmp(method, "Network.loadingFinished") ||
	    !strcmp(method, "Network.loadingFailed")) {
		page_request(p, params, 0);
	} else if (!strcmp(method, "Network.responseReceived")) {
		if (guard)
			guard_response(p, params);
	} else if (!strcmp(method, "Network.webSocketCreated")) {
		if (guard)
			guard_websocket(p, params);
	} else if (!strcmp(method, "Page.lifecycleEvent")) {
		page_lifecycle(p, uk_json_get_str(params, "frameId"),
		    uk_json_get_str(params, "loaderId"),
		    uk_json_get_str(params, "name"));
	} else if (!strcmp(method, "Page.loadEventFired")) {
		/*
		 * Once the load is the page's own (LOADING: the navigation
		 * has committed, or the reload has been asked for), a load
		 * event is the new document's: a second way to see it besides
		 * the lifecycle events.  The table drops it before that.
		 */
		if (w == UK_PAGE_WAIT_LOAD || w == UK_PAGE_WAIT_DOM)
			page_event(p, EV_READY, NULL);
		else if (w == UK_PAGE_WAIT_IDLE)
			page_event(p, EV_LOAD, NULL);
	} else if (!strcmp(method, "Page.domContentEventFired")) {
		if (w == UK_PAGE_WAIT_DOM)
			page_event(p, EV_READY, NULL);
	} else if (!strcmp(method, "Inspector.targetCrashed")) {
		page_fail(p, "the page crashed its renderer");
	} else if (!strcmp(method, "Page.javascriptDialogOpening")) {
		/* A dialog would stop the page: answer it. */
		page_call(ps, NULL, EV_NONE, p->session,
		    "Page.handleJavaScriptDialog",
		    page_params1("accept", uk_json_bool(1)));
	}
}

void
uk_page_events_dispatch(struct uk_pages *ps, yajl_val m)
{
	const char *method = uk_json_get_str(m, "method");
	yajl_val params = uk_json_get(m, "params");

	if (ps->trace) {
		long long tid = 0;
		const char *what = uk_json_get_str(params, "name");
		const char *loader = uk_json_get_str(params, "loaderId");

		if (!what)
			what = uk_json_get_str(params, "requestId");
		uk_json_get_int(m, "id", &tid);
		fprintf(stderr, "%.3f < %s %lld %s %s\n",
		    uk_util_mono_now() - ps->t_start, method ? method : "reply",
		    tid, what ? what : "", loader ? loader : "");
	}
	if (method)
		dispatch_event(ps, method, m);
	else
		dispatch_reply(ps, m);
}

void
uk_page_events_init(struct uk_pages *ps, const struct uk_page_opts *opts,
    struct uk_cdp *cdp, uk_page_emit_fn *emit, void *ctx)
{
	long i;

	memset(ps, 0, sizeof(*ps));
	ps->o = *opts;
	ps->cdp = cdp;
	ps->emit = emit;
	ps->ctx = ctx;
	ps->pages = uk_util_xcalloc((size_t)opts->jobs, sizeof(*ps->pages));
	for (i = 0; i < opts->jobs; i++)
		ps->pages[i].ps = ps;
	ps->warm = uk_util_xcalloc(1, sizeof(*ps->warm));
	ps->warm->ps = ps;
	uk_netguard_async_init(&ps->guard);
	ps->trace = getenv("PWFETCH_TRACE") != NULL;
	ps->t_start = uk_util_mono_now();
}

void
uk_page_events_release(struct uk_pages *ps)
{
	long i;

	for (i = 0; i < ps->o.jobs; i++)
		page_free(&ps->pages[i]);
	page_free(ps->warm);
	free(ps->warm);
	free(ps->pages);
	free(ps->calls);
	free(ps->run_ctx);
	free(ps->spare);
	uk_netguard_async_release(&ps->guard, guard_wait_free);
	memset(ps, 0, sizeof(*ps));
}

void
uk_page_events_start(struct uk_pages *ps, yajl_val rec, unsigned long no)
{
	struct uk_page *p = ps->pages, *w = ps->warm;

	while (p->state != S_FREE)
		p++;
	p->rec = rec;
	p->url = uk_json_get_str(rec, "url");
	p->no = no;
	p->deadline = uk_util_mono_now() + ps->o.timeout;
	ps->nactive++;
	if (w->state == S_WARM) {
		p->ctx = w->ctx;
		p->target = w->target;
		p->session = w->session;
		w->ctx = w->target = w->session = NULL;
		page_free(w);
		p->state = S_WARM;
		page_event(p, EV_START, NULL);
		return;
	}
	if (ps->o.cmd == UK_PAGE_FIND) {
		p->state = S_TARGET;
		page_call(ps, p, EV_TARGETS, NULL, "Target.getTargets", NULL);
	} else if (ps->o.cmd == UK_PAGE_OPEN) {
		p->state = S_CONTEXT;
		page_call(ps, p, EV_CONTEXT, NULL,
		    "Target.createBrowserContext", page_ctx_params(ps));
	} else if (*ps->ctx_proxy && (!ps->run_ctx || ps->run_ctx_making)) {
		/* Attached, guarded: the run's context first. */
		p->state = S_RUN_CONTEXT;
		run_ctx_start(ps);
	} else if (!*ps->ctx_proxy && ps->spare) {
		/* The launched browser's own blank page is new too. */
		p->target = ps->spare;
		ps->spare = NULL;
		p->state = S_ATTACH;
		page_attach(p);
	} else {
		p->state = S_TARGET;
		page_create_target(p);
	}
}

/*
 * Make a page ahead of need (a browser we launched, open and fetch): its
 * context, target and session are ready when the next URL comes, which
 * takes their round trips out of the time a page costs.
 */
void
uk_page_events_warm(struct uk_pages *ps)
{
	struct uk_page *w = ps->warm;

	if (ps->o.attached || ps->o.cmd == UK_PAGE_FIND || w->state != S_FREE ||
	    ps->cdp->dead)
		return;
	if (ps->o.cmd == UK_PAGE_OPEN) {
		w->state = S_CONTEXT;
		page_call(ps, w, EV_CONTEXT, NULL,
		    "Target.createBrowserContext", page_ctx_params(ps));
	} else {
		w->state = S_TARGET;
		page_create_target(w);
	}
}

void
uk_page_events_find_spare(struct uk_pages *ps)
{
	struct uk_err err;
	yajl_val res, infos;
	size_t i;

	res = uk_cdp_call(ps->cdp, NULL, "Target.getTargets", NULL,
	    ps->o.timeout, &err);
	infos = uk_json_get(res, "targetInfos");
	for (i = 0; YAJL_IS_ARRAY(infos) && i < infos->u.array.len; i++) {
		yajl_val t = infos->u.array.values[i];
		const char *type = uk_json_get_str(t, "type");
		const char *url = uk_json_get_str(t, "url");
		const char *id = uk_json_get_str(t, "targetId");

		if (type && !strcmp(type, "page") && url &&
		    !strcmp(url, "about:blank") && id) {
			ps->spare = uk_util_xstrdup(id);
			break;
		}
	}
	uk_json_free(res);
}

double
uk_page_events_next_wake(const struct uk_pages *ps)
{
	double next = -1;
	long i;

	for (i = 0; i < ps->o.jobs; i++) {
		const struct uk_page *p = &ps->pages[i];

		if (p->state == S_FREE)
			continue;
		if (next < 0 || p->deadline < next)
			next = p->deadline;
		if (p->poll_at > 0 && p->poll_at < next)
			next = p->poll_at;
		if (p->idle_at > 0 && p->idle_at < next)
			next = p->idle_at;
	}
	return next;
}

void
uk_page_events_tick(struct uk_pages *ps, double now)
{
	long i;

	for (i = 0; i < ps->o.jobs; i++) {
		struct uk_page *p = &ps->pages[i];

		if (p->state == S_FREE)
			continue;
		if (now >= p->deadline) {
			page_fail(p, "timeout after %g s waiting for %s",
			    ps->o.timeout, page_waits_for(p));
		} else if (p->poll_at > 0 && now >= p->poll_at) {
			p->poll_at = 0;
			page_event(p, EV_POLL_DUE, NULL);
		} else if (p->idle_at > 0 && now >= p->idle_at) {
			p->idle_at = 0;
			page_event(p, EV_IDLE_DUE, NULL);
		}
	}
}

void
uk_page_events_fail_all(struct uk_pages *ps, const char *msg)
{
	long i;

	for (i = 0; i < ps->o.jobs; i++)
		if (ps->pages[i].state != S_FREE)
			page_fail(&ps->pages[i], "%s", msg);
}

void
uk_page_events_time_out(struct uk_pages *ps, double total)
{
	long i;

	for (i = 0; i < ps->o.jobs; i++)
		if (ps->pages[i].state != S_FREE)
			page_fail(&ps->pages[i],
			    "the run timed out (%g s) waiting for %s", total,
			    page_waits_for(&ps->pages[i]));
}

void
uk_page_events_end(struct uk_pages *ps, double secs)
{
	double end = uk_util_mono_now() + secs;
	struct uk_err err;
	yajl_val m;

	if (ps->run_ctx && !ps->cdp->dead)
		page_call(ps, NULL, EV_NONE, NULL,
		    "Target.disposeBrowserContext",
		    page_params1("browserContextId", uk_json_str(ps->run_ctx)));
	/* Wait a little for the cleanup commands to be carried out. */
	while (ps->o.attached && ps->ncalls > 0 && !ps->cdp->dead) {
		double left = end - uk_util_mono_now();

		if (left <= 0 || uk_cdp_next(ps->cdp, left, &m, &err) != 1)
			break;
		uk_page_events_dispatch(ps, m);
		uk_json_free(m);
	}
}
