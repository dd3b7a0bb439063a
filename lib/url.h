/* SPDX-License-Identifier: MIT */
#ifndef UK_URL_H
#define UK_URL_H

/*
 * Classifying a URL (the types of urlkit(7)) and naming it for display.
 * Parsing is libcurl's curl_url; nothing here parses a URL by hand beyond
 * splitting the path curl returns into segments.
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

/* "github_repo", ..., "unknown". */
const char *uk_url_type_name(enum uk_url_type t);
/* The type named s, or -1. */
int uk_url_type_parse(const char *s);

/*
 * Set "type", "display" and "github" (when it applies) on the record rec,
 * replacing what it had; a non-GitHub URL loses a stale "github".
 */
void uk_url_to_record(const struct uk_url *u, struct yajl_val_s *rec);

/* Display names are cut to this many characters, "..." included. */
#define UK_URL_DISPLAY_MAX 40

/*
 * The error of a url field that holds NUL ("https://a.example/j\u0000evil"):
 * as a C string it would be https://a.example/j, so no program opens,
 * classifies or looks it up; each gives this error instead.
 */
#define UK_URL_NUL_ERROR "the URL holds a NUL byte (\\u0000)"

#endif
