/* SPDX-License-Identifier: MIT */
/* Unit tests of robots.txt for one agent (lib/robots), RFC 9309's cases. */
#include <stdlib.h>
#include <string.h>

#include "robots.h"
#define TAP_PREFIX "robots: "
#include "tap.h"

#include "banned.h"

static int
allowed(const char *txt, const char *path)
{
	struct uk_robots r;
	int a;

	uk_robots_init(&r);
	uk_robots_parse(&r, txt, strlen(txt), "urlmap");
	a = uk_robots_allowed(&r, path);
	uk_robots_release(&r);
	return a;
}

/* Whether url splits into origin, host and pathq (all NULL: fails). */
static int
splits(const char *url, const char *origin, const char *host, const char *pathq)
{
	char *o = NULL, *h = NULL, *p = NULL;
	int r, same;

	r = uk_robots_split_url(url, &o, &h, &p);
	if (!origin)
		return r == -1 && !o && !h && !p;
	same = r == 0 && !strcmp(o, origin) && !strcmp(h, host) &&
	    !strcmp(p, pathq);
	free(o);
	free(h);
	free(p);
	return same;
}

int
main(void)
{
	static const char star[] = "User-agent: *\nDisallow: /private\n";
	static const char both[] =
	    "User-agent: *\nDisallow: /\n\n"
	    "user-agent: URLMAP/2.0\nuser-agent: other\n"
	    "Disallow: /a # comment\nAllow: /a/b\nCrawl-delay: 2.5\n"
	    "Sitemap: https://x.example/s.xml\n";
	static const char pat[] = "User-agent: *\nDisallow: /*.pdf$\n"
	    "Disallow: /fish*\nAllow: /fish/ok\nDisallow:\n";
	static const char tie[] = "User-agent: *\nDisallow: /p\nAllow: /p\n";
	struct uk_robots r;

	ok(allowed(star, "/") == 1, "an unlisted path is allowed");
	ok(allowed(star, "/private/x") == 0, "a prefix disallows");
	ok(allowed(star, "/privateer") == 0, "a prefix is a prefix of bytes");
	ok(allowed(star, "/robots.txt") == 1, "/robots.txt is always allowed");
	ok(allowed(both, "/x") == 1, "the agent's own group wins over *");
	ok(allowed(both, "/a/c") == 0, "the agent's Disallow, case-free name");
	ok(allowed(both, "/a/b/c") == 1, "the longest match wins (Allow)");
	ok(allowed(pat, "/doc.pdf") == 0, "* and $ match");
	ok(allowed(pat, "/doc.pdf?x") == 1, "$ anchors at the end");
	ok(allowed(pat, "/fish/ok/1") == 1, "longer Allow beats Disallow *");
	ok(allowed(pat, "/fishy") == 0, "a pattern with a trailing *");
	ok(allowed(tie, "/p") == 1, "an Allow and a Disallow of one length: Allow");
	ok(allowed("", "/x") == 1, "an empty file allows all");
	ok(allowed("User-agent: other\nDisallow: /\n", "/x") == 1,
	    "no group for the agent, no *: all allowed");
	ok(allowed("garbage\n\x01\xff: x\nDisallow: /\n", "/x") == 1,
	    "rules outside a group are ignored");
	uk_robots_init(&r);
	uk_robots_parse(&r, both, strlen(both), "urlmap");
	ok(r.crawl_delay == 2.5, "Crawl-delay of the agent's group");
	ok(r.nsitemaps == 1 && !strcmp(r.sitemaps[0], "https://x.example/s.xml"),
	    "Sitemap lines, outside any group");
	uk_robots_set(&r, UK_ROBOTS_DISALLOW_ALL);
	ok(!uk_robots_allowed(&r, "/") && r.nsitemaps == 1,
	    "disallow all (5xx) keeps the sitemaps");
	uk_robots_set(&r, UK_ROBOTS_ALLOW_ALL);
	ok(uk_robots_allowed(&r, "/anything"), "allow all (4xx)");
	uk_robots_release(&r);
	ok(splits("http://example.com", "http://example.com", "example.com",
	       "/"),
	    "split: no path is /");
	ok(splits("https://x.example:443/a/b?q=1&r#f", "https://x.example",
	       "x.example", "/a/b?q=1&r"),
	    "split: default port left out, "
	    "query kept, fragment not");
	ok(splits("http://127.0.0.1:8080/p", "http://127.0.0.1:8080",
	       "127.0.0.1", "/p"),
	    "split: another port kept in the origin");
	ok(splits("ftp://x.example/f", "ftp://x.example", "x.example", "/f"),
	    "split: any scheme curl knows");
	ok(splits("not a url", NULL, NULL, NULL), "split: -1, nothing set");
	return tap_done();
}
