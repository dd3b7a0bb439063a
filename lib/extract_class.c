/* SPDX-License-Identifier: MIT */
/*
 * What an element's class and id say (see extract_int.h): the word
 * lists of boilerplate, content, boxes beside the text and elements
 * that are one of many, matched against a lower-cased "class id"
 * string.  extract.c reads them while it marks and scores the page,
 * extract_feat.c as features of the learned model; neither is called
 * from here.
 */
#include <ctype.h>
#include <gumbo.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"

/* Lower-cased "class id" of an element, into b (cleared first). */
void
uk_ex_class_id(GumboNode *g, struct uk_buf *b)
{
	const char *c = uk_ex_attr(g, "class"), *i = uk_ex_attr(g, "id");
	size_t k;

	uk_buf_reset(b);
	if (!c && !i)
		return;
	if (c)
		uk_buf_addstr(b, c);
	uk_buf_addch(b, ' ');
	if (i)
		uk_buf_addstr(b, i);
	for (k = 0; k < b->len; k++)
		b->buf[k] = (char)tolower((unsigned char)b->buf[k]);
}

/* Substrings of class or id that mark boilerplate. */
static const char *const neg_sub[] = { "sidebar", "footer", "cookie", "consent",
	"gdpr", "breadcrumb", "advert", "newsletter", "comment", "related",
	"social", "sponsor", "popup", "navbar", "navigation", "masthead",
	"disqus", "outbrain", "taboola", "pagination", "subscribe", "signup",
	"sharing", "share-", "-share", "_share", "share_", "skip-link",
	"skiplink", "promo", "recommend", "trending", "toolbar", "modal",
	"overlay", "dropdown", "offcanvas", "off-canvas", "topbar", "top-bar",
	"utility", "jump-link", "toc-", "author-bio", "authorbio", "bottom-bar",
	"disclosure", "disclaimer", "rating", "subscription",
	"author-box", "authorbox", "about-author", "author-info", "upsell",
	"crosssell", "cross-sell", "paywall", NULL };
/* Of those, what is boilerplate however much text it holds. */
static const char *const strong_sub[] = { "comment", "disqus", "cookie",
	"consent", "gdpr", "related", "recommend", NULL };
/* Whole words of class or id that mark boilerplate. */
static const char *const neg_word[] = { "nav", "menu", "ad", "ads", "share",
	"tags", "header", "sr-only", "visually-hidden", "screen-reader-text",
	"print-only", "rss", "login", "search", "meta", "pager", "byline",
	"tagline", "most-popular", "more-stories", "read-more", "readmore",
	"banner", NULL };
/*
 * Substrings of class or id that name a box beside the text (box_last);
 * "bildunter" is German's caption ("Bildunterschrift", "Bilduntertitel");
 * "signature" a forum member's signature under each post, or a Q&A
 * site's card of the post's author (name, reputation, badge counts).
 */
static const char *const box_sub[] = { "teaser", "caption", "credit",
	"author", "reviews", "bildunter", "signature", NULL };
/*
 * Whole words that name such a box: an image's "legend" (as a word only:
 * "grundlegende" in an id made of a headline's words is none).
 */
static const char *const box_word[] = { "legend", NULL };
/*
 * Whole words of class or id by which a site says an element is not
 * part of its text: not printed (print style sheets keep the article
 * and drop the rest), or kept from its search index ("nocontent").
 * Stronger than the content words of its other classes.
 */
static const char *const noprint_word[] = { "noprint", "no-print",
	"hidden-print", "d-print-none", "print-hide", "hide-print",
	"print-none", "donotprint", "dontprint", "not-print", "nocontent",
	NULL };
/* Substrings that keep an element whatever else its class says. */
static const char *const pos_sub[] = { "article", "content", "main", "post",
	"entry", "body", "text", "story", "hentry", "blog", "prose", "markdown",
	"thread", "message", "topic", "product", "description", "answer",
	"question", NULL };

/*
 * Substrings of a class name that say it names a widget holding the
 * page's text in parts the reader opens: an accordion, a list of
 * questions, tabs.  Their parts are named as menus and drop-downs are
 * ("accordion-item__dropdown", "faq_tabs-menu", "cmp-tabs__tabpanel"),
 * and are the text.
 */
static const char *const panel_sub[] = { "accordion", "faq", "tabpanel",
	"tab-pane", "tab-content", NULL };
/*
 * Substrings of a class name that name the results of a search: a
 * shop's list of products ("search-result-items"), not a search box.
 */
static const char *const result_sub[] = { "search-result", "searchresult",
	"search_result", NULL };

/* Substrings of class names that say an element is one of many. */
static const char *const repeat_hints[] = { "post", "message", "comment",
	"reply", "answer", "entry", "item", "card", "result", "product",
	"story", "teaser", "thread", "topic", "tile", "review", NULL };

/*
 * The bytes of a string as a 64-bit set (byte & 63): a pattern with a
 * byte the string lacks cannot be in it, which spares nearly all the
 * strstr calls (class names are matched against some 140 patterns per
 * element).  The patterns' sets are made once.
 */
static uint64_t
bytes_of(const char *s)
{
	uint64_t m = 0;

	for (; *s; s++)
		m |= 1ULL << (*s & 63);
	return m;
}

#define NMASK(list) (sizeof(list) / sizeof(list[0]))
static uint64_t neg_sub_m[NMASK(neg_sub)], strong_sub_m[NMASK(strong_sub)],
    neg_word_m[NMASK(neg_word)], pos_sub_m[NMASK(pos_sub)],
    repeat_hints_m[NMASK(repeat_hints)];
static pthread_once_t masks_once = PTHREAD_ONCE_INIT;

static void
masks_fill(const char *const *list, uint64_t *m)
{
	for (; *list; list++)
		*m++ = bytes_of(*list);
}

static void
masks_init(void)
{
	masks_fill(neg_sub, neg_sub_m);
	masks_fill(strong_sub, strong_sub_m);
	masks_fill(neg_word, neg_word_m);
	masks_fill(pos_sub, pos_sub_m);
	masks_fill(repeat_hints, repeat_hints_m);
}

void
uk_ex_class_init(void)
{
	pthread_once(&masks_once, masks_init);
}

/* Whether s, whose bytes are b, holds any string of list (bytes m). */
static int
match_any_sub(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	for (; *list; list++, m++)
		if (!(*m & ~b) && strstr(s, *list))
			return 1;
	return 0;
}

/* Whether s, whose bytes are b, holds any word of list (bytes m). */
static int
match_any_word(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	for (; *list; list++, m++)
		if (!(*m & ~b) && uk_ex_has_word(s, *list))
			return 1;
	return 0;
}

/* Where the last string of list (bytes m) starts in s (bytes b), or -1. */
static int
last_sub(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	const char *q;
	int at = -1;

	for (; *list; list++, m++) {
		if (*m & ~b)
			continue;
		for (q = s; (q = strstr(q, *list)); q++)
			if (q - s > at)
				at = (int)(q - s);
	}
	return at;
}

/* Where the last whole word of list (bytes m) starts in s, or -1. */
static int
last_word(const char *s, uint64_t b, const char *const *list,
    const uint64_t *m)
{
	const char *q;
	int at = -1;

	for (; *list; list++, m++) {
		size_t n = strlen(*list);

		if (*m & ~b)
			continue;
		for (q = s; (q = strstr(q, *list)); q++)
			if ((q == s || !isalnum((unsigned char)q[-1])) &&
			    !isalnum((unsigned char)q[n]) && q - s > at)
				at = (int)(q - s);
	}
	return at;
}

/* Class weight in the manner of Readability: -25, 0 or +25. */
int
uk_ex_class_weight(const char *ci)
{
	uint64_t b;
	int w = 0;

	if (!ci[0])
		return 0; /* no class, no id */
	b = bytes_of(ci);
	if (match_any_sub(ci, b, neg_sub, neg_sub_m) ||
	    match_any_word(ci, b, neg_word, neg_word_m))
		w -= 25;
	if (match_any_sub(ci, b, pos_sub, pos_sub_m))
		w += 25;
	return w;
}

static int box_last(const char *);

unsigned
uk_ex_class_signs(GumboNode *g)
{
	struct uk_buf ci = UK_BUF_INIT;
	unsigned r = 0;
	uint64_t b;

	uk_ex_class_id(g, &ci);
	if (ci.len >= 2) {
		b = bytes_of(ci.buf);
		if (match_any_sub(ci.buf, b, neg_sub, neg_sub_m) ||
		    match_any_word(ci.buf, b, neg_word, neg_word_m))
			r |= UK_EX_CNEG;
		if (match_any_sub(ci.buf, b, pos_sub, pos_sub_m))
			r |= UK_EX_CPOS;
		if (match_any_sub(ci.buf, b, repeat_hints, repeat_hints_m))
			r |= UK_EX_CREP;
		if (box_last(ci.buf) >= 0)
			r |= UK_EX_CBOX;
	}
	uk_buf_release(&ci);
	return r;
}

/*
 * The verdict of a lower-cased "class id" string, token by token: 0 not
 * boilerplate, 2 boilerplate, 3 strong boilerplate.  In a token that
 * names both boilerplate and content, the last name says what the
 * element is, as in English compounds: "post-footer" and "entry-utility"
 * are boilerplate, "comment-content" (a forum post) and "footer-text"
 * are content.  A token that says content keeps an element whose other
 * tokens say boilerplate ("post hentry comments-open").
 */
/*
 * Where the last string of box_sub starts in tok, or -1.  These say what
 * a box is (a teaser of another page, an image's caption or credit, the
 * author's card, customer reviews) but not that its text is poor, so
 * they decide the verdict and leave Readability's class weight alone.
 */
/*
 * Where in class name tok a note on a picture starts: a word of a
 * picture ("img", "image", "photo", "foto", "media", "figure") followed
 * at once (or after '-' or '_') by one of a note ("desc", "subtitle",
 * "metadata"): an image's description ("imagedescription",
 * "img_description", "media__description", "img-metadata__title"),
 * which its "description" would otherwise make content.  Not a card's
 * ("no-image-card__description").  -1 if none.
 */
static int
picture_note(const char *tok)
{
	static const char *const pic[] = { "img", "image", "photo", "foto",
		"media", "figure", NULL };
	static const char *const note[] = { "desc", "subtitle", "metadata",
		NULL };
	const char *q, *e;
	int k, m, at = -1;

	for (k = 0; pic[k]; k++)
		for (q = tok; (q = strstr(q, pic[k])); q++) {
			e = q + strlen(pic[k]);
			while (*e == '-' || *e == '_')
				e++;
			for (m = 0; note[m]; m++)
				if (!strncmp(e, note[m], strlen(note[m])) &&
				    e - tok > at)
					at = (int)(e - tok);
		}
	return at;
}

static int
box_last(const char *tok)
{
	const char *q;
	int at = picture_note(tok), k;

	for (k = 0; box_sub[k]; k++)
		for (q = tok; (q = strstr(q, box_sub[k])); q++)
			if (q - tok > at)
				at = (int)(q - tok);
	for (k = 0; box_word[k]; k++) {
		size_t n = strlen(box_word[k]);

		for (q = tok; (q = strstr(q, box_word[k])); q++)
			if ((q == tok || !isalnum((unsigned char)q[-1])) &&
			    !isalnum((unsigned char)q[n]) && q - tok > at)
				at = (int)(q - tok);
	}
	return at;
}

/*
 * The next class name of the words at *p (a "class id" string) into tok
 * (cut to size - 1 bytes, NUL-terminated) and *p past it; 0 at the end.
 */
static int
next_class(const char **p, char *tok, size_t size)
{
	const char *q = *p + strspn(*p, " \t\n\r\f");
	size_t n = strcspn(q, " \t\n\r\f");

	if (!n)
		return 0;
	*p = q + n;
	if (n >= size)
		n = size - 1;
	memcpy(tok, q, n);
	tok[n] = '\0';
	return 1;
}

/* Whether tok holds any string of list. */
static int
any_sub(const char *tok, const char *const *list)
{
	for (; *list; list++)
		if (strstr(tok, *list))
			return 1;
	return 0;
}

int
uk_ex_class_verdict(const char *ci)
{
	char tok[128];
	const char *p = ci;
	int neg = 0, pos = 0, strong = 0, cmt = 0;

	while (next_class(&p, tok, sizeof(tok))) {
		uint64_t b;
		int tn, tp, k;

		b = bytes_of(tok);
		tn = last_sub(tok, b, neg_sub, neg_sub_m);
		k = last_word(tok, b, neg_word, neg_word_m);
		if (k > tn)
			tn = k;
		k = box_last(tok);
		if (k > tn)
			tn = k;

		tp = last_sub(tok, b, pos_sub, pos_sub_m);
		if (tn >= 0 && (any_sub(tok, panel_sub) ||
		    any_sub(tok, result_sub)))
			tn = -1;
		if (tn >= 0 && tn >= tp) {
			neg = 1;
			if (match_any_sub(tok, b, strong_sub, strong_sub_m))
				strong = 1;
			if (strstr(tok, "comment") || strstr(tok, "disqus"))
				cmt = 1;
			/* Customer reviews are a shop's comments. */
			if (strstr(tok, "reviews"))
				cmt = 1;
		} else if (tp >= 0)
			pos = 1;
	}
	if (!neg || pos)
		return 0;
	return cmt ? 4 : strong ? 3 : 2;
}

/*
 * Whether class names (a lower-cased "class id") say an article's own
 * header: a word of content before "header" in one name
 * ("article-header", "entry-header", "post__header"), where the site's
 * is "site-header" or "masthead".  uk_ex_class_verdict reads such a name by
 * its last word, as for "post-footer", but the article's header holds
 * its headline and standfirst.
 */
int
uk_ex_article_header(const char *ci)
{
	const char *p = ci;
	char tok[128];

	while (next_class(&p, tok, sizeof(tok))) {
		const char *h;
		int k;

		if (!(h = strstr(tok, "header")))
			continue;
		k = last_sub(tok, bytes_of(tok), pos_sub, pos_sub_m);
		if (k >= 0 && k < h - tok)
			return 1;
	}
	return 0;
}

/* Whether a class name says its element is one of many (posts, items). */
int
uk_ex_repeat_class(const char *s, size_t n)
{
	char b[64];
	size_t i;

	if (n >= sizeof(b))
		n = sizeof(b) - 1;
	for (i = 0; i < n; i++)
		b[i] = (char)tolower((unsigned char)s[i]);
	b[n] = '\0';
	return match_any_sub(b, bytes_of(b), repeat_hints, repeat_hints_m);
}

int
uk_ex_class_caption(const char *ci)
{
	char tok[128];
	const char *p = ci;

	if (strstr(ci, "caption") || strstr(ci, "credit"))
		return 1;
	while (next_class(&p, tok, sizeof(tok)))
		if (picture_note(tok) >= 0)
			return 1;
	return 0;
}

int
uk_ex_class_noprint(const char *ci)
{
	int k;

	for (k = 0; noprint_word[k]; k++)
		if (uk_ex_has_word(ci, noprint_word[k]))
			return 1;
	return 0;
}
