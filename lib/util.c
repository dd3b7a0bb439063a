/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "banned.h"

const char *uk_prog = "urlkit";
int uk_status = UK_EXIT_OK;
void (*uk_warn_hook)(void);

int
uk_err_set(struct uk_err *err, int code, const char *fmt, ...)
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
uk_prog_set(const char *argv0)
{
	const char *p;

	if (!argv0 || !*argv0)
		return;
	p = strrchr(argv0, '/');
	uk_prog = p ? p + 1 : argv0;
}

void
uk_status_set(int code)
{
	if (code > uk_status)
		uk_status = code;
}

void
uk_fputs_clean(const char *s, FILE *f)
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
	uk_fputs_clean(n < 0 ? fmt : msg, stderr);
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
}

void
uk_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
uk_die(int code, const char *fmt, ...)
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
uk_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *
uk_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	return p ? p : oom();
}

void *
uk_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom();
}

char *
uk_xstrdup(const char *s)
{
	return uk_xmemdup(s, strlen(s));
}

char *
uk_xmemdup(const void *p, size_t n)
{
	char *q = uk_xmalloc(n + 1);

	memcpy(q, p, n);
	q[n] = '\0';
	return q;
}

int
uk_parse_long(const char *s, long min, long max, long *out)
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
uk_parse_seconds(const char *s, double *out)
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
uk_parse_size(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v, mul = 1;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mul = 1ULL << 10;
		break;
	case 'm':
	case 'M':
		mul = 1ULL << 20;
		break;
	case 'g':
	case 'G':
		mul = 1ULL << 30;
		break;
	default:
		return -1;
	}
	if (*end && end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
		return -1;
	if (v > ~0ULL / mul)
		return -1;
	*out = v * mul;
	return 0;
}

void
uk_time_fmt(long long ns, char *buf, size_t size)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	    tm.tm_sec, (int)(ns % 1000000000 / 1000000));
}

void
uk_time_rfc3339(char *buf, size_t size)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	uk_time_fmt((long long)ts.tv_sec * 1000000000 + ts.tv_nsec, buf, size);
}

void
uk_signals_hold(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
uk_signals_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int
uk_child_keep_fd(int fd)
{
	if (fd > 3) {
		if (dup2(fd, 3) < 0)
			return -1;
		fd = 3;
	}
	/* close_range (Linux 5.9, glibc 2.34) closes the rest in one call. */
	close_range(fd < 3 ? 3 : 4, ~0U, 0);
	return fd;
}

char *
uk_str_printable(char *s)
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
uk_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long long
uk_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
