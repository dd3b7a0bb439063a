#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve honours robots.txt for the tools that fetch (fetch_url,
# detect_and_fetch, render_url; map_site's urlmap always did), unless
# --ignore-robots: a refusal is an error result that says what the model
# can do.  A loopback site (tests/helpers/map_server.py) logs requests.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/urlserve_site

setup() {
	site_setup
	printf '<html><head><title>Page</title></head><body><article><h1>Page</h1><p>The text of a page, long enough to be the main text of it.</p></article></body></html>' >"$T/site/p.html"
	cp "$T/site/p.html" "$T/site/no.html"
	printf 'User-agent: *\nDisallow: /no\n' >"$T/site/robots.txt"
	site_start
}
teardown() { common_teardown; }

# verdicts [OPTION... --] TOOL ARGS...: calls (helpers/urlserve_site),
# then each response's "isError text" on a line, the text's first line.
verdicts() {
	calls "$@" &&
	    jq -r '"\(.result.isError) \(.result.content[0].text | split("\n")[0])"' "$T/out"
}

robots_requests() {
	grep -c ' /robots.txt$' "$T/site/_requests.log" || :
}

@test "fetch_url: what robots.txt disallows is an error result saying what to do" {
	run -0 verdicts -- fetch_url '{"url":"'"$B"'/no.html"}' \
	    fetch_url '{"url":"'"$B"'/p.html"}' \
	    fetch_url '{"url":"'"$B"'/no.html?2"}'
	[ "${lines[0]}" = "true robots.txt forbids it: $B/robots.txt disallows /no.html for urlkit: the site asks automated clients not to fetch it; tell the user (who may open it), or use another URL" ]
	[[ ${lines[1]} == "false "* ]]
	[[ ${lines[2]} == "true robots.txt forbids it: "* ]]
	# robots.txt once for the three calls; the refused page never.
	[ "$(robots_requests)" -eq 1 ]
	[ "$(grep -c ' /no.html' "$T/site/_requests.log")" -eq 0 ]
	# --ignore-robots: fetched, robots.txt not asked.
	run -0 verdicts --ignore-robots -- fetch_url '{"url":"'"$B"'/no.html?3"}'
	[[ ${lines[0]} == "false "* ]]
	[ "$(grep -c ' /no.html?3$' "$T/site/_requests.log")" -eq 1 ]
	[ "$(robots_requests)" -eq 1 ]
}

@test "fetch_url: the cache keeps robots.txt for the next server, with its TTL" {
	run -0 verdicts -- fetch_url '{"url":"'"$B"'/no.html"}'
	run -0 verdicts -- fetch_url '{"url":"'"$B"'/no.html"}'
	[[ ${lines[0]} == "true robots.txt forbids it: "* ]]
	[ "$(robots_requests)" -eq 1 ]
	URLKIT_CACHE_TTL=0 run -0 verdicts -- fetch_url '{"url":"'"$B"'/no.html"}'
	[[ ${lines[0]} == "true robots.txt forbids it: "* ]]
	[ "$(robots_requests)" -eq 2 ]
}

@test "fetch_url: a 4xx robots.txt allows, a 5xx or a silent one refuses within the call's timeout" {
	printf '{"/robots.txt": {"status": 404, "body": "no"}}' >"$T/site/_routes.json"
	run -0 verdicts -- fetch_url '{"url":"'"$B"'/no.html"}'
	[[ ${lines[0]} == "false "* ]]
	printf '{"/robots.txt": {"status": 500, "body": "no"}}' >"$T/site/_routes.json"
	start_server S2 python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	run -0 verdicts -- fetch_url '{"url":"http://127.0.0.1:'"$S2_PORT"'/p.html"}'
	[ "${lines[0]}" = "true robots.txt forbids it: http://127.0.0.1:$S2_PORT/robots.txt could not be read (it answered HTTP 500), which RFC 9309 takes as disallowing all: the site asks automated clients not to fetch it; tell the user (who may open it), or use another URL" ]
	printf '{"/robots.txt": {"delay": 8, "body": ""}}' >"$T/site/_routes.json"
	start_server S3 python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	local t0=$SECONDS
	run -0 verdicts -- fetch_url '{"url":"http://127.0.0.1:'"$S3_PORT"'/p.html","timeout":1}'
	[[ ${lines[0]} == "true robots.txt forbids it: "*"timed out"*"tell the user"* ]]
	[[ ${lines[0]} != *"call fetch_url again"* ]]
	[ $((SECONDS - t0)) -lt 5 ]
}

@test "detect_and_fetch and render_url honour robots.txt too" {
	export URLKIT_CHROMIUM=/bin/true
	run -0 verdicts -- detect_and_fetch '{"text":"see '"$B"'/p.html and '"$B"'/no.html"}' \
	    render_url '{"url":"'"$B"'/no.html"}'
	[ "$status" -eq 0 ]
	grep -qF "(error: robots.txt forbids it: $B/robots.txt disallows /no.html for urlkit: the site asks" "$T/us.out"
	[ "$(grep -c ' /no.html' "$T/site/_requests.log")" -eq 0 ]
	[ "$(grep -c ' /p.html' "$T/site/_requests.log")" -eq 1 ]
	[[ ${lines[1]} == "true robots.txt forbids it: $B/robots.txt disallows /no.html for urlkit: "* ]]
	[ "$(robots_requests)" -eq 1 ]
}

@test "fetch_url: a GitHub URL, read through the API and raw files, is not checked" {
	start_server F python3 "$TOP/tests/helpers/fetch_server.py"
	export URLKIT_GITHUB_URL="http://127.0.0.1:$F_PORT/gh"
	export URLKIT_GITHUB_RAW_URL="http://127.0.0.1:$F_PORT/raw"
	export URLKIT_GITHUB_API_URL="http://127.0.0.1:$F_PORT/api"
	# Nothing leaves the machine: https goes to a proxy that is not there.
	export https_proxy=http://127.0.0.1:1
	run -0 verdicts -- fetch_url '{"url":"https://github.com/octo/demo/blob/main/README.md"}'
	[[ ${lines[0]} == "false "* ]]
	[ "$(curl -s "http://127.0.0.1:$F_PORT/_count/robots.txt")" = 0 ]
}
