/* SPDX-License-Identifier: MIT */
/* Extraction's options, for urlextract and urlfetch: see urlextract.h. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "extract_select.h"
#include "urlextract.h"
#include "util.h"

#include "banned.h"

void
extract_args_init(struct extract_args *a, struct uk_extract_opts *eo)
{
	memset(a, 0, sizeof(*a));
	a->eo = eo;
}

void
extract_args_release(struct extract_args *a)
{
	free(a->select);
	free(a->remove);
	a->select = a->remove = NULL;
	a->eo->select = a->eo->remove = NULL;
	a->eo->nselect = a->eo->nremove = 0;
}

void
extract_add_selector(const struct uk_cli *cli, const char *opt,
    const char *css, const char ***list, size_t *n)
{
	struct uk_extract_select *sel;
	struct uk_err err;

	if (*n == UK_EXTRACT_SELECT_MAXLIST)
		uk_cli_usage(cli, "%s: more than %d of them", opt,
		    UK_EXTRACT_SELECT_MAXLIST);
	if (uk_extract_select_compile(css, &sel, &err) < 0)
		uk_cli_usage(cli, "%s '%s': %s", opt, css, err.msg);
	uk_extract_select_free(sel);
	*list = uk_util_xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = css;
}

int
extract_opt(const struct uk_cli *cli, int c, struct extract_args *a)
{
	struct uk_extract_opts *eo = a->eo;
	long n;

	switch (c) {
	case OPT_X_SELECT:
		extract_add_selector(cli, "--select", optarg, &a->select,
		    &eo->nselect);
		eo->select = a->select;
		return 1;
	case OPT_X_REMOVE:
		extract_add_selector(cli, "--remove", optarg, &a->remove,
		    &eo->nremove);
		eo->remove = a->remove;
		return 1;
	case OPT_X_WHOLE:
		eo->whole = 1;
		return 1;
	case OPT_X_EXPLAIN:
		eo->explain = 1;
		return 1;
	case 'f':
		if (!strcmp(optarg, "text"))
			eo->format = UK_EXTRACT_TEXT;
		else if (!strcmp(optarg, "markdown") || !strcmp(optarg, "md"))
			eo->format = UK_EXTRACT_MARKDOWN;
		else
			uk_cli_usage(cli, "-f: not text or markdown: '%s'",
			    optarg);
		return 1;
	case OPT_X_MARKDOWN: /* trafilatura's name for -f markdown */
		eo->format = UK_EXTRACT_MARKDOWN;
		return 1;
	case OPT_X_COMMENTS:
		eo->comments = 1;
		return 1;
	case OPT_X_IMAGES:
		eo->images = 1;
		return 1;
	case OPT_X_LINKS:
		eo->links = 1;
		return 1;
	case OPT_X_LINKS_OUT:
		eo->links_out = 1;
		return 1;
	case OPT_X_LINKS_MAX:
		if (uk_util_parse_long(optarg, 1, 1000000L, &eo->links_max))
			uk_cli_usage(cli,
			    "--links-max: not a count from 1 to 1000000: '%s'",
			    optarg);
		return 1;
	case OPT_X_MAX_PAGES:
		if (uk_util_parse_long(optarg, 1, 1000000L, &n))
			uk_cli_usage(cli,
			    "--max-pages: not a count from 1 to 1000000: '%s'",
			    optarg);
		eo->max_pages = (int)n;
		return 1;
	default:
		return 0;
	}
}
