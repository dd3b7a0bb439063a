/* SPDX-License-Identifier: MIT */
/* urlfetch's command line: see urlfetch.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_remote.h"
#include "cli.h"
#include "diff.h"
#include "session.h"
#include "slice.h"
#include "urlextract.h"
#include "urlfetch.h"
#include "util.h"

#include "banned.h"

static const char synopsis[] =
    "usage: urlfetch [-CJkPqrTV] [-A agent] [-f format] [-i file] [-j jobs] [-m max]\n"
    "                [-o file] [-S session] [-s size] [-t timeout] [--per-host n]\n"
    "                [--ttl ttl] [-F count] [-M tokens] [-D tokens] [-K tokenizer]\n"
    "                [-R duration] [-Z size] [--comments] [--images] [--links]\n"
    "                [--max-pages pages] [--explain] [--whole] [--remove css]\n"
    "                [--select css] [--pack tokens] [--include glob] [--exclude glob]\n"
    "                [--header] [--max-tokens tokens] [--offset offset]\n"
    "                [--query text] [--json] [--markdown] [--cache-remote stores]\n"
    "                [--links-out] [--links-max n] [--no-negotiate] [--diff]\n"
    "                [--diff-lines lines] [url ...]\n";

static const char options[] =
    "Fetch URLs; write one content record each (on a terminal: pages to read).\n"
    "\n"
    "Input:\n"
    "  -i, --input=FILE          read records or URLs from FILE ('-': stdin)\n"
    "  -m, --max-per-message=N   URLs fetched per message, 0: all (default: 3)\n"
    "\n"
    "Output:\n"
    "  -f, --format=FORMAT       content as text or markdown (default: text)\n"
    "      --markdown            the same as -f markdown\n"
    "  -T, --text                print each page's text, not records\n"
    "      --header              -T: the header ==> URL <== even for one URL\n"
    "      --json                records, even on a terminal; not -T's text\n"
    "      --max-tokens=N        each page's slice of N tokens, 100-100000\n"
    "      --offset=N            the slice from character N (default: 0)\n"
    "      --query=TEXT          the sections that answer TEXT (default: 1000 tokens)\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "  -q, --quiet               no progress line\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "\n"
    "Network:\n"
    "  -A, --user-agent=STRING   send STRING as the User-Agent (default: a browser's)\n"
    "  -j, --jobs=N              transfers at once (default: 8)\n"
    "  -k, --insecure            do not verify TLS certificates\n"
    "      --no-negotiate        ask for HTML only, not the site's Markdown\n"
    "  -P, --allow-private       allow internal addresses and local repositories\n"
    "      --per-host=N          transfers at once to one host, 1-64 (default: 3)\n"
    "  -s, --max-size=SIZE       the largest body (default: 20M)\n"
    "  -t, --timeout=SECONDS     one transfer's time limit (default: 30)\n"
    "\n"
    "Cache:\n"
    "      --cache-remote=STORES remote stores behind the cache (redis://, http://)\n"
    "  -C, --no-cache            neither read nor write the cache\n"
    "      --diff                a page fetched again and changed: its diff\n"
    "      --diff-lines=N        --diff's lines at most (default: 200)\n"
    "  -r, --refresh             fetch again, even what is cached\n"
    "  -S, --session=NAME        also add the records to session NAME\n"
    "      --ttl=DURATION        the cache's time to live (default: 1d)\n"
    "\n"
    "Extraction:\n"
    "      --comments            also extract the comment section\n"
    "      --explain             what extraction dropped and why, on stderr\n"
    "      --images              keep images in Markdown\n"
    "      --links               keep links in Markdown\n"
    "      --links-out           the page's links as data in the record\n"
    "      --links-max=N         --links-out's links at most (default: 500)\n"
    "      --max-pages=N         PDF pages extracted (default: 200)\n"
    "      --remove=CSS          drop what CSS matches before extraction\n"
    "      --select=CSS          the content is what CSS matches (repeatable)\n"
    "      --whole               the whole page's text, no boilerplate removal\n"
    "\n"
    "Repositories:\n"
    "  -D, --readme-tokens=N     a repository's README budget (default: 2048)\n"
    "      --exclude=GLOB        a repository's files to leave out (repeatable)\n"
    "  -F, --repo-max-files=N    files read from a repository (default: 50000)\n"
    "      --include=GLOB        a repository's files to read (repeatable)\n"
    "  -J, --map-json            also the repository's symbols as data\n"
    "  -K, --tokenizer=NAME      cl100k_base or o200k_base (default: cl100k_base)\n"
    "  -M, --map-tokens=N        a repository's symbol map budget (default: 1024)\n"
    "      --pack=N              a repository's best files whole, N tokens\n"
    "  -R, --repo-timeout=SECS   a repository's time limit (default: 120)\n"
    "  -Z, --repo-max-size=SIZE  a repository's largest download (default: 256M)\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urlfetch https://jqlang.github.io/jq/manual/    the page, to read\n"
    "  urldetect notes.txt | urlfetch | jq -r .title   every URL of a text\n"
    "  urlfetch -T --query 'how to install' URL        the part that answers it\n"
    "\n"
    "See urlfetch(1); local files: urlextract(1).\n";

const struct uk_cli urlfetch_cli = { "urlfetch", synopsis, options };

/*
 * Long options without a letter (urlkit(7)'s table has none for them),
 * after extraction's.
 */
enum {
	OPT_TTL = OPT_X_END,
	OPT_PER_HOST,
	OPT_PACK,
	OPT_INCLUDE,
	OPT_EXCLUDE,
	OPT_HEADER,
	OPT_JSON,
	OPT_MAX_TOKENS,
	OPT_OFFSET,
	OPT_QUERY,
	OPT_CACHE_REMOTE,
	OPT_NO_NEGOTIATE,
	OPT_DIFF,
	OPT_DIFF_LINES,
};

static const struct option longopts[] = {
	{ "user-agent", required_argument, NULL, 'A' },
	{ "base", required_argument, NULL, 'B' },
	{ "no-cache", no_argument, NULL, 'C' },
	{ "readme-tokens", required_argument, NULL, 'D' },
	{ "format", required_argument, NULL, 'f' },
	{ "repo-max-files", required_argument, NULL, 'F' },
	{ "input", required_argument, NULL, 'i' },
	{ "map-json", no_argument, NULL, 'J' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "tokenizer", required_argument, NULL, 'K' },
	{ "insecure", no_argument, NULL, 'k' },
	{ "map-tokens", required_argument, NULL, 'M' },
	{ "max-per-message", required_argument, NULL, 'm' },
	{ "output", required_argument, NULL, 'o' },
	{ "allow-private", no_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "repo-timeout", required_argument, NULL, 'R' },
	{ "refresh", no_argument, NULL, 'r' },
	{ "session", required_argument, NULL, 'S' },
	{ "max-size", required_argument, NULL, 's' },
	{ "text", no_argument, NULL, 'T' },
	{ "timeout", required_argument, NULL, 't' },
	/* urlextract's: a usage error that names it. */
	{ "extract", optional_argument, NULL, 'x' },
	{ "repo-max-size", required_argument, NULL, 'Z' },
	{ "version", no_argument, NULL, 'V' },
	{ "ttl", required_argument, NULL, OPT_TTL },
	{ "per-host", required_argument, NULL, OPT_PER_HOST },
	{ "pack", required_argument, NULL, OPT_PACK },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max-tokens", required_argument, NULL, OPT_MAX_TOKENS },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "query", required_argument, NULL, OPT_QUERY },
	{ "cache-remote", required_argument, NULL, OPT_CACHE_REMOTE },
	{ "no-negotiate", no_argument, NULL, OPT_NO_NEGOTIATE },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "diff-lines", required_argument, NULL, OPT_DIFF_LINES },
	EXTRACT_LONGOPTS,
	UK_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

void
urlfetch_args_init(struct urlfetch_args *a)
{
	memset(a, 0, sizeof(*a));
	a->max_per_msg = 3;
}

void
urlfetch_args_release(struct urlfetch_args *a)
{
	extract_args_release(&a->ea);
	free(a->in);
	a->in = NULL;
	a->nin = 0;
	free((void *)a->fo.repo.include);
	free((void *)a->fo.repo.exclude);
	a->fo.repo.include = a->fo.repo.exclude = NULL;
	a->fo.repo.ninclude = a->fo.repo.nexclude = 0;
}

static void
add_input(struct urlfetch_args *a, const char *arg, int file)
{
	a->in = uk_util_xrealloc(a->in, ((size_t)a->nin + 1) * sizeof(*a->in));
	a->in[a->nin].arg = arg;
	a->in[a->nin].file = file;
	a->nin++;
}

#define BAD(...) uk_cli_usage(&urlfetch_cli, __VA_ARGS__)

/* A size with its unit (uk_cli_size), not 0. */
static unsigned long long
size_arg(const char *opt, const char *s)
{
	unsigned long long size;

	if (uk_cli_size(s, &size) || size == 0)
		BAD("%s: not a size with a unit (K, M, G): '%s'", opt, s);
	return size;
}

/* --include or --exclude: one more glob (freed by urlfetch_args_release). */
static void
add_glob(const char *const **v, size_t *n, const char *g)
{
	const char **nv = uk_util_xrealloc((void *)*v, (*n + 1) * sizeof(*nv));

	if (!*g)
		BAD("--include, --exclude: an empty pattern");
	nv[(*n)++] = g;
	*v = nv;
}

/* A repository's options: 1 when c was one of them, else 0. */
static int
repo_opt(int c, struct uk_fetch_opts *fo)
{
	double secs;
	long n;

	switch (c) {
	case 'F':
		if (uk_util_parse_long(optarg, 1, 100000000L, &n))
			BAD("-F: not a count: '%s'", optarg);
		fo->repo.max_files = (unsigned long)n;
		return 1;
	case 'J':
		fo->repo.map_json = 1;
		return 1;
	case 'M':
		if (uk_util_parse_long(optarg, 0, 100000000L,
			&fo->repo.map_tokens))
			BAD("-M: not a token count: '%s'", optarg);
		return 1;
	case 'D':
		if (uk_util_parse_long(optarg, 0, 100000000L,
			&fo->repo.readme_tokens))
			BAD("-D: not a token count: '%s'", optarg);
		return 1;
	case 'K':
		if (uk_tokens_name_parse(optarg, &fo->repo.tokenizer))
			BAD("-K: not a tokenizer (cl100k_base, o200k_base): "
			    "'%s'",
			    optarg);
		return 1;
	case 'R':
		if (uk_util_parse_seconds(optarg, &secs) || secs <= 0)
			BAD("-R: not a duration: '%s'", optarg);
		fo->repo.timeout = secs;
		return 1;
	case 'Z':
		fo->repo.max_bytes = size_arg("-Z", optarg);
		return 1;
	case OPT_PACK:
		if (uk_util_parse_long(optarg, 1, 100000000L,
			&fo->repo.pack_tokens))
			BAD("--pack: not a token count: '%s'", optarg);
		return 1;
	case OPT_INCLUDE:
	case OPT_EXCLUDE:
		add_glob(c == OPT_INCLUDE ? &fo->repo.include :
					    &fo->repo.exclude,
		    c == OPT_INCLUDE ? &fo->repo.ninclude : &fo->repo.nexclude,
		    optarg);
		return 1;
	default:
		return 0;
	}
}

/* The network's options: 1 when c was one of them, else 0. */
static int
net_opt(int c, struct urlfetch_args *a)
{
	struct uk_fetch_opts *fo = &a->fo;
	double secs;

	switch (c) {
	case 'A':
		fo->http.user_agent = optarg;
		return 1;
	case 'C':
		fo->use_cache = 0;
		return 1;
	case OPT_CACHE_REMOTE: {
		struct uk_cache_remote *r;
		struct uk_err e;

		/* Checked here, a usage error; then as URLKIT_CACHE_REMOTE,
		 * which uk_cache_open reads. */
		if (uk_cache_remote_open(&r, optarg, NULL, &e))
			BAD("--cache-remote: %s", e.msg);
		uk_cache_remote_free(r);
		if (setenv("URLKIT_CACHE_REMOTE", optarg, 1))
			BAD("--cache-remote: out of memory");
		return 1;
	}
	case 'j':
		if (uk_util_parse_long(optarg, 1, 1000, &fo->http.jobs))
			BAD("-j: not a count from 1 to 1000: '%s'", optarg);
		return 1;
	case 'k':
		fo->http.insecure = 1;
		return 1;
	case 'm':
		if (uk_util_parse_long(optarg, 0, 1000000000L, &a->max_per_msg))
			BAD("-m: not a count: '%s'", optarg);
		return 1;
	case 'P':
		fo->http.allow_private = 1;
		return 1;
	case OPT_NO_NEGOTIATE:
		fo->no_negotiate = 1;
		return 1;
	case 'q':
		a->quiet = 1;
		return 1;
	case 'r':
		fo->refresh = 1;
		return 1;
	case 'S':
		if (!uk_session_name_ok(optarg))
			BAD("-S: not a session name: '%s'", optarg);
		a->session = optarg;
		return 1;
	case 's':
		fo->http.max_size = size_arg("-s", optarg);
		return 1;
	case 't':
		if (uk_util_parse_seconds(optarg, &secs) || secs <= 0)
			BAD("-t: not a duration: '%s'", optarg);
		fo->http.timeout = secs;
		return 1;
	case OPT_TTL:
		if (uk_util_parse_seconds(optarg, &secs) || secs < 0 ||
		    secs > 1e12)
			BAD("--ttl: not a duration: '%s'", optarg);
		fo->ttl = (long)secs;
		return 1;
	case OPT_PER_HOST:
		if (uk_util_parse_long(optarg, 1, 64, &fo->http.per_host))
			BAD("--per-host: not a count from 1 to 64: '%s'",
			    optarg);
		return 1;
	default:
		return 0;
	}
}

void
urlfetch_args_parse(struct urlfetch_args *a, int argc, char **argv)
{
	int c, i;

	/* '-': operands come back in their place among the options (as 1),
	 * so that URLs and -i files are read in command-line order. */
	extract_args_init(&a->ea, &a->fo.extract);
	while ((c = uk_cli_getopt(&urlfetch_cli, argc, argv,
		    "-A:B:CD:f:F:hi:j:JK:kM:m:o:PqR:rS:s:t:TVxZ:",
		    longopts)) != -1) {
		switch (c) {
		case 1:
			add_input(a, optarg, 0);
			break;
		case 'i':
			add_input(a, optarg, 1);
			break;
		case 'x':
			BAD("-x: local files are urlextract's: "
			    "urlextract [-B url] file ...");
		case 'B':
			BAD("-B: a local file's address is urlextract's: "
			    "urlextract -B url file");
		case 'o':
			if (!*optarg)
				BAD("-o: an empty file name");
			a->output = optarg;
			break;
		case 'T':
			a->text = 1;
			a->json = 0;
			break;
		case OPT_JSON:
			a->text = 0; /* the last of -T and --json counts */
			a->json = 1;
			break;
		case OPT_HEADER:
			a->header = 1;
			break;
		case OPT_MAX_TOKENS:
			if (uk_util_parse_long(optarg, UK_SLICE_TOKENS_MIN,
				UK_SLICE_TOKENS_MAX, &a->max_tokens))
				BAD("--max-tokens: not a count from %d to %d: "
				    "'%s'",
				    UK_SLICE_TOKENS_MIN, UK_SLICE_TOKENS_MAX,
				    optarg);
			break;
		case OPT_OFFSET:
			if (uk_util_parse_long(optarg, 0, 1L << 40, &a->offset))
				BAD("--offset: not a character offset: '%s'",
				    optarg);
			break;
		case OPT_DIFF:
			if (!a->diff_lines)
				a->diff_lines = UK_DIFF_LINES_DEFAULT;
			break;
		case OPT_DIFF_LINES:
			if (uk_util_parse_long(optarg, 3, 1000000,
				&a->diff_lines))
				BAD("--diff-lines: not a count from 3 to "
				    "1000000: '%s'",
				    optarg);
			break;
		case OPT_QUERY:
			a->query = optarg;
			break;
		default:
			if (!net_opt(c, a) && !repo_opt(c, &a->fo) &&
			    !extract_opt(&urlfetch_cli, c, &a->ea))
				uk_cli_usage(&urlfetch_cli, NULL);
		}
	}
	/* After "--": operands only. */
	for (i = optind; i < argc; i++)
		add_input(a, argv[i], 0);
	if (a->header && !a->text)
		BAD("--header: the header of -T's text; use it with -T");
	if (a->diff_lines && !a->fo.use_cache)
		BAD("--diff: a diff against the cache's entry; not with -C");
	if (a->offset && a->query)
		BAD("--offset and --query: one or the other");
	/* An offset alone: the slice of fetch_url's default size. */
	if (a->offset && !a->max_tokens)
		a->max_tokens = UK_SLICE_TOKENS_DEFAULT;
}
