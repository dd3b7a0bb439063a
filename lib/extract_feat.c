/* SPDX-License-Identifier: MIT */
/*
 * The learned part of extraction: what the models see of a page and of
 * its blocks, and how their verdicts are applied (see extract_int.h and
 * doc/EXTRACTION.md).
 *
 * A block is the nearest block element of a text node (a paragraph, an
 * item, a cell, a heading, a <div> with text of its own); its text is
 * that of the text nodes it holds directly or through inline elements.
 * Page features describe the page as a whole (counts of tags, shares of
 * text, schema.org types, the path of its canonical address, words
 * shops, forums and documentation print); the page type model reads
 * them.  Block features describe one block and its neighbourhood
 * (length, links, punctuation, tag, class words, repetition among
 * siblings, position, distance to the <h1> and the last heading,
 * whether today's rules chose it) and carry the page type's
 * probabilities, so that what counts as main text follows the type.
 *
 * The features are written here once and read both by the models at run
 * time and, through UK_EXTRACT_FEATURES, by scripts/train-extract: the
 * same code at training and at inference.
 */
#include <ctype.h>
#include <fcntl.h>
#include <gumbo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "extract.h"
#include "extract_int.h"
#include "util.h"

/* uk_ex_types' index of "article". */
#define ARTICLE 0
const char *const uk_ex_types[UK_EX_NTYPES] = { "article", "forum",
	"product", "collection", "listing", "documentation", "service" };

/*
 * A count or a length as a feature.  Trees split on thresholds, so any
 * monotone scale gives the same model; the raw count spares libm.
 */
static double
lg(double v)
{
	return v > 0 ? v : 0;
}

/* The most words count_words takes, of its lists together. */
#define CW_MAX 64

/*
 * For each of the nl NULL-terminated lists (lower-case words of two
 * bytes at least), occurrences of any of its words in lc, the page's
 * text lower-cased once (uk_ex_lower), into n[]: each word's
 * occurrences that do not overlap each other, leftmost first (strstr's
 * from the end of the last), at most 1000 a list.  One pass over the
 * text: the words are hashed by their first two bytes, and a position
 * is compared with the words of its bucket only (strstr over the text
 * once for each of the 46 words took 0.04 M instructions of a 2 KB
 * page).
 */
static void
count_words(const char *lc, const char *const *const *lists, int nl, int *n)
{
	const char *w[CW_MAX], *next[CW_MAX];
	signed char head[256], chain[CW_MAX];
	unsigned char list[CW_MAX];
	size_t len[CW_MAX];
	const unsigned char *p;
	int nw = 0, k, j, h;

	memset(head, -1, sizeof(head));
	for (k = 0; k < nl; k++) {
		n[k] = 0;
		for (j = 0; lists[k][j] && nw < CW_MAX; j++, nw++) {
			w[nw] = lists[k][j];
			len[nw] = strlen(w[nw]);
			next[nw] = lc;
			list[nw] = (unsigned char)k;
			h = ((unsigned char)w[nw][0] * 7 +
			    (unsigned char)w[nw][1]) & 0xff;
			chain[nw] = head[h];
			head[h] = (signed char)nw;
		}
	}
	for (p = (const unsigned char *)lc; *p; p++)
		for (j = head[(p[0] * 7 + p[1]) & 0xff]; j >= 0; j = chain[j]) {
			const unsigned char *q = (const unsigned char *)w[j];
			size_t i;

			if (p[0] != q[0] || p[1] != q[1] ||
			    (const char *)p < next[j])
				continue;
			/* Stops at the text's NUL: no word holds one. */
			for (i = 2; i < len[j] && p[i] == q[i]; i++)
				;
			if (i == len[j]) {
				n[list[j]]++;
				next[j] = (const char *)p + len[j];
			}
		}
	for (k = 0; k < nl; k++)
		if (n[k] > 1000)
			n[k] = 1000;
}

char *
uk_ex_lower(const char *s)
{
	char *lc = uk_util_xstrdup(s ? s : ""), *p;

	for (p = lc; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return lc;
}

/*
 * Prices in s[0..len) (NUL-terminated): a currency sign next to a
 * digit.  strcspn skips to the bytes a sign starts with (or a NUL, then
 * passed over), many bytes at a time.
 */
static int
count_prices(const char *s, size_t len)
{
	size_t k;
	int n = 0;

	for (k = 0; k + 1 < len && n < 1000; k++) {
		const unsigned char *p;
		int sign;

		k += strcspn(s + k, "$\xe2\xc2");
		if (k + 1 >= len)
			break;
		p = (const unsigned char *)s + k;
		sign = *p == '$' ||
		    (k + 2 < len && p[0] == 0xe2 && p[1] == 0x82 &&
			p[2] == 0xac) || /* € */
		    (p[0] == 0xc2 && p[1] == 0xa3); /* £ */

		if (!sign)
			continue;
		p += *p == '$' ? 1 : p[0] == 0xe2 ? 3 : 2;
		if ((size_t)(p - (const unsigned char *)s) < len &&
		    (isdigit(*p) || (*p == ' ' && isdigit(p[1]))))
			n++;
	}
	return n;
}

/* schema.org and Open Graph vocabulary, by the page type it suggests. */
enum { V_ART, V_PROD, V_FORUM, V_COLL, V_DOC, V_SERV, V_NV };
static const struct {
	const char *name;
	int v;
} vocab[] = {
	{ "NewsArticle", V_ART }, { "BlogPosting", V_ART },
	{ "Article", V_ART }, { "Report", V_ART }, { "article", V_ART },
	{ "Product", V_PROD }, { "Offer", V_PROD }, { "product", V_PROD },
	{ "AggregateOffer", V_PROD },
	{ "DiscussionForumPosting", V_FORUM }, { "QAPage", V_FORUM },
	{ "Question", V_FORUM }, { "Answer", V_FORUM }, { "Comment", V_FORUM },
	{ "ItemList", V_COLL }, { "CollectionPage", V_COLL },
	{ "OfferCatalog", V_COLL }, { "SearchResultsPage", V_COLL },
	{ "TechArticle", V_DOC }, { "APIReference", V_DOC },
	{ "SoftwareSourceCode", V_DOC }, { "HowTo", V_DOC },
	{ "Service", V_SERV }, { "LocalBusiness", V_SERV },
	{ "ProfessionalService", V_SERV }, { "Organization", V_SERV },
	{ "website", V_SERV }, { "WebSite", V_SERV },
	{ NULL, 0 }
};

/* The vocabulary group of a type name s[0..n), or -1. */
static int
vocab_of(const char *s, size_t n)
{
	int k;

	/* "https://schema.org/Product": the last path segment. */
	while (n && s[n - 1] == '/')
		n--;
	for (size_t j = n; j > 0; j--)
		if (s[j - 1] == '/' || s[j - 1] == ':') {
			s += j;
			n -= j;
			break;
		}
	for (k = 0; vocab[k].name; k++)
		if (strlen(vocab[k].name) == n && !memcmp(vocab[k].name, s, n))
			return vocab[k].v;
	return -1;
}

/* The "@type" values of JSON-LD in html[0..len), counted by group. */
static void
ld_types(const char *html, size_t len, int *v)
{
	const char *p = html, *end = html + len, *q;

	while (p < end && (q = memmem(p, (size_t)(end - p), "\"@type\"", 7))) {
		int k;

		p = q + 7;
		while (p < end && (*p == ' ' || *p == ':' || *p == '['))
			p++;
		if (p >= end || *p != '"')
			continue;
		q = ++p;
		while (p < end && *p != '"' && p - q < 64)
			p++;
		if ((k = vocab_of(q, (size_t)(p - q))) >= 0 && v[k] < 100)
			v[k]++;
	}
}

/* Generic words of an address's path, by the page type they suggest. */
static const char *const path_prod[] = { "product", "products", "item",
	"p", "dp", "shop", "store", "buy", NULL };
static const char *const path_doc[] = { "docs", "doc", "documentation",
	"api", "reference", "guide", "guides", "manual", "wiki", "learn",
	"tutorial", "help", "kb", "en-us", NULL };
static const char *const path_forum[] = { "forum", "forums", "thread",
	"threads", "topic", "topics", "t", "community", "discussion",
	"discussions", "questions", "viewtopic.php", "showthread.php",
	"comments", "r", NULL };
static const char *const path_coll[] = { "tag", "tags", "category",
	"categories", "collections", "collection", "c", "search", "archive",
	"page", "shop", "catalog", "list", "browse", "topics", NULL };
static const char *const path_art[] = { "blog", "news", "article",
	"articles", "post", "posts", "story", "stories", NULL };
static const char *const path_serv[] = { "services", "service", "about",
	"contact", "pricing", "solutions", "company", "features", NULL };

/* Whether segment s[0..n) (lower-cased) is a word of list. */
static int
seg_in(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !strncasecmp(*list, s, n))
			return 1;
	return 0;
}

/* Path features of address u into f[0..8). */
static void
url_features(const char *u, double *f)
{
	const char *p, *q;
	int depth = 0, date = 0;

	memset(f, 0, 8 * sizeof(*f));
	if (!u || !(p = strstr(u, "://")))
		return;
	p += 3;
	p += strcspn(p, "/?#");
	while (*p == '/') {
		size_t n;

		p++;
		n = strcspn(p, "/?#");
		if (!n)
			break;
		depth++;
		q = p;
		f[1] += seg_in(q, n, path_prod);
		f[2] += seg_in(q, n, path_doc);
		f[3] += seg_in(q, n, path_forum);
		f[4] += seg_in(q, n, path_coll);
		f[5] += seg_in(q, n, path_art);
		f[6] += seg_in(q, n, path_serv);
		if (n == 4 && isdigit((unsigned char)q[0]) &&
		    isdigit((unsigned char)q[3]))
			date = 1;
		p += n;
	}
	f[0] = depth;
	f[5] += date;
	f[7] = strchr(u, '?') != NULL;
}

/* What a page shop, forum, listing, documentation and service print. */
static const char *const w_prod[] = { "add to cart", "add to bag",
	"add to basket", "buy now", "in stock", "out of stock", "sku",
	"quantity", "free shipping", NULL };
static const char *const w_forum[] = { "reply", "replies", "posted",
	"joined", "quote", "views", "member", "thread", NULL };
static const char *const w_list[] = { "read more", "continue reading",
	"posted on", "comments", NULL };
static const char *const w_coll[] = { "sort by", "filter", "showing",
	"results", "per page", "next page", "view all", "price", NULL };
static const char *const w_doc[] = { "parameters", "returns", "example",
	"syntax", "deprecated", "function", "install", "configuration",
	NULL };
static const char *const w_serv[] = { "contact us", "get a quote",
	"our services", "book", "schedule", "consultation", "call us",
	"get started", NULL };
static const char *const *const w_lists[] = { w_prod, w_forum, w_list,
	w_coll, w_doc, w_serv };

/* Whether elements a and b have the same tag and first class name. */
static int
alike(struct ctx *c, int a, int b)
{
	const char *ca, *cb;
	size_t la, lb;

	if (c->n[a].tag != c->n[b].tag)
		return 0;
	ca = uk_ex_attr(c->n[a].g, "class");
	cb = uk_ex_attr(c->n[b].g, "class");
	la = ca ? strcspn(ca, " ") : 0;
	lb = cb ? strcspn(cb, " ") : 0;
	return la == lb && (!la || !memcmp(ca, cb, la));
}

/*
 * Block n's text into the shares of the page's text by tag (share[0]
 * paragraphs, 1 items, 2 headings, 3 <pre>, 4 cells); returns 1 for a
 * paragraph (they are counted).
 */
static int
add_share(const struct nd *n, double *share)
{
	switch (n->tag) {
	case GUMBO_TAG_P:
		share[0] += n->own;
		return 1;
	case GUMBO_TAG_LI:
		share[1] += n->own;
		break;
	case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
	case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
		share[2] += n->own;
		break;
	case GUMBO_TAG_PRE:
		share[3] += n->text;
		break;
	case GUMBO_TAG_TD: case GUMBO_TAG_TH:
		share[4] += n->own;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * The longest run of children of a kind (the tag and first class of the
 * first child element: posts, cards, items) under element i, into *run
 * and its text into *runtext when it is longer than *run.
 */
static void
longest_run(struct ctx *c, int i, int *run, int *runtext, int *runp)
{
	int r = 0, rt = 0, fc = -1, j;

	for (j = i + 1; j < c->n[i].end; j = c->n[j].end) {
		if (c->n[j].flags & (F_TEXT | F_SKIP))
			continue;
		if (fc < 0)
			fc = j;
		if (alike(c, fc, j)) {
			r++;
			rt += c->n[j].text;
		}
	}
	if (r > *run) {
		*run = r;
		*runtext = rt;
		*runp = i;
	}
}

/*
 * What the items of the longest run under element p hold (a listing's
 * posts carry a date, a byline and a summary; a collection's cards a
 * price and an image), into f[0..UK_EX_NIF): their mean length, the
 * share of items with a <time>, with a price, with an image, with a
 * heading, with a paragraph; links per item; their link density.
 */
#define UK_EX_NIF 8
static void
item_features(struct ctx *c, int p, double *f)
{
	int j, i, fc = -1, items = 0, chars = 0, link = 0, as = 0;
	int has[5] = { 0 };

	memset(f, 0, UK_EX_NIF * sizeof(*f));
	if (p <= 0)
		return;
	for (j = p + 1; j < c->n[p].end; j = c->n[j].end) {
		int h[5] = { 0 };

		if (c->n[j].flags & (F_TEXT | F_SKIP))
			continue;
		if (fc < 0)
			fc = j;
		if (!alike(c, fc, j))
			continue;
		items++;
		chars += c->n[j].text;
		link += c->n[j].link;
		for (i = j; i < c->n[j].end; i++) {
			struct nd *n = &c->n[i];

			if (n->flags & F_SKIP) {
				i = n->end - 1;
				continue;
			}
			if (n->flags & F_TEXT) {
				const char *t = n->g->v.text.text;

				if (!h[1] && count_prices(t, strlen(t)))
					h[1] = 1;
				continue;
			}
			switch (n->tag) {
			case GUMBO_TAG_TIME: h[0] = 1; break;
			case GUMBO_TAG_IMG: h[2] = 1; break;
			case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4:
			case GUMBO_TAG_H5: case GUMBO_TAG_H6: h[3] = 1; break;
			case GUMBO_TAG_P: h[4] = 1; break;
			case GUMBO_TAG_A: as++; break;
			default: break;
			}
		}
		for (i = 0; i < 5; i++)
			has[i] += h[i];
	}
	if (!items)
		return;
	f[0] = (double)chars / items;
	for (i = 0; i < 5; i++)
		f[1 + i] = (double)has[i] / items;
	f[6] = (double)as / items;
	f[7] = chars ? (double)link / chars : 0;
}

/*
 * The head's types: <meta property="og:type"> into pf[27..29], and
 * itemtype attributes there counted into v.
 */
static void
head_types(struct ctx *c, double *pf, int *v)
{
	const char *p, *t;
	int i, k;

	for (i = 0; i < c->nn && i < c->body; i++) {
		if (c->n[i].tag != GUMBO_TAG_META || c->n[i].flags & F_TEXT)
			continue;
		p = uk_ex_attr(c->n[i].g, "property");
		t = uk_ex_attr(c->n[i].g, "content");
		if (p && t && !strcasecmp(p, "og:type")) {
			pf[27] = !strncasecmp(t, "article", 7);
			pf[28] = !strncasecmp(t, "product", 7) ||
			    !strncasecmp(t, "og:product", 10);
			pf[29] = !strncasecmp(t, "website", 7);
		}
		if ((t = uk_ex_attr(c->n[i].g, "itemtype")) &&
		    (k = vocab_of(t, strlen(t))) >= 0 && v[k] < 100)
			v[k]++;
	}
}

void
uk_ex_page_features(struct ctx *c, int best, const char *html, size_t len,
    const char *alltext, size_t alllen, double *pf)
{
	int cnt[GUMBO_TAG_UNKNOWN + 1], v[V_NV], i, run = 0, runtext = 0;
	int runp = -1;
	int total = c->body ? c->n[c->body].text : 0, words = 0, cmt = 0;
	double share[8] = { 0 };
	char *lc;
	int k = 0, nw[6];

	memset(pf, 0, UK_EX_NPF * sizeof(*pf));
	memset(cnt, 0, sizeof(cnt));
	memset(v, 0, sizeof(v));
	for (i = c->body; i > 0 && i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (n->flags & F_TEXT)
			continue;
		if (n->tag >= 0 && n->tag <= GUMBO_TAG_UNKNOWN)
			cnt[n->tag]++;
		if (n->flags & F_CROOT)
			cmt++;
		if (!(n->flags & F_SKIP) && n->flags & F_BLOCK)
			words += add_share(n, share);
		if (!(n->flags & F_SKIP) && n->text > 0 && n->flags & F_BLOCK)
			longest_run(c, i, &run, &runtext, &runp);
		if (n->tag == GUMBO_TAG_META || n->tag == GUMBO_TAG_DIV ||
		    n->tag == GUMBO_TAG_BODY || n->tag == GUMBO_TAG_ARTICLE ||
		    n->tag == GUMBO_TAG_MAIN || n->tag == GUMBO_TAG_SECTION ||
		    n->tag == GUMBO_TAG_LI || n->tag == GUMBO_TAG_UL) {
			const char *t = uk_ex_attr(n->g, "itemtype");

			if (t && (k = vocab_of(t, strlen(t))) >= 0 && v[k] < 100)
				v[k]++;
		}
	}
	head_types(c, pf, v);
	ld_types(html, len, v);
	pf[0] = lg(total);
	pf[1] = total ? (double)c->n[c->body].link / total : 0;
	pf[2] = lg(cnt[GUMBO_TAG_A]);
	pf[3] = lg(cnt[GUMBO_TAG_P]);
	pf[4] = lg(cnt[GUMBO_TAG_LI]);
	pf[5] = lg(cnt[GUMBO_TAG_UL] + cnt[GUMBO_TAG_OL]);
	pf[6] = lg(cnt[GUMBO_TAG_TABLE]);
	pf[7] = lg(cnt[GUMBO_TAG_TR]);
	pf[8] = lg(cnt[GUMBO_TAG_H1]);
	pf[9] = lg(cnt[GUMBO_TAG_H2] + cnt[GUMBO_TAG_H3] + cnt[GUMBO_TAG_H4] +
	    cnt[GUMBO_TAG_H5] + cnt[GUMBO_TAG_H6]);
	pf[10] = lg(cnt[GUMBO_TAG_PRE] + cnt[GUMBO_TAG_CODE]);
	pf[11] = lg(cnt[GUMBO_TAG_FORM]);
	pf[12] = lg(cnt[GUMBO_TAG_INPUT]);
	pf[13] = lg(cnt[GUMBO_TAG_BUTTON]);
	pf[14] = lg(cnt[GUMBO_TAG_SELECT]);
	pf[15] = lg(cnt[GUMBO_TAG_TIME]);
	pf[16] = lg(cnt[GUMBO_TAG_ARTICLE]);
	pf[17] = lg(cnt[GUMBO_TAG_IMG]);
	pf[18] = lg(cnt[GUMBO_TAG_BLOCKQUOTE]);
	pf[19] = lg(cnt[GUMBO_TAG_DL] + cnt[GUMBO_TAG_DT] + cnt[GUMBO_TAG_DD]);
	pf[20] = lg(count_prices(alltext, alllen));
	for (k = 0; k < V_NV; k++)
		pf[21 + k] = lg(v[k]);
	url_features(c->x->canonical ? c->x->canonical : c->url, pf + 30);
	pf[38] = c->x->title ? lg(strlen(c->x->title)) : 0;
	pf[39] = lg(run);
	pf[40] = total ? (double)runtext / total : 0;
	pf[41] = lg(cmt);
	for (k = 0; k < 5; k++)
		pf[42 + k] = total ? share[k] / total : 0;
	pf[47] = best > 0 && total ? (double)c->n[best].text / total : 0;
	pf[48] = best > 0 ? lg(c->n[best].score) : 0;
	pf[49] = words ? share[0] / words : 0;
	pf[50] = lg(c->nn);
	free(c->lc);
	c->lc = lc = uk_ex_lower(alltext);
	count_words(lc, w_lists, 6, nw);
	for (k = 0; k < 6; k++)
		pf[51 + k] = lg(nw[k]);
	pf[57] = lg(alllen);
	pf[58] = c->x->date != NULL;
	pf[59] = c->x->author != NULL;
	pf[60] = lg(cnt[GUMBO_TAG_NAV]);
	pf[61] = lg(cnt[GUMBO_TAG_SECTION]);
	pf[62] = lg(cnt[GUMBO_TAG_SPAN]);
	pf[63] = lg(cnt[GUMBO_TAG_STRONG] + cnt[GUMBO_TAG_B]);
	item_features(c, runp, pf + 64);
}

/* The tag group of a block element, as features 8..17 number them. */
static int
tag_group(int tag)
{
	switch (tag) {
	case GUMBO_TAG_P: return 0;
	case GUMBO_TAG_LI: return 1;
	case GUMBO_TAG_TD: case GUMBO_TAG_TH: return 2;
	case GUMBO_TAG_H1: return 3;
	case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4:
	case GUMBO_TAG_H5: case GUMBO_TAG_H6: return 4;
	case GUMBO_TAG_DIV: case GUMBO_TAG_SECTION: case GUMBO_TAG_ARTICLE:
	case GUMBO_TAG_MAIN: return 5;
	case GUMBO_TAG_DD: case GUMBO_TAG_DT: return 6;
	case GUMBO_TAG_PRE: return 7;
	case GUMBO_TAG_BLOCKQUOTE: return 8;
	default: return 9;
	}
}

/* A child's tag and first class name, to sort a parent's children by. */
struct shape {
	int tag, i;
	const char *cls;
	size_t len;
};

static int
shape_cmp(const void *a, const void *b)
{
	const struct shape *x = a, *y = b;
	int r;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if (x->len && (r = memcmp(x->cls, y->cls, x->len)))
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Siblings of element i with its tag and first class (one of many),
 * at most 1000.  memo (c->nn entries, -1 when not known) keeps the
 * answer for every child of i's parent: the children are sorted by
 * tag and class once, not compared with each other for each block
 * (a body of 30,000 paragraphs took seconds, the page's blocks times
 * their siblings).
 */
static int
siblings_alike(struct ctx *c, int i, int *memo)
{
	int p = c->n[i].parent, s, m, a, b;
	struct shape *k;

	if (p < 0)
		return 0;
	if (memo[i] >= 0)
		return memo[i];
	for (m = 0, s = p + 1; s < c->n[p].end; s = c->n[s].end)
		m++;
	k = uk_util_xmalloc((size_t)m * sizeof(*k));
	for (m = 0, s = p + 1; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & F_TEXT)
			continue;
		k[m].tag = c->n[s].tag;
		k[m].i = s;
		k[m].cls = uk_ex_attr(c->n[s].g, "class");
		k[m].len = k[m].cls ? strcspn(k[m].cls, " ") : 0;
		m++;
	}
	qsort(k, (size_t)m, sizeof(*k), shape_cmp);
	for (a = 0; a < m; a = b) {
		for (b = a + 1; b < m && k[b].tag == k[a].tag &&
		     k[b].len == k[a].len &&
		     (!k[a].len || !memcmp(k[a].cls, k[b].cls, k[a].len));
		     b++)
			;
		for (s = a; s < b; s++)
			memo[k[s].i] = b - a - 1 < 1000 ? b - a - 1 : 1000;
	}
	free(k);
	if (memo[i] < 0)
		memo[i] = 0;
	return memo[i];
}

void
uk_ex_json_str(struct uk_buf *b, const char *s, size_t n)
{
	size_t k;

	uk_buf_addch(b, '"');
	for (k = 0; k < n; k++) {
		unsigned char ch = (unsigned char)s[k];

		if (ch == '"' || ch == '\\') {
			uk_buf_addch(b, '\\');
			uk_buf_addch(b, ch);
		} else if (ch < 0x20)
			uk_buf_addf(b, "\\u%04x", ch);
		else
			uk_buf_addch(b, ch);
	}
	uk_buf_addch(b, '"');
}

/*
 * What block_features reads of the page's blocks, worked out once a
 * page and not once a block: the <h1> and the first block at or after
 * it (-1: none), the last heading block before the block (-1: none),
 * siblings_alike's memo.
 */
struct near {
	int h1, after_h1, heading;
	int *memo;
	unsigned *signs; /* each node's class signs, ~0u: not yet read */
};

/* at for blocks bl (nb of them), h1 the first <h1> or -1. */
static void
near_init(struct ctx *c, const struct blk *bl, int nb, int h1,
    struct near *at)
{
	int k;

	at->h1 = h1;
	at->after_h1 = -1;
	at->heading = -1;
	for (k = 0; h1 > 0 && k < nb; k++)
		if (bl[k].b >= h1) {
			at->after_h1 = k;
			break;
		}
	at->memo = uk_util_xmalloc((size_t)c->nn * sizeof(*at->memo));
	memset(at->memo, 0xff, (size_t)c->nn * sizeof(*at->memo));
	at->signs = uk_util_xmalloc((size_t)c->nn * sizeof(*at->signs));
	memset(at->signs, 0xff, (size_t)c->nn * sizeof(*at->signs));
}

/* Block features of k (of nb blocks, bl) into f. */
static void
block_features(struct ctx *c, struct blk *bl, int nb, int k, int best,
    const struct near *at, const double *pf, const double *ptype, double *f)
{
	struct blk *u = &bl[k];
	struct nd *n = &c->n[u->b];
	int total = c->n[c->body].text, i, p, lvl, h1 = at->h1;
	int heading = at->heading;
	unsigned signs = 0;
	double w = 0, bs;

	memset(f, 0, UK_EX_NBF * sizeof(*f));
	f[0] = lg(u->chars);
	f[1] = u->chars ? (double)u->link / u->chars : 0;
	f[2] = lg(u->words);
	f[3] = u->words ? (double)u->wchars / u->words : 0;
	f[4] = u->chars ? 100.0 * u->commas / u->chars : 0;
	f[5] = u->chars ? 100.0 * u->stops / u->chars : 0;
	f[6] = u->chars ? (double)u->digits / u->chars : 0;
	f[7] = u->endstop;
	f[8 + tag_group(n->tag)] = 1;
	for (lvl = 0, p = u->b; p > 0; p = c->n[p].parent)
		lvl++;
	f[18] = lvl;
	f[19] = total ? (double)u->before / total : 0;
	f[20] = u->chars ? (double)u->sel / u->chars : 0;
	f[21] = (n->flags & F_INART) != 0;
	p = n->parent;
	if (p >= 0) {
		f[22] = lg(c->n[p].text);
		f[23] = c->n[p].text ? (double)c->n[p].link / c->n[p].text : 0;
		if ((p = c->n[p].parent) >= 0) {
			f[24] = c->n[p].text ?
			    (double)c->n[p].link / c->n[p].text : 0;
			f[25] = lg(c->n[p].text);
		}
	}
	for (lvl = 0, p = u->b; p > c->body && lvl < 4;
	     p = c->n[p].parent, lvl++) {
		unsigned s = at->signs[p];

		/* Blocks share their ancestors: each read once. */
		if (s == ~0u)
			s = at->signs[p] = uk_ex_class_signs(c->n[p].g);
		signs |= s;
		w += (s & UK_EX_CNEG ? -1 : 0) + (s & UK_EX_CPOS ? 1 : 0);
	}
	f[26] = (signs & UK_EX_CNEG) != 0;
	f[27] = (signs & UK_EX_CPOS) != 0;
	f[28] = (signs & UK_EX_CREP) != 0;
	f[29] = w;
	f[30] = lg(siblings_alike(c, u->b, at->memo));
	if (n->parent > c->body)
		f[31] = lg(siblings_alike(c, n->parent, at->memo));
	if (h1 > 0) {
		f[34] = 1;
		f[33] = u->b >= h1;
		i = at->after_h1 >= 0 ? at->after_h1 : 0;
		f[32] = total ? (double)(u->before - bl[i].before) / total : 0;
	}
	f[35] = heading >= 0 ? lg(u->before - bl[heading].before) : lg(u->before);
	if (best > 0) {
		f[36] = u->b >= best && u->b < c->n[best].end;
		p = c->n[best].parent;
		f[37] = p > 0 && u->b >= p && u->b < c->n[p].end;
		bs = c->n[best].score;
		for (p = u->b; p > 0 && !(c->n[p].flags & F_CAND);
		     p = c->n[p].parent)
			;
		f[38] = p > 0 && bs > 0 ? c->n[p].score / bs : 0;
	}
	f[39] = total ? (double)u->chars / total : 0;
	f[40] = nb ? (double)k / nb : 0;
	f[41] = pf[0];
	f[42] = pf[1];
	for (i = 0; i < UK_EX_NTYPES; i++)
		f[43 + i] = ptype[i];
	for (p = n->parent; p > c->body; p = c->n[p].parent) {
		switch (c->n[p].tag) {
		case GUMBO_TAG_FORM: f[50] = 1; break;
		case GUMBO_TAG_LI: f[51] = 1; break;
		case GUMBO_TAG_TABLE: f[52] = 1; break;
		case GUMBO_TAG_HEADER: f[53] = 1; break;
		case GUMBO_TAG_A: f[54] = 1; break;
		default: break;
		}
	}
	if (k > 0) {
		f[55] = lg(bl[k - 1].chars);
		f[56] = bl[k - 1].chars ?
		    (double)bl[k - 1].link / bl[k - 1].chars : 0;
		f[57] = bl[k - 1].chars ? (double)bl[k - 1].sel /
		    bl[k - 1].chars : 0;
	}
	if (k + 1 < nb) {
		f[58] = lg(bl[k + 1].chars);
		f[59] = bl[k + 1].chars ?
		    (double)bl[k + 1].link / bl[k + 1].chars : 0;
		f[60] = bl[k + 1].chars ? (double)bl[k + 1].sel /
		    bl[k + 1].chars : 0;
	}
	f[61] = (signs & UK_EX_CBOX) != 0;
	f[62] = (n->flags & F_INLINK) != 0;
	f[63] = u->link == u->chars;
}

/*
 * What text_counts tells of a byte: a space (isspace of the "C" locale,
 * which the programs never leave), a comma, a full stop, a digit, a
 * word's byte (isalnum, or over 127), not a UTF-8 continuation.  A
 * table: isspace, isdigit and isalnum are a call each per byte.
 */
#define TC_SPACE 1
#define TC_COMMA 2
#define TC_STOP  4
#define TC_DIGIT 8
#define TC_WORD  16
#define TC_LEAD  32
static const unsigned char tc_class[256] = {
	32, 32, 32, 32, 32, 32, 32, 32, 32, 33, 33, 33, 33, 33, 32, 32,
	32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32,
	33, 36, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 34, 32, 36, 32,
	56, 56, 56, 56, 56, 56, 56, 56, 56, 56, 32, 32, 32, 32, 32, 36,
	32, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 32, 32, 32, 32, 32,
	32, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 32, 32, 32, 32, 32,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
	48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
};

/* Count the words, punctuation and digits of text s into u. */
static void
text_counts(struct blk *u, const char *s)
{
	const unsigned char *p;
	int inword = 0;
	unsigned char last = 0;

	for (p = (const unsigned char *)s; *p; p++) {
		unsigned k = tc_class[*p];

		if (k & TC_SPACE) {
			inword = 0;
			continue;
		}
		last = *p;
		if (k & TC_COMMA)
			u->commas++;
		else if (k & TC_STOP)
			u->stops++;
		else if (k & TC_DIGIT)
			u->digits++;
		if (k & TC_WORD) {
			if (!inword)
				u->words++;
			inword = 1;
			if (k & TC_LEAD)
				u->wchars++;
		} else
			inword = 0;
	}
	if (last)
		u->endstop = last == '.' || last == '!' || last == '?' ||
		    last == ':';
}

/*
 * The shortest block the model adds to the rules' choice: shorter ones
 * are bylines, dates and labels, which the article set counts as
 * boilerplate (measured across halves: 0, 40, 80 and 150 characters
 * score the same on extract-wcxb-dev; on extract-articles precision
 * 0.905, 0.913, 0.915 and 0.916, recall 0.963, 0.960, 0.960, 0.958).
 */
#define MODEL_ADD_MIN 80

/* The words, punctuation and digits of block u's text nodes into u. */
static void
block_counts(struct ctx *c, const int *nx, struct blk *u)
{
	int i;

	for (i = u->first; i >= 0; i = nx[i])
		text_counts(u, c->n[i].g->v.text.text);
}

/*
 * The region features of a page (scripts/train-extract.d/train.py's
 * region_features computes the same from the dump): the page's
 * features; then, of the rules' choice with the block model's
 * additions (cur, each block's chosen share) against the rest of the
 * body less its boilerplate: its share of the text, the link density
 * of each, the characters left out, the blocks, the share of the rest
 * the block model would add and its mean score there, where the choice
 * starts and ends in the text, its share of blocks after the <h1>, its
 * first block's distance to a heading, its share in the Readability
 * best block; then the page type's scores.  F: the blocks' features
 * (nb rows of UK_EX_NSTK), sc their block scores.
 */
static void
region_features(const double *pf, const double *F, const double *sc,
    double thr, int nb, double *g)
{
	double tot = 0, sel = 0, ksum = 0, lsel = 0, lrest = 0, up = 0;
	double scr = 0, h1s = 0, bests = 0, rest, k, ch;
	int i, first = -1, last = -1;

	for (i = 0; i < nb; i++) {
		const double *b = F + (size_t)i * UK_EX_NSTK;

		ch = b[0];
		k = b[20];
		if (sc[i] >= thr && ch >= MODEL_ADD_MIN)
			k = 1;
		tot += ch;
		sel += k * ch;
		ksum += k;
		lsel += k * ch * b[1];
		lrest += (1 - k) * ch * b[1];
		if (sc[i] >= thr)
			up += (1 - k) * ch;
		scr += (1 - k) * ch * sc[i];
		h1s += k * b[33];
		bests += k * b[36] * ch;
		if (k > 0) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	rest = tot - sel;
	memcpy(g, pf, UK_EX_NPF * sizeof(*g));
	g += UK_EX_NPF;
	g[0] = sel / (tot > 1 ? tot : 1);
	g[1] = lsel / (sel > 1 ? sel : 1);
	g[2] = lrest / (rest > 1 ? rest : 1);
	g[3] = rest;
	g[4] = nb;
	g[5] = up / (rest > 1 ? rest : 1);
	g[6] = scr / (rest > 1 ? rest : 1);
	g[7] = first >= 0 ? F[(size_t)first * UK_EX_NSTK + 19] : 1;
	g[8] = last >= 0 ? F[(size_t)last * UK_EX_NSTK + 19] : 1;
	g[9] = h1s / (ksum > 1 ? ksum : 1);
	g[10] = first >= 0 ? F[(size_t)first * UK_EX_NSTK + 35] : 0;
	g[11] = bests / (sel > 1 ? sel : 1);
	memcpy(g + 12, F + 43, UK_EX_NTYPES * sizeof(*g));
}


/*
 * The page type of features pf into c->x->page_type (the class of the
 * highest raw score: softmax's order), and into ptype each class's raw
 * score less the best one's, as the blocks see it; returns its index.
 */
static int
page_type(struct ctx *c, const double *pf, double *ptype)
{
	double top;
	int i, k;

	uk_ex_trees_eval(&uk_ex_type_model, pf, ptype);
	for (k = 1, i = 0; k < UK_EX_NTYPES; k++)
		if (ptype[k] > ptype[i])
			i = k;
	c->x->page_type = uk_ex_types[i];
	for (k = 0, top = ptype[i]; k < UK_EX_NTYPES; k++)
		ptype[k] -= top;
	return i;
}

/*
 * The blocks of c in document order, by their first text node, into
 * *blp (returns how many); of[b]: block element b's index among them or
 * -1; nx[i]: the text node after text node i in its block, or -1; *h1:
 * the first <h1> with text, or -1.  The words and punctuation are left
 * to block_counts, for the blocks scored.
 */
static int
collect_blocks(struct ctx *c, int *of, int *nx, struct blk **blp, int *h1)
{
	struct blk *bl = NULL;
	int nb = 0, i, k, before = 0;

	*h1 = -1;
	for (i = 0; i < c->nn; i++)
		of[i] = -1;
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		int b;

		if (!(n->flags & F_TEXT)) {
			if (n->flags & F_SKIP)
				i = n->end - 1;
			else if (n->tag == GUMBO_TAG_H1 && *h1 < 0 && n->text)
				*h1 = i;
			continue;
		}
		if (n->flags & F_SKIP || n->text <= 0)
			continue;
		b = uk_ex_block_of(c, i);
		if (of[b] < 0) {
			if (nb % 256 == 0)
				bl = uk_util_xrealloc(bl,
				    (size_t)(nb + 256) * sizeof(*bl));
			memset(&bl[nb], 0, sizeof(bl[nb]));
			bl[nb].b = b;
			bl[nb].before = before;
			bl[nb].first = i;
			of[b] = nb++;
		} else
			nx[bl[of[b]].last] = i;
		k = of[b];
		bl[k].last = i;
		nx[i] = -1;
		bl[k].chars += n->text;
		bl[k].link += n->link;
		if (n->flags & F_SEL)
			bl[k].sel += n->text;
		before += n->text;
	}
	*blp = bl;
	return nb;
}

/*
 * The candidates of the back model into *bk (extract_stack.c), with
 * dump or when it may take one back (with apply, on a page whose article
 * type scores uk_ex_back_margin under the best type's).  Returns whether
 * it may: a candidate has uk_ex_back_min characters.  Found before the
 * passes, so that a page with none of them runs no pass for it.
 */
static int
back_candidates(struct ctx *c, int *nx, const struct blk *bl, int nb,
    const double *ptype, int dump, int apply, struct uk_ex_back *bk)
{
	int k, back = apply && uk_ex_back_model.ntrees &&
	    ptype[ARTICLE] < -uk_ex_back_margin;

	memset(bk, 0, sizeof(*bk));
	if ((!dump && !back) || !uk_ex_back_collect(c, nx, bl, nb, bk))
		return 0;
	for (k = 0; back && k < bk->nc; k++)
		if (bk->bl[bk->cm[k]].chars >= uk_ex_back_min)
			return 1;
	return 0;
}

/*
 * The blocks the rules set aside by a class, a tag or a role, which
 * back_candidates put into *bk: each one's block features among the
 * blocks kept and set aside and its first pass score (the kept blocks'
 * are s1), then what the back model reads and says of them (of those
 * of uk_ex_back_min characters, or all with dump).  Returns whether the
 * model takes them back (with apply, on a page whose article type
 * scores uk_ex_back_margin under the best type's: doc/EXTRACTION.md,
 * "The block model": back, from back_candidates); they are worked out
 * only then or with dump.
 */
static int
back_blocks(struct ctx *c, int *nx, int best, int h1, const double *pf,
    const double *ptype, const double *s1, int dump, int back,
    struct uk_ex_back *bk)
{
	struct near at;
	int k, m;

	if ((!dump && !back) || !bk->nc)
		return 0;
	m = bk->nm;
	near_init(c, bk->bl, m, h1, &at);
	for (k = 0; k < m; k++) {
		int t = k > 0 ? c->n[bk->bl[k - 1].b].tag : GUMBO_TAG_UNKNOWN;

		if (t >= GUMBO_TAG_H1 && t <= GUMBO_TAG_H6)
			at.heading = k - 1;
		if (bk->mk[k] >= 0) {
			bk->ms[k] = s1[bk->mk[k]];
			continue;
		}
		block_counts(c, nx, &bk->bl[k]);
		block_features(c, bk->bl, m, k, best, &at, pf, ptype,
		    bk->F + (size_t)k * UK_EX_NSTK);
		uk_ex_trees_eval(&uk_ex_block_model,
		    bk->F + (size_t)k * UK_EX_NSTK, &bk->ms[k]);
	}
	free(at.memo);
	free(at.signs);
	uk_ex_back_rows(c, nx, h1, bk);
	for (k = 0; uk_ex_back_model.ntrees && k < bk->nc; k++)
		if (dump || bk->bl[bk->cm[k]].chars >= uk_ex_back_min)
			uk_ex_trees_eval(&uk_ex_back_model,
			    bk->R + (size_t)k * UK_EX_NBK, &bk->bs[k]);
	return back;
}

/*
 * UK_EXTRACT_FEATURES: append the page's features pf, its blocks'
 * features F (the block's and the extra ones: UK_EX_NBF + UK_EX_NXF of
 * each row), the block ranges r (uk_ex_block_ranges), the first pass's
 * scores s and the stack features it gives (which the model itself
 * makes, for tests/extract-model.bats to check train.py's reading of
 * them) and the blocks' text to the file named dump, as one JSON line.
 */
static void
dump_features(struct ctx *c, const char *dump, const double *pf,
    const double *F, const int *r, const double *s, const struct blk *bl,
    int nb, const int *nx, const struct uk_ex_back *bk)
{
	struct uk_buf out = UK_BUF_INIT, t = UK_BUF_INIT;
	int i, k, fd;

	uk_buf_addstr(&out, "{\"pf\":[");
	for (i = 0; i < UK_EX_NPF; i++)
		uk_buf_addf(&out, "%s%.17g", i ? "," : "", pf[i]);
	uk_buf_addstr(&out, "],\"b\":[");
	for (k = 0; k < nb; k++) {
		uk_buf_addstr(&out, k ? ",[" : "[");
		for (i = 0; i < UK_EX_NBF + UK_EX_NXF; i++)
			uk_buf_addf(&out, "%s%.17g", i ? "," : "",
			    F[(size_t)k * UK_EX_NSTK + i]);
		uk_buf_addstr(&out, "]");
	}
	uk_buf_addstr(&out, "],\"r\":[");
	for (k = 0; k < nb; k++)
		uk_buf_addf(&out, "%s[%d,%d,%d,%d]", k ? "," : "", r[4 * k],
		    r[4 * k + 1], r[4 * k + 2], r[4 * k + 3]);
	uk_buf_addstr(&out, "],\"s\":[");
	for (k = 0; k < nb; k++)
		uk_buf_addf(&out, "%s%.17g", k ? "," : "", s[k]);
	uk_buf_addstr(&out, "],\"sf\":[");
	for (k = 0; k < nb; k++) {
		uk_buf_addstr(&out, k ? ",[" : "[");
		for (i = 0; i < UK_EX_NSF; i++)
			uk_buf_addf(&out, "%s%.17g", i ? "," : "",
			    F[(size_t)k * UK_EX_NSTK + UK_EX_NBF + UK_EX_NXF + i]);
		uk_buf_addstr(&out, "]");
	}
	/* The blocks' text, for the labels. */
	uk_buf_addstr(&out, "],\"t\":[");
	for (k = 0; k < nb; k++) {
		int sp = 1;

		uk_buf_reset(&t);
		for (i = bl[k].b; i < c->n[bl[k].b].end; i++)
			if (c->n[i].flags & F_TEXT &&
			    !(c->n[i].flags & F_SKIP) &&
			    uk_ex_block_of(c, i) == bl[k].b)
				uk_ex_squeeze(&t, c->n[i].g->v.text.text,
				    &sp, 0, SIZE_MAX);
		if (k)
			uk_buf_addch(&out, ',');
		uk_ex_json_str(&out, t.buf ? t.buf : "", t.len);
	}
	/*
	 * The blocks set aside by a class, a tag or a role: their rows
	 * (UK_EX_NBK), each merged block's index (the kept k, or -1 - the
	 * candidate's), the merged blocks' ranges and first pass scores,
	 * the candidates' text.
	 */
	uk_ex_back_dump(bk, &out);
	for (k = 0; k < bk->nc; k++) {
		int sp = 1;

		uk_buf_reset(&t);
		for (i = bk->bl[bk->cm[k]].first; i >= 0; i = nx[i])
			uk_ex_squeeze(&t, c->n[i].g->v.text.text, &sp, 0,
			    SIZE_MAX);
		if (k)
			uk_buf_addch(&out, ',');
		uk_ex_json_str(&out, t.buf ? t.buf : "", t.len);
	}
	uk_buf_release(&t);
	uk_buf_addstr(&out, "]}\n");
	fd = open(dump, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		/* A training aid: a short write loses a page. */
		ssize_t wr = write(fd, out.buf, out.len);

		(void)wr;
		close(fd);
	}
	uk_buf_release(&out);
}

/*
 * Whether text node i lies in a <form> beside the rules' choice: a form
 * that holds none of the chosen text (a contact or sign-up box), not one
 * that wraps the page (as ASP.NET's pages are wrapped).  Its text (the
 * labels, a "thank you" message) is the form's, and the model never
 * adds it.
 */
static int
in_side_form(struct ctx *c, int i)
{
	int p, j;

	for (p = c->n[i].parent; p > c->body; p = c->n[p].parent)
		if (c->n[p].tag == GUMBO_TAG_FORM)
			break;
	if (p <= c->body)
		return 0;
	for (j = p; j < c->n[p].end; j++)
		if (c->n[j].flags & F_SEL)
			return 0;
	return 1;
}

/*
 * The block model's verdict on the text nodes.  By default the rules'
 * choice (F_SEL) stands, and a block outside it is added when the model
 * scores it at its threshold thr and it has MODEL_ADD_MIN characters
 * (on articles, the model's drops cost more recall than they gained
 * precision: doc/EXTRACTION.md); the rest gets F_SKIP.  With all (the
 * stacked model on a page not typed an article), the model decides
 * every block: a chosen one is dropped under thr (unless tables_held
 * holds it), one outside the choice added as above.  With whole
 * (the region model's choice), every block of the body less its
 * boilerplate stays.  Returns how many text nodes were added or
 * dropped.
 */
/* The nearest <table> holding block element b, or -1. */
static int
table_of(struct ctx *c, int b)
{
	int p;

	for (p = c->n[b].parent; p >= c->body; p = c->n[p].parent)
		if (c->n[p].tag == GUMBO_TAG_TABLE)
			return p;
	return -1;
}

/*
 * When the model decides every block: whether each of the nb blocks is
 * a chosen one in a table of which it keeps a chosen header cell (at
 * thr), into held.  A table's rows go with the header kept: a small
 * page typed documentation kept a table's header and lost its short
 * cells, each scored alone (tests/unit/t_extract "table kept").  Any
 * kept cell holding its table's rows lost 0.00005 on each half.
 */
static void
tables_held(struct ctx *c, const struct blk *bl, int nb, const double *sc,
    double thr, char *held)
{
	int k, *tab = uk_util_xmalloc((size_t)nb * sizeof(*tab));
	char *hk = uk_util_xcalloc((size_t)c->nn, 1);

	/* Each table's kept header, then its cells: linear in the blocks. */
	for (k = 0; k < nb; k++) {
		tab[k] = bl[k].sel > 0 ? table_of(c, bl[k].b) : -1;
		if (tab[k] >= 0 && sc[k] >= thr &&
		    c->n[bl[k].b].tag == GUMBO_TAG_TH)
			hk[tab[k]] = 1;
	}
	for (k = 0; k < nb; k++)
		held[k] = tab[k] >= 0 && sc[k] < thr && hk[tab[k]];
	free(hk);
	free(tab);
}

static int
apply_blocks(struct ctx *c, const int *of, const struct blk *bl, int nb,
    const double *sc, double thr, int all, int whole)
{
	int i, k, keep, changed = 0;
	char *held = NULL;

	if (all && !whole) {
		held = uk_util_xmalloc((size_t)nb);
		tables_held(c, bl, nb, sc, thr, held);
	}
	for (i = c->body; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (!(n->flags & F_TEXT) || n->flags & F_SKIP ||
		    n->text <= 0 || (!all && n->flags & F_SEL))
			continue;
		k = of[uk_ex_block_of(c, i)];
		/* In an element the rules set aside: not a block. */
		if (k < 0)
			continue;
		if (all && !whole && n->flags & F_SEL) {
			if (sc[k] < thr && !held[k]) {
				n->flags |= F_SKIP | F_MDROP;
				changed++;
			}
			continue;
		}
		keep = sc[k] >= thr && !in_side_form(c, i);
		if (whole || (keep && bl[k].chars >= MODEL_ADD_MIN))
			changed++;
		else
			n->flags |= F_SKIP | (keep ? F_MSHORT : F_MDROP);
	}
	free(held);
	return changed;
}

/*
 * The fewest blocks of a page the stacked model decides every block of.
 * At 10, with the models trained again for the back model (deciding at
 * -1.0, not -1.5), small pages of 13 to 15 blocks typed a collection or
 * documentation lost a list's last item, one of their code samples, a
 * heading (tests/urlfetch-markdown.bats); at 20 they keep them, and the
 * committed models on extract-wcxb-dev gain 0.000002 on each half (16:
 * half 0 -0.0001; 24: -0.00002 and -0.0004), the articles unchanged.
 */
#define STACK_DECIDE_MIN 20

/* Whether block u is one apply_blocks may add (outside, long enough). */
#define CANDIDATE(u) ((u)->sel < (u)->chars && (u)->chars >= MODEL_ADD_MIN)

/*
 * Whether any text stays when the model decides every block at thr (a
 * chosen block, or one it would add): a page of one paragraph the model
 * scores low keeps it.
 */
static int
kept_any(const struct blk *bl, int nb, const double *sc, double thr)
{
	int k;

	for (k = 0; k < nb; k++)
		if (sc[k] >= thr && (bl[k].sel > 0 || CANDIDATE(&bl[k])))
			return 1;
	return 0;
}

/*
 * The scores the decision reads, into sc: the first pass's (s1), and
 * the second pass's (unless none) for the blocks whose score is read:
 * a candidate, a chosen block when deciding every block (the others go
 * whatever their score: F_MSHORT and F_MDROP differ for --explain
 * only), every block for --explain or a region model.  Without those
 * two, only a score's side of the thresholds is read: the trees stop
 * once it is known (uk_ex_trees_side).
 */
static void
second_pass(struct ctx *c, const struct blk *bl, int nb, const double *F,
    const double *s1, double *sc, int decide, int none)
{
	const double sides[2] = { uk_ex_stack_threshold,
		uk_ex_stack_all_threshold };
	int k, every = c->mscore || uk_ex_region_model.ntrees;

	for (k = 0; k < nb; k++) {
		sc[k] = s1[k];
		if (none || !(every || CANDIDATE(&bl[k]) ||
		    (decide && bl[k].sel > 0)))
			;
		else if (every)
			uk_ex_trees_eval(&uk_ex_stack_model,
			    F + (size_t)k * UK_EX_NSTK, &sc[k]);
		else
			sc[k] = uk_ex_trees_side(&uk_ex_stack_model,
			    F + (size_t)k * UK_EX_NSTK, sides, 2);
		if (c->mscore)
			c->mscore[bl[k].b] = sc[k];
	}
}

int
uk_ex_model_apply(struct ctx *c, int best, const double *pf, int apply)
{
	const char *dump = getenv("UK_EXTRACT_FEATURES");
	struct blk *bl = NULL;
	int *of = NULL, *nx, *r = NULL, nb, k, h1, type, whole = 0;
	int changed = 0, all, stk = uk_ex_stack_model.ntrees > 0, decide, back;
	int none;
	struct near at;
	struct uk_ex_back bk;
	double ptype[UK_EX_NTYPES], g[UK_EX_NRF], *F = NULL, *sc = NULL;
	double *s1, raw, thr;

	if (!c->body)
		return -1;
	type = page_type(c, pf, ptype);
	if (!dump && (!apply || !uk_ex_block_model.ntrees))
		return 0;
	of = uk_util_xmalloc((size_t)c->nn * 2 * sizeof(*of));
	nx = of + c->nn;
	nb = collect_blocks(c, of, nx, &bl, &h1);
	if (!nb) {
		free(of);
		return -1;
	}
	/*
	 * Not zeroed: a row is read only once written whole (a scored
	 * block's features, then the extra and the stack ones of every
	 * block); 11 KB of zeros took 0.01 M instructions of a 2 KB page.
	 */
	F = uk_util_xmalloc((size_t)nb * UK_EX_NSTK * sizeof(*F));
	sc = uk_util_xmalloc((size_t)nb * 2 * sizeof(*sc));
	s1 = sc + nb;
	if (c->explain && uk_ex_block_model.ntrees)
		c->mscore = uk_util_xcalloc((size_t)c->nn, sizeof(*c->mscore));
	/*
	 * Without a dump, --explain, a region model (which reads every
	 * block's score) or a stacked model (which reads the first pass's
	 * scores of every block around), a score is read only by
	 * apply_blocks, for a block with text outside the rules' choice
	 * and MODEL_ADD_MIN characters: a shorter one is set aside whatever
	 * its score (F_MSHORT or F_MDROP, which only --explain tells
	 * apart).  The others' features and trees are not worked out, nor
	 * their words counted (0.32 M instructions of a 2 KB article's
	 * 2.3 M went to them); their score stays 0.
	 */
	all = dump || c->mscore || uk_ex_region_model.ntrees;
	/*
	 * On a page not typed an article, the stacked model decides every
	 * block (when its model says so: uk_ex_stack_all_threshold); not
	 * on a page of a handful of blocks, no shop's, forum's or
	 * listing's page with furniture to prune (40 of the dev split's
	 * 1452 pages), whose type the model reads least well.
	 */
	decide = stk && uk_ex_stack_all_threshold < 1e9 &&
	    nb >= STACK_DECIDE_MIN &&
	    strcmp(uk_ex_types[type], "article") != 0;
	all = all || decide;
	near_init(c, bl, nb, h1, &at);
	/*
	 * A stacked model's candidate reads every block's first-pass
	 * score (its features of the scores around it); with no candidate
	 * and nothing else reading a score (all: a dump, --explain, a
	 * region model, deciding every block), the output is the rules'
	 * whatever the scores: neither pass runs.  Nor when the back model
	 * has a candidate it may take back: it reads every kept block's
	 * first-pass score (back_blocks).
	 */
	back = back_candidates(c, nx, bl, nb, ptype, dump != NULL, apply, &bk);
	for (k = 0, none = stk && !all && !back; none && k < nb; k++)
		if (CANDIDATE(&bl[k]))
			none = 0;
	for (k = 0; k < nb; k++) {
		int t = k > 0 ? c->n[bl[k - 1].b].tag : GUMBO_TAG_UNKNOWN;

		if (t >= GUMBO_TAG_H1 && t <= GUMBO_TAG_H6)
			at.heading = k - 1;
		s1[k] = 0;
		if (none || (!all && !stk && !CANDIDATE(&bl[k])))
			continue;
		block_counts(c, nx, &bl[k]);
		block_features(c, bl, nb, k, best, &at, pf, ptype,
		    F + (size_t)k * UK_EX_NSTK);
		uk_ex_trees_eval(&uk_ex_block_model, F + (size_t)k * UK_EX_NSTK,
		    &s1[k]);
	}
	if (dump || (stk && !none)) {
		/* The second pass: the stacked model (doc/EXTRACTION.md). */
		r = uk_util_xmalloc((size_t)nb * 4 * sizeof(*r));
		uk_ex_block_ranges(c, bl, nb, r);
		uk_ex_extra_features(c, nx, h1, bl, nb, F);
		uk_ex_stack_features(bl, nb, r, s1, F);
	}
	second_pass(c, bl, nb, F, s1, sc, decide, !stk || none);
	thr = decide ? uk_ex_stack_all_threshold : stk ?
	    uk_ex_stack_threshold : uk_ex_block_threshold;
	if (decide && !kept_any(bl, nb, sc, thr)) {
		/* Deciding would leave nothing: add only. */
		decide = 0;
		thr = uk_ex_stack_threshold;
	}
	/* The blocks the rules set aside by a class, a tag or a role. */
	back = back_blocks(c, nx, best, h1, pf, ptype, s1, dump != NULL,
	    back, &bk);
	if (dump)
		dump_features(c, dump, pf, F, r, s1, bl, nb, nx, &bk);
	if (apply && uk_ex_block_model.ntrees) {
		/*
		 * The second opinion (doc/EXTRACTION.md): on a page not
		 * typed an article, the region model may take the body less
		 * its boilerplate instead of the rules' choice.
		 */
		if (uk_ex_region_model.ntrees &&
		    strcmp(uk_ex_types[type], "article") != 0) {
			region_features(pf, F, sc, thr, nb, g);
			uk_ex_trees_eval(&uk_ex_region_model, g, &raw);
			whole = raw > uk_ex_region_threshold;
		}
		changed = apply_blocks(c, of, bl, nb, sc, thr, decide, whole);
		if (back && !whole)
			changed += uk_ex_back_take(c, nx, &bk, uk_ex_back_min);
	}
	uk_ex_back_free(&bk);
	free(at.memo);
	free(at.signs);
	free(r);
	free(F);
	free(sc);
	free(bl);
	free(of);
	return changed;
}

/*
 * --explain: why text is not in the main text, one table of the rules'
 * names (enum uk_ex_why in extract_int.h).
 */
static const char *const why_name[] = {
	[UK_EX_WHY_TAG] = "tag",           /* nav, footer, aside, controls */
	[UK_EX_WHY_HIDDEN] = "hidden",     /* hidden, aria-hidden, display:none */
	[UK_EX_WHY_ROLE] = "role",         /* navigation, banner, dialog... */
	[UK_EX_WHY_CLASS] = "class",       /* class or id names boilerplate */
	[UK_EX_WHY_COMMENTS] = "comments", /* a comment section */
	[UK_EX_WHY_TEXT] = "text",         /* what it says (extract_text.c),
					    * a line of links or a teaser */
	[UK_EX_WHY_OUTSIDE] = "outside",   /* outside the part chosen */
	[UK_EX_WHY_MODEL] = "model",       /* the block model scores it
					    * under its threshold */
};

/* The same, said for a person reading --explain's records. */
static const char *const why_reason[] = {
	[UK_EX_WHY_TAG] = "a menu, footer, aside or form control",
	[UK_EX_WHY_HIDDEN] = "hidden on the page",
	[UK_EX_WHY_ROLE] = "its role is the page's furniture",
	[UK_EX_WHY_CLASS] = "its class or id names boilerplate",
	[UK_EX_WHY_COMMENTS] = "a comment section",
	[UK_EX_WHY_TEXT] = "what it says: a line of links, a teaser, "
	    "a notice",
	[UK_EX_WHY_OUTSIDE] = "outside the part chosen as the main text",
	[UK_EX_WHY_MODEL] = "the block model scores it too low to keep",
};

/* Why node i (skipped, or a block not written) is out. */
static enum uk_ex_why
why_of(struct ctx *c, int i)
{
	struct nd *n = &c->n[i];
	const char *s;

	if (!(n->flags & F_SKIP) || n->flags & F_MSHORT)
		return UK_EX_WHY_OUTSIDE;
	if (n->flags & F_MDROP)
		return UK_EX_WHY_MODEL;
	if (n->flags & F_CMT)
		return UK_EX_WHY_COMMENTS;
	if (n->flags & F_CSKIP)
		return UK_EX_WHY_CLASS;
	if (n->flags & F_TEXT)
		return UK_EX_WHY_TEXT;
	if (uk_ex_attr(n->g, "hidden") ||
	    ((s = uk_ex_attr(n->g, "aria-hidden")) && !strcasecmp(s, "true")) ||
	    ((s = uk_ex_attr(n->g, "style")) && (strcasestr(s, "none") ||
		strcasestr(s, "hidden"))))
		return UK_EX_WHY_HIDDEN;
	if (uk_ex_attr(n->g, "role"))
		return UK_EX_WHY_ROLE;
	switch (n->tag) {
	case GUMBO_TAG_NAV: case GUMBO_TAG_FOOTER: case GUMBO_TAG_ASIDE:
	case GUMBO_TAG_MENU: case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FORM:
	case GUMBO_TAG_BUTTON: case GUMBO_TAG_SELECT: case GUMBO_TAG_TEXTAREA:
	case GUMBO_TAG_INPUT: case GUMBO_TAG_IFRAME: case GUMBO_TAG_TEMPLATE:
		return UK_EX_WHY_TAG;
	default:
		return UK_EX_WHY_TEXT;
	}
}

/* The text of the subtree at i, squeezed, at most max bytes, into t. */
static void
subtree_text(struct ctx *c, int i, struct uk_buf *t, size_t max)
{
	int j, sp = 1;

	uk_buf_reset(t);
	/* (At most 2000 nodes: an excerpt, in time linear in the page.) */
	for (j = i; j < c->n[i].end && j < i + 2000 && t->len < max; j++)
		if (c->n[j].flags & F_TEXT)
			uk_ex_squeeze(t, c->n[j].g->v.text.text, &sp, 0, max);
	if (t->len > max)
		t->len = uk_buf_utf8_cut(t->buf, max);
	if (t->buf)
		t->buf[t->len] = '\0';
}

void
uk_ex_explain(struct ctx *c, struct uk_buf *out)
{
	struct uk_buf t = UK_BUF_INIT, path = UK_BUF_INIT;
	int i, last = -1;

	if (!c->body)
		return;
	for (i = c->body + 1; i < c->nn; i++) {
		struct nd *n = &c->n[i];
		int at = i;
		enum uk_ex_why why;

		if (n->flags & F_SKIP) {
			/* One record for the whole subtree set aside. */
			if (n->flags & F_TEXT) {
				at = uk_ex_block_of(c, i);
				if (at == last)
					continue;
				last = at;
			}
			why = why_of(c, i);
			subtree_text(c, n->flags & F_TEXT ? at : i, &t, UK_EX_EXCERPT);
			if (!t.len) {
				i = n->end - 1;
				continue;
			}
			uk_buf_reset(&path);
			uk_ex_node_path(c, at, &path);
			goto write;
		}
		if (!(n->flags & F_TEXT) || n->flags & F_SEL || n->text <= 0)
			continue;
		/* Text the rules left outside their choice, by block. */
		at = uk_ex_block_of(c, i);
		if (at == last)
			continue;
		last = at;
		why = why_of(c, i);
		subtree_text(c, at, &t, UK_EX_EXCERPT);
		uk_buf_reset(&path);
		uk_ex_node_path(c, at, &path);
write:
		uk_buf_addstr(out, "{\"rule\":\"");
		uk_buf_addstr(out, why_name[why]);
		uk_buf_addstr(out, "\",\"reason\":\"");
		uk_buf_addstr(out, why_reason[why]);
		uk_buf_addstr(out, "\",\"path\":");
		uk_ex_json_str(out, path.buf ? path.buf : "", path.len);
		uk_buf_addstr(out, ",\"text\":");
		uk_ex_json_str(out, t.buf ? t.buf : "", t.len);
		if ((why == UK_EX_WHY_MODEL || why == UK_EX_WHY_OUTSIDE) &&
		    c->mscore && n->flags & F_TEXT)
			uk_buf_addf(out, ",\"score\":%.3f", c->mscore[at]);
		uk_buf_addstr(out, "}\n");
		if (n->flags & F_SKIP && !(n->flags & F_TEXT))
			i = n->end - 1;
	}
	uk_buf_release(&t);
	uk_buf_release(&path);
}
