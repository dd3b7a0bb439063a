#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The address guard (issue 15, items 5 and 6): URLKIT_ALLOW_PRIVATE read
# one way by every program, failing closed; IPv6 forms that carry an IPv4
# address judged by it; through a proxy, a numeric host with a trailing
# dot still numeric.  127.0.0.1 is the allowed address, 127.0.0.2 the
# refused internal one.

bats_require_minimum_version 1.5.0
load helpers/common
load helpers/faults

setup() {
	common_setup
	unset URLKIT_ALLOW_PRIVATE URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
}
teardown() { common_teardown; }

# internal: the internal host, a web server on 127.0.0.2 (P_PORT); conns P
# counts its connections.
internal() {
	start_server P python3 "$TOP/tests/helpers/addr_server.py" 127.0.0.2
}

@test "security guard: a value of URLKIT_ALLOW_PRIVATE that means nothing is a usage error naming it" {
	internal
	local v
	for v in false no off true yes localhost 127.0.0.1:8080 \
	    '127.0.0.1,localhost' '127.0.0.1 nope' 127.0.0.1/33 ' ,'; do
		URLKIT_ALLOW_PRIVATE=$v run -2 --separate-stderr \
		    urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
		[ -z "$output" ]
		[[ $stderr == "urlfetch: URLKIT_ALLOW_PRIVATE='$v': "* ]]
		[ "$v" != '127.0.0.1 nope' ] ||
		    [[ $stderr == *"'nope' is not an address or a CIDR block" ]]
	done
	[ "$(conns P)" = 0 ]
}

@test "security guard: every program reads URLKIT_ALLOW_PRIVATE the same way" {
	URLKIT_ALLOW_PRIVATE=off run -2 --separate-stderr pwfetch fetch http://127.0.0.1:9/
	# A subcommand's messages name it (urlkit(7), COMMAND LINE).
	[[ $stderr == "pwfetch fetch: URLKIT_ALLOW_PRIVATE='off': "* ]]
	URLKIT_ALLOW_PRIVATE=off URLKIT_LLM_URL=http://127.0.0.1:9/v1 \
	    run -2 --separate-stderr urlsum <<<'{"url":"https://x.example/","content":"x"}'
	[[ $stderr == "urlsum: URLKIT_ALLOW_PRIVATE='off': "* ]]
	# A local repository: refused before anything is read.
	URLKIT_ALLOW_PRIVATE=no run -2 --separate-stderr urlfetch -C <<<"$T"
	[[ $stderr == "urlfetch: URLKIT_ALLOW_PRIVATE='no': "* ]]
}

@test "security guard: 1 turns the guard off, 0 and empty keep it on, blocks allow what they hold" {
	internal
	URLKIT_ALLOW_PRIVATE=0 run -1 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[[ $(jq -r .error <<<"$output") == "refused to connect to private address 127.0.0.2"* ]]
	URLKIT_ALLOW_PRIVATE= run -1 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[[ $(jq -r .error <<<"$output") == "refused to connect to private address 127.0.0.2"* ]]
	URLKIT_ALLOW_PRIVATE=127.0.0.1 run -1 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[[ $(jq -r .error <<<"$output") == "refused to connect to private address 127.0.0.2"* ]]
	URLKIT_ALLOW_PRIVATE=127.0.0.1/32 run -1 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[[ $(jq -r .error <<<"$output") == "refused to connect to private address 127.0.0.2"* ]]
	[ "$(conns P)" = 0 ]
	URLKIT_ALLOW_PRIVATE='::1, 127.0.0.0/30' run -0 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[ "$(jq -r .title <<<"$output")" = "Internal page" ]
	URLKIT_ALLOW_PRIVATE=1 run -0 --separate-stderr urlfetch -C <<<"http://127.0.0.2:$P_PORT/page"
	[ "$(conns P)" = 2 ]
}

@test "security guard: NAT64, 6to4 and IPv4-compatible forms are judged by their IPv4 address" {
	local u
	for u in '[64:ff9b::7f00:2]' '[64:ff9b::a00:1]' '[64:ff9b::a9fe:a9fe]' \
	    '[2002:7f00:2::1]' '[2002:c0a8:101::]' '[::7f00:2]' '[::a00:1]' \
	    '[::ffff:7f00:2]' '[64:ff9b:1::1]'; do
		URLKIT_ALLOW_PRIVATE=127.0.0.1 run -1 --separate-stderr \
		    urlfetch -C -t 2 <<<"{\"url\":\"http://$u:9/\"}"
		[[ $(jq -r .error <<<"$output") == "refused to connect to private address "* ]]
	done
}

@test "security guard: through a proxy, a numeric host with a trailing dot is still judged" {
	fault X page # the proxy: it serves any URL asked of it
	export http_proxy="http://127.0.0.1:$X_PORT"
	local u
	for u in http://127.0.0.2./ http://0x7f000002./ http://2130706434./ \
	    http://0x7f.2../ http://10.0.0.1./ http://169.254.169.254./x; do
		run -1 --separate-stderr urlfetch -C <<<"{\"url\":\"$u\"}"
		[[ $(jq -r .error <<<"$output") == "refused to connect to private address "* ]]
	done
	[ -z "$(reqs X)" ]
	# A name with a trailing dot is the proxy's to resolve.
	run -0 --separate-stderr urlfetch -C <<<"http://site.invalid./page?kb=1"
	[ "$(reqs X)" = "http://site.invalid./page?kb=1" ]
}
