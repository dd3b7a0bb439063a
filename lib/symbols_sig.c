/* SPDX-License-Identifier: MIT */
/*
 * What the map shows of a definition, read from its syntax tree: the
 * whole signature, the header of the enclosing scope, the doc comment or
 * docstring.  The rules are by node shape (a "body" field, brackets), so
 * that one set serves every grammar.  See symbols_int.h.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

#define SIG_LINES 10  /* a signature shows at most this many lines */
#define SIG_WIDTH 100 /* bytes of a line, then a mark */
#define DOC_MAX   300 /* bytes of a doc comment */

/*
 * The family of the nodes around a file's definitions: each node's parent
 * and previous sibling, found in one walk down the tree.  tree-sitter
 * 0.20's ts_node_parent walks down from the root each time (and its
 * ts_node_prev_sibling calls it), which the scope, container and doc
 * comment of every definition did several times: 9% of the instructions
 * of a fetch of syn (Rust).  The walk descends only into the nodes that
 * hold a definition's first byte; the children of each node it visits
 * are recorded (what a definition's ancestors and their previous
 * siblings need).  A node not recorded is asked of tree-sitter as
 * before.  One family per thread, for the file being indexed.
 */
struct fam {
	const void *id; /* NULL: a free slot */
	uint32_t start;
	TSNode parent, prev;
};

struct family {
	struct fam *slots;
	size_t cap, n; /* cap a power of two */
};

static _Thread_local struct family *family;

static size_t
fam_hash(const void *id, uint32_t start, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)id ^ ((uint64_t)start << 40);

	x *= 0x9E3779B97F4A7C15ull;
	return (size_t)(x >> 20) & (cap - 1);
}

static struct fam *
fam_slot(struct family *f, const void *id, uint32_t start)
{
	size_t i = fam_hash(id, start, f->cap);

	while (f->slots[i].id &&
	    (f->slots[i].id != id || f->slots[i].start != start))
		i = (i + 1) & (f->cap - 1);
	return &f->slots[i];
}

static void
fam_add(struct family *f, TSNode n, TSNode parent, TSNode prev)
{
	struct fam *e;

	if (2 * (f->n + 1) > f->cap) {
		struct fam *old = f->slots;
		size_t oc = f->cap, k;

		f->cap = oc ? 2 * oc : 256;
		f->slots = uk_util_xcalloc(f->cap, sizeof(*f->slots));
		for (k = 0; k < oc; k++)
			if (old[k].id)
				*fam_slot(f, old[k].id, old[k].start) = old[k];
		free(old);
	}
	e = fam_slot(f, n.id, ts_node_start_byte(n));
	if (!e->id)
		f->n++;
	e->id = n.id;
	e->start = ts_node_start_byte(n);
	e->parent = parent;
	e->prev = prev;
}

static const struct fam *
fam_get(TSNode n)
{
	const struct fam *e;

	if (!family || !family->n || ts_node_is_null(n))
		return NULL;
	e = fam_slot(family, n.id, ts_node_start_byte(n));
	return e->id ? e : NULL;
}

/* Whether a definition starts in [a, b), or at a. */
static int
holds_start(const uint32_t *starts, size_t n, uint32_t a, uint32_t b)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (starts[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && (starts[lo] < b || starts[lo] == a);
}

void
uk_symsig_family_begin(TSNode root, const uint32_t *starts, size_t n)
{
	struct family *f = uk_util_xcalloc(1, sizeof(*f));
	TSTreeCursor c;
	TSNode *node = NULL, *prev = NULL;
	size_t depth = 0, anode = 0, aprev = 0;

	uk_symsig_family_end();
	family = f;
	if (!n)
		return;
	c = ts_tree_cursor_new(root);
	GROW(node, depth, anode);
	GROW(prev, depth, aprev);
	node[0] = root;
	memset(&prev[0], 0, sizeof(prev[0]));
	if (!ts_tree_cursor_goto_first_child(&c))
		goto done;
	for (;;) {
		/* The cursor is on a child of node[depth]. */
		TSNode ch = ts_tree_cursor_current_node(&c);

		fam_add(f, ch, node[depth], prev[depth]);
		prev[depth] = ch;
		if (holds_start(starts, n, ts_node_start_byte(ch),
			ts_node_end_byte(ch)) &&
		    ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			GROW(node, depth, anode);
			GROW(prev, depth, aprev);
			node[depth] = ch;
			memset(&prev[depth], 0, sizeof(prev[depth]));
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!depth)
				goto done;
			ts_tree_cursor_goto_parent(&c);
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	free(node);
	free(prev);
}

void
uk_symsig_family_end(void)
{
	if (!family)
		return;
	free(family->slots);
	free(family);
	family = NULL;
}

TSNode
uk_symsig_parent(TSNode n)
{
	const struct fam *e = fam_get(n);

	return e ? e->parent : ts_node_parent(n);
}

TSNode
uk_symsig_prev_sibling(TSNode n)
{
	const struct fam *e = fam_get(n);

	return e ? e->prev : ts_node_prev_sibling(n);
}

static int
type_is(TSNode n, const char *t)
{
	return !strcmp(ts_node_type(n), t);
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * The node that holds the whole definition: C and C++ name a function in
 * a declarator inside the function_definition or declaration.
 */
static TSNode
container(TSNode def)
{
	TSNode n = def, p;

	for (;;) {
		p = uk_symsig_parent(n);
		if (ts_node_is_null(p))
			return n;
		if (ends_with(ts_node_type(p), "declarator") &&
		    !type_is(p, "variable_declarator")) {
			n = p;
			continue;
		}
		if (type_is(p, "function_definition") ||
		    type_is(p, "declaration") ||
		    type_is(p, "field_declaration") ||
		    type_is(p, "template_declaration"))
			return p;
		return n;
	}
}

/* The body of n (a block, a class body...), or a null node. */
static TSNode
body_of(TSNode n)
{
	TSNode b = ts_node_child_by_field_name(n, "body", 4), v;

	if (!ts_node_is_null(b))
		return b;
	v = ts_node_child_by_field_name(n, "value", 5);
	if (!ts_node_is_null(v))
		return ts_node_child_by_field_name(v, "body", 4);
	return b;
}

/*
 * Append text[a..e) to b as signature lines: at most SIG_LINES, each cut
 * at SIG_WIDTH bytes with U+2026, trailing blanks dropped.  Returns the
 * number of lines.
 */
static uint32_t
add_lines(struct uk_buf *b, const char *text, size_t a, size_t e)
{
	uint32_t n = 0;

	while (e > a &&
	    (isspace((unsigned char)text[e - 1]) || text[e - 1] == '{'))
		e--;
	while (a < e && n < SIG_LINES) {
		const char *nl = memchr(text + a, '\n', e - a);
		size_t le = nl ? (size_t)(nl - text) : e, w = le;

		while (w > a && isspace((unsigned char)text[w - 1]))
			w--;
		if (n)
			uk_buf_addch(b, '\n');
		if (w - a > SIG_WIDTH) {
			uk_buf_add_utf8(b, text + a,
			    uk_buf_utf8_cut(text + a, SIG_WIDTH));
			uk_buf_addstr(b, "\xe2\x80\xa6");
		} else {
			uk_buf_add_utf8(b, text + a, w - a);
		}
		n++;
		a = le + 1;
	}
	return n;
}

/*
 * Where the signature of node n (starting at byte a) ends when it has no
 * body: the end of its first line, or of the line where its brackets
 * close, within SIG_LINES lines.
 */
static size_t
sig_end_nobody(const char *text, size_t a, size_t e)
{
	int depth = 0;
	uint32_t lines = 1;
	size_t i;

	for (i = a; i < e; i++) {
		char c = text[i];

		if (c == '(' || c == '[' || c == '<')
			depth++;
		else if ((c == ')' || c == ']' || c == '>') && depth > 0)
			depth--;
		else if (c == '\n') {
			if (depth <= 0 || ++lines > SIG_LINES)
				return i;
		}
	}
	return e;
}

static int is_comment(TSNode n);

/*
 * Where the header of c ends before its body at e: before a comment on a
 * line of its own between the two (Django's `class Node:` and the
 * comment over its first attribute were shown as the class's signature).
 * A comment on the header's own line stays.
 */
static size_t
header_end(const char *text, TSNode c, size_t e)
{
	uint32_t i, n = ts_node_child_count(c);
	size_t last = ts_node_start_byte(c);

	for (i = 0; i < n; i++) {
		TSNode k = ts_node_child(c, i);
		size_t s = ts_node_start_byte(k);

		if (s >= e)
			break;
		if (!is_comment(k)) {
			last = ts_node_end_byte(k);
			continue;
		}
		if (s > last && memchr(text + last, '\n', s - last)) {
			while (s > last && text[s - 1] != '\n')
				s--;
			return s;
		}
	}
	return e;
}

/* The signature of the node holding a definition, and its line count. */
static char *
node_signature(const char *text, TSNode c, uint32_t *nlines)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t a = ts_node_start_byte(c), e = ts_node_end_byte(c);
	TSNode body = body_of(c);

	while (a > 0 && text[a - 1] != '\n')
		a--;
	if (!ts_node_is_null(body) && ts_node_start_byte(body) > a)
		e = header_end(text, c, ts_node_start_byte(body));
	else
		e = sig_end_nobody(text, a, e);
	*nlines = add_lines(&b, text, a, e);
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

char *
uk_symsig_signature(const char *text, TSNode def, uint32_t *nlines)
{
	return node_signature(text, container(def), nlines);
}

static int
is_scope(TSNode n)
{
	static const char *const types[] = { "class_definition",
		"class_declaration", "abstract_class_declaration", "class",
		"interface_declaration", "enum_declaration", "impl_item",
		"trait_item", "mod_item", "module", "internal_module",
		"namespace_definition", "class_specifier", "struct_specifier",
		"record_declaration", "object_declaration", NULL };
	size_t i;

	for (i = 0; types[i]; i++)
		if (type_is(n, types[i]))
			return 1;
	return 0;
}

static void
add_field(struct uk_buf *b, const char *text, TSNode n, const char *field)
{
	TSNode f =
	    ts_node_child_by_field_name(n, field, (uint32_t)strlen(field));
	uint32_t a, e;

	if (ts_node_is_null(f))
		return;
	a = ts_node_start_byte(f);
	e = ts_node_end_byte(f);
	if (e - a > SIG_WIDTH)
		e = a + (uint32_t)uk_buf_utf8_cut(text + a, SIG_WIDTH);
	uk_buf_add_utf8(b, text + a, e - a);
}

int
uk_symsig_scope(const char *text, TSNode def, struct sdef *d)
{
	TSNode n = uk_symsig_parent(container(def));
	struct uk_buf name = UK_BUF_INIT;

	for (; !ts_node_is_null(n); n = uk_symsig_parent(n)) {
		if (ts_node_is_null(uk_symsig_parent(n)))
			return 0; /* the file itself */
		if (is_scope(n))
			break;
	}
	if (ts_node_is_null(n))
		return 0;
	d->scope = node_signature(text, n, &d->scope_nlines);
	if (!d->scope)
		return 0;
	d->scope_line = ts_node_start_point(n).row + 1;
	if (type_is(n, "impl_item")) {
		uk_buf_addstr(&name, "impl ");
		if (!ts_node_is_null(
			ts_node_child_by_field_name(n, "trait", 5))) {
			add_field(&name, text, n, "trait");
			uk_buf_addstr(&name, " for ");
		}
		add_field(&name, text, n, "type");
	} else {
		add_field(&name, text, n, "name");
	}
	d->scope_name = name.len ? uk_buf_detach(&name, NULL) : NULL;
	uk_buf_release(&name);
	return 1;
}

/* Append one line of a comment to b without its markers. */
static void
add_comment_line(struct uk_buf *b, const char *s, size_t n)
{
	static const char *const marks[] = { "///", "//!", "/**", "/*!", "//",
		"/*", "*/", "#", "*", NULL };
	size_t i;

	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	for (i = 0; marks[i]; i++) {
		size_t m = strlen(marks[i]);

		if (n >= m && !memcmp(s, marks[i], m)) {
			s += m;
			n -= m;
			break;
		}
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && !memcmp(s + n - 2, "*/", 2))
		n -= 2;
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n)
		return;
	if (b->len)
		uk_buf_addch(b, '\n');
	uk_buf_add_utf8(b, s, n);
}

static void
add_text_lines(struct uk_buf *b, const char *text, size_t a, size_t e)
{
	while (a < e) {
		const char *nl = memchr(text + a, '\n', e - a);
		size_t le = nl ? (size_t)(nl - text) : e;

		add_comment_line(b, text + a, le - a);
		a = le + 1;
	}
}

/* A Python docstring: the body's first statement, a string. */
static int
docstring(struct uk_buf *b, const char *text, TSNode c)
{
	TSNode body = ts_node_child_by_field_name(c, "body", 4), st, str;
	size_t a, e;

	if (ts_node_is_null(body) || !type_is(body, "block"))
		return 0;
	st = ts_node_named_child(body, 0);
	if (ts_node_is_null(st) || !type_is(st, "expression_statement"))
		return 0;
	str = ts_node_named_child(st, 0);
	if (ts_node_is_null(str) || !type_is(str, "string"))
		return 0;
	a = ts_node_start_byte(str);
	e = ts_node_end_byte(str);
	while (a < e && strchr("rRuUbBfF", text[a]))
		a++;
	while (a < e && (text[a] == '"' || text[a] == '\''))
		a++;
	while (e > a && (text[e - 1] == '"' || text[e - 1] == '\''))
		e--;
	{
		/* Each line trimmed: the indent is the code's. */
		struct uk_buf t = UK_BUF_INIT;

		while (a < e) {
			const char *nl = memchr(text + a, '\n', e - a);
			size_t le = nl ? (size_t)(nl - text) : e, x = a, y = le;

			while (x < y && isspace((unsigned char)text[x]))
				x++;
			while (y > x && isspace((unsigned char)text[y - 1]))
				y--;
			if (t.len || y > x) {
				if (t.len)
					uk_buf_addch(&t, '\n');
				uk_buf_add_utf8(&t, text + x, y - x);
			}
			a = le + 1;
		}
		uk_buf_trim(&t);
		uk_buf_add(b, t.buf ? t.buf : "", t.len);
		uk_buf_release(&t);
	}
	return 1;
}

static int
is_comment(TSNode n)
{
	return strstr(ts_node_type(n), "comment") != NULL;
}

/*
 * The last row that holds n's text: Rust's line comments end at the start
 * of the next line (they hold their newline), which made a comment
 * followed by a blank line look adjacent to the item below it.
 */
static uint32_t
last_row(TSNode n)
{
	TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);

	return e.row > s.row && e.column == 0 ? e.row - 1 : e.row;
}

/*
 * Rust's inner doc comments (two slashes or a slash and a star, then
 * "!") document the module or crate they are in, not the item that
 * follows them.
 */
static int
inner_doc(const char *text, TSNode n)
{
	const char *t = text + ts_node_start_byte(n);

	return ts_node_end_byte(n) - ts_node_start_byte(n) >= 3 &&
	    t[0] == '/' && (t[1] == '/' || t[1] == '*') && t[2] == '!';
}

/* Attributes and decorators sit between a doc comment and its item. */
static int
is_attribute(TSNode n)
{
	const char *t = ts_node_type(n);

	return !strcmp(t, "attribute_item") || !strcmp(t, "decorator") ||
	    !strcmp(t, "annotation") || !strcmp(t, "marker_annotation");
}

char *
uk_symsig_doc(const char *text, TSNode def)
{
	struct uk_buf b = UK_BUF_INIT;
	TSNode c = container(def), n, p;
	TSNode run[64];
	size_t nrun = 0, k;
	uint32_t next_row;

	if (!docstring(&b, text, c)) {
		p = uk_symsig_parent(c);
		if (!ts_node_is_null(p) &&
		    (type_is(p, "export_statement") ||
			type_is(p, "decorated_definition")) &&
		    ts_node_start_point(p).row + 3 > ts_node_start_point(c).row)
			c = p;
		next_row = ts_node_start_point(c).row;
		for (n = uk_symsig_prev_sibling(c);
		     !ts_node_is_null(n) && nrun < sizeof(run) / sizeof(run[0]);
		     n = uk_symsig_prev_sibling(n)) {
			if (last_row(n) + 1 < next_row)
				break;
			if (is_attribute(n)) {
				next_row = ts_node_start_point(n).row;
				continue;
			}
			if (!is_comment(n) || inner_doc(text, n))
				break;
			next_row = ts_node_start_point(n).row;
			run[nrun++] = n;
		}
		for (k = nrun; k-- > 0;)
			add_text_lines(&b, text, ts_node_start_byte(run[k]),
			    ts_node_end_byte(run[k]));
	}
	uk_buf_trim(&b);
	if (b.len > DOC_MAX)
		uk_buf_setlen(&b, uk_buf_utf8_cut(b.buf, DOC_MAX));
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

char *
uk_symsig_text(const char *text, size_t a, size_t e, int body,
    uint32_t *nlines)
{
	struct uk_buf b = UK_BUF_INIT;

	if (!body)
		e = sig_end_nobody(text, a, e);
	*nlines = add_lines(&b, text, a, e);
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}

char *
uk_symsig_comments(const char *text, const size_t *start, const size_t *end,
    size_t n)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t k;

	for (k = 0; k < n; k++)
		add_text_lines(&b, text, start[k], end[k]);
	uk_buf_trim(&b);
	if (b.len > DOC_MAX)
		uk_buf_setlen(&b, uk_buf_utf8_cut(b.buf, DOC_MAX));
	if (!b.len) {
		uk_buf_release(&b);
		return NULL;
	}
	return uk_buf_detach(&b, NULL);
}
