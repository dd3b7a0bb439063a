/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/summary*.c and the reply parser of lib/llm.c (TAP). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "buf.h"
#include "json.h"
#include "llm.h"
#include "summary.h"
#include "tokens.h"
#include "tap.h"

static yajl_val
parse(const char *s)
{
	yajl_val v = uk_json_parse(s, strlen(s), NULL);

	if (!v) {
		fprintf(stderr, "bad test JSON: %s\n", s);
		exit(1);
	}
	return v;
}

/* The rules of uk_summary_select as a table. */
static void
test_select(void)
{
	static const struct {
		const char *url_type;
		int map;
		const char *hint;
		enum uk_summary_type want;
		const char *reason;
	} cases[] = {
		{ "github_repo", 1, NULL, UK_SUMMARY_ARCHITECTURE,
		    "github_repo with a symbol map" },
		{ "github_repo", 0, NULL, UK_SUMMARY_BRIEF,
		    "github_repo without a symbol map" },
		{ "github_file", 1, NULL, UK_SUMMARY_BRIEF, "github_file" },
		{ "documentation", 0, NULL, UK_SUMMARY_USAGE, "documentation" },
		{ "web", 0, NULL, UK_SUMMARY_BRIEF, "web" },
		{ "unknown", 0, NULL, UK_SUMMARY_BRIEF, "unknown" },
		{ NULL, 0, NULL, UK_SUMMARY_BRIEF, "web" },
		{ "web", 0, "how to install", UK_SUMMARY_USAGE,
		    "hint \"how to\"" },
		{ "github_repo", 1, "HOW\tTO build", UK_SUMMARY_USAGE,
		    "hint \"how to\"" },
		{ "web", 0, "the api", UK_SUMMARY_API, "hint \"api\"" },
		{ "documentation", 0, "APIs?", UK_SUMMARY_API, "hint \"api\"" },
		{ "web", 0, "architecture", UK_SUMMARY_ARCHITECTURE,
		    "hint \"architecture\"" },
		{ "web", 0, "architectural overview", UK_SUMMARY_ARCHITECTURE,
		    "hint \"architecture\"" },
		{ "web", 0, "compare", UK_SUMMARY_EVALUATION,
		    "hint \"compare\"" },
		{ "github_repo", 1, "Evaluate it", UK_SUMMARY_EVALUATION,
		    "hint \"evaluate\"" },
		{ "web", 0, "evaluation of", UK_SUMMARY_EVALUATION,
		    "hint \"evaluate\"" },
		{ "documentation", 0, "therapist", UK_SUMMARY_USAGE,
		    "documentation" },
		{ "web", 0, "rapid", UK_SUMMARY_BRIEF, "web" },
		{ "web", 0, "show tomorrow", UK_SUMMARY_BRIEF, "web" },
		{ "web", 0, "", UK_SUMMARY_BRIEF, "web" },
		{ "web", 0, "how to use the api", UK_SUMMARY_USAGE,
		    "hint \"how to\"" },
		{ "web", 0, "compare the api", UK_SUMMARY_API, "hint \"api\"" },
	};
	size_t i;
	char reason[128], what[256];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum uk_summary_type t = uk_summary_select(cases[i].url_type,
		    cases[i].map, cases[i].hint, reason, sizeof(reason));

		snprintf(what, sizeof(what), "select %s%s hint '%s' -> %s (%s)",
		    cases[i].url_type ? cases[i].url_type : "(none)",
		    cases[i].map ? " with map" : "",
		    cases[i].hint ? cases[i].hint : "", uk_summary_type_name(t),
		    reason);
		ok(t == cases[i].want && !strcmp(reason, cases[i].reason),
		    "%s", what);
	}
	ok(uk_summary_type_parse("architecture") == UK_SUMMARY_ARCHITECTURE,
	    "type names parse in any case");
	ok(uk_summary_type_parse("short") == -1, "unknown type names fail");
}

static void
test_select_record(void)
{
	yajl_val r =
	    parse("{\"url_type\":\"github_repo\",\"symbol_map\":\" \"}");
	char reason[128];

	ok(uk_summary_select_record(r, NULL, reason, sizeof(reason)) ==
		UK_SUMMARY_BRIEF,
	    "a blank symbol map counts as none");
	uk_json_free(r);
}

static void
test_assemble(void)
{
	struct uk_buf b = UK_BUF_INIT, big = UK_BUF_INIT, whole = UK_BUF_INIT;
	yajl_val r = parse("{\"url\":\"https://x.example/\",\"title\":\"T\","
			   "\"description\":\"D\",\"readme\":\"R\","
			   "\"symbol_map\":\"a.c:\\n\\u2502int f(void)\","
			   "\"content\":\"C\",\"summary\":\"S\"}");
	size_t i;

	ok(uk_summary_assemble(r, 0, &b) == 0 &&
		!strcmp(b.buf,
		    "URL: https://x.example/\n\nTitle: T\n\n"
		    "Description: D\n\nREADME:\nR\n\nSymbol map:\n"
		    "a.c:\n\xe2\x94\x82int f(void)\n\nContent:\nC"),
	    "assembly: URL, title, description, readme, symbol map, content");
	uk_json_free(r);
	uk_buf_reset(&b);
	/* 60,000 two-byte characters and 60,000 one-byte: cut at 100,000. */
	uk_buf_addstr(&big, "{\"url\":\"u\",\"content\":\"");
	for (i = 0; i < 60000; i++)
		uk_buf_addstr(&big, "\xc3\xa9");
	for (i = 0; i < 60000; i++)
		uk_buf_addch(&big, 'x');
	uk_buf_addstr(&big, "\"}");
	r = parse(big.buf);
	ok(uk_summary_assemble(r, 0, &b) == 1 &&
		uk_buf_utf8_chars(b.buf, b.len) == UK_SUMMARY_MAX_INPUT &&
		uk_buf_utf8_valid(b.buf, b.len),
	    "assembly is cut at 100,000 characters, valid UTF-8");
	uk_buf_reset(&b);
	ok(uk_summary_assemble(r, 11, &b) == 1 &&
		!strcmp(b.buf, "URL: u\n\nCon"),
	    "assembly cut at a given length");
	uk_buf_reset(&b);
	uk_summary_assemble(r, SIZE_MAX, &whole);
	/* The cut is a prefix of the whole; one character more is over. */
	ok(uk_summary_assemble_tokens(r, 5000, &b) == 1 &&
		b.len + 2 <= whole.len && !memcmp(b.buf, whole.buf, b.len) &&
		uk_tokens_count(UK_TOKENS_CL100K, b.buf, b.len) <= 5000 &&
		uk_tokens_count(UK_TOKENS_CL100K, whole.buf,
		    b.len + 2) > 5000 &&
		uk_buf_utf8_valid(b.buf, b.len),
	    "assembly cut at the longest prefix of 5000 tokens, whole characters");
	uk_buf_reset(&b);
	ok(uk_summary_assemble_tokens(r, 1000000, &b) == 0 &&
		uk_buf_utf8_chars(b.buf, b.len) > UK_SUMMARY_MAX_INPUT,
	    "a budget in tokens replaces the cut in characters");
	uk_json_free(r);
	uk_buf_release(&b);
	uk_buf_release(&big);
	uk_buf_release(&whole);
}

/* What uk_summary_format_prompt writes, part by part. */
static void
test_format(void)
{
	static const struct {
		const char *rec;
		size_t max;
		const char *want;
		const char *what;
	} cases[] = {
		{ "{\"url\":\"https://a.example/\",\"title\":\"A\"}", 0,
		    "## https://a.example/\n\n**A**",
		    "format: URL header and title" },
		{ "{\"url\":\"u\",\"summary\":\"S\",\"readme\":\"R\","
		  "\"content\":\"C\"}",
		    0, "## u\n\nS",
		    "format: summary preferred over raw content" },
		{ "{\"url\":\"u\",\"readme\":\"R\",\"content\":\"C\"}", 0,
		    "## u\n\nR", "format: readme fallback" },
		{ "{\"url\":\"u\",\"content\":\"C\"}", 0, "## u\n\nC",
		    "format: content last" },
		{ "{\"url\":\"u\",\"summary\":\"\",\"readme\":\"R\"}", 0,
		    "## u\n\nR", "format: an empty summary does not count" },
		{ "{\"url\":\"u\",\"content\":\"C\",\"symbol_map\":\"a.c:\\n f\"}",
		    0, "## u\n\nC\n\n```\na.c:\n f\n```",
		    "format: symbol map appended in a code block" },
		{ "{\"url\":\"u\",\"symbol_map\":\"m\\n\"}", 0,
		    "## u\n\n```\nm\n```",
		    "format: symbol map without a body" },
		{ "{\"url\":\"u\",\"content\":\"abcdef\"}", 3, "## u\n\nabc...",
		    "format: truncation with an ellipsis" },
		{ "{\"url\":\"u\",\"content\":\"abc\"}", 3, "## u\n\nabc",
		    "format: no ellipsis at exactly the length" },
		{ "{\"url\":\"u\",\"content\":\"\\u00e9\\u00e9\\u00e9\"}", 2,
		    "## u\n\n\xc3\xa9\xc3\xa9...",
		    "format: truncation counts characters" },
	};
	struct uk_buf b = UK_BUF_INIT, big = UK_BUF_INIT;
	size_t i;
	yajl_val r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = parse(cases[i].rec);
		uk_buf_reset(&b);
		uk_summary_format_prompt(r, cases[i].max, &b);
		ok(!strcmp(b.buf, cases[i].want), "%s", cases[i].what);
		uk_json_free(r);
	}
	uk_buf_addstr(&big, "{\"url\":\"u\",\"content\":\"");
	for (i = 0; i < 5000; i++)
		uk_buf_addch(&big, 'a');
	uk_buf_addstr(&big, "\"}");
	r = parse(big.buf);
	uk_buf_reset(&b);
	uk_summary_format_prompt(r, 0, &b);
	ok(b.len == strlen("## u\n\n") + 4000 + 3 &&
		!strcmp(b.buf + b.len - 4, "a..."),
	    "format: default cut at 4000 characters");
	uk_json_free(r);
	uk_buf_release(&b);
	uk_buf_release(&big);
}

static void
test_context(void)
{
	yajl_val recs[5], big[3];
	const char *excluded[] = { "https://c.example/", NULL };
	struct uk_summary_context c = { 0 };
	struct uk_buf b = UK_BUF_INIT, t = UK_BUF_INIT;
	size_t i, took;

	recs[0] = parse("{\"url\":\"https://a.example/\",\"content\":\"A\"}");
	recs[1] = parse("{\"url\":\"https://b.example/\",\"error\":\"x\\ny\"}");
	recs[2] = parse("{\"url\":\"https://c.example/\",\"content\":\"C\"}");
	recs[3] = parse("{\"url\":\"https://d.example/\",\"content\":\"D\"}");
	recs[4] = parse("{\"url\":\"https://a.example/\",\"content\":\"A2\"}");
	c.excluded = excluded;
	c.dedup = 1;
	took = uk_summary_format_context(recs, 5, &c, &b);
	ok(took == 2 &&
		!strcmp(b.buf,
		    "## https://a.example/\n\nA\n\n---\n\n"
		    "## https://b.example/\n\n(left out: x y)\n\n---\n\n"
		    "## https://d.example/\n\nD\n"),
	    "context: separator, errors named, excluded, repeats once");
	ok(c.errors == 1 && c.excluded_n == 1 && c.repeats == 1 && !c.cut,
	    "context: what was left out is counted");
	uk_buf_reset(&b);
	memset(&c, 0, sizeof(c));
	took = uk_summary_format_context(recs, 5, &c, &b);
	ok(took == 4 && c.errors == 1, "context: nothing excluded");
	uk_buf_reset(&b);
	ok(uk_summary_format_context(recs + 1, 1, &c, &b) == 0 &&
		!strcmp(b.buf, "## https://b.example/\n\n(left out: x y)\n"),
	    "context: only an error gives its line");
	for (i = 0; i < 5; i++)
		uk_json_free(recs[i]);

	/* A budget: 10, 300 and 3000 characters of content. */
	for (i = 0; i < 3; i++) {
		size_t k, n = i == 0 ? 10 : i == 1 ? 300 : 3000;

		uk_buf_reset(&t);
		uk_buf_addf(&t, "{\"url\":\"u%zu\",\"content\":\"", i);
		for (k = 0; k < n; k++)
			uk_buf_addch(&t, "abcdefgh "[k % 9]);
		uk_buf_addstr(&t, "\"}");
		big[i] = parse(t.buf);
	}
	memset(&c, 0, sizeof(c));
	c.max_chars = 1000;
	uk_buf_reset(&b);
	uk_summary_format_context(big, 3, &c, &b);
	ok(uk_buf_utf8_chars(b.buf, b.len) <= 1000 && b.len > 990,
	    "context: the budget is used, not passed (%zu)", b.len);
	ok(c.cut == 1 && strstr(b.buf, "## u0\n\nabcdefgh a\n\n---"),
	    "context: the short records are whole, the long one cut");
	/* 1000 - 2 separators of 7 - the newline = 985; u0 takes its 17 of
	 * a third, u1 its 307 of half the rest (484), u2 the 661 left. */
	{
		const char *s1 = strstr(b.buf, "## u1"), *s2 = strstr(b.buf,
							     "## u2");

		ok(s1 && s2 && s2 - s1 == 307 + 7 &&
			b.buf + b.len - s2 == 661 + 1 &&
			!strcmp(b.buf + b.len - 4, "...\n"),
		    "context: what a short record leaves goes to the next");
	}
	memset(&c, 0, sizeof(c));
	c.max_chars = 30;
	uk_buf_reset(&b);
	uk_summary_format_context(big, 3, &c, &b);
	ok(!strcmp(b.buf, "## u0\n\n---\n\n## u1\n\n---\n\n## u2\n") &&
		!c.dropped && c.cut == 3,
	    "context: room for the '## URL' lines only: the lines");
	memset(&c, 0, sizeof(c));
	c.max_chars = 29;
	uk_buf_reset(&b);
	uk_summary_format_context(big, 3, &c, &b);
	ok(c.dropped == 1 && c.took == 2 && !strstr(b.buf, "## u2") &&
		uk_buf_utf8_chars(b.buf, b.len) <= 29,
	    "context: no room for every line: the last record goes");
	memset(&c, 0, sizeof(c));
	c.max_tokens = 100;
	uk_buf_reset(&b);
	uk_summary_format_context(big, 3, &c, &b);
	ok(uk_tokens_count(UK_TOKENS_CL100K, b.buf, b.len) <= 100 &&
		uk_tokens_count(UK_TOKENS_CL100K, b.buf, b.len) > 90,
	    "context: a budget in tokens (%zu)",
	    uk_tokens_count(UK_TOKENS_CL100K, b.buf, b.len));
	for (i = 0; i < 3; i++)
		uk_json_free(big[i]);
	uk_buf_release(&t);
	uk_buf_release(&b);
}

static void
test_offline(void)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val r = parse("{\"url\":\"u\"}");
	int t;

	ok(uk_summary_write_offline(r, UK_SUMMARY_BRIEF, &b) == -1 &&
		b.len == 0,
	    "offline: nothing to summarise");
	uk_json_free(r);
	r = parse("{\"url\":\"u\",\"readme\":\"# P\\n\\nP parses things "
		  "quickly and well. It is small.\\n\\n## Install\\n\\n"
		  "```sh\\npip install p\\n```\\n\"}");
	for (t = 0; t < UK_SUMMARY_NTYPES; t++) {
		char what[64];

		uk_buf_reset(&b);
		snprintf(what, sizeof(what), "offline %s gives text",
		    uk_summary_type_name(t));
		ok(uk_summary_write_offline(r, t, &b) == 0 && b.len &&
			uk_buf_utf8_valid(b.buf, b.len) &&
			b.buf[b.len - 1] != '\n',
		    "%s", what);
	}
	uk_buf_reset(&b);
	uk_summary_write_offline(r, UK_SUMMARY_USAGE, &b);
	ok(strstr(b.buf, "pip install p") != NULL, "offline USAGE: install");
	uk_buf_reset(&b);
	uk_summary_write_offline(r, UK_SUMMARY_BRIEF, &b);
	ok(strstr(b.buf, "P parses things quickly and well.") != NULL &&
		!strstr(b.buf, "pip"),
	    "offline BRIEF: lead sentence, no code");
	uk_json_free(r);
	uk_buf_release(&b);
}

static void
test_prompts(void)
{
	struct uk_summary_prompts p;
	struct uk_err err;
	int t;

	uk_summary_prompts_init(&p);
	for (t = 0; t < UK_SUMMARY_NTYPES; t++)
		ok(strstr(p.text[t], uk_summary_type_name(t)) != NULL,
		    "built-in prompt names its type");
	ok(uk_summary_prompts_load(&p, "/nonexistent-dir", &err) == 0 &&
		!strcmp(p.text[0], uk_summary_prompt_builtin(0)),
	    "a directory without prompt files changes nothing");
	ok(uk_summary_prompts_load_file(&p, -1, "/nonexistent-file", &err) ==
		    -1 &&
		strstr(err.msg, "/nonexistent-file"),
	    "a missing prompt file is an error");
	uk_summary_prompts_release(&p);
}

static void
test_reply(void)
{
	static const char good[] =
	    "{\"model\":\"m-1\",\"choices\":[{\"message\":{\"role\":"
	    "\"assistant\",\"content\":\"<think>hmm</think>\\n  Sum.\\n\"}}]}";
	static const char bad[] = "{\"choices\":[]}";
	static const char nul[] =
	    "{\"choices\":[{\"message\":{\"content\":\" a\\u0000b \"}}]}";
	char *text, *model;
	size_t tlen;
	struct uk_err err;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_llm_opts o;

	ok(uk_llm_parse_reply(good, strlen(good), &text, &tlen, &model, &err) ==
		    0 &&
		!strcmp(text, "Sum.") && tlen == 4 && !strcmp(model, "m-1"),
	    "reply: content trimmed, <think> dropped, model read");
	free(text);
	free(model);
	ok(uk_llm_parse_reply(nul, strlen(nul), &text, &tlen, &model, &err) ==
		    0 &&
		tlen == 3 && !memcmp(text, "a\0b", 3) && !model,
	    "reply: a \\u0000 in the content is kept, not cut");
	free(text);
	ok(uk_llm_parse_reply(bad, strlen(bad), &text, &tlen, &model, &err) == -1,
	    "reply: no choices is an error");
	ok(uk_llm_parse_reply("nope", 4, &text, &tlen, &model, &err) == -1,
	    "reply: not JSON is an error");
	uk_llm_opts_init(&o);
	o.model = "m";
	uk_llm_body(&o, "S", 1, "U", 1, &b);
	ok(!strcmp(b.buf,
	       "{\"model\":\"m\",\"messages\":[{\"role\":\"system\","
	       "\"content\":\"S\"},{\"role\":\"user\",\"content\":"
	       "\"U\"}],\"stream\":false}"),
	    "request body: model, system and user messages");
	uk_buf_reset(&b);
	uk_llm_body(&o, "S", 1, "x\0y", 3, &b);
	ok(strstr(b.buf, "\"content\":\"x\\u0000y\"") != NULL,
	    "request body: a NUL in the text is sent as \\u0000");
	uk_buf_release(&b);
}

int
main(void)
{
	test_select();
	test_select_record();
	test_assemble();
	test_format();
	test_context();
	test_offline();
	test_prompts();
	test_reply();
	return tap_done();
}
