/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/base64 (TAP): RFC 4648's vectors, round trips, refusals. */
#include <string.h>

#include "banned.h"
#include "base64.h"
#include "buf.h"
#include "tap.h"

static void
test_vectors(void)
{
	/* RFC 4648, section 10. */
	static const char *const plain[] = { "", "f", "fo", "foo", "foob",
		"fooba", "foobar" };
	static const char *const coded[] = { "", "Zg==", "Zm8=", "Zm9v",
		"Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	struct uk_buf b = UK_BUF_INIT, d = UK_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		uk_buf_reset(&b);
		uk_buf_reset(&d);
		uk_base64_encode(plain[i], strlen(plain[i]), &b);
		ok(!strcmp(b.buf, coded[i]), "encode '%s' is '%s' (got '%s')",
		    plain[i], coded[i], b.buf);
		ok(!uk_base64_decode(coded[i], strlen(coded[i]), &d) &&
			d.len == strlen(plain[i]) &&
			!memcmp(d.buf, plain[i], d.len),
		    "decode '%s'", coded[i]);
	}
	uk_buf_release(&b);
	uk_buf_release(&d);
}

static void
test_appends(void)
{
	struct uk_buf b = UK_BUF_INIT, d = UK_BUF_INIT;
	unsigned char bin[256];
	size_t i;

	for (i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)i;
	uk_buf_addstr(&b, "x:");
	uk_base64_encode(bin, sizeof(bin), &b);
	ok(!strncmp(b.buf, "x:", 2) && b.len == 2 + 344,
	    "encoding appends to what the buffer holds");
	uk_buf_addstr(&d, "y");
	ok(!uk_base64_decode(b.buf + 2, b.len - 2, &d) &&
		d.len == 1 + sizeof(bin) &&
		!memcmp(d.buf + 1, bin, sizeof(bin)),
	    "every byte value round trips, appended");
	uk_buf_release(&b);
	uk_buf_release(&d);
}

static void
test_refused(void)
{
	struct uk_buf d = UK_BUF_INIT;

	ok(uk_base64_decode("abc", 3, &d) == -1, "a length not of four");
	uk_buf_reset(&d);
	ok(uk_base64_decode("ab!d", 4, &d) == -1,
	    "a byte outside the alphabet");
	uk_buf_release(&d);
}

int
main(void)
{
	test_vectors();
	test_appends();
	test_refused();
	return tap_done();
}
