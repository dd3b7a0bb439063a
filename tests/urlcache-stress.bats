#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlcache under concurrency and crashes, with real processes.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	C=$URLKIT_CACHE_DIR
	S="python3 $TOP/tests/helpers/urlcache_stress.py"
}

teardown() {
	common_teardown
}

@test "8 writers and 8 readers on 200 URLs while cleanup loops" {
	secs=4
	$S urls 200 >"$T/urls"
	$S gen 8 200 "$T"
	end=$(($(date +%s) + secs))
	for w in 1 2 3 4 5 6 7 8; do
		(
			while [ "$(date +%s)" -lt "$end" ]; do
				for c in 0 1 2 3; do
					urlcache set <"$T/w$w.$c.jsonl" ||
					    echo "writer $w: exit $?" >>"$T/fail"
				done
			done
		) &
	done
	for r in 1 2 3 4; do
		$S raw "$C" "$secs" >"$T/raw$r" 2>>"$T/fail" &
		$S get "$T/urls" "$secs" >"$T/get$r" 2>>"$T/fail" &
	done
	(
		# A TTL of 1 s makes cleanup delete entries as writers replace
		# them, so deletion races with renames and reads.
		while [ "$(date +%s)" -lt "$end" ]; do
			urlcache -q --ttl 1 cleanup ||
			    echo "cleanup: exit $?" >>"$T/fail"
		done
	) &
	wait
	if [ -s "$T/fail" ]; then
		cat "$T/fail" >&2
		false
	fi
	cat "$T"/raw? "$T"/get? >&2
	# The readers saw entries, and never a partial or foreign one.
	[ "$(jq -s 'map(.checked) | add' "$T"/raw?)" -gt 0 ]
	[ "$(jq -s 'map(.bad) | add' "$T"/raw? "$T"/get?)" -eq 0 ]
	[ "$(jq -s 'map(.hits) | add' "$T"/get?)" -gt 0 ]
	# Every writer finished its renames: no temporary file is left.
	[ -z "$(find "$C" -name '.*.tmp.*')" ]
	run -0 $S check "$C"
	jq -e '.bad == 0 and .temp == 0' <<<"$output"
	run -0 urlcache cleanup
	jq -e '.corrupt == 0 and .temp == 0' <<<"$output"
}

@test "SIGKILL at random points (50 kills) never leaves a corrupt entry" {
	# stderr apart: the sanitizers may say things there about the
	# processes killed; the record on stdout is what is checked.
	run -0 --separate-stderr $S crash "$C" 50
	echo "$output" >&2
	jq -e '.kills >= 50 and .bad == 0' <<<"$output"
	# Some kills landed mid-write: their temporary files were left...
	jq -e '.midwrite >= 1 and .temp_left >= 1' <<<"$output"
	# ...and cleanup removes them (their writers are dead).
	run -0 urlcache cleanup
	jq -e '.temp >= 1 and .corrupt == 0' <<<"$output"
	[ -z "$(find "$C" -name '.*.tmp.*')" ]
	run -0 $S check "$C"
	jq -e '.bad == 0 and .temp == 0 and .entries == 20' <<<"$output"
	run -0 urlcache -q get < <($S urls 20)
}
