/* SPDX-License-Identifier: MIT */
/* The part of a page that answers a question: see query.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "query.h"
#include "tokens.h"
#include "util.h"
#include "banned.h"

/* BM25's constants, the usual ones (Robertson and Zaragoza). */
#define BM25_K1 1.2
#define BM25_B  0.75

/* The most distinct words of a question that count, and a word's bytes. */
#define QUERY_MAX_TERMS 32
#define WORD_MAX        64

/* A plain text's heading: one line of at most this many words. */
#define TEXT_HEADING_WORDS 12

/* The bytes of a heading kept in a heading path: paths stay small. */
#define HEADING_MAX 200

/* The mark where passages were left out. */
static const char mark[] = "\xe2\x80\xa6"; /* U+2026 */

/* A paragraph of the text, or a heading line. */
struct block {
	size_t start, end; /* bytes of the text, end before its newlines */
	int level;         /* a heading's level, 1 to 6; 0: not one */
};

/* A section: a heading and what follows it up to the next. */
struct section {
	char *path;  /* the heading path, "A > B"; "" for none */
	int level;   /* its heading's level; 0 for none */
	size_t ptok; /* the tokens of its heading path's line */
};

/* A passage: a run of blocks (or part of one) of one section. */
struct passage {
	size_t start, end; /* bytes of the text */
	size_t head;       /* bytes of its own heading line; 0: none */
	size_t near;       /* its distance to a kept one (set_near) */
	size_t sec;        /* its section */
	size_t tokens;
	size_t offset;     /* start in characters */
	double score;
	int kept;
};

struct page {
	const char *s;
	size_t len;
	enum uk_query_format fmt;
	struct block *b;
	size_t nb;
	struct section *sec;
	size_t nsec;
	struct passage *p;
	size_t np;
};

static const char *const stop_words[] = {
	"a", "about", "after", "all", "also", "an", "and", "any", "are", "as",
	"at", "be", "been", "but", "by", "can", "could", "did", "do", "does",
	"for", "from", "had", "has", "have", "he", "her", "his", "how", "i",
	"if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of",
	"on", "or", "our", "she", "should", "so", "some", "than", "that", "the",
	"their", "them", "then", "there", "these", "they", "this", "those",
	"to", "us", "was", "we", "were", "what", "when", "where", "which",
	"who", "whom", "why", "will", "with", "would", "you", "your",
};

static int
word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80;
}

static int
stop_cmp(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

static int
is_stop(const char *w)
{
	return bsearch(w, stop_words, sizeof(stop_words) / sizeof(*stop_words),
		   sizeof(*stop_words), stop_cmp) != NULL;
}

/*
 * The next word of s[*i..n) into w (case-folded, stop words skipped): 1,
 * or 0 at the end.  No stemming: a light one (plurals, "-ing", "-ed")
 * found fewer answers in scripts/bench query (text: 47 and 48 of 55 at
 * 500 and 1000 tokens, against 47 and 49 without; Markdown: 42 and 44
 * against 43 and 45).
 */
static int
next_word(const char *s, size_t n, size_t *i, char w[WORD_MAX + 1])
{
	size_t k;

	for (;;) {
		while (*i < n && !word_byte((unsigned char)s[*i]))
			(*i)++;
		if (*i >= n)
			return 0;
		for (k = 0; *i < n && word_byte((unsigned char)s[*i]); (*i)++)
			if (k < WORD_MAX) {
				char c = s[*i];

				w[k++] = c >= 'A' && c <= 'Z' ? c + 32 : c;
			}
		w[k] = '\0';
		if (is_stop(w))
			continue;
		return 1;
	}
}

/* The question's distinct words into terms; returns how many. */
static size_t
query_terms(const char *q, char terms[][WORD_MAX + 1])
{
	char w[WORD_MAX + 1];
	size_t i = 0, n = 0, k, len;

	if (!q)
		return 0;
	len = strlen(q);
	while (n < QUERY_MAX_TERMS && next_word(q, len, &i, w)) {
		for (k = 0; k < n && strcmp(terms[k], w); k++)
			;
		if (k == n)
			memcpy(terms[n++], w, sizeof(w));
	}
	return n;
}

/* Add s[0..n)'s counts of terms to tf (times weight); returns its words. */
static size_t
count_terms(const char *s, size_t n, char terms[][WORD_MAX + 1],
    size_t nterms, double weight, double *tf)
{
	char w[WORD_MAX + 1];
	size_t i = 0, words = 0, k;

	while (next_word(s, n, &i, w)) {
		words++;
		for (k = 0; k < nterms; k++)
			if (!strcmp(terms[k], w))
				tf[k] += weight;
	}
	return words;
}

/*
 * What kind of answer a question asks for, beyond its words: "how long"
 * asks for a duration ("three years", "10 minutes"), "when" and "what
 * year" for a date, and a passage that holds one is likelier to answer
 * it, though it shares no word with the question.  Question answering
 * systems call this the answer type; here it is one more term of BM25,
 * counted where a passage holds an answer of the kind.
 */
enum answer_kind { ANSWER_NONE, ANSWER_DURATION, ANSWER_DATE };

static const char *const time_units[] = {
	"century", "day", "days", "decade", "decades", "hour", "hours",
	"minute", "minutes", "month", "months", "second", "seconds", "week",
	"weeks", "year", "years",
};

static const char *const number_words[] = {
	"couple", "eight", "eighteen", "eleven", "few", "fifteen", "fifty",
	"five", "forty", "four", "fourteen", "half", "hundred", "nine",
	"nineteen", "ninety", "one", "seven", "seventeen", "seventy",
	"several", "six", "sixteen", "sixty", "ten", "thirteen", "thirty",
	"three", "twelve", "twenty", "two",
};

static const char *const month_names[] = {
	"april", "august", "december", "february", "january", "july", "june",
	"march", "may", "november", "october", "september",
};

static int
in_list(const char *w, const char *const *list, size_t n)
{
	return bsearch(w, list, n, sizeof(*list), stop_cmp) != NULL;
}

#define IN_LIST(w, list) in_list(w, list, sizeof(list) / sizeof(*list))

/* The next word of s[*i..n) into w, case-folded, stop words kept. */
static int
next_raw_word(const char *s, size_t n, size_t *i, char w[WORD_MAX + 1])
{
	size_t k = 0;

	while (*i < n && !word_byte((unsigned char)s[*i]))
		(*i)++;
	if (*i >= n)
		return 0;
	for (; *i < n && word_byte((unsigned char)s[*i]); (*i)++)
		if (k < WORD_MAX)
			w[k++] = s[*i] >= 'A' && s[*i] <= 'Z' ? s[*i] + 32 :
								s[*i];
	w[k] = '\0';
	return 1;
}

static enum answer_kind
answer_kind(const char *q)
{
	char w[WORD_MAX + 1], prev[WORD_MAX + 1] = "";
	size_t i = 0, n = q ? strlen(q) : 0;

	while (next_raw_word(q, n, &i, w)) {
		if (!strcmp(prev, "how") && !strcmp(w, "long"))
			return ANSWER_DURATION;
		if (!strcmp(w, "when") || (!strcmp(w, "year") &&
		    (!strcmp(prev, "what") || !strcmp(prev, "which"))))
			return ANSWER_DATE;
		memcpy(prev, w, sizeof(prev));
	}
	return ANSWER_NONE;
}

static int
all_digits(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (*w < '0' || *w > '9')
			return 0;
	return 1;
}

/* The answers of kind k in s[0..n): a count, as a term's frequency. */
static double
count_answers(const char *s, size_t n, enum answer_kind k)
{
	char w[WORD_MAX + 1], prev[WORD_MAX + 1] = "";
	size_t i = 0, len;
	double c = 0;

	while (next_raw_word(s, n, &i, w)) {
		if (k == ANSWER_DURATION && IN_LIST(w, time_units) &&
		    (all_digits(prev) || IN_LIST(prev, number_words)))
			c++;
		else if (k == ANSWER_DATE && (len = strlen(w)) == 4 &&
		    all_digits(w) && (w[0] == '1' || w[0] == '2'))
			c++;
		else if (k == ANSWER_DATE && IN_LIST(w, month_names) &&
		    all_digits(prev))
			c++;
		memcpy(prev, w, sizeof(prev));
	}
	return c;
}

/* The level of an ATX heading line s[0..n), 0 if it is none. */
static int
atx_level(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] == '#')
		k++;
	return k >= 1 && k <= 6 && k < n && s[k] == ' ' ? (int)k : 0;
}

/* Whether line s[0..n) opens or closes a fenced code block. */
static int
is_fence(const char *s, size_t n)
{
	return n >= 3 && (!memcmp(s, "```", 3) || !memcmp(s, "~~~", 3));
}

static void
add_block(struct page *pg, size_t start, size_t end, int level)
{
	while (end > start && (pg->s[end - 1] == ' ' || pg->s[end - 1] == '\n'))
		end--;
	if (end == start)
		return;
	pg->b = uk_util_xrealloc(pg->b, (pg->nb + 1) * sizeof(*pg->b));
	pg->b[pg->nb].start = start;
	pg->b[pg->nb].end = end;
	pg->b[pg->nb].level = level;
	pg->nb++;
}

/*
 * The text's blocks: paragraphs split at blank lines (not within a
 * fenced code block), a Markdown heading line always one of its own.
 */
static void
split_blocks(struct page *pg)
{
	const char *s = pg->s, *nl;
	size_t at = 0, start = 0, n;
	int fence = 0, lvl;

	while (at < pg->len) {
		nl = memchr(s + at, '\n', pg->len - at);
		n = nl ? (size_t)(nl - (s + at)) : pg->len - at;
		lvl = 0;
		if (pg->fmt == UK_QUERY_MARKDOWN && is_fence(s + at, n))
			fence = !fence;
		else if (pg->fmt == UK_QUERY_MARKDOWN && !fence)
			lvl = atx_level(s + at, n);
		if (lvl || (!fence && n == 0)) {
			add_block(pg, start, at, 0);
			if (lvl)
				add_block(pg, at, at + n, lvl);
			start = at + n + 1;
		}
		at += n + 1;
	}
	if (start < pg->len)
		add_block(pg, start, pg->len, 0);
}

/* Plain text: the paragraphs that read as headings (see query.h). */
static void
text_headings(struct page *pg)
{
	size_t i, k, words;
	struct block *b;
	char c;

	for (i = 0; i + 1 < pg->nb; i++) {
		b = &pg->b[i];
		if (memchr(pg->s + b->start, '\n', b->end - b->start))
			continue;
		c = pg->s[b->end - 1];
		if (strchr(".,;:!?", c))
			continue;
		/* Not a line of code: "x = f(y)", "int main() {". */
		if (memchr(pg->s + b->start, '=', b->end - b->start) ||
		    memchr(pg->s + b->start, '{', b->end - b->start))
			continue;
		words = 1;
		for (k = b->start; k < b->end; k++)
			if (pg->s[k] == ' ' && k + 1 < b->end &&
			    pg->s[k + 1] != ' ')
				words++;
		if (words <= TEXT_HEADING_WORDS)
			b->level = 1;
	}
}

/* A heading's text: its line without the "#"s and the spaces. */
static void
heading_text(const struct page *pg, const struct block *b, struct uk_buf *t)
{
	size_t i = b->start;

	if (pg->fmt == UK_QUERY_MARKDOWN)
		while (i < b->end && (pg->s[i] == '#' || pg->s[i] == ' '))
			i++;
	for (; i < b->end; i++)
		uk_buf_addch(t, pg->s[i] == '\n' ? ' ' : pg->s[i]);
	while (t->len && t->buf[t->len - 1] == '#')
		uk_buf_setlen(t, t->len - 1);
	uk_buf_trim(t);
	if (t->len > HEADING_MAX)
		uk_buf_setlen(t, uk_buf_utf8_cut(t->buf, HEADING_MAX));
}

/* A new section for heading b (NULL: the text before the first). */
static void
add_section(struct page *pg, const struct block *b, char *stack[7])
{
	struct uk_buf path = UK_BUF_INIT, t = UK_BUF_INIT;
	int l;

	if (b) {
		heading_text(pg, b, &t);
		for (l = b->level; l <= 6; l++) {
			free(stack[l]);
			stack[l] = NULL;
		}
		stack[b->level] = uk_buf_detach(&t, NULL);
		for (l = 1; l <= b->level; l++) {
			if (!stack[l])
				continue;
			if (path.len)
				uk_buf_addstr(&path, " > ");
			uk_buf_addstr(&path, stack[l]);
		}
	}
	pg->sec = uk_util_xrealloc(pg->sec, (pg->nsec + 1) * sizeof(*pg->sec));
	pg->sec[pg->nsec].path = path.len ? uk_buf_detach(&path, NULL) :
					    uk_util_xstrdup("");
	pg->sec[pg->nsec].level = b ? b->level : 0;
	pg->nsec++;
	uk_buf_release(&path);
}

static struct passage *
new_passage(struct page *pg, size_t start, size_t end, size_t head)
{
	struct passage *p;

	pg->p = uk_util_xrealloc(pg->p, (pg->np + 1) * sizeof(*pg->p));
	p = &pg->p[pg->np++];
	memset(p, 0, sizeof(*p));
	p->start = start;
	p->end = end;
	p->head = head;
	p->sec = pg->nsec - 1;
	return p;
}

static size_t
tokens_of(const char *s, size_t n)
{
	return uk_tokens_count(UK_TOKENS_CL100K, s, n);
}

/*
 * Where to cut s[0..n) (more than max tokens) for a piece of at most max
 * tokens: at a line's or sentence's end, else a space, in its second
 * half; at least one character.
 */
static size_t
cut_at(const char *s, size_t n, size_t max)
{
	size_t k = max * 4 < n ? max * 4 : n, i;

	k = uk_buf_utf8_cut(s, k);
	while (k > 1 && tokens_of(s, k) > max)
		k = uk_buf_utf8_cut(s, k - k / 8 - 1);
	for (i = k; i > k / 2; i--)
		if (s[i - 1] == '\n' ||
		    (i < n && s[i] == ' ' && strchr(".!?", s[i - 1])))
			return i;
	for (i = k; i > k / 2; i--)
		if (s[i - 1] == ' ')
			return i;
	if (k == 0)
		k = uk_buf_utf8_seqlen((const unsigned char *)s, n);
	return k ? k : 1;
}

/* Block b of a section added to the passages (cur: the open one). */
static void
add_to_passages(struct page *pg, const struct block *b, struct passage **cur)
{
	size_t t = tokens_of(pg->s + b->start, b->end - b->start), at, k;
	struct passage *p = *cur;

	if (p && p->sec == pg->nsec - 1 &&
	    p->tokens + t + 1 <= UK_QUERY_PASSAGE_TOKENS) {
		p->end = b->end;
		p->tokens += t + 1;
		return;
	}
	if (t <= UK_QUERY_PASSAGE_TOKENS) {
		*cur = new_passage(pg, b->start, b->end,
		    b->level ? b->end - b->start : 0);
		(*cur)->tokens = t;
		return;
	}
	/* Too long alone: cut in pieces. */
	for (at = b->start; at < b->end; at += k) {
		while (at < b->end && (pg->s[at] == ' ' || pg->s[at] == '\n'))
			at++;
		if (at >= b->end)
			break;
		k = b->end - at;
		if (tokens_of(pg->s + at, k) > UK_QUERY_PASSAGE_TOKENS)
			k = cut_at(pg->s + at, k, UK_QUERY_PASSAGE_TOKENS);
		*cur = new_passage(pg, at, at + k, 0);
		(*cur)->tokens = tokens_of(pg->s + at, k);
	}
}

/* The page's sections and passages, each passage's offset in chars. */
static void
split_page(struct page *pg)
{
	char *stack[7] = { NULL };
	struct passage *cur = NULL;
	size_t i, at = 0, chars = 0;
	int l;

	split_blocks(pg);
	if (pg->fmt == UK_QUERY_TEXT)
		text_headings(pg);
	add_section(pg, NULL, stack);
	for (i = 0; i < pg->nb; i++) {
		if (pg->b[i].level) {
			add_section(pg, &pg->b[i], stack);
			cur = NULL;
		}
		add_to_passages(pg, &pg->b[i], &cur);
	}
	for (l = 0; l <= 6; l++)
		free(stack[l]);
	for (i = 0; i < pg->np; i++) {
		chars += uk_buf_utf8_chars(pg->s + at, pg->p[i].start - at);
		at = pg->p[i].start;
		pg->p[i].offset = chars;
		/* Counted whole: the sum of its blocks' is near enough only. */
		pg->p[i].tokens = tokens_of(pg->s + pg->p[i].start,
		    pg->p[i].end - pg->p[i].start);
	}
}

/* Each passage's BM25 score for the question; returns the best. */
static double
score_page(struct page *pg, const char *title, const char *query)
{
	char terms[QUERY_MAX_TERMS][WORD_MAX + 1];
	size_t nt = query_terms(query, terms), i, k, df[QUERY_MAX_TERMS] = { 0 };
	double *tf, *dl, *af, avgdl = 0, best = 0, idf, f, sc;
	double ttf[QUERY_MAX_TERMS] = { 0 }, twords = 0;
	enum answer_kind kind = answer_kind(query);
	size_t adf = 0;
	const char *path;

	if (!nt || !pg->np)
		return 0;
	/* The answer kind's counts, a term of its own. */
	af = uk_util_xcalloc(pg->np, sizeof(*af));
	for (i = 0; kind != ANSWER_NONE && i < pg->np; i++) {
		af[i] = count_answers(pg->s + pg->p[i].start,
		    pg->p[i].end - pg->p[i].start, kind);
		adf += af[i] > 0;
	}
	/* The title's words: the same for every passage, counted once. */
	if (title)
		twords = (double)count_terms(title, strlen(title), terms, nt, 1,
		    ttf);
	tf = uk_util_xcalloc(pg->np * nt, sizeof(*tf));
	dl = uk_util_xcalloc(pg->np, sizeof(*dl));
	for (i = 0; i < pg->np; i++) {
		path = pg->sec[pg->p[i].sec].path;
		dl[i] = (double)count_terms(pg->s + pg->p[i].start,
		    pg->p[i].end - pg->p[i].start, terms, nt, 1, tf + i * nt);
		dl[i] += UK_QUERY_HEADING_WEIGHT *
		    (double)count_terms(path, strlen(path), terms, nt,
			UK_QUERY_HEADING_WEIGHT, tf + i * nt);
		dl[i] += twords;
		avgdl += dl[i];
		for (k = 0; k < nt; k++) {
			tf[i * nt + k] += ttf[k];
			df[k] += tf[i * nt + k] > 0;
		}
	}
	avgdl = avgdl / (double)pg->np;
	if (avgdl <= 0)
		avgdl = 1;
	for (i = 0; i < pg->np; i++) {
		sc = 0;
		for (k = 0; k < nt; k++) {
			if (!(f = tf[i * nt + k]))
				continue;
			idf = log(1 + ((double)pg->np - (double)df[k] + 0.5) /
				((double)df[k] + 0.5));
			sc += idf * f * (BM25_K1 + 1) /
			    (f + BM25_K1 * (1 - BM25_B + BM25_B * dl[i] / avgdl));
		}
		if ((f = af[i]) > 0) {
			idf = log(1 + ((double)pg->np - (double)adf + 0.5) /
				((double)adf + 0.5));
			sc += idf * f * (BM25_K1 + 1) /
			    (f + BM25_K1 * (1 - BM25_B + BM25_B * dl[i] / avgdl));
		}
		pg->p[i].score = sc;
		if (sc > best)
			best = sc;
	}
	free(tf);
	free(dl);
	free(af);
	return best;
}

/* Whether p is a heading alone (a section whose first line is the next
 * heading): never kept on its own, and no loss when left out. */
static int
heading_only(const struct passage *p)
{
	return p->head && p->head >= p->end - p->start;
}

/* Whether any passage of [from, to) other than a heading alone is left. */
static int
left_out(const struct page *pg, size_t from, size_t to)
{
	for (; from < to; from++)
		if (!pg->p[from].kept && !heading_only(&pg->p[from]))
			return 1;
	return 0;
}

/* The heading line for a run of passages that starts with p. */
static void
add_path_line(const struct page *pg, const struct section *sec,
    struct uk_buf *t)
{
	int l;

	if (!*sec->path)
		return;
	if (pg->fmt == UK_QUERY_MARKDOWN) {
		for (l = 0; l < (sec->level ? sec->level : 1); l++)
			uk_buf_addch(t, '#');
		uk_buf_addch(t, ' ');
	}
	uk_buf_addstr(t, sec->path);
	uk_buf_addstr(t, "\n\n");
}

/*
 * The answer of the passages kept into t: each run under its heading
 * path, a mark where passages were left out.  cut: the bytes of the one
 * passage kept to write (0: all).
 */
static void
build_text(const struct page *pg, struct uk_buf *t, size_t cut)
{
	const struct passage *p;
	size_t i, prev = (size_t)-1, start;
	int gap;

	uk_buf_setlen(t, 0);
	for (i = 0; i < pg->np; i++) {
		p = &pg->p[i];
		if (!p->kept)
			continue;
		start = p->start;
		gap = left_out(pg, prev == (size_t)-1 ? 0 : prev + 1, i);
		if (gap) {
			uk_buf_addstr(t, mark);
			uk_buf_addstr(t, "\n\n");
		}
		if (prev == (size_t)-1 || gap || pg->p[prev].sec != p->sec) {
			add_path_line(pg, &pg->sec[p->sec], t);
			if (*pg->sec[p->sec].path)
				start += p->head;
			while (start < p->end && pg->s[start] == '\n')
				start++;
		}
		uk_buf_add(t, pg->s + start,
		    cut && cut < p->end - start ? cut : p->end - start);
		uk_buf_addstr(t, "\n\n");
		prev = i;
	}
	if (prev != (size_t)-1 && left_out(pg, prev + 1, pg->np))
		uk_buf_addstr(t, mark);
	while (t->len && t->buf[t->len - 1] == '\n')
		uk_buf_setlen(t, t->len - 1);
}

/*
 * Order passages: ranked ones by score (ties: page order), then the rest
 * by their distance to the nearest passage kept (ties: the one after it,
 * then page order).
 */
static int
by_near(const void *a, const void *b)
{
	const struct passage *const *x = a, *const *y = b;

	if ((*x)->near != (*y)->near)
		return (*x)->near < (*y)->near ? -1 : 1;
	return (*x)->start < (*y)->start ? -1 : (*x)->start > (*y)->start;
}

/* Each passage's distance to the nearest kept one, 2 * d (+1: before). */
static void
set_near(struct page *pg)
{
	size_t i, last = (size_t)-1;

	for (i = 0; i < pg->np; i++) {
		pg->p[i].near = (size_t)-1;
		if (pg->p[i].kept)
			last = i;
		else if (last != (size_t)-1)
			pg->p[i].near = 2 * (i - last);
	}
	last = (size_t)-1;
	for (i = pg->np; i-- > 0;) {
		if (pg->p[i].kept)
			last = i;
		else if (last != (size_t)-1 && 2 * (last - i) + 1 < pg->p[i].near)
			pg->p[i].near = 2 * (last - i) + 1;
	}
}

/*
 * A passage's cost at most, once kept: its tokens, its heading path's
 * line, a mark on each side and the blank lines between.  Concatenated
 * text counts no more than its parts do (a token never spans the blank
 * line between two of them) but for a few tokens at each seam: SEAM.
 */
#define SEAM 8

/*
 * Try ord[0..n) in order, keeping each that lets the answer fit in max
 * tokens, up to 32 misses in a row (stop: at the first).  *cur is the
 * answer's tokens so far, at most: a passage whose cost at most fits is
 * kept uncounted; near the budget the answer is built and counted, and
 * *cur is then exact.  (Building and counting at every step cost the
 * square of the page's size.)  Returns how many were kept.
 */
static size_t
keep_fitting(struct page *pg, struct passage **ord, size_t n, size_t max,
    int stop, struct uk_buf *t, size_t *cur)
{
	size_t i, kept = 0, misses = 0, est, exact;

	for (i = 0; i < n && misses < 32; i++) {
		if (heading_only(ord[i]))
			continue;
		ord[i]->kept = 1;
		est = *cur + ord[i]->tokens + pg->sec[ord[i]->sec].ptok + SEAM;
		if (est <= max) {
			*cur = est;
			kept++;
			misses = 0;
			continue;
		}
		build_text(pg, t, 0);
		if ((exact = tokens_of(t->buf, t->len)) <= max) {
			*cur = exact;
			kept++;
			misses = 0;
			continue;
		}
		ord[i]->kept = 0;
		if (stop)
			break;
		misses++;
	}
	return kept;
}

/*
 * The answer of the passages kept into t, at most max tokens: should the
 * seams count more than SEAM allows, the last kept in ord's order go.
 */
static size_t
fit_text(struct page *pg, struct passage **ord, size_t n, size_t max,
    struct uk_buf *t)
{
	size_t i = pg->np;

	build_text(pg, t, 0);
	while (n > 1 && tokens_of(t->buf, t->len) > max) {
		while (i > 0 && !ord[i - 1]->kept)
			i--;
		ord[--i]->kept = 0;
		n--;
		build_text(pg, t, 0);
	}
	return n;
}

static int
by_score(const void *a, const void *b)
{
	const struct passage *const *x = a, *const *y = b;

	if ((*x)->score != (*y)->score)
		return (*x)->score < (*y)->score ? 1 : -1;
	return (*x)->start < (*y)->start ? -1 : (*x)->start > (*y)->start;
}

/*
 * Keep passages in order while the answer fits max tokens; none fitting,
 * the first one cut to fit.  The answer into t.
 */
static void
choose(struct page *pg, size_t max, struct uk_buf *t)
{
	struct passage **ord = uk_util_xcalloc(pg->np, sizeof(*ord));
	size_t i, n = 0, cut, next, nscored = 0, cur = 0;
	struct uk_buf line = UK_BUF_INIT;
	const char *s;

	for (i = 0; i < pg->np; i++) {
		ord[i] = &pg->p[i];
		nscored += pg->p[i].score > 0;
	}
	for (i = 0; i < pg->nsec; i++) {
		uk_buf_setlen(&line, 0);
		add_path_line(pg, &pg->sec[i], &line);
		pg->sec[i].ptok = tokens_of(line.buf, line.len);
	}
	uk_buf_release(&line);
	if (nscored) {
		qsort(ord, pg->np, sizeof(*ord), by_score);
		n = keep_fitting(pg, ord, nscored, max, 0, t, &cur);
		/* Budget left: the neighbours of what was kept. */
		if (n) {
			set_near(pg);
			qsort(ord + nscored, pg->np - nscored, sizeof(*ord),
			    by_near);
			n += keep_fitting(pg, ord + nscored, pg->np - nscored,
			    max, 1, t, &cur);
		}
	} else {
		/* No hit: the page's start, as far as it fits. */
		n = keep_fitting(pg, ord, pg->np, max, 1, t, &cur);
	}
	if (n)
		n = fit_text(pg, ord, n, max, t);
	if (!n && pg->np) {
		/* Not one passage fits: the best, cut shorter until it does. */
		ord[0]->kept = 1;
		s = pg->s + ord[0]->start;
		cut = ord[0]->end - ord[0]->start;
		for (;;) {
			build_text(pg, t, cut);
			if (tokens_of(t->buf, t->len) <= max || cut <= 1)
				break;
			next = cut_at(s, cut, tokens_of(s, cut) * 7 / 8 + 1);
			if (next >= cut)
				next = uk_buf_utf8_cut(s, cut - 1);
			if (!next)
				break;
			cut = next;
		}
		ord[0]->end = ord[0]->start + cut;
		ord[0]->tokens = tokens_of(s, cut);
		if (tokens_of(t->buf, t->len) > max) {
			/* A budget too small for the marks alone. */
			uk_buf_setlen(t, 0);
			ord[0]->kept = 0;
		}
	}
	free(ord);
}

static void
page_release(struct page *pg)
{
	size_t i;

	for (i = 0; i < pg->nsec; i++)
		free(pg->sec[i].path);
	free(pg->sec);
	free(pg->b);
	free(pg->p);
}

size_t
uk_query_answer(const char *content, size_t len, const char *title,
    const char *query, size_t max_tokens, enum uk_query_format fmt,
    struct uk_query_result *r)
{
	struct page pg;
	struct uk_query_section *q;
	size_t i, total;

	memset(r, 0, sizeof(*r));
	uk_buf_init(&r->text, 0);
	memset(&pg, 0, sizeof(pg));
	pg.s = content ? content : "";
	pg.len = content ? len : 0;
	pg.fmt = fmt;
	if (!max_tokens)
		max_tokens = 1;
	split_page(&pg);
	score_page(&pg, title, query);
	total = tokens_of(pg.s, pg.len);
	if (total <= max_tokens) {
		uk_buf_add(&r->text, pg.s, pg.len);
		for (i = 0; i < pg.np; i++)
			pg.p[i].kept = 1;
		r->whole = 1;
	} else {
		choose(&pg, max_tokens, &r->text);
	}
	r->tokens = r->whole ? total : tokens_of(r->text.buf, r->text.len);
	r->npassages = pg.np;
	for (i = 0; i < pg.np; i++) {
		if (!pg.p[i].kept)
			continue;
		r->sections = uk_util_xrealloc(r->sections,
		    (r->nsections + 1) * sizeof(*r->sections));
		q = &r->sections[r->nsections++];
		q->heading = uk_util_xstrdup(pg.sec[pg.p[i].sec].path);
		q->offset = pg.p[i].offset;
		q->length = uk_buf_utf8_chars(pg.s + pg.p[i].start,
		    pg.p[i].end - pg.p[i].start);
		q->tokens = pg.p[i].tokens;
		q->score = pg.p[i].score;
	}
	page_release(&pg);
	return r->nsections;
}

void
uk_query_result_release(struct uk_query_result *r)
{
	size_t i;

	for (i = 0; i < r->nsections; i++)
		free(r->sections[i].heading);
	free(r->sections);
	uk_buf_release(&r->text);
	memset(r, 0, sizeof(*r));
	uk_buf_init(&r->text, 0);
}

size_t
uk_query_record(yajl_val rec, const char *query, size_t max_tokens)
{
	struct uk_query_result r;
	const char *s, *fmt = uk_json_get_str(rec, "format");
	yajl_val a, o;
	char num[32];
	size_t n, i, kept;

	if (!(s = uk_json_get_strn(rec, "content", &n)))
		return 0;
	kept = uk_query_answer(s, n, uk_json_get_str(rec, "title"), query,
	    max_tokens,
	    fmt && !strcmp(fmt, "markdown") ? UK_QUERY_MARKDOWN :
					      UK_QUERY_TEXT,
	    &r);
	uk_json_set_int(rec, "total_length",
	    (long long)uk_buf_utf8_chars(s, n));
	a = uk_json_array();
	for (i = 0; i < r.nsections; i++) {
		o = uk_json_object();
		uk_json_set(o, "heading",
		    uk_json_str_or_null(*r.sections[i].heading ?
			    r.sections[i].heading : NULL));
		uk_json_set_int(o, "offset", (long long)r.sections[i].offset);
		uk_json_set_int(o, "tokens", (long long)r.sections[i].tokens);
		snprintf(num, sizeof(num), "%.3f", r.sections[i].score);
		uk_json_set(o, "score", uk_json_num(num));
		uk_json_push(a, o);
	}
	uk_json_set(rec, "content", uk_json_strn(r.text.buf, r.text.len));
	uk_json_set_str(rec, "query", query ? query : "");
	uk_json_set(rec, "sections", a);
	uk_query_result_release(&r);
	return kept;
}
