/* SPDX-License-Identifier: MIT */
/* urldetect's command line: the usage text and the options. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "url.h"
#include "util.h"
#include "urldetect.h"
#include "banned.h"

static const char synopsis[] =
    "usage: urldetect [-aHLquV] [-m max] [-o file] [-y type] [--bare]\n"
    "                 [--classify] [--json field] [--no-filename] [file ...]\n";

static const char options[] =
    "Find the URLs in text; write one url record per URL.\n"
    "\n"
    "Input:\n"
    "  -a, --all                 every occurrence, not only a message's first\n"
    "      --bare                also URLs without a scheme (github.com/o/r)\n"
    "      --classify            classify url records or bare URLs again\n"
    "      --json=FIELD          read JSON Lines, each record's FIELD a message\n"
    "  -L, --lines               each line is a message\n"
    "  -m, --max-per-message=N   URLs per message, 0: all (default: 0)\n"
    "  -y, --type=TYPE           keep only URLs of TYPE (github_repo, web, ...)\n"
    "\n"
    "Output:\n"
    "  -H, --with-filename       add each record's file (default: several files)\n"
    "      --no-filename         no file, even with several files\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "  -q, --quiet               print nothing; exit 0 when a URL is found\n"
    "  -u, --urls                print bare URLs, not records\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urldetect notes.txt                       a record per URL of a file\n"
    "  urldetect -u -y github_repo notes.txt     its repositories, one a line\n"
    "  urldetect --bare -u notes.txt             also URLs without a scheme\n"
    "\n"
    "See urldetect(1).\n";


const struct uk_cli urldetect_cli = { "urldetect", synopsis, options };

int
urldetect_opts_parse(int argc, char **argv)
{
	enum { OPT_BARE = UK_OPT_FIRST, OPT_CLASSIFY, OPT_JSON,
		OPT_NO_FILENAME };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "bare", no_argument, NULL, OPT_BARE },
		{ "classify", no_argument, NULL, OPT_CLASSIFY },
		{ "with-filename", no_argument, NULL, 'H' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "lines", no_argument, NULL, 'L' },
		{ "max-per-message", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'm' }, /* its old name */
		{ "no-filename", no_argument, NULL, OPT_NO_FILENAME },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "type", required_argument, NULL, 'y' },
		{ "urls", no_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const struct uk_cli *cli = &urldetect_cli;
	int c;

	while ((c = uk_cli_getopt(cli, argc, argv, "aHhLm:o:quVy:",
		    longopts)) != -1) {
		switch (c) {
		case 'a':
			opt.all = 1;
			break;
		case OPT_BARE:
			opt.bare = 1;
			break;
		case OPT_CLASSIFY:
			opt.classify = 1;
			break;
		case 'H':
			opt.with_filename = 1;
			break;
		case OPT_NO_FILENAME:
			opt.with_filename = 0;
			break;
		case OPT_JSON:
			opt.field = optarg;
			break;
		case 'L':
			opt.lines = 1;
			break;
		case 'm':
			if (uk_util_parse_long(optarg, 0, 1000000000L,
				&opt.max))
				uk_cli_usage(cli, "-m: not a count: '%s'",
				    optarg);
			break;
		case 'o':
			if (!*optarg)
				uk_cli_usage(cli, "-o: an empty file name");
			opt.output = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'y':
			if ((opt.type = uk_url_type_parse(optarg)) < 0)
				uk_cli_usage(cli, "-y: unknown type '%s'",
				    optarg);
			break;
		case 'u':
			opt.urls = 1;
			break;
		default:
			uk_cli_usage(cli, NULL);
		}
	}
	if ((opt.field != NULL) + opt.classify + opt.lines > 1)
		uk_cli_usage(cli, "--classify, --json and -L do not go together");
	return optind;
}
