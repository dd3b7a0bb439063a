/* SPDX-License-Identifier: MIT */
/*
 * Paths of the tree, as the index and the ranking take them apart: base
 * name, directory, stem, extension.  See symbols_int.h.
 */
#include <string.h>

#include "banned.h"
#include "symbols_int.h"
#include "util.h"

/* The last component of path. */
const char *
uk_sympath_base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* The directory of path with its slash ("a/b/"), or "" at the root. */
char *
uk_sympath_dir(const char *path)
{
	const char *b = uk_sympath_base(path);

	return uk_util_xmemdup(path, (size_t)(b - path));
}

/* Whether path's extension is one of exts (".a.b.", as symlang's). */
int
uk_sympath_has_ext(const char *path, const char *exts)
{
	const char *dot = strrchr(uk_sympath_base(path), '.');
	char buf[16];
	size_t n;

	if (!dot || (n = strlen(dot)) + 2 > sizeof(buf))
		return 0;
	memcpy(buf, dot, n);
	buf[n] = '.';
	buf[n + 1] = '\0';
	return strstr(exts, buf) != NULL;
}

/* The length of base without its extension. */
size_t
uk_sympath_stem_len(const char *base)
{
	const char *dot = strrchr(base, '.');

	return dot ? (size_t)(dot - base) : strlen(base);
}

/* Whether path is a C or C++ header or source. */
int
uk_sympath_is_c(const char *path)
{
	return uk_sympath_has_ext(path, UK_SYM_C_HEADERS UK_SYM_C_SOURCES);
}
