/* SPDX-License-Identifier: MIT */
#ifndef URLSERVE_INT_H
#define URLSERVE_INT_H

/* What urlserve's tool files share (cmd/urlserve_tools.c). */

#include "buf.h"
#include "child.h"
#include "json.h"
#include "mcp.h"

/* One argument a tool takes: its type 's' string, 'i' integer in
 * [min, max], 'b' boolean, 'a' array of strings. */
struct us_arg {
	const char *name;
	char type;
	int required;
	long long min, max;
};

/* Check args against spec (NULL-named end): 0, else an error result. */
int us_args_check(struct uk_mcp_call *c, yajl_val args,
    const struct us_arg *spec);
long long us_arg_int(yajl_val args, const char *name, long long def);
int us_arg_bool(yajl_val args, const char *name, int def);
/*
 * fetch_url's and render_url's select or remove (name): a string or an
 * array of strings, each a selector that compiles, at most
 * UK_EXTRACT_SELECT_MAXLIST, into list (*n of them, pointing into args).
 * 0, else an error result and -1.
 */
int us_selectors_arg(struct uk_mcp_call *c, yajl_val args, const char *name,
    const char **list, size_t *n);
/* An http or https URL: 0, else an error result and -1. */
int us_check_url(struct uk_mcp_call *c, const char *url);

/* The url records of text[0..len): each URL once, at most max (0: all). */
yajl_val us_detect(const char *text, size_t len, long max);

/* Whether the tool name is listed (-T, and Chromium for render_url). */
int us_tool_on(const char *name);
/* --tools: choose the tools of list (names and profiles, comma-separated):
 * 0, or -1 with the bad name in bad.  us_tools_release frees the choice. */
int us_tools_choose(const char *list, char *bad, size_t badsz);
void us_tools_release(void);
/* The tools listed, and the only ones callable: --tools', else all; never
 * render_url when there is no Chromium (a new array, the caller frees). */
struct uk_mcp_tool *us_tool_table(size_t *n);
/* The server's instructions into b, naming only the tools listed (a
 * model told of a tool it cannot call wastes a turn on it). */
void us_instructions(struct uk_buf *b);
/* Add to b error message e with what the model can do next, in
 * urlserve's tools and arguments (never another program's options);
 * rendered: e is render_url's, which is not offered again. */
void us_error_hint(const char *e, int rendered, struct uk_buf *b);
/* A paged record's text block (left: characters after the slice). */
void us_page_text(yajl_val rec, size_t left, struct uk_buf *b);
/* Finish c with rec (owned from here) paged by args' offset and
 * max_tokens, or with a query the sections that answer it (lib/query),
 * and rec's links (fetch_url's links) listed after the text; an error
 * record as an error result (rendered: render_url's record, as in
 * us_error_hint). */
void us_answer_page(struct uk_mcp_call *c, yajl_val rec, yajl_val args,
    int rendered);

/* After the text in b: rec's links (fetch_url's links), a compact list,
 * those in the main text first (urlserve_fetch.c). */
void us_links_text(yajl_val rec, struct uk_buf *b);
/* Finish c with rec's content cut to the sections that answer query
 * (lib/query), within max_tokens, and where each starts. */
void us_answer_query(struct uk_mcp_call *c, yajl_val rec, const char *query,
    size_t max_tokens);

/* The tool functions, by file. */
void us_tool_detect_urls(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_fetch_url(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_detect_and_fetch(struct uk_mcp_call *c, yajl_val args, void *s);
/* urlserve_store.c */
void us_tool_get_url_content(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_get_fetched_urls(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_remove_fetched_url(struct uk_mcp_call *c, yajl_val args,
    void *s);
void us_tool_clear_fetched(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_invalidate_url_cache(struct uk_mcp_call *c, yajl_val args,
    void *s);
void us_tool_clear_url_cache(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_format_url_context(struct uk_mcp_call *c, yajl_val args,
    void *s);
/* urlserve_child.c */
/*
 * Run ch (argv, deadline, out, err and max set by the caller) to its end,
 * its deadline or the call's cancellation, which a thread watches (it
 * sets ch->stop while the child runs): the wait status, or -1 with err
 * (not started).  *cancelled: whether the call was cancelled.
 */
int us_child_run(struct uk_mcp_call *c, struct uk_child *ch, int *cancelled,
    struct uk_err *err);
void us_tool_open_url(struct uk_mcp_call *c, yajl_val args, void *s);
void us_tool_render_url(struct uk_mcp_call *c, yajl_val args, void *s);

#endif
