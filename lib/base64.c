/* SPDX-License-Identifier: MIT */
#include <openssl/evp.h>

#include "banned.h"
#include "base64.h"

void
uk_base64_encode(const void *data, size_t len, struct uk_buf *out)
{
	size_t n = 4 * ((len + 2) / 3);

	uk_buf_grow(out, n + 1);
	EVP_EncodeBlock((unsigned char *)out->buf + out->len, data, (int)len);
	uk_buf_setlen(out, out->len + n);
}

int
uk_base64_decode(const char *text, size_t len, struct uk_buf *out)
{
	size_t pad = 0;
	int n;

	if (len % 4)
		return -1;
	if (len && text[len - 1] == '=')
		pad++;
	if (len > 1 && text[len - 2] == '=')
		pad++;
	uk_buf_grow(out, len / 4 * 3 + 1);
	/*
	 * EVP_DecodeBlock counts the padding as zero bytes of output: the
	 * length it returns is cut by the '=' seen above.
	 */
	n = EVP_DecodeBlock((unsigned char *)out->buf + out->len,
	    (const unsigned char *)text, (int)len);
	if (n < 0)
		return -1;
	uk_buf_setlen(out, out->len + (size_t)n - pad);
	return 0;
}
