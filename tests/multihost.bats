#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The many-machines pipeline of doc/GUIDE.md, for real: two hosts in
# network namespaces (alpha and beta, each with sshd from Debian, a key
# made for the test, urlkit installed with make install DESTDIR= and a
# cache directory of its own), a third (hub) with a bridge to both, the
# page server and the shared redis-server; GNU parallel --sshlogin runs
# the pipeline on both from the hub.  The records equal the serial run's,
# and a second run, the hosts' directories emptied, is served from the
# shared store.  Root and ip netns are needed; the addresses (10.231.0.0/24)
# exist only inside the namespaces.
bats_require_minimum_version 1.5.0
load helpers/common

stages='urldetect -m 3 --json text | urlfetch -t 5 | urlsum'

# mh_ns NAME: this file's name for namespace NAME.
mh_ns() { echo "$MH_ID$1"; }

# mh_cleanup: every process and namespace of the file, whatever state
# the set-up reached; safe to run twice.
mh_cleanup() {
	local pidf pid ns
	for pidf in "$W"/*.pid; do
		[ -e "$pidf" ] || continue
		read -r pid <"$pidf" || continue
		kill "$pid" 2>/dev/null || :
	done
	for ns in $(cat "$W/namespaces" 2>/dev/null); do
		# A process left in it (none should be) goes with it.
		ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
		ip netns del "$ns" 2>/dev/null || :
	done
	rm -f "$W/namespaces"
}

# nsx NS CMD...: run CMD in namespace NS.
nsx() {
	local ns=$1
	shift
	ip netns exec "$(mh_ns "$ns")" "$@"
}

# rcli ARG...: redis-cli against the shared store.
rcli() {
	nsx hub redis-cli -h 10.231.0.1 -a "$(cat "$W/redis.pw")" \
	    --no-auth-warning "$@"
}

# mh_host NAME ADDR: namespace NAME joined to the hub's bridge, with
# ADDR, urlkit installed under $W/NAME and sshd listening on ADDR:22.
mh_host() {
	local name=$1 addr=$2 ns
	ns=$(mh_ns "$name")
	ip netns add "$ns" && echo "$ns" >>"$W/namespaces" || return 1
	# Both ends made in their namespaces: no link in this one.
	ip link add "v$name" netns "$(mh_ns hub)" type veth \
	    peer name eth0 netns "$ns" || return 1
	nsx hub ip link set "v$name" master br0 up || return 1
	nsx "$name" ip link set lo up
	nsx "$name" ip addr add "$addr/24" dev eth0
	nsx "$name" ip link set eth0 up
	# The install under test: this tree's programs, in the host's own
	# prefix; the build's own flags and -o all, as man.bats installs,
	# so that make remakes nothing under the suites running beside it.
	make -s -C "$UK_TOP" -o all install DESTDIR="$W/$name" \
	    PREFIX=/usr/local ${UK_BIN:+BUILD="$(dirname "$UK_BIN")"} \
	    ${UK_MAKE_FLAGS:-} >"$W/$name.install" 2>&1 ||
	    { cat "$W/$name.install"; return 1; }
	mkdir -p "$W/$name/cache"
	cat >"$W/$name/sshd_config" <<-CONF
	ListenAddress $addr:22
	HostKey $W/ssh/host_key
	AuthorizedKeysFile $W/ssh/authorized_keys
	PidFile $W/$name/sshd.pid
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	UsePAM no
	StrictModes no
	SetEnv PATH=$W/$name/usr/local/bin:/usr/bin:/bin URLKIT_CACHE_DIR=$W/$name/cache
	CONF
	nsx "$name" /usr/sbin/sshd -D -f "$W/$name/sshd_config" \
	    -E "$W/$name/sshd.log" &
	echo $! >"$W/$name-sshd.pid"
}

setup_file() {
	W=$BATS_FILE_TMPDIR/mh
	MH_ID=ukmh$$
	export W MH_ID
	mkdir -p "$W"
	[ "$(id -u)" = 0 ] || return 0
	command -v ip >/dev/null && ip netns list >/dev/null 2>&1 || return 0
	[ -x /usr/sbin/sshd ] && command -v parallel >/dev/null &&
	    command -v redis-server >/dev/null || return 0
	UK_TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	export UK_TOP
	if ! mh_world; then
		echo "# multihost: set-up failed" >&3
		mh_cleanup
		return 1
	fi
	touch "$W/ready"
}

# mh_world: the namespaces, the servers, the key, the messages and the
# serial run.
mh_world() {
	local ns i st=0
	ns=$(mh_ns hub)
	ip netns add "$ns" && echo "$ns" >>"$W/namespaces" || return 1
	nsx hub ip link set lo up
	nsx hub ip link add br0 type bridge || return 1
	nsx hub ip addr add 10.231.0.1/24 dev br0
	nsx hub ip link set br0 up
	# The key made for the test: the hosts' host key and root's key.
	mkdir -p "$W/ssh" /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$W/ssh/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$W/ssh/id" || return 1
	cp "$W/ssh/id.pub" "$W/ssh/authorized_keys"
	{
		printf '10.231.0.2 '
		cut -d' ' -f1-2 "$W/ssh/host_key.pub"
		printf '10.231.0.3 '
		cut -d' ' -f1-2 "$W/ssh/host_key.pub"
	} >"$W/ssh/known_hosts"
	cat >"$W/ssh/config" <<-CONF
	Host *
	  User root
	  IdentityFile $W/ssh/id
	  IdentitiesOnly yes
	  UserKnownHostsFile $W/ssh/known_hosts
	  StrictHostKeyChecking yes
	  BatchMode yes
	  ConnectTimeout 5
	CONF
	mh_host alpha 10.231.0.2 || return 1
	mh_host beta 10.231.0.3 || return 1
	# The page server and the store, in the hub, on the bridge.
	mkdir -p "$W/pages"
	for ((i = 1; i <= 40; i++)); do
		printf '<!doctype html><html><head><title>Page %d</title></head><body><article><h1>Page %d</h1><p>%s</p></article></body></html>\n' \
		    "$i" "$i" "$(printf 'Paragraph %d of a page about harbours and tides. ' $(seq 1 12))" \
		    >"$W/pages/p$i.html"
	done
	nsx hub python3 -m http.server --bind 10.231.0.1 --directory "$W/pages" \
	    8080 >"$W/pages.log" 2>&1 &
	echo $! >"$W/pages.pid"
	# A password (not on loopback, Redis would refuse others without
	# one), read by each host from a file, as the GUIDE's.
	head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$W/redis.pw"
	nsx hub redis-server --bind 10.231.0.1 --port 6379 --save '' \
	    --requirepass "$(cat "$W/redis.pw")" \
	    --appendonly no --dir "$W" >"$W/redis.log" 2>&1 &
	echo $! >"$W/redis.pid"
	# 60 messages of two URLs each from the 40 pages (some shared) and
	# one missing page in every 20th.
	for ((i = 1; i <= 60; i++)); do
		printf '{"id":"m%d","text":"see http://10.231.0.1:8080/p%d.html and http://10.231.0.1:8080/%s.html"}\n' \
		    "$i" $(((i - 1) % 40 + 1)) \
		    "$([ $((i % 20)) = 0 ] && echo "missing$i" || echo "p$(((i * 7) % 40 + 1))")"
	done >"$W/msgs.jsonl"
	for ((i = 0; i < 100; i++)); do
		rcli ping 2>/dev/null | grep -q PONG &&
		    nsx hub curl -sf -o /dev/null http://10.231.0.1:8080/p1.html &&
		    nsx alpha bash -c ': </dev/tcp/10.231.0.2/22' 2>/dev/null &&
		    nsx beta bash -c ': </dev/tcp/10.231.0.3/22' 2>/dev/null &&
		    break
		sleep 0.1
	done
	[ "$i" -lt 100 ] || { tail -n 3 "$W"/*.log; return 1; }
	# The serial run, in the hub, with this tree's programs and no store.
	nsx hub env -u URLKIT_CACHE_REMOTE -u URLKIT_LLM_URL \
	    PATH="$W/alpha/usr/local/bin:$PATH" URLKIT_ALLOW_PRIVATE=1 \
	    URLKIT_CACHE_DIR="$W/serial-cache" bash -o pipefail -c "$stages" \
	    <"$W/msgs.jsonl" >"$W/serial.jsonl" 2>"$W/serial.err" || st=$?
	echo "$st" >"$W/serial.st"
}

teardown_file() {
	mh_cleanup
}

setup() {
	common_setup
	[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, sshd)"
	command -v ip >/dev/null && ip netns list >/dev/null 2>&1 ||
	    skip "ip netns is not available"
	[ -x /usr/sbin/sshd ] ||
	    skip "sshd is not installed (scripts/bootstrap installs openssh-server)"
	command -v parallel >/dev/null ||
	    skip "GNU parallel is not installed (scripts/bootstrap installs it)"
	command -v redis-server >/dev/null ||
	    skip "redis-server is not installed (scripts/bootstrap installs it)"
	[ -e "$W/ready" ]
}

# mh_run OUT: the GUIDE's pipeline across alpha and beta, from the hub,
# with the shared store; its status in $W/OUT.st.
mh_run() {
	local st=0
	nsx hub env -u URLKIT_LLM_URL \
	    URLKIT_CACHE_REMOTE="redis://10.231.0.1:6379|password-file=$W/redis.pw" \
	    URLKIT_ALLOW_PRIVATE=1 PARALLEL_SSH="ssh -F $W/ssh/config" \
	    parallel --pipe -N 10 --keep-order \
	    --sshlogin 2/10.231.0.2,2/10.231.0.3 \
	    --env URLKIT_CACHE_REMOTE --env URLKIT_ALLOW_PRIVATE \
	    "set -o pipefail; $stages" \
	    <"$W/msgs.jsonl" >"$W/$1.jsonl" 2>"$W/$1.err" || st=$?
	echo "$st" >"$W/$1.st"
	[ "$st" -lt 100 ] || cat "$W/$1.err"
}

# norm FILE: the records less what differs by nature (when, which job
# reached a shared URL first, the count within a job's part), sorted.
norm() {
	jq -S -c 'del(.fetched_at, .cached_at, .cached, .message, .line)' \
	    "$1" | sort
}

@test "parallel --sshlogin across two hosts gives the serial run's records" {
	# The serial run: 3 missing pages, so exit 1 (urlfetch's).
	[ "$(cat "$W/serial.st")" -eq 1 ]
	[ "$(wc -l <"$W/serial.jsonl")" -eq 120 ]
	mh_run run1
	# One job per 10 messages failed (the missing pages: 3 jobs).
	[ "$(cat "$W/run1.st")" -eq 3 ]
	diff <(norm "$W/serial.jsonl") <(norm "$W/run1.jsonl")
	# Both hosts did work: each has entries in its own directory.
	[ "$(find "$W/alpha/cache" -name '*.json' | wc -l)" -gt 0 ]
	[ "$(find "$W/beta/cache" -name '*.json' | wc -l)" -gt 0 ]
	# The store holds an entry for each of the 40 pages.
	[ "$(rcli --scan --pattern 'urlkit:*' | wc -l)" -ge 40 ]
}

@test "a second run, the hosts' directories emptied, is served from the shared store" {
	[ -e "$W/run1.st" ] || mh_run run1
	rm -rf "$W/alpha/cache" "$W/beta/cache"
	mkdir -p "$W/alpha/cache" "$W/beta/cache"
	local before after
	before=$(grep -c '"GET ' "$W/pages.log")
	mh_run run2
	[ "$(cat "$W/run2.st")" -eq 3 ]
	diff <(norm "$W/serial.jsonl") <(norm "$W/run2.jsonl")
	after=$(grep -c '"GET ' "$W/pages.log")
	# Every page that exists came from the store: no request but the
	# missing pages' (which are not cached).
	[ "$((after - before))" -eq 3 ]
	[ "$(jq -c 'select(.error == null) | .cached' "$W/run2.jsonl" | sort -u)" = true ]
	# The hosts' stats: their hits were the store's.
	local hits=0 h n
	for h in alpha beta; do
		n=$(URLKIT_CACHE_DIR=$W/$h/cache "$W/$h/usr/local/bin/urlcache" stats |
		    jq '[.remote[]?.hits] | add // 0')
		hits=$((hits + n))
	done
	[ "$hits" -gt 0 ]
}
