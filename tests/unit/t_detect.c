/* SPDX-License-Identifier: MIT */
/* The URL scanner: the detection rules of urldetect(1), then streaming in
 * windows of every size. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "detect.h"
#include "tap.h"

struct found {
	struct uk_buf urls; /* space-separated */
	struct uk_buf offs;
};

static int
collect(void *ctx, const char *s, size_t start, size_t end)
{
	struct found *f = ctx;

	if (f->urls.len)
		uk_buf_addch(&f->urls, ' ');
	uk_buf_add(&f->urls, s + start, end - start);
	uk_buf_addf(&f->offs, "%zu-%zu ", start, end);
	return 0;
}

static const struct {
	const char *text, *want;
} cases[] = {
	{ "see https://example.com for more", "https://example.com" },
	{ "a http://a.com b https://b.org/x c", "http://a.com https://b.org/x" },
	{ "no urls here", "" },
	{ "", "" },
	{ "http://example.com is plain http", "http://example.com" },
	{ "file:///etc/passwd ftp://x.org/y mailto:a@b.c", "" },
	{ "https://raw.githubusercontent.com/o/r/main/f.py",
	    "https://raw.githubusercontent.com/o/r/main/f.py" },
	/* trailing punctuation */
	{ "Go to https://example.com/a.", "https://example.com/a" },
	{ "https://example.com/a, and", "https://example.com/a" },
	{ "https://example.com/a; https://b.com/c: x",
	    "https://example.com/a https://b.com/c" },
	{ "wow https://example.com/a!?", "https://example.com/a" },
	{ "https://example.com/a...", "https://example.com/a" },
	{ "**https://example.com/a** _https://b.com/_ ~~https://c.com~~",
	    "https://example.com/a https://b.com/ https://c.com" },
	{ "`https://example.com/code`", "https://example.com/code" },
	{ "\xe2\x80\x9chttps://example.com/q\xe2\x80\x9d",
	    "https://example.com/q" },
	{ "https://example.com/e\xe2\x80\xa6 more", "https://example.com/e" },
	{ "\xc2\xabhttps://example.com/g\xc2\xbb", "https://example.com/g" },
	{ "https://example.com/n\xc2\xa0next", "https://example.com/n" },
	/* brackets */
	{ "https://en.wikipedia.org/wiki/Set_(mathematics)",
	    "https://en.wikipedia.org/wiki/Set_(mathematics)" },
	{ "(see https://en.wikipedia.org/wiki/Set_(mathematics))",
	    "https://en.wikipedia.org/wiki/Set_(mathematics)" },
	{ "(https://example.com/x)", "https://example.com/x" },
	{ "(https://example.com/x.)", "https://example.com/x" },
	{ "[https://example.com/x]", "https://example.com/x" },
	{ "{https://example.com/x}", "https://example.com/x" },
	{ "[text](https://example.com/md) after", "https://example.com/md" },
	{ "[https://a.com/x](https://a.com/x)", "https://a.com/x https://a.com/x" },
	{ "<https://example.com/angle>", "https://example.com/angle" },
	{ "http://foo.com/blah_[other]", "http://foo.com/blah_[other]" },
	/* quotes */
	{ "{\"url\":\"https://example.com/j\",\"n\":1}",
	    "https://example.com/j" },
	{ "get('https://example.com/p', 5)", "https://example.com/p" },
	{ "http://foo.com/blah_'singlequoted'",
	    "http://foo.com/blah_'singlequoted'" },
	{ "'Quoted https://example.com/foo'", "https://example.com/foo" },
	{ "http://foo.com/I'm_king", "http://foo.com/I'm_king" },
	/* what came before */
	{ "url=https://example.com/log status=200", "https://example.com/log" },
	{ "text:http://example.com/", "http://example.com/" },
	{ "xhttp://example.com/ 1https://example.com/", "" },
	{ ">>http://example.com", "http://example.com" },
	/* scheme, hosts, ports, user info */
	{ "HTTP://EXAMPLE.COM/Up", "HTTP://EXAMPLE.COM/Up" },
	{ "HtTpS://example.com", "HtTpS://example.com" },
	{ "http://[2001:db8::1]:8080/v6", "http://[2001:db8::1]:8080/v6" },
	{ "[http://[::1]/x]", "http://[::1]/x" },
	{ "http://user:pass@example.com:8080/p",
	    "http://user:pass@example.com:8080/p" },
	{ "http://m\xc3\xbcnchen.de/stra\xc3\x9f" "e",
	    "http://m\xc3\xbcnchen.de/stra\xc3\x9f" "e" },
	{ "http://192.168.0.1/admin", "http://192.168.0.1/admin" },
	{ "http://localhost:3000/x", "http://localhost:3000/x" },
	{ "https://example.com/p?q=a%20b&r=1#frag",
	    "https://example.com/p?q=a%20b&r=1#frag" },
	/* no plausible host */
	{ "http://.example.com", "" },
	{ "http://#", "" },
	{ "http://-x", "" },
	{ "http://x-", "" },
	{ "http://", "" },
	{ "http://?", "" },
	{ "http://a..b", "" },
	{ "http://example.com:99999/", "" },
	{ "http://1.2.3.400/", "" },
	{ "http://ex ample.com", "http://ex" },
	/* terminators */
	{ "https://example.com/a|b", "https://example.com/a" },
	{ "https://example.com/a\\n", "https://example.com/a" },
	{ "https://example.com/a\xff" "b", "https://example.com/a" },
	{ "\xef\xbd\x9chttp://google.com\xef\xbd\x9c" "bar", "http://google.com" },
};

static void
scan_in_windows(const char *text, size_t step, struct found *f)
{
	struct uk_detect d;
	size_t len = strlen(text), have = 0, from = 0, done, keep, base = 0;
	char *win = malloc(len + 1);

	uk_detect_init(&d);
	for (;;) {
		size_t more = len - (base + have);
		int final;

		if (more > step)
			more = step;
		memcpy(win + have, text + base + have, more);
		have += more;
		final = base + have == len;
		done = uk_detect_scan(&d, win, from, have, final, collect, f);
		if (final)
			break;
		keep = done > UK_DETECT_LOOKBACK ? done - UK_DETECT_LOOKBACK : 0;
		memmove(win, win + keep, have - keep);
		base += keep;
		have -= keep;
		from = done - keep;
	}
	free(win);
}

int
main(void)
{
	struct found f = { UK_BUF_INIT, UK_BUF_INIT };
	struct uk_buf all = UK_BUF_INIT, want = UK_BUF_INIT;
	struct uk_detect d;
	size_t i, step;
	int same = 1;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uk_buf_reset(&f.urls);
		uk_detect_init(&d);
		uk_detect_scan(&d, cases[i].text, 0, strlen(cases[i].text), 1,
		    collect, &f);
		ok(!strcmp(f.urls.buf, cases[i].want), "'%s' -> '%s' (got '%s')",
		    cases[i].text, cases[i].want, f.urls.buf);
		uk_buf_addstr(&all, cases[i].text);
		uk_buf_addch(&all, '\n');
		if (*cases[i].want) {
			if (want.len)
				uk_buf_addch(&want, ' ');
			uk_buf_addstr(&want, cases[i].want);
		}
	}

	uk_buf_reset(&f.urls);
	uk_buf_reset(&f.offs);
	uk_detect_init(&d);
	{
		const char *t = "ab https://x.org/1 \xc3\xa9 http://y.com.";

		uk_detect_scan(&d, t, 0, strlen(t), 1, collect, &f);
	}
	ok(!strcmp(f.offs.buf, "3-18 22-34 "), "byte offsets (got %s)",
	    f.offs.buf);

	/* Every window size finds exactly what one pass finds. */
	for (step = 1; step <= 64; step++) {
		uk_buf_reset(&f.urls);
		scan_in_windows(all.buf, step, &f);
		if (strcmp(f.urls.buf, want.buf)) {
			same = 0;
			printf("# window %zu: %s\n", step, f.urls.buf);
		}
	}
	ok(same, "scanning in windows of 1..64 bytes gives the same URLs");

	/* An over-long URL is skipped, and what follows is still found. */
	{
		struct uk_buf big = UK_BUF_INIT;

		uk_buf_addstr(&big, "x https://example.com/");
		for (i = 0; i < UK_DETECT_MAX_URL; i++)
			uk_buf_addch(&big, 'a');
		uk_buf_addstr(&big, " https://ok.example/");
		uk_buf_reset(&f.urls);
		uk_detect_init(&d);
		uk_detect_scan(&d, big.buf, 0, big.len, 1, collect, &f);
		ok(!strcmp(f.urls.buf, "https://ok.example/") && d.toolong == 1,
		    "URL over %d bytes skipped and counted", UK_DETECT_MAX_URL);
		uk_buf_release(&big);
	}
	uk_buf_release(&f.urls);
	uk_buf_release(&f.offs);
	uk_buf_release(&all);
	uk_buf_release(&want);
	return tap_done();
}
