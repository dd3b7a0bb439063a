/* SPDX-License-Identifier: MIT */
/*
 * pwfetch: pages rendered by Chromium over the DevTools protocol.  The
 * browser's start and end, the output queue, and the loop that hands the
 * browser's messages to lib/page, which runs each page (the options are
 * pwfetch_opts.c's, the input pwfetch_input.c's).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "browser.h"
#include "buf.h"
#include "cdp.h"
#include "cli.h"
#include "extract.h"
#include "guardproxy.h"
#include "json.h"
#include "jsonl.h"
#include "netguard.h"
#include "page.h"
#include "pagelinks.h"
#include "progress.h"
#include "query.h"
#include "record.h"
#include "slice.h"
#include "url.h"
#include "util.h"
#include "view.h"
#include "pwfetch.h"

#include "banned.h"

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
	/*
	 * A reader that has gone is a write error, said as one ("write
	 * error: Broken pipe", exit 3), with the browser closed on the way
	 * out, not a death by SIGPIPE that says nothing.
	 */
	signal(SIGPIPE, SIG_IGN);
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

	uk_progress_make_way(&r->prog);
	r->ndone++;
	if (it->kind == UK_JSONL_ERROR)
		r->nfailed++;
	if (it->kind == UK_JSONL_RECORD && !uk_json_get(it->rec, "error")) {
		if (r->query)
			uk_query_record(it->rec, r->query,
			    (size_t)(r->max_tokens ? r->max_tokens :
						     UK_QUERY_TOKENS_DEFAULT));
		else if (r->max_tokens)
			uk_slice_page(it->rec, 0, (size_t)r->max_tokens);
		if (r->query || r->max_tokens)
			uk_record_hash(it->rec); /* of what is written */
	}
	if (!r->view) {
		uk_jsonl_item_write(&r->out, it);
	} else if (it->kind == UK_JSONL_RECORD && !(s && s->msg) &&
	    !uk_json_get(it->rec, "error")) {
		/* A page for a person (lib/view), a blank line between. */
		if (r->ndone > 1)
			uk_buf_addch(&b, '\n');
		uk_view_page(&b, it->rec, r->view_width,
		    uk_jsonl_colour(STDOUT_FILENO));
		uk_jsonl_out_raw(&r->out, b.buf, b.len);
		uk_buf_reset(&b);
	} else {
		uk_jsonl_item_write(NULL, it); /* said on stderr only */
	}
	if (s && s->msg) {
		r->nfailed++;
		uk_buf_addf(&b, "%s: %s", s->url, s->msg);
		uk_util_warn("%s", uk_util_str_printable(b.buf));
		uk_util_status_set(UK_EXIT_FAIL);
	}
	uk_buf_release(&b);
	free_slot(s);
}

/*
 * --links-out (lib/page's before_fit): rec's links from the rendered HTML
 * the record carries (--html, which the option asks for), whole, before
 * the record is fitted to the line limit; the HTML goes when only the
 * option asked for it (xo.links_out 2), so that it is not what the fit
 * cuts.  A failed page has none.
 */
static void
links_out(void *ctx, yajl_val rec, const char *url)
{
	struct run *r = ctx;
	struct uk_extract x;
	const char *html, *at;
	size_t len;

	if (!uk_json_get(rec, "error") &&
	    (html = uk_json_get_strn(rec, "html", &len))) {
		/* pwfetch writes text: x's own text is not read. */
		memset(&x, 0, sizeof(x));
		at = uk_json_get_str(rec, "final_url");
		uk_pagelinks_html(rec, html, len, "text/html; charset=utf-8",
		    at ? at : url, &r->xo, &x);
	}
	if (r->xo.links_out == 2)
		uk_json_del(rec, "html");
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
	const char *type;
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
	/* Rendered: the text came from HTML (urlfetch's "source"). */
	if (!uk_json_get(it->rec, "error") &&
	    (type = uk_json_get_str(it->rec, "url_type")) &&
	    (!strcmp(type, "web") || !strcmp(type, "documentation")))
		uk_json_set_str(it->rec, "source", "html");
	/* --explain's records go to stderr, not in the record. */
	if (uk_json_get(it->rec, "explain")) {
		uk_progress_erase(&r->prog);
		uk_extract_override_explain_write(stderr, uk_json_get(it->rec,
		    "explain"));
		uk_json_del(it->rec, "explain");
	}
	s->url = uk_util_xstrdup(url);
	s->msg = msg ? uk_util_xstrdup(msg) : NULL;
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
		uk_util_warn("%s", err.msg);
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
			uk_util_warn("%s", err.msg);
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
			uk_util_warn("%s", err.msg);
			return -1;
		}
	}
	launched = &r->browser;
	r->have_browser = 1;
	if (!r->address && r->o.cmd == UK_PAGE_FETCH)
		uk_page_events_find_spare(&r->ps);
	return 0;
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
			uk_util_status_set(UK_EXIT_FATAL);
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
			uk_util_str_printable(
			    r->last_host); /* for the terminal */
			uk_url_release(&u);
		}
		uk_page_events_start(&r->ps, rec, r->seq);
		if (input_more(in))
			uk_page_events_warm(&r->ps);
	}
	return 0;
}

/* Wait for the browser, the guard's look-ups, more input, or deadline. */
static void
wait_any(struct run *r, struct input *in, double deadline)
{
	struct pollfd p[3];
	double next = uk_page_events_next_wake(&r->ps);
	double due = uk_progress_due(&r->prog);
	int n = 0, ms;

	if (deadline >= 0 && (next < 0 || deadline < next))
		next = deadline;
	/* Wake to draw the progress line when it is due. */
	if (due > 0 && (next < 0 || due < next))
		next = due;
	p[n].fd = uk_cdp_fd(&r->browser.cdp);
	p[n++].events = POLLIN;
	if (r->ps.nactive < r->o.jobs && (p[n].fd = input_fd(in)) >= 0)
		p[n++].events = POLLIN;
	if ((p[n].fd = uk_page_events_guard_fd(&r->ps)) >= 0)
		p[n++].events = POLLIN;
	if (uk_cdp_ready(&r->browser.cdp))
		return;
	ms = next < 0 ? -1 : (int)((next - uk_util_mono_now()) * 1000) + 1;
	if (ms < 0 && next >= 0)
		ms = 0;
	if (poll(p, (nfds_t)n, ms) < 0 && errno != EINTR)
		uk_util_die(UK_EXIT_FATAL, "poll: %s", strerror(errno));
}

static void
run(struct run *r, struct input *in)
{
	struct uk_err err;
	double deadline = r->total > 0 ? uk_util_mono_now() + r->total : -1;
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
		while (uk_page_events_guard_read(&r->ps))
			;
		while ((n = uk_cdp_next(&r->browser.cdp, 0, &m, &err)) == 1) {
			uk_page_events_dispatch(&r->ps, m);
			uk_json_free(m);
		}
		if (n < 0 && r->browser.cdp.dead) {
			r->browser_gone = 1;
			snprintf(r->gone_why, sizeof(r->gone_why), "%s",
			    r->browser.cdp.why);
			uk_page_events_fail_all(&r->ps, r->gone_why);
		} else if (deadline >= 0 && uk_util_mono_now() >= deadline) {
			r->timed_out = 1;
			uk_page_events_time_out(&r->ps, r->total);
		} else {
			uk_page_events_tick(&r->ps, uk_util_mono_now());
		}
	}
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
		in.src = uk_util_xmalloc(sizeof(*in.src));
		in.src[in.nsrc++] = stdin_src;
	}
	/* A document where URLs are expected (lib/cli): one usage error
	 * that names the program that reads it, before any browser. */
	for (k = 0; k < in.nsrc; k++) {
		const char *what, *a = in.src[k].arg;

		if ((!in.src[k].file && uk_jsonl_is_url_operand(a)) ||
		    !(what = uk_cli_document(a)))
			continue;
		if (!strcmp(a, "-"))
			uk_cli_usage(cli,
			    "standard input is %s, not URLs or url records: "
			    "to extract it, run urlextract",
			    what);
		uk_cli_usage(cli,
		    "'%s' is %s, not URLs or url records: to extract it, run "
		    "urlextract '%s'",
		    a, what, a);
	}
	/* Before any work, so that a bad -o costs no browser. */
	if (cl.output && !(fp = fopen(cl.output, "w"))) {
		uk_util_warn("-o: cannot open '%s': %s", cl.output,
		    strerror(errno));
		exit(UK_EXIT_USAGE);
	}
	/* A terminal gets pages through the pager (lib/view), as urlfetch
	 * shows them; --json, --compact and --pretty keep the records. */
	if (fp == stdout && !r.json && uk_jsonl_output == UK_JSONL_AUTO &&
	    uk_view_want(STDOUT_FILENO)) {
		r.view = 1;
		r.view_width = uk_view_width(STDOUT_FILENO);
		/* No pager while URLs are typed on the terminal. */
		for (k = 0; k < in.nsrc; k++)
			if (in.src[k].file && !strcmp(in.src[k].arg, "-") &&
			    isatty(STDIN_FILENO))
				break;
		if (k == in.nsrc && uk_view_pager_start())
			r.quiet = 1;
	}
	uk_jsonl_out_init(&r.out, fp);
	uk_jsonl_queue_init(&r.q, &r.out);
	r.q.write = write_item;
	r.q.arg = &r;
	r.slots = uk_util_xcalloc((size_t)r.o.jobs, sizeof(*r.slots));
	if (r.xo.links_out)
		r.o.before_fit = links_out;
	uk_page_events_init(&r.ps, &r.o, &r.browser.cdp, emit, &r);
	/* What the browser leaves outside its process group comes to us. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	atexit(at_exit);
	catch_signals();
	uk_progress_init(&r.prog, STDERR_FILENO, r.quiet);
	r.prog.after = UK_PROGRESS_AFTER; /* none for a run done in a second */
	run(&r, &in);
	uk_progress_done(&r.prog);
	/* Leave the browser as the user had it, or close ours. */
	if (r.have_browser)
		uk_page_events_end(&r.ps, 2);
	close_browser();
	uk_jsonl_queue_flush(&r.q);
	uk_page_events_release(&r.ps);
	input_release(&in);
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
		uk_util_die(UK_EXIT_FATAL, "%s: %s", cl.output,
		    strerror(errno));
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

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	/* '+': the options before the command are the program's own. */
	while ((c = uk_cli_getopt(&pwfetch_cli_top, argc, argv, "+hV", longopts)) != -1)
		uk_cli_usage(&pwfetch_cli_top, NULL);
	if (optind >= argc)
		uk_cli_usage(&pwfetch_cli_top, "a command is needed: find, open or fetch");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[optind], cmds[i].name)) {
			uk_cli_subcommand(cmds[i].name);
			argc -= optind;
			argv += optind;
			return cmd_run(&pwfetch_cli_cmds[i], cmds[i].cmd, argc, argv);
		}
	uk_cli_usage(&pwfetch_cli_top, "unknown command '%s'", argv[optind]);
}
