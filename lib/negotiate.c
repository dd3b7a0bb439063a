/* SPDX-License-Identifier: MIT */
/* Markdown the site already has: see negotiate.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "charset.h"
#include "json.h"
#include "llmstxt.h"
#include "negotiate.h"
#include "pagelinks.h"
#include "urlref.h"
#include "util.h"
#include "banned.h"

int
uk_negotiate_is_html_doc(const char *buf, size_t len)
{
	static const char *const starts[] = { "<!doctype html", "<html",
		"<head", "<body", NULL };
	size_t i = 0, k, n;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && isspace((unsigned char)buf[i]))
		i++;
	for (k = 0; starts[k]; k++) {
		n = strlen(starts[k]);
		if (len - i >= n && !strncasecmp(buf + i, starts[k], n) &&
		    (len - i == n || !isalnum((unsigned char)buf[i + n])))
			return 1;
	}
	return 0;
}

/* The line at p (to end) without its "\r\n" or "\n": its length. */
static size_t
line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n;

	*next = nl ? nl + 1 : end;
	n = (size_t)((nl ? nl : end) - p);
	if (n && p[n - 1] == '\r')
		n--;
	return n;
}

/* value[0..n) trimmed of blanks and one pair of quotes, as a string. */
static char *
fm_value(const char *v, size_t n)
{
	while (n && (*v == ' ' || *v == '\t')) {
		v++;
		n--;
	}
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	return n ? uk_util_xmemdup(v, n) : NULL;
}

struct front {
	char *title, *description, *author, *date;
};

/*
 * The front matter at the start of t[0..len): its fields into fm, and
 * where the text after it starts (0 when there is none).  YAML is read
 * only as far as "key: value" lines at the top level: a title written as
 * a block (key: |) is no title here.
 */
static size_t
front_matter(const char *t, size_t len, struct front *fm)
{
	const char *p = t, *end = t + len, *next, *colon;
	size_t n, k;
	char **slot;

	n = line_len(p, end, &next);
	if (n != 3 || strncmp(p, "---", 3))
		return 0;
	for (p = next; p < end; p = next) {
		n = line_len(p, end, &next);
		if ((n == 3 && (!strncmp(p, "---", 3) ||
		    !strncmp(p, "...", 3))))
			return (size_t)(next - t);
		if (!(colon = memchr(p, ':', n)) || p[0] == ' ' ||
		    p[0] == '\t')
			continue;
		k = (size_t)(colon - p);
		slot = k == 5 && !strncasecmp(p, "title", 5) ? &fm->title :
		    k == 11 && !strncasecmp(p, "description", 11) ?
		    &fm->description :
		    k == 6 && !strncasecmp(p, "author", 6) ? &fm->author :
		    k == 4 && !strncasecmp(p, "date", 4) ? &fm->date : NULL;
		if (slot && !*slot)
			*slot = fm_value(colon + 1, n - k - 1);
	}
	/* No closing line: no front matter, the text is all content. */
	free(fm->title);
	free(fm->description);
	free(fm->author);
	free(fm->date);
	memset(fm, 0, sizeof(*fm));
	return 0;
}

/* The text of the first "# " heading of t[0..len) outside fences. */
static char *
first_heading(const char *t, size_t len)
{
	const char *p = t, *end = t + len, *next;
	size_t n;
	int fence = 0;

	for (; p < end; p = next) {
		n = line_len(p, end, &next);
		if (n >= 3 && (!strncmp(p, "```", 3) || !strncmp(p, "~~~", 3)))
			fence = !fence;
		else if (!fence && n > 2 && p[0] == '#' && p[1] == ' ')
			return fm_value(p + 2, n - 2);
	}
	return NULL;
}

void
uk_negotiate_markdown_record(yajl_val rec, const char *body, size_t len,
    const char *content_type, const char *url, const char *source,
    const struct uk_extract_opts *o)
{
	struct uk_buf t = UK_BUF_INIT;
	struct front fm = { NULL, NULL, NULL, NULL };
	char cs[64];
	size_t at;
	const char *text;

	if (!uk_charset_from_content_type(content_type, cs, sizeof(cs)) ||
	    uk_charset_to_utf8(body, len, cs, &t, NULL)) {
		uk_buf_reset(&t);
		uk_buf_add_utf8(&t, body, len);
	}
	text = t.buf;
	if (t.len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		text += 3;
	at = front_matter(text, t.len - (size_t)(text - t.buf), &fm);
	text += at;
	while (*text == '\n' || *text == '\r')
		text++;
	if (!fm.title)
		fm.title = first_heading(text, strlen(text));
	uk_json_set(rec, "title", uk_json_str_or_null(fm.title));
	uk_json_set(rec, "description", uk_json_str_or_null(fm.description));
	uk_json_set(rec, "author", uk_json_str_or_null(fm.author));
	uk_json_set(rec, "date", uk_json_str_or_null(fm.date));
	uk_json_set_str(rec, "content", text);
	uk_json_set_str(rec, "format", "markdown");
	uk_json_set_str(rec, "source", source);
	if (o && o->links_out)
		uk_pagelinks_markdown(rec, text, strlen(text), url, o);
	free(fm.title);
	free(fm.description);
	free(fm.author);
	free(fm.date);
	uk_buf_release(&t);
}

/* The length of url's "scheme://authority", 0 when it is not http(s). */
static size_t
origin_len(const char *url)
{
	size_t n;

	if (!strncasecmp(url, "http://", 7))
		n = 7;
	else if (!strncasecmp(url, "https://", 8))
		n = 8;
	else
		return 0;
	return n + strcspn(url + n, "/?#");
}

int
uk_negotiate_same_origin(const char *a, const char *b)
{
	size_t n = origin_len(a);

	return n && n == origin_len(b) && !strncasecmp(a, b, n);
}

static void
site_free(struct uk_negotiate_site *s)
{
	free(s->origin);
	uk_strset_release(&s->md);
	free(s);
}

/* Drop the sites past the newest UK_NEGOTIATE_SITES_MAX but those
 * being fetched (pages wait on them). */
static void
forget_old(struct uk_negotiate_site *head)
{
	struct uk_negotiate_site **p = &head->next, *s;
	size_t n = 1;

	while ((s = *p)) {
		if (++n > UK_NEGOTIATE_SITES_MAX &&
		    s->state != UK_SITE_FETCHING) {
			*p = s->next;
			site_free(s);
			continue;
		}
		p = &s->next;
	}
}

struct uk_negotiate_site *
uk_negotiate_site(struct uk_negotiate_site **sites, const char *url)
{
	struct uk_negotiate_site *s;
	size_t n = origin_len(url);

	if (!n)
		return NULL;
	for (s = *sites; s; s = s->next)
		if (strlen(s->origin) == n && !strncasecmp(s->origin, url, n))
			return s;
	s = uk_util_xcalloc(1, sizeof(*s));
	s->origin = uk_util_xmemdup(url, n);
	s->state = UK_SITE_UNKNOWN;
	s->md = (struct uk_strset)UK_STRSET_INIT;
	s->next = *sites;
	*sites = s;
	forget_old(s);
	return s;
}

struct llms_ctx {
	struct uk_negotiate_site *s;
	const char *base;
};

static int
add_listed(void *ctx, const char *ref, const char *title)
{
	struct llms_ctx *c = ctx;
	char *u = uk_urlref_resolve(c->base, ref);

	(void)title;
	if (u && uk_negotiate_same_origin(u, c->s->origin))
		uk_strset_add(&c->s->md, u, strcspn(u, "#"));
	free(u);
	return 0;
}

void
uk_negotiate_site_read(struct uk_negotiate_site *s, const char *text,
    size_t len, const char *llms_url)
{
	struct llms_ctx c = { s, llms_url };

	uk_llmstxt_links(text, len, add_listed, &c);
	s->state = UK_SITE_PRESENT;
}

/* Whether s lists b's text; then it is the answer (a copy). */
static char *
listed(const struct uk_negotiate_site *s, const struct uk_buf *b)
{
	return uk_strset_has(&s->md, b->buf, b->len) ?
	    uk_util_xmemdup(b->buf, b->len) : NULL;
}

char *
uk_negotiate_site_md(const struct uk_negotiate_site *s, const char *url)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t n = strcspn(url, "?#"), e;
	char *r = NULL;

	if (s->state != UK_SITE_PRESENT || !uk_negotiate_same_origin(url,
	    s->origin))
		return NULL;
	/* PAGE.md; a directory's index.html.md or index.md; NAME.md for
	 * NAME.html (llmstxt.org's proposal and what sites do). */
	uk_buf_add(&b, url, n);
	uk_buf_addstr(&b, ".md");
	r = listed(s, &b);
	if (!r && n && url[n - 1] == '/') {
		uk_buf_reset(&b);
		uk_buf_add(&b, url, n);
		uk_buf_addstr(&b, "index.html.md");
		if (!(r = listed(s, &b))) {
			uk_buf_setlen(&b, n);
			uk_buf_addstr(&b, "index.md");
			r = listed(s, &b);
		}
	}
	e = n >= 5 && !strncasecmp(url + n - 5, ".html", 5) ? 5 :
	    n >= 4 && !strncasecmp(url + n - 4, ".htm", 4) ? 4 : 0;
	if (!r && e) {
		uk_buf_reset(&b);
		uk_buf_add(&b, url, n - e);
		uk_buf_addstr(&b, ".md");
		r = listed(s, &b);
	}
	uk_buf_release(&b);
	return r;
}

void
uk_negotiate_sites_free(struct uk_negotiate_site *sites)
{
	struct uk_negotiate_site *s;

	while ((s = sites)) {
		sites = s->next;
		site_free(s);
	}
}
