#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Scaling out with an engine that already exists: the pipeline through
# GNU parallel --pipe gives the records the serial run gives.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/e2e

setup_file() {
	e2e_repo "$BATS_FILE_TMPDIR"
}

setup() {
	common_setup
	command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/bootstrap installs it)"
}

# scaleout_start: the servers and the messages the pipeline tests share
# (the test of plain text needs neither: five servers and a python3 it
# started for nothing took 1.5-2 s of CPU).
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

# The stages every run shares: messages in, summarised records out.
stages='urldetect -m 3 --json text | urlfetch -t 5 | urlsum'

# Fields that differ between runs by nature: fetched_at (when), message
# and line (ordinals within each job's part of the input; the id is the
# join key), cached and cached_at (which job fetched a shared URL first).
norm() {
	jq -S -c 'del(.fetched_at, .cached_at, .message, .line, .cached)' "$@"
}

@test "parallel --pipe -j4 --keep-order gives the serial run's records" {
	scaleout_start
	run -1 bash -o pipefail -c "<'$T/msgs.jsonl' $stages >'$T/serial'"
	export URLKIT_CACHE_DIR=$T/cache2
	# Eight jobs of 20 lines, four at a time; each job's shell needs
	# pipefail too, and parallel's status is the number of jobs that
	# failed (every part has a 404 in it).
	run -8 bash -c "parallel --pipe -N 20 -j4 --keep-order \
	    'set -o pipefail; $stages' <'$T/msgs.jsonl' >'$T/parallel'"
	[ "$(wc -l <"$T/serial")" = 352 ]
	[ "$(wc -l <"$T/serial")" = "$(wc -l <"$T/parallel")" ]
	diff <(norm "$T/serial") <(norm "$T/parallel")
	# The records are real: pages, failures and the broken lines.
	[ "$(jq -c 'select(.summary_type == "USAGE")' "$T/parallel" | wc -l)" = 157 ]
	[ "$(jq -c 'select(.error == "HTTP 404")' "$T/parallel" | wc -l)" = 22 ]
	[ "$(jq -c 'select(.tool == "urldetect")' "$T/parallel" | wc -l)" = 3 ]
	# Each page was fetched once per run (two runs, two caches), the
	# shared one at most once per job.
	[ "$(fs_count '/article.html?m=17')" = 2 ]
	[ "$(fs_count '/docs/p160.html')" = 2 ]
	[ "$(fs_count '/article.html?shared')" -le 9 ]
	# The jobs shared one cache directory: every entry whole, no
	# temporary file left.
	run -0 urlcache stats
	jq -e '.entries == 316 and .temp == 0' <<<"$output"
	[ -z "$(find "$T/cache2" -name '.*.tmp.*')" ]
}

@test "xargs -P on one machine: the same records, in any order" {
	scaleout_start
	run -1 bash -o pipefail -c "<'$T/msgs.jsonl' $stages >'$T/serial'"
	export URLKIT_CACHE_DIR=$T/cache2
	mkdir -p "$T/parts"
	split -l 40 "$T/msgs.jsonl" "$T/parts/msgs."
	# One pipeline per part, four at a time; each writes its own file.
	# xargs says 123 when some of them failed (they all had a 404).
	run -123 bash -c "ls '$T'/parts/msgs.* | xargs -P 4 -I{} \
	    bash -o pipefail -c '<{} $stages >{}.out'"
	[ "$(ls "$T"/parts/*.out | wc -l)" = 4 ]
	[ "$(cat "$T"/parts/*.out | wc -l)" = 352 ]
	diff <(norm "$T/serial" | sort) <(cat "$T"/parts/*.out | norm | sort)
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
