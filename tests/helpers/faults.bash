# SPDX-License-Identifier: MIT
# Shared by the fault suites (tests/faults-*.bats): servers that fail in
# one way each, a certificate that does not verify, a full disk and a
# read-only cache.

# fault NAME MODE [--tls]: start fault_server.py in MODE (reset, hang,
# page); sets NAME_PORT.  With --tls it serves HTTPS with $T/cert.pem.
fault() {
	local name=$1 mode=$2
	if [ "${3:-}" = --tls ]; then
		make_cert || return 1
		start_server "$name" python3 "$TOP/tests/helpers/fault_server.py" \
		    "$mode" --tls "$T/cert.pem" "$T/key.pem"
	else
		start_server "$name" python3 "$TOP/tests/helpers/fault_server.py" \
		    "$mode"
	fi
}

# make_cert: a self-signed certificate for localhost in $T/cert.pem.
make_cert() {
	[ -e "$T/cert.pem" ] && return 0
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -subj /CN=localhost -addext subjectAltName=DNS:localhost \
	    -days 1 -keyout "$T/key.pem" -out "$T/cert.pem" 2>/dev/null
}

# conns NAME: connections the fault server NAME has accepted.
conns() {
	grep -c '^conn ' "$T/$1.log"
}

# reqs NAME: the request targets the fault server NAME has read, one a line.
reqs() {
	sed -n 's/^req //p' "$T/$1.log"
}

# full_disk_ok: whether this machine can make a small full filesystem
# (root, with mount namespaces: a private tmpfs).  Otherwise the suites
# fall back to a file-size limit (EFBIG) and say so.
full_disk_ok() {
	[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null
}

# on_full_disk DIR SCRIPT: run bash SCRIPT with a 512 KiB tmpfs mounted
# on DIR in a mount namespace of its own; in SCRIPT, fill_disk fills it.
on_full_disk() {
	local dir=$1 script=$2
	mkdir -p "$dir"
	unshare -m bash -c '
		mount -t tmpfs -o size=512k,mode=0700 tmpfs "$1" || exit 99
		fill_disk() { dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; true; }
		eval "$2"' bash "$dir" "$script"
}

# read_only DIR: make DIR unwritable, for root too (chattr +i); returns 1
# when it cannot.  writable DIR undoes it.
read_only() {
	if [ "$(id -u)" = 0 ]; then
		chattr +i "$1" 2>/dev/null || return 1
	else
		chmod 500 "$1"
	fi
	! touch "$1/.probe" 2>/dev/null
}

writable() {
	chattr -i "$1" 2>/dev/null
	chmod 700 "$1"
}

# all_json FILE: every line of FILE is a JSON object and the file ends
# with a newline (or is empty).
all_json() {
	[ ! -s "$1" ] || [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || return 1
	jq -e -s 'all(type == "object")' "$1" >/dev/null
}

# no_temp DIR...: no temporary file of the cache or of a clone under DIR.
no_temp() {
	[ -z "$(find "$@" \( -name '.*.tmp.*' -o -name 'urlkit-repo.*' \) -print 2>/dev/null)" ]
}
