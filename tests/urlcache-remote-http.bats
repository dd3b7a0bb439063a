#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The cache's http(s) remote store (urlcache(1), REMOTE STORAGE) against
# a real nginx with its WebDAV module on 127.0.0.1: GET, PUT and DELETE
# of one object per key, the expiry in the value's header.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch
load helpers/remote

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() {
	fetch_setup
	unset URLKIT_CACHE_REMOTE
}
teardown() { common_teardown; }

rec() {
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$1" "${2:-content of $1}"
}

files() {
	if [ -d "$1" ]; then
		find "$1" -name '*.json' -type f | wc -l
	else
		echo 0
	fi
}

objects() {
	find "$DAV_DIR" -type f | wc -l
}

@test "http: two processes with separate cache directories share entries" {
	nginx_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	URLKIT_CACHE_DIR=$T/c1 run -0 urlfetch <<<"$B/article.html?h=1"
	[ "$(field "$output" .cached)" = false ]
	[ "$(objects)" = 1 ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlfetch <<<"$B/article.html?h=1"
	[ "$(field "$output" .cached)" = true ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(requests '/article.html?h=1')" = 1 ]
	[ "$(files "$T/c2")" = 1 ]
	# invalidate is a DELETE.
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache invalidate "$B/article.html?h=1"
	[ "$(field "$output" .found)" = true ]
	[ "$(objects)" = 0 ]
	URLKIT_CACHE_DIR=$T/c4 run -1 urlcache get "$B/article.html?h=1"
	# What urlfetch counted: c2's hit from the store.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache stats --compact
	json_eq "$(jq -c ".remote[\"$DAV_URL\"]" <<<"$output")" \
	    '{"hits":1,"misses":0,"stores":0,"errors":0,"corrupt":0}'
}

@test "http: the store killed mid-run: every record written, one warning, exit 0" {
	nginx_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	local line out=() i pid rc
	coproc UF { urlfetch 2>"$T/err"; }
	pid=$UF_PID
	echo "$B/article.html?hk=1" >&"${UF[1]}"
	read -r -t 30 line <&"${UF[0]}"
	out+=("$line")
	[ "$(objects)" = 1 ]
	nginx_stop
	for i in 2 3 4 5; do
		echo "$B/article.html?hk=$i" >&"${UF[1]}"
		read -r -t 30 line <&"${UF[0]}"
		out+=("$line")
	done
	exec {UF[1]}>&-
	wait "$pid" && rc=0 || rc=$?
	[ "$rc" -eq 0 ]
	[ "${#out[@]}" -eq 5 ]
	for line in "${out[@]}"; do
		[ "$(field "$line" .error)" = null ]
		[ "$(field "$line" .title)" = "The Quiet Harbour" ]
	done
	[ "$(grep -c "cache remote '$DAV_URL': 3 errors in a row" "$T/err")" = 1 ]
	[ "$(files "$URLKIT_CACHE_DIR")" = 5 ]
	run -0 urlcache stats --compact
	[ "$(jq ".remote[\"$DAV_URL\"].errors" <<<"$output")" = 3 ]
	[ "$(jq ".remote[\"$DAV_URL\"].stores" <<<"$output")" = 1 ]
}

@test "http: a server that accepts and never answers costs its timeout" {
	start_server silent python3 "$BATS_TEST_DIRNAME/helpers/pw_silent.py"
	export URLKIT_CACHE_REMOTE="http://127.0.0.1:$silent_PORT/c/"
	local t0=$SECONDS
	run -0 --separate-stderr urlfetch <<<"$B/article.html?hs=1"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	# A GET and a PUT, two seconds each at most (connect, then answer).
	[ $((SECONDS - t0)) -le 8 ]
	t0=$SECONDS
	URLKIT_CACHE_REMOTE="http://127.0.0.1:$silent_PORT/c/|operation-timeout=100" \
	    run -1 --separate-stderr urlcache get https://n.test/1 https://n.test/2 \
	    https://n.test/3 https://n.test/4
	[ $((SECONDS - t0)) -le 3 ]
	[[ $stderr == *"3 errors in a row"*"Timeout"* ]]
}

@test "http: a corrupt object is ignored, never served" {
	nginx_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	rec https://h.test/c hello | URLKIT_CACHE_DIR=$T/c1 urlcache set
	local f
	f=$(find "$DAV_DIR" -type f)
	sed -i 's/hello/jello/' "$f"
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache get https://h.test/c
	[ "$(files "$T/c2")" = 0 ]
	# Half an object: as a PUT cut short would leave it, were it not
	# written whole.
	rec https://h.test/c hello | URLKIT_CACHE_DIR=$T/c1 urlcache set
	head -c 60 "$f" >"$T/half" && cat "$T/half" >"$f"
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache get https://h.test/c
	# urlfetch counts one.
	local u=$B/article.html?hc=1
	URLKIT_CACHE_DIR=$T/c1 run -0 urlfetch <<<"$u"
	f=$DAV_DIR/cache/$(urlcache path "$u" | sed 's|.*/\(..\)/\(.*\)\.json$|\1/\2|')
	sed -i 's/Harbour/Harbouz/' "$f"
	URLKIT_CACHE_DIR=$T/c5 run -0 urlfetch <<<"$u"
	[ "$(field "$output" .cached)" = false ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	URLKIT_CACHE_DIR=$T/c5 run -0 urlcache stats --compact
	[ "$(jq ".remote[\"$DAV_URL\"].corrupt" <<<"$output")" = 1 ]
}

@test "http: a read-only store is read, never written or deleted" {
	nginx_start
	rec https://h.test/o | URLKIT_CACHE_DIR=$T/c1 \
	    URLKIT_CACHE_REMOTE="$DAV_URL|read-only" urlcache set
	[ "$(objects)" = 0 ]
	rec https://h.test/w | URLKIT_CACHE_DIR=$T/c1 \
	    URLKIT_CACHE_REMOTE="$DAV_URL" urlcache set
	export URLKIT_CACHE_REMOTE="$DAV_URL|read-only"
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache get https://h.test/w
	URLKIT_CACHE_DIR=$T/c3 run -0 urlcache invalidate https://h.test/w
	[ "$(field "$output" .found)" = false ]
	[ "$(objects)" = 1 ]
}

@test "http: the TTL travels in the object, and the local copy expires with it" {
	nginx_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	rec https://h.test/t | URLKIT_CACHE_DIR=$T/c1 urlcache --ttl 4 set
	sleep 2
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache --ttl 4 get https://h.test/t
	[ "$(files "$T/c2")" = 1 ]
	sleep 2.3
	# The object is still on the server, but past its expiry: a miss.
	[ "$(objects)" = 1 ]
	URLKIT_CACHE_DIR=$T/c2 run -1 urlcache --ttl 4 get https://h.test/t
	URLKIT_CACHE_DIR=$T/c3 run -1 urlcache --ttl 4 get https://h.test/t
}

@test "http: clear --remote without PROPFIND cannot list the objects: it says so, exit 1, nothing deleted" {
	nginx_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	rec https://h.test/c | URLKIT_CACHE_DIR=$T/c1 urlcache set
	[ "$(objects)" = 1 ]
	URLKIT_CACHE_DIR=$T/c1 run -1 --separate-stderr urlcache clear \
	    --remote --compact
	[ "$(field "$output" .removed)" = 1 ]
	[ "$(jq -r '.remote[0].error' <<<"$output")" = "cannot list its entries: clear it on the server" ]
	[[ $stderr == *"cache remote '$DAV_URL': cannot list its entries"* ]]
	[ "$(objects)" = 1 ]
}

# nginx_dav_ext_start: nginx_start's server, restarted with the dav_ext
# module (PROPFIND) loaded; skips when the module is not installed.
nginx_dav_ext_start() {
	local so=/usr/lib/nginx/modules/ngx_http_dav_ext_module.so n
	[ -f "$so" ] || skip "no nginx dav_ext module (scripts/bootstrap installs libnginx-mod-http-dav-ext)"
	nginx_start
	nginx_stop
	sed -i -e "1i load_module $so;" \
	    -e 's/dav_methods PUT DELETE;/& dav_ext_methods PROPFIND OPTIONS;/' \
	    "$T/nginx/conf"
	nginx -c "$T/nginx/conf" -e "$T/nginx/error.log" >"$T/nginx/out" 2>&1 &
	echo $! >"$T/nginx.pid"
	for ((n = 0; n < 100; n++)); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' -X PROPFIND \
		    -H 'Depth: 0' "${DAV_URL%cache/}")" = 207 ] && return 0
		nap 0.05
	done
	skip "nginx with dav_ext would not start: $(tail -n 3 "$T/nginx/error.log")"
}

@test "http: clear --remote lists the objects with PROPFIND and deletes urlkit's only" {
	nginx_dav_ext_start
	export URLKIT_CACHE_REMOTE=$DAV_URL
	local i
	for ((i = 0; i < 300; i++)); do
		rec "https://h.test/p$i"
	done | URLKIT_CACHE_DIR=$T/c1 urlcache set
	rec https://h.test/s | URLKIT_CACHE_DIR=$T/c1 urlcache session kept add
	# Not urlkit's: a file of another name in a KK directory, and one at
	# the top.
	mkdir -p "$DAV_DIR/cache/ab"
	echo other >"$DAV_DIR/cache/ab/notes.txt"
	echo other >"$DAV_DIR/cache/README"
	[ "$(objects)" = 303 ]
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache clear --remote --compact
	[ "$(jq -c '.remote' <<<"$output")" = "[{\"store\":\"$DAV_URL\",\"removed\":300}]" ]
	[ "$(objects)" = 3 ]
	[ -f "$DAV_DIR/cache/ab/notes.txt" ] && [ -f "$DAV_DIR/cache/README" ]
	[ -f "$DAV_DIR/cache/urlkit-session/kept" ]
	URLKIT_CACHE_DIR=$T/c3 run -1 urlcache get https://h.test/p7
	# Again: nothing left of urlkit's.
	URLKIT_CACHE_DIR=$T/c2 run -0 urlcache clear --remote --compact
	[ "$(jq -r '.remote[0].removed' <<<"$output")" = 0 ]
}
