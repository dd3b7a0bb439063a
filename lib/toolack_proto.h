/* SPDX-License-Identifier: MIT */
#ifndef UK_TOOLACK_PROTO_H
#define UK_TOOLACK_PROTO_H

/*
 * toolack's protocol: what its server and clients share.  The tool call
 * record in both of its shapes, the ack record, validation of a tool's
 * input, the token and the address.  Every function returning a yajl
 * value returns a new one the caller frees (uk_json_free).
 */

#include <stddef.h>

#include "buf.h"
#include "util.h"

struct yajl_val_s;

#define UK_TOOLACK_PROTO_URL         "http://127.0.0.1:7077"
#define UK_TOOLACK_PROTO_TIMEOUT     60    /* seconds a call waits by default */
#define UK_TOOLACK_PROTO_MAX_TIMEOUT 86400 /* the largest timeoutSec taken */
#define UK_TOOLACK_PROTO_MAX_BODY    65536 /* request bodies over this: 413 */
#define UK_TOOLACK_PROTO_MAX_ID      256   /* toolCallId length limit */

/*
 * Turn a tool call record into the canonical call
 * {"toolCallId","toolName","input","timeoutSec"} (timeoutSec only when the
 * record gives one: at its top level or in its input/parameters).  Both
 * shapes of urlkit(7) are read:
 *     {"type":T,"id":I,"parameters":P}
 *     {"toolCallId":I,"toolName":T,"input":P,"timeoutSec":N}
 * With tool set, a record naming no tool but carrying a "url" string is a
 * call of tool with input {"url":...}; a url record's "type" (the URL's
 * type) is not taken as a tool name, since it comes without "parameters".  A record without an id takes
 * gen_id (which may be NULL: then the id is required).  Returns a new
 * object the caller frees, or NULL with err filled.
 */
struct yajl_val_s *uk_toolack_proto_call_from_record(struct yajl_val_s *rec,
    const char *tool, const char *gen_id, struct uk_err *err);

/*
 * Check a canonical call's fields: a toolCallId of 1 to UK_TOOLACK_PROTO_MAX_ID
 * printable characters, a tool name, an object input, a timeoutSec in
 * [1, UK_TOOLACK_PROTO_MAX_TIMEOUT].  -1 with err filled when not.
 */
int uk_toolack_proto_call_check(struct yajl_val_s *call, struct uk_err *err);

/*
 * The ack record, the one shape every ack takes (the body of an ack
 * request, the result a call resolves with, the failed ack of a refused
 * dispatch):
 *     {"toolCallId":id,"status":status,"output":output,
 *      "errorText":error_text,"requestedAt":requested_at}
 * appended to out as compact JSON.  output (any JSON value) is borrowed:
 * the caller still owns it.  output, error_text and requested_at may each
 * be NULL, written as null.
 */
void uk_toolack_proto_ack(struct uk_buf *out, const char *id,
    const char *status, struct yajl_val_s *output, const char *error_text,
    const char *requested_at);

/*
 * Validate a tool's input as its backend would before any frontend sees
 * it.  open_url: "url" is required, must parse (libcurl's curl_url) and
 * must be http or https.  Other tools are not checked.  -1 with err->msg
 * set to the errorText of the failed ack.
 */
int uk_toolack_proto_validate(const char *tool, struct yajl_val_s *input,
    struct uk_err *err);

/*
 * The token for a client: TOOLACK_TOKEN, else the first line of the token
 * file (file, or the default path when NULL).  0 and out filled, or -1.
 */
int uk_toolack_proto_token_read(const char *file, struct uk_buf *out,
    struct uk_err *err);

/*
 * The token for the server: TOOLACK_TOKEN (or given, when not NULL), else
 * uk_httpd_token_serve of the token file (file, or the default path when
 * NULL).  0 or -1.
 */
int uk_toolack_proto_token_serve(const char *given, const char *file,
    struct uk_buf *out, struct uk_err *err);

/*
 * Where the server's token comes from, appended to out: the token file's
 * path (file, or the default path when NULL), or nothing when the token is
 * TOOLACK_TOKEN's (or given).  Never the token itself.
 */
void uk_toolack_proto_token_path(const char *given, const char *file,
    struct uk_buf *out);

/*
 * The base URL of the server from an address as given to --listen or
 * TOOLACK_URL: "http://HOST:PORT", "HOST:PORT", ":PORT" or "PORT".  HOST
 * must be an IPv4 address or localhost (taken as 127.0.0.1).  Fills host
 * (>= 64 bytes) and port; 0 or -1.  uk_httpd_addr_parse with
 * UK_HTTPD_ADDR_URL: the parse urlserve -l shares.
 */
int uk_toolack_proto_addr_parse(const char *s, char *host, size_t hostsize,
    int *port, struct uk_err *err);

#endif
