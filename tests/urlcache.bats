#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache: the seed's "URL Cache" and "URL Service" cases, the command
# line, bad input.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	C=$URLKIT_CACHE_DIR
}

teardown() {
	# Undo an immutable directory made by the unwritable tests.
	[ -d "$T/ro" ] && chattr -R -i "$T/ro" 2>/dev/null
	[ -d "$T/ro" ] && chmod -R u+w "$T/ro" 2>/dev/null
	common_teardown
}

# rec URL [CONTENT]: a content record, the line jq -nc writes for it.
# Made with printf where the strings need no escape but \ and " (every
# call here: some 70 jq starts a run, ~35 ms of CPU each); jq for any
# other string (a control character).
rec() {
	local u=$1 c=${2:-content of $1}
	if [[ $u$c == *[[:cntrl:]]* ]]; then
		jq -nc --arg u "$u" --arg c "$c" \
		    '{url:$u,url_type:"web",title:"T",content:$c}'
		return
	fi
	u=${u//\\/\\\\} c=${c//\\/\\\\}
	u=${u//\"/\\\"} c=${c//\"/\\\"}
	printf '{"url":"%s","url_type":"web","title":"T","content":"%s"}\n' \
	    "$u" "$c"
}

# put URL [CONTENT]: cache a record.
put() {
	rec "$@" | urlcache set
}

@test "set then get round-trips the record, marked cached" {
	run -0 put https://example.com/a "hello"
	[ -z "$output" ]
	run -0 urlcache get https://example.com/a
	json_eq "$(jq -c 'del(.cached_at,.fetched_at)' <<<"$output")" \
	    '{"url":"https://example.com/a","url_type":"web","title":"T","content":"hello","cached":true}'
	jq -e '.cached_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$")' <<<"$output"
	jq -e '.fetched_at == .cached_at' <<<"$output"
}

@test "unknown fields, unicode and key order survive the cache" {
	printf '%s\n' '{"url":"https://u.test/","z":1,"a":[1.50,{"x":null}],"content":"héllo ✓ 🙂"}' |
	    urlcache set
	run -0 urlcache get https://u.test/
	[[ $output == '{"url":"https://u.test/","z":1,"a":[1.50,{"x":null}],"content":"héllo ✓ 🙂","fetched_at":"'* ]]
}

@test "fetched_at is kept when the record has one" {
	rec https://f.test/ | jq -c '.fetched_at="2020-01-02T03:04:05.000Z"' |
	    urlcache set
	run -0 urlcache get https://f.test/
	jq -e '.fetched_at == "2020-01-02T03:04:05.000Z" and .cached_at != .fetched_at' <<<"$output"
}

@test "a miss exits 1 with an error record; hits still print" {
	put https://hit.test/
	run -1 urlcache get https://miss.test/ https://hit.test/
	[ "${#lines[@]}" -eq 2 ]
	json_eq "${lines[0]}" '{"url":"https://miss.test/","error":"not in the cache","cached":false}'
	jq -e '.url == "https://hit.test/" and .cached' <<<"${lines[1]}"
}

@test "get: a url record that arrived failed passes through untouched, exit 0" {
	put https://hit.test/
	run -0 --separate-stderr urlcache get < <(printf '%s\n' \
	    '{"url":"https://hit.test/","error":"HTTP 404","id":3}' \
	    https://hit.test/)
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = '{"url":"https://hit.test/","error":"HTTP 404","id":3}' ]
	jq -e '.url == "https://hit.test/" and .cached' <<<"${lines[1]}"
	[ -z "$stderr" ]
}

@test "get reads url records and bare URLs on stdin" {
	put https://a.test/
	put https://b.test/
	run -0 urlcache get < <(printf '%s\n' https://a.test/ '{"url":"https://b.test/","type":"web"}')
	[ "$(jq -r .url <<<"$output" | tr '\n' ' ')" = "https://a.test/ https://b.test/ " ]
}

@test "get -q prints nothing and answers by exit status" {
	put https://q.test/
	run -0 urlcache -q get https://q.test/
	[ -z "$output" ]
	run -1 urlcache -q get https://q.test/ https://nope.test/
	[ -z "$output" ]
}

@test "an expired entry is a miss and is deleted" {
	put https://old.test/
	f=$(urlcache path https://old.test/)
	touch -d '25 hours ago' "$f"
	run -1 urlcache get https://old.test/
	[ ! -e "$f" ]
}

@test "get --stale returns an expired entry, marked, and keeps it" {
	put https://old.test/
	f=$(urlcache path https://old.test/)
	touch -d '25 hours ago' "$f"
	run -0 urlcache get --stale https://old.test/
	jq -e '.expired == true and .cached == true' <<<"$output"
	[ -e "$f" ]
}

@test "TTL from -t and URLKIT_CACHE_TTL" {
	put https://ttl.test/
	f=$(urlcache path https://ttl.test/)
	touch -d '2 hours ago' "$f"
	run -0 urlcache -q get https://ttl.test/
	run -0 urlcache -q --ttl 3h get https://ttl.test/
	URLKIT_CACHE_TTL=3600 run -1 urlcache -q get https://ttl.test/
	[ ! -e "$f" ]
	URLKIT_CACHE_TTL=soon run -3 urlcache get https://ttl.test/
	[[ $output == *"URLKIT_CACHE_TTL: not a duration: 'soon'"* ]]
	run -2 urlcache --ttl never get https://ttl.test/
}

@test "error records are not cached and pass through set --pass untouched" {
	run -0 urlcache set --pass < <(printf '%s\n' \
	    '{"url":"https://e.test/","error":"HTTP 404"}' \
	    "$(rec https://ok.test/)")
	[ "${lines[0]}" = '{"url":"https://e.test/","error":"HTTP 404"}' ]
	jq -e '.url == "https://ok.test/"' <<<"${lines[1]}"
	run -1 urlcache -q get https://e.test/
	run -0 urlcache -q get https://ok.test/
}

@test "set: a non-JSON line gets an error record and set carries on" {
	run --separate-stderr -1 urlcache set < <(printf '%s\n' \
	    "$(rec https://1.test/)" 'not json at all' '[1,2]' '{"nourl":1}' \
	    "$(rec https://2.test/)")
	[ "${#lines[@]}" -eq 3 ]
	jq -e '.error and .tool == "urlcache" and .line == 2' <<<"${lines[0]}"
	jq -e '.line == 3' <<<"${lines[1]}"
	jq -e '.line == 4 and (.error | test("url"))' <<<"${lines[2]}"
	[[ $stderr == *"<stdin>:2:"* ]]
	run -0 urlcache -q get https://1.test/ https://2.test/
}

@test "URL keys: deterministic, 16 hex characters, SHA-256, fanned out" {
	a=$(urlcache path https://example.com/)
	b=$(urlcache path https://example.com/)
	c=$(urlcache path https://example.org/)
	[ "$a" = "$b" ]
	[ "$a" != "$c" ]
	k=$(printf %s https://example.com/ | sha256sum | cut -c1-16)
	[ "$a" = "$C/${k:0:2}/$k.json" ]
	run -0 urlcache path
	[ "$output" = "$C" ]
}

@test "the default directory is created on first write, mode 0700" {
	unset URLKIT_CACHE_DIR
	[ ! -e "$XDG_CACHE_HOME" ]
	put https://d.test/
	[ -f "$XDG_CACHE_HOME/urlkit/$(urlcache path https://d.test/ | sed "s|^$XDG_CACHE_HOME/urlkit/||")" ]
	[ "$(stat -c %a "$XDG_CACHE_HOME/urlkit")" = 700 ]
	unset XDG_CACHE_HOME
	run -0 urlcache path
	[ "$output" = "$HOME/.cache/urlkit" ]
	put https://d.test/
	[ "$(stat -c %a "$HOME/.cache/urlkit")" = 700 ]
	run -0 urlcache -d "$T/other" path
	[ "$output" = "$T/other" ]
}

@test "invalidate removes the entry and says whether it was there" {
	put https://i.test/
	run -0 urlcache invalidate https://i.test/ https://never.test/
	json_eq "${lines[0]}" '{"url":"https://i.test/","found":true}'
	json_eq "${lines[1]}" '{"url":"https://never.test/","found":false}'
	run -1 urlcache -q get https://i.test/
	run -2 urlcache invalidate
}

@test "clear removes every entry and says how many" {
	for i in 1 2 3 4 5; do put "https://c$i.test/"; done
	run -0 urlcache clear
	json_eq "$output" '{"removed":5}'
	run -1 urlcache -q get https://c1.test/
	run -0 urlcache clear
	json_eq "$output" '{"removed":0}'
}

@test "cleanup removes expired and corrupt entries and counts them" {
	for i in 1 2 3 4 5; do put "https://x$i.test/"; done
	touch -d '2 days ago' "$(urlcache path https://x1.test/)" "$(urlcache path https://x2.test/)"
	echo '{"url":"https://x3.te' >"$(urlcache path https://x3.test/)"
	run -0 urlcache cleanup
	jq -e '.removed == 3 and .expired == 2 and .corrupt == 1 and .entries == 2' <<<"$output"
	run -0 urlcache -q get https://x4.test/ https://x5.test/
	run -0 urlcache cleanup
	jq -e '.removed == 0' <<<"$output"
}

@test "cleanup -n lists what would go and removes nothing" {
	put https://n1.test/
	put https://n2.test/
	f=$(urlcache path https://n1.test/)
	touch -d '2 days ago' "$f"
	run -0 urlcache cleanup -n
	[ "${#lines[@]}" -eq 2 ]
	jq -e --arg f "$f" '.path == $f and .reason == "expired" and .kind == "entry"' <<<"${lines[0]}"
	jq -e '.would_remove == 1 and .dry_run' <<<"${lines[1]}"
	[ -e "$f" ]
}

@test "cleanup removes stray temporary files of dead or old writers only" {
	put https://t.test/
	f=$(urlcache path https://t.test/)
	d=${f%/*}
	k=${f##*/}
	sleep 0 &
	dead=$!
	wait $dead
	echo '{"url":' >"$d/.$k.tmp.$dead.0000abcd"
	echo '{"url":' >"$d/.$k.tmp.$$.0000beef"
	echo '{"url":' >"$d/.$k.tmp.$$.0000cafe"
	touch -d '5 minutes ago' "$d/.$k.tmp.$$.0000cafe"
	echo 'mine' >"$d/notes.txt"
	run -0 urlcache cleanup -v
	[ "$(jq -s -c '[.[] | select(.reason == "temp")] | length' <<<"$output")" = 2 ]
	jq -e '.temp == 2' <<<"${lines[-1]}"
	[ ! -e "$d/.$k.tmp.$dead.0000abcd" ]
	[ ! -e "$d/.$k.tmp.$$.0000cafe" ]
	[ -e "$d/.$k.tmp.$$.0000beef" ] # a live writer's, still young
	[ -e "$d/notes.txt" ]           # not ours: left alone
	run -0 urlcache -q get https://t.test/
}

@test "cleanup --max-size evicts the least recently used first" {
	for i in 1 2 3 4; do put "https://l$i.test/" "$(printf '%0500d' 0)"; done
	for i in 1 2 3 4; do touch -a -d "$((5 - i)) hours ago" "$(urlcache path "https://l$i.test/")"; done
	# l1 is the oldest; a get makes it the most recent.
	urlcache -q get https://l1.test/
	size=$(stat -c %s "$(urlcache path https://l1.test/)")
	run -0 urlcache cleanup -v --max-size $((size * 2 + 10))B
	[ "$(jq -r 'select(.reason == "size") | .key' <<<"$output" | wc -l)" -eq 2 ]
	jq -e '.evicted == 2 and .entries == 2' <<<"${lines[-1]}"
	run -0 urlcache -q get https://l1.test/ https://l4.test/
	run -1 urlcache -q get https://l2.test/
	run -1 urlcache -q get https://l3.test/
	run -2 urlcache cleanup --max-size lots
	run -2 urlcache cleanup -s 0
}

@test "cleanup -q from cron prints nothing" {
	put https://cron.test/
	touch -d '3 days ago' "$(urlcache path https://cron.test/)"
	run -0 urlcache -q cleanup --max-size 500M
	[ -z "$output" ]
	run -1 urlcache -q get https://cron.test/
}

@test "list: one record per entry, with url, key, cached_at, size, expired" {
	put https://l1.test/
	put https://l2.test/
	touch -d '2 days ago' "$(urlcache path https://l2.test/)"
	f=$(urlcache path https://l3.test/)
	mkdir -p "${f%/*}"
	echo 'garbage' >"$f"
	run -0 urlcache list
	[ "${#lines[@]}" -eq 3 ]
	k1=$(basename "$(urlcache path https://l1.test/)" .json)
	jq -s -e --arg k "$k1" \
	    '[.[] | select(.url == "https://l1.test/")][0] | .key == $k and .expired == false and .size > 0 and (.cached_at | endswith("Z"))' <<<"$output"
	jq -s -e '[.[] | select(.url == "https://l2.test/")][0].expired == true' <<<"$output"
	jq -s -e '[.[] | select(.corrupt)] | length == 1' <<<"$output"
}

@test "stats: entries, bytes, expired, oldest, newest" {
	run -0 urlcache stats
	jq -e '.entries == 0 and .bytes == 0 and .oldest == null' <<<"$output"
	put https://s1.test/
	put https://s2.test/
	touch -d '2020-01-01 00:00:00 UTC' "$(urlcache path https://s1.test/)"
	run -0 urlcache stats
	total=$(cat "$C"/*/*.json | wc -c)
	jq -e --argjson b "$total" '.entries == 2 and .bytes == $b and .expired == 1 and .oldest == "2020-01-01T00:00:00.000Z" and .newest > .oldest and .ttl == 86400' <<<"$output"
}

@test "a corrupt or truncated entry is a miss and is removed" {
	put https://bad.test/ "$(printf '%02000d' 7)"
	f=$(urlcache path https://bad.test/)
	head -c 100 "$f" >"$T/trunc"
	cp "$T/trunc" "$f"
	run -1 urlcache get https://bad.test/
	[ ! -e "$f" ]
	printf '\0\1\2' >"$f"
	run -1 urlcache get https://bad.test/
	[ ! -e "$f" ]
	# Another URL's entry under this key (a prefix collision) is a miss.
	put https://other.test/
	cp "$(urlcache path https://other.test/)" "$f"
	run -1 urlcache get https://bad.test/
	[ ! -e "$f" ]
}

@test "a directory where an entry file should be" {
	f=$(urlcache path https://dir.test/)
	mkdir -p "$f"
	run -1 urlcache get https://dir.test/
	[ -d "$f" ]
	run --separate-stderr -1 urlcache set < <(rec https://dir.test/; rec https://fine.test/)
	jq -e '.line == 1 and (.error | test("directory"))' <<<"$output"
	run -0 urlcache -q get https://fine.test/
	run -0 urlcache cleanup
	run -0 urlcache stats
	jq -e '.other == 1 and .entries == 1' <<<"$output"
	# A file where a fan-out directory should be.
	rm -rf "$C"
	mkdir -p "$C"
	k=$(basename "$(urlcache path https://fan.test/)")
	touch "$C/${k:0:2}"
	run -1 urlcache get https://fan.test/
	run -1 urlcache set < <(rec https://fan.test/)
}

@test "unwritable cache directory: clear message, exit 3" {
	echo file >"$T/afile"
	run --separate-stderr -3 urlcache -d "$T/afile" set < <(rec https://w.test/)
	[[ $stderr == "urlcache set: <stdin>:1: cache directory '$T/afile' is not a directory" ]]
	mkdir -p "$T/ro"
	if [ "$(id -u)" = 0 ]; then
		chattr +i "$T/ro" 2>/dev/null || skip "no chattr as root"
	else
		chmod 500 "$T/ro"
	fi
	run --separate-stderr -3 urlcache -d "$T/ro" set < <(rec https://w.test/)
	[[ $stderr == *"urlcache set: <stdin>:1: cannot create '$T/ro/"*": "*"ermi"* ]]
	# The record that failed is named on stdout too.
	jq -e '.line == 1 and (.error | test("cannot create"))' <<<"$output"
	run -1 urlcache -d "$T/ro" get https://w.test/
}

@test "cleanup on a read-only cache: exit 3" {
	mkdir -p "$T/ro"
	URLKIT_CACHE_DIR=$T/ro put https://r.test/
	touch -d '3 days ago' "$(urlcache -d "$T/ro" path https://r.test/)"
	d=$(dirname "$(urlcache -d "$T/ro" path https://r.test/)")
	if [ "$(id -u)" = 0 ]; then
		chattr +i "$d" 2>/dev/null || skip "no chattr as root"
	else
		chmod 500 "$d"
	fi
	run --separate-stderr -3 urlcache -d "$T/ro" cleanup
	[[ $stderr == *"cannot remove 1 file"* ]]
	jq -e '.failed == 1' <<<"$output"
}

@test "sessions: a session that is not there is an error for list, get and remove (exit 1)" {
	local verb
	for verb in list "get https://none.test/" "remove https://none.test/"; do
		run -1 --separate-stderr urlcache session s1 $verb
		[ "$stderr" = "urlcache session: no session 's1'" ]
		[ -z "$output" ]
	done
	run -0 urlcache session
	[ -z "$output" ]
}

@test "sessions: get answers an error for an unfetched URL" {
	rec https://one.test/ "one" | urlcache session s1 add
	run -1 urlcache session s1 get https://none.test/
	jq -e '.url == "https://none.test/" and (.error | test("not fetched"))' <<<"$output"
}

@test "sessions: records added are listed in order, found before the cache" {
	rec https://s2.test/ "two" | urlcache session s1 add
	rec https://s1.test/ "one" | urlcache session s1 add
	put https://s1.test/ "cached one"
	run -0 urlcache session s1 list
	[ "$(jq -r .url <<<"$output" | tr '\n' ' ')" = "https://s2.test/ https://s1.test/ " ]
	run -0 urlcache session s1 get https://s1.test/
	jq -e '.content == "one"' <<<"$output"
	# Re-adding keeps the place.
	rec https://s2.test/ "two again" | urlcache session s1 add
	run -0 urlcache session s1 list
	[ "$(jq -r .content <<<"$output" | tr '\n' ' ')" = "two again one " ]
}

@test "sessions: get falls back to the cache" {
	put https://cached.test/ "from cache"
	rec https://one.test/ "one" | urlcache session s1 add
	run -0 urlcache session s1 get https://cached.test/
	jq -e '.content == "from cache" and .cached == true' <<<"$output"
	run -0 urlcache get -S s1 https://cached.test/
	jq -e '.content == "from cache"' <<<"$output"
}

@test "sessions: add URL copies the cache entry; a miss is an error" {
	put https://a.test/
	run -1 urlcache session s1 add https://a.test/ https://gone.test/
	jq -e '.url == "https://gone.test/" and .error' <<<"$output"
	run -0 urlcache session s1 list
	jq -e '.url == "https://a.test/"' <<<"$output"
}

@test "sessions: remove keeps the cache entry; clear empties the session" {
	put https://r1.test/
	put https://r2.test/
	urlcache session s1 add https://r1.test/ https://r2.test/
	run -0 urlcache session s1 remove https://r1.test/ https://zz.test/
	json_eq "${lines[0]}" '{"url":"https://r1.test/","found":true}'
	json_eq "${lines[1]}" '{"url":"https://zz.test/","found":false}'
	run -0 urlcache -q get https://r1.test/
	run -0 urlcache session s1 list
	[ "$(jq -r .url <<<"$output")" = https://r2.test/ ]
	run -0 urlcache session s1 clear
	json_eq "$output" '{"removed":1}'
	# Cleared, the session is gone.
	run -1 urlcache session s1 list
	run -0 urlcache -q get https://r2.test/
}

@test "sessions: invalidate -S and clear -S remove from both" {
	put https://b1.test/
	put https://b2.test/
	urlcache session s1 add https://b1.test/ https://b2.test/
	run -0 urlcache invalidate -S s1 https://b1.test/
	json_eq "$output" '{"url":"https://b1.test/","found":true,"in_session":true}'
	run -1 urlcache session s1 get https://b1.test/
	run -0 urlcache clear -S s1
	json_eq "$output" '{"removed":1,"session_removed":1}'
	run -1 urlcache session s1 get https://b2.test/
}

@test "sessions: error records are kept in the session, not cached" {
	printf '%s\n' '{"url":"https://e.test/","error":"HTTP 500"}' | urlcache session s1 add
	run -0 urlcache session s1 list
	jq -e '.error == "HTTP 500"' <<<"$output"
	run -1 urlcache -q get https://e.test/
}

@test "sessions: bad names and verbs are usage errors" {
	run -2 urlcache session ../etc list
	run -2 urlcache session .hidden list
	run -2 urlcache session s1 frobnicate
	run -2 urlcache session s1 remove
	run -2 urlcache session s1
	[ ! -e "$C/sessions" ]
	# Sessions are not cache entries: clear and cleanup leave them.
	rec https://keep.test/ | urlcache session s1 add
	run -0 urlcache clear
	json_eq "$output" '{"removed":0}'
	run -0 urlcache cleanup
	run -0 urlcache session s1 list
	jq -e '.url == "https://keep.test/"' <<<"$output"
}

@test "usage errors exit 2; --help and --version exit 0" {
	run -2 urlcache
	run -2 urlcache frob
	run -2 urlcache --bogus get
	run -2 urlcache get --bogus
	run -2 urlcache list extra
	run -2 urlcache clear extra
	run -0 urlcache --help
	[[ ${lines[0]} == "usage: urlcache "* ]]
	run -0 urlcache --version
	[[ $output == "urlcache "[0-9]* ]]
}

@test "cleanup --fast reads no entry but still removes empty ones" {
	put https://g1.test/
	put https://g2.test/
	put https://g3.test/
	echo 'garbage, not JSON' >"$(urlcache path https://g1.test/)"
	: >"$(urlcache path https://g2.test/)"
	run -0 urlcache cleanup --fast
	jq -e '.corrupt == 1 and .entries == 2' <<<"$output"
	[ -e "$(urlcache path https://g1.test/)" ]
	[ ! -e "$(urlcache path https://g2.test/)" ]
	run -0 urlcache cleanup
	jq -e '.corrupt == 1 and .entries == 1' <<<"$output"
}

# complete WORD...: what the bash completion offers for the last word.
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
	    _urlcache; echo "${COMPREPLY[*]}"' _ "$TOP/completions/bash/urlcache" "$@"
}

@test "bash completion offers commands, options and session names" {
	rec https://c.test/ | urlcache session chat1 add
	run -0 complete_words urlcache cl
	[ "$output" = "clear cleanup" ]
	run -0 complete_words urlcache cleanup --d
	[ "$output" = "--dry-run" ]
	run -0 complete_words urlcache session ""
	[ "$output" = "chat1" ]
	run -0 complete_words urlcache session chat1 ""
	[ "$output" = "list add get remove clear" ]
}

@test "get: an entry written by hand (pretty-printed, marked) comes out as one line" {
	f=$(urlcache path https://hand.test/)
	mkdir -p "${f%/*}"
	printf '{\n  "url": "https://hand.test/",\n  "cached": false,\n  "title": "by hand"\n}\n' >"$f"
	run -0 urlcache get https://hand.test/
	[ "${#lines[@]}" -eq 1 ]
	json_eq "$output" '{"url":"https://hand.test/","title":"by hand","cached":true}'
	printf '{"url":"https://hand.test/","n":1}   \n\n' >"$f"
	run -0 urlcache get https://hand.test/
	[ "$output" = '{"url":"https://hand.test/","n":1,"cached":true}' ]
	printf '{"url":"https://hand.test/","bad":"\xff"}\n' >"$f"
	run -1 urlcache get https://hand.test/
	[ ! -e "$f" ]
}

# Cleanup reads a fresh entry once (issue 40): a fan-out directory's
# .verified file vouches for the entries unchanged since, with their
# expires_at; what changed since (its ctime) is read again.
@test "cleanup: .verified vouches for entries read, a changed one is read again" {
	put https://v1.test/
	put https://v2.test/
	exp=$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%S.000Z)
	printf '{"url":"https://v3.test/","content":"c","expires_at":"%s"}\n' "$exp" | urlcache set
	# A second's slack between the kernel's clock and ours: an entry is
	# vouched for once it is older than that.
	sleep 1.2
	run urlcache cleanup
	[ "$status" -eq 0 ]
	jq -e '.removed == 0 and .entries == 3' <<<"$output"
	p3=$(urlcache path https://v3.test/)
	v3=$(dirname "$p3")/.verified
	[ "$(head -n 1 "$v3")" = "urlkit-cache-verified 1" ]
	key=$(basename "$p3" .json)
	grep -Eq "^$key [0-9]{19}\$" "$v3"
	# Changed since (content and ctime; its mtime kept young): read, corrupt.
	p1=$(urlcache path https://v1.test/)
	echo '{"url":"https://v1.te' >"$p1"
	touch -d '-1 second' "$p1"
	sleep 2
	# v3's expires_at has passed: it goes without its file being read.
	run urlcache cleanup -v
	[ "$status" -eq 0 ]
	jq -se '.[-1] | .corrupt == 1 and .expired == 1 and .entries == 1' <<<"$output"
	[ ! -e "$p1" ] && [ ! -e "$p3" ]
	run urlcache -q get https://v2.test/
	[ "$status" -eq 0 ]
}

@test "cleanup: a .verified it cannot parse is no .verified" {
	put https://w1.test/
	p=$(urlcache path https://w1.test/)
	echo 'garbage, not JSON at all' >"$p"
	touch -d '-1 minute' "$p"
	sleep 0.1
	printf 'urlkit-cache-verified 1\nT %s\nnot a line\n' "$(date +%s%N)" >"$(dirname "$p")/.verified"
	run urlcache cleanup
	[ "$status" -eq 0 ]
	jq -e '.corrupt == 1 and .entries == 0' <<<"$output"
	# Nor is one whose time is to come (a clock set back since).
	put https://w2.test/
	p=$(urlcache path https://w2.test/)
	printf 'urlkit-cache-verified 1\nT 9000000000000000000\n' >"$(dirname "$p")/.verified"
	echo 'garbage, not JSON at all' >"$p"
	run urlcache cleanup
	[ "$status" -eq 0 ]
	jq -e '.corrupt == 1 and .entries == 0' <<<"$output"
}
