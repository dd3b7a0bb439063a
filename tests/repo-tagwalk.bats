#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Python's, C's, C++'s, Rust's, JavaScript's and Go's tags without the query
# cursor (lib/symbols_walk.c's uk_symwalk_tree and a walker a language,
# lib/symbols_py.c ...): the walk must give what the language's tags query
# gives.  tests/unit/t_symbols -R
# indexes a tree with the walk and again with UK_SYMBOLS_QUERY=1 (every
# language through its query, as before the walk); the map, the JSON and
# the whole table (definitions, their lines, kinds and scopes, and every
# reference) must be byte for byte the same.  The trees have every form
# the patterns name, and the project's own Python helpers and C library.
bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	# Headers parsed by tree-sitter, as the walk and the queries read
	# them (not scanned by lib/symbols_cscan.c: tests/repomap-cscan.bats).
	export UK_SYMBOLS_TSHEADERS=1
	SYM=${UK_UNIT:-$TOP/build/unit}/t_symbols
	[ -x "$SYM" ] || SYM=$TOP/build/unit/t_symbols
}

teardown() {
	common_teardown
}

# walk_is_query DIR: index DIR walked and again with UK_SYMBOLS_QUERY=1;
# the record (map and JSON) and the table must be byte for byte the same.
# The walk's table is left in $T/walk.dump for the callers' checks that
# the comparison is not of two empty tables.
walk_is_query() {
	run -0 "$SYM" -R -t 2048 -d "$T/walk.dump" "$1"
	printf '%s\n' "$output" >"$T/walk.json"
	UK_SYMBOLS_QUERY=1 run -0 "$SYM" -R -t 2048 -d "$T/query.dump" "$1"
	printf '%s\n' "$output" >"$T/query.json"
	cmp "$T/walk.json" "$T/query.json"
	cmp "$T/walk.dump" "$T/query.dump"
}

# make_py_tree DIR: one file with each form, and a broken one.
make_py_tree() {
	local d=$1
	mkdir -p "$d/pkg/sub" "$d/helpers"
	cp "$TOP"/tests/helpers/*.py "$d/helpers/"
	cat >"$d/pkg/forms.py" <<'P'
from . import models
from .base import Base, Mixin as M
from pkg.sub.deep import (Alpha,
    beta as gamma)
import os.path, json
from typing import Generic, TypeVar, Optional

LIMIT = 10
first, second = 1, 2
T = TypeVar("T")


class Store(models.Manager, Base, Generic[T]):
    """A store."""

    retries: Optional[int] = None

    @property
    def size(self) -> int:
        return len(self.items)

    @functools.lru_cache(maxsize=None)
    @staticmethod
    def load(path: os.PathLike, kind: "Kind" = None) -> Alpha:
        try:
            return json.load(open(path))
        except (ValueError, errors.ParseError):
            raise errors.LoadError(path)
        except KeyError:
            raise Missing


def run(fn, items: list[Store], *rest: Alpha, **kw: dict[str, Base]):
    cache = {}
    fn(items)
    helper(items)
    if isinstance(items, (Store, models.Model)) and issubclass(T, Base):
        pass
    if isinstance(items, Store):
        cache.update(Store.build(items))
    if isinstance(items, (json.JSONDecoder, os.path.Sep)):
        return json.loads(items)
    return [models.pick(x) for x in items]


def helper(values: "list[int]", fallback=None):
    fallback(values)
    return sorted(values, key=lambda v: transform(v))


@register
@app.route("/x")
@wrap()
class Handler(Store[int]):
    def handle(self, request: http.Request) -> http.Response:
        return self.reply(request)


def show(value):
    label = f"{render(value)!r}: {value:>{width(3)}}"
    raw = rb"\d+" + Rb'x' + u"y" + r"fake(z)" + """hidden(1)"""
    return fr"{fmt(label)}" + F'{shout(raw)}'
P
	# Error recovery: half a file, and a file of another language.
	head -c 700 "$d/pkg/forms.py" >"$d/pkg/broken.py"
	printf 'int main(void) { return f(1, (x) y); }\n' >"$d/pkg/notpy.py"
}

@test "tagwalk: Python's tags walked are the tags its query gives" {
	make_py_tree "$T/tree"
	walk_is_query "$T/tree"
	# The comparison is not of two empty tables: every pattern's kind of
	# name is there (a superclass through an attribute, an except tuple,
	# isinstance's tuple, a from-import alias, a decorator call).
	# The calls in f-strings' interpolations (the walk enters no other
	# string) are references.
	for name in Manager ParseError LoadError Missing Model Alpha beta \
	    lru_cache wrap route PathLike Request Response transform render \
	    width fmt shout; do
		grep -qP "^R\t[0-9]+\t$name\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	# An attribute's reference has the identifier its chain starts with
	# (json.loads, os.path.Sep in isinstance's tuple); a plain one none.
	for ref in 'loads\tjson' 'JSONDecoder\tjson' 'Sep\tos' 'Model\tmodels' \
	    'helper\t'; do
		grep -qP "^R\t[0-9]+\t$ref\$" "$T/walk.dump" ||
		    { echo "no reference $ref"; return 1; }
	done
	for name in Store run helper Handler handle load size LIMIT; do
		grep -qP "^D\t.*\t$name\t" "$T/walk.dump" ||
		    grep -q "\"name\":\"$name\"" "$T/walk.json" ||
		    { echo "no definition of $name"; return 1; }
	done
}

# make_c_tree DIR: each form of C's patterns, and the project's library.
make_c_tree() {
	local d=$1
	mkdir -p "$d/src" "$d/lib"
	cp "$TOP"/lib/*.[ch] "$d/lib/"
	cat >"$d/src/forms.c" <<'C'
#include "forms.h"
#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define LIMIT 10

struct node { struct node *next; size_t len; };
struct opaque;
union value { int i; double d; } current;
typedef struct node node_t, *node_p;
typedef int (*handler_fn)(struct node *);
enum color { RED, GREEN };

static int
walk(struct node *n, handler_fn fn)
{
	struct ops *o = n->ops;
	node_t copy = *n;

	o->visit(n);
	(*fn)(n);
	n->ops->leave(&copy);
	return MAX(fn(n), print_node(n));
}

int main(int argc, char **argv) { return walk(NULL, 0) + argc; }
C
	head -c 300 "$d/src/forms.c" >"$d/src/broken.c"
	printf 'def f(x):\n    return g(x)\n' >"$d/src/notc.h"
}

@test "tagwalk: C's tags walked are the tags its query gives" {
	make_c_tree "$T/tree"
	walk_is_query "$T/tree"
	for name in visit leave print_node node_t handler_fn ops; do
		grep -qP "^R\t[0-9]+\t$name\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	for name in node value node_t color walk main MAX; do
		grep -qP "^D\t[0-9]+\t$name\t" "$T/walk.dump" ||
		    { echo "no definition of $name"; return 1; }
	done
}

# make_cpp_tree DIR: each form of C++'s patterns (upstream's and
# cpp_extra's), a qualified name whose scope is no namespace identifier,
# strings, a broken half and a C header beside it.
make_cpp_tree() {
	local d=$1
	mkdir -p "$d/src"
	cat >"$d/src/forms.hpp" <<'CPP'
#include "forms.h"
#include <vector>
#define MAX(a, b) ((a) > (b) ? (a) : (b))

namespace acme {
struct node { node *next; };
struct opaque;
union value { int i; double d; } current;
typedef struct node node_t;
enum color { RED, GREEN };
class Engine {
public:
	void start();
	int run(node_t *n) { return n->next ? helper(n) : 0; }
};
template <typename T> class Box<T>::Inner;
}

void acme::Engine::start() { stop(); this->run(nullptr); acme::reset(1); }
void Box<int>::fill() { }
void Engine::finish() { }
int helper(acme::node_t *n) {
	const char *s = "not_a_call(x)";
	auto r = R"(raw_call(y))";
	return MAX(std::max(1, 2), n != nullptr);
}
CPP
	head -c 400 "$d/src/forms.hpp" >"$d/src/broken.cc"
	printf 'struct cnode { int x; };\nint cfun(struct cnode *c);\n' >"$d/src/forms.h"
}

@test "tagwalk: C++'s tags walked are the tags its query gives" {
	make_cpp_tree "$T/tree"
	walk_is_query "$T/tree"
	for name in stop run reset max helper node_t node '"forms.h"'; do
		grep -qP "^R\t[0-9]+\t\Q$name\E\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	for def in 'node\tclass' 'value\tclass' 'node_t\ttype' 'color\ttype' \
	    'Engine\tclass' 'start\tfunction' 'run\tfunction' 'finish\tmethod' \
	    'helper\tfunction' 'MAX\tmacro'; do
		grep -qP "^D\t[0-9]+\t$def\t" "$T/walk.dump" ||
		    { echo "no definition $def"; return 1; }
	done
	# No tag of what strings hold; Box<int>::fill's scope is a template.
	! grep -qP '\t(not_a_call|raw_call|fill)\t' "$T/walk.dump"
}

# make_rs_tree DIR: each form of Rust's patterns (upstream's and
# rust_extra's), half of it, and a file of another language.  Names in
# macros' token trees, strings and comments are no tags: the walk does
# not enter them (rs_opaque).
make_rs_tree() {
	local d=$1
	mkdir -p "$d/src"
	cat >"$d/src/forms.rs" <<'RS'
//! Every form of Rust's tags patterns.
use std::collections::HashMap;
use crate::store::{self, Entry, io::Reader as R2};
use serde;
pub use self::inner::Visible;

/// A point.
#[derive(Debug, Clone)]
pub struct Point<T> {
    x: T,
    y: Option<Box<T>>,
}

enum Shape { Circle(f64), Square { side: f64 } }
union Bits { i: u32, f: f32 }
type Table = HashMap<String, Vec<Point<i32>>>;
pub const LIMIT: usize = 10;
static mut COUNTER: u64 = 0;

/// Things that draw.
pub trait Draw: Clone {
    fn draw(&self) -> String;
    /// With a default.
    fn name(&self) -> &str { "draw" }
}

impl<T: Clone> Draw for Point<T> {
    fn draw(&self) -> String {
        format!("{}", self.len())
    }
}

impl Shape {
    // Area of the shape.
    pub fn area(&self) -> f64 {
        match self {
            Shape::Circle(r) => std::f64::consts::PI * r * r,
            Shape::Square { side } => side * side,
        }
    }
}

impl std::fmt::Display for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }
}

mod inner {
    pub struct Visible;
    pub fn helper() -> super::Table { super::Table::new() }
}

macro_rules! square {
    ($x:expr) => { $x * $x };
}

fn run(items: &[Point<u8>], table: &mut Table)
    -> Result<(), Box<dyn std::error::Error>> {
    let p = Point { x: 1u8, y: None };
    let s = p.draw();
    inner::helper();
    store::open("x")?;
    Entry::default();
    let n = square!(2);
    println!("{} {}", s, n);
    table.insert(s.clone(), Vec::new());
    unsafe { COUNTER += 1; }
    compute(items.len());
    let v = vec![Point::new(1), hidden(2), Fake { x: 1 }.draw()];
    let t = "fn fake() { Fake::new() }";
    let r = r#"struct Raw; raw()"#;
    /* struct Hidden; hidden(); */
    assert!(matches!(s.as_str(), "x"), "{}", Entry::name(v, t, r));
    Ok(())
}

fn compute(n: usize) -> usize { n * LIMIT }
RS
	head -c 900 "$d/src/forms.rs" >"$d/src/broken.rs"
	printf 'def f(x):\n    return g(x)\n' >"$d/src/notrs.rs"
}

@test "tagwalk: Rust's tags walked are the tags its query gives" {
	make_rs_tree "$T/tree"
	walk_is_query "$T/tree"
	# Each pattern's name: a path's type (Entry::default), a scoped call
	# (inner::helper), a use list's names, a method call, a macro call,
	# the trait of an impl, and the use paths whole.
	for name in Entry helper open Visible draw square Display Formatter \
	    HashMap clone compute 'std::collections::HashMap' serde; do
		grep -qP "^R\t0\t\Q$name\E\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	for def in 'Point\tclass' 'Shape\tclass' 'Bits\tclass' \
	    'Table\tclass' 'Draw\tinterface' 'area\tmethod' \
	    'run\tfunction' 'inner\tmodule' 'square\tmacro' \
	    'LIMIT\tconstant' 'COUNTER\tconstant'; do
		grep -qP "^D\t0\t$def\t" "$T/walk.dump" ||
		    { echo "no definition $def"; return 1; }
	done
}

# make_js_tree DIR: each form of JavaScript's patterns (upstream's and
# js_extra's), with the comments of the doc patterns as tree-sitter
# 0.20's query cursor takes them: a `;` or `,` between two comments or
# after the last, the first alternative of a pattern and a later one.
make_js_tree() {
	local d=$1
	mkdir -p "$d/lib"
	cat >"$d/lib/forms.js" <<'JS'
// Every form of JavaScript's tags patterns.
import { readFile, writeFile as write } from "./fs.js";
import Default from "../default.js";
export { helper } from "./helper.js";
const path = require("path");
const skipped = require(/* no */ "skipped");

/**
 * A store of items.
 */
class Store extends Base {
  // The items.
  // All of them.
  items = [];

  /* One */ ; /* Two */ get(key) { return this.items.find(key); }

  // Gap above.

  // Adjacent.
  put(key, value) {
    this.items.push(new Entry(key, value));
    return write(key, value);
  }

  // Not a tag.
  constructor() { super(); }
}

// Declared function.
function load(name) {
  return readFile(name).then((text) => JSON.parse(text));
}

// Generator.
function* walk(tree) { yield tree; }

/* A lexical arrow. */
const double = (x) => x * 2, triple = function (x) { return x * 3; };

// A var function.
var legacy = function named() { return 1; };

module.exports.create = function () { return new Store(); };
exports.other = () => new models.Model();
handler = async (req) => req;

const api = {
  // A pair.
  fetch: (url) => fetchUrl(url),
  post: function (url) { return this.fetch(url); },
};

run(
  // An argument.
  function callback() {},
  /* A class expression. */ class Local {},
  // Not the first alternative.
  function* gen() {});

run(first /* After a comma. */, function afterComma() {},
  second /* After a comma, not the first alternative. */,
  function* genAfterComma() {});

export default LIMIT = 10;
tag.format`template ${double(2)}`;

/* Exported's doc: the export statement's sibling. */
export class Exported {}
/* Not Later's doc: a statement between. */ init(); class Later {}
JS
	head -c 700 "$d/lib/forms.js" >"$d/lib/broken.js"
	printf 'def f(x):\n    return g(x)\n' >"$d/lib/notjs.js"
}

@test "tagwalk: JavaScript's tags walked are the tags its query gives" {
	make_js_tree "$T/tree"
	walk_is_query "$T/tree"
	for name in readFile writeFile write find push Entry fetchUrl \
	    models.Model Store double format '"path"' '"./fs.js"' \
	    '"./helper.js"'; do
		grep -qP "^R\t[0-9]+\t\Q$name\E\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	for def in 'Store\tclass' 'get\tmethod' 'put\tmethod' \
	    'load\tfunction' 'walk\tfunction' 'double\tfunction' \
	    'triple\tfunction' 'legacy\tfunction' 'create\tfunction' \
	    'handler\tfunction' 'fetch\tfunction' 'callback\tfunction' \
	    'Local\tclass' 'gen\tfunction' 'LIMIT\tconstant'; do
		grep -qP "^D\t[0-9]+\t$def\t" "$T/walk.dump" ||
		    { echo "no definition $def"; return 1; }
	done
	# The docs (the table has none; the record's symbols do).
	grep -q '"name":"get",[^}]*"doc":"Two"' "$T/walk.json"
	grep -q '"name":"afterComma",[^}]*"doc":"After a comma."' \
	    "$T/walk.json"
	grep -q '"name":"Exported",[^}]*"doc":"Exported[^"]*sibling."' \
	    "$T/walk.json"
	! grep -q '"name":"Later",[^}]*"doc"' "$T/walk.json"
}

# make_go_tree DIR: each form of Go's patterns, with the comments of the
# function and method patterns as tree-sitter 0.20's query cursor takes
# them: an empty statement between two comments or after the last, a
# blank line, a comment that ends the line before.
make_go_tree() {
	local d=$1
	mkdir -p "$d/store"
	cat >"$d/store/forms.go" <<'GO'
// Package store keeps items.
package store

import (
	"fmt"
	osx "os"
)

// Store keeps the items.
// All of them.
type Store struct {
	items map[string]Item
}

type (
	// Item is one.
	Item int
	Alias = Store
	Getter interface{ Get(key string) Item }
	Closer interface {
		Shut() error
	}
)

var limit, count = 10, 0

const name = "store"

/* Open's doc, */
// on two comments.
func Open(path string) (*Store, error) {
	f, err := osx.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer (f.Close)()
	(load)(f)
	return &Store{items: map[string]Item{}}, nil
}

// Not Get's doc: a statement between.
;
// Get's doc.
func (s *Store) Get(key string) Item { return s.items[key] }

// Gap above.

func gapped() {}

var put = 1 // Put's doc: the line before ends in it.
func (s *Store) Put(key string, v Item) { s.items[key] = v; s.notify.Send(key) }

// Not load's doc.
/* Its doc. */ ;
func load(f *osx.File) {}
GO
	head -c 600 "$d/store/forms.go" >"$d/store/broken.go"
	printf 'def f(x):\n    return g(x)\n' >"$d/store/notgo.go"
}

@test "tagwalk: Go's tags walked are the tags its query gives" {
	make_go_tree "$T/tree"
	walk_is_query "$T/tree"
	for name in Open Errorf Close load Send Item Store File string; do
		grep -qP "^R\t[0-9]+\t\Q$name\E\t" "$T/walk.dump" ||
		    { echo "no reference to $name"; return 1; }
	done
	# Qualified by a package (symbols_gopkg.c resolves them): the
	# selector's operand, the qualified type's package, the alias.
	for ref in 'Open\tosx' 'Errorf\tfmt' 'File\tosx' '"os"\tosx' \
	    '"fmt"\t' 'Close\tf'; do
		grep -qP "^R\t[0-9]+\t$ref\$" "$T/walk.dump" ||
		    { echo "no reference $ref"; return 1; }
	done
	for def in 'Store\ttype' 'Item\ttype' 'Getter\ttype' 'Shut\tmethod' \
	    'Open\tfunction' 'Get\tmethod' 'Put\tmethod' 'gapped\tfunction' \
	    'load\tfunction'; do
		grep -qP "^D\t[0-9]+\t$def\t" "$T/walk.dump" ||
		    { echo "no definition $def"; return 1; }
	done
	# The docs (the table has none; the record's symbols do); `.` for
	# an apostrophe.
	grep -q '"name":"Open",[^}]*"doc":"Open.s doc,\\non two' \
	    "$T/walk.json"
	grep -q '"name":"Get",[^}]*"doc":"Get.s doc."' "$T/walk.json"
	grep -q '"name":"Put",[^}]*"doc":"Put.s doc: the line before' \
	    "$T/walk.json"
	# No doc for gapped (a blank line) or load (a statement between).
	for name in gapped load; do
		if grep -q "\"name\":\"$name\",[^}]*\"doc\"" "$T/walk.json"; then
			echo "a doc for $name"
			return 1
		fi
	done
}
