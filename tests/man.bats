#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Every program has a man page that lints clean (its SYNOPSIS and --help:
# tests/cli.bats), and completions for bash, zsh and fish; make install puts
# all of it where a distribution would.

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

# The programs users run (the Makefile's PROGS).
programs() {
	sed -n 's/^PROGS *= *//p' "$TOP/Makefile" | tr ' ' '\n'
}

@test "every man page lints clean with mandoc" {
	command -v mandoc >/dev/null || skip "mandoc not installed"
	run -0 mandoc -Tlint -Wwarning "$TOP"/man/*.1 "$TOP"/man/urlkit.7
	[ -z "$output" ]
}

# -h, --help and the SYNOPSIS: tests/cli.bats.

@test "every program has bash, zsh and fish completions" {
	local p bad=0
	for p in $(programs); do
		for f in "completions/bash/$p" "completions/zsh/_$p" "completions/fish/$p.fish"; do
			[ -s "$TOP/$f" ] || { echo "missing $f" >&2; bad=1; }
		done
		bash -n "$TOP/completions/bash/$p" || bad=1
	done
	[ "$bad" -eq 0 ]
}

@test "every program answers --version and a bad option with exit 2" {
	local p
	for p in $(programs); do
		run -0 "$p" --version
		[[ "$output" == "$p "* ]]
		run -2 "$p" --no-such-option-anywhere
	done
}

@test "make install into DESTDIR puts binaries, pages and completions, no private program; make uninstall takes them away" {
	# The build's own flags (make check passes them), or the flags stamp
	# would have make rebuild it while other suites run its programs; and
	# -o all: the build is made before the suites start, and this make
	# must never remake any of it (once under the sanitizers, it relinked
	# the programs mid-run and two suites could not run them).
	run -0 make -s -C "$TOP" -o all install DESTDIR="$T/root" \
		PREFIX=/usr/local BUILD="$(dirname "$UK_BIN")" ${UK_MAKE_FLAGS:-}
	local p
	for p in $(programs); do
		[ -x "$T/root/usr/local/bin/$p" ]
		[ -f "$T/root/usr/local/share/man/man1/$p.1" ]
		[ -f "$T/root/usr/local/share/bash-completion/completions/$p" ]
		[ -f "$T/root/usr/local/share/zsh/site-functions/_$p" ]
		[ -f "$T/root/usr/local/share/fish/vendor_completions.d/$p.fish" ]
	done
	[ -f "$T/root/usr/local/share/man/man7/urlkit.7" ]
	# Every program is a user's: nothing in libexec.
	[ ! -e "$T/root/usr/local/libexec" ]
	[ ! -e "$T/root/usr/local/share/man/man1/urlfetch-net.1" ]
	# The installed programs run on their own (no network needed: an
	# empty input is a whole run).
	run -0 env -u URLKIT_LIBEXEC_DIR "$T/root/usr/local/bin/urlfetch" </dev/null
	[ -z "$output" ]
	run -0 "$T/root/usr/local/bin/urlextract" -T - </dev/null
	[ -z "$output" ]
	# make uninstall takes away every file install put there.
	run -0 make -s -C "$TOP" uninstall DESTDIR="$T/root" PREFIX=/usr/local
	run -0 find "$T/root" -type f
	[ -z "$output" ]
}

# The option letters PROG's man page names (`.Fl c`), one "LINE LETTER"
# a line, outside a paragraph about version 0.2's letters
# (the letters that changed are named there on purpose).
man_letters() {
	awk '/^\.(Pp|Sh|Ss)/ { flush(); next }
	{ para = para $0 "\n"; lines = lines NR " " $0 "\n" }
	function flush() {
		if (para !~ /0\.2/)
			printf "%s", lines
		para = lines = ""
	}
	END { flush() }' "$TOP/man/$1.1" |
	    awk '{ s = $0 " "
		while (match(s, /Fl [a-zA-Z][ ,]/)) {
			print $1, substr(s, RSTART + 3, 1)
			s = substr(s, RSTART + RLENGTH)
		} }'
}

@test "urlfetch(1), urlextract(1), urlsum(1), urldetect(1) name only letters the program takes" {
	# A letter renamed in 0.2 (urlfetch -c became -C, -u became -B) once
	# stayed in the text of urlfetch(1) long after.
	local p n l letters bad=0
	for p in urlfetch urlextract urlsum urldetect; do
		letters=$("$p" --help | grep -oE '^ +-[a-zA-Z],' | tr -d ' ,-')
		[ -n "$letters" ]
		while read -r n l; do
			[[ $letters == *"$l"* ]] ||
			    { echo "$p.1:$n: -$l: no such option" >&2; bad=1; }
		done < <(man_letters "$p")
	done
	[ "$bad" -eq 0 ]
}

@test "doc/ARCHITECTURE.md names every library module, and its module map is the linker's" {
	local m doc="$TOP/doc/ARCHITECTURE.md"
	# Every module of lib/ is in the table of modules, and every module
	# the table names exists.
	for m in "$TOP"/lib/*.c; do
		m=$(basename "$m" .c)
		grep -q "\`$m\`" "$doc" || { echo "not in the doc: $m" >&2; return 1; }
	done
	for m in $(sed -n '/^## Modules/,/^## Module map/p' "$doc" |
	    grep '^| ' | awk -F'|' '{ print $3 }' | grep -o '`[a-z0-9_]*`' |
	    tr -d '`'); do
		[ -f "$TOP/lib/$m.c" ] || [ -f "$TOP/cmd/$m.c" ] ||
		    { echo "no such module: $m" >&2; return 1; }
	done
	# The module map is what scripts/modules reads from the link: the
	# same with or without the sanitizers, so read from the plain build
	# only (relinking the sanitized programs costs CI time for nothing).
	[[ "${UK_MAKE_FLAGS:-}" != *SANITIZE=[a-z]* ]] ||
	    skip "the module map is read from the plain build"
	run -0 "$TOP/scripts/modules" BUILD="$(dirname "$UK_BIN")" \
	    ${UK_MAKE_FLAGS:-}
	local progs
	progs=$(programs | paste -sd'|')
	[ "$output" = "$(sed -n '/^## Module map/,/^## How/p' "$doc" |
	    grep -E "^\| ($progs) \|")" ]
}
