#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract: a page made of elements and little else is refused
# with a clear error, in bounded memory and time (issue 15 item 9).

bats_require_minimum_version 1.5.0
load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "extract limits: 19 MB of <p>, is an error record, under 1 GB of memory" {
	python3 -c 'import sys; sys.stdout.write("<p>," * (19 * 1024 * 1024 // 4))' >"$T/bomb.html"
	# The memory limit only for a plain build: the sanitizers reserve
	# terabytes of address space.
	case $UK_BIN in
	*build-san* | *valgrind*) lim=: ;;
	*) lim='ulimit -v 1000000' ;;
	esac
	run -1 --separate-stderr bash -c "$lim"'; exec urlextract "$1"' _ "$T/bomb.html"
	run -0 jq -r .error <<<"$output"
	[[ $output == "the page has too many elements ("*", at most "*" for its size)" ]]
}
