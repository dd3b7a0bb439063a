/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the JSON Lines reader and writer on arbitrary bytes. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	struct uk_jsonl_in l;
	struct uk_err err;
	struct uk_buf out = UK_BUF_INIT;
	yajl_val rec;
	int r, flags;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		return 0;
	lseek(fd, 0, SEEK_SET);
	flags = size && (data[0] & 1) ? UK_JSONL_BARE_URL : 0;
	uk_jsonl_open(&l, "-", &err);
	l.fd = fd;
	l.max = 4096;
	while ((r = uk_jsonl_next(&l, flags, &rec, &err)) != 0) {
		if (r < 0)
			continue;
		uk_json_set_str(rec, "added", "x");
		uk_json_to_buf(rec, &out);
		uk_buf_reset(&out);
		uk_json_free(rec);
	}
	uk_jsonl_close(&l);
	close(fd);
	uk_buf_release(&out);
	return 0;
}
