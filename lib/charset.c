/* SPDX-License-Identifier: MIT */
/* Charset detection and conversion to UTF-8 (see charset.h). */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "charset.h"
#include "util.h"

/* Labels that browsers read as another charset. */
static const struct {
	const char *label, *name;
} aliases[] = {
	{ "utf8", "utf-8" },
	{ "unicode-1-1-utf-8", "utf-8" },
	{ "x-unicode20utf8", "utf-8" },
	{ "iso-8859-1", "windows-1252" },
	{ "iso8859-1", "windows-1252" },
	{ "iso_8859-1", "windows-1252" },
	{ "iso88591", "windows-1252" },
	{ "iso-ir-100", "windows-1252" },
	{ "l1", "windows-1252" },
	{ "latin1", "windows-1252" },
	{ "latin-1", "windows-1252" },
	{ "cp819", "windows-1252" },
	{ "ibm819", "windows-1252" },
	{ "csisolatin1", "windows-1252" },
	{ "ascii", "windows-1252" },
	{ "us-ascii", "windows-1252" },
	{ "ansi_x3.4-1968", "windows-1252" },
	{ "cp1252", "windows-1252" },
	{ "x-cp1252", "windows-1252" },
	{ "iso-8859-9", "windows-1254" },
	{ "latin5", "windows-1254" },
	{ "iso-8859-11", "windows-874" },
	{ "tis-620", "windows-874" },
	{ "gb2312", "gbk" },
	{ "x-gbk", "gbk" },
	{ "x-sjis", "shift_jis" },
	{ "sjis", "shift_jis" },
	{ "ms_kanji", "shift_jis" },
	{ "windows-31j", "shift_jis" },
	{ "ks_c_5601-1987", "euc-kr" },
	{ "x-user-defined", "windows-1252" },
	/* More of WHATWG's labels, onto the names iconv knows. */
	{ "unicode11utf8", "utf-8" },
	{ "866", "ibm866" },
	{ "cp866", "ibm866" },
	{ "csibm866", "ibm866" },
	{ "latin2", "iso-8859-2" },
	{ "l2", "iso-8859-2" },
	{ "csisolatin2", "iso-8859-2" },
	{ "latin3", "iso-8859-3" },
	{ "l3", "iso-8859-3" },
	{ "latin4", "iso-8859-4" },
	{ "l4", "iso-8859-4" },
	{ "cyrillic", "iso-8859-5" },
	{ "arabic", "iso-8859-6" },
	{ "greek", "iso-8859-7" },
	{ "greek8", "iso-8859-7" },
	{ "hebrew", "iso-8859-8" },
	{ "visual", "iso-8859-8" },
	{ "logical", "iso-8859-8" },
	{ "iso-8859-8-i", "iso-8859-8" },
	{ "latin6", "iso-8859-10" },
	{ "l6", "iso-8859-10" },
	{ "l9", "iso-8859-15" },
	{ "koi", "koi8-r" },
	{ "koi8", "koi8-r" },
	{ "koi8_r", "koi8-r" },
	{ "cskoi8r", "koi8-r" },
	{ "koi8-ru", "koi8-u" },
	{ "csmacintosh", "macintosh" },
	{ "mac", "macintosh" },
	{ "x-mac-roman", "macintosh" },
	{ "x-mac-ukrainian", "x-mac-cyrillic" },
	{ "dos-874", "windows-874" },
	{ "chinese", "gbk" },
	{ "csgb2312", "gbk" },
	{ "gb_2312", "gbk" },
	{ "gb_2312-80", "gbk" },
	{ "iso-ir-58", "gbk" },
	{ "big5-hkscs", "big5" },
	{ "cn-big5", "big5" },
	{ "csbig5", "big5" },
	{ "x-x-big5", "big5" },
	{ "cseucpkdfmtjapanese", "euc-jp" },
	{ "x-euc-jp", "euc-jp" },
	{ "csiso2022jp", "iso-2022-jp" },
	{ "csshiftjis", "shift_jis" },
	{ "ms932", "shift_jis" },
	{ "shift-jis", "shift_jis" },
	{ "cseuckr", "euc-kr" },
	{ "korean", "euc-kr" },
	{ "ksc5601", "euc-kr" },
	{ "ksc_5601", "euc-kr" },
	{ "windows-949", "euc-kr" },
	{ "iso-ir-149", "euc-kr" },
	{ "csksc56011987", "euc-kr" },
	{ "ks_c_5601-1989", "euc-kr" },
	{ "unicodefffe", "utf-16be" },
	{ "utf-16", "utf-16le" },
	{ "ucs-2", "utf-16le" },
	{ "unicode", "utf-16le" },
	{ "csunicode", "utf-16le" },
	{ "iso-10646-ucs-2", "utf-16le" },
	{ "unicodefeff", "utf-16le" },
};

/*
 * The encodings of WHATWG's Encoding Standard (by the names iconv knows),
 * the only ones a browser reads HTML in: a page labelled with anything
 * else (utf-32, IBM037, utf-7, ...) is read as a browser would read it,
 * which is never by that label.
 */
static const char *const whatwg[] = {
	"utf-8", "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4",
	"iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-10",
	"iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r",
	"koi8-u", "macintosh", "windows-874", "windows-1250", "windows-1251",
	"windows-1252", "windows-1253", "windows-1254", "windows-1255",
	"windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
	"gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis",
	"euc-kr", "utf-16be", "utf-16le",
};

static int
is_whatwg(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(whatwg) / sizeof(whatwg[0]); i++)
		if (!strcmp(name, whatwg[i]))
			return 1;
	return 0;
}

/* The label lower-cased, with the aliases above applied; or NULL. */
static char *
label_lower(const char *label, size_t len, char *out, size_t size)
{
	size_t i, n = 0;

	while (len && isspace((unsigned char)*label)) {
		label++;
		len--;
	}
	while (len &&
	    (isspace((unsigned char)label[len - 1]) || label[len - 1] == '"' ||
		label[len - 1] == '\''))
		len--;
	if (!len || len >= size || size < 2)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)label[i];

		if (!isalnum(c) && c != '-' && c != '_' && c != '.' && c != ':')
			return NULL;
		out[n++] = (char)tolower(c);
	}
	out[n] = '\0';
	/* iso8859-N, iso_8859-N, iso88592 ... as iso-8859-N. */
	if (!strncmp(out, "iso8859", 7) || !strncmp(out, "iso_8859", 8)) {
		const char *d = out + (out[3] == '_' ? 8 : 7);
		char tmp[64];

		if (*d == '-' || *d == '_')
			d++;
		if (*d && strlen(d) < 4) {
			snprintf(tmp, sizeof(tmp), "iso-8859-%s", d);
			if (strlen(tmp) < size)
				memcpy(out, tmp, strlen(tmp) + 1);
		}
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(out, aliases[i].label)) {
			size_t l = strlen(aliases[i].name);

			memcpy(out, aliases[i].name, l + 1);
			break;
		}
	return out;
}

char *
uk_charset_normalize(const char *label, size_t len, char *out, size_t size)
{
	if (!label_lower(label, len, out, size))
		return NULL;
	return is_whatwg(out) ? out : NULL;
}

/* Find "charset" then '=' then a value in s[0..len); normalise it. */
static char *
charset_param(const char *s, size_t len, char *out, size_t size, int any)
{
	const char *p = s, *end = s + len, *v;

	while (p + 7 <= end) {
		if (strncasecmp(p, "charset", 7)) {
			p++;
			continue;
		}
		p += 7;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end || *p != '=')
			continue;
		p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p < end && (*p == '"' || *p == '\''))
			p++;
		v = p;
		while (p < end && *p != '"' && *p != '\'' && *p != ';' &&
		    *p != '>' && *p != '/' && !isspace((unsigned char)*p))
			p++;
		if (any)
			return label_lower(v, (size_t)(p - v), out, size);
		return uk_charset_normalize(v, (size_t)(p - v), out, size);
	}
	return NULL;
}

char *
uk_charset_from_content_type(const char *ct, char *out, size_t size)
{
	if (!ct)
		return NULL;
	return charset_param(ct, strlen(ct), out, size, 0);
}

/* A <meta> carrying a charset in the first 1024 bytes. */
static char *
meta_charset(const char *html, size_t len, char *out, size_t size, int any)
{
	const char *p = html, *end, *tag_end;

	if (len > 1024)
		len = 1024;
	end = html + len;
	while (p + 5 < end) {
		if (p[0] != '<') {
			p++;
			continue;
		}
		if (p + 4 <= end && !strncmp(p, "<!--", 4)) {
			const char *c =
			    memmem(p + 4, (size_t)(end - p - 4), "-->", 3);

			if (!c)
				return NULL;
			p = c + 3;
			continue;
		}
		if (strncasecmp(p, "<meta", 5) ||
		    (p + 5 < end && !isspace((unsigned char)p[5]) &&
			p[5] != '/')) {
			p++;
			continue;
		}
		tag_end = memchr(p, '>', (size_t)(end - p));
		if (!tag_end)
			tag_end = end;
		if (charset_param(p, (size_t)(tag_end - p), out, size, any)) {
			/* An HTML page cannot really be UTF-16 once a meta
			 * says so. */
			if (!any && !strncmp(out, "utf-16", 6))
				memcpy(out, "utf-8", 6);
			return out;
		}
		p = tag_end;
	}
	return NULL;
}

const char *
uk_charset_detect(const char *html, size_t len, const char *content_type,
    char *out, size_t size, size_t *bom)
{
	const unsigned char *u = (const unsigned char *)html;
	const char *b = NULL;

	*bom = 0;
	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		b = "utf-8";
		*bom = 3;
	} else if (len >= 2 && u[0] == 0xfe && u[1] == 0xff) {
		b = "utf-16be";
		*bom = 2;
	} else if (len >= 2 && u[0] == 0xff && u[1] == 0xfe) {
		b = "utf-16le";
		*bom = 2;
	}
	if (uk_charset_from_content_type(content_type, out, size))
		return out;
	if (b && strlen(b) < size) {
		memcpy(out, b, strlen(b) + 1);
		return out;
	}
	if (meta_charset(html, len, out, size, 0))
		return out;
	if (size > 5)
		memcpy(out, "utf-8", 6);
	return out;
}

char *
uk_charset_ignored(const char *html, size_t len, const char *content_type,
    char *out, size_t size)
{
	if (content_type &&
	    charset_param(content_type, strlen(content_type), out, size, 1) &&
	    !is_whatwg(out))
		return out;
	if (meta_charset(html, len, out, size, 1) && !is_whatwg(out))
		return out;
	return NULL;
}

static int
is_utf8(const char *cs)
{
	return !strcasecmp(cs, "utf-8") || !strcasecmp(cs, "utf8");
}

int
uk_charset_to_utf8(const char *in, size_t len, const char *charset,
    struct uk_buf *out, struct uk_err *err)
{
	iconv_t cd;
	char *ip = (char *)in, *op;
	size_t il = len, ol, r;
	const unsigned char *u = (const unsigned char *)in;
	size_t start = out->len;

	if (len >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf &&
	    is_utf8(charset)) {
		ip += 3;
		il -= 3;
	}
	if (is_utf8(charset)) {
		uk_buf_add_utf8(out, ip, il);
		return 0;
	}
	cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "unknown charset '%s'", charset);
	while (il) {
		uk_buf_grow(out, il * 2 + 16);
		op = out->buf + out->len;
		ol = out->alloc - out->len - 1;
		r = iconv(cd, &ip, &il, &op, &ol);
		uk_buf_setlen(out, (size_t)(op - out->buf));
		if (r != (size_t)-1)
			break;
		if (errno == E2BIG)
			continue;
		/* EILSEQ or EINVAL: one byte becomes U+FFFD. */
		uk_buf_add(out, "\xef\xbf\xbd", 3);
		ip++;
		il--;
		if (errno == EINVAL && !il)
			break;
	}
	iconv_close(cd);
	/* Drop a BOM iconv may have passed through as U+FEFF. */
	if (out->len >= start + 3 &&
	    !memcmp(out->buf + start, "\xef\xbb\xbf", 3))
		uk_buf_remove(out, start, 3);
	return 0;
}
