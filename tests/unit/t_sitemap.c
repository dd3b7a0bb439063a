/* SPDX-License-Identifier: MIT */
/* Unit tests of sitemaps (lib/sitemap) and feeds (lib/feed). */
#include <string.h>
#include <zlib.h>

#include "buf.h"
#include "feed.h"
#include "sitemap.h"
#include "util.h"
#define TAP_PREFIX "sitemap: "
#include "tap.h"

#include "banned.h"

static struct uk_buf got = UK_BUF_INIT;

static int
entry(void *ctx, int index, const char *loc, const char *lastmod)
{
	(void)ctx;
	uk_buf_addf(&got, "%s%s|%s;", index ? "i:" : "", loc,
	    lastmod ? lastmod : "-");
	return 0;
}

static int
fentry(void *ctx, const char *link, const char *title, const char *date)
{
	(void)ctx;
	uk_buf_addf(&got, "%s|%s|%s;", link, title ? title : "-",
	    date ? date : "-");
	return 0;
}

static int
sm(const char *s, int flags, unsigned long long max, struct uk_err *err)
{
	uk_buf_reset(&got);
	return uk_sitemap_parse(s, strlen(s), flags, max, entry, NULL, err);
}

static int
feed(const char *s, struct uk_err *err)
{
	uk_buf_reset(&got);
	return uk_feed_parse(s, strlen(s), 0, fentry, NULL, err);
}

int
main(void)
{
	struct uk_err err;
	unsigned char gz[256];
	uLongf gzlen;
	z_stream z;
	const char *xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
	    "xmlns:i=\"http://www.google.com/schemas/sitemap-image/1.1\">"
	    "<url><loc> https://a.example/1 </loc><lastmod>2026-01-02</lastmod>"
	    "<i:image><i:loc>https://a.example/p.png</i:loc></i:image></url>"
	    "<url><loc>https://a.example/2?a=1&amp;b=2</loc></url></urlset>";

	ok(sm(xml, 0, 0, &err) == 0 &&
	    !strcmp(got.buf, "https://a.example/1|2026-01-02;"
	    "https://a.example/2?a=1&b=2|-;"), "urlset, lastmod, entities, "
	    "image:loc left out: %s", got.buf);
	ok(sm("<sitemapindex><sitemap><loc>https://a.example/s.xml</loc>"
	    "</sitemap></sitemapindex>", 0, 0, &err) == 0 &&
	    !strcmp(got.buf, "i:https://a.example/s.xml|-;"), "an index");
	ok(sm("<html><body/></html>", 0, 0, &err) == 1 && !got.len,
	    "another root is not a sitemap");
	ok(sm("<urlset><url><loc>x</loc></url><url><loc>y</url>", 0, 0,
	    &err) == -1 && !strcmp(got.buf, "x|-;") &&
	    strstr(err.msg, "at line 1: mismatched tag"),
	    "malformed: entries before the fault, then the error: %s",
	    err.msg);
	ok(sm("https://a.example/t1\n\n  https://a.example/t2\r\n",
	    UK_SITEMAP_TEXT, 0, &err) == 0 &&
	    !strcmp(got.buf, "https://a.example/t1|-;https://a.example/t2|-;"),
	    "the text form");
	ok(sm("https://a.example/t1\n", 0, 0, &err) == 1,
	    "no text form unless asked");
	ok(sm(xml, 0, 10, &err) == -1 && strstr(err.msg, "over 10 bytes"),
	    "over max: %s", err.msg);
	ok(sm("<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;"
	    "&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;"
	    "&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e "
	    "\"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;"
	    "&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
	    "]><urlset><url><loc>&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;</loc></url>"
	    "</urlset>", 0, 0, &err) != 0 || !got.len,
	    "entity expansion: refused or the entry cut, never 10^8 bytes");

	/* gzip: compress xml with zlib's gzip wrapper. */
	memset(&z, 0, sizeof(z));
	deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)xml;
	z.avail_in = (uInt)strlen(xml);
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	deflate(&z, Z_FINISH);
	gzlen = sizeof(gz) - z.avail_out;
	deflateEnd(&z);
	uk_buf_reset(&got);
	ok(uk_sitemap_parse((char *)gz, gzlen, 0, 0, entry, NULL, &err) == 0 &&
	    strstr(got.buf, "https://a.example/2?a=1&b=2"), "gzip inflated");
	uk_buf_reset(&got);
	ok(uk_sitemap_parse((char *)gz, gzlen, 0, 100, entry, NULL, &err) ==
	    -1 && strstr(err.msg, "uncompressed"), "gzip over max: %s",
	    err.msg);
	uk_buf_reset(&got);
	ok(uk_sitemap_parse((char *)gz, gzlen / 2, 0, 0, entry, NULL,
	    &err) == -1, "gzip cut short: %s", err.msg);

	ok(feed("<rss version=\"2.0\"><channel><link>https://a.example/</link>"
	    "<item><title>One</title><link>https://a.example/1</link>"
	    "<pubDate>Sun, 01 Nov 2026 12:00:00 GMT</pubDate></item>"
	    "<item><title>No link</title></item></channel></rss>", &err) == 0 &&
	    !strcmp(got.buf, "https://a.example/1|One|Sun, 01 Nov 2026 "
	    "12:00:00 GMT;"), "RSS: the channel's link is not an entry");
	ok(feed("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>"
	    "<title type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">"
	    "A <b>b</b></div></title><link rel=\"edit\" href=\"e\"/>"
	    "<link rel=\"alternate\" href=\"https://a.example/a\"/>"
	    "<published>2026-01-01</published><updated>2026-02-01</updated>"
	    "</entry></feed>", &err) == 0 &&
	    !strcmp(got.buf, "https://a.example/a|A b|2026-02-01;"),
	    "Atom: rel=alternate, xhtml title, updated: %s", got.buf);
	ok(feed("{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":"
	    "[{\"url\":\"https://a.example/j\",\"title\":\"J\"},{\"id\":\"2\"}]}",
	    &err) == 0 && !strcmp(got.buf, "https://a.example/j|J|-;"),
	    "JSON Feed");
	ok(feed("{\"items\":[]}", &err) == 1, "JSON without version: no feed");
	ok(feed("<urlset/>", &err) == 1, "a sitemap is not a feed");
	ok(feed("{\"version\":", &err) == -1 && !strncmp(err.msg, "feed: ", 6),
	    "bad JSON: %s", err.msg);
	uk_buf_release(&got);
	return tap_done();
}
