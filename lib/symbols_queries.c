/* SPDX-License-Identifier: MIT */
/*
 * The languages of the index (see symbols_int.h): their file extensions,
 * grammars and tags queries, and the patterns added to the upstream
 * queries of some grammars (compiled with them by symbols_tags.c).
 */
#include <ctype.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "symbols_int.h"

/*
 * @reference.module captures name a file by its path: a quoted #include,
 * a Python import statement (whole, so that `from a import b` can find
 * a submodule b), a Rust use path, a relative JS/TS import or require.
 * The name then holds a quote, a dot, a colon or a space, which no
 * identifier does: symbols_rank.c resolves it to a file of the tree.
 */
#define C_INCLUDE                                                              \
	"(preproc_include path: (string_literal) @name) @reference.module\n"
#define JS_MODULE                                                              \
	"(import_statement source: (string) @name) @reference.module\n"     \
	"(export_statement source: (string) @name) @reference.module\n"     \
	"(call_expression function: (identifier) @_req arguments: "         \
	"(arguments . (string) @name) (#eq? @_req \"require\")) "            \
	"@reference.module\n"

/*
 * The upstream tags queries of C and C++ find definitions only.  These
 * add the references (calls and type names) that the file graph needs,
 * and function-like macros as definitions.  C's patterns (upstream's, then
 * c_extra, in this order) are walked by hand in symbols_c.c, C++'s in
 * symbols_cpp.c, as Python's are: a change here must be made there too.
 */
static const char c_extra[] =
    "(call_expression function: (identifier) @name) @reference.call\n"
    "(call_expression function: (field_expression field: "
    "(field_identifier) @name)) @reference.call\n"
    "(type_identifier) @name @reference.type\n"
    "(preproc_function_def name: (identifier) @name) @definition.macro\n"
    C_INCLUDE;
static const char cpp_extra[] =
    "(call_expression function: (identifier) @name) @reference.call\n"
    "(call_expression function: (field_expression field: "
    "(field_identifier) @name)) @reference.call\n"
    "(call_expression function: (qualified_identifier name: "
    "(identifier) @name)) @reference.call\n"
    "(type_identifier) @name @reference.type\n"
    "(preproc_function_def name: (identifier) @name) @definition.macro\n"
    C_INCLUDE;

/*
 * Type references (annotations, signatures, fields, impl blocks, new T)
 * and imports for the languages whose upstream queries have calls only:
 * a reader follows a type or an imported name to its definition as much
 * as a call.  Python's patterns (upstream's, then these, in this order)
 * are also walked by hand in symbols_py.c, which is what indexes
 * Python: a change here must be made there too, and
 * tests/repo-tagwalk.bats compares the two.
 */
static const char python_extra[] =
    "(type (identifier) @name) @reference.type\n"
    "(type (attribute attribute: (identifier) @name)) @reference.type\n"
    "(generic_type (identifier) @name) @reference.type\n"
    "(type_parameter (type (identifier) @name)) @reference.type\n"
    "(class_definition superclasses: (argument_list (identifier) @name)) "
    "@reference.class\n"
    "(class_definition superclasses: (argument_list (attribute "
    "attribute: (identifier) @name))) @reference.class\n"
    "(decorator (identifier) @name) @reference.call\n"
    "(decorator (attribute attribute: (identifier) @name)) @reference.call\n"
    "(decorator (call function: (identifier) @name)) @reference.call\n"
    "(import_from_statement name: (dotted_name (identifier) @name .)) "
    "@reference.import\n"
    "(import_from_statement name: (aliased_import name: (dotted_name "
    "(identifier) @name .))) @reference.import\n"
    "(call function: (identifier) @_f arguments: (argument_list . (_) . "
    "[(identifier) @name (attribute attribute: (identifier) @name) "
    "(tuple [(identifier) @name (attribute attribute: (identifier) "
    "@name)])]) (#any-of? @_f \"isinstance\" \"issubclass\")) "
    "@reference.type\n"
    "(except_clause [(identifier) @name (attribute attribute: "
    "(identifier) @name) (tuple [(identifier) @name (attribute "
    "attribute: (identifier) @name)])]) @reference.type\n"
    "(raise_statement [(identifier) @name (attribute attribute: "
    "(identifier) @name)]) @reference.type\n"
    "(import_from_statement) @name @reference.module\n"
    "(import_statement) @name @reference.module\n";
/*
 * Rust's patterns (upstream's, then rust_extra, in this order) are walked
 * by hand in symbols_rust.c, as Python's are: a change here must be made
 * there too.
 */
static const char rust_extra[] =
    "(type_identifier) @name @reference.type\n"
    "(scoped_identifier path: (identifier) @name (#match? @name "
    "\"^[A-Z]\")) @reference.type\n"
    "(call_expression function: (scoped_identifier name: (identifier) "
    "@name)) @reference.call\n"
    "(use_declaration argument: (scoped_identifier name: (identifier) "
    "@name)) @reference.import\n"
    "(use_list (identifier) @name) @reference.import\n"
    "(use_list (scoped_identifier name: (identifier) @name)) "
    "@reference.import\n"
    "(const_item name: (identifier) @name) @definition.constant\n"
    "(static_item name: (identifier) @name) @definition.constant\n"
    "(use_declaration argument: (_) @name) @reference.module\n";
/*
 * Go's imports (walked by hand in symbols_go.c, after upstream's eleven
 * patterns): the path names the package's directory, the alias the name
 * its references are qualified by (symbols_gopkg.c); and the methods an
 * interface declares.
 */
static const char go_extra[] =
    "(import_spec path: (_) @name) @reference.module\n"
    "(method_elem name: (field_identifier) @name) @definition.method\n";
static const char java_extra[] =
    "(type_identifier) @name @reference.type\n"
    "(annotation name: (identifier) @name) @reference.type\n"
    "(marker_annotation name: (identifier) @name) @reference.type\n"
    "(import_declaration (scoped_identifier name: (identifier) @name)) "
    "@reference.import\n"
    "(enum_declaration name: (identifier) @name) @definition.class\n"
    "(record_declaration name: (identifier) @name) @definition.class\n"
    "(constructor_declaration name: (identifier) @name) "
    "@definition.method\n";
/*
 * JavaScript's patterns (upstream's, then js_extra, in this order) are
 * walked by hand in symbols_js.c, as Python's are: a change here or in
 * JS_MODULE must be made there too.  TypeScript and TSX
 * keep their queries.
 */
static const char js_extra[] =
    "(import_specifier name: (identifier) @name) @reference.import\n"
    JS_MODULE;
static const char ts_extra[] =
    "(import_specifier name: (identifier) @name) @reference.import\n"
    JS_MODULE
    "(type_identifier) @name @reference.type\n"
    "(type_alias_declaration name: (type_identifier) @name) "
    "@definition.type\n"
    "(enum_declaration name: (identifier) @name) @definition.class\n";

/* Grammars, from .grammars/obj. */
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_rust(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_ruby(void);
/* Tags queries, embedded by scripts/grammars --queries. */
extern const char uk_tags_python[], uk_tags_javascript[], uk_tags_c[],
    uk_tags_cpp[], uk_tags_go[], uk_tags_rust[], uk_tags_java[], uk_tags_ruby[],
    uk_tags_typescript[];

const struct symlang uk_symqueries_langs[UK_SYMLANGS] = {
	{ "python", ".py.pyi.", tree_sitter_python, uk_tags_python,
	    python_extra },
	{ "javascript", ".js.jsx.mjs.cjs.", tree_sitter_javascript,
	    uk_tags_javascript, js_extra },
	{ "typescript", ".ts.mts.cts.", tree_sitter_typescript,
	    uk_tags_typescript, ts_extra },
	{ "tsx", ".tsx.", tree_sitter_tsx, uk_tags_typescript,
	    ts_extra },
	{ "c", ".c.h.", tree_sitter_c, uk_tags_c, c_extra },
	{ "cpp", ".cc.cpp.cxx.c++.hpp.hh.hxx.h++.", tree_sitter_cpp,
	    uk_tags_cpp, cpp_extra },
	{ "go", ".go.", tree_sitter_go, uk_tags_go, go_extra },
	{ "rust", ".rs.", tree_sitter_rust, uk_tags_rust, rust_extra },
	{ "java", ".java.", tree_sitter_java, uk_tags_java,
	    java_extra },
	{ "ruby", ".rb.", tree_sitter_ruby, uk_tags_ruby, NULL },
};

const char *
uk_symqueries_lang(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;
	char ext[16];
	size_t i, n;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		return NULL;
	n = strlen(dot);
	if (n + 2 > sizeof(ext))
		return NULL;
	for (i = 0; i < n; i++)
		ext[i] = (char)tolower((unsigned char)dot[i]);
	ext[n] = '.';
	ext[n + 1] = '\0';
	for (i = 0; i < UK_SYMLANGS; i++)
		if (strstr(uk_symqueries_langs[i].exts, ext))
			return uk_symqueries_langs[i].name;
	return NULL;
}

int
uk_symqueries_lang_index(const char *path)
{
	const char *name = uk_symqueries_lang(path);
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < UK_SYMLANGS; i++)
		if (!strcmp(uk_symqueries_langs[i].name, name))
			return (int)i;
	return -1;
}
