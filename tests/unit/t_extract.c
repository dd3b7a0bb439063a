/* SPDX-License-Identifier: MIT */
/* Unit tests for lib/extract: main text, boilerplate, metadata, blocks. */
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract.h"
#include "tap.h"
#include "util.h"

/* A paragraph long enough to score, with commas. */
#define PARA(w)                                                                \
	"<p>The " w " paragraph talks at length, with commas, about "          \
	"the subject of the page, so that any reader would agree it is "       \
	"the main text, and it goes on for a while.</p>"

static struct uk_extract x;

static int
run(const char *html, const char *ct)
{
	struct uk_err err = { 0 };

	uk_extract_release(&x);
	return uk_extract_html(html, strlen(html), ct, NULL, NULL, &x, &err);
}

static int
run_opts(const char *html, const struct uk_extract_opts *o)
{
	struct uk_err err = { 0 };

	uk_extract_release(&x);
	return uk_extract_html(html, strlen(html), NULL, NULL, o, &x, &err);
}

static int
has(const char *s)
{
	return x.text && strstr(x.text, s) != NULL;
}

static int
eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static const char article[] =
    "<!DOCTYPE html><html><head>"
    "<title>How to Brew Coffee | Example News</title>"
    "<meta name=\"description\" content=\"All about  brewing.\">"
    "<meta name=\"author\" content=\"Ann Writer\">"
    "<meta property=\"article:published_time\" "
    "content=\"2025-01-02T03:04:05Z\">"
    "<style>.x { color: red }</style>"
    "<script>var secret = 'SCRIPTTEXT';</script>"
    "</head><body>"
    "<nav><a href=/>Home</a> <a href=/a>NAVTEXT</a></nav>"
    "<div id=\"cookie-banner\">We use COOKIETEXT cookies.</div>"
    "<article><h1>How to Brew Coffee</h1>" PARA("first") "<h2>Grinding</h2>" PARA(
	"second") "<p>Entities: caf&eacute; &amp; cr&egrave;me &lt;b&gt;.</p>"
		  "<table><tr><th>Beans</th><th>Grams</th></tr>"
		  "<tr><td>Arabica</td><td>18</td></tr></table>"
		  "<ul><li>LISTONE</li><li>LISTTWO</li></ul>"
		  "<pre>code   keeps\n  spaces</pre>"
		  "<div style=\"display:none\">HIDDENTEXT</div>" PARA(
		      "third") "</article>"
			       "<aside>ASIDETEXT related things</aside>"
			       "<div class=\"comments\"><p>COMMENTTEXT: I think so too, and so on, "
			       "and on, and on, with enough words to score as a paragraph.</p></div>"
			       "<footer>FOOTERTEXT (c) 2025</footer>"
			       "</body></html>";

int
main(void)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err = { 0 };
	int i;

	/* An article. */
	ok(run(article, NULL) == 0, "article extracts");
	ok(has("The first paragraph") && has("The third paragraph"),
	    "main text kept");
	ok(!has("SCRIPTTEXT") && !has("color: red"),
	    "scripts and styles stripped");
	ok(!has("NAVTEXT") && !has("FOOTERTEXT") && !has("ASIDETEXT"),
	    "nav, footer and aside dropped");
	ok(!has("COOKIETEXT"), "cookie banner dropped");
	ok(!has("COMMENTTEXT"), "comment section dropped");
	ok(!has("HIDDENTEXT"), "hidden element dropped");
	ok(has("caf\xc3\xa9 & cr\xc3\xa8me <b>."), "entities decoded");
	ok(has("Beans") && has("Arabica") && has("18"), "table kept");
	ok(has("LISTONE\nLISTTWO"), "list items on their own lines");
	ok(has("code   keeps\n  spaces"), "pre keeps its whitespace");
	ok(has("Grinding\n\nThe second"), "headings separated by blank lines");
	ok(has("while.\n\nThe second") || has("while.\n\nGrinding"),
	    "paragraphs separated by blank lines");
	ok(!strstr(x.text, "  ") || has("code   keeps"),
	    "whitespace collapsed outside pre");
	ok(eq(x.title, "How to Brew Coffee"), "title without site name: %s",
	    x.title ? x.title : "(null)");
	ok(eq(x.description, "All about brewing."),
	    "description, whitespace collapsed");
	ok(eq(x.author, "Ann Writer"), "author from meta");
	ok(eq(x.date, "2025-01-02T03:04:05Z"), "date from article:published");
	ok(eq(x.charset, "utf-8"), "charset utf-8 by default");
	ok(!x.fallback && !x.blocked, "neither fallback nor blocked");

	/* Metadata from OpenGraph, JSON-LD and <time>. */
	run("<html><head><meta property=\"og:title\" content=\"OG Title\">"
	    "<title>Other - Site</title>"
	    "<meta property=\"og:description\" content=\"OG desc\">"
	    "<script type=\"application/ld+json\">{\"@context\":"
	    "\"https://schema.org\",\"@graph\":[{\"@type\":\"NewsArticle\","
	    "\"author\":[{\"@type\":\"Person\",\"name\":\"Bo One\"},"
	    "{\"name\":\"Cy Two\"}],\"datePublished\":\"2024-05-06\"}]}"
	    "</script></head><body>" PARA("only") "</body></html>",
	    NULL);
	ok(eq(x.title, "OG Title"), "og:title preferred");
	ok(eq(x.description, "OG desc"), "og:description");
	ok(eq(x.author, "Bo One, Cy Two"), "JSON-LD authors: %s",
	    x.author ? x.author : "(null)");
	ok(eq(x.date, "2024-05-06"), "JSON-LD datePublished");
	ok(has("The only paragraph"), "JSON-LD script not in the text");
	run("<html><body><h1>Heading Title</h1><a rel=\"author\" "
	    "href=\"/u\">Dee Three</a><time datetime=\"2023-07-08\">July"
	    "</time>" PARA("timed") "</body></html>",
	    NULL);
	ok(eq(x.title, "Heading Title"), "h1 when there is no title");
	ok(eq(x.author, "Dee Three"), "rel=author");
	ok(eq(x.date, "2023-07-08"), "<time datetime>");
	ok(!x.description, "no description: NULL");

	/* <noscript> text is kept (forum software puts threads there). */
	run("<html><body><noscript><div class=\"thread\">" PARA("noscript")
		PARA("forum") "</div></noscript></body></html>",
	    NULL);
	ok(has("The noscript paragraph") && has("The forum paragraph"),
	    "noscript text kept");

	/* Charset: header, meta, latin1 default. */
	run("<html><body><p>Caf\xe9 cr\xe8me, d\xe9j\xe0 vu, na\xefve, "
	    "fa\xe7"
	    "ade, and more words to make a paragraph.</p></body></html>",
	    "text/html; charset=ISO-8859-1");
	ok(eq(x.charset, "windows-1252") && has("Caf\xc3\xa9 cr\xc3\xa8me"),
	    "latin1 from Content-Type converted");
	run("<html><head><meta charset=\"windows-1252\"></head><body><p>"
	    "\x93Quoted\x94 text with enough words to be a paragraph, yes.</p>"
	    "</body></html>",
	    NULL);
	ok(has("\xe2\x80\x9cQuoted\xe2\x80\x9d"), "meta charset converted");
	run("<html><body><p>Bad \xff\xfe bytes in a UTF-8 page, with words "
	    "enough to make up a paragraph.</p></body></html>",
	    NULL);
	ok(has("Bad \xef\xbf\xbd\xef\xbf\xbd bytes"),
	    "invalid UTF-8 becomes U+FFFD");

	/* Fallback. */
	run("<html><head><title>Tiny</title><meta name=description "
	    "content=\"D\"></head><body><span>a few words</span>"
	    "<script>NO()</script></body></html>",
	    NULL);
	ok(x.fallback && has("a few words") && !has("NO()"),
	    "fallback: tags stripped, scripts dropped");
	ok(eq(x.title, "Tiny") && eq(x.description, "D"),
	    "fallback keeps title and description");

	/* Block and challenge pages. */
	run("<html><head><title>Just a moment...</title></head><body><p>"
	    "Checking your browser before accessing example.com. Enable "
	    "JavaScript and cookies to continue.</p></body></html>",
	    NULL);
	ok(x.blocked, "Cloudflare challenge is blocked");
	run("<html><head><title>Access Denied</title></head><body><h1>"
	    "Access Denied</h1>You don't have permission to access this "
	    "server.</body></html>",
	    NULL);
	ok(x.blocked, "access denied page is blocked");
	run("<html><head><title>Captcha</title></head><body><p>Please "
	    "verify you are a human.</p></body></html>",
	    NULL);
	ok(x.blocked, "captcha page is blocked");
	run(article, NULL);
	ok(!x.blocked, "an article is not blocked");

	/* Degenerate input. */
	uk_extract_release(&x);
	ok(uk_extract_html("", 0, NULL, NULL, NULL, &x, &err) == 0 && x.text &&
		!x.text[0],
	    "empty input gives empty text");
	srand(7);
	for (i = 0; i < 65536; i++)
		uk_buf_addch(&b, rand() & 0xff);
	uk_extract_release(&x);
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == 0 && x.text,
	    "binary garbage does not crash");
	uk_buf_reset(&b);
	for (i = 0; i < 100000; i++)
		uk_buf_addstr(&b, "<div>");
	uk_buf_addstr(&b, PARA("deep"));
	uk_extract_release(&x);
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == 0 &&
		has("The deep paragraph"),
	    "100000 nested elements: bounded, text kept");
	uk_buf_reset(&b);
	for (i = 0; i < 600; i++)
		uk_buf_addstr(&b, "<div>");
	for (i = 0; i < 20000; i++)
		uk_buf_addstr(&b, "<div>x</div>");
	uk_buf_addstr(&b, PARA("bottom"));
	uk_extract_release(&x);
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == 0 &&
		has("The bottom paragraph"),
	    "many elements at the depth limit");
	uk_buf_reset(&b);
	uk_buf_addstr(&b,
	    "<html><body><p>unclosed <b>bold <i>italic <table>"
	    "<td>cell<tr><p>" PARA("malformed"));
	uk_extract_release(&x);
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == 0 &&
		has("The malformed paragraph"),
	    "malformed HTML extracts");
	uk_buf_reset(&b);
	uk_buf_add(&b,
	    "<p>nul\0byte, and more text for the paragraph here.</p>", 55);
	uk_extract_release(&x);
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == 0 &&
		has("nul byte"),
	    "NUL byte does not cut the page");
	run("<html><body><script>document.write('<p>FAKE</p>')</script>"
	    "<!-- <script> -->" PARA("after") "</body></html>",
	    NULL);
	ok(has("The after paragraph") && !has("FAKE"),
	    "script in a comment does not swallow the page");
	run("<html><body><div title='a > b <script>'>" PARA(
		"attr") "</div></body></html>",
	    NULL);
	ok(has("The attr paragraph"), "tag-like attribute value is no tag");
	run("<html><body><cookie-box data-a=\"x > y\" srcset=a.jpg "
	    "class=\"cookie-consent\">COOKIETWO</cookie-box>"
	    "<div data-b='1' style=\"display:none\">HIDDENTWO</div>"
	    "<div data-c=v>" PARA("kept") "</div><nav-panel data-d=1>" PARA(
		"custom") "</nav-panel></body></html>",
	    NULL);
	ok(has("The kept paragraph") && !has("COOKIETWO") && !has("HIDDENTWO"),
	    "class and style still read after dropped attributes");
	ok(has("The custom paragraph"),
	    "a custom element keeps its whole name");
	run("<html><head><script type=\"application/ld+json\">"
	    "{\"@type\":\"Article\",\"description\":"
	    "\"see <a data-x='1' href='/y'>this</a>\"}</script></head><body>"
	    "<pre>a  b\n\n  c</pre><p>" PARA("spaced") "</p></body></html>",
	    NULL);
	ok(eq(x.description, "see <a data-x='1' href='/y'>this</a>"),
	    "JSON-LD is read as written, tags and attributes included: %s",
	    x.description ? x.description : "(null)");
	ok(has("a  b\n\n  c"), "whitespace in <pre> kept as written");

	/* Too many elements: a clear error, not gigabytes. */
	uk_buf_reset(&b);
	for (i = 0; i < 400000; i++)
		uk_buf_addstr(&b, "<p>,");
	uk_extract_release(&x);
	memset(&err, 0, sizeof(err));
	ok(uk_extract_html(b.buf, b.len, NULL, NULL, NULL, &x, &err) == -1 &&
		strstr(err.msg, "too many elements (400000, at most 300000 "),
	    "400000 elements: refused with a clear error: %s", err.msg);

	/* Comment sections: boilerplate for the text, or x.comments. */
	{
		struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
		static const char heading[] =
		    "<html><body><article>" PARA("first") PARA("second")
		    "<h3>2 Comments</h3><ol><li><p>CMTONE: a first comment"
		    ", and a long one.</p></li><li><p>CMTTWO: a second one."
		    "</p></li></ol><h3>Leave a Reply</h3><form><label>"
		    "FORMLABEL</label><input name=n></form></article>"
		    "</body></html>";
		static const char klass[] =
		    "<html><body><div class=\"post\"><div>" PARA("first")
		    PARA("second") "</div><section class=\"post-comments\">"
		    "<p>CMTCLASS: said a reader.</p></section></div>"
		    "</body></html>";

		ok(run_opts(heading, NULL) == 0 && has("The second paragraph") &&
			!has("CMTONE") && !has("FORMLABEL") && !x.comments,
		    "comments under a heading are not main text");
		o.comments = 1;
		ok(run_opts(heading, &o) == 0 && has("The second paragraph") &&
			!has("CMTONE") && x.comments &&
			strstr(x.comments, "CMTONE: a first comment") &&
			strstr(x.comments, "one.\n\nCMTTWO") &&
			!strstr(x.comments, "FORMLABEL") &&
			!strstr(x.comments, "Leave a Reply"),
		    "--comments: their text, paragraphs by blank lines");
		ok(run_opts(klass, &o) == 0 && has("The first paragraph") &&
			!has("CMTCLASS") && x.comments &&
			!strcmp(x.comments, "CMTCLASS: said a reader."),
		    "--comments: a section named by its class: %s",
		    x.comments ? x.comments : "(null)");
		ok(run_opts(article, &o) == 0 && x.comments &&
			strstr(x.comments, "COMMENTTEXT") && !has("COMMENTTEXT"),
		    "--comments: the article's comments");
		ok(run_opts("<html><body>" PARA("alone") "</body></html>", &o) ==
			0 && !x.comments,
		    "--comments: none on a page without comments");
	}

	/*
	 * Boxes beside the text by their class: the last name of a compound
	 * says what the box is ("article-teaser", "photo-credit",
	 * "entry-author"); a name of content after it keeps it
	 * ("teaser-text").
	 */
	{
		static const char boxes[] =
		    "<html><body><article>" PARA("first")
		    "<div class=\"article-teaser\"><a href=/x>TEASERBOX: "
		    "another story</a></div><div class=\"photo-credit\">"
		    "CREDITBOX: Agency</div>" PARA("second")
		    "<div class=\"entry-author\"><p>AUTHORBOX: Ann writes."
		    "</p></div><section class=\"user-reviews\"><p>REVIEWBOX:"
		    " five stars.</p></section>"
		    "<div class=\"teaser-text\"><p>LEADTEXT: the lead.</p>"
		    "</div></article></body></html>";
		struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;

		ok(run_opts(boxes, NULL) == 0 && has("The second paragraph") &&
			!has("TEASERBOX") && !has("CREDITBOX") &&
			!has("AUTHORBOX") && !has("REVIEWBOX") &&
			has("LEADTEXT"),
		    "teaser, credit, author and review boxes by class: %s",
		    x.text ? x.text : "(null)");
		o.comments = 1;
		ok(run_opts(boxes, &o) == 0 && x.comments &&
			strstr(x.comments, "REVIEWBOX"),
		    "--comments: customer reviews are comments");
	}

	uk_extract_release(&x);
	uk_extract_release(NULL);
	uk_buf_release(&b);
	return tap_done();
}
