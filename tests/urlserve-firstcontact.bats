#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlserve -l at first contact: it says where its token file is, never
# the token.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}

teardown() {
	common_teardown
}

@test "urlserve -l names its token file at start, never the token" {
	urlserve -l 127.0.0.1:0 --token-file "$T/tok/en" 2>"$T/serve.err" &
	echo $! >"$T/serve.pid"
	for ((i = 0; i < 100; i++)); do
		grep -q 'token file' "$T/serve.err" && break
		nap 0.1
	done
	nap_done
	run -0 cat "$T/serve.err"
	[[ ${lines[0]} == "urlserve: listening on http://127.0.0.1:"*/mcp ]]
	[ "${lines[1]}" = "urlserve: token file: $T/tok/en (send its first line as 'Authorization: Bearer TOKEN')" ]
	read -r tok <"$T/tok/en"
	[ -n "$tok" ]
	[[ $output != *"$tok"* ]]
}

@test "urlserve -l: a 401 names the token file it reads, never the token" {
	urlserve -l 127.0.0.1:0 --token-file "$T/tok/en" 2>"$T/serve.err" &
	echo $! >"$T/serve.pid"
	for ((i = 0; i < 100; i++)); do
		grep -q 'token file' "$T/serve.err" && break
		nap 0.1
	done
	nap_done
	url=$(sed -n 's/^urlserve: listening on \(http:[^ ]*\)$/\1/p' "$T/serve.err")
	[ -n "$url" ]
	read -r tok <"$T/tok/en"
	run -0 curl -s --max-time 10 -w '\n%{http_code}\n' \
	    -H 'Content-Type: application/json' \
	    --data-binary '{"jsonrpc":"2.0","id":1,"method":"ping"}' "$url"
	kill "$(cat "$T/serve.pid")"
	[ "${lines[-1]}" = 401 ]
	[[ $output == *"missing or wrong token"*"token file '$T/tok/en'"* ]]
	[[ $output != *"$tok"* ]]
}
