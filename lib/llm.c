/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <curl/curl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "banned.h"
#include "http.h"
#include "json.h"
#include "llm.h"
#include "netguard.h"
#include "util.h"

#define MAX_REPLY (16UL << 20)

void
uk_llm_opts_init(struct uk_llm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout = 120;
	o->retries = 3;
	o->backoff = 1;
	o->max_wait = 300;
	o->temperature = -1;
}

int
uk_llm_init(struct uk_llm *l, const struct uk_llm_opts *o, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	struct curl_slist *h = NULL;
	struct uk_netguard *g;
	CURLU *u;
	char *scheme = NULL;
	size_t n;

	memset(l, 0, sizeof(*l));
	l->o = *o;
	l->done_tail = &l->done;
	if (!o->url || !*o->url)
		return uk_util_err_set(err, UK_EXIT_USAGE, "no LLM URL");
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, o->url, 0) ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) ||
	    (strcmp(scheme, "http") && strcmp(scheme, "https"))) {
		curl_free(scheme);
		curl_url_cleanup(u);
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "not an http(s) URL: '%s'", o->url);
	}
	curl_free(scheme);
	curl_url_cleanup(u);
	n = strlen(o->url);
	while (n && o->url[n - 1] == '/')
		n--;
	uk_buf_add(&b, o->url, n);
	uk_buf_addstr(&b, "/chat/completions");
	l->endpoint = uk_buf_detach(&b, NULL);
	h = curl_slist_append(h, "Content-Type: application/json");
	h = curl_slist_append(h, "Accept: application/json");
	h = curl_slist_append(h, "Expect:");
	if (o->key && *o->key) {
		uk_buf_addf(&b, "Authorization: Bearer %s", o->key);
		h = curl_slist_append(h, b.buf);
		/* Do not leave the key lying in freed memory. */
		memset(b.buf, 0, b.len);
		uk_buf_release(&b);
	}
	l->headers = h;
	l->multi = curl_multi_init();
	if (!l->multi || !h) {
		uk_llm_release(l);
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot set up libcurl");
	}
	g = uk_util_xmalloc(sizeof(*g));
	uk_netguard_init(g);
	/* The endpoint is the user's own choice: allow loopback and LAN. */
	g->allow_private = 1;
	l->guard = g;
	return 0;
}

void
uk_llm_release(struct uk_llm *l)
{
	if (l->multi)
		curl_multi_cleanup(l->multi);
	curl_slist_free_all(l->headers);
	free(l->endpoint);
	free(l->guard);
	memset(l, 0, sizeof(*l));
}

void
uk_llm_body(const struct uk_llm_opts *o, const char *system,
    size_t system_len, const char *user, size_t user_len, struct uk_buf *out)
{
	yajl_val body = uk_json_object(), msgs = uk_json_array(), m;
	char num[32];

	if (o->model && *o->model)
		uk_json_set_str(body, "model", o->model);
	m = uk_json_object();
	uk_json_set_str(m, "role", "system");
	uk_json_set(m, "content", uk_json_strn(system, system_len));
	uk_json_push(msgs, m);
	m = uk_json_object();
	uk_json_set_str(m, "role", "user");
	uk_json_set(m, "content", uk_json_strn(user, user_len));
	uk_json_push(msgs, m);
	uk_json_set(body, "messages", msgs);
	if (o->temperature >= 0) {
		snprintf(num, sizeof(num), "%.2f", o->temperature);
		uk_json_set(body, "temperature", uk_json_num(num));
	}
	uk_json_set_bool(body, "stream", 0);
	uk_json_to_buf(body, out);
	uk_json_free(body);
}

static size_t
on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct uk_llm_req *r = ctx;

	if (r->resp.len + size * n > MAX_REPLY) {
		r->too_big = 1; /* said so in ended(), not as a write error */
		return 0;
	}
	uk_buf_add(&r->resp, p, size * n);
	return size * n;
}

static void
start(struct uk_llm *l, struct uk_llm_req *r)
{
	CURL *e = r->easy;

	if (!e) {
		struct uk_http_easy eo = { 0 };

		eo.timeout_ms = (long)(l->o.timeout * 1000);
		eo.user_agent = "urlkit/" UK_VERSION;
		eo.guard = l->guard;
		e = r->easy = uk_http_easy_new(&eo);
		curl_easy_setopt(e, CURLOPT_URL, l->endpoint);
		curl_easy_setopt(e, CURLOPT_HTTPHEADER, l->headers);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, r->body.buf);
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE,
		    (curl_off_t)r->body.len);
		curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
		curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
		curl_easy_setopt(e, CURLOPT_PRIVATE, r);
		curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	}
	uk_buf_reset(&r->resp);
	r->too_big = 0;
	r->attempts++;
	curl_multi_add_handle(l->multi, e);
}

void
uk_llm_submit(struct uk_llm *l, struct uk_llm_req *r)
{
	r->ok = 0;
	r->text = r->model = NULL;
	r->text_len = 0;
	r->status = 0;
	r->attempts = 0;
	r->err.code = 0;
	r->err.msg[0] = '\0';
	r->easy = NULL;
	r->next = NULL;
	uk_buf_init(&r->body, 0);
	uk_buf_init(&r->resp, 0);
	uk_llm_body(&l->o, r->system,
	    r->system_len ? r->system_len : strlen(r->system), r->user,
	    r->user_len ? r->user_len : strlen(r->user), &r->body);
	l->active++;
	start(l, r);
}

void
uk_llm_req_release(struct uk_llm_req *r)
{
	if (r->easy)
		curl_easy_cleanup(r->easy);
	r->easy = NULL;
	free(r->text);
	free(r->model);
	r->text = r->model = NULL;
	r->text_len = 0;
	uk_buf_release(&r->body);
	uk_buf_release(&r->resp);
}

/* The message of an error reply, if the body is one. */
static void
error_text(const struct uk_buf *resp, char *buf, size_t size)
{
	yajl_val v = NULL, e;
	const char *m = NULL;
	size_t n, i;

	buf[0] = '\0';
	if (resp->len && resp->len < (1UL << 20))
		v = uk_json_parse(resp->buf, resp->len, NULL);
	if (v && (e = uk_json_get(v, "error"))) {
		if (YAJL_IS_STRING(e))
			m = e->u.string;
		else
			m = uk_json_get_str(e, "message");
	}
	if (!m && v)
		m = uk_json_get_str(v, "message");
	if (m) {
		snprintf(buf, size, ": %s", m);
	} else if (resp->len) {
		/* The start of a non-JSON body, printable bytes only. */
		n = resp->len < 120 ? resp->len : 120;
		n = uk_buf_utf8_cut(resp->buf, n);
		snprintf(buf, size, ": ");
		for (i = 0; i < n && strlen(buf) + 2 < size; i++) {
			size_t k = strlen(buf);
			char c = resp->buf[i];

			buf[k] = (c == '\n' || c == '\r' || c == '\t') ?
			    ' ' :
			    ((unsigned char)c < 0x20 ? '?' : c);
			buf[k + 1] = '\0';
		}
	}
	uk_json_free(v);
	/* Keep the message on one line, trimmed. */
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
}

int
uk_llm_parse_reply(const char *body, size_t len, char **text,
    size_t *text_len, char **model, struct uk_err *err)
{
	struct uk_err jerr;
	yajl_val v, choices, msg;
	const char *s, *m, *e;
	size_t n;

	*text = *model = NULL;
	*text_len = 0;
	if (!(v = uk_json_parse(body, len, &jerr)))
		return uk_util_err_set(err, UK_EXIT_FAIL, "LLM reply: %s",
		    jerr.msg);
	choices = uk_json_get(v, "choices");
	if (!choices || !YAJL_IS_ARRAY(choices) || !choices->u.array.len ||
	    !(msg = uk_json_get(choices->u.array.values[0], "message")) ||
	    !(s = uk_json_get_strn(msg, "content", &n))) {
		uk_json_free(v);
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "LLM reply: no choices[0].message.content");
	}
	/* The content is n bytes and may hold a NUL: no str* past here. */
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	if (n >= 7 && !memcmp(s, "<think>", 7) &&
	    (e = memmem(s, n, "</think>", 8))) {
		n -= (size_t)(e + 8 - s);
		s = e + 8;
		while (n && isspace((unsigned char)*s)) {
			s++;
			n--;
		}
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n) {
		uk_json_free(v);
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "LLM reply: empty content");
	}
	*text = uk_util_xmemdup(s, n);
	*text_len = n;
	if ((m = uk_json_get_str(v, "model")) && *m)
		*model = uk_util_xstrdup(m);
	uk_json_free(v);
	return 0;
}

static void
finish(struct uk_llm *l, struct uk_llm_req *r)
{
	r->next = NULL;
	*l->done_tail = r;
	l->done_tail = &r->next;
}

/* A transfer ended: done, failed, or to be tried again. */
static void
ended(struct uk_llm *l, CURL *e, CURLcode rc)
{
	struct uk_llm_req *r = NULL;
	struct uk_netguard *g = l->guard;
	char detail[300];
	curl_off_t after = -1;
	double delay;
	long status = 0;

	curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&r);
	curl_multi_remove_handle(l->multi, e);
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
	r->status = status;
	if (rc != CURLE_OK) {
		if (r->too_big)
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "LLM reply larger than %lu MiB", MAX_REPLY >> 20);
		else if (rc == CURLE_OPERATION_TIMEDOUT)
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "LLM request timed out after %g s", l->o.timeout);
		else if (g->refused)
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "LLM endpoint address %s refused", g->addr);
		else
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "LLM request: %s", curl_easy_strerror(rc));
		finish(l, r);
		return;
	}
	if (status == 200) {
		if (uk_llm_parse_reply(r->resp.buf, r->resp.len, &r->text,
			&r->text_len, &r->model, &r->err) == 0)
			r->ok = 1;
		finish(l, r);
		return;
	}
	error_text(&r->resp, detail, sizeof(detail));
	if ((status == 429 || status >= 500) && r->attempts <= l->o.retries) {
		curl_easy_getinfo(e, CURLINFO_RETRY_AFTER, &after);
		if (after > 0 && (double)after > l->o.max_wait) {
			uk_util_err_set(&r->err, UK_EXIT_FAIL,
			    "LLM endpoint: HTTP %ld, Retry-After %ld s is too "
			    "long%s",
			    status, (long)after, detail);
			finish(l, r);
			return;
		}
		if (after >= 0) {
			delay = (double)after;
		} else {
			int k;

			delay = l->o.backoff;
			for (k = 1; k < r->attempts && delay < 3600; k++)
				delay *= 2;
		}
		r->retry_at = uk_util_mono_now() + delay;
		r->next = l->waiting;
		l->waiting = r;
		return;
	}
	uk_util_err_set(&r->err, UK_EXIT_FAIL, "LLM endpoint: HTTP %ld%s%s",
	    status, r->attempts > 1 ? " after retries" : "", detail);
	if (r->attempts > 1) {
		char tail[64];

		snprintf(tail, sizeof(tail), " (%d attempts)", r->attempts);
		if (strlen(r->err.msg) + strlen(tail) < sizeof(r->err.msg))
			memcpy(r->err.msg + strlen(r->err.msg), tail,
			    strlen(tail) + 1);
	}
	finish(l, r);
}

/* Start the waiting requests that are due; the ms until the next one. */
static int
start_due(struct uk_llm *l)
{
	struct uk_llm_req **pp = &l->waiting, *r;
	double t = uk_util_mono_now(), next = -1;

	while ((r = *pp)) {
		if (r->retry_at <= t) {
			*pp = r->next;
			r->next = NULL;
			start(l, r);
			continue;
		}
		if (next < 0 || r->retry_at - t < next)
			next = r->retry_at - t;
		pp = &r->next;
	}
	return next < 0 ? -1 : (int)(next * 1000) + 1;
}

struct uk_llm_req *
uk_llm_wait(struct uk_llm *l, int fd, int timeout_ms, int *fd_ready)
{
	struct uk_llm_req *r;
	struct curl_waitfd wfd;
	CURLMsg *msg;
	int running, left, wait, next, nfd;
	double deadline =
	    timeout_ms >= 0 ? uk_util_mono_now() + timeout_ms / 1000.0 : -1;

	if (fd_ready)
		*fd_ready = 0;
	for (;;) {
		if ((r = l->done)) {
			l->done = r->next;
			if (!l->done)
				l->done_tail = &l->done;
			r->next = NULL;
			l->active--;
			return r;
		}
		if (!l->active && fd < 0)
			return NULL;
		next = start_due(l);
		curl_multi_perform(l->multi, &running);
		while ((msg = curl_multi_info_read(l->multi, &left)))
			if (msg->msg == CURLMSG_DONE)
				ended(l, msg->easy_handle, msg->data.result);
		if (l->done)
			continue;
		wait = 1000;
		if (next >= 0 && next < wait)
			wait = next;
		if (deadline >= 0) {
			double rest = (deadline - uk_util_mono_now()) * 1000;

			if (rest <= 0)
				return NULL;
			if (rest < wait)
				wait = (int)rest + 1;
		}
		nfd = 0;
		if (fd >= 0) {
			wfd.fd = fd;
			wfd.events = CURL_WAIT_POLLIN;
			wfd.revents = 0;
			nfd = 1;
		}
		if (!l->active) {
			struct pollfd p = { fd, POLLIN, 0 };

			if (poll(&p, 1, wait) > 0) {
				if (fd_ready)
					*fd_ready = 1;
				return NULL;
			}
			continue;
		}
		curl_multi_poll(l->multi, nfd ? &wfd : NULL, (unsigned)nfd,
		    wait, NULL);
		if (nfd && wfd.revents) {
			if (fd_ready)
				*fd_ready = 1;
			return NULL;
		}
	}
}
