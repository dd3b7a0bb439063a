#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache's command line (issue 17): URL operands and -i, -o, options
# after operands, sizes with a unit, the list of sessions, sessions that
# expire with the cache's time to live unless kept, -q for list and stats.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	C=$URLKIT_CACHE_DIR
}
teardown() { common_teardown; }

rec() {
	jq -nc --arg u "$1" --arg c "${2:-content of $1}" \
	    '{url:$u,url_type:"web",title:"T",content:$c}'
}
put() { rec "$@" | urlcache set; }

@test "cleanup -s needs a unit: a bare 500 is a one-line usage error, exit 2" {
	put https://keep.test/
	run -2 --separate-stderr urlcache -q cleanup -s 500
	[ "$stderr" = "urlcache cleanup: -s: not a size with a unit (B, K, M, G, T): '500'
try 'urlcache cleanup --help'" ]
	[ -z "$output" ]
	run -0 urlcache -q get https://keep.test/
	run -0 urlcache -q cleanup --max-size 500M
	run -0 urlcache -q get https://keep.test/
	# The old letter -m is gone: an unknown option.
	run -2 --separate-stderr urlcache cleanup -m 5M
	[ "${stderr%%$'\n'*}" = "urlcache cleanup: unknown option -m" ]
}

@test "get: URL operands and -i files are read in command-line order; '-' is not a URL" {
	put https://a.test/
	put https://b.test/
	put https://c.test/
	printf 'https://b.test/\n' >"$T/list"
	run -1 --separate-stderr urlcache get https://a.test/ -i "$T/list" - https://c.test/
	[ "${#lines[@]}" -eq 4 ]
	[ "$(jq -r .url <<<"${lines[0]}")" = https://a.test/ ]
	[ "$(jq -r .url <<<"${lines[1]}")" = https://b.test/ ]
	json_eq "${lines[2]}" '{"url":"-","error":"not a URL: '"'-'"' (to read records from a file, use -i -)"}'
	[ "$(jq -r .url <<<"${lines[3]}")" = https://c.test/ ]
	[[ "$stderr" == *"urlcache get: not a URL: '-'"* ]]
	# -i - is standard input.
	run -0 urlcache get -i - <<<'{"url":"https://c.test/"}'
	jq -e '.url == "https://c.test/" and .cached' <<<"$output"
	# A file name given as an operand says to use -i.
	run -1 --separate-stderr urlcache get "$T/list"
	jq -e '.error | test("use -i ")' <<<"$output"
}

@test "options may follow operands; -- ends them" {
	put https://o.test/
	touch -d '2 days ago' "$(urlcache path https://o.test/)"
	run -0 urlcache get https://o.test/ --stale
	jq -e '.expired == true' <<<"$output"
	run -1 --separate-stderr urlcache get -- --stale
	jq -e '.url == "--stale" and (.error | test("not a URL"))' <<<"$output"
	run -0 urlcache invalidate https://o.test/ -S s1
	jq -e '.found == true and .in_session == false' <<<"$output"
}

@test "-o FILE takes the records; a FILE that cannot be opened is exit 2 before any work" {
	put https://w.test/
	run -0 urlcache get https://w.test/ -o "$T/out.jsonl"
	[ -z "$output" ]
	jq -e '.url == "https://w.test/"' "$T/out.jsonl"
	run -0 urlcache stats -o "$T/stats.json"
	jq -e '.entries == 1' "$T/stats.json"
	run -2 --separate-stderr urlcache clear -o "$T/no/such/dir/out"
	[[ "$stderr" == "urlcache clear: -o: cannot open '$T/no/such/dir/out': "* ]]
	# Nothing was cleared.
	run -0 urlcache -q get https://w.test/
}

@test "--pretty indents get's records (read from the entry as it is)" {
	put https://p.test/ hello
	run -0 urlcache get --pretty https://p.test/
	[ "${lines[0]}" = "{" ]
	[ "${lines[1]}" = '  "url": "https://p.test/",' ]
	run -0 urlcache get https://p.test/
	[ "${#lines[@]}" -eq 1 ]
}

@test "session with no name lists the sessions: session, records, bytes, changed_at, keep, expired, store" {
	run -0 urlcache session
	[ -z "$output" ]
	rec https://s.test/a | urlcache session beta add
	rec https://s.test/b | urlcache session beta add
	rec https://s.test/c | urlcache session alpha add --keep
	run -0 urlcache session
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.session == "alpha" and .records == 1 and .keep == true and
	    .expired == false and .store == false and .bytes > 0 and
	    (.changed_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))' <<<"${lines[0]}"
	jq -e '.session == "beta" and .records == 2 and .keep == false and
	    .expired == false' <<<"${lines[1]}"
	[ -f "$C/sessions/alpha/.keep" ]
	[ ! -e "$C/sessions/beta/.keep" ]
	# A name with nothing after it is a usage error.
	run -2 urlcache session beta
	run -2 urlcache session --keep
}

@test "sessions expire with the cache's time to live unless kept; cleanup deletes them" {
	rec https://s.test/a | urlcache session old add
	rec https://s.test/b | urlcache session kept add --keep
	rec https://s.test/c | urlcache session new add
	touch -d '2 days ago' "$C/sessions/old" "$C/sessions/kept"
	run -0 urlcache session
	jq -se 'map(select(.session == "old"))[0].expired == true' <<<"$output"
	jq -se 'map(select(.session == "kept"))[0].expired == false' <<<"$output"
	jq -se 'map(select(.session == "new"))[0].expired == false' <<<"$output"
	# A dry run says what would go and removes nothing.
	run -0 urlcache cleanup -n
	jq -se '[.[] | select(.kind == "session")] | length == 1 and
	    .[0].session == "old" and .[0].reason == "expired"' <<<"$output"
	jq -e '.sessions_expired == 1 and .dry_run' <<<"${lines[-1]}"
	[ -d "$C/sessions/old" ]
	run -0 urlcache cleanup
	jq -e '.sessions_expired == 1' <<<"$output"
	[ ! -e "$C/sessions/old" ]
	run -1 --separate-stderr urlcache session old list
	[ "$stderr" = "urlcache session: no session 'old'" ]
	run -0 urlcache session kept list
	jq -e '.url == "https://s.test/b"' <<<"$output"
	run -0 urlcache session new list
	# A shorter time to live expires the new one too; --keep later keeps it.
	touch -d '2 hours ago' "$C/sessions/new"
	run -0 urlcache session new list --keep
	touch -d '2 hours ago' "$C/sessions/new"
	run -0 urlcache --ttl 1h cleanup
	jq -e '.sessions_expired == 0' <<<"$output"
	run -0 urlcache session new list
}

@test "-q quiets list's and stats' messages, never their output" {
	put https://q.test/
	run -0 --separate-stderr urlcache -q list
	jq -e '.url == "https://q.test/"' <<<"$output"
	run -0 --separate-stderr urlcache -q stats
	jq -e '.entries == 1' <<<"$output"
	[ -z "$stderr" ]
	# Other commands' output is what -q takes away.
	run -0 --separate-stderr urlcache -q get https://q.test/
	[ -z "$output" ]
}

@test "every subcommand has -h and --help (exit 0) and one-line usage errors naming it" {
	local sub
	for sub in get set invalidate clear cleanup list stats path session; do
		run -0 --separate-stderr urlcache $sub -h
		[[ "$output" == "usage: urlcache "* ]]
		run -0 --separate-stderr urlcache $sub --help
		[[ "$output" == *"See urlcache(1)."* ]]
		run -2 --separate-stderr urlcache $sub -Z
		[ "$stderr" = "urlcache $sub: unknown option -Z
try 'urlcache $sub --help'" ]
	done
}
