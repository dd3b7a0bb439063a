/* SPDX-License-Identifier: MIT */
/* urlmap's command line: the usage text and the options. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "date.h"
#include "http.h"
#include "util.h"
#include "urlmap.h"

#include "banned.h"

static const char synopsis[] =
    "usage: urlmap [-CPkquV] [-I glob] [-i file] [-o file] [-s size]\n"
    "              [-t seconds] [-W seconds] [-X glob] [--any-host] [--crawl]\n"
    "              [--depth n] [--ignore-robots] [--limit n] [--max-memory size]\n"
    "              [--no-feeds] [--no-llms] [--no-sitemaps] [--since date]\n"
    "              [--subdomains] [url ...]\n";

static const char options[] =
    "Write the URLs of a site as url records: from its robots.txt, sitemaps,\n"
    "feeds and llms.txt, and with --crawl from the links of its pages.\n"
    "\n"
    "Input:\n"
    "  -i, --input=FILE          url records or URLs from FILE (- is stdin)\n"
    "\n"
    "Sources:\n"
    "      --crawl               follow the links of pages, breadth first\n"
    "      --depth=N             crawl N links deep (default: 3)\n"
    "      --no-feeds            do not read feeds\n"
    "      --no-llms             do not read /llms.txt\n"
    "      --no-sitemaps         do not read sitemaps\n"
    "      --ignore-robots       do not honour robots.txt's rules\n"
    "      --max-memory=SIZE     cap on the seen set and the frontier (64M)\n"
    "\n"
    "Filters:\n"
    "      --any-host            keep URLs of any host (default: the start URL's)\n"
    "      --subdomains          keep URLs of the start host's subdomains too\n"
    "  -I, --include=GLOB        keep only paths matching GLOB (repeatable)\n"
    "  -X, --exclude=GLOB        drop paths matching GLOB (repeatable)\n"
    "      --since=DATE          only URLs whose lastmod is DATE or later\n"
    "      --limit=N             at most N records, after the filters (0: all)\n"
    "\n"
    "Output:\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "  -u, --urls                print bare URLs, not records\n"
    "  -q, --quiet               no progress line\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "\n"
    "Network:\n"
    "  -P, --allow-private       allow private and loopback addresses\n"
    "  -k, --insecure            do not verify TLS certificates\n"
    "  -W, --delay=SECONDS       between requests to one host (crawl: 0.5)\n"
    "  -s, --max-size=SIZE       largest document read (default: 50M)\n"
    "  -t, --timeout=SECONDS     one request's limit (default: 30)\n"
    "\n"
    "Cache:\n"
    "  -C, --no-cache            neither read nor write the cache\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urlmap -u https://example.org/                  the site's URLs, one a line\n"
    "  urlmap --crawl --depth 1 https://example.org/   and the links of its pages\n"
    "  urlmap --since 2026-11-01 https://example.org/  what changed since November\n"
    "\n"
    "See urlmap(1).\n";

static const struct uk_cli cli = { "urlmap", synopsis, options };

struct urlmap_opt opt = { .depth = 3, .delay = -1, .max_memory = 64ULL << 20 };

static void
add_glob(const char ***v, size_t *n, const char *g)
{
	*v = uk_util_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = g;
}

/* The options without a short name. */
enum {
	OPT_ANY_HOST = UK_OPT_FIRST, OPT_CRAWL, OPT_DEPTH,
	OPT_IGNORE_ROBOTS, OPT_LIMIT, OPT_MAX_MEMORY, OPT_NO_FEEDS,
	OPT_NO_LLMS, OPT_NO_SITEMAPS, OPT_SINCE, OPT_SUBDOMAINS
};

static const struct option longopts[] = {
	{ "allow-private", no_argument, NULL, 'P' },
	{ "any-host", no_argument, NULL, OPT_ANY_HOST },
	{ "crawl", no_argument, NULL, OPT_CRAWL },
	{ "delay", required_argument, NULL, 'W' },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "exclude", required_argument, NULL, 'X' },
	{ "ignore-robots", no_argument, NULL, OPT_IGNORE_ROBOTS },
	{ "include", required_argument, NULL, 'I' },
	{ "input", required_argument, NULL, 'i' },
	{ "insecure", no_argument, NULL, 'k' },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "max-size", required_argument, NULL, 's' },
	{ "no-cache", no_argument, NULL, 'C' },
	{ "no-feeds", no_argument, NULL, OPT_NO_FEEDS },
	{ "no-llms", no_argument, NULL, OPT_NO_LLMS },
	{ "no-sitemaps", no_argument, NULL, OPT_NO_SITEMAPS },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "subdomains", no_argument, NULL, OPT_SUBDOMAINS },
	{ "timeout", required_argument, NULL, 't' },
	{ "urls", no_argument, NULL, 'u' },
	{ "version", no_argument, NULL, 'V' },
	UK_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

int
parse_opts(int argc, char **argv, struct uk_http_opts *ho)
{
	int c;

	while ((c = uk_cli_getopt(&cli, argc, argv, "ChI:i:ko:Pqs:t:uVW:X:",
		    longopts)) != -1) {
		switch (c) {
		case OPT_ANY_HOST:
			opt.any_host = 1;
			break;
		case OPT_CRAWL:
			opt.crawl = 1;
			break;
		case OPT_DEPTH:
			if (uk_util_parse_long(optarg, 0, 1000, &opt.depth))
				uk_cli_usage(&cli, "--depth: not a count from "
				    "0 to 1000: '%s'", optarg);
			break;
		case OPT_IGNORE_ROBOTS:
			opt.ignore_robots = 1;
			break;
		case OPT_LIMIT:
			if (uk_util_parse_long(optarg, 0, 1000000000L,
				&opt.limit))
				uk_cli_usage(&cli, "--limit: not a count: '%s'",
				    optarg);
			break;
		case OPT_MAX_MEMORY:
			if (uk_cli_size(optarg, &opt.max_memory) ||
			    !opt.max_memory)
				uk_cli_usage(&cli, "--max-memory: not a size "
				    "(such as 64M): '%s'", optarg);
			break;
		case OPT_NO_FEEDS:
			opt.no_feeds = 1;
			break;
		case OPT_NO_LLMS:
			opt.no_llms = 1;
			break;
		case OPT_NO_SITEMAPS:
			opt.no_sitemaps = 1;
			break;
		case OPT_SINCE:
			if (uk_date_parse(optarg, &opt.since))
				uk_cli_usage(&cli, "--since: not a date "
				    "(2026-11-01, 2026-11-01T12:00:00Z): '%s'",
				    optarg);
			opt.have_since = 1;
			break;
		case OPT_SUBDOMAINS:
			opt.subdomains = 1;
			break;
		case 'C':
			opt.no_cache = 1;
			break;
		case 'I':
			add_glob(&opt.include, &opt.ninclude, optarg);
			break;
		case 'i':
			add_glob(&opt.inputs, &opt.ninputs, optarg);
			break;
		case 'k':
			ho->insecure = 1;
			break;
		case 'o':
			if (!*optarg)
				uk_cli_usage(&cli, "-o: an empty file name");
			opt.output = optarg;
			break;
		case 'P':
			ho->allow_private = 1;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 's':
			if (uk_cli_size(optarg, &ho->max_size) || !ho->max_size)
				uk_cli_usage(&cli, "-s: not a size (such as "
				    "50M): '%s'", optarg);
			break;
		case 't':
			if (uk_util_parse_seconds(optarg, &ho->timeout) ||
			    ho->timeout <= 0)
				uk_cli_usage(&cli, "-t: not a duration: '%s'",
				    optarg);
			break;
		case 'u':
			opt.urls = 1;
			break;
		case 'W':
			if (uk_util_parse_seconds(optarg, &opt.delay))
				uk_cli_usage(&cli, "-W: not a duration: '%s'",
				    optarg);
			break;
		case 'X':
			add_glob(&opt.exclude, &opt.nexclude, optarg);
			break;
		default:
			uk_cli_usage(&cli, NULL);
		}
	}
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&cli, "-o: cannot open '%s': %s", opt.output,
		    strerror(errno));
	return optind;
}
