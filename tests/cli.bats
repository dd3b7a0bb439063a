#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The command line every program shares (urlkit(7), COMMAND LINE): -h is
# the man page's SYNOPSIS, --help adds one line per option and agrees with
# the man page, one letter has one meaning in the whole toolkit, a usage
# error is one line and a pointer to --help, options may follow operands,
# and records are pretty-printed for a terminal only.

bats_require_minimum_version 1.5.0
load helpers/common

# Each command's -h and --help, once for the file (under the sanitizers
# too, so that the help path runs there): help_of CMD OPT prints it.
setup_file() {
	local cmd
	mkdir -p "$BATS_FILE_TMPDIR/help"
	while read -r cmd; do
		$cmd -h >"$BATS_FILE_TMPDIR/help/${cmd// /_}.h" 2>&1
		echo $? >>"$BATS_FILE_TMPDIR/help/${cmd// /_}.h.rc"
		$cmd --help >"$BATS_FILE_TMPDIR/help/${cmd// /_}.help" 2>&1
		echo $? >>"$BATS_FILE_TMPDIR/help/${cmd// /_}.help.rc"
	done < <(commands)
}

# (The file as cat prints it, with builtins: see help_in.)
help_of() {
	local t
	IFS= read -r -d '' t <"$BATS_FILE_TMPDIR/help/${1// /_}.${2#-}" || :
	printf '%s' "$t"
}

# help_in VAR CMD OPT: help_of's text into VAR as $(help_of ...) would
# put it (trailing newlines dropped), without a process (the tests below
# ask for 24 commands' texts several times each: a cat and a subshell
# for each was some 10 ms of CPU).
help_in() {
	local -n _hv=$1
	_hv=
	IFS= read -r -d '' _hv <"$BATS_FILE_TMPDIR/help/${2// /_}.${3#-}" || :
	while [[ $_hv == *$'\n' ]]; do _hv=${_hv%$'\n'}; done
}

setup() { common_setup; }
teardown() { common_teardown; }

# Every command a user runs: a program, or a program and its subcommand.
commands() {
	cat <<'EOF'
urldetect
urlextract
urlfetch
pwfetch
pwfetch find
pwfetch open
pwfetch fetch
urlsum
urlcache
urlcache get
urlcache set
urlcache invalidate
urlcache clear
urlcache cleanup
urlcache list
urlcache stats
urlcache path
urlcache session
toolack
toolack serve
toolack call
toolack ack
toolack exec
toolack wait
urlserve
urlmap
EOF
}

# The rendered SYNOPSIS of man page $1, its words on one line.
synopsis() {
	mandoc -Tascii "$TOP/man/$1.1" | col -bx |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
		tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}

# Words of a usage text on one line, "usage:" and the indentation gone.
usage_words() {
	sed 's/^usage: //; s/^ *//' | tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}

# usage_words_in VAR TEXT: what usage_words makes of TEXT (and a
# newline), into VAR, with builtins only: each line's "usage: " and
# leading spaces gone, the newlines made spaces, runs of spaces one,
# and one space at either end gone.
usage_words_in() {
	local -n _uv=$1
	local l
	_uv=
	while IFS= read -r l; do
		l=${l#usage: }
		while [[ $l == " "* ]]; do l=${l# }; done
		_uv+="$l "
	done <<<"$2"
	while [[ $_uv == *"  "* ]]; do _uv=${_uv//  / }; done
	_uv=${_uv# }
	_uv=${_uv% }
}

# The long options a text names, one per line, sorted.
long_options() {
	grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

# The long options man page $1 lists in its option lists (.It lines).
man_options() {
	grep '^\.It' "$TOP/man/$1.1" | grep -o 'Fl \\\?-[a-z][a-z0-9-]*' |
		sed 's/^Fl \\\?-/--/' | sort -u
}

@test "-h prints the man page's SYNOPSIS (a subcommand's part of it), on stdout, exit 0" {
	command -v mandoc >/dev/null || skip "mandoc not installed"
	plain_only
	local cmd prog use syn bad=0 rc text
	# Each man page's synopsis rendered once, not once per subcommand.
	local -A syns
	while read -r cmd; do
		prog=${cmd%% *}
		[ -n "${syns[$prog]+set}" ] || syns[$prog]=$(synopsis "$prog")
		syn=${syns[$prog]}
		# Exit 0, and nothing but the synopsis (stderr went in too).
		help_in rc "$cmd" -h.rc
		[ "$rc" = 0 ] || { echo "$cmd -h: not exit 0" >&2; bad=1; }
		help_in text "$cmd" -h
		usage_words_in use "$text"
		if [ "$cmd" = "$prog" ]; then
			[ "$syn" = "$use" ] && continue
		else
			# A subcommand prints its own lines of the synopsis.
			[ -n "$use" ] && [[ " $syn " == *" $use "* ]] && continue
		fi
		printf '%s -h:\n  man:   %s\n  usage: %s\n' "$cmd" "$syn" "$use" >&2
		bad=1
	done < <(commands)
	[ "$bad" -eq 0 ]
}

@test "--help is the synopsis, then one line per option (in groups, then examples), in 100 lines of 80 columns" {
	plain_only
	local cmd short lines cols bad=0 rc l
	# (100 lines: urlfetch has some seventy options; a help that long is
	# scrolled or paged, as rg --help and curl --help are.)
	# (Lines and columns counted with builtins, as wc -l and awk's
	# length counted them: the lines of the text and a newline, the
	# columns in bytes.)
	local LC_ALL=C
	while read -r cmd; do
		help_in rc "$cmd" -help.rc
		[ "$rc" = 0 ] || { echo "$cmd --help: not exit 0" >&2; bad=1; }
		help_in short "$cmd" -h
		help_in output "$cmd" -help
		[[ "$output" == "$short"* ]] ||
		    { echo "$cmd --help does not start with -h's synopsis" >&2; bad=1; }
		lines=0 cols=0
		while IFS= read -r l; do
			lines=$((lines + 1))
			[ "${#l}" -le "$cols" ] || cols=${#l}
		done <<<"$output"
		if [ "$lines" -gt 100 ] || [ "$cols" -gt 80 ]; then
			echo "$cmd --help: $lines lines, $cols columns" >&2
			bad=1
		fi
		# Every command explains -h/--help in its option lines.
		[[ $output == *--help* ]] ||
		    { echo "$cmd --help: no line for --help" >&2; bad=1; }
		# Examples at the end: each program's own --help (pwfetch's
		# are its commands': every run names one), after the options.
		[ "$cmd" != pwfetch ] || continue
		[[ $cmd != *' '* ]] || [[ $cmd == 'pwfetch '* ]] || continue
		[[ $output == *$'\n\nExamples:\n  '"${cmd%% *}"' '* ]] ||
		    { echo "$cmd --help: no Examples: part" >&2; bad=1; }
	done < <(commands)
	[ "$bad" -eq 0 ]
}

@test "the long options of --help (all subcommands) are the man page's, no more, no fewer" {
	plain_only
	local prog cmd bad=0 help man
	for prog in urldetect urlextract urlfetch pwfetch urlsum urlcache toolack urlmap; do
		help=$(commands | while read -r cmd; do
			[ "${cmd%% *}" != "$prog" ] || help_of "$cmd" -help
		done | long_options)
		man=$(man_options "$prog")
		if [ "$help" != "$man" ]; then
			echo "$prog: --help and $prog.1 differ (< --help, > man):" >&2
			diff <(printf '%s\n' "$help") <(printf '%s\n' "$man") >&2
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}

# "-x, --long" pairs of every --help, as "x long" lines.
letter_pairs() {
	commands | while read -r cmd; do help_of "$cmd" -help; done |
		sed -n 's/^ *-\([A-Za-z0-9]\), --\([a-z][a-z0-9-]*\).*/\1 \2/p' |
		sort -u
}

@test "one letter, one meaning: every short option's long name is the same in all six programs" {
	plain_only
	local pairs dup
	pairs=$(letter_pairs)
	[ -n "$pairs" ]
	# -h is --help everywhere; -H is the one documented exception
	# (urldetect --with-filename, toolack exec --handler).
	dup=$(printf '%s\n' "$pairs" | grep -v '^H ' | awk '{ print $1 }' |
	    uniq -d)
	if [ -n "$dup" ]; then
		for l in $dup; do
			printf '%s\n' "$pairs" | grep "^$l " >&2
		done
		return 1
	fi
	[ "$(printf '%s\n' "$pairs" | grep -c '^H ')" -le 2 ]
}

@test "urlkit(7)'s table of option letters is the programs' own" {
	plain_only
	local pairs table missing
	pairs=$(letter_pairs)
	# The table's rows: ".It Fl x Ar ... Fl -long ..." or "Fl x , Fl -long".
	table=$(sed -n '/^\.Ss Option letters/,/^\.S[sh]/p' "$TOP/man/urlkit.7" |
	    grep '^\.It' |
	    sed -n 's/^\.It Fl \([A-Za-z0-9]\).*Fl \\\?-\([a-z][a-z0-9-]*\).*/\1 \2/p' |
	    sort -u)
	[ -n "$table" ]
	missing=$(comm -3 <(printf '%s\n' "$pairs") <(printf '%s\n' "$table"))
	if [ -n "$missing" ]; then
		echo "programs (left) and urlkit(7) (right) differ:" >&2
		printf '%s\n' "$missing" >&2
		return 1
	fi
}

@test "a usage error is one line naming the command, and a pointer to --help; exit 2" {
	local cmd bad=0
	while read -r cmd; do
		run -2 --separate-stderr $cmd --no-such-option
		if [ "$stderr" != "$cmd: unknown option --no-such-option
try '$cmd --help'" ] || [ -n "$output" ]; then
			printf '%s --no-such-option said:\n%s\n' "$cmd" "$stderr" >&2
			bad=1
		fi
	done < <(commands)
	[ "$bad" -eq 0 ]
}

@test "a bad value is one line naming the command and the option; exit 2" {
	local line bad=0
	while read -r line; do
		run -2 --separate-stderr $line
		if [ "$(printf '%s\n' "$stderr" | wc -l)" -ne 2 ] ||
		    [[ "$(printf '%s\n' "$stderr" | tail -n 1)" != "try '"*" --help'" ]] ||
		    [[ "$stderr" != "${line% -*}: "* ]]; then
			printf '%s said:\n%s\n' "$line" "$stderr" >&2
			bad=1
		fi
	done <<'EOF'
urldetect -m many
urlfetch -t soon
urlfetch -s 500
pwfetch fetch -t soon
urlsum -t soon
urlcache cleanup -s 500
toolack call -t soon
EOF
	[ "$bad" -eq 0 ]
}

@test "options may follow operands, and -- ends them" {
	local cmd
	# --help after an operand is still --help (GNU permutation).
	for cmd in urldetect urlfetch "pwfetch fetch" urlsum "urlcache get" \
	    "urlcache set" "urlcache invalidate" "toolack call" "toolack wait"; do
		run -0 $cmd operand --help
		[[ "$output" == usage:* ]] || { echo "$cmd operand --help: $output" >&2; return 1; }
		# An unknown option after an operand is named as well.
		run -2 --separate-stderr $cmd operand --no-such-option
		[ "${stderr%%$'\n'*}" = "$cmd: unknown option --no-such-option" ] ||
		    { echo "$cmd operand --no-such-option: $stderr" >&2; return 1; }
	done
	# After --, it is an operand: a file urldetect cannot open.
	run -1 --separate-stderr urldetect -- --help
	[[ "$stderr" == *"--help"* ]]
	[ -z "$output" ]
}

# Run "$@" on a terminal (script(1) gives it a pseudo-terminal) and put
# what it printed in $output, carriage returns taken out.
on_tty() {
	local cmd
	printf -v cmd '%q ' "$@"
	output=$(script -qec "$cmd" /dev/null | tr -d '\r')
}

@test "records are pretty-printed and coloured on a terminal, compact in a pipe" {
	command -v script >/dev/null || skip "script(1) not installed"
	printf 'see https://github.com/a/b and http://example.org/x\n' >"$T/in.txt"
	# A pipe: one compact line per record.
	run -0 urldetect "$T/in.txt"
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == '{"url":"https://github.com/a/b",'* ]]
	# A terminal: indented as jq indents, with jq's colours.
	on_tty env -u NO_COLOR TERM=xterm urldetect "$T/in.txt"
	[[ "$output" == *$'\e[34;1m"url"\e[0m'* ]]
	[[ "$output" == *$'\n    \e'*'"owner"'* ]]
	# TERM=dumb (an agent's pseudo-terminal) or no TERM: no escapes.
	on_tty env -u NO_COLOR TERM=dumb urldetect "$T/in.txt"
	[[ "$output" != *$'\e'* ]]
	[[ "$output" == *'"url": "https://github.com/a/b"'* ]]
	on_tty env -u NO_COLOR -u TERM urldetect "$T/in.txt"
	[[ "$output" != *$'\e'* ]]
	# NO_COLOR: indented, no escapes.
	on_tty env NO_COLOR=1 urldetect "$T/in.txt"
	[[ "$output" != *$'\e'* ]]
	[[ "$output" == $'{\n  "url": "https://github.com/a/b",\n  "type": "github_repo",'* ]]
	# --compact on a terminal, --pretty in a pipe.
	on_tty urldetect --compact "$T/in.txt"
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 2 ]
	[[ "$output" != *$'\e'* ]]
	run -0 urldetect --pretty "$T/in.txt"
	[[ "$output" != *$'\e'* ]]
	[ "${lines[0]}" = "{" ]
	[ "${lines[1]}" = '  "url": "https://github.com/a/b",' ]
}

@test "pretty output escapes what a terminal would act on: C0 and C1 controls, DEL, bidi overrides" {
	command -v script >/dev/null || skip "script(1) not installed"
	# A record whose field holds ESC, CSI as U+009B, DEL and U+202E.
	printf '{"id":"a\\u001b[2Jb\\u009bc\\u007fd\\u202ee","text":"x http://example.org/ y"}\n' >"$T/in.jsonl"
	on_tty env NO_COLOR=1 urldetect --json text "$T/in.jsonl"
	[[ "$output" == *'"id": "a\u001b[2Jb\u009bc\u007fd\u202ee"'* ]]
	[[ "$output" != *$'\e'* ]]
	[[ "$output" != *$'\xe2\x80\xae'* ]]
	[[ "$output" != *$'\xc2\x9b'* ]]
}
