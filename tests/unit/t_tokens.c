/* SPDX-License-Identifier: MIT */
/*
 * Token counts.  The first cases are the tokenizers' published examples
 * (OpenAI cookbook "How to count tokens with tiktoken": "tiktoken is
 * great!" is 6 tokens, "antidisestablishmentarianism" 6 in both, "2 + 2
 * = 4" 7, the Japanese birthday greeting 9 in cl100k_base and 8 in
 * o200k_base; tiktoken's README: "hello world" is 2); the rest were
 * counted by the npm package's own encoder (tiktoken 1.0.22) and cover
 * what the pre-split pattern and the merge do differently: non-ASCII
 * letters, long runs of spaces and of one punctuation byte (the heap
 * merge), contractions in capitals, digits, U+0085, CRLF.
 *
 * Then, when node is installed and scripts/tokenizers has unpacked the
 * package's encoder, every file under lib/ and man/ and the cases above
 * are counted by both and must agree (skipped otherwise: the reference is
 * optional).
 *
 * With operands, t_tokens NAME FILE prints the count of FILE's bytes in
 * the tokenizer NAME (the repository suites use it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "tokens.h"
#include "util.h"
#include "tap.h"

struct tcase {
	const char *name, *text;
	size_t len; /* 0: strlen(text) */
	size_t cl100k, o200k;
};

static char spaces[1001], equals[5001], abab[6001], runs[64];

static struct tcase cases[] = {
	{ "hello world", "hello world", 0, 2, 2 },
	{ "tiktoken", "tiktoken is great!", 0, 6, 6 },
	{ "antidis", "antidisestablishmentarianism", 0, 6, 6 },
	{ "2+2", "2 + 2 = 4", 0, 7, 7 },
	{ "japanese", "お誕生日おめでとう", 0, 9, 8 },
	{ "accents", "Grüße aus Köln, naïve café — «ça va?»", 0, 16, 14 },
	{ "1000 spaces", spaces, 0, 9, 9 },
	{ "space runs", runs, 0, 7, 7 },
	{ "5000 =", equals, 0, 79, 78 },
	{ "contractions", "I'LL DON'T we've You're", 0, 9, 6 },
	{ "digits", "1234567890 3.14159 0x1F", 0, 14, 14 },
	{ "NEL", "a\xc2\x85" "b  \xc2\x85 c", 0, 8, 8 },
	{ "map marks", "⋮\n⋮ def f(x):\n⋮", 0, 14, 11 },
	{ "emoji and scripts",
	    "emoji 😀👍🏽 and 中文字符 한국어 العربية", 0, 21, 11 },
	{ "crlf", "int main(void)\r\n{\r\n\treturn 0;\r\n}\r\n", 0, 10, 10 },
	{ "abab", abab, 0, 3000, 1500 },
};

static void
fill(void)
{
	memset(spaces, ' ', 1000);
	memset(equals, '=', 5000);
	for (int i = 0; i < 6000; i++)
		abab[i] = "ab"[i % 2];
	snprintf(runs, sizeof runs, "x%37sy\n\n\n   \t\tz  ", "");
}

static size_t
count(enum uk_tokenizer t, const struct tcase *c)
{
	return uk_tokens_count(t, c->text, c->len ? c->len : strlen(c->text));
}

static char *
slurp(const char *path, size_t *len)
{
	struct uk_buf b = UK_BUF_INIT;
	char chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		uk_buf_add(&b, chunk, n);
	fclose(f);
	return uk_buf_detach(&b, len);
}

/* The reference's counts of files into got[]; 0, or -1 if unavailable. */
static int
reference(const char *dir, const char *enc, char **files, size_t n,
    size_t *got)
{
	struct uk_buf cmd = UK_BUF_INIT;
	FILE *f;
	size_t i = 0;
	char line[64];
	int rc;

	uk_buf_addf(&cmd, "node tests/unit/tiktoken_ref.cjs '%s' %s", dir, enc);
	for (size_t k = 0; k < n; k++)
		uk_buf_addf(&cmd, " '%s'", files[k]);
	f = popen(cmd.buf, "r");
	uk_buf_release(&cmd);
	if (!f)
		return -1;
	while (i < n && fgets(line, sizeof line, f))
		got[i++] = strtoul(line, NULL, 10);
	rc = pclose(f);
	return rc == 0 && i == n ? 0 : -1;
}

static void
against_reference(void)
{
	const char *dir = getenv("UK_TOKENIZERS_DIR");
	char tmpl[] = "/tmp/t_tokens.XXXXXX", path[256];
	char *files[512];
	size_t n = 0, *want;
	FILE *ls;

	if (!dir)
		dir = ".tokenizers";
	snprintf(path, sizeof path, "%s/lite/tiktoken.cjs", dir);
	if (access(path, R_OK) || system("node --version >/dev/null 2>&1")) {
		printf("# skip: no node or no %s\n", path);
		return;
	}
	if (!mkdtemp(tmpl))
		return;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		FILE *f;

		snprintf(path, sizeof path, "%s/%zu", tmpl, i);
		if (!(f = fopen(path, "w")))
			continue;
		fwrite(cases[i].text, 1, strlen(cases[i].text), f);
		fclose(f);
		files[n++] = uk_util_xstrdup(path);
	}
	ls = popen("ls lib/*.c lib/*.h man/*.[17] README.md 2>/dev/null", "r");
	while (ls && n < sizeof files / sizeof *files &&
	    fgets(path, sizeof path, ls)) {
		path[strcspn(path, "\n")] = 0;
		files[n++] = uk_util_xstrdup(path);
	}
	if (ls)
		pclose(ls);
	want = uk_util_xcalloc(n, sizeof *want);
	for (int t = 0; t < 2; t++) {
		enum uk_tokenizer tk = t ? UK_TOKENS_O200K : UK_TOKENS_CL100K;
		size_t bad = 0, total = 0;

		if (reference(dir, uk_tokens_name_of(tk), files, n, want)) {
			ok(0, "%s: the reference encoder ran",
			    uk_tokens_name_of(tk));
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			size_t len;
			char *s = slurp(files[i], &len);
			size_t got = s ? uk_tokens_count(tk, s, len) : 0;

			total += got;
			if (got != want[i]) {
				bad++;
				printf("# %s: %s: %zu, reference %zu\n",
				    uk_tokens_name_of(tk), files[i], got,
				    want[i]);
			}
			free(s);
		}
		ok(bad == 0, "%s: %zu files (%zu tokens) as the reference",
		    uk_tokens_name_of(tk), n, total);
	}
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(files[i], tmpl, strlen(tmpl)))
			unlink(files[i]);
		free(files[i]);
	}
	rmdir(tmpl);
	free(want);
}

int
main(int argc, char **argv)
{
	enum uk_tokenizer t;

	if (argc == 3) {
		size_t len;
		char *s;

		if (uk_tokens_name_parse(argv[1], &t) ||
		    !(s = slurp(argv[2], &len)))
			return 2;
		printf("%zu\n", uk_tokens_count(t, s, len));
		free(s);
		return 0;
	}
	fill();
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t a = count(UK_TOKENS_CL100K, &cases[i]);
		size_t b = count(UK_TOKENS_O200K, &cases[i]);

		ok(a == cases[i].cl100k, "cl100k_base: %s: %zu (want %zu)",
		    cases[i].name, a, cases[i].cl100k);
		ok(b == cases[i].o200k, "o200k_base: %s: %zu (want %zu)",
		    cases[i].name, b, cases[i].o200k);
	}
	ok(uk_tokens_count(UK_TOKENS_CL100K, "", 0) == 0, "empty: 0");
	/* Not UTF-8: counted, never more than a token per byte. */
	{
		const char bad[] = "ab\xff\xfe" "cd \xc3";
		size_t c = uk_tokens_count(UK_TOKENS_CL100K, bad, sizeof bad - 1);

		ok(c >= 3 && c <= sizeof bad - 1, "invalid UTF-8: %zu", c);
	}
	ok(!uk_tokens_name_parse("cl100k_base", &t) && t == UK_TOKENS_CL100K,
	    "parse cl100k_base");
	ok(!uk_tokens_name_parse("o200k", &t) && t == UK_TOKENS_O200K,
	    "parse o200k");
	ok(uk_tokens_name_parse("p50k_base", &t) == -1, "p50k_base is unknown");
	ok(!strcmp(uk_tokens_name_of(UK_TOKENS_O200K), "o200k_base"), "name");
	against_reference();
	return tap_done();
}
