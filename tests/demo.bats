#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# make demo runs to the end and shows what it promises.

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "the demo runs offline and finds the sample's URLs" {
	run -0 "$TOP/scripts/demo"
	[[ "$output" == *'"display":"python/cpython!67890"'* ]]
	[[ "$output" == *'"type":"github_file"'* ]]
	[[ "$output" != *'file:///etc/hosts"'* ]]
}
