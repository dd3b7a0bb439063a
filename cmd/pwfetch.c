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
#include "cli.h"
#include "guardproxy.h"
#include "json.h"
#include "jsonl.h"
#include "netguard.h"
#include "page.h"
#include "progress.h"
#include "url.h"
#include "util.h"

/* The synopsis: the commands' line, then the program's own. */
#define SYN_CMD                                                              \
	"usage: pwfetch find | open | fetch [-Pq] [-A agent] [-e expression]\n" \
	"               [-i file] [-j jobs] [-o file] [-t seconds] [-w until]\n" \
	"               [--attach | --connect address] [--html]\n"              \
	"               [--screenshot path] [--total-timeout seconds]\n"        \
	"               [--viewport widthxheight] [url ...]\n"
#define SYN_PROG "       pwfetch -h | -V\n"

static const char options_top[] =
    "Pages rendered by Chromium over the DevTools protocol: a record per URL.\n"
    "\n"
    "  find      reload a page open in a running browser, write its record\n"
    "  open      load each URL in a browser context of its own\n"
    "  fetch     load each URL in the run's context (its cookies shared)\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Each command's options: pwfetch COMMAND --help.  See pwfetch(1).\n";

/* The options every command has, after its line of what it does. */
#define OPTIONS_CMD                                                            \
	"\n"                                                                   \
	"  -A, --user-agent=STRING   send STRING as the User-Agent\n"           \
	"                            (default: the browser's)\n"                \
	"      --attach              attach to the browser at $URLKIT_DEVTOOLS_URL\n" \
	"                            (default: http://127.0.0.1:9222)\n"        \
	"      --connect=ADDRESS     attach to the browser at ADDRESS\n"         \
	"                            (http://host:port or ws://...)\n"           \
	"  -e, --eval=EXPRESSION     put the JavaScript EXPRESSION's value in\n" \
	"                            \"eval\"\n"                                  \
	"      --html                put the rendered HTML in \"html\"\n"        \
	"  -i, --input=FILE          read url records or URLs from FILE (- for\n" \
	"                            stdin; stdin when no url and no -i)\n"      \
	"  -j, --jobs=N              load up to N pages at once, 1 to 64\n"      \
	"                            (default: 1); records stay in input order\n" \
	"  -o, --output=FILE         write the records to FILE (default: stdout)\n" \
	"  -P, --allow-private       load loopback and private addresses too\n"  \
	"  -q, --quiet               show no progress line on a terminal\n"      \
	"      --screenshot=PATH     save a PNG of each page's viewport at PATH\n" \
	"                            (a directory: PATH/N.png)\n"               \
	"  -t, --timeout=SECONDS     give each page SECONDS (default: 30)\n"     \
	"      --total-timeout=SECONDS\n"                                        \
	"                            give the whole run SECONDS (default: none)\n" \
	"      --viewport=WxH        the viewport in CSS pixels (default: 1280x720)\n" \
	"  -w, --wait=UNTIL          when a page is ready: load, domcontentloaded,\n" \
	"                            networkidle or selector:CSS (default: load)\n" \
	"      --compact             one JSON line per record, even on a terminal\n" \
	"      --pretty              indented records, even in a pipe\n"         \
	"  -h, --help                the synopsis (-h) or this help (--help)\n"  \
	"\n"                                                                   \
	"See pwfetch(1).\n"

static const struct uk_cli cli_top = { "pwfetch", SYN_CMD SYN_PROG,
	options_top };
static const struct uk_cli cli_cmds[] = {
	{ "pwfetch find", SYN_CMD,
	    "Reload the page of a running browser whose URL starts with each "
	    "url;\nwrite its record.\n" OPTIONS_CMD },
	{ "pwfetch open", SYN_CMD,
	    "Load each URL in a new browser context of its own; write one "
	    "content\nrecord per URL.\n" OPTIONS_CMD },
	{ "pwfetch fetch", SYN_CMD,
	    "Load each URL in Chromium, its scripts run; write one content "
	    "record\nper URL.\n" OPTIONS_CMD },
};

/* Where input comes from, in command-line order: a URL or -i FILE. */
struct source {
	const char *arg;
	int file;
};

/*
 * Input: URL operands and the records and bare URLs of -i files (standard
 * input when there is neither), in command-line order.
 */
struct input {
	struct source *src;
	int nsrc, i;
	int nurls;                /* operands: the total when there is no file */
	struct uk_jsonl_in lines; /* the -i file being read */
	int use_lines, eof;
};

/* A record in the output queue, until it is written. */
struct slot {
	unsigned long no; /* the page's number (uk_pages_start); 0: none */
	char *url, *msg;  /* msg: what to say on stderr, for a failed one */
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
	/* Records in input order (-j pages finish in any order). */
	struct uk_jsonl_queue q;
	struct uk_jsonl_item **slots; /* the pages' items, o.jobs of them */
	struct uk_jsonl_item *cur;    /* the item of the record being read */
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

static void
free_slot(struct slot *s)
{
	if (s) {
		free(s->url);
		free(s->msg);
		free(s);
	}
}

/*
 * The queue's writer: a record goes out at its turn, in input order.  The
 * progress line makes way on a shared terminal; a failed record is said on
 * stderr as "URL: message", with the terminal's control characters taken
 * out (both can hold what the input or the page said: ESC, BEL).
 */
static void
write_item(struct uk_jsonl_item *it, void *arg)
{
	struct run *r = arg;
	struct slot *s = it->data;
	struct uk_buf b = UK_BUF_INIT;

	if (r->out_tty)
		uk_progress_erase(&r->prog);
	r->ndone++;
	if (it->kind == UK_JSONL_ERROR)
		r->nfailed++;
	uk_jsonl_item_write(&r->out, it);
	if (s && s->msg) {
		r->nfailed++;
		uk_buf_addf(&b, "%s: %s", s->url, s->msg);
		uk_warn("%s", uk_str_printable(b.buf));
		uk_buf_release(&b);
		uk_status_set(UK_EXIT_FAIL);
	}
	free_slot(s);
}

/*
 * A record is done (lib/page's emit): it waits in the queue for the
 * records before it.  Page no's item is in the slots; no 0 is the record
 * being read (refused before any page).
 */
static void
emit(void *ctx, yajl_val rec, const char *url, const char *msg,
    unsigned long no)
{
	struct run *r = ctx;
	struct uk_jsonl_item *it = r->cur;
	struct slot *s;
	long i;

	for (i = 0; no && i < r->o.jobs; i++)
		if (r->slots[i] && ((struct slot *)r->slots[i]->data)->no == no) {
			it = r->slots[i];
			r->slots[i] = NULL;
			break;
		}
	if (!it)
		return; /* cannot be: every record has its item */
	s = it->data;
	uk_json_free(it->rec);
	it->rec = uk_json_copy(rec);
	s->url = uk_xstrdup(url);
	s->msg = msg ? uk_xstrdup(msg) : NULL;
	it->done = 1;
	if (it == r->cur)
		r->cur = NULL;
	uk_jsonl_queue_flush(&r->q);
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
		    UK_URL_NUL_ERROR);
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
 * The next record of the -i file being read with a "url", or NULL at its
 * end; lib/jsonl's policy answers the rest (broken lines, records that
 * arrive failed, blank lines, records without a URL), in the queue.
 */
static yajl_val
next_line(struct run *r, struct input *in)
{
	struct uk_jsonl_policy pol = { .flags = UK_JSONL_BARE_URL,
		.require = "url",
		.q = &r->q };
	struct uk_err err;
	yajl_val rec;
	int n;

	n = uk_jsonl_take(&in->lines, &pol, &rec, &err);
	uk_jsonl_queue_flush(&r->q);
	if (n > 0) {
		r->cur = uk_jsonl_queue_add(&r->q, NULL, in->lines.name,
		    in->lines.lineno);
		return rec;
	}
	if (n < 0) {
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FATAL);
	}
	uk_jsonl_close(&in->lines);
	in->use_lines = 0;
	return NULL;
}

/*
 * Whether the operand s is a URL: a scheme and a colon (RFC 3986's
 * scheme), so that a file name given as an operand is told to use -i.
 */
static int
is_url(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
			     "XYZ0123456789+.-");

	return n > 0 && s[n] == ':' &&
	    ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'));
}

/*
 * The next record to look at from the sources: a URL operand's, or a
 * record of an -i file (opened when its turn comes).  NULL at the end.
 */
static yajl_val
next_record(struct run *r, struct input *in)
{
	struct source *src;
	struct uk_err err;
	yajl_val rec;

	for (;;) {
		if (in->use_lines) {
			if ((rec = next_line(r, in)))
				return rec;
			if (uk_status == UK_EXIT_FATAL)
				return NULL;
			continue;
		}
		if (in->i >= in->nsrc)
			return NULL;
		src = &in->src[in->i++];
		if (!src->file) {
			rec = uk_json_object();
			uk_json_set_str(rec, "url", src->arg);
			r->cur = uk_jsonl_queue_add(&r->q, NULL, NULL, 0);
			return rec;
		}
		if (uk_jsonl_open(&in->lines, src->arg, &err)) {
			/* A file that is not there: its error record, and
			 * the other sources are still read. */
			uk_jsonl_queue_error(&r->q, src->arg, 0, err.msg);
			uk_jsonl_queue_flush(&r->q);
			if (err.code == UK_EXIT_FATAL) {
				uk_status_set(UK_EXIT_FATAL);
				return NULL;
			}
			continue;
		}
		in->use_lines = 1;
	}
}

/*
 * The next URL record to fetch, or NULL at the end.  Input that cannot be
 * fetched is answered here and skipped.
 */
static yajl_val
next_input(struct run *r, struct input *in)
{
	struct uk_jsonl_item *it;
	yajl_val rec;

	while (!in->eof && (rec = next_record(r, in))) {
		it = r->cur;
		it->data = uk_xcalloc(1, sizeof(struct slot));
		if (!in->use_lines && !is_url(uk_json_get_str(rec, "url"))) {
			char msg[600];
			const char *u = uk_json_get_str(rec, "url");

			snprintf(msg, sizeof(msg),
			    "not a URL: '%.200s' (to read records from a file, "
			    "use -i %.200s)",
			    u, u);
			uk_pages_error(&r->ps, rec, u, msg);
		} else if (fetchable(r, rec)) {
			return rec;
		}
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
	long i;

	while (r->ps.nactive < r->o.jobs && !in->eof &&
	    (r->ps.nactive == 0 || input_ready(in))) {
		if (!(rec = next_input(r, in)))
			break;
		if (need_browser(r)) {
			uk_json_free(rec);
			uk_status_set(UK_EXIT_FATAL);
			return -1;
		}
		/* The page's item, for emit to find by its number. */
		for (i = 0; i < r->o.jobs && r->slots[i]; i++)
			;
		if (i == r->o.jobs)
			abort(); /* cannot be: lib/page keeps nactive < jobs */
		((struct slot *)r->cur->data)->no = r->seq;
		r->slots[i] = r->cur;
		r->cur = NULL;
		if (uk_progress_on(&r->prog)) {
			uk_url_classify(uk_json_get_str(rec, "url"), &u);
			snprintf(r->last_host, sizeof(r->last_host), "%s",
			    u.host ? u.host : "");
			uk_str_printable(r->last_host); /* for the terminal */
			uk_url_release(&u);
		}
		uk_pages_start(&r->ps, rec, r->seq);
		if (!in->eof && (in->use_lines || in->i < in->nsrc))
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

	/* A total is known when the URLs are all operands. */
	if (in->nurls == in->nsrc)
		snprintf(total, sizeof(total), "/%d", in->nurls);
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

/* The long-only options. */
enum {
	OPT_ATTACH = UK_OPT_FIRST,
	OPT_CONNECT,
	OPT_HTML,
	OPT_SCREENSHOT,
	OPT_TOTAL,
	OPT_VIEWPORT,
};

/* What the command line gave besides the page options. */
struct cmdline {
	int attach;
	const char *output; /* -o, or NULL: stdout */
	struct input *in;
};

/* One option (or, as 1, an operand in its place among them). */
static void
parse_opt(const struct uk_cli *cli, struct run *r, struct cmdline *cl,
    int c, char *arg)
{
	struct input *in = cl->in;

	switch (c) {
	case 1:
	case 'i':
		in->src = uk_xrealloc(in->src,
		    (size_t)(in->nsrc + 1) * sizeof(*in->src));
		in->src[in->nsrc].arg = arg;
		in->src[in->nsrc++].file = c == 'i';
		in->nurls += c == 1;
		break;
	case OPT_ATTACH:
		cl->attach = 1;
		break;
	case OPT_CONNECT:
		r->address = arg;
		break;
	case 'e':
		r->o.eval = arg;
		break;
	case OPT_HTML:
		r->o.html = 1;
		break;
	case 'j':
		if (uk_parse_long(arg, 1, 64, &r->o.jobs))
			uk_cli_usage(cli, "-j: not a count from 1 to 64: '%s'",
			    arg);
		break;
	case 'o':
		cl->output = arg;
		break;
	case 'P':
		r->o.guard = 0;
		break;
	case 'q':
		r->quiet = 1;
		break;
	case OPT_SCREENSHOT:
		r->o.shot = arg;
		break;
	case OPT_TOTAL:
		if (uk_parse_seconds(arg, &r->total) || r->total <= 0)
			uk_cli_usage(cli, "--total-timeout: not a duration: '%s'",
			    arg);
		break;
	case 't':
		if (uk_parse_seconds(arg, &r->o.timeout) || r->o.timeout <= 0)
			uk_cli_usage(cli, "-t: not a duration: '%s'", arg);
		break;
	case 'A':
		r->o.ua = arg;
		break;
	case OPT_VIEWPORT:
		if (parse_viewport(r, arg))
			uk_cli_usage(cli, "--viewport: not WIDTHxHEIGHT: '%s'",
			    arg);
		break;
	case 'w':
		if (parse_wait(r, arg))
			uk_cli_usage(cli,
			    "-w: not load, domcontentloaded, networkidle or "
			    "selector:CSS: '%s'",
			    arg);
		break;
	default:
		uk_cli_usage(cli, NULL);
	}
}

/* What the options mean together: the address, the screenshot path. */
static void
check_opts(const struct uk_cli *cli, struct run *r, int attach)
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
		if (uk_cdp_split_url(r->address, &sc, &h, &po, &pa, &err))
			uk_cli_usage(cli, "%s", err.msg);
		free(sc);
		free(h);
		free(po);
		free(pa);
	}
	r->o.attached = r->address != NULL;
	if (!shot)
		return;
	if (!(n = strlen(shot)))
		uk_cli_usage(cli, "--screenshot: an empty path");
	r->o.shot_dir =
	    shot[n - 1] == '/' || (!stat(shot, &st) && S_ISDIR(st.st_mode));
	/* A directory named with its '/' is made when missing. */
	if (shot[n - 1] == '/' && mkdir(shot, 0777) && errno != EEXIST)
		uk_die(UK_EXIT_FATAL, "--screenshot: cannot make '%s': %s",
		    shot, strerror(errno));
}

/*
 * The options and operands of a command.  The option string starts with
 * '-' so that operands come back in their places among -i's: the sources
 * are read in command-line order.
 */
static void
parse_opts(const struct uk_cli *cli, struct run *r, struct cmdline *cl,
    int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "user-agent", required_argument, NULL, 'A' },
		{ "attach", no_argument, NULL, OPT_ATTACH },
		{ "connect", required_argument, NULL, OPT_CONNECT },
		{ "eval", required_argument, NULL, 'e' },
		{ "html", no_argument, NULL, OPT_HTML },
		{ "input", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "allow-private", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "screenshot", required_argument, NULL, OPT_SCREENSHOT },
		{ "timeout", required_argument, NULL, 't' },
		{ "total-timeout", required_argument, NULL, OPT_TOTAL },
		{ "viewport", required_argument, NULL, OPT_VIEWPORT },
		{ "wait", required_argument, NULL, 'w' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_netguard guard;
	int c;

	r->o.jobs = 1;
	r->o.timeout = 30;
	uk_netguard_init(&guard);
	r->o.guard = !guard.allow_private; /* a list of addresses keeps it */
	optind = 0; /* getopt: start again, with this option string */
	while ((c = uk_cli_getopt(cli, argc, argv, "-A:e:hi:j:o:Pqt:w:",
		    longopts)) != -1)
		parse_opt(cli, r, cl, c, optarg);
	/* After "--": operands only. */
	for (; optind < argc; optind++)
		parse_opt(cli, r, cl, 1, argv[optind]);
	check_opts(cli, r, cl->attach);
}

static void
at_exit(void)
{
	close_browser();
}

static int
cmd_run(const struct uk_cli *cli, enum uk_page_cmd cmd, int argc,
    char **argv)
{
	static struct run r; /* static: at_exit may still reach its browser */
	static struct source stdin_src = { "-", 1 };
	struct cmdline cl;
	struct input in;
	FILE *fp = stdout;
	long k;

	memset(&in, 0, sizeof(in));
	memset(&cl, 0, sizeof(cl));
	cl.in = &in;
	r.o.cmd = cmd;
	parse_opts(cli, &r, &cl, argc, argv);
	if (in.nsrc == 0) {
		in.src = uk_xmalloc(sizeof(*in.src));
		in.src[in.nsrc++] = stdin_src;
	}
	/* Before any work, so that a bad -o costs no browser. */
	if (cl.output && !(fp = fopen(cl.output, "w"))) {
		uk_warn("-o: cannot open '%s': %s", cl.output, strerror(errno));
		exit(UK_EXIT_USAGE);
	}
	uk_jsonl_out_init(&r.out, fp);
	uk_jsonl_queue_init(&r.q, &r.out);
	r.q.write = write_item;
	r.q.arg = &r;
	r.slots = uk_xcalloc((size_t)r.o.jobs, sizeof(*r.slots));
	uk_pages_init(&r.ps, &r.o, &r.browser.cdp, emit, &r);
	/* What the browser leaves outside its process group comes to us. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	atexit(at_exit);
	catch_signals();
	uk_progress_init(&r.prog, STDERR_FILENO, r.quiet);
	r.out_tty = isatty(fileno(fp));
	run(&r, &in);
	uk_progress_done(&r.prog);
	/* Leave the browser as the user had it, or close ours. */
	if (r.have_browser)
		uk_pages_end(&r.ps, 2);
	close_browser();
	uk_jsonl_queue_flush(&r.q);
	uk_pages_release(&r.ps);
	if (in.use_lines)
		uk_jsonl_close(&in.lines);
	/* What was never written (a browser that could not be had): the
	 * queue frees the items, their data is ours. */
	for (k = 0; k < r.o.jobs; k++)
		if (r.slots[k])
			free_slot(r.slots[k]->data);
	if (r.cur)
		free_slot(r.cur->data);
	uk_jsonl_queue_release(&r.q);
	free(r.slots);
	free(in.src);
	uk_jsonl_out_finish(&r.out);
	uk_jsonl_out_release(&r.out);
	if (fp != stdout && fclose(fp))
		uk_die(UK_EXIT_FATAL, "%s: %s", cl.output, strerror(errno));
	return uk_status;
}

static const struct {
	const char *name;
	enum uk_page_cmd cmd;
} cmds[] = {
	{ "find", UK_PAGE_FIND },
	{ "open", UK_PAGE_OPEN },
	{ "fetch", UK_PAGE_FETCH },
};

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	size_t i;
	int c;

	uk_prog_set(argv[0]);
	/* '+': the options before the command are the program's own. */
	while ((c = uk_cli_getopt(&cli_top, argc, argv, "+hV", longopts)) != -1)
		uk_cli_usage(&cli_top, NULL);
	if (optind >= argc)
		uk_cli_usage(&cli_top, "a command is needed: find, open or fetch");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[optind], cmds[i].name)) {
			uk_cli_subcommand(cmds[i].name);
			argc -= optind;
			argv += optind;
			return cmd_run(&cli_cmds[i], cmds[i].cmd, argc, argv);
		}
	uk_cli_usage(&cli_top, "unknown command '%s'", argv[optind]);
}
