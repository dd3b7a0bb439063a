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

#include "mcp.h"
#include "urlserve.h"
#include "urlserve_int.h"
#include "urlserve_map.h"

#define URL_PROP(what)                                                     \
	"\"url\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":65536," \
	"\"description\":\"" what "\"}"
#define PAGE_PROPS                                                          \
	"\"max_tokens\":{\"type\":\"integer\",\"minimum\":100,"             \
	"\"maximum\":100000,\"default\":8000,\"description\":\"the largest " \
	"slice of content returned, in tokens (cl100k_base); the rest is "  \
	"read with offset\"},"                                              \
	"\"offset\":{\"type\":\"integer\",\"minimum\":0,\"default\":0,"      \
	"\"description\":\"where the slice starts, in characters: the "     \
	"next_offset of the previous call\"}"
#define OBJ(props, req)                                                     \
	"{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req \
	"],\"additionalProperties\":false}"
#define NO_ARGS "{\"type\":\"object\",\"properties\":{}," \
	"\"additionalProperties\":false}"
/* fetch_url's and render_url's overrides of the extractor. */
#define OVERRIDE_PROPS                                                      \
	"\"select\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":"           \
	"\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":32}],"      \
	"\"description\":\"CSS selectors: the text is what they "           \
	"match, in document order\"},"                                      \
	"\"remove\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":"           \
	"\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":32}],"      \
	"\"description\":\"CSS selectors: what they match is dropped "      \
	"before extraction\"},"                                             \
	"\"whole\":{\"type\":\"boolean\",\"default\":false,"                \
	"\"description\":\"the whole page's text, no boilerplate "          \
	"removal\"},"                                                       \
	"\"explain\":{\"type\":\"boolean\",\"default\":false,"              \
	"\"description\":\"add explain: what extraction dropped and "       \
	"why\"},"

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
	    "Fetch a web page, document, PDF or GitHub repository, file, issue "
	    "or pull request (the cache first), and return its main text as "
	    "Markdown, one slice at a time: a long page ends with the offset to "
	    "call again with. Internal and private addresses are refused. With "
	    "summarize, a summary is added (made once, kept in the cache).",
	    OBJ(URL_PROP("the http or https URL") ","
		"\"use_cache\":{\"type\":\"boolean\",\"default\":true,"
		"\"description\":\"false: fetch again even when cached\"},"
		"\"summarize\":{\"type\":\"boolean\",\"default\":false,"
		"\"description\":\"add a summary\"},"
		"\"summary_type\":{\"type\":\"string\",\"enum\":[\"BRIEF\","
		"\"USAGE\",\"API\",\"ARCHITECTURE\",\"EVALUATION\"],"
		"\"description\":\"the kind of summary (default: chosen from "
		"the URL's type and the hint)\"},"
		"\"hint\":{\"type\":\"string\",\"maxLength\":2000,"
		"\"description\":\"what the reader wants, to steer the "
		"summary\"},"
		"\"format\":{\"type\":\"string\",\"enum\":[\"markdown\","
		"\"text\"],\"default\":\"markdown\",\"description\":\"the "
		"text's format (a cached page keeps the format it was fetched "
		"in)\"}," OVERRIDE_PROPS PAGE_PROPS,
		"\"url\""),
	    PAGE_OUT, FETCHING, us_tool_fetch_url },
	{ "detect_and_fetch", "Detect and fetch URLs",
	    "Find the URLs in a text and fetch the first three (the "
	    "per-message limit; the others are listed as skipped), at once. "
	    "Every URL gets a result; each page's slice shares max_tokens.",
	    OBJ("\"text\":{\"type\":\"string\",\"maxLength\":1048576,"
		"\"description\":\"the text, a user's message\"},"
		"\"use_cache\":{\"type\":\"boolean\",\"default\":true},"
		"\"summarize\":{\"type\":\"boolean\",\"default\":false},"
		"\"max_tokens\":{\"type\":\"integer\",\"minimum\":100,"
		"\"maximum\":100000,\"default\":8000,\"description\":\"the "
		"budget of all the slices together, in tokens\"}",
		"\"text\""),
	    "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":"
	    "\"integer\"},\"failed\":{\"type\":\"integer\"},\"results\":{"
	    "\"type\":\"array\",\"items\":" PAGE_OUT "}},\"required\":["
	    "\"count\",\"results\"]}",
	    FETCHING, us_tool_detect_and_fetch },
	{ "get_url_content", "Get a fetched URL's content",
	    "The content of a URL fetched earlier: the fetched set's record, "
	    "else the cache's; an error when it is in neither. Paged as "
	    "fetch_url is. Nothing is fetched.",
	    OBJ(URL_PROP("the URL") "," PAGE_PROPS, "\"url\""), PAGE_OUT,
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
	    "Load a page in headless Chromium (for pages that need "
	    "JavaScript) and return its main text, paged as fetch_url does.",
	    OBJ(URL_PROP("the http or https URL") ","
		"\"wait\":{\"type\":\"string\",\"anyOf\":[{\"enum\":[\"load\","
		"\"domcontentloaded\",\"networkidle\"]},{\"pattern\":"
		"\"^selector:.\"}],\"default\":\"load\",\"description\":\"when "
		"the page is ready: load, domcontentloaded, networkidle or "
		"selector:CSS (default: load)\"}," OVERRIDE_PROPS PAGE_PROPS,
		"\"url\""),
	    PAGE_OUT, FETCHING, us_tool_render_url },
};

const size_t us_ntools = sizeof(us_tools) / sizeof(us_tools[0]);
