/* SPDX-License-Identifier: MIT */
/*
 * pwfetch's input: URL operands and the records of -i files in
 * command-line order (lib/jsonl's source), each checked before a page is
 * started for it.
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

/*
 * Set the source up from the command line's inputs, once.  lib/jsonl's
 * policy answers broken lines, records that arrive failed, blank lines
 * and records without a URL, in the queue.
 */
static void
input_start(struct run *r, struct input *in)
{
	int i;

	if (in->started)
		return;
	in->started = 1;
	in->pol.flags = UK_JSONL_BARE_URL;
	in->pol.require = "url";
	in->pol.q = &r->q;
	uk_jsonl_src_init(&in->lines, &in->pol);
	for (i = 0; i < in->nsrc; i++)
		uk_jsonl_src_add(&in->lines, in->src[i].arg,
		    in->src[i].file ? UK_JSONL_SRC_FILE : UK_JSONL_SRC_URL);
}

void
input_release(struct input *in)
{
	if (in->started)
		uk_jsonl_src_release(&in->lines);
	in->started = 0;
}

/* Whether rec's URL can be fetched; if not, its error record is written. */
static int
fetchable(struct run *r, yajl_val rec)
{
	struct uk_url u;
	const char *url = uk_json_get_str(rec, "url");
	char msg[300];
	int ok;

	uk_url_classify(url, &u);
	ok = u.scheme &&
	    (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
	uk_url_release(&u);
	if (!ok) {
		snprintf(msg, sizeof(msg), "not an http(s) URL: '%.200s'", url);
		uk_page_error(&r->ps, rec, url, msg);
		return 0;
	}
	r->seq++;
	if (r->browser_gone || r->timed_out) {
		uk_page_error(&r->ps, rec, url,
		    r->timed_out ? "not fetched: the run timed out" :
				   r->gone_why);
		return 0;
	}
	return 1;
}

/*
 * The next record to look at, its item r->cur in the queue, or NULL at
 * the end.  A file that cannot be opened is its error record, and the
 * other inputs are still read.
 */
static yajl_val
next_record(struct run *r, struct input *in, int *refused, char *why,
    size_t whylen)
{
	struct uk_err err;
	yajl_val rec;
	int n;

	for (;;) {
		n = uk_jsonl_src_next(&in->lines, &rec, &err);
		uk_jsonl_queue_flush(&r->q);
		if (n > 0) {
			*refused = n == UK_JSONL_SRC_REFUSED;
			snprintf(why, whylen, "%s", *refused ? err.msg : "");
			r->cur = uk_jsonl_queue_add(&r->q, NULL, in->lines.name,
			    in->lines.lineno);
			return rec;
		}
		if (n == 0)
			return NULL;
		if (err.code == UK_EXIT_FATAL) {
			uk_util_warn("%s", err.msg);
			uk_util_status_set(UK_EXIT_FATAL);
			return NULL;
		}
		uk_jsonl_queue_error(&r->q, in->lines.name, 0, err.msg);
		uk_jsonl_queue_flush(&r->q);
	}
}

yajl_val
next_input(struct run *r, struct input *in)
{
	struct uk_jsonl_item *it;
	yajl_val rec;
	char why[600];
	int refused;

	input_start(r, in);
	while (!in->eof &&
	    (rec = next_record(r, in, &refused, why, sizeof(why)))) {
		it = r->cur;
		it->data = uk_util_xcalloc(1, sizeof(struct slot));
		if (refused) {
			/* Set again by the error record, after its fields. */
			uk_json_del(rec, "error");
			uk_page_error(&r->ps, rec, uk_json_get_str(rec, "url"),
			    why);
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

	if ((p.fd = input_fd(in)) < 0)
		return 1;
	p.events = POLLIN;
	return poll(&p, 1, 0) > 0;
}

int
input_fd(struct input *in)
{
	return in->eof || !in->started ? -1 : uk_jsonl_src_fd(&in->lines);
}

int
input_more(const struct input *in)
{
	return !in->eof && (!in->started || uk_jsonl_src_more(&in->lines));
}
