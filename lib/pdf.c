/* SPDX-License-Identifier: MIT */
/*
 * PDF documents (see uk_pdf_extract in extract.h), read with poppler's
 * GLib library.
 *
 * The library is loaded with dlopen at the first PDF, not linked: it
 * pulls in about fifty shared libraries (cairo, fontconfig, freetype,
 * glib...), and linking them made every start of `urlfetch --extract
 * page.html` about ten times slower (8 ms to 83 ms at best, measured
 * with hyperfine), for a route that mostly reads HTML.  The headers
 * still give each pointer its exact type (__typeof__).
 *
 * Each document is read in a child process: poppler's parsers meet
 * hostile input, and a crash or an endless loop there must not take the
 * whole run with it.  The child reads pages until the page limit or the
 * time limit, then sends its fields back through a pipe; the parent kills
 * it when it overstays the time limit by KILL_GRACE_MS.  Poppler's own
 * complaints about damaged files go to the child's /dev/null, not to the
 * user's standard error.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <poppler.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "child.h"
#include "extract.h"
#include "extract_int.h"
#include "extract_md.h"
#include "util.h"
#include "banned.h"

#define DEFAULT_MAX_PAGES 200
#define DEFAULT_TIMEOUT_MS 30000
#define KILL_GRACE_MS 5000
/* Memory the reader may take beyond what the process had (1 GiB). */
#define MEMORY_MAX (1ULL << 30)
/* Text sent back by the child at most (about 30 000 dense pages). */
#define TEXT_MAX (64UL << 20)

/*
 * The library's soname: 8 since poppler 0.x; the unversioned name (the
 * -dev package's link) is the fallback for a later soname bump.
 */
static const char *const sonames[] = { "libpoppler-glib.so.8",
	"libpoppler-glib.so", NULL };

#define FN(name) __typeof__(name) *name
static struct {
	FN(poppler_document_new_from_bytes);
	FN(poppler_document_get_n_pages);
	FN(poppler_document_get_page);
	FN(poppler_document_get_title);
	FN(poppler_document_get_author);
	FN(poppler_document_get_subject);
	FN(poppler_document_get_keywords);
	FN(poppler_document_get_creation_date);
	FN(poppler_page_get_text);
	FN(poppler_page_get_text_layout);
	FN(poppler_page_get_image_mapping);
	FN(poppler_page_free_image_mapping);
	FN(poppler_error_quark);
	FN(g_bytes_new_static);
	FN(g_bytes_unref);
	FN(g_object_unref);
	FN(g_free);
	FN(g_error_free);
} pp;
#undef FN

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded; /* 1: every symbol found */
static char load_err[256];

static void
load(void)
{
	void *h = NULL;
	int i;

	for (i = 0; sonames[i] && !h; i++)
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(load_err, sizeof(load_err),
		    "cannot read PDF documents: %s (install libpoppler-glib8)",
		    dlerror());
		return;
	}
#define SYM(name)                                                            \
	do {                                                                 \
		*(void **)&pp.name = dlsym(h, #name);                        \
		if (!pp.name) {                                              \
			snprintf(load_err, sizeof(load_err),                 \
			    "cannot read PDF documents: no %s in %s", #name, \
			    sonames[i - 1]);                                 \
			return;                                              \
		}                                                            \
	} while (0)
	SYM(poppler_document_new_from_bytes);
	SYM(poppler_document_get_n_pages);
	SYM(poppler_document_get_page);
	SYM(poppler_document_get_title);
	SYM(poppler_document_get_author);
	SYM(poppler_document_get_subject);
	SYM(poppler_document_get_keywords);
	SYM(poppler_document_get_creation_date);
	SYM(poppler_page_get_text);
	SYM(poppler_page_get_text_layout);
	SYM(poppler_page_get_image_mapping);
	SYM(poppler_page_free_image_mapping);
	SYM(poppler_error_quark);
	SYM(g_bytes_new_static);
	SYM(g_bytes_unref);
	SYM(g_object_unref);
	SYM(g_free);
	SYM(g_error_free);
#undef SYM
	loaded = 1;
}

int
uk_pdf_sniff(const char *buf, size_t len)
{
	return len >= 5 && !memcmp(buf, "%PDF-", 5);
}

/* One line of a page's text and the box around its characters. */
struct line {
	const char *s; /* into the page's text, not NUL-terminated */
	size_t len;
	double x1, y1, x2, y2;
};

static int
is_space_line(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Split a page's text into lines with their boxes.  The layout has one
 * rectangle per character of the text (not per byte), line breaks
 * included.
 */
static struct line *
page_lines(const char *text, const PopplerRectangle *r, unsigned nr,
    size_t *nlines)
{
	struct line *l = NULL, cur;
	size_t n = 0, alloc = 0, i = 0, start = 0;
	unsigned ci = 0;
	int have = 0;

	memset(&cur, 0, sizeof(cur));
	for (;;) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n' || !c) {
			if (!is_space_line(text + start, i - start)) {
				if (n == alloc) {
					alloc = alloc ? alloc * 2 : 64;
					l = uk_util_xrealloc(l,
					    alloc * sizeof(*l));
				}
				cur.s = text + start;
				cur.len = i - start;
				if (!have)
					cur.x1 = cur.y1 = cur.x2 = cur.y2 = 0;
				l[n++] = cur;
			}
			if (!c)
				break;
			i++;
			ci++;
			start = i;
			have = 0;
			continue;
		}
		if (ci < nr && c != ' ') {
			const PopplerRectangle *b = &r[ci];

			if (!have) {
				cur.x1 = b->x1;
				cur.y1 = b->y1;
				cur.x2 = b->x2;
				cur.y2 = b->y2;
				have = 1;
			}
			if (b->x1 < cur.x1)
				cur.x1 = b->x1;
			if (b->y1 < cur.y1)
				cur.y1 = b->y1;
			if (b->x2 > cur.x2)
				cur.x2 = b->x2;
			if (b->y2 > cur.y2)
				cur.y2 = b->y2;
		}
		/* The next character: skip UTF-8 continuation bytes. */
		i++;
		while ((text[i] & 0xc0) == 0x80)
			i++;
		ci++;
	}
	*nlines = n;
	return l;
}

static int
ends_sentence(const struct line *l)
{
	size_t n = l->len;

	while (n && l->s[n - 1] == ' ')
		n--;
	return n && strchr(".!?:;\"')", l->s[n - 1]) != NULL;
}

/*
 * The most common line height among a page's first 64 lines: the body's
 * size, against which a heading is judged.
 */
static double
common_height(const struct line *l, size_t n)
{
	double common = 0;
	size_t i, j, best = 0, k;

	for (i = 0; i < n && i < 64; i++) {
		double h = l[i].y2 - l[i].y1;

		k = 0;
		for (j = 0; j < n && j < 64; j++) {
			double d = l[j].y2 - l[j].y1 - h;

			if (d < 0.5 && d > -0.5)
				k++;
		}
		if (k > best) {
			best = k;
			common = h;
		}
	}
	return common;
}

/* Whether a line is set larger than the page's body: heading-like. */
static int
is_big(const struct line *l, double common)
{
	return l->y2 - l->y1 > common * 1.2;
}

/* A heading of Markdown up to HEADING_MAX bytes; a longer one is text. */
#define HEADING_MAX 200

/* Insert c at b->buf[pos]. */
static void
insert_ch(struct uk_buf *b, size_t pos, char c)
{
	uk_buf_addch(b, c);
	memmove(b->buf + pos + 1, b->buf + pos, b->len - pos - 1);
	b->buf[pos] = c;
}

/*
 * Make the paragraph b->buf[start..] Markdown: "## " before it when it is
 * heading-like (set larger than the body, short, one paragraph), else the
 * first word escaped where it would read as syntax at a line's start
 * (uk_ex_md_syntax, as for HTML).  A paragraph that runs on from the
 * page before (not at a line's start) is left as it is.
 */
static void
md_paragraph(struct uk_buf *b, size_t start, int big)
{
	size_t n, w;

	uk_extract_md_escape(b, start);
	if (start > 0 && b->buf[start - 1] != '\n')
		return;
	n = b->len - start;
	if (!n)
		return;
	if (big && n <= HEADING_MAX) {
		/* A closing run of '#' after a space would be dropped. */
		w = b->len;
		while (w > start && b->buf[w - 1] == '#')
			w--;
		if (w < b->len && w > start && b->buf[w - 1] == ' ')
			insert_ch(b, w, '\\');
		n = b->len - start;
		uk_buf_add(b, "## ", 3);
		memmove(b->buf + start + 3, b->buf + start, n);
		memcpy(b->buf + start, "## ", 3);
		return;
	}
	for (w = start; w < b->len && b->buf[w] != ' '; w++)
		;
	if ((w = uk_ex_md_syntax(b->buf + start, w - start)))
		insert_ch(b, start + w - 1, '\\');
}

/*
 * Append the page's lines to b as paragraphs.  A new paragraph starts
 * where the gap above a line is larger than half a line, where the text
 * size changes by a fifth (a heading and its body), or after a line
 * that ends a sentence well short of the page's widest line.  Lines of
 * one paragraph are joined with a space; a word hyphenated across two
 * lines is joined whole.  With md, each paragraph as Markdown
 * (md_paragraph).
 */
static void
add_paragraphs(struct uk_buf *b, const struct line *l, size_t n, int md)
{
	double width = 0, common = md ? common_height(l, n) : 0;
	size_t i, start = b->len;
	int big = n && md && is_big(&l[0], common);

	/* A paragraph that runs on from the last page starts there. */
	if (md && start && b->buf[start - 1] != '\n') {
		while (start && b->buf[start - 1] != '\n')
			start--;
		big = 0;
	}
	for (i = 0; i < n; i++)
		if (l[i].x2 - l[i].x1 > width)
			width = l[i].x2 - l[i].x1;
	for (i = 0; i < n; i++) {
		const char *s = l[i].s;
		size_t len = l[i].len;

		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\r'))
			len--;
		if (i > 0) {
			const struct line *p = &l[i - 1];
			double hp = p->y2 - p->y1, hc = l[i].y2 - l[i].y1;
			double h = hp < hc ? hp : hc;
			double gap = l[i].y1 - p->y2;
			int para = h > 0 && (gap > h * 0.5 || gap < -h * 3 ||
						hc > hp * 1.2 || hp > hc * 1.2);

			if (!para && ends_sentence(p) &&
			    p->x2 - p->x1 < width * 0.8)
				para = 1;
			if (para) {
				if (md)
					md_paragraph(b, start, big);
				uk_buf_addstr(b, "\n\n");
				start = b->len;
				big = md && is_big(&l[i], common);
			} else if (b->len >= 2 && b->buf[b->len - 1] == '-' &&
			    isalpha((unsigned char)b->buf[b->len - 2]) &&
			    len && islower((unsigned char)*s)) {
				uk_buf_setlen(b, b->len - 1);
			} else {
				uk_buf_addch(b, ' ');
			}
		}
		uk_buf_add(b, s, len);
	}
	if (md && n)
		md_paragraph(b, start, big);
}

/* Whether a line is only a number of 1 to 4 digits (a page number). */
static int
is_number_line(const struct line *l)
{
	size_t i, d = 0;

	for (i = 0; i < l->len; i++) {
		if (isdigit((unsigned char)l->s[i]))
			d++;
		else if (l->s[i] != ' ' && l->s[i] != '\t')
			return 0;
	}
	return d >= 1 && d <= 4;
}

/* Drop a page number printed as the first or last line of a page. */
static void
drop_page_numbers(struct line *l, size_t *n)
{
	if (*n > 1 && is_number_line(&l[*n - 1]))
		(*n)--;
	if (*n > 1 && is_number_line(&l[0])) {
		memmove(l, l + 1, (*n - 1) * sizeof(*l));
		(*n)--;
	}
}

/*
 * Between two pages: a blank line, unless the paragraph runs on (the
 * page ends without a sentence's end and the next starts in lower case).
 */
static void
page_break(struct uk_buf *b, const struct line *first)
{
	const char *s = first->s;
	char last;

	while (*s == ' ' || *s == '\t')
		s++;
	last = b->len ? b->buf[b->len - 1] : '.';
	if (!strchr(".!?:;\"')]", last) && islower((unsigned char)*s)) {
		if (last == '-' && b->len >= 2 &&
		    isalpha((unsigned char)b->buf[b->len - 2]))
			uk_buf_setlen(b, b->len - 1);
		else
			uk_buf_addch(b, ' ');
		return;
	}
	uk_buf_addstr(b, "\n\n");
}

/*
 * The first heading-like line of the first page: the first of its first
 * lines set larger than the page's most common size, else its first line
 * when it is short and does not read as a sentence.
 */
static char *
heading(const struct line *l, size_t n)
{
	double common;
	size_t i;

	if (!n)
		return NULL;
	common = common_height(l, n);
	for (i = 0; i < n && i < 10; i++)
		if (is_big(&l[i], common) && l[i].len <= 200)
			return uk_util_xmemdup(l[i].s, l[i].len);
	if (l[0].len <= 100 && !ends_sentence(&l[0]) &&
	    l[0].s[l[0].len - 1] != ',')
		return uk_util_xmemdup(l[0].s, l[0].len);
	return NULL;
}

/* Whether an info title is only a file name or a placeholder. */
static int
useless_title(const char *t)
{
	static const char *const ends[] = { ".doc", ".docx", ".pdf", ".tex",
		".dvi", ".odt", ".rtf", ".ps", ".indd", NULL };
	size_t n = strlen(t), k;

	if (!n || !strcasecmp(t, "untitled") || !strncmp(t, "Microsoft ", 10))
		return 1;
	for (k = 0; ends[k]; k++) {
		size_t e = strlen(ends[k]);

		if (n > e && !strcasecmp(t + n - e, ends[k]))
			return 1;
	}
	return 0;
}

/* Add s and its NUL to the child's answer (NULL: empty). */
static void
put(struct uk_buf *b, const char *s)
{
	if (s) {
		size_t n = strlen(s);

		uk_buf_add_utf8(b, s, n);
	}
	uk_buf_addch(b, '\0');
}

static void
put_g(struct uk_buf *b, char *s)
{
	put(b, s);
	if (s)
		pp.g_free(s);
}

enum { A_ERROR, A_TITLE, A_AUTHOR, A_DATE, A_SUBJECT, A_KEYWORDS,
	A_HEADING, A_PAGES, A_READ, A_TRUNCATED, A_TEXT, A_N };

/* The answer's error for a document poppler cannot open. */
static void
put_open_error(struct uk_buf *ans, const GError *gerr)
{
	struct uk_buf m = UK_BUF_INIT;

	if (gerr && gerr->domain == pp.poppler_error_quark() &&
	    gerr->code == POPPLER_ERROR_ENCRYPTED)
		uk_buf_addstr(&m, "encrypted PDF: it needs a password");
	else if (gerr && gerr->message && !strcasestr(gerr->message, "damaged"))
		uk_buf_addf(&m, "damaged PDF: %s", gerr->message);
	else
		uk_buf_addstr(&m, "damaged PDF: it cannot be read");
	put(ans, m.buf);
	uk_buf_release(&m);
}

/*
 * The text of doc's n pages into text, until max_pages, the deadline or
 * TEXT_MAX: the index of the first page left out, or -1 when none was.
 * *head gets the first page's heading (allocated, or NULL), *images the
 * pages without text that hold an image.
 */
static int
read_pages(PopplerDocument *doc, int n, int max_pages, long long deadline,
    int md, struct uk_buf *text, char **head, int *images)
{
	int k;

	for (k = 0; k < n; k++) {
		PopplerPage *page;
		PopplerRectangle *r = NULL;
		guint nr = 0;
		struct line *l;
		size_t nl = 0, before;
		char *s;

		if (k >= max_pages || uk_util_mono_ms() > deadline ||
		    text->len > TEXT_MAX)
			return k;
		page = pp.poppler_document_get_page(doc, k);
		if (!page)
			continue;
		s = pp.poppler_page_get_text(page);
		if (!s || !pp.poppler_page_get_text_layout(page, &r, &nr))
			nr = 0;
		l = s ? page_lines(s, r, nr, &nl) : NULL;
		drop_page_numbers(l, &nl);
		before = text->len;
		if (nl && text->len)
			page_break(text, &l[0]);
		add_paragraphs(text, l, nl, md);
		if (k == 0)
			*head = heading(l, nl);
		if (text->len == before) {
			GList *im = pp.poppler_page_get_image_mapping(page);

			if (im) {
				(*images)++;
				pp.poppler_page_free_image_mapping(im);
			}
		}
		free(l);
		pp.g_free(r);
		pp.g_free(s);
		pp.g_object_unref(page);
	}
	return -1;
}

/*
 * doc's creation date in RFC 3339 into date, or "".  Poppler turns any
 * digits into a time: D:99999999999999+99'99' is the year 10007.  RFC
 * 3339 has four-digit years, 1 to 9999; a date outside them is the
 * file's nonsense, dropped.
 */
static void
creation_date(PopplerDocument *doc, char *date, size_t size)
{
	time_t t = pp.poppler_document_get_creation_date(doc);
	struct tm tm;

	date[0] = '\0';
	if (t > 0 && gmtime_r(&t, &tm) && tm.tm_year >= 1 - 1900 &&
	    tm.tm_year <= 9999 - 1900)
		strftime(date, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * The child's work: read the document and write A_N NUL-terminated
 * fields to fd (A_ERROR empty on success).
 */
static void
read_document(const char *pdf, size_t len, int max_pages, long long deadline,
    int timeout_s, int md, struct uk_buf *ans)
{
	struct uk_buf text = UK_BUF_INIT;
	PopplerDocument *doc;
	GError *gerr = NULL;
	GBytes *bytes;
	char date[64], num[32], *head = NULL, *why = NULL;
	int n, images = 0, cut;

	bytes = pp.g_bytes_new_static(pdf, len);
	doc = pp.poppler_document_new_from_bytes(bytes, NULL, &gerr);
	if (!doc) {
		put_open_error(ans, gerr);
		if (gerr)
			pp.g_error_free(gerr);
		pp.g_bytes_unref(bytes);
		return;
	}
	n = pp.poppler_document_get_n_pages(doc);
	if (n <= 0) {
		put(ans, "damaged PDF: no pages");
		goto out;
	}
	cut = read_pages(doc, n, max_pages, deadline, md, &text, &head,
	    &images);
	uk_buf_trim(&text);
	if (cut == 0) {
		struct uk_buf m = UK_BUF_INIT;

		uk_buf_addf(&m, "PDF not read within the time limit of %d s",
		    timeout_s);
		put(ans, m.buf);
		uk_buf_release(&m);
		goto out;
	}
	if (!text.len) {
		why = images ? "image-only PDF: no text layer (a scan?)" :
			       "PDF holds no text";
		put(ans, why);
		goto out;
	}
	if (cut > 0)
		uk_buf_addf(&text, "\n\n[pages %d to %d left out: the %s]",
		    cut + 1, n, cut >= max_pages ? "page limit" : "time limit");
	creation_date(doc, date, sizeof(date));
	put(ans, "");
	put_g(ans, pp.poppler_document_get_title(doc));
	put_g(ans, pp.poppler_document_get_author(doc));
	put(ans, date[0] ? date : NULL);
	put_g(ans, pp.poppler_document_get_subject(doc));
	put_g(ans, pp.poppler_document_get_keywords(doc));
	put(ans, head);
	snprintf(num, sizeof(num), "%d", n);
	put(ans, num);
	snprintf(num, sizeof(num), "%d", cut > 0 ? cut : n);
	put(ans, num);
	put(ans, cut > 0 ? "1" : "");
	put(ans, text.buf);
out:
	free(head);
	uk_buf_release(&text);
	pp.g_object_unref(doc);
	pp.g_bytes_unref(bytes);
}

/*
 * Bound the child's memory: RLIMIT_DATA (private writable memory, where
 * poppler's heap lives) at what the process has now plus MEMORY_MAX, so
 * that a decompression bomb fails the reader, not the machine.  Not under
 * AddressSanitizer, whose shadow memory alone is terabytes of it.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UK_ASAN 1
#endif
#endif

static void
limit_memory(void)
{
#ifndef UK_ASAN
	unsigned long size, res, shared, text, lib, data;
	struct rlimit rl;
	FILE *f = fopen("/proc/self/statm", "r");
	int n;

	if (!f)
		return;
	n = fscanf(f, "%lu %lu %lu %lu %lu %lu", &size, &res, &shared, &text,
	    &lib, &data);
	fclose(f);
	if (n != 6)
		return;
	rl.rlim_cur = rl.rlim_max = (rlim_t)data *
		(rlim_t)sysconf(_SC_PAGESIZE) + MEMORY_MAX;
	setrlimit(RLIMIT_DATA, &rl);
#endif
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		p += w;
		n -= (size_t)w;
	}
}

/* Strip and collapse white space (extract's squeeze); NULL for nothing. */
static char *
clean(const char *s)
{
	struct uk_buf b = UK_BUF_INIT;
	int sp = 0;

	if (s)
		uk_ex_squeeze(&b, s, &sp, 0, SIZE_MAX);
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

/* Keywords as tags: split on commas and semicolons, duplicates dropped. */
static void
set_tags(struct uk_extract *x, const char *kw)
{
	const char *p = kw, *e;
	size_t k;

	while (p && *p) {
		char *t, *part;

		e = p + strcspn(p, ",;");
		part = uk_util_xmemdup(p, (size_t)(e - p));
		t = clean(part);
		free(part);
		for (k = 0; t && k < x->ntags; k++)
			if (!strcasecmp(x->tags[k], t))
				break;
		if (t && k == x->ntags && x->ntags < 64) {
			x->tags = uk_util_xrealloc(x->tags,
			    (x->ntags + 1) * sizeof(*x->tags));
			x->tags[x->ntags++] = t;
		} else {
			free(t);
		}
		p = *e ? e + 1 : e;
	}
}

/*
 * The Markdown text: the title as "# title" first.  When the text opens
 * with the heading the title was taken from ("## " and the title), that
 * heading becomes the "# " one rather than being said twice.
 */
static char *
md_text(const char *rawtitle, const char *text)
{
	struct uk_buf b = UK_BUF_INIT, tb = UK_BUF_INIT;
	const char *title;
	size_t n;

	if (!rawtitle || !*rawtitle)
		return uk_util_xstrdup(text);
	/* Escaped as the text's paragraphs are (md_paragraph). */
	uk_buf_addstr(&tb, rawtitle);
	uk_extract_md_escape(&tb, 0);
	title = tb.buf;
	n = tb.len;
	if (!strncmp(text, "## ", 3) && !strncmp(text + 3, title, n) &&
	    (!text[3 + n] || text[3 + n] == '\n' || text[3 + n] == ' ' ||
		text[3 + n] == '\\')) {
		uk_buf_addstr(&b, text + 1);
	} else {
		uk_buf_addstr(&b, "# ");
		uk_buf_add(&b, title, n);
		/* A closing run of '#' after a space would be dropped. */
		if (title[n - 1] == '#') {
			size_t w = b.len;

			while (b.buf[w - 1] == '#')
				w--;
			if (b.buf[w - 1] == ' ') {
				uk_buf_addch(&b, '#');
				b.buf[w] = '\\';
			}
		}
		uk_buf_addstr(&b, "\n\n");
		uk_buf_addstr(&b, text);
	}
	uk_buf_release(&tb);
	return uk_buf_detach(&b, NULL);
}

/*
 * Fill x from a reader's answer ans: A_N NUL-terminated fields; with md,
 * the text is Markdown.
 */
static int
answer_fill(const struct uk_buf *ans, int md, struct uk_extract *x,
    struct uk_err *err)
{
	const char *f[A_N];
	size_t pos;
	int i;

	for (i = 0, pos = 0; i < A_N && pos < ans->len; i++) {
		f[i] = ans->buf + pos;
		pos += strlen(f[i]) + 1;
	}
	if (i < 1)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "damaged PDF: the reader gave no answer");
	if (*f[A_ERROR])
		return uk_util_err_set(err, UK_EXIT_FAIL, "%s", f[A_ERROR]);
	if (i < A_N)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "damaged PDF: the reader gave no answer");
	x->title = clean(f[A_TITLE]);
	if (x->title && useless_title(x->title)) {
		free(x->title);
		x->title = NULL;
	}
	if (!x->title)
		x->title = clean(f[A_HEADING]);
	x->author = clean(f[A_AUTHOR]);
	x->date = clean(f[A_DATE]);
	x->description = clean(f[A_SUBJECT]);
	set_tags(x, f[A_KEYWORDS]);
	x->pages = atoi(f[A_PAGES]);
	x->truncated = *f[A_TRUNCATED] != '\0';
	if (md) {
		x->format = "markdown";
		x->text = md_text(x->title, f[A_TEXT]);
	} else {
		x->text = uk_util_xstrdup(f[A_TEXT]);
	}
	return 0;
}

/* How a PDF is read: the options' limits, or the defaults. */
struct limits {
	int max_pages, timeout_ms, md;
};

/*
 * What both ways of reading do first: x emptied, the limits from o (NULL:
 * the defaults), the PDF's header and the library checked.  0, or -1 with
 * err.
 */
static int
pdf_begin(const char *pdf, size_t len, const struct uk_extract_opts *o,
    struct limits *l, struct uk_extract *x, struct uk_err *err)
{
	l->max_pages = o && o->max_pages > 0 ? o->max_pages : DEFAULT_MAX_PAGES;
	l->timeout_ms = o && o->timeout_ms > 0 ? o->timeout_ms :
						 DEFAULT_TIMEOUT_MS;
	l->md = o && o->format == UK_EXTRACT_MARKDOWN;
	memset(x, 0, sizeof(*x));
	x->format = "text";
	if (!uk_pdf_sniff(pdf, len))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "damaged PDF: it does not start with %%PDF-");
	pthread_once(&load_once, load);
	if (!loaded)
		return uk_util_err_set(err, UK_EXIT_FAIL, "%s", load_err);
	return 0;
}

int
uk_pdf_extract(const char *pdf, size_t len, const char *url,
    const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err)
{
	struct uk_buf ans = UK_BUF_INIT;
	struct limits l;
	long long start = uk_util_mono_ms(), kill_at;
	int fds[2] = { -1, -1 }, status = 0, ret = -1, done = 0, timeout;
	pid_t pid;

	(void)url;
	if (pdf_begin(pdf, len, o, &l, x, err) < 0)
		return -1;
	timeout = l.timeout_ms;
	kill_at = start + timeout + KILL_GRACE_MS;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return uk_util_err_set(err, UK_EXIT_FAIL, "pipe: %s",
		    strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		uk_util_err_set(err, UK_EXIT_FAIL, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 2);
		close(fds[0]);
		fds[1] = uk_child_keep_fd(fds[1]);
		limit_memory();
		read_document(pdf, len, l.max_pages, start + timeout,
		    (timeout + 999) / 1000, l.md, &ans);
		write_all(fds[1], ans.buf, ans.len);
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd p = { fds[0], POLLIN, 0 };
		long long left = kill_at - uk_util_mono_ms();
		ssize_t r;

		if (left <= 0)
			break;
		r = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		uk_buf_grow(&ans, 65536);
		r = read(fds[0], ans.buf + ans.len, ans.alloc - ans.len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			done = r == 0;
			break;
		}
		uk_buf_setlen(&ans, ans.len + (size_t)r);
		if (ans.len > TEXT_MAX + (1 << 20))
			break;
	}
	close(fds[0]);
	if (!done)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!done && uk_util_mono_ms() >= kill_at) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "PDF not read within the time limit of %d s",
		    (timeout + 999) / 1000);
		goto out;
	}
	if (!ans.len || !done || (WIFSIGNALED(status))) {
		uk_util_err_set(err, UK_EXIT_FAIL, "damaged PDF: the reader %s",
		    WIFSIGNALED(status) ? "crashed on it (or ran out of its "
					  "1 GiB of memory)" :
					  "gave no answer");
		goto out;
	}
	ret = answer_fill(&ans, l.md, x, err);
out:
	uk_buf_release(&ans);
	return ret;
}

int
uk_pdf_extract_here(const char *pdf, size_t len,
    const struct uk_extract_opts *o, struct uk_extract *x,
    struct uk_err *err)
{
	struct uk_buf ans = UK_BUF_INIT;
	struct limits l;
	int ret;

	if (pdf_begin(pdf, len, o, &l, x, err) < 0)
		return -1;
	read_document(pdf, len, l.max_pages, uk_util_mono_ms() + l.timeout_ms,
	    (l.timeout_ms + 999) / 1000, l.md, &ans);
	ret = answer_fill(&ans, l.md, x, err);
	uk_buf_release(&ans);
	return ret;
}
