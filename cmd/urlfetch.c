/* SPDX-License-Identifier: MIT */
/*
 * urlfetch: fetch what URLs point to, many at once, through the cache, and
 * write one content record each, in input order.  Local files are
 * urlextract's (cmd/urlextract.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_remote.h"
#include "extract.h"
#include "fetch.h"
#include "json.h"
#include "jsonl.h"
#include "progress.h"
#include "query.h"
#include "record.h"
#include "session.h"
#include "sha256.h"
#include "slice.h"
#include "url.h"
#include "urlfetch.h"
#include "util.h"
#include "view.h"
#include "banned.h"

static struct urlfetch_args opt;
static struct uk_jsonl_out out;

/*
 * The view for a person (lib/view) in place of records: standard output
 * is a terminal, and neither -T, --json, --compact nor --pretty said
 * otherwise.
 */
static struct {
	int on, width, colour;
} view;

/*
 * A URL being fetched: its item in the output queue (qi->rec is the input
 * record, qi->data this slot) and the fetch.
 */
struct slot {
	struct uk_fetch_job job;
	struct uk_jsonl_item *qi;
	int said; /* the error names what it is about: say it as it is */
};

struct run {
	struct uk_fetch f;
	struct uk_jsonl_queue q; /* records in input order */
	struct uk_cache scache;  /* the session's cache directory */
	struct uk_session sess;  /* -S */
	int have_sess;
	char *msgkey; /* the message being counted */
	size_t input; /* ... in this input (the source's index) */
	long msgcount;
	long cache_errors;
};

/* The slot whose job j is. */
static struct slot *
slot_of(struct uk_fetch_job *j)
{
	return (struct slot *)((char *)j - offsetof(struct slot, job));
}

/*
 * --text: the page's text (a repository's README and symbol map) in place
 * of its record, under a header "==> URL <==" as tail(1) writes one before
 * each file, with a blank line before all but the first; none when the
 * only input is one URL operand, as tail writes none for one file, unless
 * --header asks.  A page that failed has no header: its error goes to
 * stderr, as tail's does.  A slice (--max-tokens) with more after it ends
 * with the offset to read on from.
 */
static void
write_text(yajl_val rec)
{
	static int headers;
	struct uk_buf b = UK_BUF_INIT;
	const char *t, *map;
	long long next;
	size_t n;

	if (opt.header || opt.nin != 1 || opt.in[0].file)
		uk_buf_addf(&b, "%s==> %s <==\n", headers++ ? "\n" : "",
		    uk_json_get_str(rec, "url"));
	if ((t = uk_json_get_strn(rec, "content", &n)) ||
	    (t = uk_json_get_strn(rec, "readme", &n))) {
		uk_buf_add(&b, t, n);
		if (n && t[n - 1] != '\n')
			uk_buf_addch(&b, '\n');
	}
	if (!uk_json_get(rec, "content") &&
	    (map = uk_json_get_strn(rec, "symbol_map", &n)) && n) {
		uk_buf_addch(&b, '\n');
		uk_buf_add(&b, map, n);
		if (map[n - 1] != '\n')
			uk_buf_addch(&b, '\n');
	}
	if (!uk_json_get_int(rec, "next_offset", &next))
		uk_buf_addf(&b, "\n[... more: read on with --offset %lld]\n",
		    next);
	/* Text for a person: no terminal controls (the page's "&#27;"). */
	uk_cli_printable(&b);
	if (b.len)
		uk_jsonl_out_raw(&out, b.buf, b.len);
	uk_buf_release(&b);
}

/* A page's view, with a blank line before all but the first. */
static void
write_view(yajl_val rec)
{
	static int pages;
	struct uk_buf b = UK_BUF_INIT;

	if (pages++)
		uk_buf_addch(&b, '\n');
	uk_view_page(&b, rec, view.width, view.colour);
	uk_jsonl_out_raw(&out, b.buf, b.len);
	uk_buf_release(&b);
}

/* The content record of a finished fetch, as it goes out. */
static void
write_content(struct run *r, struct slot *s)
{
	struct uk_err err;
	const char *e, *ct;

	/* --explain's records go to stderr, not in the record. */
	if (uk_json_get(s->job.rec, "explain")) {
		progress_clear();
		if (uk_extract_override_explain_write(stderr,
			uk_json_get(s->job.rec, "explain")) < 0)
			uk_util_status_set(UK_EXIT_FATAL);
		uk_json_del(s->job.rec, "explain");
	}
	/* The input's fields, and the fit to the line limit: once, here. */
	s->job.rec = uk_record_finish(s->job.rec, s->qi->rec,
	    UK_JSONL_MAX_LINE);
	e = uk_json_get_str(s->job.rec, "error");
	/* A repository's record has no content: its slice.  The hash is
	 * of what is written: the sections kept, or the slice. */
	if (!e && opt.query && uk_json_get(s->job.rec, "content")) {
		uk_query_record(s->job.rec, opt.query,
		    (size_t)(opt.max_tokens ? opt.max_tokens :
					      UK_QUERY_TOKENS_DEFAULT));
		uk_record_hash(s->job.rec);
	} else if (!e && opt.query) {
		uk_slice_page(s->job.rec, 0,
		    (size_t)(opt.max_tokens ? opt.max_tokens :
					      UK_QUERY_TOKENS_DEFAULT));
		uk_record_hash(s->job.rec);
	} else if (!e && opt.max_tokens) {
		uk_slice_page(s->job.rec, (size_t)opt.offset,
		    (size_t)opt.max_tokens);
		uk_record_hash(s->job.rec); /* of the slice written */
	}
	if (e) {
		prog.failed++;
		progress_clear();
		if (s->said)
			uk_util_warn("%s", e);
		else
			uk_util_warn("'%s': %s",
			    s->job.url ? s->job.url :
					 uk_json_get_str(s->job.rec, "url"),
			    e);
		uk_util_status_set(UK_EXIT_FAIL);
	} else if (uk_json_get(s->job.rec, "needs_browser")) {
		progress_clear();
		uk_util_warn("'%s': %s", s->job.url, uk_extract_shell_warning);
	} else if ((ct = uk_json_get_str(s->job.rec, "content_type_ignored"))) {
		progress_clear();
		uk_util_warn("'%s': a PDF served as '%s': read as a PDF",
		    s->job.url, ct);
	}
	if (opt.text) {
		if (!e)
			write_text(s->job.rec);
	} else if (view.on) {
		if (!e)
			write_view(s->job.rec);
	} else {
		uk_jsonl_out_record(&out, s->job.rec);
	}
	if (r->have_sess && uk_session_add(&r->sess, s->job.rec, &err)) {
		progress_clear();
		uk_util_warn("session '%s': %s", opt.session, err.msg);
		uk_util_status_set(err.code);
	}
	uk_fetch_job_release(&s->job);
}

/*
 * Once a run: an input whose first line is neither a URL nor a url record
 * (a line that is no record, or markup or a PDF's signature taken as a
 * bare URL) is most likely a document given to the wrong program: say
 * which one reads it.
 */
static void
hint_document(const struct uk_jsonl_item *it)
{
	static int said;
	const char *url;

	if (said || it->line != 1)
		return;
	if (it->kind == UK_JSONL_RECORD) {
		url = uk_json_get_str(it->rec, "url");
		if (!url || (*url != '<' && strncmp(url, "%PDF-", 5)))
			return;
	} else if (it->kind != UK_JSONL_ERROR) {
		return;
	}
	said = 1;
	progress_clear();
	uk_util_warn("%s: not URLs or url records: to extract a local HTML or "
		     "PDF file, run urlextract",
	    strcmp(it->file, "-") ? it->file : "<stdin>");
}

/*
 * A document given where URLs or records are expected (`urlfetch
 * page.html`, a PDF on standard input) is a usage error that names the
 * program that reads it, before anything is fetched: read line by line,
 * it would give an error record per line of markup.
 */
static void
refuse_documents(void)
{
	const char *arg, *what;
	int i;

	for (i = 0; i < (opt.nin ? opt.nin : 1); i++) {
		arg = opt.nin ? opt.in[i].arg : "-";
		if (opt.nin && !opt.in[i].file && uk_jsonl_is_url_operand(arg))
			continue;
		if (!(what = uk_cli_document(arg)))
			continue;
		if (!strcmp(arg, "-"))
			uk_cli_usage(&urlfetch_cli,
			    "standard input is %s, not URLs or url records: "
			    "to extract it, run urlextract",
			    what);
		uk_cli_usage(&urlfetch_cli,
		    "'%s' is %s, not URLs or url records: to extract it, run "
		    "urlextract '%s'",
		    arg, what, arg);
	}
}


/* Whether standard input is one of the inputs. */
static int
reads_stdin(void)
{
	int i;

	for (i = 0; i < opt.nin; i++)
		if (opt.in[i].file && !strcmp(opt.in[i].arg, "-"))
			return 1;
	return opt.nin == 0;
}

/* The queue's writer: each item at its turn, in input order. */
static void
write_item(struct uk_jsonl_item *it, void *arg)
{
	progress_make_way();
	prog.done++;
	switch (it->kind) {
	case UK_JSONL_RECORD:
		write_content(arg, it->data);
		free(it->data);
		break;
	case UK_JSONL_ERROR:
		prog.failed++;
		progress_clear();
		uk_jsonl_item_write(opt.text || view.on ? NULL : &out, it);
		break;
	case UK_JSONL_PASS:
		if (opt.text || view.on) {
			/* Failed before it came: no text, but say why. */
			progress_clear();
			uk_util_warn("'%s': %s",
			    uk_json_get_str(it->rec, "url") ?
				uk_json_get_str(it->rec, "url") :
				"?",
			    uk_json_get_str(it->rec, "error") ?
				uk_json_get_str(it->rec, "error") :
				"failed");
			break;
		}
		uk_jsonl_item_write(&out, it);
		break;
	}
	hint_document(it);
}

/* Write every finished record at the head of the queue. */
static void
flush_head(struct run *r)
{
	uk_jsonl_queue_flush(&r->q);
	if (r->f.cache_errors > r->cache_errors) {
		progress_clear();
		uk_util_warn("cache: %s", r->f.cache_err.msg);
		uk_util_status_set(UK_EXIT_FAIL);
		r->cache_errors = r->f.cache_errors;
	}
}

/* The per-message limit: 1 when rec is one URL too many. */
static int
over_limit(struct run *r, yajl_val rec)
{
	yajl_val m = uk_json_get(rec, "message");
	struct uk_buf key = UK_BUF_INIT;

	if (!opt.max_per_msg || !m)
		return 0;
	uk_json_to_buf(m, &key);
	if (!r->msgkey || strcmp(r->msgkey, key.buf)) {
		free(r->msgkey);
		r->msgkey = uk_buf_detach(&key, NULL);
		r->msgcount = 0;
	}
	uk_buf_release(&key);
	return ++r->msgcount > opt.max_per_msg;
}

/*
 * Finish the job of slot s without fetching: an error record with the
 * input's url (whole) and msg, and "skipped" when skipped is set.
 */
static void
not_fetched(struct slot *s, const char *msg, int skipped)
{
	s->job.rec = uk_json_object();
	uk_json_set(s->job.rec, "url",
	    uk_json_copy(uk_json_get(s->qi->rec, "url")));
	uk_record_error(s->job.rec, msg);
	if (skipped)
		uk_json_set_bool(s->job.rec, "skipped", 1);
	s->job.done = 1;
}

/*
 * Take the next input (lib/jsonl's source: operands and -i files in
 * order) and start its fetch.  Returns 1, 0 at the end of the inputs, or
 * -1 on a read error (fatal).
 */
static int
take(struct run *r, struct uk_jsonl_src *src)
{
	struct uk_err err;
	yajl_val rec;
	const char *url;
	struct slot *s;
	int n;

	/* Bad lines and records that arrived failed are queued in order. */
	n = uk_jsonl_src_next(src, &rec, &err);
	prog.total = r->q.total;
	if (n == 0)
		return 0;
	if (n < 0) {
		/* A file that cannot be opened, or a read error. */
		progress_clear();
		uk_util_warn("%s", err.msg);
		uk_util_status_set(err.code);
		return err.code == UK_EXIT_FATAL ? -1 : 1;
	}
	if (src->index != r->input) {
		/* Messages are counted within one input. */
		r->input = src->index;
		free(r->msgkey);
		r->msgkey = NULL;
	}
	s = uk_util_xcalloc(1, sizeof(*s));
	s->qi = uk_jsonl_queue_add(&r->q, rec, src->name ? src->name : "-",
	    src->lineno);
	s->qi->data = s;
	prog.total = r->q.total;
	if (n == UK_JSONL_SRC_REFUSED) {
		/* An operand's message names it; a record's is about its url. */
		not_fetched(s, err.msg, 0);
		s->said = !src->name;
		s->qi->done = 1;
		return 1;
	}
	if (over_limit(r, rec)) {
		/* Not fetched, and said so in a record of its own, so that
		 * every URL read has its record. */
		struct uk_buf msg = UK_BUF_INIT;

		uk_buf_addf(&msg,
		    "over the limit of %ld URLs per message: fetch it with "
		    "urlfetch -m 0, or with urlserve's fetch_url",
		    opt.max_per_msg);
		not_fetched(s, msg.buf, 1);
		uk_buf_release(&msg);
		s->qi->done = 1;
		return 1;
	}
	url = uk_json_get_str(rec, "url");
	progress_host(url);
	uk_fetch_start(&r->f, &s->job, url, uk_json_get_str(rec, "type"));
	s->qi->done = s->job.done; /* a cache hit, or refused at once */
	return 1;
}

/*
 * The run's fetcher, -S's session (or exit 3 when either cannot be had),
 * and the output queue on stdout.
 */
static void
run_init(struct run *r)
{
	struct uk_err err;

	memset(r, 0, sizeof(*r));
	if (uk_fetch_init(&r->f, &opt.fo, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	/* --diff: the cache makes it as it stores a changed page. */
	r->f.cache.diff_lines = opt.diff_lines;
	if (opt.session) {
		if (uk_cache_open(&r->scache, opt.fo.cache_dir, opt.fo.ttl,
			&err) ||
		    uk_session_open(&r->sess, &r->scache, opt.session, &err))
			uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
		r->have_sess = 1;
	}
	uk_jsonl_out_init(&out, stdout);
	uk_jsonl_queue_init(&r->q, &out);
	r->q.write = write_item;
	r->q.arg = r;
}

static void
run_release(struct run *r)
{
	free(r->msgkey);
	uk_jsonl_queue_release(&r->q);
	uk_fetch_release(&r->f);
	if (r->have_sess) {
		uk_session_release(&r->sess);
		uk_cache_release(&r->scache);
	}
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
}

int
main(int argc, char **argv)
{
	struct uk_jsonl_policy p = { .flags = UK_JSONL_BARE_URL,
		.require = "url" };
	struct uk_jsonl_src src;
	struct uk_fetch_job *j;
	struct run r;
	long window;
	int i, eof = 0, fd_ready = 0, wfd;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	/* content_hash and the cache's change by SHA-NI: libcrypto is
	 * linked anyway. */
	uk_sha256_use(uk_cache_digest_sha256);
	uk_util_heap_init();
	urlfetch_args_init(&opt);
	uk_fetch_opts_init(&opt.fo);
	urlfetch_args_parse(&opt, argc, argv);
	/* A bad URLKIT_CACHE_REMOTE is a usage error before any work, as
	 * --cache-remote is, not the cache open's failure (exit 3). */
	if (opt.fo.use_cache || opt.session) {
		struct uk_err err;

		if (uk_cache_remote_check_env(&err))
			uk_util_die(UK_EXIT_USAGE, "%s", err.msg);
	}
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&urlfetch_cli, "-o: cannot open '%s': %s",
		    opt.output, strerror(errno));
	refuse_documents();
	if (!opt.text && !opt.json && uk_jsonl_output == UK_JSONL_AUTO &&
	    uk_view_want(STDOUT_FILENO)) {
		view.on = 1;
		view.width = uk_view_width(STDOUT_FILENO);
		view.colour = uk_jsonl_colour(STDOUT_FILENO);
		/* The pager has the screen: no progress line over it.  None
		 * while URLs are typed on the terminal: both would read it. */
		if (!(reads_stdin() && isatty(STDIN_FILENO)) &&
		    uk_view_pager_start())
			opt.quiet = 1;
	}
	uk_progress_init(&prog.p, STDERR_FILENO, opt.quiet);
	progress_clock_init();
	if (uk_progress_on(&prog.p))
		opt.fo.repo.progress = progress_repo;

	run_init(&r);
	p.q = &r.q;
	uk_jsonl_src_init(&src, &p);
	for (i = 0; i < opt.nin; i++)
		uk_jsonl_src_add(&src, opt.in[i].arg,
		    opt.in[i].file ? UK_JSONL_SRC_FILE : UK_JSONL_SRC_URL);
	window = 4 * opt.fo.http.jobs < 16 ? 16 : 4 * opt.fo.http.jobs;
	for (;;) {
		int fd = -1;

		flush_head(&r);
		progress_draw(0);
		if (!eof && (long)r.q.n < window) {
			/* Read on when nothing else is to be done, when the
			 * input is ready, or when it need not be waited on. */
			fd = uk_jsonl_src_fd(&src);
			if (fd < 0 || !uk_fetch_busy(&r.f) || fd_ready) {
				fd_ready = 0;
				if (take(&r, &src) <= 0)
					eof = 1;
				continue;
			}
		}
		if (eof && r.q.n == 0)
			break;
		wfd = progress_wait_fd(fd);
		j = uk_fetch_wait(&r.f, wfd, &fd_ready);
		fd_ready = progress_waited(wfd, fd, fd_ready);
		if (j) {
			slot_of(j)->qi->done = 1;
		} else if (!fd_ready && !uk_fetch_busy(&r.f) && eof) {
			/* Nothing left in flight: the window is done. */
			flush_head(&r);
			if (r.q.n) {
				progress_clear();
				uk_util_die(UK_EXIT_FATAL,
				    "internal error: "
				    "a fetch went missing");
			}
		}
	}
	if (prog.total) {
		/* The final count, then a clean line for what comes next. */
		progress_draw(1);
		uk_progress_done(&prog.p);
	}
	progress_clock_release();
	uk_jsonl_src_release(&src);
	run_release(&r);
	urlfetch_args_release(&opt);
	return uk_status;
}
