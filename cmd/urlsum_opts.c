/* SPDX-License-Identifier: MIT */
/* urlsum's command line: the usage text, the options, the key file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache_remote.h"
#include "cli.h"
#include "summary.h"
#include "util.h"
#include "urlsum.h"

#include "banned.h"

static const char synopsis[] =
    "usage: urlsum [-CNnqr] [-c | -p] [-j jobs] [-o file] [-t timeout]\n"
    "              [-U url] [-y type] [--cache-remote stores] [--exclude url]\n"
    "              [--hint hint] [--key-file file] [--max-length chars]\n"
    "              [--max-tokens tokens] [--model model] [--no-fallback]\n"
    "              [--offline] [--prompt-dir dir] [--prompt-file file]\n"
    "              [--retries n] [file ...]\n"
    "       urlsum -h | -V\n";

static const char options[] =
    "Summarise content records, offline or through an LLM, or make a prompt of them.\n"
    "\n"
    "Summary:\n"
    "  -U, --url=URL             the endpoint, ending in /v1\n"
    "                            (default: URLKIT_LLM_URL; none: offline)\n"
    "      --model=NAME          the model to ask for (default: URLKIT_LLM_MODEL)\n"
    "      --key-file=FILE       read the API key from FILE's first line\n"
    "      --offline             the offline summariser, even with an endpoint\n"
    "      --no-fallback         an endpoint failure is an error record, with\n"
    "                            no offline summary in its place\n"
    "  -n, --dry-run             write each request's body, send nothing\n"
    "  -j, --jobs=N              requests in flight at once (default: 4)\n"
    "  -t, --timeout=SECONDS     give up on a request after (default: 120)\n"
    "      --retries=N           tries after the first on 429, 5xx (default: 3)\n"
    "\n"
    "Prompt:\n"
    "  -y, --type=TYPE           BRIEF, USAGE, API, ARCHITECTURE or EVALUATION\n"
    "                            for every record (default: by URL type, hint)\n"
    "      --hint=STRING         the user's words that steer the type\n"
    "      --prompt-dir=DIR      the prompts of the types from DIR/TYPE.md\n"
    "      --prompt-file=FILE    the prompt of -y's type (or of every type)\n"
    "\n"
    "Output:\n"
    "  -p, --prompt              write each record as prompt context\n"
    "  -c, --context             write the prompt context of all records\n"
    "  -N, --no-summary          summarise nothing, only format (-p, -c)\n"
    "      --exclude=URL         leave URL out of -p and -c output (repeatable)\n"
    "      --max-length=CHARS    the whole -p or -c output's budget, else the\n"
    "                            model's text's cut (default 100000)\n"
    "      --max-tokens=N        the same in tokens (cl100k_base)\n"
    "  -o, --output=FILE         write to FILE instead of standard output\n"
    "  -q, --quiet               no count on stderr of what -p or -c left out\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "\n"
    "Cache:\n"
    "  -C, --no-cache            neither read nor write summaries in the cache\n"
    "      --cache-remote=STORES remote stores behind the cache (redis://,\n"
    "                            http://; default: $URLKIT_CACHE_REMOTE)\n"
    "  -r, --refresh             summarise again over a kept summary\n"
    "      --force               the same as --refresh (its old name)\n"
    "\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urlsum -c --max-tokens 8000 pages.jsonl     one prompt of all the pages\n"
    "  urlsum -n -U http://127.0.0.1:8080/v1 pages.jsonl    the requests, unsent\n"
    "  urlfetch -q https://example.org/ | urlsum --offline  a summary, no LLM\n"
    "\n"
    "See urlsum(1).\n";

const struct uk_cli urlsum_cli = { "urlsum", synopsis, options };

struct urlsum_opt opt = { .type = -1, .timeout = 120, .retries = 3, .jobs = 4 };

char *
read_key(const char *path)
{
	struct uk_buf b = UK_BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *fp = fopen(path, "r");
	char *nl;

	if (!fp)
		uk_cli_usage(&urlsum_cli, "--key-file: cannot read '%s'", path);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0 && b.len < 65536)
		uk_buf_add(&b, chunk, n);
	fclose(fp);
	if ((nl = memchr(b.buf, '\n', b.len)))
		uk_buf_setlen(&b, (size_t)(nl - b.buf));
	uk_buf_trim(&b);
	if (!b.len)
		uk_cli_usage(&urlsum_cli, "--key-file: '%s' is empty", path);
	return uk_buf_detach(&b, NULL);
}

enum {
	OPT_CACHE_REMOTE = UK_OPT_FIRST,
	OPT_EXCLUDE,
	OPT_HINT,
	OPT_KEY_FILE,
	OPT_MAX_LENGTH,
	OPT_MAX_TOKENS,
	OPT_MODEL,
	OPT_NO_FALLBACK,
	OPT_OFFLINE,
	OPT_PROMPT_DIR,
	OPT_PROMPT_FILE,
	OPT_RETRIES,
};

static const struct option longopts[] = {
	{ "no-cache", no_argument, NULL, 'C' },
	{ "cache-remote", required_argument, NULL, OPT_CACHE_REMOTE },
	{ "context", no_argument, NULL, 'c' },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "force", no_argument, NULL, 'r' },
	{ "hint", required_argument, NULL, OPT_HINT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "key-file", required_argument, NULL, OPT_KEY_FILE },
	{ "max-length", required_argument, NULL, OPT_MAX_LENGTH },
	{ "max-tokens", required_argument, NULL, OPT_MAX_TOKENS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "no-summary", no_argument, NULL, 'N' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "no-fallback", no_argument, NULL, OPT_NO_FALLBACK },
	{ "output", required_argument, NULL, 'o' },
	{ "offline", no_argument, NULL, OPT_OFFLINE },
	{ "prompt", no_argument, NULL, 'p' },
	{ "prompt-dir", required_argument, NULL, OPT_PROMPT_DIR },
	{ "prompt-file", required_argument, NULL, OPT_PROMPT_FILE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "refresh", no_argument, NULL, 'r' },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "timeout", required_argument, NULL, 't' },
	{ "type", required_argument, NULL, 'y' },
	{ "url", required_argument, NULL, 'U' },
	{ "version", no_argument, NULL, 'V' },
	UK_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static void check_opts(void);

/*
 * --cache-remote: checked here, a usage error; then set as
 * URLKIT_CACHE_REMOTE, which uk_cache_open reads.
 */
static void
cache_remote(const char *list)
{
	struct uk_cache_remote *r;
	struct uk_err e;

	if (uk_cache_remote_open(&r, list, NULL, &e))
		uk_cli_usage(&urlsum_cli, "--cache-remote: %s", e.msg);
	uk_cache_remote_free(r);
	if (setenv("URLKIT_CACHE_REMOTE", list, 1))
		uk_cli_usage(&urlsum_cli, "--cache-remote: out of memory");
}

/* The command line into opt; exits on -h, -V and a usage error.  Returns
 * optind. */
int
parse_opts(int argc, char **argv)
{
	int c;

	while ((c = uk_cli_getopt(&urlsum_cli, argc, argv, "Ccj:Nno:pqrt:U:y:hV",
		    longopts)) != -1) {
		switch (c) {
		case 'C':
			opt.no_cache = 1;
			break;
		case 'c':
			opt.mode = MODE_CONTEXT;
			break;
		case OPT_CACHE_REMOTE:
			cache_remote(optarg);
			break;
		case 'r':
			opt.force = 1;
			break;
		case OPT_HINT:
			opt.hint = optarg;
			break;
		case 'j':
			if (uk_util_parse_long(optarg, 1, 256, &opt.jobs))
				uk_cli_usage(&urlsum_cli,
				    "-j: not a count from 1 to 256: '%s'",
				    optarg);
			break;
		case OPT_KEY_FILE:
			opt.key_file = optarg;
			break;
		case OPT_MAX_LENGTH:
			if (uk_util_parse_long(optarg, 1, 100000000L,
				&opt.max_length))
				uk_cli_usage(&urlsum_cli,
				    "--max-length: not a length: '%s'", optarg);
			break;
		case OPT_MAX_TOKENS:
			if (uk_util_parse_long(optarg, 1, 100000000L,
				&opt.max_tokens))
				uk_cli_usage(&urlsum_cli,
				    "--max-tokens: not a count of tokens: '%s'",
				    optarg);
			break;
		case OPT_MODEL:
			opt.model = optarg;
			break;
		case 'n':
			opt.dry_run = 1;
			break;
		case 'N':
			opt.no_summary = 1;
			break;
		case OPT_NO_FALLBACK:
			opt.no_fallback = 1;
			break;
		case 'o':
			opt.output = optarg;
			break;
		case OPT_OFFLINE:
			opt.offline = 1;
			break;
		case 'p':
			opt.mode = MODE_PROMPT;
			break;
		case OPT_PROMPT_DIR:
			opt.prompt_dir = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case OPT_RETRIES:
			if (uk_util_parse_long(optarg, 0, 100, &opt.retries))
				uk_cli_usage(&urlsum_cli,
				    "--retries: not a count from 0 to 100: '%s'",
				    optarg);
			break;
		case OPT_PROMPT_FILE:
			opt.prompt_file = optarg;
			break;
		case 't':
			if (uk_util_parse_seconds(optarg, &opt.timeout) ||
			    opt.timeout <= 0)
				uk_cli_usage(&urlsum_cli, "-t: not a duration: '%s'",
				    optarg);
			break;
		case 'y':
			if ((opt.type = uk_summary_type_parse(optarg)) < 0)
				uk_cli_usage(&urlsum_cli,
				    "-y: unknown summary type '%s'", optarg);
			break;
		case 'U':
			opt.url = optarg;
			break;
		case OPT_EXCLUDE:
			opt.excluded = uk_util_xrealloc(opt.excluded,
			    (opt.nexcluded + 1) * sizeof(*opt.excluded));
			opt.excluded[opt.nexcluded++] = optarg;
			break;
		default:
			uk_cli_usage(&urlsum_cli, NULL);
		}
	}
	check_opts();
	return optind;
}

/* What the options say together; a bad URLKIT_CACHE_REMOTE too. */
static void
check_opts(void)
{
	/* A bad URLKIT_CACHE_REMOTE is a usage error before any work, as
	 * --cache-remote is, not the cache open's failure (exit 3). */
	if (!opt.no_cache) {
		struct uk_err e;

		if (uk_cache_remote_check_env(&e))
			uk_util_die(UK_EXIT_USAGE, "%s", e.msg);
	}
	if (opt.dry_run && (opt.mode != MODE_JSON || opt.no_summary))
		uk_cli_usage(&urlsum_cli, "-n does not go with -c, -p or -N");
	if (opt.max_length && opt.max_tokens)
		uk_cli_usage(&urlsum_cli,
		    "--max-length and --max-tokens: give one budget");
	/* Without -p or -c they cut the text sent to the model. */
	if ((opt.max_length || opt.max_tokens) && opt.mode == MODE_JSON &&
	    opt.no_summary)
		uk_cli_usage(&urlsum_cli,
		    "--max-length and --max-tokens need -p, -c or a summary");
}
