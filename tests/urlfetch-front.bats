#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch is a small front that extracts by itself and runs the fetcher,
# urlfetch-net, for everything else; and the progress line on a terminal.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

# The fetcher the build made, beside bin/ as make install puts it.
net_dir() {
	echo "$(dirname "$UK_BIN")/libexec/urlkit"
}

@test "extraction, --help and --version load no network or repository library" {
	command -v ldd >/dev/null || skip "no ldd"
	run -0 ldd "$UK_BIN/urlfetch"
	[[ $output == *libgumbo* ]]
	[[ $output == *libyajl* ]]
	for lib in libcurl libgit2 libarchive libtree-sitter libpcre2 libcrypto libxml2; do
		[[ $output != *"$lib"* ]] || { echo "urlfetch links $lib" >&2; false; }
	done
	# The fetcher has them all; tree-sitter's runtime is compiled in.
	run -0 ldd "$(net_dir)/urlfetch-net"
	[[ $output == *libcurl* ]]
	[[ $output == *libgit2* ]]
	command -v nm >/dev/null || skip "no nm"
	run -0 nm "$(net_dir)/urlfetch-net"
	[[ $output == *" T ts_parser_parse"* ]]
	run -0 nm "$UK_BIN/urlfetch"
	[[ $output != *ts_parser_parse* ]]
}

@test "the front answers extraction and usage by itself, even with no fetcher" {
	export URLKIT_LIBEXEC_DIR="$T/nowhere"
	printf '<html><head><title>T</title></head><body><article><p>%s</p></article></body></html>\n' \
	    "A paragraph long enough to be the main text of this little page here." >"$T/p.html"
	run -0 urlfetch -x "$T/p.html" -T
	[[ $output == "A paragraph long enough"* ]]
	run -0 urlfetch --help
	run -0 urlfetch --version
	run -2 urlfetch -j 0
	run -2 urlfetch -S .bad
	run -2 urlfetch -s 20
	run -2 urlfetch -x "$T/p.html" -i urls.txt
}

@test "a missing fetcher is a fatal error naming it" {
	export URLKIT_LIBEXEC_DIR="$T/nowhere"
	run -3 --separate-stderr urlfetch <<<"$B/article.html"
	[ -z "$output" ]
	[[ $stderr == *"cannot run '$T/nowhere/urlfetch-net'"* ]]
}

@test "URLKIT_LIBEXEC_DIR names the fetcher's directory; argv reaches it unchanged" {
	mkdir "$T/lx"
	# A stand-in fetcher that shows what it was given.
	printf '#!/bin/sh\nprintf "%%s|" "$0" "$@"\n' >"$T/lx/urlfetch-net"
	chmod +x "$T/lx/urlfetch-net"
	URLKIT_LIBEXEC_DIR="$T/lx" run -0 urlfetch -j 2 f1 --no-cache -- "a b" c
	[ "$output" = "$T/lx/urlfetch-net|-j|2|f1|--no-cache|--|a b|c|" ]
	# The real one, found by that name too.
	URLKIT_LIBEXEC_DIR="$(net_dir)" run -0 urlfetch <<<"$B/article.html"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "no progress when standard error is not a terminal" {
	run -1 --separate-stderr urlfetch -C <<<"$B/article.html
$B/missing-page-404"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == "urlfetch: '$B/missing-page-404': "* ]]
	[[ $stderr != *done* ]]
}

@test "on a terminal, a progress line shows done/total, failures and the host; -q silences it" {
	command -v script >/dev/null || skip "no script(1)"
	printf '%s\n' "$B/article.html" "$B/missing-page-404" >"$T/urls"
	# script(1) gives urlfetch a terminal; the records go to a file.
	run -0 script -qec "urlfetch -C <'$T/urls' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output == *"urlfetch: 2/2 done, 1 failed, 127.0.0.1:$FS_PORT"* ]]
	[[ $output == *"rc=1"* ]]
	# The line is cleared at the end.
	[[ $output == *$'\r\e[K'*"rc=1"* ]]
	[ "$(wc -l <"$T/out")" -eq 2 ]
	run -0 script -qec "urlfetch -q -C <'$T/urls' >'$T/out'; echo rc=\$?" /dev/null
	[[ $output != *" done, "* ]]
	[[ $output == *"rc=1"* ]]
	[ "$(wc -l <"$T/out")" -eq 2 ]
}
