/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "guardproxy.h"
#include "util.h"

#define HEAD_MAX (32 * 1024) /* a request head; Chromium's are < 8 KiB */
#define IDLE_MS (120 * 1000) /* a tunnel or response quiet this long ends */

static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int started, port, nconn, lfd;
	struct uk_netguard g;
	double timeout;
} px = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, -1,
	{ 0 }, 0 };

/*
 * What went wrong for the last hosts, for pwfetch's error records: the
 * browser reports any failed CONNECT as ERR_TUNNEL_CONNECTION_FAILED.
 */
#define NERRS 64

static struct {
	char host[300];
	char what[96]; /* "net::ERR_..." or the refused address */
	int refused;
} errs[NERRS];
static unsigned nerrs;

static void
note(const char *host, const char *what, int refused)
{
	unsigned i;

	pthread_mutex_lock(&px.mu);
	for (i = 0; i < NERRS && strcmp(errs[i].host, host); i++)
		;
	if (i == NERRS)
		i = nerrs++ % NERRS;
	snprintf(errs[i].host, sizeof(errs[i].host), "%s", host);
	snprintf(errs[i].what, sizeof(errs[i].what), "%s", what);
	errs[i].refused = refused;
	pthread_mutex_unlock(&px.mu);
}

int
uk_guardproxy_error(const char *host, char *buf, size_t size)
{
	char h[300];
	size_t n;
	unsigned i;
	int r = 0;

	snprintf(h, sizeof(h), "%s", host[0] == '[' ? host + 1 : host);
	n = strlen(h);
	if (n && h[n - 1] == ']')
		h[n - 1] = '\0';
	pthread_mutex_lock(&px.mu);
	for (i = 0; i < NERRS; i++) {
		if (errs[i].host[0] && !strcasecmp(errs[i].host, h)) {
			snprintf(buf, size, "%s", errs[i].what);
			r = errs[i].refused ? 2 : 1;
			break;
		}
	}
	pthread_mutex_unlock(&px.mu);
	return r;
}

/* Wait for events on fd until the deadline; > 0 when they came. */
static int
wait_fd(int fd, short events, double deadline)
{
	struct pollfd p = { fd, events, 0 };
	int r;

	for (;;) {
		double left = deadline - uk_util_mono_now();

		if (left <= 0)
			return 0;
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r >= 0 || errno != EINTR)
			return r;
	}
}

static int
send_all(int fd, const char *p, size_t n, double timeout)
{
	double deadline = uk_util_mono_now() + timeout;
	ssize_t w;

	while (n > 0) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		} else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_fd(fd, POLLOUT, deadline) <= 0)
				return -1;
		} else {
			return -1;
		}
	}
	return 0;
}

/* An answer of ours; header ("Name: value") may be NULL. */
static void
reply(int fd, const char *status, const char *header)
{
	char b[512];

	snprintf(b, sizeof(b),
	    "HTTP/1.1 %s\r\n%s%sContent-Type: text/plain\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
	    status, header ? header : "", header ? "\r\n" : "",
	    strlen(status) + 1, status);
	send_all(fd, b, strlen(b), 5);
}

/* A non-blocking socket connected to ai within timeout; -1 when not. */
static int
connect_to(const struct addrinfo *ai, double timeout)
{
	int fd, e = 0;
	socklen_t len = sizeof(e);

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    ai->ai_protocol);
	if (fd < 0)
		return -1;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno == EINPROGRESS) {
		if (wait_fd(fd, POLLOUT, uk_util_mono_now() + timeout) <= 0)
			e = ETIMEDOUT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len))
			e = errno;
		if (!e)
			return fd;
	} else {
		e = errno;
	}
	close(fd);
	errno = e;
	return -1;
}

/*
 * Copy bytes both ways until both sides have ended (a tunnel), or until
 * the server has ended (a plain request: its response is complete).
 */
static void
relay(int c, int u, int tunnel)
{
	struct pollfd p[2];
	int from[2] = { c, u }, to[2] = { u, c }, open_[2] = { 1, 1 }, i, r;
	char buf[16384];
	ssize_t n;

	while (open_[0] || open_[1]) {
		for (i = 0; i < 2; i++) {
			p[i].fd = open_[i] ? from[i] : -1;
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		r = poll(p, 2, IDLE_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		for (i = 0; i < 2; i++) {
			if (!open_[i] || !p[i].revents)
				continue;
			n = recv(from[i], buf, sizeof(buf), 0);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n <= 0) {
				open_[i] = 0;
				shutdown(to[i], SHUT_WR);
				if (i == 1 && !tunnel)
					return;
				continue;
			}
			if (send_all(to[i], buf, (size_t)n, IDLE_MS / 1000))
				return;
		}
	}
}

/* Hop-by-hop headers a proxy must not pass on (RFC 9110, 7.6.1). */
static int
hop_header(const char *line, size_t n)
{
	static const char *const names[] = { "connection:",
		"proxy-connection:", "keep-alive:", "proxy-authorization:",
		"te:", "upgrade:" };
	size_t i, k;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		k = strlen(names[i]);
		if (n >= k && !strncasecmp(line, names[i], k))
			return 1;
	}
	return 0;
}

/* A connection that failed, as Chromium would have named it. */
static const char *
net_error(int e)
{
	switch (e) {
	case ECONNREFUSED:
		return "net::ERR_CONNECTION_REFUSED";
	case ETIMEDOUT:
		return "net::ERR_CONNECTION_TIMED_OUT";
	case ENETUNREACH:
	case EHOSTUNREACH:
		return "net::ERR_ADDRESS_UNREACHABLE";
	case ECONNRESET:
		return "net::ERR_CONNECTION_RESET";
	default:
		return "net::ERR_CONNECTION_FAILED";
	}
}

/*
 * Read a request head from c into head (HEAD_MAX + 1 bytes), *n the bytes
 * read (a tunnel's first bytes may follow the head).  Where the head ends,
 * or NULL when c went quiet or away, or was answered (too long).
 */
static char *
read_head(int c, char *head, size_t *n)
{
	/*
	 * The browser opens connections ahead of need (preconnect) and may
	 * send nothing for a while: the first byte may take IDLE_MS, the rest
	 * of the head the timeout.
	 */
	double deadline = uk_util_mono_now() + IDLE_MS / 1000;
	char *end = NULL;
	ssize_t r;

	*n = 0;
	while (!end) {
		if (*n == HEAD_MAX) {
			reply(c, "431 Request Header Fields Too Large", NULL);
			return NULL;
		}
		if (wait_fd(c, POLLIN, deadline) <= 0)
			return NULL;
		r = recv(c, head + *n, HEAD_MAX - *n, 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return NULL;
		if (!*n)
			deadline = uk_util_mono_now() + px.timeout;
		*n += (size_t)r;
		head[*n] = '\0';
		end = strstr(head, "\r\n\r\n");
	}
	return end;
}

/*
 * The host and port of a request's target: CONNECT's host:port, or an
 * absolute http:// URL (then *path is where its path starts).  host[:port]
 * or [v6][:port]; no user name (Chromium sends none).  -1 when it is not
 * one of those.
 */
static int
split_target(char *target, int tunnel, char host[300], char port[8],
    char **path)
{
	char *hp, *p;
	size_t hl;

	if (tunnel) {
		hp = target;
		*path = NULL;
	} else if (!strncasecmp(target, "http://", 7)) {
		hp = target + 7;
		*path = hp + strcspn(hp, "/?#");
	} else {
		return -1;
	}
	hl = *path ? (size_t)(*path - hp) : strlen(hp);
	if (!hl || hl >= 300 || memchr(hp, '@', hl))
		return -1;
	memcpy(host, hp, hl);
	host[hl] = '\0';
	snprintf(port, 8, "%s", tunnel ? "443" : "80");
	if (host[0] == '[') {
		if (!(p = strchr(host, ']')))
			return -1;
		*p++ = '\0';
		if (*p == ':')
			snprintf(port, 8, "%s", p + 1);
		memmove(host, host + 1, strlen(host + 1) + 1);
	} else if ((p = strrchr(host, ':'))) {
		*p++ = '\0';
		snprintf(port, 8, "%s", p);
	}
	if (!*host || !*port || strspn(port, "0123456789") != strlen(port))
		return -1;
	return 0;
}

/*
 * Judge host and connect to it: the socket, or -1 when c has been
 * answered instead (refused, no such name, no connection).  Every address
 * the name has is judged, as urlfetch's guard judges the address it
 * connects to: one refused address refuses the host (as
 * uk_netguard_host_allowed does), so a name that answers with an internal
 * address now and then is refused every time it does.
 */
static int
dial(int c, const char *host, const char *port)
{
	struct addrinfo hints, *res = NULL, *ai;
	char addr[64], hdr[160];
	int u = -1, e = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &res) || !res) {
		note(host, "net::ERR_NAME_NOT_RESOLVED", 0);
		reply(c, "502 Bad Gateway",
		    "X-Urlkit-Error: net::ERR_NAME_NOT_RESOLVED");
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		if (!uk_netguard_check(&px.g, ai->ai_addr, addr, sizeof(addr))) {
			freeaddrinfo(res);
			note(host, addr, 1);
			snprintf(hdr, sizeof(hdr), "X-Urlkit-Refused: %s", addr);
			reply(c, "403 Forbidden", hdr);
			return -1;
		}
	}
	for (ai = res; ai && u < 0; ai = ai->ai_next)
		if ((u = connect_to(ai, px.timeout)) < 0)
			e = errno;
	freeaddrinfo(res);
	if (u < 0) {
		note(host, net_error(e), 0);
		snprintf(hdr, sizeof(hdr), "X-Urlkit-Error: %s", net_error(e));
		reply(c, "502 Bad Gateway", hdr);
	}
	return u;
}

static void
serve(int c)
{
	char head[HEAD_MAX + 1], host[300], port[8];
	char *sp1, *sp2, *eol, *end, *path;
	size_t n, hlen;
	int u, tunnel;

	if (!(end = read_head(c, head, &n)))
		return;
	hlen = (size_t)(end + 4 - head);
	eol = strstr(head, "\r\n");
	*eol = '\0';
	if (!(sp1 = strchr(head, ' ')) || !(sp2 = strchr(sp1 + 1, ' '))) {
		reply(c, "400 Bad Request", NULL);
		return;
	}
	*sp1 = *sp2 = '\0';
	tunnel = !strcmp(head, "CONNECT");
	if (split_target(sp1 + 1, tunnel, host, port, &path)) {
		reply(c, "400 Bad Request", NULL);
		return;
	}
	if ((u = dial(c, host, port)) < 0)
		return;
	if (tunnel) {
		static const char ok[] = "HTTP/1.1 200 Connection established"
					 "\r\n\r\n";

		if (send_all(c, ok, sizeof(ok) - 1, px.timeout) ||
		    (n > hlen && send_all(u, head + hlen, n - hlen, px.timeout)))
			goto out;
	} else {
		/* The request line in origin form, one request a connection. */
		char *line = eol + 2, *next;
		struct uk_buf b = UK_BUF_INIT;
		int fail;

		uk_buf_addf(&b, "%s %s%s %s\r\n", head, *path == '/' ? "" : "/",
		    path, sp2 + 1);
		for (; line < end + 2; line = next + 2) {
			next = strstr(line, "\r\n");
			if (!hop_header(line, (size_t)(next - line)))
				uk_buf_add(&b, line, (size_t)(next - line) + 2);
		}
		uk_buf_addstr(&b, "Connection: close\r\n\r\n");
		fail = send_all(u, b.buf, b.len, px.timeout) ||
		    (n > hlen &&
			send_all(u, head + hlen, n - hlen, px.timeout));
		uk_buf_release(&b);
		if (fail)
			goto out;
	}
	relay(c, u, tunnel);
out:
	close(u);
}

static void *
conn_main(void *arg)
{
	int c = (int)(intptr_t)arg;

	serve(c);
	close(c);
	pthread_mutex_lock(&px.mu);
	px.nconn--;
	pthread_cond_signal(&px.cv);
	pthread_mutex_unlock(&px.mu);
	return NULL;
}

static void *
accept_main(void *arg)
{
	pthread_attr_t a;
	pthread_t t;
	int c;

	(void)arg;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (;;) {
		pthread_mutex_lock(&px.mu);
		while (px.nconn >= UK_GUARDPROXY_MAX)
			pthread_cond_wait(&px.cv, &px.mu);
		pthread_mutex_unlock(&px.mu);
		c = accept4(px.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (c < 0) {
			if (errno != EINTR && errno != ECONNABORTED) {
				struct timespec ts = { 0, 50000000 };

				nanosleep(&ts, NULL); /* EMFILE: wait */
			}
			continue;
		}
		pthread_mutex_lock(&px.mu);
		px.nconn++;
		pthread_mutex_unlock(&px.mu);
		if (pthread_create(&t, &a, conn_main, (void *)(intptr_t)c)) {
			close(c);
			pthread_mutex_lock(&px.mu);
			px.nconn--;
			pthread_mutex_unlock(&px.mu);
		}
	}
	return NULL;
}

int
uk_guardproxy_start(const struct uk_netguard *g, double timeout, int *port,
    struct uk_err *err)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	sigset_t all, old;
	pthread_attr_t a;
	pthread_t t;
	int fd, r;

	if (px.started) {
		*port = px.port;
		return 0;
	}
	px.g = *g;
	px.timeout = timeout > 0 ? timeout : 30;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, 128) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len)) {
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot start the guard's proxy: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	px.lfd = fd;
	/* Signals are for the main thread: the proxy's threads block them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&t, &a, accept_main, NULL);
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r) {
		close(fd);
		px.lfd = -1;
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot start the guard's proxy: %s", strerror(r));
	}
	px.started = 1;
	px.port = ntohs(sin.sin_port);
	*port = px.port;
	return 0;
}
