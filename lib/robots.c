/* SPDX-License-Identifier: MIT */
/* robots.txt for one user agent (RFC 9309). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "robots.h"
#include "util.h"
#include "banned.h"

void
uk_robots_init(struct uk_robots *r)
{
	memset(r, 0, sizeof(*r));
	r->mode = UK_ROBOTS_ALLOW_ALL;
}

static void
rules_free(struct uk_robots_rule *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void
uk_robots_release(struct uk_robots *r)
{
	size_t i;

	rules_free(r->rules, r->nrules);
	for (i = 0; i < r->nsitemaps; i++)
		free(r->sitemaps[i]);
	free(r->sitemaps);
	uk_robots_init(r);
}

void
uk_robots_set(struct uk_robots *r, enum uk_robots_mode mode)
{
	rules_free(r->rules, r->nrules);
	r->rules = NULL;
	r->nrules = 0;
	r->crawl_delay = 0;
	r->mode = mode;
}

/* A list of rules being gathered for one kind of group. */
struct ruleset {
	struct uk_robots_rule *v;
	size_t n, cap;
	double delay;
	int seen; /* a group of this kind was seen */
};

static void
ruleset_add(struct ruleset *s, const char *p, size_t n, int allow)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = uk_util_xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n].path = uk_util_xmemdup(p, n);
	s->v[s->n].allow = allow;
	s->n++;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/*
 * Whether the user-agent line's value v[0..n) names agent: its product
 * token (the leading letters, digits, '_' and '-') compared without case.
 */
static int
agent_match(const char *v, size_t n, const char *agent)
{
	size_t k = 0, alen = strlen(agent);

	while (k < n && (((v[k] | 0x20) >= 'a' && (v[k] | 0x20) <= 'z') ||
	    (v[k] >= '0' && v[k] <= '9') || v[k] == '_' || v[k] == '-'))
		k++;
	return k > 0 && k == alen && strncasecmp(v, agent, k) == 0;
}

static int
key_is(const char *k, size_t n, const char *name)
{
	return strlen(name) == n && strncasecmp(k, name, n) == 0;
}

void
uk_robots_parse(struct uk_robots *r, const char *text, size_t len,
    const char *agent)
{
	struct ruleset mine = { 0 }, star = { 0 }, *use;
	const char *p = text, *end, *eol, *k, *ke, *v, *ve, *hash;
	int in_agents = 0, g_mine = 0, g_star = 0;

	if (len > UK_ROBOTS_MAX)
		len = UK_ROBOTS_MAX;
	end = text + len;
	uk_robots_set(r, UK_ROBOTS_RULES);
	for (; p < end; p = eol + (eol < end)) {
		for (eol = p; eol < end && *eol != '\n' && *eol != '\r'; eol++)
			;
		hash = memchr(p, '#', (size_t)(eol - p));
		ve = hash ? hash : eol;
		for (k = p; k < ve && is_blank(*k); k++)
			;
		for (ke = k; ke < ve && *ke != ':'; ke++)
			;
		if (ke == ve)
			continue; /* no "key:": not a line of the protocol */
		for (v = ke + 1; v < ve && is_blank(*v); v++)
			;
		while (ke > k && is_blank(ke[-1]))
			ke--;
		while (ve > v && is_blank(ve[-1]))
			ve--;
		if (key_is(k, (size_t)(ke - k), "user-agent")) {
			if (!in_agents)
				g_mine = g_star = 0; /* a new group starts */
			in_agents = 1;
			if (ve - v == 1 && *v == '*')
				g_star = 1;
			else if (agent_match(v, (size_t)(ve - v), agent))
				g_mine = 1;
			mine.seen |= g_mine;
			star.seen |= g_star;
			continue;
		}
		if (key_is(k, (size_t)(ke - k), "sitemap")) {
			if (ve > v) {
				r->sitemaps = uk_util_xrealloc(r->sitemaps,
				    (r->nsitemaps + 1) * sizeof(*r->sitemaps));
				r->sitemaps[r->nsitemaps++] =
				    uk_util_xmemdup(v, (size_t)(ve - v));
			}
			continue;
		}
		in_agents = 0;
		/* A group for the agent wins over "*": rules go to both. */
		use = g_mine ? &mine : g_star ? &star : NULL;
		if (!use)
			continue;
		if (key_is(k, (size_t)(ke - k), "allow") && ve > v)
			ruleset_add(use, v, (size_t)(ve - v), 1);
		else if (key_is(k, (size_t)(ke - k), "disallow") && ve > v)
			ruleset_add(use, v, (size_t)(ve - v), 0);
		else if (key_is(k, (size_t)(ke - k), "crawl-delay") && ve > v) {
			char *s = uk_util_xmemdup(v, (size_t)(ve - v)), *e;
			double d = strtod(s, &e);

			if (e != s && *e == '\0' && d > 0 && d < 1e6)
				use->delay = d;
			free(s);
		}
	}
	use = mine.seen ? &mine : &star;
	r->rules = use->v;
	r->nrules = use->n;
	r->crawl_delay = use->delay;
	rules_free(use == &mine ? star.v : mine.v,
	    use == &mine ? star.n : mine.n);
}

/*
 * Whether the pattern p[0..pn), with '*' for any bytes, matches the whole
 * of s[0..sn): the usual wildcard walk, going back to the last '*' on a
 * mismatch (time at most pn * sn).
 */
static int
wild(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t i = 0, j = 0, star_i = (size_t)-1, star_j = 0;

	while (j < sn) {
		if (i < pn && p[i] == '*') {
			star_i = i++;
			star_j = j;
		} else if (i < pn && p[i] == s[j]) {
			i++;
			j++;
		} else if (star_i != (size_t)-1) {
			i = star_i + 1;
			j = ++star_j;
		} else
			return 0;
	}
	while (i < pn && p[i] == '*')
		i++;
	return i == pn;
}

/* Whether rule pattern p matches path (a prefix of it, unless p ends in $). */
static int
rule_match(const char *p, const char *path)
{
	size_t pn = strlen(p), sn = strlen(path), i;
	int ok;
	char *q;

	if (pn > 0 && p[pn - 1] == '$')
		return wild(p, pn - 1, path, sn);
	/* A prefix match: the pattern followed by '*'. */
	q = uk_util_xmalloc(pn + 2);
	for (i = 0; i < pn; i++)
		q[i] = p[i];
	q[pn] = '*';
	q[pn + 1] = '\0';
	ok = wild(q, pn + 1, path, sn);
	free(q);
	return ok;
}

int
uk_robots_allowed(const struct uk_robots *r, const char *path)
{
	size_t i, best = 0, n;
	int allow = 1, found = 0;

	if (strcmp(path, "/robots.txt") == 0)
		return 1;
	if (r->mode != UK_ROBOTS_RULES)
		return r->mode == UK_ROBOTS_ALLOW_ALL;
	for (i = 0; i < r->nrules; i++) {
		if (!rule_match(r->rules[i].path, path))
			continue;
		n = strlen(r->rules[i].path);
		if (!found || n > best || (n == best && r->rules[i].allow)) {
			allow = r->rules[i].allow;
			best = n;
			found = 1;
		}
	}
	return allow;
}
