/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
		uk_err_set(err, UK_EXIT_FAIL, "a tool call must be an object");
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
		uk_err_set(err, UK_EXIT_FAIL, "no toolCallId or id");
		goto fail;
	}
	if (!name && tool && (url = uk_json_get_str(rec, "url"))) {
		name = tool;
		input = NULL;
		uk_json_set_str(call, "toolName", name);
		uk_json_set(call, "input", uk_json_object());
		uk_json_set_str(uk_json_get(call, "input"), "url", url);
	} else if (!name) {
		uk_err_set(err, UK_EXIT_FAIL,
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
		uk_err_set(err, UK_EXIT_FAIL, "timeoutSec is not an integer");
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
		return uk_err_set(err, UK_EXIT_FAIL,
		    "toolCallId must be a string of 1 to %d characters",
		    UK_TOOLACK_PROTO_MAX_ID);
	for (i = 0; i < n; i++)
		if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
			return uk_err_set(err, UK_EXIT_FAIL,
			    "toolCallId has a control character");
	if (!name || !*name || strlen(name) > 128)
		return uk_err_set(err, UK_EXIT_FAIL,
		    "toolName must be a non-empty string");
	if (input && !YAJL_IS_OBJECT(input))
		return uk_err_set(err, UK_EXIT_FAIL, "input must be an object");
	has = timeout_of(call, &t);
	if (has < 0 || (has && (t < 1 || t > UK_TOOLACK_PROTO_MAX_TIMEOUT)))
		return uk_err_set(err, UK_EXIT_FAIL,
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
		return uk_err_set(err, UK_EXIT_FAIL, "url is required");
	if (!(u = curl_url()))
		uk_die(UK_EXIT_FATAL, "out of memory");
	n = strspn(url,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789+.-");
	if (n && n < 40 && url[n] == ':' && isalpha((unsigned char)url[0]) &&
	    !((n == 4 && !strncasecmp(url, "http", 4)) ||
		(n == 5 && !strncasecmp(url, "https", 5)))) {
		curl_url_cleanup(u);
		return uk_err_set(err, UK_EXIT_FAIL,
		    "scheme '%.*s' is not allowed: only http and https URLs "
		    "are opened",
		    (int)n, url);
	}
	rc = curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME);
	if (rc != CURLUE_OK)
		r = uk_err_set(err, UK_EXIT_FAIL, "invalid URL: %s",
		    curl_url_strerror(rc));
	else if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    (strcmp(scheme, "http") && strcmp(scheme, "https")))
		r = uk_err_set(err, UK_EXIT_FAIL,
		    "scheme '%s' is not allowed: only http and https URLs are "
		    "opened",
		    scheme ? scheme : "");
	curl_free(scheme);
	curl_url_cleanup(u);
	return r;
}

void
uk_toolack_proto_token_path(struct uk_buf *out)
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

/*
 * Whether tok is too weak to guard a server: under
 * UK_TOOLACK_PROTO_TOKEN_MIN bytes, or fewer than
 * UK_TOOLACK_PROTO_TOKEN_DISTINCT distinct bytes ("aaaa...", spaces).
 * As OpenSSH refuses a key file others can read, a guess-in-seconds
 * token is refused at start rather than served with.
 */
static int
token_weak(const char *tok)
{
	unsigned char seen[256];
	size_t n = strlen(tok), i;
	int distinct = 0;

	if (n < UK_TOOLACK_PROTO_TOKEN_MIN)
		return 1;
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++)
		if (!seen[(unsigned char)tok[i]]++)
			distinct++;
	return distinct < UK_TOOLACK_PROTO_TOKEN_DISTINCT;
}

/*
 * Read the first line of path into out; 1 read, 0 absent, -1 error.
 * strict (a server's file): ours, private and a strong token.
 */
static int
token_file_read(const char *path, int strict, struct uk_buf *out,
    struct uk_err *err)
{
	struct stat st;
	char buf[UK_TOOLACK_PROTO_TOKEN_MAX + 2];
	size_t len = 0;
	ssize_t n;
	int fd;

	/*
	 * O_NONBLOCK: a FIFO's open would wait for a writer (and SIGTERM
	 * would not end the wait); it is opened at once, and refused below
	 * as anything but a regular file is.
	 */
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)) <
	    0) {
		if (errno == ENOENT)
			return 0;
		return uk_err_set(err, UK_EXIT_FATAL, "'%s': %s", path,
		    strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return uk_err_set(err, UK_EXIT_FATAL,
		    "'%s': not a regular file", path);
	}
	if (strict && (st.st_uid != geteuid() || (st.st_mode & 077))) {
		close(fd);
		return uk_err_set(err, UK_EXIT_FATAL,
		    "'%s': not a private file of ours (mode 0600 expected)",
		    path);
	}
	while (len < sizeof(buf) - 1 &&
	    (n = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return uk_err_set(err, UK_EXIT_FATAL, "'%s': %s", path,
			    strerror(errno));
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!*buf)
		return uk_err_set(err, UK_EXIT_FATAL, "'%s': empty token",
		    path);
	/* Never cut: a token cut short is another token. */
	if (strlen(buf) > UK_TOOLACK_PROTO_TOKEN_MAX)
		return uk_err_set(err, UK_EXIT_FATAL,
		    "'%s': token over %d bytes", path,
		    UK_TOOLACK_PROTO_TOKEN_MAX);
	if (strict && token_weak(buf))
		return uk_err_set(err, UK_EXIT_FATAL,
		    "'%s': weak token (at least %d bytes and %d distinct "
		    "characters wanted): make one with 'openssl rand -hex 32', "
		    "or remove the file for a new one",
		    path, UK_TOOLACK_PROTO_TOKEN_MIN,
		    UK_TOOLACK_PROTO_TOKEN_DISTINCT);
	uk_buf_addstr(out, buf);
	return 1;
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
		uk_toolack_proto_token_path(&path);
	r = token_file_read(path.buf, 0, out, err);
	if (r == 0)
		uk_err_set(err, UK_EXIT_FATAL,
		    "no token: '%s' does not exist (is toolack serve running? "
		    "or set TOOLACK_TOKEN)",
		    path.buf);
	uk_buf_release(&path);
	return r == 1 ? 0 : -1;
}

/* mkdir -p the directory of path, the last level 0700. */
static int
make_dirs(const char *path, struct uk_err *err)
{
	char *d = uk_xstrdup(path), *p;
	int r = 0;

	if (!(p = strrchr(d, '/')) || p == d) {
		free(d);
		return 0;
	}
	*p = '\0';
	for (p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0755) && errno != EEXIST)
			r = -1;
		*p = '/';
	}
	if (mkdir(d, 0700) && errno != EEXIST)
		r = -1;
	else
		r = 0;
	if (r)
		uk_err_set(err, UK_EXIT_FATAL, "cannot make '%s': %s", d,
		    strerror(errno));
	free(d);
	return r;
}

int
uk_toolack_proto_token_serve(const char *given, const char *file,
    struct uk_buf *out, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	unsigned char rnd[UK_TOOLACK_PROTO_TOKEN_LEN / 2];
	const char *s;
	size_t i;
	int fd = -1, r = -1;

	if ((s = given) || ((s = getenv("TOOLACK_TOKEN")) && *s)) {
		uk_buf_addstr(out, s);
		return 0;
	}
	if (file)
		uk_buf_addstr(&path, file);
	else
		uk_toolack_proto_token_path(&path);
	if ((r = token_file_read(path.buf, 1, out, err)) != 0) {
		r = r == 1 ? 0 : -1;
		goto out;
	}
	r = -1;
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		uk_err_set(err, UK_EXIT_FATAL, "getrandom: %s",
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < sizeof(rnd); i++)
		uk_buf_addf(out, "%02x", rnd[i]);
	if (make_dirs(path.buf, err))
		goto out;
	fd = open(path.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, out->buf, out->len) != (ssize_t)out->len ||
	    write(fd, "\n", 1) != 1) {
		uk_err_set(err, UK_EXIT_FATAL, "cannot write '%s': %s",
		    path.buf, strerror(errno));
		goto out;
	}
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	uk_buf_release(&path);
	return r;
}

int
uk_toolack_proto_token_eq(const char *presented, const char *token)
{
	size_t n = strlen(token), i;
	unsigned char d = 0;

	if (!presented || strlen(presented) != n)
		return 0;
	for (i = 0; i < n; i++)
		d |= (unsigned char)presented[i] ^ (unsigned char)token[i];
	return d == 0;
}

int
uk_toolack_proto_addr_parse(const char *s, char *host, size_t hostsize,
    int *port, struct uk_err *err)
{
	return uk_httpd_addr_parse(s, UK_HTTPD_ADDR_URL, host, hostsize, port,
	    err);
}
