/* SPDX-License-Identifier: MIT */
#ifndef UK_CACHE_REMOTE_INT_H
#define UK_CACHE_REMOTE_INT_H

/*
 * The backend interface of cache_remote.c, private to it and its
 * backends (cache_remote_redis.c, cache_remote_http.c).  A backend
 * speaks to one store: it connects on first use, and on any error
 * returns -1 with a message in s->msg and drops its connection (the next
 * call connects again).
 */

#include "buf.h"
#include "cache_remote.h"

struct uk_cache_store;

struct uk_cache_backend {
	const char *scheme; /* "redis", "http", "https" */
	/* Parse s->url into s->conn (backend state): 0, or -1 with s->msg. */
	int (*parse)(struct uk_cache_store *s);
	/* The value of name into out: 1 found, 0 absent, -1 error; *left the
	 * milliseconds it still lives, or -1. */
	int (*get)(struct uk_cache_store *s, const char *name,
	    struct uk_buf *out, long long *left);
	/* Store data[0..len) as name for ttl seconds (0: no expiry): 0, or
	 * -1. */
	int (*put)(struct uk_cache_store *s, const char *name,
	    const char *data, size_t len, long ttl);
	/* Store data[0..len) as name (ttl 0: no expiry) when the value
	 * there begins with ver ("": when there is none): 1 stored, 0 it
	 * changed, -1 error.  NULL for a store that cannot compare: put
	 * is used. */
	int (*put_if)(struct uk_cache_store *s, const char *name,
	    const char *data, size_t len, long ttl, const char *ver);
	/* Delete name: 1 deleted, 0 absent, -1 error. */
	int (*del)(struct uk_cache_store *s, const char *name);
	/* Delete every name of prefix followed by 16 characters: the count
	 * deleted, -1 (an error), or -2 when the store cannot list its
	 * names (an http server without PROPFIND). */
	long (*clear)(struct uk_cache_store *s, const char *prefix);
	/* Drop the connection and free s->conn. */
	void (*close)(struct uk_cache_store *s);
};

struct uk_cache_store {
	const struct uk_cache_backend *be;
	char *url;      /* as given, without its attributes */
	char *name;     /* url without a password, for messages and stats */
	char *password; /* from password-file, or NULL */
	int read_only, remote_only;
	int connect_ms, op_ms;
	int failures;   /* errors in a row */
	int skipped;    /* given up on for this run */
	struct uk_cache_remote_count count;
	void *conn;     /* the backend's */
	char msg[256];  /* the last error */
};

extern const struct uk_cache_backend uk_cache_backend_redis;
/* http:// and https://, one object per key (cache_remote_http.c). */
extern const struct uk_cache_backend uk_cache_backend_http;
extern const struct uk_cache_backend uk_cache_backend_https;

#endif
