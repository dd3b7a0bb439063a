#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# make demo runs to the end, offline, and shows what it promises.  It runs
# once for the file; each test reads its output.

bats_require_minimum_version 1.5.0
load helpers/common

setup_file() {
	export DEMO_OUT="$BATS_FILE_TMPDIR/demo.out"
	"$TOP/scripts/demo" >"$DEMO_OUT" 2>&1
	echo $? >"$BATS_FILE_TMPDIR/demo.rc"
}

setup() { common_setup; }
teardown() { common_teardown; }

@test "the demo exits 0" {
	run -0 cat "$BATS_FILE_TMPDIR/demo.rc"
	[ "$output" = 0 ]
}

@test "the demo finds and classifies the sample's URLs" {
	run -0 cat "$DEMO_OUT"
	[[ "$output" == *'"display":"python/cpython!67890"'* ]]
	[[ "$output" == *'"type":"github_file"'* ]]
	[[ "$output" != *'file:///etc/hosts"'* ]]
}

@test "the demo fetches through a loopback server, then from the cache" {
	run -0 cat "$DEMO_OUT"
	[[ "$output" == *'{"url_type":"web","title":"The Quiet Harbour","cached":false,"error":null'* ]]
	[[ "$output" == *'{"url_type":"github_issue","title":"Crash when frobnicating","cached":true}'* ]]
	# The server it started is gone: its port refuses connections.
	port=$(printf '%s\n' "$output" | sed -n 's|^Read http://127.0.0.1:\([0-9]*\)/.*|\1|p')
	[ -n "$port" ]
	run -7 curl -s "http://127.0.0.1:$port/"
}

@test "the demo summarises offline and dispatches open_url through toolack" {
	run -0 cat "$DEMO_OUT"
	[[ "$output" == *'"summary_type":"BRIEF","summary_reason":"web","summary_backend":"offline"'* ]]
	[[ "$output" == *'{"status":"success","output":{"url":"https://github.com/jqlang/jq"},"errorText":null}'* ]]
	[[ "$output" == *'"status":"failed","errorText":"scheme '"'"'file'"'"' is not allowed'* ]]
}

@test "the demo renders a script-built page with pwfetch" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] || skip "chromium is not installed"
	run -0 cat "$DEMO_OUT"
	[[ "$output" == *'"content": "Release notes\n\npwfetch drives Chromium'* ]]
}

@test "make check and make demo run scripts/bootstrap first, once; make alone never" {
	local stamp="$T/stamp"
	# No stamp: check and demo install what is missing first.
	run -0 make -n -C "$TOP" check BOOTSTRAP_STAMP="$stamp"
	[[ $output == *"BOOTSTRAP_STAMP='$stamp' scripts/bootstrap"* ]]
	run -0 make -n -C "$TOP" demo BOOTSTRAP_STAMP="$stamp"
	[[ $output == *"BOOTSTRAP_STAMP='$stamp' scripts/bootstrap"* ]]
	# make alone only names it when something is missing.
	run -0 make -n -C "$TOP" all BOOTSTRAP_STAMP="$stamp"
	[[ $output != *"BOOTSTRAP_STAMP="* ]]
	# A stamp newer than scripts/bootstrap: nothing to install.
	local t
	t=$(stat -c %Y "$TOP/scripts/bootstrap")
	touch -d "@$((t + 60))" "$stamp"
	run -0 make -n -C "$TOP" check BOOTSTRAP_STAMP="$stamp"
	[[ $output != *"BOOTSTRAP_STAMP="* ]]
	# scripts/bootstrap changed since: it runs again.
	touch -d "@$((t - 60))" "$stamp"
	run -0 make -n -C "$TOP" check BOOTSTRAP_STAMP="$stamp"
	[[ $output == *"BOOTSTRAP_STAMP="* ]]
}
