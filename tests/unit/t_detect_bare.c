/* SPDX-License-Identifier: MIT */
/* The scanner's bare mode (urldetect --bare): URLs typed without a
 * scheme, what must not be taken for one, and streaming in windows. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "detect.h"
#include "tap.h"

struct found {
	struct uk_detect *d;
	struct uk_buf urls; /* space-separated, a bare one marked with '~' */
};

static int
collect(void *ctx, const char *s, size_t start, size_t end)
{
	struct found *f = ctx;

	if (f->urls.len)
		uk_buf_addch(&f->urls, ' ');
	if (f->d->bare_hit)
		uk_buf_addch(&f->urls, '~');
	uk_buf_add(&f->urls, s + start, end - start);
	return 0;
}

static const struct {
	const char *text, *want;
} cases[] = {
	/* what people paste */
	{ "see github.com/user/repo now", "~github.com/user/repo" },
	{ "www.example.org/x", "~www.example.org/x" },
	{ "read docs.python.org/3/.", "~docs.python.org/3/" },
	{ "docs.python.org/3/library/re.html",
	    "~docs.python.org/3/library/re.html" },
	{ "(en.wikipedia.org/wiki/Set_(mathematics))",
	    "~en.wikipedia.org/wiki/Set_(mathematics)" },
	{ "[x](github.com/a/b)", "~github.com/a/b" },
	{ "<domain.com>.", "~domain.com" },
	{ "GOOGLE.COM.", "~GOOGLE.COM" },
	{ "google.com: no port", "~google.com" },
	{ "example.com:8080/x", "~example.com:8080/x" },
	{ "bit.ly/3xYz", "~bit.ly/3xYz" },
	{ "www.bbc.co.uk", "~www.bbc.co.uk" },
	{ "s.l.o.w.io", "~s.l.o.w.io" },
	{ "client 4.4.4.4 connected", "" },
	{ "4.4.4.4:8080 4.4.4.4/x", "~4.4.4.4:8080 ~4.4.4.4/x" },
	{ "z.U.il kh.G.ZP.mN", "" },
	{ "192.168.1.1/abc", "~192.168.1.1/abc" },
	{ "//cdn.example.net/x.js", "~//cdn.example.net/x.js" },
	{ "//test.123", "~//test.123" },
	{ "\xd0\xbf\xd1\x80\xd0\xb5\xd0\xb7\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbd"
	    "\xd1\x82.\xd1\x80\xd1\x84", "~\xd0\xbf\xd1\x80\xd0\xb5\xd0\xb7"
	    "\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbd\xd1\x82.\xd1\x80\xd1\x84" },
	{ "\xef\xbd\x9cwww.google.com/foo\xef\xbd\x9c" "bar",
	    "~www.google.com/foo" },
	/* with a scheme: as the default mode, the host not found again */
	{ "https://a.com/x and b.org/y", "https://a.com/x ~b.org/y" },
	{ "b.org/y https://a.com/x", "~b.org/y https://a.com/x" },
	{ "https://github.com/a/b", "https://github.com/a/b" },
	/* file names, versions, code, abbreviations, e-mail */
	{ "python setup.py install", "" },
	{ "index.html README.md main.rs detect.cc", "" },
	{ "Main.java user.name logger.info df.style", "" },
	{ "archive.zip Makefile.am configure.ac", "" },
	{ "lib/detect.c /path/to/file.pl path:to:file.pm", "" },
	{ "1.2.3 v2.0.1 3.11.4 10.0.19041.1 1.2.3.4.5 1.2.3.400", "" },
	{ "e.g. i.e. U.S. a.b etc.", "" },
	{ "name@example.com foo.bar@example.org", "" },
	{ "os.path.join(a) obj.method()", "" },
	{ "foo_bar.com _example.com -example.coma @example.com", "" },
	{ "example.invalid/ localhost/ //test ///test.com", "" },
	{ "google.com:500000 hppt://example.com", "" },
	{ "node.js and io.js", "" },
	{ "git@github.com:user/repo.git", "" },
};

static void
scan_in_windows(const char *text, size_t step, struct found *f)
{
	struct uk_detect d;
	size_t len = strlen(text), have = 0, from = 0, done, keep, base = 0;
	char *win = malloc(len + 1);

	uk_detect_init(&d);
	uk_detect_bare(&d);
	f->d = &d;
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
	struct found f = { NULL, UK_BUF_INIT };
	struct uk_buf all = UK_BUF_INIT, want = UK_BUF_INIT;
	struct uk_detect d;
	const char *from;
	size_t i, step;
	int same = 1;

	ok(!uk_detect_tld_ok("com", 3), "no TLD known before uk_detect_bare");
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uk_buf_reset(&f.urls);
		uk_detect_init(&d);
		uk_detect_bare(&d);
		f.d = &d;
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

	/* Off by default: the same text gives only the URLs with a scheme. */
	uk_buf_reset(&f.urls);
	uk_detect_init(&d);
	f.d = &d;
	uk_detect_scan(&d, all.buf, 0, all.len, 1, collect, &f);
	ok(!strcmp(f.urls.buf,
	    "https://a.com/x https://a.com/x https://github.com/a/b"),
	    "without uk_detect_bare, no bare URL (got '%s')", f.urls.buf);

	/* Every window size finds exactly what one pass finds. */
	for (step = 1; step <= 64; step++) {
		uk_buf_reset(&f.urls);
		scan_in_windows(all.buf, step, &f);
		if (strcmp(f.urls.buf, want.buf) && same) {
			same = 0;
			printf("# window %zu: %s\n", step, f.urls.buf);
		}
	}
	ok(same, "bare: windows of 1..64 bytes give the same URLs");

	ok(uk_detect_tld_ok("COM", 3) && uk_detect_tld_ok("py", 2) &&
	    !uk_detect_tld_ok("js", 2) && !uk_detect_tld_ok("invalid", 7),
	    "TLDs: com and py are, js and invalid are not");
	if (access(UK_DETECT_PSL, R_OK) == 0 && !getenv("URLKIT_PSL"))
		ok(uk_detect_tld_count(&from) > 1000 &&
		    !strcmp(from, UK_DETECT_PSL), "%zu TLDs read from %s",
		    uk_detect_tld_count(NULL), from);
	uk_buf_release(&f.urls);
	uk_buf_release(&all);
	uk_buf_release(&want);
	return tap_done();
}
