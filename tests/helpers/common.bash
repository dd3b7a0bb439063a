# SPDX-License-Identifier: MIT
# Shared set-up for the bats suites: fresh binaries first on PATH, a
# private temporary directory per test, JSON comparison, loopback servers.

# (bats loads this file once per test: what it does at load time, and
# common_setup and common_teardown, is paid some 1200 times a CI run, and
# every process started here, $(...) included, costs about 10 ms of CPU
# on the loaded 2-core machine.  So builtins where they do.)
case $BATS_TEST_DIRNAME in
/*/tests) TOP=${BATS_TEST_DIRNAME%/tests} ;;
*) TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd) ;;
esac
export TOP
: "${UK_BIN:=$TOP/build/bin}"
PATH="$UK_BIN:$PATH"
export PATH
FIXTURES="$TOP/tests/fixtures"
# The project's shared tools sit beside the checkout (../shared), outside
# the repository: a test that runs one of them says so with need_shared.
# The data the suites read is copied into tests/fixtures.
SHARED="$TOP/../shared"

# bats (1.8) stamps each test's start, for its -T option, with
# $(get_mills_since_epoch), a function of its own that runs
# $(date +%s%N): three processes a test, some 25 ms of CPU.  bats defines
# it before it loads this file, and calls it after: this one, the same
# milliseconds from bash's clock, is the one called.
get_mills_since_epoch() {
	local t=${EPOCHREALTIME/[.,]/}
	printf '%d\n' $((t / 1000))
}

# mkdir and rm as builtins (see builtins.bash).  tests/run has bash read
# that file at every start of bats' processes through BASH_ENV: a test's
# own processes do not get it (they would read it at every bash script's
# start), nor do those of setup_file (bats' process that runs it starts
# the tests' processes, so it keeps BASH_ENV).
. "$TOP/tests/helpers/builtins.bash"
if [ -n "${BATS_TEST_NAME:-}" ] &&
    [ "${BASH_ENV:-}" = "$TOP/tests/helpers/builtins.bash" ]; then
	export -n BASH_ENV
fi

# need_shared PATH...: skip the test, naming what is missing, unless every
# PATH (relative to ../shared) is there.
need_shared() {
	local p
	for p in "$@"; do
		[ -e "$SHARED/$p" ] ||
		    skip "needs ../shared/$p (the project's shared tools beside the checkout), not found"
	done
}

# extract_dev_page NAME: the benchmark page NAME (0001, ...) from
# tests/fixtures/extract-dev, uncompressed into $T; prints its path.
extract_dev_page() {
	gunzip -c "$FIXTURES/extract-dev/$1.html.gz" >"$T/$1.html" &&
	    printf '%s\n' "$T/$1.html"
}

# sanitized: true in make check's run under the sanitizers
# (SANITIZE=..., passed in UK_MAKE_FLAGS).  plain_only WHY: skip the test
# there.  For checks of documents against the programs' output (the
# examples, the man pages, the completions): the text compared is the same
# in both builds, and the code paths they run are run under the
# sanitizers by the programs' own suites.
sanitized() {
	[[ "${UK_MAKE_FLAGS:-}" == *SANITIZE=[a-z]* ]]
}

plain_only() {
	! sanitized || skip "${1:-compared in the plain build only}"
}

# common_setup: T, a new directory of the test's own (mode 700, under
# BATS_TMPDIR, as mktemp -d makes), with HOME and the caches in it.  Made
# with one mkdir instead of mktemp and mkdir (two processes, 20 ms of
# CPU a test): the name is the test's process id and a random number,
# another tried when one is taken (mkdir without -p fails on a name that
# exists, as mktemp's own loop does).
common_setup() {
	local i
	for ((i = 0; i < 100; i++)); do
		T=${BATS_TMPDIR:-/tmp}/uk.$BASHPID.$SRANDOM
		# (Tested first, so that a taken name never gets a home.)
		[ ! -e "$T" ] && mkdir -m 700 "$T" "$T/home" 2>/dev/null &&
		    break
		T=
	done
	[ -n "$T" ] || {
		echo "common_setup: no new directory under ${BATS_TMPDIR:-/tmp}" >&2
		return 1
	}
	export T
	export URLKIT_CACHE_DIR="$T/cache"
	export XDG_CACHE_HOME="$T/xdg"
	export HOME="$T/home"
}

# nap SECONDS: sleep without starting a process: a read that times out on
# a pipe nobody writes to.  The suites poll thousands of times, and each
# sleep(1) (or head, cat, seq) started costs some 10 ms of CPU on a
# loaded 2-core machine.  The pipe is opened at the first nap and closed
# by nap_done (so that the processes a test starts later do not inherit
# it).
nap() {
	[ -n "${UK_NAP_FD:-}" ] || exec {UK_NAP_FD}<> <(:)
	read -r -t "$1" -u "$UK_NAP_FD" _ || :
}

nap_done() {
	[ -z "${UK_NAP_FD:-}" ] || exec {UK_NAP_FD}<&-
	UK_NAP_FD=
}

common_teardown() {
	local pidf
	# A failed test shows what the last `run --separate-stderr` printed
	# on stderr, which bats does not show by itself.
	if [ -z "${BATS_TEST_COMPLETED:-}" ] && [ -n "${stderr:-}" ]; then
		printf "%s\n" "$stderr" | sed "s/^/# stderr: /" |
		    head -n 40 >&3
	fi
	local pid i
	for pidf in "$T"/*.pid; do
		[ -e "$pidf" ] || continue
		pid=
		read -r pid <"$pidf" || [ -n "$pid" ] || continue
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		# Not our child (a browser a helper started): wait for it to go,
		# or it writes into $T while it is removed.
		for ((i = 0; i < 50; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			nap 0.1
		done
	done
	nap_done
	# A browser's children may still be closing files under $T.
	rm -rf "$T" 2>/dev/null || { sleep 1; rm -rf "$T"; }
}

# stop_pidfiles DIR NAME...: end the processes whose pids are in
# DIR/NAME.pid (a suite's browser and servers, started in setup_file):
# TERM, up to 5 s to go, then KILL.
stop_pidfiles() {
	local d=$1 f pid i
	shift
	for f in "$@"; do
		[ -e "$d/$f.pid" ] || continue
		pid=$(cat "$d/$f.pid")
		kill "$pid" 2>/dev/null || true
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			nap 0.05
		done
		nap_done
		kill -KILL "$pid" 2>/dev/null || true
	done
}

# json_eq ACTUAL EXPECTED: the same JSON once keys are sorted.
json_eq() {
	local a e
	a=$(printf '%s\n' "$1" | jq -S -c .) || return 1
	e=$(printf '%s\n' "$2" | jq -S -c .) || return 1
	if [ "$a" != "$e" ]; then
		printf 'expected: %s\nactual:   %s\n' "$e" "$a" >&2
		return 1
	fi
}

# start_server NAME CMD...: run a loopback server that prints its port on
# its first line of stdout; sets NAME_PORT and records the pid for teardown.
# It waits up to 30 s for the port: python3 starts slowly on a loaded
# machine, above all under the sanitizers with other suites running.
start_server() {
	local name=$1 port= i
	shift
	# Emptied here, before the server starts: the background job's own
	# redirection may come after the first read below, which would then
	# take the port of a server started earlier under the same name (a
	# restart on the same address: toolack-security's test 3 called the
	# new server before it listened).
	: >"$T/$name.port"
	"$@" >"$T/$name.port" 2>"$T/$name.log" &
	echo $! >"$T/$name.pid"
	# Polled with builtins only (see nap).
	for ((i = 0; i < 300; i++)); do
		# (2>/dev/null: the server may not have opened the file yet.)
		{ read -r port <"$T/$name.port"; } 2>/dev/null || :
		[ -n "$port" ] && break
		nap 0.1
	done
	nap_done
	[ -n "$port" ] || { cat "$T/$name.log" >&2; return 1; }
	printf -v "${name}_PORT" '%s' "$port"
	export "${name}_PORT"
}
