/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_feat.c: --explain's records (x->explain)
 * and the page type on a page.
 */
#include <stdlib.h>
#include <string.h>

#define TAP_PREFIX "explain: "
#include "banned.h"
#include "buf.h"
#include "extract.h"
#include "json.h"
#include "tap.h"
#include "util.h"

#define PARA(w)                                                        \
	"<p>The " w " paragraph talks at length, with commas, about "  \
	"the subject of the page, so that any reader would agree it "  \
	"is the main text, and it goes on for a while.</p>"

static const char page[] =
    "<!DOCTYPE html><html><head><title>Brewing</title></head><body>"
    "<nav><a href=/>Home</a> <a href=/a>NAVTEXT</a></nav>"
    "<div id=\"cookie-banner\">We use COOKIETEXT cookies.</div>"
    "<article><h1>How to Brew Coffee</h1>" PARA("first") PARA("second")
    "<div style=\"display:none\">HIDDENTEXT</div>" PARA("third")
    "</article>"
    "<div class=\"comments\"><p>COMMENTTEXT: I think so too, and so on, "
    "and on, with enough words to score as a paragraph.</p></div>"
    "<footer>FOOTERTEXT (c) 2025</footer></body></html>";

static struct uk_extract x;

/* The rule of the record whose text holds s, or NULL; each line JSON. */
static const char *
rule_of(const char *s, int *bad)
{
	static char rule[32];
	const char *p = x.explain, *nl;

	*bad = 0;
	while (p && *p && (nl = strchr(p, '\n'))) {
		struct uk_err err = { 0 };
		yajl_val v = uk_json_parse(p, (size_t)(nl - p), &err);
		const char *t, *r, *path;

		if (!v || !(t = uk_json_get_str(v, "text")) ||
		    !(r = uk_json_get_str(v, "rule")) ||
		    !(path = uk_json_get_str(v, "path"))) {
			*bad = 1;
			if (v)
				yajl_tree_free(v);
			return NULL;
		}
		if (strstr(t, s)) {
			snprintf(rule, sizeof(rule), "%s", r);
			yajl_tree_free(v);
			return rule;
		}
		yajl_tree_free(v);
		p = nl + 1;
	}
	return NULL;
}

static int
is(const char *s, const char *rule)
{
	int bad;
	const char *r = rule_of(s, &bad);

	return !bad && r && !strcmp(r, rule);
}

int
main(void)
{
	struct uk_extract_opts o = UK_EXTRACT_OPTS_INIT;
	struct uk_err err = { 0 };
	int bad;

	ok(uk_extract_html(page, strlen(page), NULL, NULL, NULL, &x,
	    &err) == 0 && x.explain == NULL,
	    "without opts.explain, no explain");
	ok(x.page_type != NULL, "an HTML page has a page_type");
	uk_extract_release(&x);
	o.explain = 1;
	ok(uk_extract_html(page, strlen(page), NULL, NULL, &o, &x, &err) == 0,
	    "extracts with explain");
	ok(x.text && strstr(x.text, "The third paragraph") &&
	    !strstr(x.text, "NAVTEXT"), "the text is the same");
	ok(x.explain != NULL, "explain has records");
	ok(is("NAVTEXT", "tag"), "a <nav> by its tag");
	ok(is("FOOTERTEXT", "tag"), "a <footer> by its tag");
	ok(is("COOKIETEXT", "class"), "a cookie banner by its id");
	ok(is("HIDDENTEXT", "hidden"), "display:none as hidden");
	ok(is("COMMENTTEXT", "comments"), "a comment section");
	ok(!rule_of("The first paragraph", &bad) && !bad,
	    "no record for the text kept");
	if (getenv("EXPLAIN_SHOW"))
		fputs(x.explain, stderr);
	uk_extract_release(&x);

	/* Another story's teaser after the article: the text rules'. */
	{
		struct uk_buf b = UK_BUF_INIT;
		int i;

		uk_buf_addstr(&b, "<html><body><div><h1>Harbour wall</h1>");
		for (i = 0; i < 5; i++)
			uk_buf_addstr(&b, PARA("story"));
		for (i = 0; i < 4; i++)
			uk_buf_addf(&b, "<p><a href=/s%d>Fishermen count the "
			    "cost of a long winter, TEASER %d</a><br>By COAST "
			    "WIRE<br>11/20/2019 10:0%d AM</p>", i, i, i);
		uk_buf_addstr(&b, "</div></body></html>");
		ok(uk_extract_html(b.buf, b.len, NULL, NULL, &o, &x,
		    &err) == 0 && !strstr(x.text, "TEASER"),
		    "teasers extract, and go");
		ok(is("TEASER 3", "text"), "a teaser by the text rules");
		uk_buf_release(&b);
		uk_extract_release(&x);
	}
	return tap_done();
}
