#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve driven by the official MCP TypeScript SDK's Client
# (tests/helpers/mcp/sdk.mjs), over stdio and over HTTP (-l): the
# lifecycle, tools/list and every schema, each tool against a loopback
# fixture server, paging a long page, cancelling a stalled fetch, a
# refused address.  The checks run once, in setup_file, in one node
# process (its exit status is read by the first test); each test reads
# the results of its checks (mcp_check: each must be there with "ok":
# true).  render_url, when Chromium is found, is called over stdio in the
# plain pass; the driver's exit status and its failed checks (the first
# test) cover it.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/mcp/mcp

setup_file() {
	# render_url in the plain pass only (see sdk.mjs).
	! sanitized || export MCP_NO_RENDER=1
	mcp_setup_file sdk
}
teardown_file() { mcp_teardown_file; }

@test "sdk: the driver exits 0 and no check it ran failed" {
	mcp_clean
}

@test "sdk: over HTTP a request without the token is 401" {
	mcp_check -t http "no token: 401"
}

@test "sdk stdio: initialize (serverInfo, tools and logging), ping, logging/setLevel" {
	mcp_check -t stdio initialize ping logging/setLevel
}

@test "sdk stdio: tools/list gives every tool; each schema compiles (ajv, strict) and is an object" {
	mcp_check -t stdio tools/list schemas
}

@test "sdk stdio: detect_urls, fetch_url (and its cache hit), get_url_content, get_fetched_urls, detect_and_fetch, format_url_context" {
	mcp_check -t stdio detect_urls fetch_url 'fetch_url from the cache' \
	    get_url_content get_fetched_urls detect_and_fetch format_url_context
}

@test "sdk stdio: remove_fetched_url, invalidate_url_cache, clear_fetched, clear_url_cache" {
	mcp_check -t stdio remove_fetched_url invalidate_url_cache clear_fetched \
	    clear_url_cache
}

@test "sdk stdio: open_url with no toolack server is a clear error result" {
	mcp_check -t stdio 'open_url without a toolack server'
}

@test "sdk stdio: render_url renders the fixture page (Chromium found; plain pass)" {
	plain_only "render_url is called in the plain pass only (a browser's start)"
	local line
	while IFS= read -r line; do
		case $line in
		*'"check":"render_url"'*) mcp_check -t stdio render_url; return ;;
		esac
	done <"$MCP_DIR/out.jsonl"
	skip "urlserve does not list render_url: no Chromium found"
}

@test "sdk stdio: a long page paged by offset and max_tokens to its end, nothing lost" {
	mcp_check -t stdio paging
}

@test "sdk stdio: a cancelled fetch stops, is never answered, and the next call is answered at once (-j 1)" {
	mcp_check -t stdio cancel
}

@test "sdk stdio: a refused address (127.0.0.2) is an isError result with the error record" {
	mcp_check -t stdio 'refused address'
}

@test "sdk stdio: arguments against the inputSchema are an isError result; an unknown tool is -32602" {
	mcp_check -t stdio 'bad arguments: isError; unknown tool: -32602'
}

@test "sdk stdio: detect_and_fetch sends one progress notification per URL" {
	mcp_check -t stdio progress
}

@test "sdk stdio: the SDK validated every structuredContent against its outputSchema" {
	mcp_check -t stdio 'outputSchema validated by the SDK'
}
@test "sdk http: initialize (serverInfo, tools and logging), ping, logging/setLevel" {
	mcp_check -t http initialize ping logging/setLevel
}

@test "sdk http: tools/list gives every tool; each schema compiles (ajv, strict) and is an object" {
	mcp_check -t http tools/list schemas
}

@test "sdk http: detect_urls, fetch_url (and its cache hit), get_url_content, get_fetched_urls, detect_and_fetch, format_url_context" {
	mcp_check -t http detect_urls fetch_url 'fetch_url from the cache' \
	    get_url_content get_fetched_urls detect_and_fetch format_url_context
}

@test "sdk http: remove_fetched_url, invalidate_url_cache, clear_fetched, clear_url_cache" {
	mcp_check -t http remove_fetched_url invalidate_url_cache clear_fetched \
	    clear_url_cache
}

@test "sdk http: open_url with no toolack server is a clear error result" {
	mcp_check -t http 'open_url without a toolack server'
}

@test "sdk http: a long page paged by offset and max_tokens to its end, nothing lost" {
	mcp_check -t http paging
}

@test "sdk http: a cancelled fetch stops, is never answered, and the next call is answered at once (-j 1)" {
	mcp_check -t http cancel
}

@test "sdk http: a refused address (127.0.0.2) is an isError result with the error record" {
	mcp_check -t http 'refused address'
}

@test "sdk http: arguments against the inputSchema are an isError result; an unknown tool is -32602" {
	mcp_check -t http 'bad arguments: isError; unknown tool: -32602'
}

@test "sdk http: detect_and_fetch sends one progress notification per URL" {
	mcp_check -t http progress
}

@test "sdk http: the SDK validated every structuredContent against its outputSchema" {
	mcp_check -t http 'outputSchema validated by the SDK'
}
