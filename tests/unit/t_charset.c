/* SPDX-License-Identifier: MIT */
/* Unit tests for lib/charset: detection order, labels, conversion. */
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "charset.h"
#include "tap.h"
#include "util.h"

static const char *
detect(const char *html, size_t len, const char *ct, size_t *bom)
{
	static char out[64];

	return uk_charset_detect(html, len, ct, out, sizeof(out), bom);
}

static int
conv_is(const char *in, size_t len, const char *cs, const char *want)
{
	struct uk_buf b = UK_BUF_INIT;
	int r = uk_charset_to_utf8(in, len, cs, &b, NULL) == 0 &&
	    b.len == strlen(want) && !memcmp(b.buf, want, b.len);

	uk_buf_release(&b);
	return r;
}

int
main(void)
{
	char out[64], big[2048];
	size_t bom;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err = { 0 };

	/* Labels. */
	ok(!strcmp(uk_charset_normalize("ISO-8859-1", 10, out, sizeof(out)),
	       "windows-1252"),
	    "iso-8859-1 reads as windows-1252");
	ok(!strcmp(uk_charset_normalize(" latin1 ", 8, out, sizeof(out)),
	       "windows-1252"),
	    "latin1 with spaces reads as windows-1252");
	ok(!strcmp(uk_charset_normalize("US-ASCII", 8, out, sizeof(out)),
	       "windows-1252"),
	    "us-ascii reads as windows-1252");
	ok(!strcmp(uk_charset_normalize("UTF8", 4, out, sizeof(out)), "utf-8"),
	    "utf8 is utf-8");
	ok(!strcmp(uk_charset_normalize("Shift_JIS", 9, out, sizeof(out)),
	       "shift_jis"),
	    "other labels are lower-cased");
	ok(!uk_charset_normalize("", 0, out, sizeof(out)), "empty label");
	ok(!uk_charset_normalize("a b;c", 5, out, sizeof(out)),
	    "label with odd characters refused");

	/* Content-Type. */
	ok(uk_charset_from_content_type("text/html; charset=ISO-8859-1", out,
	       sizeof(out)) &&
		!strcmp(out, "windows-1252"),
	    "charset from Content-Type");
	ok(uk_charset_from_content_type("text/html;charset=\"utf-8\"", out,
	       sizeof(out)) &&
		!strcmp(out, "utf-8"),
	    "quoted charset from Content-Type");
	ok(!uk_charset_from_content_type("text/html", out, sizeof(out)),
	    "Content-Type without charset");
	ok(!uk_charset_from_content_type(NULL, out, sizeof(out)),
	    "no Content-Type");

	/* Detection order. */
	ok(!strcmp(detect("<meta charset=utf-8>", 20,
		       "text/html; charset=latin1", &bom),
	       "windows-1252"),
	    "Content-Type wins over meta");
	ok(!strcmp(detect("\xef\xbb\xbf<meta charset=latin1>", 25, NULL, &bom),
	       "utf-8") &&
		bom == 3,
	    "BOM wins over meta");
	ok(!strcmp(detect("\xff\xfe<\0h\0", 6, NULL, &bom), "utf-16le") &&
		bom == 2,
	    "UTF-16LE BOM");
	ok(!strcmp(detect("<html><head><meta charset=\"ISO-8859-1\">", 39, NULL,
		       &bom),
	       "windows-1252"),
	    "meta charset");
	{
		const char *h = "<meta http-equiv=\"Content-Type\" "
				"content=\"text/html; charset=koi8-r\">";

		ok(!strcmp(detect(h, strlen(h), NULL, &bom), "koi8-r"),
		    "meta http-equiv");
	}
	ok(!strcmp(detect("<!-- <meta charset=latin1> --><p>x", 34, NULL, &bom),
	       "utf-8"),
	    "meta inside a comment ignored");
	ok(!strcmp(detect("<meta charset=utf-16>", 21, NULL, &bom), "utf-8"),
	    "meta utf-16 means utf-8");
	memset(big, ' ', sizeof(big));
	memcpy(big + 1500, "<meta charset=latin1>", 21);
	ok(!strcmp(detect(big, sizeof(big), NULL, &bom), "utf-8"),
	    "meta past 1024 bytes ignored");
	ok(!strcmp(detect("<p>plain", 8, NULL, &bom), "utf-8") && bom == 0,
	    "default utf-8");

	/* Conversion. */
	ok(conv_is("caf\xe9", 4, "windows-1252", "caf\xc3\xa9"),
	    "latin1 e-acute");
	ok(conv_is("\x93quoted\x94", 8, "windows-1252",
	       "\xe2\x80\x9cquoted\xe2\x80\x9d"),
	    "windows-1252 curly quotes");
	ok(conv_is("ok\xff\xfe", 4, "utf-8", "ok\xef\xbf\xbd\xef\xbf\xbd"),
	    "invalid utf-8 becomes U+FFFD");
	ok(conv_is("\xef\xbb\xbfhi", 5, "utf-8", "hi"), "utf-8 BOM dropped");
	ok(conv_is("\xff\xfeh\0i\0", 6, "utf-16le", "hi"), "utf-16le with BOM");
	ok(conv_is("a\x81z", 3, "windows-1252", "a\xef\xbf\xbdz") ||
		conv_is("a\x81z", 3, "windows-1252", "a\xc2\x81z"),
	    "undefined windows-1252 byte does not stop conversion");
	ok(conv_is("\x8e\xa1", 2, "euc-jp", "\xef\xbd\xa1"), "euc-jp");
	ok(conv_is("abc\xa4", 4, "euc-jp", "abc\xef\xbf\xbd"),
	    "truncated multibyte sequence becomes U+FFFD");
	ok(uk_charset_to_utf8("x", 1, "no-such-charset", &b, &err) == -1 &&
		strstr(err.msg, "no-such-charset"),
	    "unknown charset is an error: %s", err.msg);
	uk_buf_release(&b);
	return tap_done();
}
