# SPDX-License-Identifier: MIT
# The MCP suites (tests/urlserve-sdk.bats, -conformance, -service): a node
# driver on the official SDK (tests/helpers/mcp/*.mjs) runs every check of
# a suite in one process, in setup_file (node costs some 0.3 s of CPU a
# start), and prints one JSON line per check; each test reads its line.

# mcp_need: skip when node or npm is absent (scripts/bootstrap installs
# them), else make sure scripts/mcp-deps has installed the SDK and the
# conformance suite (a failure there fails the suite: npm is present).
mcp_need() {
	command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
	    skip "node and npm are not installed (scripts/bootstrap installs them)"
	"$TOP/scripts/mcp-deps" >&2
	URLKIT_MCP_DIR=$("$TOP/scripts/mcp-deps" --dir)
	export URLKIT_MCP_DIR
}

# mcp_setup_file DRIVER: run tests/helpers/mcp/DRIVER.mjs once for the
# whole suite; its lines go to $MCP_DIR/out.jsonl, its stderr (urlserve's
# logs too) to $MCP_DIR/log.
mcp_setup_file() {
	mcp_need
	MCP_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ukmcp.XXXXXX")
	export MCP_DIR
	export URLKIT_CACHE_DIR="$MCP_DIR/cache"
	export XDG_CACHE_HOME="$MCP_DIR/xdg"
	export HOME="$MCP_DIR/home"
	mkdir -p "$HOME"
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset TOOLACK_URL TOOLACK_TOKEN TOOLACK_TOKEN_FILE
	node "$TOP/tests/helpers/mcp/$1.mjs" "$MCP_DIR" \
	    >"$MCP_DIR/out.jsonl" 2>"$MCP_DIR/log"
	echo $? >"$MCP_DIR/rc"
}

mcp_teardown_file() {
	[ -z "${MCP_DIR:-}" ] || rm -rf "$MCP_DIR"
}

# mcp_check [TRANSPORT] NAME: the check NAME (of TRANSPORT) passed.  On
# failure its line, or the driver's log when there is none, is shown.
mcp_check() {
	local f
	if [ $# -eq 2 ]; then
		f='select(.transport == $t and .check == $c)'
	else
		f='select(.check == $c)'
		set -- "" "$1"
	fi
	run -0 jq -c --arg t "$1" --arg c "$2" "$f" "$MCP_DIR/out.jsonl"
	if [ -z "$output" ]; then
		echo "no check '$2' ${1:+over $1} in the driver's output" >&2
		tail -n 30 "$MCP_DIR/log" >&2
		grep '"ok":false' "$MCP_DIR/out.jsonl" | head -n 5 >&2
		return 1
	fi
	printf '%s\n' "$output" | jq -e '.ok == true' >/dev/null || {
		printf '%s\n' "$output" >&2
		return 1
	}
}

# mcp_clean: the driver ran to its end and no check it printed failed.
mcp_clean() {
	run -0 cat "$MCP_DIR/rc"
	[ "$output" = 0 ] || { tail -n 30 "$MCP_DIR/log" >&2; return 1; }
	run -1 grep '"ok":false' "$MCP_DIR/out.jsonl"
}
