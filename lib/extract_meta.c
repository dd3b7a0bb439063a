/* SPDX-License-Identifier: MIT */
/*
 * Metadata of a page (see extract.h): candidates gathered from <title>,
 * <h1>, <meta> (name, property, itemprop), JSON-LD, <time> and
 * rel=author while extract.c builds its node array, then chosen by
 * preference.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"
#include "json.h"
#include "util.h"

static void
set_once(char **dst, const char *s)
{
	struct uk_buf b = UK_BUF_INIT;
	int sp = 0;

	if (*dst || !s)
		return;
	uk_ex_squeeze(&b, s, &sp, 0, SIZE_MAX);
	if (!b.len) {
		uk_buf_release(&b);
		return;
	}
	*dst = uk_buf_detach(&b, NULL);
}

/* The text of a node's subtree, whitespace collapsed. */
static void
node_text(GumboNode *g, struct uk_buf *b, int depth)
{
	unsigned i;

	if (depth > 64)
		return;
	if (g->type == GUMBO_NODE_TEXT || g->type == GUMBO_NODE_CDATA ||
	    g->type == GUMBO_NODE_WHITESPACE) {
		uk_buf_addstr(b, g->v.text.text);
		return;
	}
	if (g->type != GUMBO_NODE_ELEMENT && g->type != GUMBO_NODE_TEMPLATE)
		return;
	if (g->v.element.tag == GUMBO_TAG_SCRIPT ||
	    g->v.element.tag == GUMBO_TAG_STYLE)
		return;
	for (i = 0; i < g->v.element.children.length; i++) {
		GumboNode *c = g->v.element.children.data[i];

		node_text(c, b, depth + 1);
		if (c->type == GUMBO_NODE_ELEMENT &&
		    !uk_ex_tag_inline(c->v.element.tag))
			uk_buf_addch(b, ' ');
	}
}

static void
set_text_once(char **dst, GumboNode *g)
{
	struct uk_buf b = UK_BUF_INIT;

	if (*dst)
		return;
	node_text(g, &b, 0);
	set_once(dst, b.buf);
	uk_buf_release(&b);
}

/* JSON-LD: the first Article-like object's headline, author, date. */
static void
ld_author(struct ctx *c, yajl_val a)
{
	size_t i;

	if (!a || c->ld_author)
		return;
	if (YAJL_IS_STRING(a))
		set_once(&c->ld_author, YAJL_GET_STRING(a));
	else if (YAJL_IS_OBJECT(a))
		set_once(&c->ld_author, uk_json_get_str(a, "name"));
	else if (YAJL_IS_ARRAY(a)) {
		struct uk_buf b = UK_BUF_INIT;

		for (i = 0; i < a->u.array.len && i < 8; i++) {
			yajl_val e = a->u.array.values[i];
			const char *s = YAJL_IS_STRING(e) ? YAJL_GET_STRING(e) :
			    YAJL_IS_OBJECT(e) ? uk_json_get_str(e, "name") :
						NULL;

			if (!s || !*s)
				continue;
			if (b.len)
				uk_buf_addstr(&b, ", ");
			uk_buf_addstr(&b, s);
		}
		if (b.len)
			set_once(&c->ld_author, b.buf);
		uk_buf_release(&b);
	}
}

static void
ld_walk(struct ctx *c, yajl_val v, int depth)
{
	size_t i;
	yajl_val t;

	if (!v || depth > 8)
		return;
	if (YAJL_IS_ARRAY(v)) {
		for (i = 0; i < v->u.array.len; i++)
			ld_walk(c, v->u.array.values[i], depth + 1);
		return;
	}
	if (!YAJL_IS_OBJECT(v))
		return;
	t = uk_json_get(v, "@graph");
	if (t)
		ld_walk(c, t, depth + 1);
	t = uk_json_get(v, "@type");
	if (t && YAJL_IS_ARRAY(t) && t->u.array.len)
		t = t->u.array.values[0];
	if (!t || !YAJL_IS_STRING(t))
		return;
	{
		const char *ty = YAJL_GET_STRING(t);

		if (ty && !strcmp(ty, "WebSite")) {
			set_once(&c->app_name, uk_json_get_str(v, "name"));
			return;
		}

		if (!strstr(ty, "Article") && !strstr(ty, "Posting") &&
		    strcmp(ty, "WebPage") && strcmp(ty, "Report") &&
		    strcmp(ty, "Review") && strcmp(ty, "QAPage") &&
		    strcmp(ty, "Recipe") && strcmp(ty, "Product") &&
		    strcmp(ty, "DiscussionForumPosting") &&
		    strcmp(ty, "TechArticle") && strcmp(ty, "Question"))
			return;
	}
	set_once(&c->ld_headline, uk_json_get_str(v, "headline"));
	set_once(&c->ld_desc, uk_json_get_str(v, "description"));
	ld_author(c, uk_json_get(v, "author"));
	set_once(&c->ld_date, uk_json_get_str(v, "datePublished"));
	set_once(&c->ld_date, uk_json_get_str(v, "dateCreated"));
	t = uk_json_get(v, "publisher");
	if (t && YAJL_IS_ARRAY(t) && t->u.array.len)
		t = t->u.array.values[0];
	if (t && YAJL_IS_OBJECT(t))
		set_once(&c->ld_publisher, uk_json_get_str(t, "name"));
	else if (t && YAJL_IS_STRING(t))
		set_once(&c->ld_publisher, YAJL_GET_STRING(t));
	t = uk_json_get(v, "image");
	if (t && YAJL_IS_ARRAY(t) && t->u.array.len)
		t = t->u.array.values[0];
	if (t && YAJL_IS_OBJECT(t))
		set_once(&c->ld_image, uk_json_get_str(t, "url"));
	else if (t && YAJL_IS_STRING(t))
		set_once(&c->ld_image, YAJL_GET_STRING(t));
}

static void
ld_json(struct ctx *c, GumboNode *g)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val v;
	unsigned i;

	for (i = 0; i < g->v.element.children.length; i++) {
		GumboNode *t = g->v.element.children.data[i];

		if (t->type == GUMBO_NODE_TEXT || t->type == GUMBO_NODE_CDATA ||
		    t->type == GUMBO_NODE_WHITESPACE)
			uk_buf_addstr(&b, t->v.text.text);
	}
	if (b.len > 1 << 20) {
		uk_buf_release(&b);
		return;
	}
	v = uk_json_parse(b.buf, b.len, NULL);
	if (v) {
		ld_walk(c, v, 0);
		uk_json_free(v);
	}
	uk_buf_release(&b);
}

/* Add a tag (article:tag or one keyword), at most MAX_TAGS. */
#define MAX_TAGS 64
static void
add_tag(struct ctx *c, const char *s, size_t n)
{
	char *t = uk_util_xmemdup(s, n), *v = NULL;

	set_once(&v, t);
	free(t);
	if (!v)
		return;
	if (c->ntags >= MAX_TAGS || strlen(v) > 100) {
		free(v);
		return;
	}
	c->tags = uk_util_xrealloc(c->tags, (c->ntags + 1) * sizeof(*c->tags));
	c->tags[c->ntags++] = v;
}

/* Keywords: split on commas (and semicolons, which some sites use). */
static void
add_keywords(struct ctx *c, const char *v)
{
	while (*v) {
		size_t n = strcspn(v, ",;");

		add_tag(c, v, n);
		v += n;
		if (*v)
			v++;
	}
}

static void
meta_tag(struct ctx *c, GumboNode *g)
{
	const char *k = uk_ex_attr(g, "property"), *v = uk_ex_attr(g, "content");

	if (!v)
		return;
	k = k ? k : uk_ex_attr(g, "http-equiv");
	if (k && !strcasecmp(k, "content-language")) {
		set_once(&c->meta_lang, v);
		return;
	}
	k = uk_ex_attr(g, "property");
	if (!k)
		k = uk_ex_attr(g, "name");
	if (!k)
		k = uk_ex_attr(g, "itemprop");
	if (!k)
		return;
	if (!strcasecmp(k, "og:title"))
		set_once(&c->og_title, v);
	else if (!strcasecmp(k, "twitter:title"))
		set_once(&c->tw_title, v);
	else if (!strcasecmp(k, "description"))
		set_once(&c->meta_desc, v);
	else if (!strcasecmp(k, "og:description") ||
	    !strcasecmp(k, "twitter:description"))
		set_once(&c->og_desc, v);
	else if (!strcasecmp(k, "author") || !strcasecmp(k, "dc.creator") ||
	    !strcasecmp(k, "sailthru.author") ||
	    !strcasecmp(k, "parsely-author"))
		set_once(&c->meta_author, v);
	else if (!strcasecmp(k, "article:author") ||
	    !strcasecmp(k, "og:article:author")) {
		if (strncmp(v, "http", 4))
			set_once(&c->art_author, v);
	} else if (!strcasecmp(k, "article:published_time") ||
	    !strcasecmp(k, "og:article:published_time") ||
	    !strcasecmp(k, "datePublished"))
		set_once(&c->art_date, v);
	else if (!strcasecmp(k, "og:locale"))
		set_once(&c->og_locale, v);
	else if (!strcasecmp(k, "og:site_name"))
		set_once(&c->og_site, v);
	else if (!strcasecmp(k, "application-name") ||
	    !strcasecmp(k, "apple-mobile-web-app-title"))
		set_once(&c->app_name, v);
	else if (!strcasecmp(k, "og:url"))
		set_once(&c->og_url, v);
	else if (!strcasecmp(k, "og:image") ||
	    !strcasecmp(k, "og:image:url") ||
	    !strcasecmp(k, "og:image:secure_url"))
		set_once(&c->og_image, v);
	else if (!strcasecmp(k, "twitter:image") ||
	    !strcasecmp(k, "twitter:image:src"))
		set_once(&c->tw_image, v);
	else if (!strcasecmp(k, "article:tag") ||
	    !strcasecmp(k, "og:article:tag"))
		add_tag(c, v, strlen(v));
	else if (!strcasecmp(k, "keywords") ||
	    !strcasecmp(k, "news_keywords"))
		add_keywords(c, v);
	else if (!strcasecmp(k, "date") || !strcasecmp(k, "dc.date") ||
	    !strcasecmp(k, "dc.date.issued") || !strcasecmp(k, "pubdate") ||
	    !strcasecmp(k, "publish-date") || !strcasecmp(k, "sailthru.date") ||
	    !strcasecmp(k, "parsely-pub-date") ||
	    !strcasecmp(k, "citation_publication_date"))
		set_once(&c->meta_date, v);
}

/* Collect metadata from element g. */
void
uk_ex_metadata(struct ctx *c, GumboNode *g, int tag)
{
	static const char *const roots[] = { "root", "app", "__next",
		"__nuxt", "___gatsby", "svelte", "app-root", "react-root",
		"main-app", "application", NULL };
	const char *s;
	int k;

	s = uk_ex_attr(g, "id");
	for (k = 0; s && roots[k]; k++)
		if (!strcasecmp(s, roots[k]))
			c->app_root = 1;
	if (uk_ex_attr(g, "ng-app"))
		c->app_root = 1;
	switch (tag) {
	case GUMBO_TAG_HTML:
		s = uk_ex_attr(g, "lang");
		set_once(&c->html_lang, s ? s : uk_ex_attr(g, "xml:lang"));
		break;
	case GUMBO_TAG_NOSCRIPT:
		if (!c->js_notice) {
			struct uk_buf b = UK_BUF_INIT;

			node_text(g, &b, 0);
			c->js_notice = b.buf && strcasestr(b.buf, "javascript");
			uk_buf_release(&b);
		}
		break;
	case GUMBO_TAG_TITLE:
		set_text_once(&c->title, g);
		break;
	case GUMBO_TAG_META:
		meta_tag(c, g);
		break;
	case GUMBO_TAG_SCRIPT:
		s = uk_ex_attr(g, "type");
		if (s && !strcasecmp(s, "application/ld+json")) {
			ld_json(c, g);
			break;
		}
		/* Code, or an app's state (Next.js's __NEXT_DATA__). */
		c->scripts++;
		for (k = 0; k < (int)g->v.element.children.length; k++) {
			GumboNode *t = g->v.element.children.data[k];

			if (t->type == GUMBO_NODE_TEXT ||
			    t->type == GUMBO_NODE_CDATA)
				c->script_bytes += strlen(t->v.text.text);
		}
		break;
	case GUMBO_TAG_H1:
		set_text_once(&c->h1, g);
		break;
	case GUMBO_TAG_TIME:
		set_once(&c->time_date, uk_ex_attr(g, "datetime"));
		break;
	case GUMBO_TAG_A:
	case GUMBO_TAG_LINK:
		s = uk_ex_attr(g, "rel");
		if (s && uk_ex_has_word(s, "author") && tag == GUMBO_TAG_A)
			set_text_once(&c->rel_author, g);
		if (s && uk_ex_has_word(s, "canonical") &&
		    tag == GUMBO_TAG_LINK)
			set_once(&c->link_canonical, uk_ex_attr(g, "href"));
		break;
	default:
		break;
	}
}


/* Trim a site name from a <title>: "Story - Site" gives "Story". */
static char *
clean_title(const char *t, const char *h1)
{
	static const char *const seps[] = { " | ", " - ", " \xe2\x80\x93 ",
		" \xe2\x80\x94 ", " :: ", " \xc2\xbb ", " / ", " \xc2\xb7 ",
		NULL };
	const char *cut = NULL;
	int k;

	if (h1 && !strcmp(t, h1))
		return uk_util_xstrdup(t);
	for (k = 0; seps[k]; k++) {
		const char *p = t, *q, *last = NULL;

		while ((q = strstr(p, seps[k]))) {
			last = q;
			p = q + 1;
		}
		if (last && (!cut || last > cut))
			cut = last;
	}
	if (cut) {
		/* Keep the part before the last separator if it says enough. */
		const char *p;
		int words = 1;

		for (p = t; p < cut; p++)
			if (*p == ' ')
				words++;
		if (words >= 2 || (h1 && !strncmp(t, h1, (size_t)(cut - t))))
			return uk_util_xmemdup(t, (size_t)(cut - t));
	}
	return uk_util_xstrdup(t);
}

/*
 * Resolve ref against base (RFC 3986, section 5.2) into an absolute
 * http or https URL, or NULL.  Written here because the extraction
 * front links neither libcurl (whose URL API does this) nor any other
 * URL library, and only metadata links need it.
 */
static char *
resolve(const char *base, const char *ref)
{
	struct uk_buf b = UK_BUF_INIT, path = UK_BUF_INIT;
	const char *p, *auth_end, *q;
	size_t n, seg;

	while (*ref == ' ' || *ref == '\t' || *ref == '\n' || *ref == '\r')
		ref++;
	if (!*ref)
		return NULL;
	for (p = ref; isalnum((unsigned char)*p) || *p == '+' || *p == '-' ||
	     *p == '.';
	     p++)
		;
	if (*p == ':' && p > ref && isalpha((unsigned char)*ref)) {
		/* Already absolute. */
		if (strncasecmp(ref, "http://", 7) &&
		    strncasecmp(ref, "https://", 8))
			return NULL;
		return uk_util_xstrdup(ref);
	}
	if (!base || (strncasecmp(base, "http://", 7) &&
			 strncasecmp(base, "https://", 8)))
		return NULL;
	p = strchr(base, ':');
	if (ref[0] == '/' && ref[1] == '/') {
		uk_buf_add(&b, base, (size_t)(p - base) + 1);
		uk_buf_addstr(&b, ref);
		return uk_buf_detach(&b, NULL);
	}
	auth_end = p + 3 + strcspn(p + 3, "/?#");
	uk_buf_add(&b, base, (size_t)(auth_end - base));
	n = strcspn(auth_end, "?#");
	if (*ref == '#' || *ref == '?') {
		uk_buf_add(&b, auth_end, *ref == '#' ?
			strcspn(auth_end, "#") : n);
		uk_buf_addstr(&b, ref);
		return uk_buf_detach(&b, NULL);
	}
	/* The merged path, then its dot segments removed. */
	if (*ref != '/') {
		q = auth_end + n;
		while (q > auth_end && q[-1] != '/')
			q--;
		if (q == auth_end)
			uk_buf_addch(&path, '/');
		else
			uk_buf_add(&path, auth_end, (size_t)(q - auth_end));
	}
	n = strcspn(ref, "?#");
	uk_buf_add(&path, ref, n);
	p = path.buf;
	while (*p) {
		/* p is at a '/': the segment runs to the next one. */
		seg = strcspn(p + 1, "/");
		if (seg == 1 && p[1] == '.') {
			if (!p[2])
				uk_buf_addch(&b, '/');
		} else if (seg == 2 && p[1] == '.' && p[2] == '.') {
			while (b.len && b.buf[b.len - 1] != '/')
				b.len--;
			if (b.len && (size_t)(b.len) > (size_t)(strchr(b.buf,
				':') - b.buf) + 3)
				b.len--;
			b.buf[b.len] = '\0';
			if (!p[3])
				uk_buf_addch(&b, '/');
		} else {
			uk_buf_add(&b, p, seg + 1);
		}
		p += seg + 1;
	}
	uk_buf_addstr(&b, ref + n);
	uk_buf_release(&path);
	return uk_buf_detach(&b, NULL);
}

/*
 * A language tag as BCP 47 writes it: the first of a list
 * (Content-Language may name several), "_" as "-" (og:locale's en_US);
 * NULL unless it is letters, digits and hyphens.
 */
static char *
lang_tag(const char *s)
{
	size_t n, i;
	char *t;

	if (!s)
		return NULL;
	while (*s == ' ' || *s == '\t')
		s++;
	n = strcspn(s, ", \t;");
	if (!n || n > 35 || !isalpha((unsigned char)*s))
		return NULL;
	t = uk_util_xmemdup(s, n);
	for (i = 0; i < n; i++) {
		if (t[i] == '_')
			t[i] = '-';
		if (!isalnum((unsigned char)t[i]) && t[i] != '-') {
			free(t);
			return NULL;
		}
	}
	return t;
}

static void
finish_more(struct ctx *c)
{
	struct uk_extract *x = c->x;
	const char *langs[] = { c->html_lang, c->http_lang, c->meta_lang,
		c->og_locale };
	size_t i, k;

	for (i = 0; i < sizeof(langs) / sizeof(*langs) && !x->lang; i++)
		x->lang = lang_tag(langs[i]);
	if (c->og_site)
		x->sitename = uk_util_xstrdup(c->og_site);
	else if (c->ld_publisher)
		x->sitename = uk_util_xstrdup(c->ld_publisher);
	else if (c->app_name)
		x->sitename = uk_util_xstrdup(c->app_name);
	if (c->link_canonical)
		x->canonical = resolve(c->url, c->link_canonical);
	if (!x->canonical && c->og_url)
		x->canonical = resolve(c->url, c->og_url);
	if (c->og_image)
		x->image = resolve(c->url, c->og_image);
	if (!x->image && c->tw_image)
		x->image = resolve(c->url, c->tw_image);
	if (!x->image && c->ld_image)
		x->image = resolve(c->url, c->ld_image);
	/* Tags in the order found, duplicates (any case) dropped. */
	for (i = 0; i < c->ntags; i++) {
		for (k = 0; k < x->ntags; k++)
			if (!strcasecmp(x->tags[k], c->tags[i]))
				break;
		if (k < x->ntags)
			continue;
		x->tags = uk_util_xrealloc(x->tags,
		    (x->ntags + 1) * sizeof(*x->tags));
		x->tags[x->ntags++] = uk_util_xstrdup(c->tags[i]);
	}
}

void
uk_ex_finish_metadata(struct ctx *c)
{
	struct uk_extract *x = c->x;

	finish_more(c);

	if (c->og_title)
		x->title = uk_util_xstrdup(c->og_title);
	else if (c->title)
		x->title = clean_title(c->title, c->h1);
	else if (c->ld_headline)
		x->title = uk_util_xstrdup(c->ld_headline);
	else if (c->tw_title)
		x->title = uk_util_xstrdup(c->tw_title);
	else if (c->h1)
		x->title = uk_util_xstrdup(c->h1);
	if (c->meta_desc)
		x->description = uk_util_xstrdup(c->meta_desc);
	else if (c->og_desc)
		x->description = uk_util_xstrdup(c->og_desc);
	else if (c->ld_desc)
		x->description = uk_util_xstrdup(c->ld_desc);
	if (c->meta_author)
		x->author = uk_util_xstrdup(c->meta_author);
	else if (c->art_author)
		x->author = uk_util_xstrdup(c->art_author);
	else if (c->ld_author)
		x->author = uk_util_xstrdup(c->ld_author);
	else if (c->rel_author)
		x->author = uk_util_xstrdup(c->rel_author);
	if (c->art_date)
		x->date = uk_util_xstrdup(c->art_date);
	else if (c->ld_date)
		x->date = uk_util_xstrdup(c->ld_date);
	else if (c->time_date)
		x->date = uk_util_xstrdup(c->time_date);
	else if (c->meta_date)
		x->date = uk_util_xstrdup(c->meta_date);
}
void
uk_ex_metadata_release(struct ctx *c)
{
	free(c->og_title);
	free(c->title);
	free(c->h1);
	free(c->tw_title);
	free(c->meta_desc);
	free(c->og_desc);
	free(c->ld_desc);
	free(c->meta_author);
	free(c->art_author);
	free(c->ld_author);
	free(c->rel_author);
	free(c->art_date);
	free(c->ld_date);
	free(c->time_date);
	free(c->meta_date);
	free(c->ld_headline);
	free(c->html_lang);
	free(c->meta_lang);
	free(c->og_locale);
	free(c->og_site);
	free(c->ld_publisher);
	free(c->app_name);
	free(c->link_canonical);
	free(c->og_url);
	free(c->og_image);
	free(c->tw_image);
	free(c->ld_image);
	while (c->ntags)
		free(c->tags[--c->ntags]);
	free(c->tags);
}

/*
 * An app shell: a page whose text its scripts build in the browser.  It
 * has little text of its own (under SHELL_TEXT bytes), runs scripts, and
 * shows it in one of three ways: an element apps mount on (id="root",
 * "app", "__next"...), a noscript or text asking for JavaScript, or a
 * lone "Loading" line.  An article with scripts has its text and is
 * never a shell.
 */
#define SHELL_TEXT 300
#define SHELL_NOTICE 120 /* a text this short that asks for JavaScript */
const char uk_extract_shell_warning[] =
    "the page's text is built by scripts (needs_browser): render it with "
    "pwfetch (urlfetch | jq -c 'select(.needs_browser)' | pwfetch fetch)";
static const char *const notices[] = { "enable javascript",
	"javascript is required", "javascript is disabled",
	"requires javascript", "turn on javascript",
	"javascript must be enabled", "needs javascript",
	"javascript to run this app", NULL };

/* Whether text asks for JavaScript or is a lone "Loading" line. */
static int
is_notice(const char *text, size_t len)
{
	const char *t = text;
	int k;

	for (k = 0; notices[k]; k++)
		if (strcasestr(text, notices[k]))
			return 1;
	while (*t == ' ' || *t == '\n')
		t++;
	return !strncasecmp(t, "loading", 7) && len < 40;
}

int
uk_ex_needs_browser(const struct ctx *c, const char *alltext, size_t alllen)
{
	if (alllen >= SHELL_TEXT || !c->scripts || c->x->blocked)
		return 0;
	return c->app_root || c->js_notice || is_notice(alltext, alllen);
}

/*
 * The text of an app shell that is nothing but its notice ("You need to
 * enable JavaScript to run this app."): not the page's text.  A rendered
 * shell's few lines of real text stay.
 */
int
uk_ex_only_notice(const char *text, size_t len)
{
	return text && len && len < SHELL_NOTICE && is_notice(text, len);
}

int
uk_extract_meta_is_binary(const char *buf, size_t len)
{
	size_t n = len < 1024 ? len : 1024, i, bad = 0;
	const unsigned char *p = (const unsigned char *)buf;

	if (n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) ||
			  (p[0] == 0xfe && p[1] == 0xff)))
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' &&
		    p[i] != '\r' && p[i] != '\f' && p[i] != 0x1b)
			bad++;
	/* A stray NUL or control byte is a sloppy page, not binary. */
	return bad > n / 20 + 1;
}
