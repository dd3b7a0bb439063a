/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/fetch (TAP): what needs no server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "fetch.h"
#include "json.h"
#include "tap.h"
#include "util.h"
#include "banned.h"

static yajl_val
parse(const char *s)
{
	return uk_json_parse(s, strlen(s), NULL);
}

int
main(void)
{
	char dir[] = "/tmp/t_fetch.XXXXXX", cmd[64];
	struct uk_fetch_opts o;
	struct uk_fetch f;
	struct uk_fetch_job j;
	struct uk_err err;
	yajl_val rec, got;
	int ready = 0, expired = 0;

	uk_util_prog_set("t_fetch");
	unsetenv("URLKIT_ALLOW_PRIVATE");
	if (!mkdtemp(dir))
		return 1;

	uk_fetch_opts_init(&o);
	ok(o.use_cache && !o.refresh && o.ttl == -1, "opts defaults");
	o.cache_dir = dir;
	o.http.timeout = 2;
	ok(uk_fetch_init(&f, &o, &err) == 0, "init with a cache");

	uk_fetch_start(&f, &j, "ftp://example.com/x", NULL);
	ok(j.done &&
		!strcmp(uk_json_get_str(j.rec, "error"),
		    "not an http or https URL"),
	    "another scheme: an error at once");
	ok(!uk_fetch_busy(&f), "and no transfer");
	uk_fetch_job_release(&j);

	/* The repository step runs to its end (here: nothing listens). */
	setenv("URLKIT_GITHUB_ARCHIVE_URL", "http://127.0.0.1:9", 1);
	uk_fetch_start(&f, &j, "https://github.com/octo/demo", NULL);
	ok(j.done && !strcmp(uk_json_get_str(j.rec, "url_type"), "github_repo"),
	    "a repository: done at once");
	ok(uk_json_get_str(j.rec, "error") &&
		strstr(uk_json_get_str(j.rec, "error"),
		    "'http://127.0.0.1:9/octo/demo/tar.gz/HEAD'"),
	    "with the error that says so");
	uk_fetch_job_release(&j);

	/* A cache hit costs no transfer. */
	rec = parse("{\"url\":\"http://cached.example/\",\"url_type\":\"web\","
		    "\"title\":\"From cache\",\"content\":\"c\"}");
	ok(uk_cache_set(&f.cache, rec, &err) == 0, "an entry set");
	uk_json_free(rec);
	uk_fetch_start(&f, &j, "http://cached.example/", "web");
	ok(j.done && uk_json_get_bool(j.rec, "cached") &&
		!strcmp(uk_json_get_str(j.rec, "title"), "From cache"),
	    "a hit: done at once, cached true");
	ok(!uk_fetch_busy(&f), "a hit makes no request");
	uk_fetch_job_release(&j);

	/* An error is not cached. */
	uk_fetch_start(&f, &j, "http://127.0.0.1:9/", NULL);
	ok(!j.done && uk_fetch_busy(&f), "a miss starts a transfer");
	ok(uk_fetch_wait(&f, -1, &ready) == &j && j.done,
	    "the job comes back done");
	ok(uk_json_get_str(j.rec, "error") &&
		!strncmp(uk_json_get_str(j.rec, "error"), "refused", 7),
	    "refused by the guard: %s", uk_json_get_str(j.rec, "error"));
	ok(uk_cache_get(&f.cache, "http://127.0.0.1:9/", 0, &got, &expired,
	       &err) == 0,
	    "the error was not cached");
	uk_fetch_job_release(&j);
	ok(uk_fetch_wait(&f, -1, &ready) == NULL, "nothing left in flight");

	uk_fetch_release(&f);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}
