#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Repositories by the archive route: a real git repository made here,
# served as GitHub-style tar.gz archives by a loopback server.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

setup_file() {
	make_repo "$BATS_FILE_TMPDIR/src"
	serve_repo "$BATS_FILE_TMPDIR/src" "$BATS_FILE_TMPDIR/srv"
}

setup() {
	repo_setup
}

teardown() {
	common_teardown
}

@test "the archive route chooses README.rst when it is the only README" {
	run -0 "$REPO" https://github.com/acme/tool
	[ "$(jq -r .github_info.readme_file <<<"$output")" = README.rst ]
	[ "$(jq -r .github_info.route <<<"$output")" = archive ]
	jq -e '.readme | startswith("Tool\n====")' <<<"$output"
	[ "$(jq -r .description <<<"$output")" = \
	    "Tool turns widgets into gadgets, quickly and safely." ]
	[ "$(jq -r .title <<<"$output")" = acme/tool ]
}

@test "README priority: md before rst, txt and plain (branch from the URL)" {
	run -0 "$REPO" https://github.com/acme/tool/tree/dev
	[ "$(jq -r .github_info.readme_file <<<"$output")" = README.md ]
	[ "$(jq -r .readme <<<"$output")" = "Dev readme in markdown." ]
	grep -q 'GET /acme/tool/tar.gz/dev' "$T/requests.log"
}

@test "the files indexed exclude hidden dirs, node_modules, links, minified and huge files" {
	run -0 "$REPO" -J https://github.com/acme/tool
	files=$(jq -r '[.symbols[].file] | unique | join(" ")' <<<"$output")
	[ "$files" = "app/jobs.py app/main.py core/util.py lib/engine.go src/Main.java src/lib.rs src/main.c tools/task.rb web/format.js web/page.js" ]
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 10 ]
	[ "$(jq -r .github_info.files_skipped <<<"$output")" = 2 ]
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -q helper_function "$T/map"
	run -1 grep -e hidden_secret -e nodeModulesFunction -e minifiedThing \
	    -e huge_generated -e evil_link -e escape "$T/map"
}

@test "the top-ranked file of the map is the most referenced one" {
	run -0 "$REPO" -J https://github.com/acme/tool
	[ "$(jq -r .github_info.top_file <<<"$output")" = core/util.py ]
	[ "$(jq -r '.symbol_map | split("\n") | map(select(endswith(":")))[0]' <<<"$output")" = core/util.py: ]
	[ "$(jq -r '.symbols[0].file + " " + .symbols[0].name' <<<"$output")" = \
	    "core/util.py helper_function" ]
	jq -e '.symbols[0] | .kind == "function" and .line == 1 and (.rank > 0)' \
	    <<<"$output"
	jq -e '[.symbols[] | select(.name == "formatDate")][0].doc == "Formats a date for display."' \
	    <<<"$output"
}

@test "the map holds its token budget; map_tokens counts it in cl100k_base; 0 parses nothing" {
	for budget in 0 20 45 80 1024; do
		run -0 "$REPO" -t "$budget" https://github.com/acme/tool
		jq -j '.symbol_map // ""' <<<"$output" >"$T/map"
		tokens=$("$TOKENS" cl100k_base "$T/map")
		[ "$tokens" -le "$budget" ]
		[ "$(jq -r .github_info.map_tokens <<<"$output")" = "$tokens" ]
		[ "$(jq -r .github_info.tokenizer <<<"$output")" = cl100k_base ]
	done
	run -0 "$REPO" -t 0 https://github.com/acme/tool
	jq -e 'has("symbol_map") | not' <<<"$output"
	[ "$(jq -r .github_info.files_indexed <<<"$output")" = 0 ]
	[ "$(jq -r .github_info.readme_file <<<"$output")" = README.rst ]
}

@test "a redirect to the archive is followed" {
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$srv_PORT/moved"
	run -0 "$REPO" https://github.com/acme/tool
	[ "$(jq -r .github_info.top_file <<<"$output")" = core/util.py ]
}

@test "the token goes to the archive host" {
	export URLKIT_GITHUB_TOKEN=sekrit
	run -0 "$REPO" https://github.com/acme/tool
	grep -q 'GET /acme/tool/tar.gz/HEAD Bearer sekrit' "$T/requests.log"
}

@test "a missing repository is an error record" {
	run -1 "$REPO" https://github.com/acme/nothing
	jq -e '.error | test("404")' <<<"$output"
	jq -e 'has("readme") | not' <<<"$output"
}

@test "a hung archive server ends at the time limit with an error record" {
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$srv_PORT/hang"
	run -1 "$REPO" -T 1 https://github.com/acme/tool
	jq -e '.error | test("time limit of 1s")' <<<"$output"
}

@test "an entry leaving the repository is refused" {
	mkdir -p "$T/srv/archives/acme/evil"
	python3 - "$T/srv/archives/acme/evil/HEAD.tar.gz" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    for name, data in (("evil-1/README.md", b"hi\n"), ("evil-1/../../x.py", b"def x(): pass\n")):
        i = tarfile.TarInfo(name)
        i.size = len(data)
        t.addfile(i, io.BytesIO(data))
PY
	run -1 "$REPO" https://github.com/acme/evil
	jq -e '.error | test("leaves the repository: refused")' <<<"$output"
	python3 - "$T/srv/archives/acme/evil/HEAD.tar.gz" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    i = tarfile.TarInfo("/etc/x.py")
    t.addfile(i, io.BytesIO(b""))
PY
	run -1 "$REPO" https://github.com/acme/evil
	jq -e '.error | test("absolute path: refused")' <<<"$output"
}

@test "size and file-count caps stop the snapshot, which is kept, truncated" {
	run -0 "$REPO" -S 100K https://github.com/acme/tool
	jq -e '.truncated and (.truncated_reason | test("larger than 102400 bytes"))' \
	    <<<"$output"
	run -0 "$REPO" -F 5 https://github.com/acme/tool
	jq -e '.truncated and (.truncated_reason | test("more than 5 files"))' \
	    <<<"$output"
}

@test "loopback is refused without URLKIT_ALLOW_PRIVATE" {
	unset URLKIT_ALLOW_PRIVATE
	run -1 "$REPO" https://github.com/acme/tool
	jq -e '.error | test("refused")' <<<"$output"
}

@test "progress: archive bytes and files kept, then every file indexed" {
	run -0 --separate-stderr "$REPO" -P https://github.com/acme/tool
	run -0 progress_ok "$output"
	[ "$output" = received ]
	run -0 --separate-stderr "$REPO" https://github.com/acme/tool
	[ -z "$stderr" ]
}
