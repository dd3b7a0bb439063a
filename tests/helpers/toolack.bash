# SPDX-License-Identifier: MIT
# Shared set-up of the toolack suites: a server of our own on a free port.

# ta_start [serve options...]: start toolack serve on 127.0.0.1:0 with a
# private token file; sets TOOLACK_URL, TOOLACK_TOKEN_FILE and TOKEN.
ta_start() {
	export TOOLACK_TOKEN_FILE="$T/token"
	unset TOOLACK_TOKEN
	start_server TA toolack serve -l 127.0.0.1:0 -b 0.2 "$@" || return 1
	export TOOLACK_URL="$TA_PORT"
	TOKEN=$(cat "$TOOLACK_TOKEN_FILE")
	export TOKEN
}

# ta_curl ARGS...: curl with the token, printing the body and then the
# HTTP status on a line of its own.
ta_curl() {
	curl -s --max-time 10 -H "Authorization: Bearer $TOKEN" \
	    -w '\n%{http_code}\n' "$@"
}

# ta_pending: how many calls are pending.
ta_pending() {
	curl -s --max-time 5 -H "Authorization: Bearer $TOKEN" \
	    "$TOOLACK_URL/api/tools/calls?limit=0" | jq .pending
}

# ta_exec NAME ARGS...: start toolack exec in the background (pid in
# $T/NAME.pid, stderr in $T/NAME.log).
ta_exec() {
	local name=$1
	shift
	toolack exec --idle 2 "$@" >"$T/$name.out" 2>"$T/$name.log" &
	echo $! >"$T/$name.pid"
}

# wait_for SECONDS CMD...: poll CMD until it succeeds (the pauses start
# no process: nap in common.bash).
wait_for() {
	local n=$(($1 * 20))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && { nap_done; return 0; }
		nap 0.05
		n=$((n - 1))
	done
	nap_done
	return 1
}
