/* SPDX-License-Identifier: MIT */
#ifndef UK_SYMBOLS_WALK_H
#define UK_SYMBOLS_WALK_H

/*
 * Private to the tags of lib/symbols*.c: the index driver
 * (symbols_tags.c) parses a file and takes its tags from its language's
 * query, whose predicates symbols_pred.c applies, or from a walk of its
 * tree (symbols_walk.c) that a language's walker (symbols_py.c,
 * symbols_c.c, symbols_cpp.c, symbols_rust.c, symbols_js.c, symbols_go.c) steers.
 */

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "buf.h"
#include "strset.h"
#include "symbols_int.h"

/* What a query's capture is to the tags, by its name. */
enum role { R_NONE, R_NAME, R_DEF, R_REF, R_DOC };

enum pred_op {
	P_EQ,
	P_NOT_EQ,
	P_MATCH,
	P_NOT_MATCH,
	P_ANY_OF,
	P_STRIP,
	P_ADJACENT,
	P_NOT_LOCAL
};

struct pred {
	enum pred_op op;
	uint32_t cap, cap2; /* cap2 for #eq? against a capture, else ~0 */
	const char *str;    /* for #eq? against a string */
	pcre2_code *re;
	const char **strs; /* #any-of? */
	size_t nstrs;
};

struct pattern {
	struct pred *preds;
	size_t npreds;
	int never;       /* a predicate we could not compile: no match */
	uint32_t doccap; /* the comments' capture, or ~0 */
};

/* What one thread needs to parse and query. */
struct symworker {
	struct symarena arena;
	pcre2_match_data *md;
};

/* A tag of the file being indexed, before emit_tags sorts them. */
struct tag {
	uint32_t start, end; /* the name's bytes */
	uint32_t pattern;
	int def;
	const char *kind;
	uint32_t node_start; /* the definition's first byte */
	uint32_t row;
	char *doc;
	TSNode node;
	uint32_t qstart, qend; /* the qualifier's bytes (rtag.qual), if any */
};

/* The file being indexed. */
struct filectx {
	struct symworker *w;
	const struct qstate *st;
	const char *text;
	size_t len;
	TSNode root;
	int locals_done;
	struct uk_strset locals;
	TSNode *docs;
	size_t ndocs, adocs;
};

struct walkframe {
	TSNode node;
	TSSymbol sym;
	TSFieldId field; /* in its parent, for the types the patterns ask */
	/*
	 * For a pattern of two children (a name, then a value that decides),
	 * the name among this node's children so far, or a null node.
	 */
	TSNode first;
	/*
	 * The comments just before this node (walktags.cm.v[run..+nrun)),
	 * and the run among its children so far (crun, ncrun; gap: a node
	 * without a name came after its last comment): JavaScript's docs.
	 */
	uint32_t run, nrun, crun, ncrun;
	int gap;
	/*
	 * The same for uk_sympred_doc's own look at the siblings: the comments
	 * (any type named so) just before this node with nothing between
	 * (walktags.cs.v[sib..+nsib)), whether it has a sibling before it
	 * and whether that is a comment; and the run among its children so
	 * far.
	 */
	uint32_t sib, nsib, csib, ncsib, nchildren;
	unsigned char has_prev, prev_comment;
};

/* Nodes, for runs of comments. */
struct nodevec {
	TSNode *v;
	size_t n, a;
};

/* A pattern of a walked language: the kind it captures, and whether a
 * definition. */
struct wpat {
	const char *kind;
	int def;
};

struct walktags {
	const struct wpat *pats; /* the language's, by pattern index */
	struct tag *tags;
	size_t n, a;
	size_t *bare; /* the tags of bare calls, for calls_local */
	size_t nbare, abare;
	/* The runs of comments (walkframe.run and crun, sib and csib), one
	 * vector each so that pushing to one never moves the other. */
	struct nodevec cm, cs;
};

/*
 * What a walk needs for the comments before a definition (JavaScript's
 * and Go's `(comment)* @doc . (definition)`): the comment's symbol, which
 * symbols have a name and which have "comment" in it, and the doc
 * pattern's #strip! and #select-adjacent! (or #set-adjacent!, the same
 * to uk_sympred_doc) on capture 0.
 */
struct docsyms {
	TSSymbol comment;
	unsigned char *named;      /* per symbol: a node with a name */
	unsigned char *commentish; /* per symbol: "comment" in its name */
	uint32_t nsyms;
	struct pred preds[2];
	struct pattern pat;
};

/* A language whose tags are walked, not queried. */
struct walklang {
	const struct wpat *pats;
	const char *const *caps;
	pthread_once_t *once;
	void (*init)(void);
	/* Whether a node's field in its parent (the second) is asked. */
	int (*wants_field)(TSSymbol, TSSymbol);
	void (*visit)(struct filectx *, struct walktags *, struct walkframe *,
	    size_t);
	/*
	 * Whether no pattern can match below a node of this symbol (NULL:
	 * none such); a node with an error below it is entered all the
	 * same, since error recovery may put any node there.
	 */
	int (*opaque)(const struct filectx *, const struct walkframe *);
	/* Whether the walk collects the file's bound names (fc->locals). */
	int binds;
};

/*
 * A node type or field of a grammar, by name, and where its id goes in
 * a language's struct of ids: one table a language, read by
 * uk_symwalk_grammar.
 */
struct grammar_name {
	const char *name;
	int field;     /* a field's name, not a node type's */
	size_t offset; /* of its TSSymbol or TSFieldId */
};

#define GRAMMAR_NODE(type, member, str)  { str, 0, offsetof(type, member) }
#define GRAMMAR_FIELD(type, member, str) { str, 1, offsetof(type, member) }

/* The predicate engine (symbols_pred.c). */
pcre2_code *uk_sympred_compile_re(const char *pat);
/* Pattern p of st's query: its predicates into st->pats[p]. */
void uk_sympred_setup(struct qstate *st, uint32_t p);
int uk_sympred_text_eq(const struct filectx *fc, TSNode n, const char *str,
    size_t sl);
/* Whether a node type t binds an identifier below it (a parameter). */
int uk_sympred_is_binding_parent(const char *t);
int uk_sympred_calls_local(struct filectx *fc, TSNode name, TSNode ref);
/* Whether match m of pattern pat, whose name is name, passes its
 * predicates. */
int uk_sympred_pass(struct filectx *fc, const struct pattern *pat,
    const TSQueryMatch *m, TSNode name);
/* The comments of m's capture doccap before node, as pat's predicates
 * select and strip them, or NULL. */
char *uk_sympred_doc(struct filectx *fc, const struct pattern *pat,
    const TSQueryMatch *m, uint32_t doccap, TSNode node);

/* The walk (symbols_walk.c). */
/* Language lang's ids of names into grammar; the language. */
const TSLanguage *uk_symwalk_grammar(const char *lang,
    const struct grammar_name *names, void *grammar);
TSSymbol uk_symwalk_sym(const TSLanguage *l, const char *name);
void uk_symwalk_tag(struct filectx *fc, struct walktags *pt, TSNode name,
    TSNode node, uint32_t pattern);
void uk_symwalk_docsyms_init(struct docsyms *d, const TSLanguage *l,
    const char *strip);
void uk_symwalk_doc_def(struct filectx *fc, struct walktags *pt,
    const struct docsyms *ds, TSNode name, const struct walkframe *p,
    const struct walkframe *g, uint32_t pattern, uint32_t run,
    uint32_t nrun);
void uk_symwalk_doc_comments(struct walktags *pt, const struct docsyms *ds,
    struct walkframe *p, struct walkframe *f);
void uk_symwalk_tree(struct filectx *fc, const struct walklang *wl,
    struct tag **tags, size_t *ntags, size_t *atags);
/*
 * Up from a node with no next sibling to the next sibling of its nearest
 * ancestor that has one, decrementing *depth per level climbed: 0 there,
 * -1 when the root is reached (the walk is over).
 */
int uk_sympred_climb(TSTreeCursor *c, size_t *depth);

/* The languages' walkers. */
extern const struct walklang uk_sympy_walker;
extern const struct walklang uk_symc_walker;
extern const struct walklang uk_symcpp_walker;
extern const struct walklang uk_symrust_walker;
extern const struct walklang uk_symjs_walker;
extern const struct walklang uk_symgo_walker;
/*
 * The qualifier of a Python reference t whose name is name (symbols_py.c),
 * as the walk gives it, for a tag the query found.
 */
void uk_sympy_qualify_ref(struct tag *t, TSNode name);
/* The same for Go (symbols_go.c). */
void uk_symgo_qualify_ref(struct tag *t, TSNode name);

#endif
