/* SPDX-License-Identifier: MIT */
/*
 * Repositories for urlfetch: the route a URL takes (repo_archive.c,
 * repo_git.c, each filling the snapshot of repo_snap.c), then the record:
 * the README, the symbol map and the pack.  See repo.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "json.h"
#include "netguard.h"
#include "repo.h"
#include "repo_int.h"
#include "symbols.h"
#include "symcache.h"
#include "util.h"

void
uk_repo_opts_init(struct uk_repo_opts *o)
{
	struct uk_netguard g;

	memset(o, 0, sizeof(*o));
	o->timeout = 120;
	o->max_bytes = 256ULL * 1024 * 1024;
	o->max_files = 50000;
	o->map_tokens = UK_SYMBOLS_TOKENS;
	o->readme_tokens = UK_REPO_README_TOKENS;
	o->tokenizer = UK_TOKENS_CL100K;
	uk_netguard_init(&g);
	o->allow_private = g.allow_private;
}

/* Whether the array a (or NULL) holds the n globs of g, in order. */
static int
same_globs(yajl_val a, const char *const *g, size_t n)
{
	size_t i;

	if (!a || !YAJL_IS_ARRAY(a))
		return n == 0;
	if (a->u.array.len != n)
		return 0;
	for (i = 0; i < n; i++) {
		const char *v = YAJL_IS_STRING(a->u.array.values[i]) ?
		    YAJL_GET_STRING(a->u.array.values[i]) :
		    NULL;

		if (!v || strcmp(v, g[i]))
			return 0;
	}
	return 1;
}

int
uk_repo_cached_ok(yajl_val rec, const struct uk_repo_opts *o)
{
	yajl_val info = uk_json_get(rec, "github_info");
	const char *tok = uk_json_get_str(info, "tokenizer");
	long long budget, readme, pack;

	if (uk_json_get_int(info, "pack_budget", &pack) < 0)
		pack = 0;
	if (pack != o->pack_tokens ||
	    !same_globs(uk_json_get(info, "include"), o->include,
		o->ninclude) ||
	    !same_globs(uk_json_get(info, "exclude"), o->exclude,
		o->nexclude))
		return 0;
	if (uk_json_get_int(info, "map_budget", &budget) < 0 ||
	    budget != o->map_tokens ||
	    uk_json_get_int(info, "readme_budget", &readme) < 0 ||
	    readme != o->readme_tokens || !tok ||
	    strcmp(tok, uk_tokens_name_of(o->tokenizer)) ||
	    uk_json_get(rec, "truncated"))
		return 0;
	return !o->map_json || uk_json_get(rec, "symbols") != NULL;
}

int
uk_repo_is_git_url(const char *url)
{
	static const char *const schemes[] = { "http://", "https://", "git://",
		"ssh://", "file://", NULL };
	size_t i;

	if (url[0] == '/' || !strncmp(url, "./", 2) ||
	    !strncmp(url, "../", 3) || !strcmp(url, ".") || !strcmp(url, ".."))
		return 1;
	for (i = 0; schemes[i]; i++)
		if (!strncasecmp(url, schemes[i], strlen(schemes[i])))
			return 1;
	return 0;
}


/* The record. */

/*
 * A fetch that failed at a limit (a cap, the time limit) after reading
 * something goes on with what it read: the reason into why, 1.
 */
static int
keep_partial(const struct snap *s, const struct uk_err *err,
    struct uk_buf *why)
{
	if (!(s->capped || uk_util_mono_now() >= s->deadline) ||
	    !s->total_files)
		return 0;
	uk_buf_addstr(why, err->msg);
	return 1;
}

/*
 * The map of sym for o.  With the options of symbols.h (the ranking's
 * branch), the tokenizer and the focus path go to it; without them, the
 * budget only (counted as bytes / 4 there).
 */
static void
make_map(struct uk_symbols *sym, const struct uk_repo_opts *o,
    const char *focus, struct uk_buf *map)
{
	struct uk_symbols_opts so = UK_SYMBOLS_OPTS_INIT;

	so.budget = o->map_tokens;
	so.tokenizer = o->tokenizer;
	so.focus = focus;
	uk_symbols_set_map_opts(sym, &so, map);
}

/*
 * Tests and docs are lexed, not parsed (symbols.h), unless under the
 * focus: which part of /tree/A/B/C is the path is known only once the
 * archive of a branch arrives, so every candidate (B/C, C) is parsed.
 */
static void
parse_focus(struct uk_symbols *sym, const struct uk_url *u)
{
	struct uk_buf full = UK_BUF_INIT;
	size_t i;

	if (!u->branch)
		return;
	uk_buf_addstr(&full, u->branch);
	if (u->file && *u->file)
		uk_buf_addf(&full, "/%s", u->file);
	for (i = 0; i < full.len; i++)
		if (full.buf[i] == '/' && full.buf[i + 1])
			uk_symbols_parse_under(sym, full.buf + i + 1);
	uk_buf_release(&full);
}

/*
 * The tag cache of the repository, set on sym: one entry per repository,
 * whatever the branch or path (u: a GitHub repository, else url names it).
 */
static struct uk_symcache *
open_tags(struct uk_symbols *sym, const struct uk_repo_opts *o,
    const struct uk_url *u, const char *url)
{
	struct uk_buf key = UK_BUF_INIT;
	struct uk_symcache *tags;

	if (u)
		uk_buf_addf(&key, "https://github.com/%s/%s", u->owner,
		    u->repo);
	else
		uk_buf_addstr(&key, url);
	tags = uk_symcache_open(o->tag_cache, key.buf,
	    uk_symbols_tag_version());
	uk_symbols_set_cache(sym, tags);
	uk_buf_release(&key);
	return tags;
}

/*
 * A git URL, or a local repository (a path or file://): the snapshot into
 * s, *route and the title (the last path component less ".git").  0, or
 * -1 with err; a partial snapshot is kept with the reason in why.
 */
static int
fetch_git_url(const char *url, struct snap *s, const char **route,
    struct uk_buf *title, struct uk_buf *why, struct uk_err *err)
{
	const char *b, *e;
	char *real = NULL;

	if (url[0] == '/' || url[0] == '.' ||
	    !strncasecmp(url, "file://", 7)) {
		*route = "local";
		/*
		 * A path or file:// reads this machine's files: like
		 * loopback addresses, only when the guard is off, so
		 * an agent's input cannot read a local repository.
		 */
		if (!s->o->allow_private) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "'%s': a local repository: refused "
			    "(-P or URLKIT_ALLOW_PRIVATE=1 allows it)",
			    url);
			return -1;
		}
		uk_repo_snap_stream_start(s);
		if (uk_repo_git_fetch(url, 1, s, err) < 0 &&
		    !keep_partial(s, err, why))
			return -1;
	} else {
		*route = "git";
		if (uk_repo_git_fetch(url, 0, s, err) < 0 &&
		    !keep_partial(s, err, why))
			return -1;
	}
	/* The title: the last path component, less ".git". */
	if (!strcmp(*route, "local") && url[0] != 'f' && url[0] != 'F' &&
	    (real = realpath(url, NULL)))
		url = real;
	e = url + strlen(url);
	while (e > url && e[-1] == '/')
		e--;
	b = e;
	while (b > url && b[-1] != '/')
		b--;
	if (e - b > 4 && !strncmp(e - 4, ".git", 4))
		e -= 4;
	uk_buf_add(title, b, (size_t)(e - b));
	free(real);
	return 0;
}

/* What the fetch found, for repo_record. */
struct fetched {
	const char *route, *branch, *path, *title;
	const char *ref_kind; /* of branch: "tag", ... (uk_repo_git_ref_kind) */
	long indexed;
	long path_files; /* files indexed under path; -1: not counted */
	const char *why; /* why the snapshot is partial, or NULL */
};

/* github_info.ref: the URL's ref and what it is, or the default branch. */
static void
set_ref(yajl_val info, const char *name, const char *kind)
{
	yajl_val r = uk_json_object();

	if (name)
		uk_json_set_str(r, "name", name);
	uk_json_set_str(r, "type", !name ? "default" : kind ? kind : "unknown");
	uk_json_set(info, "ref", r);
}

/* The globs of --include or --exclude as an array of github_info. */
static void
set_globs(yajl_val info, const char *key, const char *const *g, size_t n)
{
	yajl_val a;
	size_t i;

	if (!n)
		return;
	a = uk_json_array();
	for (i = 0; i < n; i++)
		uk_json_push(a, uk_json_str(g[i]));
	uk_json_set(info, key, a);
}

/*
 * The record's title, description, README (cut to its budget), map,
 * github_info (u: a GitHub repository, else NULL) and truncation.
 */
static void
repo_record(yajl_val rec, const struct uk_url *u, const struct snap *s,
    struct uk_symbols *sym, const struct uk_repo_opts *o,
    const struct uk_buf *map, const struct fetched *f)
{
	struct uk_symbols_counts counts = { 0, 0, 0 };
	struct uk_buf desc = UK_BUF_INIT;
	size_t readme_tokens = 0;
	int readme_cut = 0;
	yajl_val info;

	uk_symbols_get_counts(sym, &counts);

	uk_json_set_str(rec, "title", f->title);
	if (s->readme) {
		struct uk_buf rd = UK_BUF_INIT;

		uk_repo_readme_describe(s->readme, &desc);
		if (desc.len)
			uk_json_set_str(rec, "description", desc.buf);
		readme_tokens = uk_repo_readme_fit(o->tokenizer, s->readme,
		    s->readme_len, o->readme_tokens, &rd, &readme_cut);
		if (rd.len)
			uk_json_set(rec, "readme",
			    uk_json_strn(rd.buf, rd.len));
		uk_buf_release(&rd);
	}
	if (map->len)
		uk_json_set_str(rec, "symbol_map", map->buf);
	info = uk_json_object();
	if (u) {
		uk_json_set_str(info, "owner", u->owner);
		uk_json_set_str(info, "repo", u->repo);
		if (f->branch)
			uk_json_set_str(info, "branch", f->branch);
		set_ref(info, f->branch, f->ref_kind);
		if (f->path)
			uk_json_set_str(info, "path", f->path);
		if (f->path && f->path_files >= 0)
			uk_json_set_int(info, "path_files", f->path_files);
	}
	uk_json_set_str(info, "route", f->route);
	if (s->readme_name)
		uk_json_set_str(info, "readme_file", s->readme_name);
	uk_json_set_int(info, "files", (long long)s->total_files);
	uk_json_set_int(info, "bytes", (long long)s->total_bytes);
	uk_json_set_int(info, "files_indexed", f->indexed);
	uk_json_set_int(info, "files_skipped", (long long)s->skipped);
	uk_json_set_int(info, "files_parsed", (long long)counts.parsed);
	uk_json_set_int(info, "files_lexed", (long long)counts.lexed);
	uk_json_set_int(info, "files_cached", (long long)counts.cached);
	uk_json_set_int(info, "definitions", (long long)uk_symbols_ndefs(sym));
	uk_json_set_int(info, "references", (long long)uk_symbols_nrefs(sym));
	if (uk_symbols_top_file(sym))
		uk_json_set_str(info, "top_file", uk_symbols_top_file(sym));
	uk_json_set_str(info, "tokenizer", uk_tokens_name_of(o->tokenizer));
	uk_json_set_int(info, "map_tokens",
	    (long long)uk_tokens_count(o->tokenizer, map->buf, map->len));
	uk_json_set_int(info, "map_budget", o->map_tokens);
	uk_json_set_int(info, "readme_tokens", (long long)readme_tokens);
	uk_json_set_int(info, "readme_budget", o->readme_tokens);
	if (readme_cut)
		uk_json_set_bool(info, "readme_cut", 1);
	set_globs(info, "include", o->include, o->ninclude);
	set_globs(info, "exclude", o->exclude, o->nexclude);
	if (o->pack_tokens > 0)
		uk_repo_pack_make(sym, s, o, f->title, rec, info);
	uk_json_set(rec, "github_info", info);
	if (f->why) {
		uk_json_set_bool(rec, "truncated", 1);
		uk_json_set_str(rec, "truncated_reason", f->why);
	}
	if (o->map_json)
		uk_json_set(rec, "symbols", uk_symbols_json(sym));
	uk_buf_release(&desc);
}

int
uk_repo_fetch(const struct uk_url *u, const char *url,
    const struct uk_repo_opts *o, yajl_val rec, struct uk_err *err)
{
	struct snap s;
	struct uk_symbols *sym = NULL;
	struct uk_symcache *tags = NULL;
	struct uk_buf map = UK_BUF_INIT, title = UK_BUF_INIT;
	struct fetched f;
	const char *route;
	long indexed = 0;
	const char *focus = NULL;
	char *branch = NULL, *path = NULL;
	struct uk_buf why = UK_BUF_INIT; /* why the snapshot is partial */
	int ret = -1,
	    github = u && u->type == UK_URL_GITHUB_REPO && u->owner && u->repo;
	double left;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.deadline = uk_util_mono_now() + (o->timeout > 0 ? o->timeout : 120);
	s.prog.phase = UK_REPO_FETCHING;
	sym = uk_symbols_new();
	/* A budget of 0 tokens: no map, so nothing to parse. */
	if (o->map_tokens > 0 || o->pack_tokens > 0)
		s.sym = sym;
	if (s.sym && o->tag_cache)
		tags = open_tags(sym, o, github ? u : NULL, url);
	if (github) {
		route = "archive";
		parse_focus(sym, u);
		uk_repo_snap_stream_start(&s);
		if (uk_repo_archive_fetch(u, &s, &branch, &path, err) < 0) {
			if (!keep_partial(&s, err, &why))
				goto out;
		}
		focus = path;
		uk_buf_addf(&title, "%s/%s", u->owner, u->repo);
	} else if (uk_repo_is_git_url(url)) {
		if (fetch_git_url(url, &s, &route, &title, &why, err) < 0)
			goto out;
	} else {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s': not a git repository URL", url);
		goto out;
	}

	left = s.deadline - uk_util_mono_now();
	if (left <= 0 && !why.len) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "time limit of %gs reached before indexing", o->timeout);
		goto out;
	}
	if (s.stream) {
		struct uk_symbols_stream *st = s.stream;

		s.prog.phase = UK_REPO_INDEXING;
		uk_repo_snap_report(&s);
		s.stream = NULL;
		indexed = uk_symbols_stream_end(st, err);
		if (indexed < 0) {
			/* The time limit: the map of what was parsed. */
			if (uk_util_mono_now() < s.deadline)
				goto out;
			if (!why.len)
				uk_buf_addstr(&why, err->msg);
			indexed = (long)uk_symbols_nfiles(sym);
		}
		if (s.stream_failed) {
			*err = s.stream_err;
			goto out;
		}
	}
	/*
	 * Only the pack reads the sources again: without one they go before
	 * the ranking, the step's peak (166 MB of a 20,000-file tree).
	 */
	if (o->pack_tokens <= 0)
		uk_repo_snap_drop_texts(&s);
	make_map(sym, o, focus, &map);
	if (tags) {
		struct uk_err terr;

		/* A hint: a cache that cannot be written costs the next run. */
		(void)uk_symcache_save(tags, &terr);
	}
	f.route = route;
	f.branch = branch;
	f.ref_kind = github && branch ?
	    uk_repo_git_ref_kind(u->owner, u->repo, branch, &s) : NULL;
	f.path = path;
	f.path_files = -1;
	/*
	 * A path that names nothing indexed (a typo, a directory of images)
	 * focuses nothing: say so rather than hand over the whole tree's map
	 * as if it were the path's.
	 */
	if (path && *path && s.sym) {
		f.path_files = (long)uk_symbols_nfiles_under(sym, path);
		if (!f.path_files)
			uk_util_warn(
			    "'%s': no file under '%s' was indexed: the "
			    "map is of the whole tree",
			    url, path);
	}
	f.title = title.buf;
	f.indexed = indexed;
	f.why = why.len ? why.buf : NULL;
	repo_record(rec, github ? u : NULL, &s, sym, o, &map, &f);
	ret = 0;
out:
	/* The parsing threads read the snapshot's texts: stop them first. */
	uk_symbols_stream_cancel(s.stream);
	uk_symbols_free(sym);
	uk_symcache_free(tags);
	uk_repo_snap_release(&s);
	uk_buf_release(&map);
	uk_buf_release(&why);
	free(branch);
	free(path);
	uk_buf_release(&title);
	return ret;
}
