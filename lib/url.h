/* SPDX-License-Identifier: MIT */
#ifndef UK_URL_H
#define UK_URL_H

/*
 * Classifying a URL (the types of urlkit(7)) and naming it for display.
 * uk_url_classify parses with libcurl's curl_url.  uk_url_view, for
 * urldetect's stream of URLs, splits by hand only the URLs whose host and
 * path curl would return as written (a host name, or an IPv4 or IPv6
 * address in curl's own form; no user, no dot segment, no byte curl
 * refuses) and passes every other URL to uk_url_classify; both classify
 * the host and path they get with the same code, so both give the same
 * answer (tests/unit/t_url_view compares them).
 */

#include <stddef.h>

struct yajl_val_s;

enum uk_url_type {
	UK_URL_GITHUB_REPO,
	UK_URL_GITHUB_FILE,
	UK_URL_GITHUB_ISSUE,
	UK_URL_GITHUB_PR,
	UK_URL_DOCUMENTATION,
	UK_URL_WEB,
	UK_URL_UNKNOWN
};

/*
 * What classification found.  Strings are owned by the struct (NULL when
 * absent); issue_number and pr_number are 0 when absent.
 */
struct uk_url {
	enum uk_url_type type;
	char *scheme;  /* lower case */
	char *host;    /* as curl gives it, lower case */
	char *path;    /* with its leading '/' */
	char *owner, *repo, *branch, *file; /* GitHub fields; file is the path */
	long issue_number, pr_number;
	char *display;
};

/*
 * Classify url.  Always fills u (a URL curl cannot parse, or with a scheme
 * other than http or https, is UK_URL_UNKNOWN with display set to the URL
 * cut to 40 characters).  Release with uk_url_release.
 */
void uk_url_classify(const char *url, struct uk_url *u);
void uk_url_release(struct uk_url *u);

/* Display names are cut to this many characters, "..." included. */
#define UK_URL_DISPLAY_MAX 40

/* A piece of a string, s[0..n); s is NULL when the piece is absent. */
struct uk_url_span {
	const char *s;
	size_t n;
};

/*
 * What uk_url_classify finds, without allocating for most URLs: the
 * GitHub fields are spans into the URL (or into strings the view owns),
 * the display name a span into the view.  Release with
 * uk_url_view_release.
 */
struct uk_url_view {
	enum uk_url_type type;
	struct uk_url_span owner, repo, branch, file;
	long issue_number, pr_number;
	struct uk_url_span display;
	/*
	 * 0: uk_url_classify decided.  1: the URL was split by hand, and
	 * the strings above are pieces of it cut between characters (the
	 * host in lower case) and ASCII ('/', '#', '!', digits, "...").  2:
	 * besides, the URL is ASCII without a quote (nor a control byte or a
	 * backslash): as a JSON string, it and its pieces are themselves in
	 * quotes.
	 */
	int plain;

	/* Private: what the spans may point into. */
	char dbuf[4 * UK_URL_DISPLAY_MAX + 1]; /* 4 bytes a character */
	int slow;              /* slowu holds a uk_url_classify result */
	struct uk_url slowu;
	char *heap;            /* a display built on the heap, or NULL */
};

/*
 * Classify url[0..n) as uk_url_classify classifies the string of those
 * bytes (up to a NUL, if it holds one): the same type, GitHub fields and
 * display name.  Fills v always.  With UK_URL_VIEW_CURL in flags every
 * URL goes through uk_url_classify (the reference the fast way is
 * compared with).
 */
#define UK_URL_VIEW_CURL 1
void uk_url_view(const char *url, size_t n, int flags,
    struct uk_url_view *v);
void uk_url_view_release(struct uk_url_view *v);

/* "github_repo", ..., "unknown". */
const char *uk_url_type_name(enum uk_url_type t);
/* The type named s, or -1. */
int uk_url_type_parse(const char *s);

/*
 * Set "type", "display" and "github" (when it applies) on the record rec,
 * replacing what it had; a non-GitHub URL loses a stale "github".
 */
void uk_url_to_record(const struct uk_url *u, struct yajl_val_s *rec);

/*
 * The error of a url field that holds NUL ("https://a.example/j\u0000evil"):
 * as a C string it would be https://a.example/j, so no program opens,
 * classifies or looks it up; each gives this error instead.
 */
#define UK_URL_NUL_ERROR "the URL holds a NUL byte (\\u0000)"

#endif
