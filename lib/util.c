/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"
#include "banned.h"

#define NS 1000000000LL

const char *uk_prog = "urlkit";
int uk_status = UK_EXIT_OK;
void (*uk_warn_hook)(void);

int
uk_util_err_set(struct uk_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void
uk_util_prog_set(const char *argv0)
{
	const char *p;

	if (!argv0 || !*argv0)
		return;
	p = strrchr(argv0, '/');
	uk_prog = p ? p + 1 : argv0;
}

/*
 * Where the heap's pages cost most, give it huge pages.  On the virtual
 * machines urlkit is measured on, a first touch of a 4 KiB page costs some
 * 15 microseconds (5,900 of them were 40% of urlfetch's CPU on a 1.8 MB
 * repository, 400 of them a fifth of one page's extraction), and one 2 MiB
 * page costs what ten small ones do.  So: one arena for every thread (the
 * parse threads' own arenas would be mmap'd heaps no advice reaches), big
 * blocks from the heap rather than from mmap, never given back before exit
 * (a freed tree's pages are the next one's), and the heap grown once by
 * UK_HEAP_RESERVE of address space advised MADV_HUGEPAGE.  Only address
 * space is reserved: memory is taken as it is touched, 2 MiB at a time,
 * and stays bounded by what the input needs.  Where transparent huge pages
 * are off, or under a sanitizer's allocator, the advice does nothing.
 * glibc's own glibc.malloc.hugetlb tunable does the same, but only from the
 * environment, before main.
 */
#define UK_HEAP_RESERVE (64u << 20)
#define UK_HUGE (2u << 20)
static void *heap_head; /* the heap's head, below its first huge page */

void
uk_util_heap_init(void)
{
	uintptr_t lo, hi;
	void *p;

	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, UK_HEAP_RESERVE / 2);
	lo = (uintptr_t)sbrk(0);
	/* Bigger than any top the heap has yet: it grows by this and the pad. */
	if ((p = malloc(UK_HEAP_RESERVE / 4)))
		free(p);
	hi = (uintptr_t)sbrk(0);
	lo = (lo + UK_HUGE - 1) & ~(uintptr_t)(UK_HUGE - 1);
	hi &= ~(uintptr_t)(UK_HUGE - 1);
	if (hi <= lo)
		return;
	(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	/*
	 * The heap's first bytes, up to the first 2 MiB boundary, cannot be
	 * a huge page, and small blocks are taken from there first: up to
	 * 2 MiB in small pages, most of what one page's extraction touches
	 * (330 of 415 page faults on a 150 KB page).  Take them once, as a
	 * block never used, so that the program's own lie in huge pages.
	 */
	if ((p = malloc(1))) {
		uintptr_t at = (uintptr_t)p;

		free(p);
		if (lo > at + 4096 && lo - at < UK_HUGE)
			heap_head = malloc(lo - at - 64);
	}
}

void
uk_util_status_set(int code)
{
	if (code > uk_status)
		uk_status = code;
}

void
uk_util_fputs_clean(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\x%02x", *++p); /* C1, as UTF-8 */
		else
			fputc(*p, f);
	}
}

/*
 * The message is formatted first and then written cleaned: it quotes
 * input (a record's URL, a server's message), and ESC or BEL from there
 * must not reach the terminal as escapes.
 */
static void
vwarn(const char *fmt, va_list ap)
{
	char small[512], *msg = small;
	va_list ap2;
	int n;

	if (uk_warn_hook)
		uk_warn_hook();
	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1)))
		vsnprintf(msg, (size_t)n + 1, fmt, ap2);
	else
		msg = small; /* out of memory: the message cut short */
	va_end(ap2);
	fprintf(stderr, "%s: ", uk_prog);
	uk_util_fputs_clean(n < 0 ? fmt : msg, stderr);
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
}

void
uk_util_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
uk_util_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(code);
}

static void *
oom(void)
{
	fprintf(stderr, "%s: out of memory\n", uk_prog);
	exit(UK_EXIT_FATAL);
}

void *
uk_util_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *
uk_util_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	return p ? p : oom();
}

void *
uk_util_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom();
}

char *
uk_util_xstrdup(const char *s)
{
	return uk_util_xmemdup(s, strlen(s));
}

char *
uk_util_xmemdup(const void *p, size_t n)
{
	char *q = uk_util_xmalloc(n + 1);

	memcpy(q, p, n);
	q[n] = '\0';
	return q;
}

int
uk_util_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
uk_util_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || v < 0 || end == s)
		return -1;
	switch (*end) {
	case '\0':
	case 's':
		break;
	case 'm':
		v *= 60;
		break;
	case 'h':
		v *= 3600;
		break;
	case 'd':
		v *= 86400;
		break;
	default:
		return -1;
	}
	if (*end && end[1])
		return -1;
	*out = v;
	return 0;
}

int
uk_util_parse_size(const char *s, unsigned long long *out)
{
	static const char units[] = "BKMGT";
	const char *u;
	char *end;
	unsigned long long v, mul = 1;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		if (!(u = strchr(units, *end >= 'a' ? *end - 32 : *end)) || !*u)
			return -1;
		mul = 1ULL << (10 * (u - units));
		end++;
		/* "K", "KB", "KiB", "kb": B alone takes no suffix. */
		if (*end && (*u == 'B' || (strcasecmp(end, "B") &&
		    strcasecmp(end, "iB"))))
			return -1;
	}
	if (v > ~0ULL / mul)
		return -1;
	*out = v * mul;
	return 0;
}

void
uk_util_time_fmt(long long ns, char *buf, size_t size)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (int)(ns % 1000000000 / 1000000));
}

long long
uk_util_time_parse(const char *s, size_t len)
{
	char buf[40];
	struct tm tm;
	time_t t;
	long long frac = 0, unit = 100000000;
	int n = -1, i;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(&tm, 0, sizeof(tm));
	/* %n, not a %[...] for the fraction, which must match one character
	 * at least: "...:00Z" was refused. */
	if (sscanf(buf, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
		&tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    n < 0)
		return -1;
	if (buf[n] == '.') {
		for (i = n + 1; buf[i] >= '0' && buf[i] <= '9'; i++) {
			frac += (buf[i] - '0') * unit;
			unit /= 10;
		}
		if (i == n + 1)
			return -1;
		n = i;
	}
	if (buf[n] != 'Z' || buf[n + 1])
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	if ((t = timegm(&tm)) == (time_t)-1)
		return -1;
	return (long long)t * 1000000000 + frac;
}

void
uk_util_time_rfc3339(char *buf, size_t size)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	uk_util_time_fmt((long long)ts.tv_sec * 1000000000 + ts.tv_nsec, buf,
	    size);
}

void
uk_util_signals_hold(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
uk_util_signals_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

char *
uk_util_str_printable(char *s)
{
	unsigned char *p = (unsigned char *)s, *q = p;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			*q++ = '?';
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			*q++ = '?';
			p++;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return s;
}

double
uk_util_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long long
uk_util_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Files: mkdir -p and the atomic write (see util.h). */

long long
uk_util_time_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

int
uk_util_errno_fatal(int e)
{
	return e == EACCES || e == EPERM || e == EROFS || e == ENOSPC ||
	    e == EDQUOT;
}

int
uk_util_mkdir_p(const char *dir, struct uk_err *err)
{
	char *p = uk_util_xstrdup(dir), *s;
	struct stat st;
	int r = 0;

	for (s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		if (s[-1] != '/') {
			char ch = *s;

			*s = '\0';
			if (mkdir(p, 0700) && errno != EEXIST) {
				r = uk_util_err_set(err,
				    uk_util_errno_fatal(errno) ? UK_EXIT_FATAL :
								 UK_EXIT_FAIL,
				    "cannot create '%s': %s", p,
				    strerror(errno));
				break;
			}
			*s = ch;
		}
		if (!*s)
			break;
	}
	if (!r && (stat(dir, &st) || !S_ISDIR(st.st_mode)))
		r = uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s' is not a directory", dir);
	free(p);
	return r;
}

