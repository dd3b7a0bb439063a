/* SPDX-License-Identifier: MIT */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "netguard.h"
#include "util.h"
#include "banned.h"

#define SEPS ", \t"
#define ENV "URLKIT_ALLOW_PRIVATE"

/* One item of an allow list: an address, or a block in CIDR form. */
struct net {
	int af;
	unsigned char a[16];
	unsigned bits;
};

static const unsigned char v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xff, 0xff };

/* Parse s[0..n) as "ADDRESS" or "ADDRESS/BITS"; -1 when it is neither. */
static int
parse_net(const char *s, size_t n, struct net *out)
{
	char item[64], *slash;
	long bits, max;

	if (!n || n >= sizeof(item))
		return -1;
	memcpy(item, s, n);
	item[n] = '\0';
	if ((slash = strchr(item, '/')))
		*slash++ = '\0';
	out->af = strchr(item, ':') ? AF_INET6 : AF_INET;
	/* inet_pton, not inet_aton: only the dotted quad, no 0x7f.1. */
	if (inet_pton(out->af, item, out->a) != 1)
		return -1;
	max = out->af == AF_INET ? 32 : 128;
	if (!slash)
		bits = max;
	else if (!*slash || *slash < '0' || *slash > '9' ||
	    uk_util_parse_long(slash, 0, max, &bits))
		return -1;
	out->bits = (unsigned)bits;
	if (out->af == AF_INET6 && out->bits >= 96 &&
	    !memcmp(out->a, v4mapped, 12)) {
		/* ::ffff:127.0.0.1 is 127.0.0.1, as a socket sees it. */
		memmove(out->a, out->a + 12, 4);
		out->af = AF_INET;
		out->bits -= 96;
	}
	return 0;
}

/* Whether the address af/a (4 or 16 bytes) is inside the block net. */
static int
net_has(const struct net *net, int af, const unsigned char *a)
{
	unsigned full = net->bits / 8, rest = net->bits % 8;

	if (af != net->af)
		return 0;
	if (memcmp(a, net->a, full))
		return 0;
	return !rest ||
	    !((a[full] ^ net->a[full]) & (unsigned char)(0xff << (8 - rest)));
}

/*
 * Check the list: 0 when every item is an address or a block, else -1
 * with *bad and *badlen set to the first item that is not (or to the
 * empty list).
 */
static int
list_check(const char *list, const char **bad, size_t *badlen)
{
	struct net net;
	size_t n;
	int items = 0;

	for (list += strspn(list, SEPS); *list; list += strspn(list, SEPS)) {
		n = strcspn(list, SEPS);
		if (parse_net(list, n, &net)) {
			*bad = list;
			*badlen = n;
			return -1;
		}
		list += n;
		items++;
	}
	if (!items) {
		*bad = list;
		*badlen = 0;
		return -1;
	}
	return 0;
}

/* Whether the address sa is inside a block of the (checked) list. */
static int
list_has(const char *list, const struct sockaddr *sa)
{
	const unsigned char *a;
	struct net net;
	size_t n;
	int af = sa->sa_family;

	if (af == AF_INET) {
		a = (const unsigned char *)&((const struct sockaddr_in *)sa)
			->sin_addr;
	} else if (af == AF_INET6) {
		a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		if (!memcmp(a, v4mapped, 12)) {
			a += 12;
			af = AF_INET;
		}
	} else
		return 0;
	for (list += strspn(list, SEPS); *list; list += strspn(list, SEPS)) {
		n = strcspn(list, SEPS);
		if (!parse_net(list, n, &net) && net_has(&net, af, a))
			return 1;
		list += n;
	}
	return 0;
}

/*
 * The one parser of URLKIT_ALLOW_PRIVATE: fill g from value (NULL for
 * unset): allow_private for "1", allow for a list of addresses and CIDR
 * blocks (it points into value), neither for NULL, "" or "0".  Any other
 * value: -1 with err (code UK_EXIT_USAGE, the value named).
 */
static int
parse_env(struct uk_netguard *g, const char *value,
    struct uk_err *err)
{
	const char *bad;
	size_t n;

	memset(g, 0, sizeof(*g));
	if (!value || !*value || !strcmp(value, "0"))
		return 0;
	if (!strcmp(value, "1")) {
		g->allow_private = 1;
		return 0;
	}
	if (!list_check(value, &bad, &n)) {
		g->allow = value;
		return 0;
	}
	if (n && n != strlen(value))
		return uk_util_err_set(err, UK_EXIT_USAGE,
		    ENV "='%s': '%.*s' is not an address or a CIDR block",
		    value, (int)n, bad);
	return uk_util_err_set(err, UK_EXIT_USAGE,
	    ENV "='%s': not 0, 1, or a list of addresses and CIDR blocks",
	    value);
}

void
uk_netguard_init(struct uk_netguard *g)
{
	struct uk_err err;

	/*
	 * A value that means nothing must not leave the guard in some state
	 * nobody asked for: it stops the program, as a bad option does.
	 * Every program sets its guard up before it reads input.
	 */
	if (parse_env(g, getenv(ENV), &err))
		uk_util_die(UK_EXIT_USAGE, "%s", err.msg);
}

static int
v4_allowed(unsigned long a)
{
	unsigned long b1 = a >> 24, b2 = (a >> 16) & 0xff;

	if (b1 == 0 || b1 == 10 || b1 == 127)
		return 0; /* this network, private, loopback */
	if (b1 == 100 && (b2 & 0xc0) == 64)
		return 0; /* CGNAT 100.64/10 */
	if (b1 == 169 && b2 == 254)
		return 0; /* link-local */
	if (b1 == 172 && (b2 & 0xf0) == 16)
		return 0; /* 172.16/12 */
	if (b1 == 192 && b2 == 168)
		return 0;
	if (b1 == 192 && b2 == 0 && ((a >> 8) & 0xff) == 0)
		return 0; /* IETF protocol assignments */
	if (b1 == 198 && (b2 & 0xfe) == 18)
		return 0; /* benchmarking 198.18/15 */
	if (b1 >= 224)
		return 0; /* multicast, reserved, broadcast */
	return 1;
}

/* The IPv4 address in the 4 bytes at b, as a number. */
static unsigned long
v4_at(const unsigned char *b)
{
	return (unsigned long)b[0] << 24 | (unsigned long)b[1] << 16 |
	    (unsigned long)b[2] << 8 | b[3];
}

int
uk_netguard_allowed(const struct sockaddr *sa, char *buf, size_t size)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		if (buf)
			inet_ntop(AF_INET, &in->sin_addr, buf, (socklen_t)size);
		return v4_allowed(ntohl(in->sin_addr.s_addr));
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 =
		    (const struct sockaddr_in6 *)sa;
		const unsigned char *b = in6->sin6_addr.s6_addr;
		static const unsigned char nat64[12] = { 0, 0x64, 0xff, 0x9b,
			0, 0, 0, 0, 0, 0, 0, 0 };

		if (buf)
			inet_ntop(AF_INET6, &in6->sin6_addr, buf,
			    (socklen_t)size);
		/*
		 * Forms that carry an IPv4 address reach that address (mapped
		 * on this host, NAT64 through a translator, 6to4 through a
		 * relay): judged by it.  IPv4-compatible ::a.b.c.d (deprecated)
		 * too; :: and ::1 are in that block and refused below or by
		 * their IPv4 (0.0.0.0/8).
		 */
		if (!memcmp(b, v4mapped, 12) || !memcmp(b, nat64, 12) ||
		    (!memcmp(b, v4mapped, 10) && !b[10] && !b[11]))
			return v4_allowed(v4_at(b + 12));
		if (b[0] == 0x20 && b[1] == 0x02)
			return v4_allowed(v4_at(b + 2)); /* 6to4 2002::/16 */
		if (!memcmp(b, nat64, 4) && !b[4] && b[5] == 1)
			return 0; /* local-use NAT64 64:ff9b:1::/48 */
		if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr) ||
		    IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) ||
		    IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr) ||
		    IN6_IS_ADDR_SITELOCAL(&in6->sin6_addr) ||
		    IN6_IS_ADDR_MULTICAST(&in6->sin6_addr))
			return 0;
		if ((b[0] & 0xfe) == 0xfc)
			return 0; /* unique local fc00::/7 */
		if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d &&
		    b[3] == 0xb8)
			return 0; /* documentation 2001:db8::/32 */
		return 1;
	}
	if (buf)
		snprintf(buf, size, "address family %d", sa->sa_family);
	return 0;
}

int
uk_netguard_check(const struct uk_netguard *g, const struct sockaddr *sa,
    char *buf, size_t size)
{
	char tmp[64];

	if (!buf) {
		buf = tmp;
		size = sizeof(tmp);
	}
	if (uk_netguard_allowed(sa, buf, size) || g->allow_private)
		return 1;
	return g->allow && list_has(g->allow, sa);
}

/*
 * The proxies the environment names, resolved once: the addresses and
 * ports a connection to a proxy goes to.
 */
#define MAX_PROXY_ADDRS 32
static struct sockaddr_storage proxy_addrs[MAX_PROXY_ADDRS];
static size_t nproxy_addrs;
static pthread_once_t proxy_once = PTHREAD_ONCE_INIT;

static void
resolve_proxies(void)
{
	static const char *const vars[] = { "https_proxy", "HTTPS_PROXY",
		"http_proxy", "ALL_PROXY", "all_proxy" };
	struct addrinfo hints, *res, *a;
	char *host = NULL, *port = NULL;
	const char *v;
	CURLU *u;
	size_t i;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (!(v = getenv(vars[i])) || !*v || !(u = curl_url()))
			continue;
		if (curl_url_set(u, CURLUPART_URL, v,
			CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME) ==
			CURLUE_OK &&
		    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
			/* curl's default proxy port is 1080. */
			if (curl_url_get(u, CURLUPART_PORT, &port, 0) !=
			    CURLUE_OK)
				port = NULL;
			if (host[0] == '[') {
				memmove(host, host + 1, strlen(host));
				host[strcspn(host, "]")] = '\0';
			}
			if (!getaddrinfo(host, port ? port : "1080", &hints,
				&res)) {
				for (a = res;
				     a && nproxy_addrs < MAX_PROXY_ADDRS;
				     a = a->ai_next)
					if (a->ai_addrlen <=
					    sizeof(proxy_addrs[0]))
						memcpy(&proxy_addrs
							   [nproxy_addrs++],
						    a->ai_addr, a->ai_addrlen);
				freeaddrinfo(res);
			}
		}
		curl_free(host);
		curl_free(port);
		host = port = NULL;
		curl_url_cleanup(u);
	}
}

/* Whether sa is the address and port of a proxy of the environment. */
static int
is_proxy(const struct sockaddr *sa)
{
	size_t i;

	pthread_once(&proxy_once, resolve_proxies);
	for (i = 0; i < nproxy_addrs; i++) {
		const struct sockaddr *p =
		    (const struct sockaddr *)&proxy_addrs[i];

		if (p->sa_family != sa->sa_family)
			continue;
		if (sa->sa_family == AF_INET) {
			const struct sockaddr_in *x = (const void *)p,
						 *y = (const void *)sa;

			if (x->sin_port == y->sin_port &&
			    x->sin_addr.s_addr == y->sin_addr.s_addr)
				return 1;
		} else if (sa->sa_family == AF_INET6) {
			const struct sockaddr_in6 *x = (const void *)p,
						  *y = (const void *)sa;

			if (x->sin6_port == y->sin6_port &&
			    !memcmp(&x->sin6_addr, &y->sin6_addr,
				sizeof(x->sin6_addr)))
				return 1;
		}
	}
	return 0;
}

static curl_socket_t
opensocket(void *clientp, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct uk_netguard *g = clientp;

	if (purpose == CURLSOCKTYPE_IPCXN &&
	    !uk_netguard_check(g, &a->addr, g->addr, sizeof(g->addr)) &&
	    !(uk_netguard_proxied() && is_proxy(&a->addr))) {
		g->refused = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype, a->protocol);
}

/* ip without the brackets of an IPv6 literal, into buf; NULL if too long. */
static const char *
unbracket(const char *ip, char *buf, size_t size)
{
	size_t n = strlen(ip);

	if (n >= 2 && ip[0] == '[' && ip[n - 1] == ']') {
		if (n - 2 >= size)
			return NULL;
		memcpy(buf, ip + 1, n - 2);
		buf[n - 2] = '\0';
		return buf;
	}
	return ip;
}

/*
 * Through a proxy the socket goes to the proxy, which connects to the
 * URL's host itself: the guard cannot see that address.  What it can see
 * is the URL of every request, redirects included, just before it is
 * sent: a numeric host is judged like a connection to it, and localhost
 * names (which always mean loopback) are refused.  Other names are the
 * proxy's to resolve; it is the user's, and its policy decides.
 */
static int
prereq(void *clientp, char *primary_ip, char *local_ip, int primary_port,
    int local_port)
{
	struct uk_netguard *g = clientp;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	const struct sockaddr *sa = NULL;
	char *url = NULL, *host = NULL, b[256];
	const char *h;
	CURLU *u;
	size_t n;
	int ok = 1;

	(void)primary_ip;
	(void)local_ip;
	(void)primary_port;
	(void)local_port;
	if (g->allow_private || !g->curl ||
	    curl_easy_getinfo(g->curl, CURLINFO_EFFECTIVE_URL, &url) !=
		CURLE_OK ||
	    !url || !(u = curl_url()))
		return CURL_PREREQFUNC_OK;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		h = unbracket(host, b, sizeof(b));
		if (h && h != b && strlen(h) < sizeof(b)) {
			/* "127.0.0.1." and "0x7f000001." are numeric too: the
			 * trailing dot off, any form inet_aton reads (the
			 * forms a resolver takes: 0x7f.1, 2130706433). */
			memmove(b, h, strlen(h) + 1);
			h = b;
			for (n = strlen(b); n > 1 && b[n - 1] == '.'; n--)
				b[n - 1] = '\0';
		}
		memset(&in, 0, sizeof(in));
		memset(&in6, 0, sizeof(in6));
		if (h && (inet_pton(AF_INET, h, &in.sin_addr) == 1 ||
			(!strchr(h, ':') && inet_aton(h, &in.sin_addr)))) {
			in.sin_family = AF_INET;
			sa = (const struct sockaddr *)&in;
		} else if (h && inet_pton(AF_INET6, h, &in6.sin6_addr) == 1) {
			in6.sin6_family = AF_INET6;
			sa = (const struct sockaddr *)&in6;
		}
		if (sa) {
			ok = uk_netguard_check(g, sa, g->addr, sizeof(g->addr));
		} else if (h) {
			n = strlen(h);
			while (n > 0 && h[n - 1] == '.')
				n--; /* "localhost." is localhost too */
			if ((n == 9 && !strncasecmp(h, "localhost", 9)) ||
			    (n > 10 &&
				!strncasecmp(h + n - 10, ".localhost", 10))) {
				ok = 0;
				snprintf(g->addr, sizeof(g->addr), "%.*s",
				    (int)(n < 60 ? n : 60), h);
			}
		}
	}
	curl_free(host);
	curl_url_cleanup(u);
	if (ok)
		return CURL_PREREQFUNC_OK;
	g->refused = 1;
	return CURL_PREREQFUNC_ABORT;
}

int
uk_netguard_proxied(void)
{
	const char *proxy = NULL;

	if ((proxy = getenv("https_proxy")) || (proxy = getenv("HTTPS_PROXY")) ||
	    (proxy = getenv("http_proxy")) || (proxy = getenv("ALL_PROXY")) ||
	    (proxy = getenv("all_proxy")))
		return *proxy != '\0';
	return 0;
}

void
uk_netguard_install(void *curl, struct uk_netguard *g)
{
	CURL *h = curl;

	/* With a proxy from the environment, a socket to the proxy is let
	 * through (the user chose it); one that goes elsewhere, to a host
	 * in no_proxy, is judged like any other. */
	curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, opensocket);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, g);
	g->curl = h;
	if (uk_netguard_proxied()) {
		curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, prereq);
		curl_easy_setopt(h, CURLOPT_PREREQDATA, g);
	}
}

/* The guard of the environment's verdict on sa (see uk_netguard_check). */
static int
env_allows(const struct sockaddr *sa, char *buf, size_t size)
{
	struct uk_netguard g;

	uk_netguard_init(&g);
	g.allow_private = 0; /* the callers decide on that themselves */
	return uk_netguard_check(&g, sa, buf, size);
}

int
uk_netguard_ip_allowed(const char *ip)
{
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	char b[64];

	if (!(ip = unbracket(ip, b, sizeof(b))))
		return -1;
	memset(&in, 0, sizeof(in));
	memset(&in6, 0, sizeof(in6));
	if (inet_pton(AF_INET, ip, &in.sin_addr) == 1) {
		in.sin_family = AF_INET;
		return env_allows((struct sockaddr *)&in, NULL, 0);
	}
	if (inet_pton(AF_INET6, ip, &in6.sin6_addr) == 1) {
		in6.sin6_family = AF_INET6;
		return env_allows((struct sockaddr *)&in6, NULL, 0);
	}
	return -1;
}

int
uk_netguard_host_allowed(const char *host, char *buf, size_t size)
{
	struct addrinfo hints, *res, *a;
	char b[256];
	int ok = 1;

	if (!(host = unbracket(host, b, sizeof(b))))
		return -1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &res))
		return -1;
	for (a = res; a && ok; a = a->ai_next)
		ok = env_allows(a->ai_addr, buf, size);
	freeaddrinfo(res);
	return ok;
}

struct uk_netguard_waiter {
	char *host;
	void *cookie;
	int started; /* its host's look-up is running */
};

/* What a look-up thread writes: one write under PIPE_BUF, whole or not. */
struct verdict_msg {
	int ok;
	char addr[64];
	char host[256];
	int fd; /* where to write it */
};

void
uk_netguard_async_init(struct uk_netguard_async *a)
{
	memset(a, 0, sizeof(*a));
	a->pipe[0] = a->pipe[1] = -1;
}

void
uk_netguard_async_release(struct uk_netguard_async *a,
    void (*free_cookie)(void *))
{
	size_t i;

	for (i = 0; i < a->nw; i++) {
		free(a->w[i].host);
		if (free_cookie)
			free_cookie(a->w[i].cookie);
	}
	free(a->w);
	a->w = NULL;
	a->nw = a->aw = 0;
	uk_strset_release(&a->ok);
	uk_strset_release(&a->refused);
	if (!a->running && a->pipe[0] >= 0) {
		close(a->pipe[0]);
		close(a->pipe[1]);
		a->pipe[0] = a->pipe[1] = -1;
	}
}

int
uk_netguard_async_verdict(struct uk_netguard_async *a, const char *host)
{
	size_t n = strlen(host);
	int ok;

	if (uk_strset_has(&a->refused, host, n))
		return 0;
	if (uk_strset_has(&a->ok, host, n))
		return 1;
	/* A numeric address needs no look-up. */
	if ((ok = uk_netguard_ip_allowed(host)) >= 0)
		return ok;
	if (n >= sizeof(((struct verdict_msg *)0)->host))
		return 0; /* no DNS name is that long */
	return -1;
}

static void *
lookup_thread(void *arg)
{
	struct verdict_msg *v = arg;
	ssize_t w;

	v->ok = uk_netguard_host_allowed(v->host, v->addr, sizeof(v->addr));
	do
		w = write(v->fd, v, sizeof(*v));
	while (w < 0 && errno == EINTR);
	free(v);
	return NULL;
}

/* Start the look-up of host on a thread, if one is free. */
static int
lookup_start(struct uk_netguard_async *a, const char *host)
{
	struct verdict_msg *v;
	pthread_attr_t at;
	pthread_t t;

	if (a->running >= UK_NETGUARD_LOOKUPS)
		return 0;
	if (a->pipe[0] < 0) {
		/* The loop's end does not block; the threads' end does. */
		if (pipe2(a->pipe, O_CLOEXEC) < 0 ||
		    fcntl(a->pipe[0], F_SETFL, O_NONBLOCK) < 0)
			uk_util_die(UK_EXIT_FATAL, "pipe: %s", strerror(errno));
	}
	v = uk_util_xcalloc(1, sizeof(*v));
	snprintf(v->host, sizeof(v->host), "%s", host);
	v->fd = a->pipe[1];
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	a->running++;
	if (pthread_create(&t, &at, lookup_thread, v))
		lookup_thread(v); /* no thread to be had: here, then */
	pthread_attr_destroy(&at);
	return 1;
}

void
uk_netguard_async_wait(struct uk_netguard_async *a, const char *host,
    void *cookie)
{
	struct uk_netguard_waiter *w;
	size_t i;
	int running = 0;

	for (i = 0; i < a->nw; i++)
		if (a->w[i].started && !strcmp(a->w[i].host, host))
			running = 1;
	if (a->nw == a->aw) {
		a->aw = a->aw ? 2 * a->aw : 16;
		a->w = uk_util_xrealloc(a->w, a->aw * sizeof(*a->w));
	}
	w = &a->w[a->nw++];
	w->host = uk_util_xstrdup(host);
	w->cookie = cookie;
	w->started = running || lookup_start(a, host);
}

int
uk_netguard_async_fd(const struct uk_netguard_async *a)
{
	return a->running > 0 ? a->pipe[0] : -1;
}

int
uk_netguard_async_read(struct uk_netguard_async *a,
    uk_netguard_answer_fn *answer, void *ctx)
{
	struct uk_netguard_waiter *got;
	struct verdict_msg v;
	size_t i, k, n;
	ssize_t r;

	if (a->running <= 0)
		return 0;
	while ((r = read(a->pipe[0], &v, sizeof(v))) < 0 && errno == EINTR)
		;
	if (r != (ssize_t)sizeof(v))
		return 0;
	a->running--;
	v.host[sizeof(v.host) - 1] = '\0';
	v.addr[sizeof(v.addr) - 1] = '\0';
	v.ok =
	    v.ok != 0; /* a name that does not resolve: the browser says so */
	uk_strset_add(v.ok ? &a->ok : &a->refused, v.host, strlen(v.host));
	/*
	 * Take the host's waiters off the list first, then answer them:
	 * answer may queue new ones (they find the verdict kept).
	 */
	got = uk_util_xmalloc((a->nw ? a->nw : 1) * sizeof(*got));
	for (i = k = n = 0; i < a->nw; i++) {
		if (strcmp(a->w[i].host, v.host))
			a->w[k++] = a->w[i];
		else
			got[n++] = a->w[i];
	}
	a->nw = k;
	for (i = 0; i < n; i++) {
		answer(ctx, got[i].cookie, v.ok, *v.addr ? v.addr : v.host);
		free(got[i].host);
	}
	free(got);
	/* Start the look-ups that had to queue. */
	for (i = 0; i < a->nw && a->running < UK_NETGUARD_LOOKUPS; i++) {
		if (a->w[i].started)
			continue;
		if (!lookup_start(a, a->w[i].host))
			break;
		for (k = i; k < a->nw; k++)
			if (!strcmp(a->w[k].host, a->w[i].host))
				a->w[k].started = 1;
	}
	return 1;
}
