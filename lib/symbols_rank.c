/* SPDX-License-Identifier: MIT */
/*
 * Ranking for the repository map: which definitions a reference points
 * at, the file graph those references and the imports (symbols_imports.c)
 * make, PageRank over it, and each definition's share of its file's rank.
 * See symbols_int.h and urlfetch(1), "Repository map".
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "banned.h"
#include "json.h"
#include "symbols_int.h"
#include "util.h"

/* Teleport weights of PageRank's personalisation vector. */
#define P_CORE  1.0
#define P_NOISE 0.02 /* tests, examples, docs: 1/50 of a project file */
#define P_AWAY  0.02 /* with a focus: files outside it */
#define P_ENTRY 10.0 /* a program's main: where a reader starts */
#define P_ENTRY_KEPT 3.0 /* of which the main's own unit keeps this */
#define P_ROOT 10.0 /* a package's root module: its public surface */
#define DAMPING 0.85
#define OUT_MIN 1.0 /* the weight of one reference to a plain name */
#define BREADTH_EXP 0.5 /* a file's rank times sqrt(1 + its used names) */
#define HUB_EXP 1.0 /* and times its hub score (hub()) */
#define HUB_FLOOR 0.5 /* a hub score of at least half the average */
#define SELF_W 0.1 /* a reference to a name its own file defines too */
#define BARE_W 0.1 /* an include none of whose names is used */
#define HELPER_W 0.5  /* a module of helpers (uk_symclass_is_helper) */
#define ERRORS_W 0.5  /* a module of exception classes (errors_only) */
/*
 * A name defined by NAME_NODE_MIN units or more, whose references times
 * definers reach NAME_NODE_EDGES, is a node (symbols_names.c): on a big
 * tree only, where the sums' order no longer settles ties between ranks.
 */
#define NAME_NODE_MIN   8
#define NAME_NODE_EDGES 65536

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
	size_t i, j, e, f = 0;

	for (i = 0; i < t->ndefs; i++)
		t->defs[i].hidden = 0;
	for (i = 0; i < t->ndefs; i = e) {
		int header = 0;

		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++) {
			const struct sdef *d = &t->defs[byname[e]];

			header |= uk_sympath_has_ext(t->files[d->file].path,
				      UK_SYM_C_HEADERS) &&
			    !strcmp(d->kind, "function");
		}
		for (j = i; j < e; j++) {
			struct sdef *d = &t->defs[byname[j]];
			const char *path = t->files[d->file].path;
			size_t k;

			/*
			 * byname is by (name, file): d's file's definitions
			 * before it start at f (from i, a name that thousands
			 * of headers define made this loop quadratic).
			 */
			if (j == i || t->defs[byname[j - 1]].file != d->file)
				f = j;
			if (header &&
			    uk_sympath_has_ext(path, UK_SYM_C_SOURCES) &&
			    !strcmp(d->kind, "function")) {
				d->hidden = 1;
				continue;
			}
			if (uk_sympath_has_ext(path, ".go."))
				continue;
			for (k = f; k < j; k++) {
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

static int
site_path_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;

	return strcmp(t->files[*(const uint32_t *)a].path,
	    t->files[*(const uint32_t *)b].path);
}

#define SITES_NAMED 3 /* files a declaration's note names, at most */

/* t->site_note from t->sites: see symbols_int.h. */
static void
site_notes(struct symtab *t)
{
	size_t i, k;

	/* Made by an earlier ranking, before more files came in. */
	if (t->site_note)
		for (i = 0; i < t->nsite_note; i++)
			free(t->site_note[i]);
	free(t->site_note);
	t->site_note = uk_util_xcalloc(t->ndefs + 1, sizeof(*t->site_note));
	t->nsite_note = t->ndefs;
	for (i = 0; i < t->ndefs; i++) {
		const struct sfile *h = &t->files[t->defs[i].file];
		const char *hp = h->path;
		size_t dl = (size_t)(uk_sympath_base(hp) - hp), named = 0;
		struct uk_buf b = UK_BUF_INIT;

		for (k = t->site_start[i]; k < t->site_start[i + 1]; k++) {
			const char *p = t->files[t->sites[k]].path;

			/* The header's own .c file goes without saying. */
			if (t->files[t->sites[k]].unit == h->unit)
				continue;
			if (named == SITES_NAMED) {
				uk_buf_addstr(&b, ", ...");
				break;
			}
			uk_buf_addstr(&b, named++ ? ", " : "  // ");
			if (dl && !strncmp(p, hp, dl))
				p += dl;
			uk_symescape_add(&b, p, strlen(p));
		}
		if (b.len)
			t->site_note[i] = uk_util_xmemdup(b.buf, b.len);
		uk_buf_release(&b);
	}
}

/*
 * Where each header declaration that hide_duplicates left shown is
 * defined: the files of the .c definitions of its name it hid, each
 * once, by path (t->site_start, t->sites).  The map names them after
 * the declaration; a reader of server.h then knows that addReply is in
 * networking.c.
 */
static void
definition_sites(struct symtab *t, const uint32_t *byname)
{
	size_t i, j, e, k, n = 0, a = 0;
	uint32_t *files = NULL;
	size_t nfiles = 0, afiles = 0;

	free(t->site_start);
	free(t->sites);
	t->sites = NULL;
	t->site_start = uk_util_xcalloc(t->ndefs + 1, sizeof(*t->site_start));
	/* First each declaration's count, then the sites themselves. */
	for (i = 0; i < t->ndefs; i = e) {
		nfiles = 0;
		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++) {
			const struct sdef *d = &t->defs[byname[e]];

			if (!d->hidden || strcmp(d->kind, "function") ||
			    !uk_sympath_has_ext(t->files[d->file].path,
				UK_SYM_C_SOURCES))
				continue;
			if (nfiles && files[nfiles - 1] == d->file)
				continue; /* byname is by file within a name */
			GROW(files, nfiles, afiles);
			files[nfiles++] = d->file;
		}
		if (!nfiles)
			continue;
		qsort_r(files, nfiles, sizeof(*files), site_path_cmp, t);
		for (j = i; j < e; j++) {
			const struct sdef *d = &t->defs[byname[j]];

			if (d->hidden || strcmp(d->kind, "function") ||
			    !uk_sympath_has_ext(t->files[d->file].path,
				UK_SYM_C_HEADERS))
				continue;
			t->site_start[byname[j]] = (uint32_t)nfiles;
			for (k = 0; k < nfiles; k++) {
				GROW(t->sites, n, a);
				t->sites[n++] = files[k];
			}
		}
	}
	free(files);
	/*
	 * site_start[d] held d's count, its sites appended in byname order:
	 * turn that into offsets in def order.  Rebuilt in def order.
	 */
	{
		uint32_t *sorted = uk_util_xcalloc(n + 1, sizeof(*sorted));
		uint32_t *from = uk_util_xcalloc(t->ndefs + 1, sizeof(*from));
		uint32_t off = 0, at = 0, c;

		for (i = 0; i < t->ndefs; i++) {
			from[byname[i]] = off;
			off += t->site_start[byname[i]];
		}
		for (i = 0; i < t->ndefs; i++) {
			c = t->site_start[i];
			if (c) /* t->sites is NULL when no def has sites */
				memcpy(sorted + at, t->sites + from[i],
				    c * sizeof(*sorted));
			t->site_start[i] = at;
			at += c;
		}
		t->site_start[t->ndefs] = at;
		free(t->sites);
		t->sites = sorted;
		free(from);
	}
	site_notes(t);
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
		    uk_sympath_has_ext(t->files[d->file].path, ".rs."))
			d->hidden = 1;
	}
}

/*
 * Names a reader does not follow to the project's definition: they
 * shadow a language's builtins or standard library, or are so common
 * (get, new, len) that a call says nothing of which definition is meant.
 * The methods of Go's, Java's, JavaScript's and C's standard interfaces
 * and classes too (Close, Lock, lock, execute, on, fopen): five files
 * calling mu.lock() on a ReentrantLock made the one class that defined a
 * lock() method a JDK module's most shown.  Rust's container methods
 * (get_mut, entry, with_capacity) are not: serde_json's map.rs wraps a
 * map, and the crate's calls of them are its own (its map.rs fell out of
 * the first ten when they were common).
 */
static const char *const common_names[] = { "Arc", "BTreeMap",
	"BTreeSet", "Box", "Clone", "Close", "Cow", "Debug", "Default",
	"Display", "Done", "Drop", "Eq", "Err", "Error", "Errorf", "Flush",
	"Fprintf", "From", "Hash", "HashMap", "HashSet", "Into", "Iterator",
	"Len", "Less", "List", "Lock", "Map", "Mutex", "None", "Object", "Ok",
	"Option", "Ord", "OrderedDict", "PartialEq", "PartialOrd", "Printf",
	"Println", "RLock", "RUnlock", "Rc", "Read", "RefCell", "Reset",
	"Result", "Self", "Set", "Some", "Sprintf", "String", "Swap",
	"ToString", "Unlock", "Unwrap", "Vec", "Wait", "Write", "__call__",
	"__enter__", "__eq__", "__exit__", "__getattr__", "__getitem__",
	"__hash__", "__init__", "__iter__", "__len__", "__new__", "__repr__",
	"__str__", "abort", "abs", "abspath", "accept", "add", "addAll",
	"addEventListener", "all", "and_then", "any", "append", "apply",
	"asList", "as_bytes", "as_mut", "as_ref", "as_str", "assert", "assign",
	"atoi", "basename", "bind", "bool", "borrow", "borrow_mut", "bytes",
	"call", "callable", "callback", "calloc", "cancel", "cap", "capacity",
	"catch", "chain", "charAt", "chr", "classmethod", "clear",
	"clearTimeout", "clone", "close", "cmp", "collect", "compareTo",
	"complete", "completeExceptionally", "computeIfAbsent", "concat",
	"contains", "containsKey", "contextmanager", "copy", "count",
	"countDown", "create", "decode", "decorator", "deepcopy", "default",
	"defaultdict", "delattr", "delete", "dict", "difference", "dir",
	"dirname", "discard", "divmod", "drop", "emit", "encode", "end",
	"endswith", "entries", "enumerate", "eq", "equals", "error", "eval",
	"exec", "execute", "exists", "exit", "expect", "expect_err", "exports",
	"extend", "fclose", "fgets", "filter", "finally", "find", "first",
	"flip", "float", "flush", "fmt", "fopen", "forEach", "format",
	"fprintf", "fputs", "fread", "free", "from", "from_str", "fromkeys",
	"frozenset", "func", "fwrite", "get", "getBytes", "getClass", "getKey",
	"getLogger", "getMessage", "getName", "getProperty", "getValue",
	"getattr", "getcwd", "getenv", "globals", "group", "groupdict",
	"groups", "handle", "has", "hasNext", "hasOwnProperty", "hasRemaining",
	"hasattr", "hash", "hashCode", "hex", "id", "ifPresent", "includes",
	"index", "indexOf", "info", "init", "inner", "insert", "int",
	"interrupt", "intersection", "into", "into_iter", "isArray", "isDone",
	"isEmpty", "isPresent", "is_empty", "is_err", "is_none", "is_ok",
	"is_some", "isdisjoint", "isinstance", "issubclass", "issubset",
	"issuperset", "items", "iter", "iter_mut", "iterator", "join", "keys",
	"last", "len", "length", "limit", "list", "listdir", "load", "lock",
	"log", "lower", "lru_cache", "main", "make", "makedirs", "malloc",
	"map", "map_err", "match", "max", "memcmp", "memcpy", "memmove",
	"memset", "min", "namedtuple", "new", "next", "nextTick", "notify",
	"notifyAll", "object", "oct", "off", "ok", "ok_or", "on", "once",
	"open", "orElse", "ord", "panic", "parse", "partial", "partition",
	"perror", "pop", "popitem", "position", "pow", "print",
	"printStackTrace", "printf", "println", "property", "push", "put",
	"putIfAbsent", "puts", "qsort", "range", "read", "realloc", "recover",
	"reduce", "reject", "remaining", "remove", "removeAll",
	"removeEventListener", "replace", "repr", "require", "reset",
	"resolve", "reverse", "reversed", "round", "rpartition", "run", "save",
	"send", "set", "setName", "setTimeout", "setattr", "setdefault",
	"shift", "shutdown", "signal", "signalAll", "size", "slice",
	"snprintf", "sort", "sorted", "splice", "split", "splitext",
	"splitlines", "sprintf", "start", "startswith", "staticmethod", "stop",
	"str", "strcat", "strchr", "strcmp", "strcpy", "strdup", "stream",
	"strerror", "stringify", "strip", "strlen", "strncmp", "strncpy",
	"strrchr", "strstr", "strtol", "strtoul", "submit", "substring", "sum",
	"super", "test", "then", "thenAccept", "thenApply", "thenCompose",
	"toArray", "toLowerCase", "toString", "toUpperCase", "to_owned",
	"to_string", "to_vec", "trim", "tuple", "type", "union", "unlock",
	"unshift", "unwrap", "unwrap_or", "unwrap_or_default",
	"unwrap_or_else", "update", "upper", "urlencode", "urljoin",
	"urlparse", "urlsplit", "urlunparse", "urlunsplit", "validate",
	"value", "valueOf", "values", "vars", "vsnprintf", "warn",
	"whenComplete", "with", "wrapper", "wraps", "write", "write_fmt",
	"write_str", "zip" };

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


/* Whether d may be what pkg.Name names: not a method of a Go type. */
static int
package_level(const struct sdef *d)
{
	return !d->kind || strcmp(d->kind, "method");
}

/*
 * The unit whose definition of name (byname[i..e)) the module file holds
 * or re-exports, or UINT32_MAX.  A Go module file stands for its package:
 * any file of its directory.
 */
static uint32_t
module_unit(const struct symtab *t, const uint32_t *byname, size_t i,
    size_t e, const struct extnames *ext, uint32_t module, uint32_t name)
{
	int go = uk_symgopkg_is_go(t->files[module].path);
	size_t k;

	for (k = i; k < e; k++) {
		const struct sdef *d = &t->defs[byname[k]];

		if (!symtab_visible(t, d))
			continue;
		if (d->file == module)
			return t->files[module].unit;
		if (go && package_level(d) &&
		    uk_symgopkg_same(t, d->file, module))
			return t->files[d->file].unit;
	}
	return uk_symimports_bound_unit(ext, module, name);
}

/*
 * The unit a reference of file from to name (byname[i..e)) is bound to,
 * or UINT32_MAX (then it goes to every definer): a bare name by its
 * import (bu), a qualified one (q) by the module the qualifier names.
 */
static uint32_t
ref_unit(const struct symtab *t, const uint32_t *byname, size_t i, size_t e,
    const struct extnames *ext, uint32_t from, uint32_t q, uint32_t bu)
{
	uint32_t name = t->defs[byname[i]].name, m;

	if (q != UINT32_MAX) {
		m = uk_symimports_module_of(ext, from, t->names[q]);
		return m == UINT32_MAX ? UINT32_MAX :
					 module_unit(t, byname, i, e, ext, m, name);
	}
	/*
	 * Go: a bare name is its own package's when the package defines it
	 * (Go has no other way to reach a package's name but a dot import).
	 */
	if (bu == UINT32_MAX && uk_symgopkg_is_go(t->files[from].path))
		return module_unit(t, byname, i, e, ext, from, name);
	return bu;
}

#define NQUAL 8 /* modules one file reaches a name through, at most */

/* A definition of the name name_edges links, as its loops read it. */
struct definer {
	uint32_t file, unit, group;
	int visible;
};

static void
add_name_edge(struct edge **edges, size_t *nedges, size_t *aedges,
    uint32_t from, uint32_t to, double w, uint32_t group)
{
	GROW(*edges, *nedges, *aedges);
	(*edges)[*nedges].from = from;
	(*edges)[*nedges].to = to;
	(*edges)[*nedges].w = w;
	(*edges)[*nedges].group = group;
	(*nedges)++;
}

/*
 * What name_edges's loops read of the definitions byname[i..e), once a
 * name: for each referring file they read every definer, and a name that
 * thousands of headers define read them from all over the table.
 */
static struct definer *
definers(const struct symtab *t, const uint32_t *byname,
    const uint32_t *group, size_t i, size_t e)
{
	struct definer *dv = uk_util_xcalloc(e - i, sizeof(*dv));
	size_t k;

	for (k = i; k < e; k++) {
		const struct sdef *d = &t->defs[byname[k]];

		dv[k - i].file = d->file;
		dv[k - i].unit = t->files[d->file].unit;
		dv[k - i].group = group[byname[k]];
		dv[k - i].visible = symtab_visible(t, d);
	}
	return dv;
}

/*
 * Whether name, whose references start at t->refs[r] and whose definers
 * are dv[0..nd) (ndef units), is a node of g; begun, with its definers,
 * when it is.
 */
static int
name_node(const struct symtab *t, struct namegraph *g, uint32_t name,
    const struct definer *dv, size_t nd, size_t ndef, size_t r, double mul)
{
	const char *v = getenv("UK_SYMBOLS_EDGES");
	size_t k;

	/* UK_SYMBOLS_EDGES set: every name's edges, to compare. */
	if (ndef < NAME_NODE_MIN || (v && *v))
		return 0;
	for (k = r; k < t->nrefs && t->refs[k].name == name; k++)
		;
	if ((k - r) * ndef < NAME_NODE_EDGES)
		return 0;
	uk_symnames_begin(g, mul);
	for (k = 0; k < nd; k++)
		if (dv[k].visible && !(k > 0 && dv[k].file == dv[k - 1].file))
			uk_symnames_def(g, dv[k].unit, dv[k].group);
	return 1;
}

/* The edges of the references to one name, defined by byname[i..e). */
static void
name_edges(struct symtab *t, const uint32_t *byname, const uint32_t *group,
    const struct extnames *ext, size_t i, size_t e, size_t *r,
    struct edge **edges, size_t *nedges, size_t *aedges, struct namegraph *g)
{
	uint32_t name = t->defs[byname[i]].name, last = UINT32_MAX;
	size_t ndef = 0, k;
	double mul, one, selfw;
	struct definer *dv;
	int node;

	for (k = i; k < e; k++) {
		const struct sdef *d = &t->defs[byname[k]];

		if (symtab_visible(t, d) && t->files[d->file].unit != last) {
			ndef++;
			last = t->files[d->file].unit;
		}
	}
	while (*r < t->nrefs && t->refs[*r].name < name)
		(*r)++;
	if (!ndef)
		return;
	dv = definers(t, byname, group, i, e);
	mul = name_weight(t->names[name], ndef);
	one = name_weight(t->names[name], 1);
	node = name_node(t, g, name, dv, e - i, ndef, *r, mul);
	while (*r < t->nrefs && t->refs[*r].name == name) {
		uint32_t from = t->refs[*r].file, fu = t->files[from].unit;
		uint32_t bu = uk_symimports_bound_unit(ext, from, name);
		uint32_t qu[NQUAL];
		size_t cnt = 0, qcnt[NQUAL], nq = 0, j;

		/*
		 * logging.getLogger() after `import logging` is the
		 * library's, whatever the project defines of that name;
		 * forms.Form() after `from django import forms` is the
		 * forms package's Form, wherever that module has it from;
		 * Form() after `from django.forms import Form` too (bu).
		 * obj.name() goes to every definer, split among them.
		 */
		while (*r < t->nrefs && t->refs[*r].name == name &&
		    t->refs[*r].file == from) {
			uint32_t q = t->refs[*r].qual, u;

			(*r)++;
			if (q != UINT32_MAX &&
			    uk_symimports_is_external(ext, from, t->names[q]))
				continue;
			u = ref_unit(t, byname, i, e, ext, from, q, bu);
			if (u == UINT32_MAX) {
				cnt++;
				continue;
			}
			for (j = 0; j < nq && qu[j] != u; j++)
				;
			if (j == nq && nq == NQUAL) {
				cnt++;
				continue;
			}
			if (j == nq) {
				qu[nq] = u;
				qcnt[nq++] = 0;
			}
			qcnt[j]++;
		}
		if (!cnt && !nq)
			continue;
		/*
		 * `from itertools import chain`: the file's chain() calls
		 * are the library's, not the project's Query.chain.
		 */
		if (t->files[from].cls == FC_VENDOR ||
		    uk_symimports_is_external(ext, from, t->names[name]))
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
		for (k = 0; k < e - i; k++)
			if (dv[k].visible && dv[k].unit == fu)
				selfw = SELF_W;
		if (node && cnt)
			uk_symnames_ref(g, fu, selfw * sqrt((double)cnt));
		for (k = 0; k < e - i && cnt && !node; k++) {
			uint32_t to = dv[k].unit;

			if (!dv[k].visible || to == fu ||
			    (k > 0 && dv[k].file == dv[k - 1].file))
				continue;
			add_name_edge(edges, nedges, aedges, fu, to,
			    selfw * mul * sqrt((double)cnt), dv[k].group);
		}
		/* Each module's definition, the first of its unit. */
		for (j = 0; j < nq; j++)
			for (k = 0; k < e - i; k++) {
				if (!dv[k].visible || dv[k].unit != qu[j])
					continue;
				if (qu[j] != fu)
					add_name_edge(edges, nedges, aedges,
					    fu, qu[j],
					    selfw * one *
						sqrt((double)qcnt[j]),
					    dv[k].group);
				break;
			}
	}
	if (node)
		uk_symnames_end(g);
	free(dv);
}

/*
 * How many of each unit's definitions (distinct names) another unit
 * refers to: the breadth of what the project uses of it.  PageRank
 * alone favours a small file every other file calls once (a helper that
 * makes a value hashable, called by the exceptions module everything
 * raises); a reader calls central the file that defines the many names
 * the rest is written in (Model, QuerySet and their methods).
 *
 * Each (definition, unit) once: the name edges' targets by group (a
 * counting sort, 4 bytes an edge), a unit counted once a group by the
 * last group that counted it.  A copy of every name edge sorted took 24
 * bytes an edge and qsort as much again (21 million edges, 1 GB, on
 * /usr/include/boost).
 */
static void
used_defs(const struct edge *edges, size_t nedges, const struct namegraph *g,
    size_t ngroups, size_t n, double *breadth)
{
	size_t *start = uk_util_xcalloc(ngroups + 2, sizeof(size_t));
	uint32_t *to, *seen = uk_util_xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *gunit = uk_util_xcalloc(ngroups + 1, sizeof(uint32_t));
	unsigned char *hit = uk_util_xcalloc(ngroups + 1, 1);
	size_t i, j, m = 0;

	for (i = 0; i < nedges; i++)
		if (edges[i].group < ngroups) {
			start[edges[i].group + 1]++;
			m++;
		}
	to = uk_util_xcalloc(m + 1, sizeof(uint32_t));
	for (i = 0; i < ngroups; i++)
		start[i + 1] += start[i];
	for (i = 0; i < nedges; i++)
		if (edges[i].group < ngroups)
			to[start[edges[i].group]++] = edges[i].to;
	/* start[g] is now where group g + 1 starts. */
	for (i = 0; i <= n; i++)
		seen[i] = UINT32_MAX;
	/* A name node's groups (symbols_names.c) have no edge here. */
	uk_symnames_hit_groups(g, hit, gunit);
	for (i = 0, j = 0; i < ngroups; i++) {
		for (; j < start[i]; j++)
			if (seen[to[j]] != (uint32_t)i) {
				seen[to[j]] = (uint32_t)i;
				breadth[to[j]] += 1;
			}
		if (hit[i] && seen[gunit[i]] != (uint32_t)i) {
			seen[gunit[i]] = (uint32_t)i;
			breadth[gunit[i]] += 1;
		}
	}
	free(start);
	free(to);
	free(seen);
	free(gunit);
	free(hit);
}

static int
key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
pair_key(const struct edge *e)
{
	return (uint64_t)e->from << 32 | e->to;
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
weaken_bare_imports(const struct symtab *t, struct edge *edges, size_t nedges,
    const struct namegraph *g)
{
	uint64_t *bare = NULL, *hit;
	unsigned char *used;
	size_t i, n = 0, a = 0;

	/*
	 * The includes that may be bare (few), sorted; then each name edge
	 * marks its pair.  A copy of every name edge sorted took 24 bytes
	 * an edge and qsort as much again (1 GB on /usr/include/boost).
	 */
	for (i = 0; i < nedges; i++)
		if (edges[i].group == UINT32_MAX &&
		    uk_sympath_is_c(t->files[edges[i].to].path)) {
			GROW(bare, n, a);
			bare[n++] = pair_key(&edges[i]);
		}
	if (!n)
		return;
	qsort(bare, n, sizeof(*bare), key_cmp);
	for (i = 1, a = 1; i < n; i++)
		if (bare[i] != bare[a - 1])
			bare[a++] = bare[i];
	n = a;
	used = uk_util_xcalloc(n, 1);
	for (i = 0; i < nedges; i++) {
		uint64_t k;

		if (edges[i].group == UINT32_MAX)
			continue;
		k = pair_key(&edges[i]);
		if ((hit = bsearch(&k, bare, n, sizeof(*bare), key_cmp)))
			used[hit - bare] = 1;
	}
	uk_symnames_mark_used(g, bare, n, used);
	for (i = 0; i < nedges; i++) {
		uint64_t k;

		if (edges[i].group != UINT32_MAX ||
		    !uk_sympath_is_c(t->files[edges[i].to].path))
			continue;
		k = pair_key(&edges[i]);
		hit = bsearch(&k, bare, n, sizeof(*bare), key_cmp);
		if (!used[hit - bare])
			edges[i].w *= BARE_W;
	}
	free(bare);
	free(used);
}

/*
 * The teleport vector: the project, the focus, little for the rest.  A
 * program's entry point is where a reader starts: what the programs use
 * is the project's heart, though they are leaves nobody refers to
 * (urlkit's programs all write records through jsonl.h, included by
 * nothing else of rank).  The entry gets P_ENTRY times a file's teleport,
 * 10x, the factor aider gives what the user mentions; all but
 * P_ENTRY_KEPT shares are handed on along its edges, as the reader reads
 * main and goes where it leads.  Kept whole on the entry's unit, it made
 * each program's own unit (urlserve.c with the private header of its
 * seven files) outrank the library every program is written in; with
 * one share kept, lg2.c (libgit2's examples) was not among the first ten
 * files of its own program (2, 4 or 8 kept: the same 136/152).
 */
static double *
teleport(struct symtab *t, const struct edge *edges, size_t nedges,
    const struct namegraph *g)
{
	double *p = uk_util_xcalloc(t->nfiles + 1, sizeof(double)), sum = 0;
	double *extra = uk_util_xcalloc(t->nfiles + 1, sizeof(double));
	double *out = uk_util_xcalloc(t->nfiles + 1, sizeof(double));
	double *x = uk_util_xcalloc(t->nfiles + 1, sizeof(double));
	size_t i, j;
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
		w *= sqrt(1.0 + f->ndefs);
		p[f->unit] += w;
		if (f->entry && f->cls == FC_CORE) {
			extra[f->unit] += (P_ENTRY - P_ENTRY_KEPT) * w;
			p[f->unit] += (P_ENTRY_KEPT - 1) * w;
		}
		else if (f->root && f->cls == FC_CORE)
			extra[f->unit] += (P_ROOT - 1) * w;
	}
	for (j = 0; j < nedges; j++)
		out[edges[j].from] += edges[j].w;
	for (i = 0; i < t->nfiles; i++)
		x[i] = 1;
	uk_symnames_flow(g, x, out, 1, 1.0);
	for (j = 0; j < nedges; j++)
		if (out[edges[j].from] > 0)
			p[edges[j].to] += extra[edges[j].from] * edges[j].w /
			    out[edges[j].from];
	for (i = 0; i < t->nfiles; i++)
		x[i] = out[i] > 0 ? extra[i] / out[i] : 0;
	uk_symnames_flow(g, x, p, 0, 1.0);
	free(x);
	/* A program that uses nothing of the project keeps its share. */
	for (i = 0; i < t->nfiles; i++)
		if (out[i] <= 0)
			p[i] += extra[i];
	for (i = 0; i < t->nfiles; i++)
		sum += p[i];
	for (i = 0; i < t->nfiles; i++)
		p[i] = sum > 0 ? p[i] / sum : 1.0 / (double)t->nfiles;
	free(extra);
	free(out);
	return p;
}

/*
 * One iteration of PageRank for the targets [from, to): each target's
 * sum in the order of its edges, whatever thread makes it, so that the
 * ranks do not depend on the split.  Past PR_SPLIT edges the targets are
 * split in two halves of the edges, the upper half on a thread made for
 * the iteration (on /usr/include/boost, 21 million edges and 175
 * iterations, PageRank was 5.5 s of the ranking's 8.7 s on one thread
 * while both cores were idle after the parse).
 */
#define PR_SPLIT 1000000

struct pr_part {
	const double *p, *pr;
	double *next;
	const size_t *start;
	const uint32_t *src;
	const double *c;
	const double *in; /* what the name nodes send each target */
	size_t from, to;
	double dangling;
};

static void *
pr_targets(void *arg)
{
	const struct pr_part *q = arg;
	size_t i, j;

	for (i = q->from; i < q->to; i++) {
		double acc = ((1 - DAMPING) + DAMPING * q->dangling) * q->p[i] +
		    q->in[i];

		for (j = q->start[i]; j < q->start[i + 1]; j++)
			acc += DAMPING * q->pr[q->src[j]] * q->c[j];
		q->next[i] = acc;
	}
	return NULL;
}

/*
 * PageRank with teleport p; dangling mass goes where p sends it.  With
 * rev, over the edges reversed (to -> from), without a reversed copy.
 */
static double *
pagerank(size_t n, const struct edge *edges, size_t nedges,
    const struct namegraph *g, const double *p, double *out, int rev)
{
	double *pr = uk_util_xcalloc(n + 1, sizeof(double));
	double *next = uk_util_xcalloc(n + 1, sizeof(double));
	double *kept = uk_util_xcalloc(n + 1, sizeof(double));
	size_t *start = uk_util_xcalloc(n + 2, sizeof(size_t));
	uint32_t *src = uk_util_xcalloc(nedges + 1, sizeof(uint32_t));
	double *c = uk_util_xcalloc(nedges + 1, sizeof(double));
	double *hout = uk_util_xcalloc(n + 1, sizeof(double));
	double *in = uk_util_xcalloc(n + 1, sizeof(double));
	double *x = uk_util_xcalloc(n + 1, sizeof(double));
	size_t i, j, it, half;

#define E_FROM(j) (rev ? edges[j].to : edges[j].from)
#define E_TO(j)   (rev ? edges[j].from : edges[j].to)
	for (j = 0; j < nedges; j++)
		out[E_FROM(j)] += edges[j].w;
	/* And along the name nodes' edges (symbols_names.c). */
	for (i = 0; i < n; i++)
		x[i] = 1;
	uk_symnames_flow(g, x, hout, !rev, 1.0);
	for (i = 0; i < n; i++)
		out[i] += hout[i];
	/*
	 * A file's vote is at least OUT_MIN: what its references do not
	 * use goes where teleport goes.  Else a file whose only references
	 * are to common names (str, get) would hand them its whole rank.
	 */
	for (i = 0; i < n; i++)
		if (out[i] < OUT_MIN)
			out[i] = OUT_MIN;
	/*
	 * Each edge's share of its file's vote, and the share each file's
	 * edges do not hand on (dangling, to teleport), once; the edges by
	 * target (a counting sort, in their order within a target), as the
	 * source and its share: an iteration is then one pass over 12
	 * bytes an edge, each target's sum made in a register, in the
	 * order of the edges (the sums of a pass over the edges as they
	 * come, bit for bit), which on /usr/include/boost's 14,000 units
	 * was most of the ranking's time (scripts/bench repo).
	 */
	for (i = 0; i < n; i++)
		kept[i] = 1 - hout[i] / out[i];
	for (j = 0; j < nedges; j++)
		start[E_TO(j) + 1]++;
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	for (j = 0; j < nedges; j++) {
		uint32_t f = E_FROM(j);
		size_t at = start[E_TO(j)]++;
		double cj = edges[j].w / out[f];

		src[at] = f;
		c[at] = cj;
		kept[f] -= cj;
	}
	/* start[i] is now where target i + 1 starts: shift back. */
	for (i = n; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
#undef E_FROM
#undef E_TO
	memcpy(pr, p, n * sizeof(double));
	/* Two halves of the edges' targets: see pr_targets. */
	half = n;
	if (nedges >= PR_SPLIT && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		for (half = 0; half < n && start[half] < nedges / 2; half++)
			;
	for (it = 0; it < 100; it++) {
		struct pr_part lo = { p, pr, next, start, src, c, in, 0, half,
			0 };
		struct pr_part hi = { p, pr, next, start, src, c, in, half, n,
			0 };
		double dangling = 0, diff = 0;
		pthread_t tid;
		int helper;

		if (g && g->n) {
			for (i = 0; i < n; i++) {
				x[i] = pr[i] / out[i];
				in[i] = 0;
			}
			uk_symnames_flow(g, x, in, rev, DAMPING);
		}

		for (i = 0; i < n; i++)
			dangling += pr[i] * kept[i];
		lo.dangling = hi.dangling = dangling;
		helper = half < n &&
		    pthread_create(&tid, NULL, pr_targets, &hi) == 0;
		pr_targets(&lo);
		if (helper)
			pthread_join(tid, NULL);
		else
			pr_targets(&hi);
		for (i = 0; i < n; i++) {
			diff += fabs(next[i] - pr[i]);
			pr[i] = next[i];
		}
		if (diff < 1e-10)
			break;
	}
	free(next);
	free(kept);
	free(start);
	free(src);
	free(c);
	free(hout);
	free(in);
	free(x);
	return pr;
}

/*
 * What each unit draws on of the project: PageRank over the reversed
 * edges, with the same teleport, times the number of units (1 on
 * average).  The heart of a project is used and uses the rest (Django's
 * db/models/base.py, pip's operations/prepare.py, urllib3's
 * connectionpool.py); the leaves every module calls (exceptions,
 * helpers, version strings) draw on nothing.  A file's rank is its
 * authority (PageRank) times this, its hub score, at least HUB_FLOOR:
 * a leaf loses at most half its rank.  On the 40 trees of repomap-dev,
 * central files among the first ten, and the halves by SHA-256 of
 * owner/name: 136/152 (65/71, 71/81) with the score to the 1/4, as it
 * was; 138 (66, 72) to the 3/4; 140 (66, 74) to the power 1; 139 (66,
 * 73) to 1.2; 137 (65, 72) to 1.5; the hub score alone, 134 (63, 71);
 * none, 134 (65, 69).  HITS' hub vector in its place (100 iterations
 * over the same edges, half of it teleport) made 139 (66, 73), and 111
 * (49, 62) alone: not kept.  Without the floor a program's main file,
 * which draws on all of its library, outranked the helper its library
 * calls; with it, 139 (65, 74); 140 (66, 74) with a floor of 1/4.
 */
static double *
hub(size_t n, const struct edge *edges, size_t nedges,
    const struct namegraph *g, const double *p)
{
	double *out = uk_util_xcalloc(n + 1, sizeof(double)), *h;
	size_t i;

	h = pagerank(n, edges, nedges, g, p, out, 1);
	/* And vendored code, which has no teleport, keeps its order by pr. */
	for (i = 0; i < n; i++)
		h[i] = h[i] * (double)n > HUB_FLOOR ? h[i] * (double)n :
		    HUB_FLOOR;
	free(out);
	return h;
}

/* The kind of package root path's name makes it (0: none). */
static int
root_kind(const char *path)
{
	static const char *const roots[] = { "__init__.py", "lib.rs",
		"index.js", "index.ts", "index.mjs", NULL };
	const char *base = uk_sympath_base(path);
	size_t i;

	for (i = 0; roots[i]; i++)
		if (!strcmp(base, roots[i]))
			return (int)i / 2 + 1;
	return 0;
}

static int
path_depth(const char *p)
{
	int d = 0;

	while ((p = strchr(p, '/'))) {
		d++;
		p++;
	}
	return d;
}

/*
 * The public surface: a package's root modules (the shallowest
 * __init__.py, lib.rs or index.js of the project's own files, at most
 * two directories down) name what the package exports.  A reader of a
 * library starts there as a reader of a program starts at main: the
 * teleport hands P_ROOT times a file's share along their edges.
 */
static void
root_modules(struct symtab *t)
{
	int best[4] = { 3, 3, 3, 3 };
	size_t i;

	for (i = 0; i < t->nfiles; i++) {
		struct sfile *f = &t->files[i];
		int k = root_kind(f->path), d = path_depth(f->path);

		f->root = 0;
		if (k && f->cls == FC_CORE && d < best[k])
			best[k] = d;
	}
	for (i = 0; i < t->nfiles; i++) {
		struct sfile *f = &t->files[i];
		int k = root_kind(f->path);

		f->root = k && f->cls == FC_CORE &&
		    path_depth(f->path) == best[k];
	}
}

/* The file dir[0..dl) + rel ("./bin/x.js" as "bin/x.js") is an entry. */
static void
bin_entry(struct symtab *t, const char *dir, size_t dl, const char *rel)
{
	size_t i, rl;

	while (!strncmp(rel, "./", 2))
		rel += 2;
	rl = strlen(rel);
	for (i = 0; i < t->nfiles; i++) {
		const char *p = t->files[i].path;

		if (!strncmp(p, dir, dl) && !strcmp(p + dl, rel) && rl)
			t->files[i].entry = 1;
	}
}

/*
 * A package.json's "bin" names the programs a package installs (a path,
 * or an object of names and paths): their files are entry points as a
 * file defining main is.  JavaScript has no main to find.
 */
static void
manifest_entries(struct symtab *t)
{
	size_t i, k;

	for (i = 0; i < t->nnotes; i++) {
		const struct snote *no = &t->notes[i];
		const char *base = uk_sympath_base(no->path);
		yajl_val v, bin;

		if (!no->text || strcmp(base, "package.json") ||
		    uk_symclass_is_noise(no->path) ||
		    uk_symclass_is_vendor_path(no->path))
			continue;
		if (!(v = uk_json_parse(no->text, no->len, NULL)))
			continue;
		bin = uk_json_get(v, "bin");
		if (bin && YAJL_IS_STRING(bin))
			bin_entry(t, no->path, (size_t)(base - no->path),
			    YAJL_GET_STRING(bin));
		else if (bin && YAJL_IS_OBJECT(bin))
			for (k = 0; k < bin->u.object.len; k++)
				if (YAJL_IS_STRING(bin->u.object.values[k]))
					bin_entry(t, no->path,
					    (size_t)(base - no->path),
					    YAJL_GET_STRING(
						bin->u.object.values[k]));
		uk_json_free(v);
	}
}

/*
 * The file of Python module mod[0..len) ("pkg.cli"): pkg/cli.py or
 * pkg/cli/__init__.py, under any directory (src/), the shallowest; it
 * becomes an entry point.
 */
static void
module_entry(struct symtab *t, const char *mod, size_t len)
{
	char want[2][512];
	size_t i, k, best = SIZE_MAX;
	int d, pass;

	if (len + sizeof("/__init__.py") > sizeof(want[0]))
		return;
	for (k = 0; k < len; k++)
		want[0][k] = mod[k] == '.' ? '/' : mod[k];
	memcpy(want[1], want[0], len);
	memcpy(want[0] + len, ".py", sizeof(".py"));
	memcpy(want[1] + len, "/__init__.py", sizeof("/__init__.py"));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->nfiles; i++) {
			struct sfile *f = &t->files[i];
			size_t pl = strlen(f->path), wl;

			if (f->cls != FC_CORE)
				continue;
			for (k = 0; k < 2; k++) {
				wl = strlen(want[k]);
				if (pl < wl ||
				    strcmp(f->path + pl - wl, want[k]) ||
				    (pl > wl && f->path[pl - wl - 1] != '/'))
					continue;
				d = path_depth(f->path);
				if (pass == 0 && (size_t)d < best)
					best = (size_t)d;
				else if (pass == 1 && (size_t)d == best)
					f->entry = 1;
			}
		}
}

/*
 * The console scripts a Python package declares: in a section named
 * [project.scripts], [project.gui-scripts], [tool.poetry.scripts],
 * [console_scripts] or [gui_scripts] (pyproject.toml, entry_points.txt),
 * or after a console_scripts or gui_scripts key (setup.cfg's
 * [options.entry_points], setup.py's entry_points) up to the next
 * section or `]`, each "name = package.module:function" names the
 * module that runs the program.  Read line by line, as the three
 * formats share that much; a full TOML or INI parser would read no more.
 */
/* Scripts read from a manifest, at most: each is a pass over the files. */
#define SCRIPTS_MAX 64

static void
script_entries(struct symtab *t, const char *text, size_t len)
{
	static const char *const heads[] = { "[project.scripts]",
		"[project.gui-scripts]", "[tool.poetry.scripts]",
		"[console_scripts]", "[gui_scripts]", NULL };
	const char *p = text, *end = text + len;
	int in = 0; /* 1: in a section of scripts; 2: after a key */
	int left = SCRIPTS_MAX;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *c;
		size_t k, n = (size_t)(e - p);

		if (n && *p == '[') {
			in = 0;
			for (k = 0; heads[k]; k++)
				if (n >= strlen(heads[k]) &&
				    !memcmp(p, heads[k], strlen(heads[k])))
					in = 1;
		} else if (memmem(p, n, "console_scripts", 15) ||
		    memmem(p, n, "gui_scripts", 11))
			in = 2;
		else if (in == 2 && n && *p != ' ' && *p != '\t' && *p != '#')
			in = 0; /* setup.cfg's next key */
		/* Each "= module:function" of the line, quoted or not. */
		for (c = p; in && (c = memchr(c, '=', (size_t)(e - c))); c++) {
			const char *m = c + 1, *me;

			while (m < e && (*m == ' ' || *m == '\t' || *m == '"' ||
			    *m == '\''))
				m++;
			for (me = m; me < e && (isalnum((unsigned char)*me) ||
			    *me == '_' || *me == '.'); me++)
				;
			if (me > m && me < e && *me == ':' &&
			    !isdigit((unsigned char)*m) && left-- > 0)
				module_entry(t, m, (size_t)(me - m));
		}
		/* setup.py's list of scripts ends. */
		if (in == 2 && memchr(p, ']', n))
			in = 0;
		p = nl ? nl + 1 : end;
	}
}

/*
 * Entry points: the files defining a function main (C, Go, Rust,
 * Python) at their top level, and those a package.json's bin names.  A
 * method main (pip's Command.main, which every command inherits) is no
 * program's start.  Then the packages' root modules.
 */
static void
entry_points(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		t->files[i].entry = 0;
	for (i = 0; i < t->ndefs; i++)
		if (!strcmp(t->names[t->defs[i].name], "main") &&
		    !strcmp(t->defs[i].kind, "function") && !t->defs[i].scope)
			t->files[t->defs[i].file].entry = 1;
	manifest_entries(t);
	for (i = 0; i < t->nnotes; i++)
		if (t->notes[i].text &&
		    uk_symclass_is_script_manifest(
			uk_sympath_base(t->notes[i].path)) &&
		    !uk_symclass_is_noise(t->notes[i].path) &&
		    !uk_symclass_is_vendor_path(t->notes[i].path))
			script_entries(t, t->notes[i].text, t->notes[i].len);
	root_modules(t);
}

/*
 * A module of exception classes (four fifths or more of its top-level
 * definitions, as uk_symexc_classes finds them) is a kind that
 * crowds out the API, as helpers are: every module raises its errors,
 * and one that also calls a helper (an error's __hash__) was a hub above
 * the model the project is about.  Its rank times ERRORS_W.  On
 * repomap-dev the same 139/152 (65/71, 74/81) with it as without.
 */
static void
errors_only(struct symtab *t)
{
	uint32_t *order = uk_util_xcalloc(t->ndefs + 1, sizeof(*order));
	unsigned char *exc = uk_util_xcalloc(t->ndefs + 1, 1);
	uint32_t *nexc = uk_util_xcalloc(t->nfiles + 1, sizeof(*nexc));
	uint32_t *ntop = uk_util_xcalloc(t->nfiles + 1, sizeof(*ntop));
	size_t i, n = 0;

	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden)
			order[n++] = (uint32_t)i;
	uk_symexc_classes(t, order, n, exc, nexc);
	for (i = 0; i < n; i++)
		if (!t->defs[order[i]].scope)
			ntop[t->defs[order[i]].file]++;
	for (i = 0; i < t->nfiles; i++)
		if (ntop[i] && 5 * nexc[i] >= 4 * ntop[i])
			t->files[i].rank *= ERRORS_W;
	free(order);
	free(exc);
	free(nexc);
	free(ntop);
}

/*
 * Each definition's rank from its file's and the PageRank pr flowing
 * along the edges to its (name, file) group (out: each file's vote).
 */
static void
rank_definitions(struct symtab *t, const uint32_t *group, size_t ngroups,
    const struct edge *edges, size_t nedges, const struct namegraph *g,
    const double *pr, const double *out)
{
	double *grank, *best;
	size_t i, j, n = t->nfiles;

	/*
	 * Each definition gets the rank flowing along its edges, scaled so
	 * that a file's best-referenced definition carries the file's rank
	 * and the others their share of it.  The map takes definitions best
	 * first: left as the flow alone, a file ranked third whose
	 * references spread over 262 names (Django's model fields) had no
	 * definition in the map, behind the ninth file's helpers.
	 */
	grank = uk_util_xcalloc(ngroups, sizeof(double));
	best = uk_util_xcalloc(n + 1, sizeof(double));
	for (j = 0; j < nedges; j++)
		if (edges[j].group != UINT32_MAX)
			grank[edges[j].group] += pr[edges[j].from] *
			    edges[j].w / out[edges[j].from];
	if (g->n) {
		double *x = uk_util_xcalloc(n + 1, sizeof(double));

		for (i = 0; i < n; i++)
			x[i] = pr[i] / out[i];
		uk_symnames_flow_groups(g, x, grank);
		free(x);
	}
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden &&
		    grank[group[i]] > best[t->defs[i].file])
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
	free(grank);
	free(best);
}

void
uk_symrank_table(struct symtab *t, const char *focus)
{
	uint32_t *byname = NULL, *group = NULL;
	struct edge *edges = NULL;
	size_t nedges = 0, aedges = 0, i, r = 0, e, ngroups = 0;
	double *out = NULL, *pr = NULL, *p = NULL;
	double *breadth = NULL, *hubs = NULL;
	struct extnames ext = { NULL, 0, 0, NULL, 0, 0, NULL, 0, 0 };
	struct namegraph g;
	size_t n = t->nfiles;

	t->ranked = 1;
	if (!n)
		return;
	memset(&g, 0, sizeof(g));
	for (i = 0; i < n; i++) {
		struct sfile *f = &t->files[i];
		size_t fl = focus ? strlen(focus) : 0;

		f->focus = fl && !strncmp(f->path, focus, fl) &&
		    (f->path[fl] == '/' || !f->path[fl]);
	}
	uk_symclass_classify(t);
	entry_points(t);
	uk_symclass_pair_units(t);
	byname = uk_util_xcalloc(t->ndefs + 1, sizeof(*byname));
	group = uk_util_xcalloc(t->ndefs + 1, sizeof(*group));
	for (i = 0; i < t->ndefs; i++)
		byname[i] = (uint32_t)i;
	qsort_r(byname, t->ndefs, sizeof(*byname), def_key_cmp, t);
	if (t->nrefs)
		qsort(t->refs, t->nrefs, sizeof(*t->refs), ref_cmp);
	hide_duplicates(t, byname);
	hide_bindings(t);
	definition_sites(t, byname);
	for (i = 0; i < t->ndefs; i++) {
		const struct sdef *a = &t->defs[byname[i]];

		if (i &&
		    (a->name != t->defs[byname[i - 1]].name ||
			a->file != t->defs[byname[i - 1]].file))
			ngroups++;
		group[byname[i]] = (uint32_t)ngroups;
	}
	ngroups++;
	uk_symimports_edges(t, byname, group, &ext, &edges, &nedges,
	    &aedges);
	for (i = 0; i < t->ndefs; i = e) {
		for (e = i; e < t->ndefs &&
		     t->defs[byname[e]].name == t->defs[byname[i]].name;
		     e++)
			;
		name_edges(t, byname, group, &ext, i, e, &r, &edges, &nedges,
		    &aedges, &g);
	}
	weaken_bare_imports(t, edges, nedges, &g);
	for (i = 0; i < ext.n; i++)
		free(ext.v[i].name);
	free(ext.v);
	free(ext.b);
	for (i = 0; i < ext.nmod; i++)
		free(ext.mod[i].name);
	free(ext.mod);
	for (i = 0; i < n; i++)
		t->files[i].ndefs = 0;
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden)
			t->files[t->defs[i].file].ndefs++;
	p = teleport(t, edges, nedges, &g);
	out = uk_util_xcalloc(n + 1, sizeof(double));
	pr = pagerank(n, edges, nedges, &g, p, out, 0);
	hubs = hub(n, edges, nedges, &g, p);
	breadth = uk_util_xcalloc(n + 1, sizeof(double));
	used_defs(edges, nedges, &g, ngroups, n, breadth);
	for (i = 0; i < n; i++) {
		uint32_t u = t->files[i].unit;

		t->files[i].rank = pr[u] * pow(1.0 + breadth[u], BREADTH_EXP) *
		    pow(hubs[u], HUB_EXP);
		if (uk_symclass_is_helper(t->files[i].path))
			t->files[i].rank *= HELPER_W;
	}
	errors_only(t);

	rank_definitions(t, group, ngroups, edges, nedges, &g, pr, out);
	uk_symnames_release(&g);
	free(byname);
	free(group);
	free(edges);
	free(out);
	free(pr);
	free(p);
	free(breadth);
	free(hubs);
}
