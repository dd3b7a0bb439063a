# SPDX-License-Identifier: MIT
# The remote stores' suites: a real redis-server on 127.0.0.1, started by
# the test on a free port, with no persistence, stopped by
# common_teardown (its pid is in $T/redis.pid).

# redis_start [ARG...]: start redis-server (ARGs added to its command
# line) and set REDIS_PORT; skip the test with a message when it cannot.
redis_start() {
	local i port
	command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
	    skip "redis-server not installed (scripts/bootstrap installs it)"
	for ((i = 0; i < 5; i++)); do
		# A free port: the kernel's choice for a socket bound to port
		# 0, closed again (taken meanwhile: the loop tries another).
		port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		redis-server --port "$port" --bind 127.0.0.1 --save '' \
		    --appendonly no --daemonize no --dir "$T" "$@" \
		    >"$T/redis.log" 2>&1 &
		echo $! >"$T/redis.pid"
		for ((n = 0; n < 100; n++)); do
			kill -0 "$(cat "$T/redis.pid")" 2>/dev/null || break
			[ "$(redis-cli -p "$port" ${REDIS_AUTH:+-a "$REDIS_AUTH"} \
			    --no-auth-warning ping 2>/dev/null)" = PONG ] && {
				REDIS_PORT=$port
				export REDIS_PORT
				return 0
			}
			nap 0.05
		done
		kill "$(cat "$T/redis.pid")" 2>/dev/null
		wait "$(cat "$T/redis.pid")" 2>/dev/null
	done
	skip "redis-server would not start: $(tail -n 3 "$T/redis.log")"
}

# redis_stop: kill the server now (as a crash: SIGKILL) and wait for it.
redis_stop() {
	kill -KILL "$(cat "$T/redis.pid")" 2>/dev/null
	wait "$(cat "$T/redis.pid")" 2>/dev/null || :
}

# rcli ARG...: redis-cli against the test's server.
rcli() {
	redis-cli -p "$REDIS_PORT" ${REDIS_AUTH:+-a "$REDIS_AUTH"} \
	    --no-auth-warning "$@"
}
