/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: a repository archive through the route urlfetch
 * takes for a GitHub repository, uk_repo_fetch: the input is served by a
 * loopback HTTP server (libmicrohttpd, started once) that
 * URLKIT_GITHUB_ARCHIVE_URL points at, streamed by libcurl into
 * libarchive (tar, gzip and every other filter, zip read as a stream, so
 * entries with data descriptors too), with the limits on and small so
 * the fuzzer meets them: the total (--repo-max-size) of 4 KiB, 64 KiB or
 * 4 MiB and the file count of 8, 64 or 50000 by the input's length, and
 * the fixed 1 MiB per file and 256 KiB per README.  No symbol map (the
 * symbols harness fuzzes the parsers): files are kept, not parsed.
 * Beyond the sanitizers: the record's strings are valid UTF-8.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "repo.h"
#include "url.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct MHD_Daemon *d;
static const uint8_t *cur;
static size_t cur_len;

static enum MHD_Result
serve(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_len, void **state)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)cls;
	(void)url;
	(void)method;
	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	/* A copy: the server may still be sending it when uk_repo_fetch
	 * has given up on it (an error at the first bytes). */
	r = MHD_create_response_from_buffer(cur_len, (void *)(uintptr_t)cur,
	    MHD_RESPMEM_MUST_COPY);
	MHD_add_response_header(r, "Content-Type", "application/x-gzip");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static void
start(void)
{
	struct sockaddr_in sa;
	const union MHD_DaemonInfo *info;
	char base[64];

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
	    serve, NULL, MHD_OPTION_SOCK_ADDR, &sa, MHD_OPTION_END);
	if (!d || !(info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT))) {
		fprintf(stderr, "fuzz_archive: cannot start the server\n");
		abort();
	}
	snprintf(base, sizeof(base), "http://127.0.0.1:%u",
	    (unsigned)info->port);
	setenv("URLKIT_GITHUB_ARCHIVE_URL", base, 1);
	unsetenv("URLKIT_GITHUB_TOKEN");
	unsetenv("GITHUB_TOKEN");
	/* The loopback server: the guard lets it through. */
	setenv("URLKIT_ALLOW_PRIVATE", "1", 1);
}

static void
check(yajl_val rec, const char *key)
{
	size_t n;
	const char *s = uk_json_get_strn(rec, key, &n);

	if (s && !uk_buf_utf8_valid(s, n))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned long long max_bytes[] = { 4096, 65536,
		4ULL << 20 };
	static const unsigned long max_files[] = { 8, 64, 50000 };
	struct uk_repo_opts o;
	struct uk_url u;
	struct uk_err err;
	yajl_val rec;

	if (!d)
		start();
	cur = data;
	cur_len = size;
	uk_repo_opts_init(&o);
	o.timeout = 20;
	o.max_bytes = max_bytes[size % 3];
	o.max_files = max_files[size / 3 % 3];
	o.map_tokens = 0;
	o.readme_tokens = size % 2 ? 64 : 2048;
	o.threads = 1;
	o.allow_private = 1;
	uk_url_classify("https://github.com/acme/tool", &u);
	rec = uk_json_object();
	if (uk_repo_fetch(&u, "https://github.com/acme/tool", &o, rec,
		&err) == 0) {
		check(rec, "title");
		check(rec, "description");
		check(rec, "readme");
		check(rec, "truncated_reason");
	}
	uk_json_free(rec);
	uk_url_release(&u);
	return 0;
}
