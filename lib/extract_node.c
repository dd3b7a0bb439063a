/* SPDX-License-Identifier: MIT */
/*
 * The node helpers every extraction module uses (see extract_int.h):
 * what a tag is, an element's attributes, white space squeezed, and
 * the text measured over the flat node array extract.c builds.  They
 * call no other extraction module, so that each module that reads the
 * tree calls down to them and none back up into extract.c.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "banned.h"
#include "buf.h"
#include "extract_int.h"

int
uk_ex_tag_never_text(int tag)
{
	switch (tag) {
	case GUMBO_TAG_SCRIPT:
	case GUMBO_TAG_STYLE:
	case GUMBO_TAG_TEMPLATE:
	case GUMBO_TAG_HEAD:
	case GUMBO_TAG_TITLE:
	case GUMBO_TAG_META:
	case GUMBO_TAG_LINK:
	case GUMBO_TAG_SVG:
	case GUMBO_TAG_MATH:
	case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_OBJECT:
	case GUMBO_TAG_EMBED:
	case GUMBO_TAG_CANVAS:
	case GUMBO_TAG_BUTTON:
	case GUMBO_TAG_SELECT:
	case GUMBO_TAG_OPTION:
	case GUMBO_TAG_TEXTAREA:
	case GUMBO_TAG_INPUT:
	case GUMBO_TAG_AUDIO:
	case GUMBO_TAG_VIDEO:
	case GUMBO_TAG_MAP:
	case GUMBO_TAG_AREA:
		return 1;
	default:
		return 0;
	}
}

/* Elements that do not break the flow of text. */
int
uk_ex_tag_inline(int tag)
{
	switch (tag) {
	case GUMBO_TAG_A:
	case GUMBO_TAG_ABBR:
	case GUMBO_TAG_B:
	case GUMBO_TAG_BDI:
	case GUMBO_TAG_BDO:
	case GUMBO_TAG_CITE:
	case GUMBO_TAG_CODE:
	case GUMBO_TAG_DATA:
	case GUMBO_TAG_DFN:
	case GUMBO_TAG_EM:
	case GUMBO_TAG_FONT:
	case GUMBO_TAG_I:
	case GUMBO_TAG_KBD:
	case GUMBO_TAG_MARK:
	case GUMBO_TAG_Q:
	case GUMBO_TAG_S:
	case GUMBO_TAG_SAMP:
	case GUMBO_TAG_SMALL:
	case GUMBO_TAG_SPAN:
	case GUMBO_TAG_STRONG:
	case GUMBO_TAG_SUB:
	case GUMBO_TAG_SUP:
	case GUMBO_TAG_TIME:
	case GUMBO_TAG_U:
	case GUMBO_TAG_VAR:
	case GUMBO_TAG_WBR:
	case GUMBO_TAG_IMG:
	case GUMBO_TAG_LABEL:
	case GUMBO_TAG_BIG:
	case GUMBO_TAG_TT:
	case GUMBO_TAG_STRIKE:
	case GUMBO_TAG_DEL:
	case GUMBO_TAG_INS:
	case GUMBO_TAG_NOBR:
	case GUMBO_TAG_RUBY:
	case GUMBO_TAG_RT:
	case GUMBO_TAG_RP:
		return 1;
	default:
		return 0;
	}
}

const char *
uk_ex_attr(GumboNode *g, const char *name)
{
	const GumboVector *v;
	unsigned k;

	if (g->type != GUMBO_NODE_ELEMENT && g->type != GUMBO_NODE_TEMPLATE)
		return NULL;
	/*
	 * gumbo_get_attribute's walk (the first of that name, ASCII case
	 * aside), with the first bytes compared before strcasecmp is
	 * called: most attributes differ there, and a 2 KB page asks for
	 * some 760 attributes.  Letters' bit 0x20 is their case; two
	 * names strcasecmp finds equal never differ there.
	 */
	v = &g->v.element.attributes;
	for (k = 0; k < v->length; k++) {
		const GumboAttribute *a = v->data[k];

		if ((a->name[0] | 0x20) == (name[0] | 0x20) &&
		    !strcasecmp(a->name, name))
			return a->value;
	}
	return NULL;
}

int
uk_ex_has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p = s;

	while ((p = strstr(p, w))) {
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
		p++;
	}
	return 0;
}

void
uk_ex_squeeze(struct uk_buf *b, const char *s, int *sp, int flags,
    size_t max)
{
	const unsigned char *p;
	size_t len;
	char *o;

	/*
	 * No more bytes out than in (a run of spaces gives one), and the
	 * space a run at the end of the last text left (*sp): room made
	 * once, the bytes written without a call each.  isspace and
	 * tolower are the "C" locale's, which the programs never leave.
	 */
	uk_buf_grow(b, strlen(s) + 1);
	o = b->buf;
	len = b->len;
	for (p = (const unsigned char *)s; *p && len < max; p++) {
		if (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
			*sp = 1;
			continue;
		}
		if (*sp && len)
			o[len++] = ' ';
		*sp = 0;
		if (!(flags & UK_EX_LOWER)) {
			o[len++] = (char)*p;
			continue;
		}
		if (p[0] == 0xc3 && p[1] >= 0x80 && p[1] <= 0x9e &&
		    p[1] != 0x97) {
			/* À..Þ to à..þ */
			o[len++] = (char)0xc3;
			o[len++] = (char)(p[1] + 0x20);
			p++;
			continue;
		}
		o[len++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	}
	o[len] = '\0';
	b->len = len;
}

int
uk_ex_style_hidden(const char *s)
{
	char b[256];
	size_t i, n = 0;

	for (i = 0; s[i] && n + 1 < sizeof(b); i++)
		if (!isspace((unsigned char)s[i]))
			b[n++] = (char)tolower((unsigned char)s[i]);
	b[n] = '\0';
	return strstr(b, "display:none") || strstr(b, "visibility:hidden");
}

/* The nearest block ancestor of node i (or the root). */
int
uk_ex_block_of(struct ctx *c, int i)
{
	int p = c->n[i].parent;

	while (p > 0 && !(c->n[p].flags & F_BLOCK))
		p = c->n[p].parent;
	return p < 0 ? 0 : p;
}

/*
 * SWAR (eight bytes in a 64-bit word, a flag in the top bit of each):
 * the bytes of w equal to c.
 */
#define ONES UINT64_C(0x0101010101010101)
#define HIGH UINT64_C(0x8080808080808080)
#define LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)

static uint64_t
bytes_eq(uint64_t w, unsigned char c)
{
	uint64_t x = w ^ (c * ONES);

	return ~(((x & LOW7) + LOW7) | x) & HIGH;
}

/* How many flags m holds (no popcnt in the baseline x86-64). */
static int
flags_n(uint64_t m)
{
	return (int)(((m >> 7) * ONES) >> 56);
}

/*
 * Characters of s after collapsing whitespace (code points): each byte
 * that is neither a space (isspace of the "C" locale) nor a UTF-8
 * continuation, and each run of spaces after one; commas into *commas.
 * Eight bytes at a time, the rest one by one (text nodes are most of
 * what is measured, twice a page).
 */
static int
text_len(const char *s, int *commas)
{
	size_t len = strlen(s), i = 0;
	uint64_t carry = HIGH & 0x80; /* the byte before: a space */
	int n = 0, sp;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, t, space, cont;

		memcpy(&w, s + i, 8);
		t = w & LOW7;
		/* ' ', or 9 to 13: at least 9 and not at least 14, < 128 */
		space = bytes_eq(w, ' ') | ((t + (0x80 - 9) * ONES) &
		    ~(t + (0x80 - 14) * ONES) & ~w & HIGH);
		cont = w & ~(w << 1) & HIGH; /* 10xxxxxx */
		n += flags_n(~space & ~cont & HIGH);
		n += flags_n(space & ~((space << 8) | carry) & HIGH);
		*commas += flags_n(bytes_eq(w, ','));
		carry = space >> 56;
	}
	for (sp = carry != 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == ' ' || (ch >= '\t' && ch <= '\r')) {
			if (!sp)
				n++;
			sp = 1;
			continue;
		}
		sp = 0;
		if ((ch & 0xc0) != 0x80)
			n++;
		if (ch == ',')
			(*commas)++;
	}
	return n;
}

/* Sum text, link text and commas bottom-up. */
void
uk_ex_measure(struct ctx *c)
{
	int i;

	for (i = 0; i < c->nn; i++) {
		c->n[i].text = c->n[i].link = c->n[i].commas = 0;
		c->n[i].own = c->n[i].owncommas = 0;
	}
	for (i = c->nn - 1; i >= 0; i--) {
		struct nd *n = &c->n[i];
		int p;

		if (n->flags & F_TEXT) {
			if (n->flags & F_SKIP)
				continue;
			n->text = text_len(n->g->v.text.text, &n->commas);
			if (n->flags & F_INLINK)
				n->link = n->text;
			p = uk_ex_block_of(c, i);
			if (!(n->flags & F_INLINK)) {
				c->n[p].own += n->text;
				c->n[p].owncommas += n->commas;
			}
		}
		if (n->flags & F_SKIP)
			continue;
		p = n->parent;
		if (p >= 0) {
			c->n[p].text += n->text;
			c->n[p].link += n->link;
			c->n[p].commas += n->commas;
		}
	}
}
