#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Every example of README.md and of the man pages' EXAMPLES runs, with the
# fresh build first on PATH, against the files the repository ships and
# the servers scripts/demo --serve starts, and prints what the document
# says (ports and times normalised), as rustdoc runs doc examples.  How an
# example is marked: tests/helpers/examples.py.  The examples run once
# for the file, under one scripts/demo --serve; each test reads the result
# of one document.

bats_require_minimum_version 1.5.0
load helpers/common

DOCS="README.md man/urldetect.1 man/urlfetch.1 man/urlextract.1 man/pwfetch.1
man/urlsum.1 man/urlcache.1 man/toolack.1 man/urlserve.1 man/urlmap.1
man/urlkit.7"

setup_file() {
	# The examples are documents compared with output: the plain build
	# runs them (see plain_only), the sanitized one skips them.
	! sanitized || return 0
	export EX_OUT="$BATS_FILE_TMPDIR/examples"
	mkdir -p "$EX_OUT"
	local d docs=
	for d in $DOCS; do docs="$docs $TOP/$d"; done
	# A document whose examples fail fails its own test below, not the
	# whole file's set-up.
	local rc=0
	UK_BIN=$UK_BIN "$TOP/scripts/demo" --serve \
		python3 "$TOP/tests/helpers/examples.py" run "$EX_OUT" $docs \
		>"$EX_OUT/run.log" 2>&1 || rc=$?
	echo "$rc" >"$EX_OUT/rc"
}

setup() {
	plain_only "the examples are compared in the plain build only"
	common_setup
}
teardown() { common_teardown; }

# check DOC: the examples of DOC all gave their output; the report names
# each one that did not, with what was expected and what came.
check() {
	local name
	name=$(basename "$1")
	[ -f "$EX_OUT/$name.rc" ] || {
		cat "$EX_OUT/run.log" >&2
		return 1
	}
	cat "$EX_OUT/$name.log" >&2
	run -0 cat "$EX_OUT/$name.rc"
	[ "$output" = 0 ]
}

@test "the run of every example ends with exit 0" {
	cat "$EX_OUT/run.log" >&2
	run -0 cat "$EX_OUT/rc"
	[ "$output" = 0 ]
}

@test "README.md: every console example gives its output" {
	check README.md
	# The README has examples for every program.
	run -0 python3 "$TOP/tests/helpers/examples.py" list "$TOP/README.md"
	local p
	for p in urldetect urlfetch pwfetch urlsum urlcache toolack; do
		[[ "$output" == *"$p"* ]]
	done
}

@test "urldetect(1): every example gives its output" { check man/urldetect.1; }
@test "urlfetch(1): every example gives its output" { check man/urlfetch.1; }
@test "urlextract(1): every example gives its output" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] || skip "chromium is not installed"
	check man/urlextract.1
}
@test "pwfetch(1): every example gives its output" {
	[ -x "${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}" ] || skip "chromium is not installed"
	check man/pwfetch.1
}
@test "urlsum(1): every example gives its output" { check man/urlsum.1; }
@test "urlcache(1): every example gives its output" { check man/urlcache.1; }
@test "toolack(1): every example gives its output" { check man/toolack.1; }
@test "urlserve(1): every example gives its output" { check man/urlserve.1; }
@test "urlmap(1): every example gives its output" { check man/urlmap.1; }

@test "every man page with an EXAMPLES section is run" {
	local f name
	for f in "$TOP"/man/*.[17]; do
		grep -q '^\.Sh EXAMPLES' "$f" || continue
		name=$(basename "$f")
		[[ " $(echo $DOCS) " == *" man/$name "* ]] || {
			echo "$name has EXAMPLES that tests/examples.bats does not run" >&2
			return 1
		}
	done
}

# The checker itself: a wrong output, a failing block and an example left
# unmarked are each reported (so a drifting example cannot pass).
@test "a drifted example, a failing block and an unmarked man example are caught" {
	cat >"$T/doc.md" <<-'EOF'
	```console
	$ echo one
	two
	```

	```console
	$ false
	```
	EOF
	run -1 python3 "$TOP/tests/helpers/examples.py" run "$T" "$T/doc.md"
	run -0 cat "$T/doc.md.log"
	[[ "$output" == *'--- expected'*'two'*'--- got'*'one'* ]]
	[[ "$output" == *'the block exited 1'* ]]
	printf '%s\n' '.Sh EXAMPLES' '.Bd -literal' 'urlfetch x' .Ed >"$T/x.1"
	run -1 --separate-stderr python3 "$TOP/tests/helpers/examples.py" list "$T/x.1"
	[[ "$stderr" == *'needs'*'not run'* ]]
	# Ports and times are all that is normalised.
	cat >"$T/n.md" <<-'EOF'
	```console
	$ echo http://127.0.0.1:41234/ 2026-11-24T15:38:33.123Z
	http://127.0.0.1:1/ 2000-01-01T00:00:00.000Z
	```
	EOF
	run -0 python3 "$TOP/tests/helpers/examples.py" run "$T" "$T/n.md"
}

# Quoting artefacts: mandoc renders `.Pq Dq a , Dq b` as (“a, “b””), a
# quote opened inside another, and `.Pq with Fl p or Fl c` as "-p -or -c"
# (a word after Fl is a flag); every program's page documents -h.
@test "the man pages render no quote opened inside another, no flag made of a word, and document -h" {
	command -v mandoc >/dev/null || skip "mandoc not installed"
	local f bad=0
	for f in "$TOP"/man/*.[17]; do
		if mandoc -Tutf8 "$f" | col -b | grep -nE '“[^”]*“|”[^“]*”|[[:space:]]-(or|and|with|the)[[:space:],.)]' >&2; then
			echo "^ in $(basename "$f")" >&2
			bad=1
		fi
	done
	for f in urldetect urlextract urlfetch pwfetch urlsum urlcache toolack; do
		mandoc -Tutf8 "$TOP/man/$f.1" | col -b | grep -qE '^ +-h, --help' || {
			echo "$f.1 does not document -h, --help" >&2
			bad=1
		}
	done
	[ "$bad" -eq 0 ]
}
