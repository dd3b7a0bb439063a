/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "charset.h"
#include "extract.h"
#include "fetch.h"
#include "fetch_pool.h"
#include "jsonl.h"
#include "links.h"
#include "negotiate.h"
#include "pagelinks.h"
#include "record.h"
#include "banned.h"

enum {
	ST_NONE,
	ST_WEB,   /* a page: web, documentation, issue without the API */
	ST_FILE,  /* a GitHub file on the raw host */
	ST_ISSUE, /* an issue or PR on the API */
	ST_ALT,   /* the HTML's Markdown alternate (req2) */
	ST_LLMS,  /* the site's /llms.txt (req2) */
	ST_MD,    /* the Markdown version llms.txt lists (req2) */
};

/* What the worker does with a job (uk_fetch_job.xkind). */
enum {
	X_PAGE,    /* a 2xx page: its record (page_record) */
	X_BLOCKED, /* an error answer: is it a block page (status_blocked) */
};

static void extract_job(struct uk_fetch_job *j);
static void submit(struct uk_fetch_job *j, int kind);

void
uk_fetch_opts_init(struct uk_fetch_opts *o)
{
	memset(o, 0, sizeof(*o));
	uk_http_opts_init(&o->http);
	o->use_cache = 1;
	o->ttl = -1;
	uk_repo_opts_init(&o->repo);
	/* Zero is extraction's default (text, 200 PDF pages). */
}

/* A base URL from the environment without its trailing slashes. */
static const char *
base(const char *var, const char *def, char **buf)
{
	const char *v = getenv(var);
	size_t n;

	if (!v || !*v)
		v = def;
	n = strlen(v);
	while (n > 0 && v[n - 1] == '/')
		n--;
	*buf = uk_util_xmemdup(v, n);
	return *buf;
}

int
uk_fetch_init(struct uk_fetch *f, const struct uk_fetch_opts *o,
    struct uk_err *err)
{
	const char *t;

	memset(f, 0, sizeof(*f));
	f->o = *o;
	if (o->use_cache) {
		if (uk_cache_open(&f->cache, o->cache_dir, o->ttl, err))
			return -1;
		f->have_cache = 1;
	}
	if (uk_http_init(&f->http, &o->http, err)) {
		uk_fetch_release(f);
		return -1;
	}
	f->jobs = f->http.o.jobs;
	f->web_base =
	    base("URLKIT_GITHUB_URL", "https://github.com", &f->web_buf);
	f->raw_base = base("URLKIT_GITHUB_RAW_URL",
	    "https://raw.githubusercontent.com", &f->raw_buf);
	f->api_base = base("URLKIT_GITHUB_API_URL", "https://api.github.com",
	    &f->api_buf);
	if ((t = getenv("URLKIT_GITHUB_TOKEN")) && *t)
		f->token = t;
	else if ((t = getenv("GITHUB_TOKEN")) && *t)
		f->token = t;
	return 0;
}

void
uk_fetch_release(struct uk_fetch *f)
{
	uk_fetch_pool_free(f->pool);
	uk_http_release(&f->http);
	if (f->have_cache)
		uk_cache_release(&f->cache);
	free(f->web_buf);
	free(f->raw_buf);
	free(f->api_buf);
	uk_negotiate_sites_free(f->sites);
	memset(f, 0, sizeof(*f));
}

int
uk_fetch_busy(const struct uk_fetch *f)
{
	return uk_http_busy(&f->http) || uk_fetch_pool_busy(f->pool) ||
	    f->repos || f->ready;
}

void
uk_fetch_job_release(struct uk_fetch_job *j)
{
	uk_json_free(j->rec);
	uk_json_free(j->stale);
	free(j->url);
	uk_url_release(&j->u);
	uk_http_req_release(&j->req);
	uk_json_free(j->xrec);
	uk_buf_release(&j->xmsg);
	if (j->req2.url)
		uk_http_req_release(&j->req2);
	free(j->xalt);
	uk_json_free(j->fallback);
	memset(j, 0, sizeof(*j));
}

/* The content record's start (lib/record.h). */
static yajl_val
new_record(struct uk_fetch_job *j)
{
	return uk_record_new(j->url, NULL, uk_url_type_name(j->u.type));
}

static yajl_val
github_info(const struct uk_url *u)
{
	yajl_val gi = uk_json_object();

	if (u->owner)
		uk_json_set_str(gi, "owner", u->owner);
	if (u->repo)
		uk_json_set_str(gi, "repo", u->repo);
	if (u->branch)
		uk_json_set_str(gi, "branch", u->branch);
	if (u->file)
		uk_json_set_str(gi, "path", u->file);
	if (u->issue_number)
		uk_json_set_int(gi, "issue_number", u->issue_number);
	if (u->pr_number)
		uk_json_set_int(gi, "pr_number", u->pr_number);
	return gi;
}

static int
is_github(enum uk_url_type t)
{
	return t == UK_URL_GITHUB_REPO || t == UK_URL_GITHUB_FILE ||
	    t == UK_URL_GITHUB_ISSUE || t == UK_URL_GITHUB_PR;
}

/*
 * Whether j's page is extracted with --links, --images or --comments:
 * such a record is neither read from the cache nor written to it, since
 * the cache keeps one record per URL and the plain one is what most runs
 * want.
 */
static int
extract_extras(const struct uk_fetch_job *j)
{
	const struct uk_extract_opts *o = &j->f->o.extract;

	if (j->u.type == UK_URL_GITHUB_REPO || j->u.type == UK_URL_GITHUB_FILE)
		return 0;
	/* The overrides' and --explain's records are not the page's. */
	return o->links || o->images || o->comments || o->nselect ||
	    o->nremove || o->whole || o->explain || o->links_out;
}

/* Whether rec's text came from source (its "source" field). */
static int
is_source(yajl_val rec, const char *source)
{
	const char *s = uk_json_get_str(rec, "source");

	return s && !strcmp(s, source);
}

/*
 * Whether j's page is asked for as Markdown first (lib/negotiate.h): a
 * web or documentation page, unless --no-negotiate, or an option that
 * is about the page's HTML (--select, --remove, --whole, --explain).
 */
static int
negotiates(const struct uk_fetch_job *j)
{
	const struct uk_extract_opts *o = &j->f->o.extract;

	return !j->f->o.no_negotiate &&
	    (j->u.type == UK_URL_WEB || j->u.type == UK_URL_DOCUMENTATION) &&
	    !o->nselect && !o->nremove && !o->whole && !o->explain;
}

/* Set rec's "source" on a web or documentation page's record. */
static void
set_source(const struct uk_fetch_job *j, yajl_val rec, const char *source)
{
	if (j->u.type == UK_URL_WEB || j->u.type == UK_URL_DOCUMENTATION)
		uk_json_set_str(rec, "source", source);
}

/* Whether a cached page record was extracted in the format asked for. */
static int
page_cached_ok(const struct uk_fetch_job *j, yajl_val rec)
{
	const char *fmt = uk_json_get_str(rec, "format");
	int md = j->f->o.extract.format == UK_EXTRACT_MARKDOWN;

	if (j->u.type != UK_URL_WEB && j->u.type != UK_URL_DOCUMENTATION)
		return 1;
	/* Markdown the site served is that in any format (negotiate.h). */
	if (is_source(rec, "markdown") || is_source(rec, "llms.txt"))
		return 1;
	/* A record without "format" is text (uk_extract_record). */
	return md == (fmt && !strcmp(fmt, "markdown"));
}

/* Finish j with rec (owned); cache it when it has no error. */
static void
finish(struct uk_fetch_job *j, yajl_val rec, int cached)
{
	struct uk_fetch *f = j->f;
	struct uk_err err;

	uk_json_del(rec, "cached");
	/* What the cache keeps is what its readers take. */
	uk_record_fit(rec, UK_JSONL_MAX_LINE);
	/* Nothing fetched with -k is cached: an unverified page must not
	 * come back to a run that verifies. */
	if (!cached && f->have_cache && !f->o.http.insecure && !j->nocache &&
	    !uk_json_get(rec, "error") && uk_cache_set(&f->cache, rec, &err)) {
		f->cache_errors++;
		f->cache_err = err;
	}
	uk_json_set_bool(rec, "cached", cached);
	uk_json_free(j->rec);
	j->rec = rec;
	j->done = 1;
	/* The record is made: the body need not wait for its turn in the
	 * output with it. */
	uk_buf_release(&j->req.body);
}

/*
 * rec's final_url and http part (lib/record.h) from the answer j's last
 * request had, when it had one: a record made after an answer, content or
 * error, says what came back.
 */
static void
set_answer(struct uk_fetch_job *j, yajl_val rec)
{
	struct uk_http_req *r = &j->req;
	struct uk_record_http h = { .final_url = r->final_url,
		.status = r->status,
		.content_type = r->content_type,
		.etag = r->etag_out,
		.last_modified = r->last_modified_out };

	if (r->status > 0)
		uk_record_set_http(rec, &h);
}

static void
fail(struct uk_fetch_job *j, const char *fmt, const char *arg)
{
	yajl_val rec = new_record(j);
	struct uk_buf b = UK_BUF_INIT;

	if (is_github(j->u.type))
		uk_json_set(rec, "github_info", github_info(&j->u));
	set_answer(j, rec);
	uk_buf_addf(&b, fmt, arg);
	uk_record_error(rec, b.buf);
	uk_buf_release(&b);
	finish(j, rec, 0);
}

static int
ct_is(const char *ct, const char *prefix)
{
	return ct && !strncasecmp(ct, prefix, strlen(prefix));
}

/* Whether a body of this Content-Type is HTML (sniffed when unknown). */
static int
is_html(const char *ct, const struct uk_buf *body)
{
	size_t n = body->len < 1024 ? body->len : 1024;
	char *head;
	int r;

	if (ct && *ct)
		return ct_is(ct, "text/html") ||
		    ct_is(ct, "application/xhtml+xml");
	head = uk_util_xmemdup(body->buf, n);
	r = strcasestr(head, "<html") || strcasestr(head, "<!doctype html") ||
	    strcasestr(head, "<head") || strcasestr(head, "<body");
	free(head);
	return r;
}

/*
 * Whether a body is a PDF document: by its type, or by its first bytes
 * when the server says nothing or octet-stream, or says text (HTML or
 * plain) of a body that starts "%PDF-": a misconfigured server's PDF,
 * whose syntax would otherwise be taken for a page's text.  *wrong is
 * then 1: the record says which type was ignored.
 */
static int
is_pdf(const char *ct, const struct uk_buf *body, int *wrong)
{
	*wrong = 0;
	if (ct && ct_is(ct, "application/pdf"))
		return 1;
	if (ct && *ct && !ct_is(ct, "application/octet-stream")) {
		if (!ct_is(ct, "text/html") && !ct_is(ct, "text/plain") &&
		    !ct_is(ct, "application/xhtml+xml"))
			return 0;
		*wrong = uk_pdf_sniff(body->buf, body->len);
		return *wrong;
	}
	return uk_pdf_sniff(body->buf, body->len);
}

/*
 * What kind of binary file buf[0..len) is, by the signatures of the
 * WHATWG MIME Sniffing Standard's tables (images, audio and video, fonts,
 * archives), or NULL.  A body served as HTML or text that starts with one
 * is no page, however few control bytes its first kilobyte has (a small
 * ZIP archive has fewer than uk_extract_meta_is_binary counts on).
 */
static const char *
binary_kind(const char *buf, size_t len)
{
	static const struct {
		size_t off;
		const char *magic;
		size_t n;
		const char *kind;
	} sig[] = {
		{ 0, "GIF87a", 6, "a GIF image" },
		{ 0, "GIF89a", 6, "a GIF image" },
		{ 0, "\x89PNG\r\n\x1a\n", 8, "a PNG image" },
		{ 0, "\xff\xd8\xff", 3, "a JPEG image" },
		{ 0, "\0\0\1\0", 4, "an icon" },
		{ 0, "\0\0\2\0", 4, "a cursor" },
		{ 8, "WEBPVP", 6, "a WebP image" },
		{ 8, "WAVE", 4, "a WAVE sound" },
		{ 8, "AVI ", 4, "an AVI video" },
		{ 4, "ftyp", 4, "an MP4 video" },
		{ 0, "\x1a\x45\xdf\xa3", 4, "a WebM video" },
		{ 0, "OggS\0", 5, "an Ogg stream" },
		{ 0, "ID3", 3, "an MP3 sound" },
		{ 0, "fLaC", 4, "a FLAC sound" },
		{ 0, "wOFF", 4, "a font" },
		{ 0, "wOF2", 4, "a font" },
		{ 0, "OTTO", 4, "a font" },
		{ 0, "\0\1\0\0", 4, "a font" },
		{ 0, "\x1f\x8b\x08", 3, "a gzip archive" },
		{ 0, "PK\x03\x04", 4, "a ZIP archive" },
		{ 0, "Rar!\x1a\x07", 6, "a RAR archive" },
		{ 0, "7z\xbc\xaf\x27\x1c", 6, "a 7-Zip archive" },
		{ 0, "\xfd" "7zXZ\0", 6, "an xz archive" },
		{ 0, "\x28\xb5\x2f\xfd", 4, "a zstd archive" },
		{ 0, "BZh", 3, "a bzip2 archive" },
		{ 0, "\x7f" "ELF", 4, "a program" },
	};
	size_t i;

	for (i = 0; i < sizeof(sig) / sizeof(sig[0]); i++)
		if (len >= sig[i].off + sig[i].n &&
		    !memcmp(buf + sig[i].off, sig[i].magic, sig[i].n))
			return sig[i].kind;
	return NULL;
}

static int
is_text(const char *ct)
{
	static const char *const types[] = { "text/", "application/json",
		"application/xml", "application/javascript",
		"application/x-javascript", "application/ecmascript",
		"application/x-sh", "application/toml", "application/yaml",
		"application/x-yaml", "application/markdown", "application/rss",
		"application/atom", "application/ld+json", NULL };
	size_t i;

	if (!ct || !*ct)
		return 1;
	for (i = 0; types[i]; i++)
		if (ct_is(ct, types[i]))
			return 1;
	return strcasestr(ct, "+json") || strcasestr(ct, "+xml");
}

/* Whether a Content-Type is Markdown's. */
static int
is_markdown(const char *ct)
{
	return ct_is(ct, "text/markdown") || ct_is(ct, "text/x-markdown");
}

/* A PDF body's record (page_record); 0 or -1. */
static int
pdf_record(struct uk_fetch_job *j, yajl_val rec, int wrong, const char **why,
    struct uk_buf *msg)
{
	struct uk_http_req *r = &j->req;
	struct uk_extract x;
	struct uk_err err;
	char ctype[64];

	if (uk_pdf_extract(r->body.buf, r->body.len, r->final_url,
		&j->f->o.extract, &x, &err)) {
		uk_buf_addstr(msg, err.msg);
		uk_extract_release(&x);
		*why = "pdf";
		return -1;
	}
	uk_extract_record(&x, 0, rec);
	uk_extract_release(&x);
	set_source(j, rec, "pdf");
	if (j->f->o.extract.links_out)
		uk_pagelinks_none(rec);
	if (wrong) {
		/* The media type alone (its token's characters), as
		 * charset_ignored names one charset; the server's
		 * whole header is in http. */
		snprintf(ctype, sizeof(ctype), "%.*s",
		    (int)strspn(r->content_type,
			"abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			"!#$&^_.+-/"),
		    r->content_type);
		uk_json_set_str(rec, "content_type_ignored", ctype);
	}
	return 0;
}

/*
 * An HTML body's record (page_record): 0, -1, or 1 when the page has a
 * Markdown alternate to fetch first (j->xalt).  A body that came as
 * text/markdown and is HTML is read here as HTML (negotiate.h).
 */
static int
html_record(struct uk_fetch_job *j, yajl_val rec, const char **why,
    struct uk_buf *msg)
{
	struct uk_http_req *r = &j->req;
	struct uk_extract x;
	struct uk_extract_opts eo = UK_EXTRACT_OPTS_INIT;
	struct uk_err err;
	char cs[64], *alt;
	const char *kind;

	/* (UTF-16 declared by the header may have no BOM.) */
	kind = NULL;
	if ((!(r->content_type &&
		 strcasestr(r->content_type, "utf-16")) &&
		uk_extract_meta_is_binary(r->body.buf, r->body.len)) ||
	    (kind = binary_kind(r->body.buf, r->body.len))) {
		uk_buf_addstr(msg, "binary content served as HTML, "
				   "not text");
		if (kind)
			uk_buf_addf(msg, " (%s)", kind);
		*why = "binary";
		return -1;
	}
	/* The Markdown alternate, when there is one, instead (extracted:
	 * one more request); the HTML is read if that fails. */
	if (j->neg && !j->extra && (alt = uk_links_markdown_alternate(
	    r->body.buf, r->body.len, r->content_type, r->final_url))) {
		if (uk_negotiate_same_origin(alt, r->final_url) &&
		    strcmp(alt, r->final_url)) {
			j->xalt = alt;
			return 1;
		}
		free(alt);
	}
	memset(&x, 0, sizeof(x));
	eo = j->f->o.extract;
	eo.content_language = r->content_language;
	if (uk_extract_html(r->body.buf, r->body.len, r->content_type,
		r->final_url, &eo, &x, &err)) {
		uk_buf_addstr(msg, err.msg);
		uk_extract_release(&x);
		*why = "extract";
		return -1;
	}
	if (x.blocked) {
		uk_buf_addstr(msg,
		    "the page is a block or challenge "
		    "page, not content (pwfetch may get through)");
		uk_extract_release(&x);
		*why = "blocked";
		return -1;
	}
	/* An app shell is a record: pwfetch renders it. */
	if ((!x.text || !*x.text) && (!x.title || !*x.title) &&
	    !x.needs_browser) {
		uk_buf_addstr(msg,
		    "no text in the page (it may need "
		    "a browser: pwfetch)");
		uk_extract_release(&x);
		*why = "empty";
		return -1;
	}
	uk_extract_record(&x, UK_EXTRACT_REC_SERVED, rec);
	set_source(j, rec, "html");
	if (eo.links_out)
		uk_pagelinks_html(rec, r->body.buf, r->body.len,
		    r->content_type, r->final_url, &eo, &x);
	/* --explain: the program takes them out (stderr). */
	if (x.explain)
		uk_json_set(rec, "explain",
		    uk_extract_override_explain_array(x.explain, j->url));
	if (uk_charset_ignored(r->body.buf, r->body.len,
		r->content_type, cs, sizeof(cs)))
		uk_json_set_str(rec, "charset_ignored", cs);
	uk_extract_release(&x);
	return 0;
}

/*
 * Turn a 2xx body into rec's title, content and metadata: 0, -1, or 1
 * when the page's Markdown alternate is to be fetched (j->xalt).
 */
static int
page_record(struct uk_fetch_job *j, yajl_val rec, const char **why,
    struct uk_buf *msg)
{
	struct uk_http_req *r = &j->req;
	struct uk_err err;
	struct uk_buf text = UK_BUF_INIT;
	char cs[64];
	const char *kind;
	int wrong, refused = 0;

	if (is_pdf(r->content_type, &r->body, &wrong))
		return pdf_record(j, rec, wrong, why, msg);
	/* Markdown asked for and given, unless it is HTML (negotiate.h). */
	if (j->neg && is_markdown(r->content_type) &&
	    !memchr(r->body.buf, '\0', r->body.len) &&
	    !(refused = uk_negotiate_is_html_doc(r->body.buf, r->body.len))) {
		uk_negotiate_markdown_record(rec, r->body.buf, r->body.len,
		    r->content_type, r->final_url, "markdown",
		    &j->f->o.extract);
		return 0;
	}
	if (refused || is_html(r->content_type, &r->body))
		return html_record(j, rec, why, msg);
	if (!is_text(r->content_type)) {
		uk_buf_addf(msg, "unsupported content type '%s'",
		    r->content_type);
		*why = "type";
		return -1;
	}
	kind = NULL;
	if (memchr(r->body.buf, '\0', r->body.len) ||
	    (kind = binary_kind(r->body.buf, r->body.len))) {
		uk_buf_addstr(msg, "binary content, not text");
		if (kind)
			uk_buf_addf(msg, " (%s)", kind);
		*why = "binary";
		return -1;
	}
	if (!uk_charset_from_content_type(r->content_type, cs, sizeof(cs)) ||
	    uk_charset_to_utf8(r->body.buf, r->body.len, cs, &text, &err))
		uk_buf_add_utf8(&text, r->body.buf, r->body.len);
	if (uk_charset_ignored("", 0, r->content_type, cs, sizeof(cs)))
		uk_json_set_str(rec, "charset_ignored", cs);
	uk_json_set_str(rec, "content", text.buf);
	set_source(j, rec, "text");
	/* Links: a Markdown text's; plain text's are no markup. */
	if (j->f->o.extract.links_out && is_markdown(r->content_type))
		uk_pagelinks_markdown(rec, text.buf, text.len, r->final_url,
		    &j->f->o.extract);
	else if (j->f->o.extract.links_out)
		uk_pagelinks_none(rec);
	uk_buf_release(&text);
	return 0;
}

static const char *
basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Whether an error answer may be a bot wall's block page (status_blocked). */
static int
may_be_blocked(struct uk_http_req *r)
{
	return (r->status == 403 || r->status == 429 || r->status == 503) &&
	    r->body.len && is_html(r->content_type, &r->body);
}

/* Whether an error answer is a bot wall's block or challenge page. */
static int
status_blocked(struct uk_http_req *r)
{
	struct uk_extract x;
	struct uk_err err;
	int blocked;

	if (!may_be_blocked(r))
		return 0;
	memset(&x, 0, sizeof(x));
	blocked = !uk_extract_html(r->body.buf, r->body.len, r->content_type,
		      r->final_url, NULL, &x, &err) &&
	    x.blocked;
	uk_extract_release(&x);
	return blocked;
}

/* Fail j with the HTTP status of an error answer. */
static void
fail_status(struct uk_fetch_job *j, int blocked)
{
	struct uk_http_req *r = &j->req;
	char code[128];

	if (r->retry_after > 0)
		snprintf(code, sizeof(code), "%ld (Retry-After %ld s)",
		    r->status, r->retry_after);
	else if (blocked)
		snprintf(code, sizeof(code),
		    "%ld: a block or challenge page (pwfetch may get "
		    "through)",
		    r->status);
	else
		snprintf(code, sizeof(code), "%ld", r->status);
	fail(j, "HTTP %s", code);
}

/* Finish j with rec (owned), the content of a 2xx answer. */
static void
page_done(struct uk_fetch_job *j, yajl_val rec)
{
	struct uk_http_req *r = &j->req;
	yajl_val gi;

	if (is_github(j->u.type)) {
		gi = github_info(&j->u);
		if (j->branch_fallback)
			uk_json_set_str(gi, "branch", "master");
		uk_json_set(rec, "github_info", gi);
	}
	set_answer(j, rec);
	j->nocache |= uk_cache_lifetime(rec, r->cache_life);
	finish(j, rec, 0);
}

/*
 * Build the record of a finished web or file transfer, or hand the body
 * to the extraction worker (extracted).
 */
static void
done_page(struct uk_fetch_job *j)
{
	struct uk_http_req *r = &j->req;
	struct uk_buf msg = UK_BUF_INIT;
	yajl_val rec;

	if (r->failed) {
		fail(j, "%s", r->err.msg);
		return;
	}
	if (r->status == 304 && j->stale) {
		/* Unchanged: the entry stays, summary and all, renewed. */
		rec = j->stale;
		j->stale = NULL;
		uk_json_del(rec, "cached");
		uk_json_del(rec, "revalidated");
		if (j->f->have_cache) {
			struct uk_err err;

			uk_json_del(rec, "cached_at");
			if (!uk_cache_lifetime(rec, r->cache_life) &&
			    uk_cache_set(&j->f->cache, rec, &err)) {
				j->f->cache_errors++;
				j->f->cache_err = err;
			}
		}
		uk_json_set_bool(rec, "revalidated", 1);
		finish(j, rec, 1);
		return;
	}
	if (r->status < 200 || r->status > 299) {
		if (r->retry_after <= 0 && may_be_blocked(r))
			submit(j, X_BLOCKED);
		else
			fail_status(j, 0);
		return;
	}
	if (j->state != ST_FILE) {
		submit(j, X_PAGE);
		return;
	}
	rec = new_record(j);
	uk_json_set_str(rec, "title", basename_of(j->u.file));
	if (memchr(r->body.buf, '\0', r->body.len)) {
		uk_json_free(rec);
		fail(j, "%s", "binary file, not text");
		return;
	}
	uk_buf_add_utf8(&msg, r->body.buf, r->body.len);
	uk_json_set_str(rec, "content", msg.buf);
	uk_buf_release(&msg);
	page_done(j, rec);
}

/*
 * The worker's part of a job: what needs the body's bytes parsed.  It
 * reads j and the fetch's options and writes only j's x fields; the loop
 * touches none of j until the job comes back (extracted).
 */
static void
extract_job(struct uk_fetch_job *j)
{
	const char *why = NULL;

	if (j->xkind == X_BLOCKED) {
		j->xblocked = status_blocked(&j->req);
		return;
	}
	j->xrec = new_record(j);
	/* (1: no record yet, the Markdown alternate first.) */
	if (page_record(j, j->xrec, &why, &j->xmsg)) {
		uk_json_free(j->xrec);
		j->xrec = NULL;
	}
}

/*
 * Markdown the site has, on the loop's thread (lib/negotiate.h): the
 * extra request j->req2, while j->req keeps the page's answer (its body
 * read again when the Markdown fails, its answer the record's then).
 */
static void
extra_req(struct uk_fetch_job *j, int state, const char *url)
{
	if (j->req2.url)
		uk_http_req_reset(&j->req2, url);
	else
		uk_http_req_init(&j->req2, url);
	j->req2.data = j;
	j->state = state;
	if (state != ST_LLMS) {
		j->extra = 1;
		uk_http_req_header(&j->req2,
		    "Accept: text/markdown, text/plain;q=0.9, */*;q=0.8");
	}
	uk_http_add(&j->f->http, &j->req2);
}

/* The page's address after redirects. */
static const char *
page_url(const struct uk_fetch_job *j)
{
	return j->req.final_url ? j->req.final_url : j->url;
}

/* Whether req2's answer is text that is not an HTML document. */
static int
markdown_ok(const struct uk_http_req *r)
{
	const char *ct = r->content_type;

	return !r->failed && r->status >= 200 && r->status <= 299 &&
	    r->body.len && (!ct || !*ct || (ct_is(ct, "text/") &&
	    !ct_is(ct, "text/html"))) &&
	    !memchr(r->body.buf, '\0', r->body.len) &&
	    !uk_negotiate_is_html_doc(r->body.buf, r->body.len);
}

/* Finish j with its fallback, the HTML's record, made before. */
static void
fallback_done(struct uk_fetch_job *j)
{
	yajl_val rec = j->fallback;

	j->fallback = NULL;
	j->state = ST_WEB;
	page_done(j, rec);
}

/* j's page after its site's llms.txt is known: its .md, or the HTML. */
static void
llms_next(struct uk_fetch_job *j, struct uk_negotiate_site *site)
{
	char *md = uk_negotiate_site_md(site, page_url(j));

	if (md && strcmp(md, page_url(j)))
		extra_req(j, ST_MD, md);
	else
		fallback_done(j);
	free(md);
}

/*
 * The HTML's record rec is made and the documentation page had no
 * Markdown: its site's llms.txt, asked once per origin in a run; pages
 * of a site whose llms.txt is on its way wait for it.  Documentation
 * only: llms.txt is a convention of documentation sites, and asking
 * every site an agent reads for one would cost each a request and a
 * 404 in its logs.
 */
static void
llms_step(struct uk_fetch_job *j, yajl_val rec)
{
	struct uk_negotiate_site *site =
	    uk_negotiate_site(&j->f->sites, page_url(j));
	struct uk_buf b = UK_BUF_INIT;

	if (!site || site->state == UK_SITE_ABSENT) {
		page_done(j, rec);
		return;
	}
	j->fallback = rec;
	switch (site->state) {
	case UK_SITE_UNKNOWN:
		site->state = UK_SITE_FETCHING;
		uk_buf_addf(&b, "%s/llms.txt", site->origin);
		extra_req(j, ST_LLMS, b.buf);
		break;
	case UK_SITE_FETCHING:
		if (site->waiters_last)
			((struct uk_fetch_job *)site->waiters_last)->site_next =
			    j;
		else
			site->waiters = j;
		site->waiters_last = j;
		break;
	default:
		llms_next(j, site);
	}
	uk_buf_release(&b);
}

/* Put j, finished by another job's step, where uk_fetch_wait takes it. */
static void
ready(struct uk_fetch_job *j)
{
	struct uk_fetch *f = j->f;

	j->site_next = NULL;
	if (f->ready_last)
		f->ready_last->site_next = j;
	else
		f->ready = j;
	f->ready_last = j;
}

/* The site's llms.txt came (or failed): j and the pages waiting go on. */
static void
done_llms(struct uk_fetch_job *j)
{
	struct uk_http_req *r = &j->req2;
	struct uk_negotiate_site *site =
	    uk_negotiate_site(&j->f->sites, page_url(j));
	struct uk_fetch_job *w, *next;

	if (markdown_ok(r))
		uk_negotiate_site_read(site, r->body.buf, r->body.len,
		    r->final_url ? r->final_url : r->url);
	else
		site->state = UK_SITE_ABSENT;
	uk_buf_release(&r->body);
	w = site->waiters;
	site->waiters = site->waiters_last = NULL;
	llms_next(j, site);
	for (; w; w = next) {
		next = w->site_next;
		w->site_next = NULL;
		llms_next(w, site);
		if (w->done)
			ready(w);
	}
}

/*
 * The Markdown alternate (ST_ALT) or llms.txt's .md (ST_MD) came: its
 * record; else the HTML's (ST_ALT: read now from the page's body).
 */
static void
done_markdown(struct uk_fetch_job *j)
{
	struct uk_http_req *r = &j->req2;
	yajl_val rec;
	struct uk_record_http h = { .final_url = r->final_url,
		.status = r->status,
		.content_type = r->content_type };

	if (!markdown_ok(r)) {
		if (j->state == ST_MD) {
			fallback_done(j);
			return;
		}
		free(j->xalt);
		j->xalt = NULL;
		j->state = ST_WEB;
		submit(j, X_PAGE);
		return;
	}
	rec = new_record(j);
	uk_negotiate_markdown_record(rec, r->body.buf, r->body.len,
	    r->content_type, r->final_url ? r->final_url : r->url,
	    j->state == ST_MD ? "llms.txt" : "markdown", &j->f->o.extract);
	/* The answer is the Markdown's, without its validators: they are
	 * not the page's, which a revalidation asks for. */
	uk_record_set_http(rec, &h);
	j->nocache |= uk_cache_lifetime(rec, r->cache_life);
	uk_json_free(j->fallback);
	j->fallback = NULL;
	finish(j, rec, 0);
}

/* The loop's part of a job back from the worker. */
static void
extracted(struct uk_fetch_job *j)
{
	yajl_val rec = j->xrec;

	j->xrec = NULL;
	if (j->xkind == X_BLOCKED)
		fail_status(j, j->xblocked);
	else if (j->xalt)
		extra_req(j, ST_ALT, j->xalt);
	else if (!rec)
		fail(j, "%s", j->xmsg.buf);
	else if (j->neg && !j->extra && is_source(rec, "html") &&
	    j->u.type == UK_URL_DOCUMENTATION)
		llms_step(j, rec);
	else
		page_done(j, rec);
	uk_buf_release(&j->xmsg);
}

/* The web address of an issue or PR, on URLKIT_GITHUB_URL. */
static void
issue_web_url(struct uk_fetch_job *j, struct uk_buf *b)
{
	uk_buf_addf(b, "%s/%s/%s/%s/%ld", j->f->web_base, j->u.owner, j->u.repo,
	    j->u.type == UK_URL_GITHUB_PR ? "pull" : "issues",
	    j->u.type == UK_URL_GITHUB_PR ? j->u.pr_number : j->u.issue_number);
}

/* Build the record from the API's answer; -1 when it is not usable. */
static int
done_issue(struct uk_fetch_job *j)
{
	struct uk_http_req *r = &j->req;
	yajl_val v, rec, gi, labels, l, u;
	const char *s;
	size_t i, n;

	if (r->failed || r->status != 200)
		return -1;
	if (!(v = uk_json_parse(r->body.buf, r->body.len, NULL)))
		return -1;
	if (!YAJL_IS_OBJECT(v) || !uk_json_get_str(v, "title")) {
		uk_json_free(v);
		return -1;
	}
	rec = new_record(j);
	/* With their lengths: a "\u0000" in them is kept, not an end. */
	s = uk_json_get_strn(v, "title", &n);
	uk_json_set(rec, "title", uk_json_strn(s, n));
	if ((u = uk_json_get(v, "user")))
		uk_json_set_str_nonempty(rec, "author", uk_json_get_str(u, "login"));
	uk_json_set_str_nonempty(rec, "date", uk_json_get_str(v, "created_at"));
	if (!(s = uk_json_get_strn(v, "body", &n)))
		s = "", n = 0;
	uk_json_set(rec, "content", uk_json_strn(s, n));
	gi = github_info(&j->u);
	uk_json_set_str_nonempty(gi, "state", uk_json_get_str(v, "state"));
	labels = uk_json_array();
	if ((l = uk_json_get(v, "labels")) && YAJL_IS_ARRAY(l))
		for (i = 0; i < l->u.array.len; i++) {
			yajl_val e = l->u.array.values[i];

			if (YAJL_IS_STRING(e))
				uk_json_push(labels, uk_json_copy(e));
			else if ((s = uk_json_get_str(e, "name")))
				uk_json_push(labels, uk_json_str(s));
		}
	uk_json_set(gi, "labels", labels);
	if ((l = uk_json_get(v, "comments")) && YAJL_IS_INTEGER(l))
		uk_json_set_int(gi, "comments", YAJL_GET_INTEGER(l));
	if (uk_json_get(v, "merged_at") &&
	    YAJL_IS_STRING(uk_json_get(v, "merged_at")))
		uk_json_set_bool(gi, "merged", 1);
	uk_json_set_str(gi, "source", "api");
	uk_json_set(rec, "github_info", gi);
	uk_json_free(v);
	finish(j, rec, 0);
	return 0;
}

static void
add_req(struct uk_fetch_job *j, const char *url)
{
	if (j->req.url)
		uk_http_req_reset(&j->req, url);
	else
		uk_http_req_init(&j->req, url);
	j->req.data = j;
	uk_http_add(&j->f->http, &j->req);
}

/* The validators of the stale entry, for a conditional request. */
static void
conditional(struct uk_fetch_job *j)
{
	yajl_val h;

	if (!j->stale || !(h = uk_json_get(j->stale, "http")))
		return;
	j->req.etag = uk_json_get_str(h, "etag");
	j->req.last_modified = uk_json_get_str(h, "last_modified");
}

static void
step(struct uk_fetch_job *j)
{
	struct uk_buf b = UK_BUF_INIT;

	switch (j->state) {
	case ST_FILE:
		if (!j->req.failed && j->req.status == 404 &&
		    !j->branch_fallback && j->u.branch &&
		    !strcmp(j->u.branch, "main")) {
			j->branch_fallback = 1;
			uk_buf_addf(&b, "%s/%s/%s/master/%s", j->f->raw_base,
			    j->u.owner, j->u.repo, j->u.file);
			j->req.etag = j->req.last_modified = NULL;
			add_req(j, b.buf);
			break;
		}
		done_page(j);
		break;
	case ST_ISSUE:
		if (!done_issue(j))
			break;
		j->state = ST_WEB;
		issue_web_url(j, &b);
		add_req(j, b.buf);
		conditional(j);
		break;
	case ST_ALT:
	case ST_MD:
		done_markdown(j);
		break;
	case ST_LLMS:
		done_llms(j);
		break;
	default:
		done_page(j);
	}
	uk_buf_release(&b);
}

/*
 * A git repository that is not on GitHub: a path, file://, git://, ssh://,
 * an http(s) URL ending in .git, or a record typed github_repo.
 */
static int
is_other_repo(const struct uk_fetch_job *j, const char *url, int type)
{
	size_t n = strlen(url);

	if (j->u.type == UK_URL_GITHUB_REPO || !uk_repo_is_git_url(url))
		return 0;
	if (j->u.type == UK_URL_UNKNOWN || type == UK_URL_GITHUB_REPO)
		return 1;
	return n > 4 && !strcmp(url + n - 4, ".git");
}

/*
 * Start no new transfer while a repository waits for those running to end
 * or UK_FETCH_BACKLOG bodies wait for the worker: the engine starts one
 * when fewer than o.jobs run (http.c's start_ready), and o.jobs is 0
 * meanwhile.  Only the loop's thread calls this.
 */
static void
hold(struct uk_fetch *f)
{
	long waiting = uk_fetch_pool_waiting(f->pool);

	f->http.o.jobs = f->repos || waiting >= UK_FETCH_BACKLOG ? 0 : f->jobs;
}

/* The repository step, run to its end (lib/repo.h). */
static void
fetch_repo(struct uk_fetch_job *j)
{
	struct uk_repo_opts o = j->f->o.repo;
	yajl_val rec = new_record(j);
	struct uk_err err;

	o.insecure |= j->f->o.http.insecure;
	o.allow_private |= j->f->o.http.allow_private;
	/* Tags are kept by their file's hash: no URL or option changes them. */
	o.tag_cache = j->f->have_cache ? &j->f->cache : NULL;
	if (uk_repo_fetch(&j->u, j->url, &o, rec, &err) < 0) {
		uk_json_free(rec);
		fail(j, "%s", err.msg);
		return;
	}
	finish(j, rec, 0);
}

/*
 * The repository step now when no transfer is running, else once those
 * running are done (uk_fetch_wait): the step runs to its end on the
 * loop's thread, and a transfer's timeout must not count its time.
 * Meanwhile no new transfer starts (hold).
 */
static void
start_repo(struct uk_fetch_job *j)
{
	struct uk_fetch *f = j->f;

	if (!f->http.active && !f->repos) {
		fetch_repo(j);
		return;
	}
	if (f->repos_last)
		f->repos_last->next = j;
	else
		f->repos = j;
	f->repos_last = j;
	hold(f);
}

void
uk_fetch_start(struct uk_fetch *f, struct uk_fetch_job *j, const char *url,
    const char *type)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec = NULL;
	int t, expired = 0, r;

	memset(j, 0, sizeof(*j));
	j->f = f;
	uk_buf_init(&j->xmsg, 0);
	j->url = uk_util_xstrdup(url);
	uk_url_classify(url, &j->u);
	t = type ? uk_url_type_parse(type) : -1;
	if ((t == UK_URL_WEB || t == UK_URL_DOCUMENTATION) &&
	    j->u.type != UK_URL_UNKNOWN)
		j->u.type = (enum uk_url_type)t;

	if (is_other_repo(j, url, t)) {
		/* A repository that is not GitHub's: libgit2, no cache. */
		j->nocache = 1;
		j->u.type = UK_URL_GITHUB_REPO;
		start_repo(j);
		goto out;
	}
	if (j->u.type == UK_URL_UNKNOWN) {
		fail(j, "%s", "not an http or https URL");
		goto out;
	}
	if (extract_extras(j))
		j->nocache = 1;
	if (f->have_cache && !f->o.refresh && !j->nocache) {
		r = uk_cache_get(&f->cache, url, UK_CACHE_STALE, &rec, &expired,
		    &err);
		/* A map made for another budget is not the answer, nor a
		 * page extracted in another format. */
		if (r == 1 &&
		    ((j->u.type == UK_URL_GITHUB_REPO &&
			 !uk_repo_cached_ok(rec, &f->o.repo)) ||
			!page_cached_ok(j, rec))) {
			uk_json_free(rec);
			r = 0;
		}
		if (r == 1 && !expired) {
			finish(j, rec, 1);
			goto out;
		}
		if (r == 1)
			j->stale = rec;
	}

	switch (j->u.type) {
	case UK_URL_GITHUB_REPO:
		start_repo(j);
		goto out;
	case UK_URL_GITHUB_FILE:
		j->state = ST_FILE;
		uk_buf_addf(&b, "%s/%s/%s/%s/%s", f->raw_base, j->u.owner,
		    j->u.repo, j->u.branch, j->u.file);
		add_req(j, b.buf);
		conditional(j);
		break;
	case UK_URL_GITHUB_ISSUE:
	case UK_URL_GITHUB_PR:
		j->state = ST_ISSUE;
		uk_buf_addf(&b, "%s/repos/%s/%s/issues/%ld", f->api_base,
		    j->u.owner, j->u.repo,
		    j->u.type == UK_URL_GITHUB_PR ? j->u.pr_number :
						    j->u.issue_number);
		add_req(j, b.buf);
		uk_http_req_header(&j->req,
		    "Accept: application/vnd.github+json");
		if (f->token) {
			uk_buf_reset(&b);
			uk_buf_addf(&b, "Authorization: Bearer %s", f->token);
			uk_http_req_header(&j->req, b.buf);
		}
		break;
	default:
		j->state = ST_WEB;
		add_req(j, url);
		conditional(j);
		if ((j->neg = negotiates(j)))
			uk_http_req_header(&j->req, UK_NEGOTIATE_ACCEPT);
	}
out:
	uk_buf_release(&b);
}

/*
 * Hand j's body to the worker, which comes back to extracted(); on the
 * loop's thread when the worker cannot start (uk_fetch_pool_new).
 */
static void
submit(struct uk_fetch_job *j, int kind)
{
	struct uk_fetch *f = j->f;

	j->xkind = kind;
	if (!f->pool)
		f->pool = uk_fetch_pool_new(extract_job);
	if (uk_fetch_pool_submit(f->pool, j) < 0) {
		extract_job(j);
		extracted(j);
	}
}

/* Whether fd has input or reached its end, without waiting. */
static int
readable(int fd, int timeout)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	return fd >= 0 && poll(&pf, 1, timeout) > 0 &&
	    (pf.revents & (POLLIN | POLLHUP | POLLERR));
}

struct uk_fetch_job *
uk_fetch_wait(struct uk_fetch *f, int fd, int *fd_ready)
{
	struct uk_fetch_pool *p;
	struct uk_fetch_job *j;
	struct uk_http_req *r;
	int ready;

	for (;;) {
		if ((j = f->ready)) {
			if (!(f->ready = j->site_next))
				f->ready_last = NULL;
			j->site_next = NULL;
			return j;
		}
		if ((j = uk_fetch_pool_take(f->pool))) {
			extracted(j);
			/* Not done: its Markdown is being fetched. */
			if (j->done)
				return j;
			continue;
		}
		if ((j = f->repos) && !f->http.active) {
			if (!(f->repos = j->next))
				f->repos_last = NULL;
			j->next = NULL;
			fetch_repo(j);
			return j;
		}
		hold(f);
		p = uk_fetch_pool_running(f->pool) ? f->pool : NULL;
		if (p && uk_fetch_pool_busy(p) && !uk_http_busy(&f->http)) {
			/* Only the worker is at work: wait for it or fd. */
			struct pollfd pf[2] = {
				{ uk_fetch_pool_wake_fd(p), POLLIN, 0 },
				{ fd, POLLIN, 0 } };

			if (poll(pf, fd >= 0 ? 2 : 1, -1) > 0 &&
			    (pf[1].revents & (POLLIN | POLLHUP | POLLERR))) {
				*fd_ready = 1;
				return NULL;
			}
			continue;
		}
		ready = 0;
		r = uk_http_wait(&f->http,
		    p ? uk_fetch_pool_wait_fd(p, fd) : fd, &ready);
		if (r) {
			j = r->data;
			step(j);
			if (j->done)
				return j;
			continue;
		}
		if (ready && (!p || readable(fd, 0))) {
			*fd_ready = 1;
			return NULL;
		}
		if (!ready && !uk_fetch_pool_busy(p) && !f->repos)
			return NULL; /* nothing in flight */
	}
}
