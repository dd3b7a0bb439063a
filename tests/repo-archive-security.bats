#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The archive route against archives whose headers do not tell the sizes
# (issue 15, item 8): zip entries with data descriptors are counted as
# they are decompressed, per file and in total.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

setup_file() {
	local a=$BATS_FILE_TMPDIR/srv/archives
	mkdir -p "$a/acme/bomb" "$a/acme/bigfile" "$a/acme/ok" \
	    "$BATS_FILE_TMPDIR/srv/git" "$BATS_FILE_TMPDIR/src"
	mk="python3 $BATS_TEST_DIRNAME/helpers/make_zip.py"
	# 200 MiB of zeros in 200 KB: under -S 10M by its (absent) sizes.
	$mk "$a/acme/bomb/HEAD.tar.gz" acme-bomb-0/ README.md=text:Bomb. \
	    src/bomb.py=zeros:200
	# A 2 MiB source file, over the 1 MiB rule, by its data only.
	$mk "$a/acme/bigfile/HEAD.tar.gz" acme-bigfile-0/ README.md=text:Big. \
	    src/big.py=py:2048 src/small.py=py:4
	$mk "$a/acme/ok/HEAD.tar.gz" acme-ok-0/ README.md=text:Fine. \
	    src/small.py=py:4
}

setup() {
	repo_setup
}

teardown() {
	common_teardown
}

@test "zip with data descriptors: the total decompressed stops at the size limit" {
	# Over the cap, what was read before is kept, marked truncated
	# (the README), and the reading stops there: bounded memory.
	run -0 --separate-stderr "$REPO" -S 10M https://github.com/acme/bomb
	jq -e '.truncated == true and
	    (.truncated_reason | test("larger than 10485760 bytes")) and
	    (.error == null)' <<<"$output"
	[ "$(jq -r .readme <<<"$output")" = Bomb. ]
}

@test "zip with data descriptors: a source file over 1 MiB is skipped, not kept" {
	run -0 --separate-stderr "$REPO" -J https://github.com/acme/bigfile
	[ "$(jq -r .github_info.files_skipped <<<"$output")" = 1 ]
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 1 ]
	[ "$(jq -r '[.symbols[].file] | unique | join(" ")' <<<"$output")" = src/small.py ]
}

@test "zip with data descriptors: a small repository reads as ever" {
	run -0 --separate-stderr "$REPO" -J https://github.com/acme/ok
	[ "$(jq -r .readme <<<"$output")" = Fine. ]
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 1 ]
}
