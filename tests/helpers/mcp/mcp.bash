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
	local rc
	node "$TOP/tests/helpers/mcp/$1.mjs" "$MCP_DIR" \
	    >"$MCP_DIR/out.jsonl" 2>"$MCP_DIR/log" && rc=0 || rc=$?
	echo "$rc" >"$MCP_DIR/rc"
}

mcp_teardown_file() {
	[ -z "${MCP_DIR:-}" ] || rm -rf "$MCP_DIR"
}

# mcp_check [-t TRANSPORT] NAME...: each check NAME (of TRANSPORT) is in
# the driver's output and passed.  On failure its line, or the driver's
# log when there is none, is shown.  Read with builtins only: a suite has
# dozens of checks, and a jq started for each costs CPU that CI counts.
mcp_check() {
	local pre= c line found bad=0
	if [ "$1" = -t ]; then
		pre="\"transport\":\"$2\","
		shift 2
	fi
	[ -n "${MCP_LINES+set}" ] || mapfile -t MCP_LINES <"$MCP_DIR/out.jsonl"
	for c in "$@"; do
		found=
		for line in "${MCP_LINES[@]}"; do
			case $line in
			"{$pre\"check\":\"$c\",\"ok\":"*) found=$line; break ;;
			esac
		done
		if [ -z "$found" ]; then
			echo "no check '$c' ${pre:+($pre)} in the driver's output" >&2
			tail -n 30 "$MCP_DIR/log" >&2
			bad=1
		elif [[ $found != "{$pre\"check\":\"$c\",\"ok\":true"* ]]; then
			printf '%s\n' "$found" >&2
			bad=1
		fi
	done
	return "$bad"
}

# mcp_clean: the driver ran to its end and no check it printed failed.
mcp_clean() {
	local rc line
	read -r rc <"$MCP_DIR/rc"
	[ "$rc" = 0 ] || { tail -n 30 "$MCP_DIR/log" >&2; return 1; }
	while IFS= read -r line; do
		case $line in
		*'"ok":false'*) printf '%s\n' "$line" >&2; return 1 ;;
		esac
	done <"$MCP_DIR/out.jsonl"
}
