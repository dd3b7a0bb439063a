/* SPDX-License-Identifier: MIT */
#ifndef UK_URLNORM_H
#define UK_URLNORM_H

/*
 * The one form of a URL that two spellings of the same page share, for
 * de-duplication: parsed and rebuilt by libcurl's curl_url, with
 *
 *   - the scheme and host in lower case, the default port dropped;
 *   - the fragment dropped;
 *   - an empty path made "/", a last segment "index.html" or "index.htm"
 *     dropped ("/docs/index.html" is "/docs/");
 *   - the query's tracking parameters dropped: utm_* and the click ids
 *     gclid, fbclid, msclkid, mc_cid, mc_eid, _ga, yclid; an empty query
 *     dropped.
 *
 * Only http and https URLs have one.
 */

/* The normal form of url (newly allocated), or NULL when it is not an
 * http(s) URL curl can parse. */
char *uk_urlnorm(const char *url);

#endif
