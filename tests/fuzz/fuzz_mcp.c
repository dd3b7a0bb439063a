/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the MCP server's framing and dispatch (lib/mcp).
 * The input is what a client writes on urlserve's standard input: it is
 * served by uk_mcp_stdio_serve (lines, a message limit of 512 bytes so
 * that the too-long path is taken, CRLF, a last line without newline)
 * with a table of tools that answer at once, and every message written
 * back must be one line of a JSON-RPC 2.0 object: a response with an id
 * (null only for an error) or a notification.  Anything else aborts.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "mcp.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct uk_mcp *m;
static int devnull;

static void
echo(struct uk_mcp_call *c, yajl_val args, void *session)
{
	(void)session;
	uk_mcp_call_result(c, uk_json_copy(args), NULL, 0);
}

static void
chatty(struct uk_mcp_call *c, yajl_val args, void *session)
{
	const char *s = uk_json_get_str(args, "say");

	(void)session;
	uk_mcp_call_progress(c, 1, 2, s);
	uk_mcp_call_log(c, s && *s ? s : "info", "said %s", s ? s : "nothing");
	uk_mcp_call_progress(c, 2, -1, NULL);
	if (uk_json_get_bool(args, "fail"))
		uk_mcp_call_error(c, "failed as asked: %s", s ? s : "");
	else if (!uk_json_get_bool(args, "forget"))
		uk_mcp_call_result(c, NULL, s, 0);
}

static void
cancellable(struct uk_mcp_call *c, yajl_val args, void *session)
{
	(void)args;
	(void)session;
	uk_mcp_call_result(c, uk_json_array(),
	    uk_mcp_call_cancelled(c) ? "gone" : "here",
	    uk_mcp_call_cancel_fd(c) < 0);
}

static const struct uk_mcp_tool tools[] = {
	{ "echo", "Echo", "Gives its arguments back.",
	    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":"
	    "\"string\",\"maxLength\":8},\"n\":{\"type\":[\"integer\","
	    "\"null\"],\"minimum\":0,\"maximum\":9},\"e\":{\"enum\":[1,\"a\"]},"
	    "\"l\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
	    "\"required\":[\"text\"],\"additionalProperties\":false}",
	    "{\"type\":\"object\"}", "{\"readOnlyHint\":true}", echo },
	{ "chatty", NULL, "Progress, a log line, then a result.",
	    "{\"type\":\"object\"}", NULL, NULL, chatty },
	{ "cancellable", NULL, "Says whether it was cancelled.",
	    "{\"type\":\"object\"}", NULL, NULL, cancellable },
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct uk_mcp_opts o = { "fuzz", "1", NULL, tools,
		sizeof(tools) / sizeof(tools[0]), 2, 512, NULL, NULL, NULL, NULL, 0 };
	struct uk_err err;

	(void)argc;
	(void)argv;
	if (uk_mcp_new(&m, &o, &err))
		abort();
	if ((devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
		abort();
	return 0;
}

/* One message written back, checked. */
static void
check(const char *msg, size_t len)
{
	struct uk_err err;
	yajl_val v = uk_json_parse(msg, len, &err), id, method;
	const char *ver = uk_json_get_str(v, "jsonrpc");

	if (!v || !YAJL_IS_OBJECT(v) || !ver || strcmp(ver, "2.0"))
		abort();
	id = uk_json_get(v, "id");
	method = uk_json_get(v, "method");
	if (method ?
		id != NULL || !YAJL_IS_STRING(method) :
		!id || (!uk_json_get(v, "result") == !uk_json_get(v, "error")))
		abort();
	if (id && YAJL_IS_NULL(id) && !uk_json_get(v, "error"))
		abort();
	uk_json_free(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char init[] =
	    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
	    "\"params\":{\"protocolVersion\":\"2025-11-25\"}}\n";
	volatile int stop = 0;
	struct uk_err err;
	struct uk_buf out = UK_BUF_INIT;
	char tmp[4096], *p, *nl;
	int in[2], fd, saved;
	ssize_t n;

	/* The pipe holds the whole input: nothing reads while we write. */
	if (size > 32768)
		size = 32768;
	if (pipe(in) || (fd = memfd_create("out", MFD_CLOEXEC)) < 0)
		abort();
	/* Half the inputs start initialized, so calls are reached. */
	if (size && (data[0] & 1) && write(in[1], init, sizeof(init) - 1) < 0)
		abort();
	if (size && write(in[1], data, size) != (ssize_t)size)
		abort();
	close(in[1]);
	/*
	 * uk_mcp_call_log writes to stderr too: away while the input is served,
	 * so that libFuzzer's own lines stay readable.  A crash inside loses
	 * its report but not its input (build-fuzz/crashes/mcp/), which
	 * build/unit/t_fuzz_mcp replays with stderr in place.
	 */
	fflush(stderr);
	if ((saved = dup(2)) < 0 || dup2(devnull, 2) < 0)
		abort();
	if (uk_mcp_stdio_serve(m, in[0], fd, &stop, &err))
		abort();
	fflush(stderr);
	if (dup2(saved, 2) < 0)
		abort();
	close(saved);
	close(in[0]);
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		uk_buf_add(&out, tmp, (size_t)n);
	close(fd);
	for (p = out.buf; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		check(p, (size_t)(nl - p));
	}
	if (*p) /* every message ends with its newline */
		abort();
	uk_buf_release(&out);
	return 0;
}
