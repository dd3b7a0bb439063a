/* SPDX-License-Identifier: MIT */
/*
 * Reference resolution (see urlref.h), written out by hand: extraction
 * runs in urlfetch's front, which links neither libcurl (whose curl_url
 * resolves as well) nor anything else with a URL parser, so that the
 * start-up of an --extract stays cheap.  The algorithm is RFC 3986's
 * 5.2.2 with remove_dot_segments (5.2.4).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "urlref.h"
#include "util.h"

#include "banned.h"

/* A reference split into its five parts; a part absent has p == NULL. */
struct part {
	const char *p;
	size_t n;
};

struct ref {
	struct part scheme, auth, path, query, frag;
};

static void
split(const char *s, size_t len, struct ref *r)
{
	const char *e = s + len, *q;

	memset(r, 0, sizeof(*r));
	/* scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
	if (len && isalpha((unsigned char)*s)) {
		for (q = s + 1; q < e && (isalnum((unsigned char)*q) ||
		    *q == '+' || *q == '-' || *q == '.'); q++)
			;
		if (q < e && *q == ':') {
			r->scheme.p = s;
			r->scheme.n = (size_t)(q - s);
			s = q + 1;
		}
	}
	if (e - s >= 2 && s[0] == '/' && s[1] == '/') {
		for (q = s + 2; q < e && *q != '/' && *q != '?' && *q != '#';
		     q++)
			;
		r->auth.p = s + 2;
		r->auth.n = (size_t)(q - s - 2);
		s = q;
	}
	for (q = s; q < e && *q != '?' && *q != '#'; q++)
		;
	r->path.p = s;
	r->path.n = (size_t)(q - s);
	s = q;
	if (s < e && *s == '?') {
		for (q = s + 1; q < e && *q != '#'; q++)
			;
		r->query.p = s + 1;
		r->query.n = (size_t)(q - s - 1);
		s = q;
	}
	if (s < e && *s == '#') {
		r->frag.p = s + 1;
		r->frag.n = (size_t)(e - s - 1);
	}
}

/* RFC 3986 5.2.4: in[0..n) without its "." and ".." segments, to out. */
static void
remove_dots(const char *in, size_t n, struct uk_buf *out)
{
	const char *p = in, *e = in + n, *q;
	size_t start = out->len, seg;

	while (p < e) {
		if (e - p >= 3 && !strncmp(p, "../", 3))
			p += 3;
		else if (e - p >= 2 && !strncmp(p, "./", 2))
			p += 2;
		else if (e - p >= 3 && !strncmp(p, "/./", 3))
			p += 2;
		else if (e - p == 2 && !strncmp(p, "/.", 2)) {
			uk_buf_addch(out, '/');
			p = e;
		} else if ((e - p >= 4 && !strncmp(p, "/../", 4)) ||
		    (e - p == 3 && !strncmp(p, "/..", 3))) {
			/* Drop the last segment written, and its '/'. */
			for (seg = out->len; seg > start && out->buf[seg - 1] != '/';
			     seg--)
				;
			uk_buf_setlen(out, seg > start ? seg - 1 : start);
			if (e - p == 3) {
				uk_buf_addch(out, '/');
				p = e;
			} else
				p += 3;
		} else if ((e - p == 1 && *p == '.') ||
		    (e - p == 2 && !strncmp(p, "..", 2)))
			p = e;
		else {
			for (q = p + 1; q < e && *q != '/'; q++)
				;
			uk_buf_add(out, p, (size_t)(q - p));
			p = q;
		}
	}
}

static void
add_part(struct uk_buf *b, const char *lead, const struct part *pt)
{
	if (!pt->p)
		return;
	uk_buf_addstr(b, lead);
	uk_buf_add(b, pt->p, pt->n);
}

/* Percent-encode what may not stand in a URL written into text. */
static char *
encode(const char *s, size_t n)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t i;

	uk_buf_init(&b, n + 1);
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= 0x20 || ch == 0x7f || ch == '<' || ch == '>' ||
		    ch == '"')
			uk_buf_addf(&b, "%%%02X", ch);
		else
			uk_buf_addch(&b, ch);
	}
	return uk_buf_detach(&b, NULL);
}

char *
uk_urlref_resolve(const char *base, const char *ref)
{
	struct uk_buf out = UK_BUF_INIT, merged = UK_BUF_INIT;
	struct ref b, r;
	const char *s = ref, *e;
	char *res;
	size_t k;

	if (!ref)
		return NULL;
	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e == s)
		return NULL;
	split(s, (size_t)(e - s), &r);
	if (base)
		split(base, strlen(base), &b);
	if (!base || !b.scheme.p || r.scheme.p)
		return encode(s, (size_t)(e - s));
	/* Scheme always from the base here (the reference has none). */
	uk_buf_add(&out, b.scheme.p, b.scheme.n);
	uk_buf_addch(&out, ':');
	if (r.auth.p) {
		add_part(&out, "//", &r.auth);
		remove_dots(r.path.p, r.path.n, &out);
		add_part(&out, "?", &r.query);
	} else {
		add_part(&out, "//", &b.auth);
		if (!r.path.n) {
			uk_buf_add(&out, b.path.p, b.path.n);
			add_part(&out, "?", r.query.p ? &r.query : &b.query);
		} else {
			if (r.path.p[0] == '/')
				uk_buf_add(&merged, r.path.p, r.path.n);
			else {
				/* 5.2.3: the base path to its last '/'. */
				if (b.auth.p && !b.path.n)
					uk_buf_addch(&merged, '/');
				for (k = b.path.n; k > 0 && b.path.p[k - 1] != '/';
				     k--)
					;
				uk_buf_add(&merged, b.path.p, k);
				uk_buf_add(&merged, r.path.p, r.path.n);
			}
			remove_dots(merged.buf, merged.len, &out);
			add_part(&out, "?", &r.query);
		}
	}
	add_part(&out, "#", &r.frag);
	res = encode(out.buf, out.len);
	uk_buf_release(&out);
	uk_buf_release(&merged);
	return res;
}
