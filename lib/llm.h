/* SPDX-License-Identifier: MIT */
#ifndef UK_LLM_H
#define UK_LLM_H

/*
 * A client for OpenAI-compatible chat completions (POST BASE/chat/completions
 * with a system and a user message; llama.cpp's server, Ollama, vLLM and
 * OpenAI all speak it), with several requests in flight on one libcurl
 * multi handle.
 *
 * A request that gets 429 or a 5xx is tried again, up to retries more
 * times, after the delay the server's Retry-After asks for (seconds or an
 * HTTP date), else after backoff, 2 * backoff, 4 * backoff... seconds.  A
 * timeout, a refused connection or any other HTTP status fails at once.
 *
 * The endpoint is the user's choice, not the input's, so the SSRF guard
 * (netguard.h) is installed with private addresses allowed: a model on
 * 127.0.0.1 or on the local network is the normal case.  Redirects are
 * not followed, and only http and https are spoken.
 *
 * Usage: uk_llm_init, then uk_llm_submit requests and uk_llm_wait for them
 * to finish, one at a time, in the order they finish.
 */

#include <stddef.h>

#include "buf.h"
#include "util.h"

struct uk_llm_opts {
	const char *url;    /* base URL, e.g. http://127.0.0.1:8080/v1 */
	const char *model;  /* NULL: no "model" field is sent */
	const char *key;    /* NULL: no Authorization header */
	double timeout;     /* per attempt, seconds (120) */
	int retries;        /* more attempts after 429/5xx (3) */
	double backoff;     /* first delay without Retry-After, seconds (1) */
	double max_wait;    /* longest Retry-After honoured, seconds (300) */
	double temperature; /* < 0: not sent (the default) */
};

/* The defaults given beside each field above. */
void uk_llm_opts_init(struct uk_llm_opts *o);

struct uk_llm_req {
	/*
	 * Set by the caller before uk_llm_submit; not freed by this module.
	 * The lengths count every byte (a NUL in the text is sent as \u0000);
	 * 0 takes the text up to its first NUL.
	 */
	const char *system, *user;
	size_t system_len, user_len;
	void *data; /* the caller's */

	/* Results, once uk_llm_wait has returned the request. */
	int ok;       /* 1: text is set; 0: err is set */
	char *text;   /* the reply, trimmed (freed by uk_llm_req_release) */
	size_t text_len; /* its bytes, a NUL in it included */
	char *model;  /* the model named in the reply, or NULL */
	long status;  /* last HTTP status, 0 when none */
	int attempts; /* requests made */
	struct uk_err err;

	/* Private. */
	void *easy;
	struct uk_buf body, resp;
	int too_big; /* the reply went over its limit */
	double retry_at;
	struct uk_llm_req *next;
};

struct uk_llm {
	struct uk_llm_opts o;
	char *endpoint;
	void *multi;
	void *headers;
	int active;                 /* submitted and not yet returned */
	struct uk_llm_req *waiting; /* to be tried again, at retry_at */
	struct uk_llm_req *done, **done_tail;
	void *guard;
};

/* 0, or -1 with err (code UK_EXIT_USAGE for a bad URL). */
int uk_llm_init(struct uk_llm *l, const struct uk_llm_opts *o,
    struct uk_err *err);
void uk_llm_release(struct uk_llm *l);

/* Start r (r->system and r->user set); r must stay valid until returned. */
void uk_llm_submit(struct uk_llm *l, struct uk_llm_req *r);

/*
 * Wait up to timeout_ms (-1: until something happens) for a request to
 * finish, or for fd (when >= 0) to become readable.  Returns a finished
 * request, or NULL when none finished (then *fd_ready says whether fd is
 * readable; fd_ready may be NULL).  Returns NULL at once when nothing is
 * active and fd < 0.
 */
struct uk_llm_req *uk_llm_wait(struct uk_llm *l, int fd, int timeout_ms,
    int *fd_ready);

/* Free a returned request's results (and reset it for reuse). */
void uk_llm_req_release(struct uk_llm_req *r);

/*
 * The request body for system and user (of system_len and user_len bytes,
 * NUL included), as uk_llm_submit sends it, appended to out (for tests
 * and --dry-run style inspection).
 */
void uk_llm_body(const struct uk_llm_opts *o, const char *system,
    size_t system_len, const char *user, size_t user_len,
    struct uk_buf *out);

/*
 * Parse a chat-completions reply: 0 with *text of *text_len bytes (a NUL
 * of the reply kept, the text NUL-terminated too) and *model (or NULL)
 * newly allocated, or -1 with err.  A leading <think>...</think> block is
 * dropped.
 */
int uk_llm_parse_reply(const char *body, size_t len, char **text,
    size_t *text_len, char **model, struct uk_err *err);

#endif
