/* SPDX-License-Identifier: MIT */
/*
 * httpd: the listen address, the Host and Origin checks and the
 * Content-Length check that toolack serve and urlserve -l share.
 */
#include <arpa/inet.h>
#include <string.h>

#include "httpd.h"
#include "util.h"

#define TAP_PREFIX "httpd: "
#include "tap.h"

/* Parse s with flags: 0 and "host port", or -1 and the message. */
static int
addr(const char *s, int flags, char *out, size_t size)
{
	struct uk_err err;
	char host[64];
	int port = -1;

	if (uk_httpd_addr_parse(s, flags, host, sizeof(host), &port, &err)) {
		snprintf(out, size, "%d %s", err.code, err.msg);
		return -1;
	}
	snprintf(out, size, "%s %d", host, port);
	return 0;
}

static void
test_addr(void)
{
	char got[600];

	ok(addr("127.0.0.1:7077", 0, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 7077"), "HOST:PORT (%s)", got);
	ok(addr(":8080", 0, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 8080"), ":PORT is loopback (%s)", got);
	ok(addr("9000", 0, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 9000"), "PORT alone (%s)", got);
	ok(addr("localhost:1", 0, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 1"), "localhost is 127.0.0.1 (%s)", got);
	ok(addr("http://127.0.0.1:7077/", UK_HTTPD_ADDR_URL, got,
	       sizeof(got)) == 0 && !strcmp(got, "127.0.0.1 7077"),
	    "a URL with ADDR_URL (%s)", got);
	ok(addr("http://127.0.0.1:7077/", 0, got, sizeof(got)) == -1 &&
	    !strncmp(got, "2 bad address 'http://127.0.0.1:7077/'", 38),
	    "a URL without ADDR_URL is a usage error (%s)", got);
	ok(addr("http://127.0.0.1:7077/x", UK_HTTPD_ADDR_URL, got,
	       sizeof(got)) == -1, "a path is refused (%s)", got);
	ok(addr("127.0.0.1", UK_HTTPD_ADDR_HOST, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 0"), "HOST alone with ADDR_HOST: port 0 (%s)",
	    got);
	ok(addr("", UK_HTTPD_ADDR_HOST, got, sizeof(got)) == 0 &&
	    !strcmp(got, "127.0.0.1 0"), "\"\" with ADDR_HOST (%s)", got);
	ok(addr("127.0.0.1:65536", 0, got, sizeof(got)) == -1 &&
	    got[0] == '2', "a port past 65535 (%s)", got);
	ok(addr("127.0.0.1:x", 0, got, sizeof(got)) == -1, "a port not a number");
	ok(addr("example.com:80", 0, got, sizeof(got)) == -1,
	    "a name that is not localhost (%s)", got);
	ok(addr("[::1]:80", 0, got, sizeof(got)) == -1,
	    "IPv6 is not taken (%s)", got);
}

static void
test_sockaddr(void)
{
	struct sockaddr_in sa;
	char b[INET_ADDRSTRLEN];

	ok(uk_httpd_sockaddr(&sa, "127.0.0.2", 8080) == 0 &&
	    sa.sin_family == AF_INET && ntohs(sa.sin_port) == 8080 &&
	    inet_ntop(AF_INET, &sa.sin_addr, b, sizeof(b)) &&
	    !strcmp(b, "127.0.0.2"), "sockaddr of 127.0.0.2:8080");
	ok(uk_httpd_sockaddr(&sa, "localhost", 1) == -1,
	    "sockaddr takes no name");
}

static int
host(const char *listen, const char *h)
{
	return uk_httpd_host_ok(listen, h, strlen(h));
}

static void
test_host(void)
{
	ok(host("127.0.0.1", "127.0.0.1:7077"), "loopback with a port");
	ok(host("127.0.0.1", "localhost"), "localhost without a port");
	ok(host("127.0.0.1", "[::1]:80"), "[::1] with a port");
	ok(host("10.1.2.3", "10.1.2.3:99"), "the listen address");
	ok(!host("127.0.0.1", "10.1.2.3"), "another address");
	ok(!host("127.0.0.1", "evil.example:7077"),
	    "a name DNS points at us (rebinding)");
	ok(!host("127.0.0.1", "127.0.0.1.evil.example"),
	    "a name that starts as loopback");
	ok(!host("127.0.0.1", ""), "an empty Host");
}

static void
test_origin(void)
{
	ok(uk_httpd_origin_ours("127.0.0.1", "http://localhost:3000"),
	    "ours: http and loopback, any port");
	ok(uk_httpd_origin_ours("127.0.0.1", "https://127.0.0.1"),
	    "ours: https");
	ok(!uk_httpd_origin_ours("127.0.0.1", "http://evil.example"),
	    "ours: another host");
	ok(!uk_httpd_origin_ours("127.0.0.1", "http://127.0.0.1/x"),
	    "ours: a path");
	ok(!uk_httpd_origin_ours("127.0.0.1", "null"), "ours: null");
	ok(!uk_httpd_origin_ours("127.0.0.1", "file://localhost"),
	    "ours: another scheme");
	ok(uk_httpd_origin_same("http://127.0.0.1:7077", "127.0.0.1:7077"),
	    "same: http:// then the Host");
	ok(!uk_httpd_origin_same("http://127.0.0.1:7078", "127.0.0.1:7077"),
	    "same: another port");
	ok(!uk_httpd_origin_same("https://127.0.0.1:7077", "127.0.0.1:7077"),
	    "same: https is another origin");
	ok(!uk_httpd_origin_same("http://127.0.0.1:7077", NULL),
	    "same: no Host");
}

static void
test_length(void)
{
	const char *why = NULL;

	ok(uk_httpd_length(NULL, 10, &why) == 0, "no Content-Length");
	ok(uk_httpd_length("10", 10, &why) == 0, "at the limit");
	ok(uk_httpd_length("0", 10, &why) == 0, "zero");
	why = NULL;
	ok(uk_httpd_length("11", 10, &why) == 413 && why &&
	    !strcmp(why, "request body too large"), "over the limit: 413");
	why = NULL;
	ok(uk_httpd_length("1K", 1 << 20, &why) == 400 && why &&
	    !strcmp(why, "bad Content-Length"), "a unit: 400");
	ok(uk_httpd_length("", 10, &why) == 400, "empty: 400");
	ok(uk_httpd_length("-1", 10, &why) == 400, "a sign: 400");
	ok(uk_httpd_length(" 5", 10, &why) == 400, "a space: 400");
	ok(uk_httpd_length("0x10", 100, &why) == 400, "hex: 400");
	ok(uk_httpd_length("99999999999999999999999", 10, &why) == 413,
	    "23 digits: 413, no overflow");
}

int
main(void)
{
	test_addr();
	test_sockaddr();
	test_host();
	test_origin();
	test_length();
	return tap_done();
}
