#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve(1): each tool through raw JSON-RPC lines on its stdio, against
# the loopback fixture servers (tests/helpers/): results, paging, the
# fetched set and the cache, -S shared with urlcache, open_url through a
# real toolack serve, cancellation, and refused addresses.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch
load helpers/toolack
load helpers/urlsum

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }

setup() {
	fetch_setup
	export URLKIT_CHROMIUM=/nonexistent
	unset URLKIT_LLM_URL OPENAI_API_KEY TOOLACK_URL TOOLACK_TOKEN
	unset TOOLACK_TOKEN_FILE
}

teardown() {
	local ok=0
	us_stop || ok=1
	common_teardown
	return $ok
}

# us_stop: end urlserve's input, read what it still writes, and check
# that it exits 0 with no sanitizer's report.
us_stop() {
	local pid st=0
	[ -n "${US_IN:-}" ] || return 0
	exec {US_IN}>&-
	cat <&"$US_OUT" >/dev/null
	exec {US_OUT}<&-
	US_IN= US_OUT=
	read -r pid <"$T/us.pid"
	wait "$pid" || st=$?
	if [ "$st" -ne 0 ] || grep -q 'Sanitizer' "$T/us.log"; then
		echo "urlserve exited $st" >&2
		cat "$T/us.log" >&2
		return 1
	fi
}

# us_start [OPTION...]: urlserve on a pair of FIFOs (its pid in
# $T/us.pid, stderr in $T/us.log), initialized; US_IN and US_OUT are
# the descriptors to write requests to and read messages from.
us_start() {
	local line
	rm -f "$T/us.in" "$T/us.out"
	mkfifo "$T/us.in" "$T/us.out"
	urlserve "$@" <"$T/us.in" >"$T/us.out" 2>>"$T/us.log" &
	echo $! >"$T/us.pid"
	exec {US_IN}>"$T/us.in" {US_OUT}<"$T/us.out"
	US_ID=0
	us_send_raw '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}'
	read -r -t 30 line <&"$US_OUT" || return 1
	[ "$(jq -r .result.serverInfo.name <<<"$line")" = urlserve ]
	us_send_raw '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}

us_send_raw() {
	printf '%s\n' "$1" >&"$US_IN"
}

# us_send TOOL [ARGS [META]]: a tools/call; its id in US_ID.
us_send() {
	US_ID=$((US_ID + 1))
	us_send_raw "{\"jsonrpc\":\"2.0\",\"id\":$US_ID,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":${2:-{\}}${3:+,\"_meta\":$3}}}"
}

# The id is jq's .id // empty, found without a jq where the line says it
# plainly (a jq for every message was some 40 ms of CPU): a line that
# begins {"jsonrpc":"2.0","id": and a plain number or string has that
# top-level id; one with no "id" anywhere has none; jq reads the rest.
US_ID_RE='^\{"jsonrpc":"2\.0","id":("([A-Za-z0-9_-]*)"|([0-9]+))[,}]'
# us_read ID: print the messages read up to the response to ID (the
# notifications before it in $T/us.notes), then the response.
us_read() {
	local line id
	: >"$T/us.notes"
	while read -r -t 60 line <&"$US_OUT"; do
		if [[ $line =~ $US_ID_RE ]]; then
			id=${BASH_REMATCH[2]}${BASH_REMATCH[3]}
		elif [[ $line != *'"id"'* ]]; then
			id=
		else
			id=$(jq -r '.id // empty' <<<"$line")
		fi
		if [ "$id" = "$1" ]; then
			printf '%s\n' "$line"
			return 0
		fi
		printf '%s\n' "$line" >>"$T/us.notes"
	done
	return 1
}

# us_call TOOL [ARGS [META]]: send and print the response.
us_call() {
	us_send "$@"
	us_read "$US_ID"
}

# Fields of a response: its structuredContent, text, isError.
sc() { jq -c .result.structuredContent <<<"$1"; }
text() { jq -r '.result.content[0].text' <<<"$1"; }
is_error() { jq -r .result.isError <<<"$1"; }

@test "tools/list: every tool with closed input schemas and output schemas; render_url only with Chromium" {
	us_start
	us_send_raw '{"jsonrpc":"2.0","id":"l","method":"tools/list"}'
	run -0 us_read l
	run -0 jq -r '.result.tools[].name' <<<"$output"
	[ "$output" = "detect_urls
fetch_url
detect_and_fetch
get_url_content
get_fetched_urls
remove_fetched_url
clear_fetched
invalidate_url_cache
clear_url_cache
format_url_context
open_url
map_site" ]
	us_send_raw '{"jsonrpc":"2.0","id":"l2","method":"tools/list"}'
	run -0 us_read l2
	[ "$(jq '[.result.tools[] | select(.inputSchema.additionalProperties != false or .outputSchema.type != "object" or (.description | length) < 40)] | length' <<<"$output")" = 0 ]
	[ "$(jq -c '.result.tools[] | select(.name == "clear_url_cache") | .annotations.destructiveHint' <<<"$output")" = true ]
	[ "$(jq -c '.result.tools[] | select(.name == "fetch_url") | .annotations.openWorldHint' <<<"$output")" = true ]
	# With a Chromium (any executable stands for one here), render_url.
	export URLKIT_CHROMIUM=/bin/true
	us_stop
	us_start
	us_send_raw '{"jsonrpc":"2.0","id":"l3","method":"tools/list"}'
	run -0 us_read l3
	[ "$(jq -r '.result.tools[-1].name' <<<"$output")" = render_url ]
}

# tools_tokens [OPTION...]: the cl100k_base tokens of urlserve's
# tools/list (its tools array as compact JSON), counted by the npm
# package tiktoken's own encoder.
tools_tokens() {
	us_start "$@"
	us_send_raw '{"jsonrpc":"2.0","id":"l","method":"tools/list"}'
	us_read l | jq -c .result.tools >"$T/tools.json"
	us_stop
	node "$TOP/tests/unit/tiktoken_ref.cjs" "$TOP/.tokenizers" \
	    cl100k_base "$T/tools.json"
}

@test "render_url's errors name no pwfetch option and do not offer render_url again" {
	export URLKIT_CHROMIUM=${URLKIT_CHROMIUM_REAL:-/usr/lib/chromium/chromium}
	[ -x "$URLKIT_CHROMIUM" ] || skip "no Chromium"
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	us_start
	run -0 us_call render_url "{\"url\":\"http://127.0.0.2:$FS_PORT/article.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"private"* ]]
	[[ $(text "$output") == *"urlserve does not fetch"* ]]
	[[ $(text "$output") != *-P* ]]
	[[ $(text "$output") != *URLKIT_* ]]
	run -0 us_call render_url "{\"url\":\"$B/blocked.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"block or challenge"* ]]
	[[ $(text "$output") != *"call render_url"* ]]
}

@test "--tools: only the tools chosen are listed and callable; a bad name is a usage error" {
	export URLKIT_CHROMIUM=/bin/true
	us_start --tools=lean
	us_send_raw '{"jsonrpc":"2.0","id":"l","method":"tools/list"}'
	run -0 us_read l
	[ "$(jq -r '[.result.tools[].name] | join(",")' <<<"$output")" = fetch_url,get_url_content,render_url ]
	run -0 us_call clear_url_cache
	[ "$(jq -r .error.code <<<"$output")" = -32602 ]
	us_stop
	us_start --tools detect_urls,fetch_url
	us_send_raw '{"jsonrpc":"2.0","id":"l","method":"tools/list"}'
	run -0 us_read l
	[ "$(jq -r '[.result.tools[].name] | join(",")' <<<"$output")" = detect_urls,fetch_url ]
	# The hints name only the tools listed: no map_site after a 404.
	run -0 us_call fetch_url "{\"url\":\"$B/status/404\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == "HTTP 404"*"check the URL"* ]]
	[[ $(text "$output") != *map_site* ]]
	us_stop
	run -2 urlserve --tools=fetch_url,nope </dev/null
	[ "$status" -eq 2 ]
	[[ $output == *"not a tool or a profile: 'nope'"* ]]
	run -2 urlserve --tools= </dev/null
	[ "$status" -eq 2 ]
}

# instructions [OPTION...]: initialize's instructions.
instructions() {
	printf '%s\n' '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' |
	    urlserve "$@" 2>>"$T/us.log" | jq -r .result.instructions
}

@test "--tools: the instructions name only the tools listed" {
	local t
	export URLKIT_CHROMIUM=/bin/true
	run -0 instructions --tools=lean
	[ "$output" = "urlkit's URL tools. fetch_url returns a page in slices: call it again with the offset it gives to read on. The fetched set (get_url_content) holds every URL fetched in this session." ]
	run -0 instructions --tools=detect_urls
	[ "$output" = "urlkit's URL tools." ]
	run -0 instructions
	[[ $output == *"(get_fetched_urls, get_url_content, format_url_context)"* ]]
	# Every tool name in them is a tool listed, in each choice.
	for t in lean fetch_url,format_url_context detect_urls,get_fetched_urls; do
		run -0 instructions --tools=$t
		[ "$status" -eq 0 ]
		for n in $(grep -o '[a-z]*_[a-z_]*' <<<"$output" | sort -u); do
			case ,$t, in
			,lean,) [[ ,fetch_url,get_url_content,render_url, == *",$n,"* ]] ;;
			*) [[ ,$t, == *",$n,"* ]] ;;
			esac
		done
	done
}

@test "tools/list costs the cl100k tokens urlserve(1) says, full and lean" {
	command -v node >/dev/null || skip "node is not installed"
	local full lean
	export URLKIT_CHROMIUM=/bin/true
	full=$(sed -n 's/.* are \([0-9]*\) cl100k_base tokens with every tool and \([0-9]*\)$/\1/p' "$TOP/man/urlserve.1")
	lean=$(sed -n 's/.* are \([0-9]*\) cl100k_base tokens with every tool and \([0-9]*\)$/\2/p' "$TOP/man/urlserve.1")
	[ -n "$full" ] && [ -n "$lean" ]
	run -0 tools_tokens
	[ "$status" -eq 0 ]
	[ "$output" -eq "$full" ]
	run -0 tools_tokens --tools=lean
	[ "$output" -eq "$lean" ]
}

@test "each tool's definition costs the cl100k tokens urlserve(1) lists" {
	command -v node >/dev/null || skip "node is not installed"
	local name want got n=0
	export URLKIT_CHROMIUM=/bin/true
	tools_tokens >/dev/null
	while read -r name want; do
		jq -c --arg n "$name" '.[] | select(.name == $n)' "$T/tools.json" \
		    >"$T/one.json"
		[ -s "$T/one.json" ] || { echo "not listed: $name" >&2; return 1; }
		got=$(node "$TOP/tests/unit/tiktoken_ref.cjs" "$TOP/.tokenizers" \
		    cl100k_base "$T/one.json")
		[ "$got" -eq "$want" ] ||
		    { echo "$name: $got tokens, the page says $want" >&2; return 1; }
		n=$((n + 1))
	done < <(sed -n 's/^\.It Ic \([a-z_]*\) Ta \([0-9]*\)$/\1 \2/p' \
	    "$TOP/man/urlserve.1")
	# Every tool listed has its line.
	[ "$n" -eq "$(jq length "$T/tools.json")" ]
}

@test "fetch_url's timeout: seconds, bounded by -t; a timeout says what to do" {
	us_start -t 3
	local t0=$SECONDS
	run -0 us_call fetch_url "{\"url\":\"$B/slow?ms=2500&to=1\",\"timeout\":1}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"timed out after 1 s"*"call fetch_url again later"* ]]
	[ $((SECONDS - t0)) -lt 3 ]
	# Over -t: -t's.
	run -0 us_call fetch_url "{\"url\":\"$B/slow?ms=4500&to=2\",\"timeout\":60}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"timed out after 3 s"* ]]
	# Within it: the page.
	run -0 us_call fetch_url "{\"url\":\"$B/slow?ms=500&to=3\",\"timeout\":2}"
	[ "$(is_error "$output")" = false ]
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\",\"timeout\":0}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"'timeout'"* ]]
}

@test "detect_urls: the records urldetect writes" {
	local msg='see https://github.com/octo/demo and https://example.com/a, https://example.com/a again'
	us_start
	run -0 us_call detect_urls "$(jq -cn --arg t "$msg" '{text:$t}')"
	[ "$(is_error "$output")" = false ]
	# The text is one message, as a line is to urldetect -L.
	[ "$(jq -c '.result.structuredContent | (.urls)' <<<"$output")" = "$(printf '%s\n' "$msg" | urldetect -L | jq -sc .)" ]
	[ "$(jq '.result.structuredContent | (.count)' <<<"$output")" = 2 ]
	run -0 us_call detect_urls "$(jq -cn --arg t "$msg" '{text:$t,max:1}')"
	[ "$(jq '.result.structuredContent | (.count)' <<<"$output")" = 1 ]
	# A bad argument is an error result that names it.
	run -0 us_call detect_urls '{"text":"x","colour":1}'
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *colour* ]]
}

@test "fetch_url: the content record, Markdown text with a header, then from the cache" {
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = false ]
	[ "$(jq -c '.result.structuredContent | ({title,format,cached,offset,next_offset})' <<<"$output")" = '{"title":"The Quiet Harbour","format":"markdown","cached":false,"offset":0,"next_offset":null}' ]
	[ "$(text "$output" | head -1)" = "# The Quiet Harbour ($B/article.html)" ]
	[[ $(text "$output") == *"Nobody in the village remembered a calmer day."* ]]
	[[ $(text "$output") != *SCRIPT-NOISE* ]]
	local total
	total=$(jq '.result.structuredContent | (.total_length)' <<<"$output")
	[ "$total" -eq "$(jq -j '.result.structuredContent | (.content)' <<<"$output" | wc -m)" ]
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	[ "$(jq '.result.structuredContent | (.cached)' <<<"$output")" = true ]
	# use_cache false fetches again.
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\",\"use_cache\":false,\"format\":\"text\"}"
	[ "$(jq -c '.result.structuredContent | ({cached,format})' <<<"$output")" = '{"cached":false,"format":null}' ]
	run -0 us_call fetch_url '{"url":"file:///etc/passwd"}'
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"not an http or https URL"* ]]
}

@test "fetch_url pages a long page to its end: the slices joined are the whole text" {
	local i
	mkdir "$T/pages"
	for ((i = 1; i <= 400; i++)); do
		printf 'Paragraph %d: café, naïve, 日本語, emoji 🚀, and enough plain words to make a line of some length.\n\n' "$i"
	done >"$T/pages/long.txt"
	start_server PS python3 "$TOP/tests/helpers/page_server.py" "$T/pages"
	local url="http://127.0.0.1:$PS_PORT/long.txt" off=0 n=0 next got ends
	us_start
	run -0 us_call fetch_url "{\"url\":\"$url\",\"max_tokens\":100000}"
	jq -j '.result.structuredContent | (.content)' <<<"$output" >"$T/whole"
	[ "$(jq '.result.structuredContent | (.next_offset)' <<<"$output")" = null ]
	[ "$(wc -m <"$T/whole")" -eq "$(jq '.result.structuredContent | (.total_length)' <<<"$output")" ]
	cmp "$T/whole" "$T/pages/long.txt"
	: >"$T/joined"
	while :; do
		run -0 us_call fetch_url "{\"url\":\"$url\",\"max_tokens\":1500,\"offset\":$off}"
		jq -j .result.structuredContent.content <<<"$output" >>"$T/joined"
		# content_hash is the slice's, as sha256sum gives it.
		[ "$(jq -j .result.structuredContent.content <<<"$output" | sha256sum | cut -c1-64)" = \
		    "$(jq -r .result.structuredContent.content_hash <<<"$output")" ]
		# One jq for the slice's fields (a jq start costs ~40 ms of CPU).
		read -r got next ends < <(jq -r '.result.structuredContent |
		    "\(.offset) \(.next_offset) \(.content | endswith("\n\n"))"' <<<"$output")
		[ "$got" = "$off" ]
		n=$((n + 1))
		[ "$next" != null ] || break
		# The text tells the next offset, and a slice ends at a paragraph.
		[[ $(text "$output") == *"more characters: call fetch_url again with offset $next]" ]]
		[ "$ends" = true ]
		[ "$next" -gt "$off" ]
		off=$next
		[ "$n" -lt 200 ]
	done
	[ "$n" -gt 5 ]
	cmp "$T/joined" "$T/whole"
	# Past the end: an empty slice, and no next offset.
	run -0 us_call fetch_url "{\"url\":\"$url\",\"offset\":99999999}"
	[ "$(jq -c '.result.structuredContent | ({content,next_offset})' <<<"$output")" = '{"content":"","next_offset":null}' ]
	# The first look is 4000 tokens (urlserve(1) says why).
	run -0 us_call fetch_url "{\"url\":\"$url\"}"
	next=$(jq .result.structuredContent.next_offset <<<"$output")
	run -0 us_call fetch_url "{\"url\":\"$url\",\"max_tokens\":4000}"
	[ "$(jq .result.structuredContent.next_offset <<<"$output")" = "$next" ]
	run -0 us_call fetch_url "{\"url\":\"$url\",\"max_tokens\":4200}"
	[ "$(jq .result.structuredContent.next_offset <<<"$output")" -gt "$next" ]
}

@test "fetch_url summarize: the model's summary, written back to the cache entry; offline without one" {
	llm normal
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/docs/frob.html\",\"summarize\":true}"
	[ "$(jq -c '.result.structuredContent | ({summary_type,summary_backend})' <<<"$output")" = '{"summary_type":"USAGE","summary_backend":"stand-in"}' ]
	[[ $(jq -r '.result.structuredContent | (.summary)' <<<"$output") == "stand-in summary of "* ]]
	[[ $(text "$output") == *$'\n\nSummary (USAGE):\nstand-in summary of '* ]]
	[ "$(requests)" = 1 ]
	run -0 --separate-stderr urlcache get "$B/docs/frob.html"
	[ "$(jq -c '{summary_type}' <<<"$output")" = '{"summary_type":"USAGE"}' ]
	# Made once: the next call takes the cache entry's.
	run -0 us_call fetch_url "{\"url\":\"$B/docs/frob.html\",\"summarize\":true,\"hint\":\"how to call it\"}"
	[ "$(jq -r '.result.structuredContent | (.summary_backend)' <<<"$output")" = cache ]
	[ "$(requests)" = 1 ]
	# Another type is asked of the model.
	run -0 us_call fetch_url "{\"url\":\"$B/docs/frob.html\",\"summarize\":true,\"summary_type\":\"API\"}"
	[ "$(jq -c '.result.structuredContent | ({summary_type,summary_backend})' <<<"$output")" = '{"summary_type":"API","summary_backend":"stand-in"}' ]
	[ "$(requests)" = 2 ]
	run -0 us_call fetch_url "{\"url\":\"$B/docs/frob.html\",\"summary_type\":\"NONE\",\"summarize\":true}"
	[ "$(is_error "$output")" = true ]
	# No endpoint: the page's outline (tests/urlserve-outline.bats).
	us_stop
	unset URLKIT_LLM_URL
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\",\"summarize\":true}"
	[ "$(jq -c '.result.structuredContent | ({summary_type,summary_backend})' <<<"$output")" = '{"summary_type":"BRIEF","summary_backend":"outline"}' ]
}

@test "fetch_url summarize: a failing endpoint gives the outline with summary_error" {
	llm 500
	us_start -t 5
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\",\"summarize\":true}"
	[ "$(is_error "$output")" = false ]
	[ "$(jq -r '.result.structuredContent | (.summary_backend)' <<<"$output")" = outline ]
	[[ $(jq -r '.result.structuredContent | (.summary_error)' <<<"$output") == *500* ]]
}

@test "render_url: the page as Chromium renders it, paged, into the fetched set" {
	[ -x /usr/lib/chromium/chromium ] || skip "chromium is not installed"
	unset URLKIT_CHROMIUM
	us_start
	run -0 us_call render_url "{\"url\":\"$B/article.html\",\"max_tokens\":100}"
	[ "$(is_error "$output")" = false ]
	[ "$(jq -r '.result.structuredContent | (.title)' <<<"$output")" = "The Quiet Harbour" ]
	[[ $(text "$output") == "# The Quiet Harbour ($B/article.html)"* ]]
	run -0 us_call get_fetched_urls
	[ "$(jq -r '.result.structuredContent | (.urls[0].url)' <<<"$output")" = "$B/article.html" ]
	run -0 us_call render_url "{\"url\":\"http://127.0.0.1:9/\"}"
	[ "$(is_error "$output")" = true ]
}

@test "a refused address (127.0.0.2) is an error result, and the server goes on" {
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	us_start
	run -0 us_call fetch_url "{\"url\":\"http://127.0.0.2:$FS_PORT/article.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *refused* || $(text "$output") == *private* ]]
	[ "$(jq -r '.result.structuredContent | (.error)' <<<"$output")" = "$(text "$output")" ]
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = false ]
	# The refused URL is in the fetched set, as an error.
	run -0 us_call get_fetched_urls
	[ "$(jq -c '.result.structuredContent | ([.urls[] | .error != null])' <<<"$output")" = '[true,false]' ]
}

@test "errors and empty results say what to call next, in urlserve's own terms" {
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	export URLKIT_CHROMIUM=/bin/true
	us_start
	# A challenge page: render_url, not pwfetch.
	run -0 us_call fetch_url "{\"url\":\"$B/blocked.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"call render_url"* ]]
	[[ $(text "$output") != *pwfetch* ]]
	[ "$(jq -r '.result.structuredContent | (.error)' <<<"$output")" = "$(text "$output")" ]
	run -0 us_call fetch_url "{\"url\":\"$B/forbidden\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == "HTTP 403"*"call render_url"* ]]
	[[ $(text "$output") != *pwfetch* ]]
	# A private address: no option urlserve does not have.
	run -0 us_call fetch_url "{\"url\":\"http://127.0.0.2:$FS_PORT/article.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"private address"* ]]
	[[ $(text "$output") != *--* ]]
	[[ $(text "$output") != *URLKIT_* ]]
	# An app shell: an error result that says render_url.
	run -0 us_call fetch_url "{\"url\":\"$B/meta/app-shell.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"call render_url"* ]]
	# An offset past the end.
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\",\"offset\":100000000}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"smaller offset"* ]]
	# Nothing fetched yet for get_url_content: fetch_url.
	run -0 us_call get_url_content "{\"url\":\"$B/text.txt\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"call fetch_url"* ]]
	run -0 us_call detect_and_fetch '{"text":"no links here"}'
	[[ $(text "$output") == *"fetch_url"* ]]
	run -0 us_call detect_urls '{"text":"no links here"}'
	[ "$(is_error "$output")" = false ]
	[[ $(text "$output") == *"fetch_url"* ]]
	# The fetched set's errors, in the same terms.
	run -0 us_call get_fetched_urls
	[[ $(text "$output") == *"blocked.html (error: "*"call render_url"* ]]
	[[ $(text "$output") != *pwfetch* ]]
	[[ $(text "$output") != *--allow* ]]
	run -0 us_call detect_and_fetch "{\"text\":\"see $B/blocked.html\"}"
	[[ $(text "$output") == *"call render_url"* ]]
	[[ $(text "$output") != *pwfetch* ]]
	# Without a Chromium, render_url is not offered.
	us_stop
	export URLKIT_CHROMIUM=/nonexistent
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/meta/app-shell.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == *"render_url is not available"* ]]
}

@test "detect_and_fetch: a result for every URL, the fourth skipped, progress per URL" {
	local msg="read $B/article.html and $B/docs/frob.html, $B/text.txt and $B/nosuch.html"
	us_start
	run -0 us_call detect_and_fetch "$(jq -cn --arg t "$msg" '{text:$t}')" '{"progressToken":"p1"}'
	[ "$(is_error "$output")" = false ]
	[ "$(jq -c '.result.structuredContent | ([.results[] | {u: (.url | sub(".*/"; "")), s: (.skipped // false), e: (.error != null)}])' <<<"$output")" = '[{"u":"article.html","s":false,"e":false},{"u":"frob.html","s":false,"e":false},{"u":"text.txt","s":false,"e":false},{"u":"nosuch.html","s":true,"e":true}]' ]
	[[ $(jq -r '.result.structuredContent | (.results[3].error)' <<<"$output") == "over the limit of 3 URLs per message" ]]
	[ "$(jq -s '[.[] | select(.method == "notifications/progress" and .params.progressToken == "p1")] | length' "$T/us.notes")" = 3 ]
	[ "$(jq -s '[.[] | select(.method == "notifications/progress")] | .[-1].params | [.progress, .total]' -c "$T/us.notes")" = '[3,3]' ]
	run -0 us_call detect_and_fetch '{"text":"no links here"}'
	[ "$(jq -c '.result.structuredContent | (.)' <<<"$output")" = '{"count":0,"failed":0,"results":[]}' ]
}

@test "get_url_content: an error for a URL never fetched, the fetched set's record, then the cache's" {
	us_start
	run -0 us_call get_url_content "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == "not fetched"* ]]
	run -0 us_call get_fetched_urls
	[ "$(jq -c '.result.structuredContent | (.)' <<<"$output")" = '{"count":0,"urls":[]}' ]
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	run -0 us_call get_url_content "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = false ]
	[ "$(jq '.result.structuredContent | (.title)' <<<"$output")" = '"The Quiet Harbour"' ]
	[ "$(jq '.result.structuredContent | (.cached)' <<<"$output")" != true ]
	# remove_fetched_url keeps the cache: get_url_content falls back to it.
	run -0 us_call remove_fetched_url "{\"url\":\"$B/article.html\"}"
	[ "$(sc "$output")" = "{\"url\":\"$B/article.html\",\"removed\":true}" ]
	run -0 us_call get_fetched_urls
	[ "$(jq '.result.structuredContent | (.count)' <<<"$output")" = 0 ]
	run -0 us_call get_url_content "{\"url\":\"$B/article.html\"}"
	[ "$(jq '.result.structuredContent | (.cached)' <<<"$output")" = true ]
	run -0 us_call remove_fetched_url "{\"url\":\"$B/article.html\"}"
	[ "$(jq '.result.structuredContent | (.removed)' <<<"$output")" = false ]
}

@test "invalidate_url_cache removes from both; clear_fetched and clear_url_cache empty them" {
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	run -0 us_call fetch_url "{\"url\":\"$B/text.txt\"}"
	run -0 us_call invalidate_url_cache "{\"url\":\"$B/article.html\"}"
	[ "$(jq -c '.result.structuredContent | ({removed_from_cache,removed_from_fetched})' <<<"$output")" = '{"removed_from_cache":true,"removed_from_fetched":true}' ]
	run -1 --separate-stderr urlcache get "$B/article.html"
	run -0 us_call get_url_content "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = true ]
	run -0 us_call clear_fetched
	[ "$(sc "$output")" = '{"removed":1}' ]
	run -0 --separate-stderr urlcache get "$B/text.txt"
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	run -0 us_call clear_url_cache
	# The two pages and the site's robots.txt (its 404, kept).
	[ "$(sc "$output")" = '{"cache_removed":3,"fetched_removed":1}' ]
	run -1 --separate-stderr urlcache get "$B/text.txt"
}

@test "format_url_context: joins the fetched pages, excludes, names errors without their text" {
	us_start
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	run -0 us_call fetch_url "{\"url\":\"$B/docs/frob.html\"}"
	run -0 us_call fetch_url "{\"url\":\"$B/nosuch.html\"}"
	run -0 us_call format_url_context
	local ctx
	ctx=$(text "$output")
	[[ $ctx == "## $B/article.html"*"---"*"## $B/docs/frob.html"*"## $B/nosuch.html"*"(left out: "* ]]
	[ "$(jq -c '.result.structuredContent | ({records,errors})' <<<"$output")" = '{"records":2,"errors":1}' ]
	[ "$(jq -r '.result.structuredContent | (.context)' <<<"$output")" = "$ctx" ]
	run -0 us_call format_url_context "{\"excluded\":[\"$B/article.html\"]}"
	[[ $(text "$output") != *"article.html"* ]]
	[[ $(text "$output") == *"frobnicate"* ]]
	run -0 us_call format_url_context "{\"urls\":[\"$B/docs/frob.html\"],\"max_length\":200}"
	[ "$(jq '.result.structuredContent | (.context | length)' <<<"$output")" -le 200 ]
	[[ $(text "$output") == "## $B/docs/frob.html"* ]]
}

@test "-S NAME: the fetched set is urlcache's session NAME, kept across restarts" {
	us_start -S work
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	run -0 --separate-stderr urlcache session work get "$B/article.html"
	[ "$(jq -r .title <<<"$output")" = "The Quiet Harbour" ]
	us_stop
	us_start -S work
	run -0 us_call get_fetched_urls
	[ "$(jq -r '.result.structuredContent | (.urls[0].url)' <<<"$output")" = "$B/article.html" ]
	run -0 us_call clear_fetched
	run -0 --separate-stderr urlcache session work list
	[ -z "$output" ]
	run -2 --separate-stderr urlserve -S ../x
	[[ $stderr == "urlserve: -S: not a session name"* ]]
}

@test "open_url: answered with the ack of a real toolack serve; none running is a clear error" {
	ta_start
	us_start
	us_send open_url '{"url":"https://example.com/doc","timeoutSec":30}'
	local id=$US_ID cid=
	wait_for 20 bash -c '[ "$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls" | jq .pending)" = 1 ]'
	cid=$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls" | jq -r '.calls[0].toolCallId')
	[ "$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls" | jq -r '.calls[0].input.url')" = https://example.com/doc ]
	run -0 --separate-stderr toolack ack "$cid" --status success --result '{"opened":true}'
	run -0 us_read "$id"
	[ "$(is_error "$output")" = false ]
	[ "$(jq -c '.result.structuredContent | ({toolCallId,status,output})' <<<"$output")" = "{\"toolCallId\":\"$cid\",\"status\":\"success\",\"output\":{\"opened\":true}}" ]
	# A failed ack is an error result with the frontend's text.
	us_send open_url '{"url":"https://example.com/two"}'
	id=$US_ID
	wait_for 20 bash -c '[ "$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls" | jq .pending)" = 1 ]'
	cid=$(curl -s -H "Authorization: Bearer $TOKEN" "$TOOLACK_URL/api/tools/calls" | jq -r '.calls[0].toolCallId')
	run -0 --separate-stderr toolack ack "$cid" --status failed --error "popup blocked"
	run -0 us_read "$id"
	[ "$(is_error "$output")" = true ]
	[ "$(text "$output")" = "popup blocked" ]
	# No server: a clear error, and the server goes on.
	us_stop
	export TOOLACK_URL=http://127.0.0.1:9 TOOLACK_TOKEN=x
	us_start
	run -0 us_call open_url '{"url":"https://example.com/"}'
	[ "$(is_error "$output")" = true ]
	[[ $(text "$output") == "open_url: no toolack server answered"*"toolack serve"* ]]
	run -0 us_call detect_urls '{"text":"https://example.com/"}'
	[ "$(is_error "$output")" = false ]
}

@test "a cancelled fetch gets no response, and the server goes on at once" {
	start_server SLOW python3 "$TOP/tests/helpers/heavy_server.py" slow 30
	us_start
	us_send fetch_url "{\"url\":\"http://127.0.0.1:$SLOW_PORT/slow\"}"
	local id=$US_ID
	wait_for 10 grep -q '^req ' "$T/SLOW.log"
	us_send_raw "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":$id}}"
	local t0=$SECONDS
	run -0 us_call fetch_url "{\"url\":\"$B/article.html\"}"
	[ "$(is_error "$output")" = false ]
	[ $((SECONDS - t0)) -lt 10 ]
	! grep -q "\"id\":$id[,}]" "$T/us.notes"
	# Nothing more comes for it: the next answer is the next call's.
	run -0 us_call detect_urls '{"text":"x"}'
	! grep -q "\"id\":$id[,}]" "$T/us.notes"
}

@test "options: usage errors exit 2; stdout holds protocol messages only" {
	run -2 --separate-stderr urlserve -j 0
	[[ $stderr == "urlserve: -j: "* ]]
	run -2 --separate-stderr urlserve -t never
	run -2 --separate-stderr urlserve -l 'bad:host:x'
	[[ $stderr == "urlserve: bad address 'bad:host:x'"* ]]
	run -2 --separate-stderr urlserve extra
	[ "$stderr" = "urlserve: unexpected operand 'extra'
try 'urlserve --help'" ]
	run -0 --separate-stderr urlserve -V
	[ "$output" = "urlserve 0.2.0" ]
	run -0 --separate-stderr urlserve < <(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' 'not json')
	[ "$(jq -sc '[.[] | .id]' <<<"$output")" = '[1,null]' ]
}

@test "-l: HTTP at /mcp with a private token file; no token is 401" {
	urlserve -l 127.0.0.1:0 --token-file "$T/tok" 2>"$T/US.log" &
	echo $! >"$T/US.pid"
	local url tok
	wait_for 20 grep -q 'listening on' "$T/US.log"
	url=$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$T/US.log")
	[ "$(head -1 "$T/US.log")" = "urlserve: listening on $url" ]
	[ "$(stat -c %a "$T/tok")" = 600 ]
	tok=$(cat "$T/tok")
	run -0 curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$url"
	[ "$output" = 401 ]
	run -0 curl -s -H "Authorization: Bearer $tok" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}' "$url"
	[[ $output == *'"name":"urlserve"'* ]]
}

@test "fetch_url: a title that shows markup is escaped in the text block's header" {
	mkdir "$T/pages"
	printf '<html><head><title>&lt;img src=x onerror=alert(1)&gt; &amp;amp; notes</title></head><body><article><p>%s</p></article></body></html>\n' \
	    "Enough words of a plain paragraph to count as the main text of this page, and then some more." >"$T/pages/t.html"
	start_server PS python3 "$TOP/tests/helpers/page_server.py" "$T/pages"
	us_start
	run -0 us_call fetch_url "{\"url\":\"http://127.0.0.1:$PS_PORT/t.html\"}"
	[ "$(is_error "$output")" = false ]
	[ "$(text "$output" | head -1)" = "# \\<img src=x onerror=alert(1)> \\&amp; notes (http://127.0.0.1:$PS_PORT/t.html)" ]
}
