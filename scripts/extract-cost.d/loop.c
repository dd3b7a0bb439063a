/* SPDX-License-Identifier: MIT */
/*
 * scripts/extract-cost's loop: N extractions of one page (mode x), or N
 * bare gumbo parses of it (mode g), in one process, for callgrind.
 */
#include <gumbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "util.h"

int
main(int argc, char **argv)
{
	static char buf[1 << 20];
	struct uk_extract x;
	struct uk_err e;
	GumboOutput *o;
	FILE *f;
	size_t len;
	int n, i;

	if (argc != 4 || !(f = fopen(argv[2], "rb"))) {
		fprintf(stderr, "usage: loop g|x FILE N\n");
		return 2;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	n = atoi(argv[3]);
	for (i = 0; i < n; i++) {
		if (argv[1][0] == 'g') {
			o = gumbo_parse_with_options(&kGumboDefaultOptions,
			    buf, len);
			gumbo_destroy_output(&kGumboDefaultOptions, o);
			continue;
		}
		memset(&e, 0, sizeof(e));
		if (uk_extract_html(buf, len, "text/html",
		    "http://127.0.0.1/a", NULL, &x, &e) == 0)
			uk_extract_release(&x);
	}
	return 0;
}
