#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch: records, order, types, the per-message limit, the pipeline.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

# man.bats checks that -h prints the man page's SYNOPSIS.
@test "usage: bad options exit 2; -V prints the version" {
	run -2 urlfetch --no-such-option
	[[ $output == *"try 'urlfetch --help'"* ]]
	run -2 urlfetch -j 0
	run -2 urlfetch -t nope
	run -2 urlfetch -s 0
	run -0 urlfetch -V
	[[ $output == "urlfetch "* ]]
}

@test "a web page becomes a content record with title, metadata and text" {
	run -0 urlfetch <<<"$B/article.html"
	[ "${#lines[@]}" -eq 1 ]
	json_eq "$(field "$output" '{url, url_type, title, description, author, cached, error}')" \
	    "{\"url\":\"$B/article.html\",\"url_type\":\"web\",\"title\":\"The Quiet Harbour\",\"description\":\"A short story about boats.\",\"author\":\"Ada Lovelace\",\"cached\":false,\"error\":null}"
	[[ $(field "$output" .content) == *"harbour was quiet that morning"* ]]
	[[ $(field "$output" .content) == *"Café owners brought their chairs inside & waited."* ]]
	[[ $(field "$output" .content) != *SCRIPT-NOISE* ]]
	[[ $(field "$output" .content) != *"color: red"* ]]
	# Whitespace cleaned: no run of blank lines, no spaces at the ends.
	[ "$(field "$output" '.content | test("\n\n\n|^\\s|\\s$|  ")')" = false ]
	[[ $(field "$output" .date) == 2024-03-05* ]]
	[[ $(field "$output" .fetched_at) =~ ^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T ]]
	[ "$(field "$output" .http.status)" = 200 ]
}

@test "the browser-like User-Agent is sent, and -A replaces it" {
	run -0 urlfetch -C <<<"$B/article.html?ua=1"
	run -0 curl -s "$B/_log"
	[[ $(grep '^/article.html?ua=1 ' <<<"$output") == *"ua=Mozilla/5.0"* ]]
	run -0 urlfetch -C -A 'probe/1.0' <<<"$B/article.html?ua=2"
	run -0 curl -s "$B/_log"
	[[ $(grep '^/article.html?ua=2 ' <<<"$output") == *"ua=probe/1.0" ]]
}

@test "documentation URLs are fetched the same way and keep their type" {
	run -0 urlfetch <<<"$B/docs/frob.html"
	[ "$(field "$output" .url_type)" = documentation ]
	[[ $(field "$output" .title) == frobnicate* ]]
	[[ $(field "$output" .content) == *"frobnicate function takes a widget"* ]]
}

@test "plain text is taken as it is" {
	run -0 urlfetch <<<"$B/text.txt"
	[ "$(field "$output" .content)" = "$(printf 'plain text line one\nline two')" ]
}

@test "records come out in input order while fetching concurrently" {
	# The slow ones first: output order must still follow input.
	printf '%s\n' "$B/ratelimit?o=1" "$B/text.txt?o=2" \
	    "$B/article.html?o=3" "$B/status/404?o=4" "$B/text.txt?o=5" \
	    >"$T/in"
	run -1 --separate-stderr urlfetch -j 4 -i "$T/in"
	[ "${#lines[@]}" -eq 5 ]
	got=$(printf '%s\n' "$output" | jq -r '.url | sub(".*o="; "")' | tr '\n' ' ')
	[ "$got" = "1 2 3 4 5 " ]
}

@test "url records: their fields carried, error records passed through, bad lines reported" {
	cat >"$T/in" <<-EOF2
	{"url":"$B/text.txt","type":"web","display":"x","start":0,"end":9,"message":1,"id":"m1","hint":"how to"}
	{"error":"upstream failed","tool":"urldetect"}
	not json {
	{"nourl":1}

	EOF2
	run -1 --separate-stderr urlfetch -C -i "$T/in"
	[ "${#lines[@]}" -eq 4 ]
	json_eq "$(field "${lines[0]}" '{url, url_type, id, message, hint, display, start}')" \
	    "{\"url\":\"$B/text.txt\",\"url_type\":\"web\",\"id\":\"m1\",\"message\":1,\"hint\":\"how to\",\"display\":\"x\",\"start\":0}"
	json_eq "${lines[1]}" '{"error":"upstream failed","tool":"urldetect"}'
	[ "$(field "${lines[2]}" .line)" = 3 ]
	[ "$(field "${lines[2]}" .tool)" = urlfetch ]
	[ "$(field "${lines[3]}" .error)" = "no string field 'url'" ]
	[[ $stderr == *":3: "* ]]
}

@test "an error record passed through does not change the exit status" {
	run -0 urlfetch <<<'{"error":"upstream","tool":"urldetect"}'
	json_eq "$output" '{"error":"upstream","tool":"urldetect"}'
}

@test "failure is sticky: a failed record makes the run exit 1" {
	printf '%s\n' "$B/status/500?s=1" "$B/text.txt" >"$T/in"
	run -1 --separate-stderr urlfetch -C -t 2 -i "$T/in"
	[ "$(field "${lines[0]}" .error)" = "HTTP 500" ]
	[ "$(field "${lines[1]}" .error)" = null ]
	[[ $stderr == *"'$B/status/500?s=1': HTTP 500"* ]]
}

@test "a URL that is not http or https is an error record" {
	run -1 --separate-stderr urlfetch <<<"ftp://example.com/file"
	[ "$(field "$output" .error)" = "not an http or https URL" ]
}

@test "per-message limit: at most 3 URLs of one message by default" {
	for i in 1 2 3 4 5; do
		printf '{"url":"%s/text.txt?m=%s","message":1}\n' "$B" "$i"
	done >"$T/in"
	printf '{"url":"%s/text.txt?m=6","message":2}\n' "$B" >>"$T/in"
	run -1 --separate-stderr urlfetch -C -i "$T/in"
	[ "${#lines[@]}" -eq 6 ]
	got=$(printf '%s\n' "$output" | jq -r 'select(.skipped | not) | .url | sub(".*m="; "")' | tr '\n' ' ')
	[ "$got" = "1 2 3 6 " ]
	[ "$(requests '/text.txt?m=4')" = 0 ]
	[[ $stderr == *"over the limit of 3 URLs per message"* ]]
}

@test "per-message limit: -m changes it, -m 0 lifts it" {
	for i in 1 2 3 4 5; do
		printf '{"url":"%s/text.txt?n=%s","message":7}\n' "$B" "$i"
	done >"$T/in"
	run -1 --separate-stderr urlfetch -C -m 2 -i "$T/in"
	[ "$(printf '%s\n' "$output" | jq -s -c 'map(.skipped == true)')" = "[false,false,true,true,true]" ]
	run -0 urlfetch -C -m 0 -i "$T/in"
	[ "${#lines[@]}" -eq 5 ]
}

@test "bare URLs have no message and no limit" {
	for i in 1 2 3 4 5; do echo "$B/text.txt?b=$i"; done >"$T/in"
	run -0 urlfetch -C -i "$T/in"
	[ "${#lines[@]}" -eq 5 ]
}

@test "detect_and_fetch: urldetect | urlfetch fetches every URL of a text" {
	printf 'see %s/article.html, then %s/docs/frob.html and\n%s/text.txt.\n' \
	    "$B" "$B" "$B" >"$T/text"
	run -0 bash -c 'urldetect "$1" | urlfetch' _ "$T/text"
	[ "${#lines[@]}" -eq 3 ]
	got=$(printf '%s\n' "$output" | jq -r '[.url_type, (.title // "-" | split(" ")[0])] | join(":")' | tr '\n' '|')
	[ "$got" = "web:The|documentation:frobnicate|web:-|" ]
	[ "$(printf '%s\n' "$output" | jq -r .message | sort -u)" = null ]
}

@test "detect_and_fetch: the streaming limit holds through the pipeline" {
	printf '%s/text.txt?p=%s ' "$B" 1 "$B" 2 "$B" 3 "$B" 4 "$B" 5 >"$T/text"
	run -1 --separate-stderr bash -c 'urldetect -L -m 0 "$1" | urlfetch' _ "$T/text"
	[ "$(printf '%s\n' "$output" | jq -s -c 'map(.skipped == true)')" = "[false,false,false,true,true]" ]
	[ "$(requests '/text.txt?p=4')" = 0 ]
}

@test "GitHub file: raw URL built from the parts, title is the file name" {
	run -0 urlfetch <<<"https://github.com/octo/demo/blob/main/README.md"
	json_eq "$(field "$output" '{url_type, title, content, github_info, error}')" \
	    '{"url_type":"github_file","title":"README.md","content":"# demo\n\nA demo repository.\n","github_info":{"owner":"octo","repo":"demo","branch":"main","path":"README.md"},"error":null}'
	[ "$(requests /raw/octo/demo/main/README.md)" -ge 1 ]
}

@test "GitHub file: a 404 on main retries master" {
	run -0 urlfetch -C <<<"https://github.com/octo/demo/blob/main/src/hello.py"
	[ "$(field "$output" .content)" = "$(printf "def hello():\n    return 'hi'")" ]
	[ "$(field "$output" .title)" = hello.py ]
	[ "$(field "$output" .github_info.branch)" = master ]
	[ "$(requests /raw/octo/demo/main/src/hello.py)" -ge 1 ]
	[ "$(requests /raw/octo/demo/master/src/hello.py)" -ge 1 ]
}

@test "GitHub file: raw.githubusercontent.com URLs take the same path" {
	run -0 urlfetch -C <<<"https://raw.githubusercontent.com/octo/demo/main/src/hello.py"
	[ "$(field "$output" .url_type)" = github_file ]
	[ "$(field "$output" .github_info.branch)" = master ]
}

@test "GitHub file: missing on main and master is an error; a branch other than main gets no fallback" {
	run -1 --separate-stderr urlfetch -C <<<"https://github.com/octo/demo/blob/main/nope.txt"
	[ "$(field "$output" .error)" = "HTTP 404" ]
	[ "$(requests /raw/octo/demo/master/nope.txt)" -ge 1 ]
	run -1 --separate-stderr urlfetch -C <<<"https://github.com/octo/demo/blob/dev/src/hello.py"
	[ "$(field "$output" .error)" = "HTTP 404" ]
	[ "$(requests /raw/octo/demo/master/src/hello.py?x)" = 0 ]
}

@test "GitHub file: a binary file is an error, not mojibake" {
	run -1 --separate-stderr urlfetch -C <<<"https://github.com/octo/demo/blob/main/bin/blob.bin"
	[ "$(field "$output" .error)" = "binary file, not text" ]
}

@test "GitHub issue: structured from the API when it answers" {
	run -0 urlfetch <<<"https://github.com/octo/demo/issues/7"
	json_eq "$(field "$output" '{url_type, title, author, content, github_info}')" \
	    '{"url_type":"github_issue","title":"Crash when frobnicating","author":"octocat","content":"Steps to reproduce: frobnicate an empty widget.","github_info":{"owner":"octo","repo":"demo","issue_number":7,"state":"open","labels":["bug","help wanted"],"comments":4,"source":"api"}}'
}

@test "GitHub PR: state and merge from the API" {
	run -0 urlfetch <<<"https://github.com/octo/demo/pull/9"
	[ "$(field "$output" .url_type)" = github_pr ]
	[ "$(field "$output" '.github_info | [.pr_number, .state, .merged] | join(" ")')" = "9 closed true" ]
}

@test "GitHub issue: the web page when the API does not answer" {
	run -0 urlfetch <<<"https://github.com/octo/demo/issues/8"
	[ "$(field "$output" .url_type)" = github_issue ]
	[[ $(field "$output" .title) == "Web issue 8"* ]]
	[[ $(field "$output" .content) == *"came from the web host"* ]]
	[ "$(field "$output" .github_info.issue_number)" = 8 ]
	[ "$(field "$output" .github_info.source)" = null ]
}

@test "GitHub token goes to the API" {
	URLKIT_GITHUB_TOKEN=sekrit run -0 urlfetch -C <<<"https://github.com/octo/demo/issues/7"
	[ "$(field "$output" .title)" = "Crash when frobnicating" ]
}

@test "GitHub repository: a missing archive is an error record" {
	URLKIT_GITHUB_ARCHIVE_URL=$B run -1 --separate-stderr urlfetch <<<"https://github.com/octo/demo"
	[ "$(field "$output" .url_type)" = github_repo ]
	[[ $(field "$output" .error) == *"404"* ]]
	[ "$(field "$output" .github_info.repo)" = demo ]
}

@test "more URLs than jobs, one host: all fetched, in order" {
	for i in $(seq 1 20); do echo "$B/text.txt?many=$i"; done >"$T/in"
	run -0 urlfetch -C -j 3 -i "$T/in"
	[ "${#lines[@]}" -eq 20 ]
	[ "$(printf '%s\n' "$output" | jq -r '.url | sub(".*many="; "")' | tr '\n' ' ')" = "$(seq 1 20 | tr '\n' ' ')" ]
}

@test "input arrives slowly: records come out as they are ready" {
	# The first record must be out before the input ends.
	mkfifo "$T/fifo"
	(urlfetch -C <"$T/fifo" >"$T/out") &
	pid=$!
	exec 5>"$T/fifo"
	echo "$B/text.txt?slow=1" >&5
	for _ in $(seq 1 100); do
		[ -s "$T/out" ] && break
		sleep 0.05
	done
	run -0 cat "$T/out"
	[ "${#lines[@]}" -eq 1 ]
	echo "$B/text.txt?slow=2" >&5
	exec 5>&-
	wait "$pid"
	run -0 cat "$T/out"
	[ "${#lines[@]}" -eq 2 ]
}
