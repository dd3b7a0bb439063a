/* SPDX-License-Identifier: MIT */
#ifndef URLSERVE_MAP_H
#define URLSERVE_MAP_H

/* urlserve's map_site tool (cmd/urlserve_map.c), for the table. */

#include "json.h"
#include "mcp.h"

/* Records kept of one map_site call, at most. */
#define US_MAP_LIMIT_MAX 5000

void us_tool_map_site(struct uk_mcp_call *c, yajl_val args, void *s);

#endif
