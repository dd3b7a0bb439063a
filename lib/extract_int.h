/* SPDX-License-Identifier: MIT */
/*
 * Private to the extraction modules: the flat node array that
 * extract.c builds from gumbo's tree, its metadata candidates, and the
 * text writer.  extract.c scores and selects; extract_meta.c gathers
 * metadata; extract_write.c writes the text of chosen nodes;
 * extract_node.c holds the node helpers they all use.
 */
#ifndef UK_EXTRACT_INT_H
#define UK_EXTRACT_INT_H

#include <gumbo.h>

#include "buf.h"
#include "extract.h"

/* Node flags. */
#define F_TEXT   0x01  /* a text node */
#define F_SKIP   0x02  /* never text: script, style, nav... (whole subtree) */
#define F_BLOCK  0x04  /* a block-level element */
#define F_INLINK 0x08  /* inside <a> */
#define F_PRE    0x10  /* inside <pre> (keep whitespace) */
#define F_CAND   0x20  /* has a content score */
#define F_BOIL   0x40  /* boilerplate by class or id, unless it is most text */
#define F_INART  0x80  /* inside <article> or <main> */
#define F_CSKIP  0x100 /* skipped as confirmed class boilerplate */
#define F_STRONG 0x200 /* class boilerplate that stays out however large */
#define F_CMT    0x400 /* skipped as part of a comment section */
#define F_CROOT  0x800 /* the root of a comment section (or one of its parts) */
#define F_LEAD   0x1000 /* skipped while lead_emit writes (a short line) */
#define F_SEL    0x2000 /* a text node today's rules chose (model's input) */
#define F_MDROP  0x4000 /* a text node the block model dropped */
#define F_MSHORT 0x8000 /* a text node of a block too short to add */
#define F_BYTAG  0x10000 /* set aside by its tag: nav, footer, aside, menu */
#define F_BYROLE 0x20000 /* set aside by its role: navigation, banner... */

struct nd {
	GumboNode *g;
	int parent; /* index, -1 for the root */
	int end;    /* one past the last node of the subtree */
	int tag;    /* GumboTag; GUMBO_TAG_UNKNOWN for text */
	unsigned flags;
	int text; /* characters of text in the subtree (not skipped) */
	int link; /* of which inside links */
	int commas;
	int own; /* text directly in this block (not in child blocks) */
	int owncommas;
	double score;
};

struct ctx {
	struct nd *n;
	int nn, alloc;
	int body;
	/* select_emit's dry run: where the selection starts, where it ends */
	int dry, first, last;
	struct uk_extract *x;
	/* Metadata candidates, by preference. */
	char *og_title, *title, *h1, *tw_title;
	char *meta_desc, *og_desc, *ld_desc;
	char *meta_author, *art_author, *ld_author, *rel_author;
	char *art_date, *ld_date, *time_date, *meta_date;
	char *ld_headline;
	/* Language, site, address, image, tags (extract_meta.c). */
	const char *url;       /* the page's address, or NULL */
	const char *http_lang; /* the Content-Language header, or NULL */
	char *html_lang, *meta_lang, *og_locale;
	char *og_site, *ld_publisher, *app_name;
	char *link_canonical, *og_url, *og_image, *tw_image, *ld_image;
	char **tags; /* article:tag, then keywords, as found */
	size_t ntags;
	/* Signs of an app shell (uk_ex_needs_browser). */
	int scripts;         /* <script> elements that run code */
	size_t script_bytes; /* their inline code */
	int app_root;        /* an element apps mount on (id="root"...) */
	int js_notice;       /* a noscript or text asking for JavaScript */
	/* select_emit marks its choice with F_SEL instead of writing it. */
	int mark;
	/* --explain: each block's raw score by the block model, or NULL. */
	int explain;
	double *mscore;
	/*
	 * The page's text (what uk_ex_page_features is given) with its
	 * ASCII letters lower-cased, made once there for its word counts
	 * and read again by the block-page check; or NULL.
	 */
	char *lc;
};

/* Text writer with pending breaks: 0 none, 1 space, 2 newline, 3 blank. */
struct writer {
	struct uk_buf *b;
	int brk;
	/*
	 * The format and the state of Markdown (extract_write.c and
	 * extract_md.c; uk_ex_w_init sets them up, all zero is plain text).
	 */
	int md;             /* write Markdown */
	int links, images;  /* Markdown: keep links, images */
	const char *base;   /* the page's URL (links are resolved on it) */
	int flat;           /* > 0: every break is a space (a cell, a heading) */
	int cell;           /* in a table cell: '|' is escaped */
	int bol;            /* the next word starts a line */
	int linkdepth;      /* in a link's text: '[' and ']' are escaped */
	size_t linkstart;   /* b->len just after the link's '[' */
	size_t linksave;    /* b->len before it, and the break then pending */
	int linkbrk, linknode; /* linknode: the <a> open (when linkdepth) */
	/* The prefix of every line (quotes' "> ", list items' indent). */
	char pfx[128];
	size_t pfxlen, brkpfx; /* brkpfx: pfxlen when the break was asked */
	unsigned char pfxn[32]; /* the length of each level pushed */
	int npfx, pfxlost;      /* levels pushed; levels too deep to hold */
	/* A line marker ("- ", "3. ", "## ") written with the next word. */
	char mark[24];
	size_t markpfx;     /* the prefix the marker goes after */
	size_t markind;     /* of the marker, the part the prefix indents */
	size_t markkeep;    /* of the marker, what was before a heading's */
	int markbol;        /* whether the word after the marker starts a line */
	/* Open lists: ordered or not, the next number, items so far. */
	struct {
		int ordered;
		long next;
		int items;
	} lists[16];
	int nlists, listslost;
	/* Markdown: the note of a card's grids (extract_write.c), written
	 * at the start of the next paragraph, before its prefix. */
	char note[256];
	size_t notelen;
};

/* extract_node.c: the value of attribute name of element g, or NULL. */
const char *uk_ex_attr(GumboNode *g, const char *name);
/*
 * Append s[0..n) to b as a JSON string: '"' and '\\' escaped, control
 * bytes as \u00XX, the rest as it is (the features and tree dumps).
 */
void uk_ex_json_str(struct uk_buf *b, const char *s, size_t n);
/*
 * Whether tag's element is never text, with its subtree, whatever the
 * options (scripts, styles, templates, the head, embedded media, form
 * controls); --whole keeps all else (extract_node.c).
 */
int uk_ex_tag_never_text(int tag);
/* Whether a style attribute hides its element (display:none...). */
int uk_ex_style_hidden(const char *s);
/* Whether tag is an inline element (its text runs on with its parent). */
int uk_ex_tag_inline(int tag);
/* Whether word w occurs in s as a whole word (separators: not alnum). */
int uk_ex_has_word(const char *s, const char *w);

/*
 * Append s to b with each run of white space (isspace) as one space and
 * none at the start of b.  *sp carries a run across calls, so that the
 * text of several nodes squeezes as one: 1 when s ended in white space;
 * set it to 0 before the first call (a leading run then makes a space
 * when b is not empty) or to 1 (a leading run is dropped likewise).  With
 * UK_EX_LOWER, ASCII and Latin-1 capitals (U+00C0..U+00DE, not U+00D7)
 * are lowered.  Appends while b holds fewer than max bytes (SIZE_MAX: no
 * limit), so b may end a character or two past max.
 */
#define UK_EX_LOWER 1
void uk_ex_squeeze(struct uk_buf *b, const char *s, int *sp, int flags,
    size_t max);

/* extract_meta.c: collect candidates from element g (tag) into c. */
void uk_ex_metadata(struct ctx *c, GumboNode *g, int tag);
/* extract_meta.c: choose among the candidates into c->x. */
void uk_ex_finish_metadata(struct ctx *c);
/* extract_meta.c: free the candidates. */
void uk_ex_metadata_release(struct ctx *c);
/*
 * extract_meta.c: whether the page is an app shell whose text scripts
 * build; alltext is the text of the whole body.
 */
int uk_ex_needs_browser(const struct ctx *c, const char *alltext,
    size_t alllen);
/* extract_meta.c: whether an app shell's text is only its notice. */
int uk_ex_only_notice(const char *text, size_t len);

/*
 * extract_md.c: write the text of the subtree at i.  skip: 0 all but
 * scripts and styles (the fallback), 1 without boilerplate.
 */
void uk_ex_emit(struct ctx *c, int i, struct writer *w, int skip);
/*
 * Ask for a break of level (struct writer) before the next word: the
 * larger of it and the break pending is kept; a space at most in flat
 * text, none while a line marker waits.
 */
void uk_ex_w_break(struct writer *w, int level);
/*
 * extract_write.c: the break a block element asks for, as uk_ex_w_break
 * takes it (a line for <br>, <li>, <tr>, a space for a cell, else a
 * blank line).
 */
int uk_ex_break_level(int tag);
/* extract_write.c: drop paragraphs repeated word for word. */
void uk_ex_dedupe(struct uk_buf *t);
/*
 * The text of text node j to write: at the first words of a paragraph
 * (not a cell's, nor a <pre>'s), without its leading white space and
 * after the note of the grids of cards around it, which uk_ex_dedupe
 * reads (extract_write.c).
 */
const char *uk_ex_para_text(struct ctx *c, int j, struct writer *w,
    int skip);

/*
 * Shrink the page s[0..len) in place before gumbo sees it: comments, the
 * bodies of scripts (but JSON-LD) and styles, and the attributes
 * extraction does not read are dropped, runs of whitespace outside <pre>
 * squeezed, and elements nested absurdly deep lose their tags (not their
 * text).  Returns the new length (extract_shrink.c).  flags: with
 * UK_EX_SHRINK_KEEP_ATTRS every attribute is kept (CSS selectors, which
 * may name any, are to be matched: extract_override.c).
 */
#define UK_EX_SHRINK_KEEP_ATTRS 1
size_t uk_ex_shrink(char *s, size_t len, unsigned flags);

/*
 * Sum each node's text, link text and commas bottom-up, over what is not
 * skipped (extract_node.c); run again after marks change.
 */
void uk_ex_measure(struct ctx *c);

/*
 * Mark boilerplate by what the page says: sections under a heading such
 * as "Related articles" or "Comments", and short lines every reader skips
 * (copyright, "Read more: <link>", subscription boxes, page controls),
 * then measure again (extract_text.c).
 */
void uk_ex_mark_by_text(struct ctx *c);

/* The nearest block ancestor of node i (or the root; extract_node.c). */
int uk_ex_block_of(struct ctx *c, int i);

/*
 * What class names say (extract_class.c).  uk_ex_class_init makes the
 * word lists' byte sets once; call it before the others.
 */
void uk_ex_class_init(void);
/* The lower-cased "class id" of element g, into b (cleared first). */
void uk_ex_class_id(GumboNode *g, struct uk_buf *b);
/*
 * The verdict of a "class id" string, token by token: 0 not
 * boilerplate, 2 boilerplate, 3 strong boilerplate (kept out however
 * large), 4 a comment section.
 */
int uk_ex_class_verdict(const char *ci);
/* Readability's class weight of a "class id" string: -25, 0 or +25. */
int uk_ex_class_weight(const char *ci);
/* Whether a "class id" string says its element is not printed. */
int uk_ex_class_noprint(const char *ci);
/* Whether a "class id" string names a picture's caption, credit or note. */
int uk_ex_class_caption(const char *ci);
/* Whether a "class id" string names an article's own header. */
int uk_ex_article_header(const char *ci);
/* Whether class names s[0..n) say the element is one of many. */
int uk_ex_repeat_class(const char *s, size_t n);
/*
 * What an element's class and id say, by the word lists of
 * uk_ex_class_verdict: boilerplate, content, one of many, a box beside
 * the text.
 */
#define UK_EX_CNEG 1
#define UK_EX_CPOS 2
#define UK_EX_CREP 4
#define UK_EX_CBOX 8
unsigned uk_ex_class_signs(GumboNode *g);

/*
 * The learned part (extract_feat.c, extract_model.c): page features,
 * the page type, block features and the block model.  The features are
 * the same code at training and at run time: with the environment
 * variable UK_EXTRACT_FEATURES naming a file, each page's features and
 * its blocks' text are appended to it as one JSON line
 * (scripts/train-extract reads them).
 */
#define UK_EX_NPF 72 /* page features (the last 8: the longest run's items) */
#define UK_EX_NBF 64 /* block features */
/*
 * The stacked block model's features: the block's (UK_EX_NBF), then
 * UK_EX_NXF more of the block against the page (its words against the
 * title's and the chosen part's, its shape repeated, where it lies
 * from the chosen part), then UK_EX_NSF of the first pass's scores
 * around it (its neighbours', its parent's and grandparent's other
 * blocks', the chosen part's, its rank in the page).
 */
#define UK_EX_NXF 8
#define UK_EX_NSF 17
#define UK_EX_NSTK (UK_EX_NBF + UK_EX_NXF + UK_EX_NSF)
#define UK_EX_NTYPES 7
/* The page types, in the model's order. */
extern const char *const uk_ex_types[UK_EX_NTYPES];

/*
 * A tree ensemble (extract_model.c, generated by scripts/train-extract.d/
 * export.py, which compiles each tree into C).  Each add[j] adds to
 * raw[k] the leaf x reaches in each of a run of trees of class k, the
 * runs in the trees' order.  A binary model's rest[2j] and rest[2j + 1]
 * bound what the trees after run j may add: the sums of their largest
 * and of their smallest leaves (NULL for a softmax).
 */
struct uk_ex_trees {
	int nclass;   /* 1: binary (a logistic), else a softmax over classes */
	int ntrees;
	const double *base; /* nclass baselines */
	int nadd;
	void (*const *add)(const double *x, double *raw);
	const double *rest;
};
extern const struct uk_ex_trees uk_ex_type_model, uk_ex_block_model;
/*
 * The region model (the second opinion): its raw score over a page's
 * UK_EX_NRF region features says whether the body less its boilerplate
 * is a better main text than the rules' choice; it is taken above
 * uk_ex_region_threshold, on a page not typed an article.  No trees: it
 * never is (the committed model has none: measured and not kept,
 * doc/EXTRACTION.md).
 */
#define UK_EX_NRF (UK_EX_NPF + 12 + UK_EX_NTYPES)
extern const struct uk_ex_trees uk_ex_region_model;
extern const double uk_ex_region_threshold;
/*
 * The block model's threshold, as a raw score (the logit of the
 * probability): blocks scored under it are dropped.
 */
extern const double uk_ex_block_threshold;
/*
 * The stacked block model (a second pass over UK_EX_NSTK features, the
 * first pass's scores among them) and its threshold; with no trees, the
 * first pass decides alone.
 */
extern const struct uk_ex_trees uk_ex_stack_model;
extern const double uk_ex_stack_threshold;
/*
 * On a page not typed an article, the stacked model decides every
 * block, the rules' choice among them, at this threshold (1e9 or more:
 * never; it only adds there too).
 */
extern const double uk_ex_stack_all_threshold;

/* A block: its first text node, text counts, and where it stands. */
struct blk {
	int b;           /* the block element */
	int chars, link, sel; /* characters, of which in links, chosen */
	int commas, stops, digits, words, wchars;
	int before;      /* characters of text before it in the page */
	int endstop;     /* its text ends a sentence */
	int first, last; /* its first and last text nodes (chained by nx) */
};

/*
 * extract_stack.c: the stacked model's inputs, into the rows of F
 * (nb rows of UK_EX_NSTK, blocks bl in document order; nx chains each
 * block's text nodes, h1 is the first <h1> or -1).  The extra features
 * of each block (columns UK_EX_NBF..); each block's parent's and
 * grandparent's blocks as runs [lo, hi) into r[4k..4k+4); the features
 * of the first pass's scores s (columns UK_EX_NBF + UK_EX_NXF..).
 */
void uk_ex_extra_features(struct ctx *c, const int *nx, int h1,
    const struct blk *bl, int nb, double *F);
void uk_ex_block_ranges(struct ctx *c, const struct blk *bl, int nb,
    int *r);
void uk_ex_stack_features(const struct blk *bl, int nb, const int *r,
    const double *s, double *F);

/*
 * The blocks the rules set aside by a class or id, by a tag (nav,
 * footer, aside, menu, a <header> outside the article) or by a role
 * (not comments, not the text rules, not hidden elements nor forms'
 * controls), which the back model may take back (doc/EXTRACTION.md, "The
 * block model").  UK_EX_NAF features say which rule set a block aside
 * and how large the subtree set aside is; a candidate's row (UK_EX_NBK)
 * is the stacked model's features of it among the blocks kept, then
 * those.
 */
#define UK_EX_NAF 10
#define UK_EX_NBK (UK_EX_NSTK + UK_EX_NAF)
struct uk_ex_back {
	int nc;          /* candidates */
	int nm;          /* blocks kept and candidates, in document order */
	struct blk *bl;  /* those nm blocks */
	int *mk;         /* of each: its index among the kept, or -1 - its
			  * index among the candidates */
	int *cm;         /* of each candidate: its index among the nm */
	int *root;       /* of each candidate: the root of its subtree */
	double *A;       /* of each candidate: UK_EX_NAF features */
	double *F;       /* the nm blocks' rows (UK_EX_NSTK) */
	double *ms;      /* the nm blocks' first pass scores */
	double *R;       /* the candidates' rows (UK_EX_NBK) */
	double *bs;      /* the candidates' back model scores */
	int *r;          /* the nm blocks' ranges (uk_ex_block_ranges) */
};
/*
 * The candidates of c, given the kept blocks bl (nb, nx chaining their
 * text nodes), into *bk (nx chains the candidates' too; F, ms, R and bs
 * allocated); returns how many.  The caller fills in the candidates'
 * block features (bk->F) and the nm first pass scores (bk->ms), then
 * uk_ex_back_rows gives the candidates' rows (bk->R), which the caller
 * scores with the back model (bk->bs).  uk_ex_back_take takes back the candidates of min characters scored
 * at the threshold (their text nodes and the elements between them
 * and the root lose F_SKIP) and returns how many text nodes it adds.
 * uk_ex_back_dump appends the candidates to a features dump's line:
 * their rows ("c"), each of the nm blocks' index ("m": the kept k, or
 * -1 - the candidate's), ranges ("mr") and first pass score ("ms"),
 * and opens the list of their text ("ct"), which the caller writes.
 */
int uk_ex_back_collect(struct ctx *c, int *nx, const struct blk *bl,
    int nb, struct uk_ex_back *bk);
void uk_ex_back_rows(struct ctx *c, const int *nx, int h1,
    struct uk_ex_back *bk);
int uk_ex_back_take(struct ctx *c, const int *nx,
    const struct uk_ex_back *bk, int min);
void uk_ex_back_dump(const struct uk_ex_back *bk, struct uk_buf *out);
void uk_ex_back_free(struct uk_ex_back *bk);
/*
 * The back model (extract_model_back.c, generated by
 * scripts/train-extract.d/export_back.py): a candidate of
 * uk_ex_back_min characters at least is taken back at
 * uk_ex_back_threshold or above, on a page whose article type scores
 * uk_ex_back_margin under the best type's at least; with no trees, none
 * is.
 */
extern const struct uk_ex_trees uk_ex_back_model;
extern const double uk_ex_back_threshold, uk_ex_back_margin;
extern const int uk_ex_back_min;

/*
 * extract_trees.c: the raw scores of x by model m into raw[m->nclass]:
 * the baseline plus the leaves reached (a logit for a binary model; the
 * order of the classes' probabilities for a softmax).
 */
void uk_ex_trees_eval(const struct uk_ex_trees *m, const double *x,
    double *raw);
/*
 * The raw score of x by the binary model m, or, as soon as the trees
 * left cannot take it across any of the thresholds t[0..nt), a value on
 * the same side of each as the score (raw >= t or not): what a decision
 * at those thresholds reads, exactly, without the rest of the trees.
 */
double uk_ex_trees_side(const struct uk_ex_trees *m, const double *x,
    const double *t, int nt);

/*
 * A copy of s (NULL: "") up to its first NUL with its ASCII letters
 * lower-cased; bytes over 127 are left, as strcasestr leaves them.
 */
char *uk_ex_lower(const char *s);

/*
 * Page features of c (after scoring: best is the best block or -1;
 * html[0..len) the page as parsed, for JSON-LD types; alltext the text
 * of its body, which it leaves lower-cased in c->lc).
 */
void uk_ex_page_features(struct ctx *c, int best, const char *html,
    size_t len, const char *alltext, size_t alllen, double *pf);

/*
 * Run the model over the text nodes of c: the page type into c->x, then
 * each block's probability of being main text; text nodes of blocks
 * under the threshold get F_SKIP | F_MDROP.  The rules' choice is the
 * text nodes with F_SEL.  With apply 0, the page type only (and the
 * dump).  Returns how many text nodes were dropped or
 * added (0: the rules' text stands), or -1 when the page has no blocks.
 * With UK_EXTRACT_FEATURES set, also appends the features to that file.
 */
int uk_ex_model_apply(struct ctx *c, int best, const double *pf, int apply);

/*
 * Why text is not in the main text (--explain): the rules' names, in one
 * table (why_name in extract_feat.c).
 */
enum uk_ex_why {
	UK_EX_WHY_TAG,      /* nav, footer, aside, forms' controls */
	UK_EX_WHY_HIDDEN,   /* hidden, aria-hidden, display:none */
	UK_EX_WHY_ROLE,     /* a role: navigation, banner, dialog... */
	UK_EX_WHY_CLASS,    /* class or id names boilerplate */
	UK_EX_WHY_COMMENTS, /* a comment section */
	UK_EX_WHY_TEXT,     /* what it says (extract_text.c), a line of
			     * links or a teaser at the end */
	UK_EX_WHY_OUTSIDE,  /* outside the part the rules chose */
	UK_EX_WHY_MODEL     /* the block model scores it under its
			     * threshold */
};

/*
 * extract_feat.c: append to out, as JSON Lines, one object for each
 * block or subtree set aside ("rule", "path" from the body, an excerpt
 * "text", and "score" for the model's), in document order.  Called
 * after the text is written; written_all: the text is the whole body
 * less what is skipped (the first fallback).
 */
void uk_ex_explain(struct ctx *c, struct uk_buf *out);
/*
 * The longest excerpt of a record's "text", in bytes, cut at a whole
 * character: a paragraph's first sentences or a menu's first items.
 */
#define UK_EX_EXCERPT 300

/*
 * extract_override.c: element i's path from the root, at most its eight
 * nearest elements ("body>div#main>p.note", "...>" before when cut),
 * appended to b: the "path" of --explain's records.
 */
void uk_ex_node_path(struct ctx *c, int i, struct uk_buf *b);

/*
 * extract_items.c: with UK_EXTRACT_TREE naming a file, append the body's
 * nodes (parent, tag, first class, flags, text) and the page type to it
 * as one JSON line, after the choice (scripts/eval-extract.d/type-where).
 */
void uk_ex_items_dump(struct ctx *c, int best, int fallback);
/*
 * extract_items.c: the page features of c into pf (uk_ex_page_features,
 * given best, the page as parsed u and the body's text all), then the
 * part the page type's profile chooses (documentation and listings: the
 * nearest ancestor of the first <h1> holding half the text): an element,
 * or -1 to leave the choice to the rules (and when c has no body).
 */
int uk_ex_items_choose(struct ctx *c, int best, const struct uk_buf *u,
    const struct uk_buf *all, double *pf);

#endif
