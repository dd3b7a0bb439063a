#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The tag cache (lib/symcache.h): a repository fetched again parses only
# the files that changed; a corrupt entry is ignored and the files are
# parsed again; -c keeps nothing.  And the files that only give evidence
# (tests, examples) are lexed, not parsed.  github_info's files_parsed,
# files_lexed and files_cached say which.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

# A small repository: a core of three languages and tests that call it.
make_tree() {
	local d=$1
	mkdir -p "$d/core" "$d/app" "$d/tests" "$d/pkg"
	cat >"$d/core/engine.py" <<'P'
class Engine:
    def run_query(self, q):
        """Runs q."""
        return q


def make_engine():
    return Engine()
P
	cat >"$d/app/main.py" <<'P'
from core.engine import make_engine


def main_entry():
    return make_engine().run_query(1)
P
	cat >"$d/pkg/store.go" <<'P'
package pkg

// OpenStore opens it.
func OpenStore() int { return 1 }
P
	cat >"$d/pkg/store_test.go" <<'P'
package pkg

// "NotACall(" in a comment and a string are not references.
func TestOpenStore(t *T) { OpenStore(); _ = "AlsoNot(" }
P
	cat >"$d/tests/test_engine.py" <<'P'
# never_called() in a comment
def test_engine_defined_here():
    assert make_engine().run_query("not_a_ref()") == 1
P
}

# pack DIR: DIR as the archive of acme/tree's HEAD.
pack() {
	mkdir -p "$T/srv/archives/acme/tree"
	tar -C "$1" --sort=name -czf "$T/srv/archives/acme/tree/HEAD.tar.gz" \
	    --transform 's,^\.,acme-tree-0123abc,' .
}

# The tag cache's entry of acme/tree.
entry() {
	local key
	key=$(printf %s 'urlkit-tags:https://github.com/acme/tree' |
	    sha256sum | cut -c 1-16)
	echo "$URLKIT_CACHE_DIR/${key:0:2}/$key.json"
}

setup() {
	common_setup
	mkdir -p "$T/srv/archives"
	: >"$T/requests.log"
	start_server srv python3 "$TOP/tests/helpers/repo_server.py" \
	    "$T/srv" "$T/requests.log"
	export URLKIT_ALLOW_PRIVATE=1
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$srv_PORT"
	make_tree "$T/tree"
	pack "$T/tree"
	URL=https://github.com/acme/tree
}

teardown() {
	common_teardown
}

@test "repomap cache: fetched again, no file is parsed; one changed, one is" {
	run -0 --separate-stderr urlfetch -J <<<"$URL"
	jq -e '.github_info | .files_indexed == 5 and .files_parsed == 3 and
	    .files_lexed == 2 and .files_cached == 0' <<<"$output"
	first=$output
	[ -s "$(entry)" ]
	# -r fetches the repository again (the record's cache is skipped).
	run -0 --separate-stderr urlfetch -r -J <<<"$URL"
	jq -e '.github_info | .files_indexed == 5 and .files_parsed == 0 and
	    .files_lexed == 2 and .files_cached == 3' <<<"$output"
	# The same map and symbols as parsing gave.
	[ "$(jq -c '[.symbol_map, .symbols, .github_info.definitions,
	    .github_info.references]' <<<"$output")" = \
	    "$(jq -c '[.symbol_map, .symbols, .github_info.definitions,
	    .github_info.references]' <<<"$first")" ]
	printf '\ndef stop_engine():\n    return None\n' >>"$T/tree/core/engine.py"
	pack "$T/tree"
	run -0 --separate-stderr urlfetch -r -J <<<"$URL"
	jq -e '.github_info | .files_parsed == 1 and .files_cached == 2' \
	    <<<"$output"
	jq -e '[.symbols[].name] | index("stop_engine") != null' <<<"$output"
}

@test "repomap cache: a corrupt entry is ignored and the files parsed again" {
	run -0 --separate-stderr urlfetch <<<"$URL"
	f=$(entry)
	# One file's tags broken: that file is parsed, the others are not.
	jq -c '.files |= with_entries(if (.value.s | test("make_engine"))
	    and (.value.d | length) == 1 then .value.d[0][2] = "x" else . end)' \
	    "$f" >"$T/e" && cp "$T/e" "$f"
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info | .files_parsed == 1 and .files_cached == 2' \
	    <<<"$output"
	# Kinds, lines and names that do not check out, and truncated JSON.
	jq -c '.files |= map_values(.d |= map(.[1] = "no-such-kind"))' \
	    "$f" >"$T/e" && cp "$T/e" "$f"
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info | .files_parsed == 3 and .files_cached == 0 and
	    .definitions > 0' <<<"$output"
	jq -c '.files |= map_values(.s = 7 | .n = -1)' "$f" >"$T/e" &&
	    cp "$T/e" "$f"
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info.files_parsed == 3' <<<"$output"
	head -c 100 "$f" >"$T/e" && cp "$T/e" "$f"
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info.files_parsed == 3' <<<"$output"
	printf '\0\377garbage' >"$f"
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info | .files_parsed == 3 and .top_file != null' \
	    <<<"$output"
	# And the next run uses what that one wrote.
	run -0 --separate-stderr urlfetch -r <<<"$URL"
	jq -e '.github_info.files_cached == 3' <<<"$output"
}

@test "repomap cache: -C neither reads nor writes tags" {
	run -0 --separate-stderr urlfetch -C <<<"$URL"
	jq -e '.github_info.files_parsed == 3' <<<"$output"
	[ ! -e "$(entry)" ]
	run -0 --separate-stderr urlfetch <<<"$URL"
	run -0 --separate-stderr urlfetch -C <<<"$URL"
	jq -e '.github_info | .files_parsed == 3 and .files_cached == 0' \
	    <<<"$output"
}

@test "repomap cache: the entry expires with the cache and cleanup removes it" {
	run -0 --separate-stderr urlfetch <<<"$URL"
	f=$(entry)
	[ -s "$f" ]
	jq -e '.url == "urlkit-tags:https://github.com/acme/tree" and
	    (.files | length) == 3' "$f"
	touch -d '2 days ago' "$f"
	run -0 --separate-stderr urlcache cleanup
	[ ! -e "$f" ]
}

@test "repomap lexing: tests give references, not definitions" {
	run -0 --separate-stderr urlfetch -J -M 100000 <<<"$URL"
	# No definition from tests/ or a _test.go file, in the map or -J.
	jq -e '[.symbols[].file | select(test("^tests/|_test\\.go$"))] |
	    length == 0' <<<"$output"
	run -1 grep -E 'test_engine_defined_here|TestOpenStore' \
	    <(jq -r .symbol_map <<<"$output")
	# Their references count: make_engine is called from app and tests.
	jq -e '.github_info.top_file == "core/engine.py"' <<<"$output"
}

@test "repomap lexing: a /tree/ focus under tests/ parses the tests" {
	cp "$T/srv/archives/acme/tree/HEAD.tar.gz" \
	    "$T/srv/archives/acme/tree/main.tar.gz"
	run -0 --separate-stderr urlfetch -C -J -M 100000 \
	    <<<"$URL/tree/main/tests"
	jq -e '.github_info | .path == "tests" and .files_lexed == 1 and
	    .files_parsed == 4' <<<"$output"
	jq -e '[.symbols[].name] | index("test_engine_defined_here") != null' \
	    <<<"$output"
}

@test "repomap lexing: a tree of nothing but tests is parsed after all" {
	mkdir -p "$T/only/tests" "$T/srv/archives/acme/only"
	cp "$T/tree/tests/test_engine.py" "$T/only/tests/"
	printf 'def shared_fixture_helper():\n    return 1\n' \
	    >"$T/only/tests/helpers.py"
	tar -C "$T/only" -czf "$T/srv/archives/acme/only/HEAD.tar.gz" \
	    --transform 's,^\.,acme-only-0123abc,' .
	run -0 --separate-stderr urlfetch -C -J <<<"https://github.com/acme/only"
	jq -e '.github_info | .files_parsed == 2 and .files_lexed == 0 and
	    .definitions >= 2' <<<"$output"
	jq -e '[.symbols[].name] | index("shared_fixture_helper") != null' \
	    <<<"$output"
}

@test "repomap lexing: code vendored by its path is lexed; nothing else, it is parsed" {
	mkdir -p "$T/tree/deps/lua" "$T/tree/third_party/zlib"
	printf 'int\nlua_pushstring(const char *s)\n{\n\treturn 0;\n}\n' \
	    >"$T/tree/deps/lua/lua.c"
	printf 'def deflate_stream(level):\n    return level\n' \
	    >"$T/tree/third_party/zlib/deflate.py"
	pack "$T/tree"
	run -0 --separate-stderr urlfetch -C -J -M 100000 <<<"$URL"
	jq -e '.github_info | .files_indexed == 7 and .files_parsed == 3 and
	    .files_lexed == 4' <<<"$output"
	run -1 grep -E 'lua_pushstring|deflate_stream' \
	    <(jq -r .symbol_map <<<"$output")
	# A tree of nothing but vendored code shows it.
	mkdir -p "$T/vend/deps" "$T/srv/archives/acme/vend"
	cp -R "$T/tree/deps/lua" "$T/vend/deps/"
	tar -C "$T/vend" -czf "$T/srv/archives/acme/vend/HEAD.tar.gz" \
	    --transform 's,^\.,acme-vend-0123abc,' .
	run -0 --separate-stderr urlfetch -C -J <<<"https://github.com/acme/vend"
	jq -e '.github_info | .files_parsed == 1 and .files_lexed == 0' \
	    <<<"$output"
	jq -e '[.symbols[].name] | index("lua_pushstring") != null' <<<"$output"
}

@test "repomap lexing: deps/ unmarked by .gitattributes is parsed as the project's" {
	mkdir -p "$T/tree/deps/lua"
	printf 'int\nlua_pushstring(const char *s)\n{\n\treturn 0;\n}\n' \
	    >"$T/tree/deps/lua/lua.c"
	printf 'deps/** -linguist-vendored\n' >"$T/tree/.gitattributes"
	pack "$T/tree"
	run -0 --separate-stderr urlfetch -C -J -M 100000 <<<"$URL"
	jq -e '.github_info | .files_parsed == 4 and .files_lexed == 2' \
	    <<<"$output"
	grep -q lua_pushstring <(jq -r .symbol_map <<<"$output")
}

@test "repomap cache: an import over several lines is cached too" {
	# A parenthesised import and one continued with a backslash: the
	# reference holds a newline and a backslash.
	printf 'from core.engine import (\n    Engine,\n    make_engine,\n)\nfrom core.engine import \\\n    make_engine as again\n\n\ndef main_entry():\n    return make_engine().run_query(again)\n' \
	    >"$T/tree/app/main.py"
	pack "$T/tree"
	run -0 --separate-stderr urlfetch -J <<<"$URL"
	jq -e '.github_info | .files_parsed == 3 and .files_cached == 0' \
	    <<<"$output"
	first=$output
	run -0 --separate-stderr urlfetch -r -J <<<"$URL"
	jq -e '.github_info | .files_parsed == 0 and .files_cached == 3' \
	    <<<"$output"
	[ "$(jq -c '[.symbol_map, .symbols, .github_info.references]' \
	    <<<"$output")" = "$(jq -c '[.symbol_map, .symbols,
	    .github_info.references]' <<<"$first")" ]
	# A line that does not unescape is a corrupt entry: parsed again.
	f=$(entry)
	jq -c '.files |= map_values(.s |= sub("\\\\n"; "\\q"))' "$f" >"$T/e" &&
	    cp "$T/e" "$f"
	run -0 --separate-stderr urlfetch -r -J <<<"$URL"
	jq -e '.github_info | .files_parsed == 1 and .files_cached == 2' \
	    <<<"$output"
}
