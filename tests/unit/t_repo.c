/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/repo's filters (TAP).  With operands, a driver the
 * suites and the benchmark use until urlfetch calls the module:
 *	t_repo [-t tokens] [-r tokens] [-k tokenizer] [-T seconds] [-S bytes]
 *	    [-F files] [-J] [-j threads] [-P] URL
 * prints the content record (or one with "error") and exits 0 or 1; -P
 * prints each progress call on stderr as "progress PHASE received files
 * kept indexed to_index".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "json.h"
#include "repo.h"
#include "url.h"
#include "util.h"
#include "tap.h"

/* -P: every progress call as a line on stderr. */
static void
on_progress(const struct uk_repo_progress *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "progress %s %llu %lu %lu %lu %lu\n",
	    p->phase == UK_REPO_FETCHING ? "fetching" : "indexing", p->received,
	    p->files, p->kept, p->indexed, p->to_index);
}

static int
driver(int argc, char **argv)
{
	struct uk_repo_opts o;
	struct uk_url u;
	struct uk_err err;
	struct uk_buf out = UK_BUF_INIT;
	yajl_val rec;
	int c, ret;

	uk_repo_opts_init(&o);
	while ((c = getopt(argc, argv, "t:r:k:T:S:F:Jj:P")) != -1) {
		switch (c) {
		case 't':
			o.map_tokens = atol(optarg);
			break;
		case 'r':
			o.readme_tokens = atol(optarg);
			break;
		case 'k':
			if (uk_tokens_name_parse(optarg, &o.tokenizer))
				return 2;
			break;
		case 'T':
			uk_util_parse_seconds(optarg, &o.timeout);
			break;
		case 'S':
			uk_util_parse_size(optarg, &o.max_bytes);
			break;
		case 'F':
			o.max_files = strtoul(optarg, NULL, 10);
			break;
		case 'J':
			o.map_json = 1;
			break;
		case 'j':
			o.threads = atoi(optarg);
			break;
		case 'P':
			o.progress = on_progress;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1)
		return 2;
	uk_url_classify(argv[optind], &u);
	rec = uk_json_object();
	uk_json_set_str(rec, "url", argv[optind]);
	ret = uk_repo_fetch(&u, argv[optind], &o, rec, &err);
	if (ret < 0)
		uk_json_set_str(rec, "error", err.msg);
	uk_json_to_buf(rec, &out);
	printf("%s\n", out.buf);
	uk_buf_release(&out);
	uk_json_free(rec);
	uk_url_release(&u);
	return ret < 0;
}

static const struct {
	const char *what, *readme, *want;
} descs[] = {
	{ "rst title", "Tool\n====\n\nTool turns widgets.\n", "Tool turns widgets." },
	{ "badges, HTML and a heading first",
	    "<p align=\"center\"><img src=\"logo.png\"></p>\n\n"
	    "[![CI](https://ci/b.svg)](https://ci) [![npm](https://n/v.svg)]"
	    "(https://n)\n\n# fastq\n\n"
	    "A fast [queue](https://q.example) for *Node*.\n",
	    "A fast queue for *Node*." },
	{ "fenced code and a list skipped",
	    "# x\n\n```sh\n$ make install\nIt builds.\n```\n\n- a list\n- item\n\n"
	    "Then prose.\n", "Then prose." },
	{ "bold start kept", "# T\n\n**Rapid** tokenizer for C.\n",
	    "Rapid tokenizer for C." },
	{ "inline code start kept",
	    "`ripgrep` is a line-oriented search tool.\n",
	    "`ripgrep` is a line-oriented search tool." },
	{ "heading line then text in one paragraph",
	    "# Title\nThe text under it.\n", "The text under it." },
	{ "HTML comment with blank lines",
	    "<!--\n\nhidden words here\n\n-->\n\nShown words.\n",
	    "Shown words." },
	{ "rst badges and directives",
	    "|build| |cov|\n\n.. image:: x.svg\n   :target: y\n\n"
	    "Requests is an HTTP library.\n", "Requests is an HTTP library." },
	{ "a link definition", "[ci]: https://x\n\nReal one.\n", "Real one." },
	{ "nothing but a title", "Title\n=====\n", "" },
};

static void
describe_cases(void)
{
	for (size_t i = 0; i < sizeof(descs) / sizeof(*descs); i++) {
		struct uk_buf b = UK_BUF_INIT;

		uk_repo_readme_describe(descs[i].readme, &b);
		ok(!strcmp(b.buf, descs[i].want), "%s", descs[i].what);
		if (strcmp(b.buf, descs[i].want))
			printf("# got '%s'\n", b.buf);
		uk_buf_release(&b);
	}
}

static void
readme_cases(void)
{
	struct uk_buf text = UK_BUF_INIT, out = UK_BUF_INIT;
	size_t got, i;
	int cut;

	for (i = 0; i < 200; i++)
		uk_buf_addf(&text, "Paragraph %zu says a few words about the "
		    "tool.\nA second line of it.\n\n", i);
	got = uk_repo_readme_fit(UK_TOKENS_CL100K, text.buf, text.len, 100000,
	    &out, &cut);
	ok(!cut && out.len == text.len &&
		got == uk_tokens_count(UK_TOKENS_CL100K, text.buf, text.len),
	    "a README within its budget is whole");
	for (long budget = 60; budget <= 2048; budget = budget * 3 / 2) {
		const char *mark;

		uk_buf_reset(&out);
		got = uk_repo_readme_fit(UK_TOKENS_CL100K, text.buf, text.len,
		    budget, &out, &cut);
		mark = strstr(out.buf, "[README cut: ");
		ok(cut && got <= (size_t)budget && got >= (size_t)budget * 8 / 10 &&
			got == uk_tokens_count(UK_TOKENS_CL100K, out.buf,
			    out.len) &&
			mark && mark > out.buf && !strncmp(mark - 2, "\n\n", 2) &&
			!strncmp(out.buf, text.buf, (size_t)(mark - out.buf)),
		    "budget %ld: %zu tokens, cut after a paragraph, marked",
		    budget, got);
	}
	uk_buf_reset(&out);
	got = uk_repo_readme_fit(UK_TOKENS_O200K, text.buf, text.len, 3, &out,
	    &cut);
	ok(got == 0 && out.len == 0 && cut, "a budget smaller than the mark: none");
	uk_buf_reset(&out);
	got = uk_repo_readme_fit(UK_TOKENS_CL100K, text.buf, text.len, 0, &out,
	    &cut);
	ok(got == 0 && out.len == 0, "budget 0: none");
	/* A fence is not cut inside; one long first line is cut in it. */
	uk_buf_reset(&text);
	uk_buf_addstr(&text, "Intro.\n\n```\n");
	for (i = 0; i < 100; i++)
		uk_buf_addf(&text, "code line %zu\n\n", i);
	uk_buf_addstr(&text, "```\n\nAfter.\n");
	uk_buf_reset(&out);
	got = uk_repo_readme_fit(UK_TOKENS_CL100K, text.buf, text.len, 200,
	    &out, &cut);
	ok(cut && got <= 200 && !strncmp(out.buf, "Intro.\n\n[README cut", 19),
	    "no cut inside fenced code");
	uk_buf_reset(&text);
	for (i = 0; i < 500; i++)
		uk_buf_addstr(&text, "word ");
	uk_buf_reset(&out);
	got = uk_repo_readme_fit(UK_TOKENS_CL100K, text.buf, text.len, 100,
	    &out, &cut);
	ok(cut && got <= 100 && got >= 80 && !strncmp(out.buf, "word word", 9),
	    "one long line: cut inside it, %zu tokens", got);
	uk_buf_release(&text);
	uk_buf_release(&out);
}

int
main(int argc, char **argv)
{
	uk_util_prog_set(argv[0]);
	if (argc > 1)
		return driver(argc, argv);
	ok(uk_repo_snap_readme_rank("README.md") == 1 &&
		uk_repo_snap_readme_rank("readme.RST") == 2 &&
		uk_repo_snap_readme_rank("ReadMe.txt") == 3 &&
		uk_repo_snap_readme_rank("README") == 4,
	    "README priority md, rst, txt, plain, any case");
	ok(uk_repo_snap_readme_rank("README.html") == 0 &&
		uk_repo_snap_readme_rank("READMEmd") == 0,
	    "other names are not READMEs");
	ok(uk_repo_snap_skip_dir(".github/x.py") &&
		uk_repo_snap_skip_dir("a/.hidden/x.py") &&
		uk_repo_snap_skip_dir("web/node_modules/m/index.js") &&
		uk_repo_snap_skip_dir("vendor/lib.go") &&
		uk_repo_snap_skip_dir("dist/app.js") &&
		uk_repo_snap_skip_dir("build/x.c"),
	    "hidden, node_modules, vendor, dist and build trees skipped");
	ok(!uk_repo_snap_skip_dir("src/app.py") &&
		!uk_repo_snap_skip_dir(".eslintrc.js") &&
		!uk_repo_snap_skip_dir("src/builder/x.c"),
	    "other trees and hidden files at the root kept");
	ok(uk_repo_snap_skip_file("a/jquery.min.js", NULL, 0) &&
		uk_repo_snap_skip_file("api.pb.go", NULL, 0) &&
		uk_repo_snap_skip_file("m_pb2.py", NULL, 0) &&
		uk_repo_snap_skip_file("x.generated.ts", NULL, 0),
	    "generated and minified names skipped");
	{
		const char *gen =
		    "// Code generated by stringer. DO NOT EDIT.\n"
		    "package x\n";
		const char *plain = "package x\n\nfunc A() {}\n";
		struct uk_buf min = UK_BUF_INIT;
		int i;

		for (i = 0; i < 2000; i++)
			uk_buf_addstr(&min, "var a=1;");
		ok(uk_repo_snap_skip_file("x.go", gen, strlen(gen)) &&
			!uk_repo_snap_skip_file("x.go", plain, strlen(plain)),
		    "a generated marker skips, plain code is kept");
		ok(uk_repo_snap_skip_file("app.js", min.buf, min.len),
		    "one very long line is minified");
		uk_buf_release(&min);
	}
	ok(uk_repo_is_git_url("/srv/git/x") &&
		uk_repo_is_git_url("file:///srv/x") &&
		uk_repo_is_git_url("https://git.example.org/x.git") &&
		!uk_repo_is_git_url("ftp://x/y"),
	    "git URLs");
	{
		struct uk_repo_opts o;
		struct uk_err err;
#define INFO "{\"github_info\":{\"map_budget\":1024," \
	"\"readme_budget\":2048,\"tokenizer\":\"cl100k_base\"}"
		const char *a = INFO "}";
		const char *b = INFO ",\"symbols\":[]}";
		const char *c = INFO ",\"truncated\":true}";
		const char *d = "{\"github_info\":{\"map_budget\":1024}}";
		yajl_val ra = uk_json_parse(a, strlen(a), &err);
		yajl_val rb = uk_json_parse(b, strlen(b), &err);

		uk_repo_opts_init(&o);
		ok(uk_repo_cached_ok(ra, &o),
		    "a cached map of the same budget");
		o.map_tokens = 200;
		ok(!uk_repo_cached_ok(ra, &o), "not one of another budget");
		o.map_tokens = 1024;
		o.map_json = 1;
		ok(!uk_repo_cached_ok(ra, &o) && uk_repo_cached_ok(rb, &o),
		    "nor one without symbols when they are asked for");
		o.map_json = 0;
		o.tokenizer = UK_TOKENS_O200K;
		ok(!uk_repo_cached_ok(ra, &o), "nor one of another tokenizer");
		o.tokenizer = UK_TOKENS_CL100K;
		o.readme_tokens = 100;
		ok(!uk_repo_cached_ok(ra, &o), "nor one of another README budget");
		o.readme_tokens = 2048;
		uk_json_free(ra);
		uk_json_free(rb);
		ra = uk_json_parse(c, strlen(c), &err);
		rb = uk_json_parse(d, strlen(d), &err);
		ok(!uk_repo_cached_ok(ra, &o) && !uk_repo_cached_ok(rb, &o),
		    "nor a truncated one, nor one from before README budgets");
		uk_json_free(ra);
		uk_json_free(rb);
	}
	ok(uk_repo_is_git_url(".") && !uk_repo_is_git_url("src"),
	    "'.' is a repository path, a bare word is not");
	describe_cases();
	readme_cases();
	return tap_done();
}
