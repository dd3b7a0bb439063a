/* SPDX-License-Identifier: MIT */
/*
 * pwfetch: pages rendered by Chromium over the DevTools protocol.  The
 * options, the browser's start and end, the input, and the loop that
 * hands the browser's messages to lib/page, which runs each page.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "banned.h"
#include "browser.h"
#include "buf.h"
#include "cdp.h"
#include "guardproxy.h"
#include "json.h"
#include "jsonl.h"
#include "netguard.h"
#include "page.h"
#include "progress.h"
#include "url.h"
#include "util.h"

static const char usage_text[] =
    "usage: pwfetch find | open | fetch [-aHPq] [-c address] [-e expression]\n"
    "               [-j jobs] [-s path] [-T seconds] [-t seconds]\n"
    "               [-u user-agent] [-v widthxheight] [-w until] [url ...]\n"
    "       pwfetch -h | -V\n";

/* Input: URL operands, or records and bare URLs on standard input. */
struct input {
	char **argv;
	int argc, i;
	struct uk_jsonl_in lines;
	int use_lines, eof;
};

/* The run: what every function here works on. */
struct run {
	struct uk_page_opts o;
	const char *address; /* attach here; NULL: launch */
	double total;        /* -T; 0: none */
	int quiet;
	struct uk_browser browser;
	int have_browser, browser_gone, timed_out;
	char gone_why[300];
	struct uk_pages ps;
	struct uk_jsonl_out out;
	/* Progress on a terminal: URLs done and failed, the last host. */
	struct uk_progress prog;
	int out_tty;
	unsigned long ndone, nfailed, seq;
	char last_host[128];
};

/*
 * The browser a signal or exit() must not leave behind: a signal handler
 * and an atexit function get no argument, so this one pointer is the
 * file's.
 */
static struct uk_browser *launched;

static void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

/* A signal ends the run: no browser of ours is left behind. */
static void
on_signal(int sig)
{
	if (launched)
		uk_browser_kill(launched);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Close the browser with the signals that would also close it held. */
static void
close_browser(void)
{
	struct uk_browser *b = launched;
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	launched = NULL;
	if (b)
		uk_browser_close(b, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
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

/*
 * A record goes out (lib/page's emit): the progress line makes way on a
 * shared terminal; a failed one is said on stderr as "URL: message", with
 * the terminal's control characters taken out (both can hold what the
 * input or the page said: ESC, BEL).
 */
static void
emit(void *ctx, yajl_val rec, const char *url, const char *msg)
{
	struct run *r = ctx;
	struct uk_buf b = UK_BUF_INIT;

	if (r->out_tty)
		uk_progress_erase(&r->prog);
	uk_jsonl_out_record(&r->out, rec);
	r->ndone++;
	if (!msg)
		return;
	r->nfailed++;
	uk_buf_addf(&b, "%s: %s", url, msg);
	uk_warn("%s", uk_str_printable(b.buf));
	uk_buf_release(&b);
	uk_status_set(UK_EXIT_FAIL);
}

/*
 * Start guardproxy for the browser's connections; its address in proxy
 * (size >= 64).  -1 when it cannot start (said on stderr).
 */
static int
proxy_start(struct run *r, char *proxy)
{
	struct uk_netguard g;
	struct uk_err err;
	int port;

	uk_netguard_init(&g);
	g.allow_private = 0;
	if (uk_guardproxy_start(&g, r->o.timeout, &port, &err)) {
		uk_warn("%s", err.msg);
		return -1;
	}
	snprintf(proxy, 64, "http://127.0.0.1:%d", port);
	r->ps.proxied = 1;
	return 0;
}

/* Start the browser at the first URL that needs it; -1 when it cannot. */
static int
need_browser(struct run *r)
{
	struct uk_browser_opts bo;
	struct uk_err err;
	char proxy[64];

	if (r->have_browser)
		return 0;
	memset(&bo, 0, sizeof(bo));
	bo.width = (int)r->o.vw;
	bo.height = (int)r->o.vh;
	bo.timeout = 30; /* a slow machine's first start, whatever -t says */
	if (r->address) {
		if (uk_browser_attach(&r->browser, r->address,
			r->o.timeout < 10 ? r->o.timeout : 10, &err)) {
			uk_warn("%s", err.msg);
			return -1;
		}
		/*
		 * open and fetch make a context of their own for each page
		 * (fetch copies the user's cookies into it), and a context
		 * takes a proxy of its own: guardproxy, as a launched browser
		 * has it for all of its traffic.  The browser's own context
		 * has the user's proxy, and nothing else puts a WebSocket's
		 * handshake, or a worker that outlives the page, under the
		 * guard.
		 */
		if (r->o.guard && r->o.cmd != UK_PAGE_FIND &&
		    proxy_start(r, r->ps.ctx_proxy))
			return -1;
	} else {
		/* Every target's requests, not only the page's. */
		if (r->o.guard) {
			if (proxy_start(r, proxy))
				return -1;
			bo.proxy = proxy;
		}
		launched = &r->browser;
		if (uk_browser_launch(&r->browser, &bo, &err)) {
			launched = NULL;
			uk_warn("%s", err.msg);
			return -1;
		}
	}
	launched = &r->browser;
	r->have_browser = 1;
	if (!r->address && r->o.cmd == UK_PAGE_FETCH)
		uk_pages_find_spare(&r->ps);
	return 0;
}

/* Whether rec's URL can be fetched; if not, its error record is written. */
static int
fetchable(struct run *r, yajl_val rec)
{
	struct uk_url u;
	const char *url;
	char msg[300];
	size_t len;
	int ok;

	url = uk_json_get_strn(rec, "url", &len);
	if (len != strlen(url)) {
		/* As urlfetch: "https://a.example/j\u0000evil" is not
		 * https://a.example/j, and is not opened. */
		uk_pages_error(&r->ps, rec, url,
		    "the URL holds a NUL byte (\\u0000)");
		return 0;
	}
	uk_url_classify(url, &u);
	ok = u.scheme &&
	    (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
	uk_url_release(&u);
	if (!ok) {
		snprintf(msg, sizeof(msg), "not an http(s) URL: '%.200s'", url);
		uk_pages_error(&r->ps, rec, url, msg);
		return 0;
	}
	r->seq++;
	if (r->browser_gone || r->timed_out) {
		uk_pages_error(&r->ps, rec, url,
		    r->timed_out ? "not fetched: the run timed out" :
				   r->gone_why);
		return 0;
	}
	return 1;
}

/*
 * The next record from standard input with a "url", or NULL at the end;
 * lib/jsonl's policy answers the rest (broken lines, records that arrive
 * failed, blank lines, records without a URL).
 */
static yajl_val
next_line(struct run *r, struct input *in)
{
	struct uk_jsonl_policy pol = { .flags = UK_JSONL_BARE_URL,
		.require = "url",
		.out = &r->out };
	struct uk_err err;
	yajl_val rec;
	int n;

	if ((n = uk_jsonl_take(&in->lines, &pol, &rec, &err)) > 0)
		return rec;
	if (n < 0) {
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FATAL);
	}
	return NULL;
}

/*
 * The next URL record to fetch, or NULL at the end.  Input that cannot be
 * fetched is answered here and skipped.
 */
static yajl_val
next_input(struct run *r, struct input *in)
{
	yajl_val rec;

	while (!in->eof) {
		if (!in->use_lines) {
			if (in->i >= in->argc)
				break;
			rec = uk_json_object();
			uk_json_set_str(rec, "url", in->argv[in->i++]);
		} else if (!(rec = next_line(r, in))) {
			break;
		}
		if (fetchable(r, rec))
			return rec;
		uk_json_free(rec);
	}
	in->eof = 1;
	return NULL;
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

/* Start pages for input while slots are free; -1: no browser to be had. */
static int
fill(struct run *r, struct input *in)
{
	struct uk_url u;
	yajl_val rec;

	while (r->ps.nactive < r->o.jobs && !in->eof &&
	    (r->ps.nactive == 0 || input_ready(in))) {
		if (!(rec = next_input(r, in)))
			break;
		if (need_browser(r)) {
			uk_json_free(rec);
			uk_status_set(UK_EXIT_FATAL);
			return -1;
		}
		if (uk_progress_on(&r->prog)) {
			uk_url_classify(uk_json_get_str(rec, "url"), &u);
			snprintf(r->last_host, sizeof(r->last_host), "%s",
			    u.host ? u.host : "");
			uk_str_printable(r->last_host); /* for the terminal */
			uk_url_release(&u);
		}
		uk_pages_start(&r->ps, rec, r->seq);
		if (!in->eof && (in->use_lines || in->i < in->argc))
			uk_pages_warm(&r->ps);
	}
	return 0;
}

/* Wait for the browser, the guard's look-ups, more input, or deadline. */
static void
wait_any(struct run *r, struct input *in, double deadline)
{
	struct pollfd p[3];
	double next = uk_pages_next_wake(&r->ps);
	int n = 0, ms;

	if (deadline >= 0 && (next < 0 || deadline < next))
		next = deadline;
	p[n].fd = uk_cdp_fd(&r->browser.cdp);
	p[n++].events = POLLIN;
	if (r->ps.nactive < r->o.jobs && in->use_lines && !in->eof) {
		p[n].fd = in->lines.fd;
		p[n++].events = POLLIN;
	}
	if ((p[n].fd = uk_pages_guard_fd(&r->ps)) >= 0)
		p[n++].events = POLLIN;
	if (uk_cdp_ready(&r->browser.cdp))
		return;
	ms = next < 0 ? -1 : (int)((next - uk_mono_now()) * 1000) + 1;
	if (ms < 0 && next >= 0)
		ms = 0;
	if (poll(p, (nfds_t)n, ms) < 0 && errno != EINTR)
		uk_die(UK_EXIT_FATAL, "poll: %s", strerror(errno));
}

static void
run(struct run *r, struct input *in)
{
	struct uk_err err;
	double deadline = r->total > 0 ? uk_mono_now() + r->total : -1;
	char total[32] = "";
	yajl_val m;
	int n;

	if (!in->use_lines)
		snprintf(total, sizeof(total), "/%d", in->argc);
	for (;;) {
		uk_progress_show(&r->prog, 0,
		    "pwfetch: %lu%s done, %lu failed, %d loading  %s", r->ndone,
		    total, r->nfailed, r->ps.nactive, r->last_host);
		if (fill(r, in))
			return;
		if (r->ps.nactive == 0) {
			if (in->eof)
				break;
			continue;
		}
		wait_any(r, in, deadline);
		while (uk_pages_guard_read(&r->ps))
			;
		while ((n = uk_cdp_next(&r->browser.cdp, 0, &m, &err)) == 1) {
			uk_pages_dispatch(&r->ps, m);
			uk_json_free(m);
		}
		if (n < 0 && r->browser.cdp.dead) {
			r->browser_gone = 1;
			snprintf(r->gone_why, sizeof(r->gone_why), "%s",
			    r->browser.cdp.why);
			uk_pages_fail_all(&r->ps, r->gone_why);
		} else if (deadline >= 0 && uk_mono_now() >= deadline) {
			r->timed_out = 1;
			uk_pages_time_out(&r->ps, r->total);
		} else {
			uk_pages_tick(&r->ps, uk_mono_now());
		}
	}
}

/* -v WIDTHxHEIGHT and -w UNTIL; -1 when the argument is not one. */
static int
parse_viewport(struct run *r, const char *s)
{
	char *x;

	r->o.vw = strtol(s, &x, 10);
	if (x == s || (*x != 'x' && *x != 'X') ||
	    uk_parse_long(x + 1, 1, 10000, &r->o.vh) || r->o.vw < 1 ||
	    r->o.vw > 10000)
		return -1;
	return 0;
}

static int
parse_wait(struct run *r, const char *s)
{
	if (!strcmp(s, "load"))
		r->o.wait = UK_PAGE_WAIT_LOAD;
	else if (!strcmp(s, "domcontentloaded"))
		r->o.wait = UK_PAGE_WAIT_DOM;
	else if (!strcmp(s, "networkidle"))
		r->o.wait = UK_PAGE_WAIT_IDLE;
	else if (!strncmp(s, "selector:", 9) && s[9]) {
		r->o.wait = UK_PAGE_WAIT_SELECTOR;
		r->o.selector = s + 9;
	} else
		return -1;
	return 0;
}

/* One option; returns 1 for -a. */
static int
parse_opt(struct run *r, int c, char *arg)
{
	const char *bad = NULL;

	switch (c) {
	case 'a':
		return 1;
	case 'c':
		r->address = arg;
		break;
	case 'e':
		r->o.eval = arg;
		break;
	case 'H':
		r->o.html = 1;
		break;
	case 'j':
		if (uk_parse_long(arg, 1, 64, &r->o.jobs))
			bad = "-j: not a count from 1 to 64";
		break;
	case 'P':
		r->o.guard = 0;
		break;
	case 'q':
		r->quiet = 1;
		break;
	case 's':
		r->o.shot = arg;
		break;
	case 'T':
		if (uk_parse_seconds(arg, &r->total) || r->total <= 0)
			bad = "-T: not a duration";
		break;
	case 't':
		if (uk_parse_seconds(arg, &r->o.timeout) || r->o.timeout <= 0)
			bad = "-t: not a duration";
		break;
	case 'u':
		r->o.ua = arg;
		break;
	case 'v':
		if (parse_viewport(r, arg))
			bad = "-v: not WIDTHxHEIGHT";
		break;
	case 'w':
		if (parse_wait(r, arg))
			bad = "-w: not load, domcontentloaded, networkidle or "
			      "selector:CSS";
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
	if (bad) {
		uk_warn("%s: '%s'", bad, arg);
		usage(UK_EXIT_USAGE);
	}
	return 0;
}

/* What the options mean together: the address, the screenshot path. */
static void
check_opts(struct run *r, int attach)
{
	const char *env, *shot = r->o.shot;
	char *sc, *h, *po, *pa;
	struct uk_err err;
	struct stat st;
	size_t n;

	/* find looks through a running browser's pages: it always attaches. */
	if (!r->address && (attach || r->o.cmd == UK_PAGE_FIND)) {
		env = getenv("URLKIT_DEVTOOLS_URL");
		r->address = env && *env ? env : UK_BROWSER_ADDRESS;
	}
	if (r->address) {
		if (uk_cdp_split_url(r->address, &sc, &h, &po, &pa, &err)) {
			uk_warn("%s", err.msg);
			usage(UK_EXIT_USAGE);
		}
		free(sc);
		free(h);
		free(po);
		free(pa);
	}
	r->o.attached = r->address != NULL;
	if (!shot)
		return;
	if (!(n = strlen(shot))) {
		uk_warn("-s: an empty path");
		usage(UK_EXIT_USAGE);
	}
	r->o.shot_dir =
	    shot[n - 1] == '/' || (!stat(shot, &st) && S_ISDIR(st.st_mode));
	/* A directory named with its '/' is made when missing. */
	if (shot[n - 1] == '/' && mkdir(shot, 0777) && errno != EEXIST) {
		uk_warn("-s: cannot make '%s': %s", shot, strerror(errno));
		exit(UK_EXIT_FATAL);
	}
}

static int
parse_opts(struct run *r, int argc, char **argv)
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
	int c, attach = 0;

	r->o.jobs = 1;
	r->o.timeout = 30;
	uk_netguard_init(&guard);
	r->o.guard = !guard.allow_private; /* a list of addresses keeps it */
	optind = 1;
	while ((c = getopt_long(argc, argv, "ac:e:Hj:Pqs:T:t:u:v:w:hV",
		    longopts, NULL)) != -1)
		attach |= parse_opt(r, c, optarg);
	check_opts(r, attach);
	return optind;
}

static void
at_exit(void)
{
	close_browser();
}

static int
cmd_run(enum uk_page_cmd cmd, int argc, char **argv)
{
	static struct run r; /* static: at_exit may still reach its browser */
	struct input in;
	struct uk_err err;
	int k;

	r.o.cmd = cmd;
	k = parse_opts(&r, argc, argv);
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
	uk_jsonl_out_init(&r.out, stdout);
	uk_pages_init(&r.ps, &r.o, &r.browser.cdp, emit, &r);
	/* What the browser leaves outside its process group comes to us. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	atexit(at_exit);
	catch_signals();
	uk_progress_init(&r.prog, STDERR_FILENO, r.quiet);
	r.out_tty = isatty(STDOUT_FILENO);
	run(&r, &in);
	uk_progress_done(&r.prog);
	/* Leave the browser as the user had it, or close ours. */
	if (r.have_browser)
		uk_pages_end(&r.ps, 2);
	close_browser();
	uk_pages_release(&r.ps);
	if (in.use_lines)
		uk_jsonl_close(&in.lines);
	uk_jsonl_out_finish(&r.out);
	uk_jsonl_out_release(&r.out);
	return uk_status;
}

static int
cmd_find(int argc, char **argv)
{
	return cmd_run(UK_PAGE_FIND, argc, argv);
}

static int
cmd_open(int argc, char **argv)
{
	return cmd_run(UK_PAGE_OPEN, argc, argv);
}

static int
cmd_fetch(int argc, char **argv)
{
	return cmd_run(UK_PAGE_FETCH, argc, argv);
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
