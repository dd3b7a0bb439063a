/* SPDX-License-Identifier: MIT */
/*
 * Reference resolution: RFC 3986's examples in 5.4.1 (normal) and 5.4.2
 * (abnormal) against its base, and what pages hold (spaces, no base).
 */
#include <stdlib.h>
#include <string.h>

#include "urlref.h"
#include "tap.h"

#define BASE "http://a/b/c/d;p?q"

static const struct {
	const char *base, *ref, *want;
} cases[] = {
	/* 5.4.1 */
	{ BASE, "g:h", "g:h" },
	{ BASE, "g", "http://a/b/c/g" },
	{ BASE, "./g", "http://a/b/c/g" },
	{ BASE, "g/", "http://a/b/c/g/" },
	{ BASE, "/g", "http://a/g" },
	{ BASE, "//g", "http://g" },
	{ BASE, "?y", "http://a/b/c/d;p?y" },
	{ BASE, "g?y", "http://a/b/c/g?y" },
	{ BASE, "#s", "http://a/b/c/d;p?q#s" },
	{ BASE, "g#s", "http://a/b/c/g#s" },
	{ BASE, "g?y#s", "http://a/b/c/g?y#s" },
	{ BASE, ";x", "http://a/b/c/;x" },
	{ BASE, "g;x", "http://a/b/c/g;x" },
	{ BASE, "g;x?y#s", "http://a/b/c/g;x?y#s" },
	{ BASE, "", NULL },
	{ BASE, ".", "http://a/b/c/" },
	{ BASE, "./", "http://a/b/c/" },
	{ BASE, "..", "http://a/b/" },
	{ BASE, "../", "http://a/b/" },
	{ BASE, "../g", "http://a/b/g" },
	{ BASE, "../..", "http://a/" },
	{ BASE, "../../", "http://a/" },
	{ BASE, "../../g", "http://a/g" },
	/* 5.4.2 */
	{ BASE, "../../../g", "http://a/g" },
	{ BASE, "../../../../g", "http://a/g" },
	{ BASE, "/./g", "http://a/g" },
	{ BASE, "/../g", "http://a/g" },
	{ BASE, "g.", "http://a/b/c/g." },
	{ BASE, ".g", "http://a/b/c/.g" },
	{ BASE, "g..", "http://a/b/c/g.." },
	{ BASE, "..g", "http://a/b/c/..g" },
	{ BASE, "./../g", "http://a/b/g" },
	{ BASE, "./g/.", "http://a/b/c/g/" },
	{ BASE, "g/./h", "http://a/b/c/g/h" },
	{ BASE, "g/../h", "http://a/b/c/h" },
	{ BASE, "g;x=1/./y", "http://a/b/c/g;x=1/y" },
	{ BASE, "g;x=1/../y", "http://a/b/c/y" },
	{ BASE, "g?y/./x", "http://a/b/c/g?y/./x" },
	{ BASE, "g#s/../x", "http://a/b/c/g#s/../x" },
	/* What pages hold. */
	{ "https://example.com", "a.html", "https://example.com/a.html" },
	{ "https://example.com/x/", "  b c.png\t", "https://example.com/x/b%20c.png" },
	{ "https://example.com/x", "HTTPS://Other.example/Y", "HTTPS://Other.example/Y" },
	{ NULL, "../rel.html", "../rel.html" },
	{ "file:///tmp/page.html", "img/a.png", "file:///tmp/img/a.png" },
	{ "not a url", "a.html", "a.html" },
};

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = uk_urlref_resolve(cases[i].base, cases[i].ref);

		ok(cases[i].want ? got && !strcmp(got, cases[i].want) : !got,
		    "'%s' on '%s': '%s' (want '%s')", cases[i].ref,
		    cases[i].base ? cases[i].base : "(none)",
		    got ? got : "(null)",
		    cases[i].want ? cases[i].want : "(null)");
		free(got);
	}
	return tap_done();
}
