#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch on repositories: github_repo URLs through the archive route,
# other git URLs through libgit2, the map options, the cache.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

setup_file() {
	make_repo "$BATS_FILE_TMPDIR/src"
	serve_repo "$BATS_FILE_TMPDIR/src" "$BATS_FILE_TMPDIR/srv"
}

setup() {
	repo_setup
}

teardown() {
	common_teardown
}

@test "urlfetch: a GitHub repository gets readme, symbol_map and github_info" {
	run -0 --separate-stderr urlfetch <<<"https://github.com/acme/tool"
	jq -e '.url_type == "github_repo" and .title == "acme/tool" and
	    .github_info.readme_file == "README.rst" and
	    .github_info.top_file == "core/util.py" and
	    (.symbol_map | split("\n") | map(select(endswith(":")))[0] == "core/util.py:") and
	    (.readme | test("widgets into gadgets")) and .cached == false' \
	    <<<"$output"
	jq -e 'has("symbols") | not' <<<"$output"
}

@test "urlfetch -M holds the budget and -J adds the symbols" {
	run -0 --separate-stderr urlfetch -M 40 -J <<<"https://github.com/acme/tool"
	bytes=$(jq -j .symbol_map <<<"$output" | wc -c)
	[ $(((bytes + 3) / 4)) -le 40 ]
	jq -e '.symbols[0].name == "helper_function" and
	    .github_info.map_budget == 40' <<<"$output"
}

@test "urlfetch caches a repository, and a new budget fetches it again" {
	run -0 --separate-stderr urlfetch -M 100 <<<"https://github.com/acme/tool"
	jq -e '.cached == false' <<<"$output"
	run -0 --separate-stderr urlfetch -M 100 <<<"https://github.com/acme/tool"
	jq -e '.cached == true and .github_info.map_budget == 100' <<<"$output"
	run -0 --separate-stderr urlfetch -M 50 <<<"https://github.com/acme/tool"
	jq -e '.cached == false and .github_info.map_budget == 50' <<<"$output"
	[ "$(grep -c 'tar.gz/HEAD' "$T/requests.log")" -eq 2 ]
}

@test "urlfetch: a local path and a .git URL go through libgit2, uncached" {
	printf '{"url":"%s","id":"a"}\nhttp://127.0.0.1:%s/git/tool.git\n' \
	    "$SRC" "$srv_PORT" >"$T/in"
	run -0 --separate-stderr urlfetch -i "$T/in"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.id == "a" and .url_type == "github_repo" and
	    .github_info.route == "local" and .github_info.files_indexed == 10' \
	    <<<"${lines[0]}"
	jq -e '.github_info.route == "git" and .title == "tool" and
	    .github_info.top_file == "core/util.py"' <<<"${lines[1]}"
	run -0 --separate-stderr urlfetch -i "$T/in"
	jq -e '.cached == false' <<<"${lines[0]}"
	jq -e '.cached == false' <<<"${lines[1]}"
	[ -z "$(ls "$T/tmp")" ]
}

@test "urlfetch: a local path or file:// is refused unless -P allows it" {
	unset URLKIT_ALLOW_PRIVATE
	printf '%s\nfile://%s\n' "$SRC" "$SRC" >"$T/in"
	run -1 --separate-stderr urlfetch -i "$T/in"
	[ "${#lines[@]}" -eq 2 ]
	jq -e '(.error | test("a local repository: refused")) and
	    .url_type == "github_repo" and (has("readme") | not)' <<<"${lines[0]}"
	jq -e '.error | test("refused")' <<<"${lines[1]}"
	run -0 --separate-stderr urlfetch -P -i "$T/in"
	jq -e '.github_info.route == "local" and .github_info.files_indexed == 10' \
	    <<<"${lines[1]}"
}

@test "urlfetch -R: a hung archive server ends in an error record" {
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$srv_PORT/hang"
	run -1 --separate-stderr urlfetch -R 1 <<<"https://github.com/acme/tool"
	[ "${#lines[@]}" -eq 1 ]
	jq -e '(.error | test("time limit of 1s")) and .url_type == "github_repo"' \
	    <<<"$output"
	[[ $stderr == *"time limit of 1s"* ]]
}

@test "urlfetch -F and -Z: a repository over a cap is kept in part, truncated" {
	run -0 --separate-stderr urlfetch -F 4 <<<"https://github.com/acme/tool"
	jq -e '.truncated and (.truncated_reason | test("more than 4 files")) and
	    (has("error") | not)' <<<"$output"
	run -0 --separate-stderr urlfetch -Z 1K <<<"$SRC"
	jq -e '.truncated and (.truncated_reason | test("larger than 1024 bytes"))' \
	    <<<"$output"
}

@test "urlfetch: bad repository options are usage errors" {
	run -2 urlfetch -M lots </dev/null
	run -2 urlfetch -R 0 </dev/null
	run -2 urlfetch -Z nothing </dev/null
	run -2 urlfetch -F 0 </dev/null
}

@test "urlfetch on a terminal: the repository's progress, then the line is cleared" {
	command -v script >/dev/null || skip "no script(1)"
	echo https://github.com/acme/tool >"$T/in"
	# The line shows once the run has taken a second: the archive comes
	# in two halves 1.5 s apart.
	run -0 script -qec "URLKIT_GITHUB_ARCHIVE_URL=$URLKIT_GITHUB_ARCHIVE_URL/slow urlfetch -C -i '$T/in' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output == *"urlfetch: 0/1 done, 0 failed, github.com: "*" files, "*"indexed"* ]]
	[[ $output == *"urlfetch: 1/1 done, 0 failed"* ]]
	[[ $output == *$'\r\e[K'*"rc=0"* ]]
	jq -e '.github_info.files_indexed == 10' "$T/out"
	run -0 script -qec "urlfetch -q -r -C -i '$T/in' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output != *"indexed"* ]]
	[[ $output == *"rc=0"* ]]
}
