/* SPDX-License-Identifier: MIT */
/*
 * The page made smaller before gumbo parses it (uk_ex_shrink, documented
 * in extract_int.h): a scan of the HTML, no tree.
 */
#include <ctype.h>
#include <gumbo.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "extract_int.h"

#include "banned.h"

/* Find "</name" (any case) in s[from..len); len when there is none. */
static size_t
find_close(const char *s, size_t from, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = s + from, *end = s + len;

	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		if ((size_t)(end - p) >= n + 2 && p[1] == '/' &&
		    !strncasecmp(p + 2, name, n) &&
		    !isalnum((unsigned char)p[2 + n]))
			return (size_t)(p - s);
		p++;
	}
	return len;
}

/*
 * Elements that nest: not void, not closed implicitly, not raw text.
 * Gumbo's scope checks walk the stack of open elements, so nesting
 * thousands deep makes parsing quadratic; real pages stay under 100.
 */
#define MAX_DEPTH 512

static int
nests(GumboTag tag)
{
	switch (tag) {
	case GUMBO_TAG_AREA:
	case GUMBO_TAG_BASE:
	case GUMBO_TAG_BR:
	case GUMBO_TAG_COL:
	case GUMBO_TAG_EMBED:
	case GUMBO_TAG_HR:
	case GUMBO_TAG_IMG:
	case GUMBO_TAG_INPUT:
	case GUMBO_TAG_LINK:
	case GUMBO_TAG_META:
	case GUMBO_TAG_PARAM:
	case GUMBO_TAG_SOURCE:
	case GUMBO_TAG_TRACK:
	case GUMBO_TAG_WBR:
	case GUMBO_TAG_KEYGEN:
	case GUMBO_TAG_P:
	case GUMBO_TAG_LI:
	case GUMBO_TAG_DT:
	case GUMBO_TAG_DD:
	case GUMBO_TAG_TR:
	case GUMBO_TAG_TD:
	case GUMBO_TAG_TH:
	case GUMBO_TAG_OPTION:
	case GUMBO_TAG_OPTGROUP:
	case GUMBO_TAG_RB:
	case GUMBO_TAG_RT:
	case GUMBO_TAG_RP:
	case GUMBO_TAG_THEAD:
	case GUMBO_TAG_TBODY:
	case GUMBO_TAG_TFOOT:
	case GUMBO_TAG_COLGROUP:
	case GUMBO_TAG_HTML:
	case GUMBO_TAG_HEAD:
	case GUMBO_TAG_BODY:
	case GUMBO_TAG_SCRIPT:
	case GUMBO_TAG_STYLE:
	case GUMBO_TAG_TEXTAREA:
	case GUMBO_TAG_TITLE:
	case GUMBO_TAG_XMP:
	case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_NOEMBED:
	case GUMBO_TAG_NOFRAMES:
	case GUMBO_TAG_PLAINTEXT:
		return 0;
	default:
		return 1;
	}
}

/*
 * Attributes that extraction reads (uk_ex_attr() calls) or that steer gumbo's
 * tree building (input type, font color/face/size leaving foreign content,
 * annotation-xml encoding, isindex action/prompt/name).  Every other
 * attribute is dropped before parsing: they are two fifths of what is
 * left of a page once scripts and styles are gone (srcset, data-*, href,
 * SVG paths) and gumbo reads them a character at a time.
 */
static int
attr_kept(const char *name, size_t n)
{
#define K(s) { s, sizeof(s) - 1 }
	static const struct {
		const char *s;
		size_t n;
	} keep[] = { K("aria-hidden"),
		K("aria-roledescription"), K("class"), K("content"),
		K("datetime"), K("hidden"), K("id"), K("itemprop"),
		K("itemtype"), K("name"), K("property"),
		K("rel"), K("role"), K("style"), K("type"), K("color"),
		K("face"), K("size"), K("encoding"), K("action"), K("prompt"),
		K("lang"), K("xml:lang"), K("http-equiv"), K("ng-app"),
		/* The writer's: links, images, list numbers, table spans,
		 * code's language. */
		K("href"), K("src"), K("alt"), K("start"), K("colspan"),
		K("rowspan"), K("data-lang"), K("data-language") };
#undef K
	size_t k;

	for (k = 0; k < sizeof(keep) / sizeof(keep[0]); k++)
		if (keep[k].n == n && !strncasecmp(keep[k].s, name, n))
			return 1;
	return 0;
}

static int
html_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\f' ||
	    ch == '\r';
}

/*
 * Copy the attributes s[t, gt) of a start tag to s + w (w <= t), without
 * those attr_kept does not know; returns the new w.  Attributes are read
 * as the tokenizer reads them (name, then = and a quoted or unquoted
 * value); at anything the scan and the tokenizer might see differently (a
 * '>' outside quotes, an unclosed quote) the rest is copied as it is.
 */
static size_t
strip_attrs(char *s, size_t w, size_t t, size_t gt, int link, int all)
{
	size_t i = t, lead, name, name_end, j, end;
	const char *q;

	while (i < gt) {
		lead = i;
		while (i < gt && (html_space(s[i]) || s[i] == '/'))
			i++;
		if (i >= gt)
			break;
		if (s[i] == '>')
			goto verbatim;
		name = i++;
		while (i < gt && !html_space(s[i]) && s[i] != '/' &&
		    s[i] != '=' && s[i] != '>')
			i++;
		name_end = i;
		if (i < gt && s[i] == '>')
			goto verbatim;
		for (j = i; j < gt && html_space(s[j]); j++)
			;
		end = name_end;
		if (j < gt && s[j] == '=') {
			for (j++; j < gt && html_space(s[j]); j++)
				;
			if (j < gt && (s[j] == '"' || s[j] == '\'')) {
				q = memchr(s + j + 1, s[j], gt - j - 1);
				if (!q)
					goto verbatim;
				end = (size_t)(q - s) + 1;
			} else {
				for (end = j; end < gt && !html_space(s[end]);
				     end++)
					if (s[end] == '>')
						goto verbatim;
			}
		}
		/* A <link>'s href: the canonical address (extract_meta.c). */
		if (all || attr_kept(s + name, name_end - name) ||
		    (link && name_end - name == 4 &&
			!strncasecmp(s + name, "href", 4))) {
			memmove(s + w, s + lead, end - lead);
			w += end - lead;
		}
		i = end;
		continue;
	verbatim:
		i = lead;
		break;
	}
	memmove(s + w, s + i, gt - i);
	return w + gt - i;
}

/* Whether the tag name read (to s[t]) is all of it and is pre. */
static int
is_pre(const char *s, size_t len, GumboTag tag, size_t t)
{
	return tag == GUMBO_TAG_PRE &&
	    (t >= len || html_space(s[t]) || s[t] == '/' || s[t] == '>');
}

/*
 * Copy the text s[r, end) to s + w (w <= r) with every run of HTML
 * whitespace made one character: outside <pre>, extraction treats a run
 * like one space (w_text, text_len, set_once), and gumbo reads the page a
 * character at a time.  Returns the new w.
 */
static size_t
squeeze(char *s, size_t w, size_t r, size_t end)
{
	size_t i;
	int sp = 0;

	/* A byte at a time: a page's text is mostly short words. */
	for (i = r; i < end; i++) {
		if (html_space(s[i])) {
			if (sp)
				continue;
			sp = 1;
		} else
			sp = 0;
		s[w++] = s[i];
	}
	return w;
}

/*
 * gumbo_tag_enum(name) for the tags the scan tells apart (those that do
 * not nest, <pre>, raw text), GUMBO_TAG_UNKNOWN for any other: name is
 * lower case, so an exact comparison is gumbo's.  Compared by length
 * (memcmp of a constant length is compiled inline), without gumbo's
 * hash and case-folding comparison (a tag each).
 */
static GumboTag
tag_of(const char *name, size_t n)
{
	switch (n) {
	case 1:
		if (!memcmp(name, "p", 1))
			return GUMBO_TAG_P;
		break;
	case 2:
		if (!memcmp(name, "br", 2))
			return GUMBO_TAG_BR;
		if (!memcmp(name, "hr", 2))
			return GUMBO_TAG_HR;
		if (!memcmp(name, "li", 2))
			return GUMBO_TAG_LI;
		if (!memcmp(name, "dt", 2))
			return GUMBO_TAG_DT;
		if (!memcmp(name, "dd", 2))
			return GUMBO_TAG_DD;
		if (!memcmp(name, "tr", 2))
			return GUMBO_TAG_TR;
		if (!memcmp(name, "td", 2))
			return GUMBO_TAG_TD;
		if (!memcmp(name, "th", 2))
			return GUMBO_TAG_TH;
		if (!memcmp(name, "rb", 2))
			return GUMBO_TAG_RB;
		if (!memcmp(name, "rt", 2))
			return GUMBO_TAG_RT;
		if (!memcmp(name, "rp", 2))
			return GUMBO_TAG_RP;
		break;
	case 3:
		if (!memcmp(name, "col", 3))
			return GUMBO_TAG_COL;
		if (!memcmp(name, "img", 3))
			return GUMBO_TAG_IMG;
		if (!memcmp(name, "wbr", 3))
			return GUMBO_TAG_WBR;
		if (!memcmp(name, "xmp", 3))
			return GUMBO_TAG_XMP;
		if (!memcmp(name, "pre", 3))
			return GUMBO_TAG_PRE;
		break;
	case 4:
		if (!memcmp(name, "area", 4))
			return GUMBO_TAG_AREA;
		if (!memcmp(name, "base", 4))
			return GUMBO_TAG_BASE;
		if (!memcmp(name, "link", 4))
			return GUMBO_TAG_LINK;
		if (!memcmp(name, "meta", 4))
			return GUMBO_TAG_META;
		if (!memcmp(name, "html", 4))
			return GUMBO_TAG_HTML;
		if (!memcmp(name, "head", 4))
			return GUMBO_TAG_HEAD;
		if (!memcmp(name, "body", 4))
			return GUMBO_TAG_BODY;
		break;
	case 5:
		if (!memcmp(name, "embed", 5))
			return GUMBO_TAG_EMBED;
		if (!memcmp(name, "input", 5))
			return GUMBO_TAG_INPUT;
		if (!memcmp(name, "param", 5))
			return GUMBO_TAG_PARAM;
		if (!memcmp(name, "track", 5))
			return GUMBO_TAG_TRACK;
		if (!memcmp(name, "thead", 5))
			return GUMBO_TAG_THEAD;
		if (!memcmp(name, "tbody", 5))
			return GUMBO_TAG_TBODY;
		if (!memcmp(name, "tfoot", 5))
			return GUMBO_TAG_TFOOT;
		if (!memcmp(name, "style", 5))
			return GUMBO_TAG_STYLE;
		if (!memcmp(name, "title", 5))
			return GUMBO_TAG_TITLE;
		break;
	case 6:
		if (!memcmp(name, "keygen", 6))
			return GUMBO_TAG_KEYGEN;
		if (!memcmp(name, "option", 6))
			return GUMBO_TAG_OPTION;
		if (!memcmp(name, "source", 6))
			return GUMBO_TAG_SOURCE;
		if (!memcmp(name, "script", 6))
			return GUMBO_TAG_SCRIPT;
		if (!memcmp(name, "iframe", 6))
			return GUMBO_TAG_IFRAME;
		break;
	case 7:
		if (!memcmp(name, "noembed", 7))
			return GUMBO_TAG_NOEMBED;
		break;
	case 8:
		if (!memcmp(name, "optgroup", 8))
			return GUMBO_TAG_OPTGROUP;
		if (!memcmp(name, "colgroup", 8))
			return GUMBO_TAG_COLGROUP;
		if (!memcmp(name, "textarea", 8))
			return GUMBO_TAG_TEXTAREA;
		if (!memcmp(name, "noframes", 8))
			return GUMBO_TAG_NOFRAMES;
		break;
	case 9:
		if (!memcmp(name, "plaintext", 9))
			return GUMBO_TAG_PLAINTEXT;
		break;
	default:
		break;
	}
	return GUMBO_TAG_UNKNOWN;
}

/*
 * The name of the tag whose name starts at s[t], lower case, into name
 * (cut to n - 1 bytes) and its tag into *tag (tag_of): returns the
 * index after it.
 */
static size_t
tag_name(const char *s, size_t len, size_t t, char *name, size_t n,
    GumboTag *tag)
{
	size_t nl = 0;

	/* isalnum and tolower of the "C" locale, without their calls. */
	for (; t < len && ((s[t] >= 'a' && s[t] <= 'z') ||
	    (s[t] >= 'A' && s[t] <= 'Z') || (s[t] >= '0' && s[t] <= '9'));
	    t++)
		if (nl < n - 1)
			name[nl++] = (char)(s[t] >= 'A' && s[t] <= 'Z' ?
			    s[t] - 'A' + 'a' : s[t]);
	name[nl] = '\0';
	*tag = tag_of(name, nl);
	return t;
}

/* The '>' that ends the tag, from s[t], honouring quoted attribute values. */
static size_t
tag_end(const char *s, size_t len, size_t t)
{
	size_t gt;

	for (gt = t; gt < len && s[gt] != '>'; gt++)
		if (s[gt] == '=') {
			size_t q = gt + 1;

			while (q < len && isspace((unsigned char)s[q]))
				q++;
			if (q < len && (s[q] == '"' || s[q] == '\'')) {
				const char *e = memchr(s + q + 1, s[q],
				    len - q - 1);

				gt = e ? (size_t)(e - s) : len - 1;
			}
		}
	return gt < len ? gt : len - 1;
}

/*
 * Shrink the page before gumbo sees it: comments, the bodies of scripts
 * (but JSON-LD) and styles, and the attributes extraction does not read
 * (attr_kept) are dropped, and runs of whitespace outside <pre>
 * squeezed.  (Not SVG: an unclosed <svg> ends where HTML content resumes,
 * which a scan cannot tell.)  Scripts and styles are four tenths of the
 * bytes of a typical page and cost gumbo a call per character; none of it
 * can be main text.  The scan follows the
 * tokenizer closely enough: tags are read to their '>' with quoted
 * attribute values, raw text elements to their closing tag.  Elements
 * nested deeper than MAX_DEPTH lose their tags (not their text).  In
 * place; returns the new length.
 */
size_t
uk_ex_shrink(char *s, size_t len, unsigned flags)
{
	size_t r = 0, w = 0, t, tw, gt, k, depth = 0, dropped = 0, pre = 0;
	char name[16];
	GumboTag tag;
	int drop;

	while (r < len) {
		const char *lt = memchr(s + r, '<', len - r);
		size_t next = lt ? (size_t)(lt - s) : len;

		if (pre) {
			memmove(s + w, s + r, next - r);
			w += next - r;
		} else {
			w = squeeze(s, w, r, next);
		}
		r = next;
		if (r >= len)
			break;
		if (len - r >= 4 && !memcmp(s + r, "<!--", 4)) {
			const char *e =
			    memmem(s + r + 4, len - r - 4, "-->", 3);

			r = e ? (size_t)(e - s) + 3 : len;
			continue;
		}
		if (r + 2 < len && s[r + 1] == '/' &&
		    isalpha((unsigned char)s[r + 2])) {
			/* An end tag: balance the depth count. */
			t = tag_name(s, len, r + 2, name, sizeof(name), &tag);
			lt = memchr(s + t, '>', len - t);
			gt = lt ? (size_t)(lt - s) : len - 1;
			if (nests(tag)) {
				if (dropped) {
					dropped--;
					r = gt + 1;
					continue;
				}
				if (depth)
					depth--;
			}
			if (pre && is_pre(s, len, tag, t))
				pre--;
			memmove(s + w, s + r, gt + 1 - r);
			w += gt + 1 - r;
			r = gt + 1;
			continue;
		}
		if (r + 1 >= len || !isalpha((unsigned char)s[r + 1])) {
			s[w++] = s[r++];
			continue;
		}
		t = tag_name(s, len, r + 1, name, sizeof(name), &tag);
		gt = tag_end(s, len, t);
		if (nests(tag) && s[gt - 1] != '/' && ++depth > MAX_DEPTH) {
			/* Too deep: the tag goes, its text stays. */
			depth--;
			dropped++;
			r = gt + 1;
			continue;
		}
		tw = w;
		if (s[gt] == '>') {
			/* The rest of a name like my-element, then attributes. */
			for (k = t; k < gt && !html_space(s[k]) && s[k] != '/';
			     k++)
				;
			memmove(s + w, s + r, k - r);
			w = strip_attrs(s, w + k - r, k, gt,
			    tag == GUMBO_TAG_LINK,
			    !!(flags & UK_EX_SHRINK_KEEP_ATTRS));
			s[w++] = '>';
		} else {
			memmove(s + w, s + r, gt + 1 - r);
			w += gt + 1 - r;
		}
		r = gt + 1;
		if (is_pre(s, len, tag, t))
			pre++;
		drop = tag == GUMBO_TAG_STYLE;
		if (tag == GUMBO_TAG_SCRIPT)
			drop = !memmem(s + tw, w - tw, "ld+json", 7);
		if (drop) {
			r = find_close(s, r, len, name);
			continue;
		}
		switch (tag) {
		case GUMBO_TAG_TEXTAREA: /* raw text: to the closing tag */
		case GUMBO_TAG_TITLE:
		case GUMBO_TAG_XMP:
		case GUMBO_TAG_IFRAME:
		case GUMBO_TAG_NOEMBED:
		case GUMBO_TAG_NOFRAMES:
		case GUMBO_TAG_PLAINTEXT:
		case GUMBO_TAG_SCRIPT:
			t = find_close(s, r, len, name);
			memmove(s + w, s + r, t - r);
			w += t - r;
			r = t;
			break;
		default:
			break;
		}
	}
	s[w] = '\0';
	return w;
}
