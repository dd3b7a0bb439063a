/* SPDX-License-Identifier: MIT */
/* Remote stores behind the local cache: see cache_remote.h. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache_remote.h"
#include "cache_remote_int.h"
#include "util.h"

#include "banned.h"

#define HEADER "urlkit-entry 1 "

/*
 * One lock for the stores: a connection is one socket and its replies
 * come in order, so two threads (urlserve's) must not interleave on it.
 */
struct uk_cache_remote {
	pthread_mutex_t mu;
	uk_cache_remote_sum_fn *sum;
	struct uk_cache_store *s;
	size_t n;
};

static const struct uk_cache_backend *const backends[] = {
	&uk_cache_backend_redis,
	&uk_cache_backend_http,
	&uk_cache_backend_https,
};

static void
store_free(struct uk_cache_store *s)
{
	if (s->conn && s->be)
		s->be->close(s);
	free(s->url);
	free(s->name);
	if (s->password) {
		memset(s->password, 0, strlen(s->password));
		free(s->password);
	}
}

/* The first line of path, for a password: 0, or -1 with err. */
static int
read_password(struct uk_cache_store *s, const char *path, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	FILE *f;
	char line[1024];
	size_t n;

	if (!(f = fopen(path, "re")))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "cache remote '%s': cannot open password file '%s': %s",
		    s->name, path, strerror(errno));
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	uk_buf_add(&b, line, n);
	memset(line, 0, sizeof(line));
	s->password = uk_buf_detach(&b, NULL);
	return 0;
}

/* Whether value (may be NULL: the attribute alone) says true. */
static int
attr_bool(const char *value)
{
	return !value || !strcmp(value, "true") || !strcmp(value, "1");
}

/* One store, "URL|ATTR=VALUE|...", into s: 0, or -1 with err. */
static int
store_parse(struct uk_cache_store *s, char *text, struct uk_err *err)
{
	char *attr, *next, *value, *at, *colon;
	const char *p;
	size_t i;
	long ms;

	memset(s, 0, sizeof(*s));
	s->connect_ms = s->op_ms = UK_CACHE_REMOTE_TIMEOUT_MS;
	next = strchr(text, '|');
	if (next)
		*next++ = '\0';
	s->url = uk_util_xstrdup(text);
	/* The name for messages: the URL less any password. */
	at = strchr(text, '@');
	p = strstr(text, "://");
	if (at && p && at > p) {
		colon = memchr(p + 3, ':', (size_t)(at - p - 3));
		s->name = uk_util_xmalloc(strlen(text) + 8);
		snprintf(s->name, strlen(text) + 8, "%.*s%s%s",
		    (int)((colon ? colon : at) - text), text,
		    colon ? ":***" : "", at);
	} else {
		s->name = uk_util_xstrdup(text);
	}
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		size_t k = strlen(backends[i]->scheme);

		if (!strncmp(text, backends[i]->scheme, k) &&
		    !strncmp(text + k, "://", 3))
			s->be = backends[i];
	}
	if (!s->be)
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "cache remote '%s': not a store URL (redis://, http://, "
		    "https://)",
		    s->name);
	while ((attr = next)) {
		if ((next = strchr(attr, '|')))
			*next++ = '\0';
		if ((value = strchr(attr, '=')))
			*value++ = '\0';
		if (!strcmp(attr, "read-only")) {
			s->read_only = attr_bool(value);
		} else if (!strcmp(attr, "remote-only")) {
			s->remote_only = attr_bool(value);
		} else if (!strcmp(attr, "connect-timeout") ||
		    !strcmp(attr, "operation-timeout")) {
			if (!value || uk_util_parse_long(value, 1, 600000, &ms))
				return uk_util_err_set(err, UK_EXIT_USAGE,
				    "cache remote '%s': %s: not a number of "
				    "milliseconds",
				    s->name, attr);
			if (attr[0] == 'c')
				s->connect_ms = (int)ms;
			else
				s->op_ms = (int)ms;
		} else if (!strcmp(attr, "password-file") && value && *value) {
			if (read_password(s, value, err))
				return -1;
		} else {
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "cache remote '%s': unknown attribute '%s'",
			    s->name, attr);
		}
	}
	if (s->be->parse(s))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "cache remote '%s': %s", s->name, s->msg);
	return 0;
}

int
uk_cache_remote_open(struct uk_cache_remote **rp, const char *spec,
    uk_cache_remote_sum_fn *sum, struct uk_err *err)
{
	struct uk_cache_remote *r;
	char *copy, *tok, *save = NULL;

	*rp = NULL;
	if (!spec)
		return 0;
	r = uk_util_xcalloc(1, sizeof(*r));
	pthread_mutex_init(&r->mu, NULL);
	r->sum = sum;
	copy = uk_util_xstrdup(spec);
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		r->s = uk_util_xrealloc(r->s, (r->n + 1) * sizeof(*r->s));
		if (store_parse(&r->s[r->n++], tok, err)) {
			free(copy);
			uk_cache_remote_free(r);
			return -1;
		}
	}
	free(copy);
	if (!r->n) {
		uk_cache_remote_free(r);
		return 0;
	}
	*rp = r;
	return 0;
}

int
uk_cache_remote_check_env(struct uk_err *err)
{
	struct uk_cache_remote *r;
	struct uk_err e;

	if (uk_cache_remote_open(&r, getenv("URLKIT_CACHE_REMOTE"), NULL,
		&e))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "URLKIT_CACHE_REMOTE: %s", e.msg);
	uk_cache_remote_free(r);
	return 0;
}

void
uk_cache_remote_free(struct uk_cache_remote *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		store_free(&r->s[i]);
	free(r->s);
	pthread_mutex_destroy(&r->mu);
	free(r);
}

/* Count an error of s; the last of too many in a row skips the store. */
static void
store_error(struct uk_cache_store *s)
{
	s->count.errors++;
	if (++s->failures >= UK_CACHE_REMOTE_MAX_ERRORS && !s->skipped) {
		s->skipped = 1;
		uk_util_warn(
		    "cache remote '%s': %d errors in a row, not used for "
		    "the rest of this run: %s",
		    s->name, s->failures, s->msg);
	}
}

/* The store's name of key: "urlkit:" and the key, as ccache's "ccache:". */
static void
store_key(const char *key, char name[32])
{
	snprintf(name, 32, "urlkit:%s", key);
}

/*
 * Check the value in b and leave the entry alone in it: 1 with *left the
 * milliseconds until its expiry (-1: none), 0 when the header, length or
 * sum is wrong, 2 when it has expired.
 */
static int
unwrap(const struct uk_cache_remote *r, struct uk_buf *b, long long *left)
{
	const char *p = b->buf, *nl, *end;
	char sum[17], got[17];
	unsigned long long len, exp;
	long long now;

	if (b->len < sizeof(HEADER) - 1 ||
	    memcmp(p, HEADER, sizeof(HEADER) - 1) ||
	    !(nl = memchr(p, '\n', b->len)))
		return 0;
	p += sizeof(HEADER) - 1;
	if (nl - p < 18 || p[16] != ' ')
		return 0;
	memcpy(sum, p, 16);
	sum[16] = '\0';
	errno = 0;
	len = strtoull(p + 17, (char **)&end, 10);
	if (errno || *end != ' ' || !isdigit((unsigned char)p[17]) ||
	    len != b->len - (size_t)(nl + 1 - b->buf))
		return 0;
	p = end + 1;
	exp = strtoull(p, (char **)&end, 10);
	if (errno || end != nl || !isdigit((unsigned char)*p))
		return 0;
	r->sum(nl + 1, (size_t)len, got);
	if (strcmp(sum, got))
		return 0;
	/* The expiry in the value: what an http store, which has none of
	 * its own, goes by. */
	now = uk_util_time_now_ns() / 1000000;
	if (exp && (long long)exp * 1000 <= now)
		return 2;
	if (exp && (*left < 0 || (long long)exp * 1000 - now < *left))
		*left = (long long)exp * 1000 - now;
	uk_buf_remove(b, 0, (size_t)(nl + 1 - b->buf));
	return 1;
}

/*
 * The next store from *i on that is not skipped (nor read-only when
 * writing), under r->mu; NULL past the last.  *i is left at its index.
 */
static struct uk_cache_store *
next_store(struct uk_cache_remote *r, size_t *i, int writing)
{
	for (; *i < r->n; (*i)++)
		if (!r->s[*i].skipped && !(writing && r->s[*i].read_only))
			return &r->s[*i];
	return NULL;
}

int
uk_cache_remote_get(struct uk_cache_remote *r, const char *key,
    struct uk_buf *out, long long *left, int *keep_local)
{
	struct uk_cache_store *s;
	char name[32];
	size_t i;
	int got;

	if (!r)
		return 0;
	store_key(key, name);
	pthread_mutex_lock(&r->mu);
	for (i = 0; (s = next_store(r, &i, 0)) != NULL; i++) {
		uk_buf_reset(out);
		*left = -1;
		got = s->be->get(s, name, out, left);
		if (got < 0) {
			store_error(s);
			continue;
		}
		s->failures = 0;
		if (got && !(got = unwrap(r, out, left)))
			s->count.corrupt++;
		if (got == 2)
			got = 0; /* expired */
		if (!got) {
			s->count.misses++;
			continue;
		}
		s->count.hits++;
		*keep_local = !s->remote_only;
		pthread_mutex_unlock(&r->mu);
		return 1;
	}
	pthread_mutex_unlock(&r->mu);
	uk_buf_reset(out);
	return 0;
}

void
uk_cache_remote_put(struct uk_cache_remote *r, const char *key,
    const char *data, size_t len, long ttl)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_cache_store *s;
	char name[32], sum[17];
	size_t i;

	if (!r || ttl <= 0)
		return;
	store_key(key, name);
	r->sum(data, len, sum);
	uk_buf_addf(&b, HEADER "%s %zu %lld\n", sum, len,
	    uk_util_time_now_ns() / 1000000000LL + ttl);
	uk_buf_add(&b, data, len);
	pthread_mutex_lock(&r->mu);
	for (i = 0; (s = next_store(r, &i, 1)) != NULL; i++) {
		if (s->be->put(s, name, b.buf, b.len, ttl)) {
			store_error(s);
			continue;
		}
		s->failures = 0;
		s->count.stores++;
	}
	pthread_mutex_unlock(&r->mu);
	uk_buf_release(&b);
}

int
uk_cache_remote_del(struct uk_cache_remote *r, const char *key)
{
	struct uk_cache_store *s;
	char name[32];
	size_t i;
	int found = 0, d;

	if (!r)
		return 0;
	store_key(key, name);
	pthread_mutex_lock(&r->mu);
	for (i = 0; (s = next_store(r, &i, 1)) != NULL; i++) {
		if ((d = s->be->del(s, name)) < 0) {
			store_error(s);
			continue;
		}
		s->failures = 0;
		found |= d;
	}
	pthread_mutex_unlock(&r->mu);
	return found;
}

long
uk_cache_remote_clear(struct uk_cache_remote *r, size_t i, const char **why)
{
	struct uk_cache_store *s;
	char prefix[32];
	long n;

	*why = NULL;
	if (!r || i >= r->n)
		return 0;
	s = &r->s[i];
	if (s->read_only) {
		*why = "read-only: left alone";
		return -1;
	}
	if (s->skipped) {
		*why = s->msg;
		return -1;
	}
	/* The name of a key without the key: "urlkit:". */
	store_key("", prefix);
	pthread_mutex_lock(&r->mu);
	if ((n = s->be->clear(s, prefix)) == -2) {
		*why = "cannot list its entries: clear it on the server";
		n = -1;
	} else if (n < 0) {
		store_error(s);
		*why = s->msg;
	} else {
		s->failures = 0;
	}
	pthread_mutex_unlock(&r->mu);
	return n;
}

/* The store of named values: the first neither read-only nor skipped. */
static struct uk_cache_store *
named_store(struct uk_cache_remote *r)
{
	size_t i = 0;

	return next_store(r, &i, 1);
}

int
uk_cache_remote_fetch(struct uk_cache_remote *r, const char *name,
    struct uk_buf *out, char ver[96])
{
	struct uk_cache_store *s;
	long long left = -1;
	const char *nl;
	size_t n;
	int got = -1;

	ver[0] = '\0';
	uk_buf_reset(out);
	if (!r)
		return -1;
	pthread_mutex_lock(&r->mu);
	if ((s = named_store(r)) && (got = s->be->get(s, name, out, &left)) < 0)
		store_error(s);
	if (got > 0) {
		/* The version: the header line (sum, length and expiry), or
		 * the first 95 bytes of a value without one, so that a
		 * corrupt value can be replaced. */
		n = out->len < 95 ? out->len : 95;
		if ((nl = memchr(out->buf, '\n', n)))
			n = (size_t)(nl + 1 - out->buf);
		snprintf(ver, 96, "%.*s", (int)n, out->buf);
		if (!(got = unwrap(r, out, &left)))
			s->count.corrupt++;
		if (got == 2)
			got = 0; /* expired */
	}
	if (got >= 0)
		s->failures = 0;
	pthread_mutex_unlock(&r->mu);
	if (got != 1)
		uk_buf_reset(out);
	return got;
}

int
uk_cache_remote_replace(struct uk_cache_remote *r, const char *name,
    const char *data, size_t len, long ttl, const char *ver)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_cache_store *s;
	char sum[17];
	int got = -1;

	if (!r)
		return -1;
	r->sum(data, len, sum);
	uk_buf_addf(&b, HEADER "%s %zu %lld\n", sum, len,
	    ttl > 0 ? uk_util_time_now_ns() / 1000000000LL + ttl : 0LL);
	uk_buf_add(&b, data, len);
	pthread_mutex_lock(&r->mu);
	if (ttl < 0)
		ttl = 0;
	if ((s = named_store(r))) {
		if (s->be->put_if)
			got = s->be->put_if(s, name, b.buf, b.len, ttl, ver);
		else if (s->be->put(s, name, b.buf, b.len, ttl) == 0)
			got = 1;
		if (got < 0)
			store_error(s);
		else
			s->failures = 0;
	}
	pthread_mutex_unlock(&r->mu);
	uk_buf_release(&b);
	return got;
}

int
uk_cache_remote_local(const struct uk_cache_remote *r)
{
	size_t i;

	for (i = 0; r && i < r->n; i++)
		if (r->s[i].remote_only)
			return 0;
	return 1;
}

size_t
uk_cache_remote_count(const struct uk_cache_remote *r)
{
	return r ? r->n : 0;
}

const char *
uk_cache_remote_store(struct uk_cache_remote *r, size_t i,
    struct uk_cache_remote_count *count)
{
	if (!r || i >= r->n)
		return NULL;
	if (count) {
		pthread_mutex_lock(&r->mu);
		*count = r->s[i].count;
		pthread_mutex_unlock(&r->mu);
	}
	return r->s[i].name;
}
