/* SPDX-License-Identifier: MIT */
/*
 * Boilerplate by what it says (uk_ex_mark_by_text).  Class names are a
 * site's own words; the text of a heading or a short paragraph is what a
 * reader sees, and the sections and lines that every reader skips
 * announce themselves the same way on every site: "Related articles",
 * "Read more: <link>", "Leave a reply", "© 2021 ... All rights
 * reserved", "Subscribe to our newsletter".  The phrases are in the
 * languages of the pages urlfetch meets most (English, German, French,
 * Spanish, Italian, Portuguese, Polish, Dutch).
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "extract_int.h"
#include "util.h"

#include "banned.h"

/* The prices that make a carousel one of products (product_carousel). */
#define CAROUSEL_PRICES 3
/* The longest question whose hidden answer comes back (show_answers). */
#define ANSWER_ASK 200

/*
 * Headings that open a section which is not the article: related and
 * recommended reading, comments, sharing, the author's box.  Matched
 * against the whole heading (lower case, without trailing punctuation
 * and counts); a phrase ending in '*' matches the start of a heading.
 */
static const char *const tail_heads[] = {
	/* related and recommended reading */
	"related", "related articles", "related posts", "related stories",
	"related content", "related topics", "related news", "related links",
	"related reading", "read more", "read next", "read also", "also read",
	"see also", "more stories", "more news", "more articles",
	"more from*", "more on*", "more in*", "you may also like",
	"you might also like", "you may also be interested in",
	"you might be interested in", "recommended for you",
	"recommended articles", "recommended stories", "most popular",
	"most read", "popular posts", "popular articles", "trending",
	"trending now", "latest news", "latest posts", "latest articles",
	"recent posts", "top stories", "editor's picks", "don't miss",
	"das könnte sie auch interessieren", "das könnte dich auch interessieren",
	"das könnte sie interessieren", "mehr zum thema*", "mehr zum thema",
	"weitere artikel", "weitere beiträge", "weitere meldungen",
	"weitere nachrichten", "ähnliche artikel", "ähnliche beiträge",
	"verwandte artikel", "verwandte beiträge", "lesen sie auch",
	"lesen sie mehr", "auch interessant", "ebenfalls interessant",
	"schon gelesen", "unsere empfehlungen", "auch lesen", "zum weiterlesen",
	"interessante artikel", "weitere artikel zum thema",
	"kommentierte artikel", "meist-diskutiert", "meistdiskutiert",
	"meistkommentiert", "filed under*", "abgelegt unter*", "mehr kolumnen*",
	"meistgelesen",
	"meistgelesene artikel", "meist gelesen", "viel gelesen*",
	"beliebte beiträge", "neueste beiträge", "neueste artikel",
	"aktuelle beiträge", "top-themen", "mehr aus*", "mehr von*",
	"à lire aussi", "a lire aussi", "lire aussi", "sur le même sujet",
	"dans la même rubrique", "articles similaires", "articles liés",
	"les plus lus", "à lire également", "lea también", "lee también",
	"te puede interesar", "le puede interesar", "noticias relacionadas",
	"artículos relacionados", "más noticias", "lo más leído", "lo más visto",
	"te recomendamos", "vea también", "mira también", "relacionados",
	"relacionadas", "articoli correlati", "leggi anche", "potrebbe interessarti",
	"ti potrebbe interessare", "leia também", "notícias relacionadas",
	"veja também", "zobacz także", "zobacz też", "czytaj także",
	"czytaj też", "polecane", "podobne artykuły", "lees ook",
	"gerelateerde artikelen", "weiterlesen", "mehr lesen", "mehr dazu",
	"articles les plus lus", "weiterführende artikel*",
	"weiterführende links", "more on this topic", "more on this story",
	"related coverage", "further reading", "keep reading", "up next",
	"read this next", "what to read next", "more like this",
	"recommended reading", "empfehlungen aus der redaktion",
	"aktuelle berichte aus dieser kategorie", "verwandte themen",
	"verwandte themenbereiche", "weitere beiträge aus der kolumne",
	"das thema könnte dich auch interessieren",
	"das thema könnte sie auch interessieren", "lesen sie auch*",
	"temas relacionados", "meistdiskutierte artikel",
	"weiterführender link", "more from this category",
	"more in this category", "other articles", "andere artikel",
	"weitere informationen", "more information", "further information",
	"plus d'informations", "más información", "więcej informacji",
	/* other videos */
	"weitere videos", "more videos", "mehr videos", "related videos",
	"videos", "top videos", "neueste videos", "autres vidéos",
	"más videos", "altri video",
	/* more of the same kind: similar recipes, posts, products */
	"similar *", "ähnliche*", "podobne*", "simili*", "similares",
	"more recipes", "weitere rezepte", "autres recettes", "más recetas",
	/* the article's topics and tags */
	"themen", "mehr themen", "temas", "topics", "tags", "schlagworte",
	"schlagwörter", "stichworte", "etiquetas", "étiquettes", "tagi",
	"mots-clés", "mots clés", "parole chiave", "trefwoorden",

	/* sharing and following */
	"share", "share this", "share this article", "share this post",
	"share this story", "share on", "follow us", "teilen",
	"diesen artikel teilen", "beitrag teilen", "artikel teilen",
	"teile diesen beitrag", "folgen sie uns", "partager", "partager cet article",
	"compartir", "compartir en", "síguenos", "condividi", "udostępnij",
	"delen", "jetzt teilen", "teilen mit",
	NULL };

/*
 * Headings of boilerplate sections whose content is prose, not links:
 * the author's box, a newsletter's pitch, the press office's contact
 * (matched as tail_heads are).  A paragraph without a link does not end
 * them (tail_section).
 */
static const char *const prose_heads[] = {
	/* the author's box */
	"about the author", "about the authors", "about me", "über den autor",
	"über die autorin", "über die autoren", "zum autor", "zur autorin",
	"über mich", "à propos de l'auteur", "sobre el autor", "sobre la autora",
	"l'autore", "o autorze",
	/* newsletters */
	"newsletter", "subscribe", "subscribe to our newsletter",
	"sign up for our newsletter", "newsletter abonnieren", "jetzt abonnieren",
	"abonnez-vous", "suscríbete", "iscriviti alla newsletter",
	/* the press office's contact */
	"ansprechpartner*", "ansprechpartnerin*", "pressekontakt*",
	"press contact*", "media contact*", "contact presse", "kontakt für medien",
	NULL };

/*
 * Headings of a shop's boxes of other products ("Customers also
 * bought"), matched as tail_heads are.
 */
static const char *const shop_heads[] = {
	"people who viewed this item also viewed", "people also viewed",
	"customers also viewed", "customers also bought",
	"customers who viewed this item also viewed",
	"customers who bought this item also bought",
	"frequently bought together", "similar items", "similar products",
	"related products", "related items", "recently viewed",
	"recently viewed items", "recently viewed products",
	"sponsored products", "you may also need", "complete the look",
	"pairs well with", "more items to explore", "seller's other items",
	"explore more", "shop similar", "others also bought",
	"ähnliche produkte", "ähnliche artikel", "kunden kauften auch",
	"zuletzt angesehen", "produits similaires", "productos similares",
	"prodotti simili", NULL };
/* Headings of customer reviews: a shop's comment section. */
static const char *const review_heads[] = { "reviews", "customer reviews",
	"ratings and reviews", "ratings & reviews", "reviews and ratings",
	"customer ratings", "top reviews", "user reviews", "product reviews",
	"bewertungen", "kundenbewertungen", "avis clients", "avis",
	"opiniones", "reseñas", "recensioni", "opinie", "reviews*",
	"customer reviews*", NULL };

/* Headings that open the comment section (matched as tail_heads are). */
static const char *const comment_heads[] = {
	"comments", "comment", "leave a reply", "leave a comment",
	"post a comment", "add a comment", "join the discussion",
	"join the conversation", "reader comments",
	"kommentare", "kommentar", "kommentar schreiben", "kommentar verfassen",
	"schreibe einen kommentar", "hinterlasse einen kommentar",
	"kommentieren", "leserkommentare", "commentaires",
	"laisser un commentaire", "laissez un commentaire", "réactions",
	"comentarios", "deja un comentario", "deja tu comentario", "commenti",
	"lascia un commento", "comentários", "deixe um comentário",
	"komentarze", "dodaj komentarz", "reacties", "laat een reactie achter",
	"comments*", "kommentare*", "commentaires*", "comentarios*",
	"comentários*", "komentarze*", "reacties*", NULL };

/*
 * Whole lines that are controls of the page, not its text: print, save,
 * share, rate, back, and the labels of ads.
 */
static const char *const ui_lines[] = { "print", "print recipe",
	"print this page", "print article", "drucken", "rezept drucken",
	"artikel drucken", "seite drucken", "imprimer", "imprimir", "stampa",
	"drukuj", "merken", "save", "speichern", "gefällt mir", "like",
	"tweet", "whatsapp", "facebook", "twitter", "pinterest", "linkedin",
	"e-mail", "email", "telegram", "xing", "reddit", "flipboard",
	"bild anzeigen", "show image", "artikel bewerten", "rate this article",
	"rate this", "beitrag bewerten", "weiterlesen", "read more",
	"continue reading", "lire la suite", "leer más", "zurück",
	"zurück zur übersicht", "zurück zur vorherigen seite",
	"back to overview", "back to top", "back", "nach oben", "top",
	"reply", "antworten", "répondre", "responder", "rispondi",
	"advertisement", "anzeige", "werbung", "publicidad", "publicité",
	"pubblicità", "reklama", "sponsored", "gesponsert", "externer inhalt",
	"loading", "wird geladen", "aufrufe", "views", "teilen sie dies mit",
	"teilen mit", "share this", "pinnen", "pin it", "pin", "seite teilen",
	"kommentieren", "kommentieren sie", "bisher keine kommentare",
	"keine kommentare", "no comments yet", "no comments",
	"be the first to comment", "möchten sie den artikel teilen",
	"kommentare insgesamt", "permalink", "permalien", "kategorien",
	"categories", "kontakt", "telefon", "pressekontakt", "release date",
	"last modified", "last updated", "aktualisiert am", "aktualisiert",
	"zuletzt aktualisiert", "quellen ausblenden", "quellen anzeigen",
	"jetzt registrieren", "click to expand", "click to shrink",
	/* the heading of a table of contents (its links are the page's) */
	"table of contents", "inhaltsverzeichnis", "sommaire",
	"table des matières", "tabla de contenidos", "indice dei contenuti",
	"spis treści", "inhoudsopgave", "on this page", "in this article",
	/* a forum's controls and the titles under a member's name */
	"report", "report post", "report this post",
	"report inappropriate content", "watch this topic", "watch thread",
	"watch topic", "start thread", "start a new thread", "original poster",
	"op posts", "reply with quote", "quote", "multi-quote", "multiquote",
	"bookmark", "share post", "member", "new member", "senior member",
	"junior member", "active member", "well-known member", NULL };

/* Short lines that introduce a link to another article: "Read more: X". */
static const char *const see_also[] = { "read more", "read also",
	"also read", "see also", "related", "more", "lesen sie auch",
	"lesen sie mehr", "lesen sie hier", "lies auch", "auch interessant",
	"mehr zum thema", "mehr dazu", "siehe auch", "lea también", "lea más",
	"lea", "lee también", "lee", "mire", "mira", "vea también", "vea",
	"le puede interesar", "te puede interesar", "lire aussi",
	"à lire aussi", "a lire aussi", "voir aussi", "leggi anche", "leggi",
	"czytaj także", "czytaj też", "czytaj również", "zobacz też",
	"zobacz także", "zobacz również", "leia também", "leia mais",
	"veja também", "lees ook", "lees meer", "czytaj więcej",
	"puedes ver", "ver también", NULL };

/* Phrases of copyright lines and disclaimers, anywhere in a short block. */
static const char *const legal_phrases[] = { "all rights reserved",
	"alle rechte vorbehalten", "tous droits réservés",
	"todos los derechos reservados", "tutti i diritti riservati",
	"wszelkie prawa zastrzeżone", "todos os direitos reservados",
	"alle rechten voorbehouden", "copyrighted property",
	"written permission", "without permission", "ohne genehmigung",
	"ohne gewähr", NULL };

/* Phrases of subscription and follow-us boxes, in a short block. */
static const char *const promo_phrases[] = { "subscribe to our",
	"sign up for our", "sign up to our", "subscribe now", "newsletter",
	"follow us on", "follow us", "folgen sie uns", "jetzt abonnieren",
	"abonnieren sie", "abonnez-vous", "suscríbete", "síguenos",
	"iscriviti", "zapisz się", "please subscribe", "become a member",
	"support our journalism", "support independent journalism",
	"unterstützen sie", "hazte miembro", "síguenos en", "siguenos en",
	"on twitter and", "on facebook and", "on instagram and",
	"app for ios", "apps for ios", "for ios and android",
	"canal de telegram", "canal de youtube", "our youtube channel",
	"already a subscriber", "subscribers also", "support us",
	"unterstütze uns", "unterstützt uns", "je fais un don",
	"zapraszamy do subskrypcji", "zapraszamy też do subskrypcji",
	"letter to the editor", "we want to hear what you think",
	/* calls to support the site, to sign up, to get its app */
	"sign up here", "supporting our work", "support our work",
	"we need your help", "straight to your phone", "download our app",
	"apóyanos", "unterstütze ", "rely on your support", NULL };

/*
 * The text of the subtree at i as a reader compares it: lower case
 * (ASCII and the Latin-1 letters), runs of space made one, at most max
 * bytes, into b (cleared).  Stops at the first link when before_link is
 * set.
 */
static void
plain_text(struct ctx *c, int i, struct uk_buf *b, size_t max,
    int before_link)
{
	int j, sp = 1;
	/* A subtree skipped already is read whole (skipped_heading). */
	int all = (c->n[i].flags & F_SKIP) != 0;

	uk_buf_reset(b);
	for (j = i; j < c->n[i].end && b->len < max; j++) {
		if (c->n[j].flags & F_SKIP && j != i && !all) {
			j = c->n[j].end - 1;
			continue;
		}
		if (!(c->n[j].flags & F_TEXT))
			continue;
		if (before_link && c->n[j].flags & F_INLINK &&
		    c->n[j].text > 0)
			break;
		uk_ex_squeeze(b, c->n[j].g->v.text.text, &sp, UK_EX_LOWER,
		    max);
	}
}

/* Drop the punctuation, counts and space around a heading's words. */
static void
trim_heading(struct uk_buf *b)
{
	size_t k;

	while (b->len) {
		unsigned char ch = (unsigned char)b->buf[b->len - 1];

		if (isspace(ch) || isdigit(ch) || strchr(":?!.()[]|-»>…", ch) ||
		    ch >= 0x80) {
			/*
			 * Trailing non-ASCII is only stripped as "…", "»" or
			 * a no-break space ("Mehr lesen:&nbsp;").
			 */
			if (ch >= 0x80) {
				if (b->len >= 3 &&
				    !memcmp(b->buf + b->len - 3, "…", 3))
					b->len -= 3;
				else if (b->len >= 2 &&
				    !memcmp(b->buf + b->len - 2, "\xc2\xa0", 2))
					b->len -= 2;
				else if (b->len >= 2 &&
				    !memcmp(b->buf + b->len - 2, "»", 2))
					b->len -= 2;
				else
					break;
				continue;
			}
			b->len--;
			continue;
		}
		break;
	}
	b->buf[b->len] = '\0';
	/* And a count in front: "3 Comments". */
	for (k = 0; k < b->len && (isdigit((unsigned char)b->buf[k]) ||
	    b->buf[k] == ' ' || b->buf[k] == '('); k++)
		;
	if (k && k < b->len && b->buf[k - 1] == ' ') {
		memmove(b->buf, b->buf + k, b->len - k + 1);
		b->len -= k;
	}
}

static int
heading_listed(const char *s, const char *const *p)
{
	for (; *p; p++) {
		size_t n = strlen(*p);

		if ((*p)[n - 1] == '*') {
			if (!strncmp(s, *p, n - 1))
				return 1;
		} else if (!strcmp(s, *p))
			return 1;
	}
	return 0;
}

static int
is_heading(int tag)
{
	return tag == GUMBO_TAG_H1 || tag == GUMBO_TAG_H2 ||
	    tag == GUMBO_TAG_H3 || tag == GUMBO_TAG_H4 ||
	    tag == GUMBO_TAG_H5 || tag == GUMBO_TAG_H6;
}

/* Skip the subtree at i; cmt: as (part of) a comment section. */
static void
skip_subtree(struct ctx *c, int i, int cmt)
{
	int j;

	if (cmt && !(c->n[i].flags & F_SKIP))
		c->n[i].flags |= F_CROOT;
	for (j = i; j < c->n[i].end; j++)
		if (!(c->n[j].flags & F_SKIP))
			c->n[j].flags |= F_SKIP | (cmt ? F_CMT : 0);
}

static int
heading_level(struct ctx *c, int i)
{
	int j;

	/* The heading itself, or the first element with text inside i. */
	for (j = i; j < c->n[i].end; j++) {
		if (c->n[j].flags & F_TEXT) {
			if (c->n[j].text > 0)
				return 0;
			continue;
		}
		if (is_heading(c->n[j].tag))
			return c->n[j].tag - GUMBO_TAG_H1 + 1;
	}
	return 0;
}

/* Whether the subtree at i holds a paragraph of prose (150 characters). */
static int
has_prose(struct ctx *c, int i)
{
	int j;

	for (j = i; j < c->n[i].end; j++)
		if (!(c->n[j].flags & (F_TEXT | F_SKIP)) && c->n[j].own >= 150)
			return 1;
	return 0;
}

/*
 * A heading that the class rules or hiding set aside already ("Related
 * articles" in a <div class="view-header">) still names the section that
 * follows it: a reader sees the list under it as the related list, and
 * the heading's wrapper going must not let the list stay.  Returns the
 * outermost skipped element that holds nothing but the heading (where
 * tail_section starts), or -1: when that element holds more than the
 * heading (a whole sidebar set aside), or the heading is long.
 */
static int
skipped_heading(struct ctx *c, int i, struct uk_buf *b)
{
	int r = i, p;
	size_t len;

	plain_text(c, i, b, 200, 0);
	len = b->len;
	if (len == 0 || len > 80)
		return -1;
	while ((p = c->n[r].parent) > c->body && c->n[p].flags & F_SKIP)
		r = p;
	if (r != i) {
		plain_text(c, r, b, 200, 0);
		if (b->len != len)
			return -1;
	}
	return r;
}

/*
 * A heading that names a section of boilerplate ("Related articles",
 * "Comments"): the heading, with the wrappers it alone fills, and what
 * follows it in its parent go, up to the next heading of its level or
 * above, or to a paragraph of prose (a teaser box in the middle of an
 * article ends where the article's paragraphs resume).  Returns whether
 * it did.
 */
static int
tail_section(struct ctx *c, int i, struct uk_buf *b)
{
	int h = i, p, s, lvl, l, cmt, prose;

	if (c->n[i].flags & F_SKIP) {
		/* A heading set aside already (skipped_heading). */
		h = skipped_heading(c, i, b);
		if (h < 0)
			return 0;
	} else if (c->n[i].text == 0 || c->n[i].text > 80)
		return 0;
	plain_text(c, i, b, 200, 0);
	/*
	 * A line that is not a heading and ends as a sentence ("More on
	 * that in a follow-up post.") says something; it names no section.
	 */
	if (!is_heading(c->n[i].tag) && b->len >= 2 &&
	    b->buf[b->len - 1] == '.' &&
	    b->buf[b->len - 2] != '.')
		return 0;
	trim_heading(b);
	if (!b->len)
		return 0;
	cmt = heading_listed(b->buf, comment_heads) ||
	    heading_listed(b->buf, review_heads);
	prose = !cmt && heading_listed(b->buf, prose_heads);
	if (!cmt && !prose && !heading_listed(b->buf, tail_heads) &&
	    !heading_listed(b->buf, shop_heads))
		return 0;
	/* A line standing as a heading ranks as a second-level one. */
	lvl = is_heading(c->n[i].tag) ? c->n[i].tag - GUMBO_TAG_H1 + 1 : 2;
	/*
	 * Up through wrappers that hold nothing but the heading (a heading
	 * set aside starts where skipped_heading found its wrapper: above
	 * it, a parent without text left is one whose content went too).
	 */
	while (!(c->n[i].flags & F_SKIP) && (p = c->n[h].parent) > c->body &&
	    c->n[p].text == c->n[i].text && c->n[p].tag != GUMBO_TAG_ARTICLE &&
	    c->n[p].tag != GUMBO_TAG_MAIN)
		h = p;
	p = c->n[h].parent;
	if (p < 0 || c->n[p].text == 0)
		return 0;
	skip_subtree(c, h, 0);
	for (s = c->n[h].end; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & F_TEXT)
			continue;
		l = heading_level(c, s);
		if (l && l <= lvl)
			break;
		/*
		 * Prose ends a box of links or a share bar (the article
		 * resumes); comments are prose and run to the next heading.
		 */
		/*
		 * So does a paragraph without a link after a heading of
		 * links: a teaser box that swallowed the article's next
		 * lines (its markup left open) ends where the reader's text
		 * is no link to elsewhere.
		 */
		if (!cmt && !prose && c->n[s].tag == GUMBO_TAG_P && c->n[s].text > 0 &&
		    c->n[s].link == 0)
			break;
		if (!cmt && c->n[s].text - c->n[s].link >= 150 &&
		    c->n[s].link * 5 < c->n[s].text &&
		    (c->n[s].tag == GUMBO_TAG_P ||
			(c->n[s].text - c->n[s].link >= 400 &&
			    has_prose(c, s))))
			break;
		skip_subtree(c, s, cmt);
	}
	return 1;
}

/*
 * Whether the text just before the element at i ends with a colon: a
 * list the text introduces ("see the following documentation:") is the
 * text's own.
 */
static int
after_colon(struct ctx *c, int i)
{
	int j, k;

	for (j = i - 1, k = 0; j > c->body && k < 64; j--, k++) {
		const char *t;
		size_t len;

		if (!(c->n[j].flags & F_TEXT) || c->n[j].flags & F_SKIP)
			continue;
		t = c->n[j].g->v.text.text;
		len = strlen(t);
		while (len && isspace((unsigned char)t[len - 1]))
			len--;
		if (!len)
			continue;
		return t[len - 1] == ':';
	}
	return 0;
}

/*
 * A box of links inside an article: a list, table or division, a small
 * part of the page, whose words are nearly all links to elsewhere
 * (teasers, "more stories", tag clouds).  Outside <article>, and on a
 * page whose links are its content (a listing, a collection: they are
 * most of its text), links stay.
 */
static int
link_box(struct ctx *c, int i, int body)
{
	struct nd *n = &c->n[i];
	int j, links = 0;

	if (n->tag != GUMBO_TAG_UL && n->tag != GUMBO_TAG_OL &&
	    n->tag != GUMBO_TAG_DIV && n->tag != GUMBO_TAG_SECTION &&
	    n->tag != GUMBO_TAG_TABLE && n->tag != GUMBO_TAG_DL)
		return 0;
	if (n->text == 0 || n->link * 10 < n->text * 7 ||
	    n->text * 5 > body)
		return 0;
	/* Only within an article: elsewhere links may be the content. */
	for (j = n->parent; j > 0 && c->n[j].tag != GUMBO_TAG_ARTICLE;
	     j = c->n[j].parent)
		;
	if (j <= 0)
		return 0;
	if (after_colon(c, i))
		return 0;
	for (j = i + 1; j < n->end && links < 3; j++)
		if (c->n[j].tag == GUMBO_TAG_A && !(c->n[j].flags & F_TEXT) &&
		    !(c->n[j].flags & F_SKIP) && c->n[j].text > 0)
			links++;
	return links >= 3;
}

/* Whether the subtree at i holds no block but line breaks. */
static int
leaf(struct ctx *c, int i)
{
	int j;

	for (j = i + 1; j < c->n[i].end; j++)
		if (!(c->n[j].flags & F_TEXT) && c->n[j].flags & F_BLOCK &&
		    c->n[j].tag != GUMBO_TAG_BR)
			return 0;
	return 1;
}

/* Whether the line at i is a control of the page (ui_lines). */
static int
ui_line(struct ctx *c, int i, struct uk_buf *b)
{
	plain_text(c, i, b, 100, 0);
	trim_heading(b);
	return b->len && heading_listed(b->buf, ui_lines);
}

static int
has_any(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strstr(s, *list))
			return 1;
	return 0;
}

/* Labels of an image's credit line: "Photo: Agency". */
static const char *const credit_labels[] = { "photo:", "photos:", "foto:",
	"fotos:", "bild:", "bilder:", "image:", "images:", "credit:",
	"credits:", "photo credit", "image credit", "crédit photo",
	"crédits photo", "crédits photos", "fotocredit", "bildquelle",
	"fotoquelle", "photo by ", "photograph:", "titelbild:",
	"titelfoto:", "foto ©", "bild ©", "photo ©", "quelle:", "source:",
	"fuente:", "źródło:", "fonte:", "beitragsbild", "featured image",
	"photo source", "bildnachweis", "fotonachweis",
	"header image", "cover image", NULL };

static int
credit_line(const char *s)
{
	const char *const *p;

	for (p = credit_labels; *p; p++)
		if (!strncmp(s, *p, strlen(*p)))
			return 1;
	return 0;
}

/*
 * Whether the element at i stands among paragraphs of prose: the element
 * before it or after it in its parent is a paragraph of 150 characters.
 */
static int
beside_prose(struct ctx *c, int i)
{
	int p = c->n[i].parent, s, prev = -1;

	if (p < 0)
		return 0;
	for (s = p + 1; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & (F_TEXT | F_SKIP))
			continue;
		if (s == i)
			break;
		prev = s;
	}
	if (prev >= 0 && c->n[prev].tag == GUMBO_TAG_P &&
	    c->n[prev].own >= 150)
		return 1;
	for (s = c->n[i].end; s < c->n[p].end; s = c->n[s].end) {
		if (c->n[s].flags & (F_TEXT | F_SKIP))
			continue;
		return c->n[s].tag == GUMBO_TAG_P && c->n[s].own >= 150;
	}
	return 0;
}

/*
 * Messages of the page's own machinery, which its scripts show when a
 * step fails or cannot run: never what the page says.
 */
static const char *const machine_phrases[] = { "please try again",
	"something went wrong", "enable javascript", "javascript is disabled",
	"javascript is required", "javascript must be enabled",
	"bitte versuchen sie es erneut", "etwas ist schiefgelaufen",
	"veuillez réessayer", "inténtalo de nuevo", "vuelve a intentarlo",
	"riprova più tardi", NULL };

/*
 * The head of a quote in a forum's post: "netmaker said:", "On 4/19/2024
 * at 3:10 PM, X said:".  The forum writes it inside the quote; a writer's
 * "the minister said:" stands before a quote, outside it.
 */
static const char *const quote_ends[] = { " said:", " wrote:",
	" schrieb:", " a écrit :", " a écrit:", " escribió:", " ha scritto:",
	" napisał:", " napisała:", " schreef:", NULL };

static int
quote_head(const char *s)
{
	const char *const *p;
	size_t n = strlen(s);

	for (p = quote_ends; *p; p++) {
		size_t k = strlen(*p);

		if (n > k && !strcmp(s + n - k, *p))
			return 1;
	}
	return 0;
}

/*
 * The line a question-and-answer site writes under each post: "answered
 * Oct 16, 2010 at 22:13", "edited Mar 11, 2022", "asked 5 years ago".
 */
static int
qa_line(const char *s)
{
	static const char *const w[] = { "answered ", "asked ", "edited ",
	    "modified ", NULL };
	const char *const *p;

	for (p = w; *p; p++)
		if (!strncmp(s, *p, strlen(*p)) && strpbrk(s, "0123456789"))
			return 1;
	return 0;
}

/* Whether the element at i is inside a <blockquote>. */
static int
in_quote(struct ctx *c, int i)
{
	int p;

	for (p = c->n[i].parent; p > c->body; p = c->n[p].parent)
		if (c->n[p].tag == GUMBO_TAG_BLOCKQUOTE)
			return 1;
	return 0;
}

/*
 * Labels of a post's line of categories or tags: "Category: News",
 * "Tags: harbour, festival", "Kategorie: Allgemein".
 */
static const char *const meta_labels[] = { "category", "categories",
	"kategorie", "kategorien", "catégorie", "catégories", "categoría",
	"categorías", "categoria", "categorie", "kategoria", "tags", "tag",
	"schlagwörter", "schlagworte", "stichwörter", "stichworte",
	"etiquetas", "mots-clés", "mots clés", "filed under", "posted in",
	"abgelegt unter", "veröffentlicht in", NULL };

/* Whether s starts with one of the labels of list and a colon. */
static int
label_colon(const char *s, const char *const *list)
{
	for (; *list; list++) {
		size_t k = strlen(*list);

		if (!strncmp(s, *list, k) &&
		    (s[k] == ':' || (s[k] == ' ' && s[k + 1] == ':')))
			return 1;
	}
	return 0;
}

/* Whether s starts with a see_also phrase and a colon: "Read also: X". */
static int
see_also_colon(const char *s)
{
	const char *const *p;

	for (p = see_also; *p; p++) {
		size_t k = strlen(*p);

		if (!strncmp(s, *p, k) && s[k] == ':')
			return 1;
	}
	return 0;
}

/*
 * Whether the element at i is a heading that is another story's
 * headline after "Read also:" ("MIRA: ...", "Lesen Sie auch: ...").
 */
static int
see_also_heading(struct ctx *c, int i, struct uk_buf *b)
{
	if (!is_heading(c->n[i].tag) || c->n[i].tag == GUMBO_TAG_H1 ||
	    c->n[i].text >= 200)
		return 0;
	plain_text(c, i, b, 400, 0);
	return see_also_colon(b->buf);
}

/*
 * A short block that is a line of boilerplate: "Read more: <a link>", a
 * copyright line or disclaimer, a call to subscribe or follow.
 */
static int
boiler_line(struct ctx *c, int i, struct uk_buf *b)
{
	struct nd *n = &c->n[i];
	const char *const *p;

	if (n->text == 0 || n->text > 300)
		return 0;
	/* A paragraph that is only a link, among prose: another article. */
	if (n->tag == GUMBO_TAG_P && n->text < 150 &&
	    n->link * 10 >= n->text * 9 && beside_prose(c, i))
		return 1;
	/* "Read more: <link>": a few words and a colon, then a link. */
	if (n->link * 2 >= n->text) {
		plain_text(c, i, b, 64, 1);
		trim_heading(b);
		for (p = see_also; *p; p++)
			if (!strcmp(b->buf, *p))
				return 1;
	}
	plain_text(c, i, b, 400, 0);
	if (n->text < 200 && see_also_colon(b->buf))
		return 1;
	if (!strncmp(b->buf, "©", 2) || !strncmp(b->buf, "(c) ", 4) ||
	    !strncmp(b->buf, "copyright", 9))
		return 1;
	if (has_any(b->buf, legal_phrases))
		return 1;
	if (n->text < 120 && credit_line(b->buf))
		return 1;
	if (n->text < 150 && label_colon(b->buf, meta_labels))
		return 1;
	if (n->text < 200 && has_any(b->buf, promo_phrases))
		return 1;
	if (n->text < 200 && has_any(b->buf, machine_phrases))
		return 1;
	if (n->text < 80 && quote_head(b->buf) && in_quote(c, i))
		return 1;
	if (n->text < 40 && qa_line(b->buf))
		return 1;
	/* A template's placeholder, never filled in. */
	if (!strncmp(b->buf, "lorem ipsum", 11))
		return 1;
	return 0;
}

/* How many prices ("$19.99", "12,50 €", "£88") s holds. */
static int
count_prices(const char *s)
{
	static const char *const cur[] = { "$", "€", "£", "¥", NULL };
	const char *const *p;
	const char *q;
	int n = 0;

	for (p = cur; *p; p++) {
		size_t k = strlen(*p);

		for (q = s; (q = strstr(q, *p)); q += k)
			if (isdigit((unsigned char)q[k]) ||
			    (q[k] == ' ' && isdigit((unsigned char)q[k + 1])) ||
			    (q > s && isdigit((unsigned char)q[-1])) ||
			    (q > s + 1 && q[-1] == ' ' &&
				isdigit((unsigned char)q[-2])))
				n++;
	}
	return n;
}

/*
 * A carousel of products: an element that says it is a carousel (class
 * word or aria-roledescription) and holds three prices or more, boxes of
 * other products to buy.  A carousel without prices (features, quotes of
 * customers, a product's own panels) stays.
 */
static int
product_carousel(struct ctx *c, int i, struct uk_buf *b)
{
	const char *cl = uk_ex_attr(c->n[i].g, "class");
	const char *rd = uk_ex_attr(c->n[i].g, "aria-roledescription");

	if (!(rd && !strcasecmp(rd, "carousel")) &&
	    !(cl && strcasestr(cl, "carousel")))
		return 0;
	plain_text(c, i, b, 4000, 0);
	return count_prices(b->buf) >= CAROUSEL_PRICES;
}

/*
 * A member's details beside a forum post: the labels of the pairs
 * (<dt>) that say who wrote it, not what was written.  member_labels say
 * it alone ("Joined", "Messages"); other_labels ("Location") only among
 * them.
 */
static const char *const member_labels[] = { "joined", "member since",
	"messages", "posts", "reaction score", "member type", "native language",
	"home country", "current location", "trophies", "solutions",
	"registered", "likes received", "registriert", "beiträge", "dabei seit",
	"mitglied seit", "inscrit", "inscrit le", "inscrito", "mensajes",
	"iscritto", "messaggi", "dołączył", "posty", "lid sinds", "berichten",
	NULL };
static const char *const other_labels[] = { "location", "gender",
	"occupation", "website", "age", "points", "reputation", "karma",
	"likes", "ort", "wohnort", "localisation", "ubicación", NULL };

/*
 * Counts of a member's activity standing as a line: "29,553 posts",
 * "518 helpful votes", "202 bronze badges", "3+ year member".
 */
static const char *const member_counts[] = { "posts", "post", "messages",
	"helpful votes", "helpful vote", "reputation", "badges", "gold badges",
	"silver badges", "bronze badges", "gold badge", "silver badge",
	"bronze badge", "year member", "years member", "reaction score",
	"beiträge", "mensajes", "messaggi", NULL };

/*
 * Counts of a post's or a teaser's readers standing as a line: "60
 * replies", "12 reactions", "5 min read" (a listing's teasers keep their
 * titles and dates).
 */
static const char *const post_counts[] = { "replies", "reply",
	"replies to this topic", "reactions", "reaction", "comments",
	"comment", "min read", "minute read", "views", "likes", "like", NULL };

/* The text of g's subtree (an icon's <title> too), lower case, into b. */
static void
raw_text(GumboNode *g, struct uk_buf *b, int *sp, size_t max)
{
	unsigned k;

	if (b->len >= max)
		return;
	if (g->type == GUMBO_NODE_TEXT || g->type == GUMBO_NODE_WHITESPACE ||
	    g->type == GUMBO_NODE_CDATA) {
		uk_ex_squeeze(b, g->v.text.text, sp, UK_EX_LOWER, max);
		return;
	}
	if (g->type != GUMBO_NODE_ELEMENT)
		return;
	for (k = 0; k < g->v.element.children.length; k++)
		raw_text(g->v.element.children.data[k], b, sp, max);
}

/*
 * Whether the element at i holds a member's details and nothing else:
 * pairs (<dl>, <dt>, <dd>) whose every label is a member's, one at
 * least said alone.  A label may be an icon whose <title> names it.
 */
static int
member_pairs(struct ctx *c, int i, struct uk_buf *b)
{
	int j, strong = 0, dts = 0, sp;

	if (c->n[i].text == 0 || c->n[i].text > 400 ||
	    c->n[i].link * 2 > c->n[i].text)
		return 0;
	for (j = i + 1; j < c->n[i].end; j++) {
		struct nd *n = &c->n[j];

		if (n->flags & F_TEXT) {
			/* Text outside the pairs: more than details. */
			if (n->text > 0 && c->n[n->parent].tag != GUMBO_TAG_DT &&
			    c->n[n->parent].tag != GUMBO_TAG_DD &&
			    !(c->n[n->parent].flags & F_INLINK))
				return 0;
			continue;
		}
		if (n->tag != GUMBO_TAG_DT)
			continue;
		dts++;
		uk_buf_reset(b);
		sp = 1;
		raw_text(n->g, b, &sp, 80);
		trim_heading(b);
		if (heading_listed(b->buf, member_labels))
			strong++;
		else if (!heading_listed(b->buf, other_labels))
			return 0;
		j = n->end - 1;
	}
	return dts > 0 && strong > 0;
}

/*
 * Whether the line at i is a count of a member's activity or of a post's
 * readers, or a member's detail written "Label: value".
 */
static int
member_count(struct ctx *c, int i, struct uk_buf *b)
{
	const char *s, *colon;

	plain_text(c, i, b, 60, 0);
	s = b->buf;
	/* "Joined: Dec 2009", "Posts: 710": a label and its value. */
	if ((colon = strchr(s, ':')) && colon[1] == ' ' && colon - s < 24) {
		char lab[24];

		memcpy(lab, s, (size_t)(colon - s));
		lab[colon - s] = '\0';
		return heading_listed(lab, member_labels);
	}
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s) || *s == ',' || *s == '.' ||
	    *s == 'k' || *s == '+')
		s++;
	if (!strncmp(s, "\xc2\xa0", 2))
		s++;
	else if (*s != ' ')
		return 0;
	return heading_listed(s + 1, member_counts) ||
	    heading_listed(s + 1, post_counts);
}

/*
 * Whether element g hides itself by its own attributes (the hidden
 * attribute, aria-hidden, display:none or visibility:hidden in its
 * style), as extract.c's boilerplate reads them.
 */
static int
self_hidden(GumboNode *g)
{
	const char *s;
	char b[256];
	size_t k, n = 0;

	if (uk_ex_attr(g, "hidden"))
		return 1;
	s = uk_ex_attr(g, "aria-hidden");
	if (s && !strcasecmp(s, "true"))
		return 1;
	if (!(s = uk_ex_attr(g, "style")))
		return 0;
	for (k = 0; s[k] && n + 1 < sizeof(b); k++)
		if (!isspace((unsigned char)s[k]))
			b[n++] = (char)tolower((unsigned char)s[k]);
	b[n] = '\0';
	return strstr(b, "display:none") || strstr(b, "visibility:hidden");
}

/* Elements that stay out of an answer brought back (never text). */
static int
never_text(int tag)
{
	return tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE ||
	    tag == GUMBO_TAG_TEMPLATE || tag == GUMBO_TAG_SVG ||
	    tag == GUMBO_TAG_MATH || tag == GUMBO_TAG_IFRAME ||
	    tag == GUMBO_TAG_OBJECT || tag == GUMBO_TAG_EMBED ||
	    tag == GUMBO_TAG_CANVAS || tag == GUMBO_TAG_BUTTON ||
	    tag == GUMBO_TAG_SELECT || tag == GUMBO_TAG_OPTION ||
	    tag == GUMBO_TAG_TEXTAREA || tag == GUMBO_TAG_INPUT ||
	    tag == GUMBO_TAG_NAV || tag == GUMBO_TAG_FORM ||
	    tag == GUMBO_TAG_AUDIO || tag == GUMBO_TAG_VIDEO ||
	    tag == GUMBO_TAG_NOSCRIPT;
}

/*
 * Whether the element at q asks the question that the panel after it
 * answers: a short visible line ending in a question mark.
 */
static int
question(struct ctx *c, int q, struct uk_buf *b)
{
	if (c->n[q].flags & F_SKIP || c->n[q].text == 0 ||
	    c->n[q].text > ANSWER_ASK)
		return 0;
	plain_text(c, q, b, 2 * ANSWER_ASK, 0);
	while (b->len && isspace((unsigned char)b->buf[b->len - 1]))
		b->len--;
	return b->len && b->buf[b->len - 1] == '?';
}

/* Whether the answers at a and b sit in one list (show_answers). */
static int
same_list(struct ctx *c, int a, int b)
{
	int pa = c->n[a].parent, pb = c->n[b].parent;

	return pa == pb || (pa > 0 && pb > 0 &&
	    c->n[pa].parent == c->n[pb].parent);
}

/*
 * An accordion's answers: a panel hidden until its question is clicked
 * (<div class="faq-question">Q?</div><div class="faq-answer"
 * style="display:none">A...</div>) is text a reader opens, not a part
 * of the page kept from view.  The panel hidden by its own attributes
 * right after a visible question comes back, but what inside it is
 * never text or hidden by itself.  Returns whether any came back.
 */
static int
show_answers(struct ctx *c, struct uk_buf *b)
{
	int i, j, q, p, back = 0, *ans = NULL, na = 0, nalloc = 0, k;

	for (i = c->body + 1; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (n->flags & F_TEXT || !(n->flags & F_SKIP) ||
		    (p = n->parent) < 0 || c->n[p].flags & F_SKIP ||
		    never_text(n->tag) || is_heading(n->tag) ||
		    !self_hidden(n->g)) {
			if (n->flags & F_SKIP)
				i = n->end - 1;
			continue;
		}
		/*
		 * The element before it in its parent: up from the node
		 * before it (the array is in document order), past text.
		 */
		for (q = i - 1; q > p; q--) {
			while (c->n[q].parent != p)
				q = c->n[q].parent;
			if (!(c->n[q].flags & F_TEXT))
				break;
		}
		if (q <= p || !question(c, q, b)) {
			i = n->end - 1;
			continue;
		}
		if (na == nalloc) {
			nalloc = nalloc ? nalloc * 2 : 16;
			ans = uk_util_xrealloc(ans,
			    (size_t)nalloc * sizeof(*ans));
		}
		ans[na++] = i;
		i = n->end - 1;
	}
	for (k = 0; k < na; k++) {
		struct nd *n = &c->n[ans[k]];

		i = ans[k];
		/*
		 * Questions come in a list: one alone (a form's "Where did
		 * you see a lower price?" over its hidden field note) is no
		 * FAQ.  Its neighbours in the list share its parent or
		 * grandparent (each question and answer wrapped as an item).
		 */
		if (!(k > 0 && same_list(c, ans[k - 1], i)) &&
		    !(k + 1 < na && same_list(c, i, ans[k + 1])))
			continue;
		n->flags &= ~(unsigned)F_SKIP;
		for (j = i + 1; j < n->end; j++) {
			if (!(c->n[j].flags & F_TEXT) &&
			    (never_text(c->n[j].tag) || self_hidden(c->n[j].g))) {
				j = c->n[j].end - 1;
				continue;
			}
			c->n[j].flags &= ~(unsigned)F_SKIP;
		}
		back = 1;
	}
	free(ans);
	return back;
}

/*
 * Whether element g is set in an icon font whose glyphs are named by
 * ligatures (Google's Material Icons and Material Symbols): its text
 * ("close", "expand_more") names a picture, never words for a reader.
 */
static int
icon_font(GumboNode *g)
{
	const char *cls = uk_ex_attr(g, "class"), *p, *e;

	if (!cls)
		return 0;
	/* The class word "material-icons" or "material-symbols", or one
	 * of their styles ("material-symbols-outlined"). */
	for (p = cls; (p = strstr(p, "material-")); p++) {
		if (p != cls && !isspace((unsigned char)p[-1]))
			continue;
		e = p + 9;
		if (!strncmp(e, "icons", 5))
			e += 5;
		else if (!strncmp(e, "symbols", 7))
			e += 7;
		else
			continue;
		if (!*e || *e == '-' || isspace((unsigned char)*e))
			return 1;
	}
	return 0;
}

/*
 * Whether s is a UUID and nothing else ("f2f260c3-bf1f-466a-b856-
 * 6f031758a086"): a script's identifier, never words for a reader.  A
 * shop writes them in spans hidden by its style sheet between the
 * letters of "Sponsored", so that the label cannot be read as text.
 */
static int
uuid_only(const char *s)
{
	static const int dash[] = { 8, 13, 18, 23 };
	size_t k, d = 0;

	for (k = 0; k < 36; k++) {
		if (d < 4 && (int)k == dash[d]) {
			if (s[k] != '-')
				return 0;
			d++;
		} else if (!isxdigit((unsigned char)s[k]))
			return 0;
	}
	return s[36] == '\0';
}

/*
 * Mark boilerplate by text: sections under a boilerplate heading, and
 * short lines of boilerplate (boiler_line) among the paragraphs.  Then
 * measure again.
 */
void
uk_ex_mark_by_text(struct ctx *c)
{
	struct uk_buf b = UK_BUF_INIT;
	int i, changed = 0, body;

	if (!c->body)
		return;
	if (show_answers(c, &b))
		uk_ex_measure(c);
	body = c->n[c->body].text;
	for (i = c->body + 1; i < c->nn; i++) {
		struct nd *n = &c->n[i];

		if (n->flags & F_TEXT)
			continue;
		if (n->flags & F_SKIP) {
			/* An <h1> names the page (a listing's "Latest news"). */
			if (is_heading(n->tag) && n->tag != GUMBO_TAG_H1 &&
			    tail_section(c, i, &b))
				changed = 1;
			continue;
		}
		/* An icon font's glyph names ("close", "search"). */
		if (n->text > 0 && n->text <= 40 && leaf(c, i) &&
		    icon_font(n->g)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		/* A member's count written as a pair's value or an item. */
		if ((n->tag == GUMBO_TAG_DD || n->tag == GUMBO_TAG_LI) &&
		    n->text > 0 && n->text <= 40 && leaf(c, i) &&
		    member_count(c, i, &b)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		if (is_heading(n->tag) || (n->text <= 60 && leaf(c, i) &&
			(n->tag == GUMBO_TAG_P || n->tag == GUMBO_TAG_DIV ||
			    n->tag == GUMBO_TAG_SPAN || n->tag == GUMBO_TAG_B ||
			    n->tag == GUMBO_TAG_STRONG ||
			    n->tag == GUMBO_TAG_HEADER || n->tag == GUMBO_TAG_A ||
			    n->tag == GUMBO_TAG_BUTTON))) {
			if (tail_section(c, i, &b)) {
				changed = 1;
				continue;
			}
			if (n->text > 0 && n->text <= 40 &&
			    member_count(c, i, &b)) {
				skip_subtree(c, i, 0);
				changed = 1;
				i = n->end - 1;
				continue;
			}
			if (n->text > 0 && n->text <= 40 && ui_line(c, i, &b)) {
				skip_subtree(c, i, 0);
				changed = 1;
				i = n->end - 1;
				continue;
			}
			if (n->text == 36 && !(n->flags & F_PRE)) {
				plain_text(c, i, &b, 64, 0);
				if (uuid_only(b.buf)) {
					skip_subtree(c, i, 0);
					changed = 1;
					i = n->end - 1;
					continue;
				}
			}
			if (see_also_heading(c, i, &b)) {
				skip_subtree(c, i, 0);
				changed = 1;
				i = n->end - 1;
				continue;
			}
			if (is_heading(n->tag))
				continue;
		}
		if (n->text >= 20 && product_carousel(c, i, &b)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		if (!(n->flags & F_BLOCK))
			continue;
		if ((n->tag == GUMBO_TAG_DL || n->tag == GUMBO_TAG_DIV) &&
		    member_pairs(c, i, &b)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		if (link_box(c, i, body)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
			continue;
		}
		if ((n->tag == GUMBO_TAG_P || n->tag == GUMBO_TAG_DIV ||
			n->tag == GUMBO_TAG_LI || n->tag == GUMBO_TAG_SPAN ||
			n->tag == GUMBO_TAG_SMALL || n->tag == GUMBO_TAG_EM) &&
		    boiler_line(c, i, &b)) {
			skip_subtree(c, i, 0);
			changed = 1;
			i = n->end - 1;
		}
	}
	uk_buf_release(&b);
	if (changed)
		uk_ex_measure(c);
}
