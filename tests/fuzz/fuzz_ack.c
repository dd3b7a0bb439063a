/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: toolack's request bodies as the server takes them
 * apart.  The input is a JSON record: it is read as a dispatch (call from
 * record, field checks, the tool's validation, registration) and then as
 * an ack of that call (status, requestedAt, errorText, output), as
 * toolack_server.c's do_dispatch and do_ack do, on a real registry.
 */
#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "toolack_proto.h"
#include "toolack_registry.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	return 0;
}

/* What do_ack does with a body, without the HTTP. */
static void
ack(struct uk_toolack_registry *reg, yajl_val rec, long long now)
{
	const char *id = uk_json_get_str(rec, "toolCallId");
	const char *status = uk_json_get_str(rec, "status");
	const char *at = uk_json_get_str(rec, "requestedAt");
	yajl_val output = uk_json_get(rec, "output");
	yajl_val et = uk_json_get(rec, "errorText");

	if (!id || !*id || !uk_toolack_registry_status_ok(status) ||
	    !uk_toolack_registry_time_ok(at) ||
	    (et && !YAJL_IS_STRING(et) && !YAJL_IS_NULL(et)))
		return;
	uk_toolack_registry_ack(reg, id, status, output,
	    et && YAJL_IS_STRING(et) ? YAJL_GET_STRING(et) : NULL, at, now);
	uk_toolack_registry_done(reg, id);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_toolack_registry_opts o = { 4, 1000, NULL, NULL };
	struct uk_toolack_registry *reg = uk_toolack_registry_new(&o);
	struct uk_buf in = UK_BUF_INIT;
	struct uk_err err;
	yajl_val rec, call = NULL, input;
	const char *id, *tool;
	long long t, now = 1000;
	int existed;
	char *body;

	/* The server's body buffer is NUL-terminated, as uk_json_parse wants. */
	body = uk_util_xmemdup(data, size);
	rec = uk_json_parse(body, size, &err);
	if (!rec || !YAJL_IS_OBJECT(rec))
		goto out;
	uk_toolack_registry_time_ok(uk_json_get_str(rec, "requestedAt"));
	call = uk_toolack_proto_call_from_record(rec, NULL, NULL, &err);
	if (!call)
		call = uk_toolack_proto_call_from_record(rec, "open_url",
		    "gen-1", &err);
	if (call && uk_toolack_proto_call_check(call, &err) == 0) {
		id = uk_json_get_str(call, "toolCallId");
		tool = uk_json_get_str(call, "toolName");
		input = uk_json_get(call, "input");
		if (uk_json_get_int(call, "timeoutSec", &t))
			t = 30;
		if (uk_toolack_proto_validate(tool, input, &err)) {
			uk_toolack_registry_refuse(reg, id, err.msg, now);
		} else {
			uk_json_to_buf(input, &in);
			uk_toolack_registry_add(reg, id, tool, in.buf, (long)t,
			    NULL, now, &existed);
			uk_toolack_registry_add(reg, id, tool, in.buf, (long)t,
			    NULL, now, &existed);
		}
	}
	ack(reg, rec, now + 1);
	ack(reg, rec, now + 2);
	uk_toolack_registry_expire(reg, now + 3600 * 1000LL);
	ack(reg, rec, now + 3600 * 1000LL + 1);
	uk_toolack_registry_expire(reg, now + 7200 * 1000LL);
out:
	uk_json_free(call);
	uk_json_free(rec);
	uk_buf_release(&in);
	uk_toolack_registry_free(reg);
	free(body);
	return 0;
}
