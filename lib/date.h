/* SPDX-License-Identifier: MIT */
#ifndef UK_DATE_H
#define UK_DATE_H

/*
 * Dates as sitemaps and feeds write them: the W3C datetime profile of ISO
 * 8601 (sitemaps' <lastmod>, Atom, JSON Feed: "2026-11-01",
 * "2026-11-01T12:00:00+01:00", "2026-11-01T12:00Z", a year, a month) and
 * RFC 822 as RSS 2.0 has it ("Sun, 01 Nov 2026 12:00:00 GMT", "+0100",
 * the zone names of RFC 822).
 */

/*
 * The seconds since the epoch of s, in *t.  0, or -1 when s is neither
 * form (or a date that cannot be).
 */
int uk_date_parse(const char *s, long long *t);

/* t as RFC 3339 in UTC ("2026-11-01T11:00:00Z") into buf (>= 21 bytes). */
void uk_date_format(long long t, char *buf, unsigned long size);

#endif
