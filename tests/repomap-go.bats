#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The repository map on Go trees: a reference qualified by a package
# (`vfs.Fs`, `vfs.NewOsFs()`) is resolved through the importing file's
# imports to the files of that package's directory (go.mod's module line
# roots the import paths); one qualified by a package from outside the tree
# (`os.Open()`) is no reference to the project's; a bare name is its own
# package's.  And a file whose head says in capitals that a tool wrote it
# is generated, whatever its language.  Read by tests/unit/t_symbols -R, as
# lib/repo.c reads a tree.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	SYM=${UK_UNIT:-$TOP/build/unit}/t_symbols
	[ -x "$SYM" ] || SYM=$TOP/build/unit/t_symbols
}

teardown() {
	common_teardown
}

# rank_of FILE: the best rank of FILE's symbols in $output.
rank_of() {
	jq -r --arg f "$1" '[.symbols[] | select(.file == $f) | .rank] | max' \
	    <<<"$output"
}

# vfs_tree DIR: a module with a root package and two packages that define
# a type Fs of their own.
vfs_tree() {
	local d=$1 p
	mkdir -p "$d/mem" "$d/zipfs" "$d/use"
	printf 'module example.org/acme/vfs\n\ngo 1.19\n' >"$d/go.mod"
	printf 'package vfs\n\ntype Fs interface {\n\tName() string\n}\n\nfunc NewOsFs() Fs {\n\treturn nil\n}\n' >"$d/vfs.go"
	for p in mem zipfs; do
		printf 'package %s\n\ntype Fs struct{}\n\nfunc (f *Fs) Name() string {\n\treturn "%s"\n}\n' "$p" "$p" >"$d/$p/fs.go"
	done
}

@test "repomap go: pkg.Name is the package's, not another package's Name" {
	d=$BATS_TEST_TMPDIR/vfs
	vfs_tree "$d"
	for i in 1 2 3 4; do
		printf 'package use\n\nimport (\n\t"fmt"\n\n\t"example.org/acme/vfs"\n)\n\nfunc Use%s(f vfs.Fs) vfs.Fs {\n\tfmt.Println(f)\n\treturn vfs.NewOsFs()\n}\n' "$i" >"$d/use/use$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	# mem's and zipfs's Fs get no edge from use/: their rank is
	# teleport's.
	[ "$(rank_of mem/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of zipfs/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of vfs.go | awk '{ print ($1 > 0.1) }')" -eq 1 ]
	# An alias names the package as well.
	for i in 1 2 3 4; do
		printf 'package use\n\nimport v "example.org/acme/vfs"\n\nfunc Use%s(f v.Fs) v.Fs {\n\treturn f\n}\n' "$i" >"$d/use/use$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(rank_of mem/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of vfs.go | awk '{ print ($1 > 0.1) }')" -eq 1 ]
}

@test "repomap go: a package of a subdirectory is found by its import path" {
	d=$BATS_TEST_TMPDIR/sub
	vfs_tree "$d"
	for i in 1 2 3 4; do
		printf 'package use\n\nimport "example.org/acme/vfs/mem"\n\nfunc Use%s() *mem.Fs {\n\treturn &mem.Fs{}\n}\n' "$i" >"$d/use/use$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(rank_of zipfs/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of mem/fs.go | awk '{ print ($1 > 0.1) }')" -eq 1 ]
}

@test "repomap go: os.Open() is the standard library's, not the project's Open" {
	d=$BATS_TEST_TMPDIR/stdlib
	mkdir -p "$d/disk" "$d/use"
	printf 'module example.org/acme/store\n' >"$d/go.mod"
	printf 'package disk\n\ntype Disk struct{}\n\nfunc (d *Disk) Open(name string) error {\n\treturn nil\n}\n' >"$d/disk/disk.go"
	printf 'package use\n\ntype Order struct{}\n\nfunc (o *Order) Place() {}\n' >"$d/use/order.go"
	for i in 1 2 3 4; do
		printf 'package use\n\nimport "os"\n\nfunc Read%s(o *Order) {\n\tos.Open("x")\n\to.Place()\n}\n' "$i" >"$d/use/read$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(rank_of disk/disk.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of use/order.go | awk '{ print ($1 > 0.1) }')" -eq 1 ]
}

@test "repomap go: a bare name is its own package's" {
	d=$BATS_TEST_TMPDIR/own
	vfs_tree "$d"
	for i in 1 2 3 4; do
		printf 'package vfs\n\nfunc Wrap%s(f Fs) Fs {\n\treturn f\n}\n' "$i" >"$d/wrap$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	[ "$(rank_of mem/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of zipfs/fs.go | awk '{ print ($1 < 1e-5) }')" -eq 1 ]
	[ "$(rank_of vfs.go | awk '{ print ($1 > 0.1) }')" -eq 1 ]
}

@test "repomap: a file whose head says in capitals that a tool wrote it is left out" {
	d=$BATS_TEST_TMPDIR/gen
	mkdir -p "$d/assert" "$d/require"
	printf 'module example.org/acme/check\n' >"$d/go.mod"
	printf 'package assert\n\nfunc Equal(a, b int) bool {\n\treturn a == b\n}\n' >"$d/assert/assertions.go"
	# Generated wrappers, one a name, called by the wrappers' users.
	printf '/*\n* CODE GENERATED AUTOMATICALLY WITH example.org/acme/check/gen\n* THIS FILE MUST NOT BE EDITED BY HAND\n */\n\npackage require\n\nimport "example.org/acme/check/assert"\n\nfunc Equal(a, b int) {\n\tassert.Equal(a, b)\n}\n' >"$d/require/require.go"
	for i in 1 2 3; do
		printf 'package require\n\nfunc Use%s() {\n\tEqual(1, 2)\n}\n' "$i" >"$d/require/use$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	run -1 grep -q 'require/require.go' <<<"$(jq -r .symbol_map <<<"$output")"
	[ "$status" -eq 1 ]
}

@test "repomap go: a method an interface declares is a definition of its file" {
	d=$BATS_TEST_TMPDIR/iface
	mkdir -p "$d"
	printf 'module example.org/acme/vfs\n' >"$d/go.mod"
	printf 'package vfs\n\ntype Fs interface {\n\tOpen(name string) error\n}\n' >"$d/fs.go"
	for i in 1 2; do
		printf 'package vfs\n\ntype Impl%s struct{}\n\nfunc (x *Impl%s) Open(name string) error {\n\treturn nil\n}\n' "$i" "$i" >"$d/impl$i.go"
	done
	for i in 1 2 3; do
		printf 'package vfs\n\nfunc Use%s(f *Impl1) {\n\tf.Open("x")\n}\n' "$i" >"$d/use$i.go"
	done
	run -0 "$SYM" -R -t 4000 "$d"
	jq -e '.symbols[] | select(.file == "fs.go" and .name == "Open" and .kind == "method")' <<<"$output"
	[ "$(rank_of fs.go | awk '{ print ($1 > 0.05) }')" -eq 1 ]
}
