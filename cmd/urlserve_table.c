/* SPDX-License-Identifier: MIT */
/*
 * urlserve: the table of tools, each with the JSON Schemas of its
 * arguments and of its structured result, and its annotations.  The
 * descriptions are what an agent reads to choose a tool and its
 * arguments.  Output schemas name the fields a result has but require
 * only what every result (a failure's error record too) has, so that a
 * client that checks results against them takes every one.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mcp.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "urlserve_map.h"
#include "util.h"
#include "banned.h"

#define URL_PROP(what)                                                     \
	"\"url\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":65536," \
	"\"description\":\"" what "\"}"
#define PAGE_PROPS                                                          \
	"\"max_tokens\":{\"type\":\"integer\",\"minimum\":100,"             \
	"\"maximum\":100000,\"default\":4000,\"description\":\"the slice's " \
	"size in cl100k tokens\"},"                                        \
	"\"offset\":{\"type\":\"integer\",\"minimum\":0,\"default\":0,"      \
	"\"description\":\"characters to skip: the last next_offset\"}"
#define QUERY_PROP                                                          \
	"\"query\":{\"type\":\"string\",\"maxLength\":1000,"               \
	"\"description\":\"a question: only the sections that answer "      \
	"it\"},"
#define OBJ(props, req)                                                     \
	"{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req \
	"],\"additionalProperties\":false}"
#define NO_ARGS "{\"type\":\"object\",\"properties\":{}," \
	"\"additionalProperties\":false}"
/* fetch_url's and render_url's overrides of the extractor. */
#define OVERRIDE_PROPS                                                      \
	"\"select\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":"           \
	"\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":32}],"      \
	"\"description\":\"CSS selectors: only what they match\"},"                                      \
	"\"remove\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":"           \
	"\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":32}],"      \
	"\"description\":\"CSS selectors to drop\"},"                                             \
	"\"whole\":{\"type\":\"boolean\",\"default\":false,"                \
	"\"description\":\"keep the boilerplate\"},"                                                       \
	"\"explain\":{\"type\":\"boolean\",\"default\":false,"              \
	"\"description\":\"say what extraction dropped\"},"

/* A content record, paged: the fields an agent reads first. */
#define PAGE_OUT                                                            \
	"{\"type\":\"object\",\"properties\":{"                             \
	"\"url\":{\"type\":\"string\"},"                                    \
	"\"url_type\":{\"type\":\"string\"},"                               \
	"\"title\":{\"type\":[\"string\",\"null\"]},"                       \
	"\"content\":{\"type\":\"string\",\"description\":\"the slice\"},"  \
	"\"offset\":{\"type\":\"integer\"},"                                \
	"\"next_offset\":{\"type\":[\"integer\",\"null\"],"                 \
	"\"description\":\"the offset of the rest, null at the end\"},"     \
	"\"total_length\":{\"type\":\"integer\",\"description\":"           \
	"\"the whole text's length in characters\"},"                       \
	"\"summary\":{\"type\":\"string\"},"                                \
	"\"summary_type\":{\"type\":\"string\"},"                           \
	"\"cached\":{\"type\":\"boolean\"},"                                \
	"\"error\":{\"type\":\"string\",\"description\":\"why it failed\"}," \
	"\"explain\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}," \
	"\"description\":\"with explain: what extraction dropped and why\"}" \
	"},\"required\":[\"url\"]}"
#define URL_RECORDS                                                         \
	"{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{" \
	"\"url\":{\"type\":\"string\"},\"type\":{\"type\":\"string\"},"     \
	"\"display\":{\"type\":\"string\"}},\"required\":[\"url\"]}}"

#define READ_ONLY_LOCAL                                                     \
	"{\"readOnlyHint\":true,\"openWorldHint\":false}"
#define FETCHING                                                            \
	"{\"readOnlyHint\":true,\"openWorldHint\":true}"
#define DESTRUCTIVE                                                         \
	"{\"readOnlyHint\":false,\"destructiveHint\":true,"                 \
	"\"idempotentHint\":true,\"openWorldHint\":false}"

const struct uk_mcp_tool us_tools[] = {
	{ "detect_urls", "Detect URLs",
	    "Find the http and https URLs in a text and classify each "
	    "(github_repo, github_file, github_issue, github_pr, documentation, "
	    "web), as urldetect does. Nothing is fetched.",
	    OBJ("\"text\":{\"type\":\"string\",\"maxLength\":1048576,"
		"\"description\":\"the text to search\"},\"max\":{\"type\":\"integer\",\"minimum\":0,"
		"\"maximum\":10000,\"description\":\"at most this many URLs "
		"(0: all)\"}",
		"\"text\""),
	    "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":"
	    "\"integer\"},\"urls\":" URL_RECORDS "},\"required\":[\"count\","
	    "\"urls\"]}",
	    READ_ONLY_LOCAL, us_tool_detect_urls },
	{ "fetch_url", "Fetch a URL",
	    "Fetch a URL (web page, PDF, GitHub repository, file, issue or "
	    "PR; cached) as Markdown, max_tokens at a time: call again with "
	    "the offset a long page ends with. For pages built by scripts use "
	    "render_url.",
	    OBJ(URL_PROP("the http or https URL") ","
		"\"use_cache\":{\"type\":\"boolean\",\"default\":true,"
		"\"description\":\"false: fetch again\"},"
		"\"summarize\":{\"type\":\"boolean\",\"default\":false,"
		"\"description\":\"add a summary\"},"
		"\"summary_type\":{\"type\":\"string\",\"enum\":[\"BRIEF\","
		"\"USAGE\",\"API\",\"ARCHITECTURE\",\"EVALUATION\"],"
		"\"description\":\"default: from the URL and hint\"},"
		"\"hint\":{\"type\":\"string\",\"maxLength\":2000,"
		"\"description\":\"what the summary is for\"},"
		"\"format\":{\"type\":\"string\",\"enum\":[\"markdown\","
		"\"text\"],\"default\":\"markdown\",\"description\":\"a "
		"cached page keeps its format\"},"
		"\"timeout\":{\"type\":\"integer\",\"minimum\":1,"
		"\"maximum\":3600,\"description\":\"seconds, at most the "
		"server's\"},\"links\":{\"type\":\"boolean\",\"default\":false,"
		"\"description\":\"list the page's links\"}," QUERY_PROP
		OVERRIDE_PROPS PAGE_PROPS,
		"\"url\""),
	    PAGE_OUT, FETCHING, us_tool_fetch_url },
	{ "detect_and_fetch", "Detect and fetch URLs",
	    "Find the URLs in a text and fetch the first three at once (the "
	    "others are skipped); the slices share max_tokens.",
	    OBJ("\"text\":{\"type\":\"string\",\"maxLength\":1048576,"
		"\"description\":\"the text, a user's message\"},"
		"\"use_cache\":{\"type\":\"boolean\",\"default\":true},"
		"\"summarize\":{\"type\":\"boolean\",\"default\":false},"
		"\"max_tokens\":{\"type\":\"integer\",\"minimum\":100,"
		"\"maximum\":100000,\"default\":8000,\"description\":\"all "
		"slices' cl100k tokens\"}",
		"\"text\""),
	    "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":"
	    "\"integer\"},\"failed\":{\"type\":\"integer\"},\"results\":{"
	    "\"type\":\"array\",\"items\":" PAGE_OUT "}},\"required\":["
	    "\"count\",\"results\"]}",
	    FETCHING, us_tool_detect_and_fetch },
	{ "get_url_content", "Get a fetched URL's content",
	    "A URL fetched before, from this session or the cache, paged as "
	    "fetch_url; nothing is fetched.",
	    OBJ(URL_PROP("the URL") "," QUERY_PROP PAGE_PROPS, "\"url\""),
	    PAGE_OUT,
	    READ_ONLY_LOCAL, us_tool_get_url_content },
	{ "get_fetched_urls", "List the fetched URLs",
	    "The URLs fetched in this session, in the order first fetched, "
	    "with their titles, types, errors and text lengths (not the "
	    "texts).",
	    NO_ARGS,
	    "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":"
	    "\"integer\"},\"urls\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\"}}},\"required\":[\"count\",\"urls\"]}",
	    READ_ONLY_LOCAL, us_tool_get_fetched_urls },
	{ "remove_fetched_url", "Remove a URL from the fetched set",
	    "Take a URL out of this session's fetched set (the context); the "
	    "cache keeps it.",
	    OBJ(URL_PROP("the URL"), "\"url\""),
	    "{\"type\":\"object\",\"properties\":{\"url\":{\"type\":"
	    "\"string\"},\"removed\":{\"type\":\"boolean\"}},\"required\":["
	    "\"url\",\"removed\"]}",
	    "{\"readOnlyHint\":false,\"destructiveHint\":false,"
	    "\"idempotentHint\":true,\"openWorldHint\":false}",
	    us_tool_remove_fetched_url },
	{ "clear_fetched", "Clear the fetched set",
	    "Empty this session's fetched set; the cache keeps every entry.",
	    NO_ARGS,
	    "{\"type\":\"object\",\"properties\":{\"removed\":{\"type\":"
	    "\"integer\"}},\"required\":[\"removed\"]}",
	    DESTRUCTIVE, us_tool_clear_fetched },
	{ "invalidate_url_cache", "Forget a URL",
	    "Remove a URL from both the cache and the fetched set, so that the "
	    "next fetch_url fetches it again.",
	    OBJ(URL_PROP("the URL"), "\"url\""),
	    "{\"type\":\"object\",\"properties\":{\"url\":{\"type\":"
	    "\"string\"},\"removed_from_cache\":{\"type\":\"boolean\"},"
	    "\"removed_from_fetched\":{\"type\":\"boolean\"}},\"required\":["
	    "\"url\",\"removed_from_cache\",\"removed_from_fetched\"]}",
	    DESTRUCTIVE, us_tool_invalidate_url_cache },
	{ "clear_url_cache", "Clear the cache",
	    "Delete every cache entry (shared with urlkit's other programs) "
	    "and empty the fetched set.",
	    NO_ARGS,
	    "{\"type\":\"object\",\"properties\":{\"cache_removed\":{\"type\":"
	    "\"integer\"},\"fetched_removed\":{\"type\":\"integer\"}},"
	    "\"required\":[\"cache_removed\",\"fetched_removed\"]}",
	    DESTRUCTIVE, us_tool_clear_url_cache },
	{ "format_url_context", "Format URLs as prompt context",
	    "The fetched pages as one prompt context (urlsum -c): for each, "
	    "its URL, title and summary (else its text), cut to fit; failed "
	    "fetches are named, not included. By default every URL of the "
	    "fetched set.",
	    OBJ("\"urls\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
		"\"description\":\"these URLs (from the fetched set, else the "
		"cache), in this order\"},"
		"\"excluded\":{\"type\":\"array\",\"items\":{\"type\":"
		"\"string\"},\"description\":\"URLs to leave out\"},"
		"\"max_length\":{\"type\":\"integer\",\"minimum\":100,"
		"\"maximum\":10000000,\"description\":\"the whole context's "
		"budget in characters, shared fairly\"}",
		""),
	    "{\"type\":\"object\",\"properties\":{\"context\":{\"type\":"
	    "\"string\"},\"records\":{\"type\":\"integer\"},\"errors\":{"
	    "\"type\":\"integer\"},\"excluded\":{\"type\":\"integer\"},"
	    "\"cut\":{\"type\":\"integer\"},\"dropped\":{\"type\":"
	    "\"integer\"}},\"required\":[\"context\"]}",
	    READ_ONLY_LOCAL, us_tool_format_url_context },
	{ "open_url", "Open a URL in the user's browser",
	    "Ask the user's frontend to open a URL (through a running "
	    "'toolack serve'), and return its acknowledgement.",
	    OBJ(URL_PROP("the http or https URL") ","
		"\"timeoutSec\":{\"type\":\"integer\",\"minimum\":1,"
		"\"maximum\":3600,\"default\":60,\"description\":\"how long "
		"to wait for the frontend\"}",
		"\"url\""),
	    "{\"type\":\"object\",\"properties\":{\"status\":{\"type\":"
	    "\"string\"},\"toolCallId\":{\"type\":\"string\"},\"errorText\":{"
	    "\"type\":[\"string\",\"null\"]}}}",
	    "{\"readOnlyHint\":false,\"destructiveHint\":false,"
	    "\"openWorldHint\":true}",
	    us_tool_open_url },
	{ "map_site", "List the URLs of a site",
	    "The URLs of a site, with their titles where known: from its "
	    "sitemaps, feeds and llms.txt, and with \"crawl\" in sources from "
	    "the links of its pages (breadth first, depth links deep). "
	    "robots.txt is always honoured. Nothing is fetched for reading: "
	    "pass the URLs to fetch_url.",
	    OBJ(URL_PROP("the site's start URL (http or https)") ","
		"\"sources\":{\"type\":\"array\",\"items\":{\"type\":"
		"\"string\",\"enum\":[\"sitemap\",\"feed\",\"llms\","
		"\"crawl\"]},\"description\":\"where to look (default: "
		"sitemap, feed, llms)\"},"
		"\"limit\":{\"type\":\"integer\",\"minimum\":1,"
		"\"maximum\":5000,\"default\":100,\"description\":\"at most "
		"this many URLs, after include and exclude\"},"
		"\"include\":{\"type\":\"array\",\"items\":{\"type\":"
		"\"string\"},\"description\":\"path globs to keep "
		"(/docs/*)\"},"
		"\"exclude\":{\"type\":\"array\",\"items\":{\"type\":"
		"\"string\"},\"description\":\"path globs to drop\"},"
		"\"depth\":{\"type\":\"integer\",\"minimum\":0,"
		"\"maximum\":10,\"default\":2,\"description\":\"the "
		"crawl's depth in links\"}",
		"\"url\""),
	    "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":"
	    "\"integer\"},\"urls\":{\"type\":\"array\",\"items\":{"
	    "\"type\":\"object\",\"properties\":{\"url\":{\"type\":"
	    "\"string\"},\"title\":{\"type\":\"string\"}},\"required\":"
	    "[\"url\"]}},\"errors\":{\"type\":\"array\"},\"limited\":{"
	    "\"type\":\"boolean\"}},\"required\":[\"count\",\"urls\"]}",
	    FETCHING, us_tool_map_site },
	{ "render_url", "Render a URL in Chromium",
	    "Load a URL in headless Chromium, for pages built by scripts or "
	    "blocked, paged as fetch_url.",
	    OBJ(URL_PROP("the http or https URL") ","
		"\"wait\":{\"type\":\"string\",\"anyOf\":[{\"enum\":[\"load\","
		"\"domcontentloaded\",\"networkidle\"]},{\"pattern\":"
		"\"^selector:.\"}],\"default\":\"load\",\"description\":\"when "
		"the page is ready\"}," OVERRIDE_PROPS PAGE_PROPS,
		"\"url\""),
	    PAGE_OUT, FETCHING, us_tool_render_url },
};

const size_t us_ntools = sizeof(us_tools) / sizeof(us_tools[0]);

/* --tools' profiles: a name for a list of tools. */
static const struct {
	const char *name, *list;
} profiles[] = {
	{ "lean", "fetch_url,get_url_content,render_url" },
};

/* --tools' choice: chosen[i] for us_tools[i]; none chosen is all. */
static char *chosen;

void
us_tools_release(void)
{
	free(chosen);
	chosen = NULL;
}

int
us_tools_choose(const char *list, char *bad, size_t badsz)
{
	const char *p = list, *e;
	size_t i, k, n;
	int found;

	if (!chosen)
		chosen = uk_util_xcalloc(us_ntools, 1);
	for (; ; p = e + 1) {
		e = strchr(p, ',');
		n = e ? (size_t)(e - p) : strlen(p);
		found = 0;
		for (k = 0; k < sizeof(profiles) / sizeof(profiles[0]); k++)
			if (strlen(profiles[k].name) == n &&
			    !strncmp(profiles[k].name, p, n)) {
				us_tools_choose(profiles[k].list, bad, badsz);
				found = 1;
			}
		for (i = 0; i < us_ntools && !found; i++)
			if (strlen(us_tools[i].name) == n &&
			    !strncmp(us_tools[i].name, p, n)) {
				chosen[i] = 1;
				found = 1;
			}
		if (!found) {
			snprintf(bad, badsz, "%.*s", (int)n, p);
			return -1;
		}
		if (!e)
			return 0;
	}
}

int
us_tool_on(const char *name)
{
	size_t i;

	if (!strcmp(name, "render_url") && !us_srv.render)
		return 0;
	for (i = 0; i < us_ntools; i++)
		if (!strcmp(us_tools[i].name, name))
			return !chosen || chosen[i];
	return 0;
}

void
us_instructions(struct uk_buf *b)
{
	static const char *const readers[] = { "get_fetched_urls",
		"get_url_content", "format_url_context" };
	size_t i, n = 0;

	uk_buf_addstr(b, "urlkit's URL tools.");
	if (us_tool_on("fetch_url"))
		uk_buf_addstr(b, " fetch_url returns a page in slices: call it "
		    "again with the offset it gives to read on.");
	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		if (!us_tool_on(readers[i]))
			continue;
		uk_buf_addstr(b, n++ ? ", " : " The fetched set (");
		uk_buf_addstr(b, readers[i]);
	}
	if (n)
		uk_buf_addstr(b, ") holds every URL fetched in this session.");
}

struct uk_mcp_tool *
us_tool_table(size_t *n)
{
	struct uk_mcp_tool *t = uk_util_xcalloc(us_ntools, sizeof(*t));
	size_t i;

	*n = 0;
	for (i = 0; i < us_ntools; i++)
		if ((!chosen || chosen[i]) &&
		    (us_srv.render || strcmp(us_tools[i].name, "render_url")))
			t[(*n)++] = us_tools[i];
	return t;
}
