/* SPDX-License-Identifier: MIT */
#ifndef URLEXTRACT_H
#define URLEXTRACT_H

/*
 * Extraction's options: those of urlextract, which urlfetch takes too for
 * the pages it fetches (urlextract_opts.c).  Parsing them links nothing
 * but extract_select, cli and util, so that urlextract stays free of the
 * network's libraries.
 *
 * Usage, in a program's option loop:
 *
 *	static const struct option longopts[] = {
 *		{ "format", required_argument, NULL, 'f' },
 *		...
 *		EXTRACT_LONGOPTS,
 *		UK_CLI_LONGOPTS,
 *		{ NULL, 0, NULL, 0 },
 *	};
 *	struct extract_args ea;
 *
 *	extract_args_init(&ea, &eo);
 *	while ((c = uk_cli_getopt(&cli, argc, argv, "...f:...", longopts)) != -1)
 *		if (!extract_opt(&cli, c, &ea))
 *			... the program's own options ...
 *	...
 *	extract_args_release(&ea);
 *
 * The program's own long options without a letter take values from
 * OPT_X_END on.
 */

#include <getopt.h>
#include <stddef.h>
#include <stdio.h> /* cli.h uses FILE */

#include "cli.h"
#include "extract.h"

/* The long options without a letter. */
enum {
	OPT_X_COMMENTS = UK_OPT_FIRST,
	OPT_X_IMAGES,
	OPT_X_LINKS,
	OPT_X_LINKS_OUT,
	OPT_X_LINKS_MAX,
	OPT_X_MAX_PAGES,
	OPT_X_SELECT,
	OPT_X_REMOVE,
	OPT_X_WHOLE,
	OPT_X_EXPLAIN,
	OPT_X_MARKDOWN,
	OPT_X_END
};

/* Their entries in a getopt_long table; -f's entry is the program's. */
#define EXTRACT_LONGOPTS                                           \
	{ "comments", no_argument, NULL, OPT_X_COMMENTS },         \
	{ "images", no_argument, NULL, OPT_X_IMAGES },             \
	{ "links", no_argument, NULL, OPT_X_LINKS },               \
	{ "links-out", no_argument, NULL, OPT_X_LINKS_OUT },       \
	{ "links-max", required_argument, NULL, OPT_X_LINKS_MAX }, \
	{ "max-pages", required_argument, NULL, OPT_X_MAX_PAGES }, \
	{ "select", required_argument, NULL, OPT_X_SELECT },       \
	{ "remove", required_argument, NULL, OPT_X_REMOVE },       \
	{ "whole", no_argument, NULL, OPT_X_WHOLE },               \
	{ "explain", no_argument, NULL, OPT_X_EXPLAIN },           \
	{ "markdown", no_argument, NULL, OPT_X_MARKDOWN }

struct extract_args {
	/*
	 * Where the options go: the caller's, zero (extraction's defaults)
	 * before parsing.  eo->select and eo->remove point to select and
	 * remove.
	 */
	struct uk_extract_opts *eo;
	/* --select's and --remove's selectors (checked), borrowed from argv. */
	const char **select, **remove;
};

void extract_args_init(struct extract_args *a, struct uk_extract_opts *eo);
void extract_args_release(struct extract_args *a);

/*
 * Take option c (optarg its argument) when it is one of extraction's:
 * -f, --comments, --images, --links, --links-out, --links-max,
 * --max-pages, --select, --remove, --whole, --explain.  Returns 1 when it was, else 0.  A bad argument is
 * a usage error of cli (exit 2): a selector that cannot be read says
 * where it fails.
 */
int extract_opt(const struct uk_cli *cli, int c, struct extract_args *a);

/*
 * A --select or --remove selector css (opt names the option) checked and
 * added to *list (n of them, the array grown with uk_util_xrealloc; css is
 * borrowed): a bad one is a usage error of cli that says where it fails;
 * so is one more than UK_EXTRACT_SELECT_MAXLIST of them (each is a walk
 * of every page).  For a program whose other options are its own
 * (pwfetch).
 */
void extract_add_selector(const struct uk_cli *cli, const char *opt,
    const char *css, const char ***list, size_t *n);

#endif
