#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect against look-alike hosts (issue 15, item 21): a known
# documentation or GitHub host counts only as the host itself or a parent
# domain of it, never as the first labels of somebody else's name.

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

# type URL: the type urldetect gives URL.
type_of() {
	printf '%s\n' "$1" | urldetect | jq -r .type
}

@test "security urldetect: a documentation host as a prefix of another name is web" {
	run -0 type_of 'https://docs.python.org.example.net/3/'
	[ "$output" = web ]
	run -0 type_of 'https://docs.rs.evil.example/serde'
	[ "$output" = web ]
	run -0 type_of 'https://proj.readthedocs.io.evil.example/en/latest/'
	[ "$output" = web ]
}

@test "security urldetect: a documentation host and names under it stay documentation" {
	run -0 type_of 'https://docs.python.org/3/'
	[ "$output" = documentation ]
	run -0 type_of 'https://www.docs.python.org/3/'
	[ "$output" = documentation ]
	run -0 type_of 'https://proj.readthedocs.io/en/latest/'
	[ "$output" = documentation ]
	run -0 type_of 'https://docs.example.com/guide'
	[ "$output" = documentation ]
}

@test "security urldetect: github.com look-alikes are web, whatever the path" {
	run -0 type_of 'https://github.com.evil.example/owner/repo'
	[ "$output" = web ]
	run -0 type_of 'https://github.com.evil.example/docs/guide'
	[ "$output" = web ]
	run -0 type_of 'https://raw.githubusercontent.com.evil.example/o/r/main/a.py'
	[ "$output" = web ]
	run -0 sh -c "printf '%s\n' https://github.com.evil.example/o/r | urldetect | jq -c 'has(\"github\")'"
	[ "$output" = false ]
}

@test "security urldetect: github.com with a trailing dot is github.com" {
	run -0 type_of 'https://github.com./owner/repo'
	[ "$output" = github_repo ]
}
