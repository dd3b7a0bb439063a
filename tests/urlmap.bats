#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlmap: the URLs of a site from robots.txt, sitemaps, feeds, llms.txt
# and a crawl, against loopback sites each test builds in $T/site
# (tests/helpers/map_server.py logs every request with its time).

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	mkdir "$T/site"
	start_server S python3 "$TOP/tests/helpers/map_server.py" "$T/site"
	B="http://127.0.0.1:$S_PORT"
}
teardown() { common_teardown; }

# page FILE [BODY...]: an HTML page with the given body.
page() {
	local f=$1
	shift
	mkdir -p "$(dirname "$T/site/$f")"
	printf '<html><head><title>%s</title></head><body>%s</body></html>\n' \
	    "$f" "$*" >"$T/site/$f"
}

# put FILE: standard input into the site, with @B@ made the site's URL.
put() {
	mkdir -p "$(dirname "$T/site/$1")"
	sed "s#@B@#$B#g" >"$T/site/$1"
}

# routes JSON: the server's special answers.
routes() {
	printf '%s\n' "$1" | sed "s#@B@#$B#g" >"$T/site/_routes.json"
}

# requested PATH: how many times the site was asked for PATH.
requested() {
	grep -c " $1\$" "$T/site/_requests.log" || :
}

urls() {
	jq -r 'select(.error == null) | .url'
}

@test "urlmap: a sitemap index with nested gzip sitemaps, lastmod kept, image:loc not taken" {
	put robots.txt <<'EOF'
User-agent: *
Allow: /
Sitemap: @B@/maps/index.xml
EOF
	put maps/index.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>@B@/maps/a.xml.gz</loc><lastmod>2026-10-01</lastmod></sitemap>
  <sitemap><loc>@B@/maps/nested.xml</loc></sitemap>
</sitemapindex>
EOF
	put maps/a.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>@B@/docs/a</loc><lastmod>2026-09-01</lastmod>
    <image:image><image:loc>@B@/img/a.png</image:loc></image:image></url>
  <url><loc> @B@/docs/b </loc><lastmod>2026-11-02T10:00:00+01:00</lastmod></url>
</urlset>
EOF
	gzip "$T/site/maps/a.xml"
	put maps/nested.xml <<'EOF'
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>@B@/maps/c.xml</loc></sitemap>
</sitemapindex>
EOF
	put maps/c.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>@B@/docs/c</loc></url></urlset>
EOF
	run -0 --separate-stderr urlmap --compact "$B/"
	[ "${#lines[@]}" -eq 3 ]
	[ "$(printf '%s\n' "$output" | jq -c '[.url,.via,.depth,.lastmod]' | tr '\n' ' ')" = \
	    "[\"$B/docs/a\",\"sitemap\",2,\"2026-09-01T00:00:00Z\"] [\"$B/docs/b\",\"sitemap\",2,\"2026-11-02T09:00:00Z\"] [\"$B/docs/c\",\"sitemap\",3,null] " ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -r '.from + " " + .type + " " + .display')" = \
	    "$B/maps/a.xml.gz documentation 127.0.0.1/docs/a" ]
}

@test "urlmap: URLs normalised and de-duplicated across sources (case, port, fragment, index.html, utm_*)" {
	put sitemap.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>@B@/docs/index.html</loc></url>
<url><loc>@B@/docs/#intro</loc></url>
<url><loc>@B@/p?utm_source=x&amp;id=3&amp;fbclid=y</loc></url>
<url><loc>@B@/p?id=3</loc></url>
</urlset>
EOF
	sed -i "s#http://127.0.0.1:#HTTP://127.0.0.1:#" "$T/site/sitemap.xml"
	printf -- '- [Docs](/docs/)\n- [P](%s/p?id=3#x)\n' "$B" >"$T/site/llms.txt"
	run -0 --separate-stderr urlmap -u "$B/"
	[ "$output" = "$(printf '%s\n' "$B/docs/" "$B/p?id=3")" ]
}

@test "urlmap: --since keeps URLs changed since the date and skips older child sitemaps" {
	put sitemap.xml <<'EOF'
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>@B@/old.xml</loc><lastmod>2020-01-01</lastmod></sitemap>
  <sitemap><loc>@B@/new.xml</loc><lastmod>2026-11-01</lastmod></sitemap>
</sitemapindex>
EOF
	put old.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>@B@/o</loc><lastmod>2020-01-01</lastmod></url></urlset>
EOF
	put new.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>@B@/n1</loc><lastmod>2026-10-31</lastmod></url>
<url><loc>@B@/n2</loc><lastmod>2026-11-01T08:00:00Z</lastmod></url>
<url><loc>@B@/n3</loc></url>
</urlset>
EOF
	run -0 --separate-stderr urlmap -u --since 2026-11-01 "$B/"
	[ "$output" = "$B/n2" ]
	[ "$(requested /old.xml)" -eq 0 ]
	[ "$(requested /new.xml)" -eq 1 ]
	run -2 --separate-stderr urlmap --since yesterday "$B/"
	[[ $stderr == "urlmap: --since: not a date"* ]]
}

@test "urlmap: malformed XML is an error record with its line; entries before it are kept" {
	put sitemap.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>@B@/good</loc></url>
<url><loc>@B@/bad</url>
</urlset>
EOF
	run -1 --separate-stderr urlmap --compact --no-llms "$B/"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -r .url)" = "$B/good" ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r '.url + " " + .via')" = "$B/sitemap.xml sitemap" ]
	[[ "$(printf '%s\n' "${lines[1]}" | jq -r .error)" == "sitemap: not well-formed XML at line 3: mismatched tag" ]]
}

@test "urlmap: a 53 MB sitemap and a gzip bomb are refused at the cap (-s), in bounded memory" {
	python3 - "$T/site" "$B" <<'EOF'
import gzip, sys
d, b = sys.argv[1], sys.argv[2]
entry = ('<url><loc>%s/page/%%08d</loc></url>\n' % b)
with open(d + "/big.xml", "w") as f:
    f.write('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
    n = 0
    while f.tell() < 53 * 1000 * 1000:
        f.write(entry % n)
        n += 1
    f.write('</urlset>\n')
with gzip.open(d + "/bomb.xml.gz", "wb", 9) as f:
    f.write(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--')
    z = b"x" * (1 << 20)
    for i in range(200):
        f.write(z)
    f.write(b'--></urlset>')
EOF
	printf 'Sitemap: %s/big.xml\nSitemap: %s/bomb.xml.gz\n' "$B" "$B" >"$T/site/robots.txt"
	page index.html
	run -1 --separate-stderr /usr/bin/time -f '%M' -o "$T/rss" \
	    urlmap --compact --no-llms "$B/"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.error) | .url' | tr '\n' ' ')" = "$B/big.xml $B/bomb.xml.gz " ]
	[ "$(printf '%s\n' "$output" | jq -r '.error' | tr '\n' '|')" = \
	    "body larger than 50 MiB|sitemap: over 52428800 bytes uncompressed|" ]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.error == null)' | wc -l)" -eq 0 ]
	# Peak RSS in KiB: the 50 MiB transfer cap bounds it (in the plain
	# build: the sanitizers' shadow memory and quarantine add to it).
	sanitized || [ "$(tail -n 1 "$T/rss")" -lt 150000 ]
	# The same sitemap with a larger cap: every URL, up to --limit.
	run -0 --separate-stderr urlmap -u -s 60M --limit 1000 --no-llms "$B/big.xml"
	[ "${#lines[@]}" -eq 1000 ]
	[ "${lines[999]}" = "$B/page/00000999" ]
}

@test "urlmap: RSS, Atom and JSON Feed, found by rel=alternate on the start page" {
	put index.html <<'EOF'
<html><head><title>Home</title>
<link rel="alternate" type="application/rss+xml" href="/f.rss">
<link rel="alternate" type="application/atom+xml" href="f.atom">
<link rel="alternate" type="application/feed+json" href="@B@/f.json">
<link rel="stylesheet" href="/s.css">
</head><body></body></html>
EOF
	put f.rss <<'EOF'
<?xml version="1.0"?>
<rss version="2.0"><channel><title>T</title><link>@B@/</link>
<item><title>R &amp; one</title><link>@B@/r1</link><pubDate>Sun, 01 Nov 2026 12:00:00 +0100</pubDate></item>
<item><title>R two</title><link>/r2</link></item>
</channel></rss>
EOF
	put f.atom <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
<link href="@B@/"/>
<entry><title>Atom one</title><link rel="edit" href="@B@/edit/1"/><link href="@B@/a1"/><updated>2026-11-03T00:00:00Z</updated></entry>
</feed>
EOF
	put f.json <<'EOF'
{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[
 {"id":"1","url":"@B@/j1","title":"Json one","date_published":"2026-11-04T00:00:00Z"},
 {"id":"2","external_url":"@B@/j2"}]}
EOF
	run -0 --separate-stderr urlmap --compact --no-sitemaps --no-llms "$B/"
	[ "$(printf '%s\n' "$output" | jq -c '[.url,.via,.title,.lastmod]' | tr '\n' ' ')" = \
	    "[\"$B/r1\",\"feed\",\"R & one\",\"2026-11-01T11:00:00Z\"] [\"$B/r2\",\"feed\",\"R two\",null] [\"$B/a1\",\"feed\",\"Atom one\",\"2026-11-03T00:00:00Z\"] [\"$B/j1\",\"feed\",\"Json one\",\"2026-11-04T00:00:00Z\"] [\"$B/j2\",\"feed\",null,null] " ]
	# A feed given directly.
	run -0 --separate-stderr urlmap -u "$B/f.atom"
	[ "$output" = "$B/a1" ]
}

@test "urlmap: a broken feed is an error record, the others are read" {
	put index.html <<'EOF'
<html><head>
<link rel="alternate" type="application/rss+xml" href="/broken.rss">
<link rel="alternate" type="application/rss+xml" href="/missing.rss">
<link rel="alternate" type="application/feed+json" href="/f.json">
</head></html>
EOF
	printf '<rss><channel><item><link>%s/x</link></item>' "$B" >"$T/site/broken.rss"
	printf '{"version":"1","items":[{"url":"%s/j"}]}' "$B" >"$T/site/f.json"
	run -1 --separate-stderr urlmap --compact --no-sitemaps --no-llms "$B/"
	[ "$(printf '%s\n' "$output" | jq -r '[.url, .error // "-"] | join(" ")' | tr '\n' '|')" = \
	    "$B/x -|$B/broken.rss feed: not well-formed XML at line 1: no element found|$B/missing.rss HTTP 404|$B/j -|" ]
}

@test "urlmap: llms.txt links in order with their titles; code is not links" {
	put llms.txt <<'EOF'
# Project

> What it is.

## Docs

- [Quick start](/docs/start.md): begin here
- [API [v2]](@B@/docs/api.md "the API")
- ![logo](/logo.png)

```
[not](/a-link)
```
See `[nor](/this)` and [the FAQ](<faq page.md>).
EOF
	run -0 --separate-stderr urlmap --compact --no-sitemaps "$B/"
	[ "$(printf '%s\n' "$output" | jq -r '[.url,.via,.title,.from] | join(" ")' | tr '\n' '|')" = \
	    "$B/docs/start.md llms.txt Quick start $B/llms.txt|$B/docs/api.md llms.txt API [v2] $B/llms.txt|$B/faq%20page.md llms.txt the FAQ $B/llms.txt|" ]
}

@test "urlmap: robots.txt Sitemap lines, its rules for urlmap's agent, refusals counted on stderr" {
	put robots.txt <<'EOF'
User-agent: *
Disallow: /

User-agent: urlmap
Disallow: /private/
Allow: /private/ok$
Crawl-delay: 0.01
Sitemap: @B@/s.xml
EOF
	page index.html
	put s.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>@B@/public</loc></url>
<url><loc>@B@/private/no</loc></url>
<url><loc>@B@/private/ok</loc></url>
<url><loc>@B@/private/ok2</loc></url>
</urlset>
EOF
	run -0 --separate-stderr urlmap -u --no-llms "$B/"
	[ "$output" = "$(printf '%s\n' "$B/public" "$B/private/ok")" ]
	[ "$stderr" = "urlmap: 2 URLs refused by robots.txt" ]
	run -0 --separate-stderr urlmap -u --no-llms --ignore-robots "$B/"
	[ "${#lines[@]}" -eq 4 ]
	[ -z "$stderr" ]
}

@test "urlmap: a robots.txt answered 404 allows all, 500 disallows all" {
	put sitemap.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>@B@/a</loc></url></urlset>
EOF
	run -0 --separate-stderr urlmap -u --no-llms "$B/"
	[ "$output" = "$B/a" ]
	routes '{"/robots.txt": {"status": 500, "body": "broken"}}'
	: >"$T/site/_requests.log"
	run -1 --separate-stderr urlmap -C --compact "$B/"
	[ "$(printf '%s\n' "$output" | jq -r '.url + " " + .error')" = "$B/ disallowed by robots.txt" ]
	# Nothing but robots.txt was asked for.
	[ "$(cat "$T/site/_requests.log" | wc -l)" -eq 1 ]
	[ "$(requested /robots.txt)" -eq 1 ]
}

@test "urlmap: --crawl follows links breadth first through loops, each page fetched once" {
	page index.html '<a href="/a.html">a</a> <a href="b.html#x">b</a>'
	page a.html '<a href="/">home</a> <a href="/b.html">b</a> <a href="/c.html">c</a>'
	page b.html '<a href="/a.html">a</a> <a href="/index.html">home</a>'
	page c.html '<a href="/d.html">d</a> <a href="/c.html">self</a>'
	page d.html '<a href="/e.html">e</a>'
	run -0 --separate-stderr urlmap --compact --crawl -W 0 --depth 2 \
	    --no-sitemaps --no-llms "$B/"
	[ "$(printf '%s\n' "$output" | jq -r '[.url,.depth,.from // "-"] | join(" ")' | tr '\n' '|')" = \
	    "$B/ 0 -|$B/a.html 1 $B/|$B/b.html 1 $B/|$B/c.html 2 $B/a.html|" ]
	[ "$(printf '%s\n' "${lines[0]}" | jq -r '.via + " " + .title')" = "link index.html" ]
	[ "$(requested /a.html)" -eq 1 ]
	[ "$(requested /b.html)" -eq 1 ]
	[ "$(requested /c.html)" -eq 0 ]
	[ "$(requested /index.html)" -eq 0 ]
}

@test "urlmap: --limit is exact and counted after --include and --exclude" {
	page index.html '<a href="/blog/1">1</a> <a href="/docs/1">d1</a> <a href="/docs/2">d2</a> <a href="/docs/skip/3">s</a> <a href="/docs/4">d4</a> <a href="/docs/5">d5</a>'
	run -0 --separate-stderr urlmap -u --crawl -W 0 --no-sitemaps --no-llms \
	    -I '/docs/*' -X '/docs/skip/*' --limit 3 "$B/"
	[ "$output" = "$(printf '%s\n' "$B/docs/1" "$B/docs/2" "$B/docs/4")" ]
}

@test "urlmap: same host by default; --subdomains and --any-host widen it" {
	page index.html '<a href="http://localhost:'"$S_PORT"'/x">other host</a> <a href="/y">y</a>'
	run -0 --separate-stderr urlmap -u --crawl -W 0 --depth 1 --no-sitemaps --no-llms "$B/"
	[ "$output" = "$(printf '%s\n' "$B/" "$B/y")" ]
	run -0 --separate-stderr urlmap -u --crawl -W 0 --depth 1 --no-sitemaps --no-llms --any-host "$B/"
	[ "$output" = "$(printf '%s\n' "$B/" "http://localhost:$S_PORT/x" "$B/y")" ]
}

@test "urlmap: rel=nofollow links and meta robots nofollow pages are not followed" {
	page index.html '<a href="/a.html">a</a> <a rel="nofollow" href="/n.html">n</a> <a href="/m.html">m</a>'
	page a.html '<a href="/from-a">x</a>'
	printf '<html><head><meta name="robots" content="noindex, nofollow"></head><body><a href="/from-m">x</a></body></html>' >"$T/site/m.html"
	run -0 --separate-stderr urlmap -u --crawl -W 0 --no-sitemaps --no-llms "$B/"
	[ "$output" = "$(printf '%s\n' "$B/" "$B/a.html" "$B/m.html" "$B/from-a")" ]
	[ "$(requested /n.html)" -eq 0 ]
}

@test "urlmap: a page with 10,000 links gives 10,000 records" {
	python3 -c '
import sys
print("<html><body>" + "".join("<a href=\"/p/%d\">%d</a>" % (i, i) for i in range(10000)) + "</body></html>")' >"$T/site/index.html"
	run -0 --separate-stderr urlmap -u --crawl -W 0 --depth 1 --no-sitemaps --no-llms "$B/"
	[ "${#lines[@]}" -eq 10001 ]
	[ "${lines[10000]}" = "$B/p/9999" ]
}

@test "urlmap: --max-memory stops the run with an error record" {
	python3 -c '
print("<html><body>" + "".join("<a href=\"/p/%d\">%d</a>" % (i, i) for i in range(5000)) + "</body></html>")' >"$T/site/index.html"
	run -1 --separate-stderr urlmap --compact --crawl -W 0 --depth 1 --no-sitemaps --no-llms --max-memory 64K "$B/"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.error) | .error')" = "the seen set and the frontier reached 65536 bytes (--max-memory)" ]
	n=$(printf '%s\n' "$output" | jq -r 'select(.error == null) | .url' | wc -l)
	[ "$n" -gt 100 ] && [ "$n" -lt 5000 ]
}

@test "urlmap: --delay and Crawl-delay space the requests to one host (server's timestamps)" {
	page index.html '<a href="/1">1</a> <a href="/2">2</a> <a href="/3">3</a>'
	for i in 1 2 3; do page $i; done
	run -0 --separate-stderr urlmap -u --crawl -W 0.3 --no-sitemaps --no-llms "$B/"
	[ "${#lines[@]}" -eq 4 ]
	# Each request at least 0.3 s after the one before (robots.txt, /, 1-3).
	awk 'NR > 1 { if ($1 - t < 0.29) { print "gap " $1 - t; exit 1 } } { t = $1 }' \
	    "$T/site/_requests.log"
	[ "$(wc -l <"$T/site/_requests.log")" -eq 5 ]
	printf 'User-agent: *\nCrawl-delay: 0.4\n' >"$T/site/robots.txt"
	: >"$T/site/_requests.log"
	run -0 --separate-stderr urlmap -C -u --crawl -W 0 --no-sitemaps --no-llms "$B/"
	[ "$(wc -l <"$T/site/_requests.log")" -eq 5 ]
	awk 'NR > 1 { if ($1 - t < 0.39) { print "gap " $1 - t; exit 1 } } { t = $1 }' \
	    "$T/site/_requests.log"
}

@test "urlmap: a slow host is waited for within -t; past it, an error record" {
	routes '{"/": {"body": "<html><a href=\"/x\">x</a></html>", "delay": 0.5}}'
	run -0 --separate-stderr urlmap -u --crawl -W 0 --no-sitemaps --no-llms -t 5 "$B/"
	[ "$output" = "$(printf '%s\n' "$B/" "$B/x")" ]
	run -1 --separate-stderr urlmap -C --compact --crawl -W 0 --no-sitemaps --no-llms -t 0.2 "$B/"
	[[ "$(printf '%s\n' "$output" | jq -r .error)" == *"imed out"* ]]
}

@test "security urlmap: redirects into 127.0.0.2 and ::1 are refused, 127.0.0.1 allowed" {
	start_server P python3 "$TOP/tests/helpers/addr_server.py" 127.0.0.2
	routes '{"/in": {"location": "http://127.0.0.2:'"$P_PORT"'/secret"},
	  "/in6": {"location": "http://[::1]:'"$P_PORT"'/secret"},
	  "/ok": {"location": "@B@/fine.html"}}'
	page index.html '<a href="/in">in</a> <a href="/in6">in6</a> <a href="/ok">ok</a>'
	page fine.html '<a href="after-redirect">a</a>'
	run -0 --separate-stderr urlmap -u --crawl -W 0 --no-sitemaps --no-llms "$B/"
	# Listed (they are links of the page), never followed.
	[ "$output" = "$(printf '%s\n' "$B/" "$B/in" "$B/in6" "$B/ok" "$B/after-redirect")" ]
	[ "$(grep -c '^conn ' "$T/P.log")" -eq 0 ]
	# A start URL that redirects there is an error record.
	run -1 --separate-stderr urlmap --compact "$B/in"
	[[ "$(printf '%s\n' "${lines[0]}" | jq -r .error)" == *"127.0.0.2"* ]]
	[ "$(grep -c '^conn ' "$T/P.log")" -eq 0 ]
	# A sitemap whose entries name the internal host: out of scope.
	put sitemap.xml <<EOF
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://127.0.0.2:$P_PORT/x</loc></url></urlset>
EOF
	run -0 --separate-stderr urlmap -u --no-llms "$B/"
	[ -z "$output" ]
}

@test "urlmap: url records and bare URLs on stdin and -i; bad lines are error records" {
	put sitemap.xml <<'EOF'
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>@B@/a</loc></url></urlset>
EOF
	printf '{"url":"%s/"}\nnot json {\n' "$B" >"$T/in"
	run -1 --separate-stderr urlmap --compact --no-llms -i "$T/in"
	[ "$(printf '%s\n' "${lines[0]}" | jq -r .url)" = "$B/a" ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r '.tool + " " + (.line|tostring)')" = "urlmap 2" ]
	run -1 --separate-stderr urlmap --compact "$T/in"
	[ "$(printf '%s\n' "$output" | jq -r .error)" = "not a URL: '$T/in' (to read records from a file, use -i $T/in)" ]
	run -1 --separate-stderr urlmap --compact "ftp://example.org/"
	[ "$(printf '%s\n' "$output" | jq -r .error)" = "not an http(s) URL" ]
}

@test "urlmap: usage errors exit 2" {
	run -2 --separate-stderr urlmap --depth x "$B/"
	[[ $stderr == "urlmap: --depth: not a count"* ]]
	run -2 --separate-stderr urlmap --limit -1 "$B/"
	run -2 --separate-stderr urlmap -W soon "$B/"
	run -2 --separate-stderr urlmap --bogus
	run -0 urlmap -h
	[[ ${lines[0]} == "usage: urlmap "* ]]
}

@test "urlmap: its records go into urlfetch unchanged" {
	page index.html '<a href="/a.html">a</a>'
	page a.html 'The page a has some text for the extractor to keep.'
	run -0 --separate-stderr sh -c "urlmap --crawl -W 0 --no-sitemaps --no-llms '$B/' | urlfetch -P -C"
	[ "${#lines[@]}" -eq 2 ]
	[ "$(printf '%s\n' "${lines[1]}" | jq -r '.url + " " + .title')" = "$B/a.html a.html" ]
}

@test "urlmap: the progress line (forced on with URLKIT_PROGRESS=1), off with -q" {
	page index.html '<a href="/a">a</a>'
	URLKIT_PROGRESS=1 run -0 --separate-stderr urlmap -u --crawl -W 0 --no-sitemaps --no-llms "$B/"
	[[ $stderr == *"urlmap: "*" URLs, "*" requests, "*" pages"* ]]
	URLKIT_PROGRESS=1 run -0 --separate-stderr urlmap -q -u --crawl -W 0 --no-sitemaps --no-llms "$B/"
	[ -z "$stderr" ]
}

@test "urlmap: a re-run with the cache warm makes no request; -C makes them all" {
	printf 'User-agent: *\nSitemap: %s/s.xml.gz\n' "$B" >"$T/site/robots.txt"
	printf '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc></url></urlset>' "$B" |
	    gzip >"$T/site/s.xml.gz"
	page index.html '<a href="/b.html">b</a>'
	page b.html '<a href="/c">c</a>'
	printf -- '- [L](/l)\n' >"$T/site/llms.txt"
	run -0 --separate-stderr urlmap -u --crawl -W 0 "$B/"
	first=$output
	[ "${#lines[@]}" -eq 5 ]
	n=$(wc -l <"$T/site/_requests.log")
	[ "$n" -eq 7 ]
	run -0 --separate-stderr urlmap -u --crawl -W 0 "$B/"
	[ "$output" = "$first" ]
	[ "$(wc -l <"$T/site/_requests.log")" -eq "$n" ]
	# The entries are urlmap's own: urlfetch's key for the page is free.
	[ "$(urlcache list | jq -r .url | grep -c '#urlmap$')" -ge 5 ]
	run -0 --separate-stderr urlmap -C -u --crawl -W 0 "$B/"
	[ "$output" = "$first" ]
	[ "$(wc -l <"$T/site/_requests.log")" -eq $((2 * n)) ]
}
