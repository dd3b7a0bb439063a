/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "banned.h"
#include "base64.h"
#include "cdp.h"
#include "json.h"

#define READ_CHUNK 65536
/* A reply larger than this is refused. */
#define MAX_MESSAGE          (512UL << 20)
#define WS_GUID              "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define UK_CDP_WRITE_TIMEOUT 30 /* seconds a browser may not read */

volatile sig_atomic_t uk_cdp_stop;

struct uk_cdp_msg {
	yajl_val v;
	struct uk_cdp_msg *next;
};

/* Milliseconds until deadline for poll(): -1 for none, 0 when past. */
static int
ms_left(double deadline)
{
	double left;

	if (deadline < 0)
		return -1;
	left = deadline - uk_util_mono_now();
	if (left <= 0)
		return 0;
	if (left > 86400)
		return 86400 * 1000;
	return (int)(left * 1000) + 1;
}

static double
deadline_of(double timeout)
{
	return timeout < 0 ? -1 : uk_util_mono_now() + timeout;
}

/* Wait until fd is ready for events; 1 ready, 0 timeout, -1 interrupted. */
static int
wait_fd(int fd, short events, double deadline)
{
	struct pollfd p;
	int r;

	for (;;) {
		if (uk_cdp_stop)
			return -1;
		p.fd = fd;
		p.events = events;
		p.revents = 0;
		r = poll(&p, 1, ms_left(deadline));
		if (r > 0)
			return 1;
		if (r == 0)
			return 0;
		if (errno != EINTR)
			return -1;
	}
}

static void
mark_dead(struct uk_cdp *c, const char *why)
{
	if (!c->dead)
		snprintf(c->why, sizeof(c->why), "%s", why);
	c->dead = 1;
}

/*
 * Write all of p[0..n).  A pipe whose reader died would raise SIGPIPE:
 * block it for the write and take a pending one away, so that the write
 * fails with EPIPE instead of ending the program.
 */
static int
write_all(struct uk_cdp *c, const void *p, size_t n)
{
	const char *s = p;
	sigset_t set, old;
	int broken = 0;

	if (c->dead)
		return -1;
	if (!c->ws) {
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		sigprocmask(SIG_BLOCK, &set, &old);
	}
	while (n > 0) {
		ssize_t w;

		if (c->ws)
			w = send(c->wfd, s, n, MSG_NOSIGNAL);
		else
			w = write(c->wfd, s, n);
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			/* The browser is not reading: wait, but not forever. */
			if (wait_fd(c->wfd, POLLOUT,
				uk_util_mono_now() + UK_CDP_WRITE_TIMEOUT) > 0)
				continue;
			mark_dead(c, "the browser stopped reading");
			break;
		}
		if (w < 0) {
			if (errno == EINTR && !uk_cdp_stop)
				continue;
			broken = errno == EPIPE;
			mark_dead(c,
			    errno == EPIPE ? "the browser has gone" :
					     strerror(errno));
			break;
		}
		s += w;
		n -= (size_t)w;
	}
	if (!c->ws) {
		if (broken) {
			struct timespec zero = { 0, 0 };

			while (sigtimedwait(&set, NULL, &zero) > 0)
				;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	return c->dead ? -1 : 0;
}

static void
enqueue(struct uk_cdp *c, yajl_val v)
{
	struct uk_cdp_msg *m = uk_util_xmalloc(sizeof(*m));

	m->v = v;
	m->next = NULL;
	if (c->qtail)
		c->qtail->next = m;
	else
		c->qhead = m;
	c->qtail = m;
}

/* Parse one complete message s[0..len) (NUL at len) and queue it. */
static void
take_message(struct uk_cdp *c, const char *s, size_t len)
{
	struct uk_err err;
	yajl_val v = uk_json_parse(s, len, &err);

	if (v && YAJL_IS_OBJECT(v))
		enqueue(c, v);
	else
		uk_json_free(v); /* not a message: skip it */
}

static void ws_frame(struct uk_cdp *c, int opcode, const void *data,
    size_t len);

/* Take apart what has been read into queued messages. */
static void
parse_input(struct uk_cdp *c)
{
	unsigned char *b;
	size_t avail;

	for (;;) {
		b = (unsigned char *)c->in.buf + c->inpos;
		avail = c->in.len - c->inpos;
		if (!c->ws) {
			unsigned char *nul;

			nul = memchr(b + c->scanned, 0, avail - c->scanned);
			if (!nul) {
				c->scanned = avail;
				if (avail > MAX_MESSAGE)
					mark_dead(c, "message too large");
				break;
			}
			take_message(c, (char *)b, (size_t)(nul - b));
			c->inpos += (size_t)(nul - b) + 1;
			c->scanned = 0;
		} else {
			uint64_t plen;
			size_t hl = 2, i;
			int fin, op, masked;
			unsigned char *key = NULL, *pl;

			if (avail < 2)
				break;
			fin = b[0] & 0x80;
			op = b[0] & 0x0f;
			masked = b[1] & 0x80;
			plen = b[1] & 0x7f;
			if (plen == 126) {
				if (avail < 4)
					break;
				plen = (uint64_t)b[2] << 8 | b[3];
				hl = 4;
			} else if (plen == 127) {
				if (avail < 10)
					break;
				plen = 0;
				for (i = 0; i < 8; i++)
					plen = plen << 8 | b[2 + i];
				hl = 10;
			}
			if (plen > MAX_MESSAGE) {
				mark_dead(c, "message too large");
				break;
			}
			if (masked) {
				key = b + hl;
				hl += 4;
			}
			if (avail < hl + plen)
				break;
			pl = b + hl;
			if (masked)
				for (i = 0; i < plen; i++)
					pl[i] ^= key[i & 3];
			c->inpos += hl + (size_t)plen;
			switch (op) {
			case 0x1: /* text */
			case 0x2: /* binary */
				uk_buf_reset(&c->msg);
				c->inmsg = 1;
				/* fall through */
			case 0x0: /* continuation */
				if (!c->inmsg)
					break;
				if (c->msg.len + plen > MAX_MESSAGE) {
					mark_dead(c, "message too large");
					return;
				}
				uk_buf_add(&c->msg, pl, (size_t)plen);
				if (fin) {
					c->inmsg = 0;
					take_message(c, c->msg.buf, c->msg.len);
					uk_buf_reset(&c->msg);
				}
				break;
			case 0x8: /* close: answer it, and the stream is over */
				ws_frame(c, 0x8, pl, plen >= 2 ? 2 : 0);
				mark_dead(c,
				    "the browser closed the connection");
				return;
			case 0x9: /* ping */
				ws_frame(c, 0xA, pl, (size_t)plen);
				break;
			default: /* pong and anything else */
				break;
			}
		}
		if (c->dead)
			break;
	}
	/* Drop what has been taken once it is most of the buffer. */
	if (c->inpos && c->inpos >= c->in.len / 2) {
		uk_buf_remove(&c->in, 0, c->inpos);
		c->inpos = 0;
	}
}

/*
 * Read what is there (waiting until deadline for something) and queue the
 * messages it completes.  1 when something was read, 0 on timeout, -1 when
 * the stream is dead or the wait was interrupted.
 */
static int
pump(struct uk_cdp *c, double deadline, struct uk_err *err)
{
	ssize_t n;
	int r;

	if (c->dead)
		return uk_util_err_set(err, UK_EXIT_FATAL, "%s", c->why);
	r = wait_fd(c->rfd, POLLIN, deadline);
	if (r < 0)
		return uk_util_err_set(err, UK_EXIT_FATAL, "interrupted");
	if (r == 0)
		return 0;
	uk_buf_grow(&c->in, READ_CHUNK);
	do
		n = read(c->rfd, c->in.buf + c->in.len, READ_CHUNK);
	while (n < 0 && errno == EINTR && !uk_cdp_stop);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 1;
	if (n <= 0) {
		mark_dead(c, n == 0 ? "the browser has gone" : strerror(errno));
		return uk_util_err_set(err, UK_EXIT_FATAL, "%s", c->why);
	}
	uk_buf_setlen(&c->in, c->in.len + (size_t)n);
	parse_input(c);
	return 1;
}

static yajl_val
dequeue(struct uk_cdp *c)
{
	struct uk_cdp_msg *m = c->qhead;
	yajl_val v;

	if (!m)
		return NULL;
	c->qhead = m->next;
	if (!c->qhead)
		c->qtail = NULL;
	v = m->v;
	free(m);
	return v;
}

static void
nonblock(int fd)
{
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void
uk_cdp_init_pipe(struct uk_cdp *c, int rfd, int wfd)
{
	memset(c, 0, sizeof(*c));
	nonblock(rfd);
	nonblock(wfd);
	uk_buf_init(&c->in, 0);
	uk_buf_init(&c->msg, 0);
	c->rfd = rfd;
	c->wfd = wfd;
	c->next_id = 1;
}

void
uk_cdp_release(struct uk_cdp *c)
{
	yajl_val v;

	if (c->ws && c->wfd >= 0 && !c->dead)
		ws_frame(c, 0x8, "\x03\xe8", 2); /* 1000: normal closure */
	if (c->rfd >= 0)
		close(c->rfd);
	if (c->wfd >= 0 && c->wfd != c->rfd)
		close(c->wfd);
	c->rfd = c->wfd = -1;
	while ((v = dequeue(c)))
		uk_json_free(v);
	uk_buf_release(&c->in);
	uk_buf_release(&c->msg);
	c->dead = 1;
}

int
uk_cdp_fd(const struct uk_cdp *c)
{
	return c->rfd;
}

int
uk_cdp_ready(struct uk_cdp *c)
{
	return c->qhead != NULL;
}

/* Send one WebSocket frame, masked as a client must. */
static void
ws_frame(struct uk_cdp *c, int opcode, const void *data, size_t len)
{
	struct uk_buf f = UK_BUF_INIT;
	unsigned char h[14], key[4];
	const unsigned char *d = data;
	size_t hl = 2, i, base;

	h[0] = 0x80 | (unsigned char)opcode;
	if (len < 126) {
		h[1] = 0x80 | (unsigned char)len;
	} else if (len <= 0xffff) {
		h[1] = 0x80 | 126;
		h[2] = (unsigned char)(len >> 8);
		h[3] = (unsigned char)len;
		hl = 4;
	} else {
		h[1] = 0x80 | 127;
		for (i = 0; i < 8; i++)
			h[2 + i] =
			    (unsigned char)((uint64_t)len >> (56 - 8 * i));
		hl = 10;
	}
	if (RAND_bytes(key, 4) != 1)
		memset(key, 0x5a, 4); /* masking is not a secret */
	memcpy(h + hl, key, 4);
	hl += 4;
	uk_buf_grow(&f, hl + len);
	uk_buf_add(&f, h, hl);
	base = f.len;
	uk_buf_add(&f, data, len);
	for (i = 0; i < len; i++)
		f.buf[base + i] = (char)(d[i] ^ key[i & 3]);
	write_all(c, f.buf, f.len);
	uk_buf_release(&f);
}

long
uk_cdp_send(struct uk_cdp *c, const char *session, const char *method,
    yajl_val params, struct uk_err *err)
{
	struct uk_buf b = UK_BUF_INIT;
	yajl_val m;
	long id;

	if (c->dead)
		return uk_util_err_set(err, UK_EXIT_FATAL, "%s", c->why);
	id = c->next_id++;
	m = uk_json_object();
	uk_json_set_int(m, "id", id);
	uk_json_set_str(m, "method", method);
	if (params)
		uk_json_set(m, "params", uk_json_copy(params));
	if (session)
		uk_json_set_str(m, "sessionId", session);
	uk_json_to_buf(m, &b);
	uk_json_free(m);
	if (c->ws) {
		ws_frame(c, 0x1, b.buf, b.len);
	} else {
		uk_buf_addch(&b, '\0');
		write_all(c, b.buf, b.len);
	}
	uk_buf_release(&b);
	if (c->dead)
		return uk_util_err_set(err, UK_EXIT_FATAL, "%s", c->why);
	return id;
}

int
uk_cdp_next(struct uk_cdp *c, double timeout, yajl_val *msg, struct uk_err *err)
{
	double deadline = deadline_of(timeout);
	int r;

	*msg = NULL;
	for (;;) {
		if ((*msg = dequeue(c)))
			return 1;
		r = pump(c, deadline, err);
		if (r < 0)
			return -1;
		if (r == 0 && ms_left(deadline) == 0)
			return 0;
	}
}

yajl_val
uk_cdp_call(struct uk_cdp *c, const char *session, const char *method,
    yajl_val params, double timeout, struct uk_err *err)
{
	double deadline = deadline_of(timeout);
	struct uk_cdp_msg *m, *prev, *from = NULL;
	long long got;
	long id;
	int r;

	if ((id = uk_cdp_send(c, session, method, params, err)) < 0)
		return NULL;
	for (;;) {
		/* Look through what is new in the queue for the reply. */
		prev = from;
		for (m = from ? from->next : c->qhead; m;
		     prev = m, m = m->next) {
			yajl_val v = m->v, res, e;

			if (uk_json_get_int(v, "id", &got) || got != id)
				continue;
			if (prev)
				prev->next = m->next;
			else
				c->qhead = m->next;
			if (c->qtail == m)
				c->qtail = prev;
			free(m);
			if ((e = uk_json_get(v, "error"))) {
				const char *s = uk_json_get_str(e, "message");

				uk_util_err_set(err, UK_EXIT_FAIL, "%s: %s",
				    method, s ? s : "error");
				uk_json_free(v);
				return NULL;
			}
			res = uk_json_get(v, "result");
			res = res ? uk_json_copy(res) : uk_json_object();
			uk_json_free(v);
			return res;
		}
		from = prev;
		r = pump(c, deadline, err);
		if (r < 0)
			return NULL;
		if (r == 0 && ms_left(deadline) == 0) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "timeout waiting for the reply to %s", method);
			return NULL;
		}
	}
}

/*
 * Connect a TCP socket to host:port within timeout seconds.  The socket
 * is returned blocking with close-on-exec set; -1 with err.
 */
static int
tcp_connect(const char *host, const char *port, double timeout,
    struct uk_err *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	double deadline = deadline_of(timeout);
	int fd = -1, r, soerr, one = 1;
	socklen_t sl;
	char why[200] = "no address";

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((r = getaddrinfo(host, port, &hints, &res)) != 0)
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot resolve '%s': %s", host, gai_strerror(r));
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		if (errno == EINPROGRESS) {
			r = wait_fd(fd, POLLOUT, deadline);
			if (r == 0) {
				snprintf(why, sizeof(why),
				    "connection timed out");
			} else if (r > 0) {
				sl = sizeof(soerr);
				soerr = 0;
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
				    &sl);
				if (!soerr)
					break;
				snprintf(why, sizeof(why), "%s",
				    strerror(soerr));
			} else {
				snprintf(why, sizeof(why), "interrupted");
			}
		} else {
			snprintf(why, sizeof(why), "%s", strerror(errno));
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot connect to %s:%s: %s", host, port, why);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Read an HTTP response head (and what follows) until deadline. */
static int
read_head(int fd, double deadline, struct uk_buf *b, size_t *body,
    struct uk_err *err)
{
	char *end;
	ssize_t n;
	int r;

	for (;;) {
		if ((end = memmem(b->buf, b->len, "\r\n\r\n", 4))) {
			*body = (size_t)(end - b->buf) + 4;
			return 0;
		}
		if (b->len > 65536)
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "HTTP response head too long");
		r = wait_fd(fd, POLLIN, deadline);
		if (r == 0)
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "timeout waiting for an answer");
		if (r < 0)
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "interrupted");
		uk_buf_grow(b, 4096);
		n = read(fd, b->buf + b->len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return uk_util_err_set(err, UK_EXIT_FATAL,
			    "connection closed before an answer");
		uk_buf_setlen(b, b->len + (size_t)n);
	}
}

/* The value of header name in head[0..len), or NULL (a copy, freed). */
static char *
header_value(const char *head, size_t len, const char *name)
{
	size_t nl = strlen(name);
	const char *p = head, *end = head + len, *eol, *v;

	while (p < end && (eol = memchr(p, '\n', (size_t)(end - p)))) {
		if ((size_t)(eol - p) > nl && !strncasecmp(p, name, nl) &&
		    p[nl] == ':') {
			v = p + nl + 1;
			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			while (eol > v && (eol[-1] == '\r' || eol[-1] == ' '))
				eol--;
			return uk_util_xmemdup(v, (size_t)(eol - v));
		}
		p = eol + 1;
	}
	return NULL;
}

static int
http_status(const char *head)
{
	int major, minor, status;

	if (sscanf(head, "HTTP/%d.%d %d", &major, &minor, &status) != 3)
		return -1;
	return status;
}

/*
 * A plain HTTP/1.1 GET of path from host:port, the body into body: all
 * DevTools needs (its /json/version), where libcurl would bring a second
 * event loop for one request.  The HTTP status, or -1 with err.
 */
static int
http_get(const char *host, const char *port, const char *path, double timeout,
    struct uk_buf *body, struct uk_err *err)
{
	double deadline = deadline_of(timeout);
	struct uk_buf b = UK_BUF_INIT;
	size_t hlen, want = (size_t)-1;
	char *cl = NULL;
	int fd, status = -1, r;
	ssize_t n;

	if ((fd = tcp_connect(host, port, timeout, err)) < 0)
		return -1;
	uk_buf_addf(&b,
	    "GET %s HTTP/1.1\r\nHost: %s%s%s:%s\r\n"
	    "Accept: application/json\r\nConnection: close\r\n\r\n",
	    path, strchr(host, ':') ? "[" : "", host,
	    strchr(host, ':') ? "]" : "", port);
	if (send(fd, b.buf, b.len, MSG_NOSIGNAL) != (ssize_t)b.len) {
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot send to %s:%s: %s",
		    host, port, strerror(errno));
		goto out;
	}
	uk_buf_reset(&b);
	if (read_head(fd, deadline, &b, &hlen, err))
		goto out;
	if ((status = http_status(b.buf)) < 0) {
		uk_util_err_set(err, UK_EXIT_FATAL, "not an HTTP response");
		goto out;
	}
	if ((cl = header_value(b.buf, hlen, "Content-Length")))
		want = strtoul(cl, NULL, 10);
	while (b.len - hlen < want) {
		r = wait_fd(fd, POLLIN, deadline);
		if (r == 0) {
			status = uk_util_err_set(err, UK_EXIT_FAIL,
			    "timeout reading the answer");
			goto out;
		}
		if (r < 0) {
			status =
			    uk_util_err_set(err, UK_EXIT_FATAL, "interrupted");
			goto out;
		}
		uk_buf_grow(&b, 8192);
		n = read(fd, b.buf + b.len, 8192);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		uk_buf_setlen(&b, b.len + (size_t)n);
	}
	uk_buf_add(body, b.buf + hlen,
	    want < b.len - hlen ? want : b.len - hlen);
out:
	free(cl);
	uk_buf_release(&b);
	close(fd);
	return status;
}

int
uk_cdp_json_version(const char *host, const char *port, double timeout,
    struct uk_buf *body, struct uk_err *err)
{
	return http_get(host, port, "/json/version", timeout, body, err);
}

int
uk_cdp_split_url(const char *url, char **scheme, char **host, char **port,
    char **path, struct uk_err *err)
{
	CURLU *u = curl_url();
	char *s = NULL, *h = NULL, *p = NULL, *pa = NULL, *q = NULL;
	int r = -1;

	*scheme = *host = *port = *path = NULL;
	if (!u)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) ||
	    curl_url_get(u, CURLUPART_SCHEME, &s, 0) ||
	    curl_url_get(u, CURLUPART_HOST, &h, 0)) {
		uk_util_err_set(err, UK_EXIT_USAGE, "not a URL: '%s'", url);
		goto out;
	}
	if (strcmp(s, "http") && strcmp(s, "ws")) {
		uk_util_err_set(err, UK_EXIT_USAGE,
		    "not an http:// or ws:// address: '%s'", url);
		goto out;
	}
	curl_url_get(u, CURLUPART_PORT, &p, 0);
	curl_url_get(u, CURLUPART_PATH, &pa, 0);
	curl_url_get(u, CURLUPART_QUERY, &q, 0);
	*scheme = uk_util_xstrdup(s);
	if (h[0] == '[') {
		size_t n = strlen(h);

		*host = uk_util_xmemdup(h + 1, n > 2 ? n - 2 : 0);
	} else {
		*host = uk_util_xstrdup(h);
	}
	*port = uk_util_xstrdup(p ? p : "80");
	if (q) {
		struct uk_buf b = UK_BUF_INIT;

		uk_buf_addf(&b, "%s?%s", pa ? pa : "/", q);
		*path = uk_buf_detach(&b, NULL);
	} else {
		*path = uk_util_xstrdup(pa && *pa ? pa : "/");
	}
	r = 0;
out:
	curl_free(s);
	curl_free(h);
	curl_free(p);
	curl_free(pa);
	curl_free(q);
	curl_url_cleanup(u);
	return r;
}

int
uk_cdp_init_ws(struct uk_cdp *c, const char *url, double timeout,
    struct uk_err *err)
{
	double deadline = deadline_of(timeout);
	char *scheme, *host, *port, *path, *accept = NULL;
	unsigned char nonce[16], sha[SHA_DIGEST_LENGTH];
	struct uk_buf key = UK_BUF_INIT, req = UK_BUF_INIT, exp = UK_BUF_INIT;
	size_t hlen;
	int fd = -1, status, r = -1;

	uk_cdp_init_pipe(c, -1, -1);
	c->ws = 1;
	if (uk_cdp_split_url(url, &scheme, &host, &port, &path, err))
		return -1;
	if ((fd = tcp_connect(host, port, timeout, err)) < 0)
		goto out;
	if (RAND_bytes(nonce, sizeof(nonce)) != 1) {
		uk_util_err_set(err, UK_EXIT_FATAL, "no random bytes");
		goto out;
	}
	uk_base64_encode(nonce, sizeof(nonce), &key);
	/* No Origin header: Chromium refuses a handshake that has one. */
	uk_buf_addf(&req,
	    "GET %s HTTP/1.1\r\nHost: %s%s%s:%s\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
	    path, strchr(host, ':') ? "[" : "", host,
	    strchr(host, ':') ? "]" : "", port, key.buf);
	if (send(fd, req.buf, req.len, MSG_NOSIGNAL) != (ssize_t)req.len) {
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot send to %s:%s: %s",
		    host, port, strerror(errno));
		goto out;
	}
	uk_buf_reset(&req);
	if (read_head(fd, deadline, &req, &hlen, err))
		goto out;
	if ((status = http_status(req.buf)) != 101) {
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "WebSocket handshake refused by %s:%s (HTTP %d)", host,
		    port, status);
		goto out;
	}
	uk_buf_addstr(&key, WS_GUID);
	SHA1((const unsigned char *)key.buf, key.len, sha);
	uk_base64_encode(sha, sizeof(sha), &exp);
	accept = header_value(req.buf, hlen, "Sec-WebSocket-Accept");
	if (!accept || strcmp(accept, exp.buf)) {
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "WebSocket handshake with %s:%s: wrong Sec-WebSocket-Accept",
		    host, port);
		goto out;
	}
	c->rfd = c->wfd = fd;
	nonblock(fd);
	fd = -1;
	/* Frames that came with the handshake. */
	uk_buf_add(&c->in, req.buf + hlen, req.len - hlen);
	parse_input(c);
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	if (r)
		c->dead = 1;
	free(accept);
	free(scheme);
	free(host);
	free(port);
	free(path);
	uk_buf_release(&key);
	uk_buf_release(&req);
	uk_buf_release(&exp);
	return r;
}
