/* SPDX-License-Identifier: MIT */
/*
 * Imports and includes resolved to the files of the tree they name, as
 * edges of the file graph (symbols_rank.c), and the names a file imports
 * from outside the tree.  See symbols_int.h.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

#define IMPORT_W 1.0 /* one file importing (including) another */

static int
extname_cmp(const void *a, const void *b)
{
	const struct extname *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return strcmp(x->name, y->name);
}

int
uk_symimports_is_external(const struct extnames *x, uint32_t file,
    const char *name)
{
	struct extname key = { file, (char *)name };

	return x->n &&
	    bsearch(&key, x->v, x->n, sizeof(*x->v), extname_cmp) != NULL;
}

static int
modname_cmp(const void *a, const void *b)
{
	const struct modname *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return strcmp(x->name, y->name);
}

uint32_t
uk_symimports_module_of(const struct extnames *x, uint32_t file,
    const char *name)
{
	struct modname key = { file, (char *)name, 0 };
	const struct modname *m;

	if (!x->nmod ||
	    !(m = bsearch(&key, x->mod, x->nmod, sizeof(*x->mod),
		  modname_cmp)))
		return UINT32_MAX;
	return m->module;
}

static int
binding_cmp(const void *a, const void *b)
{
	const struct binding *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return 0;
}

uint32_t
uk_symimports_bound_unit(const struct extnames *x, uint32_t file, uint32_t name)
{
	struct binding key = { file, name, 0 };
	const struct binding *b;

	if (!x->nb ||
	    !(b = bsearch(&key, x->b, x->nb, sizeof(*x->b), binding_cmp)))
		return UINT32_MAX;
	return b->unit;
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

static void
modres_init(struct modres *m, struct symtab *t)
{
	size_t i, akeys = 0;

	memset(m, 0, sizeof(*m));
	m->t = t;
	for (i = 0; i < t->nfiles; i++) {
		const char *path = t->files[i].path, *b = uk_sympath_base(path),
			   *k;
		char *full[2];
		size_t nfull = 1, j, sl = uk_sympath_stem_len(b);

		if (t->files[i].cls == FC_VENDOR)
			continue;
		full[0] = uk_sympath_is_c(path) ?
		    uk_util_xstrdup(path) :
		    uk_util_xmemdup(path, (size_t)(b - path) + sl);
		if (!uk_sympath_is_c(path) && b > path &&
		    ((sl == 8 && !strncmp(b, "__init__", 8)) ||
			(sl == 3 && !strncmp(b, "mod", 3)) ||
			(sl == 5 && !strncmp(b, "index", 5))))
			full[nfull++] =
			    uk_util_xmemdup(path, (size_t)(b - path) - 1);
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
		return uk_util_xstrdup("");
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
	return uk_util_xmemdup(s + 1, n - 2);
}

/* What one import names: files, each with the name it takes, if one. */
struct targets {
	size_t *file;
	char **name; /* malloc'd or NULL */
	size_t n, a, aname;
	char **ext; /* names imported from outside the tree */
	size_t next, aext;
	char **as;      /* names bound to a module of the tree... */
	size_t *asfile; /* ...that file */
	size_t nas, aas, aasfile;
};

static void
add_external(struct targets *o, const char *name, size_t len)
{
	GROW(o->ext, o->next, o->aext);
	o->ext[o->next++] = uk_util_xmemdup(name, len);
}

static void
add_module_name(struct targets *o, size_t f, const char *name, size_t len)
{
	GROW(o->as, o->nas, o->aas);
	GROW(o->asfile, o->nas, o->aasfile);
	o->asfile[o->nas] = f;
	o->as[o->nas++] = uk_util_xmemdup(name, len);
}

static void
add_target(struct targets *o, size_t f, const char *name, size_t len)
{
	if (f == SIZE_MAX)
		return;
	GROW(o->file, o->n, o->a);
	GROW(o->name, o->n, o->aname);
	o->file[o->n] = f;
	o->name[o->n++] = name ? uk_util_xmemdup(name, len) : NULL;
}

static void
targets_reset(struct targets *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		free(o->name[i]);
	for (i = 0; i < o->nas; i++)
		free(o->as[i]);
	o->nas = 0;
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
	dir = uk_sympath_dir(from);
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
		dir = uk_sympath_dir(from);
		if ((p = join_path(dir, rel))) {
			/* "./x.js" names the file with its extension. */
			size_t sl = uk_sympath_stem_len(uk_sympath_base(p)), f;

			f = modres_find(m, p, 1);
			if (f == SIZE_MAX &&
			    uk_sympath_has_ext(p, ".js.mjs.cjs.ts.jsx.tsx.")) {
				p[(size_t)(uk_sympath_base(p) - p) + sl] = '\0';
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
 * Whether the first component of rel (a module path with slashes) is a
 * package of Python's standard library: `from http.cookies import Morsel`
 * is http's cookies, not the cookies.py of a tree whose root is the
 * package requests (which made requests' compat.py hand all its rank to
 * cookies.py, and the two the first two files).  The packages of
 * sys.stdlib_module_names, those that have submodules.
 */
static int
python_stdlib_package(const char *rel)
{
	static const char *const pkgs[] = { "asyncio", "collections",
		"concurrent", "ctypes", "curses", "dbm", "distutils", "email",
		"encodings", "ensurepip", "html", "http", "idlelib",
		"importlib", "json", "lib2to3", "logging", "multiprocessing",
		"os", "pydoc_data", "sqlite3", "tkinter", "tomllib",
		"unittest", "urllib", "venv", "wsgiref", "xml", "xmlrpc",
		"zoneinfo", NULL };
	size_t n = strcspn(rel, "/"), i;

	for (i = 0; pkgs[i]; i++)
		if (strlen(pkgs[i]) == n && !strncmp(rel, pkgs[i], n))
			return 1;
	return 0;
}

/*
 * A Python module path, dotted: relative (leading dots) from the
 * importer's package, else from the root, a directory the root holds
 * (src/), or below the package the root is (its own name left out,
 * unless that name is a package of the standard library's).
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
		dir = uk_sympath_dir(from);
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
			/*
			 * "from . import x": the package itself; not for
			 * ".registry.apps" unfound (a name in a module, which
			 * the caller gives to .registry): the package would be
			 * the importing __init__.py, an edge to itself.
			 */
			if (!*p || (f == SIZE_MAX && !*rel)) {
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
		if (f == SIZE_MAX && strchr(rel, '/') &&
		    !python_stdlib_package(rel))
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

/*
 * The length of the name `import a.b` binds (a) or, for `import a.b as
 * c`, 0: then the alias is the next word, which the caller meets next.
 */
static size_t
py_bound(const char *w, size_t wl, const char *rest)
{
	const char *dot = memchr(w, '.', wl);

	while (*rest == ' ' || *rest == '\t' || *rest == '\\' ||
	    *rest == '\n')
		rest++;
	if (!strncmp(rest, "as", 2) && !py_word(rest[2]))
		return 0;
	return dot ? (size_t)(dot - w) : wl;
}

/* "import a.b, c as d" or "from a import b, (c as d)": the modules. */
static void
resolve_python(const struct modres *m, const char *from, const char *text,
    struct targets *out)
{
	const char *p = text, *mod = NULL;
	size_t modlen = 0, base = SIZE_MAX;
	int in_from = !strncmp(p, "from", 4), after_as = 0, ext_alias = 0;
	size_t mod_alias = SIZE_MAX;

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
			/* import json as j: j is the outside module. */
			if (ext_alias)
				add_external(out, w, wl);
			else if (mod_alias != SIZE_MAX)
				add_module_name(out, mod_alias, w, wl);
			after_as = ext_alias = 0;
			mod_alias = SIZE_MAX;
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
			if (f != SIZE_MAX) {
				add_target(out, f, NULL, 0);
				/* from django import forms: forms.Form */
				if (py_bound(w, wl, p))
					add_module_name(out, f, w, wl);
				else
					mod_alias = f;
			}
			else if (base != SIZE_MAX)
				add_target(out, base, w, wl);
			else if (mod[0] != '.')
				add_external(out, w, wl);
		} else {
			size_t f = python_module(m, from, w, wl), bl;

			add_target(out, f, NULL, 0);
			if (f != SIZE_MAX) {
				/* import a.b as c; import a (not a.b: a.b.x) */
				if (!py_bound(w, wl, p))
					mod_alias = f;
				else if (!memchr(w, '.', wl))
					add_module_name(out, f, w, wl);
				continue;
			}
			if (w[0] == '.')
				continue;
			/* import logging: the file's logging.x are the
			 * library's (symbols_rank.c). */
			if ((bl = py_bound(w, wl, p)))
				add_external(out, w, bl);
			else
				ext_alias = 1;
		}
	}
}

/* The module path of a Rust file: "src/value" for src/value/mod.rs. */
static char *
rust_self(const char *path)
{
	const char *b = uk_sympath_base(path);
	size_t sl = uk_sympath_stem_len(b);

	if ((sl == 3 && !strncmp(b, "mod", 3)) ||
	    (sl == 3 && !strncmp(b, "lib", 3)) ||
	    (sl == 4 && !strncmp(b, "main", 4)))
		return uk_util_xmemdup(path,
		    b > path ? (size_t)(b - path) - 1 : 0);
	return uk_util_xmemdup(path, (size_t)(b - path) + sl);
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
	whole = uk_util_xstrdup(p);
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
		dir = src ? uk_util_xmemdup(from, (size_t)(src - from) + 4) :
			    uk_util_xstrdup("");
		s += 6;
	} else if (!strncmp(s, "self/", 5)) {
		dir = with_slash(self);
		s += 5;
	} else if (!strncmp(s, "super/", 6)) {
		char *up = uk_util_xstrdup(self), *sl;

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

/*
 * A Go import ("path", its alias as alias or NULL): a package of the tree
 * binds its name to the package's first file (symbols_rank.c takes any
 * file of that directory for it); another's name is outside the tree,
 * and one nobody can place (no go.mod) is neither.
 * No edge by the import itself: a package is many files, and the
 * references through its name say which of them the importer uses.
 */
static void
resolve_go(const struct gopkgs *g, const char *text, const char *alias,
    struct targets *out)
{
	char *ipath = unquote(text), *name;
	uint32_t f;
	int r;

	if (!ipath)
		return;
	if (alias && (!strcmp(alias, "_") || !strcmp(alias, "."))) {
		free(ipath);
		return;
	}
	name = alias ? uk_util_xstrdup(alias) : uk_symgopkg_name(ipath);
	r = uk_symgopkg_resolve(g, ipath, &f);
	if (r > 0)
		add_module_name(out, f, name, strlen(name));
	else if (!r)
		add_external(out, name, strlen(name));
	free(name);
	free(ipath);
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
 * *nameid is the name's id when some file defines it, else UINT32_MAX.
 */
static uint32_t
import_group(const struct symtab *t, const struct namedef *nd, size_t nnd,
    const uint32_t *byname, const uint32_t *group, const char *name,
    size_t file, uint32_t *nameid)
{
	struct namedef key = { name, 0, 0 };
	const struct namedef *k;
	size_t i;

	*nameid = UINT32_MAX;
	if (!name || !(k = bsearch(&key, nd, nnd, sizeof(*nd), namedef_cmp)))
		return UINT32_MAX;
	*nameid = t->defs[byname[k->first]].name;
	for (i = k->first; i < k->end; i++) {
		const struct sdef *d = &t->defs[byname[i]];

		if (d->file == file && symtab_visible(t, d))
			return group[byname[i]];
	}
	return UINT32_MAX;
}

/* An import of a name from a file that does not define it. */
struct pending {
	uint32_t file, via, name;
};

/*
 * A name imported from a module that imports it in turn (a package's
 * __init__.py re-exporting `from .request import HttpRequest`, a Rust
 * `pub use`) is bound where that import binds it, up to four modules
 * deep: `from django.http import HttpRequest` makes the file's
 * HttpRequest http/request.py's.
 */
static void
follow_reexports(struct extnames *ext, struct pending *p, size_t n)
{
	size_t i, hop, nb;
	uint32_t u;
	int more = 1;

	for (hop = 0; hop < 4 && more; hop++) {
		more = 0;
		nb = ext->nb;
		for (i = 0; i < n; i++) {
			if (p[i].name == UINT32_MAX ||
			    (u = uk_symimports_bound_unit(ext, p[i].via,
				 p[i].name)) == UINT32_MAX)
				continue;
			GROW(ext->b, ext->nb, ext->ab);
			ext->b[ext->nb].file = p[i].file;
			ext->b[ext->nb].name = p[i].name;
			ext->b[ext->nb++].unit = u;
			p[i].name = UINT32_MAX;
		}
		if (ext->nb > nb) {
			qsort(ext->b, ext->nb, sizeof(*ext->b), binding_cmp);
			more = 1;
		}
	}
}

/*
 * The import edges, one per importing unit, imported unit and imported
 * definition (when the import names one the module defines: then it
 * counts as a reference to that definition).
 */
void
uk_symimports_edges(struct symtab *t, const uint32_t *byname,
    const uint32_t *group, struct extnames *ext, struct edge **edges,
    size_t *nedges, size_t *aedges)
{
	struct modres m;
	struct gopkgs gp;
	struct edge *imp = NULL;
	struct namedef *nd = NULL;
	struct targets to = { NULL, NULL, 0, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0,
		0 };
	size_t nimp = 0, aimp = 0, i, j, e, nnd = 0, and_ = 0;
	struct pending *pend = NULL;
	size_t npend = 0, apend = 0;

	modres_init(&m, t);
	uk_symgopkg_init(&gp, t);
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
		else if (!strcmp(lang, "go"))
			resolve_go(&gp, name,
			    t->refs[i].qual == UINT32_MAX ?
				NULL :
				t->names[t->refs[i].qual],
			    &to);
		for (j = 0; j < to.next; j++) {
			GROW(ext->v, ext->n, ext->a);
			ext->v[ext->n].file = t->refs[i].file;
			ext->v[ext->n++].name = to.ext[j];
			to.ext[j] = NULL;
		}
		for (j = 0; j < to.nas; j++) {
			GROW(ext->mod, ext->nmod, ext->amod);
			ext->mod[ext->nmod].file = t->refs[i].file;
			ext->mod[ext->nmod].module = (uint32_t)to.asfile[j];
			ext->mod[ext->nmod++].name = to.as[j];
			to.as[j] = NULL;
		}
		for (j = 0; j < to.n; j++) {
			uint32_t tu = t->files[to.file[j]].unit;
			uint32_t nameid;
			uint32_t g = import_group(t, nd, nnd, byname, group,
			    to.name[j], to.file[j], &nameid);

			if (tu == f->unit)
				continue;
			if (g == UINT32_MAX && to.name[j]) {
				GROW(pend, npend, apend);
				pend[npend].file = t->refs[i].file;
				pend[npend].via = (uint32_t)to.file[j];
				pend[npend++].name = nameid;
			}
			if (g != UINT32_MAX) {
				GROW(ext->b, ext->nb, ext->ab);
				ext->b[ext->nb].file = t->refs[i].file;
				ext->b[ext->nb].name = nameid;
				ext->b[ext->nb++].unit = tu;
			}
			GROW(imp, nimp, aimp);
			imp[nimp].from = f->unit;
			imp[nimp].to = tu;
			imp[nimp].w = IMPORT_W;
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
	free(to.as);
	free(to.asfile);
	if (ext->n)
		qsort(ext->v, ext->n, sizeof(*ext->v), extname_cmp);
	if (ext->nmod)
		qsort(ext->mod, ext->nmod, sizeof(*ext->mod), modname_cmp);
	/* Two imports of one name in a file (try/except ImportError): the
	 * first, as for any pair of equal keys bsearch may find. */
	if (ext->nb)
		qsort(ext->b, ext->nb, sizeof(*ext->b), binding_cmp);
	follow_reexports(ext, pend, npend);
	free(pend);
	free(imp);
	free(nd);
	uk_symgopkg_release(&gp);
	modres_release(&m);
}
