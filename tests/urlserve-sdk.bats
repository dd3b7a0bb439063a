#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve driven by the official MCP TypeScript SDK's Client
# (tests/helpers/mcp/sdk.mjs), over stdio and over HTTP (-l): the
# lifecycle, tools/list and every schema, each tool against a loopback
# fixture server, paging a long page, cancelling a stalled fetch, a
# refused address.  The checks run once, in setup_file, in one node
# process; each test reads its result (mcp_check runs jq with run -0, and
# the check's "ok").
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/mcp/mcp

setup_file() { mcp_setup_file sdk; }
teardown_file() { mcp_teardown_file; }

@test "sdk: the driver ran to its end with no failed check" {
	mcp_clean
}

@test "sdk stdio: initialize" {
	mcp_check stdio "initialize"
}

@test "sdk stdio: ping" {
	mcp_check stdio "ping"
}

@test "sdk stdio: logging/setLevel" {
	mcp_check stdio "logging/setLevel"
}

@test "sdk stdio: tools/list" {
	mcp_check stdio "tools/list"
}

@test "sdk stdio: schemas" {
	mcp_check stdio "schemas"
}

@test "sdk stdio: detect_urls" {
	mcp_check stdio "detect_urls"
}

@test "sdk stdio: fetch_url" {
	mcp_check stdio "fetch_url"
}

@test "sdk stdio: fetch_url from the cache" {
	mcp_check stdio "fetch_url from the cache"
}

@test "sdk stdio: get_url_content" {
	mcp_check stdio "get_url_content"
}

@test "sdk stdio: get_fetched_urls" {
	mcp_check stdio "get_fetched_urls"
}

@test "sdk stdio: detect_and_fetch" {
	mcp_check stdio "detect_and_fetch"
}

@test "sdk stdio: format_url_context" {
	mcp_check stdio "format_url_context"
}

@test "sdk stdio: remove_fetched_url" {
	mcp_check stdio "remove_fetched_url"
}

@test "sdk stdio: invalidate_url_cache" {
	mcp_check stdio "invalidate_url_cache"
}

@test "sdk stdio: clear_fetched" {
	mcp_check stdio "clear_fetched"
}

@test "sdk stdio: clear_url_cache" {
	mcp_check stdio "clear_url_cache"
}

@test "sdk stdio: open_url without a toolack server" {
	mcp_check stdio "open_url without a toolack server"
}

@test "sdk stdio: paging" {
	mcp_check stdio "paging"
}

@test "sdk stdio: cancel" {
	mcp_check stdio "cancel"
}

@test "sdk stdio: refused address" {
	mcp_check stdio "refused address"
}

@test "sdk stdio: progress" {
	mcp_check stdio "progress"
}

@test "sdk stdio: outputSchema validated by the SDK" {
	mcp_check stdio "outputSchema validated by the SDK"
}

@test "sdk http: initialize" {
	mcp_check http "initialize"
}

@test "sdk http: a request without the token is 401" {
	mcp_check http "no token: 401"
}

@test "sdk http: ping" {
	mcp_check http "ping"
}

@test "sdk http: logging/setLevel" {
	mcp_check http "logging/setLevel"
}

@test "sdk http: tools/list" {
	mcp_check http "tools/list"
}

@test "sdk http: schemas" {
	mcp_check http "schemas"
}

@test "sdk http: detect_urls" {
	mcp_check http "detect_urls"
}

@test "sdk http: fetch_url" {
	mcp_check http "fetch_url"
}

@test "sdk http: fetch_url from the cache" {
	mcp_check http "fetch_url from the cache"
}

@test "sdk http: get_url_content" {
	mcp_check http "get_url_content"
}

@test "sdk http: get_fetched_urls" {
	mcp_check http "get_fetched_urls"
}

@test "sdk http: detect_and_fetch" {
	mcp_check http "detect_and_fetch"
}

@test "sdk http: format_url_context" {
	mcp_check http "format_url_context"
}

@test "sdk http: remove_fetched_url" {
	mcp_check http "remove_fetched_url"
}

@test "sdk http: invalidate_url_cache" {
	mcp_check http "invalidate_url_cache"
}

@test "sdk http: clear_fetched" {
	mcp_check http "clear_fetched"
}

@test "sdk http: clear_url_cache" {
	mcp_check http "clear_url_cache"
}

@test "sdk http: open_url without a toolack server" {
	mcp_check http "open_url without a toolack server"
}

@test "sdk http: paging" {
	mcp_check http "paging"
}

@test "sdk http: cancel" {
	mcp_check http "cancel"
}

@test "sdk http: refused address" {
	mcp_check http "refused address"
}

@test "sdk http: progress" {
	mcp_check http "progress"
}

@test "sdk http: outputSchema validated by the SDK" {
	mcp_check http "outputSchema validated by the SDK"
}
