/* SPDX-License-Identifier: MIT */
/* Unit tests of Markdown the site has (lib/negotiate), a page's anchors
 * and Markdown alternate (lib/links), and a record's links
 * (lib/pagelinks). */
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "json.h"
#include "links.h"
#include "negotiate.h"
#include "pagelinks.h"
#define TAP_PREFIX "negotiate: "
#include "tap.h"

#include "banned.h"

/* rec's field k as a string ("null" when null, "(absent)" when not). */
static const char *
field(yajl_val rec, const char *k)
{
	yajl_val v = uk_json_get(rec, k);

	if (!v)
		return "(absent)";
	return YAJL_IS_STRING(v) ? YAJL_GET_STRING(v) : "null";
}

static void
html_doc(void)
{
	ok(uk_negotiate_is_html_doc("<!DOCTYPE html><p>", 18), "doctype");
	ok(uk_negotiate_is_html_doc("\xef\xbb\xbf \n<HTML lang=en>", 20),
	    "a BOM, white space, <HTML");
	ok(uk_negotiate_is_html_doc("<body>", 6), "<body>");
	ok(!uk_negotiate_is_html_doc("# Title\n<html>", 14),
	    "a heading first is Markdown");
	ok(!uk_negotiate_is_html_doc("<htmlx>", 7), "<htmlx> is no <html");
	ok(!uk_negotiate_is_html_doc("<!-- toc -->\n# T", 16),
	    "a comment first is Markdown");
	ok(!uk_negotiate_is_html_doc("", 0), "nothing");
}

static void
markdown_record(void)
{
	static const char fm[] = "---\ntitle: \"Quoted: title\"\n"
	    "description: a page\nnested:\n  title: not this\n"
	    "date: 2026-01-02\n---\n\n# Heading\n\nBody.\n";
	static const char open[] = "---\ntitle: x\n# no end\n";
	static const char heading[] = "```\n# code\n```\n# The heading\nText";
	yajl_val r;

	r = uk_json_object();
	uk_negotiate_markdown_record(r, fm, sizeof(fm) - 1,
	    "text/markdown; charset=utf-8", "https://a.test/p", "markdown",
	    NULL);
	ok(!strcmp(field(r, "title"), "Quoted: title"), "front matter title");
	ok(!strcmp(field(r, "description"), "a page"), "its description");
	ok(!strcmp(field(r, "date"), "2026-01-02"), "its date");
	ok(!strcmp(field(r, "author"), "null"), "no author: null");
	ok(!strcmp(field(r, "content"), "# Heading\n\nBody.\n"),
	    "the front matter is not in the content");
	ok(!strcmp(field(r, "format"), "markdown") &&
	    !strcmp(field(r, "source"), "markdown"), "format and source");
	ok(!strcmp(field(r, "links"), "(absent)"), "no links unasked");
	uk_json_free(r);

	r = uk_json_object();
	uk_negotiate_markdown_record(r, open, sizeof(open) - 1, NULL,
	    "https://a.test/p", "llms.txt", NULL);
	ok(!strcmp(field(r, "content"), open) &&
	    !strcmp(field(r, "title"), "no end"),
	    "front matter never closed: all content, the heading's title");
	uk_json_free(r);

	r = uk_json_object();
	uk_negotiate_markdown_record(r, heading, sizeof(heading) - 1, NULL,
	    "https://a.test/p", "markdown", NULL);
	ok(!strcmp(field(r, "title"), "The heading"),
	    "the first # heading outside code is the title");
	uk_json_free(r);

	/* Latin-1 declared: read as such. */
	r = uk_json_object();
	uk_negotiate_markdown_record(r, "# Caf\xe9", 6,
	    "text/markdown; charset=iso-8859-1", "https://a.test/p",
	    "markdown", NULL);
	ok(!strcmp(field(r, "title"), "Caf\xc3\xa9"), "its charset");
	uk_json_free(r);
}

static void
sites(void)
{
	struct uk_negotiate_site *list = NULL, *s, *t;
	static const char llms[] = "# S\n\n- [A](/docs/a.md)\n"
	    "- [B](https://a.test/docs/b.html.md#x)\n- [I](/dir/index.md)\n"
	    "- [N](name.md)\n- [Other](https://b.test/docs/c.md)\n"
	    "```\n[F](/docs/f.md)\n```\n";
	char *md;
	int i;

	ok(uk_negotiate_same_origin("https://A.test/x", "https://a.test"),
	    "same origin without case");
	ok(!uk_negotiate_same_origin("https://a.test:8443/", "https://a.test/"),
	    "another port");
	ok(!uk_negotiate_same_origin("http://a.test/", "https://a.test/"),
	    "another scheme");
	ok(!uk_negotiate_site(&list, "file:///etc/passwd"), "no origin");
	s = uk_negotiate_site(&list, "https://a.test/docs/a");
	t = uk_negotiate_site(&list, "https://a.test/other");
	ok(s && s == t && s->state == UK_SITE_UNKNOWN, "one site an origin");
	ok(!uk_negotiate_site_md(s, "https://a.test/docs/a"),
	    "nothing listed before it is read");
	uk_negotiate_site_read(s, llms, sizeof(llms) - 1,
	    "https://a.test/llms.txt");
	ok(s->state == UK_SITE_PRESENT, "read: present");
	md = uk_negotiate_site_md(s, "https://a.test/docs/a?q=1#top");
	ok(md && !strcmp(md, "https://a.test/docs/a.md"), "PAGE.md");
	free(md);
	md = uk_negotiate_site_md(s, "https://a.test/docs/b.html");
	ok(md && !strcmp(md, "https://a.test/docs/b.html.md"),
	    "PAGE.html.md, its fragment cut");
	free(md);
	md = uk_negotiate_site_md(s, "https://a.test/dir/");
	ok(md && !strcmp(md, "https://a.test/dir/index.md"),
	    "a directory's index.md");
	free(md);
	md = uk_negotiate_site_md(s, "https://a.test/name.html");
	ok(md && !strcmp(md, "https://a.test/name.md"), "NAME.md of NAME.html");
	free(md);
	ok(!uk_negotiate_site_md(s, "https://a.test/docs/f"),
	    "a link in a code block is no link");
	t = uk_negotiate_site(&list, "https://b.test/docs/c");
	ok(!uk_negotiate_site_md(s, "https://b.test/docs/c"),
	    "another origin's entry is not listed");
	/* Bounded: old sites go, one being fetched stays. */
	t->state = UK_SITE_FETCHING;
	for (i = 0; i < UK_NEGOTIATE_SITES_MAX + 10; i++) {
		char u[64];

		snprintf(u, sizeof(u), "https://h%d.test/", i);
		uk_negotiate_site(&list, u);
	}
	for (i = 0, s = list; s; s = s->next)
		i++;
	ok(i == UK_NEGOTIATE_SITES_MAX + 1, "the list is bounded (%d)", i);
	for (s = list; s && s != t; s = s->next)
		;
	ok(s == t, "a site being fetched stays");
	uk_negotiate_sites_free(list);
}

static void
anchors(void)
{
	static const char html[] = "<html><head><base href=\"/b/\">"
	    "<link rel=\"alternate\" type=\"text/markdown\" href=\"p.md\">"
	    "</head><body><a href=\"x\" rel=\"next\">  X\n <b>y</b> </a>"
	    "<a href=\"javascript:go()\">J</a><a href=\"mailto:m@a.test\">M</a>"
	    "<a href=\"c(1)\"><div>Card</div><p>text</p></a>"
	    "<map><area href=\"/area\" alt=\"Area\"></map>"
	    "<template><a href=\"/t\">T</a></template></body></html>";
	struct uk_link *v;
	size_t n;
	char *alt;

	ok(!uk_links_anchors(html, sizeof(html) - 1, NULL,
	    "https://a.test/d/page", &v, &n), "anchors read");
	ok(n == 3, "http(s) only, not in a template (%zu)", n);
	ok(n > 0 && !strcmp(v[0].url, "https://a.test/b/x") &&
	    !strcmp(v[0].key, "https://a.test/d/x") &&
	    !strcmp(v[0].text, "X y") && !strcmp(v[0].rel, "next") &&
	    !v[0].block, "resolved on <base href>, keyed on the page");
	ok(n > 1 && !strcmp(v[1].key, "https://a.test/d/c%281%29") &&
	    !strcmp(v[1].text, "Card text") && v[1].block,
	    "a card: blocks apart, parentheses encoded in its key");
	ok(n > 2 && !strcmp(v[2].url, "https://a.test/area") &&
	    !strcmp(v[2].text, "Area") && !v[2].rel, "an area's alt");
	uk_links_anchors_free(v, n);
	alt = uk_links_markdown_alternate(html, sizeof(html) - 1, NULL,
	    "https://a.test/d/page");
	ok(alt && !strcmp(alt, "https://a.test/b/p.md"),
	    "the Markdown alternate, on <base href>");
	free(alt);
	alt = uk_links_markdown_alternate("<body><link rel=alternate "
	    "type=text/markdown href=/in-body.md>", 60, NULL,
	    "https://a.test/");
	ok(!alt, "only the head is read");
	free(alt);
}

static void
record_links(void)
{
	static const char md[] = "[One](/a) and [Two](https://b.test/x) and "
	    "[One again](/a#f) [mail](mailto:x@a.test) `[code](/c)`";
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	yajl_val r = uk_json_object(), l;

	o.links_max = 2;
	uk_pagelinks_markdown(r, md, sizeof(md) - 1, "https://a.test/p", &o);
	l = uk_json_get(r, "links");
	ok(l && YAJL_IS_ARRAY(l) && l->u.array.len == 2 &&
	    uk_json_get_bool(r, "links_truncated"),
	    "cut at links_max, links_truncated");
	ok(l && l->u.array.len && !strcmp(field(l->u.array.values[0], "url"),
	    "https://a.test/a"), "resolved on the page");
	uk_json_free(r);
	r = uk_json_object();
	uk_pagelinks_none(r);
	l = uk_json_get(r, "links");
	ok(l && YAJL_IS_ARRAY(l) && !l->u.array.len, "none: []");
	uk_json_free(r);
}

int
main(void)
{
	html_doc();
	markdown_record();
	sites();
	anchors();
	record_links();
	return tap_done();
}
