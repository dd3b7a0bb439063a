/* SPDX-License-Identifier: MIT */
#ifndef UK_HTTPD_H
#define UK_HTTPD_H

/*
 * What urlkit's two HTTP servers on libmicrohttpd share: toolack serve
 * (toolack_server.c) and urlserve -l (mcp_http.c).  The listen address,
 * header lookup, the checks a request passes before it is served (Host,
 * Origin, the bearer token, Content-Length) and the response every reply
 * starts from.  Nothing here keeps state: each function reads what it is
 * given and owns nothing after it returns, except uk_httpd_response,
 * whose response the caller queues with uk_httpd_queue.
 */

#include <stddef.h>

#include <netinet/in.h>

#include <microhttpd.h>

#include "util.h"

struct uk_buf;

#define UK_HTTPD_TOKEN_LEN      64   /* hex digits of a generated token */
#define UK_HTTPD_TOKEN_MAX      4096 /* longest token file line taken */
#define UK_HTTPD_TOKEN_MIN      16   /* a server's token: bytes, */
#define UK_HTTPD_TOKEN_DISTINCT 8    /* and distinct bytes at least */

/* uk_httpd_addr_parse's flags. */
#define UK_HTTPD_ADDR_URL  1 /* "http://" before and "/" after are taken */
#define UK_HTTPD_ADDR_HOST 2 /* a HOST alone or "" too, with port 0 */

/*
 * An address to listen on or to reach: "HOST:PORT", ":PORT" or "PORT",
 * plus what flags allow.  HOST must be an IPv4 address or localhost
 * (taken as 127.0.0.1); no HOST is 127.0.0.1.  Fills host (hostsize >= 64
 * bytes, the NUL-terminated dotted address) and port (0 to 65535; 0 lets
 * the system choose when listening).  0, or -1 with err set to UK_EXIT_USAGE
 * and a message that starts "bad address 'S'" and says what is wrong.
 */
int uk_httpd_addr_parse(const char *s, int flags, char *host, size_t hostsize,
    int *port, struct uk_err *err);

/*
 * sa for listening on host (an IPv4 address, as uk_httpd_addr_parse
 * fills) and port: 0, or -1 when host is no IPv4 address.
 */
int uk_httpd_sockaddr(struct sockaddr_in *sa, const char *host, int port);

/* The request header name (case-insensitive), or NULL: MHD's string. */
const char *uk_httpd_header(struct MHD_Connection *conn, const char *name);

/*
 * Whether host, n bytes (a Host header, or an Origin's host, with or
 * without ":port"), names us: a loopback name (127.0.0.1, localhost,
 * [::1]) or listen, the address listened on.  The port is ignored, as a
 * port forward or proxy may stand in between; any other name, such as
 * one an attacker's DNS points at 127.0.0.1 (DNS rebinding), is not.
 */
int uk_httpd_host_ok(const char *listen, const char *host, size_t n);

/*
 * Origin checks: whether a request's Origin header may reach us.  A page
 * elsewhere must not, whatever its browser lets it send.
 *   uk_httpd_origin_ours: "http://" or "https://", a host that
 *   uk_httpd_host_ok takes, an optional ":PORT", and nothing else (no
 *   userinfo, no path: urlserve -l).
 *   uk_httpd_origin_same: exactly "http://" then the request's Host
 *   header, which must be there (toolack serve: its own page only).
 */
int uk_httpd_origin_ours(const char *listen, const char *origin);
int uk_httpd_origin_same(const char *origin, const char *host);

/*
 * Whether the request carries token (compared in constant time): as
 * "Authorization: Bearer TOKEN", or, when query is set and there is no
 * bearer header, as the query's token=TOKEN.  Always 1 when token is NULL
 * (no token asked for).
 */
int uk_httpd_token_ok(struct MHD_Connection *conn, const char *token,
    int query);

/*
 * The Content-Length header len (NULL: none) against max bytes: 0 when
 * it is fine, 400 with *why "bad Content-Length" when it is not RFC
 * 9110's 1*DIGIT, 413 with *why "request body too large" when over max.
 */
unsigned uk_httpd_length(const char *len, unsigned long long max,
    const char **why);

/*
 * A response with a copy of body (a string) and the headers every reply
 * of ours carries (Cache-Control: no-store, X-Content-Type-Options:
 * nosniff), plus Content-Type: type unless type is NULL.  NULL when MHD
 * cannot make one.  The caller adds its own headers, then uk_httpd_queue.
 */
struct MHD_Response *uk_httpd_response(const char *type, const char *body);

/* Queue resp (NULL: MHD_NO) with code on conn and let go of it. */
enum MHD_Result uk_httpd_queue(struct MHD_Connection *conn, unsigned code,
    struct MHD_Response *resp);

/*
 * The first line of the token file path, appended to out: 1 read, 0 no
 * such file, -1 with err (code UK_EXIT_FATAL).  Anything but a regular
 * file is refused (a FIFO without waiting on it), as is an empty line or
 * one over UK_HTTPD_TOKEN_MAX bytes.  strict (a server's file): it must
 * also be ours and readable by nobody else, and its token have
 * UK_HTTPD_TOKEN_MIN bytes of which UK_HTTPD_TOKEN_DISTINCT distinct.
 */
int uk_httpd_token_file_read(const char *path, int strict, struct uk_buf *out,
    struct uk_err *err);

/*
 * A server's token: the token file's (uk_httpd_token_file_read, strict)
 * if it exists, else a new random one of UK_HTTPD_TOKEN_LEN hex digits
 * written to it (mode 0600, its directory made 0700).  Appended to out;
 * 0, or -1 with err.
 */
int uk_httpd_token_serve(const char *path, struct uk_buf *out,
    struct uk_err *err);

/*
 * The reason of a 401, appended to out: the token is missing or wrong, and
 * where the right one is: the first line of the token file path, or
 * (path NULL or empty) the environment variable env.  Never the token.
 */
void uk_httpd_token_why(struct uk_buf *out, const char *path,
    const char *env);

#endif
