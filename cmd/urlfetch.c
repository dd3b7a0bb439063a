/* SPDX-License-Identifier: MIT */
/*
 * urlfetch: fetch what URLs point to, many at once, through the cache.
 *
 * This program is the front: it parses the command line, answers --help,
 * --version, usage errors and --extract (extraction of a local file) by
 * itself, linking only libc, yajl and gumbo, and hands every other run to
 * the fetcher, urlfetch-net (cmd/urlfetch-net.c), with execv.  Start-up of
 * an extraction thus costs no dynamic loading of libcurl, libgit2,
 * libarchive, tree-sitter and their dozens of libraries.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "extract.h"
#include "fetchargs.h"
#include "json.h"
#include "jsonl.h"
#include "util.h"
#include "banned.h"

/* Extraction input larger than this is refused rather than truncated. */
#define EXTRACT_MAX (64UL << 20)

static struct uk_fetchargs opt;
static char **net_argv; /* argv as given, for the fetcher */
static struct uk_jsonl_out out;

/* Read all of path ("-": standard input) into b; -1 with err. */
static int
read_all(const char *path, struct uk_buf *b, struct uk_err *err)
{
	int fd = 0;
	ssize_t r;

	if (strcmp(path, "-")) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
	}
	for (;;) {
		uk_buf_grow(b, 65536);
		r = read(fd, b->buf + b->len, b->alloc - b->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: %s", path,
			    strerror(errno));
			break;
		}
		if (!r)
			break;
		uk_buf_setlen(b, b->len + (size_t)r);
		if (b->len > EXTRACT_MAX) {
			uk_err_set(err, UK_EXIT_FAIL, "%s: larger than %lu MiB",
			    path, EXTRACT_MAX >> 20);
			r = -1;
			break;
		}
	}
	if (fd)
		close(fd);
	return r < 0 ? -1 : 0;
}

/*
 * Map a regular file of 1 byte to EXTRACT_MAX read-only: cheaper than
 * reading it into fresh memory (no copy, and the page cache's pages are
 * mapped many at a time rather than faulted in one by one).  NULL when
 * path is not such a file: read_all then reads it, and says what is wrong.
 */
static const char *
map_file(const char *path, size_t *len)
{
	struct stat st;
	void *p;
	int fd;

	if (!strcmp(path, "-") || (fd = open(path, O_RDONLY)) < 0)
		return NULL;
	p = MAP_FAILED;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long)st.st_size <= EXTRACT_MAX) {
		*len = (size_t)st.st_size;
		p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/*
 * With --text, the header before a file's text when several are given,
 * as tail(1) writes it: "==> FILE <==", a blank line before all but the
 * first.  A file that fails has none (its error goes to stderr), as in
 * tail.
 */
static void
text_header(const char *path)
{
	static int headers;

	if (opt.nin < 2)
		return;
	printf("%s==> %s <==\n", headers++ ? "\n" : "", path);
}

/*
 * --extract: a local HTML or PDF file, no network (kept as the extraction
 * scaffold wrote it: the benchmarks and evaluators call it).
 */
static void
extract_file(const char *path, const char *url, int text_only)
{
	struct uk_buf in = UK_BUF_INIT, u = UK_BUF_INIT;
	struct uk_extract x;
	struct uk_err err = { 0 };
	yajl_val rec;
	char now[64];
	const char *html, *mapped;
	size_t len = 0;
	int failed = 0;

	memset(&x, 0, sizeof(x));
	html = mapped = map_file(path, &len);
	if (!html) {
		failed = read_all(path, &in, &err) < 0;
		html = in.buf ? in.buf : "";
		len = in.len;
	}
	if (!failed)
		failed = (uk_extract_is_pdf(html, len) ?
			uk_extract_pdf(html, len, url, &opt.fo.extract, &x,
			    &err) :
			uk_extract_html(html, len, NULL, url, &opt.fo.extract,
			    &x, &err)) < 0;
	if (mapped)
		munmap((void *)mapped, len);
	if (!url) {
		char *abs = strcmp(path, "-") ? realpath(path, NULL) : NULL;

		uk_buf_addstr(&u, "file://");
		uk_buf_addstr(&u,
		    abs                   ? abs :
			strcmp(path, "-") ? path :
					    "/dev/stdin");
		free(abs);
		url = u.buf;
	}
	if (!failed && x.blocked)
		uk_err_set(&err, UK_EXIT_FAIL,
		    "'%s' is a block or challenge page, not content", url);
	if (x.explain) {
		void *ex = uk_extract_explain_array(x.explain, url);

		if (uk_extract_explain_write(stderr, ex) < 0)
			uk_status_set(UK_EXIT_FATAL);
		uk_json_free(ex);
	}
	if (text_only) {
		if (failed || x.blocked) {
			uk_warn("%s", err.msg);
			uk_status_set(UK_EXIT_FAIL);
		} else {
			struct uk_buf t = UK_BUF_INIT;

			text_header(path);
			/* Text for a person: no terminal controls. */
			uk_buf_addstr(&t, x.text);
			uk_cli_printable(&t);
			if (t.len && (fwrite(t.buf, 1, t.len, stdout) != t.len ||
					 putchar('\n') == EOF))
				uk_status_set(UK_EXIT_FATAL);
			uk_buf_release(&t);
		}
		if (fflush(stdout) == EOF || ferror(stdout)) {
			uk_warn("write error: %s", strerror(errno));
			uk_status_set(UK_EXIT_FATAL);
		}
		goto out;
	}
	rec = uk_json_object();
	uk_json_set_str(rec, "url", url);
	uk_json_set_str(rec, "url_type", "web");
	if (failed) {
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	} else {
		uk_extract_record(&x, 0, rec);
	}
	uk_time_rfc3339(now, sizeof(now));
	uk_json_set_str(rec, "fetched_at", now);
	if (!failed && !x.blocked && x.needs_browser)
		uk_warn("'%s': %s", url, uk_extract_shell_warning);
	if (!failed && x.blocked) {
		uk_json_set_str(rec, "error", err.msg);
		uk_warn("%s", err.msg);
		uk_status_set(UK_EXIT_FAIL);
	}
	uk_jsonl_out_record(&out, rec);
	uk_json_free(rec);
out:
	uk_extract_release(&x);
	uk_buf_release(&in);
	uk_buf_release(&u);
}

/*
 * Every run that may touch the network: replace this process with the
 * fetcher, urlfetch-net, argv unchanged.  It is looked for in
 * $URLKIT_LIBEXEC_DIR when set; otherwise in ../libexec/urlkit/ beside the
 * directory of this executable (bin/ when installed, build/bin in the
 * build tree), then in the LIBEXECDIR the build was configured with.
 */
#ifndef UK_LIBEXECDIR
#define UK_LIBEXECDIR "/usr/local/libexec/urlkit"
#endif

static void
exec_net(char **argv)
{
	struct uk_buf path = UK_BUF_INIT;
	const char *dir = getenv("URLKIT_LIBEXEC_DIR");
	char self[PATH_MAX], *p;
	ssize_t n;
	int i, e;

	if (dir && *dir) {
		uk_buf_addf(&path, "%s/urlfetch-net", dir);
		execv(path.buf, argv);
		uk_die(UK_EXIT_FATAL, "cannot run '%s': %s", path.buf,
		    strerror(errno));
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0 && n < (ssize_t)sizeof(self) - 1) {
		self[n] = '\0';
		/* PREFIX/bin/urlfetch -> PREFIX */
		for (i = 0; i < 2 && (p = strrchr(self, '/')); i++)
			*p = '\0';
		uk_buf_addf(&path, "%s/libexec/urlkit/urlfetch-net", self);
		execv(path.buf, argv);
	}
	e = errno;
	execv(UK_LIBEXECDIR "/urlfetch-net", argv);
	uk_die(UK_EXIT_FATAL,
	    "cannot run urlfetch-net: '%s': %s; '%s': %s "
	    "(URLKIT_LIBEXEC_DIR names its directory)",
	    path.len ? path.buf : "/proc/self/exe", strerror(e),
	    UK_LIBEXECDIR "/urlfetch-net", strerror(errno));
}

int
main(int argc, char **argv)
{
	int i;

	uk_prog_set(argv[0]);
	uk_cli_check_stdio();
	uk_heap_init();
	net_argv = uk_xmalloc(((size_t)argc + 1) * sizeof(*net_argv));
	memcpy(net_argv, argv, ((size_t)argc + 1) * sizeof(*net_argv));
	uk_fetchargs_init(&opt);
	uk_fetchargs_parse(&opt, argc, argv);
	if (!opt.extract) {
		uk_fetchargs_release(&opt);
		exec_net(net_argv);
		return UK_EXIT_FATAL;
	}
	free(net_argv);
	if (opt.output && !freopen(opt.output, "w", stdout))
		uk_cli_usage(&uk_fetchargs_cli, "-o: cannot open '%s': %s",
		    opt.output, strerror(errno));
	uk_jsonl_out_init(&out, stdout);
	for (i = 0; i < opt.nin; i++)
		extract_file(opt.in[i].arg, opt.base, opt.text);
	uk_jsonl_out_finish(&out);
	uk_jsonl_out_release(&out);
	uk_fetchargs_release(&opt);
	return uk_status;
}
