#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The repository map's ranking and rendering on a real git repository made
# here: vendored code, tests that reference everything, .gitattributes
# marks, a shadowed builtin, a Rust type used everywhere, a Python class
# with multi-line signatures and overloads, a C header with its .c file,
# file names with control characters.  Through the archive route (served
# on loopback, as urlfetch fetches it) and through tests/unit/t_symbols -R,
# which also hands the index the files that are not source (licences,
# manifests, .gitattributes) with uk_symbols_note.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

# make_map_repo DIR: the repository.
make_map_repo() {
	local d=$1 i
	mkdir -p "$d" && cd "$d" || return 1
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	printf 'Acme\n====\n\nThe engine.\n' >README.md
	printf 'MIT License\n\nCopyright (c) 2024 Acme\n' >LICENSE
	printf '[project]\nname = "acme"\n' >pyproject.toml
	mkdir -p core app tests deps/lua third/zlib gen src lib
	cat >core/engine.py <<'P'
from typing import overload


class Engine:
    """The engine everything drives."""

    def run_query(
        self,
        query: "Query",
        limit: int = 10,
        offset: int = 0,
    ) -> "Result":
        return lua_pushstring(query) + deflate_stream(limit) + generated_table()

    @overload
    def fetch_rows(self, n: int) -> list: ...

    @overload
    def fetch_rows(self, n: str) -> list: ...

    def fetch_rows(self, n):
        return [n]
P
	cat >core/sessions.py <<'P'
class Session:
    def request(self, method, url):
        return method + url

    def unused_helper(self):
        return 0
P
	cat >core/api.py <<'P'
from core.sessions import Session


def request(method, url):
    return Session().request(method, url)
P
	cat >core/compat.py <<'P'
str = str


def get(mapping, key):
    return mapping[key]
P
	for i in 1 2 3 4 5 6; do
		cat >app/job$i.py <<P
from core.engine import Engine


def job_$i(x):
    e = Engine()
    return str(e.run_query(str(x))) + str(get({}, x)) + str(e.fetch_rows($i))
P
	done
	{
		echo 'from core.engine import Engine'
		for i in $(seq 1 40); do
			printf '\n\ndef test_case_%d():\n    assert Engine().run_query(%d)\n    assert Engine().fetch_rows(%d)\n' "$i" "$i" "$i"
		done
	} >tests/test_all.py
	# Vendored by name (deps/) and by its own licence (third/zlib).
	printf 'Lua is free software.\nCopyright (C) 1994 Lua.org, PUC-Rio.\n' >deps/lua/COPYRIGHT
	printf 'all:\n\tcc -c lua.c\n' >deps/lua/Makefile
	printf 'int\nlua_pushstring(const char *s)\n{\n\treturn 0;\n}\n' >deps/lua/lua.c
	printf 'zlib License\n\nCopyright (C) 1995 Jean-loup Gailly and Mark Adler\n' >third/zlib/LICENSE
	printf 'project(zlib C)\n' >third/zlib/CMakeLists.txt
	printf 'def deflate_stream(level):\n    return level\n' >third/zlib/deflate.py
	printf 'gen/** linguist-generated\n' >.gitattributes
	printf 'def generated_table():\n    return 1\n' >gen/tables.py
	# A Rust type used everywhere.
	cat >src/searcher.rs <<'R'
/// Searches a haystack.
pub struct Searcher {
    pub limit: usize,
}

impl Searcher {
    pub fn search_path(
        &self,
        path: &str,
    ) -> usize {
        self.limit
    }
}
R
	for i in 1 2 3 4; do
		cat >src/use$i.rs <<R
use crate::searcher::Searcher;

pub struct Holder$i {
    pub searcher: Searcher,
}

pub fn make$i(s: &Searcher) -> Option<Searcher> {
    None
}
R
	done
	# A C header and its .c file.
	cat >lib/pool.h <<'C'
struct pool;
struct pool *pool_create(unsigned long size);
int pool_take(struct pool *p);
C
	cat >lib/pool.c <<'C'
#include "pool.h"

struct pool *
pool_create(unsigned long size)
{
	return 0;
}

int
pool_take(struct pool *p)
{
	return pool_create(1) != 0;
}
C
	for i in 1 2 3; do
		printf '#include "pool.h"\nint use%d(void) { return pool_take(pool_create(%d)); }\n' "$i" "$i" >lib/use$i.c
	done
	# Names that would forge lines of the map.
	printf 'def forged_name():\n    return 1\n' >"$(printf 'evil\nfake.py')"
	printf 'def escaped_name():\n    return 1\n' >"$(printf 'esc\033[31m.py')"
	printf 'from x import forged_name, escaped_name\nforged_name()\nescaped_name()\n' >app/evil_user.py
	git add -A && git commit -q -m initial
	git branch dev
	cd - >/dev/null || return 1
}

# One archive server for the file: no test reads requests.log or changes
# what is served, and each has its own cache, so each still downloads.
setup_file() {
	make_map_repo "$BATS_FILE_TMPDIR/src"
	serve_repo "$BATS_FILE_TMPDIR/src" "$BATS_FILE_TMPDIR/srv"
	repo_serve_file
}

teardown_file() { repo_unserve_file; }

setup() {
	repo_setup
	SYM=${UK_UNIT:-$TOP/build/unit}/t_symbols
	[ -x "$SYM" ] || SYM=$TOP/build/unit/t_symbols
}

teardown() {
	common_teardown
}

# map_files: the files of the map in $output, one a line, in order.
map_files() {
	jq -r .symbol_map <<<"$output" | grep -E '^[^ │⋮].*:$' | sed 's/:$//'
}

@test "repomap: the class everything uses ranks first, not the shadowed builtin" {
	run -0 "$REPO" -J https://github.com/acme/tool
	[ "$(map_files | head -n 1)" = core/engine.py ]
	jq -r .symbol_map <<<"$output" >"$T/map"
	# str = str and get() are defined but shadow builtins: not before.
	[ "$(map_files | grep -n '^core/compat.py$' | cut -d: -f1)" != 1 ]
	jq -e '[.symbols[:3][].name] | (index("str") == null and index("get") == null)' \
	    <<<"$output"
	# Where engine.py's only other references are left out (the notes
	# make third/ and gen/ vendored), its vote for str stays small.
	run -0 "$SYM" -R -t 1024 "$SRC"
	jq -e '[.symbols[:3][].name] | (index("str") == null and index("get") == null)' \
	    <<<"$output"
}

@test "repomap: a reference from a file that defines the name too is kept" {
	run -0 "$REPO" -t 4000 -J https://github.com/acme/tool
	# api.request() calls Session.request(): an edge, though api.py
	# defines request as well.
	jq -e '[.symbols[] | select(.file == "core/sessions.py")] |
	    (map(select(.name == "request"))[0].rank) >
	    100 * (map(select(.name == "unused_helper"))[0].rank)' <<<"$output"
}

@test "repomap: no vendored (deps/) and no test symbols in the map" {
	run -0 "$REPO" -J https://github.com/acme/tool
	run -1 grep -E '^(deps|tests)/' <(map_files)
	run -0 "$REPO" -J https://github.com/acme/tool
	jq -e '[.symbols[] | select(.file | test("^(deps|tests)/"))] | length == 0' \
	    <<<"$output"
	jq -e '[.symbols[] | select(.name | test("^(lua_pushstring|test_case_)"))] | length == 0' \
	    <<<"$output"
}

@test "repomap: a whole multi-line signature under its class; overloads once" {
	run -0 "$REPO" -t 4000 -J https://github.com/acme/tool
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -A 12 -x 'core/engine.py:' "$T/map" >"$T/engine"
	grep -qx '│class Engine:' "$T/engine"
	grep -qx '│    def run_query(' "$T/engine"
	grep -qx '│        offset: int = 0,' "$T/engine"
	grep -qx '│    ) -> "Result":' "$T/engine"
	[ "$(grep -c 'def fetch_rows' "$T/map")" = 1 ]
	[ "$(jq '[.symbols[] | select(.name == "fetch_rows")] | length' <<<"$output")" = 1 ]
	jq -e '.symbols[] | select(.name == "run_query") | .scope == "Engine"' <<<"$output"
	jq -e '.symbols[] | select(.name == "Engine") | .doc == "The engine everything drives."' <<<"$output"
	# The class header comes before the method, once.
	[ "$(grep -c '^│class Engine:$' "$T/map")" = 1 ]
}

@test "repomap: a Rust type used everywhere, its impl header above its method" {
	run -0 "$REPO" -t 4000 -J https://github.com/acme/tool
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -qx '│pub struct Searcher' "$T/map"
	grep -B 3 -x '│    pub fn search_path(' "$T/map" | grep -qx '│impl Searcher'
	grep -qx '│    ) -> usize' "$T/map"
	jq -e '.symbols[] | select(.name == "Searcher") | .doc == "Searches a haystack."' <<<"$output"
	jq -e '.symbols[] | select(.name == "search_path") | .scope == "impl Searcher"' <<<"$output"
	# Searcher's file ranks above the files that use it.
	[ "$(map_files | grep -n '^src/searcher.rs$' | cut -d: -f1)" -lt \
	    "$(map_files | grep -n '^src/use1.rs$' | cut -d: -f1)" ]
}

@test "repomap: doc comments: a crate's //! is not its first item's, a one-line /** */ ends before */" {
	d=$BATS_TEST_TMPDIR/docs
	mkdir -p "$d/src"
	printf '//! The searcher crate.\n\n/// A searcher.\npub struct Searcher {\n    x: u32,\n}\n' >"$d/src/lib.rs"
	printf '/// Runs it.\npub fn run(s: Searcher) -> u32 {\n    s.x\n}\n' >"$d/src/run.rs"
	printf '/** A router. */\nfunction Router() {}\n/**\n * A route.\n **/\nfunction route() {}\n' >"$d/src/a.js"
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '.symbols[] | select(.name == "Searcher") | .doc == "A searcher."' <<<"$output"
	jq -e '.symbols[] | select(.name == "run") | .doc == "Runs it."' <<<"$output"
	jq -e '.symbols[] | select(.name == "Router") | .doc == "A router."' <<<"$output"
	jq -e '.symbols[] | select(.name == "route") | .doc == "A route."' <<<"$output"
}

@test "repomap: a C header and its .c are one unit, the declaration shown once" {
	run -0 "$REPO" -t 4000 https://github.com/acme/tool
	jq -r .symbol_map <<<"$output" >"$T/map"
	[ "$(grep -c 'pool_create' "$T/map")" = 1 ]
	grep -qx '│struct pool \*pool_create(unsigned long size);' "$T/map"
	run -1 grep -qx 'lib/pool.c:' "$T/map"
	h=$(grep -n -x 'lib/pool.h:' "$T/map" | cut -d: -f1)
	u=$(grep -n -x 'lib/use1.c:' "$T/map" | cut -d: -f1)
	[ "$h" -lt "$u" ]
}

@test "repomap: control characters of file names never forge a line" {
	run -0 "$REPO" -t 4000 https://github.com/acme/tool
	jq -r .symbol_map <<<"$output" >"$T/map"
	run -1 grep -x 'fake.py:' "$T/map"
	run -1 grep -q $'\033' "$T/map"
	grep -qxF 'evil\nfake.py:' "$T/map"
	grep -qxF 'esc\x1b[31m.py:' "$T/map"
}

@test "repomap: the map stays within its budget and fills 90% of it" {
	run -0 "$REPO" -t 100000 https://github.com/acme/tool
	whole=$(jq -r .github_info.map_tokens <<<"$output")
	for budget in 40 60 100 150 220 300; do
		[ "$budget" -lt "$whole" ]
		run -0 "$REPO" -t "$budget" https://github.com/acme/tool
		tokens=$(jq -r .github_info.map_tokens <<<"$output")
		[ "$tokens" -le "$budget" ]
		[ $((tokens * 10)) -ge $((budget * 9)) ]
	done
	# Nothing more to show: the whole map, under the budget.
	run -0 "$REPO" -t $((whole + 200)) https://github.com/acme/tool
	[ "$(jq -r .github_info.map_tokens <<<"$output")" = "$whole" ]
}

@test "repomap: own licence with a build file and .gitattributes marks are vendored" {
	run -0 "$SYM" -R -t 4000 "$SRC"
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -q run_query "$T/map"
	run -1 grep -E 'deflate_stream|generated_table|lua_pushstring|^third/|^gen/' "$T/map"
	# The archive route passes the same notes: they stay out there too.
	run -0 "$REPO" -t 4000 https://github.com/acme/tool
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -q run_query "$T/map"
	run -1 grep -E '^third/|^gen/' "$T/map"
}

@test "repomap: manifests are listed by path at the top" {
	run -0 "$SYM" -R -t 1024 "$SRC"
	[ "$(jq -r '.symbol_map | split("\n")[0]' <<<"$output")" = pyproject.toml ]
	run -1 grep -x 'deps/lua/Makefile' <(jq -r .symbol_map <<<"$output")
}

@test "repomap: a focus path centres the map there" {
	run -0 "$SYM" -R -t 1024 -f lib "$SRC"
	[ "$(jq -r .github_info.top_file <<<"$output")" = lib/pool.h ]
	[ "$(map_files | head -n 1)" = lib/pool.h ]
	run -0 "$SYM" -R -t 1024 -f tests "$SRC"
	map_files | grep -qx tests/test_all.py
}

# Small trees of one ranking rule each, read by t_symbols -R.  Each
# assertion fails without its rule (checked by reverting the rule).

# first_files DIR N: the first N files of DIR's map, space-separated.
first_files() {
	run -0 "$SYM" -R -t 4000 "$1"
	map_files | head -n "$2" | tr '\n' ' '
}

@test "repomap: a Java type used in signatures and new T ranks its file first" {
	d=$BATS_TEST_TMPDIR/java/src/main/java/acme
	mkdir -p "$d"
	printf 'package acme;\npublic class Engine {\n    public void start() {}\n}\n' >"$d/Engine.java"
	printf 'package acme;\npublic class Util {\n    public static String formatName(String s) { return s; }\n}\n' >"$d/Util.java"
	for i in 1 2 3; do
		printf 'package acme;\npublic class Use%s {\n    public Engine make(String n) { return new Engine(); }\n    public void drive(Engine e, Engine f) { Util.formatName("x"); }\n}\n' "$i" >"$d/Use$i.java"
	done
	[ "$(first_files "$BATS_TEST_TMPDIR/java" 1)" = "src/main/java/acme/Engine.java " ]
}

@test "repomap: a TypeScript type used in signatures and new T ranks its file first" {
	d=$BATS_TEST_TMPDIR/ts
	mkdir -p "$d/src"
	printf 'export class Engine {\n    constructor(public name: string) {}\n    start(): void {}\n}\n' >"$d/src/engine.ts"
	printf 'export function formatName(s: string): string { return s.trim(); }\n' >"$d/src/util.ts"
	for i in 1 2 3; do
		printf "import { Engine } from './engine';\nimport { formatName } from './util';\nexport function make%s(name: string): Engine {\n    return new Engine(formatName(name));\n}\nexport function drive%s(e: Engine, o: Engine): Engine { return e; }\n" "$i" "$i" >"$d/src/use$i.ts"
	done
	[ "$(first_files "$d" 1)" = "src/engine.ts " ]
}

@test "repomap: a Rust trait impl's associated type is no definition of the name" {
	d=$BATS_TEST_TMPDIR/rs
	mkdir -p "$d/src"
	printf 'pub enum Value {\n    Null,\n    Num(f64),\n}\n' >"$d/src/value.rs"
	printf 'pub fn parse_all() -> usize {\n    0\n}\n' >"$d/src/helper.rs"
	for i in 1 2 3; do
		printf 'struct V%s;\n\nimpl Visitor for V%s {\n    type Value = Value;\n\n    fn expecting(&self) -> Value {\n        Value::Null\n    }\n}\n' "$i" "$i" >"$d/src/visit$i.rs"
		printf 'pub fn use%s(v: Value) -> Value {\n    parse_all();\n    v\n}\n' "$i" >"$d/src/use$i.rs"
	done
	[ "$(first_files "$d" 1)" = "src/value.rs " ]
	run -0 "$SYM" -R -t 4000 "$d"
	# `type Value = Value;` binds the trait's name: not a definition.
	jq -e '[.symbols[] | select(.name == "Value")] |
	    length == 1 and .[0].file == "src/value.rs"' <<<"$output"
}

@test "repomap: the file whose many names the project uses outranks a helper chain" {
	d=$BATS_TEST_TMPDIR/breadth
	mkdir -p "$d/pkg"
	# Everything raises ConfigError; its __hash__ alone calls make_digest.
	printf 'from pkg.digest import make_digest\n\n\nclass ConfigError(Exception):\n    def __hash__(self):\n        return make_digest(self)\n' >"$d/pkg/errors.py"
	printf 'def make_digest(value):\n    return 1\n' >"$d/pkg/digest.py"
	printf 'class Model:\n    def save_record(self):\n        pass\n\n    def load_record(self):\n        pass\n\n    def find_record(self):\n        pass\n\n    def drop_record(self):\n        pass\n' >"$d/pkg/model.py"
	for i in 1 2 3; do
		printf 'def use%s(m):\n    m.save_record()\n    m.load_record()\n    m.find_record()\n    m.drop_record()\n    raise ConfigError()\n' "$i" >"$d/pkg/use$i.py"
	done
	for i in 4 5 6 7; do
		printf 'def use%s():\n    raise ConfigError()\n' "$i" >"$d/pkg/use$i.py"
	done
	[ "$(first_files "$d" 1)" = "pkg/model.py " ]
}

@test "repomap: the file that is used and draws on the rest outranks the leaf every module calls" {
	d=$BATS_TEST_TMPDIR/hub
	mkdir -p "$d/pkg"
	# logs.py is called from six modules and calls nothing; engine.py,
	# used by two, runs the three steps (a hub as well as an authority).
	printf 'def log_line(msg):\n    return msg\n' >"$d/pkg/logs.py"
	for m in parse plan execute; do
		printf 'from pkg.logs import log_line\n\n\ndef %s_step(q):\n    return log_line(q)\n' "$m" >"$d/pkg/$m.py"
	done
	printf 'from pkg.parse import parse_step\nfrom pkg.plan import plan_step\nfrom pkg.execute import execute_step\n\n\nclass Engine:\n    def run_query(self, q):\n        return execute_step(plan_step(parse_step(q)))\n' >"$d/pkg/engine.py"
	for i in 1 2; do
		printf 'from pkg.engine import Engine\n\n\ndef front%s(q):\n    return Engine().run_query(q)\n' "$i" >"$d/pkg/front$i.py"
	done
	for i in 1 2 3; do
		printf 'from pkg.logs import log_line\n\n\ndef tool%s(q):\n    return log_line(q)\n' "$i" >"$d/pkg/tool$i.py"
	done
	[ "$(first_files "$d" 2)" = "pkg/engine.py pkg/logs.py " ]
}

@test "repomap: an import is an edge to the module's file" {
	d=$BATS_TEST_TMPDIR/imp
	mkdir -p "$d/pkg" "$d/lib"
	# settings has three definers; the import says which one is meant.
	printf 'class Settings:\n    pass\n\n\nsettings = Settings()\n' >"$d/pkg/conf.py"
	printf 'class Cache:\n    def settings(self):\n        return 1\n' >"$d/pkg/cache.py"
	printf 'class Form:\n    def settings(self):\n        return 2\n' >"$d/pkg/forms.py"
	for i in 1 2 3 4; do
		printf 'from pkg.conf import settings\n\nDEBUG%s = settings.DEBUG\n' "$i" >"$d/pkg/use$i.py"
	done
	[ "$(first_files "$d" 1)" = "pkg/conf.py " ]
	# The same with a relative require() of JavaScript.
	d=$BATS_TEST_TMPDIR/req
	mkdir -p "$d/lib"
	printf 'function dispatch(req) {\n  return req;\n}\nmodule.exports = { dispatch };\n' >"$d/lib/router.js"
	printf 'function dispatch(x) {\n  return x;\n}\n' >"$d/lib/other.js"
	for i in 1 2 3; do
		printf "const router = require('./lib/router');\nrouter.dispatch(%s);\n" "$i" >"$d/app$i.js"
	done
	[ "$(first_files "$d" 1)" = "lib/router.js " ]
}

@test "repomap: a name imported from outside the tree is not the project's" {
	d=$BATS_TEST_TMPDIR/ext
	mkdir -p "$d/pkg"
	printf 'class Query:\n    def dedent(self):\n        return self\n' >"$d/pkg/query.py"
	printf 'def assemble(x):\n    return x\n' >"$d/pkg/helper.py"
	for i in 1 2 3 4; do
		printf 'from textwrap import dedent\n\nfrom pkg.helper import assemble\n\n\ndef use%s():\n    dedent("a")\n    dedent("b")\n    return assemble(1)\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	# dedent() is textwrap's: Query.dedent has no reference.
	jq -e '(.symbols[] | select(.name == "dedent") | .rank) * 1000 <
	    (.symbols[] | select(.name == "assemble") | .rank)' <<<"$output"
}

@test "repomap: except, raise and isinstance refer to a Python class" {
	d=$BATS_TEST_TMPDIR/exc
	mkdir -p "$d/pkg"
	printf 'class ParseError(Exception):\n    pass\n' >"$d/pkg/errors.py"
	printf 'def tidy(x):\n    return x\n' >"$d/pkg/util.py"
	for i in 1 2 3; do
		printf 'def use%s(x):\n    try:\n        return tidy(x)\n    except ParseError:\n        return isinstance(x, ParseError)\n' "$i" >"$d/pkg/use$i.py"
	done
	[ "$(first_files "$d" 1)" = "pkg/errors.py " ]
}

@test "repomap: a Rust module path is no item of that name" {
	d=$BATS_TEST_TMPDIR/rsmod
	mkdir -p "$d/src"
	printf 'mod compile;\nmod dfa;\n' >"$d/src/lib.rs"
	printf 'pub fn start_fsm(x: usize) -> usize {\n    x\n}\n' >"$d/src/dfa.rs"
	printf 'pub struct Compiler;\n\nimpl Compiler {\n    pub fn dfa(&self) -> bool {\n        true\n    }\n\n    pub fn syntax(&self) -> bool {\n        true\n    }\n}\n' >"$d/src/compile.rs"
	for i in 1 2 3; do
		printf 'use crate::dfa;\n\npub fn run%s(x: usize) -> usize {\n    dfa::start_fsm(x) + syntax::parse(x)\n}\n' "$i" >"$d/src/run$i.rs"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	# `use crate::dfa` and dfa::start_fsm() name the module dfa, and
	# syntax::parse() a crate: Compiler's dfa and syntax are not called.
	for n in dfa syntax; do
		jq -e --arg n "$n" '(.symbols[] | select(.name == $n and .file == "src/compile.rs") | .rank) * 1000 <
		    (.symbols[] | select(.name == "start_fsm") | .rank)' <<<"$output"
	done
}

@test "repomap: isinstance's first argument is the object, not a class" {
	d=$BATS_TEST_TMPDIR/isinst
	mkdir -p "$d/pkg"
	printf 'class ParseError(Exception):\n    pass\n' >"$d/pkg/errors.py"
	printf 'class Mail:\n    def message(self):\n        return 1\n' >"$d/pkg/mail.py"
	for i in 1 2 3; do
		printf 'def check%s(message):\n    return isinstance(message, ParseError)\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '(.symbols[] | select(.name == "message") | .rank) * 1000 <
	    (.symbols[] | select(.name == "ParseError") | .rank)' <<<"$output"
}

@test "repomap: a call of a name the calling file defines too counts little for the others" {
	d=$BATS_TEST_TMPDIR/self
	mkdir -p "$d/pkg"
	# lazy.py calls its own compute nine times and helper once.
	{
		printf 'class Lazy:\n    def compute(self, x):\n        return x\n\n    def run(self):\n        helper()\n'
		for i in 1 2 3 4 5 6 7 8 9; do
			printf '        self.compute(%s)\n' "$i"
		done
	} >"$d/pkg/lazy.py"
	printf 'class Factory:\n    def compute(self):\n        return 2\n' >"$d/pkg/geo.py"
	printf 'def helper():\n    return 1\n\n\ndef spare():\n    return 3\n' >"$d/pkg/shared.py"
	run -0 "$SYM" -R -t 4000 "$d"
	u=$(map_files | grep -n -x pkg/shared.py | cut -d: -f1)
	g=$(map_files | grep -n -x pkg/geo.py | cut -d: -f1)
	[ "$u" -lt "$g" ]
}

@test "repomap: a file ranked first shows its best definition though its references are spread" {
	d=$BATS_TEST_TMPDIR/spread
	mkdir -p "$d/pkg"
	: >"$d/pkg/fields.py"
	for i in 1 2 3 4 5 6 7 8; do
		printf 'class Field%s:\n    pass\n\n\n' "$i" >>"$d/pkg/fields.py"
		printf 'from pkg.fields import Field%s\nfrom pkg.util import tidy\n\n\ndef use%s():\n    return tidy(Field%s())\n' "$i" "$i" "$i" >"$d/pkg/use$i.py"
	done
	printf 'def tidy(x):\n    return x\n' >"$d/pkg/util.py"
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(jq -r .github_info.top_file <<<"$output")" = pkg/fields.py ]
	# A budget for one file: the first-ranked one.
	run -0 "$SYM" -R -t 20 "$d"
	[ "$(map_files | head -n 1)" = pkg/fields.py ]
}

@test "repomap: a call of a dict or set method is no reference to the project's" {
	d=$BATS_TEST_TMPDIR/dictm
	mkdir -p "$d/pkg"
	printf 'class Store:\n    def setdefault(self, k, v):\n        return v\n\n    def discard(self, k):\n        return k\n' >"$d/pkg/store.py"
	printf 'def tidy(x):\n    return x\n\n\ndef spare():\n    return 3\n' >"$d/pkg/shared.py"
	for i in 1 2 3; do
		printf 'def use%s(d, s):\n    d.setdefault(1, 2)\n    d.setdefault(3, 4)\n    s.discard(5)\n    return tidy(d)\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	u=$(map_files | grep -n -x pkg/shared.py | cut -d: -f1)
	s=$(map_files | grep -n -x pkg/store.py | cut -d: -f1)
	[ "$u" -lt "$s" ]
}

@test "repomap: two .c/.h pairs and a helper: each pair one unit, its header first" {
	d=$BATS_TEST_TMPDIR/pairs
	mkdir -p "$d/lib" "$d/src"
	cat >"$d/lib/store.h" <<'C'
struct store;
struct store *store_open(const char *path);
int store_get(struct store *s, const char *key);
C
	cat >"$d/lib/store.c" <<'C'
#include "store.h"
#include "log.h"

static unsigned
store_hash(const char *key)
{
	return key[0];
}

struct store *
store_open(const char *path)
{
	log_line(path);
	return 0;
}

int
store_get(struct store *s, const char *key)
{
	return s != 0 && store_hash(key) > 0;
}
C
	cat >"$d/src/net.hpp" <<'C'
class Conn;
Conn *net_dial(const char *host, int port);
int net_send(Conn *c, const char *data);
C
	cat >"$d/src/net.cpp" <<'C'
#include "net.hpp"

Conn *net_dial(const char *host, int port)
{
	return nullptr;
}

int net_send(Conn *c, const char *data)
{
	return c != nullptr;
}
C
	# The helper: a .c file without a header of its name.
	printf 'void log_line(const char *s)\n{\n\t(void)s;\n}\n' >"$d/lib/log.c"
	for i in 1 2 3; do
		printf '#include "store.h"\n#include "net.hpp"\nint use%d(void)\n{\n\tlog_line("u");\n\treturn store_get(store_open("p"), "k") + net_send(net_dial("h", %d), "d");\n}\n' \
		    "$i" "$i" >"$d/src/use$i.cpp"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -r .symbol_map <<<"$output" >"$T/map"
	# One unit each: the header's path is the map's file, the .c or .cc
	# file only under it, indented; the helper a file of its own.
	map_files >"$T/files"
	grep -qx lib/store.h "$T/files"
	grep -qx src/net.hpp "$T/files"
	grep -qx lib/log.c "$T/files"
	run -1 grep -E '^(lib/store\.c|src/net\.cpp)$' "$T/files"
	[ "$(sort "$T/files" | uniq -d)" = "" ]
	# The .c file's own definition (the static helper) follows its header.
	h=$(grep -n -x 'lib/store.h:' "$T/map" | cut -d: -f1)
	c=$(grep -n -x '  lib/store.c:' "$T/map" | cut -d: -f1)
	[ "$c" -gt "$h" ]
	[ "$(sed -n "$h,${c}p" "$T/map" | grep -c '^$')" = 0 ]
	sed -n "$c,\$p" "$T/map" | grep -q 'store_hash'
	# A declared function once, as the header declares it.
	[ "$(grep -c 'store_open' "$T/map")" = 1 ]
	grep -qx '│struct store \*store_open(const char \*path);' "$T/map"
	[ "$(grep -c 'net_dial' "$T/map")" = 1 ]
	grep -qx '│Conn \*net_dial(const char \*host, int port);' "$T/map"
	# The best-ranked file leads the map; in the ranked list (-r) each
	# header is just before its .c file, with the same rank.
	[ "$(map_files | head -n 1)" = "$(jq -r .github_info.top_file <<<"$output")" ]
	run -0 --separate-stderr "$SYM" -R -t 4000 -r 10 "$d"
	awk '{ print $2, $5 }' <<<"$stderr" >"$T/ranks"
	grep -A1 -x '.* lib/store.h' "$T/ranks" | tail -n 1 | grep -q ' lib/store.c$'
	grep -A1 -x '.* src/net.hpp' "$T/ranks" | tail -n 1 | grep -q ' src/net.cpp$'
	[ "$(grep -c "^$(grep ' lib/store.h$' "$T/ranks" | cut -d' ' -f1) lib/store" "$T/ranks")" = 2 ]
}

@test "repomap: urlsum reads a .c file under its header as a file of the map" {
	d=$BATS_TEST_TMPDIR/sumpair
	mkdir -p "$d/lib" "$d/src"
	printf 'struct store;\nstruct store *store_open(const char *path);\n' >"$d/lib/store.h"
	printf '#include "store.h"\n\nstatic unsigned\nstore_hash(const char *key)\n{\n\treturn key[0];\n}\n\nstruct store *\nstore_open(const char *path)\n{\n\treturn store_hash(path) ? 0 : 0;\n}\n' >"$d/lib/store.c"
	for i in 1 2 3; do
		printf '#include "store.h"\nint use%d(void)\n{\n\treturn store_open("p") != 0;\n}\n' "$i" >"$d/src/use$i.c"
	done
	run -0 "$SYM" -R -t 4000 -u https://github.com/acme/pairs "$d"
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -qx '  lib/store.c:' "$T/map"
	jq -c '{url, url_type: "github_repo", title: "acme/pairs",
	    content: "Pairs is a store. It keeps keys.", symbol_map}' \
	    <<<"$output" >"$T/rec"
	# ARCHITECTURE: the .c file is a file of lib/, not a symbol.
	run -0 urlsum -C -y ARCHITECTURE "$T/rec"
	jq -r .summary <<<"$output" >"$T/arch"
	grep -qx -- '- lib/: 2 files, 3 symbols (store.h, store.c)' "$T/arch"
	# API: the .c file's path heads its signatures, not one of them.
	run -0 urlsum -C -y API "$T/rec"
	jq -r .summary <<<"$output" >"$T/api"
	grep -qx 'lib/store.c:' "$T/api"
	run -1 grep -x '  lib/store.c:' "$T/api"
	[ "$(grep -A1 -x 'lib/store.c:' "$T/api" | tail -n 1)" = "  static unsigned" ]
}

@test "repomap: a header included for its macros only ranks below the headers whose functions are called" {
	d=$BATS_TEST_TMPDIR/bare
	mkdir -p "$d/lib" "$d/src"
	# guard.h poisons functions: every file includes it, none uses it.
	printf '#define strcpy(x, y) banned_strcpy\n#define sprintf(...) banned_sprintf\n' >"$d/lib/guard.h"
	printf 'int store_get(int k);\n' >"$d/lib/store.h"
	printf '#include "store.h"\n#include "guard.h"\n\nint store_get(int k)\n{\n\treturn k;\n}\n' >"$d/lib/store.c"
	printf 'void log_line(const char *s);\n' >"$d/lib/log.h"
	printf '#include "log.h"\n#include "guard.h"\n\nvoid log_line(const char *s)\n{\n\t(void)s;\n}\n' >"$d/lib/log.c"
	for i in 1 2 3; do
		printf '#include "guard.h"\n#include "store.h"\n\nint use%d(void)\n{\n\treturn store_get(%d);\n}\n' "$i" "$i" >"$d/src/use$i.c"
	done
	printf '#include "guard.h"\n#include "log.h"\n\nvoid note(void)\n{\n\tlog_line("x");\n}\n' >"$d/src/note.c"
	run -0 --separate-stderr "$SYM" -R -t 4000 -r 10 "$d"
	[ "$(jq -r .github_info.top_file <<<"$output")" = lib/store.h ]
	awk '{ print $5 }' <<<"$stderr" >"$T/ranked"
	g=$(grep -n -x lib/guard.h "$T/ranked" | cut -d: -f1)
	l=$(grep -n -x lib/log.h "$T/ranked" | cut -d: -f1)
	[ "$l" -lt "$g" ]
}

@test "repomap: a private header is one unit with its public header" {
	d=$BATS_TEST_TMPDIR/priv
	mkdir -p "$d/lib" "$d/src"
	printf 'struct store;\nstruct store *store_open(const char *path);\n' >"$d/lib/store.h"
	printf 'struct page {\n\tint n;\n};\nint store_page_read(struct page *p);\n' >"$d/lib/store_int.h"
	printf '#include "store.h"\n#include "store_int.h"\n\nstruct store *store_open(const char *path)\n{\n\tstruct page p;\n\n\treturn store_page_read(&p) ? 0 : (struct store *)path;\n}\n' >"$d/lib/store.c"
	for n in io gc; do
		printf '#include "store_int.h"\n\nint store_%s(struct page *p)\n{\n\treturn store_page_read(p);\n}\n' "$n" >"$d/lib/store_$n.c"
	done
	printf '#include "store_int.h"\n\nint store_page_read(struct page *p)\n{\n\treturn p->n;\n}\n' >"$d/lib/page.c"
	for i in 1 2; do
		printf '#include "store.h"\n\nint use%d(void)\n{\n\treturn store_open("p") != 0;\n}\n' "$i" >"$d/src/use$i.c"
	done
	run -0 --separate-stderr "$SYM" -R -t 4000 -r 20 "$d"
	# One rank for the two headers; the private one under the public.
	awk '{ print $2, $5 }' <<<"$stderr" >"$T/ranks"
	[ "$(grep ' lib/store_int.h$' "$T/ranks" | cut -d' ' -f1)" = "$(grep ' lib/store.h$' "$T/ranks" | cut -d' ' -f1)" ]
	jq -r .symbol_map <<<"$output" >"$T/map"
	map_files >"$T/files"
	grep -qx lib/store.h "$T/files"
	run -1 grep -x lib/store_int.h "$T/files"
	grep -qx '  lib/store_int.h:' "$T/map"
}

@test "repomap: what a program's main uses ranks before a helper the library calls" {
	d=$BATS_TEST_TMPDIR/entry
	mkdir -p "$d/lib" "$d/cmd"
	printf 'int rec_write(int fd, const char *s);\n' >"$d/lib/rec.h"
	printf '#include "rec.h"\n\nint rec_write(int fd, const char *s)\n{\n\treturn fd + (s != 0);\n}\n' >"$d/lib/rec.c"
	printf 'int helper(int x);\n' >"$d/lib/helper.h"
	printf '#include "helper.h"\n\nint helper(int x)\n{\n\treturn x;\n}\n' >"$d/lib/helper.c"
	for n in a b; do
		printf '#include "helper.h"\n\nint %s_one(int x)\n{\n\treturn helper(x);\n}\n\nint %s_two(int x)\n{\n\treturn helper(x + 1);\n}\n' "$n" "$n" >"$d/lib/$n.c"
	done
	printf '#include "rec.h"\n\nstatic int\nrun(const char *s)\n{\n\treturn rec_write(1, s);\n}\n\nint\nmain(int argc, char **argv)\n{\n\treturn argc > 1 ? run(argv[1]) : rec_write(1, "-");\n}\n' >"$d/cmd/tool.c"
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(jq -r .github_info.top_file <<<"$output")" = lib/rec.h ]
	r=$(map_files | grep -n -x lib/rec.h | cut -d: -f1)
	h=$(map_files | grep -n -x lib/helper.h | cut -d: -f1)
	[ "$r" -lt "$h" ]
}

@test "repomap: a program's main file is no unit with a header of another directory" {
	d=$BATS_TEST_TMPDIR/prog
	mkdir -p "$d/lib" "$d/cmd"
	printf 'int tool_run(const char *s);\n' >"$d/lib/tool.h"
	printf '#include "tool.h"\n\nint tool_run(const char *s)\n{\n\treturn s != 0;\n}\n' >"$d/lib/tool.c"
	printf '#include "tool.h"\n\nint\nmain(int argc, char **argv)\n{\n\treturn argc > 1 ? tool_run(argv[1]) : 0;\n}\n' >"$d/cmd/tool.c"
	run -0 --separate-stderr "$SYM" -R -t 4000 -r 10 "$d"
	awk '{ print $2, $5 }' <<<"$stderr" >"$T/ranks"
	# lib/tool.c shares its header's rank; the program has its own.
	[ "$(grep ' lib/tool.c$' "$T/ranks" | cut -d' ' -f1)" = "$(grep ' lib/tool.h$' "$T/ranks" | cut -d' ' -f1)" ]
	[ "$(grep ' cmd/tool.c$' "$T/ranks" | cut -d' ' -f1)" != "$(grep ' lib/tool.h$' "$T/ranks" | cut -d' ' -f1)" ]
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -qx 'cmd/tool.c:' "$T/map"
}

@test "repomap: a program's own header ranks after the library its main uses" {
	d=$BATS_TEST_TMPDIR/progunit
	mkdir -p "$d/lib" "$d/cmd"
	printf 'int rec_write(int fd, const char *s);\n' >"$d/lib/rec.h"
	printf '#include "rec.h"\n\nint rec_write(int fd, const char *s)\n{\n\treturn fd + (s != 0);\n}\n' >"$d/lib/rec.c"
	# The program: main in tool.c, its private header, a file a step.
	printf 'struct tool_opts {\n\tint verbose;\n};\n' >"$d/cmd/tool.h"
	calls=
	for i in 1 2 3 4; do
		printf 'int tool_step%d(struct tool_opts *o);\n' "$i" >>"$d/cmd/tool.h"
		printf '#include "tool.h"\n\nint tool_step%d(struct tool_opts *o)\n{\n\treturn o->verbose;\n}\n' "$i" >"$d/cmd/tool_step$i.c"
		calls="$calls + tool_step$i(&o)"
	done
	printf '#include "rec.h"\n#include "tool.h"\n\nint\nmain(void)\n{\n\tstruct tool_opts o = { 0 };\n\n\treturn rec_write(1, "-")%s;\n}\n' "$calls" >"$d/cmd/tool.c"
	run -0 "$SYM" -R -t 4000 "$d"
	# The program's unit keeps a file's share of the entry's teleport
	# and hands the rest to what main uses: the library comes first.
	[ "$(jq -r .github_info.top_file <<<"$output")" = lib/rec.h ]
	r=$(map_files | grep -n -x lib/rec.h | cut -d: -f1)
	h=$(map_files | grep -n -x cmd/tool.h | cut -d: -f1)
	[ "$r" -lt "$h" ]
}

@test "repomap: 'from .registry import apps' in a package's __init__.py is an edge to registry.py" {
	local d=$T/relimp
	mkdir -p "$d/pkg"
	printf 'from .registry import apps\nfrom .registry import Apps\n\n__all__ = ["apps", "Apps"]\n' \
	    >"$d/pkg/__init__.py"
	printf 'class Apps:\n    def get_app(self, name):\n        return name\n\n\napps = Apps()\n' >"$d/pkg/registry.py"
	# The same names in another module: only the import says which.
	printf 'def helper(x):\n    return x\n\n\napps = []\n\n\nclass Apps:\n    pass\n' >"$d/pkg/other.py"
	run -0 "$SYM" -R -t 1024 "$d"
	# Once read as the package itself (pkg/__init__.py, an edge to the
	# importing file, dropped), the import left other.py's Apps first.
	[ "$(jq -r .github_info.top_file <<<"$output")" = pkg/registry.py ]
	[ "$(map_files | head -n 1)" = pkg/registry.py ]
}

@test "repomap: a module of helpers ranks after the module of the project's subject" {
	d=$BATS_TEST_TMPDIR/helpers
	mkdir -p "$d/pkg"
	# Six files call utils.tidy(), five Order.place(): the helper's
	# rank, halved, falls behind the class the project is about.
	printf 'def tidy(x):\n    return x\n' >"$d/pkg/utils.py"
	printf 'class Order:\n    def place(self):\n        pass\n\n    def cancel(self):\n        pass\n' >"$d/pkg/order.py"
	for i in 1 2 3 4 5; do
		printf 'from pkg.utils import tidy\n\n\ndef use%s(o):\n    o.place()\n    return tidy(o)\n' "$i" >"$d/pkg/use$i.py"
	done
	printf 'from pkg.utils import tidy\n\n\ndef run(o):\n    return tidy(o)\n' >"$d/pkg/run.py"
	[ "$(first_files "$d" 2)" = "pkg/order.py pkg/utils.py " ]
	# The same two under other names: the one more called comes first.
	mv "$d/pkg/utils.py" "$d/pkg/tidying.py"
	sed -i 's/pkg\.utils/pkg.tidying/' "$d"/pkg/use*.py "$d/pkg/run.py"
	[ "$(first_files "$d" 2)" = "pkg/tidying.py pkg/order.py " ]
	# A module named for its helpers (requests' _internal_utils.py).
	mv "$d/pkg/tidying.py" "$d/pkg/_text_utils.py"
	sed -i 's/pkg\.tidying/pkg._text_utils/' "$d"/pkg/use*.py "$d/pkg/run.py"
	[ "$(first_files "$d" 2)" = "pkg/order.py pkg/_text_utils.py " ]
}

@test "repomap: a file named as an example or a test is not the project's" {
	d=$BATS_TEST_TMPDIR/examplename
	mkdir -p "$d"
	# pkg/sftp's request-example.go: an in-memory handler to copy, not
	# the library; store-test.js and store.spec.js likewise tests.
	printf 'package store\n\ntype Store struct{}\n\nfunc NewStore() *Store {\n\treturn nil\n}\n' >"$d/store.go"
	printf 'package store\n\ntype MemHandler struct{}\n\nfunc InMemHandler() *MemHandler {\n\tNewStore()\n\treturn nil\n}\n' >"$d/store-example.go"
	printf 'function checkStore() {\n  return 1;\n}\n' >"$d/store-test.js"
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(map_files | tr '\n' ' ')" = "store.go " ]
}

@test "repomap: a name imported from the file that defines it is that file's, not another definer's" {
	d=$BATS_TEST_TMPDIR/bind
	mkdir -p "$d/pkg"
	# Comment is token.py's, imported by each lexer; plugin.py's class
	# of the same name is another thing.
	printf 'class _Tok:\n    pass\n\n\nComment = _Tok()\n' >"$d/pkg/token.py"
	printf 'class Comment:\n    def tidy(self):\n        pass\n' >"$d/pkg/plugin.py"
	for i in 1 2 3 4; do
		printf 'from pkg.token import Comment\n\n\ndef lex%s():\n    return [Comment, Comment]\n' "$i" >"$d/pkg/lex$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	# plugin.py gets no edge from the lexers: its rank is teleport's.
	jq -e '[.symbols[] | select(.file == "pkg/plugin.py") | .rank] | max < 1e-5' <<<"$output"
	jq -e '[.symbols[] | select(.file == "pkg/token.py") | .rank] | max > 0.1' <<<"$output"
}

@test "repomap: a name a package re-exports is bound to the file that defines it" {
	d=$BATS_TEST_TMPDIR/reexp
	mkdir -p "$d/web/http" "$d/web/forms"
	printf 'class Request:\n    def host(self):\n        pass\n' >"$d/web/http/request.py"
	printf 'from .request import Request\n' >"$d/web/http/__init__.py"
	# Another Request, of the forms, that nothing imports.
	printf 'class Request:\n    def field(self):\n        pass\n' >"$d/web/forms/request.py"
	for i in 1 2 3 4; do
		printf 'from web.http import Request\n\n\ndef view%s(r):\n    return Request(r)\n' "$i" >"$d/web/view$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "web/forms/request.py") | .rank] | max < 1e-5' <<<"$output"
	jq -e '[.symbols[] | select(.file == "web/http/request.py") | .rank] | max > 0.1' <<<"$output"
}

@test "repomap: a method named main is no program's entry point" {
	d=$BATS_TEST_TMPDIR/mainmeth
	mkdir -p "$d/pkg"
	# Command.main (pip's, which every command inherits) calls tidy;
	# Order.place is called by two files.
	printf 'from pkg.shared import tidy\n\n\nclass Command:\n    def main(self):\n        return tidy(self)\n' >"$d/pkg/cmd.py"
	printf 'def tidy(x):\n    return x\n' >"$d/pkg/shared.py"
	printf 'class Order:\n    def place(self):\n        pass\n' >"$d/pkg/order.py"
	for i in 1 2; do
		printf 'def use%s(o):\n    return o.place()\n' "$i" >"$d/pkg/use$i.py"
	done
	[ "$(first_files "$d" 1)" = "pkg/order.py " ]
	# A function main at the top level is one: what it uses comes first.
	printf 'from pkg.shared import tidy\n\n\ndef main():\n    return tidy(1)\n' >"$d/pkg/cmd.py"
	[ "$(first_files "$d" 1)" = "pkg/shared.py " ]
}

@test "repomap: logging.getLogger and a match's group() are the standard library's" {
	d=$BATS_TEST_TMPDIR/stdlib
	mkdir -p "$d/pkg"
	# pip's _log.py wraps getLogger; every module calls logging's.
	printf 'import logging\n\n\ndef getLogger(name):\n    return logging.getLogger(name)\n' >"$d/pkg/_log.py"
	printf 'def group(items):\n    return items\n' >"$d/pkg/text.py"
	printf 'class Link:\n    def fetch(self):\n        pass\n' >"$d/pkg/link.py"
	for i in 1 2 3 4 5; do
		printf 'import logging\nimport re\n\nlogger = logging.getLogger(__name__)\n\n\ndef f%s(s):\n    return re.match("a", s).group(0)\n' "$i" >"$d/pkg/mod$i.py"
	done
	for i in 1 2; do
		printf 'def use%s(k):\n    return k.fetch()\n' "$i" >"$d/pkg/use$i.py"
	done
	[ "$(first_files "$d" 1)" = "pkg/link.py " ]
}

@test "repomap: json.dumps() after 'import json' is the library's, not the project's dumps" {
	d=$BATS_TEST_TMPDIR/qual
	mkdir -p "$d/pkg"
	printf 'def dumps(x):\n    return x\n' >"$d/pkg/serial.py"
	printf 'class Order:\n    def place(self):\n        pass\n' >"$d/pkg/order.py"
	for i in 1 2 3 4; do
		printf 'import json\nimport os.path as osp\n\n\ndef f%s(x):\n    return json.dumps(x) + osp.dumps(x)\n' "$i" >"$d/pkg/mod$i.py"
	done
	for i in 1 2; do
		printf 'def use%s(o):\n    return o.place()\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "pkg/serial.py") | .rank] | max < 1e-5' <<<"$output"
	# A module of the tree keeps its references: ser.dumps() is serial's.
	for i in 1 2 3 4; do
		printf 'from pkg import serial as ser\n\n\ndef f%s(x):\n    return ser.dumps(x)\n' "$i" >"$d/pkg/mod$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "pkg/serial.py") | .rank] | max > 0.1' <<<"$output"
}

@test "repomap: forms.Form after 'from web import forms' is that package's Form" {
	d=$BATS_TEST_TMPDIR/modqual
	mkdir -p "$d/web/forms" "$d/web/other"
	printf 'from .forms import Form\n' >"$d/web/forms/__init__.py"
	printf 'class Form:\n    def clean(self):\n        pass\n' >"$d/web/forms/forms.py"
	# Another Form, that nothing names through its module.
	printf 'class Form:\n    def other(self):\n        pass\n' >"$d/web/other/form.py"
	for i in 1 2 3; do
		printf 'from web import forms\n\n\nclass F%s(forms.Form):\n    pass\n' "$i" >"$d/web/v$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "web/other/form.py") | .rank] | max < 1e-5' <<<"$output"
	jq -e '[.symbols[] | select(.file == "web/forms/forms.py") | .rank] | max > 0.1' <<<"$output"
	# import web.forms as f: the same through the alias.
	for i in 1 2 3; do
		printf 'import web.forms as f\n\n\nclass F%s(f.Form):\n    pass\n' "$i" >"$d/web/v$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "web/other/form.py") | .rank] | max < 1e-5' <<<"$output"
}

@test "repomap: obj.name() is no call of the function of that name a file imports" {
	d=$BATS_TEST_TMPDIR/objcall
	mkdir -p "$d/pkg"
	printf 'def compute(x):\n    return x\n' >"$d/pkg/calc.py"
	printf 'class Engine:\n    def compute(self):\n        return 1\n' >"$d/pkg/engine.py"
	# The files call calc's compute() once and an engine's compute() on
	# an object: that one may be Engine's.
	for i in 1 2 3; do
		printf 'from pkg.calc import compute\n\n\ndef f%s(e):\n    return compute(1) + e.compute()\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "pkg/engine.py") | .rank] | max > 0.05' <<<"$output"
}

@test "repomap: the file that uses the project and is used ranks before the errors every module raises" {
	d=$BATS_TEST_TMPDIR/hub
	mkdir -p "$d/pkg"
	# Four modules raise errors.py's exceptions; engine.py drives the
	# four and is what the five front ends call.
	printf 'class AppError(Exception):\n    pass\n\n\nclass NotFound(AppError):\n    pass\n' >"$d/pkg/errors.py"
	for m in parser store cache net; do
		printf 'from pkg.errors import AppError, NotFound\n\n\ndef %s_open(x):\n    if not x:\n        raise AppError("no")\n    if x == 1:\n        raise NotFound("no")\n    return x\n' "$m" >"$d/pkg/$m.py"
	done
	cat >"$d/pkg/engine.py" <<'P'
from pkg.errors import AppError
from pkg.parser import parser_open
from pkg.store import store_open
from pkg.cache import cache_open
from pkg.net import net_open


class Engine:
    def run(self, q):
        if not q:
            raise AppError("empty")
        return parser_open(q) + store_open(q) + cache_open(q) + net_open(q)

    def submit(self):
        return None
P
	for m in cli api server worker web; do
		printf 'from pkg.engine import Engine\n\n\ndef %s_main(q):\n    e = Engine()\n    r = e.run(q)\n    e.submit()\n    return r\n' "$m" >"$d/pkg/$m.py"
	done
	[ "$(first_files "$d" 2)" = "pkg/engine.py pkg/errors.py " ]
}

@test "repomap: a small map shows the best of several files, not one file's every function" {
	d=$BATS_TEST_TMPDIR/spread
	mkdir -p "$d/pkg"
	# tables.py ranks first by its nine initialisers, which build.py
	# calls once each; each of four steps is called from three files.
	for i in 1 2 3 4 5 6 7 8 9; do
		printf 'def init_table_%s(state):\n    return state\n\n\n' "$i"
	done >"$d/pkg/tables.py"
	{
		printf 'from pkg.tables import *\n\n\ndef build(state):\n'
		for i in 1 2 3 4 5 6 7 8 9; do
			printf '    init_table_%s(state)\n' "$i"
		done
	} >"$d/pkg/build.py"
	for m in lexer parser emitter resolver; do
		printf 'def %s_step(x):\n    return x\n' "$m" >"$d/pkg/$m.py"
		for k in 1 2 3; do
			printf 'from pkg.%s import %s_step\n\n\ndef use%s_%s(x):\n    return %s_step(x)\n' "$m" "$m" "$k" "$m" "$m" >"$d/pkg/use${k}_$m.py"
		done
	done
	run -0 "$SYM" -R -t 120 "$d"
	[ "$(map_files | head -n 1)" = pkg/tables.py ]
	[ "$(map_files | wc -l)" -ge 4 ]
	# The initialisers shown are tables.py's first, not all nine.
	[ "$(jq -r .symbol_map <<<"$output" | grep -c init_table_)" -lt 9 ]
}

@test "repomap: a comment between a header and its body is no part of the signature" {
	d=$BATS_TEST_TMPDIR/sigcomment
	mkdir -p "$d/pkg"
	printf 'class Node:\n    # Set this to True for nodes that must come first.\n    must_be_first = False\n\n    def render(self):\n        return ""\n' >"$d/pkg/node.py"
	printf 'int step(int x) /* one step */\n{\n\treturn x;\n}\n' >"$d/pkg/step.c"
	for i in 1 2; do
		printf 'from pkg.node import Node\n\n\ndef use%s():\n    return Node().render()\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -r .symbol_map <<<"$output" >"$BATS_TEST_TMPDIR/map"
	grep -qx '│class Node:' "$BATS_TEST_TMPDIR/map"
	run -1 grep -F 'Set this to True' "$BATS_TEST_TMPDIR/map"
	# A comment on the header's own line stays with it.
	grep -qxF '│int step(int x) /* one step */' "$BATS_TEST_TMPDIR/map"
}

@test "repomap: lock(), Close() and the standard library's other methods are no calls of the project's" {
	d=$BATS_TEST_TMPDIR/stdmethods/src/acme
	mkdir -p "$d"
	# Pool.java defines lock() and unlock(); five files call them on a
	# java.util.concurrent lock, not on a Pool.  Engine is what three
	# files are written in.
	printf 'package acme;\nclass Pool {\n    void lock() {}\n    void unlock() {}\n}\n' >"$d/Pool.java"
	printf 'package acme;\npublic class Engine {\n    public void start() {}\n}\n' >"$d/Engine.java"
	for i in 1 2 3 4 5; do
		printf 'package acme;\nimport java.util.concurrent.locks.ReentrantLock;\nclass Job%s {\n    private final ReentrantLock mu = new ReentrantLock();\n    void step() {\n        mu.lock();\n        mu.unlock();\n    }\n}\n' "$i" >"$d/Job$i.java"
	done
	for i in 1 2 3; do
		printf 'package acme;\nclass Use%s {\n    Engine e = new Engine();\n}\n' "$i" >"$d/Use$i.java"
	done
	[ "$(first_files "$BATS_TEST_TMPDIR/stdmethods" 1)" = "src/acme/Engine.java " ]
	# Go: every file closes an os.File; conn.go's Close is another.
	d=$BATS_TEST_TMPDIR/stdgo
	mkdir -p "$d"
	printf 'package store\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() error {\n\treturn nil\n}\n' >"$d/conn.go"
	printf 'package store\n\ntype Store struct{}\n\nfunc Open() *Store {\n\treturn nil\n}\n' >"$d/store.go"
	for i in 1 2 3 4 5; do
		printf 'package store\n\nimport "os"\n\nfunc load%s(f *os.File) {\n\tf.Close()\n\tf.Close()\n}\n' "$i" >"$d/load$i.go"
	done
	for i in 1 2 3; do
		printf 'package store\n\nfunc use%s() *Store {\n\treturn Open()\n}\n' "$i" >"$d/use$i.go"
	done
	[ "$(first_files "$d" 1)" = "store.go " ]
}

@test "repomap: StringUtils.java is a module of helpers" {
	d=$BATS_TEST_TMPDIR/camelhelpers/src/acme
	mkdir -p "$d"
	# Eight files call StringUtils.tidy(), three are written in Order:
	# the helper's rank, halved, falls behind the class the project is
	# about.
	printf 'package acme;\npublic class StringUtils {\n    public static String tidy(String s) { return s; }\n}\n' >"$d/StringUtils.java"
	printf 'package acme;\npublic class Order {\n    public void place() {}\n}\n' >"$d/Order.java"
	for i in 1 2 3; do
		printf 'package acme;\nclass Use%s {\n    String f(Order o) {\n        o.place();\n        return StringUtils.tidy("x");\n    }\n}\n' "$i" >"$d/Use$i.java"
	done
	for i in 1 2 3 4 5; do
		printf 'package acme;\nclass Run%s {\n    String f() {\n        return StringUtils.tidy("x");\n    }\n}\n' "$i" >"$d/Run$i.java"
	done
	[ "$(first_files "$BATS_TEST_TMPDIR/camelhelpers" 2)" = "src/acme/Order.java src/acme/StringUtils.java " ]
	# Under a name of its own, the one more called comes first.
	mv "$d/StringUtils.java" "$d/Tidying.java"
	sed -i 's/StringUtils/Tidying/g' "$d"/*.java
	[ "$(first_files "$BATS_TEST_TMPDIR/camelhelpers" 2)" = "src/acme/Tidying.java src/acme/Order.java " ]
}

@test "repomap: 'from http.cookies import Morsel' is the standard library's, not the tree's cookies.py" {
	d=$BATS_TEST_TMPDIR/stdpkg
	mkdir -p "$d"
	# The tree is the package (requests as pip vendors it): its
	# cookies.py is requests.cookies; compat.py's import is http's.
	printf 'def jar_of(x):\n    return x\n\n\ndef merge_jars(a, b):\n    return a\n' >"$d/cookies.py"
	printf 'from http.cookies import Morsel\nfrom collections.abc import Mapping\n\nbasestring = (str, bytes)\n' >"$d/compat.py"
	printf 'class Engine:\n    def run(self):\n        pass\n' >"$d/engine.py"
	for i in 1 2 3 4 5; do
		printf 'from .compat import basestring, Mapping\nfrom .engine import Engine\n\n\ndef use%s(x):\n    if isinstance(x, basestring):\n        return Engine()\n' "$i" >"$d/use$i.py"
	done
	# compat.py, imported by every module, handed its rank on to the
	# cookies.py nothing imports.
	[ "$(first_files "$d" 2)" = "engine.py compat.py " ]
}

# make_sites_tree DIR: a header declaring functions that three .c files
# other than its own define, and a program that calls them.
make_sites_tree() {
	local d=$1
	mkdir -p "$d/src/mod" "$d/cmd"
	cat >"$d/src/server.h" <<'C'
struct client;
void addReply(struct client *c, const char *s);
void addReplyError(struct client *c, const char *s);
int processCommand(struct client *c);
void *lookupKey(const char *key);
void dbAdd(const char *key, void *val);
int aclCheck(struct client *c);
int aclAllow(struct client *c);
int serverMain(int argc, char **argv);
C
	cat >"$d/src/networking.c" <<'C'
#include "server.h"
void addReply(struct client *c, const char *s)
{
	(void)c; (void)s;
}
void addReplyError(struct client *c, const char *s)
{
	addReply(c, s);
}
C
	cat >"$d/src/db.c" <<'C'
#include "server.h"
void *lookupKey(const char *key)
{
	return (void *)key;
}
void dbAdd(const char *key, void *val)
{
	(void)key; (void)val;
}
C
	cat >"$d/src/mod/acl.c" <<'C'
#include "../server.h"
int aclCheck(struct client *c)
{
	return c != 0;
}
int aclAllow(struct client *c)
{
	return aclCheck(c);
}
C
	cat >"$d/src/server.c" <<'C'
#include "server.h"
int processCommand(struct client *c)
{
	if (!aclAllow(c) || lookupKey("k") == 0)
		addReplyError(c, "no");
	dbAdd("k", 0);
	addReply(c, "ok");
	return aclCheck(c);
}
int serverMain(int argc, char **argv)
{
	(void)argc; (void)argv;
	return processCommand(0);
}
C
	printf '#include "../src/server.h"\nint main(int argc, char **argv)\n{\n\treturn serverMain(argc, argv);\n}\n' >"$d/cmd/main.c"
}

@test "repomap: a header's declaration names the .c files that define it; those files are listed at the top" {
	d=$BATS_TEST_TMPDIR/sites
	make_sites_tree "$d"
	run -0 "$SYM" -R -t 1024 "$d"
	jq -r .symbol_map <<<"$output" >"$T/map"
	# Each declaration once, at the header, with where it is defined
	# (relative to the header's directory); the header's own server.c
	# goes without saying.
	grep -qxF '│void addReply(struct client *c, const char *s);  // networking.c' "$T/map"
	grep -qxF '│void *lookupKey(const char *key);  // db.c' "$T/map"
	grep -qxF '│int aclCheck(struct client *c);  // mod/acl.c' "$T/map"
	grep -qxF '│int processCommand(struct client *c);' "$T/map"
	[ "$(grep -c addReplyError "$T/map")" = 1 ]
	# The files that define them are no headings: listed before the
	# first, with their counts.
	grep -qxF 'src/networking.c (defines 2 functions declared below)' "$T/map"
	grep -qxF 'src/db.c (defines 2 functions declared below)' "$T/map"
	grep -qxF 'src/mod/acl.c (defines 2 functions declared below)' "$T/map"
	grep -qxF 'src/server.c (defines 2 functions declared below)' "$T/map"
	h=$(grep -n -x 'src/server.h:' "$T/map" | cut -d: -f1)
	l=$(grep -n -F 'src/db.c (defines' "$T/map" | cut -d: -f1)
	[ "$l" -lt "$h" ]
	run -1 grep -E '^ *src/(networking|db|mod/acl)\.c:$' "$T/map"
	# -J: each symbol's defining files, by path from the top.
	run -0 "$SYM" -R -t 1024 "$d"
	jq -e '.symbols[] | select(.name == "addReply") | .defined_in == ["src/networking.c"]' <<<"$output"
	jq -e '.symbols[] | select(.name == "aclAllow") | .defined_in == ["src/mod/acl.c"]' <<<"$output"
	jq -e '.symbols[] | select(.name == "processCommand") | .defined_in == ["src/server.c"]' <<<"$output"
	jq -e '.symbols[] | select(.name == "main") | has("defined_in") | not' <<<"$output"
}

@test "repomap: a map too small for the definers' lines still keeps its budget" {
	d=$BATS_TEST_TMPDIR/sitesbudget
	make_sites_tree "$d"
	for budget in 30 50 80 120; do
		run -0 "$SYM" -R -t "$budget" "$d"
		[ "$(jq -r .github_info.map_tokens <<<"$output")" -le "$budget" ]
	done
	# Here the list is there, and still within the budget.
	jq -r .symbol_map <<<"$output" | grep -q '^src/[a-z]*\.c (defines 2 functions declared below)$'
}

@test "repomap: a file's exception hierarchy is one line of the map, not one line a class" {
	d=$BATS_TEST_TMPDIR/excfold
	mkdir -p "$d/pkg"
	cat >"$d/pkg/errors.py" <<'P'
class AppError(Exception):
    pass


class NotFound(AppError):
    pass


class Timeout(AppError):
    pass


class ReadTimeout(Timeout):
    pass


class ConnectTimeout(Timeout):
    pass


class BadInput(AppError, ValueError):
    pass
P
	printf 'class ParseError(Exception):\n    pass\n\n\nclass LexError(ParseError):\n    pass\n' >"$d/pkg/parse.py"
	printf 'from pkg.errors import AppError, NotFound, Timeout, ReadTimeout, ConnectTimeout, BadInput\nfrom pkg.parse import ParseError, LexError\n\n\nclass Engine:\n    def run(self, q):\n        if not q:\n            raise NotFound(q)\n        raise ReadTimeout(ConnectTimeout(Timeout(BadInput(AppError(LexError(ParseError()))))))\n' >"$d/pkg/engine.py"
	for i in 1 2 3; do
		printf 'from pkg.engine import Engine\nfrom pkg.errors import AppError, NotFound\n\n\ndef use%s():\n    try:\n        return Engine().run(1)\n    except NotFound:\n        raise AppError()\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -r .symbol_map <<<"$output" >"$T/map"
	# Six classes of errors.py, ReadTimeout's base through Timeout: one
	# line, the best first.
	grep -qxE '│6 exception classes \((AppError|NotFound), (AppError|NotFound), [A-Za-z]+, \.\.\.\)' "$T/map"
	run -1 grep -E '^│class (NotFound|Timeout|ReadTimeout|ConnectTimeout|BadInput|AppError)\b' "$T/map"
	# Two are no hierarchy that crowds anything out: shown as they are.
	grep -qx '│class ParseError(Exception):' "$T/map"
	grep -qx '│class LexError(ParseError):' "$T/map"
	grep -qx '│class Engine:' "$T/map"
	# -J: the line's definition names the classes folded into it.
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '[.symbols[] | select(.file == "pkg/errors.py")] | length == 1' <<<"$output"
	jq -e '.symbols[] | select(.file == "pkg/errors.py") | .folded | length == 5' <<<"$output"
}

@test "repomap: what a package's __init__ exports ranks before what only its modules use" {
	d=$BATS_TEST_TMPDIR/public
	mkdir -p "$d/pkg"
	printf 'from .client import Client\nfrom .api import fetch\n' >"$d/pkg/__init__.py"
	printf 'class Client:\n    def send(self, data):\n        return data\n' >"$d/pkg/client.py"
	printf 'from .client import Client\n\n\ndef fetch(url):\n    return Client().send(url)\n' >"$d/pkg/api.py"
	printf 'class Frame:\n    def __init__(self, data):\n        self.data = data\n\n\nclass Header:\n    pass\n\n\nclass Packet:\n    pass\n' >"$d/pkg/wire.py"
	for i in 1 2 3; do
		printf 'from .wire import Frame, Header, Packet\n\n\ndef codec%s(x):\n    return Frame(Header()), Packet()\n' "$i" >"$d/pkg/codec$i.py"
	done
	# wire.py, which three modules inside use, came first.
	[ "$(first_files "$d" 2)" = "pkg/client.py pkg/api.py " ]
}

@test "repomap: a package.json bin is a program's entry: listed at the top, what it runs first" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir -p "$d/bin" "$d/lib"
	printf '{\n  "name": "tool",\n  "bin": {"tool": "./bin/tool.js"}\n}\n' >"$d/package.json"
	cat >"$d/bin/tool.js" <<'J'
const { runAll } = require('../lib/run.js')
function parseArgs(argv) { return argv.slice(2) }
function usage() { return 'usage: tool' }
function report(r) { return String(r) }
report(runAll(parseArgs(process.argv)) || usage())
J
	printf 'const { fmt } = require("./fmt.js")\nfunction runAll(args) { return fmt(args) }\nmodule.exports = { runAll }\n' >"$d/lib/run.js"
	printf 'function fmt(x) { return x }\nfunction pad(x) { return x }\nmodule.exports = { fmt, pad }\n' >"$d/lib/fmt.js"
	for i in 1 2 3; do
		printf 'const { fmt, pad } = require("./fmt.js")\nfunction part%s(x) { return pad(fmt(x)) }\nmodule.exports = { part%s }\n' "$i" "$i" >"$d/lib/part$i.js"
	done
	# The program defines three functions: listed all the same.
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(jq -r '.symbol_map | split("\n")[:2] | join(" ")' <<<"$output")" = "package.json bin/tool.js" ]
	# What it runs first; the helper the library's modules call, after.
	[ "$(first_files "$d" 2)" = "lib/run.js lib/fmt.js " ]
}

@test "repomap: a Python console script is a program's entry, from pyproject.toml, setup.cfg or setup.py" {
	local f
	d=$BATS_TEST_TMPDIR/scripts
	mkdir -p "$d/src/tool"
	# shell.py defines no main and is not named as entry points are: only
	# the manifest says it runs the program.
	printf 'from tool.engine import run_all\n\n\ndef parse_args(argv):\n    return argv[1:]\n\n\ndef run():\n    return run_all(parse_args([]))\n' >"$d/src/tool/shell.py"
	printf 'from tool.fmt import fmt\n\n\ndef run_all(args):\n    return fmt(args)\n' >"$d/src/tool/engine.py"
	printf 'def fmt(x):\n    return x\n\n\ndef pad(x):\n    return x\n' >"$d/src/tool/fmt.py"
	for i in 1 2 3; do
		printf 'from tool.fmt import fmt, pad\n\n\ndef part%s(x):\n    return pad(fmt(x))\n' "$i" >"$d/src/tool/part$i.py"
	done
	# Each names fmt.py too, as something that is not a script.
	for f in pyproject.toml setup.cfg setup.py; do
		rm -f "$d/pyproject.toml" "$d/setup.cfg" "$d/setup.py"
		case $f in
		pyproject.toml) printf '[project]\nname = "tool"\n\n[project.scripts]\ntool = "tool.shell:run"\n\n[tool.other]\nx = "tool.fmt:pad"\n' ;;
		setup.cfg) printf '[metadata]\nname = tool\n\n[options.entry_points]\nconsole_scripts =\n    tool = tool.shell:run\npytest11 =\n    plug = tool.fmt:pad\n' ;;
		setup.py) printf 'from setuptools import setup\n\nsetup(\n    name="tool",\n    entry_points={\n        "console_scripts": [\n            "tool = tool.shell:run",\n        ],\n        "pytest11": ["plug = tool.fmt:pad"],\n    },\n)\n' ;;
		esac >"$d/$f"
		run -0 "$SYM" -R -t 4000 "$d"
		# Listed at the top; what it runs first, before the helper.
		[ "$(jq -r '.symbol_map | split("\n")[:3] | join(" ")' <<<"$output")" = "$f src/tool/shell.py " ]
		[ "$(map_files | head -n 1)" = src/tool/engine.py ]
	done
}

@test "repomap: a module's constants are one line of the map, not one line each" {
	d=$BATS_TEST_TMPDIR/constfold
	mkdir -p "$d/pkg"
	printf '__title__ = "pkg"\n__version__ = "1.0"\n__author__ = "A"\n__license__ = "MIT"\n__url__ = "https://example.org"\n' >"$d/pkg/__version__.py"
	printf 'LIMIT = 30\nCODES = (\n    301,\n    302,\n)\n' >"$d/pkg/limits.py"
	printf 'from pkg.__version__ import __title__, __version__, __author__, __license__, __url__\nfrom pkg.limits import LIMIT, CODES\n\n\nclass Engine:\n    def run(self):\n        return __title__ + __version__ + __author__ + __license__ + __url__ + str(LIMIT + len(CODES))\n' >"$d/pkg/engine.py"
	for i in 1 2; do
		printf 'from pkg.engine import Engine\nfrom pkg.__version__ import __version__\n\n\ndef use%s():\n    return Engine().run() + __version__\n' "$i" >"$d/pkg/use$i.py"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -r .symbol_map <<<"$output" >"$T/map"
	grep -qxE '│5 constants \(__[a-z]+__, __[a-z]+__, __[a-z]+__, \.\.\.\)' "$T/map"
	run -1 grep -E '^│__(title|version|author|license|url)__ =' "$T/map"
	# Two are shown as they are, the whole tuple.
	grep -qx '│LIMIT = 30' "$T/map"
	grep -qx '│CODES = (' "$T/map"
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '.symbols[] | select(.file == "pkg/__version__.py") | .folded | length == 4' <<<"$output"
}

@test "repomap: a program's main file ranks before files nobody calls, after the library it uses" {
	d=$BATS_TEST_TMPDIR/mainkeep
	mkdir -p "$d/lib" "$d/src"
	for x in a b c d e f; do
		printf 'int %s_run(int);\nint %s_step(int);\n' "$x" "$x" >"$d/lib/$x.h"
		printf '#include "a.h"\n#include "b.h"\n#include "c.h"\n#include "d.h"\n#include "e.h"\n#include "f.h"\nint %s_run(int n)\n{\n\treturn a_step(n) + b_step(n) + c_step(n) + d_step(n) + e_step(n) + f_step(n);\n}\nint %s_step(int n)\n{\n\treturn n;\n}\n' "$x" "$x" >"$d/lib/$x.c"
	done
	cat >"$d/src/main.c" <<'C'
#include "../lib/a.h"
static int parse(int argc)
{
	return argc;
}
static int report(int r)
{
	return r;
}
int main(int argc, char **argv)
{
	(void)argv;
	return report(a_run(parse(argc)));
}
C
	# Files of ten functions each that nothing calls.
	for i in 1 2 3 4; do
		for k in 1 2 3 4 5 6 7 8 9 10; do
			printf 'int extra%s_%s(int n)\n{\n\treturn n;\n}\n' "$i" "$k"
		done >"$d/src/extra$i.c"
	done
	first_files "$d" 7 >"$T/first"
	# The six library units first, then the program: it keeps three of
	# its ten shares of teleport (with one, the four files of unused
	# functions came before it).
	[[ " $(cat "$T/first")" == *" src/main.c "* ]]
	run -1 grep -q extra "$T/first"
}
