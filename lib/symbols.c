/* SPDX-License-Identifier: MIT */
/*
 * The symbol index: the table of files, definitions and references, and
 * the names interned for it.  A file's tags come from symbols_tags.c (or
 * the tag cache, symbols_tagcache.c), many files at once through
 * symbols_stream.c; the ranking and the map read the table.  The API of
 * symbols.h is here, but for uk_symbols_stream_* (symbols_stream.c).
 * See symbols.h and symbols_int.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "json.h"
#include "symbols.h"
#include "symbols_int.h"
#include "tokens.h"
#include "util.h"

struct name_slot {
	char *s;
	uint32_t id;
	uint32_t hash;
};

/* Names, interned: the same name is the same id in every file. */

static uint32_t
hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t
intern(struct uk_symbols *s, const char *name, size_t n)
{
	uint32_t h = hash_name(name, n);
	size_t i;

	if (s->t.nnames * 2 >= s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024, j;
		struct name_slot *ns = uk_util_xcalloc(ncap, sizeof(*ns));

		for (j = 0; j < s->cap; j++) {
			if (!s->slots[j].s)
				continue;
			i = s->slots[j].hash & (ncap - 1);
			while (ns[i].s)
				i = (i + 1) & (ncap - 1);
			ns[i] = s->slots[j];
		}
		free(s->slots);
		s->slots = ns;
		s->cap = ncap;
	}
	i = h & (s->cap - 1);
	while (s->slots[i].s) {
		if (s->slots[i].hash == h && !strncmp(s->slots[i].s, name, n) &&
		    s->slots[i].s[n] == '\0')
			return s->slots[i].id;
		i = (i + 1) & (s->cap - 1);
	}
	s->slots[i].s = uk_util_xmemdup(name, n);
	s->slots[i].hash = h;
	s->slots[i].id = (uint32_t)s->t.nnames;
	GROW(s->t.names, s->t.nnames, s->anames);
	s->t.names[s->t.nnames] = s->slots[i].s;
	return (uint32_t)s->t.nnames++;
}

void
uk_symbols_merge(struct uk_symbols *s, const char *path, struct fres *r)
{
	uint32_t fi;
	size_t k;

	GROW(s->t.files, s->t.nfiles, s->t.afiles);
	fi = (uint32_t)s->t.nfiles++;
	memset(&s->t.files[fi], 0, sizeof(s->t.files[fi]));
	s->t.files[fi].path = uk_util_xstrdup(path);
	s->t.files[fi].nlines = r->nlines;
	s->t.files[fi].generated = r->generated;
	s->t.ranked = 0;
	if (r->lexed)
		s->counts.lexed++;
	else if (r->cached)
		s->counts.cached++;
	else
		s->counts.parsed++;
	for (k = 0; k < r->ntags; k++) {
		struct rtag *t = &r->tags[k];
		uint32_t id = intern(s, t->name, strlen(t->name));

		if (t->def) {
			struct sdef *d;

			GROW(s->t.defs, s->t.ndefs, s->t.adefs);
			d = &s->t.defs[s->t.ndefs++];
			*d = t->d;
			d->file = fi;
			d->name = id;
			d->line = t->line;
			d->kind = t->kind;
			d->hidden = 0;
			d->rank = 0;
		} else {
			GROW(s->t.refs, s->t.nrefs, s->t.arefs);
			s->t.refs[s->t.nrefs].file = fi;
			s->t.refs[s->t.nrefs].qual = t->qual ?
			    intern(s, t->qual, strlen(t->qual)) :
			    UINT32_MAX;
			s->t.refs[s->t.nrefs++].name = id;
		}
		free(t->name);
		free(t->qual);
	}
	free(r->tags);
	r->tags = NULL;
	r->ntags = 0;
}

/*
 * Tests, examples and docs are lexed for their references; so is code
 * vendored by its path (deps/, third_party/, _vendor/...), whose
 * references the ranking drops and whose definitions a map shows only
 * when the tree has nothing else (reparse_evidence then parses it after
 * all): pip's _vendor/ is four fifths of its tree.  Not once a
 * .gitattributes noted so far unmarks something (`deps -linguist-vendored`):
 * those files may be the project's.
 */
int
uk_symbols_use_lex(const struct uk_symbols *s, const char *path)
{
	size_t i;

	if (!s->lex_evidence)
		return 0;
	if (!uk_symclass_is_noise(path) &&
	    (s->t.unvendors || !uk_symclass_is_vendor_path(path)))
		return 0;
	for (i = 0; i < s->nparse_under; i++) {
		size_t n = strlen(s->parse_under[i]);

		if (!n || (!strncmp(path, s->parse_under[i], n) &&
			      (path[n] == '/' || !path[n])))
			return 0;
	}
	return 1;
}

void
uk_symbols_parse_under(struct uk_symbols *s, const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (!path)
		return;
	while (n && path[n - 1] == '/')
		n--;
	s->parse_under = uk_util_xrealloc(s->parse_under,
	    (s->nparse_under + 1) * sizeof(char *));
	s->parse_under[s->nparse_under++] = uk_util_xmemdup(path, n);
}

void
uk_symbols_get_counts(const struct uk_symbols *s, struct uk_symbols_counts *c)
{
	*c = s->counts;
}

int
uk_symbols_add(struct uk_symbols *s, const char *path, const char *text,
    size_t len, struct uk_err *err)
{
	int li = uk_symqueries_lang_index(path);
	struct fres r;

	if (li < 0)
		return 0;
	/* setup.py is parsed and read for its console scripts. */
	if (uk_symclass_is_script_manifest(uk_sympath_base(path)))
		uk_symbols_note(s, path, text, len);
	if (uk_symtags_query(s, li, err) < 0)
		return -1;
	uk_symtags_file(s, s->w, li, uk_symbols_use_lex(s, path), path, text,
	    len, &r);
	if (r.status < 0)
		return uk_util_err_set(err, UK_EXIT_FAIL, "%s", r.err);
	uk_symbols_merge(s, path, &r);
	return 1;
}

void
uk_symbols_set_deadline(struct uk_symbols *s, double seconds)
{
	s->deadline = seconds > 0 ? uk_util_mono_now() + seconds : 0;
}

void
uk_symbols_set_file_limit(struct uk_symbols *s, double seconds)
{
	s->file_limit = seconds > 0 ? seconds : 0;
}

struct uk_symbols *
uk_symbols_new(void)
{
	struct uk_symbols *s = uk_util_xcalloc(1, sizeof(*s));

	uk_symarena_install();
	s->w = uk_symtags_worker_new();
	s->file_limit = UK_SYMBOLS_FILE_SECONDS;
	s->lex_evidence = 1;
	return s;
}

void
uk_symbols_free(struct uk_symbols *s)
{
	struct symtab *t;
	size_t i;

	if (!s)
		return;
	t = &s->t;
	for (i = 0; i < UK_SYMLANGS; i++)
		uk_symtags_query_release(&s->qs[i]);
	for (i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	for (i = 0; i < t->ndefs; i++) {
		free(t->defs[i].sig);
		free(t->defs[i].doc);
		free(t->defs[i].scope);
		free(t->defs[i].scope_name);
	}
	for (i = 0; i < t->nnotes; i++) {
		free(t->notes[i].path);
		free(t->notes[i].text);
	}
	for (i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->files);
	free(t->defs);
	free(t->refs);
	free(t->notes);
	free(s->slots);
	free(t->names);
	free(t->chosen);
	free(t->focus);
	free(t->site_start);
	free(t->sites);
	if (t->site_note)
		for (i = 0; i < t->nsite_note; i++)
			free(t->site_note[i]);
	free(t->site_note);
	if (t->fold_text)
		for (i = 0; i < t->nfold; i++)
			free(t->fold_text[i]);
	free(t->fold_text);
	free(t->folded);
	for (i = 0; i < s->nparse_under; i++)
		free(s->parse_under[i]);
	free(s->parse_under);
	uk_symtags_worker_free(s->w);
	free(s);
}

size_t
uk_symbols_nfiles(const struct uk_symbols *s)
{
	return s->t.nfiles;
}

size_t
uk_symbols_ndefs(const struct uk_symbols *s)
{
	return s->t.ndefs;
}

size_t
uk_symbols_nrefs(const struct uk_symbols *s)
{
	return s->t.nrefs;
}

size_t
uk_symbols_nfiles_under(const struct uk_symbols *s, const char *path)
{
	size_t i, n = 0, l = strlen(path);

	while (l && path[l - 1] == '/')
		l--;
	for (i = 0; i < s->t.nfiles; i++) {
		const char *p = s->t.files[i].path;

		if (!strncmp(p, path, l) && (p[l] == '/' || !p[l]))
			n++;
	}
	return n;
}

struct symtab *
uk_symbols_table(struct uk_symbols *s)
{
	return &s->t;
}

/* The API of symbols.h that reads the table or the other files. */

size_t
uk_symbols_tokens(const char *str, size_t len)
{
	return uk_tokens_count(UK_TOKENS_CL100K, str, len);
}

int
uk_symbols_wants_text(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, ".gitattributes") ||
	    !strcmp(base, "package.json") || !strcmp(base, "go.mod") ||
	    uk_symclass_is_script_manifest(base) ||
	    !strncasecmp(base, "LICENSE", 7) ||
	    !strncasecmp(base, "LICENCE", 7) ||
	    !strncasecmp(base, "COPYING", 7) ||
	    !strncasecmp(base, "COPYRIGHT", 9);
}

void
uk_symbols_note(struct uk_symbols *s, const char *path, const char *text,
    size_t len)
{
	struct symtab *t = uk_symbols_table(s);
	struct snote *n;

	GROW(t->notes, t->nnotes, t->anotes);
	n = &t->notes[t->nnotes++];
	n->path = uk_util_xstrdup(path);
	n->text = NULL;
	n->len = 0;
	/* A vendored package's package.json names no program of ours. */
	if (!strcmp(uk_sympath_base(path), "package.json") &&
	    uk_symclass_is_vendor_path(path))
		text = NULL;
	if (text && uk_symbols_wants_text(path)) {
		/* A licence is told apart by its first 64 KiB. */
		if (len > 65536)
			len = 65536;
		n->text = uk_util_xmemdup(text, len);
		n->len = len;
	}
	/* The words gattr_parse takes as unmarking: a rough test suffices. */
	if (n->text && !strcmp(uk_sympath_base(path), ".gitattributes") &&
	    (memmem(n->text, n->len, "-linguist-", 10) ||
		memmem(n->text, n->len, "=false", 6)))
		t->unvendors = 1;
	t->ranked = 0;
}

size_t
uk_symbols_set_map_opts(struct uk_symbols *s, const struct uk_symbols_opts *o,
    struct uk_buf *out)
{
	return uk_symmap_render(uk_symbols_table(s), o, out);
}

size_t
uk_symbols_map(struct uk_symbols *s, long budget, struct uk_buf *out)
{
	struct uk_symbols_opts o = UK_SYMBOLS_OPTS_INIT;

	o.budget = budget;
	return uk_symmap_render(uk_symbols_table(s), &o, out);
}

static int
ranked_cmp(const void *a, const void *b, void *ctx)
{
	const struct symtab *t = ctx;
	const struct sfile *x = &t->files[*(const uint32_t *)a];
	const struct sfile *y = &t->files[*(const uint32_t *)b];
	int c;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	/* A unit's files together, its lead (the header) first. */
	if ((c = strcmp(t->files[x->unit].path, t->files[y->unit].path)))
		return c;
	if ((x->unit == *(const uint32_t *)a) !=
	    (y->unit == *(const uint32_t *)b))
		return x->unit == *(const uint32_t *)a ? -1 : 1;
	return strcmp(x->path, y->path);
}

size_t
uk_symbols_ranked_files(struct uk_symbols *s, struct uk_symbols_ranked **out)
{
	struct symtab *t = uk_symbols_table(s);
	uint32_t *idx = uk_util_xcalloc(t->nfiles + 1, sizeof(*idx));
	size_t i, n = 0;

	if (!t->ranked)
		uk_symrank_table(t, t->focus);
	for (i = 0; i < t->nfiles; i++)
		if (t->files[i].cls != FC_VENDOR)
			idx[n++] = (uint32_t)i;
	qsort_r(idx, n, sizeof(*idx), ranked_cmp, t);
	*out = uk_util_xcalloc(n + 1, sizeof(**out));
	for (i = 0; i < n; i++) {
		(*out)[i].path = t->files[idx[i]].path;
		(*out)[i].rank = t->files[idx[i]].rank;
	}
	free(idx);
	return n;
}

const char *
uk_symbols_top_file(struct uk_symbols *s)
{
	struct symtab *t = uk_symbols_table(s);
	size_t i, best = SIZE_MAX;

	if (!t->ranked)
		uk_symrank_table(t, t->focus);
	/* Of a .c file and its header, the header (it shows the names). */
	for (i = 0; i < t->nfiles; i++)
		if (t->files[i].cls != FC_VENDOR &&
		    (best == SIZE_MAX ||
			t->files[i].rank > t->files[best].rank ||
			(t->files[i].rank == t->files[best].rank &&
			    t->files[best].unit == i)))
			best = i;
	return best == SIZE_MAX ? NULL : t->files[best].path;
}

yajl_val
uk_symbols_json(struct uk_symbols *s)
{
	return uk_symmap_json(uk_symbols_table(s));
}

const char *
uk_symbols_lang(const char *path)
{
	return uk_symqueries_lang(path);
}

const char *
uk_symbols_tag_version(void)
{
	return uk_symtagcache_version();
}

void
uk_symbols_set_cache(struct uk_symbols *s, struct uk_symcache *sc)
{
	s->cache = sc;
}
