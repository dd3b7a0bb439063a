#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The seed's URL Service test list (../shared/seeds/url-handling.md,
# "Testing / URL Service") through the protocol: urlserve over stdio,
# driven by the SDK's Client (tests/helpers/mcp/service.mjs), against a
# loopback fixture server that stands in for GitHub's raw host and the
# summary model too; urlfetch and urlcache see the same cache.  The checks
# run once, in setup_file, in one node process; each test reads its
# results (mcp_check: each there, with "ok": true).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/mcp/mcp

setup_file() { mcp_setup_file service; }
teardown_file() { mcp_teardown_file; }

@test "service: the driver exits 0 and no check it ran failed" {
	mcp_clean
}

@test "service: detect_urls returns classified results" {
	mcp_check "detect_urls returns classified results"
}

@test "service: detect_and_fetch returns results for all URLs (an error one included), at most 3 fetched per message" {
	mcp_check "detect_and_fetch returns results for all URLs" \
	    "detect_and_fetch: the per-message limit of 3 URLs"
}

@test "service: get_url_content errors for an unfetched URL, returns a fetched one, falls back to the cache" {
	mcp_check "get_url_content: an error for an unfetched URL" \
	    "get_url_content: the content of a fetched URL" \
	    "get_url_content falls back to the cache"
}

@test "service: remove_fetched keeps the cache; invalidate removes from both; clear_url_cache empties both" {
	mcp_check "remove_fetched removes from the fetched set only; the cache keeps it" \
	    "invalidate removes from both the cache and the fetched set" \
	    "clear_url_cache removes everything from both"
}

@test "service: get_fetched_urls empty at first; remove_fetched and clear_fetched" {
	mcp_check "get_fetched_urls: empty at first; remove_fetched and clear_fetched"
}

@test "service: -S NAME keeps the fetched set as a urlcache session across restarts" {
	mcp_check "-S NAME: the fetched set is the urlcache session, kept across restarts"
}

@test "service: format_url_context joins with a separator, excludes, skips errors" {
	mcp_check "format_url_context joins the URLs with a separator" \
	    "format_url_context skips errors (named, no content)" \
	    "format_url_context excludes the URLs named"
}

@test "service: fetch uses the cache; error results are not cached" {
	mcp_check "fetch uses the cache when available; use_cache false fetches again" \
	    "error results are not cached"
}

@test "service: GitHub file fetch falls back from main to master" {
	mcp_check "GitHub file fetch with the main/master fallback"
}

@test "service: summarization via a stand-in model, written back to the cache and reused" {
	mcp_check "summarization via the stand-in model; the summary is written back to the cache"
}
