/* SPDX-License-Identifier: MIT */
#ifndef UK_NETGUARD_H
#define UK_NETGUARD_H

/*
 * The guard against server-side request forgery: by default no connection
 * to loopback, private (RFC 1918, RFC 4193), link-local, CGNAT, multicast,
 * unspecified or reserved addresses.  It is checked on the address a
 * socket actually connects to (curl's open-socket callback, after DNS), so
 * a name that resolves to 127.0.0.1 is refused like 127.0.0.1 itself.
 * When a proxy is in use the address checked is the proxy's; a proxy the
 * user configured is trusted, and the check is skipped for a connection
 * to its address and port, and only for that: a host that no_proxy sends
 * to directly is checked as if there were no proxy.  Through the proxy,
 * each request's URL (redirects too) is checked before it is sent: a
 * numeric host as if connected to, localhost names refused; other names
 * are left to the proxy.
 *
 * An IPv6 address that carries an IPv4 address is judged by that IPv4
 * address: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64 (64:ff9b::/96) and 6to4 (2002::/16); local-use NAT64
 * (64:ff9b:1::/48) is refused.
 *
 * URLKIT_ALLOW_PRIVATE=1 in the environment, or allow set by an option,
 * turns the guard off (the tests need loopback).  URLKIT_ALLOW_PRIVATE set
 * to a list of addresses and CIDR blocks (comma or space separated, such
 * as "127.0.0.1", "127.0.0.1,::1" or "10.0.0.0/8") lets those through and
 * keeps refusing every other one: a local mirror or model server, and no
 * other private host.  Unset, empty or "0" keeps the guard on; any other
 * value ("false", "localhost", "127.0.0.1:8080", a list with one bad item)
 * is a usage error.
 */

#include <stddef.h>
#include <sys/socket.h>

#include "strset.h"
#include "util.h"

struct uk_netguard {
	int allow_private; /* 1: no check */
	const char *allow; /* addresses let through anyway, or NULL */
	int refused;       /* set when a connection was refused */
	char addr[64];     /* the address refused, for the error message */
	void *curl;        /* the handle it is installed on */
};

/*
 * Fill g from URLKIT_ALLOW_PRIVATE, the one parser of it: allow_private
 * for "1", allow for a list of addresses and CIDR blocks, neither when it
 * is unset, "" or "0".  Any other value is a usage error that ends the
 * program (exit UK_EXIT_USAGE, the message on stderr), so every program
 * refuses it the same way.
 */
void uk_netguard_init(struct uk_netguard *g);

/*
 * Whether sa is an address the guard allows (1) or refuses (0).  Writes
 * its text form into buf (size >= 64) when buf is not NULL.
 */
int uk_netguard_allowed(const struct sockaddr *sa, char *buf, size_t size);

/*
 * Whether the guard g lets a connection to sa through: allow_private, an
 * address in g->allow, or uk_netguard_allowed.  Writes sa's text form
 * into buf as uk_netguard_allowed does.
 */
int uk_netguard_check(const struct uk_netguard *g, const struct sockaddr *sa,
    char *buf, size_t size);

/*
 * Install the guard on a curl easy handle (a CURL *, passed as void * so
 * that this header does not pull in curl.h).  g must outlive the transfer;
 * after a failed transfer, g->refused says whether the guard caused it.
 */
void uk_netguard_install(void *curl, struct uk_netguard *g);

/*
 * Whether the numeric address ip ("203.0.113.7", "::1", "[::1]") is
 * allowed (1) or refused (0); -1 when it is not a numeric address.  For
 * the address a browser reports it connected to.  Addresses listed in
 * URLKIT_ALLOW_PRIVATE are allowed, here and in uk_netguard_host_allowed.
 */
int uk_netguard_ip_allowed(const char *ip);

/*
 * Whether every address host resolves to is allowed (1), one is refused
 * (0, its text in buf), or host does not resolve (-1).  host may be a
 * numeric address, IPv6 in brackets or not.  getaddrinfo blocks for at
 * most the resolver's timeout.
 */
int uk_netguard_host_allowed(const char *host, char *buf, size_t size);

/* Whether a proxy is set in the environment (then the guard trusts it). */
int uk_netguard_proxied(void);

/*
 * Verdicts on host names for an event loop that must not block (pwfetch):
 * getaddrinfo blocks for as long as the resolver's timeouts when DNS is
 * slow or gone, so each name is looked up on a thread of its own, at most
 * UK_NETGUARD_LOOKUPS at once (other names queue), and the thread writes
 * its verdict to a pipe the loop polls.  Verdicts are kept per host for
 * the life of the struct.
 *
 * Usage:
 *
 *	struct uk_netguard_async a;
 *
 *	uk_netguard_async_init(&a);
 *	switch (uk_netguard_async_verdict(&a, host)) {
 *	case 1: let it through; case 0: refuse it;
 *	case -1: uk_netguard_async_wait(&a, host, cookie);
 *	}
 *	... poll uk_netguard_async_fd(&a) (when >= 0) for reading, then
 *	while (uk_netguard_async_read(&a, answer, ctx)) ;
 *	uk_netguard_async_release(&a, free);
 *
 * answer(ctx, cookie, ok, addr) is called once per cookie waiting on the
 * host, with ok 1 (allowed, or the name does not resolve: the browser
 * says so) or 0 (addr: the address refused, or the host).  Cookies are the
 * caller's; the struct only hands them back.
 */
#define UK_NETGUARD_LOOKUPS 8

struct uk_netguard_waiter; /* a cookie waiting for a host (private) */

struct uk_netguard_async {
	struct uk_strset ok, refused; /* the verdicts so far, by host */
	struct uk_netguard_waiter *w; /* the cookies waiting */
	size_t nw, aw;
	int pipe[2]; /* threads write, the loop reads */
	int running; /* look-up threads running */
};

void uk_netguard_async_init(struct uk_netguard_async *a);
/*
 * Free the verdicts and the waiting list, each cookie still waiting given
 * to free_cookie (when not NULL).  The pipe stays open while a thread may
 * still write to it.
 */
void uk_netguard_async_release(struct uk_netguard_async *a,
    void (*free_cookie)(void *));
/*
 * host's verdict as far as it is known: 1 allowed, 0 refused, -1 not
 * known yet (then uk_netguard_async_wait).  A numeric address is judged
 * at once by uk_netguard_ip_allowed; a name longer than any DNS name is
 * refused.
 */
int uk_netguard_async_verdict(struct uk_netguard_async *a, const char *host);
/* Queue cookie until host's verdict, starting its look-up if need be. */
void uk_netguard_async_wait(struct uk_netguard_async *a, const char *host,
    void *cookie);
/* The descriptor to poll for reading, or -1 when no look-up runs. */
int uk_netguard_async_fd(const struct uk_netguard_async *a);

typedef void uk_netguard_answer_fn(void *ctx, void *cookie, int ok,
    const char *addr);
/*
 * Take one verdict from the pipe, if one is there, and call answer for
 * every cookie waiting on its host; then start queued look-ups.  1 when
 * a verdict was taken, 0 when none was waiting.
 */
int uk_netguard_async_read(struct uk_netguard_async *a,
    uk_netguard_answer_fn *answer, void *ctx);

#endif
