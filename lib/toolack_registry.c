/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "util.h"

#include "banned.h"

struct uk_toolack_registry {
	struct uk_toolack_registry_opts o;
	/* Pending calls: hash by id, list by seq, heap by deadline. */
	struct uk_toolack_registry_call **tab;
	size_t tabsize, npending;
	struct uk_toolack_registry_call *head, *tail;
	struct uk_toolack_registry_call **heap;
	size_t heapalloc;
	unsigned long long seq;
	/* Done entries: hash by id, FIFO by age. */
	struct uk_toolack_registry_done **dtab;
	size_t dtabsize, ndone;
	struct uk_toolack_registry_done *dhead, *dtail;
};

static size_t
hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct uk_toolack_registry *
uk_toolack_registry_new(const struct uk_toolack_registry_opts *opts)
{
	struct uk_toolack_registry *r = uk_util_xcalloc(1, sizeof(*r));

	if (opts)
		r->o = *opts;
	if (!r->o.max_done)
		r->o.max_done = UK_TOOLACK_REGISTRY_MAX_DONE;
	if (!r->o.done_ms)
		r->o.done_ms = UK_TOOLACK_REGISTRY_DONE_MS;
	r->tabsize = 1024;
	r->tab = uk_util_xcalloc(r->tabsize, sizeof(*r->tab));
	r->dtabsize = 1024;
	r->dtab = uk_util_xcalloc(r->dtabsize, sizeof(*r->dtab));
	return r;
}

static void
call_free(struct uk_toolack_registry_call *c)
{
	free(c->id);
	free(c->tool);
	free(c->input);
	free(c->requested_at);
	free(c);
}

static void
done_free(struct uk_toolack_registry_done *d)
{
	free(d->id);
	free(d->result);
	free(d);
}

void
uk_toolack_registry_free(struct uk_toolack_registry *r)
{
	struct uk_toolack_registry_call *c, *cn;
	struct uk_toolack_registry_done *d, *dn;

	if (!r)
		return;
	for (c = r->head; c; c = cn) {
		cn = c->next;
		call_free(c);
	}
	for (d = r->dhead; d; d = dn) {
		dn = d->fnext;
		done_free(d);
	}
	free(r->tab);
	free(r->dtab);
	free(r->heap);
	free(r);
}

/* Hash tables of pending calls. */

static void
tab_grow(struct uk_toolack_registry *r)
{
	size_t i, n = r->tabsize * 2;
	struct uk_toolack_registry_call **t = uk_util_xcalloc(n, sizeof(*t)),
					*c, *cn;

	for (i = 0; i < r->tabsize; i++)
		for (c = r->tab[i]; c; c = cn) {
			cn = c->hnext;
			c->hnext = t[hash(c->id) & (n - 1)];
			t[hash(c->id) & (n - 1)] = c;
		}
	free(r->tab);
	r->tab = t;
	r->tabsize = n;
}

struct uk_toolack_registry_call *
uk_toolack_registry_find(struct uk_toolack_registry *r, const char *id)
{
	struct uk_toolack_registry_call *c;

	for (c = r->tab[hash(id) & (r->tabsize - 1)]; c; c = c->hnext)
		if (!strcmp(c->id, id))
			return c;
	return NULL;
}

static void
tab_del(struct uk_toolack_registry *r, struct uk_toolack_registry_call *c)
{
	struct uk_toolack_registry_call **pp =
	    &r->tab[hash(c->id) & (r->tabsize - 1)];

	while (*pp != c)
		pp = &(*pp)->hnext;
	*pp = c->hnext;
}

/* The deadline heap. */

static void
heap_set(struct uk_toolack_registry *r, size_t i,
    struct uk_toolack_registry_call *c)
{
	r->heap[i] = c;
	c->heap_i = i;
}

static void
heap_up(struct uk_toolack_registry *r, size_t i)
{
	struct uk_toolack_registry_call *c = r->heap[i];

	while (i > 0 && r->heap[(i - 1) / 2]->deadline > c->deadline) {
		heap_set(r, i, r->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(r, i, c);
}

static void
heap_down(struct uk_toolack_registry *r, size_t i)
{
	struct uk_toolack_registry_call *c = r->heap[i];
	size_t k, n = r->npending;

	for (;;) {
		k = 2 * i + 1;
		if (k >= n)
			break;
		if (k + 1 < n &&
		    r->heap[k + 1]->deadline < r->heap[k]->deadline)
			k++;
		if (r->heap[k]->deadline >= c->deadline)
			break;
		heap_set(r, i, r->heap[k]);
		i = k;
	}
	heap_set(r, i, c);
}

/* Remove c from every index of pending calls (npending included). */
static void
unlink_call(struct uk_toolack_registry *r, struct uk_toolack_registry_call *c)
{
	size_t i = c->heap_i;
	struct uk_toolack_registry_call *last;

	tab_del(r, c);
	if (c->prev)
		c->prev->next = c->next;
	else
		r->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		r->tail = c->prev;
	last = r->heap[--r->npending];
	if (i < r->npending) {
		heap_set(r, i, last);
		heap_down(r, i);
		heap_up(r, last->heap_i);
	}
}

/* Done entries. */

static struct uk_toolack_registry_done **
done_slot(struct uk_toolack_registry *r, const char *id)
{
	struct uk_toolack_registry_done **pp =
	    &r->dtab[hash(id) & (r->dtabsize - 1)];

	while (*pp && strcmp((*pp)->id, id))
		pp = &(*pp)->hnext;
	return pp;
}

const struct uk_toolack_registry_done *
uk_toolack_registry_done(struct uk_toolack_registry *r, const char *id)
{
	return *done_slot(r, id);
}

/* Unlink d from the hash and the FIFO and free it. */
static void
done_forget(struct uk_toolack_registry *r, struct uk_toolack_registry_done *d)
{
	struct uk_toolack_registry_done **pp = done_slot(r, d->id), *p;

	*pp = d->hnext;
	if (r->dhead == d) {
		r->dhead = d->fnext;
		if (!r->dhead)
			r->dtail = NULL;
	} else {
		for (p = r->dhead; p->fnext != d; p = p->fnext)
			;
		p->fnext = d->fnext;
		if (r->dtail == d)
			r->dtail = p;
	}
	r->ndone--;
	done_free(d);
}

static void
dtab_grow(struct uk_toolack_registry *r)
{
	size_t i, n = r->dtabsize * 2;
	struct uk_toolack_registry_done **t = uk_util_xcalloc(n, sizeof(*t)),
					*d, *dn;

	for (i = 0; i < r->dtabsize; i++)
		for (d = r->dtab[i]; d; d = dn) {
			dn = d->hnext;
			d->hnext = t[hash(d->id) & (n - 1)];
			t[hash(d->id) & (n - 1)] = d;
		}
	free(r->dtab);
	r->dtab = t;
	r->dtabsize = n;
}

static struct uk_toolack_registry_done *
done_add(struct uk_toolack_registry *r, const char *id,
    enum uk_toolack_registry_how how, char *result, long long now)
{
	struct uk_toolack_registry_done *d = *done_slot(r, id);

	if (d)
		done_forget(r, d);
	while (r->ndone >= r->o.max_done && r->dhead)
		done_forget(r, r->dhead);
	if (r->ndone >= r->dtabsize)
		dtab_grow(r);
	d = uk_util_xcalloc(1, sizeof(*d));
	d->id = uk_util_xstrdup(id);
	d->how = how;
	d->result = result;
	d->until = now + r->o.done_ms;
	d->hnext = r->dtab[hash(id) & (r->dtabsize - 1)];
	r->dtab[hash(id) & (r->dtabsize - 1)] = d;
	if (r->dtail)
		r->dtail->fnext = d;
	else
		r->dhead = d;
	r->dtail = d;
	r->ndone++;
	return d;
}

/* The ack record as compact JSON (uk_toolack_proto_ack); output is copied. */
static char *
result_make(const char *id, const char *status, yajl_val output,
    const char *error_text, const char *requested_at)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_toolack_proto_ack(&b, id, status, output, error_text, requested_at);
	return uk_buf_detach(&b, NULL);
}

struct uk_toolack_registry_call *
uk_toolack_registry_add(struct uk_toolack_registry *r, const char *id,
    const char *tool, const char *input, long timeout_sec,
    const char *requested_at, long long now, int *existed)
{
	struct uk_toolack_registry_call *c;
	int taken = uk_toolack_registry_find(r, id) ?
	    UK_TOOLACK_REGISTRY_ID_PENDING :
	    *done_slot(r, id) ? UK_TOOLACK_REGISTRY_ID_RECENT :
				0;
	char ts[40];

	if (existed)
		*existed = taken;
	if (taken)
		return NULL;
	if (!requested_at) {
		uk_util_time_rfc3339(ts, sizeof(ts));
		requested_at = ts;
	}
	c = uk_util_xcalloc(1, sizeof(*c));
	c->id = uk_util_xstrdup(id);
	c->tool = uk_util_xstrdup(tool);
	c->input = uk_util_xstrdup(input ? input : "{}");
	c->requested_at = uk_util_xstrdup(requested_at);
	c->timeout_sec = timeout_sec;
	c->deadline = now + timeout_sec * 1000LL;
	c->seq = ++r->seq;
	if (r->npending >= r->tabsize)
		tab_grow(r);
	c->hnext = r->tab[hash(id) & (r->tabsize - 1)];
	r->tab[hash(id) & (r->tabsize - 1)] = c;
	c->prev = r->tail;
	if (r->tail)
		r->tail->next = c;
	else
		r->head = c;
	r->tail = c;
	if (r->npending == r->heapalloc) {
		r->heapalloc = r->heapalloc ? 2 * r->heapalloc : 256;
		r->heap =
		    uk_util_xrealloc(r->heap, r->heapalloc * sizeof(*r->heap));
	}
	r->heap[r->npending] = c;
	c->heap_i = r->npending++;
	heap_up(r, c->heap_i);
	return c;
}

const char *
uk_toolack_registry_refuse(struct uk_toolack_registry *r, const char *id,
    const char *error_text, long long now)
{
	char ts[40];

	if (uk_toolack_registry_find(r, id) || *done_slot(r, id))
		return NULL;
	uk_util_time_rfc3339(ts, sizeof(ts));
	return done_add(r, id, UK_TOOLACK_REGISTRY_REFUSED,
	    result_make(id, "failed", NULL, error_text, ts), now)
	    ->result;
}

/* Resolve c with result (owned), then free c. */
static void
resolve(struct uk_toolack_registry *r, struct uk_toolack_registry_call *c,
    enum uk_toolack_registry_how how, char *result, long long now)
{
	struct uk_toolack_registry_done *d;

	unlink_call(r, c);
	d = done_add(r, c->id, how, result, now);
	if (r->o.on_resolve)
		r->o.on_resolve(r->o.ctx, c, d->result);
	call_free(c);
}

int
uk_toolack_registry_ack(struct uk_toolack_registry *r, const char *id,
    const char *status, yajl_val output, const char *error_text,
    const char *requested_at, long long now)
{
	struct uk_toolack_registry_call *c = uk_toolack_registry_find(r, id);
	const struct uk_toolack_registry_done *d;

	if (!c) {
		if (!(d = *done_slot(r, id)))
			return UK_TOOLACK_REGISTRY_UNKNOWN;
		return d->how == UK_TOOLACK_REGISTRY_ACKED ?
		    UK_TOOLACK_REGISTRY_IGNORED :
		    UK_TOOLACK_REGISTRY_EXPIRED;
	}
	resolve(r, c, UK_TOOLACK_REGISTRY_ACKED,
	    result_make(id, status, output, error_text,
		requested_at ? requested_at : c->requested_at),
	    now);
	return UK_TOOLACK_REGISTRY_OK;
}

size_t
uk_toolack_registry_expire(struct uk_toolack_registry *r, long long now)
{
	struct uk_toolack_registry_call *c;
	size_t n = 0;
	char msg[128];

	while (r->npending && r->heap[0]->deadline <= now) {
		c = r->heap[0];
		snprintf(msg, sizeof(msg), "no ack within %ld s",
		    c->timeout_sec);
		resolve(r, c, UK_TOOLACK_REGISTRY_TIMEOUT,
		    result_make(c->id, "timeout", NULL, msg, c->requested_at),
		    now);
		n++;
	}
	while (r->dhead && r->dhead->until <= now)
		done_forget(r, r->dhead);
	return n;
}

long long
uk_toolack_registry_next_deadline(const struct uk_toolack_registry *r)
{
	return r->npending ? r->heap[0]->deadline : -1;
}

struct uk_toolack_registry_call *
uk_toolack_registry_first(struct uk_toolack_registry *r)
{
	return r->head;
}

size_t
uk_toolack_registry_pending(const struct uk_toolack_registry *r)
{
	return r->npending;
}

size_t
uk_toolack_registry_ndone(const struct uk_toolack_registry *r)
{
	return r->ndone;
}

size_t
uk_toolack_registry_release_owner(struct uk_toolack_registry *r, void *owner)
{
	struct uk_toolack_registry_call *c;
	size_t n = 0;

	for (c = r->head; c; c = c->next)
		if (c->owner == owner) {
			c->owner = NULL;
			n++;
		}
	return n;
}

int
uk_toolack_registry_status_ok(const char *s)
{
	return s &&
	    (!strcmp(s, "success") || !strcmp(s, "failed") ||
		!strcmp(s, "timeout"));
}

static int
digits(const char *s, int n, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

int
uk_toolack_registry_time_ok(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30,
		31 };
	int y, mo, d, h, mi, se, zh, zm;

	if (!s || strlen(s) < 20)
		return 0;
	if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) ||
	    s[7] != '-' || !digits(s + 8, 2, &d) ||
	    (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2, &h) ||
	    s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' ||
	    !digits(s + 17, 2, &se))
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))) ||
	    h > 23 || mi > 59 || se > 60)
		return 0;
	s += 19;
	if (*s == '.') {
		if (!isdigit((unsigned char)*++s))
			return 0;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if ((*s == 'Z' || *s == 'z') && !s[1])
		return 1;
	if ((*s == '+' || *s == '-') && digits(s + 1, 2, &zh) && s[3] == ':' &&
	    digits(s + 4, 2, &zm) && !s[6])
		return zh <= 23 && zm <= 59;
	return 0;
}
