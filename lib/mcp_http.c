/* SPDX-License-Identifier: MIT */
/* The streamable HTTP transport (lib/mcp.h): not written yet. */
#include "mcp.h"

#include "banned.h"

int
uk_mcp_serve_http(struct uk_mcp *m, const struct uk_mcp_http_opts *h,
    volatile const int *stop, struct uk_err *err)
{
	(void)m;
	(void)h;
	(void)stop;
	return uk_err_set(err, UK_EXIT_FATAL,
	    "the HTTP transport is not written yet");
}
