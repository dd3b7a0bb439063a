/* SPDX-License-Identifier: MIT */
/*
 * Ranking for the repository map: what counts as the project, which
 * definitions a reference points at, and PageRank over the files.
 * See symbols_int.h and urlfetch(1), "Repository map".
 */
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

/* Teleport weights of PageRank's personalisation vector. */
#define P_CORE  1.0
#define P_NOISE 0.02 /* tests, examples, docs: 1/50 of a project file */
#define P_AWAY  0.02 /* with a focus: files outside it */
#define P_ENTRY 10.0 /* a program's main: where a reader starts */
#define DAMPING 0.85
#define OUT_MIN 1.0 /* the weight of one reference to a plain name */
#define BREADTH_EXP 0.5 /* a file's rank times sqrt(1 + its used names) */
#define IMPORT_W 1.0 /* one file importing (including) another */
#define SELF_W 0.1 /* a reference to a name its own file defines too */
#define BARE_W 0.1 /* an include none of whose names is used */

static const char *
base_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

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

static int
is_vendor_path(const char *path)
{
	static const char *const dirs[] = { "deps", "vendor", "vendored",
		"third_party", "third-party", "thirdparty", "3rdparty",
		"external", "externals", "extern", "node_modules",
		"bower_components", "Godeps", "_vendor", NULL };
	static const char *const globs[] = { "*.min.js", "*.bundle.js",
		"*_pb2.py", "*.pb.go", "*.pb.cc", "*.pb.h", "*.generated.*",
		"*_generated.*", "*.g.dart", "y.tab.[ch]", "lex.yy.c",
		"bindata.go", NULL };
	const char *base = base_of(path);
	size_t i;

	if (dir_in(path, dirs))
		return 1;
	for (i = 0; globs[i]; i++)
		if (!fnmatch(globs[i], base, 0))
			return 1;
	return 0;
}

int
uk_symtab_is_noise(const char *path)
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
		"*_benchmark.*", "bench_*", "example_*", "*_example.*", NULL };
	const char *base = base_of(path);
	size_t i;

	if (dir_in(path, dirs))
		return 1;
	for (i = 0; globs[i]; i++)
		if (!fnmatch(globs[i], base, 0))
			return 1;
	return 0;
}

/* A build or manifest file, whose presence makes a directory a project. */
int
uk_symtab_is_build_file(const char *path)
{
	static const char *const names[] = { "Makefile", "makefile",
		"GNUmakefile", "CMakeLists.txt", "configure", "configure.ac",
		"meson.build", "package.json", "Cargo.toml", "go.mod",
		"setup.py", "setup.cfg", "pyproject.toml", "pom.xml",
		"build.gradle", "build.gradle.kts", "Gemfile", "BUILD",
		"BUILD.bazel", "SConstruct", "premake5.lua", NULL };
	const char *base = base_of(path);
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(base, names[i]))
			return 1;
	return !fnmatch("*.gemspec", base, 0);
}

static int
is_licence(const char *path)
{
	const char *b = base_of(path);

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

/* The directory of path with its slash ("a/b/"), or "" at the root. */
static char *
dir_of(const char *path)
{
	const char *b = base_of(path);

	return uk_xmemdup(path, (size_t)(b - path));
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
		dir = dir_of(n->path);
		dl = strlen(dir);
		for (j = 0; j < t->nnotes && !build; j++)
			build = !strncmp(t->notes[j].path, dir, dl) &&
			    !strchr(t->notes[j].path + dl, '/') &&
			    uk_symtab_is_build_file(t->notes[j].path);
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
		    uk_xmemdup(rel, (size_t)(slash - rel)) :
		    uk_xmemdup(start, (size_t)(slash - start));

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
		char *pre = uk_xmemdup(pat, pl - 3);

		anchored = g->pat[0] == '/' || strchr(pre, '/') != NULL;
		m = dir_match(pre, anchored, rel);
		free(pre);
		return m;
	}
	if (!anchored)
		return !fnmatch(pat, base_of(rel), 0) || dir_match(pat, 0, rel);
	return !fnmatch(pat, rel, FNM_PATHNAME);
}

static void
gattr_parse(const struct snote *n, struct gattr **gs, size_t *ngs, size_t *ags)
{
	const char *p = n->text, *end = n->text + n->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *w, *q;
		char *line = uk_xmemdup(p, (size_t)(le - p));
		char *save = line, *pat;
		size_t pl;

		p = le + 1;
		q = line + strspn(line, " \t");
		if (!*q || *q == '#') {
			free(save);
			continue;
		}
		pl = strcspn(q, " \t\r");
		pat = uk_xmemdup(q, pl);
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
				(*gs)[*ngs].dir = dir_of(n->path);
				(*gs)[*ngs].pat = uk_xstrdup(pat);
				(*gs)[(*ngs)++].set = set;
			}
			w += wl;
		}
		free(pat);
		free(save);
	}
}

/* Each file's class: vendored (by four rules), noise or the project. */
static void
classify(struct symtab *t)
{
	char **dirs = NULL;
	struct gattr *gs = NULL;
	size_t ndirs = 0, ngs = 0, ags = 0, i, j;

	licence_subtrees(t, &dirs, &ndirs);
	for (i = 0; i < t->nnotes; i++)
		if (t->notes[i].text &&
		    !strcmp(base_of(t->notes[i].path), ".gitattributes"))
			gattr_parse(&t->notes[i], &gs, &ngs, &ags);
	for (i = 0; i < t->nfiles; i++) {
		struct sfile *f = &t->files[i];
		int vendor = is_vendor_path(f->path) || f->generated;

		for (j = 0; j < ndirs && !vendor; j++)
			vendor = !strncmp(f->path, dirs[j], strlen(dirs[j]));
		for (j = 0; j < ngs; j++)
			if (gattr_match(&gs[j], f->path))
				vendor = gs[j].set;
		f->cls = vendor                              ? FC_VENDOR :
		    f->focus || !uk_symtab_is_noise(f->path) ? FC_CORE :
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

static int
has_ext(const char *path, const char *exts)
{
	const char *dot = strrchr(base_of(path), '.');
	char buf[16];
	size_t n;

	if (!dot || (n = strlen(dot)) + 2 > sizeof(buf))
		return 0;
	memcpy(buf, dot, n);
	buf[n] = '.';
	buf[n + 1] = '\0';
	return strstr(exts, buf) != NULL;
}

#define C_HEADERS ".h.hh.hpp.hxx."
#define C_SOURCES ".c.cc.cpp.cxx."

static size_t
stem_len(const char *base)
{
	const char *dot = strrchr(base, '.');

	return dot ? (size_t)(dot - base) : strlen(base);
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
	const char *p = t->files[i].path, *b = base_of(p);
	size_t sl = stem_len(b), k, j, n;

	if (!has_ext(p, C_HEADERS))
		return SIZE_MAX;
	for (k = 0; sfx[k]; k++) {
		n = strlen(sfx[k]);
		if (sl <= n || strncmp(b + sl - n, sfx[k], n))
			continue;
		for (j = 0; j < t->nfiles; j++) {
			const char *q = t->files[j].path, *c = base_of(q);

			if (j != i && c - q == b - p &&
			    !strncmp(p, q, (size_t)(b - p)) &&
			    has_ext(q, C_HEADERS) && stem_len(c) == sl - n &&
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
	size_t n = (size_t)(base_of(p) - p);

	return (size_t)(base_of(q) - q) == n && !strncmp(p, q, n);
}

/*
 * A .c file and its header are one node of the graph: the header with
 * the same name in the same directory, else the only one in the tree.
 */
static void
pair_units(struct symtab *t)
{
	size_t i, j;

	for (i = 0; i < t->nfiles; i++)
		t->files[i].unit = (uint32_t)i;
	for (i = 0; i < t->nfiles; i++) {
		const char *p = t->files[i].path, *b = base_of(p);
		size_t sl = stem_len(b), found = SIZE_MAX, nfound = 0;

		if (!has_ext(p, C_SOURCES))
			continue;
		for (j = 0; j < t->nfiles; j++) {
			const char *q = t->files[j].path, *c = base_of(q);

			if (!has_ext(q, C_HEADERS) || stem_len(c) != sl ||
			    strncmp(b, c, sl))
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

/* Definitions by (name, file, line): for hiding duplicates. */
static int
def_key_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	const struct sdef *x = &t->defs[*(const uint32_t *)a];
	const struct sdef *y = &t->defs[*(const uint32_t *)b];

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/*
 * Hide what the map shows once: overloads (the same name in the same
 * scope of a file, Go aside, whose methods differ by receiver) and the
 * definition in a .c file of a function its header declares.
 */
static void
hide_duplicates(struct symtab *t, const uint32_t *byname)
{
	size_t i, j, e;

	for (i = 0; i < t->ndefs; i++)
		t->defs[i].hidden = 0;
	for (i = 0; i < t->ndefs; i = e) {
		int header = 0;

		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++) {
			const struct sdef *d = &t->defs[byname[e]];

			header |= has_ext(t->files[d->file].path, C_HEADERS) &&
			    !strcmp(d->kind, "function");
		}
		for (j = i; j < e; j++) {
			struct sdef *d = &t->defs[byname[j]];
			const char *path = t->files[d->file].path;
			size_t k;

			if (header && has_ext(path, C_SOURCES) &&
			    !strcmp(d->kind, "function")) {
				d->hidden = 1;
				continue;
			}
			if (has_ext(path, ".go."))
				continue;
			for (k = i; k < j; k++) {
				const struct sdef *o = &t->defs[byname[k]];

				if (o->file == d->file && !o->hidden &&
				    o->scope_line == d->scope_line) {
					d->hidden = 1;
					break;
				}
			}
		}
	}
}

/*
 * Definitions a reader never lands on when following a name: a Rust
 * trait impl's associated type (`type Value = Value;` in `impl Visitor
 * for V`) binds the trait's name; the type is defined elsewhere.  Left
 * as definers, eight such bindings split every `Value` reference of
 * serde_json eight ways.  Hidden: neither a definer nor in the map.
 */
static void
hide_bindings(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->ndefs; i++) {
		struct sdef *d = &t->defs[i];

		if (d->scope_name && !strncmp(d->scope_name, "impl ", 5) &&
		    !strcmp(d->kind, "class") &&
		    has_ext(t->files[d->file].path, ".rs."))
			d->hidden = 1;
	}
}

/*
 * Names a reader does not follow to the project's definition: they
 * shadow a language's builtins or standard library, or are so common
 * (get, new, len) that a call says nothing of which definition is meant.
 */
static const char *const common_names[] = { "Arc", "BTreeMap", "BTreeSet",
	"Box", "Clone", "Cow", "Debug", "Default", "Display", "Drop", "Eq",
	"Err", "Error", "Errorf", "From", "Hash", "HashMap", "HashSet", "Into",
	"Iterator", "List", "Map", "Mutex", "None", "Object", "Ok", "Option",
	"Ord", "OrderedDict", "PartialEq", "PartialOrd", "Rc", "RefCell",
	"Result", "Self", "Set", "Some", "Sprintf", "String", "ToString", "Vec",
	"__call__", "__enter__", "__eq__", "__exit__", "__getattr__",
	"__getitem__", "__hash__", "__init__", "__iter__", "__len__", "__new__",
	"__repr__", "__str__", "abs", "add", "all", "and_then", "any", "append",
	"apply", "as_bytes", "as_mut", "as_ref", "as_str", "assert", "bool",
	"borrow", "borrow_mut", "bytes", "call", "callable", "callback",
	"calloc", "cap", "chain", "chr", "classmethod", "clear", "clone",
	"close", "cmp", "collect", "concat", "contains", "contextmanager",
	"copy", "count", "create", "decode", "decorator", "deepcopy", "default",
	"defaultdict", "delattr", "delete", "dict", "difference", "dir",
	"discard", "divmod", "drop", "emit", "encode", "end", "entries",
	"enumerate", "eq", "equals", "error", "eval", "exec", "exists",
	"expect", "expect_err", "exports", "extend", "filter", "find", "first",
	"float", "flush", "fmt", "forEach", "format", "fprintf", "free", "from",
	"from_str", "fromkeys", "frozenset", "func", "get", "getName",
	"getattr", "globals", "handle", "has", "hasOwnProperty", "hasattr",
	"hash", "hashCode", "hex", "id", "index", "indexOf", "info", "init",
	"inner", "insert", "int", "intersection", "into", "into_iter",
	"isEmpty", "is_empty", "is_err", "is_none", "is_ok", "is_some",
	"isdisjoint", "isinstance", "issubclass", "issubset", "issuperset",
	"items", "iter", "iter_mut", "join", "keys", "last", "len", "length",
	"list", "load", "log", "lower", "lru_cache", "main", "make", "malloc",
	"map", "map_err", "match", "max", "memcmp", "memcpy", "memset", "min",
	"namedtuple", "new", "next", "object", "oct", "ok", "ok_or", "open",
	"ord", "panic", "parse", "partial", "pop", "popitem", "pow", "print",
	"printf", "property", "push", "put", "range", "read", "realloc",
	"recover", "reduce", "remove", "replace", "repr", "require", "reset",
	"resolve", "reverse", "reversed", "round", "run", "save", "send", "set",
	"setName", "setattr", "setdefault", "size", "slice", "snprintf", "sort",
	"sorted", "split", "start", "staticmethod", "stop", "str", "strchr",
	"strcmp", "strdup", "strip", "strlen", "strncmp", "sum", "super",
	"test", "then", "toLowerCase", "toString", "toUpperCase", "to_owned",
	"to_string", "to_vec", "trim", "tuple", "type", "union", "unwrap",
	"unwrap_or", "unwrap_or_default", "unwrap_or_else", "update", "upper",
	"validate", "value", "values", "vars", "warn", "with", "wrapper",
	"wraps", "write", "write_fmt", "write_str", "zip" };

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
is_common_name(const char *n)
{
	static int sorted;
	static char *copy[sizeof(common_names) / sizeof(common_names[0])];
	size_t nn = sizeof(common_names) / sizeof(common_names[0]);
	const char *key = n;

	/* Sorted once; ranking runs on one thread at a time per index. */
	if (!sorted) {
		memcpy(copy, common_names, sizeof(copy));
		qsort(copy, nn, sizeof(copy[0]), str_cmp);
		sorted = 1;
	}
	return bsearch(&key, copy, nn, sizeof(copy[0]), str_cmp) != NULL;
}

/*
 * How much a reference to name says about its definitions: a private or
 * common one much less; split among the files (units) that define it.
 * Its length says nothing more: `Engine` in every signature is followed
 * to its definition as surely as `formatName` (aider's bonus for long
 * names made such a helper outrank the type the project is written in).
 */
static double
name_weight(const char *n, size_t ndefiners)
{
	double mul = 1;

	if (is_common_name(n))
		mul *= 0.02;
	else if (n[0] == '_')
		mul *= 0.1;
	if (strlen(n) <= 2)
		mul *= 0.1;
	return mul / (double)(ndefiners ? ndefiners : 1);
}

struct edge {
	uint32_t from, to; /* units */
	double w;
	uint32_t group; /* the target definition's (name, file) group */
	int name_edge;  /* to a definition (a name or an imported name) */
};

static int
ref_cmp(const void *a, const void *b)
{
	const struct sref *x = a, *y = b;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return 0;
}

static int
visible(const struct symtab *t, const struct sdef *d)
{
	return !d->hidden && t->files[d->file].cls != FC_VENDOR;
}

/* A name a file imports from outside the tree. */
struct extname {
	uint32_t file;
	char *name;
};

static int
extname_cmp(const void *a, const void *b)
{
	const struct extname *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct extnames {
	struct extname *v;
	size_t n, a;
};

static int
is_external(const struct extnames *x, uint32_t file, const char *name)
{
	struct extname key = { file, (char *)name };

	return x->n &&
	    bsearch(&key, x->v, x->n, sizeof(*x->v), extname_cmp) != NULL;
}

/* The edges of the references to one name, defined by byname[i..e). */
static void
name_edges(struct symtab *t, const uint32_t *byname, const uint32_t *group,
    const struct extnames *ext, size_t i, size_t e, size_t *r,
    struct edge **edges, size_t *nedges, size_t *aedges)
{
	uint32_t name = t->defs[byname[i]].name, last = UINT32_MAX;
	size_t ndef = 0, k;
	double mul, selfw;

	for (k = i; k < e; k++) {
		const struct sdef *d = &t->defs[byname[k]];

		if (visible(t, d) && t->files[d->file].unit != last) {
			ndef++;
			last = t->files[d->file].unit;
		}
	}
	while (*r < t->nrefs && t->refs[*r].name < name)
		(*r)++;
	if (!ndef)
		return;
	mul = name_weight(t->names[name], ndef);
	while (*r < t->nrefs && t->refs[*r].name == name) {
		uint32_t from = t->refs[*r].file, fu = t->files[from].unit;
		size_t cnt = 0;

		while (*r < t->nrefs && t->refs[*r].name == name &&
		    t->refs[*r].file == from) {
			cnt++;
			(*r)++;
		}
		/*
		 * `from itertools import chain`: the file's chain() calls
		 * are the library's, not the project's Query.chain.
		 */
		if (t->files[from].cls == FC_VENDOR ||
		    is_external(ext, from, t->names[name]))
			continue;
		/*
		 * Every definer gets an edge, even when the referring file
		 * defines the name too: api.request() calling
		 * Session.request() is a reference a reader follows.  But
		 * then the reader looks at the file's own definition first,
		 * and the others get SELF_W of the weight: else a file that
		 * calls its own self.func() votes for every other func
		 * (Django's functional.py and a GEOS factory's property
		 * ranked each other into the first three).
		 */
		selfw = 1;
		for (k = i; k < e; k++)
			if (visible(t, &t->defs[byname[k]]) &&
			    t->files[t->defs[byname[k]].file].unit == fu)
				selfw = SELF_W;
		for (k = i; k < e; k++) {
			const struct sdef *d = &t->defs[byname[k]];
			uint32_t to = t->files[d->file].unit;

			if (!visible(t, d) || to == fu ||
			    (k > i && d->file == t->defs[byname[k - 1]].file))
				continue;
			GROW(*edges, *nedges, *aedges);
			(*edges)[*nedges].from = fu;
			(*edges)[*nedges].to = to;
			(*edges)[*nedges].w = selfw * mul * sqrt((double)cnt);
			(*edges)[*nedges].group = group[byname[k]];
			(*edges)[*nedges].name_edge = 1;
			(*nedges)++;
		}
	}
}

/*
 * Imports and includes as edges: a file that imports a module depends on
 * the module's file whatever names it then uses, and the resolution is
 * by path, not by a name several files may define.  Keys of the files:
 * the path (C and C++, whose includes name the extension) or the path
 * without its extension, a package's __init__.py, mod.rs or index.js
 * also by its directory, and every suffix of those at a slash.
 */
struct modkey {
	const char *key; /* a suffix of full */
	char *full;
	uint32_t file;
};

struct modres {
	struct modkey *keys;
	size_t nkeys;
	struct symtab *t;
};

static int
modkey_cmp(const void *a, const void *b)
{
	return strcmp(((const struct modkey *)a)->key,
	    ((const struct modkey *)b)->key);
}

static int
is_c_family(const char *path)
{
	return has_ext(path, C_HEADERS C_SOURCES);
}

static void
modres_init(struct modres *m, struct symtab *t)
{
	size_t i, akeys = 0;

	memset(m, 0, sizeof(*m));
	m->t = t;
	for (i = 0; i < t->nfiles; i++) {
		const char *path = t->files[i].path, *b = base_of(path), *k;
		char *full[2];
		size_t nfull = 1, j, sl = stem_len(b);

		if (t->files[i].cls == FC_VENDOR)
			continue;
		full[0] = is_c_family(path) ?
		    uk_xstrdup(path) :
		    uk_xmemdup(path, (size_t)(b - path) + sl);
		if (!is_c_family(path) && b > path &&
		    ((sl == 8 && !strncmp(b, "__init__", 8)) ||
			(sl == 3 && !strncmp(b, "mod", 3)) ||
			(sl == 5 && !strncmp(b, "index", 5))))
			full[nfull++] =
			    uk_xmemdup(path, (size_t)(b - path) - 1);
		for (j = 0; j < nfull; j++)
			for (k = full[j]; k; k = strchr(k, '/')) {
				if (*k == '/')
					k++;
				GROW(m->keys, m->nkeys, akeys);
				m->keys[m->nkeys].key = k;
				m->keys[m->nkeys].full = k == full[j] ?
				    full[j] : NULL;
				m->keys[m->nkeys++].file = (uint32_t)i;
			}
	}
	if (m->nkeys)
		qsort(m->keys, m->nkeys, sizeof(*m->keys), modkey_cmp);
}

static void
modres_release(struct modres *m)
{
	size_t i;

	for (i = 0; i < m->nkeys; i++)
		free(m->keys[i].full);
	free(m->keys);
}

/*
 * The file whose key is path: exact (from the tree's root) when exact,
 * else the one file whose key ends with it.  SIZE_MAX when none or when
 * several files have it (a reader would not know which is meant).
 */
static size_t
modres_find(const struct modres *m, const char *path, int exact)
{
	struct modkey key = { path, NULL, 0 };
	const struct modkey *k =
	    bsearch(&key, m->keys, m->nkeys, sizeof(*m->keys), modkey_cmp);
	size_t lo, hi, found = SIZE_MAX;

	if (!k)
		return SIZE_MAX;
	lo = hi = (size_t)(k - m->keys);
	while (lo > 0 && !strcmp(m->keys[lo - 1].key, path))
		lo--;
	while (hi + 1 < m->nkeys && !strcmp(m->keys[hi + 1].key, path))
		hi++;
	for (; lo <= hi; lo++) {
		if (exact && !m->keys[lo].full)
			continue;
		if (found != SIZE_MAX && found != m->keys[lo].file)
			return SIZE_MAX;
		found = m->keys[lo].file;
	}
	return found;
}

/* dir (ending in '/' or "") joined with rel, "." and ".." resolved. */
static char *
join_path(const char *dir, const char *rel)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *p;

	uk_buf_addstr(&b, dir);
	for (p = rel; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			/* Up one: drop the last component of b. */
			size_t l = b.len ? b.len - 1 : 0;

			if (!l) {
				uk_buf_release(&b);
				return NULL;
			}
			while (l > 0 && b.buf[l - 1] != '/')
				l--;
			uk_buf_setlen(&b, l);
		} else if (n && !(n == 1 && *p == '.')) {
			uk_buf_add(&b, p, n);
			uk_buf_addch(&b, '/');
		}
		p += n;
		if (*p == '/')
			p++;
	}
	if (b.len)
		uk_buf_setlen(&b, b.len - 1);
	return uk_buf_detach(&b, NULL);
}

/* s with a slash after it ("a" -> "a/"), or "" for "". */
static char *
with_slash(const char *s)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addstr(&b, s);
	if (*s)
		uk_buf_addch(&b, '/');
	if (!b.len)
		return uk_xstrdup("");
	return uk_buf_detach(&b, NULL);
}

/* The text between the quotes of a string literal, or NULL. */
static char *
unquote(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || (s[0] != '"' && s[0] != '\'' && s[0] != '`') ||
	    s[n - 1] != s[0])
		return NULL;
	return uk_xmemdup(s + 1, n - 2);
}

/* What one import names: files, each with the name it takes, if one. */
struct targets {
	size_t *file;
	char **name; /* malloc'd or NULL */
	size_t n, a, aname;
	char **ext; /* names imported from outside the tree */
	size_t next, aext;
};

static void
add_external(struct targets *o, const char *name, size_t len)
{
	GROW(o->ext, o->next, o->aext);
	o->ext[o->next++] = uk_xmemdup(name, len);
}

static void
add_target(struct targets *o, size_t f, const char *name, size_t len)
{
	if (f == SIZE_MAX)
		return;
	GROW(o->file, o->n, o->a);
	GROW(o->name, o->n, o->aname);
	o->file[o->n] = f;
	o->name[o->n++] = name ? uk_xmemdup(name, len) : NULL;
}

static void
targets_reset(struct targets *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		free(o->name[i]);
	o->n = 0;
	for (i = 0; i < o->next; i++)
		free(o->ext[i]);
	o->next = 0;
}

/* A C or C++ include: beside the includer, from the root, or unique. */
static void
resolve_include(const struct modres *m, const char *from, const char *text,
    struct targets *out)
{
	char *rel = unquote(text), *dir, *p;
	size_t f = SIZE_MAX;

	if (!rel)
		return;
	dir = dir_of(from);
	if ((p = join_path(dir, rel))) {
		f = modres_find(m, p, 1);
		free(p);
	}
	if (f == SIZE_MAX && (p = join_path("", rel))) {
		f = modres_find(m, p, 0);
		free(p);
	}
	add_target(out, f, NULL, 0);
	free(dir);
	free(rel);
}

/* A JS or TS import of a relative path ("./router"); packages aside. */
static void
resolve_js(const struct modres *m, const char *from, const char *text,
    struct targets *out)
{
	char *rel = unquote(text), *dir, *p;

	if (!rel)
		return;
	if (rel[0] == '.') {
		dir = dir_of(from);
		if ((p = join_path(dir, rel))) {
			/* "./x.js" names the file with its extension. */
			size_t sl = stem_len(base_of(p)), f;

			f = modres_find(m, p, 1);
			if (f == SIZE_MAX && has_ext(p, ".js.mjs.cjs.ts.jsx.tsx.")) {
				p[(size_t)(base_of(p) - p) + sl] = '\0';
				f = modres_find(m, p, 1);
			}
			add_target(out, f, NULL, 0);
			free(p);
		}
		free(dir);
	}
	free(rel);
}

/*
 * A Python module path, dotted: relative (leading dots) from the
 * importer's package, else from the root, a directory the root holds
 * (src/), or below the package the root is (its own name left out).
 */
static size_t
python_module(const struct modres *m, const char *from, const char *mod,
    size_t len)
{
	size_t dots = 0, i, f = SIZE_MAX;
	char *rel, *p, *dir = NULL;
	struct uk_buf b = UK_BUF_INIT;

	while (dots < len && mod[dots] == '.')
		dots++;
	for (i = dots; i < len; i++)
		uk_buf_addch(&b, mod[i] == '.' ? '/' : mod[i]);
	rel = uk_buf_detach(&b, NULL);
	if (dots) {
		dir = dir_of(from);
		for (i = 1; i < dots; i++) {
			char *up = join_path(dir, "..");

			free(dir);
			if (!up) {
				free(rel);
				return SIZE_MAX;
			}
			dir = with_slash(up);
			free(up);
		}
		if ((p = join_path(dir, rel))) {
			f = *p ? modres_find(m, p, 1) : SIZE_MAX;
			if (!*p || f == SIZE_MAX) {
				/* "from . import x": the package itself. */
				free(p);
				p = join_path(dir, "__init__");
				f = p ? modres_find(m, p, 1) : SIZE_MAX;
			}
			free(p);
		}
		free(dir);
	} else if (*rel) {
		f = modres_find(m, rel, 1);
		if (f == SIZE_MAX && strchr(rel, '/'))
			f = modres_find(m, rel, 0);
		if (f == SIZE_MAX && strchr(rel, '/'))
			f = modres_find(m, strchr(rel, '/') + 1, 1);
	}
	free(rel);
	return f;
}

/* Whether c may be part of a Python dotted name. */
static int
py_word(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' ||
	    (unsigned char)c >= 0x80;
}

/* "import a.b, c as d" or "from a import b, (c as d)": the modules. */
static void
resolve_python(const struct modres *m, const char *from, const char *text,
    struct targets *out)
{
	const char *p = text, *mod = NULL;
	size_t modlen = 0, base = SIZE_MAX;
	int in_from = !strncmp(p, "from", 4), after_as = 0;

	p += in_from ? 4 : 6;
	while (*p) {
		const char *w;
		size_t wl;

		while (*p && !py_word(*p))
			p++;
		for (w = p; *p && py_word(*p); p++)
			;
		wl = (size_t)(p - w);
		if (!wl)
			break;
		if (wl == 6 && !strncmp(w, "import", 6) && in_from && mod) {
			base = python_module(m, from, mod, modlen);
			continue;
		}
		if (wl == 2 && !strncmp(w, "as", 2)) {
			after_as = 1;
			continue;
		}
		if (after_as) {
			after_as = 0;
			continue;
		}
		if (in_from && !mod) {
			mod = w;
			modlen = wl;
		} else if (in_from) {
			/* from a import b: the submodule a.b, else a. */
			struct uk_buf sub = UK_BUF_INIT;
			size_t f;

			uk_buf_add(&sub, mod, modlen);
			if (mod[modlen - 1] != '.')
				uk_buf_addch(&sub, '.');
			uk_buf_add(&sub, w, wl);
			f = python_module(m, from, sub.buf, sub.len);
			uk_buf_release(&sub);
			if (f != SIZE_MAX)
				add_target(out, f, NULL, 0);
			else if (base != SIZE_MAX)
				add_target(out, base, w, wl);
			else if (mod[0] != '.')
				add_external(out, w, wl);
		} else {
			add_target(out, python_module(m, from, w, wl), NULL, 0);
		}
	}
}

/* The module path of a Rust file: "src/value" for src/value/mod.rs. */
static char *
rust_self(const char *path)
{
	const char *b = base_of(path);
	size_t sl = stem_len(b);

	if ((sl == 3 && !strncmp(b, "mod", 3)) ||
	    (sl == 3 && !strncmp(b, "lib", 3)) ||
	    (sl == 4 && !strncmp(b, "main", 4)))
		return uk_xmemdup(path, b > path ? (size_t)(b - path) - 1 : 0);
	return uk_xmemdup(path, (size_t)(b - path) + sl);
}

/* The longest prefix of the module path dir/a/b/c that is a file. */
static void
rust_path(const struct modres *m, const char *dir, const char *rest,
    struct targets *out)
{
	char *p = join_path(dir, rest), *slash, *whole;
	size_t f = SIZE_MAX, pl;

	if (!p)
		return;
	whole = uk_xstrdup(p);
	while (f == SIZE_MAX) {
		f = modres_find(m, p, 1);
		if (f != SIZE_MAX || !(slash = strrchr(p, '/')) ||
		    (size_t)(slash - p) <= strlen(dir))
			break;
		*slash = '\0';
	}
	/* use crate::value::Value: the file, and the name it defines. */
	pl = strlen(p);
	if (f != SIZE_MAX && whole[pl] == '/' && !strchr(whole + pl + 1, '/'))
		add_target(out, f, whole + pl + 1, strlen(whole + pl + 1));
	else
		add_target(out, f, NULL, 0);
	/*
	 * use crate::dfa: the name is the module, the file just found; its
	 * uses (dfa::start) are not references to an item called dfa.
	 */
	if (f != SIZE_MAX && !whole[pl]) {
		const char *last = strrchr(whole, '/');

		last = last ? last + 1 : whole;
		if (*last)
			add_external(out, last, strlen(last));
	}
	free(whole);
	free(p);
}

/*
 * The names a use of the standard library brings in (std/fmt/{self,
 * Display}: Display): a call of write or a type Error then means the
 * library's, not a project definition of the same name.
 */
static void
rust_std_names(const char *s, struct targets *out)
{
	const char *p = s, *e, *w;

	while (*p) {
		e = p + strcspn(p, ",{}");
		for (w = e; w > p && w[-1] != '/'; w--)
			;
		if (e > w && !(e - w == 4 && !strncmp(w, "self", 4)) &&
		    *w != '*')
			add_external(out, w, (size_t)(e - w));
		p = *e ? e + 1 : e;
	}
}

/*
 * A Rust use path: crate:: from the crate's root (the directory of the
 * importer's src/, else the tree's root), super:: and self:: from the
 * importer's module; a list {a, b::c} as that many paths.
 */
static void
resolve_rust(const struct modres *m, const char *from, const char *text,
    struct targets *out)
{
	struct uk_buf path = UK_BUF_INIT;
	char *self = rust_self(from), *dir = NULL, *s;
	const char *p = text, *src;
	size_t depth = 0, keep = 0;

	/* The words of the path, "::" as '/', spaces out. */
	for (; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			uk_buf_addch(&path, '/');
			p++;
		} else if (!isspace((unsigned char)*p)) {
			uk_buf_addch(&path, *p);
		}
	}
	s = path.buf ? path.buf : "";
	if (!strncmp(s, "crate/", 6)) {
		src = strstr(from, "src/");
		while (src && src != from && src[-1] != '/')
			src = strstr(src + 1, "src/");
		dir = src ? uk_xmemdup(from, (size_t)(src - from) + 4) :
			    uk_xstrdup("");
		s += 6;
	} else if (!strncmp(s, "self/", 5)) {
		dir = with_slash(self);
		s += 5;
	} else if (!strncmp(s, "super/", 6)) {
		char *up = uk_xstrdup(self), *sl;

		while (!strncmp(s, "super/", 6)) {
			sl = strrchr(up, '/');
			*(sl ? sl : up) = '\0';
			s += 6;
		}
		dir = with_slash(up);
		free(up);
	}
	if (!dir && (!strncmp(s, "std/", 4) || !strncmp(s, "core/", 5) ||
			!strncmp(s, "alloc/", 6)))
		rust_std_names(s, out);
	if (dir) {
		/* Expand one level of {a, b::c}: prefix + each item. */
		char *brace = strchr(s, '{');

		if (!brace) {
			rust_path(m, dir, s, out);
		} else {
			const char *q = brace + 1, *e;

			keep = (size_t)(brace - s);
			for (; *q && *q != '}'; q = *e ? e + 1 : e) {
				struct uk_buf item = UK_BUF_INIT;

				for (e = q, depth = 0; *e &&
				     (depth || (*e != ',' && *e != '}'));
				     e++)
					depth += *e == '{' ? 1 :
					    *e == '}'      ? (size_t)-1 :
							     0;
				uk_buf_add(&item, s, keep);
				if (e - q == 4 && !strncmp(q, "self", 4))
					uk_buf_setlen(&item,
					    keep ? keep - 1 : 0);
				else
					uk_buf_add(&item, q, (size_t)(e - q));
				if (item.len)
					rust_path(m, dir, item.buf, out);
				uk_buf_release(&item);
				if (!*e || *e == '}')
					break;
			}
		}
	}
	free(dir);
	free(self);
	uk_buf_release(&path);
}

/* Whether a reference's name is a module path (see symbols_queries.c). */
static int
is_module_ref(const char *name)
{
	return strpbrk(name, "\"'`. :/") != NULL;
}

static int
edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return 0;
}

/* Names that have definitions, by their text: for imports of a name. */
struct namedef {
	const char *name;
	size_t first, end; /* its definitions: byname[first..end) */
};

static int
namedef_cmp(const void *a, const void *b)
{
	return strcmp(((const struct namedef *)a)->name,
	    ((const struct namedef *)b)->name);
}

/*
 * The group of name's visible definition in file, or UINT32_MAX: an
 * import of a name from a module resolves it there, whichever other
 * files define the name too (`from django.conf import settings`).
 */
static uint32_t
import_group(const struct symtab *t, const struct namedef *nd, size_t nnd,
    const uint32_t *byname, const uint32_t *group, const char *name,
    size_t file)
{
	struct namedef key = { name, 0, 0 };
	const struct namedef *k;
	size_t i;

	if (!name || !(k = bsearch(&key, nd, nnd, sizeof(*nd), namedef_cmp)))
		return UINT32_MAX;
	for (i = k->first; i < k->end; i++) {
		const struct sdef *d = &t->defs[byname[i]];

		if (d->file == file && visible(t, d))
			return group[byname[i]];
	}
	return UINT32_MAX;
}

/*
 * The import edges, one per importing unit, imported unit and imported
 * definition (when the import names one the module defines: then it
 * counts as a reference to that definition).
 */
static void
import_edges(struct symtab *t, const uint32_t *byname, const uint32_t *group,
    struct extnames *ext, struct edge **edges, size_t *nedges,
    size_t *aedges)
{
	struct modres m;
	struct edge *imp = NULL;
	struct namedef *nd = NULL;
	struct targets to = { NULL, NULL, 0, 0, 0, NULL, 0, 0 };
	size_t nimp = 0, aimp = 0, i, j, e, nnd = 0, and_ = 0;

	modres_init(&m, t);
	for (i = 0; i < t->ndefs; i = e) {
		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++)
			;
		GROW(nd, nnd, and_);
		nd[nnd].name = t->names[t->defs[byname[i]].name];
		nd[nnd].first = i;
		nd[nnd++].end = e;
	}
	if (nnd)
		qsort(nd, nnd, sizeof(*nd), namedef_cmp);
	for (i = 0; i < t->nrefs; i++) {
		const char *name = t->names[t->refs[i].name];
		const struct sfile *f = &t->files[t->refs[i].file];
		const char *lang;

		if (f->cls == FC_VENDOR || !is_module_ref(name) ||
		    !(lang = uk_symbols_lang(f->path)))
			continue;
		targets_reset(&to);
		if (!strcmp(lang, "c") || !strcmp(lang, "cpp"))
			resolve_include(&m, f->path, name, &to);
		else if (!strcmp(lang, "python"))
			resolve_python(&m, f->path, name, &to);
		else if (!strcmp(lang, "rust"))
			resolve_rust(&m, f->path, name, &to);
		else if (!strcmp(lang, "javascript") ||
		    !strcmp(lang, "typescript") || !strcmp(lang, "tsx"))
			resolve_js(&m, f->path, name, &to);
		for (j = 0; j < to.next; j++) {
			GROW(ext->v, ext->n, ext->a);
			ext->v[ext->n].file = t->refs[i].file;
			ext->v[ext->n++].name = to.ext[j];
			to.ext[j] = NULL;
		}
		for (j = 0; j < to.n; j++) {
			uint32_t tu = t->files[to.file[j]].unit;
			uint32_t g = import_group(t, nd, nnd, byname, group,
			    to.name[j], to.file[j]);

			if (tu == f->unit)
				continue;
			GROW(imp, nimp, aimp);
			imp[nimp].from = f->unit;
			imp[nimp].to = tu;
			imp[nimp].w = IMPORT_W;
			imp[nimp].name_edge = g != UINT32_MAX;
			imp[nimp++].group = g;
		}
	}
	if (nimp)
		qsort(imp, nimp, sizeof(*imp), edge_cmp);
	for (i = 0; i < nimp; i++) {
		if (i && !edge_cmp(&imp[i], &imp[i - 1]))
			continue;
		GROW(*edges, *nedges, *aedges);
		(*edges)[(*nedges)++] = imp[i];
	}
	targets_reset(&to);
	free(to.file);
	free(to.name);
	free(to.ext);
	if (ext->n)
		qsort(ext->v, ext->n, sizeof(*ext->v), extname_cmp);
	free(imp);
	free(nd);
	modres_release(&m);
}

/*
 * How many of each unit's definitions (distinct names) another unit
 * refers to: the breadth of what the project uses of it.  PageRank
 * alone favours a small file every other file calls once (a helper that
 * makes a value hashable, called by the exceptions module everything
 * raises); a reader calls central the file that defines the many names
 * the rest is written in (Model, QuerySet and their methods).
 */
static int
use_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

static void
used_defs(const struct edge *edges, size_t nedges, double *breadth)
{
	struct edge *e = uk_xcalloc(nedges + 1, sizeof(*e));
	size_t i, n = 0;

	for (i = 0; i < nedges; i++)
		if (edges[i].name_edge)
			e[n++] = edges[i];
	if (n)
		qsort(e, n, sizeof(*e), use_cmp);
	/* Each (definition, unit) once. */
	for (i = 0; i < n; i++)
		if (!i || use_cmp(&e[i], &e[i - 1]))
			breadth[e[i].to] += 1;
	free(e);
}

static int
pair_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

/*
 * A C or C++ include through which the including unit uses none of the
 * header's names gets BARE_W of its weight: a header included for its
 * macros' side effects (one that poisons unsafe functions, a config.h)
 * says little of what the file is written in.  Left whole, every .c
 * file's include of such a header handed it most of the rank of the
 * project's best units (the util and buffer units use few other names,
 * so the include was most of their vote).  Imports of other languages
 * keep their weight: a Python module imported as a whole is then used
 * through attributes (`models.Model`), which name no definition of the
 * module's file (26/34 on the development set instead of 29/34).
 */
static void
weaken_bare_imports(const struct symtab *t, struct edge *edges, size_t nedges)
{
	struct edge *named = uk_xcalloc(nedges + 1, sizeof(*named));
	size_t i, n = 0;

	for (i = 0; i < nedges; i++)
		if (edges[i].name_edge)
			named[n++] = edges[i];
	if (n)
		qsort(named, n, sizeof(*named), pair_cmp);
	for (i = 0; i < nedges; i++)
		if (!edges[i].name_edge &&
		    is_c_family(t->files[edges[i].to].path) &&
		    (!n ||
			!bsearch(&edges[i], named, n, sizeof(*named),
			    pair_cmp)))
			edges[i].w *= BARE_W;
	free(named);
}

/* The teleport vector: the project, the focus, little for the rest. */
static double *
teleport(struct symtab *t)
{
	double *p = uk_xcalloc(t->nfiles + 1, sizeof(double)), sum = 0;
	size_t i;
	int any = 0;

	for (i = 0; i < t->nfiles; i++)
		any |= t->files[i].focus;
	for (i = 0; i < t->nfiles; i++) {
		const struct sfile *f = &t->files[i];
		double w = f->cls == FC_CORE ? P_CORE :
		    f->cls == FC_NOISE       ? P_NOISE :
					       0;

		if (any && !f->focus)
			w *= P_AWAY;
		/*
		 * A program's entry point is where a reader starts: what
		 * the programs use is the project's heart, though they are
		 * leaves nobody refers to (urlkit's programs all write
		 * records through jsonl.h, included by nothing else of
		 * rank).  10x, the factor aider gives what the user
		 * mentions.
		 */
		if (f->entry && f->cls == FC_CORE)
			w *= P_ENTRY;
		w *= sqrt(1.0 + f->ndefs);
		p[f->unit] += w;
	}
	for (i = 0; i < t->nfiles; i++)
		sum += p[i];
	for (i = 0; i < t->nfiles; i++)
		p[i] = sum > 0 ? p[i] / sum : 1.0 / (double)t->nfiles;
	return p;
}

/* PageRank with teleport p; dangling mass goes where p sends it. */
static double *
pagerank(size_t n, const struct edge *edges, size_t nedges, const double *p,
    double *out)
{
	double *pr = uk_xcalloc(n + 1, sizeof(double));
	double *next = uk_xcalloc(n + 1, sizeof(double));
	size_t i, j, it;

	for (j = 0; j < nedges; j++)
		out[edges[j].from] += edges[j].w;
	/*
	 * A file's vote is at least OUT_MIN: what its references do not
	 * use goes where teleport goes.  Else a file whose only references
	 * are to common names (str, get) would hand them its whole rank.
	 */
	for (i = 0; i < n; i++)
		if (out[i] < OUT_MIN)
			out[i] = OUT_MIN;
	memcpy(pr, p, n * sizeof(double));
	for (it = 0; it < 100; it++) {
		double dangling = 0, diff = 0;

		for (i = 0; i < n; i++)
			dangling += pr[i];
		for (j = 0; j < nedges; j++)
			dangling -=
			    pr[edges[j].from] * edges[j].w / out[edges[j].from];
		for (i = 0; i < n; i++)
			next[i] = ((1 - DAMPING) + DAMPING * dangling) * p[i];
		for (j = 0; j < nedges; j++)
			next[edges[j].to] += DAMPING * pr[edges[j].from] *
			    edges[j].w / out[edges[j].from];
		for (i = 0; i < n; i++) {
			diff += fabs(next[i] - pr[i]);
			pr[i] = next[i];
		}
		if (diff < 1e-10)
			break;
	}
	free(next);
	return pr;
}

void
uk_symtab_rank(struct symtab *t, const char *focus)
{
	uint32_t *byname = NULL, *group = NULL;
	struct edge *edges = NULL;
	size_t nedges = 0, aedges = 0, i, j, r = 0, e, ngroups = 0;
	double *out = NULL, *pr = NULL, *p = NULL, *grank = NULL;
	double *breadth = NULL, *best = NULL;
	struct extnames ext = { NULL, 0, 0 };
	size_t n = t->nfiles;

	t->ranked = 1;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		struct sfile *f = &t->files[i];
		size_t fl = focus ? strlen(focus) : 0;

		f->focus = fl && !strncmp(f->path, focus, fl) &&
		    (f->path[fl] == '/' || !f->path[fl]);
	}
	classify(t);
	/* Entry points: the files defining a function main (C, Go, Rust). */
	for (i = 0; i < n; i++)
		t->files[i].entry = 0;
	for (i = 0; i < t->ndefs; i++)
		if (!strcmp(t->names[t->defs[i].name], "main") &&
		    !strcmp(t->defs[i].kind, "function"))
			t->files[t->defs[i].file].entry = 1;
	pair_units(t);
	byname = uk_xcalloc(t->ndefs + 1, sizeof(*byname));
	group = uk_xcalloc(t->ndefs + 1, sizeof(*group));
	for (i = 0; i < t->ndefs; i++)
		byname[i] = (uint32_t)i;
	qsort_r(byname, t->ndefs, sizeof(*byname), def_key_cmp, t);
	if (t->nrefs)
		qsort(t->refs, t->nrefs, sizeof(*t->refs), ref_cmp);
	hide_duplicates(t, byname);
	hide_bindings(t);
	for (i = 0; i < t->ndefs; i++) {
		const struct sdef *a = &t->defs[byname[i]];

		if (i &&
		    (a->name != t->defs[byname[i - 1]].name ||
			a->file != t->defs[byname[i - 1]].file))
			ngroups++;
		group[byname[i]] = (uint32_t)ngroups;
	}
	ngroups++;
	import_edges(t, byname, group, &ext, &edges, &nedges, &aedges);
	for (i = 0; i < t->ndefs; i = e) {
		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++)
			;
		name_edges(t, byname, group, &ext, i, e, &r, &edges, &nedges,
		    &aedges);
	}
	weaken_bare_imports(t, edges, nedges);
	for (i = 0; i < ext.n; i++)
		free(ext.v[i].name);
	free(ext.v);
	for (i = 0; i < n; i++)
		t->files[i].ndefs = 0;
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden)
			t->files[t->defs[i].file].ndefs++;
	p = teleport(t);
	out = uk_xcalloc(n + 1, sizeof(double));
	pr = pagerank(n, edges, nedges, p, out);
	breadth = uk_xcalloc(n + 1, sizeof(double));
	used_defs(edges, nedges, breadth);
	for (i = 0; i < n; i++)
		t->files[i].rank = pr[t->files[i].unit] *
		    pow(1.0 + breadth[t->files[i].unit], BREADTH_EXP);

	/*
	 * Each definition gets the rank flowing along its edges, scaled so
	 * that a file's best-referenced definition carries the file's rank
	 * and the others their share of it.  The map takes definitions best
	 * first: left as the flow alone, a file ranked third whose
	 * references spread over 262 names (Django's model fields) had no
	 * definition in the map, behind the ninth file's helpers.
	 */
	grank = uk_xcalloc(ngroups, sizeof(double));
	best = uk_xcalloc(n + 1, sizeof(double));
	for (j = 0; j < nedges; j++)
		if (edges[j].group != UINT32_MAX)
			grank[edges[j].group] += pr[edges[j].from] *
			    edges[j].w / out[edges[j].from];
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden && grank[group[i]] > best[t->defs[i].file])
			best[t->defs[i].file] = grank[group[i]];
	for (i = 0; i < t->ndefs; i++) {
		struct sdef *d = &t->defs[i];

		d->rank = 0;
		if (best[d->file] > 0)
			d->rank = t->files[d->file].rank * grank[group[i]] /
			    best[d->file];
		/* Unreferenced: after the referenced, by their file's rank. */
		if (d->rank == 0)
			d->rank = t->files[d->file].rank * 1e-6;
	}
	free(byname);
	free(group);
	free(edges);
	free(out);
	free(pr);
	free(p);
	free(grank);
	free(best);
	free(breadth);
}
