/* SPDX-License-Identifier: MIT */
/*
 * urldetect's url records: written straight into a buffer for compact
 * output, built with yajl otherwise (urldetect.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "detect.h"
#include "json.h"
#include "jsonl.h"
#include "url.h"
#include "util.h"
#include "urldetect.h"
#include "banned.h"

/*
 * --bare: the URL written for one without a scheme: https:// and the
 * text without its "//".
 */
struct uk_buf bare_url = UK_BUF_INIT;

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
struct uk_buf rbuf = UK_BUF_INIT;
int reference;

/* Write the records collected in rbuf, then what stdio holds. */
void
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

/*
 * The eight decimal digits of v < 100000000, the first in the lowest
 * byte, each 0-9 (not yet ASCII): v split in two halves of four digits,
 * each half in two of two, each of those in two digits, several lanes of
 * one 64-bit word at a time, the divisions multiplications
 * (x * 10486 >> 20 is x / 100 below 10,000; x * 103 >> 10 is x / 10
 * below 100).  About a third of the instructions of two digits a step
 * (issue 40: the records' offsets have seven or eight digits).
 */
static inline uint64_t
digits8(uint32_t v)
{
	uint64_t m = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32, q;

	q = (m * 10486) >> 20 & 0x0000007f0000007fULL;
	m = q | (m - q * 100) << 16;
	q = (m * 103) >> 10 & 0x000f000f000f000fULL;
	return q | (m - q * 10) << 8;
}

/* Append v in decimal straight into place (8 bytes of room past it). */
static char *
put_num(char *q, unsigned long long v)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	char tmp[24], *e = tmp + sizeof(tmp);

	do
		*--e = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(q, e, (size_t)(tmp + sizeof(tmp) - e));
	return q + (tmp + sizeof(tmp) - e);
#else
	uint64_t d;
	size_t lead;

	if (v >= 100000000) {
		q = put_num(q, v / 100000000);
		d = digits8((uint32_t)(v % 100000000)) + 0x3030303030303030ULL;
		memcpy(q, &d, 8);
		return q + 8;
	}
	d = digits8((uint32_t)v);
	/* The leading zeros are the low bytes that are 0 ("0" keeps one). */
	lead = d ? (size_t)__builtin_ctzll(d) / 8 : 7;
	d = (d + 0x3030303030303030ULL) >> (8 * lead);
	memcpy(q, &d, 8);
	return q + 8 - lead;
#endif
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
struct uk_buf id_json = UK_BUF_INIT, file_json = UK_BUF_INIT;
yajl_val id_of;
const char *file_of;

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
int
emit(struct msg *m, const char *url, size_t n, unsigned long long start,
    unsigned long long end)
{
	struct uk_url_view v;
	uint64_t h;

	if (opt.max && m->count >= (unsigned long)opt.max)
		return 0;
	if (!opt.all && !opt.quiet && !opt.urls) {
		/*
		 * Records: the URL is classified before the set is searched,
		 * the search's table line fetched meanwhile (on 100,000
		 * distinct URLs the table is megabytes, and its read a cache
		 * miss a URL); a repeat's classification is wasted, 7% of the
		 * URLs of `scripts/bench detect`.
		 */
		h = uk_strset_hash(&m->seen, url, n);
		uk_url_view(url, n, reference ? UK_URL_VIEW_CURL : 0, &v);
		if (!uk_strset_add_hashed(&m->seen, url, n, h)) {
			uk_url_view_release(&v);
			return 0;
		}
		goto viewed;
	}
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
viewed:
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
int
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
