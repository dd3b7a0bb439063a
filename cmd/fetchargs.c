/* SPDX-License-Identifier: MIT */
/* urlfetch's command line: see fetchargs.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "extract_select.h"
#include "fetchargs.h"
#include "session.h"
#include "util.h"

#include "banned.h"

static const char synopsis[] =
    "usage: urlfetch [-CJkPqrTV] [-A agent] [-f format] [-i file] [-j jobs]\n"
    "                [-m max] [-o file] [-S session] [-s size] [-t timeout]\n"
    "                [--per-host n] [--ttl ttl] [-F count] [-M tokens]\n"
    "                [-D tokens] [-K tokenizer] [-R duration] [-Z size]\n"
    "                [--comments] [--images] [--links] [--max-pages pages]\n"
    "                [--explain] [--whole] [--remove css] [--select css]\n"
    "                [--pack tokens] [--include glob] [--exclude glob]\n"
    "                [--cache-remote stores] [url ...]\n"
    "       urlfetch -x file [-T] [-B url] [-f format] [-o file] [--comments]\n"
    "                [--images] [--links] [--max-pages pages] [--explain]\n"
    "                [--whole] [--remove css] [--select css] [file ...]\n";

static const char options[] =
    "Fetch URLs, or extract local files; write one content record each.\n"
    "\n"
    "  -A, --user-agent=STRING   send STRING as the User-Agent (default: a browser's)\n"
    "  -B, --base=URL            with -x, the page's address (default: file://PATH)\n"
    "      --cache-remote=STORES remote stores behind the cache (redis://, http://)\n"
    "  -C, --no-cache            neither read nor write the cache\n"
    "      --comments            also extract the comment section\n"
    "      --explain             what extraction dropped and why, on stderr\n"
    "  -D, --readme-tokens=N     a repository's README budget (default: 2048)\n"
    "      --exclude=GLOB        a repository's files to leave out (repeatable)\n"
    "  -F, --repo-max-files=N    files read from a repository (default: 50000)\n"
    "  -f, --format=FORMAT       content as text or markdown (default: text)\n"
    "  -i, --input=FILE          read records or URLs from FILE ('-': stdin)\n"
    "      --images              keep images in Markdown\n"
    "      --include=GLOB        a repository's files to read (repeatable)\n"
    "  -J, --map-json            also the repository's symbols as data\n"
    "  -j, --jobs=N              transfers at once (default: 8)\n"
    "  -K, --tokenizer=NAME      cl100k_base or o200k_base (default: cl100k_base)\n"
    "  -k, --insecure            do not verify TLS certificates\n"
    "      --links               keep links in Markdown\n"
    "  -M, --map-tokens=N        a repository's symbol map budget (default: 1024)\n"
    "  -m, --max-per-message=N   URLs fetched per message, 0: all (default: 3)\n"
    "      --max-pages=N         PDF pages extracted (default: 200)\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "      --pack=N              a repository's best files whole, N tokens\n"
    "  -P, --allow-private       allow internal addresses and local repositories\n"
    "      --per-host=N          transfers at once to one host, 1-64 (default: 3)\n"
    "  -q, --quiet               no progress line\n"
    "  -R, --repo-timeout=SECS   a repository's time limit (default: 120)\n"
    "  -r, --refresh             fetch again, even what is cached\n"
    "      --remove=CSS          drop what CSS matches before extraction\n"
    "  -S, --session=NAME        also add the records to session NAME\n"
    "      --select=CSS          the content is what CSS matches (repeatable)\n"
    "  -s, --max-size=SIZE       the largest body (default: 20M)\n"
    "  -T, --text                print each page's text, not records\n"
    "  -t, --timeout=SECONDS     one transfer's time limit (default: 30)\n"
    "      --ttl=DURATION        the cache's time to live (default: 1d)\n"
    "      --whole               the whole page's text, no boilerplate removal\n"
    "  -x, --extract=FILE        extract local files, no network\n"
    "  -Z, --repo-max-size=SIZE  a repository's largest download (default: 256M)\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "See urlfetch(1).\n";

const struct uk_cli uk_fetchargs_cli = { "urlfetch", synopsis, options };

/* Long options without a letter (urlkit(7)'s table has none for them). */
enum {
	OPT_COMMENTS = UK_OPT_FIRST,
	OPT_IMAGES,
	OPT_LINKS,
	OPT_MAX_PAGES,
	OPT_TTL,
	OPT_PER_HOST,
	OPT_SELECT,
	OPT_REMOVE,
	OPT_WHOLE,
	OPT_EXPLAIN,
	OPT_PACK,
	OPT_INCLUDE,
	OPT_EXCLUDE,
	OPT_CACHE_REMOTE,
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
	{ "extract", required_argument, NULL, 'x' },
	{ "repo-max-size", required_argument, NULL, 'Z' },
	{ "version", no_argument, NULL, 'V' },
	{ "comments", no_argument, NULL, OPT_COMMENTS },
	{ "images", no_argument, NULL, OPT_IMAGES },
	{ "links", no_argument, NULL, OPT_LINKS },
	{ "max-pages", required_argument, NULL, OPT_MAX_PAGES },
	{ "ttl", required_argument, NULL, OPT_TTL },
	{ "per-host", required_argument, NULL, OPT_PER_HOST },
	{ "select", required_argument, NULL, OPT_SELECT },
	{ "remove", required_argument, NULL, OPT_REMOVE },
	{ "whole", no_argument, NULL, OPT_WHOLE },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "pack", required_argument, NULL, OPT_PACK },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "cache-remote", required_argument, NULL, OPT_CACHE_REMOTE },
	UK_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

void
uk_fetchargs_init(struct uk_fetchargs *a)
{
	memset(a, 0, sizeof(*a));
	a->max_per_msg = 3;
}

void
uk_fetchargs_release(struct uk_fetchargs *a)
{
	free(a->select);
	free(a->remove);
	a->select = a->remove = NULL;
	a->fo.extract.select = a->fo.extract.remove = NULL;
	a->fo.extract.nselect = a->fo.extract.nremove = 0;
	free(a->in);
	a->in = NULL;
	a->nin = 0;
	free((void *)a->fo.repo.include);
	free((void *)a->fo.repo.exclude);
	a->fo.repo.include = a->fo.repo.exclude = NULL;
	a->fo.repo.ninclude = a->fo.repo.nexclude = 0;
}

static void
add_input(struct uk_fetchargs *a, const char *arg, int file)
{
	a->in = uk_xrealloc(a->in, ((size_t)a->nin + 1) * sizeof(*a->in));
	a->in[a->nin].arg = arg;
	a->in[a->nin].file = file;
	a->nin++;
}

#define BAD(...) uk_cli_usage(&uk_fetchargs_cli, __VA_ARGS__)

/* A size with its unit (uk_cli_size), not 0. */
static unsigned long long
size_arg(const char *opt, const char *s)
{
	unsigned long long size;

	if (uk_cli_size(s, &size) || size == 0)
		BAD("%s: not a size with a unit (K, M, G): '%s'", opt, s);
	return size;
}

/* --include or --exclude: one more glob (freed by uk_fetchargs_release). */
static void
add_glob(const char *const **v, size_t *n, const char *g)
{
	const char **nv = uk_xrealloc((void *)*v, (*n + 1) * sizeof(*nv));

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
		if (uk_parse_long(optarg, 1, 100000000L, &n))
			BAD("-F: not a count: '%s'", optarg);
		fo->repo.max_files = (unsigned long)n;
		return 1;
	case 'J':
		fo->repo.map_json = 1;
		return 1;
	case 'M':
		if (uk_parse_long(optarg, 0, 100000000L,
			&fo->repo.map_tokens))
			BAD("-M: not a token count: '%s'", optarg);
		return 1;
	case 'D':
		if (uk_parse_long(optarg, 0, 100000000L,
			&fo->repo.readme_tokens))
			BAD("-D: not a token count: '%s'", optarg);
		return 1;
	case 'K':
		if (uk_tokens_parse(optarg, &fo->repo.tokenizer))
			BAD("-K: not a tokenizer (cl100k_base, o200k_base): "
			    "'%s'",
			    optarg);
		return 1;
	case 'R':
		if (uk_parse_seconds(optarg, &secs) || secs <= 0)
			BAD("-R: not a duration: '%s'", optarg);
		fo->repo.timeout = secs;
		return 1;
	case 'Z':
		fo->repo.max_bytes = size_arg("-Z", optarg);
		return 1;
	case OPT_PACK:
		if (uk_parse_long(optarg, 1, 100000000L,
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

/*
 * A --select or --remove selector (opt) checked and added to *list (n
 * of them): a bad one is a usage error that says where it fails; so is
 * one more than UK_EXTRACT_SELECT_MAXLIST of them (each is a walk of
 * every page).
 */
static void
add_selector(const char *opt, const char *css, const char ***list, size_t *n)
{
	struct uk_extract_select *sel;
	struct uk_err err;

	if (*n == UK_EXTRACT_SELECT_MAXLIST)
		BAD("%s: more than %d of them", opt, UK_EXTRACT_SELECT_MAXLIST);
	if (uk_extract_select_compile(css, &sel, &err) < 0)
		BAD("%s '%s': %s", opt, css, err.msg);
	uk_extract_select_free(sel);
	*list = uk_xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = css;
}

/* Extraction's options: 1 when c was one of them, else 0. */
static int
extract_opt(int c, struct uk_fetchargs *a)
{
	struct uk_fetch_opts *fo = &a->fo;
	long n;

	switch (c) {
	case OPT_SELECT:
		add_selector("--select", optarg, &a->select,
		    &fo->extract.nselect);
		fo->extract.select = a->select;
		return 1;
	case OPT_REMOVE:
		add_selector("--remove", optarg, &a->remove,
		    &fo->extract.nremove);
		fo->extract.remove = a->remove;
		return 1;
	case OPT_WHOLE:
		fo->extract.whole = 1;
		return 1;
	case OPT_EXPLAIN:
		fo->extract.explain = 1;
		return 1;
	case 'f':
		if (!strcmp(optarg, "text"))
			fo->extract.format = UK_EXTRACT_TEXT;
		else if (!strcmp(optarg, "markdown") ||
		    !strcmp(optarg, "md"))
			fo->extract.format = UK_EXTRACT_MARKDOWN;
		else
			BAD("-f: not text or markdown: '%s'", optarg);
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
			BAD("--max-pages: not a count from 1 to 1000000: '%s'",
			    optarg);
		fo->extract.max_pages = (int)n;
		return 1;
	default:
		return 0;
	}
}

/* The network's options: 1 when c was one of them, else 0. */
static int
net_opt(int c, struct uk_fetchargs *a)
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
	case OPT_CACHE_REMOTE:
		/* As URLKIT_CACHE_REMOTE, which uk_cache_open reads (and
		 * urlfetch-net inherits). */
		if (setenv("URLKIT_CACHE_REMOTE", optarg, 1))
			BAD("--cache-remote: out of memory");
		return 1;
	case 'j':
		if (uk_parse_long(optarg, 1, 1000, &fo->http.jobs))
			BAD("-j: not a count from 1 to 1000: '%s'", optarg);
		return 1;
	case 'k':
		fo->http.insecure = 1;
		return 1;
	case 'm':
		if (uk_parse_long(optarg, 0, 1000000000L, &a->max_per_msg))
			BAD("-m: not a count: '%s'", optarg);
		return 1;
	case 'P':
		fo->http.allow_private = 1;
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
		if (uk_parse_seconds(optarg, &secs) || secs <= 0)
			BAD("-t: not a duration: '%s'", optarg);
		fo->http.timeout = secs;
		return 1;
	case OPT_TTL:
		if (uk_parse_seconds(optarg, &secs) || secs < 0 || secs > 1e12)
			BAD("--ttl: not a duration: '%s'", optarg);
		fo->ttl = (long)secs;
		return 1;
	case OPT_PER_HOST:
		if (uk_parse_long(optarg, 1, 64, &fo->http.per_host))
			BAD("--per-host: not a count from 1 to 64: '%s'",
			    optarg);
		return 1;
	default:
		return 0;
	}
}

void
uk_fetchargs_parse(struct uk_fetchargs *a, int argc, char **argv)
{
	int c, i, files = 0;

	/* '-': operands come back in their place among the options (as 1),
	 * so that URLs and -i files are read in command-line order. */
	while ((c = uk_cli_getopt(&uk_fetchargs_cli, argc, argv,
		    "-A:B:CD:f:F:hi:j:JK:kM:m:o:PqR:rS:s:t:TVx:Z:",
		    longopts)) != -1) {
		switch (c) {
		case 1:
			add_input(a, optarg, 0);
			break;
		case 'i':
			add_input(a, optarg, 1);
			files++;
			break;
		case 'x':
			add_input(a, optarg, 0);
			a->extract = 1;
			break;
		case 'B':
			a->base = optarg;
			break;
		case 'o':
			if (!*optarg)
				BAD("-o: an empty file name");
			a->output = optarg;
			break;
		case 'T':
			a->text = 1;
			break;
		default:
			if (!net_opt(c, a) && !repo_opt(c, &a->fo) &&
			    !extract_opt(c, a))
				uk_cli_usage(&uk_fetchargs_cli, NULL);
		}
	}
	/* After "--": operands only. */
	for (i = optind; i < argc; i++)
		add_input(a, argv[i], 0);
	if (a->extract && files)
		BAD("-i does not go with -x (its operands are files)");
	if (!a->extract && a->base)
		BAD("-B goes with -x");
}

int
uk_fetchargs_is_url(const char *s)
{
	struct stat st;
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");

	if (n && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) &&
	    !strncmp(s + n, "://", 3))
		return 1;
	return !stat(s, &st) && S_ISDIR(st.st_mode);
}
