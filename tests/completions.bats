#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The completions for bash, zsh and fish: each loads in its shell and
# offers every long option the program's man page lists (in its option
# tags, `.It Fl x , -name`), for the program and for each of its
# subcommands; urlcache's complete session names for -S.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	plain_only "the completions are checked in the plain build only"
	common_setup
}
teardown() { common_teardown; }

programs() {
	sed -n 's/^PROGS *= *//p' "$TOP/Makefile" | tr ' ' '\n'
}

# The long options of PROG's man page, one a line, sorted.
man_options() {
	grep '^\.It ' "$TOP/man/$1.1" |
	    grep -oE '(Fl|,) +-[a-z][a-z0-9-]*' |
	    sed -E 's/^(Fl|,) +-/--/' | sort -u
}

# The subcommands in PROG's SYNOPSIS (`.Cm get`, `.Cm find | open | fetch`).
subcommands() {
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$TOP/man/$1.1" |
	    grep '^\.Cm ' | sed 's/^\.Cm //' | tr -s ' |' '\n\n' |
	    grep -E '^[a-z]+$' | sort -u
}

# What bash's completion of PROG offers after "PROG --" and after
# "PROG SUB --" for each SUB given, one a line (one bash for them all).
bash_offers() {
	bash -c '
		prog=$1
		shift
		. "$TOP/completions/bash/$prog" || exit 3
		f=$(complete -p "$prog" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[ -n "$f" ] || exit 3
		for sub in "" "$@"; do
			if [ -n "$sub" ]; then
				COMP_WORDS=("$prog" "$sub" --)
			else
				COMP_WORDS=("$prog" --)
			fi
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMP_LINE="${COMP_WORDS[*]}"
			COMP_POINT=${#COMP_LINE}
			COMPREPLY=()
			"$f" "$prog" -- "${COMP_WORDS[COMP_CWORD - 1]}"
			printf "%s\n" "${COMPREPLY[@]}"
		done' _ "$@"
}

# What fish's completion of PROG offers after "PROG [SUB] --", for PROG
# and each SUB given.
fish_offers() {
	local prog=$1 sub cmds="complete -C '$1 --';"
	shift
	for sub in "$@"; do
		cmds="$cmds complete -C '$prog $sub --';"
	done
	fish -N -c "source '$TOP/completions/fish/$prog.fish'; $cmds" | cut -f1
}

# The options zsh's completion of PROG declares to _arguments, for PROG
# and after each SUB given: the completion function runs with _arguments replaced by
# a function that prints its specifications (zsh cannot complete without
# a terminal; the specifications are what it would offer).
zsh_offers() {
	zsh -f -c '
		prog=$1
		shift
		_arguments() {
			local a
			for a in "$@"; do
				print -r -- "$a"
				# "*::..." completes the rest as its own command
				# line: words from the subcommand on.
				if [[ $a == "*::"* ]]; then
					words=(${words[2,-1]})
					(( CURRENT-- ))
				fi
			done
			state=args
			return 0
		}
		_describe() { return 0 }
		_files() { return 0 }
		_values() { return 0 }
		_message() { return 0 }
		_urls() { return 0 }
		compadd() { return 0 }
		fpath=($TOP/completions/zsh $fpath)
		autoload -Uz _$prog || exit 3
		for sub in "" "$@"; do
			words=($prog $sub --)
			CURRENT=${#words}
			_$prog
		done' _ "$@" |
	    grep -oE '^(\([^)]*\))?(\*)?--[a-z][a-z0-9-]*' |
	    sed -E 's/^\([^)]*\)//; s/^\*//'
}

# check SHELL: every man page option of every program is offered by the
# shell's completion, for the program or one of its subcommands.
check() {
	local p missing=
	for p in $(programs); do
		# shellcheck disable=SC2046
		"$1_offers" "$p" $(subcommands "$p") | sort -u >"$T/offers"
		[ -s "$T/offers" ] || {
			echo "$1: nothing offered for $p" >&2
			return 1
		}
		man_options "$p" >"$T/man"
		missing="$missing$(comm -23 "$T/man" "$T/offers" |
		    sed "s/^/$p /")"
	done
	if [ -n "$missing" ]; then
		printf '%s: not offered: %s\n' "$1" "$missing" >&2
		return 1
	fi
}

@test "the man pages list long options and subcommands to check against" {
	run -0 man_options urlfetch
	[[ "$output" == *--no-cache* ]]
	run -0 subcommands urlcache
	[[ "$output" == *get*session* ]]
	run -0 subcommands pwfetch
	[ "$output" = "$(printf 'fetch\nfind\nopen')" ]
}

@test "bash: every completion loads and offers every long option of its man page" {
	run -0 check bash
}

@test "zsh: every completion loads and declares every long option of its man page" {
	command -v zsh >/dev/null || skip "zsh is not installed (scripts/bootstrap installs it)"
	local p
	for p in $(programs); do
		run -0 zsh -f -n "$TOP/completions/zsh/_$p"
	done
	run -0 check zsh
}

@test "fish: every completion loads and offers every long option of its man page" {
	command -v fish >/dev/null || skip "fish is not installed (scripts/bootstrap installs it)"
	run -0 check fish
}

@test "the check sees an option missing from a completion" {
	# A copy of the tree's completions with one option taken out.
	mkdir -p "$T/top/completions" "$T/top/man"
	cp -r "$TOP/completions/." "$T/top/completions/"
	cp "$TOP"/man/*.1 "$T/top/man/"
	cp "$TOP/Makefile" "$T/top/"
	sed -i 's/--no-cache//g' "$T/top/completions/bash/urlfetch"
	TOP=$T/top run -1 check bash
	[[ "$output" == *"urlfetch --no-cache"* ]]
}

@test "session names complete after get -S, in bash, zsh and fish" {
	mkdir -p "$URLKIT_CACHE_DIR/sessions/chat-one" \
	    "$URLKIT_CACHE_DIR/sessions/chat-two"
	run -0 bash -c '. "$TOP/completions/bash/urlcache"
		COMP_WORDS=(urlcache get -S ""); COMP_CWORD=3
		_urlcache urlcache "" -S; printf "%s\n" "${COMPREPLY[@]}"'
	[[ "$output" == *chat-one* && "$output" == *chat-two* ]]
	if command -v fish >/dev/null; then
		run -0 fish -N -c "source '$TOP/completions/fish/urlcache.fish'; complete -C 'urlcache get -S '"
		[[ "$output" == *chat-one* && "$output" == *chat-two* ]]
	fi
	if command -v zsh >/dev/null; then
		run -0 zsh -f -c 'fpath=($TOP/completions/zsh $fpath)
			autoload -Uz _urlcache
			_describe() { print -r -- ${(P)4} }
			_arguments() { return 1 }
			_urlcache; _urlcache_sessions' 
		[[ "$output" == *chat-one* && "$output" == *chat-two* ]]
	fi
}
