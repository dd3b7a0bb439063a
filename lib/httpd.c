/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <microhttpd.h>

#include "httpd.h"
#include "toolack_proto.h"

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
	    (*p && !uk_parse_long(p, 0, 65535, &v))) {
		n = 0; /* a port alone */
		ps = p;
	} else
		n = strlen(p); /* a host alone, or nothing: port 0 */
	if (n >= sizeof(h) || n >= hostsize)
		return uk_err_set(err, UK_EXIT_USAGE, "bad address '%s'", s);
	memcpy(h, p, n);
	h[n] = '\0';
	if (ps && !(flags & UK_HTTPD_ADDR_URL)) {
		if (uk_parse_long(ps, 0, 65535, &v))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': bad port", s);
	} else if (ps) {
		/* The port, then nothing or "/": a URL's root. */
		n = strcspn(ps, "/");
		if (n == 0 || n >= sizeof(pb))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': no port", s);
		memcpy(pb, ps, n);
		pb[n] = '\0';
		if (uk_parse_long(pb, 0, 65535, &v))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': bad port", s);
		if (ps[n] && strcmp(ps + n, "/"))
			return uk_err_set(err, UK_EXIT_USAGE,
			    "bad address '%s': a path is not taken", s);
	}
	if (!*h || !strcmp(h, "localhost"))
		snprintf(h, sizeof(h), "127.0.0.1");
	if (inet_pton(AF_INET, h, &a) != 1)
		return uk_err_set(err, UK_EXIT_USAGE,
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

int
uk_httpd_token_ok(struct MHD_Connection *conn, const char *token, int query)
{
	const char *a = uk_httpd_header(conn, "Authorization");

	if (!token)
		return 1;
	if (a && !strncmp(a, "Bearer ", 7))
		return uk_toolack_proto_token_eq(a + 7, token);
	if (!query)
		return 0;
	a = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "token");
	return uk_toolack_proto_token_eq(a, token);
}

unsigned
uk_httpd_length(const char *len, unsigned long long max, const char **why)
{
	unsigned long long n = 0;
	const char *p;

	if (!len)
		return 0;
	/*
	 * RFC 9110's 1*DIGIT and nothing else, by hand: uk_parse_size takes
	 * units ("1K"), which are no HTTP.  libmicrohttpd refuses a malformed
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
