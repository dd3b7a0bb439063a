/* SPDX-License-Identifier: MIT */
/*
 * The Redis backend of cache_remote.c, through hiredis: GET with PTTL for
 * a read, SET with EX for a write (the TTL as the key's expiry), DEL, and
 * a compare and set for a session's value (EVAL of a short script).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <hiredis/hiredis.h>

#include "buf.h"
#include "cache_remote_int.h"
#include "util.h"

#include "banned.h"

struct rconn {
	char *host;
	int port;
	long db;
	char *user, *pass; /* NULL when not given */
	redisContext *ctx;
};

/* The URL's text between from and to, percent-decoding left out: a
 * password with reserved characters belongs in password-file. */
static char *
dup_span(const char *from, const char *to)
{
	return uk_util_xmemdup(from, (size_t)(to - from));
}

static int
r_parse(struct uk_cache_store *s)
{
	struct rconn *c = uk_util_xcalloc(1, sizeof(*c));
	const char *p = s->url + strlen("redis://"), *at, *hend, *slash, *colon;
	long v;

	s->conn = c;
	c->port = 6379;
	slash = strchr(p, '/');
	at = memchr(p, '@', slash ? (size_t)(slash - p) : strlen(p));
	if (at) {
		colon = memchr(p, ':', (size_t)(at - p));
		if (colon) {
			if (colon > p)
				c->user = dup_span(p, colon);
			c->pass = dup_span(colon + 1, at);
		} else {
			c->pass = dup_span(p, at);
		}
		p = at + 1;
	}
	if (s->password) {
		free(c->pass);
		c->pass = uk_util_xstrdup(s->password);
	}
	hend = slash ? slash : p + strlen(p);
	if (*p == '[') {
		const char *rb = memchr(p, ']', (size_t)(hend - p));

		if (!rb)
			goto bad;
		c->host = dup_span(p + 1, rb);
		p = rb + 1;
	} else {
		colon = memchr(p, ':', (size_t)(hend - p));
		c->host = dup_span(p, colon ? colon : hend);
		p = colon ? colon : hend;
	}
	if (!*c->host)
		goto bad;
	if (*p == ':') {
		char *port = dup_span(p + 1, hend);
		int bad = uk_util_parse_long(port, 1, 65535, &v);

		free(port);
		if (bad)
			goto bad;
		c->port = (int)v;
	} else if (p != hend) {
		goto bad;
	}
	if (slash && slash[1]) {
		if (uk_util_parse_long(slash + 1, 0, 1000000, &v))
			goto bad;
		c->db = v;
	}
	return 0;
bad:
	snprintf(s->msg, sizeof(s->msg),
	    "not redis://[[USER:]PASSWORD@]HOST[:PORT][/DB]");
	return -1;
}

static void
r_drop(struct rconn *c)
{
	if (c->ctx)
		redisFree(c->ctx);
	c->ctx = NULL;
}

/* The error of a failed command: message, connection dropped, -1. */
static int
r_fail(struct uk_cache_store *s, const char *what, redisReply *rep)
{
	struct rconn *c = s->conn;

	if (rep && rep->type == REDIS_REPLY_ERROR)
		snprintf(s->msg, sizeof(s->msg), "%s: %s", what, rep->str);
	else if (c->ctx && c->ctx->err)
		snprintf(s->msg, sizeof(s->msg), "%s: %s", what,
		    c->ctx->errstr);
	else
		snprintf(s->msg, sizeof(s->msg), "%s: unexpected reply", what);
	if (rep)
		freeReplyObject(rep);
	r_drop(c);
	return -1;
}

/* Connected, authenticated and on the right database: 0, or -1. */
static int
r_connect(struct uk_cache_store *s)
{
	struct rconn *c = s->conn;
	struct timeval ct = { s->connect_ms / 1000,
		(s->connect_ms % 1000) * 1000 };
	struct timeval ot = { s->op_ms / 1000, (s->op_ms % 1000) * 1000 };
	redisReply *rep;

	if (c->ctx)
		return 0;
	c->ctx = redisConnectWithTimeout(c->host, c->port, ct);
	if (!c->ctx || c->ctx->err) {
		snprintf(s->msg, sizeof(s->msg), "connect: %s",
		    c->ctx ? c->ctx->errstr : "out of memory");
		r_drop(c);
		return -1;
	}
	if (redisSetTimeout(c->ctx, ot) != REDIS_OK)
		return r_fail(s, "timeout", NULL);
	if (c->pass) {
		rep = c->user ? redisCommand(c->ctx, "AUTH %s %s", c->user,
				    c->pass) :
				redisCommand(c->ctx, "AUTH %s", c->pass);
		if (!rep || rep->type == REDIS_REPLY_ERROR)
			return r_fail(s, "AUTH", rep);
		freeReplyObject(rep);
	}
	if (c->db) {
		rep = redisCommand(c->ctx, "SELECT %ld", c->db);
		if (!rep || rep->type == REDIS_REPLY_ERROR)
			return r_fail(s, "SELECT", rep);
		freeReplyObject(rep);
	}
	return 0;
}

static int
r_get(struct uk_cache_store *s, const char *name, struct uk_buf *out,
    long long *left)
{
	struct rconn *c = s->conn;
	redisReply *rep = NULL, *ttl = NULL;
	void *v;

	if (r_connect(s))
		return -1;
	/* Both in one round trip: the value and how long it has left. */
	redisAppendCommand(c->ctx, "GET %s", name);
	redisAppendCommand(c->ctx, "PTTL %s", name);
	if (redisGetReply(c->ctx, &v) != REDIS_OK)
		return r_fail(s, "GET", NULL);
	rep = v;
	if (redisGetReply(c->ctx, &v) != REDIS_OK)
		return r_fail(s, "PTTL", rep);
	ttl = v;
	if (rep->type == REDIS_REPLY_NIL) {
		freeReplyObject(rep);
		freeReplyObject(ttl);
		return 0;
	}
	if (rep->type != REDIS_REPLY_STRING) {
		freeReplyObject(ttl);
		return r_fail(s, "GET", rep);
	}
	uk_buf_add(out, rep->str, rep->len);
	*left = ttl->type == REDIS_REPLY_INTEGER && ttl->integer > 0 ?
	    ttl->integer :
	    -1;
	freeReplyObject(rep);
	freeReplyObject(ttl);
	return 1;
}

static int
r_put(struct uk_cache_store *s, const char *name, const char *data,
    size_t len, long ttl)
{
	struct rconn *c = s->conn;
	redisReply *rep;

	if (r_connect(s))
		return -1;
	if (ttl > 0)
		rep = redisCommand(c->ctx, "SET %s %b EX %ld", name, data, len,
		    ttl);
	else
		rep = redisCommand(c->ctx, "SET %s %b", name, data, len);
	if (!rep || rep->type != REDIS_REPLY_STATUS)
		return r_fail(s, "SET", rep);
	freeReplyObject(rep);
	return 0;
}

/*
 * The compare and set of a session (cache_remote_int.h), in one script so
 * that no other client's write comes between the test and the SET.
 */
static const char r_put_if_lua[] =
    "local v = redis.call('GET', KEYS[1]) "
    "if ARGV[2] == '' then "
    "  if v and #v > 0 then return 0 end "
    "elseif not v or string.sub(v, 1, #ARGV[2]) ~= ARGV[2] then "
    "  return 0 "
    "end "
    "if tonumber(ARGV[3]) > 0 then "
    "  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3]) "
    "else "
    "  redis.call('SET', KEYS[1], ARGV[1]) "
    "end "
    "return 1";

static int
r_put_if(struct uk_cache_store *s, const char *name, const char *data,
    size_t len, long ttl, const char *ver)
{
	struct rconn *c = s->conn;
	redisReply *rep;
	int n;

	if (r_connect(s))
		return -1;
	rep = redisCommand(c->ctx, "EVAL %s 1 %s %b %s %ld", r_put_if_lua,
	    name, data, len, ver, ttl);
	if (!rep || rep->type != REDIS_REPLY_INTEGER)
		return r_fail(s, "EVAL", rep);
	n = rep->integer == 1;
	freeReplyObject(rep);
	return n;
}

static int
r_del(struct uk_cache_store *s, const char *name)
{
	struct rconn *c = s->conn;
	redisReply *rep;
	int n;

	if (r_connect(s))
		return -1;
	rep = redisCommand(c->ctx, "DEL %s", name);
	if (!rep || rep->type != REDIS_REPLY_INTEGER)
		return r_fail(s, "DEL", rep);
	n = rep->integer > 0;
	freeReplyObject(rep);
	return n;
}

#define R_CLEAR_BATCH 1000

/* DEL argv[1..k): the count deleted added to *n; 0, or -1. */
static int
r_del_batch(struct uk_cache_store *s, const char **argv, size_t *argl,
    size_t k, long *n)
{
	struct rconn *c = s->conn;
	redisReply *del;

	if (k < 2)
		return 0;
	argv[0] = "DEL";
	argl[0] = 3;
	del = redisCommandArgv(c->ctx, (int)k, argv, argl);
	if (!del || del->type != REDIS_REPLY_INTEGER)
		return r_fail(s, "DEL", del);
	*n += (long)del->integer;
	freeReplyObject(del);
	return 0;
}

/*
 * SCAN for the names, DEL them a batch at a time: never FLUSHDB, which
 * would take what others keep in the same database, and never KEYS,
 * which blocks the server for the whole keyspace.
 */
static long
r_clear(struct uk_cache_store *s, const char *prefix)
{
	struct rconn *c = s->conn;
	redisReply *rep, *keys;
	const char *argv[1 + R_CLEAR_BATCH];
	size_t argl[1 + R_CLEAR_BATCH];
	char cursor[32] = "0", match[64];
	long n = 0;
	size_t i, k;

	if (r_connect(s))
		return -1;
	snprintf(match, sizeof(match), "%s????????????????", prefix);
	do {
		rep = redisCommand(c->ctx, "SCAN %s MATCH %s COUNT %d",
		    cursor, match, R_CLEAR_BATCH);
		if (!rep || rep->type != REDIS_REPLY_ARRAY ||
		    rep->elements != 2 ||
		    rep->element[0]->type != REDIS_REPLY_STRING ||
		    rep->element[1]->type != REDIS_REPLY_ARRAY)
			return r_fail(s, "SCAN", rep);
		snprintf(cursor, sizeof(cursor), "%s", rep->element[0]->str);
		keys = rep->element[1];
		/* (COUNT is a hint: a reply may hold more names.) */
		for (i = 0, k = 1; i < keys->elements; i++) {
			if (keys->element[i]->type != REDIS_REPLY_STRING)
				continue;
			argv[k] = keys->element[i]->str;
			argl[k++] = keys->element[i]->len;
			if (k == 1 + R_CLEAR_BATCH) {
				if (r_del_batch(s, argv, argl, k, &n))
					goto fail;
				k = 1;
			}
		}
		if (r_del_batch(s, argv, argl, k, &n))
			goto fail;
		freeReplyObject(rep);
	} while (strcmp(cursor, "0"));
	return n;
fail:
	freeReplyObject(rep);
	return -1;
}

static void
r_close(struct uk_cache_store *s)
{
	struct rconn *c = s->conn;

	r_drop(c);
	free(c->host);
	free(c->user);
	if (c->pass) {
		memset(c->pass, 0, strlen(c->pass));
		free(c->pass);
	}
	free(c);
	s->conn = NULL;
}

const struct uk_cache_backend uk_cache_backend_redis = {
	"redis", r_parse, r_get, r_put, r_put_if, r_del, r_clear, r_close,
};
