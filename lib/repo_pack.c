/* SPDX-License-Identifier: MIT */
/*
 * The pack: after the map, the files themselves, whole, best-ranked
 * first, within a budget of tokens, as one Markdown document; and the
 * paths --include and --exclude select.  See repo.h and urlfetch(1).
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "json.h"
#include "repo_int.h"
#include "symbols.h"
#include "tokens.h"
#include "util.h"

#define PACK_LISTED 20 /* files left out named one a line, at most */
/*
 * .gitignore patterns kept, at most: each is tried on every path after
 * it, so a repository's 50,000 patterns would cost more than its map.
 */
#define IGNORE_MAX 2000

/*
 * A bracket expression at p ("[a-z]"), matched against c with fnmatch;
 * *len its length, 0 when the bracket does not close (then a plain '[').
 */
static int
bracket(const char *p, char c, size_t *len)
{
	const char *e = p + 1;
	char pat[256], str[2] = { c, 0 };
	size_t n;

	if (*e == '!' || *e == '^')
		e++;
	if (*e == ']')
		e++;
	while (*e && *e != ']' && *e != '/')
		e++;
	if (*e != ']' || (n = (size_t)(e - p) + 1) >= sizeof(pat)) {
		*len = 0;
		return c == '[';
	}
	memcpy(pat, p, n);
	pat[n] = 0;
	*len = n;
	return c != '/' && fnmatch(pat, str, 0) == 0;
}

/*
 * The whole of s against the whole of p (hand-written: fnmatch has no
 * **).  *steps bounds the work: a pattern of many stars against a long
 * name backtracks without end (a .gitignore is the repository owner's
 * input), so past GLOB_STEPS it is taken as no match.
 */
#define GLOB_STEPS 100000

static int
glob(const char *p, const char *s, long *steps)
{
	const char *q;
	size_t bl;

	for (;;) {
		if (--*steps < 0)
			return 0;
		if (p[0] == '*' && p[1] == '*') {
			p += 2;
			if (*p == '/')
				p++;
			else if (!*p)
				return 1;
			/* Zero or more whole directories. */
			for (q = s;; q++) {
				if ((q == s || q[-1] == '/') &&
				    glob(p, q, steps))
					return 1;
				if (!*q)
					return 0;
			}
		}
		if (*p == '*') {
			p++;
			for (q = s;; q++) {
				if (glob(p, q, steps))
					return 1;
				if (!*q || *q == '/')
					return 0;
			}
		}
		if (!*p)
			return !*s;
		if (!*s)
			return 0;
		if (*p == '?') {
			if (*s == '/')
				return 0;
		} else if (*p == '[') {
			if (!bracket(p, *s, &bl))
				return 0;
			if (bl) {
				p += bl;
				s++;
				continue;
			}
		} else {
			if (*p == '\\' && p[1])
				p++;
			if (*p != *s)
				return 0;
		}
		p++;
		s++;
	}
}

/*
 * Whether the gitignore-style pattern pat matches path (a file's path in
 * the tree) or one of its directories: `*` and `?` within a component,
 * `**` across components, `[...]` classes, a leading `/` or a `/` inside
 * anchoring pat at the root (else it matches at any depth), a trailing
 * `/` matching directories only.
 */
static int
glob_match(const char *pat, const char *path)
{
	char *pp;
	size_t n, e, plen = strlen(path);
	int dir, anchored = *pat == '/', m = 0;
	long steps = GLOB_STEPS;

	if (*pat == '/')
		pat++;
	n = strlen(pat);
	dir = n && pat[n - 1] == '/';
	pp = uk_util_xmemdup(pat, dir ? n - 1 : n);
	anchored |= strchr(pp, '/') != NULL;
	/* The path and each of its directories, shortest first. */
	for (e = 1; !m && e <= plen; e++) {
		char *prefix;
		const char *base;

		if (e < plen && path[e] != '/')
			continue;
		if (e == plen && dir)
			break;
		prefix = uk_util_xmemdup(path, e);
		base = strrchr(prefix, '/');
		base = base ? base + 1 : prefix;
		m = glob(pp, anchored ? prefix : base, &steps);
		free(prefix);
	}
	free(pp);
	return m;
}

int
uk_repo_pack_selected(const struct uk_repo_opts *o, const char *path)
{
	size_t i;
	int in = !o->ninclude;

	for (i = 0; !in && i < o->ninclude; i++)
		in = glob_match(o->include[i], path);
	for (i = 0; in && i < o->nexclude; i++)
		in = !glob_match(o->exclude[i], path);
	return in;
}

int
uk_repo_pack_is_gitignore(const char *path)
{
	const char *b = strrchr(path, '/');

	return !strcmp(b ? b + 1 : path, ".gitignore");
}

void
uk_repo_pack_ignore_add(struct snap *s, const char *path, const char *text,
    size_t len)
{
	const char *b = strrchr(path, '/'), *p = text, *end = text + len;
	size_t dl = b ? (size_t)(b - path) + 1 : 0;

	while (p < end && s->nign < IGNORE_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q = p;
		struct ignore *ig;
		int neg = 0;

		p = nl ? nl + 1 : end;
		/* Trailing blanks go, unless escaped; '#' starts a comment. */
		while (e > q && (e[-1] == ' ' || e[-1] == '\t' ||
				    e[-1] == '\r') &&
		    !(e - q >= 2 && e[-2] == '\\'))
			e--;
		if (e == q || *q == '#')
			continue;
		if (*q == '!') {
			neg = 1;
			q++;
		} else if (*q == '\\' && (q[1] == '#' || q[1] == '!'))
			q++;
		if (e == q)
			continue;
		if (s->nign == s->aign) {
			s->aign = s->aign ? 2 * s->aign : 16;
			s->ign =
			    uk_util_xrealloc(s->ign, s->aign * sizeof(*s->ign));
		}
		ig = &s->ign[s->nign++];
		ig->dir = uk_util_xmemdup(path, dl);
		ig->pat = uk_util_xmemdup(q, (size_t)(e - q));
		ig->neg = neg;
	}
}

int
uk_repo_pack_ignored(const struct snap *s, const char *path)
{
	size_t i, dl;
	int ignored = 0;

	for (i = 0; i < s->nign; i++) {
		const struct ignore *ig = &s->ign[i];

		dl = strlen(ig->dir);
		if (strncmp(path, ig->dir, dl) || !path[dl])
			continue;
		if (ignored == !ig->neg)
			continue; /* cannot change the answer */
		if (glob_match(ig->pat, path + dl))
			ignored = !ig->neg;
	}
	return ignored;
}

void
uk_repo_pack_ignore_release(struct snap *s)
{
	size_t i;

	for (i = 0; i < s->nign; i++) {
		free(s->ign[i].dir);
		free(s->ign[i].pat);
	}
	free(s->ign);
	s->ign = NULL;
	s->nign = s->aign = 0;
}

static int
file_cmp(const void *a, const void *b)
{
	const struct uk_symbols_file *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

/* path on a line of its own: no control character, valid UTF-8. */
static void
add_path(struct uk_buf *b, const char *path)
{
	size_t from = b->len, i;

	uk_buf_add_utf8(b, path, strlen(path));
	for (i = from; i < b->len; i++)
		if ((unsigned char)b->buf[i] < 0x20 || b->buf[i] == 0x7f)
			b->buf[i] = '?';
}

/* A fence longer than any run of backticks in text (at least three). */
static size_t
fence_len(const char *text, size_t len)
{
	size_t i, run = 0, most = 2;

	for (i = 0; i < len; i++) {
		run = text[i] == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	return most + 1;
}

/* One file's block: its path as a heading, its text in a fence. */
static void
add_block(struct uk_buf *b, const struct uk_symbols_file *f)
{
	size_t fl = fence_len(f->text, f->len), i;
	const char *lang = uk_symbols_lang(f->path);

	uk_buf_addstr(b, "## ");
	add_path(b, f->path);
	uk_buf_addstr(b, "\n\n");
	for (i = 0; i < fl; i++)
		uk_buf_addch(b, '`');
	uk_buf_addf(b, "%s\n", lang ? lang : "");
	uk_buf_add_utf8(b, f->text, f->len);
	if (f->len && f->text[f->len - 1] != '\n')
		uk_buf_addch(b, '\n');
	for (i = 0; i < fl; i++)
		uk_buf_addch(b, '`');
	uk_buf_addstr(b, "\n\n");
}

struct pack {
	const struct uk_symbols_ranked *rf;
	size_t n;
	const struct uk_symbols_file **src; /* by rank; NULL: no text */
	size_t *tok;                        /* each file's text's tokens */
	unsigned char *in;                  /* packed */
};

/*
 * The document: a heading, the packed files' blocks in rank order, and
 * the files left out: those ranked above the last one packed (every
 * file, when none is), at most most of them each with its tokens, then
 * how many more rank lower.
 */
static void
render_pack(const struct pack *p, const char *title, size_t most,
    struct uk_buf *doc)
{
	size_t i, last = 0, listed = 0, skipped = 0, lower = 0;
	int any = 0;

	uk_buf_reset(doc);
	uk_buf_addstr(doc, "# ");
	add_path(doc, title);
	uk_buf_addstr(doc, ": its files by rank\n\n");
	for (i = 0; i < p->n; i++)
		if (p->in[i]) {
			add_block(doc, p->src[i]);
			last = i;
			any = 1;
		}
	for (i = 0; i < p->n; i++) {
		if (p->in[i] || !p->src[i])
			continue;
		if (!any || i < last)
			skipped++;
		else
			lower++;
	}
	if (!skipped && !lower)
		return;
	uk_buf_addstr(doc, "## Left out\n\n");
	for (i = 0; i < p->n && (!any || i < last); i++) {
		if (p->in[i] || !p->src[i])
			continue;
		if (listed == most) {
			uk_buf_addf(doc, "- %zu %s over the budget\n",
			    skipped - listed,
			    listed                     ? "more" :
				skipped - listed == 1 ? "file" :
							"files");
			break;
		}
		uk_buf_addstr(doc, "- ");
		add_path(doc, p->src[i]->path);
		uk_buf_addf(doc, " (%zu tokens)\n", p->tok[i]);
		listed++;
	}
	if (lower)
		uk_buf_addf(doc, "- %zu %s ranked lower\n", lower,
		    lower == 1 ? "file" : "files");
}

static size_t
count(const struct uk_repo_opts *o, const struct uk_buf *b)
{
	return uk_tokens_count(o->tokenizer, b->buf ? b->buf : "", b->len);
}

void
uk_repo_pack_make(struct uk_symbols *sym, const struct snap *s,
    const struct uk_repo_opts *o, const char *title, yajl_val rec,
    yajl_val info)
{
	const struct uk_symbols_file **by_path, *kp, *const *hit;
	struct uk_symbols_file key = { NULL, NULL, 0 };
	struct uk_symbols_ranked *rf = NULL;
	struct uk_buf doc = UK_BUF_INIT, one = UK_BUF_INIT;
	struct pack p;
	size_t i, used, npacked = 0, total, most = PACK_LISTED;
	yajl_val files = uk_json_array();

	memset(&p, 0, sizeof(p));
	p.n = uk_symbols_ranked_files(sym, &rf);
	p.rf = rf;
	p.src = uk_util_xcalloc(p.n + 1, sizeof(*p.src));
	p.tok = uk_util_xcalloc(p.n + 1, sizeof(*p.tok));
	p.in = uk_util_xcalloc(p.n + 1, 1);
	by_path = uk_util_xcalloc(s->nfiles + 1, sizeof(*by_path));
	for (i = 0; i < s->nfiles; i++)
		by_path[i] = &s->files[i];
	qsort(by_path, s->nfiles, sizeof(*by_path), file_cmp);
	kp = &key;
	for (i = 0; i < p.n; i++) {
		key.path = rf[i].path;
		hit = s->nfiles ? bsearch(&kp, by_path, s->nfiles,
				      sizeof(*by_path), file_cmp) :
				  NULL;
		if (!hit)
			continue;
		p.src[i] = *hit;
		p.tok[i] = uk_tokens_count(o->tokenizer, (*hit)->text,
		    (*hit)->len);
	}
	/*
	 * Whole files in rank order while they fit: one over what is left
	 * is skipped for the next that fits (counted alone: a block's
	 * tokens with its heading and fence).  Then the document is
	 * counted whole; while it is too long, fewer of the files left out
	 * are named (down to none: their number stays), then the last file
	 * packed is given up.
	 */
	render_pack(&p, title, 0, &doc);
	used = count(o, &doc);
	for (i = 0; i < p.n; i++) {
		size_t bt;

		if (!p.src[i] || used >= (size_t)o->pack_tokens)
			continue;
		uk_buf_reset(&one);
		add_block(&one, p.src[i]);
		bt = count(o, &one);
		if (used + bt <= (size_t)o->pack_tokens) {
			p.in[i] = 1;
			used += bt;
		}
	}
	for (;;) {
		render_pack(&p, title, most, &doc);
		total = count(o, &doc);
		if (total <= (size_t)o->pack_tokens)
			break;
		/* Fewer files named first, then one file fewer packed. */
		if (most > 0) {
			most = most > 4 ? most / 2 : most - 1;
			continue;
		}
		for (i = p.n; i-- > 0 && !p.in[i];)
			;
		if (i == (size_t)-1 || !p.in[i])
			break; /* the heading alone is over the budget */
		p.in[i] = 0;
		most = PACK_LISTED;
	}
	for (i = 0; i < p.n; i++) {
		yajl_val f = uk_json_object();
		char num[64];

		npacked += p.in[i];
		uk_json_set_str(f, "path", rf[i].path);
		snprintf(num, sizeof(num), "%.6g", rf[i].rank);
		uk_json_set(f, "rank", uk_json_num(num));
		if (p.src[i])
			uk_json_set_int(f, "tokens", (long long)p.tok[i]);
		if (p.in[i])
			uk_json_set_bool(f, "packed", 1);
		uk_json_push(files, f);
	}
	if (total <= (size_t)o->pack_tokens)
		uk_json_set(rec, "content", uk_json_strn(doc.buf, doc.len));
	uk_json_set_int(info, "pack_budget", o->pack_tokens);
	uk_json_set_int(info, "pack_tokens",
	    total <= (size_t)o->pack_tokens ? (long long)total : 0);
	uk_json_set_int(info, "pack_files", (long long)npacked);
	uk_json_set(info, "files_ranked", files);
	uk_buf_release(&doc);
	uk_buf_release(&one);
	free(by_path);
	free(p.src);
	free(p.tok);
	free(p.in);
	free(rf);
}
