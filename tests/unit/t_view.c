/* SPDX-License-Identifier: MIT */
/* Unit tests of a content record's view on a terminal (lib/view). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "view.h"
#define TAP_PREFIX "view: "
#include "tap.h"

#include "banned.h"

/* The view of the record JSON rec at width, colour off. */
static char *
view_of(const char *rec, int width)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val v = uk_json_parse(rec, strlen(rec), &err);

	if (!v)
		return NULL;
	uk_view_page(&b, v, width, 0);
	uk_json_free(v);
	return uk_buf_detach(&b, NULL);
}

/* The widest line of s, in bytes. */
static size_t
widest(const char *s)
{
	size_t w = 0, n;

	while (*s) {
		n = strcspn(s, "\n");
		if (n > w)
			w = n;
		s += n + (s[n] == '\n');
	}
	return w;
}

int
main(void)
{
	char *v;

	v = view_of("{\"url\":\"https://a.example/x\",\"url_type\":\"web\","
		    "\"title\":\"T\",\"content\":\"one two three four five six "
		    "seven eight nine ten\\n\\nend\"}",
	    20);
	ok(v && !strncmp(v, "T\nhttps://a.example/x\nweb, text, ", 31),
	    "header: title, URL, type and format");
	ok(v && strstr(v, " tokens\n\n"), "header: tokens, then a blank line");
	ok(v && strstr(v, "\n\none two three four\nfive six seven eight\n"
			  "nine ten\n\nend\n"),
	    "text wrapped at spaces to 20 columns, its blank line kept");
	free(v);

	v = view_of("{\"url\":\"https://a.example/\",\"content\":\"see "
		    "https://a.example/a-very-long-path-indeed ok\"}",
	    20);
	ok(v && strstr(v, "\nsee\nhttps://a.example/a-very-long-path-indeed\n"
			  "ok\n"),
	    "a word wider than the line stands whole on its own");
	free(v);

	v = view_of("{\"url\":\"https://a.example/\",\"title\":\"a\\u001b[2Jb\","
		    "\"content\":\"x\\u0007y\"}",
	    40);
	ok(v && !strchr(v, '\033') && !strchr(v, '\007'),
	    "the page's controls do not reach the terminal");
	free(v);

	v = view_of("{\"url\":\"https://a.example/\",\"content\":\"short\"}",
	    1000);
	ok(v && !strncmp(v, "https://a.example/\n", 19) &&
		widest(v) <= UK_VIEW_MAX_WIDTH && strstr(v, "\n\nshort\n"),
	    "no title: the URL first; the text as it is when it fits");
	free(v);
	return tap_done();
}
