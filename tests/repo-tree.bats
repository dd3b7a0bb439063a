#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Repositories: /tree/BRANCH/PATH URLs (slash branches, the focus path),
# a repository over a cap kept in part, the README's token budget and the
# tokenizer.  A real git repository made here, served as GitHub-style
# archives by a loopback server.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

setup_file() {
	local src=$BATS_FILE_TMPDIR/src
	make_repo "$src"
	# A branch with slashes, and a README long enough to be cut.
	git -C "$src" checkout -q -b feature/deep/x
	python3 -c '
for i in range(300):
    print("Paragraph %d of the long README, about the tool and its ways.\n" % i)
' >"$src/README.md"
	git -C "$src" add -A && git -C "$src" commit -q -m long
	git -C "$src" checkout -q main
	serve_repo "$src" "$BATS_FILE_TMPDIR/srv"
	git -C "$src" archive --format=tar.gz --prefix=acme-tool-0123abc/ \
	    feature/deep/x \
	    >"$BATS_FILE_TMPDIR/srv/archives/acme/tool/feature_deep_x.tar.gz"
}

setup() {
	repo_setup
}

teardown() {
	common_teardown
}

@test "/tree/BRANCH/PATH: a branch with slashes is found and PATH recorded" {
	run -0 "$REPO" https://github.com/acme/tool/tree/feature/deep/x/core
	jq -e '.github_info | .branch == "feature/deep/x" and .path == "core"' \
	    <<<"$output"
	jq -e 'has("error") | not' <<<"$output"
	# Shortest prefix first; the host's 404s say which are not branches.
	[ "$(grep -c 'GET /acme/tool/tar.gz/' "$T/requests.log")" = 3 ]
	grep -q 'GET /acme/tool/tar.gz/feature/deep/x ' "$T/requests.log"
	! grep -q 'tar.gz/feature/deep/x/core' "$T/requests.log"
}

@test "/tree/BRANCH/PATH: path_files counts the files indexed under PATH" {
	run -0 --separate-stderr "$REPO" https://github.com/acme/tool/tree/dev/core
	jq -e '.github_info | .path == "core" and .path_files >= 1' \
	    <<<"$output"
	! grep -q 'no file under' <<<"$stderr"
}

@test "/tree/BRANCH/PATH that names nothing indexed: a warning, path_files 0" {
	run -0 --separate-stderr "$REPO" https://github.com/acme/tool/tree/dev/nosuch
	jq -e '.github_info | .path == "nosuch" and .path_files == 0' \
	    <<<"$output"
	jq -e '.symbol_map | length > 0' <<<"$output"
	grep -q "no file under 'nosuch' was indexed: the map is of the whole tree" \
	    <<<"$stderr"
}

@test "/tree/BRANCH/PATH with a plain branch costs one request" {
	run -0 "$REPO" https://github.com/acme/tool/tree/dev/app/
	jq -e '.github_info | .branch == "dev" and .path == "app"' <<<"$output"
	[ "$(grep -c 'GET /acme/tool/tar.gz/' "$T/requests.log")" = 1 ]
}

@test "/tree/ with no such branch: an error naming the prefixes tried" {
	run -1 "$REPO" https://github.com/acme/tool/tree/nope/x
	jq -e '.error | test("no branch at the start of .nope/x. \\(tried .nope., .nope/x.\\)")' \
	    <<<"$output"
}

@test "over the file cap: the README and the map of what was read, truncated" {
	run -0 "$REPO" -F 5 https://github.com/acme/tool
	jq -e '.truncated == true and
	    (.truncated_reason | test("more than 5 files \\(--repo-max-files\\)")) and
	    (.readme | test("widgets into gadgets")) and
	    (.symbol_map | length > 0) and (has("error") | not)' <<<"$output"
	[ "$(jq -r .github_info.files <<<"$output")" -le 6 ]
}

@test "over the size cap: truncated with the reason" {
	run -0 "$REPO" -S 100K https://github.com/acme/tool
	jq -e '.truncated == true and
	    (.truncated_reason | test("larger than 102400 bytes")) and
	    (.readme | test("widgets"))' <<<"$output"
}

@test "a cap hit before anything was read is still an error" {
	run -1 "$REPO" -S 50K "http://127.0.0.1:$srv_PORT/git/tool.git"
	jq -e '(.error | test("larger than 51200 bytes")) and (has("truncated") | not)' \
	    <<<"$output"
}

@test "the README within its budget: cut at a paragraph with a mark" {
	url=https://github.com/acme/tool/tree/feature/deep/x
	for budget in 100 500 2048; do
		run -0 "$REPO" -r "$budget" "$url"
		jq -j .readme <<<"$output" >"$T/readme"
		got=$("$TOKENS" cl100k_base "$T/readme")
		[ "$got" -le "$budget" ]
		[ "$got" -ge $((budget * 9 / 10)) ]
		[ "$(jq -r .github_info.readme_tokens <<<"$output")" = "$got" ]
		jq -e ".github_info.readme_budget == $budget and
		    .github_info.readme_cut == true" <<<"$output"
		tail -n 2 "$T/readme" | head -n 1 | grep -q '^$'
		tail -n 1 "$T/readme" |
		    grep -q "^\[README cut: [0-9]* of [0-9]* bytes shown, to fit $budget tokens\]$"
	done
	run -0 "$REPO" -r 0 "$url"
	jq -e '(has("readme") | not) and .github_info.readme_tokens == 0 and
	    .description != null' <<<"$output"
}

@test "a short README is whole and its tokens counted" {
	run -0 "$REPO" https://github.com/acme/tool
	jq -j .readme <<<"$output" >"$T/readme"
	jq -e --argjson n "$("$TOKENS" cl100k_base "$T/readme")" \
	    '.github_info | .readme_tokens == $n and (has("readme_cut") | not)' \
	    <<<"$output"
}

@test "o200k_base: both counts in that tokenizer" {
	run -0 "$REPO" -k o200k_base -r 300 \
	    https://github.com/acme/tool/tree/feature/deep/x
	jq -j .readme <<<"$output" >"$T/readme"
	jq -j .symbol_map <<<"$output" >"$T/map"
	jq -e --argjson r "$("$TOKENS" o200k_base "$T/readme")" \
	    --argjson m "$("$TOKENS" o200k_base "$T/map")" \
	    '.github_info | .tokenizer == "o200k_base" and
	    .readme_tokens == $r and .map_tokens == $m and $r <= 300' \
	    <<<"$output"
}

@test "urlfetch --tokenizer and --readme-tokens" {
	run -0 --separate-stderr urlfetch --tokenizer o200k --readme-tokens 120 \
	    <<<"https://github.com/acme/tool/tree/feature/deep/x"
	jq -e '.github_info | .tokenizer == "o200k_base" and
	    .readme_budget == 120 and .readme_tokens <= 120 and .readme_cut' \
	    <<<"$output"
	run -2 urlfetch -K p50k_base </dev/null
	run -2 urlfetch --readme-tokens lots </dev/null
}
