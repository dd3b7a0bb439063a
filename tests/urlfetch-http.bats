#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch against misbehaving servers: charsets, redirects, timeouts,
# size caps, retries, block pages, the SSRF guard.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/fetch

setup_file() { fetch_setup_file; }
teardown_file() { fetch_teardown_file; }
setup() { fetch_setup; }
teardown() { common_teardown; }

@test "charset from the Content-Type header (latin1 page, no declaration in it)" {
	run -0 urlfetch <<<"$B/latin1-header.html"
	[ "$(field "$output" .title)" = "Café crème" ]
	[[ $(field "$output" .content) == *"Le café crème est servi très chaud"* ]]
}

@test "charset only in <meta http-equiv>" {
	run -0 urlfetch <<<"$B/meta-charset.html"
	[ "$(field "$output" .title)" = "Café crème" ]
	[[ $(field "$output" .content) == *"très chaud"* ]]
}

@test "latin1 without any declaration still gives valid UTF-8, no raw bytes" {
	run -0 urlfetch <<<"$B/latin1-undeclared.html"
	printf '%s\n' "$output" | iconv -f UTF-8 -t UTF-8 >/dev/null
	[[ $(field "$output" .content) == *"servi tr"*"s chaud"* ]]
}

@test "charset of a text body from its header" {
	run -0 urlfetch <<<"$B/latin1.txt"
	[ "$(field "$output" .content)" = "café" ]
}

@test "a gzip-encoded page is decoded" {
	run -0 urlfetch <<<"$B/gzip.html"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "redirects are followed and the final URL recorded" {
	run -0 urlfetch <<<"$B/chain/3"
	[ "$(field "$output" .url)" = "$B/chain/3" ]
	[ "$(field "$output" .final_url)" = "$B/chain/0" ]
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
}

@test "a redirect loop is an error record, not cached" {
	run -1 --separate-stderr urlfetch <<<"$B/loop/a"
	[ "$(field "$output" .error)" = "too many redirects (more than 10)" ]
	[ ! -d "$URLKIT_CACHE_DIR" ] || [ -z "$(find "$URLKIT_CACHE_DIR" -type f)" ]
}

@test "a 30-redirect chain stops at the limit" {
	run -1 --separate-stderr urlfetch <<<"$B/chain/30"
	[ "$(field "$output" .error)" = "too many redirects (more than 10)" ]
	[ "$(requests /chain/20)" -ge 1 ]
	[ "$(requests /chain/19)" = 0 ]
}

@test "a slow drip that never finishes ends at the timeout" {
	run -1 --separate-stderr urlfetch -t 1 <<<"$B/drip"
	[ "$(field "$output" .error)" = "timed out after 1 s" ]
	[ "$(field "$output" .content)" = null ]
}

@test "a body over the cap is an error, never a truncated page" {
	run -1 --separate-stderr urlfetch -s 1M <<<"$B/big"
	[ "$(field "$output" .error)" = "body larger than 1 MiB" ]
	[ "$(field "$output" .content)" = null ]
	run -1 --separate-stderr urlfetch -s 100K <<<"$B/big-chunked"
	[ "$(field "$output" .error)" = "body larger than 100 KiB" ]
	run -0 urlfetch -s 4M <<<"$B/big"
}

@test "a gzip bomb stops at the cap on decoded bytes (default 20 MB)" {
	run -1 --separate-stderr urlfetch <<<"$B/bomb"
	[ "$(field "$output" .error)" = "body larger than 20 MiB" ]
}

@test "429 with Retry-After is retried after the wait" {
	run -0 urlfetch <<<"$B/ratelimit?r=1"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(requests '/ratelimit?r=1')" = 2 ]
}

@test "429 asking for a longer wait than allowed is an error at once" {
	run -1 --separate-stderr urlfetch <<<"$B/ratelimit-long?r=2"
	[ "$(field "$output" .error)" = "HTTP 429 (Retry-After 3600 s)" ]
	[ "$(requests '/ratelimit-long?r=2')" = 1 ]
}

@test "a dropped connection is retried" {
	run -0 urlfetch <<<"$B/flaky?r=3"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(requests '/flaky?r=3')" = 2 ]
}

@test "a 404 is an error record and is not retried" {
	run -1 --separate-stderr urlfetch <<<"$B/status/404?r=4"
	[ "$(field "$output" .error)" = "HTTP 404" ]
	[ "$(requests '/status/404?r=4')" = 1 ]
}

@test "a block page is an error record, never passed off as content" {
	run -1 --separate-stderr urlfetch <<<"$B/blocked.html"
	[[ $(field "$output" .error) == *"block or challenge page"* ]]
	[ "$(field "$output" .content)" = null ]
	run -1 --separate-stderr urlfetch <<<"$B/forbidden"
	[ "$(field "$output" .error)" = "HTTP 403: a block or challenge page (pwfetch may get through)" ]
	run -1 --separate-stderr urlfetch <<<"$B/status/403"
	[ "$(field "$output" .error)" = "HTTP 403" ]
}

@test "a page with no text is an error, not silent empty output" {
	run -1 --separate-stderr urlfetch <<<"$B/empty.html"
	[[ $(field "$output" .error) == "no text in the page"* ]]
}

@test "a damaged PDF (/doc.pdf: a header and nothing else) is an error record saying damaged" {
	run -1 --separate-stderr urlfetch <<<"$B/doc.pdf"
	[ "$(field "$output" .error)" = "damaged PDF: it cannot be read" ]
	[ "$(field "$output" .content)" = null ]
	[[ $stderr == *"damaged PDF"* ]]
}

@test "a binary content type is an error" {
	run -1 --separate-stderr urlfetch <<<"$B/blob.zip"
	[ "$(field "$output" .error)" = "unsupported content type 'application/zip'" ]
}

@test "private addresses are refused by default" {
	unset URLKIT_ALLOW_PRIVATE
	run -1 --separate-stderr urlfetch <<<"$B/article.html?g=1"
	[[ $(field "$output" .error) == "refused to connect to private address 127.0.0.1"* ]]
	[ "$(requests '/article.html?g=1')" = 0 ]
	# A name that resolves to loopback is refused the same way.
	run -1 --separate-stderr urlfetch <<<"http://localhost:$FS_PORT/article.html?g=2"
	[[ $(field "$output" .error) == "refused to connect to private address"* ]]
	[ "$(requests '/article.html?g=2')" = 0 ]
	# So are GitHub hosts pointed at loopback.
	run -1 --separate-stderr urlfetch <<<"https://github.com/octo/demo/blob/main/README.md"
	[[ $(field "$output" .error) == "refused to connect"* ]]
	# URLKIT_ALLOW_PRIVATE=0 does not allow.
	URLKIT_ALLOW_PRIVATE=0 run -1 --separate-stderr urlfetch <<<"$B/article.html?g=3"
	[ "$(requests '/article.html?g=3')" = 0 ]
}

@test "--allow-private and URLKIT_ALLOW_PRIVATE=1 allow loopback" {
	unset URLKIT_ALLOW_PRIVATE
	run -0 urlfetch --allow-private <<<"$B/article.html"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	URLKIT_ALLOW_PRIVATE=1 run -0 urlfetch <<<"$B/article.html"
}

@test "a refused redirect target: the guard checks every hop" {
	unset URLKIT_ALLOW_PRIVATE
	run -1 --separate-stderr urlfetch <<<"$B/chain/2"
	[[ $(field "$output" .error) == "refused to connect"* ]]
}

@test "TLS is always verified; -k turns it off, explicitly" {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -subj /CN=localhost -days 1 -keyout "$T/key.pem" \
	    -out "$T/cert.pem" 2>/dev/null
	start_server TLS python3 "$TOP/tests/helpers/fetch_server.py" \
	    --tls "$T/cert.pem" "$T/key.pem"
	run -1 --separate-stderr urlfetch -t 2 <<<"https://localhost:$TLS_PORT/article.html"
	[[ $(field "$output" .error) == *"certificate"* ]]
	[ "$(field "$output" .content)" = null ]
	run -0 urlfetch -k -t 2 <<<"https://localhost:$TLS_PORT/article.html"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	# What -k fetched is not cached: a verified run still fails.
	run -1 --separate-stderr urlfetch -t 2 <<<"https://localhost:$TLS_PORT/article.html"
	[[ $(field "$output" .error) == *"certificate"* ]]
}

@test "proxies from the environment are used, and trusted by the guard" {
	unset URLKIT_ALLOW_PRIVATE
	http_proxy="$B" run -0 urlfetch -C <<<"http://site.invalid/article.html?px=1"
	[ "$(field "$output" .title)" = "The Quiet Harbour" ]
	[ "$(requests '/article.html?px=1')" = 1 ]
}

@test "a connection refused is an error record after retries" {
	# A port nobody listens on: take one and close it.
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	run -1 --separate-stderr urlfetch -t 2 <<<"http://127.0.0.1:$port/"
	[[ $(field "$output" .error) == *"onnect"* ]]
}
