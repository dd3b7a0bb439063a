/* SPDX-License-Identifier: MIT */
/* pwfetch's command line: the usage texts and the options of a command. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "browser.h"
#include "cdp.h"
#include "cli.h"
#include "extract.h"
#include "extract_select.h"
#include "netguard.h"
#include "page.h"
#include "slice.h"
#include "util.h"
#include "pwfetch.h"
#include "urlextract.h"

#include "banned.h"

/* The synopsis: the commands' line, then the program's own. */
#define SYN_CMD                                                              \
	"usage: pwfetch find | open | fetch [-Pq] [-A agent] [-e expression]\n" \
	"               [-i file] [-j jobs] [-o file] [-t seconds] [-w until]\n" \
	"               [--attach | --connect address] [--html]\n"              \
	"               [--screenshot path] [--total-timeout seconds]\n"        \
	"               [--viewport widthxheight] [--explain] [--whole]\n"     \
	"               [--remove css] [--select css] [--json] [--links-out]\n" \
	"               [--links-max n] [--max-tokens tokens] [--query text]\n" \
	"               [url ...]\n"
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
#define OPTIONS_CMD \
	"\n" \
	"Input:\n" \
	"  -i, --input=FILE          read url records or URLs from FILE (- for\n" \
	"                            stdin; stdin when no url and no -i)\n" \
	"\n" \
	"Output:\n" \
	"      --json                records, even on a terminal (there: pages)\n" \
	"  -o, --output=FILE         write the records to FILE (default: stdout)\n" \
	"      --html                put the rendered HTML in \"html\"\n" \
	"  -e, --eval=EXPRESSION     put the JavaScript EXPRESSION's value in\n" \
	"                            \"eval\"\n" \
	"      --screenshot=PATH     save a PNG of each page's viewport at PATH\n" \
	"                            (a directory: PATH/N.png)\n" \
	"  -q, --quiet               show no progress line on a terminal\n" \
	"      --compact             one JSON line per record, even on a terminal\n" \
	"      --pretty              indented records, even in a pipe\n" \
	"      --max-tokens=N        each page's first N tokens, 100-100000\n" \
	"      --query=TEXT          the sections that answer TEXT, in\n" \
	"                            --max-tokens (default: 1000)\n" \
	"\n" \
	"Browser:\n" \
	"      --attach              attach to the browser at $URLKIT_DEVTOOLS_URL\n" \
	"                            (default: http://127.0.0.1:9222)\n" \
	"      --connect=ADDRESS     attach to the browser at ADDRESS\n" \
	"                            (http://host:port or ws://...)\n" \
	"  -A, --user-agent=STRING   send STRING as the User-Agent\n" \
	"                            (default: the browser's)\n" \
	"  -j, --jobs=N              load up to N pages at once, 1 to 64\n" \
	"                            (default: 1); records stay in input order\n" \
	"  -P, --allow-private       load loopback and private addresses too\n" \
	"  -t, --timeout=SECONDS     give each page SECONDS (default: 30)\n" \
	"      --total-timeout=SECONDS\n" \
	"                            give the whole run SECONDS (default: none)\n" \
	"      --viewport=WxH        the viewport in CSS pixels (default: 1280x720)\n" \
	"  -w, --wait=UNTIL          when a page is ready: load, domcontentloaded,\n" \
	"                            networkidle or selector:CSS (default: load)\n" \
	"\n" \
	"Extraction:\n" \
	"      --explain             what extraction dropped and why, on stderr\n" \
	"      --remove=CSS          drop what CSS matches before extraction\n" \
	"      --select=CSS          the content is what CSS matches (repeatable)\n" \
	"      --whole               the whole page's text, no boilerplate removal\n" \
	"      --links-out           the page's links as data in the record\n" \
	"      --links-max=N         --links-out's links at most (default: 500)\n" \
	"\n" \
	"  -h, --help                the synopsis (-h) or this help (--help)\n" \
	"\n" \
	"Examples:\n" \
	"  pwfetch fetch https://example.org/app/    a page its scripts build, to read\n" \
	"  urlfetch -q URL | jq -r 'select(.needs_browser) | .url' | pwfetch fetch\n" \
	"                                           what urlfetch could not read\n" \
	"\n" \
	"See pwfetch(1).\n"

const struct uk_cli pwfetch_cli_top = { "pwfetch", SYN_CMD SYN_PROG,
	options_top };
const struct uk_cli pwfetch_cli_cmds[3] = {
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

/* -v WIDTHxHEIGHT and -w UNTIL; -1 when the argument is not one. */
static int
parse_viewport(struct run *r, const char *s)
{
	char *x;

	r->o.vw = strtol(s, &x, 10);
	if (x == s || (*x != 'x' && *x != 'X') ||
	    uk_util_parse_long(x + 1, 1, 10000, &r->o.vh) || r->o.vw < 1 ||
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
	OPT_SELECT,
	OPT_REMOVE,
	OPT_WHOLE,
	OPT_EXPLAIN,
	OPT_LINKS_OUT,
	OPT_LINKS_MAX,
	OPT_JSON,
	OPT_MAX_TOKENS,
	OPT_QUERY,
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
		in->src = uk_util_xrealloc(in->src,
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
	case OPT_JSON:
		r->json = 1;
		break;
	case OPT_MAX_TOKENS:
		if (uk_util_parse_long(arg, UK_SLICE_TOKENS_MIN,
			UK_SLICE_TOKENS_MAX, &r->max_tokens))
			uk_cli_usage(cli,
			    "--max-tokens: not a count from %d to %d: '%s'",
			    UK_SLICE_TOKENS_MIN, UK_SLICE_TOKENS_MAX, arg);
		break;
	case OPT_QUERY:
		r->query = arg;
		break;
	case 'j':
		if (uk_util_parse_long(arg, 1, 64, &r->o.jobs))
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
		if (uk_util_parse_seconds(arg, &r->total) || r->total <= 0)
			uk_cli_usage(cli, "--total-timeout: not a duration: '%s'",
			    arg);
		break;
	case 't':
		if (uk_util_parse_seconds(arg, &r->o.timeout) ||
		    r->o.timeout <= 0)
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
	case OPT_SELECT:
		extract_add_selector(cli, "--select", arg, &r->select,
		    &r->xo.nselect);
		r->xo.select = r->select;
		r->o.extract = &r->xo;
		break;
	case OPT_REMOVE:
		extract_add_selector(cli, "--remove", arg, &r->remove,
		    &r->xo.nremove);
		r->xo.remove = r->remove;
		r->o.extract = &r->xo;
		break;
	case OPT_WHOLE:
		r->xo.whole = 1;
		r->o.extract = &r->xo;
		break;
	case OPT_EXPLAIN:
		r->xo.explain = 1;
		r->o.extract = &r->xo;
		break;
	case OPT_LINKS_OUT:
		r->xo.links_out = 1;
		break;
	case OPT_LINKS_MAX:
		if (uk_util_parse_long(arg, 1, 1000000L, &r->xo.links_max))
			uk_cli_usage(cli,
			    "--links-max: not a count from 1 to 1000000: '%s'",
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
		uk_util_die(UK_EXIT_FATAL, "--screenshot: cannot make '%s': %s",
		    shot, strerror(errno));
}

/*
 * The options and operands of a command.  The option string starts with
 * '-' so that operands come back in their places among -i's: the sources
 * are read in command-line order.
 */
void
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
		{ "select", required_argument, NULL, OPT_SELECT },
		{ "remove", required_argument, NULL, OPT_REMOVE },
		{ "whole", no_argument, NULL, OPT_WHOLE },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "links-out", no_argument, NULL, OPT_LINKS_OUT },
		{ "links-max", required_argument, NULL, OPT_LINKS_MAX },
		{ "max-tokens", required_argument, NULL, OPT_MAX_TOKENS },
		{ "query", required_argument, NULL, OPT_QUERY },
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
	/* --links-out reads the rendered HTML from the record (links_out
	 * in pwfetch.c); 2: it is there for that alone and goes after. */
	if (r->xo.links_out && !r->o.html) {
		r->o.html = 1;
		r->xo.links_out = 2;
	}
	check_opts(cli, r, cl->attach);
}
