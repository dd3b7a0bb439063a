/* SPDX-License-Identifier: MIT */
#ifndef UK_EXTRACT_SELECT_H
#define UK_EXTRACT_SELECT_H

/*
 * CSS selectors over gumbo's tree, for the extractor's overrides
 * (--select, --remove: lib/extract_override.c).
 *
 * Usage:
 *
 *	struct uk_extract_select *sel;
 *	struct uk_err err;
 *
 *	if (uk_extract_select_compile("article p, .note", &sel, &err) < 0)
 *		... err.msg: "at column 9: ..." ...
 *	uk_extract_select_each(sel, output->document, fn, arg);
 *	uk_extract_select_free(sel);
 *
 * The forms read: a type (div; any case), '*', #id, .class, [attr],
 * [attr=v], [attr~=v], [attr|=v], [attr^=v], [attr$=v], [attr*=v] (v an
 * identifier or a quoted string; a trailing " i" or " s" sets the case
 * rule), compound selectors (div.a#b[x]), the descendant (' ') and child
 * ('>') combinators, comma lists, and :not() of one simple selector.
 * Identifiers take CSS escapes (.md\:flex, \31 23).  Case as a browser
 * has it for an HTML document in standards mode: type and attribute
 * names ignore case; id and class values do not; attribute values do,
 * but for the attributes whose values HTML defines as case-insensitive
 * (type, lang, rel, dir...), unless the selector says " s".
 *
 * Not read (an error that says so): the sibling combinators '+' and '~',
 * other pseudo-classes and pseudo-elements, namespaces.
 *
 * Bounds, so that no selector, however written, costs more than the
 * page in proportion: UK_EXTRACT_SELECT_MAXLEN bytes, at most
 * UK_EXTRACT_SELECT_MAXLIST selectors in a comma list, at most
 * UK_EXTRACT_SELECT_MAXCHAIN compound selectors joined by combinators.
 * Matching is one walk of the tree in document order, whatever the
 * combinators (no backtracking): time in proportion to the elements times
 * the simple selectors, memory to the tree's depth times the list.
 */

#include <stddef.h>

#include "util.h"

#define UK_EXTRACT_SELECT_MAXLEN 1024
#define UK_EXTRACT_SELECT_MAXLIST 32
#define UK_EXTRACT_SELECT_MAXCHAIN 32

/* A compiled selector list (opaque). */
struct uk_extract_select;

/* gumbo's node, named without gumbo.h (GumboNode is this struct). */
struct GumboInternalNode;

/*
 * Compile the selector list s into *out.  0, or -1 with err: its message
 * says where the selector fails, as "at column N: what" (N counts
 * characters from 1; past the end, the length plus one), or which bound
 * it passes; *out is then NULL.  Free *out with uk_extract_select_free.
 */
int uk_extract_select_compile(const char *s, struct uk_extract_select **out,
    struct uk_err *err);

/*
 * Call fn(arg, g) for each element g at or under root (a document or an
 * element node) that one of sel's selectors matches, in document order,
 * once each.  Elements of a <template>'s content are walked too.
 * Returns the number of elements matched.
 */
size_t uk_extract_select_each(const struct uk_extract_select *sel,
    struct GumboInternalNode *root,
    void (*fn)(void *arg, struct GumboInternalNode *g), void *arg);

/* Free sel (NULL: nothing). */
void uk_extract_select_free(struct uk_extract_select *sel);

#endif
