# SPDX-License-Identifier: MIT
# The urlfetch suites' fixture server: one per suite file (setup_file),
# with every GitHub base URL pointed at it.  Requests are counted by path
# and query, so a test that counts uses a query of its own.

fetch_setup_file() {
	FS_DIR=$(mktemp -d "${BATS_TMPDIR:-/tmp}/ukfs.XXXXXX")
	export FS_DIR
	python3 "$BATS_TEST_DIRNAME/helpers/fetch_server.py" \
	    >"$FS_DIR/port" 2>"$FS_DIR/log" &
	echo $! >"$FS_DIR/pid"
	# Polled with builtins only (see nap in common.bash).
	local i
	FS_PORT=
	for ((i = 0; i < 200; i++)); do
		{ read -r FS_PORT <"$FS_DIR/port"; } 2>/dev/null || :
		[ -n "$FS_PORT" ] && break
		nap 0.05
	done
	nap_done
	[ -n "$FS_PORT" ] || { cat "$FS_DIR/log" >&2; return 1; }
	export FS_PORT
}

fetch_teardown_file() {
	kill "$(cat "$FS_DIR/pid")" 2>/dev/null
	wait "$(cat "$FS_DIR/pid")" 2>/dev/null
	rm -rf "$FS_DIR"
}

fetch_setup() {
	common_setup
	B="http://127.0.0.1:$FS_PORT"
	export B
	export URLKIT_ALLOW_PRIVATE=1
	export URLKIT_GITHUB_URL="$B/gh"
	export URLKIT_GITHUB_RAW_URL="$B/raw"
	export URLKIT_GITHUB_API_URL="$B/api"
	unset URLKIT_GITHUB_TOKEN GITHUB_TOKEN URLKIT_CACHE_TTL
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}

# requests PATH?QUERY: how many requests the server has had for it.
requests() {
	curl -s "$B/_count$1"
}

# field JSON FILTER: jq -r FILTER on one record.
field() {
	printf '%s\n' "$1" | jq -r "$2"
}
