#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch when the network, the disk or the user gets in the way: a reset
# mid-body, a server that never answers, a name that does not resolve, a
# certificate that does not verify, a full disk, a read-only cache,
# SIGTERM and SIGINT mid-run.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults

setup() {
	common_setup
	export URLKIT_ALLOW_PRIVATE=1
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}

teardown() {
	for d in "$T"/cache "$T"/cache/*; do
		[ -d "$d" ] && writable "$d"
	done
	common_teardown
}

@test "a connection reset mid-body: an error record, nothing cached, the run goes on" {
	fault R reset
	fault P page
	run -1 --separate-stderr urlfetch -t 5 <<EOF
http://127.0.0.1:$R_PORT/article.html
http://127.0.0.1:$P_PORT/page?kb=4
EOF
	[ "${#lines[@]}" = 2 ]
	[[ $(jq -r .error <<<"${lines[0]}") == *"reset"* ]]
	jq -e '.content == null and .cached == false' <<<"${lines[0]}"
	jq -e '.error == null and .title == "Fault page"' <<<"${lines[1]}"
	# A reset is tried again before it is given up.
	[ "$(conns R)" -ge 2 ]
	run -1 urlcache -q get "http://127.0.0.1:$R_PORT/article.html"
	run -0 urlcache -q get "http://127.0.0.1:$P_PORT/page?kb=4"
}

@test "a server that accepts and never answers: the record fails at -t" {
	fault H hang
	# (timeout only stops a hung urlfetch from hanging the suite.)
	run -1 --separate-stderr timeout 30 urlfetch -t 1 <<<"http://127.0.0.1:$H_PORT/x"
	[ "$(jq -r .error <<<"$output")" = "timed out after 1 s" ]
	[ "$(conns H)" -ge 1 ]
	# The same for every GitHub route pointed at it.
	export URLKIT_GITHUB_RAW_URL="http://127.0.0.1:$H_PORT/raw" \
	    URLKIT_GITHUB_API_URL="http://127.0.0.1:$H_PORT/api" \
	    URLKIT_GITHUB_URL="http://127.0.0.1:$H_PORT/gh"
	run -1 --separate-stderr timeout 30 urlfetch -t 1 <<EOF
https://github.com/o/r/blob/main/a.py
https://github.com/o/r/issues/1
EOF
	[ "${#lines[@]}" = 2 ]
	jq -e '.error | test("timed out")' <<<"${lines[0]}"
	jq -e '.error | test("timed out")' <<<"${lines[1]}"
}

@test "a name that does not resolve: an error record, at once" {
	run -1 --separate-stderr timeout 30 urlfetch -t 5 <<EOF
http://nowhere.invalid/page
https://github.com/o/r/issues/1
EOF
	[ "${#lines[@]}" = 2 ]
	[[ $(jq -r .error <<<"${lines[0]}") == *"resolve"*"nowhere.invalid"* ]]
	# GitHub's hosts under .invalid: the API, then the web page, fail.
	URLKIT_GITHUB_API_URL=http://api.invalid URLKIT_GITHUB_URL=http://gh.invalid \
	    run -1 --separate-stderr urlfetch -t 5 <<<"https://github.com/o/r/issues/1"
	[[ $(jq -r .error <<<"$output") == *"resolve"* ]]
}

@test "a certificate that does not verify: an error record; -k fetches" {
	fault S page --tls
	run -1 --separate-stderr urlfetch -t 5 <<<"https://localhost:$S_PORT/page?kb=2"
	[[ $(jq -r .error <<<"$output") == *"certificate"* ]]
	# GitHub's raw host behind that certificate: the same.
	export URLKIT_GITHUB_RAW_URL="https://localhost:$S_PORT/raw"
	run -1 --separate-stderr urlfetch -t 5 <<<"https://github.com/o/r/blob/main/a.md"
	[[ $(jq -r .error <<<"$output") == *"certificate"* ]]
	run -0 --separate-stderr urlfetch -k -t 5 <<<"https://localhost:$S_PORT/page?kb=2"
	jq -e '.error == null and .title == "Fault page"' <<<"$output"
}

@test "a full disk (ENOSPC): the record still goes out, the cache is unharmed" {
	full_disk_ok || skip "no tmpfs without root and mount namespaces (the EFBIG test covers the path)"
	fault P page
	export P_PORT
	export URLKIT_CACHE_DIR=$T/small/cache
	run -0 on_full_disk "$T/small" '
		echo "http://127.0.0.1:$P_PORT/page?kb=2" | urlfetch >"$T/first"
		urlcache path "http://127.0.0.1:$P_PORT/page?kb=2" >"$T/path"
		cp "$(cat "$T/path")" "$T/entry"
		fill_disk "$1"
		printf "%s\n" "http://127.0.0.1:$P_PORT/page?kb=64" \
		    "http://127.0.0.1:$P_PORT/page?kb=2" |
		    urlfetch >"$T/out" 2>"$T/err"
		echo $? >"$T/rc"
		cmp "$(cat "$T/path")" "$T/entry" && echo same >"$T/cmp"
		find "$1" -name ".*.tmp.*" >"$T/tmp"
		urlcache stats >"$T/stats"'
	[ "$(cat "$T/rc")" = 1 ]
	run -0 cat "$T/err"
	[[ $output == "urlfetch: cache: cannot write '"*"': No space left on device" ]]
	run -0 jq -c '[.title, .error, .cached, (.content | length > 100)]' "$T/out"
	[ "${lines[0]}" = '["Fault page",null,false,true]' ]
	[ "${lines[1]}" = '["Fault page",null,true,true]' ]
	# The entry that was there is whole, nothing half-written was left.
	[ "$(cat "$T/cmp")" = same ]
	[ ! -s "$T/tmp" ]
	jq -e '.entries == 1 and .temp == 0' "$T/stats"
}

@test "a file-size limit (EFBIG): the record still goes out, no temporary file" {
	fault P page
	echo "http://127.0.0.1:$P_PORT/page?kb=2" | urlfetch >/dev/null
	# The limit is for files only: stdout is a pipe.
	run -1 --separate-stderr bash -o pipefail -c "trap '' XFSZ; ulimit -f 16
	    printf '%s\n' http://127.0.0.1:$P_PORT/page?kb=64 http://127.0.0.1:$P_PORT/page?kb=2 | urlfetch | cat"
	[[ $stderr == *"cannot write"*"File too large"* ]]
	jq -e '.error == null and .cached == false and (.content | length > 60000)' <<<"${lines[0]}"
	jq -e '.cached == true' <<<"${lines[1]}"
	no_temp "$T/cache"
	run -0 urlcache stats
	jq -e '.entries == 1' <<<"$output"
}

@test "a read-only cache: hits still served, new records go out with a warning" {
	fault P page
	echo "http://127.0.0.1:$P_PORT/page?kb=2" | urlfetch >/dev/null
	d=$(dirname "$(urlcache path "http://127.0.0.1:$P_PORT/page?kb=2")")
	for x in "$d" "$T/cache"; do
		read_only "$x" || skip "cannot make a directory read-only here"
	done
	run -1 --separate-stderr urlfetch <<EOF
http://127.0.0.1:$P_PORT/page?kb=2
http://127.0.0.1:$P_PORT/page?kb=3
EOF
	jq -e '.cached == true' <<<"${lines[0]}"
	jq -e '.error == null and .cached == false and .title == "Fault page"' <<<"${lines[1]}"
	[[ $stderr == "urlfetch: cache: cannot "*"'$T/cache/"*": "*"ermi"* ]]
	# urlfetch -C (no cache) is quiet about it.
	run -0 --separate-stderr urlfetch -C <<<"http://127.0.0.1:$P_PORT/page?kb=3"
	[ -z "$stderr" ]
}

@test "SIGTERM in the middle of a cache write: no temporary file, whole records" {
	fault P page
	# Writes of the cache go in 4 KiB pieces 100 ms apart (a test hook):
	# a 64 KiB page takes over a second and a half to store.
	mkfifo "$T/in"
	URLKIT_TEST_WRITE_DELAY=100000 urlfetch -j 1 <"$T/in" >"$T/out" 2>"$T/err" &
	pid=$!
	exec 7>"$T/in"
	echo "http://127.0.0.1:$P_PORT/page?kb=1" >&7
	echo "http://127.0.0.1:$P_PORT/page?kb=64" >&7
	# Wait for the first record, then for the second entry's temporary
	# file, then stop.
	seen=
	for _ in $(seq 1 400); do
		if [ -s "$T/out" ]; then
			seen=$(find "$T/cache" -name '.*.tmp.*' 2>/dev/null || :)
			[ -n "$seen" ] && break
		fi
		sleep 0.05
	done
	kill -TERM "$pid"
	[ -n "$seen" ]
	st=0
	wait "$pid" || st=$?
	[ "$st" = 143 ] # died of the SIGTERM, once the write was done
	exec 7>&-
	no_temp "$T/cache"
	all_json "$T/out"
	[ "$(jq -r .title "$T/out" | head -n 1)" = "Fault page" ]
	# The entry being written when the signal came is whole or absent.
	run -0 urlcache stats
	jq -e '.temp == 0' <<<"$output"
	run -0 urlcache cleanup -n
	jq -e '.would_remove == 0 and .corrupt == 0' <<<"$output"
}

@test "SIGINT while a big record goes out to a slow reader: whole records only" {
	fault P page
	mkfifo "$T/in" "$T/pipe"
	# (A background job of a script starts with SIGINT ignored: give
	# urlfetch the default back, as an interactive shell would.)
	env --default-signal=INT urlfetch -C -j 1 <"$T/in" >"$T/pipe" 2>"$T/err" &
	pid=$!
	exec 7>"$T/in"
	# A 1.5 MB record fills the pipe; nobody reads it yet.
	echo "http://127.0.0.1:$P_PORT/page?kb=1500" >&7
	exec 8<"$T/pipe"
	sleep 1
	kill -INT "$pid"
	# Now read: urlfetch finishes the record it was writing, then stops.
	cat <&8 >"$T/out"
	st=0
	wait "$pid" || st=$?
	[ "$st" = 130 ]
	exec 7>&- 8<&-
	all_json "$T/out"
	[ "$(wc -l <"$T/out")" -le 1 ]
}

@test "a proxy is trusted, and only the proxy: a host no_proxy sends to directly is guarded" {
	unset URLKIT_ALLOW_PRIVATE
	fault X page # the proxy: it serves any URL asked of it
	fault P page # a private host
	export http_proxy="http://127.0.0.1:$X_PORT"
	run -0 --separate-stderr urlfetch -C <<<"http://site.invalid/page?kb=2"
	jq -e '.title == "Fault page"' <<<"$output"
	[ "$(conns X)" = 1 ]
	# no_proxy sends these straight to 127.0.0.1: the guard is on.
	for np in 127.0.0.1 '*'; do
		no_proxy=$np run -1 --separate-stderr urlfetch -C <<<"http://127.0.0.1:$P_PORT/page"
		[[ $(jq -r .error <<<"$output") == "refused to connect to private address 127.0.0.1"* ]]
	done
	[ "$(conns P)" = 0 ]
	# Allowed, it is fetched directly.
	URLKIT_ALLOW_PRIVATE=127.0.0.1 no_proxy=127.0.0.1 \
	    run -0 --separate-stderr urlfetch -C <<<"http://127.0.0.1:$P_PORT/page"
	[ "$(conns P)" = 1 ]
}

@test "through a proxy, numeric and localhost hosts are refused before the request, redirects too" {
	unset URLKIT_ALLOW_PRIVATE
	fault X page # the proxy: it serves any URL asked of it
	export http_proxy="http://127.0.0.1:$X_PORT"
	local u
	for u in http://169.254.169.254/latest/meta-data/ http://10.1.2.3/ \
	    http://2130706433/ http://0x7f.1/ http://localhost/ \
	    http://a.localhost./ 'http://[::1]/' 'http://[::ffff:10.0.0.1]/'; do
		run -1 --separate-stderr urlfetch -C <<<"{\"url\":\"$u\"}"
		[[ $(jq -r .error <<<"$output") == "refused to connect to private address "* ]]
	done
	# A public name through the proxy that redirects to the metadata address.
	run -1 --separate-stderr urlfetch -C \
	    <<<"http://site.invalid/page?to=http%3A%2F%2F169.254.169.254%2Fx"
	[[ $(jq -r .error <<<"$output") == "refused to connect to private address 169.254.169.254"* ]]
	# The proxy was asked for the first URL only.
	[ "$(reqs X)" = "http://site.invalid/page?to=http%3A%2F%2F169.254.169.254%2Fx" ]
	# A public name and a public address go through.
	run -0 --separate-stderr urlfetch -C <<<"http://192.0.2.1.nip.invalid/page?kb=1"
	run -0 --separate-stderr urlfetch -C <<<"http://203.0.113.9/page?kb=1"
	[ "$(reqs X | wc -l)" = 3 ]
	# Allowed, the private address goes to the proxy.
	URLKIT_ALLOW_PRIVATE=1 run -0 --separate-stderr urlfetch -C <<<"http://10.1.2.3/page?kb=1"
	[ "$(reqs X | tail -n 1)" = "http://10.1.2.3/page?kb=1" ]
}
