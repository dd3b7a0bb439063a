# SPDX-License-Identifier: MIT
# Shared set-up for the urlserve suites that call its tools on stdio
# against a loopback site (tests/helpers/map_server.py serving $T/site):
# urlserve-links, -query, -outline, -robots.  Load after helpers/common.

# site_setup: common_setup, then nothing from the environment that would
# reach out (proxies, a remote store, a model, Chromium), 127.0.0.1 the
# one private address allowed, and an empty $T/site for the suite's pages.
# The suite writes its pages, then calls site_start.
site_setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	unset URLKIT_CACHE_REMOTE URLKIT_CACHE_TTL URLKIT_LLM_URL OPENAI_API_KEY
	export URLKIT_ALLOW_PRIVATE=127.0.0.1 URLKIT_CHROMIUM=/nonexistent
	mkdir "$T/site"
}

# site_start: serves $T/site (server S); B is its base URL.
site_start() {
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}

# calls [OPTION... --] TOOL ARGS [TOOL ARGS...]: one urlserve on stdio,
# run with -j 1 and the OPTIONs, initialized, then the calls one after the
# other (ids 1, 2, ...; ARGS is the call's arguments object).  Its output
# as it came in $T/us.out, its stderr added to $T/us.log, and the calls'
# responses in $T/out, one a line in the calls' order.  The status is
# jq's (0 when urlserve wrote JSON).
calls() {
	local opts=() i=0 a
	for a in "$@"; do
		if [ "$a" = -- ]; then
			while [ "$1" != -- ]; do
				opts+=("$1")
				shift
			done
			shift
			break
		fi
	done
	{
		printf '%s\n' \
		    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bats","version":"1"}}}' \
		    '{"jsonrpc":"2.0","method":"notifications/initialized"}'
		while [ $# -gt 0 ]; do
			i=$((i + 1))
			printf '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$i" "$1" "$2"
			shift 2
		done
	} | urlserve -j 1 "${opts[@]}" 2>>"$T/us.log" | tee "$T/us.out" |
	    jq -c -s 'map(select(.id != "i" and .id != null)) | sort_by(.id)[]' >"$T/out"
}
