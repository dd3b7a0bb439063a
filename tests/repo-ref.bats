#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Repositories at a ref: /tree/TAG, /tree/SHA and /commit/SHA URLs read
# the tree GitHub shows there, and github_info.ref says what the ref is
# (branch, tag, commit) from the refs the repository's git server
# advertises.  A real git repository made here, its archives served by a
# loopback server as codeload serves them, and its refs by git
# http-backend (URLKIT_GITHUB_GIT_URL).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

# The repository: v1.0 tags a first commit defining old_api; main has
# moved on to new_api; branch dev.
setup_file() {
	local d=$BATS_FILE_TMPDIR/src srv=$BATS_FILE_TMPDIR/srv sha
	mkdir -p "$d" && cd "$d" || return 1
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	mkdir -p pkg
	printf 'def old_api(x):\n    return x\n' >pkg/core.py
	printf 'from pkg.core import old_api\n\n\ndef run():\n    return old_api(1)\n' >pkg/cli.py
	git add -A && git commit -q -m first
	git tag v1.0
	git tag -a -m annotated v1.0-ann
	sha=$(git rev-parse HEAD)
	printf 'def new_api(x):\n    return x\n' >pkg/core.py
	printf 'from pkg.core import new_api\n\n\ndef run():\n    return new_api(1)\n' >pkg/cli.py
	git add -A && git commit -q -m second
	git branch dev
	cd - >/dev/null || return 1
	mkdir -p "$srv/archives/acme/tool" "$srv/git/acme"
	for r in main dev v1.0 v1.0-ann "$sha" "${sha:0:10}"; do
		git -C "$d" archive --format=tar.gz --prefix="acme-tool-$r/" \
		    "$r" >"$srv/archives/acme/tool/$r.tar.gz"
	done
	cp "$srv/archives/acme/tool/main.tar.gz" \
	    "$srv/archives/acme/tool/HEAD.tar.gz"
	git clone -q --bare "$d" "$srv/git/acme/tool.git"
	echo "$sha" >"$BATS_FILE_TMPDIR/sha"
}

setup() {
	repo_setup
	export URLKIT_GITHUB_GIT_URL="http://127.0.0.1:$srv_PORT/git"
	SHA=$(cat "$BATS_FILE_TMPDIR/sha")
}

teardown() {
	common_teardown
}

# ref_of: github_info.ref of $output as "type name".
ref_of() {
	jq -r '.github_info.ref | "\(.type) \(.name)"' <<<"$output"
}

@test "/tree/TAG: the tree at the tag, github_info.ref a tag" {
	run -0 "$REPO" https://github.com/acme/tool/tree/v1.0
	[ "$(ref_of)" = "tag v1.0" ]
	jq -r .symbol_map <<<"$output" | grep -q 'def old_api'
	run -1 grep -q new_api <<<"$(jq -r .symbol_map <<<"$output")"
	grep -q 'GET /acme/tool/tar.gz/v1.0 ' "$T/requests.log"
	grep -q 'GET /git/acme/tool.git/info/refs?service=git-upload-pack' \
	    "$T/requests.log"
	# An annotated tag is advertised twice (its object, then ^{}).
	run -0 "$REPO" https://github.com/acme/tool/tree/v1.0-ann
	[ "$(ref_of)" = "tag v1.0-ann" ]
}

@test "/tree/SHA and /commit/SHA: the tree at the commit, github_info.ref a commit" {
	run -0 "$REPO" "https://github.com/acme/tool/tree/$SHA"
	[ "$(ref_of)" = "commit $SHA" ]
	jq -r .symbol_map <<<"$output" | grep -q 'def old_api'
	run -0 "$REPO" "https://github.com/acme/tool/commit/$SHA"
	[ "$(ref_of)" = "commit $SHA" ]
	[ "$(jq -r .github_info.branch <<<"$output")" = "$SHA" ]
	jq -r .symbol_map <<<"$output" | grep -q 'def old_api'
	# An abbreviated id, as GitHub takes one.
	run -0 "$REPO" "https://github.com/acme/tool/commit/${SHA:0:10}"
	[ "$(ref_of)" = "commit ${SHA:0:10}" ]
	grep -q "GET /acme/tool/tar.gz/${SHA:0:10} " "$T/requests.log"
}

@test "/tree/BRANCH is a branch; no ref is the default branch" {
	run -0 "$REPO" https://github.com/acme/tool/tree/dev
	[ "$(ref_of)" = "branch dev" ]
	jq -r .symbol_map <<<"$output" | grep -q 'def new_api'
	run -0 "$REPO" https://github.com/acme/tool
	[ "$(jq -r .github_info.ref.type <<<"$output")" = default ]
	[ "$(jq -r '.github_info.ref | has("name")' <<<"$output")" = false ]
}

@test "a ref the git server does not advertise and no commit id: unknown, the tree read all the same" {
	cp "$BATS_FILE_TMPDIR/srv/archives/acme/tool/dev.tar.gz" \
	    "$BATS_FILE_TMPDIR/srv/archives/acme/tool/gone.tar.gz"
	run -0 "$REPO" https://github.com/acme/tool/tree/gone
	[ "$(ref_of)" = "unknown gone" ]
	# Without the git server's refs (404), a commit id is still a commit.
	export URLKIT_GITHUB_GIT_URL="http://127.0.0.1:$srv_PORT/nogit"
	run -0 "$REPO" "https://github.com/acme/tool/tree/$SHA"
	[ "$(ref_of)" = "commit $SHA" ]
	run -0 "$REPO" https://github.com/acme/tool/tree/dev
	[ "$(ref_of)" = "unknown dev" ]
}

@test "a commit URL that is no commit id stays a web page" {
	run -0 "$UK_BIN/urldetect" <<<"https://github.com/acme/tool/commit/main"
	[ "$(jq -r .type <<<"$output")" = web ]
	run -0 "$UK_BIN/urldetect" <<<"https://github.com/acme/tool/commit/$SHA.patch"
	[ "$(jq -r .type <<<"$output")" = web ]
	run -0 "$UK_BIN/urldetect" <<<"https://github.com/acme/tool/commit/$SHA"
	[ "$(jq -r .type <<<"$output")" = github_repo ]
}
