#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# C and C++ headers scanned by lib/symbols_cscan.c, not parsed by
# tree-sitter: the fixture tree tests/fixtures/repomap/cscan (templates,
# macros, nested namespaces, operators, enums, friend functions, #if 0,
# raw strings) gives the definitions and the map it should.
# tests/unit/t_symbols -R -d dumps the table: F, D (file, name, kind,
# line, hidden, rank, scope) and R (file, name) lines.
# UK_SYMBOLS_TSHEADERS=1 parses headers with tree-sitter as before.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	SYM=${UK_UNIT:-$TOP/build/unit}/t_symbols
	[ -x "$SYM" ] || SYM=$TOP/build/unit/t_symbols
	FX=$TOP/tests/fixtures/repomap/cscan
}

teardown() {
	common_teardown
}

# defs DUMP: "name kind line scope" of each definition of shapes.hpp.
defs() {
	awk -F'\t' '$1 == "F" && $3 == "include/geo/shapes.hpp" { f = $2 }
	    $1 == "D" && $2 == f { print $3, $4, $5, $8 }' "$1"
}

@test "cscan: a header's classes, functions, enums, typedefs and macros, in their scopes" {
	run -0 "$SYM" -R -t 1024 -d "$T/d" "$FX"
	run -0 defs "$T/d"
	[ "$status" -eq 0 ]
	[ "$output" = "GEO_MAX macro 5 
tag class 9 detail
point class 14 geo
point function 17 point
length function 19 point
swap function 24 point
axis type 25 point
value_type type 26 point
scalar type 27 point
color type 32 geo
raw_pair class 34 geo
raw_pair_t type 34 geo
visit_fn type 35 geo
old_area function 38 geo
area function 41 geo
banner function 48 geo" ]
}

@test "cscan: #if 0, raw strings, operators and macros' calls define nothing" {
	run -0 "$SYM" -R -t 1024 -d "$T/d" "$FX"
	run -0 cut -f 3 "$T/d"
	[ "$status" -eq 0 ]
	for name in dead_function dead_class not_a_class not_a_function \
	    GEO_API GEO_VERSION operator; do
		! grep -qP "^D\t[0-9]+\t$name" "$T/d" ||
		    { echo "$name defined"; return 1; }
	done
	# Bodies' calls, a module and a macro's call are references.
	for name in check norm '"geo/config.hpp"' GEO_DEPRECATED; do
		grep -qP "^R\t[0-9]+\t\Q$name\E\t" "$T/d" ||
		    { echo "no reference to $name"; return 1; }
	done
	# tree-sitter took GEO_API for the class, and defined what #if 0 hides.
	UK_SYMBOLS_TSHEADERS=1 run -0 "$SYM" -R -t 1024 -d "$T/ts" "$FX"
	grep -qP '^D\t[0-9]+\tdead_function\t' "$T/ts"
	! grep -qP '^D\t[0-9]+\tpoint\tclass\t' "$T/ts"
}

@test "cscan: the map shows the class, its members and the functions the program calls" {
	run -0 "$SYM" -R -t 1024 "$FX"
	run -0 jq -r .symbol_map <<<"$output"
	[ "$status" -eq 0 ]
	[[ $output == *"│template <typename T, int Dim = 2>"$'\n'"│class GEO_API point : public detail::tag<T>"* ]]
	[[ $output == *"│  T length() const GEO_NOEXCEPT"* ]]
	[[ $output == *"│double area(const point<double>& p);"* ]]
	[[ $output == *"│typedef int (*visit_fn)(const raw_pair_t *p, void *arg);"* ]]
	[[ $output != *dead_* ]]
	[[ $output != *not_a_* ]]
	# shapes.hpp is the tree's first file.
	run -0 "$SYM" -R -t 1024 "$FX"
	run -0 jq -r .github_info.top_file <<<"$output"
	[ "$output" = include/geo/shapes.hpp ]
	# Its doc comment is the definition's.
	run -0 "$SYM" -R -t 1024 "$FX"
	run -0 jq -r '.symbols[] | select(.name == "area") | .doc' <<<"$output"
	[ "$output" = "The area of the box around p." ]
}

@test "cscan: a header whose braces never close, or a bare directive, ends the scan cleanly" {
	mkdir -p "$T/tree"
	printf 'namespace a {\nclass b {\n  int c(int x) { if (x) {\n#if\n#else\n' \
	    >"$T/tree/broken.hpp"
	printf 'int ok(void);\n#endif\n#endif\n}}}}}\nint after(void);\n' \
	    >"$T/tree/extra.h"
	run -0 "$SYM" -R -t 1024 -d "$T/d" "$T/tree"
	grep -qP '^D\t[0-9]+\tb\tclass\t' "$T/d"
	grep -qP '^D\t[0-9]+\tafter\tfunction\t5\t' "$T/d"
}

@test "name nodes: a name many headers define ranks as its every edge did" {
	# 8 headers define value(); 100 files call it 82 times each: 8 x
	# 8,200 references make it a node of the ranking (symbols_names.c).
	mkdir -p "$T/tree/inc" "$T/tree/src"
	for h in 0 1 2 3 4 5 6 7; do
		printf 'struct box%d { int value() const; };\nint helper%d(int);\n' \
		    "$h" "$h" >"$T/tree/inc/box$h.hpp"
	done
	for f in $(seq 0 99); do
		{
			printf '#include "../inc/box%d.hpp"\nint f%d(box%d &b) {\n' \
			    $((f % 8)) "$f" $((f % 8))
			for c in $(seq 1 82); do printf '  b.value();\n'; done
			printf '  return helper%d(1);\n}\n' $((f % 3))
		} >"$T/tree/src/f$f.cpp"
	done
	run -0 "$SYM" -R -t 1024 "$T/tree"
	echo "$output" >"$T/nodes.json"
	UK_SYMBOLS_EDGES=1 run -0 "$SYM" -R -t 1024 "$T/tree"
	echo "$output" >"$T/edges.json"
	cmp "$T/nodes.json" "$T/edges.json"
	run -0 jq -r '.github_info.top_file' "$T/nodes.json"
	[[ $output == inc/box* ]]
}
