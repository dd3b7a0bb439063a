/* SPDX-License-Identifier: MIT */
/*
 * The repository map: the best-ranked definitions, with their scopes,
 * rendered within a budget of tokens, and their JSON.  See symbols.h.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "json.h"
#include "symbols_int.h"
#include "util.h"

#define BAR        "\xe2\x94\x82" /* U+2502, before each line of the source */
#define DOTS       "\xe2\x8b\xae" /* U+22EE, where lines are skipped */
#define TOP_MAX    10             /* paths listed at the top */
#define FILL_TRIES 100 /* maps rendered to fill the budget */
#define SPREAD_EXP 1.0 /* a unit's k-th definition at rank / k */

/*
 * A signature's lines, each after BAR; tabs stay (they are indentation).
 * note (already escaped), when not NULL, ends the last line.
 */
static void
add_sig(struct uk_buf *b, const char *sig, const char *note)
{
	while (*sig) {
		size_t n = strcspn(sig, "\n"), i, from = 0;

		uk_buf_addstr(b, BAR);
		for (i = 0; i <= n; i++) {
			if (i < n && sig[i] != '\t')
				continue;
			uk_symescape_add(b, sig + from, i - from);
			if (i < n)
				uk_buf_addch(b, '\t');
			from = i + 1;
		}
		if (note && !sig[n])
			uk_buf_addstr(b, note);
		uk_buf_addch(b, '\n');
		sig += n;
		if (*sig)
			sig++;
	}
}

/* A line of the map for one file: a definition or a scope's header. */
struct entry {
	uint32_t line, nlines;
	const char *text;
	const char *note; /* after its last line (t->site_note), or NULL */
};

static int
entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/*
 * A .c file and its header are one unit (symbols_rank.c pairs them): the
 * unit's lead is the header, whose index is the unit's.
 */
static int
chosen_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	const struct sdef *x = &t->defs[*(const uint32_t *)a];
	const struct sdef *y = &t->defs[*(const uint32_t *)b];
	const struct sfile *fx = &t->files[x->file], *fy = &t->files[y->file];
	int c;

	if (x->file != y->file) {
		if (fx->rank != fy->rank)
			return fx->rank > fy->rank ? -1 : 1;
		/* A unit's files together, by its lead's path, lead first. */
		c = strcmp(t->files[fx->unit].path, t->files[fy->unit].path);
		if (c || fx->unit != fy->unit)
			return c ? c : fx->unit < fy->unit ? -1 : 1;
		if ((x->file == fx->unit) != (y->file == fy->unit))
			return x->file == fx->unit ? -1 : 1;
		return strcmp(fx->path, fy->path);
	}
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/*
 * One file's entries, with U+22EE where lines are skipped.  The second
 * file of a unit (a .c file under its header) has its path indented by
 * two spaces: it is no new file of the map, but where what follows is.
 */
static void
render_file(const struct symtab *t, uint32_t file, struct entry *es, size_t n,
    int second, struct uk_buf *out)
{
	uint32_t next = 1; /* the first line not yet shown */
	size_t i;

	if (n)
		qsort(es, n, sizeof(*es), entry_cmp);
	if (second)
		uk_buf_addstr(out, "  ");
	uk_symescape_add(out, t->files[file].path,
	    strlen(t->files[file].path));
	uk_buf_addstr(out, ":\n");
	for (i = 0; i < n; i++) {
		if (i && es[i].line < next)
			continue; /* within what is shown (a scope's header) */
		if (es[i].line > next)
			uk_buf_addstr(out, DOTS "\n");
		add_sig(out, es[i].text, es[i].note);
		next = es[i].line + es[i].nlines;
	}
	if (next <= t->files[file].nlines)
		uk_buf_addstr(out, DOTS "\n");
}

/*
 * The chosen definitions, file by file in order of rank; a .c file and
 * its header as one part of the map, the header's path first (with only
 * its path and U+22EE when none of its own definitions is chosen).
 */
static void
render(const struct symtab *t, const uint32_t *order, size_t nsel,
    const char *top, struct uk_buf *out)
{
	uint32_t *sel = uk_util_xcalloc(nsel + 1, sizeof(*sel));
	struct entry *es = uk_util_xcalloc(2 * nsel + 2, sizeof(*es));
	size_t i, n = 0;
	uint32_t file = UINT32_MAX, unit = UINT32_MAX;

	if (top && nsel)
		uk_buf_addstr(out, top);
	memcpy(sel, order, nsel * sizeof(*sel));
	qsort_r(sel, nsel, sizeof(*sel), chosen_cmp, (void *)t);
	for (i = 0; i <= nsel; i++) {
		const struct sdef *d = i < nsel ? &t->defs[sel[i]] : NULL;

		if (file != UINT32_MAX && (!d || d->file != file)) {
			render_file(t, file, es, n, file != unit, out);
			if (d && t->files[d->file].unit != unit)
				uk_buf_addch(out, '\n');
			n = 0;
		}
		if (!d)
			break;
		if (d->file != file && t->files[d->file].unit != unit) {
			unit = t->files[d->file].unit;
			/* The header leads its unit even with nothing shown. */
			if (unit != d->file)
				render_file(t, unit, NULL, 0, 0, out);
		}
		file = d->file;
		if (d->scope) {
			es[n].line = d->scope_line;
			es[n].nlines = d->scope_nlines;
			es[n].note = NULL;
			es[n++].text = d->scope;
		}
		es[n].line = d->line;
		es[n].nlines = d->nlines;
		es[n].note = t->site_note ? t->site_note[sel[i]] : NULL;
		es[n].text = d->sig;
		if (t->fold_text && t->fold_text[sel[i]]) {
			es[n].nlines = 1;
			es[n].text = t->fold_text[sel[i]];
		}
		n++;
	}
	free(es);
	free(sel);
}

#define FOLD_MIN   4 /* exception classes of a file shown as one line */
#define FOLD_NAMED 3 /* names that line gives */

static void
fold_release(struct symtab *t)
{
	size_t i;

	/* Made by an earlier map, before more files came in. */
	if (t->fold_text)
		for (i = 0; i < t->nfold; i++)
			free(t->fold_text[i]);
	free(t->fold_text);
	free(t->folded);
	t->fold_text = NULL;
	t->folded = NULL;
	t->nfold = 0;
}

/*
 * Kinds that crowd out the API: a file's FOLD_MIN or more exception
 * classes are one line of the map, on the best of them, "24 exception
 * classes (RequestException, HTTPError, ...)" with the best first; the
 * others are left out.  Shown one a line, requests' exceptions.py took
 * 13 of the 1024-token map's 80 lines.  So are a file's FOLD_MIN or more
 * top-level constants (__version__.py's ten dunders): the 39 maps of
 * repomap-dev show 556 files instead of 545.  order[0..n) is by rank.
 */
static void
fold_exceptions(struct symtab *t, const uint32_t *order, size_t n)
{
	static const char *const what[2] = { "exception classes",
		"constants" };
	/* By file and kind (2 * file + kind). */
	uint32_t *cnt = uk_util_xcalloc(2 * t->nfiles + 2, sizeof(*cnt));
	uint32_t *lead = uk_util_xcalloc(2 * t->nfiles + 2, sizeof(*lead));
	uint32_t *named = uk_util_xcalloc(2 * t->nfiles + 2, sizeof(*named));
	uint32_t *exc_cnt = uk_util_xcalloc(t->nfiles + 1, sizeof(*exc_cnt));
	struct uk_buf *text = NULL;
	unsigned char *kind = uk_util_xcalloc(n + 1, 1);
	size_t i;

	fold_release(t);
	/* kind[i]: 1 an exception class, 2 a top-level constant, 0 none. */
	uk_symexc_classes(t, order, n, kind, exc_cnt);
	for (i = 0; i < n; i++) {
		const struct sdef *d = &t->defs[order[i]];

		if (!kind[i] && !d->scope && !strcmp(d->kind, "constant"))
			kind[i] = 2;
		if (kind[i])
			cnt[2 * d->file + kind[i] - 1]++;
	}
	for (i = 0; i < n; i++)
		if (kind[i] && cnt[2 * t->defs[order[i]].file + kind[i] - 1] >=
			FOLD_MIN)
			break;
	if (i < n) {
		t->fold_text =
		    uk_util_xcalloc(t->ndefs + 1, sizeof(*t->fold_text));
		t->folded = uk_util_xcalloc(t->ndefs + 1, 1);
		t->nfold = t->ndefs;
		text = uk_util_xcalloc(2 * t->nfiles + 2, sizeof(*text));
	}
	for (; i < n; i++) {
		uint32_t f;
		const char *name = t->names[t->defs[order[i]].name];

		if (!kind[i])
			continue;
		f = 2 * t->defs[order[i]].file + kind[i] - 1;
		if (cnt[f] < FOLD_MIN)
			continue;
		if (!named[f]) {
			lead[f] = order[i];
			uk_buf_addf(&text[f], "%u %s (", cnt[f],
			    what[kind[i] - 1]);
		} else
			t->folded[order[i]] = 1;
		/* The best FOLD_NAMED names, then "...". */
		if (named[f] < FOLD_NAMED) {
			if (named[f])
				uk_buf_addstr(&text[f], ", ");
			uk_buf_addstr(&text[f], name); /* add_sig escapes */
		} else if (named[f] == FOLD_NAMED)
			uk_buf_addstr(&text[f], ", ...");
		named[f]++;
	}
	for (i = 0; text && i < 2 * t->nfiles; i++)
		if (text[i].len) {
			uk_buf_addch(&text[i], ')');
			t->fold_text[lead[i]] =
			    uk_util_xmemdup(text[i].buf, text[i].len);
			uk_buf_release(&text[i]);
		}
	free(text);
	free(kind);
	free(exc_cnt);
	free(named);
	free(lead);
	free(cnt);
}

static int
def_rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	const struct sdef *x = &t->defs[*(const uint32_t *)a];
	const struct sdef *y = &t->defs[*(const uint32_t *)b];
	double fx = t->files[x->file].rank, fy = t->files[y->file].rank;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	if (fx != fy)
		return fx > fy ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return 0;
}

/*
 * The order in which the map takes definitions: by rank, but a unit's
 * k-th best at its rank divided by k.  Taken by rank alone, a 1024-token
 * map of yaml.v3 gave 26 of its 62 lines to the fifth file's
 * initialisers (apic.go) and showed six files; a map is the tree's
 * table of contents first.  Spread by the square root of k, the maps of
 * the 37 trees of repomap-dev showed a few more files each, and 127 of
 * their 141 central files in the first ten against 126; by k since the
 * hub score (symbols_rank.c) made the first files' ranks steeper, which
 * left a 120-token map of nine initialisers and four steps to the
 * initialisers' file alone (the same 139/152 central files either way).
 */
struct spread {
	const struct symtab *t;
	double *score; /* by definition */
};

static int
spread_cmp(const void *a, const void *b, void *ctx)
{
	const struct spread *sp = ctx;
	double x = sp->score[*(const uint32_t *)a];
	double y = sp->score[*(const uint32_t *)b];

	if (x != y)
		return x > y ? -1 : 1;
	return def_rank_cmp(a, b, (void *)sp->t);
}

/* Sort order[0..n), sorted by rank, into the map's order. */
static void
spread_order(const struct symtab *t, uint32_t *order, size_t n)
{
	struct spread sp = { t, uk_util_xcalloc(t->ndefs + 1, sizeof(double)) };
	uint32_t *taken = uk_util_xcalloc(t->nfiles + 1, sizeof(*taken));
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sdef *d = &t->defs[order[i]];
		uint32_t u = t->files[d->file].unit;

		sp.score[order[i]] = d->rank / pow(1.0 + taken[u]++, SPREAD_EXP);
	}
	qsort_r(order, n, sizeof(*order), spread_cmp, &sp);
	free(sp.score);
	free(taken);
}

/* An entry point or manifest, by name, and how strongly (lower first). */
static int
top_kind(const char *path)
{
	static const char *const entries[] = { "main.go", "main.rs", "lib.rs",
		"__main__.py", "main.py", "manage.py", "index.js", "index.ts",
		"main.c", "main.cc", "main.cpp", "Main.java", "cli.py",
		"app.py", NULL };
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	if (uk_symclass_is_build_file(path))
		return 1;
	for (i = 0; entries[i]; i++)
		if (!strcmp(base, entries[i]))
			return 2;
	return 0;
}

/* How deep in the tree path is (0 at the root). */
static int
depth(const char *path)
{
	int d = 0;

	while ((path = strchr(path, '/'))) {
		d++;
		path++;
	}
	return d;
}

struct top {
	const char *path;
	int kind;
};

static int
top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (depth(x->path) != depth(y->path))
		return depth(x->path) - depth(y->path);
	return strcmp(x->path, y->path);
}

/*
 * Files that matter but define little: manifests and build files at the
 * top two levels, files named as entry points with at most two
 * definitions, and the programs' entry points (a main, a package.json
 * bin) however much they define, as aider lists a repository's
 * important files; none from tests, docs or vendored code.
 */
static void
top_block(const struct symtab *t, const char *focus, struct uk_buf *out)
{
	struct top *tops =
	    uk_util_xcalloc(t->nnotes + t->nfiles + 1, sizeof(*tops));
	size_t n = 0, i, fl = focus ? strlen(focus) : 0;

	for (i = 0; i < t->nnotes + t->nfiles; i++) {
		const char *p = i < t->nnotes ? t->notes[i].path :
						t->files[i - t->nnotes].path;
		const char *rel = p;
		int k = top_kind(p), entry = i >= t->nnotes &&
		    t->files[i - t->nnotes].entry;

		/* A program's start (main, a package.json bin), whatever
		 * its name and however much it defines. */
		if (!k && entry)
			k = 2;
		if (!k || uk_symclass_is_noise(p))
			continue;
		if (fl && !strncmp(p, focus, fl) && p[fl] == '/')
			rel = p + fl + 1;
		if (depth(rel) > (k == 1 ? 1 : 2))
			continue;
		if (i >= t->nnotes &&
		    (t->files[i - t->nnotes].cls != FC_CORE ||
			(t->files[i - t->nnotes].ndefs > 2 && !entry)))
			continue;
		if (i < t->nnotes && k == 1 && depth(rel) == 1 &&
		    strncmp(p, "cmd/", 4) && strncmp(p, "src/", 4))
			continue;
		tops[n].path = p;
		tops[n++].kind = k;
	}
	qsort(tops, n, sizeof(*tops), top_cmp);
	for (i = 0; i < n && i < TOP_MAX; i++) {
		if (i && !strcmp(tops[i].path, tops[i - 1].path))
			continue;
		uk_symescape_add(out, tops[i].path, strlen(tops[i].path));
		uk_buf_addch(out, '\n');
	}
	if (out->len)
		uk_buf_addch(out, '\n');
	free(tops);
}

#define SITES_MIN   2 /* definitions of a file's shown at headers, to list it */
#define SITES_LISTED 5 /* such files listed at the top, at most */

struct site_count {
	uint32_t file, n;
};

static int
site_count_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	const struct site_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(t->files[x->file].path, t->files[y->file].path);
}

/*
 * The top block of a map showing sel[0..n): top (its lines and blank
 * line, or empty) with, before the blank line, a line per file that
 * defines at least SITES_MIN of the header declarations shown but is
 * no heading of the map, with that count ("src/server.c (defines 12
 * functions declared below)"): a reader of server.h learns that
 * server.c is where they are, though the map shows it nowhere.
 */
static void
site_block(const struct symtab *t, const uint32_t *sel, size_t n,
    const struct uk_buf *top, struct uk_buf *out)
{
	unsigned char *heading = uk_util_xcalloc(t->nfiles + 1, 1);
	uint32_t *cnt = uk_util_xcalloc(t->nfiles + 1, sizeof(*cnt));
	struct site_count *v = NULL;
	size_t i, nv = 0, k;

	uk_buf_reset(out);
	for (i = 0; t->site_start && i < n; i++) {
		const struct sdef *d = &t->defs[sel[i]];

		heading[d->file] = 1;
		heading[t->files[d->file].unit] = 1;
		for (k = t->site_start[sel[i]]; k < t->site_start[sel[i] + 1];
		     k++)
			cnt[t->sites[k]]++;
	}
	for (i = 0; i < t->nfiles; i++)
		if (cnt[i] >= SITES_MIN && !heading[i])
			nv++;
	if (nv) {
		v = uk_util_xcalloc(nv, sizeof(*v));
		nv = 0;
		for (i = 0; i < t->nfiles; i++)
			if (cnt[i] >= SITES_MIN && !heading[i]) {
				v[nv].file = (uint32_t)i;
				v[nv++].n = cnt[i];
			}
		qsort_r(v, nv, sizeof(*v), site_count_cmp, (void *)t);
	}
	/* The top's lines, without its blank line. */
	if (top->len)
		uk_buf_add(out, top->buf, top->len - 1);
	for (i = 0; i < nv && i < SITES_LISTED; i++) {
		const char *p = t->files[v[i].file].path;

		uk_symescape_add(out, p, strlen(p));
		uk_buf_addf(out, " (defines %u function%s declared below)\n",
		    v[i].n, v[i].n == 1 ? "" : "s");
	}
	if (out->len)
		uk_buf_addch(out, '\n');
	free(v);
	free(cnt);
	free(heading);
}

static size_t
count(const struct uk_symbols_opts *o, const struct uk_buf *b)
{
	return uk_tokens_count(o->tokenizer, b->buf ? b->buf : "", b->len);
}

static int
fits(const struct symtab *t, const struct uk_symbols_opts *o,
    const uint32_t *sel, size_t n, const char *top, struct uk_buf *b)
{
	uk_buf_reset(b);
	render(t, sel, n, top, b);
	return o->budget < 0 || count(o, b) <= (size_t)o->budget;
}

/*
 * Fill the budget after the first lo of order: later definitions that
 * still fit, each tried in turn (a long signature that does not fit need
 * not leave the rest of the budget empty).  Returns the number chosen,
 * put first in order; *used, their tokens.
 */
static size_t
fill(const struct symtab *t, const struct uk_symbols_opts *o, uint32_t *order,
    size_t n, size_t lo, const char *top, struct uk_buf *b, size_t *used)
{
	size_t k, tries = 0;

	fits(t, o, order, lo, top, b);
	*used = count(o, b);
	for (k = lo + 1; k < n && k <= lo + 20 * FILL_TRIES && tries < FILL_TRIES;
	     k++) {
		uint32_t x = order[k];
		const char *sig = t->defs[x].sig;

		if (*used * 100 >= (size_t)o->budget * 99)
			break;
		/* Its signature alone does not fit: no need to render. */
		if (*used + uk_tokens_count(o->tokenizer, sig, strlen(sig)) >
		    (size_t)o->budget)
			continue;
		tries++;
		order[k] = order[lo];
		order[lo] = x;
		if (fits(t, o, order, lo + 1, top, b)) {
			lo++;
			*used = count(o, b);
		} else {
			order[lo] = order[k];
			order[k] = x;
		}
	}
	return lo;
}

/*
 * The definitions to show: the longest prefix of order that fits, then
 * the fill.  When that leaves over a tenth of the budget unused (the
 * next file's header and definition just too long), the fill after the
 * prefix less its last definition, if it uses more.  Returns the number
 * chosen, put first in order.
 */
static size_t
choose(const struct symtab *t, const struct uk_symbols_opts *o, uint32_t *order,
    size_t n, const char *top, struct uk_buf *b)
{
	size_t lo = 0, hi = n, mid, step, pre, lo2, used, used2;
	uint32_t *alt;

	if (o->budget < 0)
		return n;
	/*
	 * Galloping, then bisecting: prefixes of 1, 2, 4... definitions
	 * until one does not fit, then the longest that fits between, so
	 * that no render is much over twice the budget.  A bisection over
	 * all n would first render and count half of a big tree's
	 * definitions (on syn, 33 of the map's 55 million instructions;
	 * scripts/bench repo times the step).
	 */
	for (step = 1; lo < n; step *= 2) {
		mid = n - lo > step ? lo + step : n;
		if (!fits(t, o, order, mid, top, b)) {
			hi = mid - 1;
			break;
		}
		lo = mid;
	}
	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (fits(t, o, order, mid, top, b))
			lo = mid;
		else
			hi = mid - 1;
	}
	alt = uk_util_xcalloc(n + 1, sizeof(*alt));
	memcpy(alt, order, n * sizeof(*alt));
	pre = lo;
	lo = fill(t, o, order, n, pre, top, b, &used);
	if (pre > 1 && used * 10 < (size_t)o->budget * 9) {
		lo2 = fill(t, o, alt, n, pre - 1, top, b, &used2);
		if (used2 > used) {
			memcpy(order, alt, n * sizeof(*alt));
			lo = lo2;
		}
	}
	free(alt);
	return lo;
}

size_t
uk_symmap_render(struct symtab *t, const struct uk_symbols_opts *o,
    struct uk_buf *out)
{
	uint32_t *order;
	size_t i, n = 0, lo;
	struct uk_buf b = UK_BUF_INIT, top = UK_BUF_INIT, sites = UK_BUF_INIT;
	const char *focus = o->focus && *o->focus ? o->focus : NULL;
	int show = FC_VENDOR;

	if (!t->ranked || (focus == NULL) != (t->focus == NULL) ||
	    (focus && strcmp(focus, t->focus))) {
		free(t->focus);
		t->focus = focus ? uk_util_xstrdup(focus) : NULL;
		uk_symrank_table(t, t->focus);
	}
	/*
	 * The project's own definitions; tests, examples and docs only when
	 * it has none, and vendored code only when there is nothing else.
	 */
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden && t->files[t->defs[i].file].cls < show)
			show = t->files[t->defs[i].file].cls;
	order = uk_util_xcalloc(t->ndefs + 1, sizeof(*order));
	for (i = 0; i < t->ndefs; i++)
		if (!t->defs[i].hidden && t->files[t->defs[i].file].cls <= show)
			order[n++] = (uint32_t)i;
	qsort_r(order, n, sizeof(*order), def_rank_cmp, t);
	fold_exceptions(t, order, n);
	if (t->folded) {
		size_t m = 0;

		for (i = 0; i < n; i++)
			if (!t->folded[order[i]])
				order[m++] = order[i];
		n = m;
	}
	spread_order(t, order, n);
	top_block(t, focus, &top);
	/* The top block only when it leaves most of the budget. */
	if (top.len && o->budget >= 0) {
		size_t tt = count(o, &top);

		if (tt * 5 > (size_t)o->budget)
			uk_buf_reset(&top);
	}
	lo = choose(t, o, order, n, top.len ? top.buf : NULL, &b);
	/*
	 * The files that define what headers declare, listed at the top:
	 * which they are depends on what is shown, so choose again with
	 * them, and give up the last definitions until what the final
	 * list says fits.
	 */
	site_block(t, order, lo, &top, &sites);
	if (sites.len != top.len) {
		lo = choose(t, o, order, n, sites.buf, &b);
		for (;;) {
			site_block(t, order, lo, &top, &sites);
			if (!lo || fits(t, o, order, lo,
				       sites.len ? sites.buf : NULL, &b))
				break;
			lo--;
		}
		uk_buf_reset(&top);
		uk_buf_add(&top, sites.buf ? sites.buf : "", sites.len);
	}
	uk_buf_reset(&b);
	render(t, order, lo, top.len ? top.buf : NULL, &b);
	uk_buf_add(out, b.buf ? b.buf : "", b.len);
	uk_buf_release(&b);
	uk_buf_release(&top);
	uk_buf_release(&sites);
	free(t->chosen);
	t->chosen = order;
	t->nchosen = lo;
	/* Best first, as ranked (the filling may have swapped some). */
	qsort_r(t->chosen, lo, sizeof(*order), def_rank_cmp, t);
	return lo;
}

struct yajl_val_s *
uk_symmap_json(const struct symtab *t)
{
	yajl_val arr = uk_json_array();
	size_t i;

	for (i = 0; i < t->nchosen; i++) {
		const struct sdef *d = &t->defs[t->chosen[i]];
		yajl_val o = uk_json_object();
		char num[64];

		uk_json_set_str(o, "file", t->files[d->file].path);
		uk_json_set_str(o, "name", t->names[d->name]);
		uk_json_set_str(o, "kind", d->kind);
		uk_json_set_int(o, "line", d->line);
		snprintf(num, sizeof(num), "%.6g", d->rank);
		uk_json_set(o, "rank", uk_json_num(num));
		if (d->scope_name)
			uk_json_set_str(o, "scope", d->scope_name);
		if (d->doc)
			uk_json_set_str(o, "doc", d->doc);
		if (t->site_start &&
		    t->site_start[t->chosen[i]] < t->site_start[t->chosen[i] + 1]) {
			yajl_val in = uk_json_array();
			uint32_t k;

			for (k = t->site_start[t->chosen[i]];
			     k < t->site_start[t->chosen[i] + 1]; k++)
				uk_json_push(in,
				    uk_json_str(t->files[t->sites[k]].path));
			uk_json_set(o, "defined_in", in);
		}
		if (t->fold_text && t->fold_text[t->chosen[i]]) {
			yajl_val in = uk_json_array();
			size_t k;

			for (k = 0; k < t->ndefs; k++)
				if (t->folded[k] && t->defs[k].file == d->file)
					uk_json_push(in,
					    uk_json_str(t->names[t->defs[k].name]));
			uk_json_set(o, "folded", in);
		}
		uk_json_push(arr, o);
	}
	return arr;
}

/* The public functions of the map. */
