/* SPDX-License-Identifier: MIT */
/*
 * toolack: frontend-executed tools: a pending registry and its clients.
 * serve, ack and wait are here; call is in toolack_call.c, exec in
 * toolack_exec.c, and their HTTP client in toolack_client.c.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "json.h"
#include "toolack.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "toolack_server.h"
#include "util.h"

#include "banned.h"

static const char usage_text[] =
    "usage: toolack serve [-l address] [-f token-file] [-b heartbeat] "
    "[-T timeout]\n"
    "       toolack call [-nquV] [-j jobs] [-t tool] [-T timeout] "
    "[-U url] [file ...]\n"
    "       toolack ack [-e text] [-o json] [-r time] [-U url] "
    "-s status id\n"
    "       toolack exec [-H tool=command] [-i idle] [-j jobs] "
    "[-T timeout] [-U url]\n"
    "                    [-x executor]\n"
    "       toolack wait [-T timeout] [-U url] id ...\n";

void
usage(int code)
{
	fputs(usage_text, code ? stderr : stdout);
	exit(code);
}

volatile sig_atomic_t stopping;

void
on_signal(int sig)
{
	stopping = sig;
}

/* serve */

static void
serve_ready(void *ctx, const char *url)
{
	const char *tok = ctx;

	printf("%s\n", url);
	if (fflush(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
	if (isatty(2))
		uk_warn("frontend at %s/?token=%s", url, tok);
	else
		uk_warn("listening on %s", url);
}

static int
cmd_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 'f' },
		{ "heartbeat", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct uk_toolack_server_opts o;
	struct uk_buf token = UK_BUF_INIT;
	struct uk_err err;
	const char *listen = getenv("TOOLACK_URL"), *file = NULL;
	char host[64];
	double d;
	long t;
	int c, port, sfd;
	sigset_t set;

	memset(&o, 0, sizeof(o));
	if (!listen)
		listen = UK_TOOLACK_PROTO_URL;
	while (
	    (c = getopt_long(argc, argv, "l:f:b:T:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			listen = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'b':
			if (uk_parse_seconds(optarg, &d) || d < 0.01 ||
			    d > 3600) {
				uk_warn("-b: not a duration: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			o.heartbeat_ms = (long)(d * 1000);
			break;
		case 'T':
			if (uk_parse_long(optarg, 1,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &t)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			o.default_timeout = t;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc)
		usage(UK_EXIT_USAGE);
	if (uk_toolack_proto_addr_parse(listen, host, sizeof(host), &port,
		&err)) {
		uk_warn("%s", err.msg);
		usage(UK_EXIT_USAGE);
	}
	if (uk_toolack_proto_token_serve(NULL, file, &token, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		uk_die(UK_EXIT_FATAL, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	o.host = host;
	o.port = port;
	o.token = token.buf;
	o.ready = serve_ready;
	o.ctx = token.buf;
	if (uk_toolack_server_run(&o, sfd, &err))
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	close(sfd);
	uk_buf_release(&token);
	return UK_EXIT_OK;
}

/* ack */

static int
cmd_ack(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "error", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "requested-at", required_argument, NULL, 'r' },
		{ "status", required_argument, NULL, 's' },
		{ "url", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *status = NULL, *etext = NULL, *at = NULL;
	yajl_val output = NULL;
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	char ts[40], msg[600];
	long code;
	int c;

	while ((c = getopt_long(argc, argv, "e:o:r:s:U:h", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'e':
			etext = optarg;
			break;
		case 'o':
			uk_json_free(output);
			if (!(output = uk_json_parse(optarg, strlen(optarg),
				  &err))) {
				uk_warn("-o: %s", err.msg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'r':
			at = optarg;
			break;
		case 's':
			status = optarg;
			break;
		case 'U':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind != argc - 1 || !status) {
		uk_json_free(output);
		usage(UK_EXIT_USAGE);
	}
	if (!uk_toolack_registry_status_ok(status)) {
		uk_warn("-s: status must be success, failed or timeout");
		uk_json_free(output);
		usage(UK_EXIT_USAGE);
	}
	client_setup(url);
	if (!at) {
		uk_time_rfc3339(ts, sizeof(ts));
		at = ts;
	}
	uk_toolack_proto_ack(&b, argv[optind], status, output, etext, at);
	uk_json_free(output);
	code =
	    client_request(NULL, "/api/tools/ack", b.buf, 10000, &resp, &err);
	uk_buf_release(&b);
	if (code < 0)
		uk_die(UK_EXIT_FATAL, "%s", err.msg);
	fwrite(resp.buf, 1, resp.len, stdout);
	if (code != 200) {
		client_reason(&resp, code, msg, sizeof(msg));
		uk_warn("'%s': %s", argv[optind], msg);
		uk_status_set(code == 400 ? UK_EXIT_USAGE : UK_EXIT_FAIL);
	}
	uk_buf_release(&resp);
	client_release();
	if (fflush(stdout))
		uk_die(UK_EXIT_FATAL, "cannot write to standard output");
	return uk_status;
}

/* wait */

static int
cmd_wait(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "timeout", required_argument, NULL, 'T' },
		{ "url", required_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL;
	struct uk_buf path = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	long timeout = UK_TOOLACK_PROTO_MAX_TIMEOUT, code, chunk;
	long long until;
	char msg[600], *esc;
	yajl_val v;
	const char *st;
	int c, i;

	while ((c = getopt_long(argc, argv, "T:U:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'T':
			if (uk_parse_long(optarg, 0,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &timeout)) {
				uk_warn("-T: not a timeout: '%s'", optarg);
				usage(UK_EXIT_USAGE);
			}
			break;
		case 'U':
			url = optarg;
			break;
		case 'h':
			usage(UK_EXIT_OK);
			break;
		default:
			usage(UK_EXIT_USAGE);
		}
	}
	if (optind == argc)
		usage(UK_EXIT_USAGE);
	client_setup(url);
	for (i = optind; i < argc; i++) {
		until = uk_mono_ms() + timeout * 1000LL;
		for (;;) {
			chunk = (long)((until - uk_mono_ms()) / 1000);
			if (chunk > 30)
				chunk = 30;
			if (chunk < 0)
				chunk = 0;
			esc = curl_easy_escape(NULL, argv[i], 0);
			uk_buf_reset(&path);
			uk_buf_addf(&path, "/api/tools/result/%s?timeout=%ld",
			    esc, chunk);
			curl_free(esc);
			uk_buf_reset(&resp);
			code = client_request(NULL, path.buf, NULL,
			    (chunk + 10) * 1000, &resp, &err);
			if (code < 0)
				uk_die(UK_EXIT_FATAL, "%s", err.msg);
			if (code != 202 || uk_mono_ms() >= until ||
			    stopping)
				break;
		}
		if (code == 200 &&
		    (v = uk_json_parse(resp.buf, resp.len, NULL))) {
			st = uk_json_get_str(v, "status");
			if (!st || strcmp(st, "success"))
				uk_status_set(UK_EXIT_FAIL);
			uk_json_free(v);
			fwrite(resp.buf, 1, resp.len, stdout);
		} else if (code == 202) {
			fwrite(resp.buf, 1, resp.len, stdout);
			uk_warn("'%s': still pending", argv[i]);
			uk_status_set(UK_EXIT_FAIL);
		} else {
			client_reason(&resp, code, msg, sizeof(msg));
			uk_warn("'%s': %s", argv[i], msg);
			uk_status_set(UK_EXIT_FAIL);
		}
		if (fflush(stdout))
			uk_die(UK_EXIT_FATAL,
			    "cannot write to standard output");
	}
	uk_buf_release(&path);
	uk_buf_release(&resp);
	client_release();
	return uk_status;
}

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
	{ "serve", cmd_serve },
	{ "call", cmd_call },
	{ "ack", cmd_ack },
	{ "exec", cmd_exec },
	{ "wait", cmd_wait },
};

int
main(int argc, char **argv)
{
	size_t i;

	uk_prog_set(argv[0]);
	if (argc < 2)
		usage(UK_EXIT_USAGE);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(UK_EXIT_OK);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("toolack %s\n", UK_VERSION);
		return UK_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			optind = 1;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	uk_warn("unknown command '%s'", argv[1]);
	usage(UK_EXIT_USAGE);
}
