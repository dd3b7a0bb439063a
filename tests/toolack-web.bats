#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# toolack's web frontend in real headless Chromium: the page subscribes,
# an open_url call arrives, a tab opens at the URL, the ack comes back.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/toolack

CHROMIUM=${URLKIT_CHROMIUM:-/usr/lib/chromium/chromium}

setup() {
	common_setup
	[ -x "$CHROMIUM" ] || skip "no chromium at $CHROMIUM"
	ta_start
	start_server PAGE python3 "$TOP/tests/helpers/toolack_page.py"
}

teardown() {
	common_teardown
}

# browser [--allow-popups]: headless Chromium on the frontend; sets DT_PORT.
browser() {
	mkdir -p "$T/chromium"
	python3 "$TOP/tests/helpers/toolack_chromium.py" launch "$T/chromium" \
	    "$TOOLACK_URL/?token=$TOKEN" "$@" >"$T/CH.port" 2>"$T/CH.log" &
	echo $! >"$T/CH.pid"
	wait_for 30 test -s "$T/CH.port" || { cat "$T/CH.log" >&2; return 1; }
	DT_PORT=$(head -n 1 "$T/CH.port")
}

# ch ARGS...: the Chromium helper.
ch() {
	python3 "$TOP/tests/helpers/toolack_chromium.py" "$@"
}

@test "web frontend: with no calls it says what it waits for and counts executors" {
	browser
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.body.dataset.connected === '1'" 10
	# The waiting line is shown (laid out, not hidden), and names the tool.
	run -0 ch eval "$DT_PORT" "$TOOLACK_URL/" "(() => { const e = document.getElementById('idle'); return !e.hidden && e.getBoundingClientRect().height > 0 ? e.textContent.replace(/\\s+/g, ' ').trim() : ''; })()"
	[[ $output == '"Waiting for open_url calls.'* ]]
	[[ $output == *"Allow pop-ups for this page"* ]]
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.getElementById('executors').textContent === '1 executor connected (this page)'" 10
	ch screenshot "$DT_PORT" "$TOOLACK_URL/" "$T/idle.png"
	run -0 python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 2000)' "$T/idle.png"
	[ "$output" = True ]
	# Another executor: the page counts it within its poll.
	ta_exec ex -H 'open_url=true'
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.getElementById('executors').textContent === '2 executors connected (this page and 1 other)'" 10
}

@test "web frontend: open_url opens a new tab at the URL and acks success" {
	url="http://127.0.0.1:$PAGE_PORT/opened?n=1"
	# Dispatched before the page is even loaded: it waits for it.
	toolack call -t 30 --tool open_url <<<"$url" >"$T/out" 2>"$T/err" &
	cpid=$!
	browser --allow-popups
	rc=0
	wait "$cpid" || rc=$?
	[ "$rc" -eq 0 ]
	[ "$(jq -r .status "$T/out")" = success ]
	[ "$(jq -r .output.url "$T/out")" = "$url" ]
	[ "$(jq -r .errorText "$T/out")" = null ]
	python3 "$TOP/tests/helpers/toolack_chromium.py" wait-target "$DT_PORT" "$url" 10
	# A second call on the live page.
	run -0 --separate-stderr toolack call -t 30 --tool open_url <<<"http://127.0.0.1:$PAGE_PORT/second"
	[ "$(jq -r .status <<<"$output")" = success ]
	python3 "$TOP/tests/helpers/toolack_chromium.py" wait-target "$DT_PORT" "http://127.0.0.1:$PAGE_PORT/second" 10
	[ "$(ta_pending)" = 0 ]
}

# blocked_card ID: wait until call ID's card shows its pop-up blocked,
# with the Open and Dismiss buttons and the line asking to allow pop-ups
# laid out on the page.
blocked_card() {
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "(() => { const c = document.querySelector('.card[data-id=\"$1\"]'); if (!c || c.dataset.state !== 'blocked') return false; const ask = c.querySelector('.ask'), o = c.querySelector('button.open'), d = c.querySelector('button.dismiss'); return !!(ask && o && d && ask.getBoundingClientRect().height > 0 && o.getBoundingClientRect().width > 0 && ask.textContent.includes('Allow pop-ups for this page')); })()" 10
}

@test "web frontend: a blocked pop-up waits for Open, then fails when the call's time is out" {
	browser
	url="http://127.0.0.1:$PAGE_PORT/blocked"
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.body.dataset.connected === '1'" 10
	start=$SECONDS
	echo "{\"type\":\"open_url\",\"id\":\"b1\",\"parameters\":{\"url\":\"$url\"},\"timeoutSec\":8}" |
	    toolack call >"$T/out" 2>"$T/err" &
	cpid=$!
	blocked_card b1
	# Not acked at once: the user may still click Open.
	[ "$(ta_pending)" = 1 ]
	# The waiting line is gone once a call is on the page.
	run -0 ch eval "$DT_PORT" "$TOOLACK_URL/" "document.getElementById('idle').getBoundingClientRect().height"
	[ "$output" = 0 ]
	ch screenshot "$DT_PORT" "$TOOLACK_URL/" "$T/blocked.png"
	run -0 python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 2000)' "$T/blocked.png"
	[ "$output" = True ]
	rc=0
	wait "$cpid" || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(jq -r .status "$T/out")" = failed ]
	[ "$(jq -r .errorText "$T/out")" = "pop-up blocked and not opened" ]
	# Acked by the page before the server's own timeout.
	[ $((SECONDS - start)) -ge 5 ]
	run -0 ch targets "$DT_PORT"
	[[ $output != *"/blocked"* ]]
	[ "$(ta_pending)" = 0 ]
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.querySelector('.card[data-id=\"b1\"]').dataset.state === 'failed' && !document.querySelector('.card[data-id=\"b1\"] .ask')" 5
}

@test "web frontend: Open on a blocked pop-up opens the tab and acks success" {
	browser
	url="http://127.0.0.1:$PAGE_PORT/clicked"
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.body.dataset.connected === '1'" 10
	echo "{\"type\":\"open_url\",\"id\":\"b2\",\"parameters\":{\"url\":\"$url\"},\"timeoutSec\":30}" |
	    toolack call >"$T/out" 2>"$T/err" &
	cpid=$!
	blocked_card b2
	[ "$(ta_pending)" = 1 ]
	# The click a user makes (a user gesture: the blocker lets it open).
	run -0 ch eval "$DT_PORT" "$TOOLACK_URL/" "document.querySelector('.card[data-id=\"b2\"] button.open').click()" --gesture
	rc=0
	wait "$cpid" || rc=$?
	[ "$rc" -eq 0 ]
	[ "$(jq -r .status "$T/out")" = success ]
	[ "$(jq -r .output.url "$T/out")" = "$url" ]
	ch wait-target "$DT_PORT" "$url" 10
	[ "$(ta_pending)" = 0 ]
}

@test "web frontend: Dismiss on a blocked pop-up acks failed at once" {
	browser
	url="http://127.0.0.1:$PAGE_PORT/dismissed"
	ch wait-eval "$DT_PORT" "$TOOLACK_URL/" "document.body.dataset.connected === '1'" 10
	echo "{\"type\":\"open_url\",\"id\":\"b3\",\"parameters\":{\"url\":\"$url\"},\"timeoutSec\":30}" |
	    toolack call >"$T/out" 2>"$T/err" &
	cpid=$!
	blocked_card b3
	start=$SECONDS
	run -0 ch eval "$DT_PORT" "$TOOLACK_URL/" "document.querySelector('.card[data-id=\"b3\"] button.dismiss').click()" --gesture
	rc=0
	wait "$cpid" || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(jq -r .status "$T/out")" = failed ]
	[ "$(jq -r .errorText "$T/out")" = "pop-up blocked and dismissed" ]
	[ $((SECONDS - start)) -lt 10 ]
	run -0 ch targets "$DT_PORT"
	[[ $output != *"/dismissed"* ]]
	[ "$(ta_pending)" = 0 ]
}

@test "web frontend: a reload loses no call and runs none twice" {
	browser --allow-popups
	ch="python3 $TOP/tests/helpers/toolack_chromium.py"
	first="http://127.0.0.1:$PAGE_PORT/before"
	run -0 --separate-stderr toolack call -t 30 --tool open_url <<<"$first"
	[ "$(jq -r .status <<<"$output")" = success ]
	# Reload the page and dispatch while it is reloading.
	$ch reload "$DT_PORT" "$TOOLACK_URL/"
	run -0 --separate-stderr toolack call -t 30 --tool open_url <<<"http://127.0.0.1:$PAGE_PORT/during"
	[ "$(jq -r .status <<<"$output")" = success ]
	$ch wait-target "$DT_PORT" "http://127.0.0.1:$PAGE_PORT/during" 10
	# The call made before the reload was not run again by the new page.
	[ "$($ch count "$DT_PORT" "$first")" = 1 ]
	[ "$($ch count "$DT_PORT" "http://127.0.0.1:$PAGE_PORT/during")" = 1 ]
	[ "$(ta_pending)" = 0 ]
}
