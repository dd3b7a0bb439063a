/* SPDX-License-Identifier: MIT */
/*
 * urlsum: summarise content records, offline or through an LLM.  The
 * records in order through the queue, the requests in flight, and -p's
 * and -c's context (the command line is urlsum_opts.c's).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cache.h"
#include "cli.h"
#include "json.h"
#include "jsonl.h"
#include "llm.h"
#include "record.h"
#include "summary.h"
#include "util.h"
#include "urlsum.h"

#include "banned.h"

static struct uk_jsonl_out out;
static struct uk_cache cache;
static int have_cache;
static struct uk_llm llm;
static int have_llm;
static char *key;
static struct uk_summary_prompts prompts;
static const char *backend_name;

/* Records of --context, held until the end. */
static yajl_val *ctx_recs;
static size_t ctx_n, ctx_alloc;
static int prompt_count;
/* What -p left out as it went (without a budget). */
static struct uk_summary_context prompt_left;

/*
 * A record on its way through: its place in the output queue (qi->rec is
 * the record, qi->data this item) and its summary request.
 */
struct item {
	struct uk_jsonl_item *qi;
	enum uk_summary_type type;
	char reason[128];
	struct uk_buf system, user;
	struct uk_llm_req req;
};

/* Records in input order, however their summaries finish. */
static struct uk_jsonl_queue queue;

static const char *
display(const char *file)
{
	return strcmp(file, "-") ? file : "<stdin>";
}

static int
is_excluded(const char *url)
{
	size_t i;

	for (i = 0; url && i < opt.nexcluded; i++)
		if (!strcmp(opt.excluded[i], url))
			return 1;
	return 0;
}

/* -p without a budget: one record's context as it comes. */
static void
emit_prompt(yajl_val rec)
{
	struct uk_buf b = UK_BUF_INIT;

	if (is_excluded(uk_json_get_str(rec, "url"))) {
		prompt_left.excluded_n++;
		return;
	}
	if (prompt_count++)
		uk_buf_addch(&b, '\n');
	if (uk_json_get(rec, "error")) {
		uk_summary_format_error(rec, &b);
		prompt_left.errors++;
	} else {
		uk_summary_format_prompt(rec, 0, &b);
	}
	uk_buf_addch(&b, '\n');
	/* Text for a person (or a model): no terminal controls. */
	uk_cli_printable(&b);
	uk_jsonl_out_raw(&out, b.buf, b.len);
	uk_jsonl_out_flush(&out);
	uk_buf_release(&b);
}

/* Write one finished record in the chosen output mode. */
static void
emit(yajl_val rec)
{
	switch (opt.mode) {
	case MODE_JSON:
		uk_jsonl_out_record(&out, rec);
		uk_json_free(rec);
		return;
	case MODE_PROMPT:
		if (!opt.max_length && !opt.max_tokens) {
			emit_prompt(rec);
			uk_json_free(rec);
			return;
		}
		/* With a budget, held for the shares, as -c holds them. */
		/* fall through */
	default:
		if (ctx_n == ctx_alloc) {
			ctx_alloc = ctx_alloc ? 2 * ctx_alloc : 16;
			ctx_recs = uk_util_xrealloc(ctx_recs,
			    ctx_alloc * sizeof(*ctx_recs));
		}
		ctx_recs[ctx_n++] = rec;
	}
}

/*
 * The queue's writer: an item at the head, in input order.  Input that
 * was not a record is an error record in JSON mode, else only a warning
 * (the queue has no output then).
 */
static void
write_item(struct uk_jsonl_item *qi, void *arg)
{
	(void)arg;
	if (qi->kind == UK_JSONL_ERROR) {
		uk_jsonl_item_write(queue.out, qi);
		return;
	}
	emit(qi->rec);
	qi->rec = NULL; /* emit's now */
	free(qi->data);
}

static void
fail(struct item *it, const char *msg)
{
	const char *url = uk_json_get_str(it->qi->rec, "url");

	uk_record_error(it->qi->rec, msg);
	uk_util_warn("%s:%lu: '%s': %s", display(it->qi->file), it->qi->line,
	    url ? url : "", msg);
	uk_util_status_set(UK_EXIT_FAIL);
	it->qi->done = 1;
}

/* text[0..len): a summary may hold NUL ("a\u0000b"), written back whole. */
static void
set_summary(struct item *it, const char *text, size_t len,
    const char *backend)
{
	yajl_val rec = it->qi->rec;

	uk_json_set(rec, "summary", uk_json_strn(text, len));
	uk_json_set_str(rec, "summary_type", uk_summary_type_name(it->type));
	uk_json_set_str(rec, "summary_reason", it->reason);
	uk_json_set_str(rec, "summary_backend", backend);
	/* An earlier run's fallback said why its summary was offline. */
	uk_json_del(rec, "summary_error");
	it->qi->done = 1;
}

/* The cache entry's summary of the type wanted, if it has one. */
static int
from_cache(struct item *it, const char *url)
{
	struct uk_err err;
	yajl_val c = NULL;
	const char *s, *t;
	size_t n = 0;
	int expired = 0, r;

	r = uk_cache_get(&cache, url, UK_CACHE_STALE, &c, &expired, &err);
	if (r < 0) {
		uk_util_warn("cache: %s", err.msg);
		return 0;
	}
	if (r == 0)
		return 0;
	r = 0;
	if (!expired && (s = uk_json_get_strn(c, "summary", &n)) && n &&
	    (t = uk_json_get_str(c, "summary_type")) &&
	    !strcmp(t, uk_summary_type_name(it->type))) {
		set_summary(it, s, n, "cache");
		r = 1;
	}
	uk_json_free(c);
	return r;
}

static const char *const text_keys[] = { "title", "description", "readme",
	"symbol_map", "content", NULL };

/* Does rec have anything besides its URL to summarise? */
static int
has_text(yajl_val rec)
{
	const char *s;
	size_t n, k;
	int i;

	for (i = 0; text_keys[i]; i++)
		if ((s = uk_json_get_strn(rec, text_keys[i], &n)))
			for (k = 0; k < n; k++)
				if (!isspace((unsigned char)s[k]))
					return 1;
	return 0;
}

/* Why rec has nothing to summarise: a url record (urldetect's, or a bare
 * URL) has none of a content record's text fields at all. */
static const char *
no_text_reason(yajl_val rec)
{
	int i;

	for (i = 0; text_keys[i]; i++)
		if (uk_json_get(rec, text_keys[i]))
			return "nothing to summarise";
	return "no content: run urlfetch first";
}

/* Decide what a new record needs; submit a request when it needs one. */
static void
process(struct item *it)
{
	yajl_val rec = it->qi->rec;
	const char *hint, *url, *s, *t;
	struct uk_buf b = UK_BUF_INIT;

	if (opt.no_summary) {
		it->qi->done = 1;
		return;
	}
	url = uk_json_get_str(rec, "url"); /* the reader required it */
	hint = opt.hint ? opt.hint : uk_json_get_str(rec, "hint");
	if (opt.type >= 0) {
		it->type = (enum uk_summary_type)opt.type;
		snprintf(it->reason, sizeof(it->reason), "forced by --type");
	} else {
		it->type = uk_summary_select_record(rec, hint, it->reason,
		    sizeof(it->reason));
	}
	/* A summary of this type that the record already carries. */
	if (!opt.force && (s = uk_json_get_str(rec, "summary")) && *s &&
	    (t = uk_json_get_str(rec, "summary_type")) &&
	    !strcmp(t, uk_summary_type_name(it->type))) {
		uk_json_set_str(rec, "summary_reason", it->reason);
		if (!uk_json_get(rec, "summary_backend"))
			uk_json_set_str(rec, "summary_backend", "input");
		it->qi->done = 1;
		return;
	}
	if (have_cache && !opt.force && from_cache(it, url))
		return;
	if (!has_text(rec)) {
		fail(it, no_text_reason(rec));
		return;
	}
	if (!have_llm && !opt.dry_run) {
		if (uk_summary_write_offline(rec, it->type, &b) < 0)
			fail(it, "nothing to summarise");
		else
			set_summary(it, b.buf, b.len, "offline");
		uk_buf_release(&b);
		return;
	}
	uk_buf_addstr(&it->system, prompts.text[it->type]);
	if (hint && *hint) {
		uk_buf_addstr(&it->system, "\n\nThe reader's request: ");
		uk_buf_addstr(&it->system, hint);
	}
	/* With -p or -c the budgets are the output's, not the model's. */
	if (opt.mode == MODE_JSON && opt.max_tokens)
		uk_summary_assemble_tokens(rec, (size_t)opt.max_tokens,
		    &it->user);
	else
		uk_summary_assemble(rec,
		    opt.mode == MODE_JSON ? (size_t)opt.max_length : 0,
		    &it->user);
	if (opt.dry_run) {
		/* The request body in place of the record; nothing is sent. */
		struct uk_llm_opts lo;

		uk_llm_opts_init(&lo);
		lo.model = opt.model;
		uk_llm_body(&lo, it->system.buf, it->system.len, it->user.buf,
		    it->user.len, &b);
		uk_json_free(it->qi->rec);
		it->qi->rec = uk_json_parse(b.buf, b.len, NULL);
		uk_buf_release(&b);
		uk_buf_release(&it->system);
		uk_buf_release(&it->user);
		it->qi->done = 1;
		return;
	}
	it->req.system = it->system.buf;
	it->req.user = it->user.buf;
	it->req.system_len = it->system.len;
	it->req.user_len = it->user.len;
	it->req.data = it;
	uk_llm_submit(&llm, &it->req);
}

/*
 * The endpoint failed (after its retries): the offline summary in place
 * of the model's, with the endpoint's error in summary_error, so that a
 * good content record is not lost to a model that is down.  Returns 0
 * when there is no offline summary either (the caller fails the record).
 */
static int
fallback(struct item *it, const char *msg)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *url = uk_json_get_str(it->qi->rec, "url");
	int r = 0;

	if (uk_summary_write_offline(it->qi->rec, it->type, &b) == 0) {
		set_summary(it, b.buf, b.len, "offline");
		uk_json_set_str(it->qi->rec, "summary_error", msg);
		uk_util_warn("%s:%lu: '%s': %s; the offline summary instead",
		    display(it->qi->file), it->qi->line, url ? url : "", msg);
		r = 1;
	}
	uk_buf_release(&b);
	return r;
}

/* A request came back. */
static void
answered(struct uk_llm_req *r)
{
	struct item *it = r->data;
	struct uk_err err;
	const char *url = uk_json_get_str(it->qi->rec, "url");

	if (r->ok) {
		set_summary(it, r->text, r->text_len,
		    backend_name ? backend_name :
			r->model ? r->model :
				   "llm");
		if (have_cache &&
		    uk_cache_update_summary(&cache, url, r->text, r->text_len,
			uk_summary_type_name(it->type), &err) < 0) {
			/* As urlfetch: the record goes out, the run fails. */
			uk_util_warn("cache: '%s': %s", url, err.msg);
			uk_util_status_set(UK_EXIT_FAIL);
		}
	} else if (opt.no_fallback || !fallback(it, r->err.msg)) {
		fail(it, r->err.msg);
	}
	uk_llm_req_release(r);
	uk_buf_release(&it->system);
	uk_buf_release(&it->user);
}

/* Write the finished records at the head of the queue. */
static void
drain(void)
{
	uk_jsonl_queue_flush(&queue);
}

static void
wait_one(int fd, int *ready)
{
	struct uk_llm_req *r;

	r = uk_llm_wait(&llm, fd, -1, ready);
	if (r)
		answered(r);
	drain();
}

static int
run(struct uk_jsonl_in *in)
{
	/* A bare URL is a url record, to be told to run urlfetch first. */
	struct uk_jsonl_policy p = { .flags = UK_JSONL_BARE_URL,
		.require = opt.no_summary ? NULL : "url",
		.q = &queue };
	struct uk_err err;
	struct item *it;
	yajl_val rec;
	int r, ready;
	size_t maxq = (size_t)opt.jobs * 4 + 16;

	for (;;) {
		drain();
		if (have_llm && (llm.active >= opt.jobs || queue.n >= maxq)) {
			wait_one(-1, NULL);
			continue;
		}
		if (have_llm && llm.active > 0 && !uk_jsonl_pending(in)) {
			wait_one(in->fd, &ready);
			if (!ready)
				continue;
		}
		r = uk_jsonl_take(in, &p, &rec, &err);
		if (r == 0)
			return 0;
		if (r < 0) {
			uk_util_warn("%s", err.msg);
			return -1;
		}
		it = uk_util_xcalloc(1, sizeof(*it));
		it->qi = uk_jsonl_queue_add(&queue, rec, in->name, in->lineno);
		it->qi->data = it;
		uk_buf_init(&it->system, 0);
		uk_buf_init(&it->user, 0);
		process(it);
	}
}

static void
setup_backend(void)
{
	struct uk_llm_opts lo;
	struct uk_err err;
	const char *e;

	if (!opt.url && (e = getenv("URLKIT_LLM_URL")) && *e)
		opt.url = e;
	if (!opt.model && (e = getenv("URLKIT_LLM_MODEL")) && *e)
		opt.model = e;
	if (opt.offline || !opt.url || opt.no_summary || opt.dry_run)
		return;
	if (opt.key_file)
		key = read_key(opt.key_file);
	else if ((e = getenv("URLKIT_LLM_KEY")) && *e)
		key = uk_util_xstrdup(e);
	else if ((e = getenv("OPENAI_API_KEY")) && *e)
		key = uk_util_xstrdup(e);
	uk_llm_opts_init(&lo);
	lo.url = opt.url;
	lo.model = opt.model;
	lo.key = key;
	lo.timeout = opt.timeout;
	lo.retries = (int)opt.retries;
	if (uk_llm_init(&llm, &lo, &err)) {
		if (err.code == UK_EXIT_USAGE)
			uk_cli_usage(&urlsum_cli, "%s", err.msg);
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	}
	have_llm = 1;
	backend_name = opt.model;
}

/* Say what -p or -c left out of the context, and what it cut. */
static void
say_left_out(const struct uk_summary_context *c)
{
	struct uk_buf b = UK_BUF_INIT;

	size_t left = c->errors + c->excluded_n + c->repeats + c->dropped;

	if (opt.quiet || !(left || c->cut))
		return;
	if (c->errors)
		uk_buf_addf(&b, ", %zu with an error (named in it)", c->errors);
	if (c->excluded_n)
		uk_buf_addf(&b, ", %zu excluded", c->excluded_n);
	if (c->repeats)
		uk_buf_addf(&b, ", %zu repeated", c->repeats);
	if (c->dropped)
		uk_buf_addf(&b, ", %zu last with no room in %s", c->dropped,
		    opt.max_tokens ? "--max-tokens" : "--max-length");
	if (b.len)
		uk_util_warn("%s: left out %zu record%s: %s",
		    opt.mode == MODE_CONTEXT ? "-c" : "-p", left,
		    left == 1 ? "" : "s", b.buf + 2);
	if (c->cut)
		uk_util_warn("%s: cut %zu record%s to fit %s",
		    opt.mode == MODE_CONTEXT ? "-c" : "-p", c->cut,
		    c->cut == 1 ? "" : "s",
		    opt.max_tokens ? "--max-tokens" : "--max-length");
	uk_buf_release(&b);
}

/* -c, or -p with a budget: the prompt context of the records held. */
static void
write_context(void)
{
	struct uk_summary_context c = { 0 };
	struct uk_buf b = UK_BUF_INIT;
	size_t k;

	opt.excluded = uk_util_xrealloc(opt.excluded,
	    (opt.nexcluded + 1) * sizeof(*opt.excluded));
	opt.excluded[opt.nexcluded] = NULL;
	c.excluded = opt.excluded;
	c.separator = opt.mode == MODE_CONTEXT ? UK_SUMMARY_SEPARATOR : "\n\n";
	c.dedup = opt.mode == MODE_CONTEXT;
	c.max_chars = (size_t)opt.max_length;
	c.max_tokens = (size_t)opt.max_tokens;
	uk_summary_format_context(ctx_recs, ctx_n, &c, &b);
	uk_cli_printable(&b);
	uk_jsonl_out_raw(&out, b.buf, b.len);
	uk_buf_release(&b);
	say_left_out(&c);
	for (k = 0; k < ctx_n; k++)
		uk_json_free(ctx_recs[k]);
	free(ctx_recs);
}

int
main(int argc, char **argv)
{
	struct uk_err err;
	FILE *ofp = stdout;
	int i, r = 0;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	i = parse_opts(argc, argv);
	argc -= i;
	argv += i;

	uk_summary_prompts_init(&prompts);
	if (opt.prompt_dir &&
	    uk_summary_prompts_load(&prompts, opt.prompt_dir, &err)) {
		uk_cli_usage(&urlsum_cli, "--prompt-dir: %s", err.msg);
	}
	if (opt.prompt_file &&
	    uk_summary_prompts_load_file(&prompts, opt.type, opt.prompt_file,
		&err)) {
		uk_cli_usage(&urlsum_cli, "--prompt-file: %s", err.msg);
	}
	setup_backend();
	if (opt.output && !(ofp = fopen(opt.output, "w")))
		uk_cli_usage(&urlsum_cli, "-o: cannot open '%s': %s", opt.output,
		    strerror(errno));
	if (!opt.no_cache && !opt.no_summary) {
		if (uk_cache_open(&cache, NULL, -1, &err))
			uk_util_die(UK_EXIT_FATAL, "cache: %s", err.msg);
		have_cache = 1;
	}

	uk_jsonl_out_init(&out, ofp);
	uk_jsonl_queue_init(&queue, opt.mode == MODE_JSON ? &out : NULL);
	queue.write = write_item;
	for (i = 0; i < (argc ? argc : 1); i++) {
		struct uk_jsonl_in in;

		if (uk_jsonl_open(&in, argc ? argv[i] : "-", &err)) {
			uk_util_warn("%s", err.msg);
			uk_util_status_set(err.code);
			if (err.code == UK_EXIT_FATAL)
				break;
			continue;
		}
		r = run(&in);
		/* Records in flight still name this file: finish them. */
		while (have_llm && llm.active)
			wait_one(-1, NULL);
		drain();
		uk_jsonl_close(&in);
		if (r < 0) {
			uk_util_status_set(UK_EXIT_FATAL);
			break;
		}
	}
	while (have_llm && llm.active)
		wait_one(-1, NULL);
	drain();
	if (opt.mode == MODE_CONTEXT ||
	    (opt.mode == MODE_PROMPT && (opt.max_length || opt.max_tokens)))
		write_context();
	else if (opt.mode == MODE_PROMPT)
		say_left_out(&prompt_left);
	uk_jsonl_queue_release(&queue);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	if (ofp != stdout && fclose(ofp))
		uk_util_die(UK_EXIT_FATAL, "write error: '%s': %s", opt.output,
		    strerror(errno));
	if (have_llm)
		uk_llm_release(&llm);
	if (have_cache)
		uk_cache_release(&cache);
	uk_summary_prompts_release(&prompts);
	free(opt.excluded);
	if (key) {
		memset(key, 0, strlen(key));
		free(key);
	}
	return uk_status;
}
