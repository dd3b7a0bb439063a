/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the CDP message stream as the browser would send it,
 * over the pipe (JSON and NUL) or, when the first byte is odd, as
 * WebSocket frames (pings and closes answered into /dev/null).  The
 * input's first line is also read as a DevTools address, and the rest as
 * base64.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base64.h"
#include "buf.h"
#include "cdp.h"
#include "json.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uk_cdp c;
	struct uk_err err;
	struct uk_buf b = UK_BUF_INIT;
	yajl_val msg;
	char *line, *scheme, *host, *port, *path;
	const char *nl;
	int fd = memfd_create("fuzz", 0), null = open("/dev/null", O_WRONLY);

	if (fd < 0 || null < 0 || size < 1 ||
	    write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		if (fd >= 0)
			close(fd);
		if (null >= 0)
			close(null);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);
	uk_cdp_init_pipe(&c, fd, null);
	c.ws = data[0] & 1;
	while (uk_cdp_next(&c, 0, &msg, &err) == 1) {
		uk_json_get_str(msg, "method");
		uk_json_free(msg);
	}
	uk_cdp_release(&c);

	nl = memchr(data, '\n', size);
	line = uk_util_xmemdup(data,
	    nl ? (size_t)(nl - (const char *)data) : size);
	if (uk_cdp_split_url(line, &scheme, &host, &port, &path, &err) == 0) {
		free(scheme);
		free(host);
		free(port);
		free(path);
	}
	free(line);
	uk_base64_decode((const char *)data, size, &b);
	uk_buf_release(&b);
	return 0;
}
