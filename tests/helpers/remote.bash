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

# nginx_start: nginx with its WebDAV module serving $T/dav on 127.0.0.1
# at a free port, from a config written here; sets DAV_URL (the store's
# base URL) and DAV_DIR; skips the test with a message when it cannot.
nginx_start() {
	local i port n
	command -v nginx >/dev/null ||
	    skip "nginx not installed (scripts/bootstrap installs nginx-light)"
	nginx -V 2>&1 | grep -q -- --with-http_dav_module ||
	    skip "this nginx has no WebDAV module"
	DAV_DIR=$T/dav
	mkdir -p "$DAV_DIR" "$T/nginx"
	for ((i = 0; i < 5; i++)); do
		port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		{
			# As root, its workers would be nobody, who cannot
			# enter $T (mode 700).
			[ "$(id -u)" != 0 ] || echo "user root;"
			cat <<-CONF
			daemon off;
			worker_processes 1;
			pid $T/nginx/pid;
			error_log $T/nginx/error.log;
			events { worker_connections 64; }
			http {
			  access_log $T/nginx/access.log;
			  client_body_temp_path $T/nginx/body;
			  proxy_temp_path $T/nginx/proxy;
			  fastcgi_temp_path $T/nginx/fastcgi;
			  uwsgi_temp_path $T/nginx/uwsgi;
			  scgi_temp_path $T/nginx/scgi;
			  server {
			    listen 127.0.0.1:$port;
			    root $DAV_DIR;
			    location / {
			      dav_methods PUT DELETE;
			      create_full_put_path on;
			      client_max_body_size 64m;
			    }
			  }
			}
			CONF
		} >"$T/nginx/conf"
		nginx -c "$T/nginx/conf" -e "$T/nginx/error.log" \
		    >"$T/nginx/out" 2>&1 &
		echo $! >"$T/nginx.pid"
		for ((n = 0; n < 100; n++)); do
			kill -0 "$(cat "$T/nginx.pid")" 2>/dev/null || break
			curl -s -o /dev/null "http://127.0.0.1:$port/" && {
				DAV_URL=http://127.0.0.1:$port/cache/
				export DAV_URL DAV_DIR
				return 0
			}
			nap 0.05
		done
		kill "$(cat "$T/nginx.pid")" 2>/dev/null
		wait "$(cat "$T/nginx.pid")" 2>/dev/null
	done
	skip "nginx would not start: $(tail -n 3 "$T/nginx/error.log" "$T/nginx/out")"
}

# nginx_stop: kill nginx now (SIGKILL, the master; its worker follows)
# and wait for it.
nginx_stop() {
	local w
	w=$(pgrep -P "$(cat "$T/nginx.pid")")
	kill -KILL "$(cat "$T/nginx.pid")" $w 2>/dev/null
	wait "$(cat "$T/nginx.pid")" 2>/dev/null || :
}
