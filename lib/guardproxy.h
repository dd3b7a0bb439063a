/* SPDX-License-Identifier: MIT */
#ifndef UK_GUARDPROXY_H
#define UK_GUARDPROXY_H

/*
 * A small forward HTTP proxy on loopback that connects only where the
 * private-address guard (lib/netguard) allows: pwfetch points the browser
 * it launches at it, so every request of every target (the page, its
 * frames in other processes, dedicated, shared and service workers,
 * WebSockets, beacons) passes one check, made on the address the
 * connection actually goes to, after DNS.
 *
 * It speaks what Chromium sends a proxy: CONNECT host:port (HTTPS, and
 * WebSockets, ws: and wss: alike, which Chromium always tunnels), and
 * absolute-form requests for plain http: URLs, which it sends on with
 * "Connection: close" (one request a connection: the next may be for
 * another host).  A host is judged on every address it resolves to: one
 * refused address refuses it, as uk_netguard_host_allowed does.  A refused
 * request is answered "403 Forbidden" with the header
 * "X-Urlkit-Refused: ADDRESS" and nothing is sent to the host; a host that
 * does not resolve or answer gets "502 Bad Gateway" with the header
 * "X-Urlkit-Error: net::ERR_..." (Chromium's name for what happened).
 *
 * One proxy a process: connections are served on threads of their own
 * (at most UK_GUARDPROXY_MAX at once; more wait to be accepted), which
 * end with their connection or with the process.
 */

#include "netguard.h"
#include "util.h"

#define UK_GUARDPROXY_MAX 128

/*
 * Start the proxy with guard g (copied), listening on 127.0.0.1 on a free
 * port, written into *port.  timeout bounds the look-up's connection and
 * each wait for a byte of the request head (seconds).  0, or -1 with err.
 * Starting it again returns the port of the one running.
 */
int uk_guardproxy_start(const struct uk_netguard *g, double timeout, int *port,
    struct uk_err *err);

/*
 * What the proxy last said of host (a name or an address, IPv6 with or
 * without brackets): 2 when it refused it, buf the address refused; 1
 * when it could not reach it, buf the error as Chromium names it
 * ("net::ERR_NAME_NOT_RESOLVED", "net::ERR_CONNECTION_REFUSED", ...); 0
 * when it has not failed for it.  For the error record of a page whose
 * browser only says "net::ERR_TUNNEL_CONNECTION_FAILED".
 */
int uk_guardproxy_error(const char *host, char *buf, size_t size);

#endif
