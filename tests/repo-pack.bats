#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch --pack: a repository's files themselves, whole, best-ranked
# first, within a budget of tokens; --include and --exclude for the map
# and the pack.  On a local git repository made here (the local route,
# -P), whose files and ranks are known.
bats_require_minimum_version 1.5.0
load helpers/common
load helpers/repo_fixture

# make_pack_repo DIR: a header declaring what three .c files define, a
# program, a big generated-looking table of data nobody calls, a test.
make_pack_repo() {
	local d=$1 i
	mkdir -p "$d/src/mod" "$d/cmd" "$d/tests" && cd "$d" || return 1
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	printf 'The server.\n' >README.md
	cat >src/server.h <<'C'
struct client;
void addReply(struct client *c, const char *s);
int processCommand(struct client *c);
void *lookupKey(const char *key);
int aclCheck(struct client *c);
C
	printf '#include "server.h"\nvoid addReply(struct client *c, const char *s)\n{\n\t(void)c; (void)s;\n}\n' >src/networking.c
	printf '#include "server.h"\nvoid *lookupKey(const char *key)\n{\n\treturn (void *)key;\n}\n' >src/db.c
	printf '#include "../server.h"\nint aclCheck(struct client *c)\n{\n\treturn c != 0;\n}\n' >src/mod/acl.c
	cat >src/server.c <<'C'
#include "server.h"
int processCommand(struct client *c)
{
	if (lookupKey("k") == 0 || !aclCheck(c))
		addReply(c, "no");
	return 0;
}
C
	printf '#include "../src/server.h"\nint main(void)\n{\n\treturn processCommand(0);\n}\n' >cmd/main.c
	# Well ranked (the header's functions use it) but big.
	{
		printf '#include "server.h"\nconst char *big_table(int i)\n{\n\tstatic const char *t[] = {\n'
		for i in $(seq 1 400); do printf '\t\t"entry number %d of the table",\n' "$i"; done
		printf '\t};\n\treturn t[i];\n}\n'
	} >src/table.c
	for i in 1 2 3; do
		printf '#include "server.h"\nint use%s(void)\n{\n\tbig_table(%s);\n\treturn processCommand(0);\n}\n' "$i" "$i" >src/use$i.c
	done
	printf '#include "../src/server.h"\nint test_reply(void)\n{\n\taddReply(0, "x");\n\treturn 0;\n}\n' >tests/test_reply.c
	git add -A
	git commit -q -m init
	git branch dev
	cd - >/dev/null || return 1
}

# The repository both ways: a local path (-P) and as acme/tool's archive,
# served on loopback (for the cache, which keeps URLs only).
setup_file() {
	make_pack_repo "$BATS_FILE_TMPDIR/pk"
	ln -s pk "$BATS_FILE_TMPDIR/src"
	serve_repo "$BATS_FILE_TMPDIR/pk" "$BATS_FILE_TMPDIR/srv"
	repo_serve_file
}

teardown_file() { repo_unserve_file; }

setup() {
	repo_setup
	PK=$BATS_FILE_TMPDIR/pk
}

teardown() {
	common_teardown
}

# packed: the paths of the files in $output's pack, in order.
packed() {
	jq -r .content <<<"$output" | sed -n 's/^## \(.*\)$/\1/p' | grep -vx 'Left out'
}

@test "--pack: whole files by rank within the budget, the rest listed as left out" {
	run -0 urlfetch -C -q -P --pack 400 "$PK"
	jq -r .content <<<"$output" >"$T/pack"
	# Within the budget, counted in the tokenizer.
	[ "$("$TOKENS" cl100k_base "$T/pack")" -le 400 ]
	[ "$(jq -r .github_info.pack_tokens <<<"$output")" = "$("$TOKENS" cl100k_base "$T/pack")" ]
	[ "$(jq -r .github_info.pack_budget <<<"$output")" = 400 ]
	# In the order of files_ranked, packed ones only.
	jq -r '.github_info.files_ranked[] | select(.packed) | .path' <<<"$output" >"$T/want"
	packed >"$T/got"
	diff "$T/want" "$T/got"
	[ "$(head -n 1 "$T/got")" = src/server.h ]
	# Each file whole, in a fence after its path.
	for f in $(cat "$T/got"); do
		awk -v f="## $f" '$0 == f { on = 1; getline; getline; next } on && /^```/ { exit } on' "$T/pack" >"$T/body"
		diff "$PK/$f" "$T/body"
	done
	# The big table ranks among the packed files but does not fit: it
	# is skipped for smaller ones after it, and named with its tokens.
	t=$(jq -r '.github_info.files_ranked | map(.path) | index("src/table.c")' <<<"$output")
	l=$(jq -r '[.github_info.files_ranked | to_entries[] | select(.value.packed) | .key] | last' <<<"$output")
	[ "$t" -lt "$l" ]
	# Every indexed file with its rank and tokens.
	jq -e '.github_info.files_ranked | length == 11 and all(has("rank") and has("tokens"))' <<<"$output"
	jq -e '.github_info.pack_files == ([.github_info.files_ranked[] | select(.packed)] | length)' <<<"$output"
	run -1 grep -x '## src/table.c' "$T/pack"
	grep -qE '^- src/table\.c \([0-9]+ tokens\)$' "$T/pack"
}

@test "--pack with room for everything packs every file and lists nothing" {
	run -0 urlfetch -C -q -P --pack 100000 "$PK"
	jq -r .content <<<"$output" >"$T/pack"
	[ "$(packed | wc -l)" = 11 ]
	run -1 grep -x '## Left out' "$T/pack"
}

@test "--pack in a small budget: files before the names of those left out" {
	run -0 urlfetch -C -q -P --pack 60 "$PK"
	jq -r .content <<<"$output" >"$T/pack"
	[ "$("$TOKENS" cl100k_base "$T/pack")" -le 60 ]
	[ "$(jq -r .github_info.pack_budget <<<"$output")" = 60 ]
	# The one small file that fits is packed; the others are counted,
	# not named, when naming them would not fit.
	[ "$(packed)" = cmd/main.c ]
	grep -qx -- '- 2 files over the budget' "$T/pack"
	grep -qx -- '- 8 files ranked lower' "$T/pack"
	# Too small for any file: the heading and the count.
	run -0 urlfetch -C -q -P --pack 20 "$PK"
	[ "$(jq -r .content <<<"$output")" = "$(printf '# pk: its files by rank\n\n## Left out\n\n- 11 files over the budget')" ]
	# The map is there as ever.
	jq -e '.symbol_map | test("src/server.h:")' <<<"$output"
}

@test "--pack: a bad budget is a usage error" {
	run -2 urlfetch --pack abc "$PK"
	[[ "$output" == *"--pack: not a token count: 'abc'"* ]]
	run -2 urlfetch --pack 0 "$PK"
}

@test "--include and --exclude choose the map's and the pack's files, gitignore-style" {
	run -0 urlfetch -C -q -P -J --pack 100000 --include 'src/' --exclude 'use*.c' "$PK"
	packed | sort >"$T/got"
	printf '%s\n' src/db.c src/mod/acl.c src/networking.c src/server.c src/server.h src/table.c >"$T/want"
	diff "$T/want" "$T/got"
	jq -r '[.symbols[].file] | unique | .[]' <<<"$output" >"$T/map"
	run -1 grep -E '^(cmd|tests)/|use[0-9]' "$T/map"
	jq -e '.github_info.include == ["src/"] and .github_info.exclude == ["use*.c"]' <<<"$output"
	# A pattern with a slash inside is anchored at the root; ** crosses
	# directories; without a slash it matches at any depth.
	run -0 urlfetch -C -q -P --pack 100000 --include '**/acl.c' --include '/cmd/*.c' "$PK"
	[ "$(packed | sort | tr '\n' ' ')" = "cmd/main.c src/mod/acl.c " ]
	run -0 urlfetch -C -q -P --pack 100000 --exclude '*.c' "$PK"
	[ "$(packed | tr '\n' ' ')" = "src/server.h " ]
	run -0 urlfetch -C -q -P --pack 100000 --include 'mod' "$PK"
	[ "$(packed | tr '\n' ' ')" = "src/mod/acl.c " ]
}

@test "--pack and the globs are part of what a cached record answers" {
	u=https://github.com/acme/tool
	run -0 urlfetch -q --pack 400 "$u"
	jq -e '.cached == false and (.content | test("^# acme/tool: its files by rank"))' <<<"$output"
	run -0 urlfetch -q --pack 400 "$u"
	jq -e '.cached == true and .github_info.pack_budget == 400' <<<"$output"
	run -0 urlfetch -q --pack 500 "$u"
	jq -e '.cached == false and .github_info.pack_budget == 500' <<<"$output"
	run -0 urlfetch -q --pack 500 --exclude '*.c' "$u"
	jq -e '.cached == false and .github_info.exclude == ["*.c"]' <<<"$output"
	run -0 urlfetch -q --pack 500 --exclude '*.c' "$u"
	jq -e '.cached == true' <<<"$output"
	run -0 urlfetch -q "$u"
	jq -e '.cached == false and (has("content") | not)' <<<"$output"
}

@test "a .gitignore at any level leaves what it ignores out of the map and the pack" {
	d=$BATS_TEST_TMPDIR/ign
	mkdir -p "$d/src/gen" "$d/src/sub" && cd "$d"
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	printf '# generated\n*.gen.c\n!keep.gen.c\n' >.gitignore
	printf 'build/\n' >src/sub/.gitignore
	mkdir -p src/sub/build
	for f in src/main.c src/a.gen.c src/keep.gen.c src/sub/b.c src/sub/build/c.c src/gen/d.c; do
		n=$(basename "$f" .c | tr -c 'a-z\n' _)
		printf 'int f_%s(void)\n{\n\treturn 0;\n}\n' "$n" >"$f"
	done
	# Committed though ignored (git add -f), as generated files often are.
	git add -A
	git add -f src/a.gen.c src/sub/build/c.c
	git commit -q -m init
	cd - >/dev/null
	run -0 urlfetch -C -q -P -J --pack 100000 "$d"
	packed | sort >"$T/got"
	printf '%s\n' src/gen/d.c src/keep.gen.c src/main.c src/sub/b.c >"$T/want"
	diff "$T/want" "$T/got"
	jq -r '[.symbols[].file] | unique | .[]' <<<"$output" >"$T/map"
	diff "$T/want" "$T/map"
}

@test "a .gitignore of patterns that backtrack without end does not hang the step" {
	d=$BATS_TEST_TMPDIR/bomb
	mkdir -p "$d/x/y/w/v/u/t/s" && cd "$d"
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	n=$(printf 'a%.0s' $(seq 1 200))
	printf 'int f(void)\n{\n\treturn 0;\n}\n' >"$n.c"
	printf 'int g(void)\n{\n\treturn 0;\n}\n' >x/y/w/v/u/t/s/q.c
	git add -A
	git commit -q -m files
	# Added last: git's own matching of them takes minutes on add -A.
	printf '*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n**/**/**/**/**/**/**/**/**/z\n' >.gitignore
	git add .gitignore
	git commit -q -m ignore
	cd - >/dev/null
	run -0 timeout 20 urlfetch -C -q -P --pack 1000 "$d"
	[ "$(jq -r '.github_info.files_ranked | length' <<<"$output")" = 2 ]
}
