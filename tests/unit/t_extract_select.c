/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for lib/extract_select.c: each form of selector, the case
 * rules, document order, the errors' columns and the bounds.
 */
#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "extract_select.h"
#include "util.h"

#define TAP_PREFIX "extract_select: "
#include "tap.h"

#include "banned.h"

/*
 * Every element of the page has an id (n1, n2...) or is named by its
 * tag; the tests compare the list of what matched, in order.
 */
static const char page[] =
    "<!doctype html><html><head><title>t</title></head><body id=b>"
    "<div id=n1 class='main Wide' data-x='alpha beta' lang=en-GB>"
    "  <p id=n2 class=lead>one</p>"
    "  <section id=n3 class='md:flex'>"
    "    <p id=n4 title='Hello World'>two</p>"
    "    <div id=n5><p id=n6 class='lead note'>three</p></div>"
    "  </section>"
    "  <my-widget id=n7 TYPE=Button></my-widget>"
    "</div>"
    "<aside id=n8 class=main><p id=n9 data-x=alphabet>four</p></aside>"
    "<div id=123>digits</div>"
    "<template id=n10><p id=n11>in template</p></template>"
    "</body></html>";

static GumboOutput *doc;

static void
collect(void *arg, GumboNode *g)
{
	struct uk_buf *b = arg;
	GumboAttribute *a = gumbo_get_attribute(&g->v.element.attributes,
	    "id");

	if (b->len)
		uk_buf_addch(b, ' ');
	uk_buf_addstr(b, a ? a->value :
				   gumbo_normalized_tagname(g->v.element.tag));
}

/* What sel matches in page, or "ERR: message". */
static char *
run(const char *sel)
{
	struct uk_extract_select *s;
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err = { 0, "" };

	if (uk_extract_select_compile(sel, &s, &err) < 0) {
		uk_buf_addf(&b, "ERR: %s", err.msg);
		return uk_buf_detach(&b, NULL);
	}
	uk_extract_select_each(s, doc->document, collect, &b);
	uk_extract_select_free(s);
	return uk_buf_detach(&b, NULL);
}

static void
is(const char *sel, const char *want)
{
	char *got = run(sel);

	ok(!strcmp(got, want), "'%s' -> '%s' (got '%s')", sel, want, got);
	free(got);
}

int
main(void)
{
	struct uk_extract_select *s;
	struct uk_err err = { 0, "" };
	struct uk_buf b = UK_BUF_INIT;
	size_t k, n;

	doc = gumbo_parse(page);

	/* Type and '*'. */
	is("section", "n3");
	is("SECTION", "n3");
	is("my-widget", "n7");
	is("MY-Widget", "n7");
	is("p", "n2 n4 n6 n9 n11");
	is("aside *", "n9");
	is("section > *", "n4 n5");
	/* #id and .class: values keep their case. */
	is("#n4", "n4");
	is("#N4", "");
	is(".lead", "n2 n6");
	is(".note.lead", "n6");
	is(".wide", "");
	is(".Wide", "n1");
	is(".md\\:flex", "n3");
	is("#\\31 23", "123");
	is("[id='123']", "123");
	/* Attributes. */
	is("[title]", "n4");
	is("[TITLE]", "n4");
	is("[title='Hello World']", "n4");
	is("[title=\"hello world\"]", "");
	is("[title='hello world' i]", "n4");
	is("[data-x=alphabet]", "n9");
	is("[data-x~=beta]", "n1");
	is("[data-x~=alpha]", "n1");
	is("[data-x~='alpha beta']", "");
	is("[data-x^=alph]", "n1 n9");
	is("[data-x$=bet]", "n9");
	is("[data-x*=a\\ b]", "n1");
	is("[data-x*='']", "");
	is("[lang|=en]", "n1");
	is("[lang|=EN]", "n1");
	is("[lang=en-gb]", "n1");
	is("[lang=en-gb s]", "");
	is("[type=button]", "n7");
	/* Compound selectors. */
	is("div.main#n1[data-x]", "n1");
	is("p.lead:not(.note)", "n2");
	is(":not(p):not(div)[id^=n]", "n3 n7 n8 n10");
	is("p:not([title])", "n2 n6 n9 n11");
	is("p:not(#n2):not(#n6)", "n4 n9 n11");
	is("*:not(*)", "");
	/* Combinators. */
	is("div p", "n2 n4 n6");
	is("div > p", "n2 n6");
	is("div>p", "n2 n6");
	is("body > div > section p", "n4 n6");
	is("div section > div > p.lead", "n6");
	is("section > p", "n4");
	is("aside > p, div > p", "n2 n6 n9");
	is("div div div", "");
	is("div div p", "n6");
	is("body > * > section", "n3");
	is("html p.note", "n6");
	is("template p", "n11");
	/* Lists: document order, each element once. */
	is("#n9, #n2, .lead", "n2 n6 n9");
	is("  p.lead ,\n#n4  ", "n2 n4 n6");

	/* Errors: where they fail. */
	is("div[", "ERR: at column 5: expected an attribute name");
	is("", "ERR: at column 1: an empty selector");
	is("div,", "ERR: at column 5: expected a selector after ','");
	is("div,,p", "ERR: at column 5: an empty selector in the list");
	is("[a=", "ERR: at column 4: expected a value (an identifier or a "
		  "quoted string)");
	is("[a='x]", "ERR: at column 4: a string with no closing '");
	is("[a=x", "ERR: at column 5: expected ']'");
	is("[a%=x]", "ERR: at column 3: expected ']' or an operator "
		     "(=, ~=, |=, ^=, $=, *=)");
	is("a + b", "ERR: at column 3: the sibling combinator '+' is not "
		    "supported (only ' ' and '>')");
	is("a ~ b", "ERR: at column 3: the sibling combinator '~' is not "
		    "supported (only ' ' and '>')");
	is("a:hover", "ERR: at column 2: ':hover' is not supported (of the "
		      "pseudo-classes, only :not())");
	is("p::before", "ERR: at column 2: pseudo-elements are not supported");
	is(":not(.a.b)", "ERR: at column 8: :not() takes one simple selector "
			 "(no compound)");
	is(":not(.a, .b)", "ERR: at column 8: :not() takes one simple selector, "
			   "not a list");
	is(":not(:not(a))", "ERR: at column 6: :not() cannot hold :not()");
	is(":not(.a", "ERR: at column 8: expected ')'");
	is("#1a", "ERR: at column 2: an id after '#' cannot start with a digit "
		  "(escape it, or use [attr=\"value\"])");
	is("div >", "ERR: at column 6: expected a selector after the "
		    "combinator");
	is(".", "ERR: at column 2: expected a class name after '.'");
	is("p.a*", "ERR: at column 4: a type or '*' goes first in a compound "
		   "selector");
	is("a)", "ERR: at column 2: a ')' without its '('");
	is("p\\", "ERR: at column 3: a backslash that escapes nothing");
	is("[ns|a]", "ERR: at column 4: namespaces are not supported");
	is("\xc3\xa9t\xc3\xa9[", "ERR: at column 5: expected an attribute "
				 "name");

	/* Bounds. */
	for (k = 0; k < UK_EXTRACT_SELECT_MAXLEN + 1; k++)
		uk_buf_addch(&b, 'a');
	ok(uk_extract_select_compile(b.buf, &s, &err) == -1 && !s &&
		err.code == UK_EXIT_USAGE &&
		!strcmp(err.msg, "longer than 1024 bytes"),
	    "a selector longer than the bound is refused (%s)", err.msg);
	uk_buf_reset(&b);
	for (k = 0; k <= UK_EXTRACT_SELECT_MAXLIST; k++)
		uk_buf_addstr(&b, k ? ",p" : "p");
	ok(uk_extract_select_compile(b.buf, &s, &err) == -1 &&
		strstr(err.msg, "more than 32 selectors in the list"),
	    "a list longer than the bound is refused (%s)", err.msg);
	uk_buf_reset(&b);
	for (k = 0; k < UK_EXTRACT_SELECT_MAXLIST; k++)
		uk_buf_addstr(&b, k ? ",p" : "p");
	ok(uk_extract_select_compile(b.buf, &s, &err) == 0 && s,
	    "a list of 32 is read");
	uk_extract_select_free(s);
	uk_buf_reset(&b);
	for (k = 0; k <= UK_EXTRACT_SELECT_MAXCHAIN; k++)
		uk_buf_addstr(&b, k ? " *" : "*");
	ok(uk_extract_select_compile(b.buf, &s, &err) == -1 &&
		strstr(err.msg, "more than 32 compound selectors"),
	    "a chain longer than the bound is refused (%s)", err.msg);
	uk_buf_reset(&b);
	/* 32 descendant combinators of '*': no backtracking blows up. */
	for (k = 0; k < UK_EXTRACT_SELECT_MAXCHAIN; k++)
		uk_buf_addstr(&b, k ? " *" : "*");
	ok(uk_extract_select_compile(b.buf, &s, &err) == 0, "a chain of 32");
	{
		struct uk_buf deep = UK_BUF_INIT;
		GumboOutput *d;

		for (k = 0; k < 2000; k++)
			uk_buf_addstr(&deep, "<div>");
		d = gumbo_parse(deep.buf);
		n = uk_extract_select_each(s, d->document, collect, &b);
		/* html, body, then 2000 divs: the 32nd element down on. */
		ok(n == 2002 - 31, "a chain of 32 '*' over 2002 nested "
		    "elements matches %zu", n);
		gumbo_destroy_output(&kGumboDefaultOptions, d);
		uk_buf_release(&deep);
	}
	uk_extract_select_free(s);
	uk_extract_select_free(NULL);
	uk_buf_release(&b);

	/* From an element: the element itself and what is under it. */
	uk_extract_select_compile("p, section", &s, &err);
	{
		GumboNode *body = NULL, *html;
		GumboVector *v = &doc->document->v.document.children;
		struct uk_buf r = UK_BUF_INIT;

		html = v->data[v->length - 1];
		for (k = 0; k < html->v.element.children.length; k++) {
			GumboNode *ch = html->v.element.children.data[k];

			if (ch->type == GUMBO_NODE_ELEMENT &&
			    ch->v.element.tag == GUMBO_TAG_BODY)
				body = ch;
		}
		body = body->v.element.children.data[0]; /* n1 */
		body = body->v.element.children.data[3]; /* n3 */
		uk_extract_select_each(s, body, collect, &r);
		ok(!strcmp(r.buf, "n3 n4 n6"), "from an element: '%s'", r.buf);
		uk_buf_release(&r);
	}
	uk_extract_select_free(s);
	gumbo_destroy_output(&kGumboDefaultOptions, doc);
	return tap_done();
}
