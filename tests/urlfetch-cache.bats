#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch and the cache: hits cost no request, errors are never cached,
# revalidation keeps the entry and its summary.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

entries() {
	if [ -d "$URLKIT_CACHE_DIR" ]; then
		find "$URLKIT_CACHE_DIR" -name '*.json' -type f | wc -l
	else
		echo 0
	fi
}

@test "fetch uses the cache when available: a hit makes no request" {
	run -0 urlfetch <<<"$B/article.html?c=1"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?c=1')" = 1 ]
	first=$output
	run -0 urlfetch <<<"$B/article.html?c=1"
	[ "$(field "$output" .cached)" = true ]
	[ "$(requests '/article.html?c=1')" = 1 ]
	[ "$(field "$output" .content)" = "$(field "$first" .content)" ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "error results are not cached" {
	run -1 --separate-stderr urlfetch <<<"$B/status/500?c=2"
	[ "$(entries)" = 0 ]
	run -1 --separate-stderr urlfetch <<<"$B/status/500?c=2"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/status/500?c=2')" -ge 2 ]
	run -1 --separate-stderr urlfetch -t 1 <<<"$B/drip?c=2"
	run -1 --separate-stderr urlfetch -s 1K <<<"$B/big?c=2"
	run -1 --separate-stderr urlfetch <<<"$B/blocked.html?c=2"
	[ "$(entries)" = 0 ]
}

@test "GitHub file: the fallback result is cached under the URL asked for" {
	run -0 urlfetch <<<"https://github.com/octo/demo/blob/main/src/hello.py"
	run -0 urlfetch <<<"https://github.com/octo/demo/blob/main/src/hello.py"
	[ "$(field "$output" .cached)" = true ]
	[ "$(field "$output" .github_info.branch)" = master ]
}

@test "--no-cache neither reads nor writes the cache" {
	run -0 urlfetch -C <<<"$B/article.html?c=3"
	[ "$(entries)" = 0 ]
	run -0 urlfetch <<<"$B/article.html?c=3"
	run -0 urlfetch --no-cache <<<"$B/article.html?c=3"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?c=3')" = 3 ]
}

@test "--refresh fetches again and rewrites the entry" {
	run -0 urlfetch <<<"$B/article.html?c=4"
	run -0 urlfetch -r <<<"$B/article.html?c=4"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?c=4')" = 2 ]
	run -0 urlfetch <<<"$B/article.html?c=4"
	[ "$(field "$output" .cached)" = true ]
	[ "$(requests '/article.html?c=4')" = 2 ]
}

@test "an expired entry is revalidated: 304 keeps the entry and its summary" {
	run -0 urlfetch <<<"$B/etag.html?c=5"
	[ "$(field "$output" .http.etag)" = '"v1"' ]
	# Add a summary to the entry, as urlsum would.
	f=$(find "$URLKIT_CACHE_DIR" -name '*.json' -type f)
	[ -n "$f" ]
	jq -c '.summary = "KEPT SUMMARY" | .summary_type = "BRIEF"' "$f" >"$T/e"
	cp "$T/e" "$f"
	run -0 urlfetch --ttl 0 <<<"$B/etag.html?c=5"
	[ "$(field "$output" .cached)" = true ]
	[ "$(field "$output" .revalidated)" = true ]
	[ "$(field "$output" .summary)" = "KEPT SUMMARY" ]
	[ "$(field "$output" .title)" = "The Versioned Page" ]
	[ "$(requests '/etag.html?c=5')" = 2 ]
	run -0 curl -s "$B/_log"
	[[ $(grep '^/etag.html?c=5 ' <<<"$output" | tail -n 1) == *'inm="v1"'* ]]
	# The entry is still there, fresh again, with its summary.
	run -0 urlfetch <<<"$B/etag.html?c=5"
	[ "$(field "$output" .summary)" = "KEPT SUMMARY" ]
	[ "$(requests '/etag.html?c=5')" = 2 ]
}

@test "an expired entry without validators is fetched again" {
	run -0 urlfetch <<<"$B/article.html?c=6"
	run -0 urlfetch --ttl 0 <<<"$B/article.html?c=6"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?c=6')" = 2 ]
}

@test "URLKIT_CACHE_TTL is honoured like --ttl" {
	run -0 urlfetch <<<"$B/article.html?c=7"
	URLKIT_CACHE_TTL=0 run -0 urlfetch <<<"$B/article.html?c=7"
	[ "$(field "$output" .cached)" = false ]
	[ "$(requests '/article.html?c=7')" = 2 ]
}

@test "a cache that cannot be written: records still come, with a warning" {
	touch "$T/file"
	URLKIT_CACHE_DIR="$T/file/sub" run -1 --separate-stderr urlfetch <<<"$B/article.html?c=8"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[[ $stderr == *"urlfetch: cache: "* ]]
}

@test "a cache hit keeps unknown input fields of the url record" {
	run -0 urlfetch <<<"$B/article.html?c=9"
	run -0 urlfetch <<<"{\"url\":\"$B/article.html?c=9\",\"id\":\"x7\",\"message\":3}"
	[ "$(field "$output" '[.cached, .id, .message] | join(" ")')" = "true x7 3" ]
}

@test "-S adds every record, errors included, to the named session" {
	printf '%s\n' "$B/article.html?s=1" "$B/status/404?s=1" >"$T/in"
	run -1 --separate-stderr urlfetch -S chat1 -i "$T/in"
	[ "$(find "$URLKIT_CACHE_DIR/sessions/chat1" -name '*.json' | wc -l)" = 2 ]
	run -0 jq -r '.url' "$URLKIT_CACHE_DIR"/sessions/chat1/*.json
	[[ $output == *"article.html?s=1"* && $output == *"status/404?s=1"* ]]
	# The error went to the session, not to the cache.
	[ "$(find "$URLKIT_CACHE_DIR" -path "$URLKIT_CACHE_DIR/sessions" -prune -o -name '*.json' -print | wc -l)" = 1 ]
	run -2 urlfetch -S .bad </dev/null
}
