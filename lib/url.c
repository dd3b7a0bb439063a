/* SPDX-License-Identifier: MIT */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "url.h"
#include "buf.h"
#include "json.h"
#include "banned.h"

static const char *const type_names[] = {
	"github_repo", "github_file", "github_issue", "github_pr",
	"documentation", "web", "unknown",
};

const char *
uk_url_type_name(enum uk_url_type t)
{
	return type_names[t];
}

int
uk_url_type_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(*type_names); i++)
		if (!strcmp(s, type_names[i]))
			return (int)i;
	return -1;
}

void
uk_url_release(struct uk_url *u)
{
	free(u->scheme);
	free(u->host);
	free(u->path);
	free(u->owner);
	free(u->repo);
	free(u->branch);
	free(u->file);
	free(u->display);
	memset(u, 0, sizeof(*u));
	u->type = UK_URL_UNKNOWN;
}

/* Copy s into out cut to UK_URL_DISPLAY_MAX characters, "..." included. */
static char *
cut_display(const char *s)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t i = 0, chars = 0, keep = 0, n = strlen(s);

	while (i < n) {
		size_t k = uk_utf8_seqlen((const unsigned char *)s + i, n - i);

		if (!k)
			k = 1;
		chars++;
		if (chars == UK_URL_DISPLAY_MAX - 3)
			keep = i + k;
		i += k;
	}
	if (chars <= UK_URL_DISPLAY_MAX) {
		uk_buf_addstr(&b, s);
	} else {
		uk_buf_add_utf8(&b, s, keep);
		uk_buf_addstr(&b, "...");
	}
	return uk_buf_detach(&b, NULL);
}

/* Split path into at most max segments (empty ones dropped). */
static size_t
segments(const char *path, char **seg, size_t max, const char **rest)
{
	size_t n = 0;
	const char *p = path, *q;

	*rest = NULL;
	while (*p && n < max) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		q = strchr(p, '/');
		if (!q)
			q = p + strlen(p);
		seg[n++] = uk_xmemdup(p, (size_t)(q - p));
		p = q;
	}
	while (*p == '/')
		p++;
	if (*p)
		*rest = p;
	return n;
}

/* A commit id as GitHub takes one: 7 to 40 hexadecimal digits. */
static int
is_commit_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 40 && !s[n];
}

static int
is_number(const char *s, long *out)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return 0;
	*out = strtol(s, &end, 10);
	return !*end && *out > 0;
}

/*
 * First path segments on github.com that are site pages, not owners.
 * Not exhaustive: a user page and unknown site pages are web anyway,
 * this list only stops /features/x from being taken for a repository.
 */
static int
reserved_owner(const char *s)
{
	static const char *const names[] = { "about", "apps", "blog",
		"collections", "contact", "customer-stories", "enterprise",
		"events", "explore", "features", "issues", "join", "login",
		"logout", "marketplace", "new", "notifications", "orgs",
		"organizations", "pricing", "pulls", "search", "security",
		"settings", "site", "sponsors", "topics", "trending", "users",
		NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcasecmp(s, names[i]))
			return 1;
	return 0;
}

static void
github(struct uk_url *u, int raw)
{
	char *seg[5] = { 0 };
	const char *rest;
	size_t n, i, len;
	long num;

	n = segments(u->path, seg, raw ? 3 : 4, &rest);
	if (raw) {
		/* raw.githubusercontent.com/OWNER/REPO/BRANCH/PATH, where
		 * BRANCH may be written refs/heads/NAME. */
		if (n == 3 && rest && !strcmp(seg[2], "refs") &&
		    !strncmp(rest, "heads/", 6) && strchr(rest + 6, '/')) {
			const char *b = rest + 6, *sl = strchr(b, '/');

			free(seg[2]);
			seg[2] = uk_xmemdup(b, (size_t)(sl - b));
			rest = sl + 1;
		}
		if (n == 3 && rest) {
			u->type = UK_URL_GITHUB_FILE;
			u->owner = seg[0];
			u->repo = seg[1];
			u->branch = seg[2];
			u->file = uk_xstrdup(rest);
			return;
		}
		goto web;
	}
	if (n < 2 || reserved_owner(seg[0]))
		goto web;
	u->owner = seg[0];
	u->repo = seg[1];
	seg[0] = seg[1] = NULL;
	len = strlen(u->repo);
	if (len > 4 && !strcmp(u->repo + len - 4, ".git"))
		u->repo[len - 4] = '\0';
	if (n == 2) {
		u->type = UK_URL_GITHUB_REPO;
		goto out;
	}
	if (n < 4)
		goto unrecognised;
	if (!strcmp(seg[2], "blob") && n == 4 && rest) {
		u->type = UK_URL_GITHUB_FILE;
		u->branch = seg[3];
		seg[3] = NULL;
		u->file = uk_xstrdup(rest);
		goto out;
	}
	if (!strcmp(seg[2], "tree") && n == 4) {
		/* /tree/BRANCH[/PATH]: the repository at that branch. */
		u->type = UK_URL_GITHUB_REPO;
		u->branch = seg[3];
		seg[3] = NULL;
		if (rest)
			u->file = uk_xstrdup(rest);
		goto out;
	}
	if (!strcmp(seg[2], "commit") && n == 4 && !rest &&
	    is_commit_id(seg[3])) {
		/* /commit/SHA: the repository at that commit, as /tree/SHA. */
		u->type = UK_URL_GITHUB_REPO;
		u->branch = seg[3];
		seg[3] = NULL;
		goto out;
	}
	if (n == 4 && is_number(seg[3], &num)) {
		/* /issues/N and /pull/N, also with a tab: /pull/N/files. */
		if (!strcmp(seg[2], "issues")) {
			u->type = UK_URL_GITHUB_ISSUE;
			u->issue_number = num;
			goto out;
		}
		if (!strcmp(seg[2], "pull")) {
			u->type = UK_URL_GITHUB_PR;
			u->pr_number = num;
			goto out;
		}
	}
unrecognised:
	free(u->owner);
	free(u->repo);
	u->owner = u->repo = NULL;
web:
	u->type = UK_URL_WEB;
out:
	for (i = 0; i < 5; i++)
		free(seg[i]);
	if (u->type == UK_URL_WEB) {
		free(u->branch);
		free(u->file);
		u->branch = u->file = NULL;
	}
}

static int
host_is(const char *host, const char *name)
{
	return !strcmp(host, name);
}

static int
host_under(const char *host, const char *domain)
{
	size_t h = strlen(host), d = strlen(domain);

	return h > d && host[h - d - 1] == '.' && !strcmp(host + h - d, domain);
}

/* Documentation hosts: the host itself or any name under it. */
static const char *const doc_hosts[] = { "docs.python.org",
	"developer.mozilla.org", "docs.rs", "doc.rust-lang.org", "pkg.go.dev",
	"man7.org", "cppreference.com", "learn.microsoft.com",
	"docs.oracle.com", "docs.github.com", "devdocs.io", "man.openbsd.org",
	"manpages.debian.org", "docs.djangoproject.com", "docs.docker.com",
	"kubernetes.io", "nodejs.org", "typescriptlang.org", "ruby-doc.org",
	"docs.ruby-lang.org", "hexdocs.pm", "javadoc.io", "readthedocs.io",
	"readthedocs.org", "readthedocs-hosted.com", NULL };

/*
 * Whether host dresses up as a known name: the name followed by more labels
 * ("docs.python.org.example.net", "github.com.evil.example",
 * "x.readthedocs.io.evil.example").  Such a host belongs to whoever owns
 * its last labels, so it is plain web, whatever its path says.
 */
static int
lookalike(const char *host)
{
	static const char *const others[] = { "github.com",
		"raw.githubusercontent.com", NULL };
	const char *const *lists[] = { doc_hosts, others };
	const char *p;
	size_t i, j, n;

	for (i = 0; i < 2; i++)
		for (j = 0; lists[i][j]; j++) {
			n = strlen(lists[i][j]);
			for (p = host; (p = strstr(p, lists[i][j])); p++)
				if ((p == host || p[-1] == '.') && p[n] == '.')
					return 1;
		}
	return 0;
}

/*
 * Documentation by host: a known documentation host or a name under it,
 * or a first label "docs" (docs.example.com).
 */
static int
doc_host(const char *host)
{
	size_t i;

	for (i = 0; doc_hosts[i]; i++)
		if (host_is(host, doc_hosts[i]) ||
		    host_under(host, doc_hosts[i]))
			return 1;
	return !strncmp(host, "docs.", 5);
}

/* Documentation by path: a segment docs, documentation, api, reference. */
static int
doc_path(const char *path)
{
	static const char *const names[] = { "docs", "documentation", "api",
		"reference", NULL };
	const char *p = path;
	size_t i, n;

	while (*p) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		for (i = 0; names[i]; i++)
			if (n == strlen(names[i]) && !strncasecmp(p, names[i], n))
				return 1;
		p += n;
	}
	return 0;
}

static char *
lower_dup(const char *s)
{
	char *d = uk_xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	return d;
}

static void
make_display(struct uk_url *u, const char *url)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *slash;

	switch (u->type) {
	case UK_URL_GITHUB_REPO:
		uk_buf_addf(&b, "%s/%s", u->owner, u->repo);
		break;
	case UK_URL_GITHUB_FILE:
		slash = strrchr(u->file, '/');
		uk_buf_addf(&b, "%s/%s/%s", u->owner, u->repo,
		    slash ? slash + 1 : u->file);
		break;
	case UK_URL_GITHUB_ISSUE:
		uk_buf_addf(&b, "%s/%s#%ld", u->owner, u->repo, u->issue_number);
		break;
	case UK_URL_GITHUB_PR:
		uk_buf_addf(&b, "%s/%s!%ld", u->owner, u->repo, u->pr_number);
		break;
	case UK_URL_UNKNOWN:
		uk_buf_addstr(&b, url);
		break;
	default:
		uk_buf_addstr(&b, u->host);
		uk_buf_addstr(&b, u->path);
		while (b.len > strlen(u->host) && b.buf[b.len - 1] == '/')
			uk_buf_setlen(&b, b.len - 1);
	}
	u->display = cut_display(b.buf);
	uk_buf_release(&b);
}

void
uk_url_classify(const char *url, struct uk_url *u)
{
	CURLU *h = curl_url();
	char *scheme = NULL, *host = NULL, *path = NULL;
	size_t n;

	memset(u, 0, sizeof(*u));
	u->type = UK_URL_UNKNOWN;
	if (!h)
		uk_die(UK_EXIT_FATAL, "out of memory");
	if (curl_url_set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) ||
	    curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) ||
	    curl_url_get(h, CURLUPART_HOST, &host, 0) ||
	    curl_url_get(h, CURLUPART_PATH, &path, 0))
		goto out;
	u->scheme = lower_dup(scheme);
	u->host = lower_dup(host);
	u->path = uk_xstrdup(path);
	if (strcmp(u->scheme, "http") && strcmp(u->scheme, "https"))
		goto out;
	u->type = UK_URL_WEB;
	n = strlen(u->host);
	while (n > 1 && u->host[n - 1] == '.')
		u->host[--n] = '\0'; /* "github.com." is github.com */
	if (lookalike(u->host))
		goto out; /* web */
	if (host_is(u->host, "github.com") || host_is(u->host, "www.github.com"))
		github(u, 0);
	else if (host_is(u->host, "raw.githubusercontent.com"))
		github(u, 1);
	else if (doc_host(u->host) || doc_path(u->path))
		u->type = UK_URL_DOCUMENTATION;
out:
	make_display(u, url);
	curl_free(scheme);
	curl_free(host);
	curl_free(path);
	curl_url_cleanup(h);
}

void
uk_url_to_record(const struct uk_url *u, struct yajl_val_s *rec)
{
	yajl_val gh;

	uk_json_set_str(rec, "type", uk_url_type_name(u->type));
	uk_json_set_str(rec, "display", u->display);
	if (!u->owner) {
		uk_json_del(rec, "github");
		return;
	}
	gh = uk_json_object();
	uk_json_set_str(gh, "owner", u->owner);
	uk_json_set_str(gh, "repo", u->repo);
	if (u->branch)
		uk_json_set_str(gh, "branch", u->branch);
	if (u->file)
		uk_json_set_str(gh, "path", u->file);
	if (u->issue_number)
		uk_json_set_int(gh, "issue_number", u->issue_number);
	if (u->pr_number)
		uk_json_set_int(gh, "pr_number", u->pr_number);
	uk_json_set(rec, "github", gh);
}
