/* SPDX-License-Identifier: MIT */
/*
 * uk_url_view against uk_url_classify: the view splits most URLs by hand
 * and must give what libcurl's parse gives, field for field, on every
 * URL.  The cases below are the ones the hand split is written around
 * (hosts curl rewrites, dot segments, ports, bytes curl refuses), then
 * URLs put together at random from such pieces (each list begins with
 * its commoner ones), with a fixed seed.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "url.h"
#include "tap.h"

static const char *const cases[] = {
	"https://github.com/jqlang/jq",
	"https://github.com/jqlang/jq.git",
	"HTTPS://GitHub.COM/a/b/blob/main/src/x.c",
	"https://github.com./a/b",
	"https://github.com../a/b",
	"https://github.com.evil.example/a/b",
	"https://raw.githubusercontent.com/o/r/refs/heads/dev/a/b.c",
	"https://raw.githubusercontent.com/o/r/refs/heads/dev/",
	"https://github.com/o/r/pull/99999999999999999999",
	"https://github.com/o/r/issues/007",
	"https://github.com/o/r/issues/0",
	"https://github.com/o/r/tree/v1/.github/workflows",
	"https://github.com/o/r/commit/0123abcdef",
	"https://github.com/o/r/commit/0123abcdef/",
	"https://github.com/o/r/commit/0123abcdef0123abcdef0123abcdef0123abcdef0",
	"https://github.com/o/r/blob/main/./x",
	"https://github.com/o/r/blob/main/../x",
	"https://github.com/o/r/blob/main/.",
	"https://github.com/o/r/blob/main/..?q",
	"https://github.com/o/r/blob/main/%2e%2E/x",
	"https://github.com/o/r/blob/main/..x",
	"http://127.0.0.1/x",
	"http://127.1/x",
	"http://0x7f.0.0.1/x",
	"http://017.0.0.1/x",
	"http://256.0.0.1/x",
	"http://1.2.3.4./x",
	"http://1.2.3.4.5/x",
	"http://1password.com/x",
	"http://[::1]/x",
	"http://[::]/x",
	"http://[::ffff:1.2.3.4]/x",
	"http://[::1.2.3.4]/x",
	"http://[1:0:0:1:0:0:0:1]/x",
	"http://[1:0:2:3:4:5:6:7]/x",
	"http://[1::2:3:4:5:6:7]/x",
	"http://[0:0:0:0:0:0:0:1]/x",
	"http://[2001:db8::1]:8080/docs/",
	"http://[2001:DB8::1]/x",
	"http://[2001:db8::1%25eth0]/x",
	"http://[2001:db8::1]x/x",
	"http://[]/x",
	"http://[:]/x",
	"http://[0:0::1]:8080/x",
	"http://user:pw@github.com/a/b",
	"http://github.com:443/a/b",
	"http://github.com:0/a/b",
	"http://github.com:080/a/b",
	"http://github.com:65535/a/b",
	"http://github.com:65536/a/b",
	"http://github.com:/a/b",
	"http://github.com:x/a/b",
	"http://a.example?q=1",
	"http://a.example#f",
	"http://a.example/?",
	"http://a.example/a b",
	"http://a.example/a\tb",
	"http://a.example/a\\b",
	"http://a.example/a\x7f",
	"http://a.example/a?b c",
	"http://a.example/\"x\"",
	"http://a.example/{x}|^`<>",
	"http://例え.テスト/パス",
	"http://a.example/\xff\xfe",
	"http://\xe4.example/x",
	"http://-a-.example/x",
	"http://a_b.example/x",
	"http://a%41.example/x",
	"http://.example/x",
	"http:///x",
	"http://",
	"http:/a.example/x",
	"ftp://a.example/x",
	"docs.python.org/3/",
	"https://docs.python.org.example.net/3/",
	"https://x.readthedocs.io/en/latest/",
	"https://docs.example.com/",
	"https://example.com/API/x",
	"https://example.com/a/very/long/path/that/goes/on/and/on/forever",
	"https://example.com/ééééééééééééééééééééééééééééééééééééééééééé",
	"https://example.com/" /* an over-long label, host > 255 */
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	/* GitHub names of 39 to 43 characters: cut at 41 and over. */
	"https://github.com/abcdefghijklmnopqrst/0123456789abcdefgh",
	"https://github.com/abcdefghijklmnopqrst/0123456789abcdefghi",
	"https://github.com/abcdefghijklmnopqrst/0123456789abcdefghij",
	"https://github.com/abcdefghijklmnopqrst/0123456789abcdefghijk",
	"https://github.com/abcdefghijklmnopqrstuvwxyz/r/issues/123456789",
	"https://github.com/o/abcdefghijklmnopqrstuvwxyz01234/pull/12345",
	"https://github.com/o/r/blob/main/a/abcdefghijklmnopqrstuvwxyz0123456789.c",
	"https://github.com/o/r/blob/main/abcdefghijklmnopqrstuvwxyz0123456789",
	"https://raw.githubusercontent.com/o/r/main/abcdefghijklmnopqrstuvwxyz0123456789.c",
	/* A user before the host: split by hand when it is plain. */
	"https://user:secret@blog.example.org/two?x=1",
	"http://user:secret@m.example.ru",
	"https://user:secret@[fe80::1ff:fe23:4567:890a]/a",
	"https://u@GitHub.com/o/r/pull/1",
	"https://a@b@github.com/o/r",
	"https://@github.com/o/r",
	"https://user:123@github.com:8080/o/r",
	"https://us%40er:pw@docs.python.org/3/",
	"https://us\"er@example.com/",
	"https://user@/x",
	"https://user:@x.example/",
	/* ".." in a host, about the 16th byte (split_fast's steps). */
	"https://aaaaaaaaaaaaaa..bbbbbbbbbbbbbbbbbbb.com/x",
	"https://aaaaaaaaaaaaaaa..bbbbbbbbbbbbbbbbbb.com/x",
	"https://aaaaaaaaaaaaaaaa..bbbbbbbbbbbbbbbbb.com/x",
	"https://AAAAAAAAAAAAAAAA.B\xc3\xa9" "bbbbbbbbbbbbbbbb.Com/x",
};

static const char *const schemes[] = { "http://", "https://", "HTTP://",
	"hTtPs://", "http:/", "http:\\\\", "ftp://", "https:///" };
static const char *const hosts[] = { "github.com", "www.github.com",
	"raw.githubusercontent.com", "docs.python.org", "x.readthedocs.io",
	"GitHub.Com", "a", "B-c", "kubernetes.io", "man7.org",
	"github.com.evil", "docs.", "127.0.0.1", ":80", "\xc3\xa9",
	"\xe4\xbe\x8b", "1", "0x7f", "256.1.1.1", "01.2.3.4", "1.2.3",
	"[::1]", "[fe80::1%25eth0]", "-", ".", "..", "\xff", "user@", "u:p@",
	":0", ":", ":65536", ":080", "_", "%41",
	/* Longer than the 16 bytes split_fast looks at in a step, with a
	 * dot, an upper-case letter or a byte from 0x80 on either side of
	 * the 16th. */
	"AAAAAAAAAAAAAAA.", "bbbbbbbbbbbbbbbb.Docs.Python.Org",
	"a-b-c-d-e-f-g-h-I\xc3\xa9j.kubernetes.io", "0123456789abcdef0" };
static const char *const paths[] = { "/", "a", "A", "blob", "tree",
	"issues", "pull", "refs", "heads", "heads/", "docs", "API",
	"reference", "42", "0", "007", ".git", "x.git", "owner", "repo",
	"commit", "0123abc",
	"/.", "/..", "?q=1", "#f", ".github", "%20", "\xc3\xa9", "//", "/./",
	"/../", ".", "..", "99999999999999999999", "%2e", "%2E", "?", "#",
	"\"", "\\", " ", "\t", "\xff", "{", "|", "^", "`", "<", "@", ":",
	";", "=", "&", "~", "\x7f", "documentation",
	"/abcdefghijklmn/opqrstuvwxyz0123/", "0123456789ABCDE.%2e/",
	"abcdefghijklmnop\xc3\xa9\"/docs" };

#define N(a) (sizeof(a) / sizeof(*(a)))

static unsigned long long rng = 0x2545f4914f6cdd1dULL;

static size_t
pick(size_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (size_t)(rng % n);
}

/* An entry of a list, from its first half three times in four. */
static const char *
piece(const char *const *list, size_t n)
{
	return list[pick(4) ? pick((n + 1) / 2) : pick(n)];
}

static int
same_span(struct uk_url_span sp, const char *s)
{
	if (!s || !sp.s)
		return !s && !sp.s;
	return sp.n == strlen(s) && !memcmp(sp.s, s, sp.n);
}

/* Whether the view of url is what uk_url_classify finds. */
static int
agree(const char *url, int *plain)
{
	struct uk_url u;
	struct uk_url_view v;
	int r;

	uk_url_classify(url, &u);
	uk_url_view(url, strlen(url), 0, &v);
	*plain = v.plain;
	r = v.type == u.type && same_span(v.display, u.display) &&
	    same_span(v.owner, u.owner) && same_span(v.repo, u.repo) &&
	    same_span(v.branch, u.branch) && same_span(v.file, u.file) &&
	    v.issue_number == u.issue_number && v.pr_number == u.pr_number;
	if (!r)
		printf("# differs: '%s': %s '%.*s' against %s '%s'\n", url,
		    uk_url_type_name(v.type), (int)v.display.n, v.display.s,
		    uk_url_type_name(u.type), u.display);
	uk_url_view_release(&v);
	uk_url_release(&u);
	return r;
}

int
main(void)
{
	char url[1024];
	size_t i, k, len, bad = 0, fast = 0, total = 0;
	int plain;

	for (i = 0; i < N(cases); i++) {
		ok(agree(cases[i], &plain), "'%s' (%s)", cases[i],
		    plain ? "split by hand" : "libcurl");
		fast += plain != 0;
	}
	ok(fast >= N(cases) / 3, "%zu of %zu cases split by hand", fast,
	    N(cases));

	fast = 0;
	for (i = 0; i < 100000; i++) {
		len = (size_t)snprintf(url, sizeof(url), "%s",
		    piece(schemes, N(schemes)));
		for (k = 1 + pick(3); k > 0; k--) {
			if (k > 1 || pick(4))
				len += (size_t)snprintf(url + len,
				    sizeof(url) - len, "%s",
				    piece(hosts, N(hosts)));
			else
				len += (size_t)snprintf(url + len,
				    sizeof(url) - len, ".");
		}
		for (k = pick(9); k > 0; k--)
			len += (size_t)snprintf(url + len, sizeof(url) - len,
			    "%s", piece(paths, N(paths)));
		total++;
		if (!agree(url, &plain))
			bad++;
		fast += plain != 0;
	}
	ok(!bad, "%zu random URLs: %zu differ", total, bad);
	ok(fast > total / 4, "%zu of the %zu random URLs split by hand", fast,
	    total);

	/* IPv6 hosts, as inet_ntop writes them and otherwise. */
	bad = fast = total = 0;
	for (i = 0; i < 20000; i++) {
		unsigned char bin[16];
		char text[INET6_ADDRSTRLEN], *t;
		unsigned g[8];

		for (k = 0; k < 8; k++) {
			g[k] = pick(2) ? 0 : (unsigned)pick(3) ?
			    (unsigned)pick(0x10000) : (unsigned)pick(16);
			bin[2 * k] = (unsigned char)(g[k] >> 8);
			bin[2 * k + 1] = (unsigned char)g[k];
		}
		switch (pick(5)) {
		case 0:
			snprintf(text, sizeof(text), "%x:%x:%x:%x:%x:%x:%x:%x",
			    g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
			break;
		case 1:
			snprintf(text, sizeof(text),
			    "%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x", g[0],
			    g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
			break;
		case 2:
			inet_ntop(AF_INET6, bin, text, sizeof(text));
			for (t = text; *t; t++)
				if (*t >= 'a' && *t <= 'f')
					*t = (char)(*t - 32);
			break;
		default:
			inet_ntop(AF_INET6, bin, text, sizeof(text));
		}
		snprintf(url, sizeof(url), "http://[%s]%s/%s", text,
		    pick(4) ? "" : ":8080", pick(2) ? "docs/x" : "p");
		total++;
		if (!agree(url, &plain))
			bad++;
		fast += plain != 0;
	}
	ok(!bad, "%zu IPv6 URLs: %zu differ", total, bad);
	ok(fast > total / 4, "%zu of the %zu IPv6 URLs split by hand", fast,
	    total);
	return tap_done();
}
