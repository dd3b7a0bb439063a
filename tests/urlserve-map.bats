#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve's map_site tool: urlmap run for an agent, robots.txt always
# honoured, the URLs with their titles (a loopback site per test, served
# by tests/helpers/map_server.py).

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export URLKIT_ALLOW_PRIVATE=127.0.0.1 URLKIT_CHROMIUM=/nonexistent
	mkdir "$T/site"
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}
teardown() { common_teardown; }

# call ARGS: urlserve on stdio, initialized, one map_site call with the
# arguments ARGS; prints its response.
call() {
	printf '%s\n' \
	    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
	    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"map_site","arguments":'"$1"'}}' |
	    urlserve 2>>"$T/us.log" | grep '"id":1'
}

@test "map_site: the URLs and their titles, paths under the shared origin in the text" {
	printf '# Docs\n- [Start](/docs/start): s\n- [API](/docs/api)\n' >"$T/site/llms.txt"
	printf '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/blog/1</loc></url></urlset>' "$B" >"$T/site/sitemap.xml"
	run -0 call '{"url":"'"$B"'/"}'
	[ "$(jq -c '.result.structuredContent | [.count, .limited, (.urls | map(.url + "=" + (.title // "")))]' <<<"$output")" = \
	    "[3,false,[\"$B/blog/1=\",\"$B/docs/start=Start\",\"$B/docs/api=API\"]]" ]
	[ "$(jq -r '.result.content[0].text' <<<"$output")" = "URLs of $B (paths):
/blog/1
/docs/start  Start
/docs/api  API" ]
	# sources, include and limit go to urlmap.
	run -0 call '{"url":"'"$B"'/","sources":["llms"],"include":["/docs/*"],"limit":1}'
	[ "$(jq -c '.result.structuredContent | [.count, .limited, .urls[0].url]' <<<"$output")" = "[1,true,\"$B/docs/start\"]" ]
}

@test "map_site: robots.txt is always honoured" {
	printf 'User-agent: *\nDisallow: /private/\n' >"$T/site/robots.txt"
	printf -- '- [Open](/open)\n- [Secret](/private/s)\n' >"$T/site/llms.txt"
	printf '<a href="/private/t">t</a><a href="/o2">o</a>' >"$T/site/index.html"
	run -0 call '{"url":"'"$B"'/","sources":["llms","crawl"],"depth":1}'
	[ "$(jq -r '.result.structuredContent.urls[].url' <<<"$output" | tr '\n' ' ')" = "$B/ $B/open $B/o2 " ]
	[ "$(grep -c ' /private/' "$T/site/_requests.log")" -eq 0 ]
}

@test "map_site: bad arguments are error results" {
	run -0 call '{"url":"'"$B"'/","sources":["everything"]}'
	[ "$(jq -r .result.isError <<<"$output")" = true ]
	[ "$(jq -r '.result.content[0].text' <<<"$output")" = "map_site: sources are sitemap, feed, llms and crawl" ]
	run -0 call '{"url":"ftp://x.example/"}'
	[ "$(jq -r .result.isError <<<"$output")" = true ]
	run -0 call '{"url":"'"$B"'/","limit":0}'
	[ "$(jq -r '.result.content[0].text' <<<"$output")" = "invalid arguments for map_site: 'limit' must be at least 1" ]
}

@test "map_site: a site with nothing to list is an error result naming why" {
	run -0 call '{"url":"'"$B"'/nothing"}'
	[ "$(jq -r .result.isError <<<"$output")" = true ]
	[[ "$(jq -r '.result.content[0].text' <<<"$output")" == "(1 error: HTTP 404)" ]]
}
