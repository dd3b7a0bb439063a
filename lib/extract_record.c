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

static void
set_opt(yajl_val rec, const char *key, const char *s)
{
	if (s && *s)
		uk_json_set_str(rec, key, s);
}

void
uk_extract_record(const struct uk_extract *x, void *r)
{
	yajl_val rec = r;
	size_t k;

	set_opt(rec, "title", x->title);
	set_opt(rec, "description", x->description);
	set_opt(rec, "author", x->author);
	set_opt(rec, "date", x->date);
	set_opt(rec, "lang", x->lang);
	set_opt(rec, "sitename", x->sitename);
	set_opt(rec, "canonical", x->canonical);
	set_opt(rec, "image", x->image);
	if (x->ntags) {
		yajl_val a = uk_json_array();

		for (k = 0; k < x->ntags; k++)
			uk_json_push(a, uk_json_str(x->tags[k]));
		uk_json_set(rec, "tags", a);
	}
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
}
