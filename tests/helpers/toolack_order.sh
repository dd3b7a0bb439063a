#!/bin/sh
# SPDX-License-Identifier: MIT
# A toolack exec handler for the ordering tests: a URL with "slow" in it
# finishes only after the call of one with "fast" has been resolved by the
# server (only its own call is left pending), so the order of completion
# is certain however loaded the machine is.  Needs TOOLACK_URL and TOKEN.
url=$2
case $url in
*slow*)
	i=0
	while [ "$i" -lt 400 ]; do
		n=$(curl -s -H "Authorization: Bearer $TOKEN" \
		    "$TOOLACK_URL/api/tools/calls?limit=0" | jq .pending)
		[ "$n" = 1 ] && break
		sleep 0.05
		i=$((i + 1))
	done
	sleep 0.2
	;;
esac
