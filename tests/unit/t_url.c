/* SPDX-License-Identifier: MIT */
/*
 * Classification and display names: every case urldetect(1) documents
 * (url_type and display_name).
 */
#include <string.h>

#include "url.h"
#include "tap.h"

static const struct {
	const char *url, *type, *display, *owner, *repo, *branch, *path;
	long issue, pr;
} cases[] = {
	/* GitHub repository, with trailing slash, with .git */
	{ "https://github.com/jqlang/jq", "github_repo", "jqlang/jq", "jqlang",
	    "jq", NULL, NULL, 0, 0 },
	{ "https://github.com/jqlang/jq/", "github_repo", "jqlang/jq",
	    "jqlang", "jq", NULL, NULL, 0, 0 },
	{ "https://github.com/jqlang/jq.git", "github_repo", "jqlang/jq",
	    "jqlang", "jq", NULL, NULL, 0, 0 },
	{ "http://www.github.com/a/b", "github_repo", "a/b", "a", "b", NULL,
	    NULL, 0, 0 },
	{ "https://github.com/a/b/tree/dev/src", "github_repo", "a/b", "a", "b",
	    "dev", "src", 0, 0 },
	/* /commit/SHA (7 to 40 hexadecimal digits): the repository there */
	{ "https://github.com/o/r/commit/0123abc", "github_repo", "o/r", "o",
	    "r", "0123abc", NULL, 0, 0 },
	{ "https://github.com/o/r/commit/0123ab", "web",
	    "github.com/o/r/commit/0123ab", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://github.com/o/r/commit/0123abg", "web",
	    "github.com/o/r/commit/0123abg", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://github.com/o/r/commit/0123abc/x", "web",
	    "github.com/o/r/commit/0123abc/x", NULL, NULL, NULL, NULL, 0, 0 },
	/* GitHub file: owner/repo/branch/path */
	{ "https://github.com/owner/repo/blob/main/src/lib/x.py",
	    "github_file", "owner/repo/x.py", "owner", "repo", "main",
	    "src/lib/x.py", 0, 0 },
	{ "https://raw.githubusercontent.com/owner/repo/master/README.md",
	    "github_file", "owner/repo/README.md", "owner", "repo", "master",
	    "README.md", 0, 0 },
	{ "https://raw.githubusercontent.com/o/r/refs/heads/dev/a/b.c",
	    "github_file", "o/r/b.c", "o", "r", "dev", "a/b.c", 0, 0 },
	/* Issue #N and pull request !N */
	{ "https://github.com/owner/repo/issues/42", "github_issue",
	    "owner/repo#42", "owner", "repo", NULL, NULL, 42, 0 },
	{ "https://github.com/owner/repo/pull/7", "github_pr", "owner/repo!7",
	    "owner", "repo", NULL, NULL, 0, 7 },
	{ "https://github.com/owner/repo/pull/7/files", "github_pr",
	    "owner/repo!7", "owner", "repo", NULL, NULL, 0, 7 },
	/* Other GitHub pages are web pages */
	{ "https://github.com/torvalds", "web", "github.com/torvalds", NULL,
	    NULL, NULL, NULL, 0, 0 },
	{ "https://github.com/a/b/releases/tag/v1", "web",
	    "github.com/a/b/releases/tag/v1", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://github.com/features/actions", "web",
	    "github.com/features/actions", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://github.com/a/b/issues/new", "web",
	    "github.com/a/b/issues/new", NULL, NULL, NULL, NULL, 0, 0 },
	/* Documentation: known domains, readthedocs, paths */
	{ "https://docs.python.org/3/library/re.html", "documentation",
	    "docs.python.org/3/library/re.html", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://developer.mozilla.org/en-US/", "documentation",
	    "developer.mozilla.org/en-US", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://requests.readthedocs.io/en/latest/", "documentation",
	    "requests.readthedocs.io/en/latest", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/docs/intro", "documentation",
	    "example.com/docs/intro", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/documentation/x", "documentation",
	    "example.com/documentation/x", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/api/v2/users", "documentation",
	    "example.com/api/v2/users", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/reference/", "documentation",
	    "example.com/reference", NULL, NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/apidocs/", "web", "example.com/apidocs", NULL,
	    NULL, NULL, NULL, 0, 0 },
	/* Generic web: hostname/path, root without slash, cut to 40 */
	{ "https://example.com/", "web", "example.com", NULL, NULL, NULL, NULL,
	    0, 0 },
	{ "https://example.com", "web", "example.com", NULL, NULL, NULL, NULL,
	    0, 0 },
	{ "http://example.com/a/b?q=1#f", "web", "example.com/a/b", NULL,
	    NULL, NULL, NULL, 0, 0 },
	{ "https://example.com/a/very/long/path/that/goes/on/and/on/forever",
	    "web", "example.com/a/very/long/path/that/goe...", NULL, NULL,
	    NULL, NULL, 0, 0 },
	/* Unknown: other schemes and what curl cannot parse */
	{ "ftp://example.com/file", "unknown", "ftp://example.com/file", NULL,
	    NULL, NULL, NULL, 0, 0 },
	{ "file:///etc/passwd", "unknown", "file:///etc/passwd", NULL, NULL,
	    NULL, NULL, 0, 0 },
	{ "not a url", "unknown", "not a url", NULL, NULL, NULL, NULL, 0, 0 },
};

static int
same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct uk_url u;

		uk_url_classify(cases[i].url, &u);
		ok(!strcmp(uk_url_type_name(u.type), cases[i].type),
		    "%s is %s (got %s)", cases[i].url, cases[i].type,
		    uk_url_type_name(u.type));
		ok(!strcmp(u.display, cases[i].display),
		    "%s displays as '%s' (got '%s')", cases[i].url,
		    cases[i].display, u.display);
		ok(same(u.owner, cases[i].owner) && same(u.repo, cases[i].repo) &&
			same(u.branch, cases[i].branch) &&
			same(u.file, cases[i].path) &&
			u.issue_number == cases[i].issue &&
			u.pr_number == cases[i].pr,
		    "%s github fields", cases[i].url);
		uk_url_release(&u);
	}
	ok(strlen("example.com/a/very/long/path/that/goe...") == 40,
	    "the cut display is 40 characters");
	ok(uk_url_type_parse("documentation") == UK_URL_DOCUMENTATION &&
		uk_url_type_parse("nope") == -1,
	    "type names parse");
	return tap_done();
}
