#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect's command line (issue 17): -H/--with-filename and
# --no-filename as grep's, -o FILE, and the letters that changed.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	printf 'see https://a.example/x here\n' >"$T/a.txt"
	printf 'and https://b.example/y\n' >"$T/b.txt"
}
teardown() { common_teardown; }

@test "several files: each record names its file, as grep -H; stdin is '(standard input)'" {
	run -0 urldetect "$T/a.txt" - "$T/b.txt" <<<"from https://c.example/z"
	[ "${#lines[@]}" -eq 3 ]
	[ "$(jq -r .file <<<"${lines[0]}")" = "$T/a.txt" ]
	[ "$(jq -r .file <<<"${lines[1]}")" = "(standard input)" ]
	[ "$(jq -r .file <<<"${lines[2]}")" = "$T/b.txt" ]
	# After the offsets, before github (github stays last); no message:
	# a file read whole is none.
	[ "$(jq -c 'keys_unsorted' <<<"${lines[0]}")" = '["url","type","display","start","end","file"]' ]
}

@test "one file: no file field unless -H; --no-filename drops it for several" {
	run -0 urldetect "$T/a.txt"
	[ "$(jq -r 'has("file")' <<<"$output")" = false ]
	run -0 urldetect -H "$T/a.txt"
	[ "$(jq -r .file <<<"$output")" = "$T/a.txt" ]
	run -0 urldetect --with-filename <"$T/a.txt"
	[ "$(jq -r .file <<<"$output")" = "(standard input)" ]
	run -0 urldetect --no-filename "$T/a.txt" "$T/b.txt"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(jq -s -r 'map(has("file")) | any' <<<"$output")" = false ]
	# The last of -H and --no-filename wins, as in grep.
	run -0 urldetect --no-filename -H "$T/a.txt"
	[ "$(jq -r .file <<<"$output")" = "$T/a.txt" ]
}

@test "-H with --classify and --json; -u and -q print no file" {
	printf 'https://github.com/o/r\n' >"$T/u.txt"
	run -0 urldetect --classify -H "$T/u.txt"
	[ "$(jq -r '[.file, .type] | @tsv' <<<"$output")" = "$T/u.txt	github_repo" ]
	printf '{"id":"m1","text":"see https://a.example/"}\n' >"$T/m.jsonl"
	run -0 urldetect --json text "$T/m.jsonl" "$T/m.jsonl"
	[ "$(jq -r '[.id, .file] | @tsv' <<<"${lines[0]}")" = "m1	$T/m.jsonl" ]
	run -0 urldetect -u "$T/a.txt" "$T/b.txt"
	[ "$output" = "https://a.example/x
https://b.example/y" ]
}

@test "-o FILE: the records go there; a FILE that cannot be opened is exit 2 before reading" {
	run -0 --separate-stderr urldetect -o "$T/out.jsonl" "$T/a.txt"
	[ -z "$output" ]
	[ "$(jq -r .url "$T/out.jsonl")" = https://a.example/x ]
	run -2 --separate-stderr urldetect -o "$T/no/dir/out" "$T/a.txt"
	[ -z "$output" ]
	[[ $stderr == "urldetect: -o: cannot open '$T/no/dir/out': "* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 2 ]
}

@test "the old letters are gone; -L, -m (and --max), -y, --classify, --json are their names" {
	local o
	for o in -c "-j text" -l "-n 1" "-t web"; do
		run -2 --separate-stderr urldetect $o "$T/a.txt"
		[ "$stderr" = "urldetect: unknown option ${o:0:2}
try 'urldetect --help'" ]
	done
	printf 'https://a.example/ https://b.example/\nhttps://github.com/o/r\n' >"$T/l.txt"
	run -0 urldetect -L -m 1 -u "$T/l.txt"
	[ "$output" = "https://a.example/
https://github.com/o/r" ]
	run -0 urldetect --max 1 -u "$T/l.txt"
	[ "$output" = "https://a.example/" ]
	run -0 urldetect -y github_repo -u "$T/l.txt"
	[ "$output" = "https://github.com/o/r" ]
	run -2 --separate-stderr urldetect -y nosuch
	[ "$stderr" = "urldetect: -y: unknown type 'nosuch'
try 'urldetect --help'" ]
}
