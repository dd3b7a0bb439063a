/* SPDX-License-Identifier: MIT */
/* Sitemaps: XML (expat, as a stream), gzip (zlib), and plain text. */
#include <expat.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "buf.h"
#include "sitemap.h"
#include "util.h"
#include "banned.h"

#define NS_SEP '\n' /* between a namespace and a local name: never in a URI */
#define CHUNK (64UL << 10)

int
uk_sitemap_is_gzip(const char *data, size_t len)
{
	return len >= 2 && (unsigned char)data[0] == 0x1f &&
	    (unsigned char)data[1] == 0x8b;
}

static int
xml_error(XML_Parser p, const char *what, struct uk_err *err)
{
	return uk_util_err_set(err, UK_EXIT_FAIL,
	    "%s: not well-formed XML at line %lu: %s", what,
	    (unsigned long)XML_GetCurrentLineNumber(p),
	    XML_ErrorString(XML_GetErrorCode(p)));
}

/* One piece into the parser: 0, 1 when the handlers stopped it, -1. */
static int
xml_piece(XML_Parser p, const char *s, size_t n, int last, const char *what,
    struct uk_err *err)
{
	XML_ParsingStatus st;

	if (XML_Parse(p, s, (int)n, last) != XML_STATUS_ERROR)
		return 0;
	XML_GetParsingStatus(p, &st);
	if (XML_GetErrorCode(p) == XML_ERROR_ABORTED)
		return 1;
	return xml_error(p, what, err);
}

int
uk_sitemap_feed_xml(void *parser, const char *data, size_t len,
    unsigned long long max, const char *what, struct uk_err *err)
{
	XML_Parser p = parser;
	unsigned long long total = 0;
	unsigned char *out = NULL;
	z_stream z;
	int r, zr, ret = -1;
	size_t off, n;

	if (!uk_sitemap_is_gzip(data, len)) {
		if (max && len > max)
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s: over %llu bytes", what, max);
		for (off = 0; off < len; off += n) {
			n = len - off < CHUNK ? len - off : CHUNK;
			if ((r = xml_piece(p, data + off, n, 0, what, err)))
				return r > 0 ? 0 : -1;
		}
		r = xml_piece(p, "", 0, 1, what, err);
		return r > 0 ? 0 : r;
	}
	/* gzip: inflated a piece at a time, so a bomb stops at max. */
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "%s: zlib cannot start", what);
	out = uk_util_xmalloc(CHUNK);
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = CHUNK;
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s: bad gzip data%s%s", what, z.msg ? ": " : "",
			    z.msg ? z.msg : "");
			goto out;
		}
		n = CHUNK - z.avail_out;
		total += n;
		if (max && total > max) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s: over %llu bytes uncompressed", what, max);
			goto out;
		}
		if ((r = xml_piece(p, (char *)out, n, 0, what, err))) {
			ret = r > 0 ? 0 : -1;
			goto out;
		}
		if (zr == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s: gzip data cut short", what);
			goto out;
		}
	} while (zr != Z_STREAM_END);
	r = xml_piece(p, "", 0, 1, what, err);
	ret = r > 0 ? 0 : r;
out:
	inflateEnd(&z);
	free(out);
	return ret;
}

/* The parse of one sitemap. */
struct sm {
	XML_Parser p;
	uk_sitemap_fn *fn;
	void *ctx;
	int depth;
	int root;   /* 0: not seen, 1: urlset, 2: sitemapindex, -1: other */
	int entry;  /* inside an entry (depth 2) */
	int field;  /* 1: loc, 2: lastmod being read (depth 3) */
	int toolong;
	struct uk_buf loc, lastmod;
	struct uk_buf ns; /* the root's namespace URI */
	int stopped;
};

int
uk_sitemap_parse_xml(const char *data, size_t len, unsigned long long max,
    const char *what, XML_StartElementHandler start, XML_EndElementHandler end,
    XML_CharacterDataHandler text, void *ud, XML_Parser *pp,
    struct uk_err *err)
{
	int r;

	if (!(*pp = XML_ParserCreateNS(NULL, NS_SEP)))
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	XML_SetUserData(*pp, ud);
	XML_SetElementHandler(*pp, start, end);
	XML_SetCharacterDataHandler(*pp, text);
	r = uk_sitemap_feed_xml(*pp, data, len, max, what, err);
	XML_ParserFree(*pp);
	*pp = NULL;
	return r;
}

const char *
uk_sitemap_local(const char *name)
{
	const char *s = strrchr(name, NS_SEP);

	return s ? s + 1 : name;
}

/* Whether name is in namespace ns (the part before the separator). */
static int
same_ns(const char *name, const struct uk_buf *ns)
{
	const char *sep = strrchr(name, NS_SEP);
	size_t n = sep ? (size_t)(sep - name) : 0;

	return n == ns->len && memcmp(name, ns->buf, n) == 0;
}

static void XMLCALL
sm_start(void *arg, const XML_Char *name, const XML_Char **atts)
{
	struct sm *s = arg;
	const char *l = uk_sitemap_local(name), *sep;

	(void)atts;
	s->depth++;
	if (s->depth == 1) {
		s->root = strcmp(l, "urlset") == 0 ? 1 :
		    strcmp(l, "sitemapindex") == 0 ? 2 : -1;
		if (s->root < 0)
			XML_StopParser(s->p, XML_FALSE);
		if ((sep = strrchr(name, NS_SEP)))
			uk_buf_add(&s->ns, name, (size_t)(sep - name));
	} else if (s->depth == 2) {
		s->entry = strcmp(l, s->root == 1 ? "url" : "sitemap") == 0;
		s->loc.len = s->lastmod.len = 0;
		s->toolong = 0;
	} else if (s->depth == 3 && s->entry && same_ns(name, &s->ns)) {
		/* Only the root's namespace: not a nested image:loc. */
		s->field = strcmp(l, "loc") == 0 ? 1 :
		    strcmp(l, "lastmod") == 0 ? 2 : 0;
	}
}

static void XMLCALL
sm_end(void *arg, const XML_Char *name)
{
	struct sm *s = arg;

	(void)name;
	if (s->depth == 3)
		s->field = 0;
	if (s->depth == 2 && s->entry) {
		uk_buf_trim(&s->loc);
		uk_buf_trim(&s->lastmod);
		if (s->loc.len && !s->toolong &&
		    s->fn(s->ctx, s->root == 2, s->loc.buf,
		    s->lastmod.len ? s->lastmod.buf : NULL)) {
			s->stopped = 1;
			XML_StopParser(s->p, XML_FALSE);
		}
		s->entry = 0;
	}
	s->depth--;
}

static void XMLCALL
sm_text(void *arg, const XML_Char *t, int n)
{
	struct sm *s = arg;
	struct uk_buf *b;

	if (!s->field || s->depth != 3)
		return;
	b = s->field == 1 ? &s->loc : &s->lastmod;
	if (b->len + (size_t)n > UK_SITEMAP_FIELD_MAX) {
		s->toolong = 1;
		return;
	}
	uk_buf_add(b, t, (size_t)n);
}

/* The text form: one URL a line, blank lines skipped. */
static int
text_parse(const char *data, size_t len, uk_sitemap_fn *fn, void *ctx)
{
	const char *p = data, *end = data + len, *eol, *a, *b;
	char *line;
	int stop;

	for (; p < end; p = eol + 1) {
		if (!(eol = memchr(p, '\n', (size_t)(end - p))))
			eol = end;
		for (a = p; a < eol && (*a == ' ' || *a == '\t'); a++)
			;
		for (b = eol; b > a && (b[-1] == ' ' || b[-1] == '\t' ||
		    b[-1] == '\r'); b--)
			;
		if (b == a || (size_t)(b - a) > UK_SITEMAP_FIELD_MAX)
			continue;
		line = uk_util_xmemdup(a, (size_t)(b - a));
		stop = fn(ctx, 0, line, NULL);
		free(line);
		if (stop)
			break;
	}
	return 0;
}

int
uk_sitemap_parse(const char *data, size_t len, int flags,
    unsigned long long max, uk_sitemap_fn *fn, void *ctx, struct uk_err *err)
{
	struct sm s;
	size_t i = 0;
	int r;

	if (!uk_sitemap_is_gzip(data, len)) {
		if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0)
			i = 3;
		while (i < len && (data[i] == ' ' || data[i] == '\t' ||
		    data[i] == '\n' || data[i] == '\r'))
			i++;
		if (i == len || data[i] != '<') {
			if (!(flags & UK_SITEMAP_TEXT))
				return 1;
			if (max && len > max)
				return uk_util_err_set(err, UK_EXIT_FAIL,
				    "sitemap: over %llu bytes", max);
			return text_parse(data, len, fn, ctx);
		}
	}
	memset(&s, 0, sizeof(s));
	uk_buf_init(&s.loc, 0);
	uk_buf_init(&s.lastmod, 0);
	uk_buf_init(&s.ns, 0);
	s.fn = fn;
	s.ctx = ctx;
	r = uk_sitemap_parse_xml(data, len, max, "sitemap", sm_start, sm_end,
	    sm_text, &s, &s.p, err);
	uk_buf_release(&s.loc);
	uk_buf_release(&s.lastmod);
	uk_buf_release(&s.ns);
	if (r < 0)
		return -1;
	if (s.root <= 0)
		return s.root < 0 ? 1 :
				    uk_util_err_set(err, UK_EXIT_FAIL,
					"sitemap: no root element");
	return 0;
}
