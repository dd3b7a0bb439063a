/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <microhttpd.h>

#include "buf.h"
#include "httpd.h"

#include "banned.h"

int
uk_httpd_addr_parse(const char *s, int flags, char *host, size_t hostsize,
    int *port, struct uk_err *err)
{
	struct in_addr a;
	const char *p = s ? s : "", *colon, *ps = NULL;
	char h[64], pb[16];
	long v = 0;
	size_t n;

	if ((flags & UK_HTTPD_ADDR_URL) && !strncmp(p, "http://", 7))
		p += 7;
	colon = strrchr(p, ':');
	if (colon) {
		n = (size_t)(colon - p);
		ps = colon + 1;
	} else if (!(flags & UK_HTTPD_ADDR_HOST) ||
	    (*p && !uk_util_parse_long(p, 0, 65535, &v))) {
		n = 0; /* a port alone */
		ps = p;
	} else
		n = strlen(p); /* a host alone, or nothing: port 0 */
	if (n >= sizeof(h) || n >= hostsize)
		return uk_util_err_set(err, UK_EXIT_USAGE, "bad address '%s'",
		    s);
	memcpy(h, p, n);
	h[n] = '\0';
	if (ps && !(flags & UK_HTTPD_ADDR_URL)) {
		if (uk_util_parse_long(ps, 0, 65535, &v))
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': bad port", s);
	} else if (ps) {
		/* The port, then nothing or "/": a URL's root. */
		n = strcspn(ps, "/");
		if (n == 0 || n >= sizeof(pb))
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': no port", s);
		memcpy(pb, ps, n);
		pb[n] = '\0';
		if (uk_util_parse_long(pb, 0, 65535, &v))
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': bad port", s);
		if (ps[n] && strcmp(ps + n, "/"))
			return uk_util_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': a path is not taken", s);
	}
	if (!*h || !strcmp(h, "localhost"))
		snprintf(h, sizeof(h), "127.0.0.1");
	if (inet_pton(AF_INET, h, &a) != 1)
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    "bad address '%s': not an IPv4 address", s);
	snprintf(host, hostsize, "%s", h);
	*port = (int)v;
	return 0;
}

int
uk_httpd_sockaddr(struct sockaddr_in *sa, const char *host, int port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

const char *
uk_httpd_header(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

int
uk_httpd_host_ok(const char *listen, const char *host, size_t n)
{
	static const char *const loop[] = { "127.0.0.1", "localhost", "[::1]",
		NULL };
	const char *colon;
	size_t i;

	/* A colon inside [...] is an IPv6 address's, not a port's. */
	colon = memrchr(host, ':', n);
	if (colon && !memchr(colon, ']', n - (size_t)(colon - host)))
		n = (size_t)(colon - host);
	if (strlen(listen) == n && !strncmp(host, listen, n))
		return 1;
	for (i = 0; loop[i]; i++)
		if (strlen(loop[i]) == n && !strncmp(host, loop[i], n))
			return 1;
	return 0;
}

/*
 * The length of an Origin's host[:port] at h when that is all there is
 * (RFC 6454's serialization: a bracketed IPv6 address or a name of
 * letters, digits, '.' and '-', then ":" and 1 to 5 digits or nothing),
 * else 0.  Anything else (userinfo's "@", a path, a query) is no origin:
 * "http://localhost:1@evil.test" names evil.test, not localhost.
 */
static size_t
origin_host_len(const char *h)
{
	size_t n = 0, d;

	if (h[0] == '[') {
		n = 1 + strspn(h + 1, "0123456789abcdefABCDEF:.");
		if (h[n] != ']')
			return 0;
		n++;
	} else
		n = strspn(h, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
	if (n == 0)
		return 0;
	if (h[n] == ':') {
		d = strspn(h + n + 1, "0123456789");
		if (d == 0 || d > 5)
			return 0;
		n += 1 + d;
	}
	return h[n] ? 0 : n;
}

int
uk_httpd_origin_ours(const char *listen, const char *origin)
{
	const char *h;
	size_t n;

	if (!strncmp(origin, "http://", 7))
		h = origin + 7;
	else if (!strncmp(origin, "https://", 8))
		h = origin + 8;
	else
		return 0;
	return (n = origin_host_len(h)) && uk_httpd_host_ok(listen, h, n);
}

int
uk_httpd_origin_same(const char *origin, const char *host)
{
	return host && !strncmp(origin, "http://", 7) &&
	    !strcmp(origin + 7, host);
}

/*
 * Whether the presented token is the real one, in a time that depends on
 * the real one's length only: a byte-by-byte compare that stops at the
 * first difference would tell an attacker how much of a guess is right.
 */
static int
token_eq(const char *presented, const char *token)
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
uk_httpd_token_ok(struct MHD_Connection *conn, const char *token, int query)
{
	const char *a = uk_httpd_header(conn, "Authorization");

	if (!token)
		return 1;
	if (a && !strncmp(a, "Bearer ", 7))
		return token_eq(a + 7, token);
	if (!query)
		return 0;
	a = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "token");
	return token_eq(a, token);
}

void
uk_httpd_token_why(struct uk_buf *out, const char *path, const char *env)
{
	uk_buf_addstr(out, "missing or wrong token: ");
	if (path && *path)
		uk_buf_addf(out, "send the first line of the token file '%s'",
		    path);
	else
		uk_buf_addf(out, "send the token in %s", env);
	uk_buf_addstr(out, " as 'Authorization: Bearer TOKEN'");
}

unsigned
uk_httpd_length(const char *len, unsigned long long max, const char **why)
{
	unsigned long long n = 0;
	const char *p;

	if (!len)
		return 0;
	/*
	 * RFC 9110's 1*DIGIT and nothing else, by hand: uk_util_parse_size
	 * takes units ("1K"), which are no HTTP.  libmicrohttpd refuses a malformed
	 * length itself, but not one beside Transfer-Encoding: chunked, which
	 * it does not read.  Digits past max are not added up, so nothing
	 * overflows.
	 */
	for (p = len; *p >= '0' && *p <= '9'; p++)
		if (n <= max)
			n = n * 10 + (unsigned long long)(*p - '0');
	if (p == len || *p) {
		*why = "bad Content-Length";
		return MHD_HTTP_BAD_REQUEST;
	}
	if (n > max) {
		*why = "request body too large";
		return MHD_HTTP_CONTENT_TOO_LARGE;
	}
	return 0;
}

struct MHD_Response *
uk_httpd_response(const char *type, const char *body)
{
	struct MHD_Response *resp;

	resp = MHD_create_response_from_buffer(strlen(body), (void *)body,
	    MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return NULL;
	if (type)
		MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	return resp;
}

enum MHD_Result
uk_httpd_queue(struct MHD_Connection *conn, unsigned code,
    struct MHD_Response *resp)
{
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	ret = MHD_queue_response(conn, code, resp);
	MHD_destroy_response(resp);
	return ret;
}

/*
 * Whether tok is too weak to guard a server: under
 * UK_HTTPD_TOKEN_MIN bytes, or fewer than
 * UK_HTTPD_TOKEN_DISTINCT distinct bytes ("aaaa...", spaces).
 * As OpenSSH refuses a key file others can read, a guess-in-seconds
 * token is refused at start rather than served with.
 */
static int
token_weak(const char *tok)
{
	unsigned char seen[256];
	size_t n = strlen(tok), i;
	int distinct = 0;

	if (n < UK_HTTPD_TOKEN_MIN)
		return 1;
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n; i++)
		if (!seen[(unsigned char)tok[i]]++)
			distinct++;
	return distinct < UK_HTTPD_TOKEN_DISTINCT;
}

int
uk_httpd_token_file_read(const char *path, int strict, struct uk_buf *out,
    struct uk_err *err)
{
	struct stat st;
	char buf[UK_HTTPD_TOKEN_MAX + 2];
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
		return uk_util_err_set(err, UK_EXIT_FATAL, "'%s': %s", path,
		    strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "'%s': not a regular file", path);
	}
	if (strict && (st.st_uid != geteuid() || (st.st_mode & 077))) {
		close(fd);
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "'%s': not a private file of ours (mode 0600 expected)",
		    path);
	}
	while (len < sizeof(buf) - 1 &&
	    (n = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return uk_util_err_set(err, UK_EXIT_FATAL, "'%s': %s",
			    path, strerror(errno));
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!*buf)
		return uk_util_err_set(err, UK_EXIT_FATAL, "'%s': empty token",
		    path);
	/* Never cut: a token cut short is another token. */
	if (strlen(buf) > UK_HTTPD_TOKEN_MAX)
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "'%s': token over %d bytes", path, UK_HTTPD_TOKEN_MAX);
	if (strict && token_weak(buf))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "'%s': weak token (at least %d bytes and %d distinct "
		    "characters wanted): make one with 'openssl rand -hex 32', "
		    "or remove the file for a new one",
		    path, UK_HTTPD_TOKEN_MIN, UK_HTTPD_TOKEN_DISTINCT);
	uk_buf_addstr(out, buf);
	return 1;
}

/* mkdir -p the directory of path, the last level 0700. */
static int
make_dirs(const char *path, struct uk_err *err)
{
	char *d = uk_util_xstrdup(path), *p;
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
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot make '%s': %s", d,
		    strerror(errno));
	free(d);
	return r;
}

int
uk_httpd_token_serve(const char *path, struct uk_buf *out,
    struct uk_err *err)
{
	unsigned char rnd[UK_HTTPD_TOKEN_LEN / 2];
	size_t i;
	int fd = -1, r;

	if ((r = uk_httpd_token_file_read(path, 1, out, err)) != 0)
		return r == 1 ? 0 : -1;
	r = -1;
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		uk_util_err_set(err, UK_EXIT_FATAL, "getrandom: %s",
		    strerror(errno));
		goto out;
	}
	for (i = 0; i < sizeof(rnd); i++)
		uk_buf_addf(out, "%02x", rnd[i]);
	if (make_dirs(path, err))
		goto out;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, out->buf, out->len) != (ssize_t)out->len ||
	    write(fd, "\n", 1) != 1) {
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot write '%s': %s",
		    path, strerror(errno));
		goto out;
	}
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	return r;
}
