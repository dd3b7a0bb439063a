/* SPDX-License-Identifier: MIT */
#ifndef UK_URLREF_H
#define UK_URLREF_H

/*
 * Resolving a reference (an href or src as a page has it) against the
 * page's URL, as RFC 3986 section 5 says, in plain string work.
 */

/*
 * The absolute form of ref resolved against base (an absolute URL with a
 * scheme), newly allocated; ref itself (a copy, leading and trailing
 * white space cut) when base is NULL or has no scheme.  Spaces, control
 * characters and '<', '>' in the result are percent-encoded.  NULL when
 * ref is empty.
 */
char *uk_urlref_resolve(const char *base, const char *ref);

#endif
