/* SPDX-License-Identifier: MIT */
/* Unit tests for the core modules: buf, util, json, jsonl, strset. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "buf.h"
#include "child.h"
#include "json.h"
#include "jsonl.h"
#include "netguard.h"
#include "strset.h"
#include "cli.h"
#include "util.h"
#include "tap.h"
#include <arpa/inet.h>
#include <netinet/in.h>

static void
test_buf(void)
{
	struct uk_buf b = UK_BUF_INIT;
	size_t bad;

	ok(b.len == 0 && b.buf[0] == '\0', "empty buffer is an empty string");
	uk_buf_addstr(&b, "abc");
	uk_buf_addf(&b, "-%d-", 42);
	ok(!strcmp(b.buf, "abc-42-") && b.len == 7, "add and addf");
	uk_buf_remove(&b, 1, 2);
	ok(!strcmp(b.buf, "a-42-"), "remove");
	uk_buf_reset(&b);
	uk_buf_addstr(&b, "  x y \n");
	uk_buf_trim(&b);
	ok(!strcmp(b.buf, "x y"), "trim");
	uk_buf_reset(&b);
	bad = uk_buf_add_utf8(&b, "a\xff" "b\xc3\xa9\xe2\x82", 7);
	ok(bad == 2 && !strcmp(b.buf, "a\xef\xbf\xbd" "b\xc3\xa9\xef\xbf\xbd"),
	    "invalid UTF-8 replaced by U+FFFD");
	uk_buf_reset(&b);
	/* Long ASCII runs (read eight bytes at a time) around bad bytes. */
	bad = uk_buf_add_utf8(&b,
	    "0123456789abcdefg\xff"
	    "0123456789abcdef\xc3\xa9"
	    "01234567\xe2\x82",
	    46);
	ok(bad == 2 &&
		!strcmp(b.buf, "0123456789abcdefg\xef\xbf\xbd"
			       "0123456789abcdef\xc3\xa9"
			       "01234567\xef\xbf\xbd"),
	    "ASCII runs around invalid UTF-8");
	ok(uk_buf_utf8_valid("\xf0\x9f\x98\x80", 4), "4-byte sequence valid");
	ok(!uk_buf_utf8_valid("\xed\xa0\x80", 3), "surrogate invalid");
	ok(!uk_buf_utf8_valid("\xc0\xaf", 2), "overlong invalid");
	ok(uk_buf_utf8_cut("ab\xc3\xa9", 3) == 2,
	    "cut does not split a sequence");
	ok(uk_buf_utf8_cut("ab\xc3\xa9", 4) == 4, "cut keeps a whole sequence");
	ok(uk_buf_utf8_chars("a\xc3\xa9z\xe2\x82\xac", 7) == 4,
	    "characters are code points");
	ok(uk_buf_utf8_prefix("a\xc3\xa9z\xe2\x82\xac", 7, 2) == 3,
	    "a prefix keeps a sequence whole");
	ok(uk_buf_utf8_prefix("a\xc3\xa9z\xe2\x82\xac", 7, 3) == 4,
	    "prefix of 3 characters");
	ok(uk_buf_utf8_prefix("a\xc3\xa9z\xe2\x82\xac", 7, 10) == 7,
	    "prefix of all");
	uk_buf_release(&b);
}

static void
test_util(void)
{
	long l;
	double d;
	unsigned long long s;

	ok(uk_util_parse_long("12", 0, 100, &l) == 0 && l == 12, "parse_long");
	ok(uk_util_parse_long("12x", 0, 100, &l) < 0,
	    "parse_long rejects junk");
	ok(uk_util_parse_long("101", 0, 100, &l) < 0, "parse_long range");
	ok(uk_util_parse_seconds("2m", &d) == 0 && d == 120,
	    "parse_seconds 2m");
	ok(uk_util_parse_size("500M", &s) == 0 && s == 500ULL << 20,
	    "parse_size");
	ok(uk_util_parse_size("5X", &s) < 0, "parse_size rejects unit");
	ok(uk_util_parse_size("2T", &s) == 0 && s == 2ULL << 40,
	    "parse_size T");
	ok(uk_util_parse_size("3kib", &s) == 0 && s == 3072, "parse_size kib");
	ok(uk_util_parse_size("7B", &s) == 0 && s == 7, "parse_size B");
	ok(uk_util_parse_size("7BB", &s) < 0, "parse_size rejects BB");
	ok(uk_cli_size("500", &s) < 0, "cli_size: a bare number needs a unit");
	ok(uk_cli_size("0", &s) == 0 && s == 0, "cli_size: 0 needs none");
	ok(uk_cli_size("500M", &s) == 0 && s == 500ULL << 20, "cli_size 500M");
	ok(uk_cli_size("", &s) < 0 && uk_cli_size("M", &s) < 0, "cli_size: no number");
}

static void
test_json(void)
{
	struct uk_err err;
	struct uk_buf b = UK_BUF_INIT;
	const char *in =
	    "{\"b\":1.50,\"a\":[1,2e3,{\"x\":null}],\"big\":123456789012345678901234567890}";
	yajl_val v = uk_json_parse(in, strlen(in), &err);
	char deep[2000];

	ok(v != NULL, "parse");
	uk_json_to_buf(v, &b);
	ok(!strcmp(b.buf, in), "round trip keeps order and numbers as written");
	uk_json_set_str(v, "b", "two");
	uk_json_set_int(v, "c", 3);
	uk_buf_reset(&b);
	uk_json_to_buf(v, &b);
	ok(!strcmp(b.buf, "{\"b\":\"two\",\"a\":[1,2e3,{\"x\":null}],\"big\":123456789012345678901234567890,\"c\":3}"),
	    "set replaces in place and appends");
	ok(uk_json_del(v, "a") == 1 && !uk_json_get(v, "a"), "del");
	uk_json_free(v);
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	ok(uk_json_parse(deep, strlen(deep), &err) == NULL &&
		strstr(err.msg, "deeper"),
	    "deep nesting refused");
	ok(uk_json_parse("{\"a\":", 5, &err) == NULL &&
		!strncmp(err.msg, "invalid JSON", 12),
	    "truncated JSON refused");
	v = uk_json_object();
	uk_json_set(v, "s", uk_json_strn("x\xff", 2));
	uk_buf_reset(&b);
	uk_json_to_buf(v, &b);
	ok(!strcmp(b.buf, "{\"s\":\"x\xef\xbf\xbd\"}"), "strings made valid");
	uk_json_free(v);
	uk_buf_release(&b);
}

static void
test_jsonl(void)
{
	char path[] = "/tmp/t_core.XXXXXX";
	int fd = mkstemp(path), r;
	struct uk_jsonl_in l;
	struct uk_err err;
	yajl_val rec;
	const char *data = "{\"a\":1}\n\n   \nnot json\n{\"s\":\"\xff\"}\n"
			   "https://example.com/x\n[1]\nhttp://[::1]:8080/p\n"
			   "[\"http://x.com/\"]\n{\"last\":true}";

	ok(fd >= 0 && write(fd, data, strlen(data)) == (ssize_t)strlen(data),
	    "fixture written");
	close(fd);
	ok(uk_jsonl_open(&l, path, &err) == 0, "open");
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == 1 && l.lineno == 1, "first record, line 1");
	uk_json_free(rec);
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == -1 && l.lineno == 4 && err.code == UK_EXIT_FAIL,
	    "blank lines skipped, bad line 4 reported");
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == 1 && !strcmp(uk_json_get_str(rec, "s"), "\xef\xbf\xbd"),
	    "invalid UTF-8 replaced");
	uk_json_free(rec);
	r = uk_jsonl_next(&l, UK_JSONL_BARE_URL, &rec, &err);
	ok(r == 1 && !strcmp(uk_json_get_str(rec, "url"),
			  "https://example.com/x"),
	    "bare URL taken as a url record");
	uk_json_free(rec);
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == -1 && !strcmp(err.msg, "not a JSON object"), "array refused");
	r = uk_jsonl_next(&l, UK_JSONL_BARE_URL, &rec, &err);
	ok(r == 1 && !strcmp(uk_json_get_str(rec, "url"),
			  "http://[::1]:8080/p"),
	    "bare URL with an IPv6 host taken as a url record");
	uk_json_free(rec);
	r = uk_jsonl_next(&l, UK_JSONL_BARE_URL, &rec, &err);
	ok(r == -1 && !strcmp(err.msg, "not a JSON object or a URL"),
	    "an array is not a bare URL");
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == 1 && uk_json_get_bool(rec, "last"),
	    "last line without newline read");
	uk_json_free(rec);
	ok(uk_jsonl_next(&l, 0, &rec, &err) == 0, "end of input");
	uk_jsonl_close(&l);

	/* A line over the limit is skipped whole, in bounded memory. */
	fd = open(path, O_WRONLY | O_TRUNC);
	{
		char chunk[4096];
		int i;

		memset(chunk, 'x', sizeof(chunk));
		for (i = 0; i < 64; i++)
			r = (int)write(fd, chunk, sizeof(chunk));
		r = (int)write(fd, "\n{\"ok\":1}\n", 10);
	}
	close(fd);
	uk_jsonl_open(&l, path, &err);
	l.max = 1000;
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == -1 && strstr(err.msg, "longer than") && l.line.alloc < 4096,
	    "over-long line refused without holding it");
	r = uk_jsonl_next(&l, 0, &rec, &err);
	ok(r == 1 && l.lineno == 2, "next line read after an over-long one");
	uk_json_free(rec);
	uk_jsonl_close(&l);
	unlink(path);
}

static void
test_strset(void)
{
	struct uk_strset s = UK_STRSET_INIT;
	char k[32];
	int i, all = 1;

	ok(uk_strset_add(&s, "a", 1) == 1, "add new");
	ok(uk_strset_add(&s, "a", 1) == 0, "add again");
	for (i = 0; i < 1000; i++) {
		snprintf(k, sizeof(k), "key%d", i);
		all &= uk_strset_add(&s, k, strlen(k));
	}
	ok(all && s.len == 1001, "1000 more keys, table grown");
	ok(uk_strset_has(&s, "key999", 6) && !uk_strset_has(&s, "key1000", 7),
	    "has");
	uk_strset_reset(&s);
	ok(s.len == 0 && !uk_strset_has(&s, "a", 1), "clear");
	uk_strset_release(&s);
}

static int
allowed(const char *ip)
{
	struct sockaddr_in in;
	struct sockaddr_in6 in6;

	memset(&in, 0, sizeof(in));
	memset(&in6, 0, sizeof(in6));
	if (inet_pton(AF_INET, ip, &in.sin_addr) == 1) {
		in.sin_family = AF_INET;
		return uk_netguard_allowed((struct sockaddr *)&in, NULL, 0);
	}
	inet_pton(AF_INET6, ip, &in6.sin6_addr);
	in6.sin6_family = AF_INET6;
	return uk_netguard_allowed((struct sockaddr *)&in6, NULL, 0);
}

static void
test_netguard(void)
{
	static const char *const refused[] = { "127.0.0.1", "10.1.2.3",
		"172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
		"0.0.0.0", "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1",
		"::", "fe80::1", "fc00::1", "fd12::1", "ff02::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", NULL };
	static const char *const allowed_ips[] = { "93.184.216.34",
		"172.32.0.1", "8.8.8.8", "2606:4700::1111", NULL };
	int i;

	for (i = 0; refused[i]; i++)
		ok(!allowed(refused[i]), "netguard refuses %s", refused[i]);
	for (i = 0; allowed_ips[i]; i++)
		ok(allowed(allowed_ips[i]), "netguard allows %s",
		    allowed_ips[i]);
}

/*
 * A forked child keeps 0-2 and the descriptor it writes, and no other
 * descriptor its parent had (another thread's pipe stays out of it).
 */
static void
test_child_keep_fd(void)
{
	int keep[2], other[2], st = 0;
	pid_t pid;

	if (pipe(keep) < 0 || pipe(other) < 0) {
		ok(0, "pipes for uk_child_keep_fd");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd = uk_child_keep_fd(keep[1]);

		/* 1: the kept one answers; 2: the other pipe is closed. */
		if (fd != 3 || write(fd, "k", 1) != 1)
			_exit(1);
		_exit(fcntl(other[1], F_GETFD) < 0 && fcntl(4, F_GETFD) < 0 ?
		    0 : 2);
	}
	close(keep[1]);
	close(other[1]);
	waitpid(pid, &st, 0);
	{
		char c = 0;
		ssize_t n = read(keep[0], &c, 1);

		ok(n == 1 && c == 'k', "uk_child_keep_fd: the kept descriptor "
		    "is 3 and writes");
		/* The other pipe's write end is shut in the child too: EOF. */
		n = read(other[0], &c, 1);
		ok(n == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "uk_child_keep_fd: every other descriptor is closed (exit "
		    "%d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	close(keep[0]);
	close(other[0]);
}

int
main(void)
{
	test_child_keep_fd();
	test_buf();
	test_util();
	test_json();
	test_jsonl();
	test_strset();
	test_netguard();
	return tap_done();
}
