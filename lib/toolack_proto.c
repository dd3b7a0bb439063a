/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "httpd.h"
#include "json.h"
#include "toolack_proto.h"

#include "banned.h"

void
uk_toolack_proto_ack(struct uk_buf *out, const char *id, const char *status,
    yajl_val output, const char *error_text, const char *requested_at)
{
	yajl_val rec = uk_json_object();

	uk_json_set_str(rec, "toolCallId", id);
	uk_json_set_str(rec, "status", status);
	uk_json_set(rec, "output",
	    output ? uk_json_copy(output) : uk_json_null());
	uk_json_set(rec, "errorText",
	    error_text ? uk_json_str(error_text) : uk_json_null());
	uk_json_set(rec, "requestedAt",
	    requested_at ? uk_json_str(requested_at) : uk_json_null());
	uk_json_to_buf(rec, out);
	uk_json_free(rec);
}

/*
 * The timeoutSec of v in *t: 1 when it is an integer (of any sign), 0
 * when absent, -1 when not an integer.  The value is never the flag, so
 * that -1 or -2 given is refused as out of range, not read as absent.
 */
static int
timeout_of(yajl_val v, long long *t)
{
	yajl_val x = v ? uk_json_get(v, "timeoutSec") : NULL;

	if (!x)
		return 0;
	if (!YAJL_IS_INTEGER(x))
		return -1;
	*t = YAJL_GET_INTEGER(x);
	return 1;
}

yajl_val
uk_toolack_proto_call_from_record(yajl_val rec, const char *tool,
    const char *gen_id, struct uk_err *err)
{
	yajl_val call, input, idv;
	const char *name, *url;
	char num[32];
	long long t = 0;
	int has;

	if (!YAJL_IS_OBJECT(rec)) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "a tool call must be an object");
		return NULL;
	}
	name = uk_json_get_str(rec, "toolName");
	input = uk_json_get(rec, "input");
	if (!input)
		input = uk_json_get(rec, "parameters");
	/* A url record's "type" is the URL's type, not a tool. */
	if (!name &&
	    (uk_json_get(rec, "parameters") || !uk_json_get(rec, "url")))
		name = uk_json_get_str(rec, "type");
	idv = uk_json_get(rec, "toolCallId");
	if (!idv)
		idv = uk_json_get(rec, "id");
	call = uk_json_object();
	if (idv && YAJL_IS_STRING(idv))
		uk_json_set_str(call, "toolCallId", YAJL_GET_STRING(idv));
	else if (idv && YAJL_IS_NUMBER(idv)) {
		snprintf(num, sizeof(num), "%s", YAJL_GET_NUMBER(idv));
		uk_json_set_str(call, "toolCallId", num);
	} else if (gen_id)
		uk_json_set_str(call, "toolCallId", gen_id);
	else {
		uk_util_err_set(err, UK_EXIT_FAIL, "no toolCallId or id");
		goto fail;
	}
	if (!name && tool && (url = uk_json_get_str(rec, "url"))) {
		name = tool;
		input = NULL;
		uk_json_set_str(call, "toolName", name);
		uk_json_set(call, "input", uk_json_object());
		uk_json_set_str(uk_json_get(call, "input"), "url", url);
	} else if (!name) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    tool ? "no toolName, type or url" :
			   "no toolName or type (give --tool for url records)");
		goto fail;
	} else {
		uk_json_set_str(call, "toolName", name);
		uk_json_set(call, "input",
		    input ? uk_json_copy(input) : uk_json_object());
	}
	has = timeout_of(rec, &t);
	if (!has && input && YAJL_IS_OBJECT(input))
		has = timeout_of(input, &t);
	if (has < 0) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "timeoutSec is not an integer");
		goto fail;
	}
	if (has)
		uk_json_set_int(call, "timeoutSec", t);
	return call;
fail:
	uk_json_free(call);
	return NULL;
}

int
uk_toolack_proto_call_check(yajl_val call, struct uk_err *err)
{
	const char *id = uk_json_get_str(call, "toolCallId");
	const char *name = uk_json_get_str(call, "toolName");
	yajl_val input = uk_json_get(call, "input");
	long long t = 0;
	size_t i, n;
	int has;

	if (!id || !(n = strlen(id)) || n > UK_TOOLACK_PROTO_MAX_ID)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "toolCallId must be a string of 1 to %d characters",
		    UK_TOOLACK_PROTO_MAX_ID);
	for (i = 0; i < n; i++)
		if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "toolCallId has a control character");
	if (!name || !*name || strlen(name) > 128)
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "toolName must be a non-empty string");
	if (input && !YAJL_IS_OBJECT(input))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "input must be an object");
	has = timeout_of(call, &t);
	if (has < 0 || (has && (t < 1 || t > UK_TOOLACK_PROTO_MAX_TIMEOUT)))
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "timeoutSec must be an integer from 1 to %d",
		    UK_TOOLACK_PROTO_MAX_TIMEOUT);
	return 0;
}

int
uk_toolack_proto_validate(const char *tool, yajl_val input, struct uk_err *err)
{
	const char *url;
	char *scheme = NULL;
	CURLU *u;
	CURLUcode rc;
	size_t n;
	int r = 0;

	if (strcmp(tool, "open_url"))
		return 0;
	url = input ? uk_json_get_str(input, "url") : NULL;
	if (!url || !*url)
		return uk_util_err_set(err, UK_EXIT_FAIL, "url is required");
	if (!(u = curl_url()))
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	n = strspn(url,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789+.-");
	if (n && n < 40 && url[n] == ':' && isalpha((unsigned char)url[0]) &&
	    !((n == 4 && !strncasecmp(url, "http", 4)) ||
		(n == 5 && !strncasecmp(url, "https", 5)))) {
		curl_url_cleanup(u);
		return uk_util_err_set(err, UK_EXIT_FAIL,
		    "scheme '%.*s' is not allowed: only http and https URLs "
		    "are opened",
		    (int)n, url);
	}
	rc = curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME);
	if (rc != CURLUE_OK)
		r = uk_util_err_set(err, UK_EXIT_FAIL, "invalid URL: %s",
		    curl_url_strerror(rc));
	else if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") && strcmp(scheme, "https")))
		r = uk_util_err_set(err, UK_EXIT_FAIL,
		    "scheme '%s' is not allowed: only http and https URLs are "
		    "opened",
		    scheme ? scheme : "");
	curl_free(scheme);
	curl_url_cleanup(u);
	return r;
}

/*
 * The token file: TOOLACK_TOKEN_FILE, else $XDG_RUNTIME_DIR/toolack/token,
 * else ~/.cache/urlkit/toolack-token.  Appended to out.
 */
static void
token_path(struct uk_buf *out)
{
	const char *s;

	if ((s = getenv("TOOLACK_TOKEN_FILE")) && *s)
		uk_buf_addstr(out, s);
	else if ((s = getenv("XDG_RUNTIME_DIR")) && *s)
		uk_buf_addf(out, "%s/toolack/token", s);
	else
		uk_buf_addf(out, "%s/.cache/urlkit/toolack-token",
		    (s = getenv("HOME")) && *s ? s : ".");
}

int
uk_toolack_proto_token_read(const char *file, struct uk_buf *out,
    struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	const char *s;
	int r;

	if ((s = getenv("TOOLACK_TOKEN")) && *s) {
		uk_buf_addstr(out, s);
		return 0;
	}
	if (file)
		uk_buf_addstr(&path, file);
	else
		token_path(&path);
	r = uk_httpd_token_file_read(path.buf, 0, out, err);
	if (r == 0)
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "no token: '%s' does not exist (is toolack serve running? "
		    "or set TOOLACK_TOKEN)",
		    path.buf);
	uk_buf_release(&path);
	return r == 1 ? 0 : -1;
}

int
uk_toolack_proto_token_serve(const char *given, const char *file,
    struct uk_buf *out, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	const char *s;
	int r;

	if ((s = given) || ((s = getenv("TOOLACK_TOKEN")) && *s)) {
		uk_buf_addstr(out, s);
		return 0;
	}
	if (file)
		uk_buf_addstr(&path, file);
	else
		token_path(&path);
	r = uk_httpd_token_serve(path.buf, out, err);
	uk_buf_release(&path);
	return r;
}

void
uk_toolack_proto_token_path(const char *given, const char *file,
    struct uk_buf *out)
{
	const char *s;

	if (given || ((s = getenv("TOOLACK_TOKEN")) && *s))
		return;
	if (file)
		uk_buf_addstr(out, file);
	else
		token_path(out);
}

int
uk_toolack_proto_addr_parse(const char *s, char *host, size_t hostsize,
    int *port, struct uk_err *err)
{
	return uk_httpd_addr_parse(s, UK_HTTPD_ADDR_URL, host, hostsize, port,
	    err);
}
