/* SPDX-License-Identifier: MIT */
/*
 * Tags query patterns added to the upstream ones of some grammars (see
 * symbols_int.h): compiled with them by symbols.c.
 */
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
 * and function-like macros as definitions.
 */
const char uk_symq_c_extra[] =
    "(call_expression function: (identifier) @name) @reference.call\n"
    "(call_expression function: (field_expression field: "
    "(field_identifier) @name)) @reference.call\n"
    "(type_identifier) @name @reference.type\n"
    "(preproc_function_def name: (identifier) @name) @definition.macro\n"
    C_INCLUDE;
const char uk_symq_cpp_extra[] =
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
 * as a call.
 */
const char uk_symq_python_extra[] =
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
const char uk_symq_rust_extra[] =
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
const char uk_symq_java_extra[] =
    "(type_identifier) @name @reference.type\n"
    "(annotation name: (identifier) @name) @reference.type\n"
    "(marker_annotation name: (identifier) @name) @reference.type\n"
    "(import_declaration (scoped_identifier name: (identifier) @name)) "
    "@reference.import\n"
    "(enum_declaration name: (identifier) @name) @definition.class\n"
    "(record_declaration name: (identifier) @name) @definition.class\n"
    "(constructor_declaration name: (identifier) @name) "
    "@definition.method\n";
const char uk_symq_js_extra[] =
    "(import_specifier name: (identifier) @name) @reference.import\n"
    JS_MODULE;
const char uk_symq_ts_extra[] =
    "(import_specifier name: (identifier) @name) @reference.import\n"
    JS_MODULE
    "(type_identifier) @name @reference.type\n"
    "(type_alias_declaration name: (type_identifier) @name) "
    "@definition.type\n"
    "(enum_declaration name: (identifier) @name) @definition.class\n";
