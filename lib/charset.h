/* SPDX-License-Identifier: MIT */
#ifndef UK_CHARSET_H
#define UK_CHARSET_H

/*
 * Character set of an HTML page and its conversion to UTF-8.
 *
 * The order is the one WHATWG's encoding sniffing uses, cut down: the
 * charset parameter of the HTTP Content-Type header, then a byte order
 * mark, then <meta charset=...> or <meta http-equiv="Content-Type"
 * content="...; charset=..."> in the first 1024 bytes, then UTF-8.  Labels
 * are normalised: iso-8859-1, latin1, us-ascii and their aliases read as
 * windows-1252, as browsers do; utf8 and unicode-1-1-utf-8 as UTF-8.
 * Only the encodings of WHATWG's Encoding Standard are honoured (those a
 * browser reads HTML in): another label (utf-32, IBM037) is skipped as if
 * absent, so such a page is read as UTF-8 unless a later source says
 * otherwise; uk_charset_ignored tells what was skipped.
 */

#include <stddef.h>

#include "buf.h"
#include "util.h"

/*
 * The normalised name of a charset label (lower case, as iconv knows it),
 * written into out (size >= 64).  Returns out, or NULL when label is empty,
 * longer than a label can be, or not an encoding of WHATWG's list.
 */
char *uk_charset_normalize(const char *label, size_t len, char *out,
    size_t size);

/*
 * The charset parameter of a Content-Type header value, normalised, into
 * out (size >= 64).  NULL when there is none.
 */
char *uk_charset_from_content_type(const char *ct, char *out, size_t size);

/*
 * The charset of html[0..len), following the order above, into out
 * (size >= 64).  Never fails: the answer is at worst "utf-8".  *bom is set
 * to the length of the byte order mark found (0 when none).
 */
const char *uk_charset_detect(const char *html, size_t len,
    const char *content_type, char *out, size_t size, size_t *bom);

/*
 * The first charset declared for html[0..len) (by content_type, then a
 * <meta>) that uk_charset_detect skipped as not WHATWG's, lower-cased,
 * into out (size >= 64); NULL when none was.  For a warning.
 */
char *uk_charset_ignored(const char *html, size_t len,
    const char *content_type, char *out, size_t size);

/*
 * Append in[0..len), read as charset, to out as UTF-8.  Invalid or
 * unconvertible bytes become U+FFFD; a leading byte order mark is dropped.
 * 0 on success; -1 with err when iconv does not know the charset (the
 * caller may then read the page as UTF-8).
 */
int uk_charset_to_utf8(const char *in, size_t len, const char *charset,
    struct uk_buf *out, struct uk_err *err);

#endif
