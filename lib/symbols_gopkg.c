/* SPDX-License-Identifier: MIT */
/*
 * Go's packages: a directory's .go files (its _test.go files aside) are
 * one package, which other files import by a path that go.mod's module
 * line roots at the module's directory.  A reference `afero.Fs` or
 * `afero.NewOsFs()` names the package the file imported as afero; an
 * unqualified `Fs` is its own package's.  See symbols_int.h.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "symbols_int.h"
#include "util.h"

int
uk_symgopkg_is_go(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".go") &&
	    !(n > 8 && !strcmp(path + n - 8, "_test.go"));
}

int
uk_symgopkg_same(const struct symtab *t, uint32_t a, uint32_t b)
{
	const char *pa = t->files[a].path, *pb = t->files[b].path;
	size_t la = (size_t)(uk_sympath_base(pa) - pa);

	if (a == b)
		return 1;
	return uk_symgopkg_is_go(pa) && uk_symgopkg_is_go(pb) &&
	    la == (size_t)(uk_sympath_base(pb) - pb) && !strncmp(pa, pb, la);
}

static int
gofile_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;

	return strcmp(t->files[*(const uint32_t *)a].path,
	    t->files[*(const uint32_t *)b].path);
}

/* go.mod's module path (malloc'd), or NULL. */
static char *
module_line(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl, *a, *b;

	for (; p < end; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(nl - p) < 7 || strncmp(p, "module", 6) ||
		    (p[6] != ' ' && p[6] != '\t'))
			continue;
		for (a = p + 6; a < nl && isspace((unsigned char)*a); a++)
			;
		if (a < nl && *a == '"')
			a++;
		for (b = a; b < nl && !isspace((unsigned char)*b) &&
		     *b != '"' && !(*b == '/' && b + 1 < nl && b[1] == '/');
		     b++)
			;
		if (b > a)
			return uk_util_xmemdup(a, (size_t)(b - a));
		return NULL;
	}
	return NULL;
}

void
uk_symgopkg_init(struct gopkgs *g, const struct symtab *t)
{
	size_t i, a = 0, am = 0;

	memset(g, 0, sizeof(*g));
	g->t = t;
	for (i = 0; i < t->nfiles; i++)
		if (t->files[i].cls != FC_VENDOR &&
		    uk_symgopkg_is_go(t->files[i].path)) {
			GROW(g->files, g->nfiles, a);
			g->files[g->nfiles++] = (uint32_t)i;
		}
	if (!g->nfiles)
		return;
	qsort_r(g->files, g->nfiles, sizeof(*g->files), gofile_cmp, (void *)t);
	for (i = 0; i < t->nnotes; i++) {
		const struct snote *n = &t->notes[i];
		char *mod;

		if (!n->text || strcmp(uk_sympath_base(n->path), "go.mod") ||
		    !(mod = module_line(n->text, n->len)))
			continue;
		GROW(g->mods, g->nmods, am);
		g->mods[g->nmods].path = mod;
		g->mods[g->nmods++].dir = uk_sympath_dir(n->path);
	}
}

void
uk_symgopkg_release(struct gopkgs *g)
{
	size_t i;

	for (i = 0; i < g->nmods; i++) {
		free(g->mods[i].path);
		free(g->mods[i].dir);
	}
	free(g->mods);
	free(g->files);
}

/*
 * The first file of the package in directory dir (with its slash, "" at
 * the root), or UINT32_MAX: the files are sorted by path, so a package's
 * files are together, the first at or after dir's own files.
 */
static uint32_t
package_file(const struct gopkgs *g, const char *dir, size_t dl)
{
	size_t lo = 0, hi = g->nfiles;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = g->t->files[g->files[mid]].path;

		if (strncmp(p, dir, dl) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < g->nfiles; lo++) {
		const char *p = g->t->files[g->files[lo]].path;

		if (strncmp(p, dir, dl))
			return UINT32_MAX;
		if (!strchr(p + dl, '/'))
			return g->files[lo];
	}
	return UINT32_MAX;
}

/* The first file of the package at dir (with its slash) and rel. */
static uint32_t
package_at(const struct gopkgs *g, const char *dir, const char *rel, size_t rl)
{
	struct uk_buf b = UK_BUF_INIT;
	uint32_t f;

	uk_buf_addstr(&b, dir);
	if (rl) {
		uk_buf_add(&b, rel, rl);
		uk_buf_addch(&b, '/');
	}
	f = package_file(g, b.len ? b.buf : "", b.len);
	uk_buf_release(&b);
	return f;
}

int
uk_symgopkg_resolve(const struct gopkgs *g, const char *ipath, uint32_t *file)
{
	size_t i, best = SIZE_MAX, bl = 0, n = strlen(ipath);
	const char *p, *slash = strchr(ipath, '/');

	*file = UINT32_MAX;
	if (!g->nfiles)
		return 0;
	/* The module whose path is the longest prefix of ipath. */
	for (i = 0; i < g->nmods; i++) {
		size_t ml = strlen(g->mods[i].path);

		if (ml <= n && !strncmp(ipath, g->mods[i].path, ml) &&
		    (ipath[ml] == '\0' || ipath[ml] == '/') &&
		    (best == SIZE_MAX || ml > bl)) {
			best = i;
			bl = ml;
		}
	}
	if (best != SIZE_MAX) {
		p = ipath + bl + (ipath[bl] == '/');
		*file = package_at(g, g->mods[best].dir, p, strlen(p));
		return *file != UINT32_MAX;
	}
	/*
	 * A path whose first element has no dot is the standard library's
	 * ("path/filepath"); so is every path outside the modules of a tree
	 * that has a go.mod.
	 */
	if (g->nmods ||
	    !memchr(ipath, '.', slash ? (size_t)(slash - ipath) : n))
		return 0;
	/*
	 * No go.mod (a tree from before modules): the longest tail of the
	 * path, at a slash, that is a package of the tree; else nobody
	 * knows (the tree's root package, or another's).
	 */
	for (p = slash; p; p = strchr(p + 1, '/')) {
		const char *tail = p + 1;

		if ((*file = package_at(g, "", tail, strlen(tail))) !=
		    UINT32_MAX)
			return 1;
	}
	return -1;
}

/*
 * The name a package's importers call it by when they do not say: its
 * path's last element, without the conventions that keep it apart from
 * the package name (a major version "v2" after it, ".v3" at its end, a
 * "go-" before it, "-go" or ".go" after it).
 */
char *
uk_symgopkg_name(const char *ipath)
{
	const char *e = ipath + strlen(ipath), *b, *dot;
	size_t n;

	for (;;) {
		for (b = e; b > ipath && b[-1] != '/'; b--)
			;
		if (b > ipath && e - b >= 2 && b[0] == 'v' &&
		    strspn(b + 1, "0123456789") == (size_t)(e - b - 1)) {
			e = b - 1;
			continue;
		}
		break;
	}
	n = (size_t)(e - b);
	if (n > 3 && !strncmp(b, "go-", 3)) {
		b += 3;
		n -= 3;
	}
	if (n > 3 &&
	    (!strncmp(b + n - 3, "-go", 3) || !strncmp(b + n - 3, ".go", 3)))
		n -= 3;
	if ((dot = memchr(b, '.', n)) && dot[1] == 'v' && dot > b)
		n = (size_t)(dot - b);
	return uk_util_xmemdup(b, n);
}
