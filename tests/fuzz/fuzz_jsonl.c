/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the JSON Lines reader, its record policy and ordered
 * queue, and the writer on arbitrary bytes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The record policy and the ordered queue on the same bytes: each record
 * is finished when the next one arrives, so one is always in flight
 * while error records and pass-throughs queue behind it.
 */
static void
take_all(int fd, const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct uk_jsonl_policy p = { 0 };
	struct uk_jsonl_item *prev = NULL;
	struct uk_jsonl_queue q;
	struct uk_jsonl_out o;
	struct uk_jsonl_in l;
	struct uk_err err;
	yajl_val rec;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		return;
	lseek(fd, 0, SEEK_SET);
	p.flags = size && (data[0] & 1) ? UK_JSONL_BARE_URL : 0;
	if (size && (data[0] & 2))
		p.flags |= UK_JSONL_TAKE_FAILED;
	p.require = size && (data[0] & 4) ? "url" : NULL;
	uk_jsonl_out_init(&o, devnull);
	uk_jsonl_queue_init(&q, &o);
	p.q = &q;
	uk_jsonl_open(&l, "-", &err);
	l.fd = fd;
	l.max = 4096;
	while (uk_jsonl_take(&l, &p, &rec, &err) > 0) {
		if (prev)
			prev->done = 1;
		prev = uk_jsonl_queue_add(&q, rec, l.name, l.lineno);
		uk_jsonl_queue_flush(&q);
	}
	if (prev)
		prev->done = 1;
	uk_jsonl_queue_flush(&q);
	uk_jsonl_queue_release(&q);
	l.fd = -1; /* the caller's */
	uk_jsonl_close(&l);
	uk_jsonl_out_release(&o);
}

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
	l.fd = -1; /* closed below */
	uk_jsonl_close(&l);
	take_all(fd, data, size);
	close(fd);
	uk_buf_release(&out);
	return 0;
}
