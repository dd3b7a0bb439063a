/* SPDX-License-Identifier: MIT */
/* toolack's client of the server's HTTP API (see toolack.h). */
#include <stdio.h>
#include <stdlib.h>

#include <curl/curl.h>

#include "http.h"
#include "json.h"
#include "jsonl.h"
#include "toolack.h"
#include "toolack_proto.h"

#include "banned.h"

const char *client_base;
struct uk_buf client_token = UK_BUF_INIT;

void
client_setup(const char *given)
{
	struct uk_err err;
	char host[64];
	int port;
	static char url[128];

	if (!given && !(given = getenv("TOOLACK_URL")))
		given = UK_TOOLACK_PROTO_URL;
	if (uk_toolack_proto_addr_parse(given, host, sizeof(host), &port,
		&err))
		uk_util_die(UK_EXIT_USAGE, "%s", err.msg);
	snprintf(url, sizeof(url), "http://%s:%d", host, port);
	client_base = url;
	if (uk_toolack_proto_token_read(NULL, &client_token, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		uk_util_die(UK_EXIT_FATAL, "cannot initialise libcurl");
}

void
client_release(void)
{
	uk_buf_release(&client_token);
	curl_global_cleanup();
}

CURL *
client_handle(CURL *h, const char *path, const char *body, long timeout_ms,
    struct uk_http_sink *resp, struct curl_slist **headers, char *errbuf)
{
	struct uk_http_easy eo = { 0 };
	struct uk_buf b = UK_BUF_INIT;

	eo.protocols = "http";
	eo.timeout_ms = timeout_ms;
	eo.connect_ms = 5000;
	eo.errbuf = errbuf;
	h = h ? uk_http_easy_setup(h, &eo) : uk_http_easy_new(&eo);
	uk_buf_addf(&b, "%s%s", client_base, path);
	curl_easy_setopt(h, CURLOPT_URL, b.buf);
	uk_buf_reset(&b);
	uk_buf_addf(&b, "Authorization: Bearer %s", client_token.buf);
	*headers = curl_slist_append(NULL, b.buf);
	uk_buf_release(&b);
	if (body) {
		*headers = curl_slist_append(*headers,
		    "Content-Type: application/json");
		curl_easy_setopt(h, CURLOPT_COPYPOSTFIELDS, body);
	}
	*headers = curl_slist_append(*headers, "Expect:");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, *headers);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, uk_http_sink_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, resp);
	return h;
}

long
client_request(CURL **reuse, const char *path, const char *body,
    long timeout_ms, struct uk_buf *resp, struct uk_err *err)
{
	/* An answer is a record: the limit every reader of records keeps. */
	struct uk_http_sink sink = { resp, UK_JSONL_MAX_LINE };
	struct curl_slist *hd = NULL;
	char errbuf[CURL_ERROR_SIZE];
	CURL *h = client_handle(reuse ? *reuse : NULL, path, body, timeout_ms,
	    &sink, &hd, errbuf);
	CURLcode rc;
	long code = -1;

	rc = curl_easy_perform(h);
	if (rc != CURLE_OK)
		uk_util_err_set(err, UK_EXIT_FATAL, "%s%s: %s", client_base,
		    path, errbuf[0] ? errbuf : curl_easy_strerror(rc));
	else
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(hd);
	if (reuse)
		*reuse = h;
	else
		curl_easy_cleanup(h);
	return code;
}

void
client_reason(const struct uk_buf *resp, long code, char *out, size_t size)
{
	yajl_val v = uk_json_parse(resp->buf, resp->len, NULL);
	const char *r = v ? uk_json_get_str(v, "reason") : NULL;

	if (r)
		snprintf(out, size, "HTTP %ld: %s", code, r);
	else
		snprintf(out, size, "HTTP %ld", code);
	uk_json_free(v);
}
