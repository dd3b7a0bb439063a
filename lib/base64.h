/* SPDX-License-Identifier: MIT */
#ifndef UK_BASE64_H
#define UK_BASE64_H

/*
 * Base64 (RFC 4648, the standard alphabet with '=' padding), encoded and
 * decoded by libcrypto's EVP_EncodeBlock and EVP_DecodeBlock.  The one
 * implementation in the tree: the WebSocket handshake of lib/cdp and the
 * screenshots pwfetch saves both use it.
 *
 * Usage:
 *
 *	struct uk_buf b = UK_BUF_INIT;
 *
 *	uk_base64_encode("hello", 5, &b);        b.buf is "aGVsbG8="
 *	if (uk_base64_decode(text, len, &png))   not base64: refuse it
 *
 * Both append to a buffer the caller owns (and releases); neither prints.
 */

#include <stddef.h>

#include "buf.h"

/* Append the base64 text of data[0..len) to out (no line breaks). */
void uk_base64_encode(const void *data, size_t len, struct uk_buf *out);

/*
 * Append the bytes that text[0..len) encodes to out.  Returns 0, or -1
 * when the text is not base64 (a length that is not a multiple of four,
 * or a byte outside the alphabet); out may then hold a partial result
 * past its old length, which the caller resets or releases.
 */
int uk_base64_decode(const char *text, size_t len, struct uk_buf *out);

#endif
