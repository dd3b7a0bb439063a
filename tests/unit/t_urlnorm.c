/* SPDX-License-Identifier: MIT */
/* Unit tests of URL normal forms (lib/urlnorm), dates (lib/date), llms.txt
 * links (lib/llmstxt) and page links (lib/links). */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "date.h"
#include "links.h"
#include "llmstxt.h"
#include "urlnorm.h"
#define TAP_PREFIX "urlnorm: "
#include "tap.h"

#include "banned.h"

static int
norm(const char *in, const char *want)
{
	char *n = uk_urlnorm(in);
	int same = want ? n && !strcmp(n, want) : !n;

	if (!same)
		printf("# %s -> %s\n", in, n ? n : "(null)");
	free(n);
	return same;
}

static int
date(const char *s, long long want)
{
	long long t = -1;

	return want < 0 ? uk_date_parse(s, &t) == -1 :
	    uk_date_parse(s, &t) == 0 && t == want;
}

static struct uk_buf got = UK_BUF_INIT;

static int
link(void *ctx, const char *url, const char *title)
{
	(void)ctx;
	uk_buf_addf(&got, "%s|%s;", url, title);
	return 0;
}

int
main(void)
{
	static const char llms[] = "# T\n- [A](/a): x\n- [B [2]](https://b/ \"t\")"
	    "\n![img](/i.png)\n```\n[no](/no)\n```\n`[no](/no2)` [C](<c d>)\n"
	    "[unclosed](/u\n";
	struct uk_links l;
	char buf[32];
	static const char page[] = "<html><head><base href=\"/sub/\">"
	    "<title> The\n title </title>"
	    "<link rel=\"next\" href=\"p2\"><link rel=\"alternate\" "
	    "type=\"application/atom+xml\" href=\"/f.atom\"></head><body>"
	    "<a href=\"x\">x</a><a rel=\"external nofollow\" href=\"/n\">n</a>"
	    "<a>no href</a></body></html>";

	ok(norm("HTTPS://Example.ORG:443/a/index.html?utm_source=x&id=1&fbclid=2#f",
	    "https://example.org/a/?id=1"), "case, port, index.html, "
	    "tracking, fragment");
	ok(norm("http://example.org", "http://example.org/"), "empty path");
	ok(norm("http://example.org:8080/x?utm_medium=y",
	    "http://example.org:8080/x"), "an empty query dropped, other port kept");
	ok(norm("ftp://example.org/", NULL), "ftp has none");
	ok(norm("not a url", NULL), "nor does prose");
	ok(norm("https://example.org/a/index.htmlx", "https://example.org/a/index.htmlx"),
	    "index.htmlx is a page of its own");
	ok(date("2026-11-01", 1793491200), "a W3C date");
	ok(date("2026-11-01T01:00:00+01:00", 1793491200), "with an offset");
	ok(date("2026-11-01T00:00:00.123Z", 1793491200), "with a fraction");
	ok(date("2026-11", 1793491200), "a month is its first day");
	ok(date("Sun, 01 Nov 2026 00:00:00 GMT", 1793491200), "RFC 822");
	ok(date("1 Nov 2026 01:00 +0100", 1793491200), "RFC 822, no day name, "
	    "no seconds");
	ok(date("yesterday", -1), "prose is no date");
	ok(date("2026-13-01", -1), "month 13 is no date");
	uk_date_format(1793491200, buf, sizeof(buf));
	ok(!strcmp(buf, "2026-11-01T00:00:00Z"), "formatted as RFC 3339");
	uk_llmstxt_links(llms, strlen(llms), link, NULL);
	ok(!strcmp(got.buf, "/a|A;https://b/|B [2];c d|C;"),
	    "llms.txt links: %s", got.buf);
	ok(uk_links_scan(&l, page, strlen(page), "text/html",
	    "https://a.example/dir/page", 0) == 0, "a page scans");
	ok(l.nlinks == 2 && !strcmp(l.links[0], "https://a.example/sub/p2") &&
	    !strcmp(l.links[1], "https://a.example/sub/x"),
	    "rel=next and a href, against <base>, nofollow left out");
	ok(l.nfeeds == 1 && !strcmp(l.feeds[0], "https://a.example/f.atom"),
	    "the feed of rel=alternate");
	ok(l.title && !strcmp(l.title, "The\n title"), "the title, trimmed");
	uk_links_release(&l);
	uk_buf_release(&got);
	return tap_done();
}
