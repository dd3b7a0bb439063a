/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: URL detection on arbitrary bytes, in one pass and in
 * windows (the two must agree), and classification of what is found.
 */
#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "detect.h"
#include "url.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

static int
collect(void *ctx, const char *s, size_t start, size_t end)
{
	struct uk_buf *b = ctx;
	struct uk_url u;
	char *url = uk_util_xmemdup(s + start, end - start);

	if (end <= start)
		abort();
	uk_url_classify(url, &u);
	uk_url_release(&u);
	free(url);
	uk_buf_add(b, s + start, end - start);
	uk_buf_addch(b, '\n');
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_buf one = UK_BUF_INIT, win = UK_BUF_INIT;
	struct uk_detect d;
	const char *s = (const char *)data;
	size_t step = size ? (size_t)data[0] % 17 + 1 : 1;
	size_t have = 0, from = 0, base = 0, done, keep;
	char *w = malloc(size + 1);

	uk_detect_init(&d);
	uk_detect_scan(&d, s, 0, size, 1, collect, &one);
	uk_detect_init(&d);
	for (;;) {
		size_t more = size - (base + have);
		int final;

		if (more > step)
			more = step;
		memcpy(w + have, s + base + have, more);
		have += more;
		final = base + have == size;
		done = uk_detect_scan(&d, w, from, have, final, collect, &win);
		if (final)
			break;
		keep = done > UK_DETECT_LOOKBACK ? done - UK_DETECT_LOOKBACK : 0;
		memmove(w, w + keep, have - keep);
		base += keep;
		have -= keep;
		from = done - keep;
	}
	if (one.len != win.len || memcmp(one.buf, win.buf, one.len))
		abort();
	free(w);
	uk_buf_release(&one);
	uk_buf_release(&win);
	return 0;
}
