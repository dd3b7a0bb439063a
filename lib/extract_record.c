/* SPDX-License-Identifier: MIT */
/*
 * The fields an extraction gives a content record (see extract.h): one
 * builder for urlfetch's network and --extract routes and pwfetch, so
 * that their records agree field for field.
 */
#include <stdlib.h>
#include <string.h>

#include "banned.h"
#include "extract.h"
#include "json.h"

/* The four every content record has: the string, or null when absent. */
static void
set_str_or_null(yajl_val rec, const char *key, const char *s)
{
	uk_json_set(rec, key, s ? uk_json_str(s) : uk_json_null());
}

void
uk_extract_record(const struct uk_extract *x, unsigned flags, void *r)
{
	yajl_val rec = r;
	size_t k;

	set_str_or_null(rec, "title", x->title);
	set_str_or_null(rec, "description", x->description);
	set_str_or_null(rec, "author", x->author);
	set_str_or_null(rec, "date", x->date);
	uk_json_set_str_nonempty(rec, "lang", x->lang);
	uk_json_set_str_nonempty(rec, "sitename", x->sitename);
	uk_json_set_str_nonempty(rec, "canonical", x->canonical);
	uk_json_set_str_nonempty(rec, "image", x->image);
	if (x->ntags) {
		yajl_val a = uk_json_array();

		for (k = 0; k < x->ntags; k++)
			uk_json_push(a, uk_json_str(x->tags[k]));
		uk_json_set(rec, "tags", a);
	}
	/* A block page's text is the wall's, never the page's content. */
	if (x->blocked)
		uk_json_set_bool(rec, "blocked", 1);
	else
		uk_json_set_str(rec, "content", x->text ? x->text : "");
	if (x->comments)
		uk_json_set_str(rec, "comments", x->comments);
	if (x->format && strcmp(x->format, "text"))
		uk_json_set_str(rec, "format", x->format);
	if (x->pages)
		uk_json_set_int(rec, "pages", x->pages);
	if (x->truncated)
		uk_json_set_bool(rec, "truncated", 1);
	if (x->needs_browser)
		uk_json_set_bool(rec, "needs_browser", 1);
	if (flags & UK_EXTRACT_REC_SERVED)
		uk_json_set_str_nonempty(rec, "charset", x->charset);
	if (x->fallback)
		uk_json_set_str(rec, "extraction", "fallback");
	else if (flags & UK_EXTRACT_REC_SERVED)
		uk_json_set_str(rec, "extraction", "main");
}
