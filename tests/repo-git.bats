#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Repositories by libgit2: a local path, file://, and git over HTTP from a
# loopback server (git http-backend), with the temporary directory checked.
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

# No urlkit-repo.* directory left in $TMPDIR.
no_temp_left() {
	local left
	left=$(find "$T/tmp" -mindepth 1 -maxdepth 1 -name 'urlkit-repo.*')
	[ -z "$left" ] || { echo "left behind: $left" >&2; return 1; }
}

@test "a local path is read in place: README, files, top file" {
	run -0 "$REPO" -J "$BATS_FILE_TMPDIR/src"
	[ "$(jq -r .github_info.route <<<"$output")" = local ]
	[ "$(jq -r .github_info.readme_file <<<"$output")" = README.rst ]
	[ "$(jq -r .github_info.top_file <<<"$output")" = core/util.py ]
	[ "$(jq -r .title <<<"$output")" = src ]
	files=$(jq -r '[.symbols[].file] | unique | join(" ")' <<<"$output")
	[ "$files" = "app/jobs.py app/main.py core/util.py lib/engine.go src/Main.java src/lib.rs src/main.c tools/task.rb web/format.js web/page.js" ]
	no_temp_left
}

@test "progress on the local route: files kept and indexed, no bytes received" {
	run -0 --separate-stderr "$REPO" -P "$BATS_FILE_TMPDIR/src"
	run -0 progress_ok "$output"
	[ "$output" = "none received" ]
}

@test "file:// reads the same repository" {
	run -0 "$REPO" "file://$BATS_FILE_TMPDIR/src"
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 10 ]
	[ "$(jq -r '.symbol_map | split("\n") | map(select(endswith(":")))[0]' <<<"$output")" = core/util.py: ]
}

@test "git over HTTP on loopback: cloned, indexed, temporary directory removed" {
	run -0 "$REPO" -J "http://127.0.0.1:$srv_PORT/git/tool.git"
	[ "$(jq -r .github_info.route <<<"$output")" = git ]
	[ "$(jq -r .title <<<"$output")" = tool ]
	[ "$(jq -r .github_info.readme_file <<<"$output")" = README.rst ]
	[ "$(jq -r .github_info.top_file <<<"$output")" = core/util.py ]
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 10 ]
	# Symbolic links are blobs in the tree, never followed.
	jq -e '[.symbols[].file] | index("evil_link.py") == null' <<<"$output"
	grep -q 'git-upload-pack' "$T/requests.log"
	no_temp_left
}

@test "a failed clone is an error record and leaves no directory" {
	run -1 "$REPO" "http://127.0.0.1:$srv_PORT/git/missing.git"
	jq -e '.error | test("cannot clone")' <<<"$output"
	no_temp_left
}

@test "a hung git server ends at the time limit, no directory left" {
	run -1 "$REPO" -T 1 "http://127.0.0.1:$srv_PORT/hang/tool.git"
	jq -e '.error | test("time limit of 1s reached cloning")' <<<"$output"
	no_temp_left
}

@test "SIGTERM during a clone removes the temporary directory" {
	"$REPO" -T 60 "http://127.0.0.1:$srv_PORT/hang/tool.git" >"$T/out" &
	pid=$!
	for _ in $(seq 1 200); do
		[ -n "$(find "$T/tmp" -mindepth 1 -maxdepth 1)" ] && break
		sleep 0.05
	done
	[ -n "$(find "$T/tmp" -mindepth 1 -maxdepth 1)" ]
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	no_temp_left
}

@test "the size cap stops a clone with a clear error" {
	run -1 "$REPO" -S 50K "http://127.0.0.1:$srv_PORT/git/tool.git"
	jq -e '.error | test("larger than 51200 bytes")' <<<"$output"
	no_temp_left
}

@test "a private git host is refused without URLKIT_ALLOW_PRIVATE" {
	unset URLKIT_ALLOW_PRIVATE
	run -1 "$REPO" "http://127.0.0.1:$srv_PORT/git/tool.git"
	jq -e '.error | test("refused")' <<<"$output"
	run -1 grep -c upload-pack "$T/requests.log"
}

@test "a path that is not a repository is an error record" {
	mkdir -p "$T/plain"
	run -1 "$REPO" "$T/plain"
	jq -e '.error | test("cannot open repository")' <<<"$output"
}
