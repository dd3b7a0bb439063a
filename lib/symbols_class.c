/* SPDX-License-Identifier: MIT */
/*
 * What each file is to the project, for the ranking: vendored (by its
 * path, a subtree with its own licence and build file, a linguist mark of
 * .gitattributes, or a generated file), evidence (tests, examples, docs)
 * or the project's own; and the graph's units, a C or C++ source with its
 * header.  See symbols_int.h and urlfetch(1), "Repository map".
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

/* Whether a directory component of path (not its last) is in names. */
static int
dir_in(const char *path, const char *const *names)
{
	const char *p = path, *slash;
	size_t n, i;

	while ((slash = strchr(p, '/'))) {
		n = (size_t)(slash - p);
		for (i = 0; names[i]; i++)
			if (n == strlen(names[i]) &&
			    !strncasecmp(p, names[i], n))
				return 1;
		p = slash + 1;
	}
	return 0;
}

/*
 * Whether a directory of path (not its last component) is one of dirs,
 * or its last component matches one of globs (fnmatch).
 */
static int
path_in(const char *path, const char *const *dirs, const char *const *globs)
{
	const char *base = uk_sympath_base(path);
	size_t i;

	if (dir_in(path, dirs))
		return 1;
	for (i = 0; globs[i]; i++)
		if (!fnmatch(globs[i], base, 0))
			return 1;
	return 0;
}

int
uk_symclass_is_vendor_path(const char *path)
{
	static const char *const dirs[] = { "deps", "vendor", "vendored",
		"third_party", "third-party", "thirdparty", "3rdparty",
		"external", "externals", "extern", "node_modules",
		"bower_components", "Godeps", "_vendor", NULL };
	static const char *const globs[] = { "*.min.js", "*.bundle.js",
		"*_pb2.py", "*.pb.go", "*.pb.cc", "*.pb.h", "*.generated.*",
		"*_generated.*", "*.g.dart", "y.tab.[ch]", "lex.yy.c",
		"bindata.go", NULL };

	return path_in(path, dirs, globs);
}

int
uk_symclass_is_noise(const char *path)
{
	static const char *const dirs[] = { "test", "tests", "testing",
		"__tests__", "__mocks__", "spec", "specs", "testdata",
		"test_data", "testutil", "testutils", "example", "examples",
		"sample", "samples", "demo", "demos", "doc", "docs",
		"documentation", "bench", "benches", "benchmark", "benchmarks",
		"fixture", "fixtures", "e2e", "integration", "tutorial",
		"tutorials", "cypress", NULL };
	static const char *const globs[] = { "test_*", "*_test.*", "*_tests.*",
		"*.test.*", "*.spec.*", "*_spec.*", "*Test.java", "*Tests.java",
		"*Test.kt", "conftest.py", "tests.py", "*_bench.*",
		"*_benchmark.*", "bench_*", "example_*", "*_example.*",
		"*-test.*", "*-tests.*", "*-spec.*", "example-*", "*-example.*",
		NULL };

	return path_in(path, dirs, globs);
}

/*
 * A module its path calls helpers: the project's toolbox, used by every
 * part and the subject of none (Django's utils/ and db/utils.py, pip's
 * utils/misc.py, express's lib/utils.js, Java's StringUtils.java and
 * the JDK's common/Utils.java).  Ranked down, not out: this
 * project's lib/util.h is still its first file.
 */
int
uk_symclass_is_helper(const char *path)
{
	static const char *const dirs[] = { "util", "utils", "utilities",
		"helper", "helpers", "misc", "compat", NULL };
	static const char *const globs[] = { "util.*", "utils.*",
		"utilities.*", "helper.*", "helpers.*", "misc.*", "compat.*",
		"*_util.*", "*_utils.*", "*_helper.*", "*_helpers.*", "*-util.*",
		"*-utils.*", "*-helper.*", "*-helpers.*", "*Util.*",
		"*Utils.*", "*Helper.*", "*Helpers.*", NULL };

	return path_in(path, dirs, globs);
}

/*
 * A file that may declare a Python package's console scripts: its
 * pyproject.toml ([project.scripts]), setup.cfg or setup.py
 * (console_scripts), or the entry_points.txt a wheel installs.
 */
int
uk_symclass_is_script_manifest(const char *base)
{
	return !strcmp(base, "pyproject.toml") || !strcmp(base, "setup.cfg") ||
	    !strcmp(base, "setup.py") || !strcmp(base, "entry_points.txt");
}

/* A build or manifest file, whose presence makes a directory a project. */
int
uk_symclass_is_build_file(const char *path)
{
	static const char *const names[] = { "Makefile", "makefile",
		"GNUmakefile", "CMakeLists.txt", "configure", "configure.ac",
		"meson.build", "package.json", "Cargo.toml", "go.mod",
		"setup.py", "setup.cfg", "pyproject.toml", "pom.xml",
		"build.gradle", "build.gradle.kts", "Gemfile", "BUILD",
		"BUILD.bazel", "SConstruct", "premake5.lua", NULL };
	const char *base = uk_sympath_base(path);
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(base, names[i]))
			return 1;
	return !fnmatch("*.gemspec", base, 0);
}

static int
is_licence(const char *path)
{
	const char *b = uk_sympath_base(path);

	return !strncasecmp(b, "LICENSE", 7) || !strncasecmp(b, "LICENCE", 7) ||
	    !strncasecmp(b, "COPYING", 7) || !strncasecmp(b, "COPYRIGHT", 9);
}

/* A licence's words, lower case, for comparing two licences. */
static char *
licence_key(const char *text, size_t len)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t i;

	for (i = 0; i < len; i++)
		if (isalnum((unsigned char)text[i]))
			uk_buf_addch(&b, (char)tolower((unsigned char)text[i]));
	return uk_buf_detach(&b, NULL);
}

/*
 * Subtrees with their own licence and a build file beside it, whose
 * licence is not one of the root's: a vendored project (a workspace's
 * member crates carry the root's licence and stay).  Appends their
 * directories ("deps/lua/") to dirs.
 */
static void
licence_subtrees(const struct symtab *t, char ***dirs, size_t *ndirs)
{
	size_t i, j, k, adirs = 0;
	char **root = NULL;
	size_t nroot = 0, aroot = 0;

	for (i = 0; i < t->nnotes; i++)
		if (!strchr(t->notes[i].path, '/') &&
		    is_licence(t->notes[i].path) && t->notes[i].text) {
			GROW(root, nroot, aroot);
			root[nroot++] =
			    licence_key(t->notes[i].text, t->notes[i].len);
		}
	for (i = 0; i < t->nnotes; i++) {
		const struct snote *n = &t->notes[i];
		char *dir, *key;
		int build = 0, same = 0;
		size_t dl;

		if (!strchr(n->path, '/') || !is_licence(n->path) || !n->text)
			continue;
		dir = uk_sympath_dir(n->path);
		dl = strlen(dir);
		for (j = 0; j < t->nnotes && !build; j++)
			build = !strncmp(t->notes[j].path, dir, dl) &&
			    !strchr(t->notes[j].path + dl, '/') &&
			    uk_symclass_is_build_file(t->notes[j].path);
		key = licence_key(n->text, n->len);
		for (k = 0; k < nroot && !same; k++)
			same = !strcmp(root[k], key);
		free(key);
		if (build && !same) {
			GROW(*dirs, *ndirs, adirs);
			(*dirs)[(*ndirs)++] = dir;
		} else {
			free(dir);
		}
	}
	for (k = 0; k < nroot; k++)
		free(root[k]);
	free(root);
}

/* One line of .gitattributes: a pattern and a linguist mark. */
struct gattr {
	char *dir; /* the .gitattributes' directory */
	char *pat;
	int set; /* 1 vendored or generated, 0 unset */
};

/* Whether pat matches a directory on the way to rel ("a/b/c.py"). */
static int
dir_match(const char *pat, int anchored, const char *rel)
{
	const char *slash, *start = rel;
	int m = 0;

	for (slash = strchr(rel, '/'); slash && !m;
	     slash = strchr(slash + 1, '/')) {
		char *part = anchored ?
		    uk_util_xmemdup(rel, (size_t)(slash - rel)) :
		    uk_util_xmemdup(start, (size_t)(slash - start));

		m = !fnmatch(pat, part, anchored ? FNM_PATHNAME : 0);
		free(part);
		start = slash + 1;
	}
	return m;
}

/* gitattributes(5) patterns: enough of them for linguist marks. */
static int
gattr_match(const struct gattr *g, const char *path)
{
	size_t dl = strlen(g->dir), pl;
	const char *rel, *pat = g->pat;
	int anchored, m;

	if (strncmp(path, g->dir, dl))
		return 0;
	rel = path + dl;
	if (*pat == '/')
		pat++;
	if (!strncmp(pat, "**/", 3))
		pat += 3;
	anchored = g->pat[0] == '/' || strchr(pat, '/') != NULL;
	pl = strlen(pat);
	if (pl > 3 && !strcmp(pat + pl - 3, "/**")) {
		char *pre = uk_util_xmemdup(pat, pl - 3);

		anchored = g->pat[0] == '/' || strchr(pre, '/') != NULL;
		m = dir_match(pre, anchored, rel);
		free(pre);
		return m;
	}
	if (!anchored)
		return !fnmatch(pat, uk_sympath_base(rel), 0) ||
		    dir_match(pat, 0, rel);
	return !fnmatch(pat, rel, FNM_PATHNAME);
}

static void
gattr_parse(const struct snote *n, struct gattr **gs, size_t *ngs, size_t *ags)
{
	const char *p = n->text, *end = n->text + n->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *w, *q;
		char *line = uk_util_xmemdup(p, (size_t)(le - p));
		char *save = line, *pat;
		size_t pl;

		p = le + 1;
		q = line + strspn(line, " \t");
		if (!*q || *q == '#') {
			free(save);
			continue;
		}
		pl = strcspn(q, " \t\r");
		pat = uk_util_xmemdup(q, pl);
		for (w = q + pl; *w;) {
			size_t wl;
			int set = -1;

			w += strspn(w, " \t\r");
			wl = strcspn(w, " \t\r");
			if ((wl == 17 &&
				!strncmp(w, "linguist-vendored", 17)) ||
			    (wl == 18 &&
				!strncmp(w, "linguist-generated", 18)) ||
			    (wl == 22 &&
				!strncmp(w, "linguist-vendored=true", 22)) ||
			    (wl == 23 &&
				!strncmp(w, "linguist-generated=true", 23)))
				set = 1;
			else if ((wl > 9 && !strncmp(w, "-linguist-", 10)) ||
			    (wl > 15 && !strncmp(w, "linguist-", 9) &&
				!strncmp(w + wl - 6, "=false", 6)))
				set = 0;
			if (set >= 0) {
				GROW(*gs, *ngs, *ags);
				(*gs)[*ngs].dir = uk_sympath_dir(n->path);
				(*gs)[*ngs].pat = uk_util_xstrdup(pat);
				(*gs)[(*ngs)++].set = set;
			}
			w += wl;
		}
		free(pat);
		free(save);
	}
}

/* Each file's class: vendored (by four rules), noise or the project. */
void
uk_symclass_classify(struct symtab *t)
{
	char **dirs = NULL;
	struct gattr *gs = NULL;
	size_t ndirs = 0, ngs = 0, ags = 0, i, j;

	licence_subtrees(t, &dirs, &ndirs);
	for (i = 0; i < t->nnotes; i++)
		if (t->notes[i].text &&
		    !strcmp(uk_sympath_base(t->notes[i].path),
			".gitattributes"))
			gattr_parse(&t->notes[i], &gs, &ngs, &ags);
	for (i = 0; i < t->nfiles; i++) {
		struct sfile *f = &t->files[i];
		int vendor =
		    uk_symclass_is_vendor_path(f->path) || f->generated;

		for (j = 0; j < ndirs && !vendor; j++)
			vendor = !strncmp(f->path, dirs[j], strlen(dirs[j]));
		for (j = 0; j < ngs; j++)
			if (gattr_match(&gs[j], f->path))
				vendor = gs[j].set;
		f->cls = vendor                              ? FC_VENDOR :
		    f->focus || !uk_symclass_is_noise(f->path) ? FC_CORE :
							       FC_NOISE;
	}
	for (j = 0; j < ndirs; j++)
		free(dirs[j]);
	free(dirs);
	for (j = 0; j < ngs; j++) {
		free(gs[j].dir);
		free(gs[j].pat);
	}
	free(gs);
}

/*
 * The public header of a private one, by the usual names of private
 * headers: foo_int.h, foo_internal.h, foo-private.h, foo_impl.h,
 * foo_p.h (Qt) in the directory of foo.h.  SIZE_MAX when i is none.
 */
static size_t
private_header_of(const struct symtab *t, size_t i)
{
	static const char *const sfx[] = { "_int", "_internal", "-internal",
		"_private", "-private", "_priv", "-priv", "_impl", "-impl",
		"_p", NULL };
	const char *p = t->files[i].path, *b = uk_sympath_base(p);
	size_t sl = uk_sympath_stem_len(b), k, j, n;

	if (!uk_sympath_has_ext(p, UK_SYM_C_HEADERS))
		return SIZE_MAX;
	for (k = 0; sfx[k]; k++) {
		n = strlen(sfx[k]);
		if (sl <= n || strncmp(b + sl - n, sfx[k], n))
			continue;
		for (j = 0; j < t->nfiles; j++) {
			const char *q = t->files[j].path,
				   *c = uk_sympath_base(q);

			if (j != i && c - q == b - p &&
			    !strncmp(p, q, (size_t)(b - p)) &&
			    uk_sympath_has_ext(q, UK_SYM_C_HEADERS) &&
			    uk_sympath_stem_len(c) == sl - n &&
			    !strncmp(b, c, sl - n) &&
			    t->files[j].cls == t->files[i].cls)
				return j;
		}
	}
	return SIZE_MAX;
}

static int
same_dir(const char *p, const char *q)
{
	size_t n = (size_t)(uk_sympath_base(p) - p);

	return (size_t)(uk_sympath_base(q) - q) == n && !strncmp(p, q, n);
}

/*
 * A .c file and its header are one node of the graph: the header with
 * the same name in the same directory, else the only one in the tree.
 */
void
uk_symclass_pair_units(struct symtab *t)
{
	size_t i, j;

	for (i = 0; i < t->nfiles; i++)
		t->files[i].unit = (uint32_t)i;
	for (i = 0; i < t->nfiles; i++) {
		const char *p = t->files[i].path, *b = uk_sympath_base(p);
		size_t sl = uk_sympath_stem_len(b), found = SIZE_MAX,
		       nfound = 0;

		if (!uk_sympath_has_ext(p, UK_SYM_C_SOURCES))
			continue;
		for (j = 0; j < t->nfiles; j++) {
			const char *q = t->files[j].path,
				   *c = uk_sympath_base(q);

			if (!uk_sympath_has_ext(q, UK_SYM_C_HEADERS) ||
			    uk_sympath_stem_len(c) != sl || strncmp(b, c, sl))
				continue;
			if (c - q == b - p && !strncmp(p, q, (size_t)(b - p))) {
				found = j;
				nfound = 1;
				break;
			}
			found = j;
			nfound++;
		}
		/*
		 * A program's main file (cmd/toolack.c) implements no
		 * header of another directory (lib/toolack.h): else the
		 * program's teleport made the library's unit.
		 */
		if (nfound == 1 && t->files[found].cls == t->files[i].cls &&
		    (!t->files[i].entry || same_dir(p, t->files[found].path)))
			t->files[i].unit = (uint32_t)found;
	}
	for (i = 0; i < t->nfiles; i++) {
		size_t pub = private_header_of(t, i);

		if (pub != SIZE_MAX && t->files[pub].unit == pub &&
		    t->files[i].unit == i)
			t->files[i].unit = (uint32_t)pub;
	}
}
