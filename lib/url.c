/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "url.h"
#include "buf.h"
#include "json.h"
#include "banned.h"

/* uk_url_view splits URLs up to this long by hand (urldetect's longest). */
#define UK_URL_FAST_MAX 65536

static const char *const type_names[] = {
	"github_repo", "github_file", "github_issue", "github_pr",
	"documentation", "web", "unknown",
};

const char *
uk_url_type_name(enum uk_url_type t)
{
	return type_names[t];
}

int
uk_url_type_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(*type_names); i++)
		if (!strcmp(s, type_names[i]))
			return (int)i;
	return -1;
}

void
uk_url_release(struct uk_url *u)
{
	free(u->scheme);
	free(u->host);
	free(u->path);
	free(u->owner);
	free(u->repo);
	free(u->branch);
	free(u->file);
	free(u->display);
	memset(u, 0, sizeof(*u));
	u->type = UK_URL_UNKNOWN;
}

/*
 * What classification finds from a host (lower case, without trailing
 * dots) and a path: the type and the GitHub fields as spans of the path.
 */
struct found {
	enum uk_url_type type;
	struct uk_url_span owner, repo, branch, file;
	long issue_number, pr_number;
};

static int
span_is(struct uk_url_span sp, const char *s, size_t n)
{
	return sp.n == n && !memcmp(sp.s, s, n);
}

#define SPAN_IS(sp, lit) span_is((sp), (lit), sizeof(lit) - 1)

/*
 * Split path[0..n) into at most max segments (empty ones dropped); *rest
 * is what follows them past any slashes (s NULL when nothing does).
 */
static size_t
segments(const char *path, size_t n, struct uk_url_span *seg, size_t max,
    struct uk_url_span *rest)
{
	size_t i = 0, j, k = 0;

	rest->s = NULL;
	rest->n = 0;
	while (i < n && k < max) {
		while (i < n && path[i] == '/')
			i++;
		if (i == n)
			break;
		for (j = i; j < n && path[j] != '/'; j++)
			;
		seg[k].s = path + i;
		seg[k++].n = j - i;
		i = j;
	}
	while (i < n && path[i] == '/')
		i++;
	if (i < n) {
		rest->s = path + i;
		rest->n = n - i;
	}
	return k;
}

/* A commit id as GitHub takes one: 7 to 40 hexadecimal digits. */
static int
is_commit_id(struct uk_url_span sp)
{
	size_t i;

	if (sp.n < 7 || sp.n > 40)
		return 0;
	for (i = 0; i < sp.n; i++)
		if (!((sp.s[i] >= '0' && sp.s[i] <= '9') ||
		    (sp.s[i] >= 'a' && sp.s[i] <= 'f') ||
		    (sp.s[i] >= 'A' && sp.s[i] <= 'F')))
			return 0;
	return 1;
}

/* A positive decimal number (strtol's, LONG_MAX when it overflows). */
static int
is_number(struct uk_url_span sp, long *out)
{
	size_t i;
	long v = 0;

	if (!sp.n)
		return 0;
	for (i = 0; i < sp.n; i++) {
		int d = sp.s[i] - '0';

		if (d < 0 || d > 9)
			return 0;
		v = v > (LONG_MAX - d) / 10 ? LONG_MAX : v * 10 + d;
	}
	*out = v;
	return v > 0;
}

/*
 * First path segments on github.com that are site pages, not owners.
 * Not exhaustive: a user page and unknown site pages are web anyway,
 * this list only stops /features/x from being taken for a repository.
 */
static const char *const reserved_names[] = { "about", "apps", "blog",
	"collections", "contact", "customer-stories", "enterprise", "events",
	"explore", "features", "issues", "join", "login", "logout",
	"marketplace", "new", "notifications", "orgs", "organizations",
	"pricing", "pulls", "search", "security", "settings", "site",
	"sponsors", "topics", "trending", "users", NULL };
static uint32_t reserved_firsts; /* bit c - 'a': a name begins with c */
static size_t reserved_lens[sizeof(reserved_names) / sizeof(*reserved_names)];

static void
reserved_fill(void)
{
	size_t i;

	for (i = 0; reserved_names[i]; i++) {
		reserved_firsts |= (uint32_t)1 << (reserved_names[i][0] - 'a');
		reserved_lens[i] = strlen(reserved_names[i]);
	}
}

static int
reserved_owner(struct uk_url_span sp)
{
	size_t i, k;
	int c = sp.s[0] >= 'A' && sp.s[0] <= 'Z' ? sp.s[0] + 32 : sp.s[0];

	if (c < 'a' || c > 'z' || !(reserved_firsts >> (c - 'a') & 1))
		return 0;
	/* The names of its first letter and length, compared in ASCII case
	 * by hand (strncasecmp for each cost 180 instructions a GitHub URL). */
	for (i = 0; reserved_names[i]; i++) {
		if (reserved_names[i][0] != c || reserved_lens[i] != sp.n)
			continue;
		for (k = 1; k < sp.n; k++) {
			int b = (unsigned char)sp.s[k];

			if ((b >= 'A' && b <= 'Z' ? b + 32 : b) !=
			    reserved_names[i][k])
				break;
		}
		if (k == sp.n)
			return 1;
	}
	return 0;
}

static void
github(const char *path, size_t pn, int raw, struct found *f)
{
	struct uk_url_span seg[4], rest;
	size_t n;
	long num;

	n = segments(path, pn, seg, raw ? 3 : 4, &rest);
	if (raw) {
		/* raw.githubusercontent.com/OWNER/REPO/BRANCH/PATH, where
		 * BRANCH may be written refs/heads/NAME. */
		const char *b, *sl;

		if (n == 3 && rest.s && SPAN_IS(seg[2], "refs") &&
		    rest.n >= 6 && !memcmp(rest.s, "heads/", 6) &&
		    (sl = memchr(rest.s + 6, '/', rest.n - 6))) {
			b = rest.s + 6;
			seg[2].s = b;
			seg[2].n = (size_t)(sl - b);
			rest.n -= (size_t)(sl + 1 - rest.s);
			rest.s = sl + 1;
		}
		if (n == 3 && rest.s) {
			f->type = UK_URL_GITHUB_FILE;
			f->owner = seg[0];
			f->repo = seg[1];
			f->branch = seg[2];
			f->file = rest;
		}
		return;
	}
	if (n < 2 || reserved_owner(seg[0]))
		return;
	if (n == 2) {
		f->type = UK_URL_GITHUB_REPO;
	} else if (n == 4 && SPAN_IS(seg[2], "blob") && rest.s) {
		f->type = UK_URL_GITHUB_FILE;
		f->branch = seg[3];
		f->file = rest;
	} else if (n == 4 && SPAN_IS(seg[2], "tree")) {
		/* /tree/BRANCH[/PATH]: the repository at that branch. */
		f->type = UK_URL_GITHUB_REPO;
		f->branch = seg[3];
		f->file = rest;
	} else if (n == 4 && SPAN_IS(seg[2], "commit") && !rest.s &&
	    is_commit_id(seg[3])) {
		/* /commit/SHA: the repository at that commit, as /tree/SHA. */
		f->type = UK_URL_GITHUB_REPO;
		f->branch = seg[3];
	} else if (n == 4 && is_number(seg[3], &num)) {
		/* /issues/N and /pull/N, also with a tab: /pull/N/files. */
		if (SPAN_IS(seg[2], "issues")) {
			f->type = UK_URL_GITHUB_ISSUE;
			f->issue_number = num;
		} else if (SPAN_IS(seg[2], "pull")) {
			f->type = UK_URL_GITHUB_PR;
			f->pr_number = num;
		}
	}
	if (f->type == UK_URL_WEB)
		return;
	f->owner = seg[0];
	f->repo = seg[1];
	if (f->repo.n > 4 && !memcmp(f->repo.s + f->repo.n - 4, ".git", 4))
		f->repo.n -= 4;
}

struct name {
	const char *s;
	size_t n;
	int doc; /* a documentation host */
};

#define DOC(s) { s, sizeof(s) - 1, 1 }
#define SITE(s) { s, sizeof(s) - 1, 0 }

/* Documentation hosts: the host itself or any name under it. */
static const struct name doc_hosts[] = { DOC("docs.python.org"),
	DOC("developer.mozilla.org"), DOC("docs.rs"),
	DOC("doc.rust-lang.org"), DOC("pkg.go.dev"), DOC("man7.org"),
	DOC("cppreference.com"), DOC("learn.microsoft.com"),
	DOC("docs.oracle.com"), DOC("docs.github.com"), DOC("devdocs.io"),
	DOC("man.openbsd.org"), DOC("manpages.debian.org"),
	DOC("docs.djangoproject.com"), DOC("docs.docker.com"),
	DOC("kubernetes.io"), DOC("nodejs.org"), DOC("typescriptlang.org"),
	DOC("ruby-doc.org"), DOC("docs.ruby-lang.org"), DOC("hexdocs.pm"),
	DOC("javadoc.io"), DOC("readthedocs.io"), DOC("readthedocs.org"),
	DOC("readthedocs-hosted.com"), { NULL, 0, 0 } };

/* The other names a host may not dress up as (see host_kind). */
static const struct name site_hosts[] = { SITE("github.com"),
	SITE("raw.githubusercontent.com"), { NULL, 0, 0 } };

/*
 * The known names by their first label, built once (urlserve classifies
 * on several threads): a host's label is looked up in a bucket picked by
 * its length and its first and last bytes, and a 256-bit mask of the
 * buckets in use turns most labels away at once ("www", "example",
 * "com"); a label that starts a known name has a few names to compare.
 * This replaced a lookup of every run of labels by length (about 230
 * instructions a URL; issue 40).
 */
#define NAME_MAX_LEN 25
#define BUCKET_NAMES 12
struct bucket {
	const struct name *names[BUCKET_NAMES + 1];
	unsigned char first[BUCKET_NAMES]; /* each name's first label length */
};
static struct bucket buckets[256];
static uint64_t bucket_mask[4]; /* bit b: bucket b holds a name */

static inline unsigned
bucket_of(const char *label, size_t n)
{
	return (unsigned)(n * 29 + (unsigned char)label[0] * 5 +
	    (unsigned char)label[n - 1]) & 255;
}

static void
buckets_fill(void)
{
	const struct name *const lists[] = { doc_hosts, site_hosts };
	const struct name *nm;
	const char *dot;
	struct bucket *bk;
	size_t i, k, first;

	for (i = 0; i < 2; i++)
		for (nm = lists[i]; nm->s; nm++) {
			if (nm->n > NAME_MAX_LEN)
				uk_util_die(UK_EXIT_FATAL,
				    "url: a name too long");
			dot = memchr(nm->s, '.', nm->n);
			first = dot ? (size_t)(dot - nm->s) : nm->n;
			bk = &buckets[bucket_of(nm->s, first)];
			for (k = 0; bk->names[k]; k++)
				;
			if (k == BUCKET_NAMES)
				uk_util_die(UK_EXIT_FATAL,
				    "url: name table full");
			bk->names[k] = nm;
			bk->first[k] = (unsigned char)first;
			k = bucket_of(nm->s, first);
			bucket_mask[k >> 6] |= (uint64_t)1 << (k & 63);
		}
}

/*
 * Look at the labels of host[0..n) once.  A lookalike dresses up as a
 * known name: the name followed by more labels
 * ("docs.python.org.example.net", "github.com.evil.example",
 * "x.readthedocs.io.evil.example"); such a host belongs to whoever owns
 * its last labels, so it is plain web, whatever its path says
 * (HOST_LOOKALIKE).  A documentation host is a known documentation host
 * or a name under it, or a first label "docs" (docs.example.com): HOST_DOC.
 */
enum { HOST_LOOKALIKE = 1, HOST_DOC = 2 };

static int
host_kind(const char *host, size_t n)
{
	int r = n >= 5 && !memcmp(host, "docs.", 5) ? HOST_DOC : 0;
	const struct bucket *bk;
	const struct name *nm;
	size_t st = 0, e, k, l;
	unsigned b;

	/* Each label, host[st..e): the names that start with it. */
	for (st = 0; st < n; st = e + 1) {
		for (e = st; e < n && host[e] != '.'; e++)
			;
		l = e - st;
		if (!l || l > NAME_MAX_LEN)
			continue;
		b = bucket_of(host + st, l);
		if (!(bucket_mask[b >> 6] >> (b & 63) & 1))
			continue;
		bk = &buckets[b];
		for (k = 0; (nm = bk->names[k]); k++) {
			if (bk->first[k] != l || nm->n > n - st ||
			    memcmp(host + st, nm->s, nm->n))
				continue;
			if (st + nm->n < n && host[st + nm->n] == '.')
				return HOST_LOOKALIKE;
			if (st + nm->n == n && nm->doc)
				r = HOST_DOC;
		}
	}
	return r;
}

/* Whether s[0..n) is lit (lower-case letters) in any ASCII case. */
static inline int
word_is(const char *s, const char *lit, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] | 0x20) != (unsigned char)lit[i])
			return 0;
	return 1;
}

/* Documentation by path: a segment docs, documentation, api, reference. */
static int
doc_path(const char *path, size_t n)
{
	size_t i = 0, j, k;

	while (i < n) {
		while (i < n && path[i] == '/')
			i++;
		for (j = i; j < n && path[j] != '/'; j++)
			;
		k = j - i;
		if ((k == 3 && word_is(path + i, "api", 3)) ||
		    (k == 4 && word_is(path + i, "docs", 4)) ||
		    (k == 9 && word_is(path + i, "reference", 9)) ||
		    (k == 13 && word_is(path + i, "documentation", 13)))
			return 1;
		i = j;
	}
	return 0;
}

/*
 * Classify an http(s) URL by its host[0..hn) (lower case) and its path;
 * the trailing dots of the host are left out ("github.com." is
 * github.com), and *hn says how many bytes are left.
 */
static void
classify(const char *host, size_t *hn, const char *path, size_t pn,
    struct found *f)
{
	int kind;

	f->type = UK_URL_WEB;
	f->owner.s = f->repo.s = f->branch.s = f->file.s = NULL;
	f->owner.n = f->repo.n = f->branch.n = f->file.n = 0;
	f->issue_number = f->pr_number = 0;
	while (*hn > 1 && host[*hn - 1] == '.')
		(*hn)--;
	kind = host_kind(host, *hn);
	if (kind & HOST_LOOKALIKE)
		return;
	if ((*hn == 10 && !memcmp(host, "github.com", 10)) ||
	    (*hn == 14 && !memcmp(host, "www.github.com", 14)))
		github(path, pn, 0, f);
	else if (*hn == 25 && !memcmp(host, "raw.githubusercontent.com", 25))
		github(path, pn, 1, f);
	else if ((kind & HOST_DOC) || doc_path(path, pn))
		f->type = UK_URL_DOCUMENTATION;
}

/* Copy s into a string cut to UK_URL_DISPLAY_MAX characters, "..." included. */
static char *
cut_display(const char *s)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t i = 0, chars = 0, keep = 0, n = strlen(s);

	while (i < n) {
		size_t k =
		    uk_buf_utf8_seqlen((const unsigned char *)s + i, n - i);

		if (!k)
			k = 1;
		chars++;
		if (chars == UK_URL_DISPLAY_MAX - 3)
			keep = i + k;
		i += k;
	}
	if (chars <= UK_URL_DISPLAY_MAX) {
		uk_buf_addstr(&b, s);
	} else {
		uk_buf_add_utf8(&b, s, keep);
		uk_buf_addstr(&b, "...");
	}
	return uk_buf_detach(&b, NULL);
}

/*
 * A display name written piece by piece into a buffer of
 * 4 * UK_URL_DISPLAY_MAX + 1 bytes, as cut_display cuts the pieces'
 * concatenation: only the characters that can be kept are looked at.
 * Each piece after the first starts with an ASCII byte, so a sequence
 * never runs across two.  An invalid sequence (which cut_display would
 * replace in a cut name) sets bad: the caller then uses cut_display.
 */
struct disp {
	char *out;
	size_t len, chars, keep;
	int more, bad;
	int ascii;          /* every piece is ASCII: a byte a character */
	struct uk_buf *all; /* when set, every piece goes there whole */
};

static void
disp_add(struct disp *d, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k, room;

	if (d->all) {
		uk_buf_add(d->all, s, n);
		return;
	}
	if (d->ascii && !d->more) {
		room = UK_URL_DISPLAY_MAX - d->chars;
		k = n < room ? n : room;
		memcpy(d->out + d->len, s, k);
		if (d->chars < UK_URL_DISPLAY_MAX - 3 &&
		    d->chars + k >= UK_URL_DISPLAY_MAX - 3)
			d->keep = d->len + (UK_URL_DISPLAY_MAX - 3 - d->chars);
		d->len += k;
		d->chars += k;
		d->more = k < n;
		return;
	}
	while (i < n && !d->bad && !d->more) {
		if (d->chars == UK_URL_DISPLAY_MAX) {
			d->more = 1;
			return;
		}
		/* A run of ASCII, one byte a character. */
		room = UK_URL_DISPLAY_MAX - d->chars;
		if (room > n - i)
			room = n - i;
		for (k = 0; k + 8 <= room; k += 8) {
			uint64_t w;

			memcpy(&w, p + i + k, 8);
			if (w & 0x8080808080808080ULL)
				break;
		}
		for (; k < room && p[i + k] < 0x80; k++)
			;
		if (k) {
			memcpy(d->out + d->len, s + i, k);
			if (d->chars < UK_URL_DISPLAY_MAX - 3 &&
			    d->chars + k >= UK_URL_DISPLAY_MAX - 3)
				d->keep = d->len + (UK_URL_DISPLAY_MAX - 3 -
				    d->chars);
			d->len += k;
			d->chars += k;
			i += k;
			continue;
		}
		if (!(k = uk_buf_utf8_seqlen(p + i, n - i))) {
			d->bad = 1;
			return;
		}
		memcpy(d->out + d->len, s + i, k);
		d->len += k;
		i += k;
		if (++d->chars == UK_URL_DISPLAY_MAX - 3)
			d->keep = d->len;
	}
}

/* The pieces of the display name of an http(s) URL classified as f. */
static void
disp_pieces(struct disp *d, const struct found *f, const char *host,
    size_t hn, const char *path, size_t pn)
{
	char num[24], *q = num + sizeof(num);
	unsigned long v;
	const char *slash;

	switch (f->type) {
	case UK_URL_GITHUB_REPO:
	case UK_URL_GITHUB_FILE:
	case UK_URL_GITHUB_ISSUE:
	case UK_URL_GITHUB_PR:
		disp_add(d, f->owner.s, f->owner.n);
		disp_add(d, "/", 1);
		disp_add(d, f->repo.s, f->repo.n);
		break;
	default:
		while (pn && path[pn - 1] == '/')
			pn--;
		disp_add(d, host, hn);
		disp_add(d, path, pn);
		return;
	}
	switch (f->type) {
	case UK_URL_GITHUB_FILE:
		slash = f->file.n ? memrchr(f->file.s, '/', f->file.n) : NULL;
		disp_add(d, "/", 1);
		if (slash)
			disp_add(d, slash + 1,
			    f->file.n - (size_t)(slash + 1 - f->file.s));
		else
			disp_add(d, f->file.s, f->file.n);
		return;
	case UK_URL_GITHUB_ISSUE:
	case UK_URL_GITHUB_PR:
		v = (unsigned long)(f->type == UK_URL_GITHUB_ISSUE ?
		    f->issue_number : f->pr_number);
		do
			*--q = (char)('0' + v % 10);
		while (v /= 10);
		disp_add(d, f->type == UK_URL_GITHUB_ISSUE ? "#" : "!", 1);
		disp_add(d, q, (size_t)(num + sizeof(num) - q));
		return;
	default:
		return;
	}
}

/*
 * A GitHub URL's display name when its pieces are ASCII (a byte a
 * character): what disp_pieces and disp_add make, written straight into
 * buf, the pieces copied as far as the 41st byte, which decides the cut.
 */
struct cat {
	char *out;
	size_t len, total;
};

static inline void
cat_add(struct cat *c, const char *s, size_t n)
{
	size_t k = UK_URL_DISPLAY_MAX + 1 - c->len;

	if (c->len <= UK_URL_DISPLAY_MAX) {
		if (k > n)
			k = n;
		memcpy(c->out + c->len, s, k);
		c->len += k;
	}
	c->total += n;
}

static struct uk_url_span
display_ascii(const struct found *f, char *buf)
{
	struct cat c = { buf, 0, 0 };
	struct uk_url_span r;
	char num[24], *q = num + sizeof(num);
	unsigned long v;
	const char *slash;

	cat_add(&c, f->owner.s, f->owner.n);
	cat_add(&c, "/", 1);
	cat_add(&c, f->repo.s, f->repo.n);
	switch (f->type) {
	case UK_URL_GITHUB_FILE:
		slash = f->file.n ? memrchr(f->file.s, '/', f->file.n) : NULL;
		cat_add(&c, "/", 1);
		if (slash)
			cat_add(&c, slash + 1,
			    f->file.n - (size_t)(slash + 1 - f->file.s));
		else
			cat_add(&c, f->file.s, f->file.n);
		break;
	case UK_URL_GITHUB_ISSUE:
	case UK_URL_GITHUB_PR:
		v = (unsigned long)(f->type == UK_URL_GITHUB_ISSUE ?
		    f->issue_number : f->pr_number);
		do
			*--q = (char)('0' + v % 10);
		while (v /= 10);
		cat_add(&c, f->type == UK_URL_GITHUB_ISSUE ? "#" : "!", 1);
		cat_add(&c, q, (size_t)(num + sizeof(num) - q));
		break;
	default:
		break;
	}
	if (c.total > UK_URL_DISPLAY_MAX) {
		memcpy(buf + UK_URL_DISPLAY_MAX - 3, "...", 3);
		c.len = UK_URL_DISPLAY_MAX;
	}
	buf[c.len] = '\0';
	r.s = buf;
	r.n = c.len;
	return r;
}

/*
 * The display name of an http(s) URL classified as f, into buf (4 *
 * UK_URL_DISPLAY_MAX + 1 bytes) or, for a name with invalid UTF-8, onto
 * the heap (*heap, the caller frees it).
 */
static struct uk_url_span
display(const struct found *f, const char *host, size_t hn,
    const char *path, size_t pn, int ascii, char *buf, char **heap)
{
	struct disp d = { buf, 0, 0, 0, 0, 0, ascii, NULL };
	struct uk_url_span r;
	size_t k;

	*heap = NULL;
	r.s = buf;
	if (ascii && (f->type == UK_URL_WEB ||
	    f->type == UK_URL_DOCUMENTATION)) {
		/* Most names: ASCII host and path, a byte a character. */
		while (pn && path[pn - 1] == '/')
			pn--;
		if (hn + pn <= UK_URL_DISPLAY_MAX) {
			memcpy(buf, host, hn);
			memcpy(buf + hn, path, pn);
			r.n = hn + pn;
		} else {
			k = hn < UK_URL_DISPLAY_MAX - 3 ? hn :
			    UK_URL_DISPLAY_MAX - 3;
			memcpy(buf, host, k);
			memcpy(buf + k, path, UK_URL_DISPLAY_MAX - 3 - k);
			memcpy(buf + UK_URL_DISPLAY_MAX - 3, "...", 3);
			r.n = UK_URL_DISPLAY_MAX;
		}
		buf[r.n] = '\0';
		return r;
	}
	if (ascii)
		return display_ascii(f, buf);
	disp_pieces(&d, f, host, hn, path, pn);
	if (d.bad) {
		/* Rare: the whole name, cut by cut_display. */
		struct uk_buf b = UK_BUF_INIT;

		d.all = &b;
		d.ascii = 0;
		disp_pieces(&d, f, host, hn, path, pn);
		*heap = cut_display(b.buf);
		uk_buf_release(&b);
		r.s = *heap;
		r.n = strlen(*heap);
		return r;
	}
	if (d.more) {
		d.len = d.keep;
		memcpy(buf + d.len, "...", 3);
		d.len += 3;
	}
	buf[d.len] = '\0';
	r.s = buf;
	r.n = d.len;
	return r;
}

static char *
lower_dup(const char *s)
{
	char *d = uk_util_xstrdup(s), *p;

	for (p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	return d;
}

static char *
span_dup(struct uk_url_span sp)
{
	return sp.s ? uk_util_xmemdup(sp.s, sp.n) : NULL;
}

/*
 * The tables above, filled once in the process (urlserve classifies on
 * several threads); a flag read first spares each URL a call of
 * pthread_once for each table (issue 40).
 */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static int tables_ready;
static void bcls_fill(void);

static void
tables_fill(void)
{
	reserved_fill();
	buckets_fill();
	bcls_fill();
	__atomic_store_n(&tables_ready, 1, __ATOMIC_RELEASE);
}

static inline void
tables(void)
{
	if (!__atomic_load_n(&tables_ready, __ATOMIC_ACQUIRE))
		pthread_once(&tables_once, tables_fill);
}

/*
 * libcurl's URL parser, loaded with dlopen at the first URL that needs
 * it, not linked: linked, libcurl and the thirty libraries it brings were
 * loaded and relocated at every start of urldetect, which needs it only
 * for the URLs uk_url_view does not split by hand (11M instructions and
 * some 300 page faults a start, the records of 6 MB of text; issue 40).
 * A program that links libcurl for its transfers gets the copy it has.
 */
static const char *const curl_sonames[] = { "libcurl.so.4",
	"libcurl-gnutls.so.4", "libcurl.so", NULL };
static struct {
	__typeof__(curl_url) *url;
	__typeof__(curl_url_set) *set;
	__typeof__(curl_url_get) *get;
	__typeof__(curl_url_cleanup) *cleanup;
	__typeof__(curl_free) *free;
} cu;
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;

static void
cu_load(void)
{
	void *h = NULL;
	size_t i;

	for (i = 0; curl_sonames[i] && !h; i++)
		h = dlopen(curl_sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		uk_util_die(UK_EXIT_FATAL, "cannot load libcurl: %s",
		    dlerror());
#define CU_SYM(field, name)                                                \
	do {                                                               \
		*(void **)&cu.field = dlsym(h, #name);                     \
		if (!cu.field)                                             \
			uk_util_die(UK_EXIT_FATAL, "no %s in %s", #name,   \
			    curl_sonames[i - 1]);                          \
	} while (0)
	CU_SYM(url, curl_url);
	CU_SYM(set, curl_url_set);
	CU_SYM(get, curl_url_get);
	CU_SYM(cleanup, curl_url_cleanup);
	CU_SYM(free, curl_free);
#undef CU_SYM
}

void
uk_url_classify(const char *url, struct uk_url *u)
{
	CURLU *h;
	char *scheme = NULL, *host = NULL, *path = NULL, *heap;
	char buf[4 * UK_URL_DISPLAY_MAX + 1];
	struct uk_url_span d;
	struct found f;
	size_t n;

	memset(u, 0, sizeof(*u));
	u->type = UK_URL_UNKNOWN;
	tables();
	pthread_once(&cu_once, cu_load);
	if (!(h = cu.url()))
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	if (cu.set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) ||
	    cu.get(h, CURLUPART_SCHEME, &scheme, 0) ||
	    cu.get(h, CURLUPART_HOST, &host, 0) ||
	    cu.get(h, CURLUPART_PATH, &path, 0))
		goto unknown;
	u->scheme = lower_dup(scheme);
	u->host = lower_dup(host);
	u->path = uk_util_xstrdup(path);
	if (strcmp(u->scheme, "http") && strcmp(u->scheme, "https"))
		goto unknown;
	n = strlen(u->host);
	classify(u->host, &n, u->path, strlen(u->path), &f);
	u->host[n] = '\0';
	u->type = f.type;
	u->owner = span_dup(f.owner);
	u->repo = span_dup(f.repo);
	u->branch = span_dup(f.branch);
	u->file = span_dup(f.file);
	u->issue_number = f.issue_number;
	u->pr_number = f.pr_number;
	d = display(&f, u->host, n, u->path, strlen(u->path), 0, buf, &heap);
	u->display = heap ? heap : uk_util_xmemdup(d.s, d.n);
	goto out;
unknown:
	u->display = cut_display(url);
out:
	cu.free(scheme);
	cu.free(host);
	cu.free(path);
	cu.cleanup(h);
}

/*
 * The bytes split_fast looks at: those of a host (lowhost gives each in
 * lower case, and 0 for the others); those that stop the plain run of a
 * path (B_PATH: the end of the path, a dot, a percent sign, a non-ASCII
 * byte, a quote, and what curl refuses); those curl refuses or that are
 * left to it anywhere (B_BAD: controls, space, DEL, backslash).
 */
enum { B_PATH = 2, B_BAD = 4 };

/* Whether the 8 bytes of w hold one that is 0. */
#define HAS_ZERO(w) (((w) - 0x0101010101010101ULL) & ~(w) & \
    0x8080808080808080ULL)
static unsigned char bcls[256];
static unsigned char lowhost[256]; /* a host's byte in lower case, or 0 */

static void
bcls_fill(void)
{
	int c;

	for (c = 0; c < 256; c++) {
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' || c >= 0x80)
			lowhost[c] = (unsigned char)(c >= 'A' && c <= 'Z' ?
			    c + 32 : c);
		if (c <= 0x20 || c == 0x7f || c == '\\')
			bcls[c] |= B_BAD | B_PATH;
	}
	for (c = 0x80; c < 256; c++)
		bcls[c] |= B_PATH; /* for the display: all ASCII or not */
	bcls['?'] |= B_PATH;
	bcls['"'] |= B_PATH;
	bcls['#'] |= B_PATH;
	bcls['.'] |= B_PATH;
	bcls['%'] |= B_PATH;
}

/*
 * Whether h[0..n) is an IPv4 address as curl writes it (four numbers of
 * 0-255 without leading zeros): curl rewrites other numeric hosts
 * (0x7f.1 is 127.0.0.1).
 */
static int
dotted_quad(const char *h, size_t n)
{
	size_t i = 0, parts = 0, digits;
	unsigned v;

	for (;;) {
		for (v = 0, digits = 0; i < n && h[i] >= '0' && h[i] <= '9';
		    i++, digits++)
			v = v * 10 + (unsigned)(h[i] - '0');
		if (!digits || digits > 3 || v > 255 ||
		    (digits > 1 && h[i - digits] == '0'))
			return 0;
		if (++parts == 4)
			return i == n;
		if (i == n || h[i++] != '.')
			return 0;
	}
}

/* Write v (under 0x10000) in lower-case hex without leading zeros. */
static size_t
put_hex(char *o, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = v >= 0x1000 ? 4 : v >= 0x100 ? 3 : v >= 0x10 ? 2 : 1, i;

	for (i = k; i > 0; i--, v >>= 4)
		o[i - 1] = hex[v & 15];
	return k;
}

/*
 * Whether t[0..n) (lower-case hex digits and colons) is an IPv6 address
 * written as inet_ntop writes it (BIND's algorithm, which curl's
 * Curl_inet_ntop shares): groups without leading zeros, the longest run
 * of two zero groups or more (the first of equal ones) as "::", and no
 * IPv4 part (which inet_ntop writes for ::a.b.c.d and ::ffff:a.b.c.d, and
 * t cannot hold).  The address is parsed, written back, and compared:
 * inet_pton and inet_ntop did the same through sprintf, 5,000
 * instructions a URL (issue 40).
 */
static int
ipv6_canonical(const char *t, size_t n)
{
	unsigned w[8], v;
	char out[40], *o = out;
	size_t i = 0, k, ng = 0, dc = 8, bb = 8, bl = 0, cb = 8, cl = 0;

	if (n >= 2 && t[0] == ':' && t[1] == ':') {
		dc = 0;
		i = 2;
	}
	while (i < n) {
		if (ng == 8)
			return 0;
		for (v = 0, k = 0; i < n && t[i] != ':'; i++, k++)
			v = v * 16 + (unsigned)(t[i] <= '9' ? t[i] - '0' :
			    t[i] - 'a' + 10);
		if (!k || k > 4)
			return 0;
		w[ng++] = v;
		if (i == n)
			break;
		if (++i == n)
			return 0; /* a trailing single ':' */
		if (t[i] == ':') {
			if (dc != 8)
				return 0;
			dc = ng;
			i++;
		}
	}
	if (dc == 8 ? ng != 8 : ng > 7)
		return 0;
	if (dc != 8) {
		/* The groups after "::" to the end, zeros in between. */
		for (k = ng; k > dc; k--)
			w[8 - (ng - k) - 1] = w[k - 1];
		for (k = dc; k < 8 - (ng - dc); k++)
			w[k] = 0;
	}
	for (k = 0; k < 8; k++) {
		if (!w[k]) {
			if (cl++ == 0)
				cb = k;
			if (cl > bl) {
				bb = cb;
				bl = cl;
			}
		} else {
			cl = 0;
		}
	}
	if (bl < 2)
		bb = 8;
	if (bb == 0 && (bl == 6 || (bl == 5 && w[5] == 0xffff)))
		return 0; /* inet_ntop writes an IPv4 part */
	for (k = 0; k < 8; k++) {
		if (k >= bb && k < bb + bl) {
			if (k == bb)
				*o++ = ':';
			continue;
		}
		if (k)
			*o++ = ':';
		o += put_hex(o, w[k]);
	}
	if (bb != 8 && bb + bl == 8)
		*o++ = ':';
	return (size_t)(o - out) == n && !memcmp(out, t, n);
}

/*
 * The length of the IPv6 address in brackets at s[0..n) ("[::1]"),
 * copied to host, when curl would write it the same: lower-case hex and
 * colons only (no zone, no IPv4 part), as inet_ntop writes it back (curl
 * rewrites an address into that form with the same algorithm, BIND's);
 * otherwise 0.
 */
static size_t
ipv6(const char *s, size_t n, char *host)
{
	size_t i;

	for (i = 1; i < n && i < INET6_ADDRSTRLEN && s[i] != ']'; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') || s[i] == ':'))
			return 0;
	if (i == n || s[i] != ']' || i == 1 || !ipv6_canonical(s + 1, i - 1))
		return 0;
	memcpy(host, s, i + 1);
	return i + 1;
}

/*
 * Whether the "." at p[0], after a '/', makes a segment "." or ".." (which
 * curl removes): what follows it ends the path or starts a segment.
 */
static int
dot_segment(const unsigned char *p, size_t n)
{
	size_t k = n > 1 && p[1] == '.' ? 2 : 1;

	return k == n || p[k] == '/' || p[k] == '?' || p[k] == '#';
}

#ifdef __SSE2__
/*
 * 16 bytes a step (SSE2, which every x86-64 has) where split_fast looked
 * at a URL's host and path a byte at a time through a table: about 350
 * instructions a URL (issue 40).  Elsewhere the byte loops alone.
 */
#define LE_EPU8(v, lim) _mm_cmpeq_epi8(_mm_min_epu8((v), (lim)), (v))
#define SET1(c) _mm_set1_epi8((char)(c))

/* The bits of the 16 bytes at p that bcls marks B_PATH. */
static inline unsigned
path_stop16(const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), m;

	m = _mm_cmplt_epi8(x, SET1(0x21)); /* and from 0x80 */
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, SET1(0x7f)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, SET1('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, SET1('?')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, SET1('.')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, SET1('%')));
	m = _mm_or_si128(m, LE_EPU8(_mm_sub_epi8(x, SET1('"')), SET1(1)));
	return (unsigned)_mm_movemask_epi8(m);
}

/*
 * The 16 bytes at p as a host's (lowhost): stored at out in lower case;
 * returns the bits of those that are not a host's, and sets *dots and
 * *high to the bits of the dots and of the bytes from 0x80.
 */
static inline unsigned
host16(const unsigned char *p, char *out, unsigned *dots, unsigned *high)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), ok, up;

	up = LE_EPU8(_mm_sub_epi8(x, SET1('A')), SET1(25));
	ok = _mm_or_si128(up, LE_EPU8(_mm_sub_epi8(x, SET1('a')), SET1(25)));
	ok = _mm_or_si128(ok, LE_EPU8(_mm_sub_epi8(x, SET1('0')), SET1(9)));
	ok = _mm_or_si128(ok, LE_EPU8(_mm_sub_epi8(x, SET1('-')), SET1(1)));
	ok = _mm_or_si128(ok, _mm_cmplt_epi8(x, SET1(0)));
	_mm_storeu_si128((__m128i *)(void *)out,
	    _mm_or_si128(x, _mm_and_si128(up, SET1(0x20))));
	*dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, SET1('.')));
	*high = (unsigned)_mm_movemask_epi8(x);
	return ~(unsigned)_mm_movemask_epi8(ok) & 0xffff;
}
#endif

/*
 * The query and fragment p[i..n): -1 when they hold what curl refuses;
 * clears *plain at a quote or a byte from 0x80.  16 bytes a step (SSE2),
 * then 8, past those under 0x23 ('"' and '!' too), DEL, backslashes and
 * non-ASCII bytes.
 */
static int
query_ok(const unsigned char *p, size_t i, size_t n, int *plain)
{
	for (; i < n; i++) {
#ifdef __SSE2__
		for (; i + 16 <= n; i += 16) {
			__m128i x = _mm_loadu_si128((const __m128i *)
			    (const void *)(p + i));
			__m128i m = _mm_or_si128(_mm_cmplt_epi8(x, SET1(0x23)),
			    _mm_or_si128(_mm_cmpeq_epi8(x, SET1(0x7f)),
			    _mm_cmpeq_epi8(x, SET1('\\'))));

			if (_mm_movemask_epi8(m))
				break;
		}
#endif
		for (; i + 8 <= n; i += 8) {
			uint64_t w;

			memcpy(&w, p + i, 8);
			if (((w - 0x2323232323232323ULL) & ~w &
			    0x8080808080808080ULL) ||
			    HAS_ZERO(w ^ 0x7f7f7f7f7f7f7f7fULL) ||
			    HAS_ZERO(w ^ 0x5c5c5c5c5c5c5c5cULL) ||
			    (w & 0x8080808080808080ULL))
				break;
		}
		if (i == n)
			break;
		if (bcls[p[i]] & B_BAD)
			return -1;
		if (p[i] == '"' || p[i] >= 0x80)
			*plain = 0;
	}
	return 0;
}

/*
 * The host's bytes from p[a], at most to e, lower-cased into host; returns
 * where they end, with *seen (the bytes or'ed: 0x80 for one from 0x80)
 * and *twodots (".." among them).
 */
static size_t
host_scan(const unsigned char *p, size_t a, size_t e, char *host,
    unsigned char *seen, unsigned char *twodots)
{
	size_t i = a;
	unsigned char c;

	*seen = *twodots = 0;
#ifdef __SSE2__
	{
		unsigned bad, dots, high, valid, prev = 0;

		for (; i + 16 <= e; i += 16) {
			bad = host16(p + i, host + (i - a), &dots, &high);
			valid = bad ? ((1U << __builtin_ctz(bad)) - 1) : 0xffff;
			*twodots |= ((dots & (dots << 1 | prev)) & valid) != 0;
			*seen |= (high & valid) ? 0x80 : 0;
			if (bad)
				return i + (size_t)__builtin_ctz(bad);
			prev = dots >> 15 & 1;
		}
	}
#endif
	for (; i < e && (c = lowhost[p[i]]); i++) {
		host[i - a] = (char)c;
		*twodots |= c == '.' && p[i - 1] == '.';
		*seen |= c;
	}
	return i;
}

/*
 * Where the host starts after the user of the authority at p[a..n)
 * ("user:secret@host"), or 0: when the authority holds one '@' and the
 * user before it is a non-empty run of ASCII letters, digits, '-', '.',
 * '_', '~', ':' and '%'.  curl takes the first '@' and refuses a host
 * with another; those and any other user are left to it.  Issue 40: a
 * URL with a user went through libcurl's parse.
 */
static size_t
user_end(const unsigned char *p, size_t a, size_t n)
{
	size_t i, at = 0;

	for (i = a; i < n && p[i] != '/' && p[i] != '?' && p[i] != '#'; i++) {
		if (p[i] == '@') {
			if (at)
				return 0;
			at = i;
			continue;
		}
		if (!at && !((p[i] >= 'a' && p[i] <= 'z') ||
		    (p[i] >= 'A' && p[i] <= 'Z') ||
		    (p[i] >= '0' && p[i] <= '9') || p[i] == '-' ||
		    p[i] == '.' || p[i] == '_' || p[i] == '~' || p[i] == ':' ||
		    p[i] == '%'))
			return 0;
	}
	return at > a ? at + 1 : 0;
}

/*
 * The host (lower case, into host[256]) and path of url[0..n) when curl
 * would give them as written: "http://" or "https://" in any case; a host
 * of ASCII letters, digits, '-', '.' and non-ASCII bytes, not starting
 * with a dot or holding "..", of at most 255 bytes, starting with a digit
 * only as an IPv4 address curl would write the same, or an IPv6 address
 * in brackets that curl would write the same; perhaps a port of
 * digits under 65536 without leading zeros; no byte curl refuses
 * (controls, space) and no backslash; a path without the segments "."
 * and ".." (which curl removes) or "%2e".  Otherwise -1: uk_url_classify
 * decides.
 */
static int
split_fast(const char *url, size_t n, char *host, size_t *hn,
    struct uk_url_span *path, int *ascii, int *plain)
{
	const unsigned char *p = (const unsigned char *)url;
	size_t i, a, h, e;
	unsigned long port;
	unsigned char seen, twodots;
	int user = 0; /* the authority's user was skipped */

	if (n > UK_URL_FAST_MAX)
		return -1;
	if (n < 8 || (p[0] | 0x20) != 'h' || (p[1] | 0x20) != 't' ||
	    (p[2] | 0x20) != 't' || (p[3] | 0x20) != 'p')
		return -1;
	if (p[4] == ':')
		a = 7;
	else if ((p[4] | 0x20) == 's' && p[5] == ':')
		a = 8;
	else
		return -1;
	if (p[a - 3] != ':' || p[a - 2] != '/' || p[a - 1] != '/')
		return -1;
authority:
	*ascii = *plain = 1;
	if (p[a] == '[') {
		if ((h = ipv6(url + a, n - a, host)) == 0)
			goto userinfo;
		*hn = h;
		i = a + h;
		goto port;
	}
	e = n - a > 255 ? a + 255 : n;
	i = host_scan(p, a, e, host, &seen, &twodots);
	h = i - a;
	if (!h || twodots || i == a + 255 || p[a] == '.' ||
	    (p[a] >= '0' && p[a] <= '9' && !dotted_quad(host, h)))
		goto userinfo;
	if (seen & 0x80)
		*ascii = *plain = 0;
	*hn = h;
port:
	if (i < n && p[i] == ':') {
		i++;
		if (i == n || p[i] < '1' || p[i] > '9')
			goto userinfo;
		for (port = 0; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			if ((port = port * 10 + (p[i] - '0')) > 65535)
				goto userinfo;
	}
	if (i < n && p[i] != '/' && p[i] != '?' && p[i] != '#')
		goto userinfo;
	path->s = url + i;
	for (a = i;; i++) {
#ifdef __SSE2__
		unsigned m;

		for (; i + 16 <= n; i += 16)
			if ((m = path_stop16(p + i)) != 0) {
				i += (size_t)__builtin_ctz(m);
				break;
			}
#endif
		while (i < n && !(bcls[p[i]] & B_PATH))
			i++;
		if (i == n || p[i] == '?' || p[i] == '#')
			break;
		if (p[i] >= 0x80) {
			*ascii = *plain = 0;
			continue;
		}
		if (p[i] == '"') {
			*plain = 0;
			continue;
		}
		if ((bcls[p[i]] & B_BAD) || (p[i] == '.' && p[i - 1] == '/' &&
		    dot_segment(p + i, n - i)) ||
		    (p[i] == '%' && i + 2 < n && p[i + 1] == '2' &&
		    (p[i + 2] | 0x20) == 'e'))
			return -1;
	}
	path->n = i - a;
	if (query_ok(p, i, n, plain))
		return -1;
	if (!path->n) {
		path->s = "/";
		path->n = 1;
	}
	return 0;
userinfo:
	/* Not a host and port: perhaps a user before them, once. */
	if (user || !(h = user_end(p, a, n)))
		return -1;
	user = 1;
	a = h;
	goto authority;
}

void
uk_url_view(const char *url, size_t n, int flags, struct uk_url_view *v)
{
	char host[256];
	struct uk_url_span path;
	struct found f;
	size_t hn;
	char *s;
	int ascii, plain;

	tables();
	v->slow = 0;
	v->heap = NULL;
	v->plain = 0;
	if (!(flags & UK_URL_VIEW_CURL) &&
	    !split_fast(url, n, host, &hn, &path, &ascii, &plain)) {
		classify(host, &hn, path.s, path.n, &f);
		v->type = f.type;
		v->owner = f.owner;
		v->repo = f.repo;
		v->branch = f.branch;
		v->file = f.file;
		v->issue_number = f.issue_number;
		v->pr_number = f.pr_number;
		v->display = display(&f, host, hn, path.s, path.n, ascii,
		    v->dbuf, &v->heap);
		v->plain = 1 + plain;
		return;
	}
	s = uk_util_xmemdup(url, n);
	uk_url_classify(s, &v->slowu);
	free(s);
	v->slow = 1;
	v->type = v->slowu.type;
	v->owner.s = v->slowu.owner;
	v->repo.s = v->slowu.repo;
	v->branch.s = v->slowu.branch;
	v->file.s = v->slowu.file;
	v->owner.n = v->owner.s ? strlen(v->owner.s) : 0;
	v->repo.n = v->repo.s ? strlen(v->repo.s) : 0;
	v->branch.n = v->branch.s ? strlen(v->branch.s) : 0;
	v->file.n = v->file.s ? strlen(v->file.s) : 0;
	v->issue_number = v->slowu.issue_number;
	v->pr_number = v->slowu.pr_number;
	v->display.s = v->slowu.display;
	v->display.n = strlen(v->slowu.display);
}

void
uk_url_view_release(struct uk_url_view *v)
{
	if (v->slow)
		uk_url_release(&v->slowu);
	free(v->heap);
	v->slow = 0;
	v->heap = NULL;
}

void
uk_url_to_record(const struct uk_url *u, struct yajl_val_s *rec)
{
	yajl_val gh;

	uk_json_set_str(rec, "type", uk_url_type_name(u->type));
	uk_json_set_str(rec, "display", u->display);
	if (!u->owner) {
		uk_json_del(rec, "github");
		return;
	}
	gh = uk_json_object();
	uk_json_set_str(gh, "owner", u->owner);
	uk_json_set_str(gh, "repo", u->repo);
	if (u->branch)
		uk_json_set_str(gh, "branch", u->branch);
	if (u->file)
		uk_json_set_str(gh, "path", u->file);
	if (u->issue_number)
		uk_json_set_int(gh, "issue_number", u->issue_number);
	if (u->pr_number)
		uk_json_set_int(gh, "pr_number", u->pr_number);
	uk_json_set(rec, "github", gh);
}
