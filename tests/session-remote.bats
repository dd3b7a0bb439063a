#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Sessions in the remote store (urlcache(1), REMOTE STORAGE; session.h):
# a session written through one cache directory is read and changed
# through another, as on another host, against a real redis-server on
# 127.0.0.1; cleanup stays local.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch
load helpers/remote

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	unset URLKIT_CACHE_REMOTE
}
teardown() { common_teardown; }

rec() {
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$1" "${2:-content of $1}"
}

# urls OUTPUT: the "url" of each record, one a line.
urls() { jq -r .url <<<"$1"; }

@test "a session written through one cache directory is read and changed through another" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	{ rec https://s.test/a A; rec https://s.test/b B; } |
	    URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session agent add
	[ "$(rcli exists urlkit-session:agent)" = 1 ]
	# c2 has no directory for it: the store's copy answers.
	[ ! -e "$T/c2/sessions/agent" ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/a https://s.test/b" ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent get https://s.test/b
	[ "$(field "$output" .content)" = B ]
	# c2 adds and removes; c1 sees both, in the order added.
	rec https://s.test/c C | URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent add
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent remove https://s.test/a
	[ "$(field "$output" .found)" = true ]
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session agent list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/b https://s.test/c" ]
	# A replaced record keeps its place.
	rec https://s.test/b B2 | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session agent add
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/b https://s.test/c" ]
	[ "$(jq -r 'select(.url == "https://s.test/b") | .content' <<<"$output")" = B2 ]
	# Without the store c2 has only its own copy (c's add).
	URLKIT_CACHE_REMOTE= URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session agent list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/c" ]
}

@test "a session deleted through one directory is gone through another that holds a copy" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://s.test/a | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session gone add
	rec https://s.test/b | URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session gone add
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session gone clear
	[ "$(field "$output" .removed)" = 2 ]
	# c1's directory still has a, but the session is deleted.
	[ -e "$T/c1/sessions/gone" ]
	URLKIT_CACHE_DIR=$T/c1 run -1 urlcache session gone list
	[[ "$output" == *"no session 'gone'"* ]]
	# Added to again: a new session, without the old records.
	rec https://s.test/c | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session gone add
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session gone list
	[ "$(urls "$output")" = https://s.test/c ]
}

@test "urlfetch -S through two directories builds one session in the store" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	URLKIT_CACHE_DIR=$T/c1 run -0 urlfetch -S task <<<"$B/article.html?s=1"
	URLKIT_CACHE_DIR=$T/c2 run -0 urlfetch -S task <<<"$B/article.html?s=2"
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache session task list
	[ "$(urls "$output" | paste -sd' ')" = "$B/article.html?s=1 $B/article.html?s=2" ]
}

@test "8 writers through separate directories add to one session and lose nothing" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	local i j pids=()
	for ((i = 0; i < 8; i++)); do
		(
			for ((j = 0; j < 10; j++)); do
				rec "https://s.test/$i/$j" |
				    URLKIT_CACHE_DIR=$T/w$i urlcache session many add ||
				    exit 1
			done
		) &
		pids+=($!)
	done
	# Each writer (a bare wait would wait for redis-server too).
	for i in "${pids[@]}"; do wait "$i"; done
	URLKIT_CACHE_DIR=$T/r run -0 urlcache session many list
	[ "$(urls "$output" | sort -u | wc -l)" = 80 ]
	[ "$(urls "$output" | wc -l)" = 80 ]
}

@test "kept: no expiry in the store; cleanup deletes the local copy only" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://s.test/k | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache --ttl 1h session kept add --keep
	[ "$(rcli ttl urlkit-session:kept)" = -1 ]
	rec https://s.test/e | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache --ttl 1h session brief add
	local t
	t=$(rcli ttl urlkit-session:brief)
	[ "$t" -gt 3500 ] && [ "$t" -le 3600 ]
	# Expired locally (the directory's time set back two hours):
	# cleanup deletes the directory's copy, never the store's.
	touch -d '-2 hours' "$T/c1/sessions/brief"
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache --ttl 1h cleanup
	[ "$(field "$output" .sessions_expired)" = 1 ]
	[ ! -e "$T/c1/sessions/brief" ]
	[ "$(rcli exists urlkit-session:brief)" = 1 ]
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session brief list
	[ "$(urls "$output")" = https://s.test/e ]
}

@test "urlcache session: the directory's sessions, marked store when the store's copy answers" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	{ rec https://s.test/a; rec https://s.test/b; } |
	    URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session shared add
	rec https://s.test/l | URLKIT_CACHE_REMOTE= URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session mine add
	rec https://s.test/c | URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session shared add
	# c1's copy of shared has 2 records, the store's 3: the store's told.
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.session == "mine" and .records == 1 and .store == false' <<<"${lines[0]}"
	jq -e '.session == "shared" and .records == 3 and .store == true' <<<"${lines[1]}"
	# A directory with no copy lists none (urlcache(1) says why), and
	# reads the session by its name.
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache session
	[ -z "$output" ]
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache session shared list
	[ "${#lines[@]}" -eq 3 ]
	# Cleared through c2: c1's copy is not listed, as "shared list" has it.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session shared clear
	[ -e "$T/c1/sessions/shared" ]
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session
	[ "${#lines[@]}" -eq 1 ]
	jq -e '.session == "mine"' <<<"${lines[0]}"
}

@test "the store down: sessions work from the directory, exit 0" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://s.test/a | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session down add
	redis_stop
	rec https://s.test/b | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session down add
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session down list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/a https://s.test/b" ]
}

@test "a session through an http store (nginx WebDAV): the last writer's copy" {
	nginx_start
	export URLKIT_CACHE_REMOTE="$DAV_URL"
	{ rec https://s.test/a A; rec https://s.test/b B; } |
	    URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session web add
	[ -f "$DAV_DIR/cache/urlkit-session/web" ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session web list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/a https://s.test/b" ]
}

@test "a corrupt session value is never served, and the next change replaces it" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	rec https://s.test/a | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session bad add
	rcli set urlkit-session:bad 'not a value of ours' >/dev/null
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache session bad list
	URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session bad list
	[ "$(urls "$output")" = https://s.test/a ]
	rec https://s.test/b | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session bad add
	[ "$(rcli get urlkit-session:bad | head -c 15)" = "urlkit-entry 1 " ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache session bad list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/a https://s.test/b" ]
}

# mcp DIR SESSION REQUEST...: urlserve -S SESSION with cache directory
# DIR, given initialize and the tools/call REQUESTs (name and arguments,
# ids 1, 2, ...) on standard input; its output in $output.
mcp() {
	local dir=$1 sess=$2 i=0 req
	shift 2
	{
		echo '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}'
		echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		for req; do
			i=$((i + 1))
			echo "{\"jsonrpc\":\"2.0\",\"id\":$i,\"method\":\"tools/call\",\"params\":$req}"
		done
	} >"$T/mcp.in"
	URLKIT_CACHE_DIR=$dir URLKIT_CHROMIUM=/nonexistent run -0 \
	    --separate-stderr timeout 60 urlserve -S "$sess" <"$T/mcp.in"
}

@test "urlserve -S: the session is shared through the store with urlcache in another directory" {
	redis_start
	export URLKIT_CACHE_REMOTE="redis://127.0.0.1:$REDIS_PORT"
	unset URLKIT_LLM_URL OPENAI_API_KEY TOOLACK_URL TOOLACK_TOKEN TOOLACK_TOKEN_FILE
	# urlcache on one host, urlserve on another: the agent's fetched set.
	rec https://s.test/x X | URLKIT_CACHE_DIR=$T/c1 run -0 urlcache session ag add
	mcp "$T/c2" ag '{"name":"get_fetched_urls","arguments":{}}' \
	    '{"name":"get_url_content","arguments":{"url":"https://s.test/x"}}'
	[ "$(jq -r 'select(.id == 1) | .result.structuredContent.urls[0].url' <<<"$output")" = https://s.test/x ]
	[ "$(jq -r 'select(.id == 2) | .result.structuredContent.content' <<<"$output")" = X ]
	# What urlserve fetches there is in the session for the others.
	mcp "$T/c2" ag "{\"name\":\"fetch_url\",\"arguments\":{\"url\":\"$B/article.html?mcp=1\"}}"
	[ "$(jq -r 'select(.id == 1) | .result.isError' <<<"$output")" = false ]
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache session ag list
	[ "$(urls "$output" | paste -sd' ')" = "https://s.test/x $B/article.html?mcp=1" ]
}
