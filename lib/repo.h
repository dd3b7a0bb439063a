/* SPDX-License-Identifier: MIT */
#ifndef UK_REPO_H
#define UK_REPO_H

/*
 * Fetching a git repository for urlfetch: a snapshot (GitHub archive
 * streamed through libarchive, else a libgit2 clone into a private
 * temporary directory), the README, and the ranked symbol map.
 *
 * (This header is the contract between the repository module and
 * urlfetch; the implementation may add to it.)
 */

#include "json.h"
#include "url.h"
#include "util.h"

struct uk_repo_opts {
	double timeout;               /* whole step, seconds (120) */
	unsigned long long max_bytes; /* snapshot size cap */
	unsigned long max_files;      /* file count cap */
	long map_tokens;              /* symbol map budget (1024) */
	int map_json;                 /* also "symbols": [...] */
	int allow_private;            /* SSRF guard off */
	int insecure;                 /* -k */
};

void uk_repo_opts_init(struct uk_repo_opts *o);

/*
 * Fetch the repository that url (classified as u) names, and fill the
 * content record rec: title, description, readme, symbol_map, github_info
 * and, with map_json, symbols.  0, or -1 with err (the caller turns it
 * into the record's error).
 */
int uk_repo_fetch(const struct uk_url *u, const char *url,
    const struct uk_repo_opts *o, yajl_val rec, struct uk_err *err);

#endif
