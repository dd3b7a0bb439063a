/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/cdp (TAP): the pipe framing, replies and events, the
 * WebSocket client against a small server in a child process (handshake,
 * 7/16/64-bit lengths, fragments, ping, masking, close), URLs.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/sha.h>

#include "banned.h"
#include "base64.h"
#include "buf.h"
#include "cdp.h"
#include "json.h"
#include "tap.h"
#include "util.h"

static void
test_split(void)
{
	char *s, *h, *p, *pa;
	struct uk_err err;

	ok(!uk_cdp_split_url("http://127.0.0.1:9222", &s, &h, &p, &pa, &err) &&
		!strcmp(s, "http") && !strcmp(h, "127.0.0.1") &&
		!strcmp(p, "9222") && !strcmp(pa, "/"),
	    "split http://127.0.0.1:9222");
	free(s), free(h), free(p), free(pa);
	ok(!uk_cdp_split_url("ws://[::1]:9/devtools/browser/x?a=b", &s, &h, &p,
	       &pa, &err) &&
		!strcmp(s, "ws") && !strcmp(h, "::1") && !strcmp(p, "9") &&
		!strcmp(pa, "/devtools/browser/x?a=b"),
	    "split a ws:// URL with an IPv6 host and a query");
	free(s), free(h), free(p), free(pa);
	ok(uk_cdp_split_url("ftp://x/", &s, &h, &p, &pa, &err) == -1 &&
		err.code == UK_EXIT_USAGE,
	    "ftp:// refused");
}

static void
put(int fd, const char *s, size_t n)
{
	if (write(fd, s, n) != (ssize_t)n)
		abort();
}

static void
test_pipe(void)
{
	int in[2], outp[2];
	struct uk_cdp c;
	struct uk_err err;
	struct uk_buf got = UK_BUF_INIT;
	yajl_val m, r;
	char buf[256];
	ssize_t n;
	static const char msgs[] =
	    "{\"method\":\"Ev.one\",\"params\":{}}\0"
	    "{\"id\":1,\"result\":{\"v\":7}}\0"
	    "{\"id\":2,\"error\":{\"message\":\"nope\"}}\0"
	    "{\"method\":\"Ev.two\",\"sessionId\":\"S\"}";

	if (pipe(in) || pipe(outp))
		abort();
	uk_cdp_init_pipe(&c, in[0], outp[1]);
	/* Everything but the last NUL: the last event is not complete. */
	put(in[1], msgs, sizeof(msgs) - 1);
	r = uk_cdp_call(&c, "S", "Do.it", NULL, 2, &err);
	ok(r && uk_json_get_int(r, "v", (long long[]){ 0 }) == 0,
	    "call: the reply with our id, past an event");
	uk_json_free(r);
	n = read(outp[0], buf, sizeof(buf));
	ok(n > 0 && buf[n - 1] == '\0', "a command ends with NUL");
	uk_buf_add(&got, buf, n > 0 ? (size_t)n - 1 : 0);
	ok(strstr(got.buf, "\"method\":\"Do.it\"") &&
		strstr(got.buf, "\"id\":1") &&
		strstr(got.buf, "\"sessionId\":\"S\""),
	    "the command has id, method and session: %s", got.buf);
	r = uk_cdp_call(&c, NULL, "Do.other", NULL, 2, &err);
	ok(!r && err.code == UK_EXIT_FAIL && !strcmp(err.msg, "Do.other: nope"),
	    "an error reply: %s", err.msg);
	ok(uk_cdp_next(&c, 1, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "method"), "Ev.one"),
	    "the event kept during the call comes next");
	uk_json_free(m);
	ok(uk_cdp_next(&c, 0.05, &m, &err) == 0, "an incomplete message waits");
	put(in[1], "", 1);
	ok(uk_cdp_next(&c, 1, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "sessionId"), "S"),
	    "its NUL completes it");
	uk_json_free(m);
	r = uk_cdp_call(&c, NULL, "Slow", NULL, 0.05, &err);
	ok(!r && !strncmp(err.msg, "timeout", 7), "a call times out");
	close(in[1]);
	ok(uk_cdp_next(&c, 1, &m, &err) == -1 && c.dead,
	    "end of the pipe: dead (%s)", c.why);
	ok(uk_cdp_send(&c, NULL, "X", NULL, &err) == -1,
	    "no sending when dead");
	uk_cdp_release(&c);
	close(outp[0]);
	uk_buf_release(&got);
}

/* Server side of the WebSocket test. */
static void
frame(int fd, int fin, int op, const char *data, size_t len)
{
	unsigned char h[10];
	size_t hl = 2, i;

	h[0] = (unsigned char)((fin ? 0x80 : 0) | op);
	if (len < 126) {
		h[1] = (unsigned char)len;
	} else if (len <= 0xffff) {
		h[1] = 126;
		h[2] = (unsigned char)(len >> 8);
		h[3] = (unsigned char)len;
		hl = 4;
	} else {
		h[1] = 127;
		for (i = 0; i < 8; i++)
			h[2 + i] =
			    (unsigned char)((uint64_t)len >> (56 - 8 * i));
		hl = 10;
	}
	put(fd, (char *)h, hl);
	put(fd, data, len);
}

/* Read one client frame; its opcode, the unmasked payload in out. */
static int
read_frame(int fd, struct uk_buf *out, int *masked)
{
	unsigned char h[14], key[4];
	uint64_t len;
	size_t i;
	char c;

	if (read(fd, h, 2) != 2)
		return -1;
	*masked = h[1] & 0x80;
	len = h[1] & 0x7f;
	if (len == 126) {
		if (read(fd, h + 2, 2) != 2)
			return -1;
		len = (uint64_t)h[2] << 8 | h[3];
	} else if (len == 127) {
		if (read(fd, h + 2, 8) != 8)
			return -1;
		len = 0;
		for (i = 0; i < 8; i++)
			len = len << 8 | h[2 + i];
	}
	if (*masked && read(fd, key, 4) != 4)
		return -1;
	uk_buf_reset(out);
	for (i = 0; i < len; i++) {
		if (read(fd, &c, 1) != 1)
			return -1;
		uk_buf_addch(out, *masked ? c ^ (char)key[i & 3] : c);
	}
	return h[0] & 0x0f;
}

static void
ws_server(int lfd)
{
	struct uk_buf req = UK_BUF_INIT, key = UK_BUF_INIT, acc = UK_BUF_INIT;
	struct uk_buf big = UK_BUF_INIT, f = UK_BUF_INIT;
	unsigned char sha[SHA_DIGEST_LENGTH];
	const char *k;
	char c;
	int fd = accept(lfd, NULL, NULL), masked, op;

	while (!strstr(req.buf, "\r\n\r\n") && read(fd, &c, 1) == 1)
		uk_buf_addch(&req, c);
	if (strstr(req.buf, "Origin:"))
		_exit(3);
	k = strstr(req.buf, "Sec-WebSocket-Key: ") + 19;
	uk_buf_add(&key, k, strcspn(k, "\r"));
	uk_buf_addstr(&key, "258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
	SHA1((unsigned char *)key.buf, key.len, sha);
	uk_base64_encode(sha, sizeof(sha), &acc);
	uk_buf_reset(&req);
	uk_buf_addf(&req,
	    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
	    "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
	    acc.buf);
	put(fd, req.buf, req.len);
	/* A small message, sent with the handshake's reply. */
	frame(fd, 1, 1, "{\"method\":\"A\"}", 14);
	/* A ping in the middle of a message in three fragments. */
	frame(fd, 0, 1, "{\"method\":", 10);
	frame(fd, 1, 9, "pp", 2);
	frame(fd, 0, 0, "\"B\",\"x\":", 8);
	frame(fd, 1, 0, "1}", 2);
	/* 16-bit and 64-bit lengths. */
	uk_buf_addstr(&big, "{\"method\":\"C\",\"pad\":\"");
	while (big.len < 300)
		uk_buf_addch(&big, 'x');
	uk_buf_addstr(&big, "\"}");
	frame(fd, 1, 1, big.buf, big.len);
	uk_buf_reset(&big);
	uk_buf_addstr(&big, "{\"method\":\"D\",\"pad\":\"");
	while (big.len < 70000)
		uk_buf_addch(&big, 'y');
	uk_buf_addstr(&big, "\"}");
	frame(fd, 1, 1, big.buf, big.len);
	/* The pong must come back, then the client's command, masked. */
	op = read_frame(fd, &f, &masked);
	if (op != 0xA || strcmp(f.buf, "pp") || !masked)
		_exit(4);
	op = read_frame(fd, &f, &masked);
	if (op != 1 || !masked || !strstr(f.buf, "\"method\":\"Echo\""))
		_exit(5);
	/* Reply to it, then close. */
	frame(fd, 1, 1, "{\"id\":1,\"result\":{\"ok\":true}}", 29);
	frame(fd, 1, 8, "\x03\xe8", 2);
	op = read_frame(fd, &f, &masked);
	_exit(op == 8 ? 0 : 6);
}

static void
test_ws(void)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	struct uk_cdp c;
	struct uk_err err;
	char url[100];
	yajl_val m, r;
	int lfd, st = -1;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &sl))
		abort();
	fflush(stdout);
	if ((pid = fork()) == 0)
		ws_server(lfd);
	close(lfd);
	snprintf(url, sizeof(url), "ws://127.0.0.1:%d/devtools/browser/t",
	    ntohs(sa.sin_port));
	ok(!uk_cdp_init_ws(&c, url, 5, &err), "handshake, accept checked");
	ok(uk_cdp_next(&c, 5, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "method"), "A"),
	    "a message that came with the handshake");
	uk_json_free(m);
	ok(uk_cdp_next(&c, 5, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "method"), "B") &&
		uk_json_get(m, "x"),
	    "a message in fragments with a ping among them");
	uk_json_free(m);
	ok(uk_cdp_next(&c, 5, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "method"), "C"),
	    "a 16-bit length");
	uk_json_free(m);
	ok(uk_cdp_next(&c, 5, &m, &err) == 1 &&
		!strcmp(uk_json_get_str(m, "method"), "D") &&
		strlen(uk_json_get_str(m, "pad")) > 65536,
	    "a 64-bit length");
	uk_json_free(m);
	r = uk_cdp_call(&c, NULL, "Echo", NULL, 5, &err);
	ok(r && uk_json_get_bool(r, "ok"), "a call over the WebSocket");
	uk_json_free(r);
	ok(uk_cdp_next(&c, 5, &m, &err) == -1 && c.dead,
	    "a close frame ends the stream (%s)", c.why);
	uk_cdp_release(&c);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "the server saw pong, masked frames, close, no Origin (status %d)",
	    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_split();
	test_pipe();
	test_ws();
	return tap_done();
}
