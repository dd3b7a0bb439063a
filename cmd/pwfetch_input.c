/* SPDX-License-Identifier: MIT */
/*
 * pwfetch's input: URL operands and the records of -i files in
 * command-line order, each checked before a page is started for it.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jsonl.h"
#include "page.h"
#include "url.h"
#include "util.h"
#include "pwfetch.h"

#include "banned.h"

/* Whether rec's URL can be fetched; if not, its error record is written. */
static int
fetchable(struct run *r, yajl_val rec)
{
	struct uk_url u;
	const char *url;
	char msg[300];
	size_t len;
	int ok;

	url = uk_json_get_strn(rec, "url", &len);
	if (len != strlen(url)) {
		/* As urlfetch: "https://a.example/j\u0000evil" is not
		 * https://a.example/j, and is not opened. */
		uk_pages_error(&r->ps, rec, url,
		    UK_URL_NUL_ERROR);
		return 0;
	}
	uk_url_classify(url, &u);
	ok = u.scheme &&
	    (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
	uk_url_release(&u);
	if (!ok) {
		snprintf(msg, sizeof(msg), "not an http(s) URL: '%.200s'", url);
		uk_pages_error(&r->ps, rec, url, msg);
		return 0;
	}
	r->seq++;
	if (r->browser_gone || r->timed_out) {
		uk_pages_error(&r->ps, rec, url,
		    r->timed_out ? "not fetched: the run timed out" :
				   r->gone_why);
		return 0;
	}
	return 1;
}

/*
 * The next record of the -i file being read with a "url", or NULL at its
 * end; lib/jsonl's policy answers the rest (broken lines, records that
 * arrive failed, blank lines, records without a URL), in the queue.
 */
static yajl_val
next_line(struct run *r, struct input *in)
{
	struct uk_jsonl_policy pol = { .flags = UK_JSONL_BARE_URL,
		.require = "url",
		.q = &r->q };
	struct uk_err err;
	yajl_val rec;
	int n;

	n = uk_jsonl_take(&in->lines, &pol, &rec, &err);
	uk_jsonl_queue_flush(&r->q);
	if (n > 0) {
		r->cur = uk_jsonl_queue_add(&r->q, NULL, in->lines.name,
		    in->lines.lineno);
		return rec;
	}
	if (n < 0) {
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FATAL);
	}
	uk_jsonl_close(&in->lines);
	in->use_lines = 0;
	return NULL;
}

/*
 * Whether the operand s is a URL: a scheme and a colon (RFC 3986's
 * scheme), so that a file name given as an operand is told to use -i.
 */
static int
is_url(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
			     "XYZ0123456789+.-");

	return n > 0 && s[n] == ':' &&
	    ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'));
}

/*
 * The next record to look at from the sources: a URL operand's, or a
 * record of an -i file (opened when its turn comes).  NULL at the end.
 */
static yajl_val
next_record(struct run *r, struct input *in)
{
	struct source *src;
	struct uk_err err;
	yajl_val rec;

	for (;;) {
		if (in->use_lines) {
			if ((rec = next_line(r, in)))
				return rec;
			if (uk_status == UK_EXIT_FATAL)
				return NULL;
			continue;
		}
		if (in->i >= in->nsrc)
			return NULL;
		src = &in->src[in->i++];
		if (!src->file) {
			rec = uk_json_object();
			uk_json_set_str(rec, "url", src->arg);
			r->cur = uk_jsonl_queue_add(&r->q, NULL, NULL, 0);
			return rec;
		}
		if (uk_jsonl_open(&in->lines, src->arg, &err)) {
			/* A file that is not there: its error record, and
			 * the other sources are still read. */
			uk_jsonl_queue_error(&r->q, src->arg, 0, err.msg);
			uk_jsonl_queue_flush(&r->q);
			if (err.code == UK_EXIT_FATAL) {
				uk_status_set(UK_EXIT_FATAL);
				return NULL;
			}
			continue;
		}
		in->use_lines = 1;
	}
}

/*
 * The next URL record to fetch, or NULL at the end.  Input that cannot be
 * fetched is answered here and skipped.
 */
yajl_val
next_input(struct run *r, struct input *in)
{
	struct uk_jsonl_item *it;
	yajl_val rec;

	while (!in->eof && (rec = next_record(r, in))) {
		it = r->cur;
		it->data = uk_xcalloc(1, sizeof(struct slot));
		if (!in->use_lines && !is_url(uk_json_get_str(rec, "url"))) {
			char msg[600];
			const char *u = uk_json_get_str(rec, "url");

			snprintf(msg, sizeof(msg),
			    "not a URL: '%.200s' (to read records from a file, "
			    "use -i %.200s)",
			    u, u);
			uk_pages_error(&r->ps, rec, u, msg);
		} else if (fetchable(r, rec)) {
			return rec;
		}
		uk_json_free(rec);
	}
	in->eof = 1;
	return NULL;
}

int
input_ready(struct input *in)
{
	struct pollfd p;

	if (in->eof || !in->use_lines)
		return 1;
	if (in->lines.rpos < in->lines.rend || in->lines.eof)
		return 1;
	p.fd = in->lines.fd;
	p.events = POLLIN;
	return poll(&p, 1, 0) > 0;
}
