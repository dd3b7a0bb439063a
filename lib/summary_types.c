/* SPDX-License-Identifier: MIT */
/*
 * The offline summaries of type USAGE, API, ARCHITECTURE and EVALUATION
 * (summary_int.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "summary.h"
#include "summary_int.h"

#include "banned.h"

static int
code_is_shell(const struct block *b)
{
	static const char *const langs[] = { "sh", "bash", "shell", "console",
		"zsh", "shell-session", "powershell", "cmd", "bat", NULL };
	int i;

	for (i = 0; langs[i]; i++)
		if (b->langlen == strlen(langs[i]) &&
		    !strncasecmp(b->lang, langs[i], b->langlen))
			return 1;
	return 0;
}

/* Append code (up to max_lines lines) in a fenced block. */
static void
out_code(struct out *o, const struct block *b, int max_lines)
{
	size_t pos = 0, ind = (size_t)-1;
	int lines = 0;

	/* Remove the common indentation of an indented block. */
	while (pos < b->len) {
		size_t e = uk_summary_md_line_end(b->s, pos, b->len), k = pos;

		while (k < e && b->s[k] == ' ')
			k++;
		if (k < e && k - pos < ind)
			ind = k - pos;
		pos = e < b->len ? e + 1 : b->len;
	}
	if (ind == (size_t)-1)
		ind = 0;
	uk_summary_offline_out_gap(o);
	uk_buf_addstr(o->b, "```");
	uk_buf_add(o->b, b->lang, b->langlen);
	uk_buf_addch(o->b, '\n');
	pos = 0;
	while (pos < b->len) {
		size_t e = uk_summary_md_line_end(b->s, pos, b->len),
		       k = pos + ind;

		if (lines++ == max_lines) {
			uk_buf_addstr(o->b, "...\n");
			break;
		}
		if (k > e)
			k = e;
		uk_summary_offline_out_line(o, "", b->s + k, e - k, 160);
		pos = e < b->len ? e + 1 : b->len;
	}
	uk_buf_addstr(o->b, "```\n\n");
}

/* Write heading section of block b once (tracked by *last). */
static void
section_title(const struct doc *d, const struct block *b, int *last,
    struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;

	if (b->section == *last || b->section < 0)
		return;
	*last = b->section;
	uk_summary_md_plain(d->b[b->section].s, d->b[b->section].len, &t);
	uk_summary_offline_out_gap(o);
	uk_summary_offline_out_line(o, "## ", t.buf, t.len, 120);
	uk_buf_release(&t);
}

static void
first_sentence(const char *s, size_t n, struct uk_buf *t)
{
	size_t e;

	uk_buf_reset(t);
	uk_summary_md_plain(s, n, t);
	e = uk_summary_md_sentence_end(t->buf, t->len);
	uk_buf_setlen(t, e);
}

int
uk_summary_types_usage(yajl_val rec, const struct doc *d, struct out *o)
{
	static const char *const stems[] = { "install", "usage",
		"getting started", "get started", "quick", "example",
		"tutorial", "how to", "setup", "set up", "building",
		"build from", "download", "command line", "command-line", "cli",
		"synopsis", "configur", "basic usage", "running", NULL };
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf t = UK_BUF_INIT, imports = UK_BUF_INIT;
	size_t i, before, start, said;
	int last = -1, codes = 0, nimports = 0, found = 0, cmds = 0;

	uk_summary_offline_header(rec, o, 0, &said);
	start = o->b->len;
	uk_summary_offline_lead(d, NULL, 0, 1, 1, o);
	before = o->b->len;
	for (i = 0; i < d->n && !uk_summary_offline_full(o); i++) {
		const struct block *b = &d->b[i];
		int in = uk_summary_offline_heading_is(d, b->section, stems);
		size_t pos;

		if (b->kind == B_CODE) {
			/* Imports from any code block. */
			for (pos = 0; pos < b->len;) {
				size_t e =
				    uk_summary_md_line_end(b->s, pos, b->len);

				if (nimports < 8 &&
				    uk_summary_md_is_import(b->s + pos,
					e - pos) &&
				    uk_strset_add(&seen, b->s + pos, e - pos)) {
					size_t k = pos;

					while (k < e &&
					    isspace((unsigned char)b->s[k]))
						k++;
					uk_buf_addstr(&imports, "- `");
					uk_buf_add(&imports, b->s + k, e - k);
					uk_buf_addstr(&imports, "`\n");
					nimports++;
				}
				pos = e < b->len ? e + 1 : b->len;
			}
			if (codes >= 6)
				continue;
			if (in || code_is_shell(b) ||
			    uk_summary_md_is_command(b->s, b->len)) {
				section_title(d, b, &last, o);
				out_code(o, b, 15);
				codes++;
				found = 1;
			}
			continue;
		}
		if (b->kind == B_HEAD || !in)
			continue;
		section_title(d, b, &last, o);
		first_sentence(b->s, b->len, &t);
		if (t.len)
			uk_summary_offline_out_line(o,
			    b->kind == B_LIST ? "- " : "", t.buf, t.len, 300);
		found = 1;
	}
	/* Commands written in running text, outside code blocks. */
	for (i = 0; i < d->n && !uk_summary_offline_full(o) && codes < 6; i++) {
		const struct block *b = &d->b[i];
		const char *p, *q, *end = b->s + b->len;

		if (b->kind != B_PARA && b->kind != B_LIST)
			continue;
		for (p = b->s; (p = memchr(p, '`', (size_t)(end - p)));
		     p = q + 1) {
			if (!(q = memchr(p + 1, '`', (size_t)(end - p - 1))))
				break;
			if (q > p + 1 &&
			    uk_summary_md_is_command(p + 1,
				(size_t)(q - p - 1)) &&
			    uk_strset_add(&seen, p + 1, (size_t)(q - p - 1))) {
				if (!cmds++) {
					uk_summary_offline_out_gap(o);
					uk_buf_addstr(o->b, "Commands:\n");
				}
				found = 1;
				uk_summary_offline_out_line(o, "$ ", p + 1,
				    (size_t)(q - p - 1), 200);
				codes++;
			}
		}
	}
	if (nimports) {
		uk_summary_offline_out_gap(o);
		uk_buf_addstr(o->b, "Key imports:\n");
		uk_buf_add(o->b, imports.buf, imports.len);
	}
	if (!found && !nimports) {
		/* Nothing usage-like: the lead and the first code. */
		for (i = 0; i < d->n; i++)
			if (d->b[i].kind == B_CODE) {
				out_code(o, &d->b[i], 15);
				break;
			}
		if (o->b->len == before) {
			uk_buf_setlen(o->b, start);
			uk_summary_offline_lead(d, NULL, 0, 2, 4, o);
		}
	}
	uk_strset_release(&seen);
	uk_buf_release(&t);
	uk_buf_release(&imports);
	return 0;
}

/* Symbol-map decoration: "│", "⋮", "|", "..." at the start of a line. */
static const char *
undecorate(const char *s, const char *end)
{
	for (;;) {
		s = uk_summary_offline_skip_blanks(s, end);
		if (end - s >= 3 && !memcmp(s, "\xe2\x94\x82", 3))
			s += 3; /* │ */
		else if (end - s >= 3 && !memcmp(s, "\xe2\x8b\xae", 3))
			s += 3; /* ⋮ */
		else if (s < end && *s == '|')
			s++;
		else
			return s;
	}
}

/*
 * A file heading of a symbol map: unindented, ends in ':'.  The second
 * file of a C/C++ unit (a .c file under its header, symbols.h) is the
 * same heading indented by two spaces; *path is set past the indent.
 */
static int
map_file(const char *s, size_t n, const char **path)
{
	if (n > 2 && s[0] == ' ' && s[1] == ' ') {
		s += 2;
		n -= 2;
	}
	*path = s;
	return n > 1 && s[0] != ' ' && s[0] != '\t' && s[n - 1] == ':' &&
	    !memchr(s, '(', n) && !memchr(s, ' ', n) &&
	    memcmp(s, "\xe2\x94\x82", n < 3 ? n : 3) &&
	    memcmp(s, "\xe2\x8b\xae", n < 3 ? n : 3);
}

int
uk_summary_types_api(yajl_val rec, const struct doc *d, struct out *o)
{
	size_t i, said, maplen = 0;
	const char *map =
	    uk_summary_offline_nonempty(rec, "symbol_map", &maplen);
	struct uk_strset seen = UK_STRSET_INIT;
	struct uk_buf t = UK_BUF_INIT;
	int nsig = 0;

	uk_summary_offline_header(rec, o, 0, &said);
	uk_summary_offline_lead(d, NULL, 0, 1, 1, o);
	if (map) {
		const char *p = map, *end = map + maplen, *e, *file = NULL;
		size_t filelen = 0;

		uk_summary_offline_out_gap(o);
		uk_buf_addstr(o->b, "Signatures (symbol map):\n");
		for (; p < end && nsig < 60 && !uk_summary_offline_full(o);
		     p = e + 1) {
			const char *s;

			if (!(e = memchr(p, '\n', (size_t)(end - p))))
				e = end;
			if (map_file(p, (size_t)(e - p), &s)) {
				file = s;
				filelen = (size_t)(e - s);
				continue;
			}
			s = undecorate(p, e);
			if (e - s < 3 ||
			    uk_summary_md_letters(s, (size_t)(e - s)) < 2 ||
			    !uk_strset_add(&seen, s, (size_t)(e - s)))
				continue;
			if (file) {
				uk_summary_offline_out_line(o, "", file,
				    filelen, 200);
				file = NULL;
			}
			uk_summary_offline_out_line(o, "  ", s, (size_t)(e - s),
			    160);
			nsig++;
			if (e == end)
				break;
		}
	}
	/* Signatures in the text: code lines, headings and definitions. */
	{
		size_t tlen = 0;
		const char *text = uk_summary_offline_main_text(rec, &tlen);
		const char *p, *end, *e;
		int ntext = 0;

		if (text && nsig < 60) {
			end = text + tlen;
			for (p = text; p < end && ntext < 30 &&
			     !uk_summary_offline_full(o);
			     p = e + 1) {
				const char *s;

				if (!(e = memchr(p, '\n', (size_t)(end - p))))
					e = end;
				s = uk_summary_offline_skip_blanks(p, e);
				while (s < e &&
				    (*s == '#' || *s == '>' || *s == '`' ||
					*s == '*' || *s == ' '))
					s++;
				uk_buf_reset(&t);
				uk_buf_add(&t, s, (size_t)(e - s));
				while (t.len &&
				    (t.buf[t.len - 1] == '`' ||
					t.buf[t.len - 1] == '*' ||
					isspace(
					    (unsigned char)t.buf[t.len - 1])))
					uk_buf_setlen(&t, t.len - 1);
				if (uk_summary_offline_is_signature(t.buf,
					t.len) &&
				    uk_strset_add(&seen, t.buf, t.len)) {
					if (!ntext++) {
						uk_summary_offline_out_gap(o);
						uk_buf_addstr(o->b,
						    "Signatures (text):\n");
					}
					uk_summary_offline_out_line(o, "  ",
					    t.buf, t.len, 160);
				}
				if (e == end)
					break;
			}
			nsig += ntext;
		}
	}
	if (!nsig) {
		/* No signatures: the document's outline names its API. */
		int n = 0;

		for (i = 0; i < d->n && n < 30 && !uk_summary_offline_full(o);
		     i++) {
			if (d->b[i].kind != B_HEAD)
				continue;
			if (!n++) {
				uk_summary_offline_out_gap(o);
				uk_buf_addstr(o->b, "Sections:\n");
			}
			uk_buf_reset(&t);
			uk_summary_md_plain(d->b[i].s, d->b[i].len, &t);
			uk_summary_offline_out_line(o, "- ", t.buf, t.len, 120);
		}
		if (!n)
			uk_summary_offline_lead(d, NULL, 0, 2, 4, o);
	}
	uk_strset_release(&seen);
	uk_buf_release(&t);
	return 0;
}

/* Directory part of a path: "src/lib/a.c" -> "src/lib/". */
static size_t
dirlen(const char *s, size_t n)
{
	while (n && s[n - 1] != '/')
		n--;
	return n;
}

/* The directories ARCHITECTURE lists at most. */
#define MAP_DIRS 24

/* A directory of the symbol map, its files in the map's order of rank. */
struct map_dir {
	const char *dir; /* into the map: the path up to its last '/' */
	size_t dlen;
	struct uk_buf files; /* the first 8 file names, ", " between */
	int n, syms;         /* files and symbols seen */
};

/*
 * Count the file p[0..n) (its heading without the ':') in its directory
 * of dirs, added when new while there is room.  Returns the directory, or
 * NULL when it is new and dirs is full.
 */
static struct map_dir *
map_dir_add(struct map_dir *dirs, int *ndirs, const char *p, size_t n)
{
	size_t dl = dirlen(p, n);
	struct map_dir *m = NULL;
	int k;

	for (k = 0; k < *ndirs && !m; k++)
		if (dirs[k].dlen == dl && !memcmp(dirs[k].dir, p, dl))
			m = &dirs[k];
	if (!m) {
		if (*ndirs == MAP_DIRS)
			return NULL;
		m = &dirs[(*ndirs)++];
		m->dir = p;
		m->dlen = dl;
		uk_buf_init(&m->files, 0);
		m->n = m->syms = 0;
	}
	if (m->n < 8) {
		if (m->n)
			uk_buf_addstr(&m->files, ", ");
		uk_buf_add(&m->files, p + dl, n - dl);
	}
	m->n++;
	return m;
}

/* "Modules": the symbol map's files grouped by directory. */
static void
arch_modules(const char *map, size_t maplen, struct out *o)
{
	struct map_dir dirs[MAP_DIRS], *cur = NULL;
	const char *p, *e, *end = map + maplen;
	int ndirs = 0, k;

	for (p = map; p < end; p = e + 1) {
		const char *path;

		if (!(e = memchr(p, '\n', (size_t)(end - p))))
			e = end;
		if (map_file(p, (size_t)(e - p), &path))
			cur = map_dir_add(dirs, &ndirs, path,
			    (size_t)(e - path) - 1);
		else if (cur && e - undecorate(p, e) > 2)
			cur->syms++;
		if (e == end)
			break;
	}
	if (ndirs) {
		uk_summary_offline_out_gap(o);
		uk_buf_addstr(o->b, "Modules (symbol map):\n");
	}
	for (k = 0; k < ndirs; k++) {
		const struct map_dir *m = &dirs[k];

		uk_buf_addf(o->b, "- %.*s: %d file%s, %d symbol%s (",
		    m->dlen ? (int)m->dlen : 2, m->dlen ? m->dir : "./", m->n,
		    m->n == 1 ? "" : "s", m->syms, m->syms == 1 ? "" : "s");
		uk_buf_add(o->b, m->files.buf, m->files.len);
		uk_buf_addstr(o->b, m->n > 8 ? ", ...)\n" : ")\n");
		uk_buf_release(&dirs[k].files);
	}
}

/* "Outline": the headings, indented by level. */
static void
arch_outline(const struct doc *d, struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t i;
	int heads = 0, lv;

	for (i = 0; i < d->n && heads < 30 && !uk_summary_offline_full(o);
	     i++) {
		const struct block *b = &d->b[i];

		if (b->kind != B_HEAD)
			continue;
		if (!heads++) {
			uk_summary_offline_out_gap(o);
			uk_buf_addstr(o->b, "Outline:\n");
		}
		uk_buf_reset(&t);
		uk_summary_md_plain(b->s, b->len, &t);
		for (lv = 1; lv < b->level && lv < 6; lv++)
			uk_buf_addstr(o->b, "  ");
		uk_summary_offline_out_line(o, "- ", t.buf, t.len, 120);
	}
	uk_buf_release(&t);
}

/* What a sentence about the design mentions. */
static const char *const design_stems[] = { "architect", "design", "module",
	"component", "layer", "pipeline", "data flow", "dataflow", "backend",
	"frontend", "plugin", "core", "engine", "parser", "runtime",
	"abstraction", "subsystem", "library", "daemon", "server", "client",
	"interface", NULL };

/* "Design notes": up to 5 sentences about the design, past the first. */
static void
arch_notes(const struct doc *d, struct out *o)
{
	struct uk_buf t = UK_BUF_INIT;
	size_t i, pos, e;
	int notes = 0;

	for (i = 0; i < d->n && notes < 5 && !uk_summary_offline_full(o); i++) {
		const struct block *b = &d->b[i];

		if (b->kind != B_PARA && b->kind != B_LIST)
			continue;
		uk_buf_reset(&t);
		uk_summary_md_plain(b->s, b->len, &t);
		pos = 0;
		while (pos < t.len && notes < 5) {
			e = uk_summary_md_sentence_end(t.buf + pos,
			    t.len - pos);
			if (uk_summary_md_mentions(t.buf + pos, e,
				design_stems) &&
			    e > 30 && t.buf[pos + e - 1] != ':' &&
			    !uk_summary_offline_already(o, t.buf + pos, e) &&
			    (i > 0 || pos > 0)) {
				if (!notes++) {
					uk_summary_offline_out_gap(o);
					uk_buf_addstr(o->b, "Design notes:\n");
				}
				uk_summary_offline_out_line(o, "- ",
				    t.buf + pos, e, 300);
			}
			pos += e;
			while (pos < t.len && t.buf[pos] == ' ')
				pos++;
		}
	}
	uk_buf_release(&t);
}

int
uk_summary_types_architecture(yajl_val rec, const struct doc *d, struct out *o)
{
	size_t said = 0, maplen = 0;
	const char *map =
	    uk_summary_offline_nonempty(rec, "symbol_map", &maplen);
	const char *desc = uk_summary_offline_header(rec, o, 1, &said);

	uk_summary_offline_lead(d, desc, said, 1, 2, o);
	if (map)
		arch_modules(map, maplen, o);
	arch_outline(d, o);
	arch_notes(d, o);
	return 0;
}

/* The fields of github_info EVALUATION states, in this order. */
static const char *const gh_keys[] = { "stars", "stargazers_count", "forks",
	"forks_count", "watchers", "open_issues", "open_issues_count",
	"license", "language", "archived", "created_at", "pushed_at",
	"updated_at", "latest_release", "default_branch", NULL };

/* The sections of a readme about using it, not judging it. */
static const char *const usage_heads[] = { "install", "usage",
	"getting started", "quick", "example", "tutorial", NULL };

/*
 * EVALUATION's topics, in the order written.  A sentence belongs to a
 * topic when it mentions one of stems; in a section whose heading holds
 * one of take (NULL: none), every sentence belongs, and so does a code
 * block's first line; sections whose heading holds one of avoid (NULL:
 * none) are passed over.
 */
static const struct eval_topic {
	const char *title;
	const char *const *stems;
	const char *const *take;
	const char *const *avoid;
} eval_topics[] = {
	{ "Maturity:\n",
	    (const char *const[]){ "licen", "version", "release", "stable",
		"beta", "alpha", "experimental", "deprecat", "maintain",
		"unmaintained", "archived", "production", "mature", "changelog",
		"semver", "test", "coverage", "continuous integration", "ci",
		"build status", "downloads", "used by", "roadmap", "status",
		NULL },
	    NULL, usage_heads },
	{ "Dependencies:\n",
	    (const char *const[]){ "requir", "depend", "prerequisit", "needs ",
		"compatib", "support", NULL },
	    (const char *const[]){ "requirement", "dependenc", "prerequisit",
		"compatib", "supported", "platform", NULL },
	    NULL },
	{ "Alternatives and comparisons:\n",
	    (const char *const[]){ "alternative", "compar", "unlike",
		"similar to", "vs", "versus", "inspired by", "faster than",
		"slower than", "benchmark", "instead of", "replacement for",
		"drop-in", "competitor", NULL },
	    NULL, usage_heads },
};

/* The text of a github_info value, its length in *len; NULL if none. */
static const char *
fact_text(yajl_val v, size_t *len)
{
	const char *s = NULL;

	*len = 0;
	if (YAJL_IS_STRING(v)) {
		s = v->u.string;
		*len = uk_json_strlen(v);
	} else if (YAJL_IS_NUMBER(v)) {
		s = v->u.number.r;
	} else if (YAJL_IS_TRUE(v)) {
		s = "true";
	} else if (YAJL_IS_FALSE(v)) {
		s = "false";
	} else if (YAJL_IS_OBJECT(v)) {
		if (!(s = uk_json_get_strn(v, "spdx_id", len)))
			s = uk_json_get_strn(v, "name", len);
	}
	if (s && !*len)
		*len = strlen(s);
	return s && *len ? s : NULL;
}

/* Write one fact, under "Facts:" when it is the first; *n counts them. */
static void
fact_line(struct out *o, int *n, const char *prefix, const char *s, size_t len)
{
	if (!(*n)++) {
		uk_summary_offline_out_gap(o);
		uk_buf_addstr(o->b, "Facts:\n");
	}
	uk_summary_offline_out_line(o, prefix, s, len, 120);
}

/*
 * "Facts": the fields of github_info, then the alt text of the badges in
 * text[0..tlen) (text may be NULL), 12 at most with the badges.
 */
static void
eval_facts(yajl_val rec, const char *text, size_t tlen, struct uk_strset *seen,
    struct out *o)
{
	yajl_val gh = uk_json_get(rec, "github_info");
	const char *p, *s, *cb, *end;
	char prefix[40];
	size_t sl;
	int n = 0, k;

	for (k = 0; gh && YAJL_IS_OBJECT(gh) && gh_keys[k]; k++) {
		yajl_val v = uk_json_get(gh, gh_keys[k]);

		if (!v || !(s = fact_text(v, &sl)))
			continue;
		snprintf(prefix, sizeof(prefix), "- %s: ", gh_keys[k]);
		fact_line(o, &n, prefix, s, sl);
	}
	if (!text)
		return;
	for (p = text, end = text + tlen; n < 12; p = cb) {
		if (!(p = memmem(p, (size_t)(end - p), "![", 2)))
			break;
		cb = memchr(p, ']', (size_t)(end - p));
		if (!cb || cb - p > 120)
			break;
		sl = (size_t)(cb - p - 2);
		if (cb > p + 2 && uk_summary_md_letters(p + 2, sl) > 2 &&
		    uk_strset_add(seen, p + 2, sl))
			fact_line(o, &n, "- badge: ", p + 2, sl);
	}
}

/*
 * Write the sentences of topic tp, 6 at most, from the blocks of d whose
 * texts pl holds; seen holds what was written already.
 */
static void
eval_topic(const struct eval_topic *tp, const struct doc *d,
    const struct uk_buf *pl, struct uk_strset *seen, struct out *o)
{
	size_t i, pos, e;
	int got = 0, take = 0, avoid = 0, section = -2;

	for (i = 0; i < d->n && got < 6 && !uk_summary_offline_full(o); i++) {
		const struct block *b = &d->b[i];
		const struct uk_buf *tb = &pl[i];

		if (b->section != section) {
			section = b->section;
			take = tp->take &&
			    uk_summary_offline_heading_is(d, section, tp->take);
			avoid = tp->avoid &&
			    uk_summary_offline_heading_is(d, section,
				tp->avoid);
		}
		if (b->kind == B_HEAD || avoid || (b->kind == B_CODE && !take))
			continue;
		pos = 0;
		while (pos < tb->len && got < 6) {
			const char *s = tb->buf + pos;

			e = uk_summary_md_sentence_end(s, tb->len - pos);
			if ((take || uk_summary_md_mentions(s, e, tp->stems)) &&
			    e > 12 && s[e - 1] != ':' &&
			    !uk_summary_offline_already(o, s, e) &&
			    uk_summary_md_letters(s, e) > e / 2 &&
			    uk_strset_add(seen, s, e)) {
				if (!got++) {
					uk_summary_offline_out_gap(o);
					uk_buf_addstr(o->b, tp->title);
				}
				uk_summary_offline_out_line(o, "- ", s, e, 300);
			}
			pos += e;
			while (pos < tb->len && tb->buf[pos] == ' ')
				pos++;
			if (take && b->kind != B_PARA)
				break;
		}
	}
}

int
uk_summary_types_evaluation(yajl_val rec, const struct doc *d, struct out *o)
{
	struct uk_strset seen = UK_STRSET_INIT;
	size_t i, said = 0, tlen = 0;
	const char *text = uk_summary_offline_main_text(rec, &tlen);
	const char *desc = uk_summary_offline_header(rec, o, 1, &said);
	struct uk_buf *pl;

	uk_summary_offline_lead(d, desc, said, 1, 1, o);
	eval_facts(rec, text, tlen, &seen, o);
	/*
	 * Each block's plain text (a code block's first line) is worked out
	 * once, not once per topic.
	 */
	pl = uk_util_xmalloc((d->n ? d->n : 1) * sizeof(*pl));
	for (i = 0; i < d->n; i++) {
		const struct block *b = &d->b[i];

		uk_buf_init(&pl[i], 0);
		if (b->kind == B_CODE)
			uk_buf_add(&pl[i], b->s,
			    uk_summary_md_line_end(b->s, 0, b->len));
		else if (b->kind != B_HEAD)
			uk_summary_md_plain(b->s, b->len, &pl[i]);
	}
	for (i = 0; i < sizeof(eval_topics) / sizeof(eval_topics[0]); i++)
		eval_topic(&eval_topics[i], d, pl, &seen, o);
	for (i = 0; i < d->n; i++)
		uk_buf_release(&pl[i]);
	free(pl);
	uk_strset_release(&seen);
	return 0;
}
