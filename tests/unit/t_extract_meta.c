/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_meta.c: lang, sitename, canonical, image and
 * tags, their order of preference, and the app-shell test (needs_browser).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "extract.h"
#include "tap.h"
#include "util.h"
#include "banned.h"

#define BASE "https://news.example/a/b/story.html?x=1#top"

/* A paragraph long enough to score, with commas. */
#define PARA(w)                                                             \
	"<p>The " w " paragraph talks at length, with commas, about "       \
	"the subject of the page, so that any reader would agree it is "    \
	"the main text, and it goes on for a while.</p>"

static struct uk_extract x;

static int
run_lang(const char *html, const char *url, const char *content_language)
{
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	struct uk_err err = { 0 };

	o.content_language = content_language;
	uk_extract_release(&x);
	return uk_extract_html(html, strlen(html), "text/html", url, &o, &x,
	    &err);
}

static int
run(const char *html)
{
	return run_lang(html, BASE, NULL);
}

static int
eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The tags joined with "|". */
static const char *
tags(void)
{
	static char s[512];
	size_t k, n = 0;

	s[0] = '\0';
	for (k = 0; k < x.ntags && n + 100 < sizeof(s); k++) {
		size_t l = strlen(x.tags[k]);

		if (k)
			s[n++] = '|';
		memcpy(s + n, x.tags[k], l);
		n += l;
		s[n] = '\0';
	}
	return s;
}

static void
test_lang(void)
{
	const char *body = "<body>" PARA("first") "</body></html>";
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "<html lang=\"fr-CA\"><head><meta property="
			"\"og:locale\" content=\"de_DE\"></head>%s",
	    body);
	run_lang(b.buf, BASE, "es");
	ok(eq(x.lang, "fr-CA"), "lang: <html lang> first (%s)", x.lang);
	uk_buf_reset(&b);
	uk_buf_addf(&b, "<html><head><meta property=\"og:locale\" "
			"content=\"de_DE\"></head>%s",
	    body);
	run_lang(b.buf, BASE, "es-MX, en");
	ok(eq(x.lang, "es-MX"), "lang: then Content-Language, its first (%s)",
	    x.lang);
	run_lang(b.buf, BASE, NULL);
	ok(eq(x.lang, "de-DE"), "lang: then og:locale, de_DE as de-DE (%s)",
	    x.lang);
	uk_buf_reset(&b);
	uk_buf_addf(&b, "<html><head><meta http-equiv=\"Content-Language\" "
			"content=\"nl\"></head>%s",
	    body);
	run(b.buf);
	ok(eq(x.lang, "nl"), "lang: <meta http-equiv> (%s)", x.lang);
	uk_buf_reset(&b);
	uk_buf_addf(&b, "<html lang=\"<script>\"><head></head>%s", body);
	run(b.buf);
	ok(!x.lang, "lang: not a language tag is left out");
	uk_buf_release(&b);
}

static void
test_site_and_links(void)
{
	run("<html><head><meta property=\"og:site_name\" content=\" The "
	    "Daily  Example \"><link rel=\"canonical\" href=\"../c/"
	    "story.html\"><meta property=\"og:url\" content=\"https://"
	    "other.example/\"><meta property=\"og:image\" content=\"/img/"
	    "a.jpg\"></head><body>" PARA("first") "</body></html>");
	ok(eq(x.sitename, "The Daily Example"), "sitename: og:site_name (%s)",
	    x.sitename);
	ok(eq(x.canonical, "https://news.example/a/c/story.html"),
	    "canonical: rel=canonical, made absolute (%s)", x.canonical);
	ok(eq(x.image, "https://news.example/img/a.jpg"),
	    "image: og:image, made absolute (%s)", x.image);

	run("<html><head><meta property=\"og:url\" content=\"//cdn.example/"
	    "x\"><meta name=\"twitter:image\" content=\"pic.png\">"
	    "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\","
	    "\"publisher\":{\"@type\":\"Organization\",\"name\":\"Example "
	    "News\"}}</script></head><body>" PARA("first") "</body></html>");
	ok(eq(x.sitename, "Example News"), "sitename: JSON-LD publisher (%s)",
	    x.sitename);
	ok(eq(x.canonical, "https://cdn.example/x"),
	    "canonical: og:url when no rel=canonical (%s)", x.canonical);
	ok(eq(x.image, "https://news.example/a/b/pic.png"),
	    "image: twitter:image, relative to the page (%s)", x.image);

	run("<html><head><link rel=\"canonical\" href=\"javascript:alert(1)\">"
	    "<meta property=\"og:image\" content=\"data:image/png;base64,AA\">"
	    "</head><body>" PARA("first") "</body></html>");
	ok(!x.canonical && !x.image, "javascript: and data: URLs left out");

	run_lang("<html><head><link rel=\"canonical\" href=\"/x\"></head>"
		 "<body>" PARA("first") "</body></html>",
	    NULL, NULL);
	ok(!x.canonical, "a relative canonical with no page URL: left out");

	run("<html><head><link rel=\"canonical\" href=\"./d/./e/../f?q#h\">"
	    "</head><body>" PARA("first") "</body></html>");
	ok(eq(x.canonical, "https://news.example/a/b/d/f?q#h"),
	    "dot segments removed (%s)", x.canonical);
}

static void
test_tags(void)
{
	run("<html><head><meta property=\"article:tag\" content=\"Boats\">"
	    "<meta property=\"article:tag\" content=\"Harbour life\">"
	    "<meta name=\"keywords\" content=\"boats, weather,, storms ,"
	    "harbour LIFE\"></head><body>" PARA("first") "</body></html>");
	ok(eq(tags(), "Boats|Harbour life|weather|storms"),
	    "tags: article:tag then keywords, duplicates dropped (%s)",
	    tags());
	run("<html><head></head><body>" PARA("first") "</body></html>");
	ok(x.ntags == 0 && !x.lang && !x.sitename && !x.canonical &&
		!x.image,
	    "none of them on a bare page");
}

static void
test_needs_browser(void)
{
	run("<html><head><title>App</title><script src=\"/main.js\">"
	    "</script></head><body><div id=\"root\"></div></body></html>");
	ok(x.needs_browser == 1, "an empty root div and a script: a shell");
	run("<html><head><script src=\"/app.js\"></script></head><body>"
	    "<noscript>You need to enable JavaScript to run this app."
	    "</noscript><div class=\"x\"></div></body></html>");
	ok(x.needs_browser == 1, "a noscript asking for JavaScript: a shell");
	run("<html><head><script src=\"/app.js\"></script></head><body>"
	    "<div class=\"spinner\">Loading...</div></body></html>");
	ok(x.needs_browser == 1, "a lone Loading line and a script: a shell");
	run("<html><head><script src=\"/a.js\"></script><script>var a=1;"
	    "</script></head><body><div id=\"app\"><article><h1>Title</h1>"
	    PARA("first") PARA("second") PARA("third")
	    "</article></div></body></html>");
	ok(x.needs_browser == 0,
	    "an article with scripts and id=app is not a shell");
	run("<html><head></head><body><div id=\"root\"></div><p>Loading"
	    "</p></body></html>");
	ok(x.needs_browser == 0, "no scripts: not a shell");
	run("<html><head><title>Just a moment...</title><script src=\"/c.js"
	    "\"></script></head><body><div id=\"root\">Enable JavaScript and "
	    "cookies to continue</div></body></html>");
	ok(x.blocked == 1 && x.needs_browser == 0,
	    "a challenge page is blocked, not a shell");
}

static void
test_binary(void)
{
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"
				  "\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xff" "a";
	static const char utf16[] = "\xff\xfe<\0h\0t\0m\0l\0>\0";
	const char *html = "<html><body><p>text\0with a NUL</p></body></html>";

	ok(uk_extract_meta_is_binary(png, sizeof(png) - 1), "a PNG is binary");
	ok(!uk_extract_meta_is_binary(utf16, sizeof(utf16) - 1),
	    "UTF-16 with its BOM is text");
	ok(!uk_extract_meta_is_binary(html, 48), "one stray NUL is text");
	ok(!uk_extract_meta_is_binary("", 0), "nothing is not binary");
}

int
main(void)
{
	test_lang();
	test_site_and_links();
	test_tags();
	test_needs_browser();
	test_binary();
	uk_extract_release(&x);
	return tap_done();
}
