/* SPDX-License-Identifier: MIT */
/*
 * toolack: frontend-executed tools: a pending registry and its clients.
 * serve, ack and wait are here; call is in toolack_call.c, exec in
 * toolack_exec.c, and their HTTP client in toolack_client.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"
#include "cli.h"
#include "json.h"
#include "toolack.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "toolack_server.h"
#include "util.h"

#include "banned.h"

static const struct uk_cli cli = { "toolack",
	"usage: " TA_SYN_SERVE "       " TA_SYN_CALL "       " TA_SYN_ACK
	"       " TA_SYN_EXEC "       " TA_SYN_WAIT,
	"Frontend-executed tools: a registry of pending calls, its callers and "
	"executors.\n"
	"\n"
	"  -h, --help                the synopsis (-h) or this help (--help)\n"
	"  -V, --version             print the version\n"
	"\n"
	"Commands (each has its own --help):\n"
	"  serve   run the registry and its web frontend\n"
	"  call    send tool calls, write their acks in input order\n"
	"  ack     acknowledge one call\n"
	"  exec    run a command for each call of its tools, and ack it\n"
	"  wait    wait for calls' results\n"
	"\n"
	"Examples:\n"
	"  toolack serve                        the registry, its frontend's "
	"URL\n"
	"  toolack exec -H open_url=xdg-open    a frontend without a browser "
	"page\n"
	"  urldetect notes.txt | toolack call --tool open_url    open its URLs\n"
	"\n"
	"See toolack(1).\n" };

void
output_to(const char *path)
{
	/* Records go to stdout with stdio: reopening it keeps one path. */
	if (path && strcmp(path, "-") && !freopen(path, "w", stdout))
		uk_util_die(UK_EXIT_USAGE, "-o: cannot open '%s': %s", path,
		    strerror(errno));
}

volatile sig_atomic_t stopping;

void
on_signal(int sig)
{
	stopping = sig;
}

/* serve */

struct serve_ctx {
	const char *token;
	const char *file; /* the token file, or "" for TOOLACK_TOKEN */
};

/*
 * The address on stdout; on stderr where the token is, and the frontend's
 * address with the token only when stderr is a terminal: a pipe or a log
 * never holds the token.
 */
static void
serve_ready(void *ctx, const char *url)
{
	const struct serve_ctx *sc = ctx;

	printf("%s\n", url);
	if (fflush(stdout))
		uk_util_die(UK_EXIT_FATAL, "cannot write to standard output");
	if (*sc->file)
		uk_util_warn("token file: %s", sc->file);
	else
		uk_util_warn("token: from TOOLACK_TOKEN");
	if (isatty(2))
		uk_util_warn("frontend at %s/?token=%s", url, sc->token);
	else if (*sc->file)
		uk_util_warn(
		    "frontend at %s/?token= followed by the first line "
		    "of %s",
		    url, sc->file);
	else
		uk_util_warn("frontend at %s/?token= followed by TOOLACK_TOKEN",
		    url);
}

static int
cmd_serve(int argc, char **argv)
{
	static const struct uk_cli c = { "toolack serve",
		"usage: " TA_SYN_SERVE,
		"Run the registry of pending tool calls and its web frontend.\n"
		"\n"
		"  -b, --heartbeat=SECONDS   the event stream's heartbeat "
		"(default: 15)\n"
		"  -l, --listen=ADDRESS      where to listen (default: "
		"$TOOLACK_URL, else\n"
		"                            http://127.0.0.1:7077)\n"
		"  -t, --timeout=SECONDS     a call's timeout when it gives none "
		"(default: 60)\n"
		"      --token-file=FILE     the token file (default: "
		"$TOOLACK_TOKEN_FILE)\n"
		"  -h, --help                the synopsis (-h) or this help "
		"(--help)\n"
		"\n"
		"Examples:\n"
		"  toolack serve                        at $TOOLACK_URL, else "
		"127.0.0.1:7077\n"
		"  toolack serve -l 127.0.0.1:7078 -t 300    another, calls of 5 "
		"minutes\n"
		"\n"
		"See toolack(1).\n" };
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, TA_OPT_TOKEN_FILE },
		{ "heartbeat", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct uk_toolack_server_opts o;
	struct uk_buf token = UK_BUF_INIT, path = UK_BUF_INIT;
	struct serve_ctx sc;
	struct uk_err err;
	const char *listen = getenv("TOOLACK_URL"), *file = NULL;
	char host[64];
	double d;
	long t;
	int ch, port, sfd;
	sigset_t set;

	memset(&o, 0, sizeof(o));
	if (!listen)
		listen = UK_TOOLACK_PROTO_URL;
	uk_cli_subcommand("serve");
	while ((ch = uk_cli_getopt(&c, argc, argv, "b:hl:t:", longopts)) !=
	    -1) {
		switch (ch) {
		case 'l':
			listen = optarg;
			break;
		case TA_OPT_TOKEN_FILE:
			file = optarg;
			break;
		case 'b':
			if (uk_util_parse_seconds(optarg, &d) || d < 0.01 ||
			    d > 3600)
				uk_cli_usage(&c, "-b: not a duration: '%s'",
				    optarg);
			o.heartbeat_ms = (long)(d * 1000);
			break;
		case 't':
			if (uk_util_parse_long(optarg, 1,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &t))
				uk_cli_usage(&c, "-t: not a timeout: '%s'",
				    optarg);
			o.default_timeout = t;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	if (optind != argc)
		uk_cli_usage(&c, "unexpected operand '%s'", argv[optind]);
	if (uk_toolack_proto_addr_parse(listen, host, sizeof(host), &port,
		&err))
		uk_cli_usage(&c, "%s", err.msg);
	if (uk_toolack_proto_token_serve(NULL, file, &token, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	uk_toolack_proto_token_path(NULL, file, &path);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		uk_util_die(UK_EXIT_FATAL, "signalfd: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	o.host = host;
	o.port = port;
	o.token = token.buf;
	o.token_file = path.len ? path.buf : NULL;
	sc.token = token.buf;
	sc.file = path.buf;
	o.ready = serve_ready;
	o.ctx = &sc;
	if (uk_toolack_server_run(&o, sfd, &err))
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	close(sfd);
	uk_buf_release(&token);
	uk_buf_release(&path);
	return UK_EXIT_OK;
}

/* ack */

static int
cmd_ack(int argc, char **argv)
{
	static const struct uk_cli c = { "toolack ack", "usage: " TA_SYN_ACK,
		"Acknowledge call ID with its status; write the server's "
		"answer.\n"
		"\n"
		"  -U, --url=URL             the server (default: $TOOLACK_URL, "
		"else\n"
		"                            http://127.0.0.1:7077)\n"
		"      --error=TEXT          what went wrong (failed, timeout)\n"
		"      --requested-at=TIME   the call's requestedAt (default: "
		"now)\n"
		"      --result=JSON         the output object (success)\n"
		"      --status=STATUS       success, failed or timeout "
		"(required)\n"
		"  -h, --help                the synopsis (-h) or this help "
		"(--help)\n"
		"\n"
		"Examples:\n"
		"  toolack ack --status success --result '{\"ok\":true}' later1\n"
		"  toolack ack --status failed --error 'no browser' later2\n"
		"\n"
		"See toolack(1).\n" };
	static const struct option longopts[] = {
		{ "error", required_argument, NULL, TA_OPT_ERROR },
		{ "result", required_argument, NULL, TA_OPT_RESULT },
		{ "requested-at", required_argument, NULL, TA_OPT_REQUESTED_AT },
		{ "status", required_argument, NULL, TA_OPT_STATUS },
		{ "url", required_argument, NULL, 'U' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *status = NULL, *etext = NULL, *at = NULL;
	yajl_val output = NULL;
	struct uk_buf b = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	char ts[40], msg[600];
	long code;
	int ch;

	uk_cli_subcommand("ack");
	while ((ch = uk_cli_getopt(&c, argc, argv, "hU:", longopts)) != -1) {
		switch (ch) {
		case TA_OPT_ERROR:
			etext = optarg;
			break;
		case TA_OPT_RESULT:
			uk_json_free(output);
			if (!(output = uk_json_parse(optarg, strlen(optarg),
				  &err)))
				uk_cli_usage(&c, "--result: %s", err.msg);
			break;
		case TA_OPT_REQUESTED_AT:
			at = optarg;
			break;
		case TA_OPT_STATUS:
			status = optarg;
			break;
		case 'U':
			url = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	if (!status)
		uk_cli_usage(&c, "--status is required");
	if (optind != argc - 1)
		uk_cli_usage(&c, optind == argc ? "no call id given" :
						  "one call id expected");
	if (!uk_toolack_registry_status_ok(status))
		uk_cli_usage(&c,
		    "--status: must be success, failed or timeout: '%s'",
		    status);
	client_setup(url);
	if (!at) {
		uk_util_time_rfc3339(ts, sizeof(ts));
		at = ts;
	}
	uk_toolack_proto_ack(&b, argv[optind], status, output, etext, at);
	uk_json_free(output);
	code =
	    client_request(NULL, "/api/tools/ack", b.buf, 10000, &resp, &err);
	uk_buf_release(&b);
	if (code < 0)
		uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
	fwrite(resp.buf, 1, resp.len, stdout);
	if (code != 200) {
		client_reason(&resp, code, msg, sizeof(msg));
		uk_util_warn("'%s': %s", argv[optind], msg);
		/* A refused token is fatal, as toolack(1) says. */
		if (code == 400)
			uk_util_status_set(UK_EXIT_USAGE);
		else if (code == 401)
			uk_util_status_set(UK_EXIT_FATAL);
		else
			uk_util_status_set(UK_EXIT_FAIL);
	}
	uk_buf_release(&resp);
	client_release();
	if (fflush(stdout))
		uk_util_die(UK_EXIT_FATAL, "cannot write to standard output");
	return uk_status;
}

/* wait */

static int
cmd_wait(int argc, char **argv)
{
	static const struct uk_cli c = { "toolack wait", "usage: " TA_SYN_WAIT,
		"Wait for each call ID's result and write it.\n"
		"\n"
		"  -o, --output=FILE         write the results to FILE, not "
		"stdout\n"
		"  -t, --timeout=SECONDS     how long to wait for each (default: "
		"86400)\n"
		"  -U, --url=URL             the server (default: $TOOLACK_URL, "
		"else\n"
		"                            http://127.0.0.1:7077)\n"
		"  -h, --help                the synopsis (-h) or this help "
		"(--help)\n"
		"\n"
		"Examples:\n"
		"  toolack wait later1                  the result of call later1\n"
		"  toolack wait -t 60 later1 later2     two results, a minute each at "
		"most\n"
		"\n"
		"See toolack(1).\n" };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "url", required_argument, NULL, 'U' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *output = NULL;
	struct uk_buf path = UK_BUF_INIT, resp = UK_BUF_INIT;
	struct uk_err err;
	long timeout = UK_TOOLACK_PROTO_MAX_TIMEOUT, code, chunk;
	long long until;
	char msg[600], *esc;
	yajl_val v;
	const char *st;
	int ch, i;

	uk_cli_subcommand("wait");
	while ((ch = uk_cli_getopt(&c, argc, argv, "ho:t:U:", longopts)) !=
	    -1) {
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		case 't':
			if (uk_util_parse_long(optarg, 0,
				UK_TOOLACK_PROTO_MAX_TIMEOUT, &timeout))
				uk_cli_usage(&c, "-t: not a timeout: '%s'",
				    optarg);
			break;
		case 'U':
			url = optarg;
			break;
		default:
			uk_cli_usage(&c, NULL);
		}
	}
	if (optind == argc)
		uk_cli_usage(&c, "no call id given");
	output_to(output);
	client_setup(url);
	for (i = optind; i < argc; i++) {
		until = uk_util_mono_ms() + timeout * 1000LL;
		for (;;) {
			chunk = (long)((until - uk_util_mono_ms()) / 1000);
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
				uk_util_die(UK_EXIT_FATAL, "%s", err.msg);
			if (code != 202 || uk_util_mono_ms() >= until ||
			    stopping)
				break;
		}
		if (code == 200 &&
		    (v = uk_json_parse(resp.buf, resp.len, NULL))) {
			st = uk_json_get_str(v, "status");
			if (!st || strcmp(st, "success"))
				uk_util_status_set(UK_EXIT_FAIL);
			uk_json_free(v);
			fwrite(resp.buf, 1, resp.len, stdout);
		} else if (code == 202) {
			fwrite(resp.buf, 1, resp.len, stdout);
			uk_util_warn("'%s': still pending", argv[i]);
			uk_util_status_set(UK_EXIT_FAIL);
		} else {
			client_reason(&resp, code, msg, sizeof(msg));
			uk_util_warn("'%s': %s", argv[i], msg);
			uk_util_status_set(UK_EXIT_FAIL);
		}
		if (fflush(stdout))
			uk_util_die(UK_EXIT_FATAL,
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
	static const struct option longopts[] = {
		{ "version", no_argument, NULL, 'V' },
		UK_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	size_t i;
	int ch;

	uk_util_prog_set(argv[0]);
	uk_cli_check_stdio();
	while ((ch = uk_cli_getopt(&cli, argc, argv, "+hV", longopts)) != -1)
		uk_cli_usage(&cli, NULL);
	if (optind == argc)
		uk_cli_usage(&cli, "no command given");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[optind], cmds[i].name)) {
			argc -= optind;
			argv += optind;
			optind = 0; /* getopt: start again, for the command */
			return cmds[i].fn(argc, argv);
		}
	uk_cli_usage(&cli, "unknown command '%s'", argv[optind]);
}
