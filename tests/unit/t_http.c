/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/http (TAP): no server needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "tap.h"
#include "util.h"
#include "banned.h"

/* Run h until it is empty; returns how many requests came back. */
static int
drain(struct uk_http *h, long per_host, int *over)
{
	int n = 0, ready = 0;

	while (uk_http_wait(h, -1, &ready)) {
		n++;
		if (h->nactive > per_host)
			*over = 1;
	}
	return n;
}

int
main(void)
{
	struct uk_http_opts o;
	struct uk_http h;
	struct uk_http_req r, many[5];
	struct uk_err err;
	int ready = 0, over = 0, i, n;

	uk_util_prog_set("t_http");
	unsetenv("URLKIT_ALLOW_PRIVATE");
	unsetenv("http_proxy");
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	unsetenv("ALL_PROXY");
	unsetenv("all_proxy");

	uk_http_opts_init(&o);
	ok(o.jobs == 8 && o.per_host == 3 && o.timeout == 30.0 &&
		o.max_redirs == 10 && o.max_size == 20ULL << 20 &&
		o.retries == 2 && !o.insecure && !o.allow_private,
	    "defaults: 8 jobs, 3 per host, 30 s, 10 redirects, 20 MiB, "
	    "2 retries, TLS verified, guard on");
	ok(!strncmp(o.user_agent, "Mozilla/5.0 ", 12),
	    "the default User-Agent is browser-like");

	o.timeout = 2;
	ok(uk_http_init(&h, &o, &err) == 0, "init");
	ok(uk_http_wait(&h, -1, &ready) == NULL && !uk_http_busy(&h),
	    "an empty engine returns NULL at once");

	uk_http_req_init(&r, "ftp://example.com/file");
	uk_http_add(&h, &r);
	ok(uk_http_busy(&h), "busy with a request queued");
	ok(uk_http_wait(&h, -1, &ready) == &r, "the request comes back");
	ok(r.failed && r.attempts == 1,
	    "another scheme fails at once, without retries (%s)", r.err.msg);

	uk_http_req_reset(&r, "http://127.0.0.1:9/x");
	uk_http_req_header(&r, "Accept: application/json");
	uk_http_add(&h, &r);
	ok(uk_http_wait(&h, -1, &ready) == &r && r.failed && r.refused,
	    "loopback refused by the guard");
	ok(!strncmp(r.err.msg,
	       "refused to connect to private address 127.0.0.1 ",
	       strlen("refused to connect to private address 127.0.0.1 ")),
	    "the refusal names the address: %s", r.err.msg);
	ok(r.attempts == 1, "a refusal is not retried");
	ok(r.final_url && !strcmp(r.final_url, "http://127.0.0.1:9/x"),
	    "final_url is the URL asked for when nothing redirected");
	uk_http_req_reset(&r, NULL);
	ok(!strcmp(r.url, "http://127.0.0.1:9/x") && r.headers,
	    "reset without a URL keeps the URL and the headers");
	uk_http_req_reset(&r, "http://10.0.0.1/");
	ok(!r.headers && !r.failed && !r.attempts && !r.body.len,
	    "reset to a new URL forgets headers, results and attempts");
	uk_http_req_release(&r);
	uk_http_release(&h);

	/* With the guard off, a closed port is a failure worth retrying. */
	o.allow_private = 1;
	o.retries = 1;
	o.per_host = 2;
	ok(uk_http_init(&h, &o, &err) == 0, "init, guard off");
	uk_http_req_init(&r, "http://127.0.0.1:9/closed");
	uk_http_add(&h, &r);
	ok(uk_http_wait(&h, -1, &ready) == &r && r.failed && !r.refused,
	    "a closed port fails (%s)", r.err.msg);
	ok(r.attempts == 2, "and is tried again once (retries 1)");
	uk_http_req_release(&r);

	o.retries = 0;
	uk_http_release(&h);
	uk_http_init(&h, &o, &err);
	for (i = 0; i < 5; i++) {
		uk_http_req_init(&many[i], "http://127.0.0.1:9/many");
		uk_http_add(&h, &many[i]);
	}
	n = drain(&h, o.per_host, &over);
	ok(n == 5, "five requests to one host all come back (%d)", n);
	ok(!over, "never more than per_host at once to one host");
	for (i = 0; i < 5; i++)
		uk_http_req_release(&many[i]);
	uk_http_release(&h);
	return tap_done();
}
