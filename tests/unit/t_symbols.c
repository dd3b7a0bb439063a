/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/symbols (TAP).  With operands, a driver for the
 * benchmark: t_symbols [-t tokens] [-j threads] [-J file] DIR... indexes
 * every supported file under the directories and prints the map and a
 * count on stderr (-J: the map's definitions as JSON into file).
 *
 * t_symbols -R [-t tokens] [-f focus] [-u url] DIR reads DIR as a
 * repository, as lib/repo.c does (paths relative to DIR, the same files
 * skipped, every other file noted with uk_symbols_note), and prints one
 * record like urlfetch's: url, symbol_map, symbols and github_info with
 * top_file, map_tokens and map_budget.  The repository-map suites and the
 * development set (scripts/bench.d/repomap-dev) use it.  -r N prints
 * the N best-ranked files on stderr (rank, class, definitions, path): how
 * a ranking is looked into.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "banned.h"
#include "buf.h"
#include "json.h"
#include "repo.h"
#include "symbols.h"
#include "symbols_int.h"
#include "util.h"
#include "tap.h"

static void
add(struct uk_symbols *s, const char *path, const char *text)
{
	struct uk_err err;

	if (uk_symbols_add(s, path, text, strlen(text), &err) != 1)
		printf("# add %s: %s\n", path, err.msg);
}

/* Whether the JSON symbols hold name with kind in file. */
static int
has_sym(yajl_val arr, const char *file, const char *name, const char *kind)
{
	size_t i;

	for (i = 0; i < arr->u.array.len; i++) {
		yajl_val o = arr->u.array.values[i];
		const char *f = uk_json_get_str(o, "file");
		const char *n = uk_json_get_str(o, "name");
		const char *k = uk_json_get_str(o, "kind");

		if (f && n && k && !strcmp(f, file) && !strcmp(n, name) &&
		    !strcmp(k, kind))
			return 1;
	}
	return 0;
}

static const char *
doc_of(yajl_val arr, const char *name)
{
	size_t i;

	for (i = 0; i < arr->u.array.len; i++) {
		yajl_val o = arr->u.array.values[i];
		const char *n = uk_json_get_str(o, "name");

		if (n && !strcmp(n, name))
			return uk_json_get_str(o, "doc");
	}
	return NULL;
}

static void
test_languages(void)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_buf map = UK_BUF_INIT;
	yajl_val j;
	const char *d;

	add(s, "a.py",
	    "class Store:\n    def get(self, k):\n        return k\n");
	add(s, "b.js",
	    "// Adds two numbers.\nfunction addUp(a, b) { return a + b }\n"
	    "class Widget { constructor() {} render() { return addUp(1, 2) } "
	    "}\n");
	add(s, "c.ts",
	    "interface Shape { area(): number }\n"
	    "function makeShape(): Shape { return null as any }\n");
	add(s, "d.tsx", "function View() { return <div/> }\n");
	add(s, "e.c",
	    "struct point { int x; };\nint\nnorm(struct point p)\n"
	    "{\n\treturn p.x;\n}\n");
	add(s, "f.cpp",
	    "class Engine { public: void start(); };\n"
	    "void Engine::start() {}\n");
	add(s, "g.go",
	    "package g\n// Run runs.\nfunc Run() {}\n"
	    "type Config struct{}\n");
	add(s, "h.rs",
	    "struct Pool;\nimpl Pool { fn new() -> Pool { Pool } "
	    "}\ntrait Drain {}\n");
	add(s, "i.java", "class Main { void go() { } }\n");
	add(s, "j.rb",
	    "# A cache.\nclass Cache\n  def fetch(key)\n"
	    "    value = key\n    value\n  end\nend\n");
	ok(uk_symbols_nfiles(s) == 10, "ten languages indexed");
	uk_symbols_map(s, 100000, &map);
	j = uk_symbols_json(s);
	ok(has_sym(j, "a.py", "Store", "class") &&
		has_sym(j, "a.py", "get", "function"),
	    "python class and function");
	ok(has_sym(j, "b.js", "addUp", "function") &&
		has_sym(j, "b.js", "render", "method"),
	    "javascript function and method");
	ok(!has_sym(j, "b.js", "constructor", "method"),
	    "#not-eq? drops the javascript constructor");
	ok(has_sym(j, "c.ts", "Shape", "interface") &&
		has_sym(j, "c.ts", "makeShape", "function"),
	    "typescript interface and function");
	ok(has_sym(j, "d.tsx", "View", "function"), "tsx function");
	ok(has_sym(j, "e.c", "point", "class") &&
		has_sym(j, "e.c", "norm", "function"),
	    "c struct and function");
	ok(has_sym(j, "f.cpp", "Engine", "class"), "c++ class");
	ok(has_sym(j, "g.go", "Run", "function") &&
		has_sym(j, "g.go", "Config", "type"),
	    "go function and type");
	ok(has_sym(j, "h.rs", "Pool", "class") &&
		has_sym(j, "h.rs", "Drain", "interface"),
	    "rust struct and trait");
	ok(has_sym(j, "i.java", "Main", "class") &&
		has_sym(j, "i.java", "go", "method"),
	    "java class and method");
	ok(has_sym(j, "j.rb", "Cache", "class") &&
		has_sym(j, "j.rb", "fetch", "method"),
	    "ruby class and method");
	{
		struct uk_buf m2 = UK_BUF_INIT;

		uk_symbols_map(s, 100000, &m2);
		ok(strstr(m2.buf, "\xe2\x94\x82int\n\xe2\x94\x82"
				      "norm(struct point p)\n") != NULL,
		    "a KNF C function shows its return type line");
		uk_buf_release(&m2);
	}
	d = doc_of(j, "addUp");
	ok(d && !strcmp(d, "Adds two numbers."),
	    "#strip! and #select-adjacent! give the js doc");
	d = doc_of(j, "Run");
	ok(d && !strcmp(d, "Run runs."), "#set-adjacent! gives the go doc");
	d = doc_of(j, "Cache");
	ok(d && !strcmp(d, "A cache."), "ruby doc stripped of '#'");
	uk_json_free(j);
	uk_buf_release(&map);
	uk_symbols_free(s);
}

static void
test_ranking(void)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_buf map = UK_BUF_INIT;
	const char *top;
	size_t n, full;
	long b;
	int fits = 1;
	char name[64], text[256];
	int i;

	add(s, "core/util.py",
	    "def helper_function(x):\n    return x\n\n\n"
	    "def other_thing(y):\n    return y\n");
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "app/mod%d.py", i);
		snprintf(text, sizeof(text),
		    "from core.util import helper_function\n"
		    "def run%d():\n    return helper_function(%d)\n",
		    i, i);
		add(s, name, text);
	}
	add(s, "app/lonely.py", "def lonely():\n    pass\n");
	top = uk_symbols_top_file(s);
	ok(top && !strcmp(top, "core/util.py"),
	    "the most referenced file ranks first");
	full = uk_symbols_map(s, 100000, &map);
	ok(!strncmp(map.buf,
	       "core/util.py:\n\xe2\x94\x82"
	       "def helper_function(x):\n",
	       strlen("core/util.py:\n") + 3 + 24),
	    "the map starts with the top file and its best definition");
	ok(strstr(map.buf, "\xe2\x8b\xae\n") != NULL, "elision marks");
	for (b = 0; b <= 200; b++) {
		uk_buf_reset(&map);
		n = uk_symbols_map(s, b, &map);
		if (uk_symbols_tokens(map.buf, map.len) > (size_t)b)
			fits = 0;
		if (n > full)
			fits = 0;
	}
	ok(fits, "every budget from 0 to 200 tokens holds");
	uk_buf_reset(&map);
	n = uk_symbols_map(s, 16, &map);
	ok(n == 1 && strstr(map.buf, "helper_function"),
	    "a small budget keeps the best definition");
	ok(uk_symbols_tokens("abcde", 5) ==
		uk_tokens_count(UK_TOKENS_CL100K, "abcde", 5),
	    "tokens are counted in cl100k_base");
	uk_buf_release(&map);
	uk_symbols_free(s);
}

static void
test_predicates(void)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_buf map = UK_BUF_INIT;
	yajl_val j;

	/* require() is not a reference (#not-match?). */
	add(s, "x.js", "function require() {}\n");
	add(s, "y.js", "const m = require('m')\n");
	/* A ruby local is not a call; a bare method name is. */
	add(s, "lib/a.rb", "def shared_method\nend\n");
	add(s, "lib/b.rb", "def use\n  shared_method\nend\n");
	add(s, "lib/c.rb",
	    "def keep\n  shared_method = 1\n  shared_method\nend\n");
	ok(uk_symbols_lang("x/README") == NULL &&
		uk_symbols_lang("a.H") != NULL,
	    "language by extension, case-insensitive");
	uk_symbols_map(s, 100000, &map);
	j = uk_symbols_json(s);
	ok(strcmp(uk_symbols_top_file(s), "lib/a.rb") == 0,
	    "a ruby call counts, a ruby local does not, require() does not");
	uk_json_free(j);
	uk_buf_release(&map);
	uk_symbols_free(s);
}

static void
test_batch(void)
{
	struct uk_symbols *a = uk_symbols_new(), *b = uk_symbols_new();
	struct uk_symbols_file f[40];
	struct uk_buf ma = UK_BUF_INIT, mb = UK_BUF_INIT;
	char paths[40][32], texts[40][128];
	struct uk_err err;
	int i;

	for (i = 0; i < 40; i++) {
		snprintf(paths[i], sizeof(paths[i]), "m%02d.%s", i,
		    i % 3 ? "py" : "txt");
		snprintf(texts[i], sizeof(texts[i]),
		    "def func_number_%d():\n    return func_number_%d()\n", i,
		    (i * 7) % 40);
		f[i].path = paths[i];
		f[i].text = texts[i];
		f[i].len = strlen(texts[i]);
		uk_symbols_add(a, f[i].path, f[i].text, f[i].len, &err);
	}
	ok(uk_symstream_add_files(b, f, 40, 4, &err) == 26,
	    "add_files indexes the supported files");
	uk_symbols_map(a, 300, &ma);
	uk_symbols_map(b, 300, &mb);
	ok(ma.len > 0 && ma.len == mb.len && !memcmp(ma.buf, mb.buf, ma.len),
	    "four threads give the map of one");
	uk_symbols_set_deadline(b, 1e-9);
	ok(uk_symstream_add_files(b, f, 40, 2, &err) < 0 &&
		strstr(err.msg, "time limit"),
	    "a passed deadline stops indexing");
	uk_buf_release(&ma);
	uk_buf_release(&mb);
	uk_symbols_free(a);
	uk_symbols_free(b);
}

struct progress {
	size_t calls, last, total;
	int monotonic;
};

static void
on_progress(void *arg, size_t indexed, size_t total)
{
	struct progress *p = arg;

	p->calls++;
	if (indexed < p->last || indexed > total)
		p->monotonic = 0;
	p->last = indexed;
	p->total = total;
}

static void
test_stream(void)
{
	struct uk_symbols *a = uk_symbols_new(), *b = uk_symbols_new(),
			  *c = uk_symbols_new();
	struct uk_symbols_file f[60];
	struct uk_symbols_stream *st;
	struct uk_buf ma = UK_BUF_INIT, mb = UK_BUF_INIT;
	struct progress pr = { 0, 0, 0, 1 };
	char paths[60][32], texts[60][160];
	struct uk_err err;
	int i, added = 0;

	for (i = 0; i < 60; i++) {
		snprintf(paths[i], sizeof(paths[i]), "s%02d.%s", i,
		    i % 4 ? (i % 2 ? "py" : "js") : "md");
		snprintf(texts[i], sizeof(texts[i]),
		    i % 2 ? "def stream_fn_%d():\n    return stream_fn_%d()\n" :
			    "function streamFn%d() { return streamFn%d() }\n",
		    i, (i * 11) % 60);
		f[i].path = paths[i];
		f[i].text = texts[i];
		f[i].len = strlen(texts[i]);
	}
	uk_symstream_add_files(a, f, 60, 1, &err);
	st = uk_symbols_stream_start(b, 2);
	uk_symbols_stream_progress(st, on_progress, &pr);
	for (i = 0; i < 60; i++)
		added += uk_symbols_stream_add(st, f[i].path, f[i].text,
		    f[i].len, &err);
	ok(added == 45 && uk_symbols_stream_end(st, &err) == 45,
	    "a stream indexes the supported files handed over");
	uk_symbols_map(a, 400, &ma);
	uk_symbols_map(b, 400, &mb);
	ok(ma.len > 0 && ma.len == mb.len && !memcmp(ma.buf, mb.buf, ma.len),
	    "a stream gives the map of add_files");
	ok(pr.calls > 0 && pr.monotonic && pr.last == 45 && pr.total == 45,
	    "progress counts up to the files handed over");
	st = uk_symbols_stream_start(c, 2);
	for (i = 0; i < 60; i++)
		uk_symbols_stream_add(st, f[i].path, f[i].text, f[i].len, &err);
	uk_symbols_stream_cancel(st);
	ok(uk_symbols_nfiles(c) <= 45, "a cancelled stream stops");
	uk_buf_release(&ma);
	uk_buf_release(&mb);
	uk_symbols_free(a);
	uk_symbols_free(b);
	uk_symbols_free(c);
}

/* What counts as the project: licences, .gitattributes, tests; escapes. */
static void
test_project(void)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_buf map = UK_BUF_INIT;
	const char *lic = "MIT License\nCopyright (c) 2024 Acme\n";
	const char *other = "BSD License\nCopyright (c) 1999 Others\n";
	const char *ga = "# marks\nthird/** linguist-vendored\n"
			 "third/keep/** -linguist-vendored\n"
			 "*.gen.py linguist-generated=true\n";
	char text[256], name[32];
	int i;

	add(s, "core/api.py", "def core_entry_point(x):\n    return x\n");
	add(s, "crates/inner/lib.py", "def member_function(x):\n    return x\n");
	add(s, "libs/other/mod.py", "def other_function(x):\n    return x\n");
	add(s, "third/a.py", "def third_function(x):\n    return x\n");
	add(s, "third/keep/b.py", "def kept_function(x):\n    return x\n");
	add(s, "x/tables.gen.py", "def gen_function(x):\n    return x\n");
	add(s, "y/parser.py", "# Generated by a tool.\ndef parser_function(x):\n"
				"    return x\n");
	add(s, "tests/test_api.py", "def test_function(x):\n    return x\n");
	add(s, "weird\n\x1b[2Jname.py", "def weird_function(x):\n"
					 "    return x\n");
	for (i = 0; i < 3; i++) {
		snprintf(text, sizeof(text),
		    "core_entry_point(1)\nmember_function(1)\n"
		    "other_function(1)\nthird_function(1)\nkept_function(1)\n"
		    "gen_function(1)\nparser_function(1)\ntest_function(1)\n"
		    "weird_function(%d)\n",
		    i);
		snprintf(name, sizeof(name), "app/use%d.py", i);
		add(s, name, text);
	}
	uk_symbols_note(s, "LICENSE", lic, strlen(lic));
	uk_symbols_note(s, "crates/inner/LICENSE", lic, strlen(lic));
	uk_symbols_note(s, "crates/inner/setup.py", NULL, 0);
	uk_symbols_note(s, "libs/other/COPYING", other, strlen(other));
	uk_symbols_note(s, "libs/other/Makefile", NULL, 0);
	uk_symbols_note(s, ".gitattributes", ga, strlen(ga));
	uk_symbols_note(s, "Cargo.toml", NULL, 0);
	ok(uk_symbols_wants_text("a/LICENSE-MIT") &&
		uk_symbols_wants_text(".gitattributes") &&
		!uk_symbols_wants_text("Makefile"),
	    "the notes whose content the index reads");
	uk_symbols_map(s, 100000, &map);
	ok(strstr(map.buf, "core_entry_point") &&
		strstr(map.buf, "member_function"),
	    "a member with the root's licence is the project");
	ok(!strstr(map.buf, "other_function"),
	    "a subtree with another licence and a build file is vendored");
	ok(!strstr(map.buf, "third_function") &&
		strstr(map.buf, "kept_function"),
	    ".gitattributes linguist-vendored, and its unset");
	ok(!strstr(map.buf, "gen_function") && !strstr(map.buf, "parser_function"),
	    "linguist-generated and a 'generated by' header are left out");
	ok(!strstr(map.buf, "test_function"), "tests are not in the map");
	ok(!strncmp(map.buf, "Cargo.toml\n\n", 12),
	    "a manifest is listed at the top");
	ok(strstr(map.buf, "\nweird\\n\\x1b[2Jname.py:\n") &&
		!strchr(map.buf, '\x1b'),
	    "control characters of a path are escaped");
	uk_buf_release(&map);
	uk_symbols_free(s);
}

/* The driver: index trees for the benchmark. */
struct files {
	struct uk_symbols_file *f;
	size_t n, a;
	struct uk_symbols_stream *st; /* indexing starts as files are read */
};

static void
walk(struct files *fl, struct uk_buf *path, size_t *bytes)
{
	DIR *d = opendir(path->buf);
	struct dirent *e;
	size_t base = path->len;
	struct uk_err err;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		uk_buf_setlen(path, base);
		uk_buf_addf(path, "/%s", e->d_name);
		if (lstat(path->buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(fl, path, bytes);
		} else if (S_ISREG(st.st_mode) && uk_symbols_lang(path->buf) &&
		    st.st_size < (1 << 20)) {
			struct uk_buf text = UK_BUF_INIT;
			char chunk[65536];
			ssize_t n;
			int fd = open(path->buf, O_RDONLY);

			if (fd < 0)
				continue;
			while ((n = read(fd, chunk, sizeof(chunk))) > 0)
				uk_buf_add(&text, chunk, (size_t)n);
			close(fd);
			*bytes += text.len;
			if (fl->n == fl->a) {
				fl->a = fl->a ? 2 * fl->a : 256;
				fl->f = uk_util_xrealloc(fl->f,
				    fl->a * sizeof(*fl->f));
			}
			fl->f[fl->n].path = uk_util_xstrdup(path->buf);
			fl->f[fl->n].len = text.len;
			fl->f[fl->n].text = uk_buf_detach(&text, NULL);
			uk_symbols_stream_add(fl->st, fl->f[fl->n].path,
			    fl->f[fl->n].text, fl->f[fl->n].len, &err);
			fl->n++;
		}
	}
	closedir(d);
	uk_buf_setlen(path, base);
}

static int
driver(int argc, char **argv)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_buf map = UK_BUF_INIT, path = UK_BUF_INIT;
	struct files fl = { NULL, 0, 0, NULL };
	struct uk_err err;
	long tokens = UK_SYMBOLS_TOKENS;
	size_t bytes = 0, k;
	int i = 1, threads = 0;
	const char *json = NULL;

	while (i + 1 < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-t"))
			tokens = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-j"))
			threads = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-J"))
			json = argv[i + 1];
		i += 2;
	}
	fl.st = uk_symbols_stream_start(s, threads);
	for (; i < argc; i++) {
		uk_buf_reset(&path);
		uk_buf_addstr(&path, argv[i]);
		walk(&fl, &path, &bytes);
	}
	if (uk_symbols_stream_end(fl.st, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	uk_symbols_map(s, tokens, &map);
	fwrite(map.buf, 1, map.len, stdout);
	if (json) {
		/* The chosen definitions with their ranks and docs. */
		yajl_val j = uk_symbols_json(s);
		struct uk_buf jb = UK_BUF_INIT;
		FILE *f = fopen(json, "w");

		uk_json_to_buf(j, &jb);
		if (f) {
			fwrite(jb.buf, 1, jb.len, f);
			fclose(f);
		}
		uk_buf_release(&jb);
		uk_json_free(j);
	}
	fprintf(stderr, "files %zu bytes %zu defs %zu refs %zu\n",
	    uk_symbols_nfiles(s), bytes, uk_symbols_ndefs(s),
	    uk_symbols_nrefs(s));
	for (k = 0; k < fl.n; k++) {
		free((char *)fl.f[k].path);
		free((char *)fl.f[k].text);
	}
	free(fl.f);
	uk_buf_release(&map);
	uk_buf_release(&path);
	uk_symbols_free(s);
	return 0;
}

/*
 * A file whose parse runs past its limit is left out; the others are
 * indexed and the index does not fail.  Garbage makes tree-sitter's
 * error recovery slow: this one takes it far longer than 10 ms.
 */
static void
test_file_limit(void)
{
	struct uk_symbols *s = uk_symbols_new();
	struct uk_symbols_file f[3];
	struct uk_err err;
	size_t n = 300 * 1024, i;
	unsigned long x = 12345;
	char *junk = malloc(n);
	static const char alphabet[] = "([{<'\"`#|&^%$@!;:,.\n }])>=+-*/"
				       "abcdefghijklmnopqrstuvwxyz0123456789";
	struct uk_buf m = UK_BUF_INIT;
	long r;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		junk[i] = alphabet[(x >> 33) % (sizeof(alphabet) - 1)];
	}
	f[0].path = "a.rb";
	f[0].text = "def alpha_one\n  beta_two\nend\n";
	f[0].len = strlen(f[0].text);
	f[1].path = "junk.rb";
	f[1].text = junk;
	f[1].len = n;
	f[2].path = "b.rb";
	f[2].text = "def beta_two\n  alpha_one\nend\n";
	f[2].len = strlen(f[2].text);
	uk_symbols_set_file_limit(s, 0.01);
	r = uk_symstream_add_files(s, f, 3, 2, &err);
	ok(r == 2, "a file past its parse limit is left out, the others kept");
	uk_symbols_map(s, 1000, &m);
	ok(m.buf && strstr(m.buf, "alpha_one") && strstr(m.buf, "beta_two") &&
		!strstr(m.buf, "junk.rb"),
	    "the map has the other files' definitions");
	uk_buf_release(&m);
	uk_symbols_free(s);
	free(junk);
}

/* The -R driver: a tree read as a repository. */
struct tree {
	struct uk_symbols *s;
	struct uk_symbols_stream *st;
	char **texts, **paths;
	size_t n, a;
};

static char *
slurp(const char *path, size_t *len)
{
	struct uk_buf text = UK_BUF_INIT;
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		uk_buf_add(&text, chunk, (size_t)n);
	close(fd);
	return uk_buf_detach(&text, len);
}

static void
tree_file(struct tree *tr, const char *full, const char *rel, off_t size)
{
	struct uk_err err;
	size_t len = 0;
	char *text;

	if (!uk_symbols_lang(rel) || size > UK_REPO_FILE_MAX) {
		text = uk_symbols_wants_text(rel) ? slurp(full, &len) : NULL;
		uk_symbols_note(tr->s, rel, text, len);
		free(text);
		return;
	}
	if (uk_repo_snap_skip_file(rel, NULL, 0) || !(text = slurp(full, &len)))
		return;
	if (uk_repo_snap_skip_file(rel, text, len)) {
		free(text);
		return;
	}
	if (tr->n == tr->a) {
		tr->a = tr->a ? 2 * tr->a : 256;
		tr->texts = uk_util_xrealloc(tr->texts, tr->a * sizeof(char *));
		tr->paths = uk_util_xrealloc(tr->paths, tr->a * sizeof(char *));
	}
	tr->texts[tr->n] = text;
	tr->paths[tr->n] = uk_util_xstrdup(rel);
	uk_symbols_stream_add(tr->st, tr->paths[tr->n], text, len, &err);
	tr->n++;
}

static void
tree_walk(struct tree *tr, struct uk_buf *path, size_t root)
{
	DIR *d = opendir(path->buf);
	struct dirent *e;
	size_t base = path->len;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;
		const char *rel;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, ".git"))
			continue;
		uk_buf_setlen(path, base);
		uk_buf_addf(path, "/%s", e->d_name);
		rel = path->buf + root + 1;
		if (lstat(path->buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			uk_buf_addch(path, '/');
			if (!uk_repo_snap_skip_dir(path->buf + root + 1)) {
				uk_buf_setlen(path, path->len - 1);
				tree_walk(tr, path, root);
			}
		} else if (S_ISREG(st.st_mode)) {
			tree_file(tr, path->buf, rel, st.st_size);
		}
	}
	closedir(d);
	uk_buf_setlen(path, base);
}

static int
file_rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	double x = t->files[i].rank, y = t->files[j].rank;

	if (x != y)
		return x > y ? -1 : 1;
	/* A .c file and its header rank as one: the header first. */
	if (t->files[i].unit == t->files[j].unit &&
	    (i == t->files[i].unit) != (j == t->files[j].unit))
		return i == t->files[i].unit ? -1 : 1;
	return 0;
}

/* The n best-ranked files of t on stderr. */
static void
print_ranks(const struct symtab *t, size_t n)
{
	static const char *const cls[] = { "core", "noise", "vendor" };
	uint32_t *o = calloc(t->nfiles + 1, sizeof(*o));
	size_t k;

	if (!o)
		return;
	for (k = 0; k < t->nfiles; k++)
		o[k] = (uint32_t)k;
	qsort_r(o, t->nfiles, sizeof(*o), file_rank_cmp, (void *)t);
	for (k = 0; k < n && k < t->nfiles; k++) {
		const struct sfile *f = &t->files[o[k]];

		fprintf(stderr, "%4zu %.6f %-6s %4u %s\n", k + 1, f->rank,
		    cls[f->cls], f->ndefs, f->path);
	}
	free(o);
}

/* Every definition and reference of t as lines of tab-separated fields. */
static void
dump_table(const struct symtab *t, const char *file)
{
	static const char *const cls[] = { "core", "noise", "vendor" };
	FILE *fp = fopen(file, "w");
	size_t k;

	if (!fp)
		return;
	for (k = 0; k < t->nfiles; k++)
		fprintf(fp, "F\t%zu\t%s\t%s\t%u\t%g\n", k, t->files[k].path,
		    cls[t->files[k].cls], t->files[k].unit, t->files[k].rank);
	for (k = 0; k < t->ndefs; k++)
		fprintf(fp, "D\t%u\t%s\t%s\t%u\t%d\t%g\t%s\n", t->defs[k].file,
		    t->names[t->defs[k].name], t->defs[k].kind,
		    t->defs[k].line, t->defs[k].hidden, t->defs[k].rank,
		    t->defs[k].scope_name ? t->defs[k].scope_name : "");
	for (k = 0; k < t->nrefs; k++)
		fprintf(fp, "R\t%u\t%s\t%s\n", t->refs[k].file,
		    t->names[t->refs[k].name],
		    t->refs[k].qual == UINT32_MAX ? "" :
						    t->names[t->refs[k].qual]);
	fclose(fp);
}

static int
tree_driver(int argc, char **argv)
{
	struct uk_symbols_opts o = UK_SYMBOLS_OPTS_INIT;
	struct tree tr = { NULL, NULL, NULL, NULL, 0, 0 };
	struct uk_buf map = UK_BUF_INIT, path = UK_BUF_INIT, out = UK_BUF_INIT;
	struct uk_err err;
	const char *url = NULL;
	yajl_val rec = uk_json_object(), info = uk_json_object();
	size_t k;
	long nrank = 0;
	const char *dump = NULL;
	int i = 2;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-t"))
			o.budget = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-f"))
			o.focus = argv[i + 1];
		else if (!strcmp(argv[i], "-u"))
			url = argv[i + 1];
		else if (!strcmp(argv[i], "-r"))
			nrank = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-d"))
			dump = argv[i + 1];
	}
	if (i >= argc)
		return 2;
	tr.s = uk_symbols_new();
	/* As lib/repo.c does: a focus under tests/ is parsed. */
	if (o.focus)
		uk_symbols_parse_under(tr.s, o.focus);
	tr.st = uk_symbols_stream_start(tr.s, 0);
	uk_buf_addstr(&path, argv[i]);
	while (path.len > 1 && path.buf[path.len - 1] == '/')
		uk_buf_setlen(&path, path.len - 1);
	tree_walk(&tr, &path, path.len);
	if (uk_symbols_stream_end(tr.st, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	uk_symbols_set_map_opts(tr.s, &o, &map);
	if (nrank > 0)
		print_ranks(uk_symbols_table(tr.s), (size_t)nrank);
	if (dump)
		dump_table(uk_symbols_table(tr.s), dump);
	uk_json_set_str(rec, "url", url ? url : argv[i]);
	uk_json_set_str(rec, "symbol_map", map.buf ? map.buf : "");
	uk_json_set(rec, "symbols", uk_symbols_json(tr.s));
	if (uk_symbols_top_file(tr.s))
		uk_json_set_str(info, "top_file", uk_symbols_top_file(tr.s));
	uk_json_set_int(info, "map_tokens", (long long)uk_tokens_count(
	    o.tokenizer, map.buf ? map.buf : "", map.len));
	uk_json_set_int(info, "map_budget", o.budget);
	uk_json_set_int(info, "files_indexed",
	    (long long)uk_symbols_nfiles(tr.s));
	uk_json_set(rec, "github_info", info);
	uk_json_to_buf(rec, &out);
	puts(out.buf);
	uk_json_free(rec);
	for (k = 0; k < tr.n; k++) {
		free(tr.texts[k]);
		free(tr.paths[k]);
	}
	free(tr.texts);
	free(tr.paths);
	uk_buf_release(&map);
	uk_buf_release(&path);
	uk_buf_release(&out);
	uk_symbols_free(tr.s);
	return 0;
}

int
main(int argc, char **argv)
{
	uk_util_prog_set(argv[0]);
	if (argc > 1 && !strcmp(argv[1], "-R"))
		return tree_driver(argc, argv);
	if (argc > 1)
		return driver(argc, argv);
	test_languages();
	test_ranking();
	test_project();
	test_predicates();
	test_batch();
	test_stream();
	test_file_limit();
	return tap_done();
}
