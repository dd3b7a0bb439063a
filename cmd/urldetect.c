/* SPDX-License-Identifier: MIT */
/* urldetect: find http(s) URLs in text and classify them. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "detect.h"
#include "json.h"
#include "jsonl.h"
#include "url.h"
#include "strset.h"
#include "util.h"
#include "banned.h"

#define WINDOW (1UL << 20)

static const char synopsis[] =
    "usage: urldetect [-aHLquV] [-m max] [-o file] [-y type] [--bare]\n"
    "                 [--classify] [--json field] [--no-filename] [file ...]\n";

static const char options[] =
    "Find the URLs in text; write one url record per URL.\n"
    "\n"
    "  -a, --all                 every occurrence, not only a message's first\n"
    "      --bare                also URLs without a scheme (github.com/o/r)\n"
    "      --classify            classify url records or bare URLs again\n"
    "  -H, --with-filename       add each record's file (default: several files)\n"
    "      --json=FIELD          read JSON Lines, each record's FIELD a message\n"
    "  -L, --lines               each line is a message\n"
    "  -m, --max-per-message=N   URLs per message, 0: all (default: 0)\n"
    "      --no-filename         no file, even with several files\n"
    "  -o, --output=FILE         write the records to FILE\n"
    "  -q, --quiet               print nothing; exit 0 when a URL is found\n"
    "  -u, --urls                print bare URLs, not records\n"
    "  -y, --type=TYPE           keep only URLs of TYPE (github_repo, web, ...)\n"
    "      --compact             one JSON line per record, even on a terminal\n"
    "      --pretty              indented records, even in a pipe\n"
    "  -h, --help                the synopsis (-h) or this help (--help)\n"
    "  -V, --version             print the version\n"
    "\n"
    "See urldetect(1).\n";

static const struct uk_cli cli = { "urldetect", synopsis, options };

static struct {
	int all, bare, classify, lines, quiet, urls;
	int with_filename; /* -H: 1, --no-filename: 0, -1: not said */
	const char *field;
	const char *output;
	long max;
	int type; /* -1: any */
} opt = { .type = -1, .with_filename = -1 };

/* The file each record comes from, for -H; NULL without -H. */
static const char *cur_file;

static struct uk_jsonl_out out;
static int found;

/*
 * --bare: the detector of the scan under way (its bare_hit says the URL
 * it gives has no scheme), and the URL written for one: https:// and the
 * text without its "//".
 */
static struct uk_detect *detector;
static struct uk_buf bare_url = UK_BUF_INIT;
static int cur_bare;

/*
 * Empty a message's set of URLs given (the default output writes one
 * record per URL and message); a large table goes (a message of many
 * URLs is rare).
 */
static void
seen_reset(struct uk_strset *st)
{
	if (st->cap > 4096)
		uk_strset_release(st);
	else
		uk_strset_reset(st);
}

/* One message: its number, where it starts, what it has given so far. */
struct msg {
	unsigned long no;
	unsigned long long base;
	unsigned long count;
	struct uk_strset seen;
	yajl_val id; /* the input record's id, for --json; not owned */
	unsigned long long abs; /* absolute offset of the window's byte 0 */
};

/*
 * The url records written straight into one buffer, for compact output:
 * the bytes uk_jsonl_out_record writes for the tree emit_tree builds,
 * without the tree (building it, generating it with yajl and freeing it
 * cost five times the detection), and without a write per record: rbuf
 * collects whole records and goes out when it passes RBUF_FLUSH bytes
 * and before anything else is written (out_flush).  A string that the
 * tree would change (invalid UTF-8, replaced by U+FFFD) or that yajl
 * escapes with more than a backslash (a control character) is not
 * written here: put_str says so and the record is built the slow way.
 * The id and the file are JSON already, made by yajl once per message and
 * per file.  UK_URLDETECT_REFERENCE set in the environment writes every
 * record the slow way from libcurl's parse (uk_url_classify): the
 * reference `scripts/bench detect` and tests/urldetect.bats compare with.
 */
#define RBUF_FLUSH (1 << 16)
static struct uk_buf rbuf = UK_BUF_INIT;
static int reference;

/* Write the records collected in rbuf, then what stdio holds. */
static void
out_flush(void)
{
	if (rbuf.len) {
		uk_jsonl_out_raw(&out, rbuf.buf, rbuf.len);
		rbuf.len = 0;
	}
	uk_jsonl_out_flush(&out);
}

/* Whether the 8 bytes of w hold one that is 0. */
#define HAS_ZERO(w) (((w) - 0x0101010101010101ULL) & ~(w) & 0x8080808080808080ULL)

/*
 * Append s[0..n) as a JSON string at q, which has room for 2 * n + 2
 * bytes; returns the end, or NULL when it needs the slow path.  The bytes
 * are copied first and looked at eight at a time: most strings have
 * nothing to escape and nothing beyond ASCII.
 */
static char *
put_str(char *q, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	uint64_t w;

	*q = '"';
	memcpy(q + 1, s, n);
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		if ((w & 0x8080808080808080ULL) ||
		    HAS_ZERO(w & 0xe0e0e0e0e0e0e0e0ULL) ||
		    HAS_ZERO(w ^ 0x2222222222222222ULL) ||
		    HAS_ZERO(w ^ 0x5c5c5c5c5c5c5c5cULL))
			break;
	}
	for (; i < n; i++)
		if (p[i] < 0x20 || p[i] >= 0x80 || p[i] == '"' || p[i] == '\\')
			break;
	if (i == n) {
		q[n + 1] = '"';
		return q + n + 2;
	}
	/* Something to look at from i: byte by byte from there. */
	q += 1 + i;
	while (i < n) {
		if (p[i] >= 0x80) {
			if (!(k = uk_buf_utf8_seqlen(p + i, n - i)))
				return NULL;
			memcpy(q, p + i, k);
			q += k;
			i += k;
			continue;
		}
		if (p[i] < 0x20)
			return NULL;
		if (p[i] == '"' || p[i] == '\\')
			*q++ = '\\';
		*q++ = (char)p[i++];
	}
	*q++ = '"';
	return q;
}

/* Append v in decimal, two digits a step, straight into place. */
static char *
put_num(char *q, unsigned long long v)
{
	static const char dd[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	static const unsigned long long p10[] = { 1ULL, 10ULL, 100ULL,
		1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL };
	size_t n;
	char *e;

	/* The digits from the bits: log10(2) is about 1233 / 4096. */
	n = (size_t)(((64 - __builtin_clzll(v | 1)) * 1233) >> 12);
	n += n < 20 && v >= p10[n];
	n += !n;
	e = q + n;
	while (v >= 100) {
		memcpy(e -= 2, dd + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(e - 2, dd + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
	return q + n;
}

/* Append s[0..n) quoted, as it is: a string put_str would not change. */
static char *
put_plain(char *q, const char *s, size_t n)
{
	*q = '"';
	memcpy(q + 1, s, n);
	q[n + 1] = '"';
	return q + n + 2;
}

#define PUT(q, lit) (memcpy((q), (lit), sizeof(lit) - 1), (q) + sizeof(lit) - 1)

static char *
put_type(char *q, enum uk_url_type t)
{
	switch (t) {
	case UK_URL_WEB:
		return PUT(q, "web");
	case UK_URL_DOCUMENTATION:
		return PUT(q, "documentation");
	default: {
		const char *name = uk_url_type_name(t);
		size_t n = strlen(name);

		memcpy(q, name, n);
		return q + n;
	}
	}
}

/* The JSON of v as yajl writes it, into b (for the id and the file). */
static void
json_val(struct uk_buf *b, yajl_val v)
{
	b->len = 0;
	uk_json_to_buf(v, b);
}

/* m->id and cur_file as JSON, and what they were made from. */
static struct uk_buf id_json = UK_BUF_INIT, file_json = UK_BUF_INIT;
static yajl_val id_of;
static const char *file_of;

/* A piece of the view, checked or not as plain says. */
#define PUT_STR(q, sp) (plain ? put_plain((q), (sp).s, (sp).n) : \
    put_str((q), (sp).s, (sp).n))

/* Write the record of url[0..n) classified as v; -1: take the slow path. */
static int
emit_fast(struct msg *m, const struct uk_url_view *v, const char *url,
    size_t n, unsigned long long start, unsigned long long end)
{
	struct uk_buf *b = &rbuf;
	char *q, *e;
	int plain;

	if (m->id && m->id != id_of) {
		json_val(&id_json, m->id);
		id_of = m->id;
	}
	if (cur_file && cur_file != file_of) {
		yajl_val f = uk_json_str(cur_file);

		json_val(&file_json, f);
		uk_json_free(f);
		file_of = cur_file;
	}
	/* Room for the longest record these strings make. */
	uk_buf_grow(b, 256 + 2 * (n + v->display.n + v->owner.n + v->repo.n +
	    v->branch.n + v->file.n) + id_json.len + file_json.len);
	q = b->buf + b->len;
	q = PUT(q, "{\"url\":");
	/*
	 * A URL with nothing to escape or replace, split by hand: its pieces
	 * have nothing either, and go as they are.  uk_url_view says so of
	 * most; the others are looked at here.
	 */
	if (v->plain == 2) {
		plain = 1;
		q = put_plain(q, url, n);
	} else {
		if (!(e = put_str(q, url, n)))
			return -1;
		plain = v->plain && (size_t)(e - q) == n + 2;
		q = e;
	}
	q = PUT(q, ",\"type\":\"");
	q = put_type(q, v->type);
	q = PUT(q, "\",\"display\":");
	if (!(q = PUT_STR(q, v->display)))
		return -1;
	q = PUT(q, ",\"start\":");
	q = put_num(q, start);
	q = PUT(q, ",\"end\":");
	q = put_num(q, end);
	/* A message only where the input has messages (-L, --json): a file
	 * read whole is none, and urlfetch's per-message limit counts by it. */
	if (opt.lines || opt.field) {
		q = PUT(q, ",\"message\":");
		q = put_num(q, m->no);
	}
	if (m->id) {
		q = PUT(q, ",\"id\":");
		memcpy(q, id_json.buf, id_json.len);
		q += id_json.len;
	}
	if (cur_file) {
		q = PUT(q, ",\"file\":");
		memcpy(q, file_json.buf, file_json.len);
		q += file_json.len;
	}
	if (cur_bare)
		q = PUT(q, ",\"bare\":true");
	if (v->owner.s) {
		q = PUT(q, ",\"github\":{\"owner\":");
		if (!(q = PUT_STR(q, v->owner)))
			return -1;
		q = PUT(q, ",\"repo\":");
		if (!(q = PUT_STR(q, v->repo)))
			return -1;
		if (v->branch.s) {
			q = PUT(q, ",\"branch\":");
			if (!(q = PUT_STR(q, v->branch)))
				return -1;
		}
		if (v->file.s) {
			q = PUT(q, ",\"path\":");
			if (!(q = PUT_STR(q, v->file)))
				return -1;
		}
		if (v->issue_number) {
			q = PUT(q, ",\"issue_number\":");
			q = put_num(q, (unsigned long long)v->issue_number);
		}
		if (v->pr_number) {
			q = PUT(q, ",\"pr_number\":");
			q = put_num(q, (unsigned long long)v->pr_number);
		}
		*q++ = '}';
	}
	q = PUT(q, "}\n");
	b->len = (size_t)(q - b->buf);
	if (b->len >= RBUF_FLUSH)
		out_flush();
	return 0;
}

static yajl_val
span_json(struct uk_url_span sp)
{
	return uk_json_strn(sp.s, sp.n);
}

/* Write the record of url[0..n) classified as v with yajl. */
static void
emit_tree(struct msg *m, const struct uk_url_view *v, const char *url,
    size_t n, unsigned long long start, unsigned long long end)
{
	yajl_val rec = uk_json_object(), gh;

	uk_json_set(rec, "url", uk_json_strn(url, n));
	uk_json_set_str(rec, "type", uk_url_type_name(v->type));
	uk_json_set(rec, "display", span_json(v->display));
	uk_json_set_int(rec, "start", (long long)start);
	uk_json_set_int(rec, "end", (long long)end);
	if (opt.lines || opt.field) /* where the input has messages */
		uk_json_set_int(rec, "message", (long long)m->no);
	if (m->id)
		uk_json_set(rec, "id", uk_json_copy(m->id));
	if (cur_file)
		uk_json_set_str(rec, "file", cur_file);
	if (cur_bare)
		uk_json_set_bool(rec, "bare", 1);
	/* github last, after the offsets, as urlkit(7) shows. */
	if (v->owner.s) {
		gh = uk_json_object();
		uk_json_set(gh, "owner", span_json(v->owner));
		uk_json_set(gh, "repo", span_json(v->repo));
		if (v->branch.s)
			uk_json_set(gh, "branch", span_json(v->branch));
		if (v->file.s)
			uk_json_set(gh, "path", span_json(v->file));
		if (v->issue_number)
			uk_json_set_int(gh, "issue_number", v->issue_number);
		if (v->pr_number)
			uk_json_set_int(gh, "pr_number", v->pr_number);
		uk_json_set(rec, "github", gh);
	}
	out_flush();
	uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
}

/* Emit url[0..n) found at [start, end) of message m; 1 to stop (-q). */
static int
emit(struct msg *m, const char *url, size_t n, unsigned long long start,
    unsigned long long end)
{
	struct uk_url_view v;

	if (opt.max && m->count >= (unsigned long)opt.max)
		return 0;
	if (!opt.all && !uk_strset_add(&m->seen, url, n))
		return 0;
	if (opt.quiet && opt.type < 0) {
		found = 1;
		return 1;
	}
	if (opt.urls && opt.type < 0) {
		m->count++;
		found = 1;
		uk_jsonl_out_raw(&out, url, n);
		uk_jsonl_out_raw(&out, "\n", 1);
		return 0;
	}
	uk_url_view(url, n, reference ? UK_URL_VIEW_CURL : 0, &v);
	if (opt.type >= 0 && (int)v.type != opt.type) {
		uk_url_view_release(&v);
		return 0;
	}
	m->count++;
	found = 1;
	if (opt.quiet) {
		uk_url_view_release(&v);
		return 1;
	}
	if (opt.urls) {
		uk_jsonl_out_raw(&out, url, n);
		uk_jsonl_out_raw(&out, "\n", 1);
	} else if (out.pretty || reference ||
	    emit_fast(m, &v, url, n, start, end)) {
		emit_tree(m, &v, url, n, start, end);
	}
	uk_url_view_release(&v);
	return 0;
}

/*
 * --bare: emit the URL s[start..end) the detector gives; one without a
 * scheme goes out as https:// and its text without "//", marked bare.
 * The default mode calls emit itself: not a test per URL more.
 */
static int
emit_bare(struct msg *m, const char *s, size_t start, size_t end,
    unsigned long long rs, unsigned long long re)
{
	const char *url = s + start;
	size_t n = end - start;
	int r;

	if (!detector->bare_hit)
		return emit(m, url, n, rs, re);
	bare_url.len = 0;
	uk_buf_add(&bare_url, "https://", 8);
	if (n > 2 && url[0] == '/')
		uk_buf_add(&bare_url, url + 2, n - 2);
	else
		uk_buf_add(&bare_url, url, n);
	cur_bare = 1;
	r = emit(m, bare_url.buf, bare_url.len, rs, re);
	cur_bare = 0;
	return r;
}

/* Text mode: the window, and newline accounting for -L. */
struct text {
	struct msg m;
	const char *win;
	unsigned long long nl_upto; /* newlines counted up to here */
};

/* Count messages (lines, for -L) up to the absolute offset pos. */
static void
advance(struct text *t, unsigned long long pos)
{
	const char *p, *end;

	if (!opt.lines || pos <= t->nl_upto)
		return;
	p = t->win + (t->nl_upto - t->m.abs);
	end = t->win + (pos - t->m.abs);
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		p++;
		t->m.no++;
		t->m.base = t->m.abs + (unsigned long long)(p - t->win);
		t->m.count = 0;
		seen_reset(&t->m.seen);
	}
	t->nl_upto = pos;
}

static int
text_found(void *ctx, const char *s, size_t start, size_t end)
{
	struct text *t = ctx;
	unsigned long long a = t->m.abs + start;

	advance(t, a);
	return emit(&t->m, s + start, end - start, a - t->m.base,
	    t->m.abs + end - t->m.base);
}

static int
text_found_bare(void *ctx, const char *s, size_t start, size_t end)
{
	struct text *t = ctx;
	unsigned long long a = t->m.abs + start;

	advance(t, a);
	return emit_bare(&t->m, s, start, end, a - t->m.base,
	    t->m.abs + end - t->m.base);
}

/* Scan one input stream as text; returns -1 on a fatal read error. */
static int
scan_text(struct uk_jsonl_in *in, struct text *t)
{
	struct uk_detect d;
	struct uk_err err;
	size_t cap = WINDOW + UK_DETECT_MAX_URL + 2 * UK_DETECT_LOOKBACK;
	char *win = uk_xmalloc(cap);
	size_t len = 0, from = 0, done, keep;
	long n;
	int final = 0;

	uk_detect_init(&d);
	if (opt.bare)
		uk_detect_bare(&d);
	detector = &d;
	t->win = win;
	while (!final) {
		n = uk_jsonl_read(in, win + len, cap - len, &err);
		if (n < 0) {
			uk_warn("%s", err.msg);
			free(win);
			return -1;
		}
		final = n == 0;
		len += (size_t)n;
		done = uk_detect_scan(&d, win, from, len, final,
		    opt.bare ? text_found_bare : text_found, t);
		if (done == (size_t)-1)
			break;
		out_flush();
		if (final)
			break;
		/* Keep the unfinished tail and some context before it. */
		keep = done > UK_DETECT_LOOKBACK ? done - UK_DETECT_LOOKBACK : 0;
		advance(t, t->m.abs + keep);
		memmove(win, win + keep, len - keep);
		t->m.abs += keep;
		len -= keep;
		from = done - keep;
	}
	if (d.toolong)
		uk_warn("%s: skipped %lu URL%s longer than %d bytes",
		    uk_jsonl_name(in), d.toolong, d.toolong == 1 ? "" : "s",
		    UK_DETECT_MAX_URL);
	detector = NULL;
	free(win);
	return 0;
}

static int
scan_found(void *ctx, const char *s, size_t start, size_t end)
{
	return emit(ctx, s + start, end - start, start, end);
}

static int
scan_found_bare(void *ctx, const char *s, size_t start, size_t end)
{
	return emit_bare(ctx, s, start, end, start, end);
}

/*
 * How records are read (lib/jsonl): bad lines become error records; those
 * that arrive failed pass through, unless the output is URLs (-u) or
 * nothing (-q).
 */
static void
policy_init(struct uk_jsonl_policy *p, int flags, const char *require)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags | (opt.urls || opt.quiet ? UK_JSONL_DROP_PASS : 0);
	p->require = require;
	p->out = &out;
}

/* --json: the message is a field of each record. */
static int
scan_records(struct uk_jsonl_in *in)
{
	struct uk_jsonl_policy p;
	struct uk_detect d;
	struct uk_err err;
	struct msg m;
	yajl_val rec;
	const char *text;
	size_t len;
	int r;

	memset(&m, 0, sizeof(m));
	policy_init(&p, 0, opt.field);
	while ((r = uk_jsonl_take(in, &p, &rec, &err)) > 0) {
		text = uk_json_get_strn(rec, opt.field, &len);
		m.no = in->lineno;
		m.count = 0;
		m.id = uk_json_get(rec, "id");
		if (!m.id)
			m.id = uk_json_int((long long)in->lineno);
		id_of = NULL; /* a new id, perhaps at the last one's address */
		seen_reset(&m.seen);
		uk_detect_init(&d);
		if (opt.bare)
			uk_detect_bare(&d);
		detector = &d;
		/* All of it: a NUL ends a URL, not the message. */
		r = uk_detect_scan(&d, text, 0, len, 1,
		    opt.bare ? scan_found_bare : scan_found, &m) == (size_t)-1;
		detector = NULL;
		if (!uk_json_get(rec, "id"))
			uk_json_free(m.id);
		uk_json_free(rec);
		out_flush();
		if (r)
			break;
	}
	uk_strset_release(&m.seen);
	if (r < 0) {
		uk_warn("%s", err.msg);
		return -1;
	}
	return 0;
}

/*
 * A record refused by lib/jsonl's source (its URL holds NUL: classified,
 * the URL would be what comes before): said, and written with its error.
 */
static void
classify_refused(const struct uk_jsonl_src *src, yajl_val rec, const char *msg)
{
	uk_warn("%s:%lu: '%s': %s",
	    strcmp(src->name, "-") ? src->name : "<stdin>", src->lineno,
	    uk_json_get_str(rec, "url"), msg);
	uk_status_set(UK_EXIT_FAIL);
	if (!opt.urls && !opt.quiet)
		uk_jsonl_out_record(&out, rec);
}

/*
 * --classify: the url records or bare URLs of the file at path classified
 * again.  Returns 1 when -q found one, -1 on a read error, else 0.
 */
static int
classify_file(const char *path)
{
	struct uk_jsonl_policy p;
	struct uk_jsonl_src src;
	struct uk_err err;
	struct uk_url u;
	yajl_val rec;
	const char *url;
	int r;

	policy_init(&p, UK_JSONL_BARE_URL, "url");
	uk_jsonl_src_init(&src, &p);
	uk_jsonl_src_add(&src, path, UK_JSONL_SRC_FILE);
	while ((r = uk_jsonl_src_next(&src, &rec, &err)) != 0) {
		if (r < 0) {
			uk_warn("%s", err.msg);
			if (err.code == UK_EXIT_FATAL)
				break;
			uk_status_set(UK_EXIT_FAIL);
			continue;
		}
		if (r == UK_JSONL_SRC_REFUSED) {
			classify_refused(&src, rec, err.msg);
			uk_json_free(rec);
			continue;
		}
		url = uk_json_get_str(rec, "url");
		uk_url_classify(url, &u);
		if (opt.type < 0 || (int)u.type == opt.type) {
			found = 1;
			if (opt.quiet) {
				uk_url_release(&u);
				uk_json_free(rec);
				r = 1;
				break;
			}
			if (opt.urls) {
				uk_jsonl_out_raw(&out, url, strlen(url));
				uk_jsonl_out_raw(&out, "\n", 1);
				out_flush();
			} else {
				uk_url_to_record(&u, rec);
				if (cur_file)
					uk_json_set_str(rec, "file", cur_file);
				uk_jsonl_out_record(&out, rec);
			}
		}
		uk_url_release(&u);
		uk_json_free(rec);
	}
	uk_jsonl_src_release(&src);
	return r;
}

/* The name -H gives a file: as given, "-" as grep(1) names it. */
static const char *
file_label(const char *path)
{
	return strcmp(path, "-") ? path : "(standard input)";
}

/*
 * Scan the file at path, the i-th operand (0 for standard input), as the
 * options say.  Returns what the scan returned (-1: fatal), or 0 when the
 * file cannot be opened (said, and exit status 1).
 */
static int
scan_file(const char *path, int i, struct text *t)
{
	struct uk_jsonl_in in;
	struct uk_err err;
	int r;

	if (opt.classify) {
		cur_file = opt.with_filename ? file_label(path) : NULL;
		file_of = NULL;
		return classify_file(path);
	}
	if (uk_jsonl_open(&in, path, &err)) {
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
		return 0;
	}
	cur_file = opt.with_filename ? file_label(in.name) : NULL;
	file_of = NULL;
	if (opt.field) {
		r = scan_records(&in);
	} else {
		/* Each file is a message of its own; with -L, lines are
		 * numbered within the file. */
		t->m.no = opt.lines ? 1 : (unsigned long)i + 1;
		t->m.count = 0;
		seen_reset(&t->m.seen);
		t->m.abs = t->m.base = t->nl_upto = 0;
		r = scan_text(&in, t);
	}
	uk_jsonl_close(&in);
	return r;
}

int
main(int argc, char **argv)
{
	enum { OPT_BARE = UK_OPT_FIRST, OPT_CLASSIFY, OPT_JSON,
		OPT_NO_FILENAME };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "bare", no_argument, NULL, OPT_BARE },
		{ "classify", no_argument, NULL, OPT_CLASSIFY },
		{ "with-filename", no_argument, NULL, 'H' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "lines", no_argument, NULL, 'L' },
		{ "max-per-message", required_argument, NULL, 'm' },
		{ "max", required_argument, NULL, 'm' }, /* its old name */
		{ "no-filename", no_argument, NULL, OPT_NO_FILENAME },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "type", required_argument, NULL, 'y' },
		{ "urls", no_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct text t;
	const char *e;
	int c, i, r = 0;

	uk_prog_set(argv[0]);
	uk_cli_check_stdio();
	reference = (e = getenv("UK_URLDETECT_REFERENCE")) && *e;
	while ((c = uk_cli_getopt(&cli, argc, argv, "aHhLm:o:quVy:",
		    longopts)) != -1) {
		switch (c) {
		case 'a':
			opt.all = 1;
			break;
		case OPT_BARE:
			opt.bare = 1;
			break;
		case OPT_CLASSIFY:
			opt.classify = 1;
			break;
		case 'H':
			opt.with_filename = 1;
			break;
		case OPT_NO_FILENAME:
			opt.with_filename = 0;
			break;
		case OPT_JSON:
			opt.field = optarg;
			break;
		case 'L':
			opt.lines = 1;
			break;
		case 'm':
			if (uk_parse_long(optarg, 0, 1000000000L, &opt.max))
				uk_cli_usage(&cli, "-m: not a count: '%s'",
				    optarg);
			break;
		case 'o':
			if (!*optarg)
				uk_cli_usage(&cli, "-o: an empty file name");
			opt.output = optarg;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'y':
			if ((opt.type = uk_url_type_parse(optarg)) < 0)
				uk_cli_usage(&cli, "-y: unknown type '%s'",
				    optarg);
			break;
		case 'u':
			opt.urls = 1;
			break;
		default:
			uk_cli_usage(&cli, NULL);
		}
	}
	if ((opt.field != NULL) + opt.classify + opt.lines > 1)
		uk_cli_usage(&cli, "--classify, --json and -L do not go together");
	argc -= optind;
	argv += optind;
	/* As grep: file names when several files are given, unless told. */
	if (opt.with_filename < 0)
		opt.with_filename = argc > 1;
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&cli, "-o: cannot open '%s': %s", opt.output,
		    strerror(errno));

	/* Records go out after each chunk of input is scanned, not each URL:
	 * a large buffer in between saves a write per URL. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	uk_jsonl_out_init(&out, stdout);
	out.batch = 1;
	memset(&t, 0, sizeof(t));
	t.m.no = 1;
	for (i = 0; i < (argc ? argc : 1); i++) {
		r = scan_file(argc ? argv[i] : "-", i, &t);
		if (r < 0)
			uk_status_set(UK_EXIT_FATAL);
		if (r || (opt.quiet && found))
			break;
	}
	out_flush();
	uk_strset_release(&t.m.seen);
	uk_buf_release(&rbuf);
	uk_buf_release(&bare_url);
	uk_buf_release(&id_json);
	uk_buf_release(&file_json);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	if (opt.quiet && uk_status < UK_EXIT_USAGE)
		return found ? UK_EXIT_OK : UK_EXIT_FAIL;
	/* As grep: 1 when no URL was found (or none of -y's type). */
	if (!found && uk_status < UK_EXIT_FAIL)
		return UK_EXIT_FAIL;
	return uk_status;
}
