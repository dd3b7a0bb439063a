/* SPDX-License-Identifier: MIT */
#ifndef TOOLACK_H
#define TOOLACK_H

/*
 * What toolack's own files share (cmd/toolack*.c, private to the program):
 * the usage text, the stop flag its signal handler sets, the client of
 * the server's HTTP API (toolack_client.c) and the subcommands that live
 * in files of their own.
 */

#include <signal.h>

#include <curl/curl.h>

#include "buf.h"
#include "cli.h"
#include "http.h"
#include "util.h"

/*
 * The synopsis, one line (or two) per subcommand: "toolack -h" prints
 * them all, "toolack call -h" its own (toolack(1)'s SYNOPSIS).
 */
#define TA_SYN_SERVE                                                        \
	"toolack serve [-b heartbeat] [-l address] [-t timeout]\n"           \
	"                     [--token-file file]\n"
#define TA_SYN_CALL                                                         \
	"toolack call [-q] [-j jobs] [-o file] [-t timeout] [-U url]\n"      \
	"                    [--no-wait] [--tool tool] [--unordered] [file ...]\n"
#define TA_SYN_ACK                                                          \
	"toolack ack [-U url] [--error text] [--requested-at time]\n"        \
	"                   [--result json] --status status id\n"
#define TA_SYN_EXEC                                                         \
	"toolack exec -H tool=command [-q] [-j jobs] [-t timeout] [-U url]\n" \
	"                    [--executor name] [--idle seconds]\n"
#define TA_SYN_WAIT "toolack wait [-o file] [-t timeout] [-U url] id ...\n"

/* Long-only options' values. */
enum {
	TA_OPT_TOKEN_FILE = UK_OPT_FIRST,
	TA_OPT_ERROR,
	TA_OPT_RESULT,
	TA_OPT_REQUESTED_AT,
	TA_OPT_STATUS,
	TA_OPT_NO_WAIT,
	TA_OPT_TOOL,
	TA_OPT_UNORDERED,
	TA_OPT_EXECUTOR,
	TA_OPT_IDLE,
};

/* -o FILE: stdout becomes FILE (NULL or "-": stays), or exit 2. */
void output_to(const char *path);

/* Set by on_signal to the signal's number: the run is to stop. */
extern volatile sig_atomic_t stopping;
void on_signal(int sig);

/*
 * The client (toolack_client.c).  client_setup takes the server's URL
 * (-U, else TOOLACK_URL, else the default) and the token, and starts
 * libcurl; it exits 2 on a bad URL and 3 without a token.  client_base is
 * then the base URL without a final '/', client_token the token.
 */
extern const char *client_base;
extern struct uk_buf client_token;
void client_setup(const char *given);
/* Forget the token and stop libcurl. */
void client_release(void);

/*
 * A handle (h reset, or a new one when h is NULL) for a request to path
 * on the server: a POST of body (JSON) when body is not NULL, else a GET,
 * with the answer appended to resp->buf (at most resp->max bytes; a
 * record's length for an answer that is a record), a total
 * timeout of timeout_ms (none when <= 0), libcurl's message in errbuf
 * (CURL_ERROR_SIZE bytes).  *headers must be freed with
 * curl_slist_free_all once the transfer is over.
 */
CURL *client_handle(CURL *h, const char *path, const char *body,
    long timeout_ms, struct uk_http_sink *resp, struct curl_slist **headers,
    char *errbuf);

/*
 * One blocking request, on *reuse when not NULL (kept for the next
 * request, so the connection is reused).  Returns the HTTP status with
 * the body in resp, or -1 with err filled when there was no answer.
 */
long client_request(CURL **reuse, const char *path, const char *body,
    long timeout_ms, struct uk_buf *resp, struct uk_err *err);

/*
 * "HTTP code: reason" of a {"ok":false,"reason":...} answer, or "HTTP
 * code", in out (size bytes).
 */
void client_reason(const struct uk_buf *resp, long code, char *out,
    size_t size);

/* The subcommands of toolack_call.c and toolack_exec.c. */
int cmd_call(int argc, char **argv);
int cmd_exec(int argc, char **argv);

/*
 * toolack exec's handlers (toolack_handler.c): a tool's command, split
 * into words (quotes group, no shell).
 */
struct handler {
	char *tool;
	char **argv; /* the command split into words, NULL-terminated */
	int argc;
};
/* The default handler of open_url, when none is given and it exists. */
#define TA_DEFAULT_OPEN "xdg-open"
/* -H TOOL=CMD: a handler added, or exit 2 with c's usage line. */
void handler_add(const struct uk_cli *c, const char *arg);
/* The handler of tool, or NULL. */
struct handler *handler_for(const char *tool);
/*
 * Before the executor starts: the default handler added when none is
 * given for open_url, and every command checked (exit 2 when one cannot
 * be run: not on PATH, or no x bit).
 */
void handlers_check(const struct uk_cli *c);
/* The tools handled, comma-separated, appended to b. */
void handlers_tools(struct uk_buf *b);
/* Free the handlers (none left). */
void handlers_release(void);

#endif
