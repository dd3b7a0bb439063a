#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlsum and the cache: summaries answered from cache entries, and new ones
# written back in place (lib/cache.h's uk_cache_update_summary).
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/urlsum

setup() {
	common_setup
	SUM="$FIXTURES/sum"
	unset URLKIT_LLM_URL URLKIT_LLM_MODEL URLKIT_LLM_KEY OPENAI_API_KEY
	URL=https://blog.example.com/2026/build-cache
}
teardown() { common_teardown; }

# entry URL JQ-FILTER: write the cache entry of URL (lib/cache.h's layout:
# DIR/KK/KEY.json, KEY the first 16 hex digits of SHA-256 of the URL) from
# the web fixture, changed by the filter.
entry_path() {
	local key
	key=$(printf '%s' "$1" | sha256sum | cut -c1-16)
	printf '%s/%s/%s.json\n' "$URLKIT_CACHE_DIR" "${key:0:2}" "$key"
}
entry() {
	local p
	p=$(entry_path "$1")
	mkdir -p "$(dirname "$p")"
	jq -c "$2 | . + {cached_at: \"2026-11-21T10:00:00.000Z\"}" "$SUM/web.json" >"$p"
}

@test "a cached summary of the type wanted makes no request" {
	llm normal
	entry "$URL" '. + {summary: "CACHED SUMMARY", summary_type: "BRIEF"}'
	run -0 urlsum --model m "$SUM/web.json"
	[ "$(requests)" -eq 0 ]
	[ "$(jq -r .summary <<<"$output")" = "CACHED SUMMARY" ]
	[ "$(jq -r .summary_type <<<"$output")" = BRIEF ]
	[ "$(jq -r .summary_backend <<<"$output")" = cache ]
	# --no-cache and --force ask the model.
	run -0 urlsum -C --model m "$SUM/web.json"
	[ "$(requests)" -eq 1 ]
	run -0 urlsum -r --model m "$SUM/web.json"
	[ "$(requests)" -eq 2 ]
}

@test "a new summary is written back into the entry in place" {
	llm normal
	entry "$URL" '.'
	p=$(entry_path "$URL")
	before=$(jq -S -c 'del(.summary, .summary_type)' "$p")
	run -0 urlsum --model m -y USAGE "$SUM/web.json"
	[ "$(requests)" -eq 1 ]
	[ "$(jq -r .summary_type "$p")" = USAGE ]
	[ "$(jq -r .summary "$p")" = "$(jq -r .summary <<<"$output")" ]
	# The source content is as it was.
	[ "$(jq -S -c 'del(.summary, .summary_type)' "$p")" = "$before" ]
	# The next run is answered from the entry.
	run -0 urlsum --model m -y USAGE "$SUM/web.json"
	[ "$(requests)" -eq 1 ]
	[ "$(jq -r .summary_backend <<<"$output")" = cache ]
	# Another type is asked for and replaces it.
	run -0 urlsum --model m -y API "$SUM/web.json"
	[ "$(requests)" -eq 2 ]
	[ "$(jq -r .summary_type "$p")" = API ]
}

@test "no entry: the model is asked and no entry is created" {
	llm normal
	run -0 urlsum --model m "$SUM/web.json"
	[ "$(requests)" -eq 1 ]
	[ ! -e "$(entry_path "$URL")" ]
}

@test "an expired entry's summary is not used, and the entry is kept" {
	llm normal
	entry "$URL" '. + {summary: "OLD", summary_type: "BRIEF"}'
	p=$(entry_path "$URL")
	touch -d '3 days ago' "$p"
	run -0 urlsum --model m "$SUM/web.json"
	[ "$(requests)" -eq 1 ]
	[ "$(jq -r .summary <<<"$output")" != OLD ]
	[ -e "$p" ]
}

@test "offline: a cached model summary is used, offline ones are not stored" {
	entry "$URL" '. + {summary: "FROM A MODEL", summary_type: "BRIEF"}'
	run -0 urlsum "$SUM/web.json"
	[ "$(jq -r .summary <<<"$output")" = "FROM A MODEL" ]
	run -0 urlsum -y USAGE "$SUM/web.json"
	[ "$(jq -r .summary_backend <<<"$output")" = offline ]
	[ "$(jq -r .summary_type "$(entry_path "$URL")")" = BRIEF ]
}

@test "a failed request leaves the entry alone" {
	llm 500
	entry "$URL" '.'
	p=$(entry_path "$URL")
	cp "$p" "$T/before"
	run -1 --separate-stderr urlsum --no-fallback --model m --retries 0 "$SUM/web.json"
	cmp "$p" "$T/before"
	# Nor does the offline summary in its place go into the entry.
	run -0 --separate-stderr urlsum --model m --retries 0 "$SUM/web.json"
	[ "$(jq -r .summary_backend <<<"$output")" = offline ]
	cmp "$p" "$T/before"
}
