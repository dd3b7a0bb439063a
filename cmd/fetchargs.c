/* SPDX-License-Identifier: MIT */
/* urlfetch's command line: see fetchargs.h. */
#include <getopt.h>
#include <string.h>

#include "fetchargs.h"
#include "session.h"
#include "util.h"

#include "banned.h"

const char uk_fetchargs_usage[] =
    "usage: urlfetch [-cJkPqrV] [-A agent] [-f format] [-j jobs] [-m max]\n"
    "                [-S session] [-s size] [-t timeout] [-l ttl] [-F count]\n"
    "                [-M tokens] [-D tokens] [-K tokenizer] [-R duration]\n"
    "                [-Z size] [--comments] [--images] [--links]\n"
    "                [--max-pages pages] [file ...]\n"
    "       urlfetch -x file [-T] [-f format] [-u url] [--comments] "
    "[--images]\n"
    "                [--links] [--max-pages pages]\n";

/* Long options without a letter (another issue will share letters
 * across the programs; until then new options are long only). */
enum { OPT_COMMENTS = 256, OPT_IMAGES, OPT_LINKS, OPT_MAX_PAGES };

static const struct option longopts[] = {
	{ "user-agent", required_argument, NULL, 'A' },
	{ "no-cache", no_argument, NULL, 'c' },
	{ "extract", required_argument, NULL, 'x' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "insecure", no_argument, NULL, 'k' },
	{ "max-per-message", required_argument, NULL, 'm' },
	{ "text", no_argument, NULL, 'T' },
	{ "allow-private", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "refresh", no_argument, NULL, 'r' },
	{ "session", required_argument, NULL, 'S' },
	{ "max-size", required_argument, NULL, 's' },
	{ "timeout", required_argument, NULL, 't' },
	{ "ttl", required_argument, NULL, 'l' },
	{ "url", required_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "repo-max-files", required_argument, NULL, 'F' },
	{ "map-json", no_argument, NULL, 'J' },
	{ "map-tokens", required_argument, NULL, 'M' },
	{ "readme-tokens", required_argument, NULL, 'D' },
	{ "tokenizer", required_argument, NULL, 'K' },
	{ "repo-timeout", required_argument, NULL, 'R' },
	{ "repo-max-size", required_argument, NULL, 'Z' },
	{ "format", required_argument, NULL, 'f' },
	{ "comments", no_argument, NULL, OPT_COMMENTS },
	{ "images", no_argument, NULL, OPT_IMAGES },
	{ "links", no_argument, NULL, OPT_LINKS },
	{ "max-pages", required_argument, NULL, OPT_MAX_PAGES },
	{ NULL, 0, NULL, 0 },
};

void
uk_fetchargs_init(struct uk_fetchargs *a)
{
	memset(a, 0, sizeof(*a));
	a->max_per_msg = 3;
}

/*
 * The options of one kind (a repository's, or extraction's): 1 when c was
 * one of them and its value is good, 0 when c is not one of them, -1 with
 * err (UK_EXIT_USAGE) for a bad value.
 */
static int
repo_opt(int c, struct uk_fetch_opts *fo, struct uk_err *err)
{
	unsigned long long size;
	double secs;
	long n;

	switch (c) {
	case 'F':
		if (uk_parse_long(optarg, 1, 100000000L, &n))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-F: not a count: '%s'", optarg);
		fo->repo.max_files = (unsigned long)n;
		return 1;
	case 'J':
		fo->repo.map_json = 1;
		return 1;
	case 'M':
		if (uk_parse_long(optarg, 0, 100000000L,
			&fo->repo.map_tokens))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-M: not a token count: '%s'", optarg);
		return 1;
	case 'D':
		if (uk_parse_long(optarg, 0, 100000000L,
			&fo->repo.readme_tokens))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-D: not a token count: '%s'", optarg);
		return 1;
	case 'K':
		if (uk_tokens_parse(optarg, &fo->repo.tokenizer))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-K: not a tokenizer (cl100k_base, "
			    "o200k_base): '%s'", optarg);
		return 1;
	case 'R':
		if (uk_parse_seconds(optarg, &secs) || secs <= 0)
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-R: not a duration: '%s'", optarg);
		fo->repo.timeout = secs;
		return 1;
	case 'Z':
		if (uk_parse_size(optarg, &size) || size == 0)
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-Z: not a size: '%s'", optarg);
		fo->repo.max_bytes = size;
		return 1;
	default:
		return 0;
	}
}

static int
extract_opt(int c, struct uk_fetch_opts *fo, struct uk_err *err)
{
	long n;

	switch (c) {
	case 'f':
		if (!strcmp(optarg, "text"))
			fo->extract.format = UK_EXTRACT_TEXT;
		else if (!strcmp(optarg, "markdown") ||
		    !strcmp(optarg, "md"))
			fo->extract.format = UK_EXTRACT_MARKDOWN;
		else
			return uk_err_set(err, UK_EXIT_USAGE,
			    "-f: not text or markdown: '%s'", optarg);
		return 1;
	case OPT_COMMENTS:
		fo->extract.comments = 1;
		return 1;
	case OPT_IMAGES:
		fo->extract.images = 1;
		return 1;
	case OPT_LINKS:
		fo->extract.links = 1;
		return 1;
	case OPT_MAX_PAGES:
		if (uk_parse_long(optarg, 1, 1000000L, &n))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "--max-pages: not a count from 1 to "
			    "1000000: '%s'",
			    optarg);
		fo->extract.max_pages = (int)n;
		return 1;
	default:
		return 0;
	}
}

int
uk_fetchargs_parse(struct uk_fetchargs *a, int argc, char **argv,
    struct uk_err *err)
{
	struct uk_fetch_opts *fo = &a->fo;
	unsigned long long size;
	double secs;
	int c, r;

	while (
	    (c = getopt_long(argc, argv, "A:cD:f:F:j:JK:kM:l:m:PqR:rS:s:t:Tu:x:Z:hV",
		 longopts, NULL)) != -1) {
		switch (c) {
		case 'A':
			fo->http.user_agent = optarg;
			break;
		case 'c':
			fo->use_cache = 0;
			break;
		case 'x':
			a->extract = optarg;
			break;
		case 'j':
			if (uk_parse_long(optarg, 1, 1000, &fo->http.jobs))
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-j: not a count from 1 to 1000: '%s'",
				    optarg);
			break;
		case 'k':
			fo->http.insecure = 1;
			break;
		case 'm':
			if (uk_parse_long(optarg, 0, 1000000000L,
				&a->max_per_msg))
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-m: not a count: '%s'", optarg);
			break;
		case 'T':
			a->text = 1;
			break;
		case 'P':
			fo->http.allow_private = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'r':
			fo->refresh = 1;
			break;
		case 'S':
			if (!uk_session_name_ok(optarg))
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-S: not a session name: '%s'", optarg);
			a->session = optarg;
			break;
		case 's':
			if (uk_parse_size(optarg, &size) || size == 0)
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-s: not a size: '%s'", optarg);
			fo->http.max_size = size;
			break;
		case 't':
			if (uk_parse_seconds(optarg, &secs) || secs <= 0)
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-t: not a duration: '%s'", optarg);
			fo->http.timeout = secs;
			break;
		case 'l':
			if (uk_parse_seconds(optarg, &secs) || secs < 0 ||
			    secs > 1e12)
				return uk_err_set(err, UK_EXIT_USAGE,
				    "-l: not a duration: '%s'", optarg);
			fo->ttl = (long)secs;
			break;
		case 'u':
			a->url = optarg;
			break;
		case 'h':
			a->help = 1;
			return 0;
		case 'V':
			a->version = 1;
			return 0;
		default:
			r = repo_opt(c, fo, err);
			if (!r)
				r = extract_opt(c, fo, err);
			if (r < 0)
				return -1;
			if (!r)
				return uk_err_set(err, UK_EXIT_USAGE, "%s", "");
		}
	}
	a->argc = argc - optind;
	a->argv = argv + optind;
	if (a->extract && a->argc)
		return uk_err_set(err, UK_EXIT_USAGE, "-x takes no operands");
	if (!a->extract && (a->text || a->url))
		return uk_err_set(err, UK_EXIT_USAGE, "-T and -u go with -x");
	return 0;
}
