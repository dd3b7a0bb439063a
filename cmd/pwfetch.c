/* SPDX-License-Identifier: MIT */
/* pwfetch: pages rendered by Chromium over the DevTools protocol. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "banned.h"
#include "base64.h"
#include "browser.h"
#include "buf.h"
#include "cdp.h"
#include "extract.h"
#include "guardproxy.h"
#include "json.h"
#include "jsonl.h"
#include "netguard.h"
#include "strset.h"
#include "progress.h"
#include "url.h"
#include "util.h"

static const char usage_text[] =
    "usage: pwfetch find | open | fetch [-aHPq] [-c address] [-e expression]\n"
    "               [-j jobs] [-s path] [-T seconds] [-t seconds]\n"
    "               [-u user-agent] [-v widthxheight] [-w until] [url ...]\n"
    "       pwfetch -h | -V\n";

enum cmd { CMD_FIND, CMD_OPEN, CMD_FETCH };
enum wait { WAIT_LOAD, WAIT_DOM, WAIT_IDLE, WAIT_SELECTOR };

static struct {
	enum cmd cmd;
	int html;
	int quiet;
	const char *address; /* attach here; NULL: launch */
	const char *eval;
	long jobs;
	const char *shot;
	int shot_dir;
	double timeout, total;
	const char *ua;
	long vw, vh;
	enum wait wait;
	const char *selector;
	int guard; /* refuse private addresses (no -P) */
} opt;

/* What a reply is for. */
enum tag {
	T_IGNORE,
	T_TARGETS,
	T_CTX,
	T_RUN_CTX, /* fetch_ctx's making, for nobody in particular */
	T_RUN_COOKIES,
	T_RUN_SETCOOKIES,
	T_TARGET,
	T_ATTACH,
	T_SETUP,
	T_LIFECYCLE,
	T_FRAMETREE,
	T_MARK,
	T_RELOAD,
	T_NAV,
	T_POLL,
	T_EVAL,
	T_SHOT,
	T_HTML
};

#define MAX_EVENTS 16

struct job {
	unsigned gen; /* tells a slot's jobs apart */
	int used;
	int warm;         /* a page made ahead, not yet given a URL */
	unsigned long no; /* 1 for the first URL of the run */
	yajl_val rec;     /* the input record */
	const char *url;  /* in rec */
	const char *what; /* what it is waiting for, for a timeout */
	double deadline, poll_at;
	char *ctx, *target, *session, *frame, *loader, *old_loader;
	int nav_done, ready, collecting, pending, reload_sent;
	int ctx_wait;     /* for fetch_ctx to be made */
	int lifecycle_on; /* the lifecycle events now are the page's own */
	int ws_waiting;   /* WebSockets whose host is being looked up */
	int load_seen, idle_seen, dom_seen;
	/*
	 * -w networkidle: the page's requests in flight, by request id, and
	 * when the network will have been quiet for long enough.
	 */
	char **reqs;
	size_t nreqs, areqs;
	double idle_at;
	struct {
		char *frame, *loader, *name;
	} ev[MAX_EVENTS];
	int nev;
	yajl_val evalv;
	char *eval_err, *shot_path, *shot_err;
	char *html, *final_url;
	long long status; /* of the main document; 0: unknown */
};

struct call {
	long id;
	struct job *j;
	unsigned gen;
	enum tag tag;
};

static struct uk_jsonl_out out;
static struct uk_browser browser;
static int have_browser, browser_gone;
static char gone_why[300];
static struct job *jobs;
static int nactive;
static struct call *calls;
static size_t ncalls, calls_alloc;
static unsigned long seq;
static double run_deadline = -1;
static int run_timed_out;
static char *spare;     /* the blank page a launched browser starts with */
static struct job warm; /* a page made ahead for the next URL */
static int trace;       /* $PWFETCH_TRACE: the protocol on stderr */
static int proxied;     /* the browser's requests go through guardproxy */
/*
 * The proxy given to the contexts made in an attached browser (open, and
 * fetch with the guard on); empty: none made, or no proxy.
 */
static char ctx_proxy[64];
/*
 * fetch in an attached browser with the guard on: the one context of the
 * run, behind ctx_proxy, with the user's cookies copied in (fetch_ctx_*);
 * disposed at the end of the run.  NULL: not made yet.
 */
static char *fetch_ctx;
static int fetch_ctx_making;
static double t_start;
/* Progress on a terminal: URLs done and failed, the last host started. */
static struct uk_progress prog;
static int out_tty;
static unsigned long ndone, nfailed;
static char last_host[128];

/* A record goes out: the progress line makes way on a shared terminal. */
static void
put_record(yajl_val r)
{
	if (out_tty)
		uk_progress_erase(&prog);
	uk_jsonl_out_record(&out, r);
	ndone++;
}

static void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

/*
 * A signal ends the run: kill the browser we launched, reap it, remove its
 * profile, and die of the signal.  Only async-signal-safe calls: kill,
 * waitpid, fork, execve.  (uk_browser_launch sets pid and tmpdir as soon
 * as they exist, so a signal during the launch is covered too.)
 */
static void
on_signal(int sig)
{
	pid_t p = browser.pid, rm = -1;
	char *dir = browser.tmpdir;

	if (p > 0) {
		kill(-p, SIGKILL);
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		kill(-p, SIGKILL);
	}
	if (dir && (rm = fork()) == 0) {
		char *const argv[] = { "rm", "-rf", dir, NULL };
		char *const envp[] = { NULL };

		execve("/bin/rm", argv, envp);
		_exit(127);
	}
	if (rm > 0)
		waitpid(rm, NULL, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Close the browser with the signals that would also close it held. */
static void
close_browser(double grace)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (have_browser)
		uk_browser_close(&browser, grace);
	have_browser = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void
at_exit(void)
{
	close_browser(0);
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

static const char *
wait_name(void)
{
	switch (opt.wait) {
	case WAIT_DOM:
		return "DOMContentLoaded";
	case WAIT_IDLE:
		return "network idle";
	case WAIT_SELECTOR:
		return "the selector";
	default:
		return "load";
	}
}

/* Send a command for job j (NULL: nobody waits for it). */
static void
call(struct job *j, enum tag tag, const char *session, const char *method,
    yajl_val params)
{
	struct uk_err err;
	long id;

	id = uk_cdp_send(&browser.cdp, session, method, params, &err);
	if (trace)
		fprintf(stderr, "%.3f > %s %ld\n", uk_mono_now() - t_start,
		    method, id);
	uk_json_free(params);
	if (id < 0)
		return; /* the dead stream is noticed by the main loop */
	if (ncalls == calls_alloc) {
		calls_alloc = calls_alloc ? 2 * calls_alloc : 32;
		calls = uk_xrealloc(calls, calls_alloc * sizeof(*calls));
	}
	calls[ncalls].id = id;
	calls[ncalls].j = j;
	calls[ncalls].gen = j ? j->gen : 0;
	calls[ncalls].tag = tag;
	ncalls++;
	if (j && tag != T_IGNORE)
		j->pending++;
}

static yajl_val
params1(const char *key, yajl_val v)
{
	yajl_val p = uk_json_object();

	uk_json_set(p, key, v);
	return p;
}

static void
job_free(struct job *j)
{
	int i;

	uk_json_free(j->rec);
	uk_json_free(j->evalv);
	free(j->ctx);
	free(j->target);
	free(j->session);
	free(j->frame);
	free(j->loader);
	free(j->old_loader);
	while (j->nreqs > 0)
		free(j->reqs[--j->nreqs]);
	free(j->reqs);
	for (i = 0; i < j->nev; i++) {
		free(j->ev[i].frame);
		free(j->ev[i].loader);
		free(j->ev[i].name);
	}
	free(j->eval_err);
	free(j->shot_path);
	free(j->shot_err);
	free(j->html);
	free(j->final_url);
	i = (int)j->gen;
	memset(j, 0, sizeof(*j));
	j->gen = (unsigned)i + 1;
}

/* Let go of the page: close what we made, leave what the user had. */
static void
job_cleanup(struct job *j, int failed)
{
	if (!browser.cdp.dead) {
		if (opt.cmd == CMD_FIND ||
		    (opt.address && opt.cmd == CMD_FETCH && !failed &&
			!*ctx_proxy)) {
			/*
			 * The user's page, or one left for a later find (fetch
			 * in the browser's own context: the guard is off).
			 */
			if (j->session)
				call(NULL, T_IGNORE, NULL,
				    "Target.detachFromTarget",
				    params1("sessionId",
					uk_json_str(j->session)));
		} else if (j->ctx) {
			call(NULL, T_IGNORE, NULL,
			    "Target.disposeBrowserContext",
			    params1("browserContextId", uk_json_str(j->ctx)));
		} else if (j->target) {
			call(NULL, T_IGNORE, NULL, "Target.closeTarget",
			    params1("targetId", uk_json_str(j->target)));
		}
	}
	job_free(j);
	nactive--;
}

/* The record for rec, url_type and fetched_at set. */
static yajl_val
base_record(yajl_val rec, const char *url)
{
	struct uk_url u;
	yajl_val r = uk_json_copy(rec);
	char now[40];

	uk_url_classify(url, &u);
	uk_json_set_str(r, "url_type", uk_url_type_name(u.type));
	uk_url_release(&u);
	uk_time_rfc3339(now, sizeof(now));
	uk_json_set_str(r, "fetched_at", now);
	return r;
}

/*
 * "URL: message" on stderr, with the terminal's control characters taken
 * out: both can hold what the input or the page said (ESC, BEL).
 */
static void
warn_url(const char *url, const char *msg)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "%s: %s", url, msg);
	uk_warn("%s", uk_str_printable(b.buf));
	uk_buf_release(&b);
}

/* An error record for rec (not owned). */
static void
emit_error(yajl_val rec, const char *url, const char *msg)
{
	yajl_val r = base_record(rec, url ? url : "");

	uk_json_set_str(r, "error", msg);
	put_record(r);
	nfailed++;
	uk_json_free(r);
	warn_url(url ? url : "-", msg);
	uk_status_set(UK_EXIT_FAIL);
}

static void job_fail(struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
job_fail(struct job *j, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	if (j->warm) {
		/* Nobody waits for it: drop it quietly. */
		if (j->target && !browser.cdp.dead)
			call(NULL, T_IGNORE, NULL, "Target.closeTarget",
			    params1("targetId", uk_json_str(j->target)));
		job_free(j);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emit_error(j->rec, j->url, msg);
	job_cleanup(j, 1);
}

static void
set_str_or_null(yajl_val r, const char *key, const char *s)
{
	uk_json_set(r, key, s ? uk_json_str(s) : uk_json_null());
}

/* Everything is in: write the content record. */
static void
job_finish(struct job *j)
{
	struct uk_extract x;
	struct uk_err err;
	yajl_val r;

	memset(&x, 0, sizeof(x));
	if (!j->html) {
		job_fail(j, "no HTML came back from the page");
		return;
	}
	r = base_record(j->rec, j->url);
	/* Rendered: urlfetch's needs_browser no longer applies. */
	uk_json_del(r, "needs_browser");
	if (uk_extract_html(j->html, strlen(j->html),
		"text/html; charset=utf-8", j->final_url, NULL, &x, &err)) {
		uk_extract_release(&x);
		uk_json_free(r);
		job_fail(j, "%s", err.msg);
		return;
	}
	set_str_or_null(r, "title", x.title);
	set_str_or_null(r, "description", x.description);
	set_str_or_null(r, "author", x.author);
	set_str_or_null(r, "date", x.date);
	uk_json_set_str(r, "content", x.text ? x.text : "");
	uk_json_set_str(r, "final_url", j->final_url ? j->final_url : j->url);
	if (j->status > 0)
		uk_json_set_int(r, "http_status", j->status);
	if (opt.html)
		uk_json_set_str(r, "html", j->html);
	if (opt.eval)
		uk_json_set(r, "eval",
		    j->evalv ? uk_json_copy(j->evalv) : uk_json_null());
	if (j->shot_path)
		uk_json_set_str(r, "screenshot", j->shot_path);
	uk_extract_release(&x);
	if (j->status >= 400 || j->eval_err || j->shot_err) {
		char msg[700], http[32] = "";

		if (j->status >= 400)
			snprintf(http, sizeof(http), "HTTP %lld", j->status);
		snprintf(msg, sizeof(msg), "%s%s%s%s%s", http,
		    *http && (j->eval_err || j->shot_err) ? "; " : "",
		    j->eval_err ? j->eval_err : "",
		    j->eval_err && j->shot_err ? "; " : "",
		    j->shot_err ? j->shot_err : "");
		uk_json_set_str(r, "error", msg);
		warn_url(j->url, msg);
		uk_status_set(UK_EXIT_FAIL);
		nfailed++;
	}
	put_record(r);
	uk_json_free(r);
	job_cleanup(j, 0);
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

/* The page is ready: ask for the value, screenshot and HTML. */
static void
job_collect(struct job *j)
{
	if (j->collecting)
		return;
	j->collecting = 1;
	j->poll_at = j->idle_at = 0;
	j->what = "the page's HTML";
	if (opt.eval)
		call(j, T_EVAL, j->session, "Runtime.evaluate",
		    evaluate(opt.eval));
	if (opt.shot)
		call(j, T_SHOT, j->session, "Page.captureScreenshot",
		    params1("format", uk_json_str("png")));
	call(j, T_HTML, j->session, "Runtime.evaluate", evaluate(HTML_JS));
}

static void
poll_selector(struct job *j)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val sel = uk_json_str(opt.selector);

	j->poll_at = 0;
	if (opt.cmd == CMD_FIND)
		uk_buf_addstr(&b, "!window.__pwfetchOld && ");
	uk_buf_addstr(&b, "!!document.querySelector(");
	uk_json_to_buf(sel, &b);
	uk_buf_addstr(&b, ")");
	uk_json_free(sel);
	call(j, T_POLL, j->session, "Runtime.evaluate", evaluate(b.buf));
	uk_buf_release(&b);
}

/*
 * -w networkidle.  Waiting for Chromium's own networkIdle lifecycle event
 * alone, a find in CI once failed, most likely at its timeout (the run
 * took 30 s longer), so the requests are also counted here, as Playwright
 * does:
 * the page is idle once its load event has fired and no request has been
 * in flight for half a second.  Whichever comes first ends the wait.
 */
#define IDLE_SECONDS 0.5

static void
idle_check(struct job *j)
{
	if (opt.wait != WAIT_IDLE || j->collecting)
		return;
	if (!j->load_seen || j->nreqs > 0)
		j->idle_at = 0;
	else if (j->idle_at <= 0)
		j->idle_at = uk_mono_now() + IDLE_SECONDS;
}

static ssize_t
req_find(const struct job *j, const char *id)
{
	size_t i;

	for (i = 0; i < j->nreqs; i++)
		if (!strcmp(j->reqs[i], id))
			return (ssize_t)i;
	return -1;
}

/* Network.requestWillBeSent, loadingFinished or loadingFailed. */
static void
idle_request(struct job *j, yajl_val params, int started)
{
	const char *id = uk_json_get_str(params, "requestId");
	const char *loader = uk_json_get_str(params, "loaderId");
	ssize_t i;

	if (opt.wait != WAIT_IDLE || j->collecting || !id)
		return;
	i = req_find(j, id);
	if (started) {
		/* A redirect keeps its id; the old document's are not ours. */
		if (i >= 0 || (j->old_loader && loader &&
				  !strcmp(loader, j->old_loader)))
			return;
		if (j->nreqs == j->areqs) {
			j->areqs = j->areqs ? 2 * j->areqs : 16;
			j->reqs = uk_xrealloc(j->reqs,
			    j->areqs * sizeof(*j->reqs));
		}
		j->reqs[j->nreqs++] = uk_xstrdup(id);
	} else if (i >= 0) {
		free(j->reqs[i]);
		j->reqs[i] = j->reqs[--j->nreqs];
	}
	idle_check(j);
}

/* A lifecycle event of the page's main frame. */
static void
job_lifecycle(struct job *j, const char *frame, const char *loader,
    const char *name)
{
	if (j->collecting || !j->lifecycle_on || !frame || !loader || !name)
		return;
	if (!j->frame || (opt.cmd != CMD_FIND && !j->loader)) {
		/* Not yet known which load is ours: keep it for later. */
		if (j->nev < MAX_EVENTS &&
		    (!strcmp(name, "load") || !strcmp(name, "networkIdle") ||
			!strcmp(name, "DOMContentLoaded"))) {
			j->ev[j->nev].frame = uk_xstrdup(frame);
			j->ev[j->nev].loader = uk_xstrdup(loader);
			j->ev[j->nev].name = uk_xstrdup(name);
			j->nev++;
		}
		return;
	}
	if (strcmp(frame, j->frame))
		return;
	if (opt.cmd == CMD_FIND) {
		/* The reload is the first load after the one we saw. */
		if (j->old_loader && !strcmp(loader, j->old_loader))
			return;
		if (!j->loader)
			j->loader = uk_xstrdup(loader);
	}
	if (strcmp(loader, j->loader))
		return;
	if (!strcmp(name, "load")) {
		j->load_seen = 1;
		idle_check(j);
	} else if (!strcmp(name, "networkIdle"))
		j->idle_seen = 1;
	else if (!strcmp(name, "DOMContentLoaded"))
		j->dom_seen = 1;
	if ((opt.wait == WAIT_LOAD && j->load_seen) ||
	    (opt.wait == WAIT_DOM && (j->dom_seen || j->load_seen)) ||
	    (opt.wait == WAIT_IDLE && j->idle_seen))
		job_collect(j);
}

/* Go through the events kept before the load was known. */
static void
job_replay(struct job *j)
{
	int i, n = j->nev;

	j->nev = 0;
	for (i = 0; i < n; i++) {
		if (j->used)
			job_lifecycle(j, j->ev[i].frame, j->ev[i].loader,
			    j->ev[i].name);
		free(j->ev[i].frame);
		free(j->ev[i].loader);
		free(j->ev[i].name);
	}
}

/* Fetch.enable's parameters: every request stops at guard_request. */
static yajl_val
fetch_all(void)
{
	yajl_val p = uk_json_object();

	uk_json_set(p, "patterns", uk_json_array());
	uk_json_push(uk_json_get(p, "patterns"),
	    params1("urlPattern", uk_json_str("*")));
	return p;
}

/*
 * Start guardproxy for the browser's connections; its address in proxy
 * (size >= 64).  -1 when it cannot start (said on stderr).
 */
static int
proxy_start(char *proxy)
{
	struct uk_netguard g;
	struct uk_err err;
	int port;

	uk_netguard_init(&g);
	g.allow_private = 0;
	if (uk_guardproxy_start(&g, opt.timeout, &port, &err)) {
		uk_warn("%s", err.msg);
		return -1;
	}
	snprintf(proxy, 64, "http://127.0.0.1:%d", port);
	proxied = 1;
	return 0;
}

/* Attached to the page: set it up, then navigate or reload. */
static void
job_setup(struct job *j)
{
	yajl_val p;

	call(j, T_SETUP, j->session, "Page.enable", NULL);
	/* The page loads (job_go) once lifecycle events are on. */
	call(j, T_LIFECYCLE, j->session, "Page.setLifecycleEventsEnabled",
	    params1("enabled", uk_json_bool(1)));
	call(j, T_SETUP, j->session, "Inspector.enable", NULL);
	if (opt.vw) {
		p = uk_json_object();
		uk_json_set_int(p, "width", opt.vw);
		uk_json_set_int(p, "height", opt.vh);
		uk_json_set_int(p, "deviceScaleFactor", 1);
		uk_json_set_bool(p, "mobile", 0);
		call(j, T_SETUP, j->session,
		    "Emulation.setDeviceMetricsOverride", p);
	}
	if (opt.ua)
		call(j, T_SETUP, j->session, "Emulation.setUserAgentOverride",
		    params1("userAgent", uk_json_str(opt.ua)));
	if (opt.guard && opt.cmd != CMD_FIND) {
		/* Every request of the page stops at guard_request first. */
		call(j, T_SETUP, j->session, "Fetch.enable", fetch_all());
	}
	if ((opt.guard && opt.cmd != CMD_FIND) || opt.wait == WAIT_IDLE)
		call(j, T_SETUP, j->session, "Network.enable", NULL);
	j->what = wait_name();
}

/*
 * Lifecycle events are on: navigate or reload.  Turning them on replays
 * the events of the document the page has now (about:blank for a new
 * page), before the reply, and the replayed events have been seen to carry
 * the loader id of a navigation already under way: so the navigation
 * starts only after the reply, and events before it are not looked at.
 */
static void
job_go(struct job *j)
{
	j->lifecycle_on = 1;
	if (opt.cmd == CMD_FIND) {
		/* The document now, to tell the reloaded one from it. */
		call(j, T_FRAMETREE, j->session, "Page.getFrameTree", NULL);
	} else {
		call(j, T_NAV, j->session, "Page.navigate",
		    params1("url", uk_json_str(j->url)));
	}
}

static void
job_create_target(struct job *j)
{
	yajl_val p = uk_json_object();

	uk_json_set_str(p, "url", "about:blank");
	if (j->ctx)
		uk_json_set_str(p, "browserContextId", j->ctx);
	else if (fetch_ctx)
		uk_json_set_str(p, "browserContextId", fetch_ctx);
	call(j, T_TARGET, NULL, "Target.createTarget", p);
}

static void
job_attach(struct job *j)
{
	yajl_val p = uk_json_object();

	uk_json_set_str(p, "targetId", j->target);
	uk_json_set_bool(p, "flatten", 1);
	call(j, T_ATTACH, NULL, "Target.attachToTarget", p);
}

/* find: the first page whose URL starts with ours. */
static void
job_pick(struct job *j, yajl_val res)
{
	yajl_val infos = uk_json_get(res, "targetInfos");
	size_t i, n = strlen(j->url);

	for (i = 0; YAJL_IS_ARRAY(infos) && i < infos->u.array.len; i++) {
		yajl_val t = infos->u.array.values[i];
		const char *type = uk_json_get_str(t, "type");
		const char *url = uk_json_get_str(t, "url");
		const char *id = uk_json_get_str(t, "targetId");

		if (type && !strcmp(type, "page") && url && id &&
		    !strncmp(url, j->url, n)) {
			j->target = uk_xstrdup(id);
			job_attach(j);
			return;
		}
	}
	job_fail(j, "no open page whose URL starts with '%s'", j->url);
}

/*
 * Target.createBrowserContext's parameters: gone with our session, and in
 * an attached browser behind guardproxy (ctx_proxy), as the whole of a
 * launched one is.
 */
static yajl_val
ctx_params(void)
{
	yajl_val p = params1("disposeOnDetach", uk_json_bool(1));

	if (*ctx_proxy) {
		uk_json_set_str(p, "proxyServer", ctx_proxy);
		uk_json_set_str(p, "proxyBypassList", "<-loopback>");
	}
	return p;
}

/*
 * Make a page ahead of need (a browser we launched, open and fetch): its
 * context, target and session are ready when the next URL comes, which
 * takes their round trips out of the time a page costs.
 */
static void
warm_start(void)
{
	if (opt.address || opt.cmd == CMD_FIND || warm.used || browser.cdp.dead)
		return;
	warm.used = 1;
	warm.warm = 1;
	if (opt.cmd == CMD_OPEN)
		call(&warm, T_CTX, NULL, "Target.createBrowserContext",
		    ctx_params());
	else
		job_create_target(&warm);
}

/*
 * fetch in an attached browser with the guard on makes one context for
 * the run, as a launched browser has one profile for the run: behind the
 * guard's proxy (ctx_params), so that everything of its pages is guarded,
 * WebSockets and workers that outlive their page included; with the
 * cookies of the browser's own context (the user's, from
 * Storage.getCookies) copied in before its first page is made, so that
 * pages are fetched as the user would see them.  Only that way: what the
 * pages set goes with the context.  One context a run, not one a page
 * as open makes: a context's first page is the slow one (10 small pages
 * took 13.1 s against 19.6 s; scripts/bench pwfetch-attached).
 */
static void
fetch_ctx_start(void)
{
	if (fetch_ctx_making)
		return;
	fetch_ctx_making = 1;
	call(NULL, T_RUN_CTX, NULL, "Target.createBrowserContext",
	    ctx_params());
}

/* The pages waiting for fetch_ctx: made now, or failed with why. */
static void
fetch_ctx_done(const char *why)
{
	long i;

	fetch_ctx_making = 0;
	if (why && fetch_ctx) {
		/* Made, but not with the user's cookies: not to be used. */
		call(NULL, T_IGNORE, NULL, "Target.disposeBrowserContext",
		    params1("browserContextId", uk_json_str(fetch_ctx)));
		free(fetch_ctx);
		fetch_ctx = NULL;
	}
	for (i = 0; i < opt.jobs; i++) {
		struct job *j = &jobs[i];

		if (!j->used || !j->ctx_wait)
			continue;
		j->ctx_wait = 0;
		if (why)
			job_fail(j, "cannot make a browser context: %s", why);
		else
			job_create_target(j);
	}
}

/*
 * A reply in the making of fetch_ctx.  The Network.Cookie objects of
 * Storage.getCookies go back to Storage.setCookies as they came, as
 * Network.CookieParam ones: Chromium ignores the fields CookieParam does
 * not have ("size", "session") and takes a session cookie's "expires" of
 * -1 as no expiry (with Chromium 156, a session cookie, one with Max-Age
 * and one HttpOnly and SameSite=Strict all reached the server;
 * tests/security-pwfetch.bats).
 */
static void
fetch_ctx_reply(enum tag tag, yajl_val res, const char *error)
{
	yajl_val p, cookies;
	const char *s;

	if (error) {
		fetch_ctx_done(error);
		return;
	}
	switch (tag) {
	case T_RUN_CTX:
		if (!(s = uk_json_get_str(res, "browserContextId"))) {
			fetch_ctx_done("the browser made none");
			return;
		}
		fetch_ctx = uk_xstrdup(s);
		call(NULL, T_RUN_COOKIES, NULL, "Storage.getCookies", NULL);
		return;
	case T_RUN_COOKIES:
		cookies = uk_json_get(res, "cookies");
		if (!YAJL_IS_ARRAY(cookies) || cookies->u.array.len == 0)
			break;
		p = params1("cookies", uk_json_copy(cookies));
		uk_json_set_str(p, "browserContextId", fetch_ctx);
		call(NULL, T_RUN_SETCOOKIES, NULL, "Storage.setCookies", p);
		return;
	default:
		break;
	}
	fetch_ctx_done(NULL);
}

static void
job_start(struct job *j)
{
	double now = uk_mono_now();
	struct uk_url u;

	j->deadline = now + opt.timeout;
	j->what = "the browser";
	if (uk_progress_on(&prog)) {
		uk_url_classify(j->url, &u);
		snprintf(last_host, sizeof(last_host), "%s",
		    u.host ? u.host : "");
		uk_str_printable(last_host); /* it goes to the terminal */
		uk_url_release(&u);
	}
	if (warm.used && warm.session) {
		j->ctx = warm.ctx;
		j->target = warm.target;
		j->session = warm.session;
		warm.ctx = warm.target = warm.session = NULL;
		job_free(&warm);
		job_setup(j);
		return;
	}
	switch (opt.cmd) {
	case CMD_FIND:
		call(j, T_TARGETS, NULL, "Target.getTargets", NULL);
		break;
	case CMD_OPEN:
		call(j, T_CTX, NULL, "Target.createBrowserContext",
		    ctx_params());
		break;
	case CMD_FETCH:
		if (*ctx_proxy && (!fetch_ctx || fetch_ctx_making)) {
			/* Attached, guarded: the run's context first. */
			j->ctx_wait = 1;
			j->what = "the browser context";
			fetch_ctx_start();
		} else if (*ctx_proxy) {
			job_create_target(j);
		} else if (spare) {
			/* The launched browser's own blank page is new too. */
			j->target = spare;
			spare = NULL;
			job_attach(j);
		} else {
			job_create_target(j);
		}
		break;
	}
}

/* Where the screenshot of job j goes. */
static char *
shot_path(struct job *j)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *dot;

	if (opt.shot_dir) {
		uk_buf_addf(&b, "%s%s%lu.png", opt.shot,
		    opt.shot[strlen(opt.shot) - 1] == '/' ? "" : "/", j->no);
	} else if (j->no == 1) {
		uk_buf_addstr(&b, opt.shot);
	} else {
		dot = strrchr(opt.shot, '.');
		if (dot && strchr(dot, '/'))
			dot = NULL;
		if (!dot)
			dot = opt.shot + strlen(opt.shot);
		uk_buf_add(&b, opt.shot, (size_t)(dot - opt.shot));
		uk_buf_addf(&b, "-%lu%s", j->no, dot);
	}
	return uk_buf_detach(&b, NULL);
}

static void
save_shot(struct job *j, yajl_val res)
{
	const char *data = uk_json_get_str(res, "data");
	struct uk_buf png = UK_BUF_INIT;
	char *path = shot_path(j);
	FILE *fp;

	if (!data || uk_base64_decode(data, strlen(data), &png)) {
		j->shot_err = uk_xstrdup("screenshot: no image came back");
	} else if (!(fp = fopen(path, "wb"))) {
		struct uk_buf m = UK_BUF_INIT;

		uk_buf_addf(&m, "screenshot: cannot write '%s': %s", path,
		    strerror(errno));
		j->shot_err = uk_buf_detach(&m, NULL);
	} else {
		size_t w = fwrite(png.buf, 1, png.len, fp);

		if (fclose(fp) || w != png.len) {
			struct uk_buf m = UK_BUF_INIT;

			uk_buf_addf(&m, "screenshot: cannot write '%s'", path);
			j->shot_err = uk_buf_detach(&m, NULL);
		} else {
			j->shot_path = path;
			path = NULL;
		}
	}
	free(path);
	uk_buf_release(&png);
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
	return uk_xstrdup(s ? s : "exception");
}

/*
 * Finish once everything asked of the page is in, and no WebSocket it
 * opened is still waiting for its host's verdict (its data could have come
 * from an internal address).
 */
static void
job_maybe_finish(struct job *j)
{
	if (!j->collecting || j->pending > 0)
		return;
	if (j->ws_waiting > 0) {
		j->what = "the look-up of a WebSocket's host";
		return;
	}
	job_finish(j);
}

static void refuse(struct job *j, const char *url, const char *addr);

/*
 * The navigation failed with error.  Through the guard's proxy, a failed
 * CONNECT is only "ERR_TUNNEL_CONNECTION_FAILED" to the browser: the proxy
 * knows what it was (a refused address, a name that does not resolve).
 */
static void
proxy_fail(struct job *j, const char *error)
{
	char why[100];
	struct uk_url u;
	int r = 0;

	if (proxied && strstr(error, "ERR_TUNNEL_CONNECTION_FAILED")) {
		uk_url_classify(j->url, &u);
		if (u.host)
			r = uk_guardproxy_error(u.host, why, sizeof(why));
		uk_url_release(&u);
	}
	if (r == 2)
		refuse(j, j->url, why);
	else
		job_fail(j, "%s", r == 1 ? why : error);
}

static void
on_reply(struct job *j, enum tag tag, yajl_val res, const char *error)
{
	yajl_val v;
	const char *s;

	if (tag != T_IGNORE)
		j->pending--;
	if (error) {
		switch (tag) {
		case T_SHOT:
			free(j->shot_err);
			j->shot_err = uk_xstrdup(error);
			break;
		case T_EVAL:
			free(j->eval_err);
			j->eval_err = uk_xstrdup(error);
			break;
		default:
			job_fail(j, "%s", error);
			return;
		}
	}
	switch (tag) {
	case T_TARGETS:
		job_pick(j, res);
		return;
	case T_CTX:
		if (!(s = uk_json_get_str(res, "browserContextId"))) {
			job_fail(j, "the browser made no context");
			return;
		}
		j->ctx = uk_xstrdup(s);
		job_create_target(j);
		return;
	case T_TARGET:
		if (!(s = uk_json_get_str(res, "targetId"))) {
			job_fail(j, "the browser made no page");
			return;
		}
		j->target = uk_xstrdup(s);
		job_attach(j);
		return;
	case T_ATTACH:
		if (!(s = uk_json_get_str(res, "sessionId"))) {
			job_fail(j, "cannot attach to the page");
			return;
		}
		j->session = uk_xstrdup(s);
		if (!j->warm)
			job_setup(j);
		return;
	case T_LIFECYCLE:
		job_go(j);
		return;
	case T_FRAMETREE:
		v = uk_json_get(uk_json_get(res, "frameTree"), "frame");
		if (!(s = uk_json_get_str(v, "id"))) {
			job_fail(j, "the page has no frame");
			return;
		}
		j->frame = uk_xstrdup(s);
		if ((s = uk_json_get_str(v, "loaderId")))
			j->old_loader = uk_xstrdup(s);
		job_replay(j);
		if (!j->used)
			return;
		/*
		 * Mark the old document; the reloaded one has no mark.  The
		 * reload waits for the mark's reply: sent together, the reload
		 * could abort the mark ("Inspected target navigated or
		 * closed"), as seen in CI.
		 */
		call(j, T_MARK, j->session, "Runtime.evaluate",
		    evaluate("window.__pwfetchOld = true"));
		return;
	case T_MARK:
		call(j, T_RELOAD, j->session, "Page.reload", NULL);
		j->reload_sent = 1;
		return;
	case T_RELOAD:
		if (opt.wait == WAIT_SELECTOR && !j->collecting)
			poll_selector(j);
		return;
	case T_NAV:
		s = uk_json_get_str(res, "errorText");
		if (s && *s) {
			proxy_fail(j, s);
			return;
		}
		if (!(s = uk_json_get_str(res, "frameId"))) {
			job_fail(j, "the navigation has no frame");
			return;
		}
		j->frame = uk_xstrdup(s);
		if (!(s = uk_json_get_str(res, "loaderId"))) {
			/* Same document: nothing more to load. */
			job_collect(j);
			return;
		}
		j->loader = uk_xstrdup(s);
		j->nav_done = 1;
		job_replay(j);
		if (j->used && !j->collecting && opt.wait == WAIT_SELECTOR)
			poll_selector(j);
		return;
	case T_POLL:
		if (uk_json_get(res, "exceptionDetails")) {
			char *e = exception_text(res);

			job_fail(j, "selector '%s': %s", opt.selector, e);
			free(e);
			return;
		}
		v = uk_json_get(uk_json_get(res, "result"), "value");
		if (YAJL_IS_TRUE(v))
			job_collect(j);
		else if (!j->collecting)
			j->poll_at = uk_mono_now() + 0.1;
		return;
	case T_EVAL:
		if (!error && uk_json_get(res, "exceptionDetails")) {
			char *e = exception_text(res);
			struct uk_buf m = UK_BUF_INIT;

			uk_buf_addf(&m, "eval: %s", e);
			free(e);
			j->eval_err = uk_buf_detach(&m, NULL);
		} else if (!error) {
			v = uk_json_get(uk_json_get(res, "result"), "value");
			j->evalv = v ? uk_json_copy(v) : uk_json_null();
		}
		break;
	case T_SHOT:
		if (!error)
			save_shot(j, res);
		break;
	case T_HTML:
		if (uk_json_get(res, "exceptionDetails")) {
			char *e = exception_text(res);

			job_fail(j, "cannot read the page: %s", e);
			free(e);
			return;
		}
		v = uk_json_get(uk_json_get(res, "result"), "value");
		if ((s = uk_json_get_str(v, "html")))
			j->html = uk_xstrdup(s);
		if ((s = uk_json_get_str(v, "url")))
			j->final_url = uk_xstrdup(s);
		if (uk_json_get_int(v, "status", &j->status))
			j->status = 0;
		break;
	default:
		return;
	}
	job_maybe_finish(j);
}

/*
 * The private-address guard, as urlfetch's: a request to a host that
 * resolves to a loopback, private, link-local or other internal address
 * is failed before it is sent (a refused document fails the page), and a
 * response from such an address (a name that changed its address between
 * our look-up and the browser's) fails the page, so its content is never
 * written.  Verdicts are kept per host for the run.
 */
static struct uk_strset hosts_ok, hosts_refused;

/*
 * Host names are looked up on threads of their own (getaddrinfo blocks,
 * for as long as the resolver's timeouts when DNS is slow or gone, and
 * the browser's other pages must not wait for it).  A thread writes its
 * verdict to a pipe the event loop polls; the requests paused on that
 * host (and WebSockets to it) wait in a list until then.  At most
 * MAX_LOOKUPS threads run at once; other hosts queue.
 */
#define MAX_LOOKUPS 8

struct waiter {
	char *host, *id, *session, *url, *type, *frame;
	struct job *j; /* the page, or NULL */
	unsigned gen;  /* j's generation when the request came */
	int started;   /* its host's look-up is running */
};

static struct waiter *waiters;
static size_t nwaiters, awaiters;
static int lookup_pipe[2] = { -1, -1 };
static int nlookups;

struct verdict_msg {
	int ok;
	char addr[64];
	char host[256];
};

static void *
lookup_thread(void *arg)
{
	struct verdict_msg *v = arg;
	ssize_t w;

	v->ok = uk_netguard_host_allowed(v->host, v->addr, sizeof(v->addr));
	/* One write of a fixed size, under PIPE_BUF: whole or not at all. */
	do
		w = write(lookup_pipe[1], v, sizeof(*v));
	while (w < 0 && errno == EINTR);
	free(v);
	return NULL;
}

/* Start the look-up of host on a thread, if one is free. */
static int
lookup_start(const char *host)
{
	struct verdict_msg *v;
	pthread_attr_t a;
	pthread_t t;

	if (nlookups >= MAX_LOOKUPS)
		return 0;
	if (lookup_pipe[0] < 0) {
		/* The loop's end does not block; the threads' end does. */
		if (pipe2(lookup_pipe, O_CLOEXEC) < 0 ||
		    fcntl(lookup_pipe[0], F_SETFL, O_NONBLOCK) < 0)
			uk_die(UK_EXIT_FATAL, "pipe: %s", strerror(errno));
	}
	v = uk_xcalloc(1, sizeof(*v));
	snprintf(v->host, sizeof(v->host), "%s", host);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	nlookups++;
	if (pthread_create(&t, &a, lookup_thread, v))
		lookup_thread(v); /* no thread to be had: here, then */
	pthread_attr_destroy(&a);
	return 1;
}

/*
 * Whether the guard lets u's host through (1) or not (0, the address in
 * addr), from the verdicts kept; -1: not known yet (the caller waits).
 */
static int
guard_host(const struct uk_url *u)
{
	size_t n;
	int ok;

	if (!u->host || (u->scheme && !strcmp(u->scheme, "data")))
		return 1;
	n = strlen(u->host);
	if (uk_strset_has(&hosts_refused, u->host, n))
		return 0;
	if (uk_strset_has(&hosts_ok, u->host, n))
		return 1;
	/* A numeric address needs no look-up. */
	if ((ok = uk_netguard_ip_allowed(u->host)) >= 0)
		return ok;
	if (n >= sizeof(((struct verdict_msg *)0)->host))
		return 0; /* no DNS name is that long */
	return -1;
}

static void
refuse(struct job *j, const char *url, const char *addr)
{
	job_fail(j,
	    "'%s': address %s refused (private network; -P or "
	    "URLKIT_ALLOW_PRIVATE=1 allows it)",
	    url, addr);
}

/* Answer a paused request (id) or judge a WebSocket (id NULL). */
static void
guard_answer(struct job *j, const char *session, const char *id,
    const char *url, const char *type, const char *frame, int ok,
    const char *addr)
{
	yajl_val p;

	if (id) {
		p = params1("requestId", uk_json_str(id));
		if (ok) {
			call(NULL, T_IGNORE, session, "Fetch.continueRequest",
			    p);
		} else {
			uk_json_set_str(p, "errorReason", "AddressUnreachable");
			call(NULL, T_IGNORE, session, "Fetch.failRequest", p);
		}
	}
	if (ok || !j || (id && j->collecting))
		return;
	/* A refused document fails the page, as does a WebSocket. */
	if (!id || (type && !strcmp(type, "Document") &&
			(!j->frame || (frame && !strcmp(frame, j->frame)))))
		refuse(j, url, addr);
}

static void
waiter_add(struct job *j, const char *host, const char *session,
    const char *id, const char *url, const char *type, const char *frame)
{
	struct waiter *w;
	size_t i;
	int running = 0;

	for (i = 0; i < nwaiters; i++)
		if (waiters[i].started && !strcmp(waiters[i].host, host))
			running = 1;
	if (nwaiters == awaiters) {
		awaiters = awaiters ? 2 * awaiters : 16;
		waiters = uk_xrealloc(waiters, awaiters * sizeof(*waiters));
	}
	w = &waiters[nwaiters++];
	memset(w, 0, sizeof(*w));
	w->host = uk_xstrdup(host);
	w->id = id ? uk_xstrdup(id) : NULL;
	w->session = session ? uk_xstrdup(session) : NULL;
	w->url = uk_xstrdup(url ? url : "");
	w->type = type ? uk_xstrdup(type) : NULL;
	w->frame = frame ? uk_xstrdup(frame) : NULL;
	w->j = j;
	w->gen = j ? j->gen : 0;
	if (j && !id)
		j->ws_waiting++;
	w->started = running || lookup_start(host);
}

static void
waiter_free(struct waiter *w)
{
	free(w->host);
	free(w->id);
	free(w->session);
	free(w->url);
	free(w->type);
	free(w->frame);
}

/* A verdict from a look-up thread: answer whoever waited for it. */
static int
lookup_read(void)
{
	struct verdict_msg v;
	struct job *j;
	size_t i, k;
	ssize_t r;

	while ((r = read(lookup_pipe[0], &v, sizeof(v))) < 0 && errno == EINTR)
		;
	if (r != (ssize_t)sizeof(v))
		return 0;
	nlookups--;
	v.host[sizeof(v.host) - 1] = '\0';
	v.addr[sizeof(v.addr) - 1] = '\0';
	v.ok = v.ok != 0; /* a name that does not resolve: the browser says so */
	uk_strset_add(v.ok ? &hosts_ok : &hosts_refused, v.host,
	    strlen(v.host));
	for (i = k = 0; i < nwaiters; i++) {
		struct waiter *w = &waiters[i];

		if (strcmp(w->host, v.host)) {
			waiters[k++] = *w;
			continue;
		}
		j = w->j && w->j->used && w->j->gen == w->gen ? w->j : NULL;
		if (j && !w->id)
			j->ws_waiting--;
		guard_answer(j, w->session, w->id, w->url, w->type, w->frame,
		    v.ok, *v.addr ? v.addr : v.host);
		if (j && j->used && j->gen == w->gen)
			job_maybe_finish(j);
		waiter_free(w);
	}
	nwaiters = k;
	/* Start the look-ups that had to queue. */
	for (i = 0; i < nwaiters && nlookups < MAX_LOOKUPS; i++) {
		if (waiters[i].started)
			continue;
		if (!lookup_start(waiters[i].host))
			break;
		for (k = i; k < nwaiters; k++)
			if (!strcmp(waiters[k].host, waiters[i].host))
				waiters[k].started = 1;
	}
	return 1;
}

/*
 * A WebSocket does not pass through the Fetch domain: one to an internal
 * address fails the page, so nothing read through it is written.
 */
static void
guard_websocket(struct job *j, yajl_val params)
{
	const char *url = uk_json_get_str(params, "url");
	struct uk_url u;
	int ok;

	if (!url)
		return;
	uk_url_classify(url, &u);
	if ((ok = guard_host(&u)) < 0)
		waiter_add(j, u.host, NULL, NULL, url, NULL, NULL);
	else if (!ok)
		refuse(j, url, u.host);
	uk_url_release(&u);
}

static void
guard_request(struct job *j, const char *session, yajl_val params)
{
	const char *id = uk_json_get_str(params, "requestId");
	yajl_val req = uk_json_get(params, "request");
	const char *url = uk_json_get_str(req, "url");
	const char *type = uk_json_get_str(params, "resourceType");
	const char *frame = uk_json_get_str(params, "frameId");
	struct uk_url u;
	int ok;

	if (!id)
		return;
	uk_url_classify(url ? url : "", &u);
	if ((ok = guard_host(&u)) < 0)
		waiter_add(j, u.host, session, id, url, type, frame);
	else
		guard_answer(j, session, id, url, type, frame, ok,
		    u.host ? u.host : "");
	uk_url_release(&u);
}

static void
guard_response(struct job *j, yajl_val params)
{
	yajl_val res = uk_json_get(params, "response");
	const char *ip = uk_json_get_str(res, "remoteIPAddress");
	const char *type = uk_json_get_str(params, "type");
	const char *frame = uk_json_get_str(params, "frameId");
	yajl_val h;
	size_t i;

	if (proxied) {
		/*
		 * The address is the proxy's; the proxy judged the real one
		 * and says so in a header of its answer.  The main document
		 * refused fails the page (its name answered with another
		 * address for the proxy than for our look-up).
		 */
		if (!type || strcmp(type, "Document") ||
		    (j->frame && (!frame || strcmp(frame, j->frame))))
			return; /* (no frame yet: the page's first document) */
		h = uk_json_get(res, "headers");
		for (i = 0; YAJL_IS_OBJECT(h) && i < h->u.object.len; i++) {
			const char *k = h->u.object.keys[i];
			yajl_val v = h->u.object.values[i];

			if (!YAJL_IS_STRING(v))
				continue;
			if (!strcasecmp(k, "x-urlkit-refused")) {
				refuse(j, j->url, YAJL_GET_STRING(v));
				return;
			}
			if (!strcasecmp(k, "x-urlkit-error")) {
				job_fail(j, "%s", YAJL_GET_STRING(v));
				return;
			}
		}
		return;
	}
	if (ip && *ip && !uk_netguard_proxied() &&
	    uk_netguard_ip_allowed(ip) == 0)
		job_fail(j,
		    "'%s': address %s refused (private network; -P or "
		    "URLKIT_ALLOW_PRIVATE=1 allows it)",
		    j->url, ip);
}

static struct job *
job_by_session(const char *session)
{
	long i;

	if (!session)
		return NULL;
	for (i = 0; i < opt.jobs; i++)
		if (jobs[i].used && jobs[i].session &&
		    !strcmp(jobs[i].session, session))
			return &jobs[i];
	return NULL;
}

static void
dispatch(yajl_val m)
{
	const char *method = uk_json_get_str(m, "method");
	yajl_val params = uk_json_get(m, "params");
	struct job *j;
	long long id;
	size_t i;

	if (trace) {
		long long tid = 0;
		const char *what = uk_json_get_str(params, "name");

		if (!what)
			what = uk_json_get_str(params, "requestId");
		uk_json_get_int(m, "id", &tid);
		fprintf(stderr, "%.3f < %s %lld %s %s\n",
		    uk_mono_now() - t_start, method ? method : "reply", tid,
		    what ? what : "",
		    uk_json_get_str(params, "loaderId") ?
			uk_json_get_str(params, "loaderId") :
			"");
	}

	if (!method) {
		yajl_val e;
		struct call c;
		char msg[400];

		if (uk_json_get_int(m, "id", &id))
			return;
		for (i = 0; i < ncalls && calls[i].id != id; i++)
			;
		if (i == ncalls)
			return;
		c = calls[i];
		calls[i] = calls[--ncalls];
		if (c.tag == T_RUN_CTX || c.tag == T_RUN_COOKIES ||
		    c.tag == T_RUN_SETCOOKIES) {
			const char *s =
			    uk_json_get_str(uk_json_get(m, "error"), "message");

			if (uk_json_get(m, "error"))
				snprintf(msg, sizeof(msg), "%s",
				    s ? s : "browser error");
			fetch_ctx_reply(c.tag, uk_json_get(m, "result"),
			    uk_json_get(m, "error") ? msg : NULL);
			return;
		}
		if (!c.j || !c.j->used || c.j->gen != c.gen) {
			/*
			 * For nobody, or for a job that is over (failed, timed
			 * out): a context made for it goes at once, not when
			 * the run ends.
			 */
			const char *ctx =
			    uk_json_get_str(uk_json_get(m, "result"),
				"browserContextId");

			if (c.tag == T_CTX && ctx)
				call(NULL, T_IGNORE, NULL,
				    "Target.disposeBrowserContext",
				    params1("browserContextId",
					uk_json_str(ctx)));
			return;
		}
		if ((e = uk_json_get(m, "error"))) {
			const char *s = uk_json_get_str(e, "message");

			snprintf(msg, sizeof(msg), "%s",
			    s ? s : "browser error");
			on_reply(c.j, c.tag, NULL, msg);
		} else {
			on_reply(c.j, c.tag, uk_json_get(m, "result"), NULL);
		}
		return;
	}
	if (!strcmp(method, "Target.detachedFromTarget")) {
		j = job_by_session(uk_json_get_str(params, "sessionId"));
		if (j)
			job_fail(j, "the page was closed");
		return;
	}
	j = job_by_session(uk_json_get_str(m, "sessionId"));
	if (!strcmp(method, "Fetch.requestPaused")) {
		/* Answered even for a page that is over, or it would hang. */
		guard_request(j, uk_json_get_str(m, "sessionId"), params);
		return;
	}
	if (!j)
		return;
	if (!strcmp(method, "Network.requestWillBeSent")) {
		idle_request(j, params, 1);
	} else if (!strcmp(method, "Network.loadingFinished") ||
	    !strcmp(method, "Network.loadingFailed")) {
		idle_request(j, params, 0);
	} else if (!strcmp(method, "Network.responseReceived")) {
		if (opt.guard && !j->collecting)
			guard_response(j, params);
	} else if (!strcmp(method, "Network.webSocketCreated")) {
		if (opt.guard && !j->collecting)
			guard_websocket(j, params);
	} else if (!strcmp(method, "Page.lifecycleEvent")) {
		job_lifecycle(j, uk_json_get_str(params, "frameId"),
		    uk_json_get_str(params, "loaderId"),
		    uk_json_get_str(params, "name"));
	} else if (!strcmp(method, "Page.loadEventFired")) {
		/*
		 * Once the navigation has committed (or the reload has been
		 * asked for), a load event is the new document's: a second way
		 * to see it besides the lifecycle events.
		 */
		if ((opt.wait == WAIT_LOAD || opt.wait == WAIT_DOM) &&
		    (j->nav_done || j->reload_sent))
			job_collect(j);
		else if (opt.wait == WAIT_IDLE &&
		    (j->nav_done || j->reload_sent)) {
			j->load_seen = 1;
			idle_check(j);
		}
	} else if (!strcmp(method, "Page.domContentEventFired")) {
		if (opt.wait == WAIT_DOM && (j->nav_done || j->reload_sent))
			job_collect(j);
	} else if (!strcmp(method, "Inspector.targetCrashed")) {
		job_fail(j, "the page crashed its renderer");
	} else if (!strcmp(method, "Page.javascriptDialogOpening")) {
		/* A dialog would stop the page: answer it. */
		call(NULL, T_IGNORE, j->session, "Page.handleJavaScriptDialog",
		    params1("accept", uk_json_bool(1)));
	}
}

/* The blank page a browser we launched opens with, for the first fetch. */
static void
find_spare(void)
{
	struct uk_err err;
	yajl_val res, infos;
	size_t i;

	res = uk_cdp_call(&browser.cdp, NULL, "Target.getTargets", NULL,
	    opt.timeout, &err);
	infos = uk_json_get(res, "targetInfos");
	for (i = 0; YAJL_IS_ARRAY(infos) && i < infos->u.array.len; i++) {
		yajl_val t = infos->u.array.values[i];
		const char *type = uk_json_get_str(t, "type");
		const char *url = uk_json_get_str(t, "url");
		const char *id = uk_json_get_str(t, "targetId");

		if (type && !strcmp(type, "page") && url &&
		    !strcmp(url, "about:blank") && id) {
			spare = uk_xstrdup(id);
			break;
		}
	}
	uk_json_free(res);
}

/* Start the browser at the first URL that needs it; -1 when it cannot. */
static int
need_browser(void)
{
	struct uk_browser_opts bo;
	struct uk_err err;

	if (have_browser)
		return 0;
	memset(&bo, 0, sizeof(bo));
	bo.width = (int)opt.vw;
	bo.height = (int)opt.vh;
	bo.timeout = 30; /* a slow machine's first start, whatever -t says */
	if (opt.address) {
		if (uk_browser_attach(&browser, opt.address,
			opt.timeout < 10 ? opt.timeout : 10, &err)) {
			uk_warn("%s", err.msg);
			return -1;
		}
		if (opt.guard && opt.cmd != CMD_FIND) {
			/*
			 * open and fetch make a context of their own for each
			 * page (fetch copies the user's cookies into it), and
			 * a context takes a proxy of its own: guardproxy, as
			 * a launched browser has it for all of its traffic.
			 * The browser's own context has the user's proxy, and
			 * nothing else puts a WebSocket's handshake, or a
			 * worker that outlives the page, under the guard.
			 */
			if (proxy_start(ctx_proxy))
				return -1;
		}
	} else {
		char proxy[64];

		/* Every target's requests, not only the page's. */
		if (opt.guard) {
			if (proxy_start(proxy))
				return -1;
			bo.proxy = proxy;
		}
		if (uk_browser_launch(&browser, &bo, &err)) {
			uk_warn("%s", err.msg);
			return -1;
		}
	}
	have_browser = 1;
	if (!opt.address && opt.cmd == CMD_FETCH)
		find_spare();
	return 0;
}

/* Input: URL operands, or records and bare URLs on standard input. */
struct input {
	char **argv;
	int argc, i;
	struct uk_jsonl_in lines;
	int use_lines, eof;
};

/*
 * The next URL record to fetch, or NULL at the end.  Input that cannot be
 * fetched is answered here and skipped.
 */
static yajl_val
next_input(struct input *in)
{
	struct uk_err err;
	struct uk_url u;
	yajl_val rec;
	const char *url;
	size_t len;
	int r, ok;

	for (;;) {
		if (in->eof)
			return NULL;
		if (!in->use_lines) {
			if (in->i >= in->argc) {
				in->eof = 1;
				return NULL;
			}
			rec = uk_json_object();
			uk_json_set_str(rec, "url", in->argv[in->i++]);
		} else {
			r = uk_jsonl_next(&in->lines, UK_JSONL_BARE_URL, &rec,
			    &err);
			if (r == 0) {
				in->eof = 1;
				return NULL;
			}
			if (r < 0) {
				if (err.code == UK_EXIT_FATAL) {
					uk_warn("%s", err.msg);
					uk_status_set(UK_EXIT_FATAL);
					in->eof = 1;
					return NULL;
				}
				uk_jsonl_out_error(&out, in->lines.name,
				    in->lines.lineno, err.msg);
				continue;
			}
			if (uk_json_get(rec, "error")) {
				uk_jsonl_out_record(&out, rec);
				uk_json_free(rec);
				continue;
			}
			if (!(url = uk_json_get_str(rec, "url"))) {
				uk_jsonl_out_error(&out, in->lines.name,
				    in->lines.lineno, "no string field 'url'");
				uk_json_free(rec);
				continue;
			}
		}
		url = uk_json_get_strn(rec, "url", &len);
		if (len != strlen(url)) {
			/* As urlfetch: "https://a.example/j\u0000evil" is
			 * not https://a.example/j, and is not opened. */
			emit_error(rec, url,
			    "the URL holds a NUL byte (\\u0000)");
			uk_json_free(rec);
			continue;
		}
		uk_url_classify(url, &u);
		ok = u.scheme &&
		    (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
		uk_url_release(&u);
		if (!ok) {
			char msg[300];

			snprintf(msg, sizeof(msg),
			    "not an http(s) URL: '%.200s'", url);
			emit_error(rec, url, msg);
			uk_json_free(rec);
			continue;
		}
		seq++;
		if (browser_gone || run_timed_out) {
			emit_error(rec, url,
			    run_timed_out ? "not fetched: the run timed out" :
					    gone_why);
			uk_json_free(rec);
			continue;
		}
		return rec;
	}
}

/* Whether reading input now would not block (or it is over). */
static int
input_ready(struct input *in)
{
	struct pollfd p;

	if (in->eof || !in->use_lines)
		return 1;
	if (in->lines.rpos < in->lines.rend || in->lines.eof)
		return 1;
	p.fd = in->lines.fd;
	p.events = POLLIN;
	return poll(&p, 1, 0) > 0;
}

static void
fail_all(const char *fmt, const char *why)
{
	long i;

	for (i = 0; i < opt.jobs; i++)
		if (jobs[i].used)
			job_fail(&jobs[i], fmt, why);
}

static void
run(struct input *in)
{
	struct pollfd p[3];
	struct uk_err err;
	yajl_val m, rec;
	double now, next;
	long i;
	int r, n;
	char total[32] = "";

	if (opt.total > 0)
		run_deadline = uk_mono_now() + opt.total;
	if (!in->use_lines)
		snprintf(total, sizeof(total), "/%d", in->argc);
	for (;;) {
		uk_progress_show(&prog, 0,
		    "pwfetch: %lu%s done, %lu failed, %d loading  %s", ndone,
		    total, nfailed, nactive, last_host);
		/* Fill free slots. */
		while (nactive < opt.jobs && !in->eof &&
		    (nactive == 0 || input_ready(in))) {
			if (!(rec = next_input(in)))
				break;
			if (need_browser()) {
				uk_json_free(rec);
				uk_status_set(UK_EXIT_FATAL);
				return;
			}
			for (i = 0; jobs[i].used; i++)
				;
			jobs[i].used = 1;
			jobs[i].no = seq;
			jobs[i].rec = rec;
			jobs[i].url = uk_json_get_str(rec, "url");
			nactive++;
			job_start(&jobs[i]);
			if (!in->eof && (in->use_lines || in->i < in->argc))
				warm_start();
		}
		if (nactive == 0 && in->eof)
			break;
		if (nactive == 0)
			continue;
		/* Wait for the browser, the clock, or more input. */
		now = uk_mono_now();
		next = run_deadline;
		for (i = 0; i < opt.jobs; i++) {
			if (!jobs[i].used)
				continue;
			if (next < 0 || jobs[i].deadline < next)
				next = jobs[i].deadline;
			if (jobs[i].poll_at > 0 && jobs[i].poll_at < next)
				next = jobs[i].poll_at;
			if (jobs[i].idle_at > 0 && jobs[i].idle_at < next)
				next = jobs[i].idle_at;
		}
		n = 0;
		p[n].fd = uk_cdp_fd(&browser.cdp);
		p[n++].events = POLLIN;
		if (nactive < opt.jobs && in->use_lines && !in->eof) {
			p[n].fd = in->lines.fd;
			p[n++].events = POLLIN;
		}
		if (nlookups > 0) {
			p[n].fd = lookup_pipe[0];
			p[n++].events = POLLIN;
		}
		if (!uk_cdp_ready(&browser.cdp)) {
			int ms = next < 0 ? -1 : (int)((next - now) * 1000) + 1;

			if (ms < 0 && next >= 0)
				ms = 0;
			if (poll(p, (nfds_t)n, ms) < 0 && errno != EINTR)
				uk_die(UK_EXIT_FATAL, "poll: %s",
				    strerror(errno));
		}
		/* Host names looked up. */
		while (nlookups > 0 && lookup_read())
			;
		/* Everything the browser has said. */
		while ((r = uk_cdp_next(&browser.cdp, 0, &m, &err)) == 1) {
			dispatch(m);
			uk_json_free(m);
		}
		if (r < 0 && browser.cdp.dead) {
			browser_gone = 1;
			snprintf(gone_why, sizeof(gone_why), "%s",
			    browser.cdp.why);
			fail_all("%s", gone_why);
			continue;
		}
		/* The clock. */
		now = uk_mono_now();
		if (run_deadline >= 0 && now >= run_deadline) {
			run_timed_out = 1;
			for (i = 0; i < opt.jobs; i++)
				if (jobs[i].used)
					job_fail(&jobs[i],
					    "the run timed out (%g s) waiting "
					    "for %s",
					    opt.total, jobs[i].what);
			continue;
		}
		for (i = 0; i < opt.jobs; i++) {
			struct job *j = &jobs[i];

			if (!j->used)
				continue;
			if (now >= j->deadline)
				job_fail(j, "timeout after %g s waiting for %s",
				    opt.timeout, j->what);
			else if (j->poll_at > 0 && now >= j->poll_at)
				poll_selector(j);
			else if (j->idle_at > 0 && now >= j->idle_at)
				job_collect(j);
		}
	}
}

/* Wait a little for the cleanup commands to be carried out. */
static void
drain(double secs)
{
	double end = uk_mono_now() + secs;
	struct uk_err err;
	yajl_val m;

	while (ncalls > 0 && !browser.cdp.dead) {
		double left = end - uk_mono_now();

		if (left <= 0 || uk_cdp_next(&browser.cdp, left, &m, &err) != 1)
			break;
		dispatch(m);
		uk_json_free(m);
	}
}

static int
parse_opts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "attach", no_argument, NULL, 'a' },
		{ "connect", required_argument, NULL, 'c' },
		{ "eval", required_argument, NULL, 'e' },
		{ "html", no_argument, NULL, 'H' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "allow-private", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "screenshot", required_argument, NULL, 's' },
		{ "total-timeout", required_argument, NULL, 'T' },
		{ "timeout", required_argument, NULL, 't' },
		{ "user-agent", required_argument, NULL, 'u' },
		{ "viewport", required_argument, NULL, 'v' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_netguard guard;
	const char *env;
	struct stat st;
	int c, attach = 0;
	char *x;

	opt.jobs = 1;
	opt.timeout = 30;
	uk_netguard_init(&guard);
	opt.guard = !guard.allow_private; /* a list of addresses keeps it */
	optind = 1;
	while ((c = getopt_long(argc, argv, "ac:e:Hj:Pqs:T:t:u:v:w:hV", longopts,
		    NULL)) != -1) {
		switch (c) {
		case 'a':
			attach = 1;
			break;
		case 'c':
			opt.address = optarg;
			break;
		case 'e':
			opt.eval = optarg;
			break;
		case 'H':
			opt.html = 1;
			break;
		case 'j':
			if (uk_parse_long(optarg, 1, 64, &opt.jobs)) {
				uk_warn("-j: not a count from 1 to 64: '%s'",
				    optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'P':
			opt.guard = 0;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 's':
			opt.shot = optarg;
			break;
		case 'T':
			if (uk_parse_seconds(optarg, &opt.total) ||
			    opt.total <= 0) {
				uk_warn("-T: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 't':
			if (uk_parse_seconds(optarg, &opt.timeout) ||
			    opt.timeout <= 0) {
				uk_warn("-t: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'u':
			opt.ua = optarg;
			break;
		case 'v':
			opt.vw = strtol(optarg, &x, 10);
			if (x == optarg || (*x != 'x' && *x != 'X') ||
			    uk_parse_long(x + 1, 1, 10000, &opt.vh) ||
			    opt.vw < 1 || opt.vw > 10000) {
				uk_warn("-v: not WIDTHxHEIGHT: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'w':
			if (!strcmp(optarg, "load")) {
				opt.wait = WAIT_LOAD;
			} else if (!strcmp(optarg, "domcontentloaded")) {
				opt.wait = WAIT_DOM;
			} else if (!strcmp(optarg, "networkidle")) {
				opt.wait = WAIT_IDLE;
			} else if (!strncmp(optarg, "selector:", 9) &&
			    optarg[9]) {
				opt.wait = WAIT_SELECTOR;
				opt.selector = optarg + 9;
			} else {
				uk_warn("-w: not load, domcontentloaded, "
					"networkidle or selector:CSS: '%s'",
				    optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		case 'V':
			printf("pwfetch %s\n", UK_VERSION);
			exit(UK_EXIT_OK);
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	/* find looks through a running browser's pages: it always attaches. */
	if (!opt.address && (attach || opt.cmd == CMD_FIND)) {
		env = getenv("URLKIT_DEVTOOLS_URL");
		opt.address = env && *env ? env : UK_BROWSER_ADDRESS;
	}
	if (opt.address) {
		char *sc, *h, *po, *pa;
		struct uk_err err;

		if (uk_cdp_split_url(opt.address, &sc, &h, &po, &pa, &err)) {
			uk_warn("%s", err.msg);
			usage(UK_EXIT_USAGE);
		}
		free(sc);
		free(h);
		free(po);
		free(pa);
	}
	if (opt.shot) {
		size_t n = strlen(opt.shot);

		if (!n) {
			uk_warn("-s: an empty path");
			usage(UK_EXIT_USAGE);
		}
		opt.shot_dir = opt.shot[n - 1] == '/' ||
		    (!stat(opt.shot, &st) && S_ISDIR(st.st_mode));
		/* A directory named with its '/' is made when missing. */
		if (opt.shot[n - 1] == '/' && mkdir(opt.shot, 0777) &&
		    errno != EEXIST) {
			uk_warn("-s: cannot make '%s': %s", opt.shot,
			    strerror(errno));
			exit(UK_EXIT_FATAL);
		}
	}
	return optind;
}

static int
cmd_run(enum cmd cmd, int argc, char **argv)
{
	struct input in;
	struct uk_err err;
	int k;

	opt.cmd = cmd;
	t_start = uk_mono_now();
	trace = getenv("PWFETCH_TRACE") != NULL;
	k = parse_opts(argc, argv);
	memset(&in, 0, sizeof(in));
	in.argv = argv + k;
	in.argc = argc - k;
	if (in.argc == 1 && !strcmp(in.argv[0], "-"))
		in.argc = 0;
	if (in.argc == 0) {
		in.use_lines = 1;
		if (uk_jsonl_open(&in.lines, "-", &err))
			uk_die(UK_EXIT_FATAL, "%s", err.msg);
	}
	jobs = uk_xcalloc((size_t)opt.jobs, sizeof(*jobs));
	uk_jsonl_out_init(&out, stdout);
	memset(&browser, 0, sizeof(browser));
	/* What the browser leaves outside its process group comes to us. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	atexit(at_exit);
	catch_signals();
	uk_progress_init(&prog, STDERR_FILENO, opt.quiet);
	out_tty = isatty(STDOUT_FILENO);
	run(&in);
	uk_progress_done(&prog);
	/* Leave the browser as the user had it, or close ours. */
	if (fetch_ctx && !browser.cdp.dead)
		call(NULL, T_IGNORE, NULL, "Target.disposeBrowserContext",
		    params1("browserContextId", uk_json_str(fetch_ctx)));
	if (have_browser && opt.address)
		drain(2);
	close_browser(0);
	for (k = 0; k < opt.jobs; k++)
		if (jobs[k].used)
			job_free(&jobs[k]);
	job_free(&warm);
	free(jobs);
	free(calls);
	free(fetch_ctx);
	free(spare);
	if (in.use_lines)
		uk_jsonl_close(&in.lines);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	return uk_status;
}

static int
cmd_find(int argc, char **argv)
{
	return cmd_run(CMD_FIND, argc, argv);
}

static int
cmd_open(int argc, char **argv)
{
	return cmd_run(CMD_OPEN, argc, argv);
}

static int
cmd_fetch(int argc, char **argv)
{
	return cmd_run(CMD_FETCH, argc, argv);
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "find", cmd_find },
	{ "open", cmd_open },
	{ "fetch", cmd_fetch },
};

int
main(int argc, char **argv)
{
	size_t i;

	uk_prog_set(argv[0]);
	if (argc < 2)
		usage(UK_EXIT_USAGE);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(UK_EXIT_OK);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("pwfetch %s\n", UK_VERSION);
		return UK_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	uk_warn("unknown command '%s'", argv[1]);
	usage(UK_EXIT_USAGE);
}
