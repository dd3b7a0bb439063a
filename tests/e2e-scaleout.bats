#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Scaling out with an engine that already exists: the pipeline through
# GNU parallel --pipe gives the records the serial run gives.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/e2e

# The stages every run shares: messages in, summarised records out.
stages='urldetect -m 3 --json text | urlfetch -t 5 | urlsum'

# The servers, the messages and the serial run the pipeline tests
# compare with: started and run once for the file, in a directory of
# its own ($BATS_FILE_TMPDIR/world; its servers' pids there, stopped by
# teardown_file), not once in each of the two tests (the serial run of
# 160 messages and five servers each time).  The serial run's status
# (1: there are 404s) and its requests for the pages the first test
# counts are checked by the tests.
setup_file() {
	e2e_repo "$BATS_FILE_TMPDIR"
	command -v parallel >/dev/null || return 0
	T=$BATS_FILE_TMPDIR/world
	mkdir -p "$T"
	export URLKIT_CACHE_DIR="$T/cache" XDG_CACHE_HOME="$T/xdg"
	scaleout_start || return 1
	local st=0
	bash -o pipefail -c "<'$T/msgs.jsonl' $stages >'$T/serial'" || st=$?
	{
		# (curl prints the count without a newline.)
		echo "$st"
		echo "$(fs_count '/article.html?m=17')"
		echo "$(fs_count '/docs/p160.html')"
		echo "$(fs_count '/article.html?shared')"
	} >"$T/serial.st"
	export W=$T
}

teardown_file() {
	local T=$BATS_FILE_TMPDIR/world pidf pid
	for pidf in "$T"/*.pid; do
		[ -e "$pidf" ] || continue
		read -r pid <"$pidf" || continue
		kill "$pid" 2>/dev/null || :
	done
}

setup() {
	common_setup
	command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/bootstrap installs it)"
}

# scaleout_start: the servers and the messages the pipeline tests share.
scaleout_start() {
	e2e_start
	unset URLKIT_LLM_URL # offline summaries: the same text every time
	# 160 messages, one a line with an id; a few URLs each, some of them
	# shared between messages, some failing, and a few broken lines.
	python3 - "$B" >"$T/msgs.jsonl" <<'EOF'
import json, sys
b = sys.argv[1]
for i in range(1, 161):
    if i % 60 == 30:
        print('{"id":"m%d","text": broken' % i)
        continue
    urls = ["%s/article.html?m=%d" % (b, i), "%s/docs/p%d.html" % (b, i)]
    if i % 7 == 0:
        urls.append("%s/status/404?m=%d" % (b, i))
    if i % 10 == 0:
        urls.append("%s/article.html?shared" % b)
    if i % 45 == 0:
        urls.append("https://github.com/octo/demo/issues/7")
    print(json.dumps({"id": "m%d" % i, "text": "see " + " and ".join(urls)}))
EOF
}

teardown() {
	common_teardown
}

# Fields that differ between runs by nature: fetched_at (when), message
# and line (ordinals within each job's part of the input; the id is the
# join key), cached and cached_at (which job fetched a shared URL first).
# What a run's order decides is left out: whether a record came from the
# cache, and change (new, same: which process stored the page first).
norm() {
	jq -S -c 'del(.fetched_at, .cached_at, .message, .line, .cached, .change)' "$@"
}

@test "parallel --pipe -j4 --keep-order gives the serial run's records" {
	# The serial run (setup_file's): exit 1, each of these pages
	# fetched once.
	local st n17 n160 nsh sh
	{ read -r st; read -r n17; read -r n160; read -r sh; } <"$W/serial.st"
	[ "$st" = 1 ]
	[ "$n17" = 1 ]
	[ "$n160" = 1 ]
	# (The counts now, before this test's run: the other test may have
	# run first.)
	n17=$(fs_count '/article.html?m=17')
	n160=$(fs_count '/docs/p160.html')
	nsh=$(fs_count '/article.html?shared')
	export URLKIT_CACHE_DIR=$T/cache2
	# Eight jobs of 20 lines, four at a time; each job's shell needs
	# pipefail too, and parallel's status is the number of jobs that
	# failed (every part has a 404 in it).
	run -8 bash -c "parallel --pipe -N 20 -j4 --keep-order \
	    'set -o pipefail; $stages' <'$W/msgs.jsonl' >'$T/parallel'"
	[ "$(wc -l <"$W/serial")" = 352 ]
	[ "$(wc -l <"$W/serial")" = "$(wc -l <"$T/parallel")" ]
	diff <(norm "$W/serial") <(norm "$T/parallel")
	# The records are real: pages, failures and the broken lines.
	[ "$(jq -c 'select(.summary_type == "USAGE")' "$T/parallel" | wc -l)" = 157 ]
	[ "$(jq -c 'select(.error == "HTTP 404")' "$T/parallel" | wc -l)" = 22 ]
	[ "$(jq -c 'select(.tool == "urldetect")' "$T/parallel" | wc -l)" = 3 ]
	# Each page was fetched once per run (two runs, two caches), the
	# shared one at most once per job.
	[ "$(fs_count '/article.html?m=17')" = $((n17 + 1)) ]
	[ "$(fs_count '/docs/p160.html')" = $((n160 + 1)) ]
	# (The serial run's $sh and this run's.)
	[ $(($(fs_count '/article.html?shared') - nsh + sh)) -le 9 ]
	# The jobs shared one cache directory: every entry whole, no
	# temporary file left.
	run -0 urlcache stats
	jq -e '.entries == 316 and .temp == 0' <<<"$output"
	[ -z "$(find "$T/cache2" -name '.*.tmp.*')" ]
}

@test "xargs -P on one machine: the same records, in any order" {
	# The serial run (setup_file's) exited 1.
	[ "$(head -n 1 "$W/serial.st")" = 1 ]
	export URLKIT_CACHE_DIR=$T/cache2
	mkdir -p "$T/parts"
	split -l 40 "$W/msgs.jsonl" "$T/parts/msgs."
	# One pipeline per part, four at a time; each writes its own file.
	# xargs says 123 when some of them failed (they all had a 404).
	run -123 bash -c "ls '$T'/parts/msgs.* | xargs -P 4 -I{} \
	    bash -o pipefail -c '<{} $stages >{}.out'"
	[ "$(ls "$T"/parts/*.out | wc -l)" = 4 ]
	[ "$(cat "$T"/parts/*.out | wc -l)" = 352 ]
	diff <(norm "$W/serial" | sort) <(cat "$T"/parts/*.out | norm | sort)
}

@test "splitting plain text in the middle of a message changes what is found" {
	# One message of 5 lines with 5 URLs: -n 3 keeps 3 of them.  Cut
	# into lines, each part is a message of its own and keeps its URL.
	for i in 1 2 3 4 5; do echo "see https://example.com/$i"; done >"$T/one.txt"
	run -0 urldetect -m 3 "$T/one.txt"
	[ "${#lines[@]}" = 3 ]
	run -0 parallel --pipe -N 1 -j4 --keep-order urldetect -m 3 <"$T/one.txt"
	[ "${#lines[@]}" = 5 ]
	# Split on message boundaries instead (here a line "--" ends each
	# message; -l would do for one message a line): the cap holds.
	{ cat "$T/one.txt"; echo --; cat "$T/one.txt"; echo --; } >"$T/two.txt"
	run -0 parallel --pipe --recend '--\n' -N 1 -j4 --keep-order \
	    urldetect -m 3 <"$T/two.txt"
	[ "${#lines[@]}" = 6 ]
}
