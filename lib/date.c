/* SPDX-License-Identifier: MIT */
/*
 * W3C datetime and RFC 822 dates, parsed by hand: strptime's formats are
 * fixed, and these two grammars have optional parts (seconds, fractions,
 * the time itself) and zones in several forms (Z, +01:00, +0100, GMT,
 * EST); each grammar is a few lines.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "date.h"
#include "banned.h"

/* n digits at *s into *v; advances *s.  -1 when they are not there. */
static int
digits(const char **s, int n, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if ((*s)[i] < '0' || (*s)[i] > '9')
			return -1;
		*v = *v * 10 + ((*s)[i] - '0');
	}
	*s += n;
	return 0;
}

static int
make(int y, int mo, int d, int h, int mi, int sec, long off, long long *t)
{
	struct tm tm;

	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 ||
	    sec > 60 || y < 1970 || y > 9999)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	*t = (long long)timegm(&tm) - off;
	return 0;
}

/* "Z", "+01:00", "-0500", or nothing (UTC); -1 on anything else. */
static int
zone(const char *s, long *off)
{
	int sign, h, m;

	*off = 0;
	while (*s == ' ')
		s++;
	if (*s == '\0' || strcmp(s, "Z") == 0 || strcasecmp(s, "GMT") == 0 ||
	    strcasecmp(s, "UT") == 0 || strcasecmp(s, "UTC") == 0)
		return 0;
	if (*s != '+' && *s != '-') {
		static const struct {
			const char *name;
			int hours;
		} names[] = { { "EST", -5 }, { "EDT", -4 }, { "CST", -6 },
			{ "CDT", -5 }, { "MST", -7 }, { "MDT", -6 },
			{ "PST", -8 }, { "PDT", -7 } };
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcasecmp(s, names[i].name) == 0) {
				*off = names[i].hours * 3600L;
				return 0;
			}
		return -1;
	}
	sign = *s++ == '-' ? -1 : 1;
	if (digits(&s, 2, &h))
		return -1;
	if (*s == ':')
		s++;
	if (digits(&s, 2, &m) || *s)
		return -1;
	*off = sign * (h * 3600L + m * 60L);
	return 0;
}

/*
 * "hh:mm" with optional ":ss" at *s into *h, *mi, *sec; advances *s.
 * 1 when the seconds were there, 0 when not, -1 when the hours or minutes
 * (or the seconds after a second colon) are not there.
 */
static int
hms(const char **s, int *h, int *mi, int *sec)
{
	if (digits(s, 2, h) || *(*s)++ != ':' || digits(s, 2, mi))
		return -1;
	if (**s != ':')
		return 0;
	(*s)++;
	return digits(s, 2, sec) ? -1 : 1;
}

static int
w3c(const char *s, long long *t)
{
	int y, mo = 1, d = 1, h = 0, mi = 0, sec = 0, n;
	long off = 0;

	if (digits(&s, 4, &y))
		return -1;
	if (*s == '-') {
		s++;
		if (digits(&s, 2, &mo))
			return -1;
		if (*s == '-') {
			s++;
			if (digits(&s, 2, &d))
				return -1;
			if (*s == 'T' || *s == 't' || *s == ' ') {
				s++;
				if ((n = hms(&s, &h, &mi, &sec)) == -1)
					return -1;
				if (n == 1 && *s == '.')
					for (s++; *s >= '0' && *s <= '9'; s++)
						;
				if (zone(s, &off))
					return -1;
				s = "";
			}
		}
	}
	if (*s)
		return -1;
	return make(y, mo, d, h, mi, sec, off, t);
}

static int
rfc822(const char *s, long long *t)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int d, y, h, mi, sec = 0, mo;
	long off;
	const char *c = strchr(s, ',');
	char mon[4];

	if (c)
		s = c + 1;
	while (*s == ' ')
		s++;
	if (digits(&s, 2, &d) && digits(&s, 1, &d))
		return -1;
	if (*s++ != ' ')
		return -1;
	memcpy(mon, s, 3);
	mon[3] = '\0';
	if (strlen(mon) != 3 || !(c = strstr(months, mon)) ||
	    (c - months) % 3)
		return -1;
	mo = (int)(c - months) / 3 + 1;
	s += 3;
	if (*s++ != ' ')
		return -1;
	if (digits(&s, 4, &y)) {
		if (digits(&s, 2, &y))
			return -1;
		y += y < 70 ? 2000 : 1900;
	}
	if (*s++ != ' ' || hms(&s, &h, &mi, &sec) == -1)
		return -1;
	if (zone(s, &off))
		return -1;
	return make(y, mo, d, h, mi, sec, off, t);
}

int
uk_date_parse(const char *s, long long *t)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (w3c(s, t) == 0)
		return 0;
	return rfc822(s, t);
}

void
uk_date_format(long long t, char *buf, unsigned long size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
