#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urldetect --bare: URLs typed without a scheme (issue 36), what must not
# be taken for one, the Public Suffix List and its fallback, streaming,
# and the score on the scheme-less cases (scripts/eval-bare).

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "bare: pasted URLs are found, written with https:// and bare: true" {
	printf 'see github.com/user/repo, www.example.org/x and docs.python.org/3/.\n' >"$T/in"
	run -0 urldetect --bare "$T/in"
	[ "${#lines[@]}" -eq 3 ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.url,.type,.bare,.start,.end,.github.owner]')" = \
	    '["https://github.com/user/repo","github_repo",true,4,24,"user"]' ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r .url)" = https://www.example.org/x ]
	[ "$(printf '%s\n' "${lines[2]}" | jq -c '[.url,.type]')" = \
	    '["https://docs.python.org/3/","documentation"]' ]
}

@test "bare: off by default" {
	printf 'see github.com/user/repo and docs.python.org/3/\n' >"$T/in"
	run -1 urldetect -u "$T/in"
	[ -z "$output" ]
}

@test "bare: a URL with a scheme has no bare field and is not found twice" {
	run -0 sh -c 'printf "https://a.example.com/x b.org/y\n" | urldetect --bare'
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -c '[.url,.bare]')" = '["https://a.example.com/x",null]' ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -c '[.url,.bare]')" = '["https://b.org/y",true]' ]
}

@test "bare: file names, versions, code, abbreviations and e-mail are not URLs" {
	printf '%s\n' 'python setup.py install; open index.html; edit README.md' \
	    'Main.java user.name logger.info archive.zip' 'v1.2.3 3.11.4 10.0.19041.1' \
	    'e.g. i.e. U.S. a.b' 'name@example.com foo.bar@example.org' \
	    'client 10.1.2.3 connected' 'node.js and io.js' >"$T/in"
	run -1 urldetect --bare -u "$T/in"
	[ -z "$output" ]
}

@test "bare: -u prints the https:// URL; //host keeps no slashes" {
	run -0 sh -c 'printf "load //cdn.example.net/x.js or bit.ly/3xYz\n" | urldetect --bare -u'
	[ "$output" = "$(printf 'https://cdn.example.net/x.js\nhttps://bit.ly/3xYz')" ]
}

@test "bare: records are byte for byte the reference's (yajl tree)" {
	printf '%s\n' 'a github.com/o/r/blob/main/f.py b https://x.example/ c' \
	    'www.example.org/x?q=1#f docs.python.org/3/ 192.168.1.1/abc' \
	    'президент.рф/путь GOOGLE.COM. (en.wikipedia.org/wiki/Set_(mathematics))' >"$T/in"
	run -0 urldetect --bare -L -a "$T/in"
	printf '%s\n' "$output" >"$T/fast"
	[ "$(grep -c '"bare":true' "$T/fast")" -eq 7 ]
	run -0 env UK_URLDETECT_REFERENCE=1 urldetect --bare -L -a "$T/in"
	printf '%s\n' "$output" >"$T/ref"
	cmp "$T/fast" "$T/ref"
}

@test "bare: --json messages" {
	run -0 sh -c 'printf "{\"id\":\"a\",\"text\":\"see gitlab.com/g/p\"}\n" | urldetect --bare --json text'
	[ "$(printf '%s\n' "$output" | jq -c '[.url,.id,.bare,.start]')" = '["https://gitlab.com/g/p","a",true,4]' ]
}

@test "bare: URLs cut by the read windows are found whole" {
	# 2.6 MB through a pipe, read in chunks of up to 64 KiB: a unit of an
	# odd length puts the cuts at every place in the URLs, "//" and the
	# first byte of a non-ASCII host included.
	printf 'xy //cdn.example.net/a.js \320\277\321\200\320\270.\321\200\321\204/p github.com/o/r\n' >"$T/unit"
	[ $(($(wc -c <"$T/unit") % 2)) -eq 1 ]
	awk '{ u = $0 } END { for (i = 0; i < 50000; i++) print u }' "$T/unit" >"$T/in"
	run -0 sh -c "cat '$T/in' | urldetect --bare -a -u | LC_ALL=C sort | uniq -c | awk '{ print \$1, \$2 }'"
	[ "$output" = "$(printf '50000 https://cdn.example.net/a.js\n50000 https://github.com/o/r\n50000 https://\320\277\321\200\320\270.\321\200\321\204/p')" ]
}

@test "bare: the Public Suffix List is read; without it, the built-in list" {
	[ -r /usr/share/publicsuffix/public_suffix_list.dat ] ||
	    skip "publicsuffix not installed (scripts/bootstrap)"
	run -0 sh -c 'printf "google.xxx/x example.com/y\n" | urldetect --bare -u'
	[ "$output" = "$(printf 'https://google.xxx/x\nhttps://example.com/y')" ]
	run -0 sh -c 'printf "google.xxx/x example.com/y\n" | URLKIT_PSL=/nonexistent urldetect --bare -u'
	[ "$output" = https://example.com/y ]
	printf 'com\nexample\n' >"$T/psl"
	run -0 sh -c "printf 'google.xxx/x a.example/y b.com/z\n' | URLKIT_PSL='$T/psl' urldetect --bare -u"
	[ "$output" = "$(printf 'https://a.example/y\nhttps://b.com/z')" ]
}

@test "bare: --help and the man page name the option" {
	run -0 urldetect --help
	[[ $output == *--bare* ]]
	run -0 grep -c 'Fl -bare' "$TOP/man/urldetect.1"
}

@test "bare: precision >= 0.97 and recall >= 0.90 on the scheme-less cases" {
	need_shared tools/score-urldetect bench/urldetect-dev.jsonl
	run -0 "$TOP/scripts/eval-bare"
	[[ ${lines[-1]} == "urldetect --bare, scheme-less cases: precision"* ]]
}
