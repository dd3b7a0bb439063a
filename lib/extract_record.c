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

void
uk_extract_record(const struct uk_extract *x, unsigned flags, void *r)
{
	yajl_val rec = r;
	size_t k;

	/* The four every content record has: null when absent. */
	uk_json_set(rec, "title", uk_json_str_or_null(x->title));
	uk_json_set(rec, "description", uk_json_str_or_null(x->description));
	uk_json_set(rec, "author", uk_json_str_or_null(x->author));
	uk_json_set(rec, "date", uk_json_str_or_null(x->date));
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
	/* A block page's kind is the wall's, never the page's. */
	if (!x->blocked)
		uk_json_set_str_nonempty(rec, "page_type", x->page_type);
	if (flags & UK_EXTRACT_REC_SERVED)
		uk_json_set_str_nonempty(rec, "charset", x->charset);
	/* How the content was found: a block page gives none. */
	if (x->blocked)
		;
	else if (x->fallback)
		uk_json_set_str(rec, "extraction", "fallback");
	else if (flags & UK_EXTRACT_REC_SERVED)
		uk_json_set_str(rec, "extraction", "main");
}
