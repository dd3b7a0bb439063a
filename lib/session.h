/* SPDX-License-Identifier: MIT */
#ifndef UK_SESSION_H
#define UK_SESSION_H

/*
 * Named sessions: a conversation's working set of fetched URLs (what an
 * LLM application keeps in memory as its "fetched" dict) made durable, for
 * scripts and agents that run one command at a time (urlcache(1)).
 *
 * A session NAME is the directory DIR/sessions/NAME under the cache
 * directory, holding one file KEY.json per record added (the content
 * record as given, errors included), written atomically as cache entries
 * are.  The order of a listing is the order in which URLs were first
 * added.
 *
 * A session's last change is its directory's modification time (a record
 * added, replaced or removed renames or unlinks in it).  A session whose
 * last change is older than the cache's time to live is expired, and
 * urlcache cleanup deletes it (uk_session_expire), unless it is kept: an
 * empty file .keep in its directory (uk_session_keep), so that a listing
 * of the directory shows which sessions are kept.
 *
 * NAME is 1 to 64 of [A-Za-z0-9._-], not starting with a dot.
 *
 * With remote stores (the cache's, cache_remote.h), a session also lives
 * in the first store neither read-only nor skipped, as one value
 * "urlkit-session:NAME" (its records in order, its last change, whether
 * it is kept), so that another host with another cache directory reads
 * and changes the same session.  Every change is made in the directory
 * and then in the store (a Redis store compares and sets, so that two
 * writers lose nothing; an http store keeps the last writer's); a read
 * answers from the store when it has the session, else from the
 * directory (a session made before the store was set is copied there at
 * its next change).  The store's copy expires after the cache's TTL from
 * its last change unless kept, by the store's own expiry; urlcache
 * cleanup (local_only) never touches it, nor lists it: uk_session_walk
 * lists the directory's sessions.
 */

#include <string.h>

#include "cache.h"
#include "json.h"
#include "util.h"

struct uk_session {
	struct uk_cache *cache; /* not owned */
	char *name;
	char *dir; /* DIR/sessions/NAME */
	/* Set by the caller after uk_session_open: the local directory
	 * only, never the remote store (urlcache cleanup). */
	int local_only;
};

/*
 * Whether name is a valid session name (inline: urlfetch checks -S without
 * linking the cache).
 */
static inline int
uk_session_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
			ch == '-'))
			return 0;
	}
	return 1;
}

/* Set up s for name in cache c: 0, or -1 with err (a bad name: code 2). */
int uk_session_open(struct uk_session *s, struct uk_cache *c, const char *name,
    struct uk_err *err);
void uk_session_release(struct uk_session *s);

/*
 * Add the record rec (a string "url" required; "cached" is not stored).
 * A URL already in the session is replaced and keeps its place.  0, or -1
 * with err (code UK_EXIT_FATAL when the directory cannot be written).
 */
int uk_session_add(struct uk_session *s, yajl_val rec, struct uk_err *err);

/* The session's record of url: 1 with *rec (caller frees), 0, -1. */
int uk_session_get(struct uk_session *s, const char *url, yajl_val *rec,
    struct uk_err *err);

/*
 * get_url_content: the session's record of url, else the
 * cache's (fresh) entry.  1 from the session, 2 from the cache (with
 * "cached":true set), 0 in neither (the caller answers an error record),
 * -1 with err.
 */
int uk_session_content(struct uk_session *s, const char *url, yajl_val *rec,
    struct uk_err *err);

/* Remove url from the session only: 1 removed, 0 not there, -1 error. */
int uk_session_remove(struct uk_session *s, const char *url,
    struct uk_err *err);

/* Empty the session; returns how many records went, or -1 with err. */
long uk_session_remove_all(struct uk_session *s, struct uk_err *err);

/*
 * Every record in the session, as a new JSON array in the order added
 * (*list, caller frees; an empty array when the session does not exist).
 * 0, or -1 with err.  Unreadable or corrupt files are skipped.
 */
int uk_session_list(struct uk_session *s, yajl_val *list, struct uk_err *err);

/* Whether the session exists (its directory does): 1, 0, or -1 with err. */
int uk_session_exists(struct uk_session *s, struct uk_err *err);

/* Mark the session kept (creating it when missing): 0, or -1 with err. */
int uk_session_keep(struct uk_session *s, struct uk_err *err);

/* What a listing of sessions says of one (uk_session_stat). */
struct uk_session_stat {
	long records;      /* KEY.json files */
	long long bytes;   /* their sizes */
	long long changed; /* the last change, ns since the epoch */
	int keep;          /* .keep is there */
	int expired;       /* !keep and changed + ttl <= now */
	int store;         /* the figures are the remote store's copy's */
	int deleted;       /* the store's copy says it was cleared (its
	                      records and bytes are then 0) */
};

/* Fill st for an existing session: 0, or -1 with err (code 1). */
int uk_session_stat(struct uk_session *s, struct uk_session_stat *st,
    struct uk_err *err);

/*
 * Delete the session: its records, its temporary files, .keep and the
 * directory.  Returns how many records went, or -1 with err.
 */
long uk_session_delete(struct uk_session *s, struct uk_err *err);

/*
 * Call fn for the name of each session of cache c (DIR/sessions/NAME
 * directories with a valid name), in name order; fn returns nonzero to
 * stop.  0 (also when there is no session), or -1 with err.
 */
int uk_session_walk(struct uk_cache *c, int (*fn)(void *ctx, const char *name),
    void *ctx, struct uk_err *err);

#endif
