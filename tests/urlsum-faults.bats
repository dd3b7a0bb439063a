#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlsum's LLM endpoint failing every way the network can, a cache that
# cannot take the summary, SIGTERM mid-run.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults
load helpers/urlsum

setup() {
	common_setup
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	REC='{"url":"https://a.test/x","url_type":"web","title":"Boats","content":"The harbour was quiet. The boats rocked gently."}'
}

teardown() {
	for d in "$T"/cache "$T"/cache/*; do
		[ -d "$d" ] && writable "$d"
	done
	common_teardown
}

# summarise URL [options]: urlsum on $REC then a second, good record
# with a summary of its own already (no request), so the run goes on.
summarise() {
	local url=$1
	shift
	printf '%s\n' "$REC" \
	    '{"url":"https://b.test/","content":"x","summary":"kept","summary_type":"BRIEF"}' |
	    timeout 30 urlsum --no-fallback -U "$url" -t 1 --retries 1 "$@"
}

@test "the endpoint resets the connection mid-reply: an error record, the run goes on" {
	fault R reset
	run -1 --separate-stderr summarise "http://127.0.0.1:$R_PORT/v1"
	[ "${#lines[@]}" = 2 ]
	jq -e '.url == "https://a.test/x" and (.error | startswith("LLM request")) and .summary == null' <<<"${lines[0]}"
	jq -e '.summary == "kept" and .error == null' <<<"${lines[1]}"
	[[ $stderr == *"<stdin>:1: 'https://a.test/x': LLM request"* ]]
	[ "$(conns R)" -ge 1 ]
}

@test "an endpoint that accepts and never answers: the record fails at -T" {
	fault H hang
	run -1 --separate-stderr summarise "http://127.0.0.1:$H_PORT/v1"
	[ "$(jq -r .error <<<"${lines[0]}")" = "LLM request timed out after 1 s" ]
	jq -e '.summary == "kept"' <<<"${lines[1]}"
	# The stand-in that reads the request and never answers: the same.
	llm hang
	run -1 --separate-stderr summarise "$URLKIT_LLM_URL"
	[ "$(jq -r .error <<<"${lines[0]}")" = "LLM request timed out after 1 s" ]
}

@test "an endpoint whose name does not resolve: an error record" {
	run -1 --separate-stderr summarise http://llm.invalid/v1
	[[ $(jq -r .error <<<"${lines[0]}") == "LLM request: "*"resolve"* ]]
	jq -e '.summary == "kept"' <<<"${lines[1]}"
}

@test "an endpoint whose certificate does not verify: an error record, never a request" {
	fault S page --tls
	run -1 --separate-stderr summarise "https://localhost:$S_PORT/v1"
	[[ $(jq -r .error <<<"${lines[0]}") == *"certificate"* ]]
}

@test "a cache that cannot take the summary: the record goes out, a warning, exit 1" {
	llm normal
	urlcache set <<<"$REC"
	d=$(dirname "$(urlcache path https://a.test/x)")
	read_only "$d" || skip "cannot make a directory read-only here"
	run -1 --separate-stderr urlsum <<<"$REC"
	jq -e '.summary_backend == "stand-in" and (.summary | length > 0) and .error == null' <<<"$output"
	[[ $stderr == "urlsum: cache: 'https://a.test/x': cannot create '$d/"* ]]
	# The entry is as it was: no summary in it, nothing half-written.
	run -0 urlcache get https://a.test/x
	jq -e '.summary == null and .title == "Boats"' <<<"$output"
	no_temp "$T/cache"
}

@test "a full disk under the cache: the summary goes out, the entry is unharmed" {
	full_disk_ok || skip "no tmpfs without root and mount namespaces"
	llm normal
	export REC URLKIT_CACHE_DIR=$T/small/cache
	run -0 on_full_disk "$T/small" '
		urlcache set <<<"$REC"
		cp "$(urlcache path https://a.test/x)" "$T/entry"
		fill_disk "$1"
		urlsum <<<"$REC" >"$T/out" 2>"$T/err"
		echo $? >"$T/rc"
		cmp "$(urlcache path https://a.test/x)" "$T/entry" && echo same >"$T/cmp"
		find "$1" -name ".*.tmp.*" >"$T/tmp"'
	[ "$(cat "$T/rc")" = 1 ]
	jq -e '.summary_backend == "stand-in" and .error == null' "$T/out"
	[[ $(cat "$T/err") == *"No space left on device"* ]]
	[ "$(cat "$T/cmp")" = same ]
	[ ! -s "$T/tmp" ]
}

@test "SIGTERM mid-run: whole records only, each with its summary" {
	llm slow
	for i in $(seq 1 20); do
		jq -c --arg u "https://a.test/$i" '.url = $u' <<<"$REC"
	done >"$T/in"
	urlsum -j 2 <"$T/in" >"$T/out" 2>"$T/err" &
	pid=$!
	for _ in $(seq 1 300); do
		[ "$(wc -l <"$T/out")" -ge 2 ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" = 143 ]
	all_json "$T/out"
	n=$(wc -l <"$T/out")
	[ "$n" -ge 2 ] && [ "$n" -lt 20 ]
	jq -e -s 'all(.summary_backend == "stand-in")' "$T/out"
	no_temp "$T/cache"
}
