#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The seed's whole flow, detect -> fetch -> summarise -> dispatch, as one
# shell pipeline with jq between the stages, against loopback servers for
# everything it talks to: web pages, the GitHub API and archives, an LLM,
# and toolack serve with toolack exec as the frontend.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/e2e

setup_file() {
	e2e_repo "$BATS_FILE_TMPDIR"
}

setup() {
	common_setup
	e2e_start
	# A chat log: one message per line, one line that is not JSON, a
	# page that is gone and a private address an agent should not reach.
	cat >"$T/msgs.jsonl" <<EOF
{"from":"ana","text":"The story at $B/article.html is lovely; the API is in $B/docs/frob.html"}
{"from":"bo","text":"Crash: https://github.com/octo/demo/issues/7 in https://github.com/acme/tiny"}
{"from":"cy", text without quotes
{"from":"di","text":"Gone: $B/gone.html and my router http://10.0.0.1/admin"}
EOF
}

teardown() {
	common_teardown
}

# e2e_pipeline NAME: the pipeline over $T/msgs.jsonl; the last stage's
# output goes to $T/NAME, each stage's exit status to $T/NAME.status (in
# pipeline order), the fetched and summarised records to
# $T/NAME.fetched and $T/NAME.summed.  Returns the pipeline's status.
e2e_pipeline() {
	local out=$T/$1 st rc=0 s p=
	# A call id is used once (toolack refuses one seen within the hour):
	# runs after the first prefix theirs with the run's name.
	[ "$1" = run1 ] || p="$1 "
	set -o pipefail
	urldetect --json text "$T/msgs.jsonl" |
	    jq -c 'if .error then . else del(.start, .end) end' |
	    urlfetch -t 5 | tee "$out.fetched" |
	    jq -c 'if .url_type == "documentation" then .hint = "api reference" else . end' |
	    urlsum -t 5 | tee "$out.summed" |
	    jq -c --arg p "$p" 'if .error then . else {type: "open_url", id: ($p + .url), parameters: {url}} end' |
	    toolack call -t 10 >"$out"
	st=("${PIPESTATUS[@]}")
	echo "${st[*]}" >"$out.status"
	for s in "${st[@]}"; do
		[ "$s" = 0 ] || rc=$s
	done
	return "$rc"
}

# The successful URLs, in message order.
ok_urls() {
	printf '%s\n' "$B/article.html" "$B/docs/frob.html" \
	    https://github.com/octo/demo/issues/7 https://github.com/acme/tiny
}

@test "detect -> fetch -> summarise -> dispatch: records, errors and statuses" {
	run -1 e2e_pipeline run1
	# urldetect and urlfetch saw failures of their own (exit 1); the
	# stages after them passed the error records on and exit 0.
	#           urldetect jq urlfetch tee jq urlsum tee jq toolack
	[ "$(cat "$T/run1.status")" = "1 0 1 0 0 0 0 0 0" ]

	# The end of the pipeline: an ack per good URL, in order, and the
	# three error records, each blaming its stage, where they arose.
	run -0 jq -c 'if .toolCallId then [.toolCallId, .status, .output.url]
	    else [.tool, .line, .url, (.error | sub(":.*"; ""))] end' "$T/run1"
	[ "${#lines[@]}" = 7 ]
	[ "${lines[0]}" = "[\"$B/article.html\",\"success\",\"$B/article.html\"]" ]
	[ "${lines[1]}" = "[\"$B/docs/frob.html\",\"success\",\"$B/docs/frob.html\"]" ]
	[ "${lines[2]}" = '["https://github.com/octo/demo/issues/7","success","https://github.com/octo/demo/issues/7"]' ]
	[ "${lines[3]}" = '["https://github.com/acme/tiny","success","https://github.com/acme/tiny"]' ]
	[ "${lines[4]}" = '["urldetect",3,null,"invalid JSON"]' ]
	[ "${lines[5]}" = "[null,null,\"$B/gone.html\",\"HTTP 404\"]" ]
	[[ ${lines[6]} == '[null,null,"http://10.0.0.1/admin","refused to connect to private address 10.0.0.1'* ]]

	# The frontend opened exactly the good URLs, each once, as one argument.
	# (Handlers run side by side: the order they ran in is free.)
	run -0 sort "$T/opened"
	[ "$output" = "$(ok_urls | sed 's/^/1:/' | sort)" ]

	# What urlfetch wrote: content by type, nothing from the cache.
	run -0 jq -c 'select(.error == null) | [.url_type, .title, .cached]' "$T/run1.fetched"
	[ "${lines[0]}" = '["web","The Quiet Harbour",false]' ]
	[ "${lines[1]}" = '["documentation","frobnicate",false]' ]
	[ "${lines[2]}" = '["github_issue","Crash when frobnicating",false]' ]
	[ "${lines[3]}" = '["github_repo","acme/tiny",false]' ]
	# (jq 1.6's -e looks at the last input only: one record per jq -e.)
	jq -c 'select(.url_type == "github_repo")' "$T/run1.fetched" |
	    jq -e '(.readme | test("widgets into gadgets")) and
	    (.symbol_map | test("make_gadget"))'

	# urlsum asked the model once per good record; the jq stage's hint
	# made the documentation page an API summary.
	[ "$(llm_count)" = 4 ]
	run -0 jq -c 'select(.error == null) | [.summary_type, .summary_backend]' "$T/run1.summed"
	[ "$(printf '%s\n' "${lines[@]}" | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ' ')" = \
	    '1["API","stand-in"] 1["ARCHITECTURE","stand-in"] 2["BRIEF","stand-in"] ' ]
	jq -c 'select(.url_type == "documentation")' "$T/run1.summed" |
	    jq -e '.summary_reason | test("api")'

	# Every output of every stage is whole JSON records.
	jq -e . "$T/run1" "$T/run1.fetched" "$T/run1.summed" >/dev/null
	# Nothing left behind: no pending call, no temporary file.
	[ "$(curl -s -H "Authorization: Bearer $(cat "$TOOLACK_TOKEN_FILE")" \
	    "$TOOLACK_URL/api/tools/calls?limit=0" | jq .pending)" = 0 ]
	[ -z "$(find "$URLKIT_CACHE_DIR" "$TMPDIR" -name '*.tmp*' -o -name 'urlkit-repo.*')" ]
}

@test "a second run is served from the cache: no new request to any server" {
	run -1 e2e_pipeline run1
	for u in /article.html /docs/frob.html /api/repos/octo/demo/issues/7; do
		[ "$(fs_count "$u")" = 1 ]
	done
	[ "$(archive_count)" = 1 ]
	[ "$(llm_count)" = 4 ]

	run -1 e2e_pipeline run2
	[ "$(cat "$T/run2.status")" = "1 0 1 0 0 0 0 0 0" ]
	# The pages, the API, the archive and the model: not asked again.
	for u in /article.html /docs/frob.html /api/repos/octo/demo/issues/7; do
		[ "$(fs_count "$u")" = 1 ]
	done
	[ "$(archive_count)" = 1 ]
	[ "$(llm_count)" = 4 ]
	# Failures are never cached: the missing page is asked for again.
	[ "$(fs_count /gone.html)" = 2 ]
	run -0 jq -c 'select(.error == null) | .cached' "$T/run2.fetched"
	[ "$(echo $output)" = "true true true true" ]
	# urlfetch handed on the summaries urlsum had written into the cache
	# entries, so urlsum had nothing to ask.
	run -0 jq -c 'select(.error == null) | .summary_backend' "$T/run2.summed"
	[ "$(echo $output)" = '"input" "input" "input" "input"' ]
	# The same summaries, and the same dispatch at the end.
	diff <(jq -c 'select(.error == null) | [.url, .summary_type, .summary]' "$T/run1.summed") \
	    <(jq -c 'select(.error == null) | [.url, .summary_type, .summary]' "$T/run2.summed")
	diff <(jq -c 'del(.requestedAt, .fetched_at, .toolCallId)' "$T/run1") \
	    <(jq -c 'del(.requestedAt, .fetched_at, .toolCallId)' "$T/run2")
	[ "$(grep -c . "$T/opened")" = 8 ]
}

@test "cron-style urlcache cleanup between runs: what it removes is refetched, nothing else" {
	run -1 e2e_pipeline run1
	run -0 urlcache stats
	# Four records and the repository's parsed tags (urlkit-tags:URL).
	jq -e '.entries == 5 and .expired == 0' <<<"$output"
	# A day and a bit later for two entries (the TTL is a day).
	touch -d '25 hours ago' "$(urlcache path "$B/article.html")" \
	    "$(urlcache path https://github.com/acme/tiny)"
	# And a writer that died mid-write long ago left a temporary file.
	tmpf=$(dirname "$(urlcache path "$B/docs/frob.html")")/.0123456789abcdef.json.tmp.999999.00000000
	echo '{"url":' >"$tmpf"
	touch -d '2 hours ago' "$tmpf"
	run -0 urlcache list
	[ "$(jq -r 'select(.expired) | .url' <<<"$output" | sort)" = \
	    "$(printf '%s\n' "$B/article.html" https://github.com/acme/tiny | sort)" ]

	# As cron runs it: quiet, exit 0, nothing on stdout or stderr.
	run -0 --separate-stderr urlcache -q cleanup
	[ -z "$output" ] && [ -z "$stderr" ]
	[ ! -e "$tmpf" ]
	run -0 urlcache list
	[ "$(jq -r .url <<<"$output" | sort)" = \
	    "$(printf '%s\n' "$B/docs/frob.html" https://github.com/octo/demo/issues/7 \
	    urlkit-tags:https://github.com/acme/tiny | sort)" ]

	run -1 e2e_pipeline run2
	[ "$(cat "$T/run2.status")" = "1 0 1 0 0 0 0 0 0" ]
	# Exactly what cleanup removed was fetched and summarised again.
	[ "$(fs_count /article.html)" = 2 ]
	[ "$(archive_count)" = 2 ]
	[ "$(fs_count /docs/frob.html)" = 1 ]
	[ "$(fs_count /api/repos/octo/demo/issues/7)" = 1 ]
	[ "$(llm_count)" = 6 ]
	run -0 jq -c 'select(.error == null) | [.url, .cached]' "$T/run2.fetched"
	[ "${lines[0]}" = "[\"$B/article.html\",false]" ]
	[ "${lines[1]}" = "[\"$B/docs/frob.html\",true]" ]
	[ "${lines[2]}" = '["https://github.com/octo/demo/issues/7",true]' ]
	[ "${lines[3]}" = '["https://github.com/acme/tiny",false]' ]
	run -0 urlcache stats
	jq -e '.entries == 5 and .expired == 0' <<<"$output"
	diff <(jq -c 'del(.requestedAt, .fetched_at, .toolCallId)' "$T/run1") \
	    <(jq -c 'del(.requestedAt, .fetched_at, .toolCallId)' "$T/run2")
}
