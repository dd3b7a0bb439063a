/* SPDX-License-Identifier: MIT */
/*
 * A libFuzzer harness as a plain program (build/unit/t_fuzz_NAME): every
 * input under tests/fuzz/regress/NAME/ (or the files named) through
 * LLVMFuzzerTestOneInput once, as TAP.  make check runs it from the top of
 * the tree, so the crashes fuzzing found stay fixed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int n, failed;

static void
replay(const char *name, const char *file)
{
	struct uk_buf b = UK_BUF_INIT;
	FILE *f = fopen(file, "rb");
	char tmp[65536];
	size_t got;

	n++;
	if (!f) {
		failed++;
		printf("not ok %d - fuzz %s: cannot open %s\n", n, name, file);
		return;
	}
	while ((got = fread(tmp, 1, sizeof(tmp), f)) > 0)
		uk_buf_add(&b, tmp, got);
	fclose(f);
	/* A copy of exactly the input's size, so ASan sees overreads. */
	{
		uint8_t *p = uk_util_xmalloc(b.len ? b.len : 1);

		memcpy(p, b.buf, b.len);
		LLVMFuzzerTestOneInput(p, b.len);
		free(p);
	}
	printf("ok %d - fuzz %s: %s\n", n, name, file);
	fflush(stdout);
	uk_buf_release(&b);
}

static int
visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

int
main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const char *name;
	struct dirent **ents;
	char dir[4096], file[8192];
	int i, k;

	base = base ? base + 1 : argv[0];
	name = !strncmp(base, "t_fuzz_", 7) ? base + 7 : base;
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			replay(name, argv[i]);
	} else {
		snprintf(dir, sizeof(dir), "tests/fuzz/regress/%s", name);
		k = scandir(dir, &ents, visible, alphasort);
		for (i = 0; i < k; i++) {
			snprintf(file, sizeof(file), "%s/%s", dir,
			    ents[i]->d_name);
			replay(name, file);
			free(ents[i]);
		}
		if (k > 0)
			free(ents);
		if (k <= 0) {
			n++;
			failed++;
			printf("not ok %d - fuzz %s: no inputs in %s\n", n,
			    name, dir);
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
