#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A C or C++ header's skeleton (lib/symbols_skel.c): its function bodies
# blanked before tree-sitter parses it, their references lexed.  The
# definitions and their signatures stay; a macro statement in a body is
# no definition; a body whose braces a conditional directive may unpair
# is parsed as it is; raw strings, character literals and digit
# separators hold no brace.  tests/unit/t_symbols -R -d dumps the table:
# F, D (file, name, kind, line...) and R (file, name) lines.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	# The skeleton is what tree-sitter parses of a header when headers
	# are not scanned by lib/symbols_cscan.c (tests/repomap-cscan.bats).
	export UK_SYMBOLS_TSHEADERS=1
	SYM=${UK_UNIT:-$TOP/build/unit}/t_symbols
	[ -x "$SYM" ] || SYM=$TOP/build/unit/t_symbols
}

teardown() {
	common_teardown
}

@test "skeleton: a macro statement in a header's body is a reference, not a definition" {
	mkdir -p "$T/tree/lib"
	cat >"$T/tree/lib/k.hpp" <<'H'
class K {
public:
	int first() const {
		LOCK_GUARD(m) { return x; }
	}
	int second(int q) const;
	int third() { return 3; }
};
int after(int z);
H
	run -0 "$SYM" -R -t 2048 -d "$T/skel.dump" "$T/tree"
	run -0 cut -f 3,4,5 "$T/skel.dump"
	[ "$status" -eq 0 ]
	[[ $output != *"LOCK_GUARD	function"* ]]
	[[ $output == *"first	function	3"* ]]
	[[ $output == *"second	function	6"* ]]
	[[ $output == *"third	function	7"* ]]
	[[ $output == *"after	function	9"* ]]
	grep -q '^R	0	LOCK_GUARD	$' "$T/skel.dump"
	# Parsed whole (UK_SYMBOLS_BODIES), tree-sitter takes it for one.
	UK_SYMBOLS_BODIES=1 run -0 "$SYM" -R -t 2048 -d "$T/full.dump" \
	    "$T/tree"
	grep -q '^D	0	LOCK_GUARD	function	4' "$T/full.dump"
}

@test "skeleton: a header's definitions and signatures stay, its bodies' calls reach their definers" {
	mkdir -p "$T/tree/lib"
	cat >"$T/tree/lib/shapes.hpp" <<'H'
#ifndef SHAPES_HPP
#define SHAPES_HPP
#include "util.hpp"

namespace geo {

struct __attribute__((aligned(8))) Point {
	int x;
	int y;
};

class Shape : public Base {
public:
	virtual ~Shape() {}
	/* The area. */
	double area() const {
		const char *r = R"x(}{)x";
		int big = 1'000'000;
		char c = '}';
		return compute_area(x_, y_);
	}
	int kind() const noexcept { return kind_; }
	Shape(int x, int y) : x_(x), y_(y) { Registry::add(this); }

private:
	int x_, y_, kind_;
};

auto twice = [](int a) { return helper_call(a) * 2; };

}
#endif
H
	cat >"$T/tree/lib/util.hpp" <<'H'
double compute_area(int w, int h);
struct Registry { static void add(void *p); };
struct Base { int id; };
H
	run -0 "$SYM" -R -t 2048 -d "$T/skel.dump" "$T/tree"
	printf '%s\n' "$output" >"$T/skel.json"
	run -0 jq -r .symbol_map "$T/skel.json"
	[ "$status" -eq 0 ]
	[[ $output == *"│struct __attribute__((aligned(8))) Point"* ]]
	[[ $output == *"│class Shape : public Base"* ]]
	[[ $output == *"│	double area() const"* ]]
	[[ $output == *"│	int kind() const noexcept"* ]]
	[[ $output == *"│	Shape(int x, int y) : x_(x), y_(y)"* ]]
	# The struct's fields were not blanked: its body is no function's.
	run -0 cut -f 1,3,4,5 "$T/skel.dump"
	[[ $output == *"D	Point	class	7"* ]]
	[[ $output == *"D	area	function	16"* ]]
	[[ $output == *"D	kind	function	22"* ]]
	# The bodies' calls, lexed: shapes.hpp (file 0) uses util.hpp's names.
	grep -q '^R	0	compute_area	$' "$T/skel.dump"
	grep -q '^R	0	add	$' "$T/skel.dump"
	grep -q '^R	0	helper_call	$' "$T/skel.dump"
	! grep -q '^D	0	r	' "$T/skel.dump"
}

@test "skeleton: a body whose braces a conditional directive may unpair is parsed as it is" {
	mkdir -p "$T/tree/lib"
	cat >"$T/tree/lib/f.h" <<'H'
namespace n {
#if defined(WIDE)
void f(long a) {
#else
void f(int a) {
#endif
	body(a);
}
struct After {
	int z;
};
}
H
	run -0 "$SYM" -R -t 2048 -d "$T/skel.dump" "$T/tree"
	grep -q '^D	0	After	class	9' "$T/skel.dump"
	grep -q '^R	0	body	$' "$T/skel.dump"
}
