/* SPDX-License-Identifier: MIT */
/* Unit tests of lib/cache (TAP). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "cache_clean.h"
#include "cache_pack.h"
#include "json.h"
#include "session.h"
#include "util.h"
#include "tap.h"

#include "banned.h"

static yajl_val
record(const char *url, const char *content)
{
	yajl_val r = uk_json_object();

	uk_json_set_str(r, "url", url);
	uk_json_set_str(r, "url_type", "web");
	uk_json_set_str(r, "title", "T");
	uk_json_set_str(r, "content", content);
	uk_json_set_bool(r, "cached", 0);
	return r;
}

static void
write_raw(const char *path, const char *s)
{
	FILE *fp = fopen(path, "w");

	if (fp) {
		fputs(s, fp);
		fclose(fp);
	}
}

/* Set path's mtime to secs ago. */
static void
age(const char *path, long secs)
{
	struct timespec ts[2];

	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= secs;
	ts[1] = ts[0];
	utimensat(AT_FDCWD, path, ts, 0);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int
count_tmp(void *ctx, const struct uk_cache_file *f)
{
	if (f->kind == UK_CACHE_TEMP)
		(*(int *)ctx)++;
	return 0;
}

int
main(void)
{
	char tmpl[] = "/tmp/t_cache.XXXXXX";
	char key[17], key2[17], dir[256], sub[300];
	struct uk_cache c;
	struct uk_err err;
	struct uk_buf b = UK_BUF_INIT;
	yajl_val r, got;
	char *path, *p2;
	const char *s;
	int e, i, tmps;
	long m;
	struct stat st;

	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/sub/cache", tmpl);
	unsetenv("URLKIT_CACHE_TTL");

	/* Keys: deterministic, 16 hex, distinct; known SHA-256 prefix. */
	uk_cache_key("https://example.com/", key);
	uk_cache_key("https://example.com/", key2);
	ok(!strcmp(key, key2) && strlen(key) == 16, "key is deterministic");
	uk_cache_key("https://example.org/", key2);
	ok(strcmp(key, key2) != 0, "different URLs, different keys");
	uk_cache_key("abc", key);
	ok(!strcmp(key, "ba7816bf8f01cfea"), "key is SHA-256 prefix");
	/* The key's own SHA-256 (uk_cache_digest_sha256) against libcrypto's,
	 * at every length around the padding's one and two blocks. */
	{
		char text[300], hex[65];
		int bad = -1;

		for (i = 0; i < (int)sizeof(text) - 1; i++)
			text[i] = (char)('!' + (i * 7) % 90);
		for (i = 0; i < (int)sizeof(text) && bad < 0; i++) {
			char c0 = text[i];

			text[i] = '\0';
			uk_cache_key(text, key);
			uk_cache_digest_sha256(text, (size_t)i, hex);
			if (strncmp(key, hex, 16) || key[16])
				bad = i;
			text[i] = c0;
		}
		ok(bad < 0, "key = libcrypto's SHA-256 prefix, 0 to 299 bytes");
		if (bad >= 0)
			printf("# first differs at %d bytes\n", bad);
	}

	/* Open: defaults. */
	setenv("URLKIT_CACHE_DIR", "", 1);
	setenv("XDG_CACHE_HOME", "/x", 1);
	ok(uk_cache_open(&c, NULL, -1, &err) == 0 &&
		!strcmp(c.dir, "/x/urlkit") && c.ttl == 86400,
	    "XDG_CACHE_HOME/urlkit, ttl 24h");
	uk_cache_release(&c);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/h", 1);
	ok(uk_cache_open(&c, NULL, -1, &err) == 0 &&
		!strcmp(c.dir, "/h/.cache/urlkit"),
	    "HOME/.cache/urlkit");
	uk_cache_release(&c);
	setenv("URLKIT_CACHE_TTL", "2h", 1);
	setenv("URLKIT_CACHE_DIR", "/d/", 1);
	ok(uk_cache_open(&c, NULL, -1, &err) == 0 && !strcmp(c.dir, "/d") &&
		c.ttl == 7200,
	    "URLKIT_CACHE_DIR and URLKIT_CACHE_TTL");
	uk_cache_release(&c);
	setenv("URLKIT_CACHE_TTL", "soon", 1);
	ok(uk_cache_open(&c, NULL, -1, &err) == -1 && err.code == UK_EXIT_FATAL,
	    "bad URLKIT_CACHE_TTL is an error");
	uk_cache_release(&c);
	unsetenv("URLKIT_CACHE_TTL");

	uk_cache_open(&c, dir, -1, &err);

	/* Miss on a cache that does not exist yet. */
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0,
	    "miss before the directory exists");
	ok(!exists(dir), "get does not create the directory");

	/* Round trip; directory created 0700; fan-out. */
	r = record("https://a.test/", "hello");
	ok(uk_cache_set(&c, r, &err) == 0, "set");
	ok(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700,
	    "directory created with mode 0700");
	path = uk_cache_path(&c, "https://a.test/");
	uk_cache_key("https://a.test/", key);
	snprintf(sub, sizeof(sub), "%s/%.2s/%s.json", dir, key, key);
	ok(!strcmp(path, sub) && exists(path), "entry at DIR/KK/KEY.json");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 1,
	    "hit");
	s = uk_json_get_str(got, "content");
	ok(s && !strcmp(s, "hello"), "content round trip");
	ok(uk_json_get_str(got, "cached_at") &&
		uk_json_get_str(got, "fetched_at") &&
		!uk_json_get(got, "cached"),
	    "cached_at and fetched_at set, cached not stored");
	ok(!strcmp(uk_json_get_str(got, "cached_at"),
	       uk_json_get_str(got, "fetched_at")),
	    "fetched_at defaults to cached_at");
	uk_json_free(got);
	uk_json_free(r);

	/* fetched_at kept when given. */
	r = record("https://b.test/", "b");
	uk_json_set_str(r, "fetched_at", "2020-01-01T00:00:00.000Z");
	uk_cache_set(&c, r, &err);
	uk_json_free(r);
	uk_cache_get(&c, "https://b.test/", 0, &got, NULL, &err);
	ok(got &&
		!strcmp(uk_json_get_str(got, "fetched_at"),
		    "2020-01-01T00:00:00.000Z"),
	    "fetched_at not overwritten");
	uk_json_free(got);

	/* Error records and records without url are refused. */
	r = record("https://c.test/", "c");
	uk_json_set_str(r, "error", "HTTP 404");
	ok(uk_cache_set(&c, r, &err) == -1, "error record not cached");
	ok(uk_cache_get(&c, "https://c.test/", 0, &got, NULL, &err) == 0,
	    "error record is a miss");
	uk_json_free(r);
	r = uk_json_object();
	ok(uk_cache_set(&c, r, &err) == -1, "record without url refused");
	uk_json_free(r);

	/* Expired: deleted and a miss; with STALE returned and kept. */
	age(path, 86400 + 10);
	ok(uk_cache_get(&c, "https://a.test/", UK_CACHE_STALE, &got, &e,
	       &err) == 1 &&
		e == 1,
	    "stale get returns an expired entry");
	uk_json_free(got);
	ok(exists(path), "stale get keeps it");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0,
	    "expired is a miss");
	ok(!exists(path), "expired entry deleted");

	/* TTL option. */
	r = record("https://a.test/", "hello");
	uk_cache_set(&c, r, &err);
	age(path, 100);
	c.ttl = 50;
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0,
	    "shorter TTL expires it");
	c.ttl = UK_CACHE_TTL_DEFAULT;

	/* Corrupt: bad JSON, truncated, wrong URL. */
	uk_cache_set(&c, r, &err);
	write_raw(path, "{\"url\":\"https://a.test/\",\"content\":\"hel");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0 &&
		!exists(path),
	    "truncated entry is a miss and deleted");
	write_raw(path, "not json\n");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0 &&
		!exists(path),
	    "bad JSON entry is a miss and deleted");
	write_raw(path, "{\"url\":\"https://other.test/\"}\n");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0 &&
		!exists(path),
	    "entry of another URL is a miss and deleted");
	write_raw(path, "[1,2]\n");
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0,
	    "a JSON array is corrupt");

	/* A directory where the entry file should be. */
	mkdir(path, 0700);
	ok(uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err) == 0,
	    "directory at the entry path: miss");
	ok(uk_cache_set(&c, r, &err) == -1 && err.code == UK_EXIT_FAIL,
	    "directory at the entry path: set fails");
	rmdir(path);

	/* The raw get: the entry's text, one line ending in '}'. */
	uk_cache_set(&c, r, &err);
	uk_buf_reset(&b);
	ok(uk_cache_get_raw(&c, "https://a.test/", 0, &b, NULL, &err) == 1 &&
		b.len && b.buf[0] == '{' && b.buf[b.len - 1] == '}' &&
		!memchr(b.buf, '\n', b.len) &&
		!strncmp(b.buf, "{\"url\":\"https://a.test/\"", 23),
	    "get_raw: the entry's text as one line");
	write_raw(path,
	    "{\n \"url\": \"https://a.test/\",\n \"cached\": "
	    "false }\n");
	uk_buf_reset(&b);
	ok(uk_cache_get_raw(&c, "https://a.test/", 0, &b, NULL, &err) == 1 &&
		!strcmp(b.buf, "{\"url\":\"https://a.test/\"}"),
	    "get_raw: a hand-written entry is regenerated without cached");
	write_raw(path, "{\"url\":\"https://b.test/\"}\n");
	ok(uk_cache_get_raw(&c, "https://a.test/", 0, &b, NULL, &err) == 0 &&
		!exists(path),
	    "get_raw: another URL's entry is a miss and deleted");
	uk_cache_set(&c, r, &err);
	age(path, 90000);
	ok(uk_cache_get_raw(&c, "https://a.test/", UK_CACHE_STALE, &b, &e,
	       &err) == 1 &&
		e == 1,
	    "get_raw: stale");
	ok(uk_cache_get_raw(&c, "https://a.test/", 0, &b, &e, &err) == 0 &&
		!exists(path),
	    "get_raw: expired is a miss and deleted");

	/* Update the summary in place. */
	uk_cache_set(&c, r, &err);
	age(path, 1000);
	stat(path, &st);
	ok(uk_cache_update_summary(&c, "https://a.test/", "short", 5, "BRIEF",
	       &err) == 1,
	    "update_summary");
	uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err);
	ok(got && !strcmp(uk_json_get_str(got, "summary"), "short") &&
		!strcmp(uk_json_get_str(got, "summary_type"), "BRIEF") &&
		!strcmp(uk_json_get_str(got, "content"), "hello"),
	    "summary added, content untouched");
	uk_json_free(got);
	{
		struct stat st2;

		stat(path, &st2);
		ok(st2.st_mtim.tv_sec == st.st_mtim.tv_sec,
		    "summary keeps the entry's age");
	}
	ok(uk_cache_update_summary(&c, "https://none.test/", "x", 1, "BRIEF",
	       &err) == 0,
	    "update_summary of a missing entry: 0");
	/* A packed entry (doc/CACHE.md): the summary makes it a loose file,
	 * with the packed entry's age. */
	{
		struct uk_cache_clean o;
		struct stat st2;
		char *w;

		memset(&o, 0, sizeof(o));
		o.pack = 1;
		ok(uk_cache_clean_run(&c, &o, &err) >= 0 && o.packed >= 1,
		    "cleanup --pack packs");
		w = uk_cache_where(&c, "https://a.test/");
		ok(w && strlen(w) > 5 && !strcmp(w + strlen(w) - 5, "/pack") &&
			stat(path, &st2) && errno == ENOENT,
		    "packed: where names the pack, no loose file");
		free(w);
		ok(uk_cache_update_summary(&c, "https://a.test/", "packed", 6,
		       "USAGE", &err) == 1,
		    "update_summary of a packed entry");
		uk_cache_get(&c, "https://a.test/", 0, &got, NULL, &err);
		ok(got && !strcmp(uk_json_get_str(got, "summary"), "packed") &&
			!strcmp(uk_json_get_str(got, "content"), "hello"),
		    "packed: summary added, content untouched");
		uk_json_free(got);
		ok(!stat(path, &st2) &&
			st2.st_mtim.tv_sec == st.st_mtim.tv_sec,
		    "packed: the loose file keeps the packed entry's age");
		ok(uk_cache_pack_crc32("123456789", 9) == 0xcbf43926UL,
		    "CRC-32 check value");
	}
	uk_json_free(r);

	/* Invalidate. */
	ok(uk_cache_invalidate(&c, "https://a.test/", &err) == 1,
	    "invalidate found");
	ok(uk_cache_invalidate(&c, "https://a.test/", &err) == 0,
	    "invalidate again: not found");

	/* Cleanup: expired + corrupt + stray temp files, counts. */
	for (i = 0; i < 6; i++) {
		char u[64];

		snprintf(u, sizeof(u), "https://e%d.test/", i);
		r = record(u, "x");
		uk_cache_set(&c, r, &err);
		uk_json_free(r);
		p2 = uk_cache_path(&c, u);
		if (i < 2)
			age(p2, 90000);
		else if (i == 2)
			write_raw(p2, "{\"url\":");
		free(p2);
	}
	/* A stray temp file: dead writer; and a live one (ours, new). */
	uk_cache_key("https://e5.test/", key);
	snprintf(sub, sizeof(sub), "%s/%.2s/.%s.json.tmp.999999999.0badf00d",
	    dir, key, key);
	write_raw(sub, "{\"url\":\"https://e5");
	snprintf(sub, sizeof(sub), "%s/%.2s/.%s.json.tmp.%ld.00000001", dir,
	    key, key, (long)getpid());
	write_raw(sub, "{");
	m = uk_cache_clean_run(&c, NULL, &err);
	ok(m == 4, "cleanup removes 2 expired, 1 corrupt, 1 stray temp");
	ok(exists(sub), "a live writer's temp file stays");
	/* Written 30 s ago by "this PID": this process started since, so
	 * the PID was reused and the writer is gone. */
	age(sub, 30);
	ok(uk_cache_clean_run(&c, NULL, &err) == 1 && !exists(sub),
	    "a temp file of a reused PID goes");
	write_raw(sub, "{");
	age(sub, 120);
	ok(uk_cache_clean_run(&c, NULL, &err) == 1 && !exists(sub),
	    "an old temp file goes");
	ok(uk_cache_get(&c, "https://e4.test/", 0, &got, NULL, &err) == 1,
	    "fresh entries survive cleanup");
	uk_json_free(got);

	/* Size limit: least recently used go first. */
	{
		struct uk_cache_clean o;
		struct timespec ts[2];
		long long sz;

		p2 = uk_cache_path(&c, "https://e3.test/");
		stat(p2, &st);
		sz = st.st_size;
		clock_gettime(CLOCK_REALTIME, &ts[0]);
		ts[0].tv_sec -= 3600;
		ts[1].tv_nsec = UTIME_OMIT;
		utimensat(AT_FDCWD, p2, ts, 0);
		free(p2);
		p2 = uk_cache_path(&c, "https://e4.test/");
		ts[0].tv_sec -= 3600;
		utimensat(AT_FDCWD, p2, ts, 0);
		free(p2);
		/* A get makes e4 recent again; e3 is now the oldest. */
		uk_cache_get(&c, "https://e4.test/", 0, &got, NULL, &err);
		uk_json_free(got);
		memset(&o, 0, sizeof(o));
		o.max_size = (unsigned long long)(3 * sz); /* 4 entries */
		m = uk_cache_clean_run(&c, &o, &err);
		ok(m == 1 && o.evicted == 1, "max_size evicts one");
		ok(uk_cache_get(&c, "https://e3.test/", 0, &got, NULL, &err) ==
			0,
		    "the least recently used went");
		ok(uk_cache_get(&c, "https://e4.test/", 0, &got, NULL, &err) ==
			1,
		    "the recently used stayed");
		uk_json_free(got);
	}

	/* Crash safety: writers killed mid-write leave valid entries. */
	{
		int k, bad = 0;
		yajl_val big = record("https://crash.test/", "");

		uk_buf_reset(&b);
		for (i = 0; i < 200000; i++)
			uk_buf_addch(&b, 'a' + i % 26);
		uk_json_set_str(big, "content", b.buf);
		uk_cache_set(&c, big, &err);
		for (k = 0; k < 20; k++) {
			pid_t pid = fork();

			if (pid == 0) {
				for (;;)
					uk_cache_set(&c, big, NULL);
			}
			usleep(1000 + (useconds_t)(rand() % 3000));
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			if (uk_cache_get(&c, "https://crash.test/", 0, &got,
				NULL, &err) != 1)
				bad++;
			else
				uk_json_free(got);
		}
		ok(bad == 0, "SIGKILL mid-write never leaves a bad entry");
		uk_json_free(big);
		uk_cache_clean_run(&c, NULL, &err);
		tmps = 0;
		uk_cache_clean_walk(&c, count_tmp, &tmps, &err);
		ok(tmps == 0, "cleanup removes the killed writers' temp files");
	}

	/* Clear. */
	m = uk_cache_clean_remove_all(&c, &err);
	ok(m == 4, "clear returns how many");
	ok(uk_cache_get(&c, "https://e4.test/", 0, &got, NULL, &err) == 0,
	    "clear removes all");

	/* Unwritable: the cache directory is a file. */
	{
		struct uk_cache bad;

		snprintf(sub, sizeof(sub), "%s/file", tmpl);
		write_raw(sub, "x");
		uk_cache_open(&bad, sub, -1, &err);
		r = record("https://a.test/", "x");
		ok(uk_cache_set(&bad, r, &err) == -1 &&
			err.code == UK_EXIT_FATAL,
		    "cache directory is a file: fatal");
		uk_json_free(r);
		uk_cache_release(&bad);
	}

	/* Sessions. */
	{
		struct uk_session ss;
		yajl_val list;

		ok(uk_session_open(&ss, &c, "../x", &err) == -1,
		    "bad session name refused");
		ok(uk_session_open(&ss, &c, "agent-1", &err) == 0,
		    "session open");
		list = NULL;
		ok(uk_session_list(&ss, &list, &err) == 0 && list &&
			YAJL_IS_ARRAY(list) && list->u.array.len == 0,
		    "empty session lists nothing");
		uk_json_free(list);
		ok(uk_session_content(&ss, "https://s.test/", &got, &err) == 0,
		    "unfetched URL: nowhere");
		r = record("https://s.test/", "in session");
		uk_cache_set(&c, r, &err);
		ok(uk_session_content(&ss, "https://s.test/", &got, &err) == 2,
		    "falls back to the cache");
		uk_json_free(got);
		ok(uk_session_add(&ss, r, &err) == 0, "session add");
		uk_json_free(r);
		uk_cache_invalidate(&c, "https://s.test/", &err);
		ok(uk_session_content(&ss, "https://s.test/", &got, &err) == 1,
		    "found in the session first");
		uk_json_free(got);
		r = record("https://t.test/", "t");
		uk_session_add(&ss, r, &err);
		uk_cache_set(&c, r, &err);
		uk_json_free(r);
		uk_session_list(&ss, &list, &err);
		ok(list && list->u.array.len == 2, "list has both");
		uk_json_free(list);
		ok(uk_session_remove(&ss, "https://t.test/", &err) == 1,
		    "remove from session");
		ok(uk_cache_get(&c, "https://t.test/", 0, &got, NULL, &err) ==
			1,
		    "remove keeps the cache entry");
		uk_json_free(got);
		ok(uk_session_remove_all(&ss, &err) == 1,
		    "clear session: count");
		uk_session_list(&ss, &list, &err);
		ok(list && list->u.array.len == 0, "cleared");
		uk_json_free(list);
		uk_session_release(&ss);
	}

	free(path);
	uk_cache_release(&c);
	uk_buf_release(&b);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
		if (system(cmd))
			printf("# could not remove %s\n", tmpl);
	}
	return tap_done();
}
