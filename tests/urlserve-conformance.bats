#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The protocol's own conformance suite (@modelcontextprotocol/conformance,
# installed by scripts/mcp-deps) against `urlserve -l` (streamable HTTP),
# offline: its active server scenarios run once, in setup_file, with
# tests/helpers/mcp/conformance-baseline.yml (the scenarios of features
# urlserve does not offer, each with its reason) as the expected
# failures.  Every other scenario must pass, every check of it; the
# suite's exit status says so, and each test reads its scenario's
# checks.json.  The suite has no option for a token, which urlserve -l
# always wants: tests/helpers/mcp/bearer.mjs adds the header to its
# requests and nothing else.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/mcp/mcp

setup_file() {
	local i url= conf rc line
	mcp_need
	MCP_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ukmcp.XXXXXX")
	export MCP_DIR URLKIT_CACHE_DIR="$MCP_DIR/cache" HOME="$MCP_DIR/home"
	mkdir -p "$HOME"
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	(umask 077 && echo "conformance-token-$$" >"$MCP_DIR/token")
	: >"$MCP_DIR/serve.log"
	urlserve -l 127.0.0.1:0 --token-file "$MCP_DIR/token" \
	    2>"$MCP_DIR/serve.log" &
	echo $! >"$MCP_DIR/serve.pid"
	# Polled with builtins only (see nap in common.bash).
	for ((i = 0; i < 200; i++)); do
		while IFS= read -r line; do
			case $line in
			"urlserve: listening on "*) url=${line##* } ;;
			esac
		done <"$MCP_DIR/serve.log"
		[ -n "$url" ] && break
		nap 0.05
	done
	nap_done
	echo "$url" >"$MCP_DIR/url"
	conf=$URLKIT_MCP_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
	URLSERVE_URL=$url URLSERVE_TOKEN=conformance-token-$$ \
	    URLSERVE_CONFORMANCE=$conf \
	    node --import "$TOP/tests/helpers/mcp/bearer.mjs" "$conf" server \
	    --url "$url" -o "$MCP_DIR/res" \
	    --expected-failures "$TOP/tests/helpers/mcp/conformance-baseline.yml" \
	    >"$MCP_DIR/out" 2>&1 && rc=0 || rc=$?
	echo "$rc" >"$MCP_DIR/rc"
	# One line per check of every scenario: SCENARIO STATUS ID (one jq
	# for all: the scenario from the directory's name,
	# server-SCENARIO-DATE).
	jq -r 'input_filename as $f | ($f | sub(".*/server-"; "") |
	    sub("-20[0-9][0-9]-.*"; "")) as $s |
	    .[] | "\($s) \(.status) \(.id)"' "$MCP_DIR"/res/server-*/checks.json \
	    >"$MCP_DIR/checks" 2>>"$MCP_DIR/out" || :
}

teardown_file() {
	kill "$(cat "$MCP_DIR/serve.pid")" 2>/dev/null
	wait "$(cat "$MCP_DIR/serve.pid")" 2>/dev/null
	mcp_teardown_file
}

# scenario NAME: NAME ran, with at least one SUCCESS and no FAILURE or
# WARNING among its checks.
scenario() {
	local s st id ok=0
	while read -r s st id; do
		[ "$s" = "$1" ] || continue
		case $st in
		SUCCESS) ok=1 ;;
		FAILURE | WARNING)
			echo "$1: $st $id" >&2
			return 1
			;;
		esac
	done <"$MCP_DIR/checks"
	[ "$ok" = 1 ] || { echo "$1: no successful check" >&2; return 1; }
}

@test "conformance: the active suite passes, its failures exactly the baseline's (exit 0)" {
	run -0 cat "$MCP_DIR/rc"
	[ "$output" = 0 ] || { grep -v '^$' "$MCP_DIR/out" | tail -n 40 >&2; false; }
	run -0 grep -c 'Baseline check passed' "$MCP_DIR/out"
}

@test "conformance: server-initialize (lifecycle)" {
	scenario server-initialize
}

@test "conformance: ping" {
	scenario ping
}

@test "conformance: logging-set-level" {
	scenario logging-set-level
}

@test "conformance: tools-list" {
	scenario tools-list
}

@test "conformance: server-sse-multiple-streams (transport: concurrent POSTs on one session)" {
	scenario server-sse-multiple-streams
}

@test "conformance: dns-rebinding-protection (a foreign Host and Origin refused, loopback accepted)" {
	scenario dns-rebinding-protection
}
