/* SPDX-License-Identifier: MIT */
/*
 * Pages in a browser, one state machine each (see page.h): the table of
 * transitions, the actions it runs (a lifecycle event, a screenshot, a
 * refused address among them), and the records pages end with.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "base64.h"
#include "extract.h"
#include "guardproxy.h"
#include "json.h"
#include "jsonl.h"
#include "page.h"
#include "page_int.h"
#include "record.h"
#include "url.h"
#include "util.h"

/* Send a command for page p (NULL: nobody waits for its reply). */
void
page_call(struct uk_pages *ps, struct uk_page *p, enum page_ev ev,
    const char *session, const char *method, yajl_val params)
{
	struct uk_err err;
	struct uk_page_call *c;
	long id;

	id = uk_cdp_send(ps->cdp, session, method, params, &err);
	if (ps->trace)
		fprintf(stderr, "%.3f > %s %ld\n",
		    uk_util_mono_now() - ps->t_start, method, id);
	uk_json_free(params);
	if (id < 0)
		return; /* the dead stream is noticed by the main loop */
	if (ps->ncalls == ps->acalls) {
		ps->acalls = ps->acalls ? 2 * ps->acalls : 32;
		ps->calls = uk_util_xrealloc(ps->calls,
		    ps->acalls * sizeof(*ps->calls));
	}
	c = &ps->calls[ps->ncalls++];
	c->id = id;
	c->p = p;
	c->gen = p ? p->gen : 0;
	c->ev = ev;
	if (p && ev != EV_NONE)
		p->pending++;
}

yajl_val
page_params1(const char *key, yajl_val v)
{
	yajl_val p = uk_json_object();

	uk_json_set(p, key, v);
	return p;
}

void
page_free(struct uk_page *p)
{
	unsigned gen = p->gen;
	struct uk_pages *ps = p->ps;
	int i;

	uk_json_free(p->rec);
	uk_json_free(p->evalv);
	free(p->ctx);
	free(p->target);
	free(p->session);
	free(p->frame);
	free(p->loader);
	free(p->old_loader);
	while (p->nreqs > 0)
		free(p->reqs[--p->nreqs]);
	free(p->reqs);
	for (i = 0; i < p->nev; i++) {
		free(p->ev[i].frame);
		free(p->ev[i].loader);
		free(p->ev[i].name);
	}
	free(p->eval_err);
	free(p->shot_path);
	free(p->shot_err);
	free(p->html);
	free(p->final_url);
	memset(p, 0, sizeof(*p));
	p->gen = gen + 1;
	p->ps = ps;
	p->state = S_FREE;
}

/* Let go of the page: close what we made, leave what the user had. */
static void
page_cleanup(struct uk_page *p, int failed)
{
	struct uk_pages *ps = p->ps;

	if (!ps->cdp->dead) {
		if (ps->o.cmd == UK_PAGE_FIND ||
		    (ps->o.attached && ps->o.cmd == UK_PAGE_FETCH && !failed &&
			!*ps->ctx_proxy)) {
			/*
			 * The user's page, or one left for a later find (fetch
			 * in the browser's own context: the guard is off).
			 */
			if (p->session)
				page_call(ps, NULL, EV_NONE, NULL,
				    "Target.detachFromTarget",
				    page_params1("sessionId",
					uk_json_str(p->session)));
		} else if (p->ctx) {
			page_call(ps, NULL, EV_NONE, NULL,
			    "Target.disposeBrowserContext",
			    page_params1("browserContextId",
				uk_json_str(p->ctx)));
		} else if (p->target) {
			page_call(ps, NULL, EV_NONE, NULL, "Target.closeTarget",
			    page_params1("targetId", uk_json_str(p->target)));
		}
	}
	page_free(p);
	ps->nactive--;
}

/* The content record's start for rec (lib/record.h), typed by url. */
static yajl_val
base_record(yajl_val rec, const char *url)
{
	struct uk_url u;
	yajl_val r;

	uk_url_classify(url, &u);
	r = uk_record_new(NULL, rec, uk_url_type_name(u.type));
	uk_url_release(&u);
	return r;
}

/* The error record for rec, to emit as page no's (0: no page). */
static void
error_record(struct uk_pages *ps, yajl_val rec, const char *url,
    const char *msg, unsigned long no)
{
	yajl_val r = base_record(rec, url ? url : "");

	uk_record_error(r, msg);
	r = uk_record_finish(r, rec, UK_JSONL_MAX_LINE);
	ps->emit(ps->ctx, r, url ? url : "-", msg, no);
	uk_json_free(r);
}

void
uk_page_error(struct uk_pages *ps, yajl_val rec, const char *url,
    const char *msg)
{
	error_record(ps, rec, url, msg, 0);
}

void
page_fail(struct uk_page *p, const char *fmt, ...)
{
	struct uk_pages *ps = p->ps;
	char msg[600];
	va_list ap;

	if (p->state == S_FREE)
		return;
	if (!p->rec) {
		/* A page made ahead: nobody waits for it, dropped quietly. */
		if (p->target && !ps->cdp->dead)
			page_call(ps, NULL, EV_NONE, NULL, "Target.closeTarget",
			    page_params1("targetId", uk_json_str(p->target)));
		page_free(p);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_record(ps, p->rec, p->url, msg, p->no);
	page_cleanup(p, 1);
}

/*
 * The error of a rendered page, or "" when it has none: the HTTP status,
 * a block page, the value's and the screenshot's failures, in that order.
 */
static void
finish_error(const struct uk_page *p, int blocked, char *msg, size_t size)
{
	char http[32] = "";

	if (p->status >= 400)
		snprintf(http, sizeof(http), "HTTP %lld", p->status);
	else if (blocked)
		snprintf(http, sizeof(http), "a block or challenge page");
	snprintf(msg, size, "%s%s%s%s%s", http,
	    *http && (p->eval_err || p->shot_err) ? "; " : "",
	    p->eval_err ? p->eval_err : "",
	    p->eval_err && p->shot_err ? "; " : "",
	    p->shot_err ? p->shot_err : "");
}

/* Everything is in: write the content record. */
static void
page_finish(struct uk_page *p)
{
	struct uk_pages *ps = p->ps;
	struct uk_extract x;
	struct uk_err err;
	struct uk_record_http h = { 0 };
	yajl_val r;
	char msg[700];

	memset(&x, 0, sizeof(x));
	if (!p->html) {
		page_fail(p, "no HTML came back from the page");
		return;
	}
	if (uk_extract_html(p->html, strlen(p->html),
		"text/html; charset=utf-8", p->final_url, ps->o.extract, &x,
		&err)) {
		uk_extract_release(&x);
		page_fail(p, "%s", err.msg);
		return;
	}
	r = base_record(p->rec, p->url);
	uk_extract_record(&x, 0, r);
	h.final_url = p->final_url;
	h.status = p->status > 0 ? (long)p->status : 0;
	uk_record_set_http(r, &h);
	if (ps->o.html)
		uk_json_set_str(r, "html", p->html);
	if (ps->o.eval)
		uk_json_set(r, "eval",
		    p->evalv ? uk_json_copy(p->evalv) : uk_json_null());
	if (p->shot_path)
		uk_json_set_str(r, "screenshot", p->shot_path);
	finish_error(p, x.blocked, msg, sizeof(msg));
	if (*msg)
		uk_record_error(r, msg);
	if (ps->o.before_fit)
		ps->o.before_fit(ps->ctx, r, p->url);
	r = uk_record_finish(r, p->rec, UK_JSONL_MAX_LINE);
	if (!*msg && uk_json_get_str(r, "error")) /* over the line limit */
		snprintf(msg, sizeof(msg), "%s", uk_json_get_str(r, "error"));
	/* Rendered: urlfetch's needs_browser (the extraction's or the
	 * input's) does not apply. */
	uk_json_del(r, "needs_browser");
	/* --explain's records ride along for the program to take out
	 * (stderr): they are not the record's, and not fitted with it. */
	if (x.explain)
		uk_json_set(r, "explain",
		    uk_extract_override_explain_array(x.explain, p->url));
	uk_extract_release(&x);
	ps->emit(ps->ctx, r, p->url, *msg ? msg : NULL, p->no);
	uk_json_free(r);
	page_cleanup(p, 0);
}

/*
 * Finish once everything asked of the page is in, and no WebSocket it
 * opened is still waiting for its host's verdict (its data could have come
 * from an internal address).
 */
void
page_maybe_finish(struct uk_page *p)
{
	if (p->state == S_COLLECT && p->pending <= 0 && p->ws_waiting <= 0)
		page_finish(p);
}

/* What a page in state st waits for, for its timeout's message. */
const char *
page_waits_for(const struct uk_page *p)
{
	switch (p->state) {
	case S_RUN_CONTEXT:
		return "the browser context";
	case S_CONTEXT:
	case S_TARGET:
	case S_ATTACH:
	case S_WARM:
		return "the browser";
	case S_COLLECT:
		return p->pending <= 0 && p->ws_waiting > 0 ?
		    "the look-up of a WebSocket's host" :
		    "the page's HTML";
	default:
		break;
	}
	switch (p->ps->o.wait) {
	case UK_PAGE_WAIT_DOM:
		return "DOMContentLoaded";
	case UK_PAGE_WAIT_IDLE:
		return "network idle";
	case UK_PAGE_WAIT_SELECTOR:
		return "the selector";
	default:
		return "load";
	}
}

/* The page's HTML (doctype included), location and HTTP status. */
#define HTML_JS                                                                \
	"(() => { const d = document.doctype, e = document.documentElement,"   \
	" n = performance.getEntriesByType('navigation')[0];"                  \
	" return { url: location.href, status: n ? n.responseStatus : 0,"      \
	" html: (d ? new XMLSerializer().serializeToString(d) + '\\n' : '') +" \
	" (e ? e.outerHTML : '') }; })()"

static yajl_val
evaluate(const char *expr)
{
	yajl_val p = uk_json_object();

	uk_json_set_str(p, "expression", expr);
	uk_json_set_bool(p, "returnByValue", 1);
	uk_json_set_bool(p, "awaitPromise", 1);
	return p;
}

/* The message of a Runtime.evaluate exception. */
static char *
exception_text(yajl_val res)
{
	yajl_val d = uk_json_get(res, "exceptionDetails");
	yajl_val e = uk_json_get(d, "exception");
	const char *s = uk_json_get_str(e, "description");

	if (!s)
		s = uk_json_get_str(d, "text");
	return uk_util_xstrdup(s ? s : "exception");
}

static void
poll_selector(struct uk_page *p)
{
	struct uk_pages *ps = p->ps;
	struct uk_buf b = UK_BUF_INIT;
	yajl_val sel = uk_json_str(ps->o.selector);

	p->poll_at = 0;
	if (ps->o.cmd == UK_PAGE_FIND)
		uk_buf_addstr(&b, "!window.__pwfetchOld && ");
	uk_buf_addstr(&b, "!!document.querySelector(");
	uk_json_to_buf(sel, &b);
	uk_buf_addstr(&b, ")");
	uk_json_free(sel);
	page_call(ps, p, EV_POLLED, p->session, "Runtime.evaluate",
	    evaluate(b.buf));
	uk_buf_release(&b);
}

/*
 * -w networkidle.  Waiting for Chromium's own networkIdle lifecycle event
 * alone, a find in CI once failed, most likely at its timeout (the run
 * took 30 s longer), so the requests are also counted here, as Playwright
 * does: the page is idle once its load event has fired (state LOADED) and
 * no request has been in flight for half a second.  Whichever comes first
 * ends the wait.
 */
#define IDLE_SECONDS 0.5

void
page_idle_check(struct uk_page *p)
{
	if (p->state != S_LOADED || p->nreqs > 0)
		p->idle_at = 0;
	else if (p->idle_at <= 0)
		p->idle_at = uk_util_mono_now() + IDLE_SECONDS;
}

static ssize_t
req_find(const struct uk_page *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nreqs; i++)
		if (!strcmp(p->reqs[i], id))
			return (ssize_t)i;
	return -1;
}

/* Network.requestWillBeSent (started), loadingFinished or loadingFailed. */
void
page_request(struct uk_page *p, yajl_val params, int started)
{
	const char *id = uk_json_get_str(params, "requestId");
	const char *loader = uk_json_get_str(params, "loaderId");
	ssize_t i;

	if (p->ps->o.wait != UK_PAGE_WAIT_IDLE || p->state == S_COLLECT || !id)
		return;
	i = req_find(p, id);
	if (started) {
		/* A redirect keeps its id; the old document's are not ours. */
		if (i >= 0 ||
		    (p->old_loader && loader && !strcmp(loader, p->old_loader)))
			return;
		if (p->nreqs == p->areqs) {
			p->areqs = p->areqs ? 2 * p->areqs : 16;
			p->reqs = uk_util_xrealloc(p->reqs,
			    p->areqs * sizeof(*p->reqs));
		}
		p->reqs[p->nreqs++] = uk_util_xstrdup(id);
	} else if (i >= 0) {
		free(p->reqs[i]);
		p->reqs[i] = p->reqs[--p->nreqs];
	}
	page_idle_check(p);
}

/* Fetch.enable's parameters: every request stops at the guard. */
static yajl_val
fetch_all(void)
{
	yajl_val p = uk_json_object();

	uk_json_set(p, "patterns", uk_json_array());
	uk_json_push(uk_json_get(p, "patterns"),
	    page_params1("urlPattern", uk_json_str("*")));
	return p;
}

/*
 * Target.createBrowserContext's parameters: gone with our session, and in
 * an attached browser behind guardproxy (ctx_proxy), as the whole of a
 * launched one is.
 */
yajl_val
page_ctx_params(const struct uk_pages *ps)
{
	yajl_val p = page_params1("disposeOnDetach", uk_json_bool(1));

	if (*ps->ctx_proxy) {
		uk_json_set_str(p, "proxyServer", ps->ctx_proxy);
		uk_json_set_str(p, "proxyBypassList", "<-loopback>");
	}
	return p;
}

void
page_create_target(struct uk_page *p)
{
	struct uk_pages *ps = p->ps;
	yajl_val q = uk_json_object();

	uk_json_set_str(q, "url", "about:blank");
	if (p->ctx)
		uk_json_set_str(q, "browserContextId", p->ctx);
	else if (ps->run_ctx)
		uk_json_set_str(q, "browserContextId", ps->run_ctx);
	page_call(ps, p, EV_TARGET, NULL, "Target.createTarget", q);
}

void
page_attach(struct uk_page *p)
{
	yajl_val q = uk_json_object();

	uk_json_set_str(q, "targetId", p->target);
	uk_json_set_bool(q, "flatten", 1);
	page_call(p->ps, p, EV_ATTACHED, NULL, "Target.attachToTarget", q);
}

/*
 * WebRTC's UDP goes round every proxy: a page's RTCPeerConnection sends
 * STUN and TURN requests, and its candidates' packets, straight to the
 * addresses the page names, where neither the guard's proxy nor
 * Fetch.requestPaused sees them.  A browser we launch has WebRTC's UDP
 * off in its profile (lib/browser.c, write_prefs); the user's browser
 * keeps its own preferences, and the protocol has no command that sets
 * Chromium's WebRTC IP handling policy for a context.  So a page behind
 * the guard in an attached browser loses WebRTC's constructors before any
 * script of its own runs, in every document its process makes for it
 * (its frames of the same site included), and so does every frame in a
 * process of its own (another site's): the page's session attaches to
 * each such frame before it starts (Target.setAutoAttach, waiting for
 * the debugger), gives it the same script and the same auto-attach for
 * its own frames, and lets it run (page_child_attached).
 */
static const char no_webrtc[] =
    "(function(){for(var n of Object.getOwnPropertyNames(self))"
    "if(/^(webkit)?RTC/.test(n))try{delete self[n];}catch(e){}})();";

/* Target.setAutoAttach's parameters: frames and workers wait for us. */
static yajl_val
auto_attach(void)
{
	yajl_val q = uk_json_object();

	uk_json_set_bool(q, "autoAttach", 1);
	uk_json_set_bool(q, "waitForDebuggerOnStart", 1);
	uk_json_set_bool(q, "flatten", 1);
	return q;
}

/* No WebRTC in the documents of session (a page's or a frame's). */
static void
no_webrtc_in(struct uk_pages *ps, const char *session)
{
	page_call(ps, NULL, EV_NONE, session,
	    "Page.addScriptToEvaluateOnNewDocument",
	    page_params1("source", uk_json_str(no_webrtc)));
	page_call(ps, NULL, EV_NONE, session, "Target.setAutoAttach",
	    auto_attach());
}

void
page_child_attached(struct uk_pages *ps, yajl_val params)
{
	const char *child = uk_json_get_str(params, "sessionId");
	const char *type = uk_json_get_str(uk_json_get(params, "targetInfo"),
	    "type");

	if (!child)
		return;
	/* Its commands go in order: the script is there before it runs
	 * (the Page domain on, as the page's own is: it runs no script
	 * for a new document otherwise). */
	if (type && !strcmp(type, "iframe")) {
		page_call(ps, NULL, EV_NONE, child, "Page.enable", NULL);
		no_webrtc_in(ps, child);
	}
	page_call(ps, NULL, EV_NONE, child, "Runtime.runIfWaitingForDebugger",
	    NULL);
}

/* Attached to the page: set it up; it loads once lifecycle events are on. */
int
act_setup(struct uk_page *p, yajl_val res)
{
	struct uk_pages *ps = p->ps;
	const struct uk_page_opts *o = &ps->o;
	int fetching = o->guard && o->cmd != UK_PAGE_FIND;
	yajl_val q;

	(void)res;
	page_call(ps, p, EV_NONE, p->session, "Page.enable", NULL);
	page_call(ps, p, EV_LIFECYCLE, p->session,
	    "Page.setLifecycleEventsEnabled",
	    page_params1("enabled", uk_json_bool(1)));
	page_call(ps, p, EV_NONE, p->session, "Inspector.enable", NULL);
	if (o->vw) {
		q = uk_json_object();
		uk_json_set_int(q, "width", o->vw);
		uk_json_set_int(q, "height", o->vh);
		uk_json_set_int(q, "deviceScaleFactor", 1);
		uk_json_set_bool(q, "mobile", 0);
		page_call(ps, p, EV_NONE, p->session,
		    "Emulation.setDeviceMetricsOverride", q);
	}
	if (o->ua)
		page_call(ps, p, EV_NONE, p->session,
		    "Emulation.setUserAgentOverride",
		    page_params1("userAgent", uk_json_str(o->ua)));
	/* Every request of the page stops at the guard first. */
	if (fetching)
		page_call(ps, p, EV_NONE, p->session, "Fetch.enable",
		    fetch_all());
	if (fetching && o->attached)
		no_webrtc_in(ps, p->session);
	if (fetching || o->wait == UK_PAGE_WAIT_IDLE)
		page_call(ps, p, EV_NONE, p->session, "Network.enable", NULL);
	return 0;
}

/*
 * Lifecycle events are on: navigate, or (find) ask for the document now,
 * to tell the reloaded one from it.  Turning them on replays the events
 * of the document the page has now (about:blank for a new page), before
 * the reply, and the replayed events have been seen to carry the loader
 * id of a navigation already under way: so the navigation starts only
 * after the reply, and events before it are not looked at.
 */
static int
act_go(struct uk_page *p, yajl_val res)
{
	(void)res;
	if (p->ps->o.cmd == UK_PAGE_FIND) {
		p->state = S_FRAME;
		page_call(p->ps, p, EV_FRAMETREE, p->session,
		    "Page.getFrameTree", NULL);
	} else {
		page_call(p->ps, p, EV_NAVIGATED, p->session, "Page.navigate",
		    page_params1("url", uk_json_str(p->url)));
	}
	return 0;
}

/* find: the first page whose URL starts with ours. */
static int
act_pick(struct uk_page *p, yajl_val res)
{
	yajl_val infos = uk_json_get(res, "targetInfos");
	size_t i, n = strlen(p->url);

	for (i = 0; YAJL_IS_ARRAY(infos) && i < infos->u.array.len; i++) {
		yajl_val t = infos->u.array.values[i];
		const char *type = uk_json_get_str(t, "type");
		const char *url = uk_json_get_str(t, "url");
		const char *id = uk_json_get_str(t, "targetId");

		if (type && !strcmp(type, "page") && url && id &&
		    !strncmp(url, p->url, n)) {
			p->target = uk_util_xstrdup(id);
			page_attach(p);
			return 0;
		}
	}
	page_fail(p, "no open page whose URL starts with '%s'", p->url);
	return -1;
}

/* Its own context made (open), or the run's is ready (res NULL). */
static int
act_context(struct uk_page *p, yajl_val res)
{
	const char *s;

	if (res) {
		if (!(s = uk_json_get_str(res, "browserContextId"))) {
			page_fail(p, "the browser made no context");
			return -1;
		}
		p->ctx = uk_util_xstrdup(s);
	}
	page_create_target(p);
	return 0;
}

static int
act_target(struct uk_page *p, yajl_val res)
{
	const char *s;

	if (!(s = uk_json_get_str(res, "targetId"))) {
		page_fail(p, "the browser made no page");
		return -1;
	}
	p->target = uk_util_xstrdup(s);
	page_attach(p);
	return 0;
}

static int
act_attached(struct uk_page *p, yajl_val res)
{
	const char *s;

	if (!(s = uk_json_get_str(res, "sessionId"))) {
		page_fail(p, "cannot attach to the page");
		return -1;
	}
	p->session = uk_util_xstrdup(s);
	if (!p->rec) {
		p->state = S_WARM; /* made ahead: set up when a URL comes */
		return 0;
	}
	return act_setup(p, res);
}

/* Go through the lifecycle events kept before the load was known. */
static int
replay(struct uk_page *p)
{
	int i, n = p->nev;

	p->nev = 0;
	for (i = 0; i < n; i++) {
		if (p->state != S_FREE)
			page_lifecycle(p, p->ev[i].frame, p->ev[i].loader,
			    p->ev[i].name);
		free(p->ev[i].frame);
		free(p->ev[i].loader);
		free(p->ev[i].name);
	}
	return p->state == S_FREE ? -1 : 0;
}

/*
 * find: the document now.  Mark it; the reloaded one has no mark.  The
 * reload waits for the mark's reply: sent together, the reload could
 * abort the mark ("Inspected target navigated or closed"), as seen in CI.
 */
static int
act_frametree(struct uk_page *p, yajl_val res)
{
	yajl_val v = uk_json_get(uk_json_get(res, "frameTree"), "frame");
	const char *s;

	if (!(s = uk_json_get_str(v, "id"))) {
		page_fail(p, "the page has no frame");
		return -1;
	}
	p->frame = uk_util_xstrdup(s);
	if ((s = uk_json_get_str(v, "loaderId")))
		p->old_loader = uk_util_xstrdup(s);
	if (replay(p))
		return -1;
	page_call(p->ps, p, EV_MARKED, p->session, "Runtime.evaluate",
	    evaluate("window.__pwfetchOld = true"));
	return 0;
}

static int
act_reload(struct uk_page *p, yajl_val res)
{
	(void)res;
	page_call(p->ps, p, EV_RELOADED, p->session, "Page.reload", NULL);
	return 0;
}

/* The reload was taken: -w selector: polls from now on. */
static int
act_reloaded(struct uk_page *p, yajl_val res)
{
	(void)res;
	if (p->ps->o.wait == UK_PAGE_WAIT_SELECTOR)
		poll_selector(p);
	return 0;
}

static int
act_navigated(struct uk_page *p, yajl_val res)
{
	const char *s = uk_json_get_str(res, "errorText");

	if (s && *s) {
		page_proxy_fail(p, s);
		return -1;
	}
	if (!(s = uk_json_get_str(res, "frameId"))) {
		page_fail(p, "the navigation has no frame");
		return -1;
	}
	p->frame = uk_util_xstrdup(s);
	if (!(s = uk_json_get_str(res, "loaderId"))) {
		/* Same document: nothing more to load. */
		return page_event(p, EV_READY, NULL);
	}
	p->loader = uk_util_xstrdup(s);
	if (replay(p))
		return -1;
	if (p->state == S_LOADING && p->ps->o.wait == UK_PAGE_WAIT_SELECTOR)
		poll_selector(p);
	return 0;
}

static int
act_polled(struct uk_page *p, yajl_val res)
{
	yajl_val v;

	if (uk_json_get(res, "exceptionDetails")) {
		char *e = exception_text(res);

		page_fail(p, "selector '%s': %s", p->ps->o.selector, e);
		free(e);
		return -1;
	}
	v = uk_json_get(uk_json_get(res, "result"), "value");
	if (YAJL_IS_TRUE(v))
		return page_event(p, EV_READY, NULL);
	p->poll_at = uk_util_mono_now() + 0.1;
	return 0;
}

static int
act_poll(struct uk_page *p, yajl_val res)
{
	(void)res;
	poll_selector(p);
	return 0;
}

static int
act_loaded(struct uk_page *p, yajl_val res)
{
	(void)res;
	page_idle_check(p);
	return 0;
}

/* The page is ready: ask for the value, screenshot and HTML. */
static int
act_collect(struct uk_page *p, yajl_val res)
{
	struct uk_pages *ps = p->ps;

	(void)res;
	p->poll_at = p->idle_at = 0;
	if (ps->o.eval)
		page_call(ps, p, EV_EVAL, p->session, "Runtime.evaluate",
		    evaluate(ps->o.eval));
	if (ps->o.shot)
		page_call(ps, p, EV_SHOT, p->session, "Page.captureScreenshot",
		    page_params1("format", uk_json_str("png")));
	page_call(ps, p, EV_HTML, p->session, "Runtime.evaluate",
	    evaluate(HTML_JS));
	return 0;
}

/* -e's value (an error reply has been kept in eval_err: res NULL). */
static int
act_eval(struct uk_page *p, yajl_val res)
{
	yajl_val v;

	if (res && uk_json_get(res, "exceptionDetails")) {
		char *e = exception_text(res);
		struct uk_buf m = UK_BUF_INIT;

		uk_buf_addf(&m, "eval: %s", e);
		free(e);
		free(p->eval_err);
		p->eval_err = uk_buf_detach(&m, NULL);
	} else if (res) {
		v = uk_json_get(uk_json_get(res, "result"), "value");
		uk_json_free(p->evalv);
		p->evalv = v ? uk_json_copy(v) : uk_json_null();
	}
	return 0;
}

static int
act_shot(struct uk_page *p, yajl_val res)
{
	if (res)
		page_save_shot(p, res);
	return 0;
}

static int
act_html(struct uk_page *p, yajl_val res)
{
	yajl_val v;
	const char *s;

	if (uk_json_get(res, "exceptionDetails")) {
		char *e = exception_text(res);

		page_fail(p, "cannot read the page: %s", e);
		free(e);
		return -1;
	}
	v = uk_json_get(uk_json_get(res, "result"), "value");
	if ((s = uk_json_get_str(v, "html")))
		p->html = uk_util_xstrdup(s);
	if ((s = uk_json_get_str(v, "url")))
		p->final_url = uk_util_xstrdup(s);
	if (uk_json_get_int(v, "status", &p->status))
		p->status = 0;
	return 0;
}

/*
 * The transitions: in state, event leads to next, and action runs (with
 * the reply's result, or NULL) after the state is set, so that it may
 * move the page on itself (a failure frees it: S_FREE).  A pair not in
 * the table is dropped: a poll's answer after the page was ready, a load
 * event before the page's own load is known.
 */
static const struct transition {
	enum page_state state;
	enum page_ev ev;
	int (*action)(struct uk_page *, yajl_val);
	enum page_state next;
} transitions[] = {
	{ S_CONTEXT, EV_CONTEXT, act_context, S_TARGET },
	{ S_RUN_CONTEXT, EV_CONTEXT, act_context, S_TARGET },
	{ S_TARGET, EV_TARGETS, act_pick, S_ATTACH },
	{ S_TARGET, EV_TARGET, act_target, S_ATTACH },
	{ S_ATTACH, EV_ATTACHED, act_attached, S_SETUP },
	{ S_WARM, EV_START, act_setup, S_SETUP },
	{ S_SETUP, EV_LIFECYCLE, act_go, S_NAVIGATE },
	{ S_FRAME, EV_FRAMETREE, act_frametree, S_MARK },
	{ S_MARK, EV_MARKED, act_reload, S_LOADING },
	{ S_LOADING, EV_RELOADED, act_reloaded, S_LOADING },
	{ S_NAVIGATE, EV_NAVIGATED, act_navigated, S_LOADING },
	{ S_LOADING, EV_POLLED, act_polled, S_LOADING },
	{ S_LOADING, EV_POLL_DUE, act_poll, S_LOADING },
	{ S_LOADING, EV_LOAD, act_loaded, S_LOADED },
	{ S_LOADING, EV_READY, act_collect, S_COLLECT },
	{ S_LOADED, EV_READY, act_collect, S_COLLECT },
	{ S_LOADED, EV_IDLE_DUE, act_collect, S_COLLECT },
	{ S_COLLECT, EV_EVAL, act_eval, S_COLLECT },
	{ S_COLLECT, EV_SHOT, act_shot, S_COLLECT },
	{ S_COLLECT, EV_HTML, act_html, S_COLLECT },
};

int
page_event(struct uk_page *p, enum page_ev ev, yajl_val res)
{
	size_t i;

	for (i = 0; i < sizeof(transitions) / sizeof(transitions[0]); i++) {
		const struct transition *t = &transitions[i];

		if (t->state != p->state || t->ev != ev)
			continue;
		p->state = t->next;
		if (t->action(p, res) < 0 || p->state == S_FREE)
			return -1;
		page_maybe_finish(p);
		return p->state == S_FREE ? -1 : 0;
	}
	return 0;
}

/* A lifecycle event of the page's main frame. */
void
page_lifecycle(struct uk_page *p, const char *frame, const char *loader,
    const char *name)
{
	int find = p->ps->o.cmd == UK_PAGE_FIND;
	enum uk_page_wait w = p->ps->o.wait;
	enum page_ev ev = EV_NONE;

	/* Before lifecycle events are on they are the old document's. */
	if (p->state < S_FRAME || p->state == S_COLLECT || !frame || !loader ||
	    !name)
		return;
	if (!p->frame || (!find && !p->loader)) {
		/* Not yet known which load is ours: keep it for later. */
		if (p->nev < PAGE_MAX_EVENTS &&
		    (!strcmp(name, "load") || !strcmp(name, "networkIdle") ||
			!strcmp(name, "DOMContentLoaded"))) {
			p->ev[p->nev].frame = uk_util_xstrdup(frame);
			p->ev[p->nev].loader = uk_util_xstrdup(loader);
			p->ev[p->nev].name = uk_util_xstrdup(name);
			p->nev++;
		}
		return;
	}
	if (strcmp(frame, p->frame))
		return;
	if (find) {
		/* The reload is the first load after the one we saw. */
		if (p->old_loader && !strcmp(loader, p->old_loader))
			return;
		if (!p->loader)
			p->loader = uk_util_xstrdup(loader);
	}
	if (strcmp(loader, p->loader))
		return;
	if (!strcmp(name, "load"))
		ev = w == UK_PAGE_WAIT_IDLE    ? EV_LOAD :
		    w == UK_PAGE_WAIT_SELECTOR ? EV_NONE :
						 EV_READY;
	else if (!strcmp(name, "networkIdle") && w == UK_PAGE_WAIT_IDLE)
		ev = EV_READY;
	else if (!strcmp(name, "DOMContentLoaded") && w == UK_PAGE_WAIT_DOM)
		ev = EV_READY;
	if (ev != EV_NONE)
		page_event(p, ev, NULL);
}

/* Where the screenshot of page p goes. */
static char *
shot_path(const struct uk_page *p)
{
	const char *shot = p->ps->o.shot, *dot;
	struct uk_buf b = UK_BUF_INIT;

	if (p->ps->o.shot_dir) {
		uk_buf_addf(&b, "%s%s%lu.png", shot,
		    shot[strlen(shot) - 1] == '/' ? "" : "/", p->no);
	} else if (p->no == 1) {
		uk_buf_addstr(&b, shot);
	} else {
		dot = strrchr(shot, '.');
		if (dot && strchr(dot, '/'))
			dot = NULL;
		if (!dot)
			dot = shot + strlen(shot);
		uk_buf_add(&b, shot, (size_t)(dot - shot));
		uk_buf_addf(&b, "-%lu%s", p->no, dot);
	}
	return uk_buf_detach(&b, NULL);
}

void
page_save_shot(struct uk_page *p, yajl_val res)
{
	const char *data = uk_json_get_str(res, "data");
	struct uk_buf png = UK_BUF_INIT, m = UK_BUF_INIT;
	char *path = shot_path(p);
	FILE *fp;
	size_t w;

	if (!data || uk_base64_decode(data, strlen(data), &png)) {
		uk_buf_addstr(&m, "screenshot: no image came back");
	} else if (!(fp = fopen(path, "wb"))) {
		uk_buf_addf(&m, "screenshot: cannot write '%s': %s", path,
		    strerror(errno));
	} else {
		w = fwrite(png.buf, 1, png.len, fp);
		if (fclose(fp) || w != png.len) {
			uk_buf_addf(&m, "screenshot: cannot write '%s'", path);
		} else {
			p->shot_path = path;
			path = NULL;
		}
	}
	if (m.len) {
		free(p->shot_err);
		p->shot_err = uk_buf_detach(&m, NULL);
	}
	free(path);
	uk_buf_release(&png);
	uk_buf_release(&m);
}

/*
 * A refused address fails the page.  The URL refused is named when it is
 * not the page's own (a WebSocket, a redirect): the page's URL is said
 * with the record's message already ("pwfetch fetch: URL: message").
 */
void
page_refuse(struct uk_page *p, const char *url, const char *addr)
{
	int own = !strcmp(url, p->url);

	page_fail(p,
	    "%s%s%saddress %s refused (private network; -P or "
	    "URLKIT_ALLOW_PRIVATE=1 allows it)",
	    own ? "" : "'", own ? "" : url, own ? "" : "': ", addr);
}

/*
 * The navigation failed with error.  Through the guard's proxy, a failed
 * CONNECT is only "ERR_TUNNEL_CONNECTION_FAILED" to the browser: the proxy
 * knows what it was (a refused address, a name that does not resolve).
 */
void
page_proxy_fail(struct uk_page *p, const char *error)
{
	char why[100];
	struct uk_url u;
	int r = 0;

	if (p->ps->proxied && strstr(error, "ERR_TUNNEL_CONNECTION_FAILED")) {
		uk_url_classify(p->url, &u);
		if (u.host)
			r = uk_guardproxy_error(u.host, why, sizeof(why));
		uk_url_release(&u);
	}
	if (r == 2)
		page_refuse(p, p->url, why);
	else
		page_fail(p, "%s", r == 1 ? why : error);
}
