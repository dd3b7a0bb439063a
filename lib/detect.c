/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "detect.h"
#include "buf.h"
#include "util.h"
#include "banned.h"

/*
 * Byte classes for the ASCII fast path.  Written by hand rather than with
 * a regex library: the scan must run at memchr speed and needs the
 * bracket and quote state that regular expressions cannot keep.
 */
enum {
	C_URL = 0, /* part of a URL */
	C_TERM,    /* always ends a URL */
	C_OPEN,    /* ( [ { */
	C_CLOSE,   /* ) ] } */
	C_QUOTE,   /* " ' : end a URL opened by the same quote */
	C_HIGH     /* first byte of a multibyte sequence, or invalid */
};

static unsigned char cls[256];
static pthread_once_t cls_once = PTHREAD_ONCE_INIT;
static void hcls_fill(void);

/* Fill cls, once in the process (urlserve scans on several threads). */
static void
cls_fill(void)
{
	int c;

	for (c = 0; c <= 0x20; c++)
		cls[c] = C_TERM;
	cls[0x7f] = C_TERM;
	cls['<'] = cls['>'] = cls['\\'] = cls['|'] = cls['`'] = C_TERM;
	cls['('] = cls['['] = cls['{'] = C_OPEN;
	cls[')'] = cls[']'] = cls['}'] = C_CLOSE;
	cls['"'] = cls['\''] = C_QUOTE;
	for (c = 0x80; c <= 0xff; c++)
		cls[c] = C_HIGH;
	hcls_fill();
}

void
uk_detect_init(struct uk_detect *d)
{
	d->skipping = 0;
	d->toolong = 0;
	d->bare = 0;
	d->bare_hit = 0;
	pthread_once(&cls_once, cls_fill);
}

static unsigned long
decode(const unsigned char *p, size_t n)
{
	switch (n) {
	case 2:
		return ((unsigned long)(p[0] & 0x1f) << 6) | (p[1] & 0x3f);
	case 3:
		return ((unsigned long)(p[0] & 0x0f) << 12) |
		    ((unsigned long)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
	default:
		return ((unsigned long)(p[0] & 0x07) << 18) |
		    ((unsigned long)(p[1] & 0x3f) << 12) |
		    ((unsigned long)(p[2] & 0x3f) << 6) | (p[3] & 0x3f);
	}
}

/* Code points that end a URL: spaces, quotation marks, CJK punctuation. */
static int
uni_term(unsigned long c)
{
	if (c >= 0x80 && c <= 0xa0)
		return 1; /* C1 controls, no-break space */
	switch (c) {
	case 0xab:
	case 0xbb:
	case 0x1680:
	case 0x2026:
	case 0x2028:
	case 0x2029:
	case 0x202f:
	case 0x205f:
	case 0x2039:
	case 0x203a:
	case 0x3000:
	case 0x3001:
	case 0x3002:
	case 0xfeff:
	case 0xfffd:
		return 1;
	}
	if (c >= 0x2000 && c <= 0x200b)
		return 1; /* spaces and zero-width space (not ZWNJ, ZWJ) */
	if (c >= 0x2018 && c <= 0x201f)
		return 1; /* curly quotes */
	if (c >= 0x3008 && c <= 0x301b)
		return 1; /* CJK brackets */
	if (c >= 0xff01 && c <= 0xff0f)
		return 1; /* full-width ASCII punctuation */
	if (c >= 0xff1a && c <= 0xff20)
		return 1;
	if (c >= 0xff3b && c <= 0xff40)
		return 1;
	if (c >= 0xff5b && c <= 0xff65)
		return 1;
	return 0;
}

/* Whether p[0..n) could be the start of a valid sequence cut short. */
static int
prefix(const unsigned char *p, size_t n)
{
	size_t need, i;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	need = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : 2;
	if (n >= need)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return 1;
}

static int
bracket_index(int c)
{
	switch (c) {
	case '(':
	case ')':
		return 0;
	case '[':
	case ']':
		return 1;
	default:
		return 2;
	}
}

#ifdef __SSE2__
/* Whether the unsigned bytes of v are at most lim. */
#define LE_EPU8(v, lim) _mm_cmpeq_epi8(_mm_min_epu8((v), (lim)), (v))

/*
 * The bits of the 16 bytes at p that are not C_URL (cls_fill): below
 * 0x21 or from 0x80 (one signed compare), DEL, " ' ( ) < > [ \ ] ` { | }.
 * SSE2, which every x86-64 has: a URL's bytes go 16 a step instead of a
 * table lookup and a switch each (scan_end was 12 instructions a byte,
 * a fifth of urldetect -u's; issue 40).
 */
static inline unsigned
not_url16(const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)p), m;

	m = _mm_cmplt_epi8(x, _mm_set1_epi8(0x21));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('`')));
	/* ( ) */
	m = _mm_or_si128(m, LE_EPU8(_mm_sub_epi8(x, _mm_set1_epi8('(')),
	    _mm_set1_epi8(1)));
	/* < > */
	m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(2)),
	    _mm_set1_epi8('>')));
	/* [ \ ] */
	m = _mm_or_si128(m, LE_EPU8(_mm_sub_epi8(x, _mm_set1_epi8('[')),
	    _mm_set1_epi8(2)));
	/* { | } */
	m = _mm_or_si128(m, LE_EPU8(_mm_sub_epi8(x, _mm_set1_epi8('{')),
	    _mm_set1_epi8(2)));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/*
 * Find where the URL that starts at s[start] (body from s[body]) ends, in
 * s[..len).  Sets *open when it reached len without an end.
 */
static size_t
scan_end(const char *s, size_t body, size_t len, int final, int opener,
    int *open)
{
	const unsigned char *p = (const unsigned char *)s;
	int depth[3] = { 0, 0, 0 };
	size_t i = body, n;

	*open = 0;
	while (i < len) {
		unsigned char c;
#ifdef __SSE2__
		unsigned m;

		for (; i + 16 <= len; i += 16)
			if ((m = not_url16(p + i)) != 0) {
				i += (size_t)__builtin_ctz(m);
				break;
			}
		if (i == len)
			break;
#endif
		c = p[i];
		switch (cls[c]) {
		case C_URL:
			i++;
			continue;
		case C_TERM:
			return i;
		case C_OPEN:
			depth[bracket_index(c)]++;
			i++;
			continue;
		case C_CLOSE:
			if (!depth[bracket_index(c)])
				return i;
			depth[bracket_index(c)]--;
			i++;
			continue;
		case C_QUOTE:
			if (c == opener)
				return i;
			i++;
			continue;
		default:
			n = uk_buf_utf8_seqlen(p + i, len - i);
			if (!n) {
				/* A sequence cut by the window is not invalid. */
				if (!final && prefix(p + i, len - i)) {
					*open = 1;
					return len;
				}
				return i;
			}
			if (uni_term(decode(p + i, n)))
				return i;
			i += n;
		}
	}
	*open = 1;
	return len;
}

static int
count(const char *s, size_t a, size_t b, char c)
{
	int k = 0;

	for (; a < b; a++)
		k += s[a] == c;
	return k;
}

/*
 * Drop trailing punctuation from s[start..end); returns the new end.  A
 * trailing '_' goes only when '_' also opened the URL (markdown emphasis):
 * tokens in paths and queries end in '_' often enough.
 */
/* Inlined by force, as host_ok: the bare scan calls them too, and the
 * default scan's cost must not change (1% more instructions without). */
#define UK_INLINE inline __attribute__((always_inline))

static UK_INLINE size_t
trim(const char *s, size_t start, size_t end, int opener)
{
	while (end > start) {
		char c = s[end - 1];

		switch (c) {
		case '_':
			if (opener != '_')
				return end;
			end--;
			continue;
		case '.':
		case ',':
		case ';':
		case ':':
		case '!':
		case '?':
		case '*':
		case '~':
			end--;
			continue;
		case '"':
		case '\'':
			if (count(s, start, end, c) % 2) {
				end--;
				continue;
			}
			return end;
		case ')':
			if (count(s, start, end, '(') < count(s, start, end, ')')) {
				end--;
				continue;
			}
			return end;
		case ']':
			if (count(s, start, end, '[') < count(s, start, end, ']')) {
				end--;
				continue;
			}
			return end;
		case '}':
			if (count(s, start, end, '{') < count(s, start, end, '}')) {
				end--;
				continue;
			}
			return end;
		default:
			return end;
		}
	}
	return end;
}

static int
is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

static int
is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/*
 * The bytes of a host name for host_ok, a class each: one lookup a byte
 * instead of the comparisons of is_alnum and the rest (host_ok and
 * authority_ok were a fifth of urldetect -u's instructions; issue 40).
 */
enum { H_DIGIT = 1, H_LETTER = 2, H_HYPHEN = 4, H_DOT = 8, H_HIGH = 16 };
static unsigned char hcls[256];

static void
hcls_fill(void)
{
	int c;

	for (c = 0; c < 256; c++)
		hcls[c] = c >= '0' && c <= '9' ? H_DIGIT :
		    is_alnum(c) ? H_LETTER : c == '-' ? H_HYPHEN :
		    c == '.' ? H_DOT : c >= 0x80 ? H_HIGH : 0;
}

#ifdef __SSE2__
/*
 * host_ok's rules on the bits of a host of at most 64 bytes, 16 bytes a
 * step, when the bytes up to the next multiple of 16 can be read (the
 * detector's window holds them): bits past n are masked off.  The
 * table loop below took 160 instructions a URL (issue 40).  Returns -1
 * for an address of digits and dots, which host_ok checks by hand.
 */
static UK_INLINE int
host_bits(const char *h, size_t n)
{
	uint64_t bad = 0, dot = 0, hy = 0, word = 0, mask;
	size_t i;
	unsigned nd;

	for (i = 0; i < n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)
		    (h + i));
		__m128i d = LE_EPU8(_mm_sub_epi8(x, _mm_set1_epi8('0')),
		    _mm_set1_epi8(9));
		__m128i l = LE_EPU8(_mm_sub_epi8(_mm_or_si128(x,
		    _mm_set1_epi8(0x20)), _mm_set1_epi8('a')), _mm_set1_epi8(25));
		__m128i y = _mm_cmpeq_epi8(x, _mm_set1_epi8('-'));
		__m128i t = _mm_cmpeq_epi8(x, _mm_set1_epi8('.'));
		__m128i w = _mm_or_si128(_mm_or_si128(l, y),
		    _mm_cmplt_epi8(x, _mm_setzero_si128()));

		bad |= (uint64_t)(~_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(d, t), w)) & 0xffff) << i;
		dot |= (uint64_t)(unsigned)_mm_movemask_epi8(t) << i;
		hy |= (uint64_t)(unsigned)_mm_movemask_epi8(y) << i;
		word |= (uint64_t)(unsigned)_mm_movemask_epi8(w) << i;
	}
	mask = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	dot &= mask;
	hy &= mask;
	/* A byte of none of the kinds; an empty label (a dot first or two
	 * together); '-' first, after a dot or before one, or last. */
	if ((bad & mask) || (dot & 1) || (hy & 1) || (dot & dot << 1) ||
	    (hy & dot >> 1) || (dot & hy >> 1) || (hy >> (n - 1) & 1))
		return 0;
	nd = (unsigned)__builtin_popcountll(dot);
	/* A trailing dot (a fully qualified name) after another. */
	if (dot >> (n - 1) & 1)
		return nd >= 2;
	return !(word & mask) && nd ? -1 : 1;
}
#endif

/* Whether h[0..n) is a plausible host; its bytes up to limit can be read
 * (NULL: only its own). */
static UK_INLINE int
host_ok(const char *h, size_t n, const char *limit)
{
	const unsigned char *p = (const unsigned char *)h;
	size_t i, start = 0; /* where the label under way starts */
	unsigned k, all = 0;
	int dots = 0;

	if (!n || n > 1024)
		return 0;
	if (h[0] == '[') {
		if (n < 4 || h[n - 1] != ']')
			return 0;
		for (i = 1; i < n - 1; i++)
			if (!is_hex((unsigned char)h[i]) && h[i] != ':' &&
			    h[i] != '.' && h[i] != '%')
				return 0;
		return memchr(h, ':', n) != NULL;
	}
#ifdef __SSE2__
	if (limit && n <= 64 && (size_t)(limit - h) >= ((n + 15) & ~(size_t)15)) {
		int r = host_bits(h, n);

		if (r >= 0)
			return r;
		goto digits;
	}
#else
	(void)limit;
#endif
	/* Labels of letters, digits, '-' and bytes from 0x80, neither empty
	 * nor starting or ending with '-'. */
	if (h[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		if (!(k = hcls[p[i]]))
			return 0;
		all |= k;
		if (!(k & H_DOT))
			continue;
		if (i == start || h[i - 1] == '-')
			return 0;
		/* A trailing dot (a fully qualified name) is allowed. */
		if (i + 1 == n && dots)
			return 1;
		if (i + 1 < n && h[i + 1] == '-')
			return 0;
		start = i + 1;
		dots++;
	}
	if (h[n - 1] == '.' || h[n - 1] == '-')
		return 0;
	/* All digits and dots: an IPv4 address or a number, 0-4 parts. */
	if (!(all & (H_LETTER | H_HYPHEN | H_HIGH)) && dots) {
#ifdef __SSE2__
digits:
		for (i = 0, dots = 0; i < n; i++)
			dots += h[i] == '.';
#endif
		if (dots != 3)
			return 0;
		for (i = 0; i < n;) {
			long v = 0;
			size_t j = i;

			while (j < n && h[j] != '.')
				v = v * 10 + (h[j++] - '0');
			if (j - i > 3 || v > 255)
				return 0;
			i = j + 1;
		}
	}
	return 1;
}

/*
 * Whether the authority a[0..len) (after "scheme://") has a plausible
 * host and port.
 */
static int
authority_ok(const char *a, size_t len, const char *limit)
{
	size_t i = 0, end = len, host = 0, port;

#ifdef __SSE2__
	/* Its end (the first '/', '?' or '#') and the last '@' before it,
	 * 16 bytes a step. */
	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)
		    (a + i));
		unsigned stop = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('/')),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('?'))),
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('#'))));
		unsigned at = (unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(x, _mm_set1_epi8('@')));

		if (stop)
			at &= (1U << __builtin_ctz(stop)) - 1;
		if (at)
			host = i + (size_t)(31 - __builtin_clz(at)) + 1;
		if (stop) {
			end = i + (size_t)__builtin_ctz(stop);
			goto found;
		}
	}
#endif
	for (; i < len; i++) {
		if (a[i] == '/' || a[i] == '?' || a[i] == '#') {
			end = i;
			break;
		}
		if (a[i] == '@')
			host = i + 1;
	}
#ifdef __SSE2__
found:
#endif
	port = end;
	if (host < end && a[host] == '[') {
		const char *rb = memchr(a + host, ']', end - host);

		if (!rb)
			return 0;
		port = (size_t)(rb - a) + 1;
		if (port < end && a[port] != ':')
			return 0;
	} else {
		const char *colon = memchr(a + host, ':', end - host);

		if (colon)
			port = (size_t)(colon - a);
	}
	if (port < end) {
		long v = 0;

		for (i = port + 1; i < end; i++) {
			if (a[i] < '0' || a[i] > '9' || i - port > 5)
				return 0;
			v = v * 10 + (a[i] - '0');
		}
		if (v > 65535)
			return 0;
	}
	return host_ok(a + host, port - host, limit);
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* The byte before the URL at s[start] when it is a quote or '_'. */
static int
opener_of(const char *s, size_t start)
{
	if (!start)
		return 0;
	switch (s[start - 1]) {
	case '"':
	case '\'':
	case '_':
		return s[start - 1];
	}
	return 0;
}

static size_t scan_bare(struct uk_detect *, const char *, size_t, size_t,
    int, uk_detect_fn, void *);

size_t
uk_detect_scan(struct uk_detect *d, const char *s, size_t from, size_t len,
    int final, uk_detect_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t pos = from;

	if (d->bare)
		return scan_bare(d, s, from, len, final, fn, ctx);

	if (d->skipping) {
		int open;
		size_t e = scan_end(s, pos, len, final, 0, &open);

		if (open && !final)
			return len;
		d->skipping = 0;
		pos = e;
	}
	while (pos < len) {
		const char *colon = memchr(s + pos, ':', len - pos);
		size_t c, start, body, end;
		int open, opener;

		if (!colon)
			return len;
		c = (size_t)(colon - s);
		if (c + 3 > len) {
			/*
			 * Keep what may be a scheme before the colon, but
			 * never what is done with: a URL reported just before
			 * (pos is its end) would be found again.
			 */
			if (!final)
				return c >= 5 && c - 5 > pos ? c - 5 : pos;
			return len;
		}
		pos = c + 1;
		if (s[c + 1] != '/' || s[c + 2] != '/' || c < 4)
			continue;
		if (lower(p[c - 1]) == 's' && c >= 5)
			start = c - 5;
		else
			start = c - 4;
		if (lower(p[start]) != 'h' || lower(p[start + 1]) != 't' ||
		    lower(p[start + 2]) != 't' || lower(p[start + 3]) != 'p')
			continue;
		if (start > 0 && is_alnum(p[start - 1]))
			continue;
		body = c + 3;
		opener = opener_of(s, start);
		end = scan_end(s, body, len, final, opener, &open);
		if (end - start > UK_DETECT_MAX_URL) {
			d->toolong++;
			if (open && !final) {
				d->skipping = 1;
				return len;
			}
			pos = end;
			continue;
		}
		if (open && !final)
			return start;
		end = trim(s, body, end, opener);
		if (end == body || !authority_ok(s + body, end - body, s + len))
			continue;
		if (fn(ctx, s, start, end))
			return (size_t)-1;
		pos = end;
	}
	return len;
}

/*
 * Top-level domains for bare URLs: the last label of every rule of the
 * Public Suffix List, sorted for bsearch.  Read by hand: libpsl would
 * answer "is this a public suffix", not "is this label a TLD", and the
 * file is a plain list of one rule a line.
 */
static char **tlds;
static size_t ntlds;
static const char *tlds_from = "built-in";
static pthread_once_t tlds_once = PTHREAD_ONCE_INIT;

/* Used when the list cannot be read: the common generic and country TLDs. */
static const char *const tld_fallback[] = {
	"ai", "app", "at", "au", "be", "biz", "blog", "br", "ca", "cc", "ch",
	"cloud", "cn", "co", "com", "cz", "de", "dev", "dk", "edu", "es", "eu",
	"fi", "fr", "gov", "gr", "hk", "ie", "in", "info", "int", "io", "it",
	"jp", "kr", "ly", "me", "mil", "mx", "net", "nl", "no", "nz", "org",
	"pl", "pt", "ru", "se", "sg", "site", "tech", "tv", "tw", "uk", "us",
	"ws", "xyz", "za", "\xd1\x80\xd1\x84"
};

static int
tld_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
tld_add(char ***v, size_t *n, size_t *cap, const char *t, size_t len)
{
	char *c;
	size_t i;

	if (!len || len > 63)
		return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 2048;
		*v = uk_util_xrealloc(*v, *cap * sizeof(**v));
	}
	c = uk_util_xmalloc(len + 1);
	for (i = 0; i < len; i++)
		c[i] = (char)lower((unsigned char)t[i]);
	c[len] = '\0';
	(*v)[(*n)++] = c;
}

static void bcls_fill(void);

static void
tlds_load(void)
{
	const char *path = getenv("URLKIT_PSL");
	char line[512], **v = NULL;
	size_t n = 0, cap = 0, i, j;
	FILE *f;

	bcls_fill();
	if (!path || !*path)
		path = UK_DETECT_PSL;
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), f)) {
			size_t e = strcspn(line, " \t\r\n"), b;

			if (!e || (line[0] == '/' && line[1] == '/'))
				continue;
			for (b = e; b > 0 && line[b - 1] != '.'; b--)
				;
			tld_add(&v, &n, &cap, line + b, e - b);
		}
		fclose(f);
		if (n)
			tlds_from = path;
	}
	if (!n) {
		for (i = 0; i < sizeof(tld_fallback) / sizeof(*tld_fallback);
		    i++)
			tld_add(&v, &n, &cap, tld_fallback[i],
			    strlen(tld_fallback[i]));
	}
	qsort(v, n, sizeof(*v), tld_cmp);
	for (i = j = 0; i < n; i++) {
		if (j && !strcmp(v[j - 1], v[i]))
			free(v[i]);
		else
			v[j++] = v[i];
	}
	tlds = v;
	ntlds = j;
}

void
uk_detect_bare(struct uk_detect *d)
{
	pthread_once(&tlds_once, tlds_load);
	d->bare = 1;
}

int
uk_detect_tld_ok(const char *s, size_t n)
{
	char key[64], *k = key;
	size_t i;

	if (!n || n >= sizeof(key) || !tlds)
		return 0;
	for (i = 0; i < n; i++)
		key[i] = (char)lower((unsigned char)s[i]);
	key[n] = '\0';
	return bsearch(&k, tlds, ntlds, sizeof(*tlds), tld_cmp) != NULL;
}

size_t
uk_detect_tld_count(const char **from)
{
	if (from)
		*from = tlds_from;
	return ntlds;
}

/*
 * Byte classes of the bare scan: what may start a bare URL (a letter or
 * digit, '/' of "//", the first byte of a multibyte character) and what
 * may come before one (a space, a control, ( [ { < > " ' * , ; | `, or a
 * byte of a multibyte character, which must be a space or punctuation).
 */
enum { B_FIRST = 1, B_PREV = 2, B_HOST = 4 /* letter, digit, '-' */ };
static unsigned char bcls[256];

static void
bcls_fill(void)
{
	const char *pv = "([{<>\"'*,;|`";
	int c;

	for (c = 0; c < 256; c++) {
		if (is_alnum(c) || c == '/' || c >= 0xc2)
			bcls[c] |= B_FIRST;
		if (is_alnum(c) || c == '-')
			bcls[c] |= B_HOST;
		if (c <= 0x20 || c >= 0x7f)
			bcls[c] |= B_PREV;
	}
	for (; *pv; pv++)
		bcls[(unsigned char)*pv] |= B_PREV;
}

/* The scan of one window in bare mode: what the gaps between URLs hold. */
struct bare {
	struct uk_detect *d;
	const char *s;
	size_t len;
	int final;
	size_t gap;  /* text from here not yet looked at for bare URLs */
	size_t hold; /* where an unfinished bare URL starts, or len */
	uk_detect_fn fn;
	void *ctx;
};

/* The code point whose encoding ends just before s[i], or 0. */
static unsigned long
cp_before(const unsigned char *p, size_t i)
{
	size_t j = i, n;

	while (j > 0 && i - j < 4 && (p[j - 1] & 0xc0) == 0x80)
		j--;
	if (!j)
		return 0;
	j--;
	n = uk_buf_utf8_seqlen(p + j, i - j);
	return n == i - j && n > 1 ? decode(p + j, n) : 0;
}

/* Whether a bare URL may start at p[i] after what comes before it. */
static UK_INLINE int
bare_start(const unsigned char *p, size_t i, size_t len)
{
	unsigned char c = p[i];

	if (!(bcls[c] & B_FIRST) || (i && !(bcls[p[i - 1]] & B_PREV)))
		return 0;
	if (c == '/' && (i + 2 >= len || p[i + 1] != '/' ||
	    !(bcls[p[i + 2]] & B_FIRST) || p[i + 2] == '/'))
		return 0;
	if (i && p[i - 1] >= 0x80)
		return uni_term(cp_before(p, i));
	return 1;
}

/*
 * Whether h[0..n) is a host a bare URL may have: labels of 1-63 bytes
 * that neither start nor end with '-', at least two; an IPv4 address or a
 * known top-level domain unless loose (after "//").
 */
static int
bare_host(const char *h, size_t n, int loose, int *labels)
{
	size_t i, lab = 0, last = 0;
	int digits = 1;

	*labels = 1;
	if (!n || n > 253)
		return 0;
	for (i = 0; i <= n; i++) {
		if (i == n || h[i] == '.') {
			if (!lab || lab > 63 || h[i - lab] == '-' ||
			    h[i - 1] == '-')
				return 0;
			if (i < n) {
				++*labels;
				last = i + 1;
			}
			lab = 0;
			continue;
		}
		if (h[i] < '0' || h[i] > '9')
			digits = 0;
		lab++;
	}
	if (*labels < 2)
		return 0;
	if (digits)
		return *labels == 4 && host_ok(h, n, NULL);
	if (loose)
		return host_ok(h, n, NULL);
	return uk_detect_tld_ok(h + last, n - last);
}

/*
 * Top-level domains a host alone (no path, port or "//") may end in: the
 * generic ones that are not also words of code (user.name, logger.info,
 * Main.java and df.style end in TLDs of the list).  As linkify-it's
 * default list, with io and dev.
 */
static const char *const tld_alone[] = {
	"aero", "asia", "biz", "com", "coop", "dev", "edu", "gov", "int", "io",
	"mil", "museum", "net", "org", "pro", "shop", "xxx"
};

/*
 * Whether h[0..n), a host of labels labels already checked, may be a URL
 * with nothing after it: a TLD of tld_alone; a non-ASCII TLD; a country
 * code (two ASCII letters) after two labels or more, the one before it
 * of two bytes or more and not all digits (setup.py, README.md and
 * main.rs are file names); anything after "www.".  Not an IPv4 address
 * (logs are full of them), nor letters of both cases after the first.
 */
static int
alone_ok(const char *h, size_t n, int labels)
{
	size_t b = n, i, k;
	int up = -1;

	while (b > 0 && h[b - 1] != '.')
		b--;
	if (n >= 4 && lower((unsigned char)h[0]) == 'w' &&
	    lower((unsigned char)h[1]) == 'w' &&
	    lower((unsigned char)h[2]) == 'w' && h[3] == '.')
		return 1;
	if ((unsigned char)h[b] >= 0x80)
		return 1;
	if (h[b] >= '0' && h[b] <= '9')
		return 0; /* an IPv4 address: in logs, not a link */
	/* One case after the first letter: Google.com, GOOGLE.COM, not
	 * z.U.il or sBt.qVF.SR (base64 and other noise). */
	for (i = 1; i < n; i++)
		if (((h[i] >= 'a' && h[i] <= 'z') && up > 0) ||
		    ((h[i] >= 'A' && h[i] <= 'Z') && up == 0))
			return 0;
		else if (up < 0 && h[i] >= 'A' && h[i] <= 'z')
			up = h[i] <= 'Z';
	for (i = 0; i < sizeof(tld_alone) / sizeof(*tld_alone); i++)
		if (strlen(tld_alone[i]) == n - b &&
		    !strncasecmp(tld_alone[i], h + b, n - b))
			return 1;
	if (n - b != 2)
		return 0;
	/* A country code after a name of two bytes or more. */
	for (i = b - 1, k = 0; i > 0 && h[i - 1] != '.'; i--)
		k += h[i - 1] < '0' || h[i - 1] > '9';
	return labels > 2 && b - 1 - i >= 2 && k > 0;
}

/*
 * Look for a bare URL at s[i], the gap ending at b (soft: the text may go
 * on past b).  Returns where to go on from, (size_t)-1 when fn said stop;
 * sets bt->hold when the URL may run past the window.
 */
static size_t
bare_try(struct bare *bt, size_t i, size_t b, int soft)
{
	const char *s = bt->s;
	const unsigned char *p = (const unsigned char *)s;
	size_t hs = i, h, he, end, n;
	int loose = 0, open, labels, opener, cls_c, clean, strong, dot = 0;
	unsigned char c;

	if (p[i] == '/') {
		hs = i + 2;
		loose = 1;
	}
	for (h = hs; h < b;) {
		c = p[h];
		if (bcls[c] & B_HOST) {
			h++;
			continue;
		}
		if (c == '.') {
			dot = 1;
			h++;
			continue;
		}
		if (c < 0x80)
			break;
		n = uk_buf_utf8_seqlen(p + h, b - h);
		if (!n || uni_term(decode(p + h, n)))
			break;
		h += n;
	}
	if (h == b && soft) {
		if (b - i <= UK_DETECT_MAX_URL)
			bt->hold = i;
		return b;
	}
	if (!dot)
		return h > i ? h : i + 1; /* one label: not a host */
	for (he = h; he > hs && p[he - 1] == '.'; he--)
		;
	if (he == hs || !bare_host(s + hs, he - hs, loose, &labels))
		return h > i ? h : i + 1;
	end = he;
	clean = he == h; /* no dot trimmed: a port or path may follow */
	c = h < b ? p[h] : ' ';
	if (clean && c == ':' && h + 1 < b && p[h + 1] >= '0' &&
	    p[h + 1] <= '9') {
		long v = 0;

		for (end = h + 1; end < b && p[end] >= '0' && p[end] <= '9';
		    end++)
			if ((v = v * 10 + (p[end] - '0')) > 65535)
				return end;
		if (end == b && soft) {
			bt->hold = i;
			return b;
		}
		c = end < b ? p[end] : ' ';
		h = end;
	}
	cls_c = c < 0x80 ? cls[c] : C_HIGH;
	opener = opener_of(s, i);
	strong = end > he; /* a port */
	if (clean && (c == '/' || c == '?' || c == '#')) {
		size_t e = scan_end(s, h, b, !soft, opener, &open);

		strong |= c == '/';
		if (open && soft) {
			if (b - i <= UK_DETECT_MAX_URL)
				bt->hold = i;
			return b;
		}
		end = trim(s, end, e, opener);
		if (e - i > UK_DETECT_MAX_URL) {
			bt->d->toolong++;
			return e;
		}
		h = e;
	} else if (c == '@' || c == '_' || c == '(' || c == '[' ||
	    c == '{' || (cls_c == C_URL && !strchr(".,;:!?*~", c)))
		return h;
	/* Only a path that starts with '/' or a port makes a host a URL. */
	if (!loose && !strong && !alone_ok(s + hs, he - hs, labels))
		return h;
	bt->d->bare_hit = 1;
	n = bt->fn(bt->ctx, s, i, end);
	bt->d->bare_hit = 0;
	return n ? (size_t)-1 : end;
}

/* Report the bare URLs of s[a..b); 1 when fn said stop. */
static int
bare_gap(struct bare *bt, size_t a, size_t b, int soft)
{
	const unsigned char *p = (const unsigned char *)bt->s;
	size_t i = a;

	while (i < b && bt->hold == bt->len) {
		if (!bare_start(p, i, b)) {
			i++;
			continue;
		}
		if ((i = bare_try(bt, i, b, soft)) == (size_t)-1)
			return 1;
	}
	return 0;
}

/* A URL with a scheme: the bare ones before it go first. */
static int
bare_scheme_found(void *ctx, const char *s, size_t start, size_t end)
{
	struct bare *bt = ctx;

	(void)s;
	if (start > bt->gap && bare_gap(bt, bt->gap, start, 0))
		return 1;
	bt->gap = end;
	return bt->fn(bt->ctx, bt->s, start, end);
}

static size_t
scan_bare(struct uk_detect *d, const char *s, size_t from, size_t len,
    int final, uk_detect_fn fn, void *ctx)
{
	struct bare bt;
	size_t done;

	bt.d = d;
	bt.s = s;
	bt.len = bt.hold = len;
	bt.final = final;
	bt.gap = from;
	bt.fn = fn;
	bt.ctx = ctx;
	/* The URLs with a scheme, as the default scan finds them. */
	d->bare = 0;
	done = uk_detect_scan(d, s, from, len, final, bare_scheme_found, &bt);
	d->bare = 1;
	if (done == (size_t)-1)
		return done;
	if (d->skipping)
		return done; /* inside an over-long URL: nothing to hold */
	if (!final) {
		/*
		 * What follows the last space may go on in the next window:
		 * it is looked at then (a bare URL never holds a space).
		 */
		size_t tail = done;

		while (tail > bt.gap && (unsigned char)s[tail - 1] > 0x20 &&
		    s[tail - 1] != 0x7f)
			tail--;
		if (done - tail <= UK_DETECT_MAX_URL) {
			if (tail > bt.gap && bare_gap(&bt, bt.gap, tail, 0))
				return (size_t)-1;
			return tail;
		}
	}
	if (done > bt.gap && bare_gap(&bt, bt.gap, done, !final))
		return (size_t)-1;
	return bt.hold < done ? bt.hold : done;
}
