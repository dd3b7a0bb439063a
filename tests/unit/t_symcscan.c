/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols_cscan.c's hard cases: each snippet's definitions
 * ("name:kind:line:scope", in the order of the text) and some of its
 * references.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "symbols_int.h"

#define TAP_PREFIX "cscan: "
#include "tap.h"

struct scase {
	const char *what, *text, *defs;
	const char *ref; /* a reference it must give, or NULL */
};

static const struct scase cases[] = {
	{ "#if 0 is dropped, its #else read",
	    "#if 0\nint a(void);\n#else\nint b(void);\n#endif\n",
	    "b:function:4:", NULL },
	{ "an #else after a branch that left a brace open is skipped",
	    "#if X\nstruct s : base {\n#else\nstruct s {\n#endif\n"
	    "int f();\n};\nint g();\n",
	    "s:class:2: f:function:6:s g:function:8:", NULL },
	{ "a raw string's braces and quotes are text",
	    "const char *x = R\"d(}{\")d\";\nint h();\n",
	    "h:function:2:", NULL },
	{ "character literals and digit separators hold no quote",
	    "int k = 1'000; char c = '}'; char q = '\\'';\nint m();\n",
	    "m:function:2:", NULL },
	{ "a macro's call on a line of its own before a declaration",
	    "DECLARE_THING(x)\nint n();\n", "n:function:2:",
	    "DECLARE_THING" },
	{ "a macro's call that gives the return type",
	    "RESULT_TYPE(int, char)\nfoo(int a);\n", "foo:function:2:",
	    NULL },
	{ "NAME(args); is a macro's call",
	    "STATIC_CHECK(sizeof(int) == 4);\n", "", "STATIC_CHECK" },
	{ "operators are skipped whole, the members after them found",
	    "struct P {\n bool operator==(const P&) const { return 1; }\n"
	    " int operator()(int) const;\n P& operator<<(int);\n"
	    " explicit operator bool() const;\n int q();\n};\n",
	    "P:class:1: q:function:6:P", NULL },
	{ "a function pointer's typedef, a function type's typedef",
	    "typedef void (*cb_t)(int);\ntypedef void fn_t(int *ctx);\n",
	    "cb_t:type:1: fn_t:type:2:", NULL },
	{ "a nested namespace's name",
	    "namespace a::b {\nint z();\n}\n", "z:function:2:a::b", NULL },
	{ "extern \"C\" is no scope",
	    "extern \"C\" {\nint e(void);\n}\n", "e:function:2:", NULL },
	{ "a specialisation defines no name; its members are its",
	    "template <> struct hash<P> {\n int get() const;\n};\n",
	    "get:function:2:hash<P>", NULL },
	{ "comments hold no brace",
	    "/* { */ int c1(); // }\nint c2();\n",
	    "c1:function:1: c2:function:2:", NULL },
	{ "a macro over continued lines",
	    "#define M(x) \\\n  { x }\nint after();\n",
	    "M:macro:1: after:function:3:", NULL },
	{ "a constructor's member initialisers in braces",
	    "class W {\n W(int a) : a_{a}, b_(a) { init(); }\n int r();\n};\n",
	    "W:class:1: W:function:2:W r:function:3:W", "init" },
	{ "an out-of-class definition is a method",
	    "inline void W::run() {}\n", "run:method:1:", NULL },
	{ "a template's angle brackets hold commas and parentheses",
	    "template <typename F = void(int, char)>\n"
	    "std::function<void(int)> make(F f, std::map<int, long> m);\n",
	    "make:function:2:", "map" },
	{ "typedef struct with a name after its body",
	    "typedef struct {\n int a;\n} anon_t;\n", "anon_t:type:1:",
	    NULL },
	{ "a forward declaration defines nothing",
	    "class later;\nstruct later2;\n", "", NULL },
	{ "enum class with a base; enumerators are no names",
	    "enum class E : unsigned { A, B = 2 };\n", "E:type:1:", NULL },
	{ "an access label and a lambda initialiser",
	    "class L {\npublic:\n int a();\nprivate:\n"
	    " static constexpr auto f = [](int x) { return x; };\n int b();\n};\n",
	    "L:class:1: a:function:3:L b:function:6:L", NULL },
	{ "a file that ends inside a body",
	    "int open_end() {\n  if (x) {\n", "open_end:function:1:", NULL },
	{ "a lone #else and #endif", "#else\n#endif\n#endif\nint z();\n",
	    "z:function:4:", NULL },
};

static void
describe(const struct fres *r, struct uk_buf *b)
{
	size_t k;

	for (k = 0; k < r->ntags; k++) {
		const struct rtag *t = &r->tags[k];

		if (!t->def)
			continue;
		if (b->len)
			uk_buf_addch(b, ' ');
		uk_buf_addf(b, "%s:%s:%u:%s", t->name, t->kind, t->line,
		    t->d.scope_name ? t->d.scope_name : "");
	}
}

static int
has_ref(const struct fres *r, const char *name)
{
	size_t k;

	for (k = 0; k < r->ntags; k++)
		if (!r->tags[k].def && !strcmp(r->tags[k].name, name))
			return 1;
	return 0;
}

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct scase *c = &cases[i];
		struct fres r;
		struct uk_buf b = UK_BUF_INIT;

		memset(&r, 0, sizeof(r));
		uk_symcscan_tags(UK_SYMLANG_CPP, c->text, strlen(c->text), &r);
		describe(&r, &b);
		ok(!strcmp(b.buf ? b.buf : "", c->defs), "%s: %s", c->what,
		    b.buf ? b.buf : "");
		if (c->ref)
			ok(has_ref(&r, c->ref), "%s: references %s", c->what,
			    c->ref);
		uk_buf_release(&b);
		uk_symtags_release(&r);
	}
	return tap_done();
}
