#!/bin/sh
# SPDX-License-Identifier: MIT
# A toolack exec handler for the ordering tests: a URL with "slow" in it
# finishes only after one with "fast" has (so the order of completion is
# certain however loaded the machine is); DIR/fast marks it.
dir=$1
url=$2
case $url in
*slow*)
	i=0
	while [ ! -e "$dir/fast" ] && [ "$i" -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	;;
*fast*) touch "$dir/fast" ;;
esac
