/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <string.h>

#include "detect.h"
#include "buf.h"
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
}

void
uk_detect_init(struct uk_detect *d)
{
	d->skipping = 0;
	d->toolong = 0;
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
		unsigned char c = p[i];

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
static size_t
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

static int
host_ok(const char *h, size_t n)
{
	size_t i, label = 0;
	int digits_only = 1, dots = 0;

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
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)h[i];

		if (c == '.') {
			if (!label || h[i - 1] == '-')
				return 0;
			/* A trailing dot (a fully qualified name) is allowed. */
			if (i + 1 == n && dots)
				return 1;
			label = 0;
			dots++;
			continue;
		}
		if (c == '-') {
			if (!label)
				return 0;
		} else if (c < 0x80 && !is_alnum(c))
			return 0;
		if (c < '0' || c > '9')
			digits_only = 0;
		label++;
	}
	if (!label || h[n - 1] == '-')
		return 0;
	/* All digits and dots: an IPv4 address or a number, 0-4 parts. */
	if (digits_only && dots) {
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
authority_ok(const char *a, size_t len)
{
	size_t i, end = len, host = 0, port;

	for (i = 0; i < len; i++)
		if (a[i] == '/' || a[i] == '?' || a[i] == '#') {
			end = i;
			break;
		}
	for (i = end; i > 0; i--)
		if (a[i - 1] == '@') {
			host = i;
			break;
		}
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
	return host_ok(a + host, port - host);
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

size_t
uk_detect_scan(struct uk_detect *d, const char *s, size_t from, size_t len,
    int final, uk_detect_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t pos = from;

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
		if (end == body || !authority_ok(s + body, end - body))
			continue;
		if (fn(ctx, s, start, end))
			return (size_t)-1;
		pos = end;
	}
	return len;
}
