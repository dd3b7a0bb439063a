/* SPDX-License-Identifier: MIT */
/*
 * urlextract: the main text and metadata of local HTML and PDF input,
 * files or standard input, as content records, with no network.
 *
 * A filter as grep is: operands are files, none or "-" standard input.
 * It links only libc, libm, yajl and gumbo (pcre2, for the tokenizer of
 * --query and --max-tokens, statically; poppler is loaded at the first
 * PDF, lib/pdf.c), so that a start costs no dynamic loading of libcurl,
 * libgit2 and the rest (scripts/bench extract measures it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "extract.h"
#include "json.h"
#include "jsonl.h"
#include "pagelinks.h"
#include "query.h"
#include "record.h"
#include "slice.h"
#include "urlextract.h"
#include "util.h"
#include "banned.h"

/* Input larger than this is refused rather than truncated. */
#define EXTRACT_MAX (64UL << 20)

static const char synopsis[] =
    "usage: urlextract [-TV] [-B url] [-f format] [-o file] [--comments]\n"
    "                  [--images] [--links] [--max-pages pages] [--explain]\n"
    "                  [--whole] [--remove css] [--select css] [--json]\n"
    "                  [--markdown] [--links-out] [--links-max n]\n"
    "                  [--max-tokens tokens] [--offset offset] [--query text]\n"
    "                  [file ...]\n";

static const char options[] =
    "Extract local HTML or PDF files (or stdin); write one content record each.\n"
    "\n"
    "Input:\n"
    "  -B, --base=URL            the page's address (default: file://PATH)\n"
    "\n"
    "Output:\n"
    "  -f, --format=FORMAT       content as text or markdown (default: text)\n"
    "      --markdown            the same as -f markdown\n"
    "  -T, --text                print each file's text, not records\n"
    "      --json                records, not -T's text (the default)\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "      --max-tokens=N        each page's slice of N tokens, 100-100000\n"
    "      --offset=N            the slice from character N (default: 0)\n"
    "      --query=TEXT          the sections that answer TEXT, in --max-tokens\n"
    "                            (default: 1000)\n"
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
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "Examples:\n"
    "  urlextract page.html                      the page's record\n"
    "  urlextract -T --markdown page.html        its text, in Markdown\n"
    "  urlextract -T --query 'how to install' page.html\n"
    "                                            the part that answers it\n"
    "  curl -s URL | urlextract -B URL           a page another program fetched\n"
    "\n"
    "See urlextract(1).\n";

static const struct uk_cli cli = { "urlextract", synopsis, options };

/* The program's own long options without a letter. */
enum { OPT_JSON = OPT_X_END, OPT_MAX_TOKENS, OPT_OFFSET, OPT_QUERY };

static const struct option longopts[] = {
	{ "base", required_argument, NULL, 'B' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "text", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'V' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max-tokens", required_argument, NULL, OPT_MAX_TOKENS },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "query", required_argument, NULL, OPT_QUERY },
	EXTRACT_LONGOPTS,
	UK_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static struct {
	struct uk_extract_opts eo;
	const char *base;   /* -B */
	const char *output; /* -o */
	int text;           /* -T */
	long max_tokens;    /* --max-tokens; 0: the whole text */
	long offset;        /* --offset */
	const char *query;  /* --query; NULL: none */
	int nfiles;         /* operands */
} opt;

static struct uk_jsonl_out out;

/* Read all of path ("-": standard input) into b; -1 with err. */
static int
read_all(const char *path, struct uk_buf *b, struct uk_err *err)
{
	int fd = 0;
	ssize_t r;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return uk_util_err_set(err, UK_EXIT_FAIL, "%s: %s",
			    path, strerror(errno));
	}
	for (;;) {
		uk_buf_grow(b, 65536);
		r = read(fd, b->buf + b->len, b->alloc - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			uk_util_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
			break;
		}
		if (!r)
			break;
		uk_buf_setlen(b, b->len + (size_t)r);
		if (b->len > EXTRACT_MAX) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s: larger than %lu MiB", path, EXTRACT_MAX >> 20);
			r = -1;
			break;
		}
	}
	if (fd)
		close(fd);
	return r < 0 ? -1 : 0;
}

/*
 * Map a regular file of 1 byte to EXTRACT_MAX read-only: cheaper than
 * reading it into fresh memory (no copy, and the page cache's pages are
 * mapped many at a time rather than faulted in one by one).  NULL when
 * path is not such a file: read_all then reads it, and says what is wrong.
 */
static const char *
map_file(const char *path, size_t *len)
{
	struct stat st;
	void *p;
	int fd;

	if (!strcmp(path, "-") || (fd = open(path, O_RDONLY)) < 0)
		return NULL;
	p = MAP_FAILED;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long)st.st_size <= EXTRACT_MAX) {
		*len = (size_t)st.st_size;
		p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/*
 * With --text, the header before a file's text when several are given,
 * as tail(1) writes it: "==> FILE <==", a blank line before all but the
 * first.  A file that fails has none (its error goes to stderr), as in
 * tail.
 */
static void
text_header(const char *path)
{
	static int headers;

	if (opt.nfiles < 2)
		return;
	printf("%s==> %s <==\n", headers++ ? "\n" : "", path);
}

/*
 * --query, else --max-tokens: the record's content cut to the part that
 * answers the question, else to the slice.
 */
static void
cut_record(yajl_val rec)
{
	if (uk_json_get(rec, "error"))
		return;
	if (opt.query)
		uk_query_record(rec, opt.query, (size_t)(opt.max_tokens ?
			opt.max_tokens : UK_QUERY_TOKENS_DEFAULT));
	else if (opt.max_tokens)
		uk_slice_page(rec, (size_t)opt.offset, (size_t)opt.max_tokens);
}

/* -T: x's text for a person, or the error on stderr. */
static void
write_text(const char *path, const struct uk_extract *x, int failed,
    const struct uk_err *err)
{
	struct uk_buf t = UK_BUF_INIT;
	yajl_val rec = NULL;
	const char *s;
	long long next;

	if (failed || x->blocked) {
		uk_util_warn("%s", err->msg);
		uk_util_status_set(UK_EXIT_FAIL);
	} else {
		text_header(path);
		if (opt.query || opt.max_tokens) {
			rec = uk_record_new(opt.base ? opt.base : path, NULL,
			    "web");
			uk_extract_record(x, 0, rec);
			cut_record(rec);
		}
		/* No terminal controls. */
		s = rec ? uk_json_get_str(rec, "content") : NULL;
		uk_buf_addstr(&t, s ? s : x->text);
		if (rec && !uk_json_get_int(rec, "next_offset", &next))
			uk_buf_addf(&t,
			    "\n\n[... more: read on with --offset %lld]",
			    next);
		uk_json_free(rec);
		uk_cli_printable(&t);
		if (t.len && (fwrite(t.buf, 1, t.len, stdout) != t.len ||
				 putchar('\n') == EOF))
			uk_util_status_set(UK_EXIT_FATAL);
		uk_buf_release(&t);
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		uk_util_warn("write error: %s", strerror(errno));
		uk_util_status_set(UK_EXIT_FATAL);
	}
}

/*
 * x's content record, or the error's, for the page at url; links (may be
 * NULL) holds --links-out's fields.
 */
static void
write_record(const char *url, const struct uk_extract *x, int failed,
    const struct uk_err *err, yajl_val links)
{
	yajl_val rec = uk_record_new(url, NULL, "web");

	if (!failed) {
		uk_extract_record(x, 0, rec);
		cut_record(rec);
	}
	if (!failed && links)
		uk_json_add_missing(rec, links, NULL);
	if (failed || x->blocked) {
		uk_record_error(rec, err->msg);
		uk_util_warn("%s", err->msg);
		uk_util_status_set(UK_EXIT_FAIL);
	} else if (x->needs_browser) {
		uk_util_warn("'%s': %s", url, uk_extract_shell_warning);
	}
	if (uk_record_fit(rec, UK_JSONL_MAX_LINE) < 0) {
		uk_json_free(rec);
		rec = uk_record_new(url, NULL, "web");
		uk_record_error(rec, "the record is over the line limit");
		uk_util_warn("'%s': the record is over the line limit", url);
		uk_util_status_set(UK_EXIT_FAIL);
	}
	uk_record_hash(rec);
	uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
}

/* One input: a local HTML or PDF file, told by its bytes. */
static void
extract_file(const char *path)
{
	struct uk_buf in = UK_BUF_INIT, u = UK_BUF_INIT;
	struct uk_extract x;
	struct uk_err err = { 0 };
	const char *html, *mapped, *url = opt.base;
	yajl_val links = NULL;
	size_t len = 0;
	int failed = 0;

	memset(&x, 0, sizeof(x));
	html = mapped = map_file(path, &len);
	if (!html) {
		failed = read_all(path, &in, &err) < 0;
		html = in.buf ? in.buf : "";
		len = in.len;
	}
	if (!failed)
		failed = (uk_pdf_sniff(html, len) ?
			uk_pdf_extract(html, len, url, &opt.eo, &x, &err) :
			uk_extract_html(html, len, NULL, url, &opt.eo, &x,
			    &err)) < 0;
	if (!failed && opt.eo.links_out) {
		/* Made while the page is mapped; -B's URL resolves them. */
		links = uk_json_object();
		if (x.pages)
			uk_pagelinks_none(links);
		else
			uk_pagelinks_html(links, html, len, NULL, url,
			    &opt.eo, &x);
	}
	if (mapped)
		munmap((void *)mapped, len);
	if (!url) {
		char *abs = strcmp(path, "-") ? realpath(path, NULL) : NULL;

		uk_buf_addstr(&u, "file://");
		uk_buf_addstr(&u,
		    abs                   ? abs :
			strcmp(path, "-") ? path :
					    "/dev/stdin");
		free(abs);
		url = u.buf;
	}
	if (!failed && x.blocked)
		uk_util_err_set(&err, UK_EXIT_FAIL,
		    "'%s' is a block or challenge page, not content", url);
	if (x.explain) {
		void *ex = uk_extract_override_explain_array(x.explain, url);

		if (uk_extract_override_explain_write(stderr, ex) < 0)
			uk_util_status_set(UK_EXIT_FATAL);
		uk_json_free(ex);
	}
	if (opt.text)
		write_text(path, &x, failed, &err);
	else
		write_record(url, &x, failed, &err, links);
	uk_json_free(links);
	uk_extract_release(&x);
	uk_buf_release(&in);
	uk_buf_release(&u);
}

int
main(int argc, char **argv)
{
	struct extract_args ea;
	int c, i;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	uk_util_heap_init();
	extract_args_init(&ea, &opt.eo);
	while ((c = uk_cli_getopt(&cli, argc, argv, "B:f:ho:TV", longopts)) !=
	    -1) {
		switch (c) {
		case 'B':
			opt.base = optarg;
			break;
		case 'o':
			if (!*optarg)
				uk_cli_usage(&cli, "-o: an empty file name");
			opt.output = optarg;
			break;
		case 'T':
			opt.text = 1;
			break;
		case OPT_JSON:
			opt.text = 0; /* the last of -T and --json counts */
			break;
		case OPT_MAX_TOKENS:
			if (uk_util_parse_long(optarg, UK_SLICE_TOKENS_MIN,
				UK_SLICE_TOKENS_MAX, &opt.max_tokens))
				uk_cli_usage(&cli,
				    "--max-tokens: not a count from %d to %d: "
				    "'%s'",
				    UK_SLICE_TOKENS_MIN, UK_SLICE_TOKENS_MAX,
				    optarg);
			break;
		case OPT_OFFSET:
			if (uk_util_parse_long(optarg, 0, 1L << 40, &opt.offset))
				uk_cli_usage(&cli,
				    "--offset: not a character offset: '%s'",
				    optarg);
			break;
		case OPT_QUERY:
			opt.query = optarg;
			break;
		default:
			if (!extract_opt(&cli, c, &ea))
				uk_cli_usage(&cli, NULL);
		}
	}
	argc -= optind;
	argv += optind;
	opt.nfiles = argc;
	/* An offset alone: the slice of fetch_url's default size. */
	if (opt.offset && !opt.max_tokens && !opt.query)
		opt.max_tokens = UK_SLICE_TOKENS_DEFAULT;
	if (opt.offset && opt.query)
		uk_cli_usage(&cli, "--offset and --query: one or the other");
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&cli, "-o: cannot open '%s': %s", opt.output,
		    strerror(errno));
	uk_jsonl_out_init(&out, stdout);
	if (!argc)
		extract_file("-");
	for (i = 0; i < argc; i++)
		extract_file(argv[i]);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	extract_args_release(&ea);
	return uk_status;
}
