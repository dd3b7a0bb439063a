# SPDX-License-Identifier: MIT
# The agent server (helpers/agent_server.py) for links-out.bats and
# negotiate.bats: agent_start NAME [--llms] starts one, its port in
# ${NAME}_PORT and its base URL in ${NAME}_URL; agent_stop NAME stops it;
# agent_log NAME prints its requests ("PATH ACCEPT" a line).

agent_start() {
	local name=$1 i port=
	shift
	mkdir -p "$AG_DIR"
	python3 "$BATS_TEST_DIRNAME/helpers/agent_server.py" "$@" \
	    >"$AG_DIR/$name.port" 2>"$AG_DIR/$name.log" &
	echo $! >"$AG_DIR/$name.pid"
	for ((i = 0; i < 200; i++)); do
		{ read -r port <"$AG_DIR/$name.port"; } 2>/dev/null || :
		[ -n "$port" ] && break
		nap 0.05
	done
	nap_done
	[ -n "$port" ] || { cat "$AG_DIR/$name.log" >&2; return 1; }
	printf -v "${name}_PORT" '%s' "$port"
	printf -v "${name}_URL" 'http://127.0.0.1:%s' "$port"
	export "${name}_PORT" "${name}_URL"
}

agent_stop() {
	[ -f "$AG_DIR/$1.pid" ] || return 0
	kill "$(cat "$AG_DIR/$1.pid")" 2>/dev/null
	wait "$(cat "$AG_DIR/$1.pid")" 2>/dev/null
	rm -f "$AG_DIR/$1.pid"
}

agent_log() {
	local u="${1}_URL"
	curl -s "${!u}/_log"
}
